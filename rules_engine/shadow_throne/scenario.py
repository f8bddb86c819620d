"""Scenarios: one battle with fixed plays, for tests, examples and the rulebook.

A :class:`Scenario` is plain data (``pnp.loading.scenario`` builds one from YAML with file:line errors).
:func:`run_scenario` plays it through the same :class:`~rules_engine.shadow_throne.state.GameState`
as real games, and returns the outcome: the final state, the events, and :func:`scenario_result`,
the JSON-ready summary documented in ``docs/scenarios.md``.

RULING (scenarios): every player's hand is exactly the cards the scenario has them play; a player
absent from a wave plays nothing in it (and owes no hush money next wave); waves the scenario does
not list are empty. An extra card that cannot be added when its turn comes (the source was killed
or suppressed, or the card is not affordable then) stays in hand and is reported with
``played: false``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules_engine.core.scenario import ScenarioError
from rules_engine.shadow_throne.rules import GOAL, Rules
from rules_engine.shadow_throne.state import EXTRA, KEEP, OVER, GameState
from rules_engine.shadow_throne.transcript import ENGLISH, transcript_lines


@dataclass(frozen=True)
class ScenarioPlayer:
    """A player of a battle scenario: the name, and the gold and influence the player starts with."""

    name: str
    gold: int = 3
    influence: int = 0


@dataclass(frozen=True)
class Play:
    """What one player plays in one wave: a card id, and the id of an extra card to add (or None)."""

    card: str
    extra: str | None = None


@dataclass(frozen=True)
class Scenario:
    """One battle to play: the players, each wave's plays, the characters carried over from the last battle
    and the goal."""

    players: tuple                 # ScenarioPlayer, in seating order
    waves: tuple                   # one dict {player name: Play} per wave (at most 4)
    carryover: tuple = ()          # (card id, owner name)
    goal: int = GOAL
    title: str = ""


@dataclass
class ScenarioOutcome:
    """A scenario played through: the final state, the events (when recorded) and the JSON-ready result."""

    scenario: Scenario
    state: GameState
    events: list
    result: dict = field(default_factory=dict)


def check_scenario(rules: Rules, scenario: Scenario) -> list[tuple[str, str]]:
    """Problems that keep a scenario from being played (the YAML loader reports them with lines)."""
    problems = []
    names = [p.name for p in scenario.players]
    if not names:
        problems.append(("players", "a scenario needs at least one player"))
    if len(set(names)) != len(names):
        problems.append(("players", "player names must differ"))
    if len(scenario.waves) > rules.waves:
        problems.append(("waves", f"{len(scenario.waves)} waves; a battle has at most {rules.waves}"))
    used = {}

    def use(card_id, where):
        if card_id not in rules.copies_of:
            problems.append((where, f"unknown card {card_id!r}"))
            return
        used[card_id] = used.get(card_id, 0) + 1
        if used[card_id] > len(rules.copies_of[card_id]):
            problems.append((where, f"{card_id!r} is used {used[card_id]} times; the deck has "
                                    f"{len(rules.copies_of[card_id])}"))

    for i, (card_id, owner) in enumerate(scenario.carryover):
        use(card_id, f"carryover[{i + 1}]")
        if owner not in names:
            problems.append((f"carryover[{i + 1}]", f"unknown player {owner!r}"))
    for w, wave in enumerate(scenario.waves, start=1):
        for name, play in wave.items():
            where = f"waves[{w}].{name}"
            if name not in names:
                problems.append((where, f"unknown player {name!r}"))
            use(play.card, where)
            if play.extra is not None:
                use(play.extra, where + ".extra")
                card = rules.card_by_id.get(play.card)
                extra = rules.card_by_id.get(play.extra)
                if card is not None and (card.ability is None or card.ability.kind != "extra_play"):
                    problems.append((where + ".extra", f"{play.card!r} has no ability that adds an extra card"))
                elif card is not None and extra is not None and extra.faction != card.faction:
                    problems.append((where + ".extra", f"{play.extra!r} is not of the faction of "
                                                       f"{play.card!r} ({card.faction})"))
    return problems


def run_scenario(rules: Rules, scenario: Scenario, *, record: bool = True, check: bool = True) -> ScenarioOutcome:
    """Play the scenario's battle; raise :class:`ScenarioError` when it cannot be played."""
    problems = check_scenario(rules, scenario)
    if problems:
        raise ScenarioError(problems)
    names = [p.name for p in scenario.players]
    seat = {name: i for i, name in enumerate(names)}
    free = {cid: list(numbers) for cid, numbers in rules.copies_of.items()}
    carry = [(free[cid].pop(0), seat[owner]) for cid, owner in scenario.carryover]
    hands = [[] for _ in names]
    plan = []  # per wave: (choices per seat, {seat: extra card number})
    for wave in scenario.waves:
        choices, extras = [None] * len(names), {}
        for name, play in wave.items():
            p = seat[name]
            choices[p] = free[play.card].pop(0)
            hands[p].append(choices[p])
            if play.extra is not None:
                extras[p] = free[play.extra].pop(0)
                hands[p].append(extras[p])
        plan.append((choices, extras))
    while len(plan) < rules.waves:
        plan.append(([None] * len(names), {}))

    state = GameState.for_battle(rules, hands, gold=[p.gold for p in scenario.players],
                                 influence=[p.influence for p in scenario.players], carryover=carry,
                                 goal=scenario.goal, record=record, check=check)
    state.allow_pass = True
    state.offer_every_extra = True
    refused = []  # (seat, wave, card number)
    for w, (choices, extras) in enumerate(plan, start=1):
        state.apply_play(choices)
        offered = set()
        while state.phase == EXTRA:
            actions = {}
            for p, source in sorted(state.extra_pending.items()):
                offered.add(p)
                card = extras.get(p)
                if card is None:
                    actions[p] = None
                elif card in state.extra_options(source):
                    actions[p] = card
                else:
                    state.refuse_extra(source, card, "unaffordable")
                    refused.append((p, w, card))
                    actions[p] = None
            state.apply_extra(actions)
        for p, card in sorted(extras.items()):
            if p in offered:
                continue
            # the source never got to act: killed at an earlier step or suppressed
            source = next((ch for ch in _battle_chars(state) if ch.owner == p and ch.wave == w
                           and ch.card == choices[p]), None)
            reason = "dead" if source is not None and source.dead else "blocked"
            if source is not None:
                _insert_before_track(state, lambda: state.refuse_extra(source, card, reason))
                state._refused.discard(p)
            refused.append((p, w, card))
    outcome = ScenarioOutcome(scenario, state, state.events or [])
    outcome.result = scenario_result(state, names, refused)
    return outcome


def _battle_chars(state):
    if state.last_result is not None and state.phase in (OVER, KEEP):
        return state.last_result["characters"]
    return state.chars + state.face_down


def _insert_before_track(state, record):
    """Record an event just before the wave's power-track line (keeps the transcript in order)."""
    events = state.events
    if events is None:
        record()
        return
    index = max((i for i, e in enumerate(events) if e.type == "power_track"), default=len(events))
    tail = events[index:]
    del events[index:]
    record()
    events.extend(tail)


def scenario_result(state: GameState, names, refused=()) -> dict:
    """The battle's outcome in the shape ``pnp scenario --json`` prints (see docs/scenarios.md)."""
    rules = state.rules
    result = state.last_result
    chars = sorted(result["characters"], key=lambda ch: (ch.wave, ch.owner, ch.extra))
    entries = []
    for ch in chars:
        entries.append({
            "card": rules.card_id(ch.card), "owner": names[ch.owner], "wave": ch.wave, "played": ch.played,
            "original_faction": rules.factions[ch.original], "faction": rules.factions[ch.faction],
            "power": ch.strength() if ch.played else 0, "dead": ch.dead, "converted": ch.converted,
        })
    for p, wave, card in refused:
        faction = rules.factions[rules.faction[card]]
        entries.append({"card": rules.card_id(card), "owner": names[p], "wave": wave, "played": False,
                        "original_faction": faction, "faction": faction, "power": 0, "dead": False,
                        "converted": False})
    entries.sort(key=lambda e: (e["wave"], names.index(e["owner"])))
    winners = result["winners"]
    return {
        "winners": [rules.factions[f] for f in winners],
        "power": {f: result["power"][i] for i, f in enumerate(rules.factions)},
        "players": {name: {"gold_after_conflict": state.gold_after_conflict[p], "gold": state.gold[p],
                           "influence": state.influence[p]} for p, name in enumerate(names)},
        "characters": entries,
        "carryover": [rules.card_id(ch.card) for ch in state.carry],
        "game_over": state.phase == OVER,
        "winner": names[state.winner] if state.winner is not None else None,
    }


def scenario_transcript(outcome: ScenarioOutcome, cards, factions=None, phrases: dict = ENGLISH) -> list[str]:
    """The scenario's events as sentences (player names from the scenario)."""
    names = [p.name for p in outcome.scenario.players]
    return transcript_lines(outcome.events, cards, factions, names, phrases)
