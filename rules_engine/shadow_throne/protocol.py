"""Shadow Throne's side of the engine protocol (:mod:`rules_engine.protocol`).

The pieces ``pnp``'s game-neutral commands need, built on the engine's own API without changing it:
the scenario file's keys as plain :class:`~rules_engine.protocol.Spec` data and their conversion into a
:class:`~rules_engine.shadow_throne.scenario.Scenario`, the recorded game shown by
``pnp simulate --transcript``, and the English simulation report.
"""

from __future__ import annotations

from rules_engine.core import runs
from rules_engine.model.cards import Param
from rules_engine.protocol import Spec
from rules_engine.shadow_throne.rules import GOAL, MAX_BATTLES, START_GOLD, WAVES, Rules
from rules_engine.shadow_throne.scenario import (Play, Scenario, ScenarioPlayer, check_scenario,
                                                 scenario_transcript)
from rules_engine.core import play as core_play
from rules_engine.core.scenario import read_players, suggest
from rules_engine.shadow_throne.simulate import ENGINE

#: Bots used when none are named.
DEFAULT_BOTS = ("random",)

#: The card keys the rules read, per deck (checked by ``pnp validate``: a renamed field is an error, not
#: a card played at 0).
CARD_KEYS = {"cards": {
    "faction": Param("str", required=True, doc="the character's faction"),
    "rank": Param("str", required=True, doc="commoner, elite or noble"),
    "power": Param("int", required=True), "influence": Param("int", required=True),
    "cost": Param("int", doc="gold paid to play it (a card gives cost or income)"),
    "income": Param("int", doc="gold earned when it is played"),
    "consolation": Param("int", doc="gold for its owner when its faction loses"),
}}

#: Game options of ``play_game`` / ``simulate`` / ``recorded_game`` (``pnp simulate -o goal=20``).
OPTIONS = {
    "goal": Param("int", default=GOAL, min=1, max=99, doc="influence that ends the game",
                  rule="Game end: the game ends after the battle in which a player reaches this much influence"),
    "start_gold": Param("int", default=START_GOLD, min=0, max=30, doc="gold each player starts with",
                        rule="Setup: every player starts with this much gold"),
    "battle_limit": Param("int", default=MAX_BATTLES, min=1, max=1000,
                          doc="battles after which a game stops (a safety net)",
                          rule="Interpretation 15: a game still running after this many battles ends at once"),
}

SCENARIO_SCHEMA = {
    "title": Spec("str", default="", doc="shown above the transcript"),
    "goal": Spec("int", default=None, nullable=True, min=1, max=99, doc="influence that ends the game"),
    "players": Spec("list", required=True, doc="seating order", items=Spec(
        "map", shorthand="name", doc="a player name or a mapping with 'name'", schema={
            "name": Spec("str", required=True),
            "gold": Spec("int", default=3, min=0, max=999),
            "influence": Spec("int", default=0, min=0, max=999),
        })),
    "carryover": Spec("list", default=[], doc="characters already in play", items=Spec("map", schema={
        "card": Spec("str", required=True), "owner": Spec("str", required=True)})),
    "waves": Spec("list", default=[], doc="one mapping per wave: player name -> card", items=Spec(
        "dict", nullable=True, items=Spec(
            "map", shorthand="card", doc="a card id or a mapping with 'card' (and 'extra')", schema={
                "card": Spec("str", required=True), "extra": Spec("str", nullable=True)}))),
}


def rules_for(game) -> Rules:
    """Compile a loaded game's cards and factions."""
    return Rules(game.cards, game.factions)


def scenario_from_data(rules: Rules, data: dict, players=(1, 5)):
    """``(scenario, [])`` from a scenario file's data, or ``(None, [(where, message[, at]), ...])``."""
    def player(name, item):
        gold, influence = item.get("gold"), item.get("influence")
        return ScenarioPlayer(name, 3 if gold is None else gold, 0 if influence is None else influence)

    plist, _, problems = read_players(data, players, player, 5)
    names = [p.name for p in plist]

    carry = []
    for item in data.get("carryover") or []:
        if isinstance(item, dict) and item.get("card") is not None and item.get("owner") is not None:
            carry.append((str(item["card"]), str(item["owner"])))

    raw_waves = list(data.get("waves") or [])
    if len(raw_waves) > WAVES:
        problems.append(("waves", f"{len(raw_waves)} waves; a battle has at most {WAVES}", f"waves[{WAVES + 1}]"))
    waves = []
    for wave in raw_waves[:WAVES]:
        plays = {}
        for name, value in (wave or {}).items() if isinstance(wave, dict) else ():
            if isinstance(value, str):
                value = {"card": value}
            if isinstance(value, dict) and value.get("card") is not None:
                plays[str(name)] = Play(str(value["card"]), value.get("extra"))
        waves.append(plays)

    scenario = Scenario(players=tuple(plist), waves=tuple(waves), carryover=tuple(carry),
                        goal=data.get("goal") or GOAL, title=data.get("title") or "")
    known = list(rules.copies_of)
    for where, message in check_scenario(rules, scenario):
        if where == "waves":
            continue                       # too many waves: reported above, with the line of the first extra
        if message.startswith("unknown card"):
            bad = message.split("'", 2)[1] if "'" in message else ""
            message += suggest(bad, known)
        elif message.startswith("unknown player"):
            message += f"; players are: {', '.join(names)}"
        at = where + ".card" if where.startswith(("carryover", "waves")) and not where.endswith(".extra") else where
        problems.append((where, message, at))
    if problems:
        return None, problems
    return scenario, []


def scenario_lines(outcome, cards, factions=None) -> list[str]:
    """The scenario's transcript, titled when the file gives a title."""
    lines = scenario_transcript(outcome, cards, factions)
    return ([outcome.scenario.title] if outcome.scenario.title else []) + lines


def recorded_game(rules: Rules, *, seed: int, players: int, bots, check: bool = False, goal: int = GOAL, **options):
    """Game 0 of a run seeded with ``seed``, with events: ``(seat bot names, final state)``."""
    return core_play.recorded_game(ENGINE, rules, seed=seed, players=players, bots=bots, check=check, goal=goal,
                                   **options)


def _percent(count, whole) -> str:
    return f"{100 * count / whole:.1f}%" if whole else "-"


def report_lines(report: dict, *, title: str, cards=(), factions=()) -> list[str]:
    """The simulation report (``simulate``'s dict) as a short English text."""
    games = report["games"]
    faction_name = {f.id: f.name for f in factions if hasattr(f, "id")}
    lines = [f"{title}: {games} games, {report['players']} players, goal {report['goal']} influence, "
             f"seed {report['seed']}, bots {', '.join(report['bots'])}"]
    seats = ", ".join(f"seat {s} {n} ({_percent(n, games)})" for s, n in report["wins_by_seat"].items())
    lines.append(f"Wins by seat: {seats}; no winner {report['no_winner']} ({_percent(report['no_winner'], games)})")
    bots = ", ".join(f"{name} {b['wins']} of {b['seats']} seats ({100 * b['win_rate']:.1f}% per seat)"
                     for name, b in report["wins_by_bot"].items())
    lines.append(f"Wins by bot: {bots}")
    dist = ", ".join(f"{k}: {_percent(v, games)}" for k, v in report["battles"]["distribution"].items())
    lines.append(f"Battles per game: mean {report['battles']['mean']:.2f} ({dist})")
    total = report["battles_total"]
    by_faction = ", ".join(f"{faction_name.get(f, f)} {v['wins']} ({100 * v['share']:.1f}%)"
                           for f, v in report["battle_wins_by_faction"].items())
    lines.append(f"Battle wins by faction: {by_faction} of {total} battles; "
                 f"{report['tied_battles']} battles tied ({_percent(report['tied_battles'], total)})")
    end = report["end"]
    lines.append(f"End of game, per player: gold mean {end['gold']['mean']:.1f} (max {end['gold']['max']}), "
                 f"influence mean {end['influence']['mean']:.1f} (max {end['influence']['max']}); "
                 f"winner's influence mean {end['influence']['winner_mean']:.1f}")
    reasons = {"goal": "one leader", "gold_tiebreak": "influence tie broken by gold",
               "tie": "tie, no winner", "battle_limit": "battle limit"}
    over = ", ".join(f"{reasons.get(k, k)} {v}" for k, v in report["game_over"].items())
    lines.append(f"Game over: {over}")
    peak = report["peak_tokens"]
    lines.append(f"Peak tokens in use at once ({100 * peak['quantile']:g}th percentile): gold {peak['gold']}, "
                 f"influence {peak['influence']}, dead {peak['dead']}, converted {peak['converted']}, "
                 f"+1 {peak['plus_one']}")
    lines.append(runs.invariant_line(report["invariants"]))
    return lines
