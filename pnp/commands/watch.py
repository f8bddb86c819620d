"""``pnp watch``: rebuild the kit whenever the game's data or the templates change."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import click

from pnp import TEMPLATES_DIR
from pnp.errors import DataError, UserError, display_path


def rebuild(game_arg, out_dir, options, echo=click.echo) -> bool:
    """One build as ``pnp build`` does it, reporting problems instead of stopping. True on success."""
    from pnp import cache
    from pnp.kit import build_kit

    cache.clear()          # data and templates may have changed since the last build
    started = time.perf_counter()
    try:
        result = build_kit(game_arg, out_dir, options)
    except DataError as exc:
        for problem in exc.problems:
            echo(str(problem), err=True)
        echo(f"{len(exc.problems)} problem{'s' if len(exc.problems) != 1 else ''}; waiting for changes.", err=True)
        return False
    except UserError as exc:
        echo(f"error: {exc}", err=True)
        return False
    pages = result.pages.get("kit.pdf", 0)
    echo(f"{time.strftime('%H:%M:%S')} built {result.game.title}: {pages} pages in {display_path(out_dir)} "
         f"({time.perf_counter() - started:.1f} s)")
    return True


class Debouncer:
    """Calls ``action`` once, ``delay`` seconds after the last of a burst of ``trigger()`` calls."""

    def __init__(self, action, delay: float = 0.4):
        self.action, self.delay = action, delay
        self._timer = None
        self._lock = threading.Lock()

    def trigger(self, *_):
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = threading.Timer(self.delay, self.action)
            self._timer.daemon = True
            self._timer.start()


def watch(folders, on_change, stop: threading.Event | None = None):
    """Observe ``folders`` recursively, calling ``on_change()`` for any file change, until ``stop`` is set."""
    from watchdog.events import FileSystemEventHandler
    from watchdog.observers import Observer

    class Handler(FileSystemEventHandler):
        def on_any_event(self, event):
            if not event.is_directory and not str(event.src_path).endswith(("~", ".swp", ".tmp")):
                on_change()

    observer = Observer()
    for folder in folders:
        observer.schedule(Handler(), str(folder), recursive=True)
    observer.start()
    try:
        while not (stop and stop.is_set()):
            time.sleep(0.2)
    finally:
        observer.stop()
        observer.join()


@click.command("watch")
@click.argument("game", required=False)
@click.option("--paper", type=click.Choice(["letter", "a4"]), default="letter", show_default=True)
@click.option("--lang", default=None, metavar="LANG", help="Language of the kit.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="output", show_default=True)
def command(game, paper, lang, out_dir):
    """Build GAME's kit, then rebuild it whenever its data folder or the templates change. Problems are
    printed and the watch goes on; stop with Ctrl-C."""
    from pnp.components import BuildOptions
    from pnp.gamedata import resolve_game_dir

    folder = resolve_game_dir(game)
    options = BuildOptions(paper=paper, lang=lang)
    rebuild(game, out_dir, options)
    click.echo(f"Watching {display_path(folder)} and {display_path(TEMPLATES_DIR)} (Ctrl-C stops).")
    debouncer = Debouncer(lambda: rebuild(game, out_dir, options))
    try:
        watch([folder, Path(TEMPLATES_DIR)], debouncer.trigger)
    except KeyboardInterrupt:
        click.echo("Stopped.")
