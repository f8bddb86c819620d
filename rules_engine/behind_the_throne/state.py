"""The mutable state of a Behind the Throne game and the rules that move it forward.

:class:`GameState` implements the core state API (:mod:`rules_engine.core.state`):
:meth:`GameState.to_move` says whose decision it is (one player at a time), :meth:`GameState.legal_actions`
lists what that player may do, :meth:`GameState.apply` does it and :meth:`GameState.action_to_string`
names it. The chance events are the shuffles: the deck at the start, and the discard pile the moment
the deck runs out. Their explicit outcomes place one card at a time from the top
(:meth:`GameState.chance_outcomes`); the fast path shuffles at once (:meth:`GameState.sample_chance`).

Two phases ask for decisions:

``turn``     the active player reveals cards into their row, uses abilities, destroys a card after
             equal values, and ends the turn by collecting the row, swapping it, or busting;
``discard``  a player who holds more than five stacks after collecting (the active player, or the
             receiver of a swap) discards whole stacks until five are left.

The game is ``over`` when someone reveals the End of Game card. Actions are :class:`Action` tuples
whose ``kind`` is a card's index in ``rules.cards`` and ``seat`` a player. With ``record=True`` every
step is written to ``state.events``; with ``check=True`` the invariants
(:mod:`rules_engine.behind_the_throne.invariants`) are checked after every action.

Interpretations of the printed rules are marked ``RULING`` and collected in ``docs/engine.md``.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from rules_engine.behind_the_throne.events import Event
from rules_engine.core.search import softmax_returns
from rules_engine.core.state import IllegalAction, State, shuffle, weighted_kinds
from rules_engine.behind_the_throne.invariants import check_state
from rules_engine.behind_the_throne.rules import MAX_STACKS, ROW_LIMIT, SCORING_SIZE, STACK_LIMIT, TURN_LIMIT, Rules

TURN, DISCARD, OVER = "turn", "discard", "over"

#: Game-over reasons.
END_CARD, TURN_LIMIT_REACHED = "end_card", "turn_limit"
REASONS = (END_CARD, TURN_LIMIT_REACHED)

#: Action verbs.
REVEAL, STOP, BUST, USE, DESTROY, SWAP, DISCARD_STACK = "reveal", "stop", "bust", "use", "destroy", "swap", "discard"
VERBS = (REVEAL, STOP, BUST, USE, DESTROY, SWAP, DISCARD_STACK)

#: How a turn ended, for statistics.
ENDINGS = ("collect", "swap", "bust", "end")


class Action(NamedTuple):
    """One decision. ``kind``: the character used, destroyed, taken or discarded; ``seat``: the player
    whose card is destroyed or taken; ``delta``: the value change of a ``use``; ``via``: the character
    (the Judge) whose ability allows a use the player could not make directly."""

    verb: str
    kind: int = -1
    seat: int = -1
    delta: int = 0
    via: int = -1


REVEAL_ACTION, STOP_ACTION, BUST_ACTION = Action(REVEAL), Action(STOP), Action(BUST)


class GameState(State):
    """One game of Behind the Throne. Seats are numbered from 0 clockwise; play passes to the left
    (the next seat). ``players`` decides the deck (smaller tables play with fewer copies). With a
    ``seed`` (or ``rng``) the state shuffles by itself (tests, play by hand); with ``seed=None`` a
    shuffle waits for the caller (:meth:`is_chance`)."""

    def __init__(self, rules: Rules, players: int, seed=None, *, record: bool = False, check: bool = False,
                 max_turns: int = TURN_LIMIT, max_stacks: int = MAX_STACKS, rng: random.Random | None = None,
                 _start: bool = True):
        if not 1 <= players <= rules.max_players():
            raise ValueError(f"{players} players: the engine plays 1 to {rules.max_players()}")
        self.rules = rules
        self.n = players
        self._auto_chance = rng if rng is not None else (random.Random(seed) if seed is not None else None)
        self._pending = None                      # cards of a shuffle not yet placed (a chance event)
        self._built = []                          # cards placed so far, top of the deck first
        self.cards = rules.deck(players)          # physical cards in this game
        self.stacks = [{} for _ in range(players)]  # per seat: kind -> physical cards
        self.deck = []                            # the top card is the last
        self.discard = [rules.end_card]           # the End of Game card starts the discard pile
        self.deck_count = [0] * len(rules.cards)  # cards of each kind in the deck (public knowledge)
        self.row = []
        self.cur = 0                              # value of the row's last card, after abilities
        self.prev = 0                             # printed value of the card before it
        self.active = 0
        self.turn = 0
        self.used = set()                         # kinds whose ability the active player used this turn
        self.peeked = None                        # top card the active player has looked at
        self.targeted = set()                     # seats whose card the active player destroyed this turn
        self.destroy_done = False                 # the last card has already given its destroy
        self.placements = []                      # [(seat, cards or None once placed)] being stacked
        self.chooser = None                       # seat choosing a stack to discard
        self.changed = set()                      # seats whose stacks changed this turn
        self.phase = TURN
        self.max_turns = max_turns
        self.max_stacks = max_stacks              # the most stacks a player keeps (an option, MAX_STACKS)
        self.over_reason = None
        self.scores = None
        self.winners = ()
        self.winner = None
        self.reveals = self.destroys = self.rebuilds = 0
        self.endings = {e: 0 for e in ENDINGS}
        self.events = [] if record else None
        self.check = check
        self.violations = []
        if _start:
            self._pending = [c for c in self.cards if c != rules.end_card]
            if record:
                self._rec("game_start", players=players, cards=len(self.cards),
                          copies=rules.copies(players))
            self._start_turn()
            self.settle()

    # ------------------------------------------------------------------ set-up positions (scenarios)

    @classmethod
    def setup(cls, rules: Rules, players: int, *, cards, stacks, deck, discard, first: int = 0, seed=0,
              record: bool = False, check: bool = False, start_event: bool = True):
        """A state at the start of seat ``first``'s turn with the given cards in place.

        ``cards``: every physical card of this game; ``stacks``: per seat, a list of physical cards;
        ``deck``: the deck from the top; ``discard``: the discard pile. Used by scenarios.
        """
        state = cls(rules, players, seed, record=record, check=check, _start=False)
        state.cards = tuple(sorted(cards))
        state.discard = list(discard)
        for p, own in enumerate(stacks):
            for c in own:
                state.stacks[p].setdefault(rules.kind_of[c], []).append(c)
        state._set_deck(list(reversed(deck)))
        state.active = first
        if record and start_event:
            state._rec("scenario_start", stacks=[state.stack_counts(p) for p in range(players)],
                       deck=len(state.deck), discard=len(state.discard),
                       position={"stacks": {p: state.stack_counts(p) for p in range(players)},
                                 "deck": [rules.kind_id(rules.kind_of[c]) for c in reversed(state.deck[-6:])]})
        if not state.deck:
            state._refill()
        state._start_turn()
        state.settle()
        if check:
            state._checkpoint("setup")
        return state

    # ------------------------------------------------------------------ OpenSpiel-style API

    def to_move(self) -> list[int]:
        """The seat deciding now (a list of one), or [] during a shuffle and once the game is over."""
        if self._pending is not None:
            return []
        if self.phase == TURN:
            return [self.active]
        if self.phase == DISCARD:
            return [self.chooser]
        return []

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        """1 shared among the winners at the end, else 0."""
        if self.phase != OVER:
            return [0.0] * self.n
        share = 1.0 / len(self.winners)
        return [share if p in self.winners else 0.0 for p in range(self.n)]

    def evaluate(self) -> list[float]:
        """Estimated returns before the end, for the search bot: a softmax of the scores."""
        return softmax_returns([self.score(p) for p in range(self.n)], 3.0)

    # ------------------------------------------------------------------ chance: shuffles

    def is_chance(self) -> bool:
        return self._pending is not None

    def chance_outcomes(self) -> list:
        """The next card placed on the deck being built (from the top): any card still to place,
        copies of a character counted together."""
        if self._pending is None:
            return []
        return weighted_kinds(self._pending, self.rules.kind_of)

    def apply_chance(self, card):
        if self._pending is None or card not in self._pending:
            raise IllegalAction(f"card #{card} cannot be placed on the deck now")
        self._pending.remove(card)
        self._built.append(card)
        if not self._pending:
            self._pending = None
            self._set_deck(self._built[::-1])
            self._built = []

    def sample_chance(self, rng):
        """Shuffle the cards at once (the fast path; the same distribution)."""
        if self._built:
            return State.sample_chance(self, rng)
        cards, self._pending = self._pending, None
        shuffle(cards, rng.random)
        self._set_deck(cards)

    def random_action(self, player, rng):
        """A random kind of move (reveal, stop, swap, use, destroy, bust, discard), then a random move
        of that kind."""
        verbs = self.verbs()
        rnd = rng.random
        choices = self.actions_for(verbs[int(rnd() * len(verbs))])
        return choices[int(rnd() * len(choices))]

    @property
    def busting(self) -> bool:
        """The last card of the row is higher than the printed value of the one before it."""
        return len(self.row) >= 2 and self.cur > self.prev

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """What the deciding player may do now (``player`` defaults to them; others may do nothing)."""
        if self._pending is not None or (player is not None and player != self.current_player()):
            return []
        if self.phase == DISCARD:
            return [Action(DISCARD_STACK, k) for k in sorted(self.stacks[self.chooser])]
        if self.phase != TURN:
            return []
        if self.busting:
            return self.value_uses() + [BUST_ACTION]
        row = len(self.row)
        actions = []
        if row < ROW_LIMIT:
            actions.append(REVEAL_ACTION)
            actions.extend(self.peek_uses())
        if row:
            actions.append(STOP_ACTION)
            actions.extend(self.swap_targets())
        if row >= 2:
            actions.extend(self.value_uses())
            actions.extend(self.destroy_targets())
        return actions

    def verbs(self) -> list[str]:
        """The kinds of move open now (cheaper than :meth:`legal_actions`; each has at least one action)."""
        if self.phase == DISCARD:
            return [DISCARD_STACK]
        if self.phase != TURN:
            return []
        if self.busting:
            return [USE, BUST]
        row = len(self.row)
        verbs = []
        if row < ROW_LIMIT:
            verbs.append(REVEAL)
        if self._has_use(row):
            verbs.append(USE)
        if row:
            verbs.append(STOP)
            if self.swap_allowed() and any(s for q, s in enumerate(self.stacks) if q != self.active):
                verbs.append(SWAP)
        if self.destroy_allowed() and any(s for q, s in enumerate(self.stacks) if q not in self.targeted):
            verbs.append(DESTROY)
        return verbs

    def actions_for(self, verb: str) -> list[Action]:
        """The legal actions of one kind of move."""
        if verb == USE:
            return self.value_uses() + self.peek_uses() if not self.busting else self.value_uses()
        if verb == SWAP:
            return self.swap_targets()
        if verb == DESTROY:
            return self.destroy_targets()
        if verb == DISCARD_STACK:
            return [Action(DISCARD_STACK, k) for k in sorted(self.stacks[self.chooser])] if self.chooser is not None else []
        return [a for a in (REVEAL_ACTION, STOP_ACTION, BUST_ACTION) if a.verb == verb]

    def _has_use(self, row: int) -> bool:
        r = self.rules
        p = self.active
        stacks = self.stacks[p]
        peek_open = self.peeked is None and row < ROW_LIMIT
        reusers = None
        for k in r.manipulative:
            if k not in stacks or not (r.peek[k] and peek_open or row >= 2 and (r.lower[k] or r.shift[k])):
                continue
            if self.ready(p, k):
                return True
            if reusers is None:
                reusers = self._reusers(p)
            if any(j != k for j in reusers):
                return True
        return False

    def action_to_string(self, player: int, action: Action) -> str:
        """A readable name, e.g. ``seat 0: use general (-3)`` or ``seat 1: destroy alchemist of seat 2``."""
        r = self.rules
        v = action.verb
        via = f" via {r.kind_id(action.via)}" if action.via >= 0 else ""
        if v == USE:
            change = f" ({action.delta:+d})" if action.delta else ""
            text = f"use {r.kind_id(action.kind)}{change}{via}"
        elif v in (DESTROY, SWAP):
            text = f"{v} {r.kind_id(action.kind)} of seat {action.seat}"
        elif v == DISCARD_STACK:
            text = f"discard the {r.kind_id(action.kind)} stack"
        else:
            text = v
        return f"seat {player}: {text}"

    def apply(self, action: Action):
        """Apply the deciding player's action; raise :class:`IllegalAction` if it is not legal now."""
        if self.phase == OVER:
            raise IllegalAction("the game is over")
        if self._pending is not None:
            raise IllegalAction("a shuffle is pending: resolve the chance event first")
        if action not in self.legal_actions():
            raise IllegalAction(f"{self.action_to_string(self.current_player(), action)} is not legal now")
        self.step(action)

    def step(self, action: Action):
        """Apply an action known to be legal (bots use this fast path)."""
        v = action.verb
        if v == REVEAL:
            self._reveal()
        elif v == STOP:
            self._collect()
        elif v == USE:
            self._use(action)
        elif v == DESTROY:
            self._destroy(action.seat, action.kind)
        elif v == SWAP:
            self._swap(action.seat, action.kind)
        elif v == BUST:
            self._bust()
        elif v == DISCARD_STACK:
            self._discard_stack(action.kind)
        else:
            raise IllegalAction(f"unknown verb {v!r}")
        if self._auto_chance is not None:
            self.settle()
        if self.check:
            self._checkpoint(v)

    step_action = step

    def apply_actions(self, actions: dict):
        """The core API's joint action: ``{seat: action}`` for the one seat to move."""
        movers = self.to_move()
        if not movers or set(actions) != set(movers):
            raise IllegalAction(f"expected an action for seat {movers[0] if movers else '(nobody)'}")
        self.apply(actions[movers[0]])

    def step_actions(self, actions: dict):
        self.step(next(iter(actions.values())))

    # ------------------------------------------------------------------ what a player may do

    def count(self, p: int, kind: int) -> int:
        stack = self.stacks[p].get(kind)
        return len(stack) if stack else 0

    def leads(self, p: int, kind: int) -> bool:
        """``p`` holds a stack of ``kind`` at least as large as anyone's (so its ability is available)."""
        stack = self.stacks[p].get(kind)
        if not stack:
            return False
        size = len(stack)
        for q, other in enumerate(self.stacks):
            if q != p:
                theirs = other.get(kind)
                if theirs and len(theirs) > size:
                    return False
        return True

    def ready(self, p: int, kind: int) -> bool:
        """The manipulative ability of ``kind`` is usable directly: ``p`` leads it and has not used it."""
        return kind not in self.used and self.leads(p, kind)

    def _reusers(self, p: int) -> list[int]:
        """Reuse characters (the Judge) ``p`` may use now."""
        return [j for j in self.rules.reuse_kinds if self.ready(p, j)]

    def _uses(self, kinds, deltas_of) -> list[Action]:
        p = self.active
        stacks = self.stacks[p]
        out, reusers = [], None
        for k in kinds:
            if k not in stacks:
                continue
            deltas = deltas_of(k)
            if self.ready(p, k):
                out.extend(Action(USE, k, delta=d) for d in deltas)
            else:
                # RULING: the Judge reaches abilities of the player's own stacks that are turned
                # sideways (used already, or not the largest stack), never one usable directly.
                if reusers is None:
                    reusers = self._reusers(p)
                out.extend(Action(USE, k, delta=d, via=j) for j in reusers if j != k for d in deltas)
        return out

    def value_uses(self) -> list[Action]:
        """Uses of abilities that change the last card's value (none before the row has two cards)."""
        if len(self.row) < 2:
            return []
        r = self.rules
        return self._uses(r.value_kinds, lambda k: (-r.lower[k],) if r.lower[k] else (r.shift[k], -r.shift[k]))

    def peek_uses(self) -> list[Action]:
        """Uses of the Prophet: before a reveal, while the top card is still unknown."""
        if self.peeked is not None or len(self.row) >= ROW_LIMIT or self.busting:
            return []
        return self._uses(self.rules.peek_kinds, lambda k: (0,))

    def max_drop(self) -> int:
        """The most the active player could still lower the last card this turn."""
        r = self.rules
        p = self.active
        stacks = self.stacks[p]
        drop = best = 0
        for k in r.value_kinds:
            if k in stacks:
                amount = r.lower[k] or r.shift[k]
                if self.ready(p, k):
                    drop += amount
                best = max(best, amount)
        return drop + best * len(self._reusers(p)) if best else drop

    def destroy_allowed(self) -> bool:
        """Equal values with the card before, no destroy for this card yet, and no Queen in the way."""
        if len(self.row) < 2 or self.cur != self.prev or self.destroy_done:
            return False
        p, row = self.active, len(self.row)
        for kind, margin in self.rules.hinder_destroy:
            count = self.count(p, kind)
            if count and row < count + margin:
                return False
        return True

    def destroy_targets(self) -> list[Action]:
        if not self.destroy_allowed():
            return []
        p = self.active
        out = []
        for q, stacks in enumerate(self.stacks):
            if q in self.targeted or not stacks:
                continue
            if q != p:
                shields = [k for k in self.rules.shield_destroy if self.leads(q, k)]
                if shields:
                    out.extend(Action(DESTROY, k, q) for k in shields)
                    continue
            out.extend(Action(DESTROY, k, q) for k in sorted(stacks))
        return out

    def swap_allowed(self) -> bool:
        # RULING: a row of five cards is collected, never swapped: the rules offer the swap only to a
        # player who stops before the fifth card.
        if not self.row or self.busting or len(self.row) >= ROW_LIMIT:
            return False
        p, row = self.active, len(self.row)
        for kind, margin in self.rules.hinder_swap:
            count = self.count(p, kind)
            if count and row < count + margin:
                return False
        return True

    def swap_targets(self) -> list[Action]:
        if not self.swap_allowed():
            return []
        p = self.active
        out = []
        for q, stacks in enumerate(self.stacks):
            if q == p or not stacks:
                continue
            shields = [k for k in self.rules.shield_swap if self.leads(q, k)]
            out.extend(Action(SWAP, k, q) for k in (shields or sorted(stacks)))
        return out

    def progress(self):
        """The points each player would score now: what lead changes and comebacks are counted on."""
        return [self.score(p) for p in range(self.n)]

    def score(self, p: int) -> int:
        value = self.rules.value
        return sum(value[k] for k, stack in self.stacks[p].items() if len(stack) >= SCORING_SIZE)

    def stack_counts(self, p: int) -> dict:
        r = self.rules
        return {r.kind_id(k): len(s) for k, s in sorted(self.stacks[p].items())}

    # ------------------------------------------------------------------ the turn

    def _start_turn(self):
        self.turn += 1
        if self.turn > self.max_turns:
            self.turn -= 1
            self._game_over(TURN_LIMIT_REACHED)
            return
        self.row = []
        self.used.clear()
        self.targeted.clear()
        self.changed.clear()
        self.peeked = None
        self.destroy_done = False
        self.cur = self.prev = 0
        if self.events is not None:
            self._rec("turn_start", player=self.active)

    def _set_deck(self, deck):
        self.deck = deck
        counts = [0] * len(self.rules.cards)
        kind_of = self.rules.kind_of
        for c in deck:
            counts[kind_of[c]] += 1
        self.deck_count = counts

    def _refill(self):
        # RULING: the deck is rebuilt the moment its last card is taken, from the discard pile as it is
        # then (End of Game card included); a row still on the table, busted later, is not in it.
        # The cards are fixed now; their order is the chance event that follows this action.
        cards = self.discard
        self.discard = []
        self._pending = cards
        self.rebuilds += 1
        if self.events is not None:
            self._rec("rebuild", cards=len(cards))

    def _reveal(self):
        card = self.deck.pop()
        r = self.rules
        self.deck_count[r.kind_of[card]] -= 1
        self.reveals += 1
        self.peeked = None
        p = self.active
        row = self.row
        if card == r.end_card:
            # RULING: the game ends at once; the row is not collected (it stays on the table).
            row.append(card)
            self.endings["end"] += 1
            if self.events is not None:
                self._rec("end_card", player=p)
            self._game_over(END_CARD)
            return
        # RULING: the card before returns to its printed value as this one is revealed, so the new
        # card is compared with that printed value.
        self.prev = r.value_of[row[-1]] if row else 0
        row.append(card)
        self.cur = r.value_of[card]
        self.destroy_done = False
        if self.events is not None:
            data = {"player": p, "card": r.card_id(card), "value": self.cur}
            if len(row) >= 2:
                data["previous"] = self.prev
            self._rec("reveal", **data)
        if not self.deck:
            self._refill()
        if len(row) >= 2 and self.cur > self.prev and self.cur - self.max_drop() > self.prev:
            self._bust()

    def _use(self, action: Action):
        r = self.rules
        p, k, via = self.active, action.kind, action.via
        self.used.add(k)
        if via >= 0:
            self.used.add(via)
        if r.peek[k]:
            self.peeked = self.deck[-1]
            if self.events is not None:
                self._rec("peek", player=p, card=r.kind_id(k), via=r.kind_id(via) if via >= 0 else None,
                          seen=r.card_id(self.peeked))
            return
        before = self.cur
        self.cur += action.delta
        if self.events is not None:
            self._rec("ability", player=p, card=r.kind_id(k), via=r.kind_id(via) if via >= 0 else None,
                      row_card=r.card_id(self.row[-1]), before=before, after=self.cur, previous=self.prev)
        if self.cur > self.prev and self.cur - self.max_drop() > self.prev:
            self._bust()

    def _destroy(self, q: int, kind: int):
        stack = self.stacks[q][kind]
        card = stack.pop()
        if not stack:
            del self.stacks[q][kind]
        self.discard.append(card)
        self.targeted.add(q)
        self.changed.add(q)
        self.destroy_done = True
        self.destroys += 1
        if self.events is not None:
            self._rec("destroy", player=self.active, target=q, card=self.rules.kind_id(kind))

    def _bust(self):
        p = self.active
        self.endings["bust"] += 1
        if self.events is not None:
            r = self.rules
            self._rec("bust", player=p, card=r.card_id(self.row[-1]), value=self.cur, previous=self.prev,
                      previous_card=r.card_id(self.row[-2]), cards=[r.card_id(c) for c in self.row])
        self.discard.extend(self.row)
        self.row = []
        self._end_turn()

    def _collect(self):
        p = self.active
        cards, self.row = self.row, []
        self.endings["collect"] += 1
        if self.events is not None:
            self._rec("collect", player=p, cards=[self.rules.card_id(c) for c in cards])
        self.placements = [(p, cards)]
        self._resolve()

    def _swap(self, q: int, kind: int):
        p = self.active
        stack = self.stacks[q][kind]
        taken = stack.pop()
        if not stack:
            del self.stacks[q][kind]
        cards, self.row = self.row, []
        self.endings["swap"] += 1
        if self.events is not None:
            r = self.rules
            self._rec("swap", player=p, target=q, card=r.kind_id(kind), cards=[r.card_id(c) for c in cards])
        # RULING: the active player stacks the card taken first, then the receiver stacks the row.
        self.placements = [(p, [taken]), (q, cards)]
        self._resolve()

    def _place(self, p: int, cards):
        """Stack collected cards: each joins its stack (a sixth card is discarded) or starts a new one."""
        stacks = self.stacks[p]
        kind_of = self.rules.kind_of
        overflow = []
        for c in cards:
            k = kind_of[c]
            stack = stacks.get(k)
            if stack is None:
                stacks[k] = [c]
            elif len(stack) < STACK_LIMIT:
                stack.append(c)
            else:
                overflow.append(c)
        if overflow:
            self.discard.extend(overflow)
            if self.events is not None:
                self._rec("overflow", player=p, cards=[self.rules.card_id(c) for c in overflow])
        self.changed.add(p)

    def _resolve(self):
        """Stack every pending placement, then ask each player left with too many stacks to discard."""
        # RULING: all the cards a player collects at once are stacked first; only then does the
        # player discard whole stacks (new or old) until five are left. In a swap both players
        # stack first; the active player chooses discards before the receiver.
        for i, (p, cards) in enumerate(self.placements):
            if cards is not None:
                self._place(p, cards)
                self.placements[i] = (p, None)
        for p, _ in self.placements:
            if len(self.stacks[p]) > self.max_stacks:
                self.phase = DISCARD
                self.chooser = p
                return
        self.placements = []
        self.phase = TURN
        self.chooser = None
        self._end_turn()

    def _discard_stack(self, kind: int):
        p = self.chooser
        cards = self.stacks[p].pop(kind)
        self.discard.extend(cards)
        if self.events is not None:
            self._rec("discard_stack", player=p, card=self.rules.kind_id(kind), count=len(cards))
        self._resolve()

    def _end_turn(self):
        if self.events is not None:
            for q in sorted(self.changed):
                self._rec("stacks", player=q, stacks=self.stack_counts(q))
        self.mark_progress()
        self.active = (self.active + 1) % self.n
        self._start_turn()

    def _game_over(self, reason: str):
        self.phase = OVER
        self.over_reason = reason
        self.chooser = None
        self.scores = [self.score(p) for p in range(self.n)]
        if reason != TURN_LIMIT_REACHED:       # (at the turn limit the last turn's end is marked already)
            self.mark_progress()
        best = max(self.scores)
        self.winners = tuple(p for p, s in enumerate(self.scores) if s == best)
        self.winner = self.winners[0] if len(self.winners) == 1 else None
        if self.events is not None:
            if reason == TURN_LIMIT_REACHED:
                self._rec("turn_limit", turns=self.turn)
            self._rec("scores", scores=list(self.scores),
                      stacks=[self.stack_counts(p) for p in range(self.n)])
            self._rec("winner", players=list(self.winners), score=best)

    # ------------------------------------------------------------------ records and checks

    def _rec(self, type_, **data):
        self.events.append(Event(type_, self.turn, data))

    def _checkpoint(self, where):
        for problem in check_state(self):
            self.violations.append(f"turn {self.turn}, after {where}: {problem}")

    # ------------------------------------------------------------------ copies and hidden information

    def clone(self) -> "GameState":
        """An independent copy that records no events, checks nothing and shuffles nothing by itself."""
        new = GameState.__new__(GameState)
        new.__dict__.update(self.__dict__)
        new._auto_chance = None
        new.trace = None
        new.events = None
        new.check = False
        new.violations = []
        new.stacks = [{k: list(v) for k, v in stacks.items()} for stacks in self.stacks]
        new.deck, new.discard, new.row = list(self.deck), list(self.discard), list(self.row)
        new.deck_count = list(self.deck_count)
        new.used, new.targeted, new.changed = set(self.used), set(self.targeted), set(self.changed)
        new.placements = [(p, None if cards is None else list(cards)) for p, cards in self.placements]
        new.endings = dict(self.endings)
        new._pending = None if self._pending is None else list(self._pending)
        new._built = list(self._built)
        return new

    def information_state(self, player: int) -> tuple:
        """What ``player`` knows: every stack, the row, the counts of each character left in the deck
        (the rest is face up), the turn's state, and the top card if it used the Prophet."""
        kind_of = self.rules.kind_of
        seen = kind_of[self.peeked] if self.peeked is not None and player == self.active else None
        return (player, self.phase, self.turn, self.active, self.chooser, tuple(kind_of[c] for c in self.row),
                self.cur, self.prev, tuple(sorted(self.used)), tuple(sorted(self.targeted)), self.destroy_done,
                tuple(tuple(sorted((k, len(v)) for k, v in stacks.items())) for stacks in self.stacks),
                tuple(self.deck_count), self.peeked is not None, seen)

    def determinize(self, player: int, rng) -> "GameState":
        """A clone with the deck shuffled again; a top card ``player`` has seen stays on top."""
        new = self.clone()
        deck = new.deck
        # the deck is sorted first: from its real order, nothing reaches the sample
        if new.peeked is not None and player == new.active:
            top = deck.pop()
            deck.sort()
            shuffle(deck, rng.random)
            deck.append(top)
        else:
            deck.sort()
            shuffle(deck, rng.random)
            if new.peeked is not None:
                new.peeked = deck[-1]
        return new

    def all_cards(self) -> list[int]:
        """Every physical card wherever it is (deck, discard pile, row, stacks, a shuffle under way)."""
        cards = self.deck + self.discard + self.row + (self._pending or []) + self._built
        for stacks in self.stacks:
            for stack in stacks.values():
                cards.extend(stack)
        return cards


_shuffle = shuffle
