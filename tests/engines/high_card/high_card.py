"""High Card: each player is dealt a hand; every round all play one card at once, and the highest
strength takes the round (a tie: nobody). Whoever takes the most rounds wins."""

from typing import NamedTuple

from rules_engine.core import Engine, GameEvent, IllegalAction, State, runs, weighted_kinds
from rules_engine.core import play as core
from rules_engine.core.bots import registry
from rules_engine.model.cards import Param

HAND = 3
PLAYERS = (2, 4)
FACTS = {"hand": HAND}
EFFECTS = {}                                      # no card abilities
CARD_KEYS = {"cards": {"strength": Param("int", required=True)}}
OPTIONS = {}
SCENARIO_SCHEMA = {}


class Rules(NamedTuple):
    ids: tuple                                    # card number -> card id
    strength: tuple                               # card number -> strength

    def max_players(self):
        return min(PLAYERS[1], len(self.ids) // HAND)


def rules_for(game):
    cards = [c for c in game.cards for _ in range(c.copies)]
    return Rules(tuple(c.id for c in cards), tuple(c.stat("strength") for c in cards))


class GameState(State):
    def __init__(self, rules, players, record=False):
        self.rules, self.n, self.record = rules, players, record
        self.deck, self.dealt = list(range(len(rules.ids))), 0
        self.hands = [[] for _ in range(players)]
        self.taken, self.round, self.events, self.violations = [0] * players, 0, [], []

    def is_chance(self):
        return self.dealt < HAND * self.n          # dealing, one card at a time

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
        if sorted(actions) != self.to_move() or any(a not in self.hands[s] for s, a in actions.items()):
            raise IllegalAction(f"not a legal play: {actions}")
        power = {s: self.rules.strength[a] for s, a in actions.items()}
        best = [s for s in power if power[s] == max(power.values())]
        taker = best[0] if len(best) == 1 else None
        if taker is not None:
            self.taken[taker] += 1
        for s, a in actions.items():
            self.hands[s].remove(a)
        self.round += 1
        if self.record:                           # an event: its type, and its data (ids and seats)
            plays = [self.rules.ids[actions[s]] for s in range(self.n)]
            self.events.append(GameEvent("round", {"round": self.round, "plays": plays, "taker": taker}))

    @property
    def is_over(self):
        return self.round == HAND

    def returns(self):
        winners = [s for s in range(self.n) if self.taken[s] == max(self.taken)]
        return [1 / len(winners) if s in winners else 0 for s in range(self.n)]

    def action_to_string(self, seat, card):
        return self.rules.ids[card]

    def clone(self):
        copy = GameState(self.rules, self.n)
        copy.deck, copy.dealt, copy.hands = list(self.deck), self.dealt, [list(h) for h in self.hands]
        copy.taken, copy.round = list(self.taken), self.round
        return copy

    def information_state(self, seat):
        return (seat, self.round, tuple(self.taken), tuple(sorted(self.hands[seat])))

    def determinize(self, seat, rng):
        copy = self.clone()                       # re-deal what the seat cannot see
        unseen = copy.deck + [c for s in range(self.n) if s != seat for c in copy.hands[s]]
        rng.shuffle(unseen)
        for s in range(self.n):
            if s != seat:
                copy.hands[s] = [unseen.pop() for _ in copy.hands[s]]
        copy.deck = unseen
        return copy


class Result(NamedTuple):
    winners: tuple
    bots: tuple
    length: int
    reason: str
    violations: tuple
    cards: tuple


def _result(state, bots):
    best = max(state.taken)
    return Result(tuple(s for s in range(state.n) if state.taken[s] == best), tuple(bots), state.round,
                  "rounds", (), tuple(() for _ in range(state.n)))


def new_state(rules, players, *, record=False, check=False):
    return GameState(rules, players, record)


BOTS = registry({})
DEFAULT_BOTS = ("random",)
ENGINE = Engine("high_card", new_state, _result, BOTS, PLAYERS, length_unit="rounds")


def play_game(rules, bots, seed, *, players=None, record=False, check=False):
    return core.play_game(ENGINE, rules, bots, seed, players=players, record=record, check=check)


def recorded_game(rules, *, seed, players, bots, check=False):
    return core.recorded_game(ENGINE, rules, seed=seed, players=players, bots=bots, check=check)


def simulate(rules, *, games, seed, players, bots, jobs=1, check=False, progress=None, executor=None):
    results = runs.run_games(ENGINE, rules, games=games, seed=seed, players=players, bots=bots, jobs=jobs,
                             progress=progress, executor=executor)
    wins = [sum(1 / len(r.winners) for r in results if s in r.winners) for s in range(players)]
    return {"games": games, "players": players, "seed": seed, "bots": list(bots),
            "wins_by_seat": [round(w, 2) for w in wins],
            "invariants": {"checked": check, "broken": 0, "examples": []}}


def report_lines(report, *, title, cards=(), factions=()):
    wins = ", ".join(f"seat {s + 1}: {w:g}" for s, w in enumerate(report["wins_by_seat"]))
    return [f"{title}: {report['games']} games, {report['players']} players, seed {report['seed']}",
            f"Wins by seat: {wins}", runs.invariant_line(report["invariants"])]


def transcript_lines(events, cards, factions, names):
    return [f"Round {e.data['round']}: " + ", ".join(f"{names[s]} plays {c}" for s, c in enumerate(e.data["plays"]))
            + f"; {names[e.data['taker']] if e.data['taker'] is not None else 'nobody'} takes it." for e in events]


def validate_game(game):
    enough = len(game.cards) and sum(c.copies for c in game.cards) >= HAND * game.players[1]
    return [] if enough else [("deck", f"{game.players[1]} players need {HAND * game.players[1]} cards", False)]


def scenario_from_data(rules, data, players=(2, 4)):
    return None, [(None, "High Card has no scenarios")]


def run_scenario(rules, scenario):
    raise ValueError("High Card has no scenarios")


def scenario_lines(outcome, cards, factions=None):
    return []
