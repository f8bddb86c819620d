"""The conformance kit (``pnp check-engine NAME [--game DIR]``): an engine held to its contract on a game.

:func:`rules_engine.core.conformance.check_engine` plays seeded random games through the contract and
checks the engine on its own; this module adds what needs pnp: the game's languages (the events of those
games said by the game's event templates, ``templates/events/<lang>.j2``, in every language the game has,
and the engine's own transcript in each) and its scenario files (the rulebook's examples, the game's
``scenarios/*.yaml`` and any named), each loaded and played twice, the two compared as JSON (what
``pnp scenario --json`` prints). :func:`check` returns a :class:`Report`; an author's own tests can call it
(``assert check("kindling", "my_game").failures == []``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from pnp.errors import DataError, UserError, display_path

#: The order checks are reported in, with what each holds the engine to.
CHECKS = {
    "contract": "the names the engine exports have the contract's types",
    "play": "random games through the checked state API: seats, legal actions, chance, returns, results",
    "bound": "every game ends within the engine's declared decisions",
    "hidden": "no seat's view, legal actions or bot reads what the seat cannot see",
    "determinism": "the same seed plays the same game: twice, pickled rules, the engine's own loop",
    "events": "events have a type and JSON-ready data",
    "languages": "the events are said in every language the game has",
    "scenarios": "scenario files load and play the same twice, their results and events as JSON",
    "views": "table_view and the lab's metrics are JSON-ready numbers and labels",
    "data": "max_players() and the card fields' ranges hold the game's data",
}
SEAT_NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana", "Ivo")


@dataclass
class Report:
    """What the kit found: ``failures`` (``(check, message)``), what each check looked at (``looked``) and
    the run's description (``engine``, ``game``, ``players``, ``games``)."""

    engine: str
    game: str
    players: list
    games: int
    failures: list = field(default_factory=list)
    looked: dict = field(default_factory=dict)

    def lines(self) -> list[str]:
        """The report as the command prints it: a line per check, then the verdict."""
        counts = ", ".join(map(str, self.players)) or "none"
        out = [f"Rules engine '{self.engine}' on {self.game}: {self.games} seeded random game"
               f"{'s' * (self.games != 1)} per player count ({counts})"]
        by_check: dict = {}
        for check, message in self.failures:
            by_check.setdefault(check, []).append(message)
        for check, what in CHECKS.items():
            seen = self.looked.get(check, 0)
            if check in by_check:
                out.append(f"  {check}: FAILED ({what})")
                out += [f"    {message}" for message in by_check[check]]
            elif seen:
                out.append(f"  {check}: ok ({what}; {seen} looked at)")
            else:
                out.append(f"  {check}: nothing to check")
        n = len(self.failures)
        out.append("Every check passed." if not n else f"{n} problem{'s' * (n != 1)} found.")
        return out


def engine_games(name: str) -> list[Path]:
    """The bundled game folders whose game.yaml names engine ``name``."""
    from pnp import DATA_DIR
    from pnp.loading.yamlsrc import load_yaml

    found = []
    for folder in sorted(DATA_DIR.iterdir()) if DATA_DIR.is_dir() else ():
        try:
            raw = load_yaml(folder / "game.yaml") if (folder / "game.yaml").is_file() else None
        except DataError:
            continue
        if isinstance(raw, dict) and raw.get("engine") == name:
            found.append(folder)
    return found


def check(name: str, game_dir=None, *, games: int = 2, seed: int = 0, scenarios=()) -> Report:
    """Hold the installed engine ``name`` to its contract on ``game_dir`` (default: the bundled game that
    names it): see the module docstring. UserError when the engine cannot be loaded or no game is given."""
    from rules_engine import EngineImportError, UnknownEngine, engine_module
    from rules_engine.core.conformance import Findings, check_engine
    from rules_engine.core.contract import engine_api, missing

    try:
        module = engine_module(name)
    except UnknownEngine as exc:
        raise UserError(f"no installed rules engine is named '{name}'; installed engines: "
                        f"{', '.join(exc.known)}") from None
    except EngineImportError as exc:
        raise UserError(str(exc)) from None
    absent = missing(module)
    if absent:
        raise UserError(f"the rules engine '{name}' does not export {', '.join(absent)} (the engine contract, "
                        f"docs/engine.md)")
    game = _game(name, game_dir)
    findings, info = check_engine(module, game, games=games, seed=seed)
    found = Findings()
    for f in findings:
        found.add(*f)
    found.looked.update(info["looked"])
    api = engine_api(module)
    runs = info.get("runs", [])
    _languages(game, api, runs, found)
    files = list(_scenario_files(game)) + [Path(s) for s in scenarios]
    _scenarios(game, api, files, found)
    players = sorted({r.players for r in runs})
    shown = name if game_dir is None else display_path(game.root)
    return Report(name, f"{game.title} ({shown})", players, games, [tuple(f) for f in found.list()], found.looked)


def _game(name: str, game_dir):
    from pnp.loading.gamedata import load_game

    if game_dir is None:
        folders = engine_games(name)
        if not folders:
            raise UserError(f"no bundled game is played by the rules engine '{name}': give --game DIR, a game "
                            f"folder whose game.yaml says engine: {name}")
        game_dir = folders[0]
    game = load_game(game_dir)
    if game.engine != name:
        raise UserError(f"{display_path(game.root)} is played by the rules engine "
                        f"'{game.engine or 'none'}', not '{name}'")
    return game


def _languages(game, api, runs, found) -> None:
    """The first game of each player count said in every language of the game: by its event templates
    where it has them, and by the engine's own transcript."""
    from pnp.loading.events import event_templates, template_lines, transcript_lines
    from pnp.loading.i18n import languages, translate

    firsts = {}
    for run in runs:
        firsts.setdefault(run.players, run)
    with_templates = [lang for lang in languages(game) if event_templates(game, lang)[0] is not None]
    for lang in languages(game):
        try:
            said = translate(game, lang) if lang != game.source_language else game
        except DataError as exc:
            found.add("languages", f"{lang}: {exc.problems[0]}")
            continue
        module, template_file = event_templates(game, lang)
        if module is None and with_templates:
            found.add("languages", f"{lang}: the game words its events in {', '.join(with_templates)} "
                                   f"(templates/events/<lang>.j2) but not in {lang}")
        for run in firsts.values():
            names = list(SEAT_NAMES[:run.players])
            events = list(run.state.events)
            found.saw("languages")
            if module is not None:
                lines, problems = template_lines(said, module, events, names, template_file)
                for problem in problems:
                    found.add("languages", f"{lang}: {problem}")
                if not problems and events and not lines:
                    found.add("languages", f"{lang}: the event templates say nothing of a whole game")
            try:
                lines = transcript_lines(said, api, events, names, lang)
                if not all(isinstance(line, str) for line in lines):
                    found.add("languages", f"{lang}: the transcript holds something other than text")
            except DataError:
                pass                      # the template's problems, found above
            except Exception as exc:  # noqa: BLE001 - the engine's transcript raised
                from rules_engine.core.faults import raised

                found.add("languages", f"{lang}: the transcript of a {run.players}-player game raised {raised(exc)}")


def _scenario_files(game):
    """The rulebook's example scenarios and the game folder's ``scenarios/*.yaml``."""
    from pnp.rulebook.chapters import load_config

    try:
        cfg = load_config(game)
    except DataError:
        cfg = {}
    for ex in (cfg or {}).get("examples") or []:
        if ex.get("_file"):
            yield Path(ex["_file"])
    folder = game.root / "scenarios"
    if folder.is_dir():
        yield from sorted(folder.glob("*.yaml"))


def _scenarios(game, api, files, found) -> None:
    """Each scenario file loads, plays the same twice, and its result reads back from JSON unchanged."""
    from pnp.loading.events import event_dict
    from pnp.loading.scenario import load_scenario, play_scenario, scenario_lines

    for path in files:
        shown = display_path(path)
        found.saw("scenarios")
        try:
            _, scenario = load_scenario(path, game=game)
            first = play_scenario(game, scenario, path)
            _, again_scenario = load_scenario(path, game=game)
            second = play_scenario(game, again_scenario, path)
        except DataError as exc:
            found.add("scenarios", f"{shown}: {exc.problems[0].message}")
            continue
        try:
            texts = [_json([event_dict(e) for e in o.events]) + _json(o.result) for o in (first, second)]
            json.loads(_json(first.result))
            if texts[0] != texts[1]:
                found.add("scenarios", f"{shown}: played twice, it plays two different games")
        except (TypeError, ValueError) as exc:
            found.add("scenarios", f"{shown}: its result or events are not JSON-ready: {str(exc)[:120]}")
        names = [p.name for p in getattr(first.scenario, "players", ())]
        players = (first.result or {}).get("players")
        if isinstance(players, dict) and sorted(players) != sorted(names):
            found.add("scenarios", f"{shown}: its result names the players {sorted(players)}, the file "
                                   f"{sorted(names)}")
        winner = (first.result or {}).get("winner")
        if winner is not None and winner not in names:
            found.add("scenarios", f"{shown}: its result's winner {winner!r} is not a player of the file")
        for violation in list(getattr(first.state, "violations", ()) or ())[:1]:
            found.add("scenarios", f"{shown}: invariant broken: {str(violation)[:160]}")
        try:
            lines = scenario_lines(game, first)
            if not all(isinstance(line, str) for line in lines):
                found.add("scenarios", f"{shown}: its transcript holds something other than text")
        except DataError as exc:
            found.add("scenarios", f"{shown}: {exc.problems[0]}")


def _json(value) -> str:
    return json.dumps(value, sort_keys=True, allow_nan=False, default=_refuse)


def _refuse(value):
    raise TypeError(f"{type(value).__name__} is not JSON")
