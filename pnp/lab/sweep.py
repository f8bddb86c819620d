"""Sweeps: every variant of a question played on the same seeds, on any executor, cached on disk.

A sweep plays games ``0 .. games-1`` of each variant. Game ``i`` of every variant starts from the same
seed and seats the same bots (common random numbers: the variants are compared game by game). Each
game gives one row of metrics (:mod:`rules_engine.core.metrics`).

Rows are stored in the cache folder per variant and batch of games, as soon as a batch is done:
``CACHE/games-v2/<engine>/<fingerprint>/<start>-<stop>.json``. The fingerprint covers everything the games
depend on: the engine's code, the game's data as the engine sees it after the variant is applied, the
variant's parameters, the players, bots and seed. So an interrupted sweep resumes where it stopped, a
rerun with more games plays only the new ones, and a change of data or code starts afresh. Batches
are aligned to multiples of the batch size, so runs of different lengths share their batches.

The cache folder is pnp's alone (:mod:`pnp.cache.cachedir`: marked, and refused when it holds anything else).
A batch file holds its fingerprint, its range and its rows with the SHA-256 of them all, and is read
only when it is a regular file of at most :data:`MAX_BATCH_BYTES` whose content, fingerprint, range and
rows (one per game of the range, each numbered) check out; any other (damaged, edited, swapped, a FIFO)
counts as not played, and is played again and written anew.

The rows, and so every report made from them, are the same whatever played them: one process,
``--jobs N`` or a Dask cluster, in one go or resumed.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from pnp.cache import cachedir
from pnp.loading.variants import Variant, apply
from rules_engine.core.faults import current as limits
from rules_engine.core.metrics import Task, play_rows

#: Games per cached batch; smaller with a search bot (slow games keep every worker busy).
BATCH = 50
SEARCH_BATCH = 4

#: Version of the cache files' format (part of every fingerprint).
CACHE_FORMAT = 2
#: This format's subfolder of the cache folder.
LAYOUT = f"games-v{CACHE_FORMAT}"
#: A batch file larger than this is not one pnp wrote (a batch of 50 games takes some 50 KB).
MAX_BATCH_BYTES = 16 << 20
_BATCH_FILE = re.compile(r"(\d{1,12})-(\d{1,12})\.json")


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
        return self.cache / LAYOUT / self.engine.ENGINE.name / arm.key

    def _stored(self, arm: Arm, games: int | None = None) -> list[tuple[int, int, list]]:
        """(start, stop, rows) of every sound batch of ``arm`` in the cache (starting below ``games``)."""
        folder = self._folder(arm) if self.cache else None
        if folder is None or not cachedir.real_folder(folder) or cachedir.state(self.cache) != "ours":
            return []
        found = []
        for name in sorted(os.listdir(folder)):
            match = _BATCH_FILE.fullmatch(name)
            if not match or (games is not None and int(match[1]) >= games):
                continue
            start, stop = int(match[1]), int(match[2])
            rows = batch_rows(cachedir.read_regular(folder / name, MAX_BATCH_BYTES), arm.key, start, stop)
            if rows is not None:
                found.append((start, stop, rows))
        return sorted(found, key=lambda b: b[:2])

    def _missing(self, arm: Arm, games: int) -> list[tuple[int, int]]:
        """The ranges of games ``0 .. games-1`` no sound stored batch holds, cut at multiples of the batch."""
        covered = [False] * games
        for start, stop, _ in self._stored(arm, games):
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
        """Keep a batch (nothing when the cache folder is not pnp's or cannot be written: OSError)."""
        if not cachedir.make_ours(self.cache, earlier=earlier_layout, forget_earlier=forget_earlier_layout):
            raise OSError(f"the cache folder {self.cache} is not pnp's (see pnp/cache/cachedir.py)")
        folder = cachedir.subfolder(self.cache, LAYOUT, self.engine.ENGINE.name, arm.key)
        if folder is None:
            raise OSError(f"{self.cache / LAYOUT} holds something that is not a folder pnp made")
        cachedir.remove_stale_temporaries(folder, _BATCH_FILE)
        cachedir.write_file(folder / f"{start}-{stop}.json", batch_bytes(arm.key, start, stop, rows))

    def _read(self, arm: Arm, games: int) -> list:
        rows = {}
        for _, _, stored in self._stored(arm, games):
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
            fresh.setdefault(task.variant, []).extend(rows)
            if self.cache:
                try:                    # the cache is a help: a batch it cannot keep is played again next time
                    self._write(by_key[task.variant], task.start, task.stop, rows)
                except OSError:
                    pass
            if progress:
                progress(len(task), names[task.variant])

        self.played = sum(len(t) for t in tasks)
        if tasks:
            rules = {arm.key: arm.rules for arm in arms}
            self.executor.run(self.engine.ENGINE.name, rules, tasks, (self.seed, self.players, self.bots, limits()),
                              None, batch_function=play_rows, done=done)
        out = []
        for arm in arms:
            played = {r["game"]: r for r in fresh.get(arm.key, [])}
            kept = [r for r in self._read(arm, games) if r["game"] not in played] if self.cache else []
            rows = sorted(kept + list(played.values()), key=lambda r: r["game"])
            if len(rows) != games:
                raise RuntimeError(f"variant {arm.variant.name}: {len(rows)} of {games} games came back")
            out.append(rows)
        return out


def _canonical(batch: dict) -> bytes:
    return json.dumps(batch, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def batch_bytes(key: str, start: int, stop: int, rows: list) -> bytes:
    """A batch file: the rows of games ``start .. stop-1`` of the variant ``key``, with the SHA-256 of it all."""
    body = _canonical({"key": key, "start": start, "stop": stop, "rows": rows})
    return b'{"batch":' + body + b',"sha256":"' + hashlib.sha256(body).hexdigest().encode() + b'"}\n'


def batch_rows(data: bytes | None, key: str, start: int, stop: int) -> list | None:
    """The rows of a batch file (:func:`batch_bytes`) when it is sound and is the batch ``start-stop`` of
    ``key``: its SHA-256, fingerprint and range, and one row per game of the range, each a mapping whose
    ``game`` is that game's number. None otherwise (the batch is played again)."""
    if data is None:
        return None
    try:
        held = json.loads(data)
        if not (isinstance(held, dict) and set(held) == {"batch", "sha256"} and isinstance(held["batch"], dict)):
            return None
        batch = held["batch"]
        if hashlib.sha256(_canonical(batch)).hexdigest() != held["sha256"]:
            return None
    except (ValueError, UnicodeError, RecursionError, TypeError):
        return None
    rows = batch.get("rows")
    if not (batch.get("key") == key and batch.get("start") == start and batch.get("stop") == stop
            and isinstance(rows, list) and len(rows) == stop - start):
        return None
    if not all(isinstance(r, dict) and type(r.get("game")) is int for r in rows):
        return None
    if sorted(r["game"] for r in rows) != list(range(start, stop)):
        return None
    return rows


_OLD_KEY = re.compile(r"[0-9a-f]{24}")
_OLD_TEMPORARY = re.compile(r"\.\d{1,12}-\d{1,12}\.[A-Za-z0-9_]{1,16}")
_ENGINE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}")


def _earlier_files(folder) -> list | None:
    """The files of the lab cache of a pnp before cache folders were marked (``ENGINE/KEY/START-STOP.json``
    and the temporary files it wrote beside them), or None when ``folder`` holds anything else."""
    files = []
    try:
        for engine in os.listdir(folder):
            engine_path = os.path.join(folder, engine)
            if not (_ENGINE_NAME.fullmatch(engine) and cachedir.real_folder(engine_path)):
                return None
            for key in os.listdir(engine_path):
                key_path = os.path.join(engine_path, key)
                if not (_OLD_KEY.fullmatch(key) and cachedir.real_folder(key_path)):
                    return None
                for name in os.listdir(key_path):
                    path = os.path.join(key_path, name)
                    if not ((_BATCH_FILE.fullmatch(name) or _OLD_TEMPORARY.fullmatch(name))
                            and os.path.isfile(path) and not os.path.islink(path)):
                        return None
                    files.append(path)
    except OSError:
        return None
    return files or None            # a folder of empty folders is not known to be pnp's


def earlier_layout(folder, names) -> bool:
    """Whether ``folder`` (not marked) is a lab cache pnp made: one whose marks were lost (nothing but the
    marks and this format's folder), or an earlier pnp's (:func:`_earlier_files`)."""
    if all(n == LAYOUT or cachedir.marks_or_their_temporaries(n) for n in names):
        return LAYOUT not in names or cachedir.real_folder(os.path.join(folder, LAYOUT))
    return _earlier_files(folder) is not None


def forget_earlier_layout(folder) -> None:
    """Remove an earlier pnp's batches (of a format no longer read) and the folders they leave empty."""
    for path in _earlier_files(folder) or ():
        cachedir.remove_file(path)
    for engine in os.listdir(folder):
        if engine == LAYOUT or cachedir.marks_or_their_temporaries(engine):
            continue
        try:
            for key in os.listdir(os.path.join(folder, engine)):
                os.rmdir(os.path.join(folder, engine, key))         # only empty ones: else OSError
            os.rmdir(os.path.join(folder, engine))
        except OSError:
            continue


def claim(folder, option: str | None) -> None:
    """Refuse (exit 2, one line) a lab cache folder that is not pnp's (:func:`pnp.cache.cachedir.claim`)."""
    cachedir.claim(folder, option, earlier=earlier_layout, subfolders=(LAYOUT,))


class Timer:
    """Wall time of a block, for the throughput a report states."""

    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.seconds = time.perf_counter() - self.start
        return False
