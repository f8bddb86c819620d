"""Option types shared by the commands."""

from __future__ import annotations

import math

import click


class FiniteFloatRange(click.FloatRange):
    """A FloatRange that refuses NaN and the infinities (``--bleed nan`` would pass a plain range check:
    every comparison with NaN is false)."""

    def convert(self, value, param, ctx):
        number = click.FLOAT.convert(value, param, ctx) if not isinstance(value, float) else value
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return super().convert(number, param, ctx)


def within_cores(ctx, param, value):
    """A count of processes (``--jobs``, ``--workers``) bounded by the CPU cores pnp may use here: more
    would only make the work wait for each other (and thousands are refused by the system in the middle
    of a run), and the output is the same with any count, so a larger value counts as the cores."""
    from pnp.build.workers import available_cores

    if value is None:
        return value
    return min(value, available_cores())


def limit_options(command):
    """``--max-decisions N`` and ``--decision-seconds S``: the limits of every game the command plays
    (:mod:`rules_engine.core.faults`). A game past one stops the command with one line naming the engine,
    the bot, the seat and the seed (exit status 2). Each run of a command sets both, the defaults when
    they are not given."""
    from rules_engine.core.faults import DECISION_SECONDS, MAX_DECISIONS

    def set_decisions(ctx, param, value):
        from rules_engine.core import faults

        faults.configure(value, faults.current().seconds)
        return value

    def set_seconds(ctx, param, value):
        from rules_engine.core import faults

        faults.configure(faults.current().decisions, value)
        return value

    options = [
        click.option("--max-decisions", type=click.IntRange(min=1, max=10**9), default=None, expose_value=False,
                     callback=set_decisions, is_eager=True,
                     help=f"Most decisions a game may take before it is stopped as endless. [default: the engine's "
                          f"own bound, else {MAX_DECISIONS:,}]"),
        click.option("--decision-seconds", type=FiniteFloatRange(min=0.01, max=86400), default=DECISION_SECONDS,
                     expose_value=False, callback=set_seconds, is_eager=True, show_default=True,
                     help="Most seconds one decision (a bot's choice and the engine applying it) may take."),
    ]
    for option in reversed(options):
        command = option(command)
    return command
