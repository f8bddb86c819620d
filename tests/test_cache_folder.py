"""A cache folder is pnp's alone (pnp.cache.cachedir): pnp marks the folders it keeps a cache in, refuses (exit 2,
one line) a folder that holds anything else, and deletes only files it named itself, in its own subfolders.
Every command that keeps a cache: build, validate, watch, the studio's kit build, the lab."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cache import buildcache, cachedir
from pnp.cache.buildcache import BLOBS, ENTRIES, FOLDER, LAYOUT, BuildCache
from pnp.commands.cli import main
from pnp.components import BuildOptions

REFUSED = "this folder holds files pnp did not put there"


@pytest.fixture(scope="module")
def starter(tmp_path_factory) -> Path:
    """A `pnp new` starter game (small: a build takes a fraction of a second). Tests copy it."""
    root = tmp_path_factory.mktemp("starter") / "game"
    result = CliRunner().invoke(main, ["new", str(root)])
    assert result.exit_code == 0, result.output
    return root


@pytest.fixture
def game(starter, tmp_path) -> Path:
    dest = tmp_path / "game"
    shutil.copytree(starter, dest)
    return dest


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def listing(folder: Path) -> dict:
    """Every file under ``folder`` with its bytes' size and modification time."""
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def users_folder(tmp_path) -> Path:
    """The issue's folder: a manifest a month old and a video of 600 MB (sparse: it takes no room)."""
    folder = tmp_path / "f"
    folder.mkdir()
    (folder / "package.json").write_text("{}\n")
    month_ago = os.path.getmtime(folder / "package.json") - 30 * 86400
    os.utime(folder / "package.json", (month_ago, month_ago))
    with open(folder / "v.mp4", "wb") as f:
        f.truncate(600 << 20)
    return folder


def test_build_refuses_a_cache_folder_of_the_users_files_and_deletes_nothing(game, tmp_path):
    folder = users_folder(tmp_path)
    before = listing(folder)
    result = run("build", game, "--out", tmp_path / "o", "--cache", folder, "--jobs", "1")
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and f"--cache {folder}" in lines[0] and REFUSED in lines[0], result.output
    assert "--no-cache" in lines[0]
    assert listing(folder) == before                     # package.json kept; nothing written
    assert not (tmp_path / "o").exists()                 # refused before any work


def test_validate_refuses_a_cache_folder_of_the_users_files(game, tmp_path):
    folder = users_folder(tmp_path)
    before = listing(folder)
    result = run("validate", game, "--cache", folder)
    assert result.exit_code == 2, result.output
    assert len(result.output.strip().splitlines()) == 1 and REFUSED in result.output
    assert listing(folder) == before


def test_watch_refuses_it_before_it_starts(game, tmp_path):
    folder = users_folder(tmp_path)
    before = listing(folder)
    result = run("watch", game, "--out", tmp_path / "o", "--cache", folder)
    assert result.exit_code == 2, result.output
    assert REFUSED in result.output and listing(folder) == before


def test_the_default_cache_folder_in_out_is_refused_when_it_is_the_users(game, tmp_path):
    out = tmp_path / "o"
    (out / FOLDER).mkdir(parents=True)
    (out / FOLDER / "notes.json").write_text("[]")
    result = run("build", game, "--out", out, "--jobs", "1")
    assert result.exit_code == 2, result.output
    assert f"{out / FOLDER}: this folder" in result.output and "--cache" not in result.output.split(":")[0]
    assert (out / FOLDER / "notes.json").read_text() == "[]"


def test_the_studio_build_refuses_it_too(game, tmp_path):
    from pnp.errors import UserError
    from pnp.serve.tasks import build

    out = tmp_path / "o"
    (out / FOLDER).mkdir(parents=True)
    (out / FOLDER / "notes.json").write_text("[]")
    with pytest.raises(UserError, match=REFUSED):
        build("kit", game, out, BuildOptions(), 1)
    assert sorted(p.name for p in (out / FOLDER).iterdir()) == ["notes.json"]


def test_a_link_named_as_the_cache_is_refused(game, tmp_path):
    target = tmp_path / "elsewhere"
    target.mkdir()
    (tmp_path / "c").symlink_to(target)
    result = run("build", game, "--out", tmp_path / "o", "--cache", tmp_path / "c", "--jobs", "1")
    assert result.exit_code == 2, result.output
    assert "is a symbolic link, not a folder" in result.output
    assert list(target.iterdir()) == []


def test_a_file_where_the_default_cache_folder_goes_is_refused(game, tmp_path):
    out = tmp_path / "o"
    out.mkdir()
    (out / FOLDER).write_text("mine")
    result = run("build", game, "--out", out, "--jobs", "1")
    assert result.exit_code == 2, result.output
    assert "is a file, not a folder" in result.output and (out / FOLDER).read_text() == "mine"


def test_an_empty_or_new_folder_is_made_pnps_and_marked(game, tmp_path):
    for folder in (tmp_path / "new" / "cache", tmp_path / "empty"):
        if folder.name == "empty":
            folder.mkdir()
        result = run("build", game, "--out", tmp_path / "o", "--cache", folder, "--jobs", "1")
        assert result.exit_code == 0, result.output
        assert (folder / cachedir.TAG).read_bytes().startswith(cachedir.TAG_SIGNATURE)
        assert json.loads((folder / cachedir.MARKER).read_text())["mark"] == cachedir.MARK
        assert sorted(p.name for p in folder.iterdir()) == sorted([cachedir.TAG, cachedir.MARKER, LAYOUT])
        assert any((folder / LAYOUT / ENTRIES).iterdir()) and any((folder / LAYOUT / BLOBS).iterdir())
        again = run("build", game, "--out", tmp_path / "o", "--cache", folder, "--jobs", "1")
        assert again.exit_code == 0 and "up to date" in again.output


def test_pruning_removes_only_pnps_own_files(game, tmp_path, monkeypatch):
    """Past the size limit, the entries used longest ago go, and nothing else: not a file of the user's put in
    the marked folder or in pnp's own subfolders, whatever its name or age."""
    folder = tmp_path / "cache"
    assert run("build", game, "--out", tmp_path / "o", "--cache", folder, "--jobs", "1").exit_code == 0
    layout = folder / LAYOUT
    month_ago = os.path.getmtime(layout) - 30 * 86400
    strangers = [folder / "package.json", layout / "notes.json", layout / ENTRIES / "package.json",
                 layout / ENTRIES / ("0" * 31 + ".json"), layout / BLOBS / "photo.blob",
                 layout / ENTRIES / ".notes.json.0123456789abcdef.tmp"]
    for path in strangers:
        path.write_text("{}")
        os.utime(path, (month_ago, month_ago))
    with open(folder / "v.mp4", "wb") as f:
        f.truncate(600 << 20)
    entries = {p.name for p in (layout / ENTRIES).glob("*.json")} - {p.name for p in strangers}
    for path in (layout / ENTRIES).glob("*.json"):
        os.utime(path, (month_ago, month_ago))
    monkeypatch.setattr(buildcache, "MAX_BYTES", 1)     # every entry but those used now must go
    edit = game / "cards.csv"
    edit.write_text(edit.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    cache = BuildCache(folder).claim()
    from pnp.cache import memo as file_caches
    from pnp.build.kit import build_kit

    file_caches.clear()
    build_kit(str(game), tmp_path / "o", BuildOptions(), cache=cache)
    assert all(p.read_text() == "{}" for p in strangers)
    assert (folder / "v.mp4").stat().st_size == 600 << 20
    left = {p.name for p in (layout / ENTRIES).glob("*.json")}
    assert left - {p.name for p in strangers} <= {f"{k}.json" for k in cache.used}
    assert entries - left, "the entries used longest ago were pruned"


def test_an_earlier_pnps_default_cache_folder_is_taken_over(game, tmp_path):
    """A build cache of pnp before cache folders were marked (entries and blobs side by side, unmarked) keeps
    working: its files are recognised by their names and contents, removed, and the folder marked."""
    import hashlib

    out = tmp_path / "o"
    old = out / FOLDER
    old.mkdir(parents=True)
    blob = b"%PDF-1.4 an old drawing"
    sha = hashlib.sha256(blob).hexdigest()
    (old / f"{sha}.blob").write_bytes(blob)
    key = "0123456789abcdef0123456789abcdef"
    (old / f"{key}.json").write_text(json.dumps({"kind": "rendered", "mark": "pnp build cache", "format": 1,
                                                 "key": key, "blobs": [sha]}))
    (old / f".{key}.json.0badf00d.tmp").write_text("{")
    result = run("build", game, "--out", out, "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in old.iterdir()) == sorted([cachedir.TAG, cachedir.MARKER, LAYOUT])
    assert "up to date" in run("build", game, "--out", out, "--jobs", "1").output


def test_a_folder_that_only_looks_like_an_earlier_cache_is_refused(game, tmp_path):
    """Names alone do not make a folder pnp's: an entry must say it is pnp's entry for its name."""
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / ("a" * 32 + ".json")).write_text('{"name": "my data"}')
    result = run("build", game, "--out", tmp_path / "o", "--cache", folder, "--jobs", "1")
    assert result.exit_code == 2 and REFUSED in result.output
    assert [p.name for p in folder.iterdir()] == ["a" * 32 + ".json"]


def test_a_marked_folder_whose_subfolder_is_a_link_is_refused(game, tmp_path):
    folder = tmp_path / "c"
    assert run("build", game, "--out", tmp_path / "o", "--cache", folder, "--jobs", "1").exit_code == 0
    elsewhere = tmp_path / "elsewhere"
    (folder / LAYOUT).rename(elsewhere)
    (folder / LAYOUT).symlink_to(elsewhere)
    before = listing(elsewhere)
    result = run("build", game, "--out", tmp_path / "o", "--cache", folder, "--jobs", "1", "--no-cache")
    assert result.exit_code == 2 and "--cache and --no-cache" in result.output
    result = run("build", game, "--out", tmp_path / "o", "--cache", folder, "--jobs", "1")
    assert result.exit_code == 2, result.output
    assert f"holds {LAYOUT}, which is not a folder pnp made" in result.output
    assert listing(elsewhere) == before


# ---------------------------------------------------------------------- the lab's cache of played games

def lab_sweep(cache):
    from pnp.lab.sweep import Sweep
    from pnp.loading.gamedata import load_game
    from rules_engine import engine_module
    from rules_engine.core.executors import LocalExecutor

    game, engine = load_game("behind_the_throne"), engine_module("behind_the_throne")
    return Sweep(engine, game, players=4, bots=["random"], seed=3, executor=LocalExecutor(1), cache=cache)


def test_the_lab_refuses_a_cache_folder_of_the_users_files(tmp_path):
    folder = users_folder(tmp_path)
    before = listing(folder)
    result = run("lab", "behind_the_throne", "compare", "base", "base", "--games", 4, "--out", tmp_path / "lab",
                 "--cache", folder)
    assert result.exit_code == 2, result.output
    assert len(result.output.strip().splitlines()) == 1 and REFUSED in result.output
    assert listing(folder) == before


def test_the_lab_marks_its_cache_and_takes_over_an_earlier_pnps(tmp_path):
    """The lab's default cache, OUT/cache, as an earlier pnp left it (ENGINE/KEY/START-STOP.json, unmarked)."""
    from pnp.lab.sweep import LAYOUT as GAMES

    old = tmp_path / "lab" / "cache" / "behind_the_throne" / ("0123456789abcdef" + "01234567")
    old.mkdir(parents=True)
    (old / "0-50.json").write_text('{"rows": []}')
    (old / ".0-50.abc123xy").write_text('{"ro')
    args = ["lab", "behind_the_throne", "compare", "base", "base", "--games", 4, "--out", tmp_path / "lab"]
    result = run(*args)
    assert result.exit_code == 0, result.output
    cache = tmp_path / "lab" / "cache"
    assert sorted(p.name for p in cache.iterdir()) == sorted([cachedir.TAG, cachedir.MARKER, GAMES])
    assert len(list((cache / GAMES).rglob("*.json"))) == 1
    assert run(*args).output == result.output


def test_a_damaged_or_edited_batch_of_games_is_played_again(tmp_path):
    """The lab used an edited batch (a metric changed, still JSON) as it was, and ended in exit 70, a hang or
    MemoryError on damaged ones, the same at every run until the cache was deleted by hand. Now each is
    played again, its file written anew, and the rows are those of a run without the cache."""
    from pnp.loading.variants import BASE

    fresh = lab_sweep(None)
    expected = fresh.run_arms([fresh.arm(BASE)], 4)
    cache = tmp_path / "cache"
    first = lab_sweep(cache)
    assert first.run_arms([first.arm(BASE)], 4) == expected
    batch = next(cache.rglob("0-4.json"))
    good = batch.read_bytes()
    held = json.loads(good)
    row = held["batch"]["rows"][0]
    metric = next(k for k, v in row.items() if type(v) is int and k != "game")
    swapped = json.loads(good)
    swapped["batch"]["rows"][0], swapped["batch"]["rows"][1] = swapped["batch"]["rows"][1], swapped["batch"]["rows"][0]
    damages = {
        "a metric edited": lambda: batch.write_text(good.decode().replace(f'"{metric}":{row[metric]}',
                                                                          f'"{metric}":{row[metric] + 7}', 1)),
        "rows swapped": lambda: batch.write_text(json.dumps(swapped)),
        "truncated": lambda: batch.write_bytes(good[: len(good) // 2]),
        "no rows": lambda: batch.write_text('{"rows": {"game": 0}}'),
        "deep": lambda: batch.write_text("[" * 100_000),
        "a FIFO": lambda: (batch.unlink(), os.mkfifo(batch)),
        "huge": lambda: (batch.write_bytes(good), os.truncate(batch, 3 << 30)),
        "a folder": lambda: (batch.unlink(), batch.mkdir()),
    }
    for name, damage in damages.items():
        damage()
        again = lab_sweep(cache)
        assert again.run_arms([again.arm(BASE)], 4) == expected, name
        assert again.played == 4, name
        if name != "a folder":
            assert batch.read_bytes() == good, name           # written anew
        else:
            batch.rmdir()
            batch.write_bytes(good)
