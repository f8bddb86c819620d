"""Bots that take every decision of a Shadow Throne game: draft picks, plays, extra cards, kept cards.

Every bot has the core's ``act(state, seat, rng)`` (:mod:`rules_engine.core.bots`); these two also have
one method per phase (``draft``, ``play``, ``extra``, ``keep``), which the engine's fast play loop calls
(``fast = True``). Bots only look at what their player could see at the table: their own hand or pool,
everyone's gold and influence, and the characters already revealed. Randomness comes from the
game's seeded generator, passed in as ``rng``, so a game is reproducible from its seed. The core's
``search`` bot plays this game too.

* ``random``: any card of the pool; any affordable card of the hand (an unaffordable one only when
  nothing is affordable); a random extra card or none; a random kept card.
* ``greedy``: plays to win. It scores each affordable card by the influence and gold it expects from
  the battle if that card joins it (a faction's chance of winning is estimated from its lead on the
  power track and the waves left), drafts and keeps the cards with the best printed value.
"""

from __future__ import annotations

import math

from rules_engine.core.bots import Bot, registry
from rules_engine.core.bots import make_bot as core_make_bot
from rules_engine.core.bots import RandomBot as CoreRandomBot
from rules_engine.shadow_throne.effects import WAVES_NEXT, WAVES_THIS_AND_EARLIER
from rules_engine.shadow_throne.state import DEAL, DRAFT, EXTRA, KEEP, OVER, PLAY, random_play


class PhaseBot(Bot):
    """A bot with one method per phase; ``act`` picks the method."""

    fast = True

    def act(self, state, p, rng):
        phase = state.phase
        if phase == PLAY:
            return self.play(state, p, rng)
        if phase == DRAFT:
            return self.draft(state, p, rng)
        if phase == EXTRA:
            return self.extra(state, p, state.extra_options(state.extra_pending[p]), rng)
        return self.keep(state, p, rng)


class RandomBot(PhaseBot, CoreRandomBot):
    """The core random bot (``GameState.random_action``), with the fast loop's phase methods."""

    name = "random"

    def draft(self, state, p, rng):
        pool = state.pools[p]
        return pool[int(rng.random() * len(pool))]

    play = staticmethod(random_play)

    def extra(self, state, p, options, rng):
        choices = [None] + list(options)
        return choices[int(rng.random() * len(choices))]

    def keep(self, state, p, rng):
        hand = state.hands[p]
        return hand[int(rng.random() * len(hand))]


GOLD_VALUE = 0.4        # influence a gold piece is worth to the greedy bot

#: What an ability adds to a card's printed value for drafting and keeping (0.3 for the others).
ABILITY_BONUS = {"extra_play": 1.5, "kill": 0.8, "convert": 1.0, "embolden": 0.8, "conditional_power": 0.6,
                 "suppress": 0.6, "stays_after_loss": 0.5, "on_death_influence": 0.5}

NEED_LOW = GOLD_VALUE * 1.3     # a gold piece when the seat is left with less than 3

_TABLES = (None, None, None)    # (rules, printed values, play facts) of the last rules looked up

#: The greedy bot's chances per (faction totals..., scale), at most CHANCES_KEPT of them (never changed).
_CHANCES = {}
CHANCES_KEPT = 100_000


def _tables(rules) -> tuple:
    """The greedy bot's tables per physical card, worked out once per rules (found by identity: a
    game's rules object is the same for all its decisions): its printed value, and for playing it
    ``(faction, gold change, power it adds or None when that depends on the moment, influence,
    consolation)``."""
    global _TABLES
    if _TABLES[0] is rules:
        return _TABLES
    values, play = [], []
    for card in range(len(rules.kind)):
        ability = rules.ability[card]
        bonus = 0.0
        if ability is not None:
            bonus = ABILITY_BONUS.get(ability.kind, 0.3)
        values.append(rules.influence[card] + 0.25 * rules.power[card] + GOLD_VALUE * rules.delta[card]
                      + 0.3 * GOLD_VALUE * rules.consolation[card] + bonus)
        play.append((rules.faction[card], rules.delta[card], _static_power(rules, card),
                     rules.influence[card], rules.consolation[card]))
    _TABLES = (rules, tuple(values), tuple(play))
    return _TABLES


def _static_power(rules, card):
    """What :meth:`GreedyBot._effective_power` gives for ``card`` whatever the moment, or None when it
    depends on the gold, the characters or the hand."""
    power = rules.power[card]
    ability = rules.ability[card]
    if ability is None:
        return power
    kind, params = ability.kind, ability.params
    if kind in ("conditional_power", "extra_play"):
        return None
    if kind == "embolden":
        amount, mode = params[0], params[1]
        return None if mode == WAVES_THIS_AND_EARLIER else power + amount
    return power + 1


def draft_pick(values, faction, hand, pool, factions: int):
    """The greedy draft: the card of ``pool`` with the best printed value, plus 0.15 for each card of
    its faction in ``hand`` (on a tie the lowest card number)."""
    if len(pool) == 1:
        return pool[0]
    held = [0] * factions
    for c in hand:
        held[faction[c]] += 1
    best, best_value = None, None
    for c in pool:
        value = values[c] + 0.15 * held[faction[c]]
        if best is None or value > best_value or (value == best_value and c < best):
            best, best_value = c, value
    return best


def card_values(rules) -> tuple:
    """The greedy bot's printed value of every physical card (see :func:`_tables`)."""
    return _tables(rules)[1]


class GreedyBot(PhaseBot):
    """Plays to win (see the module docstring). The battle estimate of each card is worked out with
    the seat's characters and the scale of the waves left taken once per decision, and each faction's
    strongest rival from the top two totals: the same numbers, in the same order, as summing card by
    card, so the same decisions for the same seed."""

    name = "greedy"

    # --- static values --------------------------------------------------------------------------

    def _value(self, rules, card):
        return card_values(rules)[card]

    def draft(self, state, p, rng=None):
        rules = state.rules
        return draft_pick(card_values(rules), rules.faction, state.hands[p], state.pools[p], len(rules.factions))

    def keep(self, state, p, rng=None):
        values = card_values(state.rules)
        return max(state.hands[p], key=lambda c: (values[c], -c))

    # --- battle play --------------------------------------------------------------------------------

    @staticmethod
    def _effective_power(state, p, card, gold_after):
        """Printed power plus a rough guess of what the card's ability adds."""
        rules = state.rules
        power = rules.power[card]
        ability = rules.ability[card]
        if ability is None:
            return power
        kind, params = ability.kind, ability.params
        if kind == "conditional_power":
            amount, at_most = params
            return power + (amount if gold_after <= at_most else 0)
        if kind == "embolden":
            amount, mode, rank, _ = params
            if mode == WAVES_NEXT:
                return power + amount
            if mode == WAVES_THIS_AND_EARLIER:
                faction = rules.faction[card]
                count = sum(1 for ch in state.chars
                            if not ch.dead and ch.faction == faction and (rank < 0 or rules.rank[ch.card] == rank))
                return power + amount * count
            return power + amount
        if kind == "extra_play":
            faction = rules.faction[card]
            extra = [rules.power[c] for c in state.hands[p]
                     if c != card and rules.faction[c] == faction and gold_after + rules.delta[c] >= 0]
            return power + (max(extra) if extra else 0)
        return power + 1

    @staticmethod
    def _scale(state) -> float:
        waves_left = state.rules.waves - state.wave - (1 if state.phase != "extra" else 0)
        return 2.0 + 3.0 * max(waves_left, 0)

    @staticmethod
    def _mine(state, p) -> list:
        """The seat's characters in the battle: (faction, influence if its faction wins, consolation)."""
        rules = state.rules
        r_influence, r_consolation = rules.influence, rules.consolation
        return [(ch.faction, r_influence[ch.card] // 2 if ch.dead else r_influence[ch.card], r_consolation[ch.card])
                for ch in state.chars if ch.owner == p]

    @staticmethod
    def _chances(power, scale) -> list:
        """Each faction's chance of winning the battle with the totals ``power``: ``0.5 + 0.5 tanh((its
        total - the best other total + 0.5) / scale)``, kept per (totals, scale): the totals are small
        whole numbers, so the same few come back all game long (and in every rollout of a search)."""
        key = (*power, scale)
        chance = _CHANCES.get(key)
        if chance is None:
            top = max(power)
            first = power.index(top)
            second = max(power[:first] + power[first + 1:])
            tanh = math.tanh
            chance = [0.5 + 0.5 * tanh((total - (second if f == first else top) + 0.5) / scale)
                      for f, total in enumerate(power)]
            if len(_CHANCES) >= CHANCES_KEPT:
                _CHANCES.clear()
            _CHANCES[key] = chance
        return chance

    @staticmethod
    def _sum(chance, mine) -> float:
        """What the characters ``mine`` are expected to bring with these chances (summed in order)."""
        value = 0.0
        for faction, influence, consolation in mine:
            win = chance[faction]
            value += win * influence + (1 - win) * GOLD_VALUE * consolation
        return value

    def _estimate(self, power, scale, mine, extra=None) -> float:
        """Influence-equivalent expected from the characters ``mine`` (and ``extra``, one more
        ``(faction, influence, consolation)``) with the factions' totals ``power``."""
        chance = self._chances(power, scale)
        value = self._sum(chance, mine)
        if extra is not None:
            faction, influence, consolation = extra
            win = chance[faction]
            value += win * influence + (1 - win) * GOLD_VALUE * consolation
        return value

    def _expected(self, state, p, power, extra_char=None):
        """Influence-equivalent the seat expects from its characters in the battle (``extra_char``:
        ``(card, faction, dead)`` of one more)."""
        extra = None
        if extra_char is not None:
            rules = state.rules
            card, faction, dead = extra_char
            extra = (faction, rules.influence[card] // 2 if dead else rules.influence[card],
                     rules.consolation[card])
        return self._estimate(power, self._scale(state), self._mine(state, p), extra)

    def _score(self, state, p, card, hush, scale=None, mine=None, seen=None):
        """What playing ``card`` is worth: the battle estimate with it in, plus the gold it brings or
        costs. ``seen`` keeps, per (faction, power added), the chances and what ``mine`` brings with
        them, for the other cards of one decision (the card's own share is added last, as before)."""
        rules = state.rules
        change = rules.delta[card] - hush
        gold_after = state.gold[p] + change
        faction = rules.faction[card]
        added = self._effective_power(state, p, card, gold_after)
        # the gold the seat needs to afford its best remaining card is worth a little more
        need = GOLD_VALUE * (1.3 if gold_after < 3 else 1.0)
        if mine is None:
            scale, mine = self._scale(state), self._mine(state, p)
        key = (faction, added)
        known = seen.get(key) if seen is not None else None
        if known is None:
            power = list(state.power)
            power[faction] += added
            chance = self._chances(power, scale)
            known = (chance, self._sum(chance, mine))
            if seen is not None:
                seen[key] = known
        chance, value = known
        win = chance[faction]
        value += win * rules.influence[card] + (1 - win) * GOLD_VALUE * rules.consolation[card]
        return value + need * change

    def play(self, state, p, rng=None):
        """The affordable card with the best :meth:`_score` (worked out inline, in the same order)."""
        return self.best_play(state, p, self._scale(state), self._mine(state, p), {}, {})

    @staticmethod
    def best_play(state, p, scale, mine, chances, sums):
        """:meth:`play` given what one wave's decisions share: ``scale`` (:meth:`_scale`), ``mine``
        (the seat's characters, :meth:`_mine`), ``chances`` (the factions' chances per power added to
        a faction: the same for every seat of a wave) and ``sums`` (this seat's characters' value per
        power added to a faction). The same numbers, summed in the same order, as :meth:`_score`."""
        table = _tables(state.rules)[2]
        hand = state.hands[p]
        have, last = state.gold[p], state.last_factions[p]
        nf = len(state.power)
        gold_value, need_low = GOLD_VALUE, NEED_LOW
        best, best_score = None, -math.inf
        for c in hand:
            faction, delta, added, influence, consolation = table[c]
            change = delta - ((last >> faction) & 1)
            gold_after = have + change
            if gold_after < 0:
                continue
            if added is None:
                added = GreedyBot._effective_power(state, p, c, gold_after)
            key = added * nf + faction
            value = sums.get(key)
            if value is None:
                chance = chances.get(key)
                if chance is None:
                    totals = list(state.power)
                    totals[faction] += added
                    chance = chances[key] = GreedyBot._chances(totals, scale)
                value = 0.0
                for f, gain, comfort in mine:
                    win = chance[f]
                    value += win * gain + (1 - win) * gold_value * comfort
                sums[key] = value
                win = chance[faction]
            else:
                win = chances[key][faction]
            value += win * influence + (1 - win) * gold_value * consolation
            score = value + (need_low if gold_after < 3 else gold_value) * change
            if score > best_score or (score == best_score and c < best):
                best, best_score = c, score
        if best is None:
            # nothing affordable: any card is turned face down for 1 gold; give up the least valuable
            values = card_values(state.rules)
            best = min(hand, key=lambda c: (values[c], c))
        return best

    def extra(self, state, p, options, rng=None):
        scale, mine = self._scale(state), self._mine(state, p)
        base = self._estimate(state.power, scale, mine)
        best, best_score = None, 0.0
        seen = {}
        for c in options:
            score = self._score(state, p, c, 0, scale, mine, seen) - base
            if score > best_score:
                best, best_score = c, score
        return best


class GreedyRollout(Bot):
    """The search bot's rollout policy: the greedy bot's move, and one time in five a random one; a
    rollout ends at the end of a battle (``battle_end``, the default), scored there by
    :meth:`GameState.evaluate`.

    Why the battle's end: the estimate reads influence and gold, and influence changes only when a
    battle is resolved; a rollout to the horizon of 20 decisions (``battle_end=False``, the policy
    before) mostly played a second battle, at twice the cost. On 400-game ladders
    (``benchmarks/ladder_search.py``) the bot that stops at the battle's end was stronger at
    ``search:25`` and as strong at ``search:100`` (benchmarks/README.md, "Search bot, third round").

    ``play_out`` plays a rollout in a loop of its own, with the phase methods and the state's
    list-based moves: the same moves, drawn from the generator in the same order, as the search bot's
    generic loop with ``act`` and ``stop`` (``tests/test_core.py`` compares them)."""

    name = "greedy rollout"
    RANDOM_SHARE = 0.2

    def __init__(self, battle_end: bool = True):
        self.greedy = GreedyBot()
        self.battle_end = battle_end

    def stop(self, state) -> bool:
        """The rollout is scored now: a battle has just been resolved (its kept cards are next)."""
        return self.battle_end and state.phase == KEEP

    def act(self, state, p, rng):
        if rng.random() < self.RANDOM_SHARE:
            return state.random_action(p, rng)
        return self.greedy.act(state, p, rng)

    @staticmethod
    def _mines(state) -> list:
        """:meth:`GreedyBot._mine` of every seat, in one pass over the battle's characters."""
        rules = state.rules
        r_influence, r_consolation = rules.influence, rules.consolation
        mines = [[] for _ in range(state.n)]
        for ch in state.chars:
            card = ch.card
            mines[ch.owner].append((ch.faction, r_influence[card] // 2 if ch.dead else r_influence[card],
                                    r_consolation[card]))
        return mines

    def _to_horizon(self, state, rnd, steps):
        """The estimate at the horizon when the ``steps`` decisions left are kept cards and draft picks
        only: they change neither influence nor gold, which is all :meth:`GameState.evaluate` reads. The
        generator still draws what those decisions and the deal between them would have drawn
        (one number a seat, two for a random move; one per card of the deck but one for the shuffle),
        so the search's next simulations are the same; the state is left as it is (the search throws
        it away)."""
        share, seats = self.RANDOM_SHARE, range(state.n)
        if state.phase == KEEP:
            hands = state.hands
            deck = len(state.deck) + len(state.discard)
            for p in seats:
                if hands[p]:
                    deck += len(hands[p]) - 1       # the cards not kept go back into the deck
                    if rnd() < share:
                        rnd()
            for _ in range(deck - 1):               # the shuffle of the next deal (core.state.shuffle)
                rnd()
            steps -= 1
        for _ in range(steps * len(seats)):          # draft picks, seat by seat
            if rnd() < share:
                rnd()
        return state.evaluate()

    def play_out(self, state, rng, horizon):
        greedy, rnd, share, battle_end = self.greedy, rng.random, self.RANDOM_SHARE, self.battle_end
        best_play = greedy.best_play
        rules = state.rules
        values, faction, factions = card_values(rules), rules.faction, len(rules.factions)
        seats = range(state.n)
        steps = 0
        while True:
            phase = state.phase
            if phase == OVER:
                return state.returns()
            if phase == DEAL:
                state.sample_chance(rng)
                continue
            if steps >= horizon:
                return state.evaluate()
            if phase == PLAY:
                chances = {}        # per power added to a faction: the same for every seat of this wave
                scale = mines = None
                choices = []
                for p in seats:
                    if rnd() < share:
                        choices.append(random_play(state, p, rng))
                        continue
                    if mines is None:
                        scale, mines = greedy._scale(state), self._mines(state)
                    choices.append(best_play(state, p, scale, mines[p], chances, {}))
                state.apply_play(choices)
            elif phase == DRAFT:
                pools, hands = state.pools, state.hands
                if horizon - steps <= len(pools[0]):
                    # no wave before the horizon: nothing the estimate reads changes any more
                    return self._to_horizon(state, rnd, horizon - steps)
                picks = []
                for p in seats:
                    pool = pools[p]
                    if rnd() < share:
                        picks.append(pool[int(rnd() * len(pool))])
                    else:
                        picks.append(draft_pick(values, faction, hands[p], pool, factions))
                state.apply_draft(picks)
            elif phase == EXTRA:
                actions = {}
                for p in sorted(state.extra_pending):
                    options = state.extra_options(state.extra_pending[p])
                    if rnd() < share:
                        choices = [None] + options
                        actions[p] = choices[int(rnd() * len(choices))]
                    else:
                        actions[p] = greedy.extra(state, p, options, rng)
                state.apply_extra(actions)
            elif phase == KEEP:
                if battle_end:
                    return state.evaluate()
                if horizon - steps <= 1 + rules.pool_size:
                    return self._to_horizon(state, rnd, horizon - steps)
                keeps = []
                for p in seats:
                    hand = state.hands[p]
                    if not hand:
                        keeps.append(None)
                    elif rnd() < share:
                        keeps.append(hand[int(rnd() * len(hand))])
                    else:
                        keeps.append(max(hand, key=lambda c: (values[c], -c)))     # GreedyBot.keep
                state.apply_keep(keeps)
            else:
                raise ValueError(f"phase {phase!r}: nothing to play out")
            steps += 1


#: The engine's bots (name -> factory), the core's ``search`` included (its rollouts: greedy moves).
BOTS = registry({"random": RandomBot, "greedy": GreedyBot}, rollout=GreedyRollout())


def make_bot(spec: str):
    """A bot from its name (``greedy``) or spec (``search:400``)."""
    return core_make_bot(BOTS, spec)
