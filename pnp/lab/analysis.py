"""What a sweep's rows say: means, paired differences against the base with 95 % intervals, Holm's
correction over a family of comparisons, plain-words verdicts, and the games worth replaying.

Everything here is plain data in, plain data out (report.json is made of it); the numbers come from
:mod:`rules_engine.core.stats`.
"""

from __future__ import annotations

from rules_engine.core.metrics import RATE, value
from rules_engine.core.stats import holm, mean_interval, paired, unpaired

#: The level every interval and verdict uses.
ALPHA = 0.05


def column(rows, metric: str) -> list[float]:
    return [value(r["metrics"], metric) for r in rows]


def endings(*row_lists) -> list[str]:
    """The ending reasons seen in any of the rows, sorted."""
    found = set()
    for rows in row_lists:
        for r in rows:
            found.update(k[len("ending_"):] for k in r["metrics"] if k.startswith("ending_"))
    return sorted(found)


def means(rows, metrics) -> dict:
    """Per metric (a catalog: id -> info, or ids of counts) its mean with a 95 % interval (Wilson's for
    rates)."""
    kinds = metrics if isinstance(metrics, dict) else {}
    return {m: mean_interval(column(rows, m), share=kinds.get(m, {}).get("kind") == RATE) for m in metrics}


def effects(base_rows, rows, metrics) -> dict:
    """Per metric: the paired difference (``variant - base``, game by game) and, for comparison, the
    unpaired one of the same games."""
    out = {}
    for m in metrics:
        b, v = column(base_rows, m), column(rows, m)
        out[m] = {"paired": paired(b, v), "unpaired": unpaired(b, v)}
    return out


def adjust(effect_sets: list[dict], metrics) -> None:
    """Holm's correction over every (variant, metric) comparison of a question, stored as
    ``holm_p`` and ``clear`` (significant at 5 % over the family) in each paired effect."""
    cells = [(e, m) for e in effect_sets for m in metrics]
    adjusted = holm([e[m]["paired"]["p"] for e, m in cells])
    for (e, m), p in zip(cells, adjusted):
        e[m]["paired"]["holm_p"] = round(p, 6)
        e[m]["paired"]["clear"] = p < ALPHA


def _number(x: float, kind: str) -> str:
    if kind == RATE:
        return f"{100 * x:+.1f}"
    return f"{x:+.2f}" if abs(x) < 10 else f"{x:+.1f}"


def _plain(x: float, kind: str) -> str:
    if kind == RATE:
        return f"{100 * x:.1f}%"
    return f"{x:.2f}" if abs(x) < 10 else f"{x:.1f}"


def effect_text(info: dict, effect: dict) -> str:
    """``Empire battle share -4.1 points [-5.0, -3.2]``."""
    kind = info["kind"]
    unit = " points" if kind == RATE else (f" {info['unit']}" if info.get("unit") else "")
    return (f"{info['label']} {_number(effect['diff'], kind)}{unit} "
            f"[{_number(effect['ci_low'], kind)}, {_number(effect['ci_high'], kind)}]")


def verdict(info: dict, effect: dict, family: int = 1) -> str:
    """The effect and what it means in plain words; ``family`` comparisons were made (Holm)."""
    text = effect_text(info, effect)
    clear = effect.get("clear", effect["ci_low"] > 0 or effect["ci_high"] < 0)
    if not clear:
        if family > 1 and (effect["ci_low"] > 0 or effect["ci_high"] < 0):
            return f"{text}: not clear once {family} comparisons are allowed for (Holm)"
        return f"{text}: no clear change"
    direction = "higher" if effect["diff"] > 0 else "lower"
    return f"{text}: clearly {direction}"


def mean_text(info: dict, m: dict) -> str:
    kind = info["kind"]
    unit = "" if kind == RATE else (f" {info['unit']}" if info.get("unit") else "")
    return f"{_plain(m['mean'], kind)}{unit} [{_plain(m['ci_low'], kind)}, {_plain(m['ci_high'], kind)}]"


def linked_games(base_rows, rows, metric: str) -> dict:
    """Two games to replay for one comparison: a *typical* one (its difference on ``metric`` closest to
    the mean difference) and an *extreme* one (the largest difference in the effect's direction); the
    same seed in the base shows the other side of the comparison."""
    diffs = [value(v["metrics"], metric) - value(b["metrics"], metric) for b, v in zip(base_rows, rows)]
    if not diffs:
        return {}
    mean = sum(diffs) / len(diffs)
    typical = min(range(len(diffs)), key=lambda i: (abs(diffs[i] - mean), i))
    sign = 1 if mean >= 0 else -1
    extreme = max(range(len(diffs)), key=lambda i: (sign * diffs[i] if mean else abs(diffs[i]), -i))
    return {"typical": _game(rows[typical], diffs[typical]), "extreme": _game(rows[extreme], diffs[extreme])}


def _game(row, diff) -> dict:
    return {"game": row["game"], "seed": row["seed"], "bots": list(row["bots"]), "difference": round(diff, 6)}
