"""Per-game metrics: the numbers ``pnp lab`` compares between variants, one row per game.

A row holds, for one finished game, every metric as a number (a rate is 0 or 1, or a share such as a
win shared by k seats counting 1/k; a count is a count): the core's (length, who won, how the game
ended, the experience metrics of :mod:`rules_engine.core.experience`) and the engine's own
(``Engine.metrics``: Shadow Throne's battle share of each faction, Shadow Queen's wins by side).
:func:`catalog` says what each id means. Rows are small and JSON-ready: workers send them back instead
of whole results, and ``pnp lab`` caches them on disk.

:func:`play_rows` is the batch function the executors run for a sweep: a batch is a :class:`Task`
(one variant, a range of game indexes), ``rules`` maps each variant's key to its compiled rules.
"""

from __future__ import annotations

from typing import Mapping, NamedTuple, Sequence

from rules_engine.core.seeds import seat_bots

RATE, COUNT = "rate", "count"


def _labels(engine, rules) -> dict:
    labels = engine.metric_labels
    return dict(labels(rules) if callable(labels) else labels)


def catalog(engine, rules, players: int, bots: Sequence[str], endings: Sequence[str] = ()) -> dict:
    """Metric id -> ``{"label", "kind", "unit"}`` for a run with these seats and bots (and the ending
    reasons seen in it)."""
    unit = engine.length_unit
    out = {
        "length": {"label": f"game length", "kind": COUNT, "unit": unit},
        "decided": {"label": "games with a winner", "kind": RATE, "unit": ""},
        "timeout": {"label": "games stopped by a safety limit", "kind": RATE, "unit": ""},
        "lead_changes": {"label": "lead changes", "kind": COUNT, "unit": "per game"},
        "comeback": {"label": "comebacks (the winner trailed at the half)", "kind": RATE, "unit": ""},
        "stalls": {"label": f"stalls ({unit} without progress)", "kind": COUNT, "unit": unit},
        "decisions": {"label": "decisions per seat", "kind": COUNT, "unit": "per game"},
    }
    for s in range(players):
        out[f"win_seat_{s + 1}"] = {"label": f"seat {s + 1} win rate", "kind": RATE, "unit": ""}
    distinct = list(dict.fromkeys(bots))
    if len(distinct) > 1:
        for b in distinct:
            out[f"win_{b}"] = {"label": f"{b} win rate per seat", "kind": RATE, "unit": ""}
    for reason in endings:
        out[f"ending_{reason}"] = {"label": f"games ending by {reason.replace('_', ' ')}", "kind": RATE, "unit": ""}
    for key, (label, kind) in _labels(engine, rules).items():
        out[key] = {"label": label, "kind": kind, "unit": ""}
    return out


def row(engine, rules, result, experience) -> dict:
    """Every metric of one game (ids as in :func:`catalog`)."""
    n = len(result.bots)
    winners = tuple(result.winners)
    credit = 1.0 / len(winners) if winners else 0.0
    out = {"length": result.length, "decided": 1.0 if winners else 0.0, "timeout": 1.0 if experience.timeout else 0.0,
           "lead_changes": experience.lead_changes, "comeback": 1.0 if experience.comeback else 0.0,
           "stalls": experience.stalls,
           "decisions": round(sum(experience.decisions) / n, 4) if n else 0.0,
           f"ending_{experience.ending}": 1.0}
    for s in range(n):
        out[f"win_seat_{s + 1}"] = credit if s in winners else 0.0
    distinct = list(dict.fromkeys(result.bots))
    if len(distinct) > 1:
        for b in distinct:
            seats = [s for s in range(n) if result.bots[s] == b]
            out[f"win_{b}"] = round(sum(credit for s in seats if s in winners) / len(seats), 6)
    if engine.metrics is not None:
        out.update(engine.metrics(result, rules))
    return out


def value(row_metrics: Mapping, metric: str) -> float:
    """A metric of a row; an ending or a bot the game did not have counts 0."""
    return float(row_metrics.get(metric, 0.0))


class Task(NamedTuple):
    """One unit of work of a sweep: games ``start .. stop-1`` of variant ``variant`` (its key in the
    rules mapping) with these engine options."""

    variant: str
    start: int
    stop: int
    options: tuple = ()

    def __len__(self) -> int:
        return self.stop - self.start


def play_rows(engine_name: str, rules: Mapping, task: Task, job) -> list[dict]:
    """Play a task's games (the batch function of a sweep) and return one row each:
    ``{"game", "seed", "bots", "metrics"}``; ``job`` is ``(seed, players, bots[, limits])``."""
    from rules_engine import engine_module
    from rules_engine.core import faults
    from rules_engine.core.experience import experience
    from rules_engine.core.play import game_result, play_game, replay_options

    seed, players, bot_specs, *extra = job
    engine = engine_module(engine_name).ENGINE
    compiled = rules[task.variant]
    options = dict(task.options)
    cache = {spec: engine.make_bot(spec) for spec in set(bot_specs)}
    out = []
    with faults.using(extra[0] if extra else None):
        for index in range(task.start, task.stop):
            names = seat_bots(bot_specs, players, index)
            game_seed = engine.game_seed(seed, index)
            state = play_game(engine, compiled, [cache[n] for n in names], game_seed, players=players, **options)
            result = game_result(engine, state, names, game_seed, options)
            try:
                metrics = row(engine, compiled, result, experience(engine, state, result))
            except Exception as exc:  # noqa: BLE001 - the engine's metrics hook
                raise faults.GameFault("engine", engine.name, f"raised {faults.raised(exc)} measuring a finished "
                                       f"game (metrics)", seed=game_seed, players=players, bots=names,
                                       options=replay_options(engine, options), limits=faults.current()) from None
            out.append({"game": index, "seed": game_seed, "bots": names, "metrics": metrics})
    return out
