"""Process helpers for worker processes and Ctrl-C, shared by the engine's executors and pnp's build
workers (standard library only, so importing this costs nothing).

* :func:`sigint_deferred`: a block that Ctrl-C must not cut in half (starting worker processes: a
  KeyboardInterrupt raised inside ``fork``'s handlers can leave a lock of the ``logging`` module taken
  for good, and the next log call waits forever; swapping the old and the new kit), run to its end,
  then the KeyboardInterrupt raised.
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
    have raised (with ``note`` as its text). Only the main thread receives signals; elsewhere, or with
    Ctrl-C ignored or handled by someone else, the block runs as it would anyway."""
    if threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return
    caught = []
    signal.signal(signal.SIGINT, lambda number, frame: caught.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if caught:
        raise KeyboardInterrupt(note) if note else KeyboardInterrupt


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
