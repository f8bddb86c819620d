"""Load a scenario YAML file (one battle with fixed plays) and check it, reporting every problem at once.

The format is documented in ``docs/scenarios.md``. Problems come back as ``file:line: subject: message``
(:class:`~pnp.errors.DataError`), like ``pnp validate``; the engine then plays the checked
:class:`~rules_engine.shadow_throne.scenario.Scenario`.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from pnp.errors import DataError, Problems, UserError
from pnp.gamedata import Game, load_game
from pnp.schema import Field, check
from pnp.yamlsrc import line_of, load_yaml
from rules_engine import engine_module

SCENARIO_SCHEMA = {
    "game": Field("str", default="shadow_throne", doc="bundled game name or game folder"),
    "title": Field("str", default="", doc="shown above the transcript"),
    "goal": Field("int", default=None, nullable=True, min=1, max=99, doc="influence that ends the game"),
    "players": Field("list", required=True, doc="seating order"),
    "carryover": Field("list", default=[], doc="characters already in play"),
    "waves": Field("list", default=[], doc="one mapping per wave: player name -> card"),
}

PLAYER_SCHEMA = {
    "name": Field("str", required=True),
    "gold": Field("int", default=3, min=0, max=999),
    "influence": Field("int", default=0, min=0, max=999),
}

CARRY_SCHEMA = {"card": Field("str", required=True), "owner": Field("str", required=True)}
PLAY_SCHEMA = {"card": Field("str", required=True), "extra": Field("str", nullable=True)}


def _suggest(card_id, known) -> str:
    close = difflib.get_close_matches(str(card_id), list(known), n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


def load_scenario(path: str | Path):
    """Read and check a scenario file; return ``(game, scenario)`` or raise DataError with every problem."""
    path = Path(path)
    if path.is_dir():
        raise UserError(f"{path} is a folder, not a scenario file")
    raw = load_yaml(path)
    problems = Problems()
    top = check(raw, SCENARIO_SCHEMA, problems, path)
    game_arg = top.get("game") or "shadow_throne"
    try:
        game = load_game(game_arg)
    except UserError as exc:
        problems.error(path, line_of(raw, "game"), None, f"game: {exc}")
        raise DataError(problems) from None
    if not game.engine:
        problems.error(path, line_of(raw, "game"), None, f"game: '{game_arg}' has no rules engine")
        raise DataError(problems)
    engine = engine_module(game.engine)
    where_lines = {}

    players = []
    raw_players = raw.get("players") if isinstance(raw, dict) else None
    for i, item in enumerate(top.get("players") or []):
        line = line_of(raw_players, i)
        if isinstance(item, str):       # a bare name: default gold and influence
            item = {"name": item}
        clean = check(item, PLAYER_SCHEMA, problems, path, prefix=f"players[{i + 1}]")
        if "name" not in clean:
            continue
        if any(p.name == clean["name"] for p in players):
            problems.error(path, line_of(item, "name") or line, None,
                           f"players[{i + 1}].name: '{clean['name']}' is already a player")
            continue
        players.append(engine.ScenarioPlayer(clean["name"], clean.get("gold", 3), clean.get("influence", 0)))
    lo, hi = game.players
    if top.get("players") is not None and not 1 <= len(players) <= max(hi, 1):
        problems.error(path, line_of(raw, "players"), None,
                       f"players: {len(players)} players; a scenario has 1 to {hi}")
    names = [p.name for p in players]

    carry = []
    raw_carry = raw.get("carryover") if isinstance(raw, dict) else None
    for i, item in enumerate(top.get("carryover") or []):
        clean = check(item, CARRY_SCHEMA, problems, path, prefix=f"carryover[{i + 1}]")
        if {"card", "owner"} <= clean.keys():
            where_lines[f"carryover[{i + 1}]"] = line_of(item, "card") or line_of(raw_carry, i)
            carry.append((clean["card"], clean["owner"]))

    waves = []
    raw_waves = raw.get("waves") if isinstance(raw, dict) else None
    max_waves = engine.WAVES
    if len(top.get("waves") or []) > max_waves:
        problems.error(path, line_of(raw_waves, max_waves), None,
                       f"waves: {len(top['waves'])} waves; a battle has at most {max_waves}")
    for w, wave in enumerate((top.get("waves") or [])[:max_waves], start=1):
        wave_line = line_of(raw_waves, w - 1)
        plays = {}
        if wave is None:
            waves.append(plays)
            continue
        if not isinstance(wave, dict):
            problems.error(path, wave_line, None,
                           f"waves[{w}]: expected a mapping of player name to card, got {type(wave).__name__}")
            continue
        for name, value in wave.items():
            name_str = str(name)
            line = line_of(wave, name) or wave_line
            where = f"waves[{w}].{name_str}"
            if isinstance(value, str):
                play = engine.Play(value)
                where_lines[where] = line
            elif isinstance(value, dict):
                clean = check(value, PLAY_SCHEMA, problems, path, prefix=where)
                if "card" not in clean:
                    continue
                play = engine.Play(clean["card"], clean.get("extra"))
                where_lines[where] = line_of(value, "card") or line
                where_lines[where + ".extra"] = line_of(value, "extra") or line
            else:
                problems.error(path, line, None,
                               f"{where}: expected a card id or a mapping with 'card' (and 'extra')")
                continue
            plays[name_str] = play
        waves.append(plays)

    scenario = engine.Scenario(players=tuple(players), waves=tuple(waves), carryover=tuple(carry),
                               goal=top.get("goal") or engine.GOAL, title=top.get("title") or "")
    rules = engine.Rules(game.cards, game.factions)
    known = [c.id for c in game.cards]
    for where, message in engine.check_scenario(rules, scenario):
        line = where_lines.get(where) or where_lines.get(where.rsplit(".", 1)[0])
        if where in ("players",):
            line = line_of(raw, "players")
        if message.startswith("unknown card"):
            bad = message.split("'", 2)[1] if "'" in message else ""
            message += _suggest(bad, known)
        elif message.startswith("unknown player"):
            message += f"; players are: {', '.join(names)}"
        problems.error(path, line, None, f"{where}: {message}")
    if problems.errors:
        raise DataError(sorted(problems, key=lambda p: p.line or 0))
    return game, scenario


def run_scenario_file(path: str | Path):
    """Load, check and play a scenario file: ``(game, outcome)`` (see ``run_scenario``)."""
    game, scenario = load_scenario(path)
    engine = engine_module(game.engine)
    outcome = engine.run_scenario(engine.Rules(game.cards, game.factions), scenario)
    return game, outcome


def scenario_lines(game: Game, outcome) -> list[str]:
    """The scenario's transcript, titled when the file gives a title."""
    engine = engine_module(game.engine)
    lines = engine.scenario_transcript(outcome, game.cards, game.factions)
    if outcome.scenario.title:
        lines.insert(0, outcome.scenario.title)
    return lines
