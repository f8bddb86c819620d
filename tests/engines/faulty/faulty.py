"""Faulty: an outside engine whose bots and rules go wrong on purpose, for tests/test_engine_faults.py.

The game is High Card's (each seat is dealt three cards and plays one a round, all at once, the strongest
taking the round) on the same cards; its bots and options break it:

* bot ``cheat`` plays a card it does not hold (an illegal action), ``crash`` raises, ``loop`` never answers;
* option ``crash_round=N``: the engine raises (a KeyError) applying round N's cards;
* option ``endless=1``: the cards played go back to their hands, so the game never ends.
"""

from rules_engine.core import Engine, IllegalAction, State, registry, weighted_kinds
from rules_engine.model.cards import Param

HAND = 3
OPTIONS = {"crash_round": Param("int", default=0, min=0, max=9, doc="the round whose play raises (0: none)"),
           "endless": Param("int", default=0, min=0, max=1, doc="1: the game never ends")}
CARD_KEYS = {"cards": {"strength": Param("int", required=True, min=1, max=9)}}


class Rules:
    def __init__(self, ids, strength):
        self.ids, self.strength = ids, strength

    def max_players(self):
        return min(4, len(self.ids) // HAND)


def rules_for(game):
    cards = [c for c in game.cards for _ in range(c.copies)]
    return Rules(tuple(c.id for c in cards), tuple(c.stat("strength") for c in cards))


class GameState(State):
    def __init__(self, rules, players, crash_round=0, endless=0):
        self.rules, self.n, self.crash_round, self.endless = rules, players, crash_round, endless
        self.deck, self.dealt = list(range(len(rules.ids))), 0
        self.hands = [[] for _ in range(players)]
        self.taken, self.round, self.events, self.violations = [0] * players, 0, [], []

    def is_chance(self):
        return self.dealt < HAND * self.n

    def chance_outcomes(self):
        return weighted_kinds(self.deck, self.rules.ids)

    def apply_chance(self, card):
        self.deck.remove(card)
        self.hands[self.dealt % self.n].append(card)
        self.dealt += 1

    def to_move(self):
        return [] if self.is_chance() or self.is_over else list(range(self.n))

    def legal_actions(self, seat):
        return sorted(set(self.hands[seat])) if seat in self.to_move() else []

    def apply_actions(self, actions):
        if any(a not in self.hands[s] for s, a in actions.items()):
            raise IllegalAction(f"not a legal play: {actions}")
        self.step_actions(actions)

    def step_actions(self, actions):
        self.round += 1
        if self.round == self.crash_round:
            return {}["no such round"]
        power = {s: self.rules.strength[a] for s, a in actions.items()}
        best = [s for s in power if power[s] == max(power.values())]
        if len(best) == 1:
            self.taken[best[0]] += 1
        if not self.endless:
            for s, a in actions.items():
                self.hands[s].remove(a)

    @property
    def is_over(self):
        return not self.is_chance() and not any(self.hands)

    def returns(self):
        won = [s for s in range(self.n) if self.taken[s] == max(self.taken)]
        return [1 / len(won) if s in won else 0.0 for s in range(self.n)]

    def action_to_string(self, seat, card):
        return self.rules.ids[card]

    def clone(self):
        copy = GameState(self.rules, self.n, self.crash_round, self.endless)
        copy.deck, copy.dealt, copy.hands = list(self.deck), self.dealt, [list(h) for h in self.hands]
        copy.taken, copy.round = list(self.taken), self.round
        return copy

    def information_state(self, seat):
        return (seat, self.round, tuple(self.taken), tuple(sorted(self.hands[seat])))

    def determinize(self, seat, rng):
        return self.clone()


class Cheat:
    def act(self, state, seat, rng):
        return next(c for c in range(len(state.rules.ids)) if c not in state.hands[seat])


class Crash:
    def act(self, state, seat, rng):
        return len(state.hands[seat]) / 0


class Loop:
    def act(self, state, seat, rng):
        while True:
            pass


def new_state(rules, players, *, record=False, check=False, crash_round=0, endless=0):
    return GameState(rules, players, crash_round, endless)


ENGINE = Engine("faulty", new_state, players=(2, 4), bots=registry({"cheat": Cheat, "crash": Crash, "loop": Loop}))
