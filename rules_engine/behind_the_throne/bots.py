"""Bots that take every decision of a Behind the Throne game.

A bot's ``act(state, seat)`` returns one of ``state.legal_actions()``. Bots look only at what their
player could know at the table: every stack, the discard pile and the row are face up, so the number of
cards of each character left in the deck is known (``state.deck_count``), but not their order, except
for a top card the player itself has looked at with the Prophet (``state.peeked``). Randomness comes
from the game's seeded generator, passed in as ``rng``. The core's ``search`` bot plays this game too.

* ``random``: picks a kind of move at random (reveal, stop, swap, use an ability, destroy, bust), then
  one move of that kind at random.
* ``cautious``: a stop-risk heuristic. Before each reveal it compares the score the row would add now
  with the expected score after one more card, counting a bust (a higher card it could not lower) as
  losing the row and the End of Game card as a win when it leads and a loss when it does not. It looks
  with the Prophet before deciding, saves a busting card with the smallest ability that does, destroys
  the opponent card that costs its owner most, swaps when a card taken is worth more than the row, and
  discards its least valuable stack.
"""

from __future__ import annotations

from rules_engine.core.bots import Bot, registry
from rules_engine.core.bots import RandomBot as CoreRandomBot
from rules_engine.core.bots import make_bot as core_make_bot
from rules_engine.behind_the_throne.rules import MAX_STACKS, ROW_LIMIT, SCORING_SIZE, STACK_LIMIT
from rules_engine.behind_the_throne.state import BUST, DISCARD, DISCARD_STACK, REVEAL_ACTION, STOP_ACTION, Action


class RandomBot(CoreRandomBot):
    """The core random bot: a random kind of move, then a random move of that kind
    (``GameState.random_action``)."""

    fast = True


#: Score-equivalent of ending the game by revealing the End of Game card (won when leading, else lost).
END_STAKE = 12.0
#: Worth of one more card in a stack that does not score yet (a step towards scoring or a larger stack).
GROWTH = 0.35


def _stack_worth(value, count):
    """How much a stack of ``count`` cards of a ``value`` character is worth to its holder."""
    if count >= SCORING_SIZE:
        return value + GROWTH * (count - SCORING_SIZE)
    return GROWTH * value * count / SCORING_SIZE


def worth_table(rules) -> list[list[float]]:
    """``table[kind][count]``: :func:`_stack_worth` of every character and stack size."""
    return [[_stack_worth(v, c) for c in range(STACK_LIMIT + 1)] for v in rules.value]


def collect_gain(table, counts: dict, kinds, max_stacks: int = MAX_STACKS) -> float:
    """What collecting ``kinds`` adds to a holding of ``counts`` (kind -> cards): cards past five are
    discarded, and over five stacks the least valuable stacks go."""
    added = {}
    for k in kinds:
        added[k] = added.get(k, 0) + 1
    gain = 0.0
    new = 0
    for k, a in added.items():
        c = counts.get(k, 0)
        if not c:
            new += 1
        gain += table[k][min(STACK_LIMIT, c + a)] - table[k][c]
    extra = len(counts) + new - max_stacks
    if extra > 0:
        worths = [table[k][min(STACK_LIMIT, c + added.get(k, 0))] for k, c in counts.items()]
        worths.extend(table[k][a] for k, a in added.items() if k not in counts)
        worths.sort()
        gain -= sum(worths[:extra])
    return gain


class CautiousBot(Bot):
    name = "cautious"
    fast = True

    def act(self, state, p, rng=None):
        if state.phase == DISCARD:
            return self.discard(state, p)
        if state.busting:
            return self.save(state)
        return self.turn(state, p)

    # --- helpers --------------------------------------------------------------------------------

    def __init__(self):
        self._tables = {}

    def table(self, rules):
        table = self._tables.get(id(rules))
        if table is None:
            table = self._tables[id(rules)] = worth_table(rules)
        return table

    @staticmethod
    def counts(state, p):
        return {k: len(s) for k, s in state.stacks[p].items()}

    def gain(self, state, p, kinds, counts=None) -> float:
        return collect_gain(self.table(state.rules), counts if counts is not None else self.counts(state, p), kinds,
                            state.max_stacks)

    @staticmethod
    def leading(state, p) -> bool:
        mine = state.score(p)
        return all(mine > state.score(q) for q in range(state.n) if q != p)

    # --- decisions ------------------------------------------------------------------------------

    def discard(self, state, p):
        values = state.rules.value
        table = self.table(state.rules)
        stacks = state.stacks[p]
        worst = min(stacks, key=lambda k: (table[k][len(stacks[k])], values[k], k))
        return Action(DISCARD_STACK, worst)

    def save(self, state):
        """Lower a busting card with the fewest points of ability, preferring an exact tie (a destroy)."""
        uses = [a for a in state.value_uses() if a.delta < 0]
        over = state.cur - state.prev
        enough = [a for a in uses if -a.delta >= over]
        if enough:
            return min(enough, key=lambda a: (-a.delta != over, -a.delta, a.via >= 0, a.kind))
        if uses:
            return max(uses, key=lambda a: (-a.delta, a.via < 0, -a.kind))
        return Action(BUST)

    def turn(self, state, p):
        rules = state.rules
        row = state.row
        # a destroy after equal values costs nothing: take the opponent card that hurts most
        target = self.best_destroy(state, p, state.destroy_targets())
        if target is not None:
            return target
        if len(row) >= 2 and not state.destroy_done and state.cur != state.prev:
            tie = self.tie_for_destroy(state, p)
            if tie is not None:
                return tie
        if len(row) >= ROW_LIMIT:
            return self.finish(state, p)
        peeks = state.peek_uses()
        if peeks:
            return min(peeks, key=lambda a: a.via >= 0)
        if not row:
            return REVEAL_ACTION
        reveal = self.reveal_worth(state, p)
        stop = self.gain(state, p, [rules.kind_of[c] for c in row])
        if reveal > stop:
            return REVEAL_ACTION
        return self.finish(state, p)

    def reveal_worth(self, state, p) -> float:
        """Expected gain of revealing one more card and then stopping."""
        rules = state.rules
        kinds = [rules.kind_of[c] for c in state.row]
        last = rules.value_of[state.row[-1]]
        drop = state.max_drop()
        leading = self.leading(state, p)
        counts = self.counts(state, p)
        if state.peeked is not None:
            k = rules.kind_of[state.peeked]
            if k == rules.end_kind:
                return END_STAKE if leading else -END_STAKE
            if rules.value[k] - drop > last:
                return 0.0
            return self.gain(state, p, kinds + [k], counts)
        deck = state.deck_count if state.deck else self._discard_counts(state)
        total = sum(deck)
        if not total:
            return 0.0
        worth = 0.0
        table = self.table(rules)
        value = rules.value
        for k, n in enumerate(deck):
            if not n:
                continue
            if k == rules.end_kind:
                worth += n * (END_STAKE if leading else -END_STAKE)
            elif value[k] - drop <= last:
                worth += n * collect_gain(table, counts, kinds + [k], state.max_stacks)
        return worth / total

    @staticmethod
    def _discard_counts(state):
        counts = [0] * len(state.rules.cards)
        for c in state.discard:
            counts[state.rules.kind_of[c]] += 1
        return counts

    def finish(self, state, p):
        """Collect the row, or swap it when a card taken is worth more than what the row brings."""
        rules = state.rules
        kinds = [rules.kind_of[c] for c in state.row]
        mine = self.counts(state, p)
        best, best_worth = STOP_ACTION, self.gain(state, p, kinds, mine)
        helps, takes = {}, {}
        for action in state.swap_targets():
            q, k = action.seat, action.kind
            if q not in helps:
                helps[q] = self.gain(state, q, kinds)
            if k not in takes:
                takes[k] = self.gain(state, p, [k], mine)
            worth = takes[k] + self.loss(state, q, k) - helps[q]
            if worth > best_worth:
                best, best_worth = action, worth
        return best

    def loss(self, state, q, kind) -> float:
        """What losing one card of ``kind`` costs seat ``q``."""
        row = self.table(state.rules)[kind]
        count = state.count(q, kind)
        return row[count] - row[count - 1]

    def best_destroy(self, state, p, targets):
        best, best_harm = None, 0.0
        for action in targets:
            if action.seat == p:
                continue
            harm = self.loss(state, action.seat, action.kind)
            if harm > best_harm:
                best, best_harm = action, harm
        return best

    def tie_for_destroy(self, state, p):
        """An ability use that makes the last card equal to the one before, when a destroy would pay."""
        want = state.prev - state.cur
        uses = [a for a in state.value_uses() if a.delta == want]
        if not uses:
            return None
        cur, state.cur = state.cur, state.prev      # what could be destroyed once the values are equal
        targets = state.destroy_targets()
        state.cur = cur
        best = self.best_destroy(state, p, targets)
        if best is None or self.loss(state, best.seat, best.kind) < 1.0:
            return None
        return min(uses, key=lambda a: (a.via >= 0, a.kind))


#: The engine's bots (name -> factory), the core's ``search`` included.
BOTS = registry({"random": RandomBot, "cautious": CautiousBot})


def make_bot(spec: str):
    """A bot from its name (``cautious``) or spec (``search:400``)."""
    return core_make_bot(BOTS, spec)
