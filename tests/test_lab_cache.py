"""The lab's sweep cache (issue 33, item 5; the checks are pnp.lab.sweep.batch_rows, the cases beyond
tests/test_cache_folder.py's): a batch damaged or edited in any way (truncated, emptied, flipped, edited,
swapped with another sweep's, forged with a matching SHA-256 but rows that are not its games', a link to
a device, to itself or to nothing, nested a million deep, a sparse gigabyte) is played again and written
anew: the rows are those of a run without the cache, the run never ends in a traceback, a hang or a
MemoryError, and the next run uses the batch written again. Random bit flips anywhere, likewise."""

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.lab.sweep import LAYOUT, Sweep, batch_bytes
from pnp.loading.gamedata import load_game
from pnp.loading.variants import BASE
from rules_engine import engine_module
from rules_engine.core.executors import LocalExecutor

GAME, ENGINE = load_game("shadow_throne"), engine_module("shadow_throne")
GAMES = 60                                  # two batches: 0-50 and 50-60


def sweep(cache) -> Sweep:
    return Sweep(ENGINE, GAME, players=4, bots=["random"], seed=4, executor=LocalExecutor(1), cache=cache)


def run(cache):
    """(rows of the base game, the sweep that played them)."""
    s = sweep(cache)
    return s.run_arms([s.arm(BASE)], GAMES)[0], s


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """(a cache folder holding both batches, the rows of a run without any cache)."""
    cache = tmp_path_factory.mktemp("clean") / "cache"
    rows, _ = run(cache)
    plain = sweep(None)
    assert plain.run_arms([plain.arm(BASE)], GAMES)[0] == rows
    return cache, rows


def batch(cache) -> Path:
    """The first batch's file (games 0-49) of the base game."""
    return cache / LAYOUT / "shadow_throne" / sweep(cache).arm(BASE).key / "0-50.json"


def _edit(path, change):
    doc = json.loads(path.read_text())
    change(doc["batch"])
    path.write_text(json.dumps(doc))


def _forge(path, change):
    """An edit written with a matching SHA-256: what the checks beyond the digest must catch."""
    batch = json.loads(path.read_text())["batch"]
    change(batch)
    path.write_bytes(batch_bytes(batch["key"], batch["start"], batch["stop"], batch["rows"]))


def _swap(path):
    """The same batch of a sweep with another seed copied over ``path``."""
    other = Sweep(ENGINE, GAME, players=4, bots=["random"], seed=5, executor=LocalExecutor(1),
                  cache=path.parents[3] / "other")
    other.run_arms([other.arm(BASE)], 50)
    shutil.copyfile(path.parents[3] / "other" / LAYOUT / "shadow_throne" / other.arm(BASE).key / path.name, path)


def _replace(path, make):
    path.unlink()
    make(path)


DAMAGE = {
    "truncated": lambda p: p.write_bytes(p.read_bytes()[: p.stat().st_size // 2]),
    "empty": lambda p: p.write_bytes(b""),
    "edited value": lambda p: _edit(p, lambda d: d["rows"][7]["metrics"].update(win_seat_1=1.0, win_seat_2=0.0)),
    "rows dropped": lambda p: _edit(p, lambda d: d["rows"].pop()),
    "no digest": lambda p: p.write_text(json.dumps(json.loads(p.read_text())["batch"])),
    "another sweep's batch": lambda p: _swap(p),
    "forged: rows not a list": lambda p: _forge(p, lambda d: d.update(rows={"0": 1})),
    "forged: a row not a mapping": lambda p: _forge(p, lambda d: d["rows"].__setitem__(3, [3])),
    "forged: games shifted": lambda p: _forge(p, lambda d: [r.update(game=r["game"] + 1) for r in d["rows"]]),
    "forged: a game number true": lambda p: _forge(p, lambda d: d["rows"][1].update(game=True)),
    "forged: too few rows": lambda p: _forge(p, lambda d: d.update(rows=d["rows"][:10])),
    "null": lambda p: p.write_text("null"),
    "not UTF-8": lambda p: p.write_bytes(b'{"rows": "\xff\xfe"}'),
    "nested a million deep": lambda p: p.write_text("[" * 1_000_000 + "]" * 1_000_000),
    "a sparse gigabyte": lambda p: os.truncate(p, 2**30),
    "a FIFO": lambda p: _replace(p, os.mkfifo),
    "a folder": lambda p: _replace(p, lambda q: (q.mkdir(), (q / "x.json").write_text("{}"))),
    "a link to /dev/zero": lambda p: _replace(p, lambda q: q.symlink_to("/dev/zero")),
    "a link to itself": lambda p: _replace(p, lambda q: q.symlink_to(q)),
    "a link to a missing file": lambda p: _replace(p, lambda q: q.symlink_to(q.parent / "gone.json")),
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_damaged_batch_is_played_again_and_written_anew(clean, tmp_path, damage):
    cache = tmp_path / "cache"
    shutil.copytree(clean[0], cache, symlinks=True)
    DAMAGE[damage](batch(cache))
    rows, played = run(cache)
    assert rows == clean[1]                                   # the rows of a run without the cache
    assert played.played == 50
    if damage == "a folder":                                  # nothing can be written where a folder is
        assert run(cache)[1].played == 50
        return
    assert batch(cache).is_file() and not batch(cache).is_symlink()
    assert json.loads(batch(cache).read_text())["batch"]["rows"] == clean[1][:50]
    assert run(cache)[1].played == 0
    assert sorted(p.name for p in batch(cache).parent.iterdir()) == ["0-50.json", "50-60.json"]


def test_names_that_are_no_batch_are_left_alone(clean, tmp_path):
    cache = tmp_path / "cache"
    shutil.copytree(clean[0], cache)
    folder = batch(cache).parent
    odd = ["\u00b2-5.json", "9" * 200 + "-1.json", "5-3.json", "notes.json", "0-50.json.bak", ".0-50.tmp"]
    for name in odd:
        (folder / name).write_text("not a batch")
    rows, played = run(cache)
    assert rows == clean[1] and played.played == 0
    assert all((folder / name).read_text() == "not a batch" for name in odd)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(flips=st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.integers(0, 7)), min_size=1, max_size=4),
       cut=st.one_of(st.none(), st.floats(0, 1)), which=st.sampled_from(["0-50.json", "50-60.json"]))
def test_random_damage_never_changes_the_rows(clean, flips, cut, which):
    """Bits flipped anywhere in a batch (and the file perhaps cut short): the rows are a clean run's."""
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "cache"
        shutil.copytree(clean[0], cache)
        path = batch(cache).parent / which
        data = bytearray(path.read_bytes())
        for where, bit in flips:
            data[int(where * len(data))] ^= 1 << bit
        if cut is not None:
            data = data[: int(cut * len(data))]
        path.write_bytes(bytes(data))
        rows, played = run(cache)
        assert rows == clean[1]
        assert played.played in (0, 50 if which == "0-50.json" else 10)

