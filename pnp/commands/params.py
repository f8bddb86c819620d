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
