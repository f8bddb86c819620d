"""The ``pnp`` program's entry point (its console script and ``python -m pnp``), apart from
:mod:`pnp.commands.cli` so that the process is set up before the rest of pnp is imported."""

import gc

#: New objects between two passes of the collector of reference cycles (Python's default is 700).
GC_THRESHOLD = 100_000


def run() -> None:
    """Tune the collector, then run the command line (:func:`pnp.commands.cli.run`).

    Importing pnp, loading a game and laying out its pages make many objects that live until the
    command ends: with Python's default the collector made some 90 passes during the imports and 140
    during a Shadow Throne build (about 60 ms, part of it before the build's workers can start); after
    every 100,000 new objects, none, for a few MB more memory at most (a simulation's peak memory is
    unchanged)."""
    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])
    try:
        from pnp.commands.cli import run as run_command   # imported now: the imports make many of those objects
    except KeyboardInterrupt:                    # Ctrl-C while starting: as during a command (pnp.commands.cli)
        import sys

        print("pnp: interrupted", file=sys.stderr)
        raise SystemExit(130) from None

    try:
        run_command()                            # (pnp.commands.cli.run keeps its own handler from its first line)
    except KeyboardInterrupt:                    # a Ctrl-C in the instant before it was in place
        import sys

        print("pnp: interrupted", file=sys.stderr)
        raise SystemExit(130) from None
