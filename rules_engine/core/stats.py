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


# ---------------------------------------------------------------------- means and paired differences
# ``pnp lab`` compares variants on the same seeds: game i of every variant starts from the same seed
# (common random numbers), so the difference of a metric is measured game by game and its spread is
# that of the differences, which is smaller when the variants' games stay alike.

def t975(df: float) -> float:
    """The 97.5 % quantile of Student's t with ``df`` degrees of freedom (Cornish-Fisher expansion: 3.159
    for the exact 3.182 at 3 degrees of freedom, within 0.004 from 5 on; the normal quantile for large df)."""
    z = Z95
    if df <= 0 or math.isinf(df):
        return z
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3


def _mean_var(values) -> tuple[float, float, int]:
    n = len(values)
    if not n:
        return 0.0, 0.0, 0
    m = math.fsum(values) / n
    var = math.fsum((v - m) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return m, var, n


def normal_p(z: float) -> float:
    """Two-sided p-value of a z statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def mean_interval(values, share: bool = False) -> dict:
    """The mean of ``values`` with its 95 % interval: ``{mean, ci_low, ci_high, n}``; t, or Wilson's when
    ``share`` (values between 0 and 1 that are shares of a game, like a win: the interval stays in [0, 1]
    and is not zero wide when every game came out alike)."""
    if share:
        n = len(values)
        low, high = wilson(math.fsum(values), n)
        return {"mean": round(math.fsum(values) / n, 6) if n else 0.0, "ci_low": low, "ci_high": high, "n": n}
    m, var, n = _mean_var(values)
    half = t975(n - 1) * math.sqrt(var / n) if n > 1 else 0.0
    return {"mean": round(m, 6), "ci_low": round(m - half, 6), "ci_high": round(m + half, 6), "n": n}


def paired(base, variant) -> dict:
    """The mean of the game-by-game differences ``variant - base`` with its 95 % interval, standard
    error and two-sided p-value (t interval; normal p-value)."""
    if len(base) != len(variant):
        raise ValueError("paired samples must have the same length")
    diffs = [v - b for b, v in zip(base, variant)]
    m, var, n = _mean_var(diffs)
    se = math.sqrt(var / n) if n > 1 else 0.0
    half = t975(n - 1) * se
    p = normal_p(m / se) if se > 0 else (1.0 if m == 0 else 0.0)
    return {"diff": round(m, 6), "ci_low": round(m - half, 6), "ci_high": round(m + half, 6), "se": round(se, 6),
            "p": p, "n": n}


def unpaired(base, variant) -> dict:
    """The difference of the means ``variant - base`` with Welch's 95 % interval, as if the two samples
    were independent (what a comparison without common random numbers could claim)."""
    mb, vb, nb = _mean_var(base)
    mv, vv, nv = _mean_var(variant)
    if nb < 2 or nv < 2:
        return {"diff": round(mv - mb, 6), "ci_low": round(mv - mb, 6), "ci_high": round(mv - mb, 6), "se": 0.0,
                "p": 1.0, "n": min(nb, nv)}
    a, b = vb / nb, vv / nv
    se = math.sqrt(a + b)
    df = (a + b) ** 2 / ((a * a / (nb - 1) if a else 0) + (b * b / (nv - 1) if b else 0)) if a or b else math.inf
    half = t975(df) * se
    d = mv - mb
    return {"diff": round(d, 6), "ci_low": round(d - half, 6), "ci_high": round(d + half, 6), "se": round(se, 6),
            "p": normal_p(d / se) if se > 0 else (1.0 if d == 0 else 0.0), "n": min(nb, nv)}


def holm(p_values) -> list[float]:
    """Holm's step-down adjustment of p-values (family-wise error), in the order given: a result is
    significant at 5 % over the whole family when its adjusted p-value is below 0.05."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted
