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
from rules_engine.shadow_throne.state import DRAFT, EXTRA, PLAY, random_play


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


class GreedyBot(PhaseBot):
    name = "greedy"

    # --- static values --------------------------------------------------------------------------

    def _value(self, rules, card):
        ability = rules.ability[card]
        bonus = 0.0
        if ability is not None:
            bonus = {"extra_play": 1.5, "kill": 0.8, "convert": 1.0, "embolden": 0.8,
                     "conditional_power": 0.6, "suppress": 0.6, "stays_after_loss": 0.5,
                     "on_death_influence": 0.5}.get(ability.kind, 0.3)
        return (rules.influence[card] + 0.25 * rules.power[card] + GOLD_VALUE * rules.delta[card]
                + 0.3 * GOLD_VALUE * rules.consolation[card] + bonus)

    def draft(self, state, p, rng=None):
        rules = state.rules
        held = [0] * len(rules.factions)
        for c in state.hands[p]:
            held[rules.faction[c]] += 1
        return max(state.pools[p], key=lambda c: (self._value(rules, c) + 0.15 * held[rules.faction[c]], -c))

    def keep(self, state, p, rng=None):
        rules = state.rules
        return max(state.hands[p], key=lambda c: (self._value(rules, c), -c))

    # --- battle play --------------------------------------------------------------------------------

    def _effective_power(self, state, p, card, gold_after):
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

    def _expected(self, state, p, power, extra_char=None):
        """Influence-equivalent the seat expects from its characters in the battle."""
        rules = state.rules
        waves_left = rules.waves - state.wave - (1 if state.phase != "extra" else 0)
        scale = 2.0 + 3.0 * max(waves_left, 0)
        chance = []
        for f, total in enumerate(power):
            best_other = max(t for g, t in enumerate(power) if g != f)
            chance.append(0.5 + 0.5 * math.tanh((total - best_other + 0.5) / scale))
        value = 0.0
        mine = [(ch.card, ch.faction, ch.dead) for ch in state.chars if ch.owner == p]
        if extra_char is not None:
            mine.append(extra_char)
        for card, faction, dead in mine:
            win = chance[faction]
            influence = rules.influence[card] // 2 if dead else rules.influence[card]
            value += win * influence + (1 - win) * GOLD_VALUE * rules.consolation[card]
        return value

    def _score(self, state, p, card, hush):
        rules = state.rules
        change = rules.delta[card] - hush
        gold_after = state.gold[p] + change
        power = list(state.power)
        faction = rules.faction[card]
        power[faction] += self._effective_power(state, p, card, gold_after)
        # the gold the seat needs to afford its best remaining card is worth a little more
        need = GOLD_VALUE * (1.3 if gold_after < 3 else 1.0)
        return self._expected(state, p, power, (card, faction, False)) + need * change

    def play(self, state, p, rng=None):
        rules = state.rules
        hand = state.hands[p]
        have, last = state.gold[p], state.last_factions[p]
        best, best_score = None, None
        for c in hand:
            hush = (last >> rules.faction[c]) & 1
            if have + rules.delta[c] - hush < 0:
                continue
            score = self._score(state, p, c, hush)
            if best_score is None or score > best_score or (score == best_score and c < best):
                best, best_score = c, score
        if best is None:
            # nothing affordable: any card is turned face down for 1 gold; give up the least valuable
            best = min(hand, key=lambda c: (self._value(rules, c), c))
        return best

    def extra(self, state, p, options, rng=None):
        base = self._expected(state, p, state.power)
        best, best_score = None, 0.0
        for c in options:
            score = self._score(state, p, c, 0) - base
            if score > best_score:
                best, best_score = c, score
        return best


#: The engine's bots (name -> factory), the core's ``search`` included.
BOTS = registry({"random": RandomBot, "greedy": GreedyBot})


def make_bot(spec: str):
    """A bot from its name (``greedy``) or spec (``search:400``)."""
    return core_make_bot(BOTS, spec)
