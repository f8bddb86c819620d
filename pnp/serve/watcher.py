"""The studio's change watcher: watchdog observing the game's folder and pnp's templates.

Edits are filtered (:class:`Changes`: real writes, not reads by a build; no editor swap files, hidden
files or anything under the output folder; ``pnp watch`` filters them the same way) and debounced, then
handed to ``on_change(paths)`` on the watcher's own thread.
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


class Changes(FileSystemEventHandler):
    """Collects the paths of edits under the watched folders (thread-safe; watchdog calls from its thread)."""

    def __init__(self, ignore_under=()):
        super().__init__()
        self.ignore_under = [Path(p).resolve() for p in ignore_under]
        self._paths: set[str] = set()
        self._last = 0.0
        self._lock = threading.Lock()

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
            self.add(str(getattr(event, "dest_path", "") or event.src_path))

    def add(self, path: str, now: float | None = None) -> None:
        with self._lock:
            self._paths.add(path)
            self._last = time.monotonic() if now is None else now

    def take_settled(self, debounce: float, now: float | None = None) -> set[str]:
        """The edited paths, once none has arrived for ``debounce`` seconds (then forgotten); else empty."""
        now = time.monotonic() if now is None else now
        with self._lock:
            if not self._paths or now - self._last < debounce:
                return set()
            paths, self._paths = self._paths, set()
            return paths


class Watcher:
    """Watches ``folders`` recursively from :meth:`start` (which returns once edits are being seen)
    until :meth:`stop`."""

    def __init__(self, folders, on_change, ignore_under=(), debounce: float = 0.2, poll: float = 0.05):
        self.folders = [Path(f) for f in folders if Path(f).is_dir()]
        self.on_change = on_change
        self.changes = Changes(ignore_under=ignore_under)
        self.debounce = debounce
        self.poll = poll
        self._stop = threading.Event()
        self._observer = Observer()
        self._thread = threading.Thread(target=self._run, name="pnp-serve-watcher", daemon=True)

    def start(self) -> None:
        for folder in self.folders:
            self._observer.schedule(self.changes, str(folder), recursive=True)
        self._observer.start()
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.poll):
            paths = self.changes.take_settled(self.debounce)
            if paths:
                self.on_change(paths)

    def stop(self) -> None:
        self._stop.set()
        if self._observer.is_alive():
            self._observer.stop()
            self._observer.join(5)
        if self._thread.is_alive():
            self._thread.join(5)
