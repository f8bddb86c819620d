"""The studio of one game folder: what the page asks, the open pages to tell, builds and engine figures.

The page's views (the cards, the component pages, the problems) are made in the studio's preview
process (:mod:`pnp.serve.previews`, watched by :mod:`pnp.serve.supervisor`), which the studio kills
and starts again when a render takes too long or needs too much memory; builds, exports and the
engine's figures run in processes of their own (:mod:`pnp.serve.tasks`). The studio itself only
answers, watches the files and keeps the open pages informed: whatever the game folder holds, it goes
on answering.
"""

from __future__ import annotations

import threading
from pathlib import Path

from pnp import TEMPLATES_DIR
from pnp.errors import Problem
from pnp.serve import options as places
from pnp.serve.options import Options
from pnp.serve.supervisor import PREVIEW_MEMORY, PREVIEW_SECONDS, PreviewProcess
from pnp.serve.tasks import ENGINE_GAMES

__all__ = ["Options", "Studio"]


class Studio:
    """The studio of one game folder: its preview process, builds, engine figures, and the open pages
    to tell about changes. ``preview_seconds``, ``preview_memory``: the preview process's limits;
    ``preview_setup``: tests only, a function (that pickles) run in each preview process first."""

    def __init__(self, game_arg, options: Options = Options(), out_dir="output", engine_games: int = ENGINE_GAMES,
                 preview_seconds: float = PREVIEW_SECONDS, preview_memory: int = PREVIEW_MEMORY, preview_setup=None):
        from pnp.loading.gamedata import resolve_game_dir

        self.engine_games = engine_games
        self.root = resolve_game_dir(game_arg).resolve()
        self.default = options
        self.out_dir = Path(out_dir)
        self.version = 1
        self.changed: list[str] = []
        self.stopping = threading.Event()
        self.downloads: dict = {}                 # name -> tasks.Download
        self._figures: dict = {}
        self._figures_lock = threading.Lock()
        self._playing = threading.Lock()
        self._building = threading.Lock()
        self._listeners: set = set()
        self._lock = threading.Lock()
        self.previews = PreviewProcess(self.root, options, self.publish, preview_seconds, preview_memory,
                                       preview_setup)
        self.watcher = None
        self.recent = options                     # the options a page asked for last

    # ------------------------------------------------------------------ life

    def start(self, watch: bool = True, debounce: float = 0.2) -> None:
        """Start watching the files and the preview process (which prepares the default view)."""
        from pnp.serve.watcher import Watcher

        if watch:
            self.watcher = Watcher([self.root, TEMPLATES_DIR], self.files_changed,
                                   ignore_under=[self.out_dir], debounce=debounce)
            self.watcher.start()
        self.previews.start()

    def close(self) -> None:
        self.stopping.set()
        if self.watcher is not None:
            self.watcher.stop()
        self.previews.stop()

    # ------------------------------------------------------------------ events

    def subscribe(self, loop):
        """An asyncio queue (of ``loop``) that receives every event from now on."""
        import asyncio

        q = asyncio.Queue()
        with self._lock:
            self._listeners.add((loop, q))
        return q

    def unsubscribe(self, q) -> None:
        with self._lock:
            self._listeners = {(loop, other) for loop, other in self._listeners if other is not q}

    def publish(self, event: dict) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for loop, q in listeners:
            try:
                loop.call_soon_threadsafe(q.put_nowait, event)
            except RuntimeError:      # that page's loop is closed
                self.unsubscribe(q)

    def files_changed(self, paths) -> None:
        """The watcher's report: files changed. The view a page looked at last is made again at once
        (the others when a page asks for them)."""
        with self._lock:
            self.version += 1
            version = self.version
            self.changed = sorted({self.relative(p) for p in paths})
        self.publish({"type": "changed", "version": version, "files": self.changed})
        self.previews.changed(version, self.changed, self.recent)

    # ------------------------------------------------------------------ what the app asks (futures)

    def game_json(self, options: Options):
        """A future of the page's data for ``options``."""
        self.recent = options
        future = self.previews.ask("json", options)
        return _then(future, self._with_own)

    def face_picture(self, face_key: str, options: Options, dpi: int):
        """A future of the current picture of one face (``/api/cards/<id>.png``): an Image, or None for an
        unknown face or one that cannot be drawn."""
        return self.previews.ask("face", face_key, options, dpi)

    def picture(self, key: str):
        """A future of the picture named ``key`` (None when no current view names it)."""
        return self.previews.ask("picture", key)

    def piece_pictures(self):
        """A future of the replay page's piece pictures (piece kind -> PNG bytes), drawn in the preview
        process under its limits (a UserError, :class:`~pnp.serve.worker.Stopped` past them)."""
        return self.previews.ask("pieces")

    def replay(self, spec: dict):
        """A future of the replay of ``spec`` (:func:`pnp.serve.replay.play_replay`), played in the preview
        process under its limits (a UserError: :class:`~pnp.serve.worker.Stopped` past them)."""
        return self.previews.ask("replay", spec)

    def interrupt(self) -> None:
        """Ctrl-C: stop at once what the studio waits for (the preview process's answers: a replay, a
        page's data), so that no request holds the server up; :meth:`close` does the rest."""
        self.stopping.set()
        self.previews.interrupt()

    def _with_own(self, data: dict) -> dict:
        """The preview process's data with what the studio keeps itself: engine figures and downloads."""
        data["engine"] = {**data["engine"], "figures": self.figures()}
        data["downloads"] = [{"name": d.name, "what": d.what, "url": f"/download/{d.name}", "size": d.size,
                              "stale": d.version != self.version} for d in list(self.downloads.values())]
        return data

    # ------------------------------------------------------------------ places and problems as JSON

    def inside(self, path) -> str | None:
        """``path`` relative to the game folder (``/`` separated) when it is inside it, else None."""
        return places.inside(self.root, path)

    def relative(self, path) -> str:
        return places.relative(self.root, path)

    def problem_json(self, p: Problem) -> dict:
        return places.problem_json(self.root, p)

    # ------------------------------------------------------------------ on demand

    def figures(self) -> dict | None:
        """The last engine figures (marked stale when the files changed since), or None."""
        with self._figures_lock:
            result = dict(self._figures)
        if not result:
            return None
        result["stale"] = result["version"] != self.version
        return result

    def play(self) -> dict:
        """Play the engine's seeded summary of the current data, in a process of its own (as a build
        runs). UserError when the data has problems or no engine plays it."""
        from pnp.serve.tasks import BUILD_MEMORY, BUILD_SECONDS, in_process, play

        with self._playing:           # one run at a time; a second request gets the first one's figures
            version = self.version
            known = self.figures()
            if known and not known["stale"]:
                return known
            figures = in_process(play, (self.root, self.recent.build_options(), version, self.engine_games),
                                 "the engine's run", BUILD_SECONDS, BUILD_MEMORY, self.stopping)
            with self._figures_lock:
                self._figures = figures
        self.publish({"type": "engine", "version": version})
        return dict(figures)

    def build(self, what: str, options: Options) -> list[dict]:
        """Build ``what`` (kit, cards, tts) into the output folder and offer it for download: in a process
        of its own, stopped past its time and memory limits or when the studio stops (the previews go
        on meanwhile; one build at a time)."""
        from pnp.serve.tasks import build_in_process

        with self._building:
            version = self.version
            made = build_in_process(what, self.root, self.out_dir, options.build_options(), version,
                                    cancel=self.stopping)
        with self._lock:
            for name in [n for n, d in self.downloads.items() if d.what == what]:
                del self.downloads[name]
            self.downloads.update({d.name: d for d in made})
        self.publish({"type": "downloads", "version": version})
        return [{"name": d.name, "url": f"/download/{d.name}", "size": d.size} for d in made]


def _then(future, func):
    """A future of ``func(result)`` of ``future`` (its exception passed on)."""
    from concurrent.futures import Future

    out: Future = Future()

    def done(f):
        exc = f.exception()
        if exc is not None:
            out.set_exception(exc)
            return
        try:
            out.set_result(func(f.result()))
        except Exception as error:  # noqa: BLE001 - handed to whoever waits
            out.set_exception(error)

    future.add_done_callback(done)
    return out
