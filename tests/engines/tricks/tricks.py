"""Tricks: a plain trick-taking game on the core state API, the test engine of the search bot's ladder
(issue 36: an outside author's trick-taking engine with a simple heuristic bot beat ``search:50``).

A deck of suits x ranks (by default 4 x 9) is shuffled and each of 2-4 players is dealt ``HAND`` cards;
the rest stay face down, unseen. The player who took the last trick (the first player at the start)
leads any card; the others, in turn, follow the led suit when they can, else play any card. The highest
trump (suit 0) takes the trick, else the highest card of the led suit. Whoever takes most tricks wins
(a tie shares the win).

Hidden: the other hands and the unseen cards. A seat sees its hand and every card played, and knows
who could not follow a suit (and so holds none of it): ``determinize`` deals the unseen cards again
within those voids. The ``simple`` bot is the heuristic an author writes first: follow with the lowest
card that takes the trick, else throw the lowest card; lead the highest card of its longest side suit.
"""

from __future__ import annotations

from typing import NamedTuple

from rules_engine.core import Engine, IllegalAction, State, shuffle
from rules_engine.core import play as core
from rules_engine.core.bots import Bot, registry
from rules_engine.core.search import softmax_returns

HAND = 9
PLAYERS = (2, 4)
TRUMP = 0


class Rules(NamedTuple):
    suit: tuple                   # card number -> suit
    rank: tuple                   # card number -> rank

    def max_players(self) -> int:
        return min(PLAYERS[1], len(self.suit) // HAND)

    def name(self, card: int) -> str:
        return f"{self.rank[card]}{'TABCDEFGH'[self.suit[card]]}"


def standard_rules(suits: int = 4, ranks: int = 9) -> Rules:
    cards = [(s, r) for s in range(suits) for r in range(1, ranks + 1)]
    return Rules(tuple(s for s, _ in cards), tuple(r for _, r in cards))


def rules_for(game) -> Rules:
    cards = [c for c in game.cards for _ in range(c.copies)]
    return Rules(tuple(c.stat("suit") for c in cards), tuple(c.stat("rank") for c in cards))


class GameState(State):
    def __init__(self, rules: Rules, players: int, record: bool = False):
        self.rules, self.n, self.record = rules, players, record
        self.deck = list(range(len(rules.suit)))
        self.dealt = 0
        self.hands = [[] for _ in range(players)]
        self.leader = 0
        self.trick = []               # cards of the trick in play, from the leader on
        self.played = []              # (seat, card) of every card played, in order
        self.void = [set() for _ in range(players)]   # suits a seat showed it does not hold
        self.taken = [0] * players
        self.events, self.violations = [], []

    # ------------------------------------------------------------------ chance: the deal

    def is_chance(self) -> bool:
        return self.dealt < HAND * self.n

    def chance_outcomes(self) -> list:
        return [(c, 1 / len(self.deck)) for c in self.deck]

    def apply_chance(self, card) -> None:
        if not self.is_chance() or card not in self.deck:
            raise IllegalAction(f"card #{card} cannot be dealt now")
        self.deck.remove(card)
        self.hands[self.dealt % self.n].append(card)
        self.dealt += 1

    def sample_chance(self, rng) -> None:
        shuffle(self.deck, rng.random)
        while self.is_chance():
            self.hands[self.dealt % self.n].append(self.deck.pop())
            self.dealt += 1

    # ------------------------------------------------------------------ decisions

    @property
    def is_over(self) -> bool:
        return len(self.played) == HAND * self.n

    def to_move(self) -> list:
        if self.is_chance() or self.is_over:
            return []
        return [(self.leader + len(self.trick)) % self.n]

    def legal_actions(self, seat: int) -> list:
        if seat not in self.to_move():
            return []
        hand = self.hands[seat]
        if self.trick:
            led = self.rules.suit[self.trick[0]]
            follow = [c for c in hand if self.rules.suit[c] == led]
            if follow:
                return sorted(follow)
        return sorted(hand)

    def apply_actions(self, actions) -> None:
        movers = self.to_move()
        if sorted(actions) != movers or actions[movers[0]] not in self.legal_actions(movers[0]):
            raise IllegalAction(f"not a legal play: {actions}")
        self.step_action(actions[movers[0]])

    def step_actions(self, actions) -> None:
        (seat, card), = actions.items()
        self.step_action(card)

    def step_action(self, card) -> None:
        seat = (self.leader + len(self.trick)) % self.n
        suit = self.rules.suit
        if self.trick and suit[card] != suit[self.trick[0]]:
            self.void[seat].add(suit[self.trick[0]])
        self.hands[seat].remove(card)
        self.trick.append(card)
        self.played.append((seat, card))
        if len(self.trick) == self.n:
            winner = (self.leader + self.trick.index(trick_winner(self.rules, self.trick))) % self.n
            self.taken[winner] += 1
            if self.record:
                self.events.append(Trick(len(self.played) // self.n, self.leader, tuple(self.trick), winner))
            self.leader, self.trick = winner, []

    def returns(self) -> list:
        best = max(self.taken)
        winners = [s for s in range(self.n) if self.taken[s] == best]
        return [1 / len(winners) if s in winners else 0.0 for s in range(self.n)]

    def action_to_string(self, seat: int, card) -> str:
        return f"seat {seat}: {self.rules.name(card)}"

    # ------------------------------------------------------------------ hidden information

    def clone(self) -> "GameState":
        new = GameState.__new__(GameState)
        new.rules, new.n, new.record = self.rules, self.n, False
        new.deck, new.dealt = list(self.deck), self.dealt
        new.hands = [list(h) for h in self.hands]
        new.leader, new.trick, new.played = self.leader, list(self.trick), list(self.played)
        new.void = [set(v) for v in self.void]
        new.taken = list(self.taken)
        new.events, new.violations = [], []
        new.trace = None
        return new

    def information_state(self, seat: int):
        return (seat, tuple(sorted(self.hands[seat])), tuple(self.played), self.leader)

    def determinize(self, seat: int, rng) -> "GameState":
        """The other hands and the unseen cards dealt again at random, each seat holding no card of a
        suit it showed it lacks (the most constrained seat is dealt first; a dead end starts over)."""
        new = self.clone()
        if new.is_chance():
            return new
        unseen = sorted(new.deck + [c for s in range(self.n) if s != seat for c in new.hands[s]])
        suit = self.rules.suit
        others = sorted((s for s in range(self.n) if s != seat), key=lambda s: (-len(self.void[s]), s))
        while True:
            shuffle(unseen, rng.random)
            pool, ok = list(unseen), True
            for s in others:
                fits = [c for c in pool if suit[c] not in self.void[s]]
                need = len(self.hands[s])
                if len(fits) < need:
                    ok = False
                    break
                new.hands[s] = fits[:need]
                taken = set(new.hands[s])
                pool = [c for c in pool if c not in taken]
            if ok:
                new.deck = pool
                return new

    def evaluate(self) -> list:
        """Estimated returns before the end: a softmax of the tricks taken."""
        return softmax_returns(self.taken, 1.0)


def trick_winner(rules: Rules, trick: list) -> int:
    """The card that takes ``trick``: the highest trump, else the highest card of the led suit."""
    suit, rank = rules.suit, rules.rank
    trumps = [c for c in trick if suit[c] == TRUMP]
    if trumps:
        return max(trumps, key=lambda c: rank[c])
    led = suit[trick[0]]
    return max((c for c in trick if suit[c] == led), key=lambda c: rank[c])


class Trick(NamedTuple):
    number: int
    leader: int
    cards: tuple
    winner: int

    def as_dict(self):
        return self._asdict()


class SimpleBot(Bot):
    """Follow with the lowest card that takes the trick so far, else throw the lowest card (a side suit's
    before a trump); lead the highest card of the longest side suit (trumps when it holds only trumps)."""

    name = "simple"

    def act(self, state, seat, rng):
        rules = state.rules
        suit, rank = rules.suit, rules.rank
        legal = state.legal_actions(seat)
        if not state.trick:
            side = [c for c in legal if suit[c] != TRUMP] or legal
            length = {}
            for c in side:
                length[suit[c]] = length.get(suit[c], 0) + 1
            longest = max(length, key=lambda s: (length[s], -s))
            return max((c for c in side if suit[c] == longest), key=lambda c: (rank[c], -c))
        best = trick_winner(rules, state.trick)
        winning = [c for c in legal if trick_winner(rules, [best, c]) == c and c != best]
        if winning:
            return min(winning, key=lambda c: (suit[c] == TRUMP, rank[c], c))
        return min(legal, key=lambda c: (suit[c] == TRUMP, rank[c], c))


class Result(NamedTuple):
    winners: tuple
    bots: tuple
    length: int
    reason: str
    violations: tuple
    cards: tuple


def _result(state, bots):
    best = max(state.taken)
    return Result(tuple(s for s in range(state.n) if state.taken[s] == best), tuple(bots), HAND, "tricks", (),
                  tuple(() for _ in range(state.n)))


def new_state(rules, players, *, record=False, check=False):
    return GameState(rules, players, record)


BOTS = registry({"simple": SimpleBot})
DEFAULT_BOTS = ("simple",)
ENGINE = Engine("tricks", new_state, _result, BOTS, PLAYERS, length_unit="tricks")


def play_game(rules, bots, seed, *, players=None, record=False, check=False):
    return core.play_game(ENGINE, rules, bots, seed, players=players, record=record, check=check)
