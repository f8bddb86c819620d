"""pnp build's fast path (pnp.cache.uptodate): a kit whose inputs have not changed is not built again, and
every input of a build changes the key that says so."""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import fields, replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp import DATA_DIR
from pnp.cache import buildcache, uptodate
from pnp.cache import memo as file_caches
from pnp.cache.buildcache import FOLDER, BuildCache
from pnp.commands.cli import main
from pnp.components import BuildOptions
from pnp.build.kit import build_kit

UP_TO_DATE = "the kit there is up to date"


def copy_game(name: str, tmp_path: Path) -> Path:
    game = tmp_path / name
    shutil.copytree(DATA_DIR / name, game)
    return game


def kit_files(out: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.is_file()}


def stamps(out: Path) -> dict:
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in sorted(out.iterdir()) if p.is_file()}


def build(*args):
    result = CliRunner().invoke(main, ["build", *map(str, args), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    return result


def test_a_kit_whose_inputs_did_not_change_is_not_built_again(tmp_path):
    game = copy_game("behind_the_throne", tmp_path)
    out = tmp_path / "out"
    first = build(game, "--out", out)
    assert UP_TO_DATE not in first.stderr
    files, before = kit_files(out), stamps(out)
    again = build(game, "--out", out)
    assert UP_TO_DATE in again.stderr
    assert again.stdout == first.stdout                  # the same files and pages listed
    assert stamps(out) == before                         # nothing written
    # an edit: built again, byte for byte what a clean build writes, then up to date again
    path = game / "cards.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("name: General", "name: General Staff", 1),
                    encoding="utf-8")
    edited = build(game, "--out", out)
    assert UP_TO_DATE not in edited.stderr
    assert kit_files(out) != files
    build(game, "--out", tmp_path / "clean", "--no-cache")
    assert kit_files(out) == kit_files(tmp_path / "clean")
    assert UP_TO_DATE in build(game, "--out", out).stderr


@pytest.mark.parametrize("damage", ["changed", "deleted", "truncated"])
def test_a_kit_file_changed_in_out_is_built_again(tmp_path, damage):
    game = copy_game("behind_the_throne", tmp_path)
    out = tmp_path / "out"
    build(game, "--out", out)
    files = kit_files(out)
    target = out / "kit.pdf"
    if damage == "changed":
        data = bytearray(target.read_bytes())
        data[len(data) // 2] ^= 1                      # the same size, one bit off
        target.write_bytes(bytes(data))
    elif damage == "deleted":
        target.unlink()
    else:
        target.write_bytes(target.read_bytes()[:100])
    again = build(game, "--out", out)
    assert UP_TO_DATE not in again.stderr
    assert kit_files(out) == files


def test_warnings_are_told_again_when_the_kit_is_up_to_date(tmp_path):
    game = copy_game("behind_the_throne", tmp_path)
    out = tmp_path / "out"
    first = build(game, "--out", out, "--back-offset", "9,0")       # backs moved into the printer's margin
    warned = [line for line in first.stderr.splitlines() if "--back-offset" in line]
    assert warned, first.stderr
    again = build(game, "--out", out, "--back-offset", "9,0")
    assert UP_TO_DATE in again.stderr
    assert [line for line in again.stderr.splitlines() if "--back-offset" in line] == warned


def test_no_fast_path_without_the_cache_or_with_changed_since(tmp_path):
    game = copy_game("behind_the_throne", tmp_path)
    out = tmp_path / "out"
    build(game, "--out", out)
    assert UP_TO_DATE not in build(game, "--out", out, "--no-cache").stderr
    assert UP_TO_DATE not in build(game, "--out", out, "--changed-since", out).stderr
    cache = BuildCache(out / FOLDER)
    assert uptodate.kit_key(game, out, BuildOptions(changed_since=str(out)), cache) is None
    assert uptodate.kit_key(game, out, BuildOptions(), BuildCache(None)) is None
    assert uptodate.kit_key(tmp_path / "no-such-game", out, BuildOptions(), cache) is None


# ---------------------------------------------------------------------- every input changes the key

def key_of(game, out, options=BuildOptions()):
    return uptodate.kit_key(game, out, options, BuildCache(out / FOLDER))


OTHER_VALUES = {"paper": "a4", "flip": "short", "lang": "es", "sleeved": "thin", "booklet_flip": "long",
                "thorough": False, "bleed": 3.0, "back_offset": (1.0, 0.0), "ink_saver": True, "players": 3,
                "allow_missing": True, "cards": "gutterfold", "cutter": "silhouette"}


def test_every_build_option_changes_the_key(tmp_path):
    game = copy_game("behind_the_throne", tmp_path)
    out = tmp_path / "out"
    base = key_of(game, out)
    assert key_of(game, out) == base
    keys = {base}
    for f in fields(BuildOptions):
        if f.name == "changed_since":           # no fast path at all (above)
            continue
        assert f.name in OTHER_VALUES, f"a new build option {f.name}: give it another value here"
        key = key_of(game, out, replace(BuildOptions(), **{f.name: OTHER_VALUES[f.name]}))
        assert key not in keys, f.name
        keys.add(key)


@pytest.mark.parametrize("change", ["edited", "added", "removed", "renamed", "same size"])
def test_every_file_of_the_game_folder_changes_the_key(tmp_path, change):
    game = copy_game("behind_the_throne", tmp_path)
    out = tmp_path / "out"
    base = key_of(game, out)
    if change == "edited":
        (game / "box.yaml").write_text((game / "box.yaml").read_text(encoding="utf-8") + "\n# edited\n",
                                       encoding="utf-8")
    elif change == "added":
        (game / "notes").mkdir()
        (game / "notes" / "x.txt").write_text("x", encoding="utf-8")
    elif change == "removed":
        (game / "box.yaml").unlink()
    elif change == "renamed":
        (game / "box.yaml").rename(game / "box2.yaml")
    else:
        # the same size and modification time, other bytes: the bytes are hashed, not the stamps
        path = game / "cards.yaml"
        st = path.stat()
        data = bytearray(path.read_bytes())
        data[-2] = ord("x") if data[-2] != ord("x") else ord("y")
        path.write_bytes(bytes(data))
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert key_of(game, out) != base


def test_the_output_and_cache_folders_inside_the_game_folder_are_not_inputs(tmp_path):
    game = copy_game("behind_the_throne", tmp_path)
    out = game / "output"
    base = key_of(game, out)
    build(game, "--out", out)
    assert (out / FOLDER).is_dir()
    assert key_of(game, out) == base
    assert UP_TO_DATE in build(game, "--out", out).stderr


def test_the_game_folder_elsewhere_changes_the_key(tmp_path):
    game = copy_game("behind_the_throne", tmp_path)
    other = copy_game("behind_the_throne", tmp_path / "elsewhere")
    assert key_of(game, tmp_path / "out") != key_of(other, tmp_path / "out")


def test_the_environment_changes_the_key(tmp_path, monkeypatch):
    game = copy_game("behind_the_throne", tmp_path)
    out = tmp_path / "out"
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    base = key_of(game, out)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    dated = key_of(game, out)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000001")
    assert len({base, dated, key_of(game, out)}) == 3
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    monkeypatch.setenv("PNP_SOMETHING_NEW", "1")
    assert key_of(game, out) != base


def test_pnp_python_and_the_installed_packages_change_the_key(tmp_path, monkeypatch):
    game = copy_game("behind_the_throne", tmp_path)
    out = tmp_path / "out"
    base = key_of(game, out)
    # pnp's code, templates, fonts (the stamps of their files) and the libraries' versions
    stamp = buildcache._code_stamp()
    monkeypatch.setattr(buildcache, "_code_stamp", lambda: buildcache.digest(stamp, "another version"))
    assert key_of(game, out) != base
    monkeypatch.setattr(buildcache, "_code_stamp", lambda: stamp)
    assert key_of(game, out) == base
    # Python itself
    monkeypatch.setattr(sys, "version", sys.version + " (another build)")
    assert key_of(game, out) != base
    monkeypatch.undo()
    # a package installed or upgraded where Python looks for modules
    site = tmp_path / "site"
    (site / "somelib-1.0.dist-info").mkdir(parents=True)
    monkeypatch.setattr(sys, "path", sys.path + [str(site)])
    one = key_of(game, out)
    (site / "somelib-1.0.dist-info").rename(site / "somelib-1.1.dist-info")
    assert len({base, one, key_of(game, out)}) == 3


def test_the_code_stamp_holds_templates_and_fonts(tmp_path, monkeypatch):
    """Bundled templates (layouts, strings, the rulebook's) and fonts are stamped file by file."""
    for name in ("TEMPLATES_DIR", "FONTS_DIR"):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "f").write_text("1", encoding="utf-8")
        monkeypatch.setattr(buildcache, name, folder)
        buildcache._code_stamp.cache_clear()
        before = buildcache._code_stamp()
        (folder / "f").write_text("22", encoding="utf-8")
        buildcache._code_stamp.cache_clear()
        assert buildcache._code_stamp() != before, name
    monkeypatch.undo()
    buildcache._code_stamp.cache_clear()


def test_a_library_file_changed_in_place_is_built_again(tmp_path, monkeypatch):
    """The record lists the module files the build loaded from outside pnp (a library edited in place,
    whose version stays the same, is noticed)."""
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "pnp_test_edited_lib.py").write_text("VALUE = 1\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(lib))
    import pnp_test_edited_lib  # noqa: F401  (loaded while the kit is built)

    game = copy_game("behind_the_throne", tmp_path)
    out = tmp_path / "out"
    cache = BuildCache(out / FOLDER)
    key = uptodate.kit_key(game, out, BuildOptions(), cache)
    file_caches.clear()
    build_kit(str(game), out, BuildOptions(), cache=cache, kit_key=key)
    assert uptodate.held(BuildCache(out / FOLDER), key, out, game) is not None
    path = lib / "pnp_test_edited_lib.py"
    path.write_text("VALUE = 22\n", encoding="utf-8")
    assert uptodate.held(BuildCache(out / FOLDER), key, out, game) is None
    monkeypatch.delitem(sys.modules, "pnp_test_edited_lib")


def test_an_edit_while_the_kit_is_built_records_nothing(tmp_path):
    """The key is taken before the build reads anything: when the game folder changed meanwhile, the kit
    written is not recorded under the old key (an edit undone later would find a kit of the other data)."""
    game = copy_game("behind_the_throne", tmp_path)
    out = tmp_path / "out"
    cache = BuildCache(out / FOLDER)
    key = uptodate.kit_key(game, out, BuildOptions(), cache)
    path = game / "cards.yaml"
    original = path.read_bytes()
    path.write_bytes(original.replace(b"name: General", b"name: General Staff", 1))     # read by the build
    file_caches.clear()
    build_kit(str(game), out, BuildOptions(), cache=cache, kit_key=key)
    path.write_bytes(original)
    assert uptodate.kit_key(game, out, BuildOptions(), BuildCache(out / FOLDER)) == key
    assert uptodate.held(BuildCache(out / FOLDER), key, out, game) is None


def test_a_record_naming_files_outside_out_is_ignored(tmp_path):
    game = copy_game("behind_the_throne", tmp_path)
    out = tmp_path / "out"
    build(game, "--out", out)
    cache = BuildCache(out / FOLDER)
    key = uptodate.kit_key(game, out, BuildOptions(), cache)
    found = cache.get(uptodate._record_key(key))
    assert found is not None
    meta = found[0]
    secret = tmp_path / "secret"
    secret.write_bytes(b"x")
    import hashlib

    for name in ("../secret", str(secret), "a/../../secret"):
        cache.put(uptodate._record_key(key), {**meta, "files": [[name, hashlib.sha256(b"x").hexdigest(), 1]]}, [])
        assert uptodate.held(cache, key, out, game) is None
