"""Confidence intervals for the rates reports show (a win rate is a proportion of games or seats)."""

from __future__ import annotations

import math

#: z for a two-sided 95 % interval.
Z95 = 1.959963984540054


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``successes / trials`` (rounded to 4 places); ``(0, 0)`` with no trials.

    Unlike the normal approximation it stays inside [0, 1] and behaves for rates near 0 or 1 and for
    small samples, which per-card figures often are."""
    if trials <= 0:
        return 0.0, 0.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)


def rate(successes: float, trials: int) -> float:
    return round(successes / trials, 4) if trials else 0.0
