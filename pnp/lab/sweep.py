"""Sweeps: every variant of a question played on the same seeds, on any executor, cached on disk.

A sweep plays games ``0 .. games-1`` of each variant. Game ``i`` of every variant starts from the same
seed and seats the same bots (common random numbers: the variants are compared game by game). Each
game gives one row of metrics (:mod:`rules_engine.core.metrics`).

Rows are stored in the cache folder per variant and batch of games, as soon as a batch is done:
``CACHE/<engine>/<fingerprint>/<start>-<stop>.json``. The fingerprint covers everything the games
depend on: the engine's code, the game's data as the engine sees it after the variant is applied, the
variant's parameters, the players, bots and seed. So an interrupted sweep resumes where it stopped, a
rerun with more games plays only the new ones, and a change of data or code starts afresh. Batches
are aligned to multiples of the batch size, so runs of different lengths share their batches.

The rows, and so every report made from them, are the same whatever played them: one process,
``--jobs N`` or a Dask cluster, in one go or resumed.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from pnp.loading.variants import Variant, apply
from rules_engine.core.metrics import Task, play_rows

#: Games per cached batch; smaller with a search bot (slow games keep every worker busy).
BATCH = 50
SEARCH_BATCH = 4

#: Version of the cache files' format (part of every fingerprint).
CACHE_FORMAT = 1


def batch_size(bots: Sequence[str]) -> int:
    return SEARCH_BATCH if any(b.split(":")[0] == "search" for b in bots) else BATCH


def code_fingerprint(engine_module) -> str:
    """A digest of the engine's source files and the engine core's: a change of code is a new cache."""
    import rules_engine.core as core

    files = sorted(Path(core.__file__).parent.glob("*.py"))
    origin = Path(engine_module.__file__)
    files += sorted(origin.parent.glob("*.py")) if origin.name == "__init__.py" else [origin]
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def data_fingerprint(game) -> str:
    """A digest of what the engine reads of a game: cards, factions, ranks, board, facts, deck rules."""
    text = repr((game.engine, game.cards, game.factions, game.ranks, game.pieces, game.holdings, game.map,
                 sorted(game.facts.items()), [(d.id, d.rules) for d in game.decks]))
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class Arm:
    """One variant of a sweep, ready to play: its varied game, compiled rules and cache key."""

    variant: Variant
    game: object
    rules: object
    key: str


class Sweep:
    """The variants of one question on the same seeds (see the module docstring).

    ``executor``: a :class:`~rules_engine.core.executors.LocalExecutor` or ``DaskExecutor``; ``cache``:
    the cache folder (None: no cache); ``progress(games, label)``: called as each batch is done.
    """

    def __init__(self, engine_module, game, *, players: int, bots: Sequence[str], seed: int, executor,
                 cache: str | Path | None = None):
        self.engine = engine_module
        self.game = game
        self.players = players
        self.bots = tuple(bots)
        self.seed = seed
        self.executor = executor
        self.cache = Path(cache) if cache else None
        self.batch = batch_size(self.bots)
        self._code = code_fingerprint(engine_module)
        self.played = 0             # games played (not read from the cache) by the last run

    def arm(self, variant: Variant) -> Arm:
        game = apply(self.game, variant, self.engine)
        rules = self.engine.rules_for(game)
        key = hashlib.sha256(json.dumps({
            "format": CACHE_FORMAT, "engine": self.engine.ENGINE.name, "code": self._code,
            "data": data_fingerprint(game), "parameters": sorted(variant.parameters.items()),
            "players": self.players, "bots": list(self.bots), "seed": self.seed,
        }, sort_keys=True, default=str).encode()).hexdigest()[:24]
        return Arm(variant, game, rules, key)

    # ------------------------------------------------------------------ the cache

    def _folder(self, arm: Arm) -> Path:
        return self.cache / self.engine.ENGINE.name / arm.key

    def _stored(self, arm: Arm) -> list[tuple[int, int, Path]]:
        folder = self._folder(arm) if self.cache else None
        if folder is None or not folder.is_dir():
            return []
        found = []
        for path in folder.glob("*.json"):
            start, _, stop = path.stem.partition("-")
            if start.isdigit() and stop.isdigit() and int(start) < int(stop):
                found.append((int(start), int(stop), path))
        return sorted(found)

    def _missing(self, arm: Arm, games: int) -> list[tuple[int, int]]:
        """The ranges of games ``0 .. games-1`` no stored batch holds, cut at multiples of the batch."""
        covered = [False] * games
        for start, stop, _ in self._stored(arm):
            for i in range(start, min(stop, games)):
                covered[i] = True
        ranges, i = [], 0
        while i < games:
            if covered[i]:
                i += 1
                continue
            j = i + 1
            while j < games and not covered[j] and j % self.batch:
                j += 1
            ranges.append((i, j))
            i = j
        return ranges

    def _write(self, arm: Arm, start: int, stop: int, rows: list) -> None:
        folder = self._folder(arm)
        folder.mkdir(parents=True, exist_ok=True)
        data = (json.dumps({"rows": rows}, sort_keys=True, separators=(",", ":")) + "\n").encode()
        handle, tmp = tempfile.mkstemp(dir=folder, prefix=f".{start}-{stop}.")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(tmp, folder / f"{start}-{stop}.json")
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def _read(self, arm: Arm, games: int) -> list:
        rows = {}
        for start, stop, path in self._stored(arm):
            if start >= games:
                continue
            try:
                stored = json.loads(path.read_text())["rows"]
            except (OSError, ValueError, KeyError, TypeError):
                continue                   # a damaged batch is played again next time
            for r in stored:
                if r["game"] < games:
                    rows.setdefault(r["game"], r)
        return [rows[i] for i in sorted(rows)]

    # ------------------------------------------------------------------ running

    def run(self, variants: Sequence[Variant], games: int, progress: Callable | None = None) -> list[list[dict]]:
        """Rows of games ``0 .. games-1`` of every variant, in game order (one list per variant)."""
        arms = [self.arm(v) for v in variants]
        return self.run_arms(arms, games, progress)

    def todo(self, arms: Sequence[Arm], games: int) -> list[Task]:
        """The batches still to play (every one when there is no cache)."""
        tasks, seen = [], set()
        for arm in arms:
            if arm.key in seen:
                continue
            seen.add(arm.key)
            ranges = self._missing(arm, games) if self.cache else \
                [(s, min(s + self.batch, games)) for s in range(0, games, self.batch)]
            tasks += [Task(arm.key, start, stop, tuple(sorted(arm.variant.parameters.items()))) for start, stop in ranges]
        return tasks

    def run_arms(self, arms: Sequence[Arm], games: int, progress: Callable | None = None) -> list[list[dict]]:
        tasks = self.todo(arms, games)
        names = {arm.key: arm.variant.name for arm in arms}
        fresh = {}
        by_key = {arm.key: arm for arm in arms}

        def done(i, rows):
            task = tasks[i]
            if self.cache:
                self._write(by_key[task.variant], task.start, task.stop, rows)
            else:
                fresh.setdefault(task.variant, []).extend(rows)
            if progress:
                progress(len(task), names[task.variant])

        self.played = sum(len(t) for t in tasks)
        if tasks:
            rules = {arm.key: arm.rules for arm in arms}
            self.executor.run(self.engine.ENGINE.name, rules, tasks, (self.seed, self.players, self.bots),
                              None, batch_function=play_rows, done=done)
        out = []
        for arm in arms:
            if self.cache:
                rows = self._read(arm, games)
            else:
                rows = sorted(fresh.get(arm.key, []), key=lambda r: r["game"])
            if len(rows) != games:
                raise RuntimeError(f"variant {arm.variant.name}: {len(rows)} of {games} games came back")
            out.append(rows)
        return out


class Timer:
    """Wall time of a block, for the throughput a report states."""

    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.seconds = time.perf_counter() - self.start
        return False
