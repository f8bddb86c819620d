"""The studio's change watcher: watchdog observing the game's folder and pnp's templates.

Edits are filtered as ``pnp watch`` filters them (:class:`pnp.commands.watch.Changes`: real writes,
not reads by a build; no editor swap files, hidden files or anything under the output folder) and
debounced, then handed to ``on_change(paths)`` on the watcher's own thread.
"""

from __future__ import annotations

import threading
from pathlib import Path

from watchdog.observers import Observer

from pnp.commands.watch import Changes


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
