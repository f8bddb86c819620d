"""Processes the studio starts for work it must be able to stop: its builds and its previews.

A child is a fresh Python interpreter (``subprocess``: never a fork of the studio, whose threads may
hold locks), in a process group of its own, so a terminal's Ctrl-C reaches only the studio, which
stops its children itself (a child started just as Ctrl-C was pressed used to print a
KeyboardInterrupt traceback of its own). It is killed when the studio ends however it ends
(``die_with_parent``), and it talks to the studio over two pipes with :mod:`multiprocessing`'s
connections (pickled messages): first the studio's ``sys.path``, then the function to run with its
arguments, ``target(receive, send, *args)``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections import deque
from multiprocessing.connection import Connection
from pathlib import Path


#: Where this pnp is imported from: the child imports the same one, whatever its own ``sys.path`` says.
PNP_HOME = str(Path(__file__).resolve().parents[2])
#: The child's first lines.
BOOT = "import sys; sys.path.insert(0, sys.argv[1]); from pnp.serve.child import main; main()"


class Child:
    """``target(receive, send, *args)`` running in a new process; :attr:`receive` and :attr:`send` are
    the studio's ends of the pipes. ``target`` and ``args`` must pickle (a module-level function)."""

    def __init__(self, target, *args, name: str = "pnp-studio-child", held: int = 0):
        self.name = name
        child_reads, parent_writes = os.pipe()
        parent_reads, child_writes = os.pipe()
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-c", BOOT, PNP_HOME, str(child_reads), str(child_writes), str(os.getpid()), name],
                pass_fds=(child_reads, child_writes), process_group=0, stdin=subprocess.DEVNULL,
                stderr=subprocess.PIPE if held else None)
        except BaseException:
            for fd in (child_reads, parent_writes, parent_reads, child_writes):
                os.close(fd)
            raise
        os.close(child_reads)
        os.close(child_writes)
        self._errors = _Errors(self.process.stderr, held) if held else None
        self.send = Connection(parent_writes, readable=False)
        self.receive = Connection(parent_reads, writable=False)
        try:
            self.send.send(list(sys.path))
            self.send.send((target, args))
        except OSError:        # it died at once: is_alive() and exitcode say so
            pass

    def echo(self) -> None:
        """Write what it printed to stderr so far to the studio's, and from now on as it comes (with
        ``held``: until then its lines are held back, so that a process that dies at start-up again and
        again does not print the same traceback each time: the studio says it once)."""
        if self._errors is not None:
            self._errors.echo()

    def last_words(self, timeout: float = 2) -> list[str]:
        """The last ``held`` lines it printed to stderr (once it ended, waiting a moment for the last ones)."""
        return self._errors.last(timeout) if self._errors is not None else []

    @property
    def pid(self) -> int:
        return self.process.pid

    def is_alive(self) -> bool:
        return self.process.poll() is None

    @property
    def exitcode(self) -> int | None:
        return self.process.poll()

    def kill(self, timeout: float = 10) -> None:
        """Kill it (if it still runs), wait for it, close the pipes."""
        if self.process.poll() is None:
            self.process.kill()
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:     # pragma: no cover - a process SIGKILL does not end
            pass
        for conn in (self.send, self.receive):
            conn.close()


class _Errors:
    """A thread reading a child's stderr: lines held (the last ``keep``) until :meth:`echo`, then
    written through to the studio's stderr."""

    def __init__(self, stream, keep: int):
        self._lines: deque = deque(maxlen=keep)
        self._held: list | None = []
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._read, args=(stream,), name="pnp-studio-child-stderr",
                                        daemon=True)
        self._thread.start()

    def _read(self, stream) -> None:
        with stream:
            for raw in stream:
                line = raw.decode("utf-8", "replace")
                with self._lock:
                    self._lines.append(line.rstrip("\n"))
                    if self._held is not None:
                        if len(self._held) < 1000:
                            self._held.append(line)
                        continue
                sys.stderr.write(line)

    def echo(self) -> None:
        with self._lock:
            held, self._held = self._held or [], None
        if held:
            sys.stderr.write("".join(held))

    def last(self, timeout: float) -> list[str]:
        self._thread.join(timeout)
        with self._lock:
            return list(self._lines)


def main() -> None:
    """In the child: die with the studio, ignore Ctrl-C (the studio stops it), take the studio's
    ``sys.path``, then run the target it sends."""
    from rules_engine.processes import die_with_parent

    receive_fd, send_fd, parent = (int(a) for a in sys.argv[2:5])
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent)
    receive = Connection(receive_fd, writable=False)
    send = Connection(send_fd, readable=False)
    try:
        sys.path[:] = receive.recv()
        target, args = receive.recv()
    except (EOFError, OSError):            # the studio went away before sending its work
        return
    target(receive, send, *args)
