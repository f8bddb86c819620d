"""What the studio does on demand: the engine's quick figures, and builds offered for download.

The figures are the engine's own seeded report (``pnp simulate``'s, through the engine protocol) of
1,000 games with its default bots and player count. Builds are ``pnp build``, ``pnp export cards``
and ``pnp export tts`` into the output folder; exports are also offered as one zip each. A build runs
in a process of its own (:func:`build_in_process`), which the studio stops past a time and a memory
limit, or when it stops itself: whatever the game folder holds, the studio goes on answering. The
figures are played in such a process too (:func:`play`, through :func:`in_process`).
"""

from __future__ import annotations

import io
import threading
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

from pnp.errors import UserError

#: A build in the studio is stopped after this many seconds ...
BUILD_SECONDS = 600
#: ... or when it needs more than this much memory (bytes of address space; where the system can say).
BUILD_MEMORY = 4 * 1024 ** 3

#: The engine's quick figures: a seeded summary of this many games.
ENGINE_GAMES = 1000
ENGINE_SEED = 0
#: What the page can build, and the folder under the output folder each goes to.
BUILDS = {"kit": "", "cards": "cards", "tts": "tts"}


def engine_status(game, games: int = ENGINE_GAMES) -> dict:
    """Whether the quick figures can be played for ``game``, and if not why."""
    if not game.engine:
        return {"available": False, "reason": f"{game.title} has no rules engine."}
    from rules_engine import EngineImportError, UnknownEngine
    from rules_engine.core.contract import engine_named

    try:
        engine = engine_named(game.engine)
    except (ImportError, UnknownEngine):
        return {"available": False, "reason": f"There is no rules engine named {game.engine!r}."}
    except EngineImportError as exc:
        return {"available": False, "reason": f"{str(exc)[:1].upper()}{str(exc)[1:]}."}
    if not all(hasattr(engine, name) for name in ("simulate", "report_lines", "rules_for", "PLAYERS", "DEFAULT_BOTS")):
        return {"available": False, "reason": f"The {game.engine} engine does not play whole games yet."}
    return {"available": True, "reason": None, "games": games, "seed": ENGINE_SEED}


def engine_figures(game, version: int, games: int = ENGINE_GAMES) -> dict:
    """Play the seeded summary of ``games`` games for ``game`` (checked data) and return it with the
    lines of its report."""
    from pnp.lab.table import player_counts
    from rules_engine.core.contract import engine_named

    status = engine_status(game)
    if not status["available"]:
        raise UserError(status["reason"])
    engine = engine_named(game.engine)
    players = player_counts(None, game.players, engine.PLAYERS, game.title)[0]
    bots = list(engine.DEFAULT_BOTS)
    started = time.perf_counter()
    report = engine.simulate(engine.rules_for(game), games=games, seed=ENGINE_SEED, players=players, bots=bots)
    lines = engine.report_lines(report, title=game.title, cards=game.cards, factions=game.factions)
    return {"version": version, "games": games, "seed": ENGINE_SEED, "players": players, "bots": bots,
            "lines": list(lines), "seconds": round(time.perf_counter() - started, 2)}


def play(root: Path, build_options, version: int, games: int) -> dict:
    """The engine's figures for the game at ``root`` checked as ``pnp build`` checks it (in the
    language of ``build_options``); UserError when the data has problems."""
    from pnp.errors import DataError, Problems
    from pnp.validation.checks import validate_game

    problems = Problems()
    try:
        game = validate_game(Path(root), problems, build_options).game
    except DataError:
        game = None
    if game is None or problems.errors:
        raise UserError("The data has problems: fix them to play the game.")
    return engine_figures(game, version, games)


@dataclass
class Download:
    """A file the studio built: on disk (``path``) or made in memory (``data``, a zip)."""

    name: str
    what: str            # kit, cards or tts
    version: int
    path: Path | None = None
    data: bytes | None = None

    @property
    def size(self) -> int:
        if self.data is not None:
            return len(self.data)
        try:
            return self.path.stat().st_size
        except OSError:
            return 0


def build(what: str, root: Path, out_dir: Path, build_options, version: int) -> list[Download]:
    """Build ``what`` (kit, cards or tts) of the game at ``root`` into ``out_dir`` (DataError with every
    problem when the data has any; nothing is written then)."""
    if what == "kit":
        from pnp.cache.buildcache import FOLDER, BuildCache
        from pnp.build.kit import build_kit

        # the build cache in the output folder, as pnp build keeps it: only what changed is drawn again
        result = build_kit(root, out_dir, build_options, cache=BuildCache(Path(out_dir) / FOLDER).claim(None))
        return [Download(p.name, what, version, path=p) for p in result.files]
    folder = out_dir / BUILDS.get(what, "")
    if what == "cards":
        from pnp.exports.cards import export_cards

        files = export_cards(root, folder, dpi=300, bleed=build_options.bleed, lang=build_options.lang).files
    elif what == "tts":
        from pnp.exports.tts import export_tts

        files = export_tts(root, folder, lang=build_options.lang).files
    else:
        raise UserError(f"nothing to build called {what!r}: {', '.join(BUILDS)}")
    return [Download(f"{what}.zip", what, version, data=zip_files(folder, files))]


def zip_files(folder: Path, files) -> bytes:
    """The files (paths under ``folder``) in one zip, named relative to it, in a fixed order and date."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(Path(f) for f in files):
            info = zipfile.ZipInfo(path.relative_to(folder).as_posix(), date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    return buf.getvalue()


def build_in_process(what: str, root: Path, out_dir: Path, build_options, version: int,
                     seconds: float | None = None, memory: int | None = None,
                     cancel: threading.Event | None = None) -> list[Download]:
    """:func:`build` in a new process (:class:`pnp.serve.child.Child`: started fresh, not forked from
    the studio's threads, out of reach of the terminal's Ctrl-C), stopped (killed) after ``seconds``
    (default :data:`BUILD_SECONDS`), when it needs more than ``memory`` bytes (default
    :data:`BUILD_MEMORY`), or when ``cancel`` is set; each ends in a UserError saying so. A DataError or
    UserError of the build is raised here as it was raised there."""
    return in_process(build, (what, Path(root), Path(out_dir), build_options, version), "the build",
                      BUILD_SECONDS if seconds is None else seconds, BUILD_MEMORY if memory is None else memory,
                      cancel)


def in_process(func, args: tuple, label: str, seconds: float, memory: int,
               cancel: threading.Event | None = None):
    """``func(*args)`` (a module-level function) in a process of its own, stopped past ``seconds``, past
    ``memory`` bytes of address space or when ``cancel`` is set, with a UserError naming ``label``
    (``the build``); its DataError or UserError is raised here, any other error as a UserError."""
    from pnp.serve.child import Child
    from rules_engine.processes import sigint_deferred

    if cancel is not None and cancel.is_set():
        raise UserError(f"the studio is stopping: {label} was stopped")
    child = None
    try:
        with sigint_deferred():       # (on the main thread) a Ctrl-C now stops the child below, never strands it
            child = Child(_child, func, args, label, memory, name="pnp-studio-task")
        deadline = time.monotonic() + seconds
        while True:
            if child.receive.poll(0.05):
                try:
                    ok, value = child.receive.recv()
                except (EOFError, OSError):
                    raise UserError(f"{label} stopped without finishing (exit status {_exit(child)})") from None
                if ok:
                    return value
                raise value
            if not child.is_alive() and not child.receive.poll(0):
                raise UserError(f"{label} stopped without finishing (exit status {_exit(child)})")
            if time.monotonic() > deadline:
                raise UserError(f"{label} took more than {seconds:g} s and was stopped (a template, a picture "
                                f"or a layout that takes too long?)")
            if cancel is not None and cancel.is_set():
                raise UserError(f"the studio is stopping: {label} was stopped")
    finally:
        if child is not None:
            child.kill()


def _exit(child) -> str:
    try:
        child.process.wait(1)
    except Exception:  # noqa: BLE001 - still running: no status yet
        pass
    return str(child.exitcode)


def _child(receive, send, func, args, label, memory) -> None:
    """In the task's process: its memory limit, then ``func(*args)``; (True, result) or (False, error)
    sent back."""
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    except (ImportError, ValueError, OSError):          # pragma: no cover - a system without the limit
        pass
    try:
        outcome = (True, func(*args))
    except MemoryError:
        outcome = (False, UserError(f"{label} needed more than {memory / 1024 ** 3:g} GB of memory and was "
                                    f"stopped"))
    except Exception as exc:  # noqa: BLE001 - sent back: the studio reports it as its own would be
        from pnp.errors import DataError

        outcome = (False, exc if isinstance(exc, (DataError, UserError)) else
                   UserError(f"{label} failed: {type(exc).__name__}: {str(exc)[:300]}"))
    send.send(outcome)
    send.close()
