"""Load a scenario YAML file for any game with a rules engine, reporting every problem at once.

A scenario file names its game with ``game:`` (default: the project's default game); the game's engine
declares the other keys (``SCENARIO_SCHEMA``, plain :class:`~rules_engine.protocol.Spec` data) and turns
the checked data into its own scenario (``scenario_from_data``). This module checks the keys against
that schema and gives every problem, the engine's included, its line: ``file:line: where: message``
(:class:`~pnp.errors.DataError`), like ``pnp validate``. Formats: ``docs/scenarios.md``.
"""

from __future__ import annotations

from pathlib import Path

from pnp import DATA_DIR, default_game
from pnp.errors import DataError, Problem, Problems, UserError, display_path
from pnp.loading.gamedata import Game, bundled_games, load_game
from pnp.loading.paths import excerpt, name_problem
from pnp.loading.specs import SpecChecker, line_at
from pnp.loading.yamlsrc import line_of, load_yaml
from rules_engine.protocol import Spec


def scenario_game(value, scenario_path: Path):
    """The game a scenario file's ``game:`` names, and how it was read (for messages).

    A plain name (no ``/``, not starting with ``.`` or ``~``) always means the bundled game of that name,
    whatever folders lie around. A path (``./my_game``, ``../games/x``) is a game folder relative to the
    scenario file's own folder, never to the working directory.
    """
    folder, how = scenario_folder(value, scenario_path)
    return load_game(folder), how


def scenario_folder(value, scenario_path: Path) -> tuple[Path, str]:
    """The game folder a scenario file's ``game:`` names (:func:`scenario_game`), without loading it."""
    if _is_plain_name(value):
        bundled = DATA_DIR / value
        if name_problem(value, "game name") or not (bundled / "game.yaml").is_file():
            names = ", ".join(bundled_games()) or "none"
            raise UserError(f"no bundled game {excerpt(value)} (bundled games: {names}); a game folder is "
                            f"written as a path, like ./{value if len(value) < 30 else 'my_game'}")
        return bundled, f"the bundled game '{value}'"
    try:
        folder = (scenario_path.parent / Path(value).expanduser()).resolve()
        found = (folder / "game.yaml").is_file()
    except (OSError, RuntimeError, ValueError):   # a name too long, a loop of links, a NUL
        raise UserError(f"{excerpt(value)} is not a usable path to a game folder") from None
    if not found:
        raise UserError(f"{excerpt(value)} is read as a game folder relative to this file ({display_path(folder)}), "
                        f"which has no game.yaml")
    return folder, f"the game folder {display_path(folder)}"


def _is_plain_name(value: str) -> bool:
    return "/" not in value and "\\" not in value and not value.startswith((".", "~"))


def load_scenario(path: str | Path, game: Game | None = None):
    """Read and check a scenario file; return ``(game, scenario)`` or raise DataError with every problem.

    Alone (``pnp scenario FILE``) the file's ``game:`` decides (:func:`scenario_game`; default: the
    project's default game). Given ``game`` (a rulebook example inside a game folder), the scenario is
    played with that game: a ``game:`` naming a game with another rules engine is a problem.
    """
    path = Path(path)
    if path.is_dir():
        raise UserError(f"{display_path(path)} is a folder, not a scenario file")
    raw = load_yaml(path, within=game.root if game is not None else None)
    problems = Problems()
    if not isinstance(raw, dict):
        problems.error(path, getattr(raw, "line", None), None, "expected a mapping of scenario keys")
        raise DataError(problems)
    game_arg = raw.get("game")
    if game_arg is not None and (not isinstance(game_arg, str) or not game_arg.strip()):
        problems.error(path, line_of(raw, "game"), None, "game: expected a game name or folder")
        raise DataError(problems)
    if game is None:
        try:
            game, _ = scenario_game(game_arg, path) if game_arg else (load_game(default_game()), "")
        except UserError as exc:
            problems.error(path, line_of(raw, "game"), None, f"game: {exc}")
            raise DataError(problems) from None
    elif game_arg:
        named = _named_engine(game_arg, path, game)
        if named is not None:
            problems.error(path, line_of(raw, "game"), None, f"game: {named}")
            raise DataError(problems)
    if not game.engine:
        problems.error(path, line_of(raw, "game"), None, f"game: '{game.id}' has no rules engine")
        raise DataError(problems)
    engine = _engine_named(game.engine)
    schema = {"game": Spec("str", nullable=True), **engine.SCENARIO_SCHEMA}
    data = SpecChecker(problems, path).mapping(raw, schema, "")
    data.pop("game", None)
    rules = engine.rules_for(game)
    shape_errors = bool(problems.errors)
    try:
        scenario, found = engine.scenario_from_data(rules, data, players=game.players)
    except ValueError as exc:            # the engine's way of refusing what it cannot set up
        scenario, found = None, [(None, f"the rules engine cannot set this scenario up: {str(exc)[:200]}")]
    except (TypeError, AttributeError, KeyError, IndexError, _engine_fault()):
        if not shape_errors:
            raise                        # a bug in the engine: reported as one
        # the engine stumbled on a value the shape check rejected (it reaches the engine as None):
        # the shape problems already say what to fix
        scenario, found = None, []
    # a value the shape check rejected reaches the engine as None: leave out its second report
    faulted = {p.message.split(": ", 1)[0] for p in problems.errors}
    for problem in found:
        where, message = problem[0], problem[1]
        if where in faulted:
            continue
        at = problem[2] if len(problem) > 2 else where
        problems.error(path, line_at(raw, at) if at else None, None, f"{where}: {message}" if where else message)
    if problems.errors or scenario is None:
        raise DataError(sorted(problems, key=lambda p: p.line or 0))
    return game, scenario


def _named_engine(game_arg: str, path: Path, game: Game) -> str | None:
    """Why a scenario inside ``game``'s folder cannot be played with it (its ``game:`` is another game's)."""
    try:
        folder, how = scenario_folder(game_arg, path)
        if folder.resolve() == game.root.resolve():      # this very game: nothing to load
            return None
        named = load_game(folder)
    except (UserError, DataError):
        named, how = None, ""
    if named is not None and (named.root.resolve() == game.root.resolve() or named.engine == game.engine):
        return None
    what = f"{how} ({named.title}, rules engine {named.engine or 'none'})" if named else excerpt(game_arg)
    return (f"this example is played with {game.title} (rules engine {game.engine}), but the file names "
            f"{what}; leave game: out or name this game")


def run_scenario_file(path: str | Path):
    """Load, check and play a scenario file: ``(game, outcome)`` (the engine's ``run_scenario``)."""
    game, scenario = load_scenario(path)
    return game, play_scenario(game, scenario, path)


def play_scenario(game: Game, scenario, path):
    """The engine's outcome of a checked scenario; DataError (at ``path``) when the engine refuses it."""
    engine = _engine_named(game.engine)
    try:
        return engine.run_scenario(engine.rules_for(game), scenario)
    except ValueError as exc:
        found = getattr(exc, "problems", None)
        messages = [f"{w}: {m}" if w else m for w, m, *_ in found] if found else [str(exc)]
        raise DataError([Problem(str(path), None, None, f"the rules engine cannot play this scenario: {m[:200]}")
                         for m in messages]) from None


def scenario_lines(game: Game, outcome) -> list[str]:
    """The scenario's transcript in the game's words, titled when the file gives a title: the engine's
    ``scenario_lines``, else its events as the transcript words them (the game's event templates)."""
    from pnp.loading.events import transcript_lines

    engine = _engine_named(game.engine)
    if engine.own("scenario_lines"):
        return engine.scenario_lines(outcome, game.cards, game.factions)
    names = [p.name for p in getattr(outcome.scenario, "players", ())]
    title = getattr(outcome.scenario, "title", "") or ""
    return ([title] if title else []) + transcript_lines(game, engine, outcome.events, names)


def _engine_fault():
    from rules_engine.core.faults import EngineFault

    return EngineFault


def _engine_named(name: str):
    """The installed engine as pnp uses it (its hooks, and the contract's defaults): imported when a game
    with rules needs it."""
    from rules_engine.core.contract import engine_named

    return engine_named(name)
