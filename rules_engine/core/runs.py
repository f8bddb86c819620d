"""What every engine's simulations share: running a seeded run's games on an executor, quantiles, the
invariant checks behind ``pnp validate``, and the transcript helpers. Per-game seeds and seat rotation
are :mod:`rules_engine.core.seeds`' (importable from here too: ``runs.derive_seed``, ``runs.seat_bots``)."""

from __future__ import annotations

import math
from typing import Callable, Mapping, Sequence

from rules_engine.core import faults
from rules_engine.core.seeds import derive_seed, seat_bots  # noqa: F401 (engines use runs.derive_seed)


def percentile(values, q: float) -> int:
    """The nearest-rank ``q`` quantile (0 < q <= 1) of integer values."""
    ordered = sorted(values)
    if not ordered:
        return 0
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]


def mean(values) -> float:
    return round(sum(values) / len(values), 3) if values else 0.0


def share(count, whole) -> float:
    return round(count / whole, 4) if whole else 0.0


#: Games per batch in runs with a search bot.
SEARCH_CHUNK = 8
#: Batches per worker when a run is shared out: a worker that is done early finds more to do, and each
#: batch still holds enough games that sending it and its results costs little beside playing them.
BATCHES_PER_WORKER = 4


def batch_size(games: int, workers: int, most: int = 250) -> int:
    """Games per batch for ``games`` shared among ``workers`` processes: about :data:`BATCHES_PER_WORKER`
    batches each, at most ``most`` games a batch (one process: batches of ``most``, for the progress)."""
    if workers <= 1:
        return max(1, most)
    return max(1, min(most, math.ceil(games / (workers * BATCHES_PER_WORKER))))


def run_games(engine, rules, *, games: int, seed: int = 0, players: int = 4, bots: Sequence[str] = ("random",),
              jobs: int = 1, check: bool = False, progress: Callable[[int], None] | None = None, chunk: int = 250,
              executor=None, options: Mapping | None = None, experience: bool = False) -> list:
    """Play games ``0 .. games-1`` of a run and return ``engine.result`` of each, in game order (with
    ``experience``: ``(result, Experience)`` pairs, :mod:`rules_engine.core.experience`).

    Game ``i`` depends on ``(seed, i)`` only, so the results are the same whatever runs them:
    ``executor`` (see :mod:`rules_engine.core.executors`) or, by default, ``jobs`` local processes.
    ``progress(n)`` is called as each batch of ``n`` games is done. Batches hold at most ``chunk`` games,
    fewer when that gives each worker several (:func:`batch_size`).
    """
    from rules_engine.core.executors import LocalExecutor

    bots = tuple(bots)
    engine.check_bots(bots)  # unknown names fail here, before any worker starts
    if any(b.split(":")[0] == "search" for b in bots):
        chunk = min(chunk, SEARCH_CHUNK)       # search games are slow: small batches keep every worker busy
    executor = executor or LocalExecutor(jobs)
    chunk = batch_size(games, getattr(executor, "jobs", None) or getattr(executor, "workers", 1), chunk)
    batches = [range(start, min(start + chunk, games)) for start in range(0, games, chunk)]
    job = (seed, players, bots, check, dict(options or {}), experience, faults.current())
    parts = executor.run(engine.name, rules, batches, job, progress)
    return [result for part in parts for result in part]


def checked_games(run: Callable, counts: Sequence[int], games: int, seed: int) -> tuple[list, dict]:
    """Play ``games`` seeded, invariant-checked games spread over the player ``counts``.

    ``run(players, games, seed)`` returns results with ``.violations``. Returns ``(problems, results by
    player count)``; problems are ``(subject, message, warning)`` as ``validate_game`` hooks report them.
    """
    problems, by_count = [], {}
    share = max(1, games // max(1, len(counts)))
    for i, players in enumerate(counts):
        try:
            results = run(players, share, seed + i)
        except faults.GameFault:
            raise                      # a bot's or the engine's fault, named with its seed: one message
        except Exception as exc:  # an engine crash on real data is a problem to report, not a traceback
            problems.append(("rules engine", f"{players}-player games crashed: {type(exc).__name__}: {exc}", False))
            continue
        by_count[players] = results
        broken = [(index, v) for index, r in enumerate(results) for v in r.violations]
        for index, violation in broken[:5]:
            problems.append(("rules engine", f"{players}-player game {index} (seed {seed + i}): "
                                             f"invariant broken: {violation}", False))
        if len(broken) > 5:
            problems.append(("rules engine", f"{len(broken) - 5} more broken invariants in {players}-player games",
                             False))
    return problems, by_count


# transcript helpers, kept here for older imports
from rules_engine.core.transcript import Namer, join  # noqa: E402,F401


def invariant_line(inv: dict) -> str:
    """The report's line about invariants."""
    if not inv["checked"]:
        return "Invariants: not checked (add --check)"
    return "Invariants: none broken" if not inv["broken"] else \
        f"Invariants: {inv['broken']} broken, e.g. {inv['examples'][0]}"
