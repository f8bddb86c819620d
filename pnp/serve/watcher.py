"""The studio's change watcher: watchdog observing the game's folder and pnp's templates.

Edits are filtered (:class:`Changes`: real writes, not reads by a build; no editor swap files, hidden
files or anything under the output folder; ``pnp watch`` filters them the same way) and debounced, then
handed to ``on_change(paths)`` on the watcher's own thread.

The debounce is short when every file edited since the last report was finished: the last event of
each was its writer closing it ("closed"), a rename onto it (an editor's safe save: "moved") or its
deletion. A save is then over, and :data:`SAVED_DEBOUNCE` only gathers the other files of the same
save (an editor saving all, a checkout). A file still being written (only "modified" so far, or
systems that report no closing) waits the whole debounce. The watcher's thread wakes on each edit
instead of polling.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from watchdog.events import FileSystemEventHandler
from watchdog.observers import Observer

#: Events that mean a file's contents changed. Reads by the build itself arrive as "opened" and
#: "closed_no_write" and must not trigger another build (that would loop forever).
EDIT_EVENTS = {"created", "modified", "deleted", "moved", "closed"}
#: Editors' swap, backup and probe files.
IGNORED_SUFFIXES = ("~", ".swp", ".swx", ".swo", ".tmp", ".bak", ".pyc")
IGNORED_NAMES = {"4913", "__pycache__"}
#: Events after which a file is finished: its writer closed it, a rename put it in place, it was deleted.
FINISHED_EVENTS = {"closed", "moved", "deleted"}
#: Seconds the studio waits for more edits once every edited file is finished (see the module's text).
SAVED_DEBOUNCE = 0.03


class Changes(FileSystemEventHandler):
    """Collects the paths of edits under the watched folders (thread-safe; watchdog calls from its thread)."""

    def __init__(self, ignore_under=()):
        super().__init__()
        self.ignore_under = [Path(p).resolve() for p in ignore_under]
        self._paths: set[str] = set()
        self._unfinished: set[str] = set()      # paths whose last event did not finish them
        self._last = 0.0
        self._lock = threading.Lock()
        self.arrived = threading.Event()        # set on each edit (the watcher's thread waits on it)

    def relevant(self, event) -> bool:
        if event.event_type not in EDIT_EVENTS:
            return False
        if event.is_directory and event.event_type == "modified":
            return False       # a file inside changed: that file's own event is enough
        paths = [event.src_path, getattr(event, "dest_path", "") or ""]
        return any(p and self._relevant_path(Path(str(p))) for p in paths)

    def _relevant_path(self, path: Path) -> bool:
        if path.name.endswith(IGNORED_SUFFIXES) or any(part in IGNORED_NAMES for part in path.parts):
            return False
        if any(part.startswith(".") for part in path.parts[-3:]):   # .git, .#emacs-lock, .DS_Store
            return False
        resolved = path.resolve()
        return not any(resolved.is_relative_to(p) for p in self.ignore_under)

    def on_any_event(self, event):
        if self.relevant(event):
            # a move names the file it became (editors and sed save by renaming a temporary file)
            self.add(str(getattr(event, "dest_path", "") or event.src_path),
                     finished=event.event_type in FINISHED_EVENTS)

    def add(self, path: str, now: float | None = None, finished: bool = False) -> None:
        """An edit of ``path``; ``finished``: its last event says the file is complete (see the module)."""
        with self._lock:
            self._paths.add(path)
            (self._unfinished.discard if finished else self._unfinished.add)(path)
            self._last = time.monotonic() if now is None else now
        self.arrived.set()

    def _quiet_needed(self, debounce: float, saved: float | None) -> float:
        return debounce if saved is None or self._unfinished else min(saved, debounce)

    def settles_in(self, debounce: float, saved: float | None = None, now: float | None = None) -> float | None:
        """Seconds until :meth:`take_settled` gives the edits (0: now), or None when there are none."""
        now = time.monotonic() if now is None else now
        with self._lock:
            if not self._paths:
                return None
            return max(0.0, self._quiet_needed(debounce, saved) - (now - self._last))

    def take_settled(self, debounce: float, now: float | None = None, saved: float | None = None) -> set[str]:
        """The edited paths, once none has arrived for ``debounce`` seconds, or for ``saved`` seconds
        when every one is finished (then forgotten); else empty."""
        now = time.monotonic() if now is None else now
        with self._lock:
            if not self._paths or now - self._last < self._quiet_needed(debounce, saved):
                return set()
            paths, self._paths, self._unfinished = self._paths, set(), set()
            return paths


class Watcher:
    """Watches ``folders`` recursively from :meth:`start` (which returns once edits are being seen)
    until :meth:`stop`. ``debounce``: seconds without an edit before the edits are reported; ``saved``:
    the same once every edited file is finished (at most ``debounce``)."""

    def __init__(self, folders, on_change, ignore_under=(), debounce: float = 0.2,
                 saved: float | None = SAVED_DEBOUNCE):
        self.folders = [Path(f) for f in folders if Path(f).is_dir()]
        self.on_change = on_change
        self.changes = Changes(ignore_under=ignore_under)
        self.debounce = debounce
        self.saved = saved
        self._stop = threading.Event()
        self._observer = Observer()
        self._thread = threading.Thread(target=self._run, name="pnp-serve-watcher", daemon=True)

    def start(self) -> None:
        for folder in self.folders:
            self._observer.schedule(self.changes, str(folder), recursive=True)
        self._observer.start()
        self._thread.start()

    def _run(self) -> None:
        arrived = self.changes.arrived
        while not self._stop.is_set():
            arrived.clear()              # (before looking: an edit from now on wakes the wait below)
            wait = self.changes.settles_in(self.debounce, self.saved)
            if wait is None or wait > 0:
                arrived.wait(wait)       # an edit (or stop) wakes it; else the edits have settled
                continue
            paths = self.changes.take_settled(self.debounce, saved=self.saved)
            if paths:
                self.on_change(paths)

    def stop(self) -> None:
        self._stop.set()
        self.changes.arrived.set()
        if self._observer.is_alive():
            self._observer.stop()
            self._observer.join(5)
        if self._thread.is_alive():
            self._thread.join(5)
