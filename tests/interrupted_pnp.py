"""pnp's command line with a pause at a chosen point, so that a test can press Ctrl-C exactly there
(tests/test_interrupt.py).

``python tests/interrupted_pnp.py MARKER POINT ARGS...`` runs ``pnp ARGS...``; when the run reaches
POINT it creates the file MARKER and waits half a second (Ctrl-C, sent then, lands at that point), then
goes on. POINT is ``load`` (a game was just loaded: every command is under way), ``staged`` (the new
files are written beside the output folder, before the swap) or ``swap`` (inside the swap, where
Ctrl-C must wait until the swap is done).
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
if POINT == "load":
    import pnp.gamedata

    pnp.gamedata.load_game = at(pnp.gamedata.load_game)
else:
    import pnp.output

    if POINT == "staged":
        pnp.output._carry = at(pnp.output._carry)
    else:
        pnp.output.exchange = at(pnp.output.exchange)

from pnp.program import run  # noqa: E402

run()
