"""The studio's side of its preview process: start it, ask it, watch it, stop it.

The previews (card faces, component pages, the check) are drawn in one long-lived process per studio
(:mod:`pnp.serve.previews`, started fresh through :class:`pnp.serve.child.Child`, never forked from
the studio's threads), so it keeps what it loaded and drew between requests. Its drawing thread names
each piece of work as it starts it (``the preview of card 'knight'``); a piece that runs longer than
:data:`PREVIEW_SECONDS` (``pnp serve --preview-limit``), or that needs more than :data:`PREVIEW_MEMORY`
bytes, stops the process: the studio kills it, every question waiting for it is answered with the
reason ("the preview of card 'knight' took longer than 60 s and was stopped (pnp serve
--preview-limit SECONDS allows more)"), and a new process starts at once, told what was
stopped so that it shows the reason instead of trying again, until a file changes. A process that
dies by itself is started again the same way; one that dies before it is ready (a broken import, no
memory to start) is started again later and later (:data:`RESTART_FIRST` doubling up to
:data:`RESTART_CEILING`), at once when a file changes, and meanwhile every question is answered with
the cause, which the console gets once with the process's last lines of stderr. Nothing it does can
hold the studio's server: questions are sent from a thread of their own and waited for as futures.
"""

from __future__ import annotations

import itertools
import queue
import sys
import threading
import time
from concurrent.futures import Future

from pnp.errors import UserError
from pnp.serve.images import ImageStore
from pnp.serve.worker import Stopped

#: A piece of preview work (a card face, a component's pages, the check of the files) is stopped
#: after this many seconds (``pnp serve --preview-limit``) ...
PREVIEW_SECONDS = 60.0
#: ... and the message saying so tells how to allow more.
LONGER = "pnp serve --preview-limit SECONDS allows more"
#: ... or when the preview process needs more than this much memory (bytes of address space).
PREVIEW_MEMORY = 4 * 1024 ** 3
#: Bytes of pictures the studio keeps itself (the preview process keeps more).
KEPT_PICTURES = 64 * 2**20
#: A preview process that dies before it is ready (a broken import, no memory to start) is started
#: again after this many seconds, twice as long after each such death in a row, up to the ceiling;
#: at once when a file changes.
RESTART_FIRST = 1.0
RESTART_CEILING = 30.0
#: A preview process not ready after this many seconds (or the preview limit, when longer) did not start.
START_SECONDS = 60.0
#: Lines of a preview process's stderr kept to say why it could not start.
LAST_WORDS = 8


class PreviewProcess:
    """The preview process of the game at ``root``: :meth:`ask` questions it, :meth:`changed` tells it
    of edits; ``publish(event)`` receives its events (new views) and the studio's own (a stop)."""

    def __init__(self, root, default, publish, seconds: float = PREVIEW_SECONDS, memory: int = PREVIEW_MEMORY,
                 setup=None):
        self.root = root
        self.default = default
        self.publish = publish
        self.seconds = seconds
        self.memory = memory
        self.setup = setup                     # tests only: run in each preview process before it draws
        self.version = 1
        self.files: list = []
        self.recent = default
        self.stopped: dict = {}                # name -> message, for self.version
        self.restarts = 0
        self.failures = 0                      # start-ups failed in a row
        self.retry_in = 0.0                    # seconds from the last failed start-up to the next start
        self.failing: str | None = None        # why the previews cannot start (answered to every question)
        self.started_at = 0.0                  # time.monotonic() of the last start
        self._ready = False                    # the process of self._child said it is ready
        self._next_start = 0.0
        self._wake = threading.Event()         # a file changed: start at once
        self._said: str | None = None          # the cause of a failed start-up printed last
        self._child = None
        self._busy: tuple | None = None        # (name, since) of the work being drawn
        self._pending: dict = {}               # ident -> (future, child, op, args)
        # answers kept here, so a warm request does not wait for the process: pictures by name (content
        # hash), and which picture each face of the last views kept has
        self._pictures = ImageStore(KEPT_PICTURES)
        self._faces: dict = {}                 # (face key, options, dpi) -> picture name
        self._data: dict = {}                  # options -> the page's data of the view kept last, this version
        self._serial = 0
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._outbox: queue.Queue = queue.Queue()
        self._closing = threading.Event()
        self._threads: list = []
        self._prepare = True                   # the process makes the default view as it starts

    # ------------------------------------------------------------------ the studio's calls

    def start(self, prepare: bool = True) -> None:
        """Start the process (from a thread of this object's: it lives as long as the studio, and the
        process is tied to the thread that starts it) and the threads that talk to it. ``prepare``
        False: the process makes no view until asked (a studio that does not show the game, only
        replays: :meth:`ask` starts it so when it was not started)."""
        with self._lock:
            if self._threads:
                return
            self._prepare = prepare
            self._threads = [threading.Thread(target=self._watch, name="pnp-serve-previews", daemon=True),
                             threading.Thread(target=self._send, name="pnp-serve-preview-questions", daemon=True)]
        for thread in self._threads:
            thread.start()

    def ask(self, op: str, *args) -> Future:
        """A future of the answer to ``op`` (``json``, ``face``, ``picture``, ``pieces``, ``stats``): the answer, or
        a UserError (:class:`Stopped` when the work it waited for was stopped). A face (``key, options,
        dpi``) or a picture (``key``) the studio keeps is answered at once."""
        future: Future = Future()
        kept = self._kept(op, args)
        if kept is not None:
            future.set_result(kept)
            return future
        if not self._threads and not self._closing.is_set():
            self.start(prepare=False)
        with self._lock:
            if self._closing.is_set():
                future.set_exception(UserError("the studio is stopping"))
                return future
            if self.failing is not None:           # until a file changes or the next start-up works
                future.set_exception(Stopped(self.failing))
                return future
            if op == "json":
                self.recent = args[0]
            ident = next(self._ids)
            self._pending[ident] = (future, self._child, op, args)
            self._outbox.put((self._child, (op, ident, args)))
        return future

    def changed(self, version: int, files: list, recent) -> None:
        """Files changed: a new version, and what was stopped may be tried again."""
        with self._lock:
            self.version, self.files, self.recent = version, list(files), recent
            self.stopped = {}
            self._faces, self._serial = {}, -1         # until the process keeps a view of the new files
            self._data = {}
            self._outbox.put((self._child, ("changed", None, (version, list(files), recent))))
            if self.failing is not None:               # the edit may be the fix: try at once
                self.failing, self.failures, self._next_start = None, 0, 0.0
                self._wake.set()

    def interrupt(self) -> None:
        """Answer what waits for the process ("the studio is stopping") and kill it, without waiting for
        the threads (the studio is stopping: :meth:`stop` follows)."""
        with self._lock:
            self._closing.set()
            child, self._child = self._child, None
            waiting = self._take(None)
        self._wake.set()
        _fail(waiting, "the studio is stopping")
        if child is not None:
            child.kill()

    def stop(self) -> None:
        """Kill the process, answer what waits for it, end the threads."""
        with self._lock:
            self._closing.set()
            child, self._child = self._child, None
            waiting = self._take(None)
        self._outbox.put((None, None))
        self._wake.set()
        if child is not None:
            child.kill()
        _fail(waiting, "the studio is stopping")
        for thread in self._threads:
            thread.join(15)

    @property
    def busy(self) -> str | None:
        """The name of the work the preview process is drawing (None when idle or starting)."""
        busy = self._busy
        return busy[0] if busy is not None else None

    @property
    def pid(self) -> int | None:
        child = self._child
        return child.pid if child is not None else None

    # ------------------------------------------------------------------ the threads

    def _send(self) -> None:
        """Send the questions in order; a process that died meanwhile is answered for by :meth:`_watch`."""
        while True:
            child, message = self._outbox.get()
            if message is None and self._closing.is_set():
                return
            while child is None and not self._closing.is_set():       # asked while (re)starting
                time.sleep(0.01)
                child = self._child
            if child is None:
                continue
            try:
                child.send.send(message)
            except (OSError, ValueError):
                pass

    def _watch(self) -> None:
        """Start the process, read what it says, stop it past the limits, start another (one start a
        second at most; after a failed start-up, later and later until a file changes)."""
        while not self._closing.is_set():
            child = self._child
            if child is None:
                wait = self._next_start - time.monotonic()
                if wait > 0:
                    self._wake.wait(wait)
                    self._wake.clear()
                    continue
                self._start_child()
                continue
            alive = child.is_alive()       # (before reading: then whatever it said before it ended is read first)
            try:
                if child.receive.poll(0.05):
                    self._heard(child, child.receive.recv())
                    continue
            except (EOFError, OSError, TypeError):      # (TypeError: the pipe was closed while read: stopping)
                pass
            if self._closing.is_set():
                return
            busy = self._busy
            now = time.monotonic()
            if busy is not None and now - busy[1] > self.seconds:
                self._restart(child, busy[0],
                              f"{busy[0]} took longer than {self.seconds:g} s and was stopped ({LONGER})")
            elif not self._ready and (not alive or now - self.started_at > max(self.seconds, START_SECONDS)):
                self._not_started(child)
            elif not alive:
                child.process.wait()
                name = busy[0] if busy is not None else None
                what = f" while drawing {name}" if name else ""
                self._restart(child, name, f"the preview process stopped{what} (exit status {child.exitcode})")

    def _start_child(self) -> None:
        from pnp.serve.child import Child
        from pnp.serve.previews import serve

        with self._lock:
            if self._closing.is_set():
                return
            self._busy = None
            self._ready = False
            self.started_at = time.monotonic()
            self._next_start = self.started_at + 1.0
            self._child = Child(serve, self.root, self.recent, self.version, self.files, dict(self.stopped),
                                self.memory, self.setup, self._prepare, name="pnp-studio-previews",
                                held=LAST_WORDS)
            # questions asked while it was starting go to it
            for ident, (future, owner, op, args) in list(self._pending.items()):
                if owner is None:
                    self._pending[ident] = (future, self._child, op, args)

    def _heard(self, child, message) -> None:
        kind = message[0]
        if kind == "ready":
            child.echo()                   # its stderr from now on, as it comes
            with self._lock:
                self._ready = True
                recovered = self.failures > 0 or self._said is not None
                self.failures, self.retry_in, self.failing, self._said = 0, 0.0, None, None
            if recovered:
                print("pnp serve: the preview process started", file=sys.stderr, flush=True)
        elif kind == "busy":
            self._busy = (message[1], time.monotonic()) if message[1] is not None else None
        elif kind == "result":
            _, ident, ok, value = message
            with self._lock:
                future, _, op, args = self._pending.pop(ident, (None, None, None, None))
            if ok:
                value = self._keep(op, args, value)
            if future is not None and not future.done():
                future.set_result(value) if ok else future.set_exception(value)
        elif kind == "kept":
            _, serial, options, version, data = message
            with self._lock:
                self._serial = serial
                self._faces = {}
                if version == self.version:
                    self._data[options] = data
        elif kind == "pictures":
            for name, image in message[1]:
                self._pictures.put(name, image)
        elif kind == "event":
            self.publish(message[1])
        elif kind == "exceeded":
            self._restart(child, message[1], message[2])

    def _kept(self, op: str, args: tuple):
        """The answer the studio keeps for ``op``, else None."""
        if op == "json":
            with self._lock:
                data = self._data.get(args[0])
                if data is not None:
                    self.recent = args[0]
            return dict(data) if data is not None else None
        if op == "picture":
            return self._pictures.get(args[0])
        if op == "face":
            name = self._faces.get(args)
            return self._pictures.get(name) if name is not None else None
        return None

    def _keep(self, op: str, args: tuple, value):
        """Keep what an answer tells (a picture, a face's picture) and return the answer itself."""
        if op == "picture" and value is not None:
            self._pictures.put(args[0], value)
        elif op == "face":
            serial, name, value = value
            if value is not None:
                self._pictures.put(name, value)
                with self._lock:
                    if serial == self._serial:       # the answer of the view kept last (not of an older one)
                        self._faces[args] = name
        return value

    def _restart(self, child, name: str | None, message: str) -> None:
        """Kill ``child``, then answer its questions with ``message``, remember ``name`` as stopped, and
        let :meth:`_watch` start another."""
        print(f"pnp serve: {message}; the previews start again", file=sys.stderr, flush=True)
        with self._lock:
            if name is not None:
                self.stopped[name] = message
            self._child = None
            self._busy = None
            self.restarts += 1
            self._faces, self._serial, self._data = {}, -1, {}
            waiting = self._take(child)
            version = self.version
        child.kill()                 # (and waited for) before anyone is told it was stopped
        _fail(waiting, message)
        self.publish({"type": "stopped", "version": version, "message": message})

    def _not_started(self, child) -> None:
        """``child`` died before it was ready: answer its questions, and every question until a file
        changes, with why (its stderr's last line); say so once (the console gets its last lines too),
        not again while it fails the same way; start the next one later each time."""
        hung = child.is_alive()
        child.kill()                 # (and waited for)
        words = child.last_words()
        cause = next((line.strip() for line in reversed(words) if line.strip()), "")
        how = f"not ready after {max(self.seconds, START_SECONDS):g} s" if hung else f"exit status {child.exitcode}"
        message = (f"the preview process could not start ({how})"
                   f"{': ' + cause[:300] if cause else ''}; pnp tries again after {RESTART_FIRST:g} s, then less "
                   f"and less often (every {RESTART_CEILING:g} s at the most), and at once when a file of the game "
                   f"changes")
        with self._lock:
            self.failures += 1
            self.retry_in = min(RESTART_CEILING, RESTART_FIRST * 2 ** (self.failures - 1))
            self._next_start = time.monotonic() + self.retry_in
            self.failing = message
            self._child = None
            self._busy = None
            self.restarts += 1
            waiting = self._take(child)
            version = self.version
            said, self._said = self._said, cause
        _fail(waiting, message)
        if cause != said or self.failures == 1:
            print(f"pnp serve: {message}", file=sys.stderr)
            for line in words:
                print(f"    {line}", file=sys.stderr)
            sys.stderr.flush()
            self.publish({"type": "stopped", "version": version, "message": message})

    def _take(self, child) -> list:
        """The futures of the questions sent to ``child`` (None: every question), taken off (lock held)."""
        taken = []
        for ident, (future, owner, _, _) in list(self._pending.items()):
            if child is None or owner is child:
                del self._pending[ident]
                taken.append(future)
        return taken


def _fail(futures, message: str) -> None:
    for future in futures:
        if not future.done():
            future.set_exception(Stopped(message))
