"""pnp's command line with a pause at a chosen point, so that a test can press Ctrl-C exactly there
(tests/test_interrupt.py).

``python tests/interrupted_pnp.py MARKER POINT ARGS...`` runs ``pnp ARGS...``; when the run reaches
POINT it creates the file MARKER and waits half a second (Ctrl-C, sent then, lands at that point), then
goes on. POINT is ``load`` (a game was just loaded: every command is under way), ``finalizer`` (the
same, inside an object's ``__del__``, where Python swallows a KeyboardInterrupt), ``class`` (the same,
while a class is created: in a descriptor's ``__set_name__``, as in every dataclass field, where Python
3.11 wraps the KeyboardInterrupt in a RuntimeError), ``staged`` (the new
files are written beside the output folder, before the swap), ``swap`` (inside the swap, where
Ctrl-C must wait until the swap is done), ``returned`` (the command has ended and said its outcome;
click is on its way out), ``finished`` (pnp's program flushes the output, just before it decides its
exit status) or ``shutdown`` (in an exit handler, as the interpreter shuts down).
"""

import sys
import time
from pathlib import Path


def pause():
    Path(MARKER).touch()
    end = time.monotonic() + 0.5
    while time.monotonic() < end:
        time.sleep(0.02)


def at(function):
    def run(*args, **kwargs):
        if POINT != "staged":
            result = function(*args, **kwargs)
            pause()
            return result
        pause()
        return function(*args, **kwargs)
    return run


MARKER, POINT = sys.argv[1], sys.argv[2]
sys.argv = ["pnp", *sys.argv[3:]]
class Finalized:
    def __del__(self):
        pause()


def in_finalizer(function):
    def run(*args, **kwargs):
        result = function(*args, **kwargs)
        Finalized()         # collected at once: Ctrl-C lands in its __del__
        return result
    return run


class Named:
    def __set_name__(self, owner, name):
        pause()


def in_class_creation(function):
    def run(*args, **kwargs):
        result = function(*args, **kwargs)
        type("Created", (), {"field": Named()})      # Ctrl-C lands in its __set_name__
        return result
    return run


if POINT in ("returned", "finished", "shutdown"):
    import atexit

    import pnp.commands.cli

    if POINT == "returned":
        pnp.commands.cli.PnpGroup._invoke = at(pnp.commands.cli.PnpGroup._invoke)
    elif POINT == "finished":
        pnp.commands.cli._flush_output = at(pnp.commands.cli._flush_output)
    else:
        atexit.register(pause)
elif POINT in ("load", "finalizer", "class"):
    import pnp.loading.gamedata

    pnp.loading.gamedata.load_game = {"load": at, "finalizer": in_finalizer, "class": in_class_creation}[POINT](
        pnp.loading.gamedata.load_game)
else:
    import pnp.build.output

    if POINT == "staged":
        pnp.build.output._carry = at(pnp.build.output._carry)
    else:
        pnp.build.output.exchange = at(pnp.build.output.exchange)

from pnp.program import run  # noqa: E402

run()
