"""The build cache never lies (pnp.cache.buildcache, pnp.cache.uptodate, pnp.cache.cachedir): every entry, its JSON as well as
its blobs, is checked against its key and its content before use, and a bad one is drawn again; the record
of a kit is "up to date" only when it names every file of the kit and each is in --out as written, reached
without a link; odd files in the cache (FIFOs, devices, links, a 3 GiB blob) neither block nor crash a build;
a build killed while it writes the cache leaves no temporary file after the next one.

Every build here is compared byte for byte with a --no-cache build of the same game (a `pnp new` starter,
small enough for a build in a fraction of a second)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cache import cachedir, uptodate
from pnp.cache.buildcache import BLOBS, ENTRIES, LAYOUT, BuildCache, entry_bytes
from pnp.commands.cli import main
from pnp.components import BuildOptions

ROOT = Path(__file__).resolve().parent.parent
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
UP_TO_DATE = "the kit there is up to date"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def kit_files(out: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.is_file()}


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """(game, cache folder, kit built with it, the kit's files from a --no-cache build): READ-ONLY."""
    base = tmp_path_factory.mktemp("integrity")
    game = base / "game"
    assert run("new", game).exit_code == 0
    reference = base / "reference"
    assert run("build", game, "--out", reference, "--no-cache", "--jobs", "1").exit_code == 0
    assert run("build", game, "--out", base / "kit", "--cache", base / "cache", "--jobs", "1").exit_code == 0
    return game, base / "cache", base / "kit", kit_files(reference)


@pytest.fixture
def setup(pristine, tmp_path):
    """A copy of the pristine cache and kit to damage: (game, cache, kit, reference files)."""
    game, cache, kit, reference = pristine
    shutil.copytree(cache, tmp_path / "cache", symlinks=True)
    shutil.copytree(kit, tmp_path / "kit", symlinks=True)
    return game, tmp_path / "cache", tmp_path / "kit", reference


def entries(cache: Path) -> dict:
    """Path -> the metadata of every entry file."""
    return {p: json.loads(p.read_text())["entry"] for p in sorted((cache / LAYOUT / ENTRIES).glob("*.json"))}


def build_into(game, out, cache):
    result = run("build", game, "--out", out, "--cache", cache, "--jobs", "1")
    assert result.exit_code == 0, result.output
    return result


# ---------------------------------------------------------------------- every entry is checked

def test_an_entry_whose_json_was_edited_is_not_used(setup, tmp_path):
    """Values edited in place (a title: a bookmark of kit.pdf; a page count; a warning) that leave valid JSON,
    as one flipped bit can: pnp checked only the blobs, and printed what the edited entries said."""
    game, cache, _, reference = setup
    edited = 0
    for path, meta in entries(cache).items():
        text = path.read_text()
        for old, new in (('"title":["', '"title":["Forged '), ('"page_count":', '"page_count":1'),
                         ('"warning":', '"warning": ')):
            if old in text:
                text = text.replace(old, new)
        if text != path.read_text():
            path.write_text(text)
            edited += 1
    assert edited >= 3
    build_into(game, tmp_path / "out", cache)
    assert kit_files(tmp_path / "out") == reference


def test_entries_whose_blobs_were_swapped_are_not_used(setup, tmp_path):
    """The list of blobs of kit.pdf's entry and of another drawn file's exchanged (each still names real,
    sound blobs): kit.pdf would be another file."""
    game, cache, _, reference = setup
    with_one_blob = [(p, m) for p, m in entries(cache).items() if len(m["blobs"]) == 1]
    merge = next((p, m) for p, m in with_one_blob if m["kind"] == "merge")
    other = next((p, m) for p, m in with_one_blob if m["kind"] != "merge")
    for (path, _), (_, meta) in ((merge, other), (other, merge)):
        held = json.loads(path.read_text())
        held["entry"]["blobs"], held["entry"]["sizes"] = meta["blobs"], meta["sizes"]
        path.write_text(json.dumps(held))
    build_into(game, tmp_path / "out", cache)
    assert kit_files(tmp_path / "out") == reference


def test_an_entry_moved_to_another_key_is_not_used(setup, tmp_path):
    game, cache, _, reference = setup
    paths = list(entries(cache))
    data = [p.read_bytes() for p in paths]
    for path, held in zip(paths, data[1:] + data[:1]):       # each entry's file under the next one's name
        path.write_bytes(held)
    build_into(game, tmp_path / "out", cache)
    assert kit_files(tmp_path / "out") == reference


# ---------------------------------------------------------------------- the kit's record

def record_of(cache: Path) -> Path:
    return next(p for p, m in entries(cache).items() if m["kind"] == "kit")


def test_a_kit_record_edited_to_list_no_files_is_not_up_to_date(setup):
    """The issue's case: every PDF of the kit deleted, its record edited to list no file: pnp said the kit
    (with no PDFs) was up to date. Whether the record's own SHA-256 is left or forged to match, the kit is
    built again."""
    game, cache, kit, reference = setup
    assert UP_TO_DATE in build_into(game, kit, cache).output
    path = record_of(cache)
    pristine_record = path.read_bytes()
    for forge in (False, True):
        for pdf in kit.glob("*.pdf"):
            pdf.unlink()
        held = json.loads(pristine_record)
        held["entry"]["files"] = []
        path.write_bytes(entry_bytes(held["entry"]) if forge else json.dumps(held).encode())
        result = build_into(game, kit, cache)
        assert UP_TO_DATE not in result.output, forge
        assert kit_files(kit) == reference
        path.write_bytes(pristine_record)


@pytest.mark.parametrize("change", ["missing", "changed", "link", "folder"])
def test_a_kit_file_missing_changed_or_replaced_in_out_means_a_build(setup, change, tmp_path):
    game, cache, kit, reference = setup
    target = kit / "cards-fronts.pdf"
    if change == "missing":
        target.unlink()
    elif change == "changed":
        data = bytearray(target.read_bytes())
        data[len(data) // 2] ^= 1
        target.write_bytes(bytes(data))
    elif change == "link":                  # the same bytes, but outside --out
        outside = tmp_path / "outside.pdf"
        outside.write_bytes(target.read_bytes())
        target.unlink()
        target.symlink_to(outside)
    else:
        target.unlink()
        target.mkdir()
        (target / "x").write_text("x")
    result = run("build", game, "--out", kit, "--cache", cache, "--jobs", "1")
    assert UP_TO_DATE not in result.output
    if change != "folder":
        assert result.exit_code == 0, result.output
        assert kit_files(kit) == reference
    else:                                    # a folder where a kit file goes: the writer refuses it
        assert result.exit_code == 2 and "is a folder, where pnp must write a file" in result.output


def test_a_kit_record_never_reads_a_file_through_a_link_in_out(setup, tmp_path):
    """A record naming a file below a folder of --out that is a link (a record pnp wrote names no such
    file: this one is forged, its SHA-256 made to match) is not up to date, and the file outside is not
    read: pnp hashed it and said the kit was up to date."""
    game, cache, kit, _ = setup
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.pdf").write_bytes(b"secret")
    (kit / "sub").symlink_to(outside)
    path = record_of(cache)
    held = json.loads(path.read_text())["entry"]
    held["files"].append(["sub/secret.pdf", hashlib.sha256(b"secret").hexdigest(), 6])
    path.write_bytes(entry_bytes(held))
    options = BuildOptions()
    key = uptodate.kit_key(game, kit, options, BuildCache(cache))
    assert uptodate.held(BuildCache(cache), key, kit, game) is None
    (kit / "sub").unlink()
    (kit / "sub").mkdir()
    (kit / "sub" / "secret.pdf").write_bytes(b"secret")      # the same file, really in --out: it would do
    assert uptodate.held(BuildCache(cache), key, kit, game) is not None


def test_the_files_every_kit_has_are_the_kits_own_names():
    from pnp.build.kit import KIT_FILE
    from pnp.components.manifest import MANIFEST_FILE
    from pnp.components.record import RECORD_FILE

    assert set(uptodate.KIT_FILES) == {KIT_FILE, MANIFEST_FILE, RECORD_FILE}


# ---------------------------------------------------------------------- odd files in the cache

def build_in_a_process(game, out, cache, memory: int | None = None, timeout: float = 120):
    """``pnp build`` in a process of its own (a FIFO read by mistake would hang it: it is killed after
    ``timeout``), with at most ``memory`` bytes of address space."""
    def limit():
        if memory is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return subprocess.run([sys.executable, "-m", "pnp", "build", str(game), "--out", str(out), "--cache", str(cache),
                           "--jobs", "1"], capture_output=True, text=True, timeout=timeout, env=ENV, cwd=ROOT,
                          preexec_fn=limit)


def test_fifos_devices_and_links_named_as_entries_neither_block_nor_are_used(setup, tmp_path):
    """A FIFO named as an entry or a blob hung every build; a device (here, one that reads as endless zeros)
    or a link to a file outside (with the very bytes of the blob) is refused as well. The build draws those
    entries again (and writes the ones it looked up as files in their place); nothing outside is touched."""
    game, cache, _, reference = setup
    metas = list(entries(cache))
    blobs = sorted((cache / LAYOUT / BLOBS).glob("*.blob"))
    os.unlink(metas[0])
    os.mkfifo(metas[0])
    os.unlink(blobs[0])
    os.mkfifo(blobs[0])
    outside = tmp_path / "outside"
    outside.mkdir()
    for path in (metas[1], blobs[1]):
        (outside / path.name).write_bytes(path.read_bytes())
        path.unlink()
        path.symlink_to(outside / path.name)
    odd = [metas[0], blobs[0], metas[1], blobs[1]]
    try:
        os.unlink(blobs[2])
        os.mknod(blobs[2], stat.S_IFCHR | 0o600, os.makedev(1, 5))       # /dev/zero
        odd.append(blobs[2])
    except PermissionError:
        pass                                # not allowed to make a device here: the FIFOs and links still count
    before = {p.name: p.read_bytes() for p in outside.iterdir()}
    result = build_in_a_process(game, tmp_path / "out", cache)
    assert result.returncode == 0, result.stderr
    assert kit_files(tmp_path / "out") == reference
    assert {p.name: p.read_bytes() for p in outside.iterdir()} == before
    assert any(stat.S_ISREG(os.lstat(path).st_mode) for path in odd)     # those looked up: written anew
    again = build_in_a_process(game, tmp_path / "again", cache)
    assert again.returncode == 0, again.stderr
    assert kit_files(tmp_path / "again") == reference


def test_a_huge_blob_is_not_read(setup, tmp_path):
    """A blob of 3 GiB (sparse) in place of a kit's blob: pnp read it whole (MemoryError, exit 70, under a
    1 GiB memory limit). Its size, which the entry records, is checked first; the blob is drawn again."""
    game, cache, _, reference = setup
    blob = max((cache / LAYOUT / BLOBS).glob("*.blob"), key=lambda p: p.stat().st_size)
    with open(blob, "r+b") as f:
        f.truncate(3 << 30)
    result = build_in_a_process(game, tmp_path / "out", cache, memory=1 << 30)
    assert result.returncode == 0, result.stderr
    assert kit_files(tmp_path / "out") == reference
    assert blob.stat().st_size < 1 << 20                    # written anew, as it should be


# ---------------------------------------------------------------------- temporary files

KILLED_WHILE_WRITING = """
import os, signal, sys
from pnp.cache import cachedir
real, calls, killed_at = cachedir.write_file, [], int(sys.argv[1])

def write_file(target, data):
    calls.append(target)
    if len(calls) == killed_at:      # this write: its temporary file half written, then killed
        tmp = target.with_name(f".{target.name}.{'0123456789abcdef'}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
        os.write(fd, data[: len(data) // 2])
        os.kill(os.getpid(), signal.SIGKILL)
    return real(target, data)

cachedir.write_file = write_file
sys.argv = ["pnp"] + sys.argv[2:]
from pnp.program import run
run()
"""


@pytest.mark.parametrize("write", [1, 4])
def test_a_build_killed_while_it_writes_the_cache_leaves_no_temporary_after_the_next(pristine, tmp_path, write):
    """``kill -9`` in the middle of writing the cache (the marks, a blob, an entry): the next build removes the
    temporary file the killed one left, and its kit is the --no-cache kit."""
    game, _, _, reference = pristine
    cache = tmp_path / "cache"
    killed = subprocess.run([sys.executable, "-c", KILLED_WHILE_WRITING, str(write), "build", str(game), "--out",
                             str(tmp_path / "out"), "--cache", str(cache), "--jobs", "1"],
                            capture_output=True, text=True, timeout=120, env=ENV, cwd=ROOT)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert [p for p in cache.rglob("*.tmp")], "the killed build left a temporary file"
    build_into(game, tmp_path / "out", cache)
    assert [p for p in cache.rglob("*.tmp")] == []
    assert kit_files(tmp_path / "out") == reference


def test_a_temporary_file_being_written_is_left_alone(tmp_path):
    """Only a temporary file that no process holds (its writer was killed) is removed: one being written by a
    running build (another process using the same cache) is not."""
    import fcntl

    target = tmp_path / ("a" * 32 + ".json")
    tmp = tmp_path / f".{target.name}.{'f' * 16}.tmp"
    with open(tmp, "wb") as f:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX)
        assert cachedir.remove_stale_temporaries(tmp_path) == 0 and tmp.exists()
    assert cachedir.remove_stale_temporaries(tmp_path) == 1 and not tmp.exists()
    stranger = tmp_path / ".notes.txt.tmp"
    stranger.write_text("mine")                 # not a name pnp gives: never removed
    assert cachedir.remove_stale_temporaries(tmp_path) == 0 and stranger.exists()
