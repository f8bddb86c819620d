"""Process helpers for worker processes and Ctrl-C, shared by the engine's executors and pnp's build
workers (standard library only, so importing this costs nothing).

* :func:`sigint_deferred`: a block that Ctrl-C must not cut in half (starting worker processes: a
  KeyboardInterrupt raised inside ``fork``'s handlers can leave a lock of the ``logging`` module taken
  for good, and the next log call waits forever; swapping the old and the new kit), run to its end,
  then the KeyboardInterrupt raised.
* :func:`sigint_ignored_by_children` and :func:`dask_setup`: processes started in a block (the fork
  server of a local Dask cluster's workers) never receive Ctrl-C: the main process handles it and stops
  them.
* :func:`die_with_parent`: a forked worker is killed as soon as the process that started it ends, however
  it ends (Ctrl-C sent to it alone, ``kill -9``), so no worker is left running for nobody.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
from contextlib import contextmanager

_PR_SET_PDEATHSIG = 1


@contextmanager
def sigint_deferred(note: str = ""):
    """Run the block to its end even if Ctrl-C comes meanwhile; then raise the KeyboardInterrupt it would
    have raised (with ``note`` as its text), or call the handler that was there. Only the main thread
    receives signals; elsewhere, or with Ctrl-C ignored, the block runs as it would anyway."""
    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or not callable(previous):
        yield
        return
    caught = []
    signal.signal(signal.SIGINT, lambda number, frame: caught.append(frame))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if not caught:
        return
    if previous is signal.default_int_handler:
        raise KeyboardInterrupt(note) if note else KeyboardInterrupt
    try:
        previous(signal.SIGINT, caught[0])
    except KeyboardInterrupt as exc:
        if note and not str(exc):
            raise KeyboardInterrupt(note) from None
        raise


@contextmanager
def sigint_ignored_by_children():
    """Ctrl-C ignored while the block starts a process (the fork server that starts a local Dask
    cluster's workers): the process inherits the ignored signal (across ``exec`` too, and Python then
    leaves it ignored; the fork server passes it on to every process it forks), so a terminal's Ctrl-C,
    sent to the whole process group, reaches only this process, which stops them. Keep the block short:
    a Ctrl-C pressed while it runs is lost. Outside the main thread the block runs as it is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def dask_setup(worker) -> None:
    """A Dask worker preload (``preload=["rules_engine.processes"]``): the worker ignores Ctrl-C, also
    where it was not started by a fork server that does (see :func:`sigint_ignored_by_children`)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def die_with_parent(parent: int) -> None:
    """In a forked worker: be killed when the process ``parent`` (the one that forked this one) ends.
    Linux only (``prctl(PR_SET_PDEATHSIG)``); elsewhere the parent stops its workers itself."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):      # pragma: no cover - a libc without prctl
        return
    if os.getppid() != parent:                 # the parent ended before the line above
        os._exit(1)
