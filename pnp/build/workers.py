"""Sharing a list of tasks between this process and forked worker processes (``pnp build --jobs``).

A :class:`TaskPool` hands out task numbers through a pipe: every process (this one and each worker)
reads the next number when it is free, so the tasks are shared out as they finish, biggest first if
they are listed so. A worker sends each result back (pickled) on its own pipe, which a thread of this
process drains as it comes, so a worker never waits for this process to read.

Workers are forked (they start with this process's state: the game already loaded, fonts registered)
and only compute: they write no file. They ignore Ctrl-C and are killed when this process stops the
pool, so an interrupted build stops as a one-process build does; on Linux they are killed too when
this process ends any other way (:func:`rules_engine.processes.die_with_parent`). A task's exception
comes back and is raised here (a :class:`~pnp.errors.DataError` with its problems, any other with the
worker's traceback).

Forking needs a POSIX system; elsewhere, or with ``jobs`` 1, every task runs in this process.
"""

from __future__ import annotations

import io
import os
import pickle
import signal
import sys
import threading
import traceback
from typing import Callable

from pnp.errors import DataError, UserError
from rules_engine.processes import die_with_parent, sigint_deferred

#: Task numbers go through the pipe in this many bytes each (a read of them is atomic).
_WIDTH = 2
#: At most this many tasks: all their numbers must fit in a pipe (64 KiB on Linux, 4 KiB guaranteed by
#: POSIX) before any is read, or writing them would wait forever.
MAX_TASKS = 2048


def available_cores() -> int:
    """The CPU cores this process may run on (its affinity where the system says, else all of them)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def default_jobs() -> int:
    """Processes a build may use: the CPU cores this process may run on that are free now (at most 4,
    see :func:`free_cores`); 1 without fork, or when this process runs other threads (a forked copy of a
    threaded process can hang on a lock one of them held)."""
    if not hasattr(os, "fork") or threading.active_count() > 1:
        return 1
    return max(1, min(free_cores(available_cores()), 4))


def free_cores(cores: int) -> int:
    """Of ``cores``, those not busy: the cores less the last minute's load average, rounded, at least 1.
    A second process on a core another program keeps busy only takes turns with it, and the build then
    pays for the fork and the results' trip back for nothing (measured: 5-16 % slower than one process)."""
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):         # no load average on this system: every core counts
        return max(1, cores)
    return max(1, min(cores, int(cores - load + 0.5)))


class WorkerError(RuntimeError):
    """A task failed in a worker with an exception that could not come back as it was."""


class TaskPool:
    """Tasks ``0 .. count-1``, each run once by ``run(i)`` in this process or in one of ``workers`` forked
    processes. Use as a context manager; :meth:`run_here` works in this process until no task is
    left, then :meth:`outcomes` waits for the workers and gives every task's outcome by number."""

    def __init__(self, count: int, run: Callable[[int], object], workers: int):
        self.count, self._run = count, run
        self._own: dict = {}
        self._workers = []            # (pid, read fd, thread, chunks)
        if count > MAX_TASKS:
            raise ValueError(f"too many tasks: {count} (at most {MAX_TASKS})")
        self._tasks, w = os.pipe()
        # every task number is written before any process reads (see MAX_TASKS)
        os.write(w, b"".join(i.to_bytes(_WIDTH, "big") for i in range(count)))
        os.close(w)
        workers = min(workers, count) if hasattr(os, "fork") else 0
        try:
            with sigint_deferred():           # Ctrl-C once every worker is known, so close() stops them all
                for _ in range(workers):
                    self._fork()
                for worker in self._workers:
                    worker[2].start()
        except BaseException:
            self.close()
            raise

    def _fork(self) -> None:
        read, write = os.pipe()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()        # nothing buffered is written twice
            except (OSError, ValueError):
                pass
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:                                        # the worker
            code = 1
            try:
                signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C is this process's to handle
                die_with_parent(parent)                        # however this process ends
                os.close(read)
                for _, other, _, _ in self._workers:
                    os.close(other)
                with os.fdopen(write, "wb") as out:
                    while (i := self.claim()) is not None:
                        out.write(_pickled(i, _outcome(self._run, i)))
                        out.flush()
                code = 0
            finally:
                os._exit(code)                              # no atexit handlers, no buffered output
        os.close(write)
        chunks = []
        thread = threading.Thread(target=_drain, args=(read, chunks), daemon=True)
        self._workers.append((pid, read, thread, chunks))

    def claim(self) -> int | None:
        """The next task nobody has taken, or None when all are taken."""
        data = os.read(self._tasks, _WIDTH)
        return int.from_bytes(data, "big") if data else None

    def run_here(self) -> None:
        """Run tasks in this process until every task is taken."""
        while (i := self.claim()) is not None:
            self._own[i] = _outcome(self._run, i)

    def outcomes(self, idle: Callable[[], object] | None = None) -> dict:
        """Every task's outcome by number, once all are done: (True, result) or (False, the exception
        it raised). ``idle`` runs here once every task is taken, if a worker is still at work then."""
        self.run_here()
        if idle is not None and any(thread.is_alive() for _, _, thread, _ in self._workers):
            idle()
        outcomes = dict(self._own)
        for pid, read, thread, chunks in self._workers:
            thread.join()
            os.waitpid(pid, 0)
            outcomes.update(_unpickled(b"".join(chunks)))
        self._workers = []
        missing = [i for i in range(self.count) if i not in outcomes]
        if missing:
            raise WorkerError(f"a build worker stopped before finishing task(s) {missing}")
        return outcomes

    def close(self) -> None:
        for pid, read, thread, _ in self._workers:
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
            thread.join()
        self._workers = []
        if self._tasks is not None:
            os.close(self._tasks)
            self._tasks = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _outcome(run, i) -> tuple:
    try:
        return True, run(i)
    except Exception as exc:  # noqa: BLE001 - the caller raises it, in the process that reports errors
        return False, exc


def _pickled(i: int, outcome: tuple) -> bytes:
    """A worker's result for the pipe; an exception keeps the worker's traceback as a note, and one
    that cannot be pickled travels as a :class:`WorkerError` with its text."""
    ok, value = outcome
    if not ok and not isinstance(value, (DataError, UserError)):
        value.add_note("in a build worker:\n" + "".join(traceback.format_exception(value)).rstrip())
    try:
        return pickle.dumps((i, (ok, value)), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - anything that does not pickle travels as its text
        text = "".join(traceback.format_exception(value)) if not ok else "an unpicklable result"
        return pickle.dumps((i, (False, WorkerError(f"{type(value).__name__}: {value}\n{text}"))))


def _drain(fd: int, chunks: list) -> None:
    try:
        while data := os.read(fd, 1 << 20):
            chunks.append(data)
    finally:
        os.close(fd)


def _unpickled(data: bytes) -> dict:
    stream, out = io.BytesIO(data), {}
    while stream.tell() < len(data):
        try:
            i, outcome = pickle.load(stream)
        except Exception:  # noqa: BLE001 - a worker killed mid-write: its last task counts as missing
            break
        out[i] = outcome
    return out
