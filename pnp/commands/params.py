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
    from pnp.workers import available_cores

    if value is None:
        return value
    return min(value, available_cores())
