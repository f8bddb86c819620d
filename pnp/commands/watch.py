"""``pnp watch``: rebuild the kit whenever the game's data or the templates change.

Three small parts, each testable alone:

* :func:`rebuild` builds once as ``pnp build`` does, after clearing the caches that depend on files
  (:func:`pnp.cache.memo.clear`), and reports problems instead of stopping;
* :class:`pnp.serve.watcher.Changes` (the studio's too) is the watchdog handler: it keeps the paths of
  real edits (created, modified, deleted, moved files) and ignores what a build itself causes (files
  opened and closed for reading), editor swap and backup files, hidden files, and anything under the
  output folder;
* :func:`watch_loop` waits until no edit has arrived for ``debounce`` seconds, then calls its
  ``on_change(paths)`` handler on the calling thread, so rebuilds never overlap: edits saved during
  a rebuild start one more when it ends.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
import time
from pathlib import Path

import click

from pnp import TEMPLATES_DIR
from pnp.commands.params import FiniteFloatRange
from pnp.errors import DataError, UserError, caused_by_ctrl_c, display_path

def rebuild(game_arg, out_dir, options, echo=click.echo, changed=(), build_cache=None) -> bool:
    """One build as ``pnp build`` does it, problems printed as it prints them. True on success. With
    ``build_cache`` (:class:`pnp.cache.buildcache.BuildCache`) only what the edit changed is drawn again."""
    from pnp.cache import memo
    from pnp.build.kit import build_kit

    memo.clear()          # data and templates may have changed since the last build
    started = time.perf_counter()
    try:
        result = build_kit(game_arg, out_dir, options, cache=_fresh(build_cache))
    except DataError as exc:
        for problem in exc.problems:
            echo(str(problem), err=True)
        n = len(exc.problems)
        echo(f"{n} problem{'s' if n != 1 else ''} found; nothing was written. Waiting for changes.", err=True)
        return False
    except UserError as exc:
        echo(f"error: {exc}", err=True)
        return False
    pages = result.pages.get("kit.pdf", 0)
    why = ""
    if changed:
        # files that still exist (not the temporary files editors save through), else whatever changed
        names = sorted({Path(p).name for p in changed if Path(p).exists()} or {Path(p).name for p in changed})
        why = f" after {', '.join(names[:3])}{f' and {len(names) - 3} more' if len(names) > 3 else ''} changed"
    echo(f"{time.strftime('%H:%M:%S')} built {result.game.title}{why}: {len(result.files)} files, {pages} pages "
         f"in kit.pdf, in {display_path(out_dir)} ({time.perf_counter() - started:.1f} s)")
    return True


def _fresh(build_cache):
    """The same cache folder for another build (its file hashes kept: an unchanged file is not read
    again), with this build's counts."""
    if build_cache is None or not build_cache:
        return build_cache
    from pnp.cache.buildcache import BuildCache

    return BuildCache(build_cache.folder, build_cache.files)


def watch_loop(folders, on_change, changes: Changes | None = None, debounce: float = 0.3,
               stop: threading.Event | None = None, poll: float = 0.05, ready=None) -> None:
    """Observe ``folders`` recursively and call ``on_change(paths)`` after each settled burst of edits,
    on this thread, until ``stop`` is set (or Ctrl-C). ``ready()`` is called once the folders are
    observed: a watch says it is watching only then (before, it is still importing watchdog, whose
    classes are made by running generated code, and starting its threads; a Ctrl-C that lands there
    was reported as an internal error, or, under ``python -m``, ended the process by SIGINT)."""
    from watchdog.observers import Observer

    from pnp.serve.watcher import Changes

    changes = changes or Changes()
    observer = Observer()
    for folder in folders:
        observer.schedule(changes, str(folder), recursive=True)
    observer.start()
    try:
        if ready is not None:
            ready()
        while not (stop and stop.is_set()):
            paths = changes.take_settled(debounce)
            if paths:
                on_change(paths)
            time.sleep(poll)
    finally:
        observer.stop()
        observer.join()


@click.command("watch")
@click.argument("game", required=False)
@click.option("--paper", type=click.Choice(["letter", "a4"]), default="letter", show_default=True,
              help="Sheet size the kit is laid out for.")
@click.option("--lang", default=None, metavar="LANG", help="Language of the kit (e.g. es).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="output", show_default=True,
              help="Folder the PDFs are written to.")
@click.option("--debounce", type=FiniteFloatRange(0.05, 10), default=0.3, show_default=True, metavar="SECONDS",
              help="Wait this long after the last change before rebuilding (editors save in bursts).")
@click.option("--cache", "cache_dir", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="Build cache folder (default: .pnp-cache in the --out folder); see pnp build.")
@click.option("--no-cache", is_flag=True, help="Check and draw everything at each rebuild.")
def command(game, paper, lang, out_dir, debounce, cache_dir, no_cache):
    """Build GAME's kit, then rebuild it whenever a file in the game's folder or in templates/ changes.

    Problems are printed as pnp build prints them and the watch goes on; each successful build prints
    a one-line summary. Stop with Ctrl-C (exit status 130, as for any command stopped by it).
    """
    from pnp.components import BuildOptions
    from pnp.loading.gamedata import resolve_game_dir

    from pnp.commands.build import build_cache
    from pnp.serve.watcher import Changes

    folder = resolve_game_dir(game)
    options = BuildOptions(paper=paper, lang=lang)
    kept = build_cache(out_dir, cache_dir, no_cache)
    stop = threading.Event()
    try:
        with _stopped_by_ctrl_c(stop):
            rebuild(game, out_dir, options, build_cache=kept)
            watch_loop([folder, Path(TEMPLATES_DIR)],
                       lambda paths: rebuild(game, out_dir, options, changed=paths, build_cache=kept),
                       Changes(ignore_under=[out_dir] + ([cache_dir] if cache_dir else [])), debounce, stop=stop,
                       ready=lambda: click.echo(f"Watching {display_path(folder)} and {display_path(TEMPLATES_DIR)} "
                                                f"(Ctrl-C stops)."))
    except KeyboardInterrupt:
        pass
    except Exception as exc:  # noqa: BLE001 - only a Ctrl-C in disguise is taken here
        if not caused_by_ctrl_c(exc):
            raise
    click.echo("pnp watch: stopped", err=True)
    sys.exit(130)


@contextlib.contextmanager
def _stopped_by_ctrl_c(stop: threading.Event):
    """Ctrl-C sets ``stop`` as well as raising KeyboardInterrupt: the loop ends even when Python swallows
    the exception (raised inside a finalizer, it is only printed)."""
    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or not callable(previous):
        yield
        return

    def handler(signum, frame):
        stop.set()
        previous(signum, frame)
    signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
