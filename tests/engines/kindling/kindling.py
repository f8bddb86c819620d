"""Kindling: players feed a shared fire from hidden hands. Each turn a player lays one card on the fire
and draws a card while the pile lasts; the card that brings the fire's heat to the flare point or above
banks the fire: its player scores the heat and the fire starts again from nothing. When every card has
been laid, the highest score wins (a tie shares the win).

Written from pnp's engine contract (docs/engine.md, "The engine contract") alone: the rules, and nothing
pnp derives by itself (its reports, its transcripts, from the game's event templates).
"""

from __future__ import annotations

from typing import NamedTuple

from rules_engine.core import Engine, GameEvent, IllegalAction, Problem, State, registry, weighted_kinds
from rules_engine.core.scenario import read_players, suggest
from rules_engine.model.cards import Param
from rules_engine.protocol import Spec

HAND = 3
FLARE = 12

CARD_KEYS = {"cards": {"heat": Param("int", required=True, min=1, max=9, doc="what the card adds to the fire")}}
OPTIONS = {"flare": Param("int", default=FLARE, min=5, max=40, doc="heat at which the fire is banked",
                          rule="Banking: the card that brings the fire to this heat or above banks it")}
FACTS = {"hand": HAND, "flare": FLARE}
SCENARIO_SCHEMA = {
    "title": Spec("str", default=""),
    "players": Spec("list", required=True, items=Spec("str")),
    "hands": Spec("dict", required=True, items=Spec("list", items=Spec("str"))),
    "pile": Spec("list", default=[], items=Spec("str")),
    "fire": Spec("int", default=0, min=0, max=99),
    "plays": Spec("list", required=True, items=Spec("str")),
}


class Rules(NamedTuple):
    ids: tuple                     # card number -> card id
    heat: tuple                    # card number -> heat

    def max_players(self) -> int:
        return min(4, len(self.ids) // HAND)


def rules_for(game):
    cards = [c for c in game.cards for _ in range(c.copies)]
    return Rules(tuple(c.id for c in cards), tuple(c.stat("heat") for c in cards))


class GameState(State):
    def __init__(self, rules, players, *, record=False, check=False, flare=FLARE):
        if not 2 <= players <= rules.max_players():
            raise ValueError(f"Kindling plays 2 to {rules.max_players()} players with these cards")
        self.rules, self.n, self.flare, self.record, self.check = rules, players, flare, record, check
        self.pile = list(range(len(rules.ids)))        # unordered until drawn: each draw is a chance event
        self.hands = [[] for _ in range(players)]
        self.dealt, self.owed = 0, None                  # cards dealt so far; the seat owed a draw
        self.fire, self.scores, self.turn, self.to_play = 0, [0] * players, 0, 0
        self.events, self.violations = [], []

    # ---------------------------------------------------------------- chance: the deal, then each draw
    def is_chance(self):
        return self.dealt < HAND * self.n or self.owed is not None

    def chance_outcomes(self):
        return weighted_kinds(self.pile, self.rules.ids)

    def apply_chance(self, card):
        if not self.is_chance() or card not in self.pile:
            raise IllegalAction(f"no card {card} to draw")
        self.pile.remove(card)
        if self.dealt < HAND * self.n:
            self.hands[self.dealt % self.n].append(card)
            self.dealt += 1
        else:
            self.hands[self.owed].append(card)
            self._note("draw", player=self.owed)
            self.owed = None

    # ---------------------------------------------------------------- decisions
    def to_move(self):
        return [] if self.is_chance() or self.is_over else [self.to_play]

    def legal_actions(self, seat):
        return sorted(set(self.hands[seat])) if seat in self.to_move() else []

    def apply_actions(self, actions):
        seat = self.to_play
        if list(actions) != self.to_move() or actions[seat] not in self.hands[seat]:
            raise IllegalAction(f"not a legal play: {actions}")
        card = actions[seat]
        self.hands[seat].remove(card)
        self.fire += self.rules.heat[card]
        self.turn += 1
        self._note("play", player=seat, card=self.rules.ids[card], fire=self.fire)
        if self.fire >= self.flare:
            self.scores[seat] += self.fire
            self._note("bank", player=seat, points=self.fire, score=self.scores[seat])
            self.fire = 0
            self.mark_progress()
        if self.pile:
            self.owed = seat
        self.to_play = (seat + 1) % self.n
        while not self.hands[self.to_play] and not self.is_over and self.owed is None:
            self.to_play = (self.to_play + 1) % self.n
        if self.is_over:
            self._note("game_over", winners=self.winners(), scores=list(self.scores))
        if self.check:
            self._check()

    def _note(self, kind, **data):
        if self.record:
            self.events.append(GameEvent(kind, data))

    def _check(self):
        held = sum(len(h) for h in self.hands) + len(self.pile)
        if held > len(self.rules.ids) or min(self.scores) < 0:
            self.violations.append(f"turn {self.turn}: {held} cards held or in the pile")

    @property
    def is_over(self):
        return self.dealt == HAND * self.n and self.owed is None and not any(self.hands)

    def winners(self):
        best = max(self.scores)
        return [s for s in range(self.n) if self.scores[s] == best] if best > 0 else []

    def returns(self):
        won = self.winners()
        return [1 / len(won) if s in won else 0.0 for s in range(self.n)]

    def progress(self):
        return tuple(self.scores)

    @property
    def length(self):
        return self.turn

    def action_to_string(self, seat, card):
        return f"lay {self.rules.ids[card]}"

    # ---------------------------------------------------------------- hidden information
    def clone(self):
        copy = GameState.__new__(GameState)
        copy.__dict__.update(self.__dict__)
        copy.pile, copy.hands, copy.scores = list(self.pile), [list(h) for h in self.hands], list(self.scores)
        copy.record, copy.check, copy.events, copy.violations, copy.trace = False, False, [], [], None
        return copy

    def information_state(self, seat):
        sizes = tuple(len(h) for h in self.hands)
        return (seat, self.turn, self.to_play, self.fire, tuple(self.scores), sizes, len(self.pile), self.owed,
                tuple(sorted(self.hands[seat])))

    def determinize(self, seat, rng):
        copy = self.clone()
        unseen = copy.pile + [c for s in range(self.n) if s != seat for c in copy.hands[s]]
        unseen.sort()
        rng.shuffle(unseen)
        for s in range(self.n):
            if s != seat:
                copy.hands[s] = [unseen.pop() for _ in copy.hands[s]]
        copy.pile = unseen
        return copy


def new_state(rules, players, *, record=False, check=False, flare=FLARE):
    return GameState(rules, players, record=record, check=check, flare=flare)


class GreedyBot:
    """Banks the fire when a card can; otherwise lays its coolest card (leaving less for the next seat)."""

    name, fast = "greedy", False

    def act(self, state, seat, rng):
        cards = state.legal_actions(seat)
        heat = state.rules.heat
        banking = [c for c in cards if state.fire + heat[c] >= state.flare]
        return max(banking, key=lambda c: (heat[c], -c)) if banking else min(cards, key=lambda c: (heat[c], c))


def max_decisions(rules, players, options):
    return len(rules.ids)                # one card laid a decision


BOTS = registry({"greedy": GreedyBot}, rollout=GreedyBot())
DEFAULT_BOTS = ("greedy", "random")
ENGINE = Engine("kindling", new_state, players=(2, 4), bots=BOTS, length_unit="turns", progress="score",
                max_decisions=max_decisions)


def validate_game(game):
    problems = []
    for card in game.cards:
        if card.stat("heat") >= FLARE:
            problems.append(Problem(f"heat {card.stat('heat')} banks the fire alone", card=card.id, field="heat",
                                    warning=True))
    return problems


# ---------------------------------------------------------------- scenarios
class Scenario(NamedTuple):
    title: str
    players: tuple
    hands: tuple                   # per seat, card numbers
    pile: tuple                    # card numbers, top first
    fire: int
    plays: tuple                   # card ids, in the order of the turns


class Player(NamedTuple):
    name: str


class Outcome(NamedTuple):
    scenario: Scenario
    state: GameState
    events: list
    result: dict


def scenario_from_data(rules, data, players=(2, 4)):
    plist, names, problems = read_players(data, players, lambda name, item: Player(name), rules.max_players())
    free = list(range(len(rules.ids)))

    def take(card_id, where):
        for c in free:
            if rules.ids[c] == card_id:
                free.remove(c)
                return c
        known = sorted(set(rules.ids))
        problems.append((where, f"no card '{card_id}' is left to deal" + suggest(card_id, known)))
        return None

    hands = []
    for name in names:
        cards = (data.get("hands") or {}).get(name)
        if cards is None:
            problems.append(("hands", f"no hand for {name}"))
            cards = []
        hands.append(tuple(c for i, cid in enumerate(cards, 1) if (c := take(cid, f"hands.{name}[{i}]")) is not None))
    for name in data.get("hands") or {}:
        if name not in names:
            problems.append((f"hands.{name}", f"'{name}' is not a player" + suggest(name, names)))
    pile = tuple(c for i, cid in enumerate(data.get("pile") or [], 1) if (c := take(cid, f"pile[{i}]")) is not None)
    if problems:
        return None, problems
    return Scenario(data.get("title") or "", tuple(plist), tuple(hands), pile, data.get("fire") or 0,
                    tuple(data["plays"])), []


def run_scenario(rules, scenario):
    state = GameState(rules, max(2, len(scenario.players)), record=True, check=True)
    state.hands = [list(h) for h in scenario.hands]
    state.pile, state.dealt, state.fire = [], HAND * state.n, scenario.fire
    order = list(scenario.pile)
    names = [p.name for p in scenario.players]
    state.events.append(GameEvent("scenario_start", {"fire": scenario.fire,
                                                     "hands": {names[s]: [rules.ids[c] for c in h]
                                                               for s, h in enumerate(scenario.hands)}}))
    for i, card_id in enumerate(scenario.plays, 1):
        if state.is_over:
            raise ValueError(f"plays[{i}]: the game is already over")
        seat = state.to_play
        card = next((c for c in state.hands[seat] if rules.ids[c] == card_id), None)
        if card is None:
            held = ", ".join(sorted(rules.ids[c] for c in state.hands[seat])) or "nothing"
            raise ValueError(f"plays[{i}]: {names[seat]} holds no '{card_id}' (holds {held})")
        state.pile = order[:1] if order else []
        state.apply_actions({seat: card})
        if state.owed is not None:
            state.apply_chance(order.pop(0))
    winners = state.winners() if state.is_over else []
    result = {"players": {names[s]: {"score": state.scores[s], "hand": [rules.ids[c] for c in state.hands[s]]}
                          for s in range(len(names))},
              "fire": state.fire, "winner": names[winners[0]] if len(winners) == 1 else None,
              "game_over": state.is_over}
    return Outcome(scenario, state, list(state.events), result)
