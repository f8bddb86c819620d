"""The preview process's one drawing thread: jobs by priority, long jobs in slices.

pnp's drawing code keeps caches that are emptied when files change (:mod:`pnp.cache.memo`), and PDFium,
which rasterizes the pages, must not be called from two threads at once; so every job that loads the
game or draws runs here, one at a time. A job may be a generator: each ``next()`` is one slice, and
between slices more urgent jobs go first (a card picture the page asks for does not wait for the
whole rulebook to be checked). Each job has a name, and each job or slice runs inside
``around(name)`` (the preview process tells the studio what it is drawing: the studio's clock).
"""

from __future__ import annotations

import inspect
import itertools
import queue
import threading
from concurrent.futures import Future
from contextlib import nullcontext

from pnp.errors import UserError

# priorities: lower runs first
URGENT, DATA, CHECK, BUILD = 0, 1, 2, 3


class Stopped(UserError):
    """Work the studio stopped (past its time or memory limit): not started again until a file changes;
    the message names it (``the preview of card 'x' took longer than 60 s and was stopped``)."""


class Unplayable(UserError):
    """A replay the request or the data cannot give (a bot or player count the engine refuses, a variant
    file that is not one, an engine that fails on the reported options): the message says why."""


class Undrawable(UserError):
    """A picture the data cannot give (a card that problems name, a face whose layout fails): the
    message says why (``card 'x' cannot be drawn: heroes.yaml:4: ...``)."""


class Worker:
    """One thread running submitted jobs by priority, then in order of submission."""

    def __init__(self, name: str = "pnp-serve-worker", around=lambda job_name: nullcontext()):
        self._around = around
        self._queue: queue.PriorityQueue = queue.PriorityQueue()
        self._order = itertools.count()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def submit(self, func, priority: int = URGENT, name: str | None = None) -> Future:
        """Run ``func()`` on the worker; the future holds its result (a generator's: its return value).
        ``name``: what it draws, in words (``the check of the game``)."""
        future: Future = Future()
        self._queue.put((priority, next(self._order), func, future, name))
        return future

    def _run(self) -> None:
        while True:
            priority, _, job, future, name = self._queue.get()
            if job is None:
                future.set_result(None)
                return
            if inspect.isgenerator(job):
                self._slice(priority, job, future, name)
                continue
            if not future.set_running_or_notify_cancel():
                continue
            try:
                with self._around(name):
                    result = job()
            except BaseException as exc:   # handed to whoever waits; the worker goes on
                future.set_exception(exc)
                continue
            if inspect.isgenerator(result):
                self._slice(priority, result, future, name)
            else:
                future.set_result(result)

    def _slice(self, priority: int, generator, future: Future, name) -> None:
        try:
            with self._around(name):
                next(generator)
        except StopIteration as stop:
            future.set_result(stop.value)
        except BaseException as exc:
            future.set_exception(exc)
        else:
            self._queue.put((priority, next(self._order), generator, future, name))

    def stop(self, timeout: float = 10) -> None:
        """Let the running slice finish, drop the rest, end the thread."""
        self._queue.put((-1, -1, None, Future(), None))
        self._thread.join(timeout)
