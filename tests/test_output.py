"""pnp.build.output: the output folder holds the whole old set of files or the whole new one, whatever happens
(a failure, Ctrl-C, kill -9 at any step, including inside the swap), files pnp did not write are kept,
and an export removes only files whose bytes are still those it wrote."""

import errno
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import pnp.build.output as output
from pnp.build.output import OutputError, read_record, recover, write_atomically

ROOT = Path(__file__).resolve().parent.parent
RECORD = ".pnp-export-cards.json"


def snapshot(folder: Path) -> dict:
    """Every file below ``folder`` (links as what they point to): relative path -> bytes."""
    found = {}
    for path in sorted(folder.rglob("*")):
        if path.is_symlink():
            found[path.relative_to(folder).as_posix()] = ("link", os.readlink(path))
        elif path.is_file():
            found[path.relative_to(folder).as_posix()] = path.read_bytes()
    return found


def leftovers(out: Path) -> list:
    names = [p.name for p in out.parent.iterdir() if p != out]
    if out.is_dir():
        names += [p.relative_to(out).as_posix() for p in out.rglob(".pnp-*")
                  if not p.name.startswith(".pnp-export")]
    return names


# ----------------------------------------------------------------------------- the swap, in-process

def test_a_new_kit_replaces_the_old_one_and_keeps_everything_else(tmp_path):
    out = tmp_path / "kit"
    write_atomically(out, {"kit.pdf": b"old kit", "cards.pdf": b"old cards", "box.pdf": b"old box"})
    (out / "notes.txt").write_text("mine")
    (out / "cards").mkdir()
    (out / "cards" / "a-1.png").write_bytes(b"exported")        # an export into the kit folder
    (out / "link").symlink_to("notes.txt")
    os.chmod(out, 0o750)
    inode = os.stat(out / "notes.txt").st_ino
    write_atomically(out, {"kit.pdf": b"new kit", "cards.pdf": b"new cards"})
    assert snapshot(out) == {"kit.pdf": b"new kit", "cards.pdf": b"new cards", "box.pdf": b"old box",
                             "notes.txt": b"mine", "cards/a-1.png": b"exported", "link": ("link", "notes.txt")}
    assert os.stat(out / "notes.txt").st_ino == inode           # the same file, not a copy
    assert os.stat(out).st_mode & 0o777 == 0o750
    assert leftovers(out) == []


def test_the_folders_are_exchanged_in_one_step_on_this_file_system(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "x").write_text("a")
    if not output.exchange(a, b):
        pytest.skip("this system or file system cannot exchange two folders (renameat2)")
    assert (b / "x").read_text() == "a" and not (a / "x").exists()


def test_an_output_folder_that_is_a_link_keeps_its_link(tmp_path):
    target = tmp_path / "elsewhere" / "kits"
    target.mkdir(parents=True)
    (target / "mine.txt").write_text("mine")
    out = tmp_path / "out"
    out.symlink_to(target)
    write_atomically(out, {"kit.pdf": b"kit"})
    assert out.is_symlink() and (target / "kit.pdf").read_bytes() == b"kit"
    assert (target / "mine.txt").read_text() == "mine"
    assert sorted(p.name for p in (tmp_path / "elsewhere").iterdir()) == ["kits"]


@pytest.mark.parametrize("mode", ["rename", "files"])
def test_the_fallbacks_give_the_same_result(tmp_path, monkeypatch, mode):
    out = tmp_path / "kit"
    write_atomically(out, {"kit.pdf": b"old", "gone.pdf": b"old"})
    (out / "notes.txt").write_text("mine")
    monkeypatch.setattr(output, "exchange", lambda a, b: False)
    if mode == "files":
        real = os.rename

        def no_folder_rename(src, dst):
            if Path(src) == out:
                raise OSError(errno.EXDEV, "Invalid cross-device link")
            return real(src, dst)
        monkeypatch.setattr(os, "rename", no_folder_rename)
    write_atomically(out, {"kit.pdf": b"new"}, record=RECORD)
    assert {k: v for k, v in snapshot(out).items() if k != RECORD} == \
        {"kit.pdf": b"new", "gone.pdf": b"old", "notes.txt": b"mine"}
    assert leftovers(out) == []


def test_files_that_cannot_be_linked_are_left_in_place_and_the_files_moved_in_one_by_one(tmp_path, monkeypatch):
    out = tmp_path / "kit"
    write_atomically(out, {"kit.pdf": b"old"})
    (out / "notes.txt").write_text("mine")
    inode = os.stat(out).st_ino
    monkeypatch.setattr(output, "MAX_CARRIED", 0)
    write_atomically(out, {"kit.pdf": b"new", "box.pdf": b"new"})
    assert snapshot(out) == {"kit.pdf": b"new", "box.pdf": b"new", "notes.txt": b"mine"}
    assert os.stat(out).st_ino == inode                         # the same folder, updated in place
    assert leftovers(out) == []


def test_a_parent_that_cannot_be_written_gets_nothing(tmp_path, monkeypatch):
    out = tmp_path / "kit"
    out.mkdir()
    real = output._Journal.__init__

    def refused(self, where, stem):
        if Path(where) == tmp_path:
            raise PermissionError(errno.EACCES, "Permission denied")
        real(self, where, stem)
    monkeypatch.setattr(output._Journal, "__init__", refused)
    write_atomically(out, {"kit.pdf": b"new", "box.pdf": b"new"})
    assert snapshot(out) == {"kit.pdf": b"new", "box.pdf": b"new"} and leftovers(out) == []


def test_a_single_file_is_written_with_one_rename_inside_the_folder(tmp_path):
    out = tmp_path / "preview"
    write_atomically(out, {"a.png": b"a"})
    (out / "b.png").write_bytes(b"b")
    inode = os.stat(out).st_ino
    write_atomically(out, {"a.png": b"new a"})
    assert os.stat(out).st_ino == inode
    assert snapshot(out) == {"a.png": b"new a", "b.png": b"b"} and leftovers(out) == []


def test_a_failed_move_is_rolled_back(tmp_path, monkeypatch):
    out = tmp_path / "out"
    write_atomically(out, {"a.pdf": b"old a", "b.pdf": b"old b"})
    monkeypatch.setattr(output, "MAX_CARRIED", -1)                # moved in file by file
    (out / "c.txt").write_text("mine")
    real = os.replace
    state = {"n": 0}

    def flaky(src, dst):                 # placing the new b.pdf fails, once
        if Path(dst) == out / "b.pdf" and Path(src).parent.name.startswith(".out.pnp-new") and not state["n"]:
            state["n"] += 1
            raise OSError(errno.EIO, "I/O error")
        return real(src, dst)
    monkeypatch.setattr(os, "replace", flaky)
    with pytest.raises(OutputError, match="was restored as it was"):
        write_atomically(out, {"a.pdf": b"new a", "b.pdf": b"new b"})
    assert snapshot(out) == {"a.pdf": b"old a", "b.pdf": b"old b", "c.txt": b"mine"}
    assert leftovers(out) == []


def test_a_file_written_into_the_folder_during_the_write_is_not_lost(tmp_path, monkeypatch):
    out = tmp_path / "kit"
    write_atomically(out, {"kit.pdf": b"old"})
    real = output.exchange

    def meanwhile(a, b):                 # another program saves a file just before the swap
        (out / "late.txt").write_text("late")
        return real(a, b)
    monkeypatch.setattr(output, "exchange", meanwhile)
    write_atomically(out, {"kit.pdf": b"new", "box.pdf": b"new"})
    assert snapshot(out) == {"kit.pdf": b"new", "box.pdf": b"new", "late.txt": b"late"} and leftovers(out) == []


@pytest.mark.parametrize("name, message", [
    ("x" * 300, "a file name is too long for the file system"),
])
def test_an_output_folder_the_system_refuses(tmp_path, name, message):
    with pytest.raises(OutputError, match=message):
        write_atomically(tmp_path / name, {"kit.pdf": b"kit"})
    assert list(tmp_path.iterdir()) == []


def test_an_output_folder_in_a_loop_of_links(tmp_path):
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    with pytest.raises(OutputError, match="a loop of symbolic links"):
        write_atomically(tmp_path / "a", {"kit.pdf": b"kit"})


# ----------------------------------------------------------------------------- recovery

def test_leftovers_of_an_older_pnp_are_removed(tmp_path):
    out = tmp_path / "kit"
    write_atomically(out, {"kit.pdf": b"old"})
    (tmp_path / ".kit.pnp-new-abc123").mkdir()
    (tmp_path / ".kit.pnp-old-def456").mkdir()
    (tmp_path / ".kit.pnp-old-def456" / "kit.pdf").write_bytes(b"older")
    (out / ".pnp-new-xyz").mkdir()
    (tmp_path / ".other.pnp-new-abc123").mkdir()                # another folder's: not this write's business
    write_atomically(out, {"kit.pdf": b"new"})
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.pnp-new-abc123", "kit"]
    assert snapshot(out) == {"kit.pdf": b"new"}


@pytest.mark.skipif(sys.platform == "win32", reason="journals are locked with flock")
def test_a_write_that_is_running_is_left_alone(tmp_path):
    import fcntl

    out = tmp_path / "kit"
    write_atomically(out, {"kit.pdf": b"old"})
    journal = tmp_path / ".kit.pnp-journal-0123456789ab"
    journal.write_text(json.dumps({"mode": "exchange", "state": "writing", "names": ["kit.pdf"]}))
    (tmp_path / ".kit.pnp-new-0123456789ab").mkdir()
    with open(journal) as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        recover(out)
        assert (tmp_path / ".kit.pnp-new-0123456789ab").is_dir()
    recover(out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kit"]


# ----------------------------------------------------------------------------- the export record

def test_an_export_removes_only_files_still_as_it_wrote_them(tmp_path):
    out = tmp_path / "cards"
    warnings = []
    write_atomically(out, {"a.png": b"a", "b.png": b"b", "deck/c.png": b"c"}, record=RECORD, warnings=warnings)
    record = json.loads((out / RECORD).read_text())
    assert record["files"]["a.png"] == {"size": 1, "sha256": output.sha256(b"a")}
    (out / "b.png").write_bytes(b"edited by hand")
    write_atomically(out, {"a.png": b"a2"}, record=RECORD, warnings=warnings)
    assert snapshot(out) == {"a.png": b"a2", "b.png": b"edited by hand", RECORD: (out / RECORD).read_bytes()}
    assert [str(w) for w in warnings] == [f"{out / 'b.png'}: warning: changed since pnp wrote it (listed in "
                                          f"{RECORD}); left in place"]


@pytest.mark.parametrize("record, why", [
    ({"files": ["my-notes.txt", "stars/important.png"]}, "not a record pnp wrote"),
    ({"written_by": "pnp output record", "format": 2,
      "files": {"../outside.txt": {"size": 4, "sha256": output.sha256(b"mine")}}}, "names a file outside the folder"),
    ({"written_by": "pnp output record", "format": 2,
      "files": {"/tmp/outside.txt": {"size": 4, "sha256": output.sha256(b"mine")}}}, "names a file outside the folder"),
    ("not json at all", "not a record pnp wrote"),
])
def test_a_record_pnp_did_not_write_is_ignored(tmp_path, record, why):
    out = tmp_path / "cards"
    (out / "stars").mkdir(parents=True)
    (out / "my-notes.txt").write_text("mine")
    (out / "stars" / "important.png").write_bytes(b"mine")
    (tmp_path / "outside.txt").write_text("mine")
    (out / RECORD).write_text(record if isinstance(record, str) else json.dumps(record))
    warnings = []
    write_atomically(out, {"a.png": b"a"}, record=RECORD, warnings=warnings)
    assert (out / "my-notes.txt").read_text() == "mine" and (out / "stars" / "important.png").read_bytes() == b"mine"
    assert (tmp_path / "outside.txt").read_text() == "mine"
    assert [str(w) for w in warnings] == [f"{out / RECORD}: warning: {why}; the files it lists are left as they are"]
    assert read_record(out, RECORD, []) == {"a.png": (1, output.sha256(b"a"))}     # replaced by pnp's own


def test_a_recorded_file_behind_a_link_is_not_removed(tmp_path):
    out = tmp_path / "cards"
    write_atomically(out, {"a.png": b"a", "deck/c.png": b"c"}, record=RECORD)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "c.png").write_bytes(b"c")                     # the same bytes, outside the folder
    (out / "deck" / "c.png").unlink()
    (out / "deck").rmdir()
    (out / "deck").symlink_to(elsewhere)
    write_atomically(out, {"a.png": b"a2"}, record=RECORD)
    assert (elsewhere / "c.png").read_bytes() == b"c"


# ----------------------------------------------------------------------------- killed at every step

OLD = {"kit.pdf": "old kit", "cards.pdf": "old cards", "deck/back.png": "old back", "gone.pdf": "old gone"}
NEW = {"kit.pdf": "new kit", "cards.pdf": "new cards", "deck/back.png": "new back", "box.pdf": "new box"}


def _prepare(tmp_path, mode):
    out = tmp_path / "parent" / "kit"
    write_atomically(out, {k: v.encode() for k, v in OLD.items()}, record=RECORD)
    (out / "notes.txt").write_text("mine")
    (out / "deck" / "mine.png").write_bytes(b"mine too")
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"files": NEW, "record": RECORD, "mode": mode}))
    old = snapshot(out)
    new = {k: v.encode() for k, v in NEW.items()}
    new.update({"notes.txt": b"mine", "deck/mine.png": b"mine too",
                RECORD: output.record_bytes({k: v.encode() for k, v in NEW.items()})})
    return out, spec, old, new


WRITER_ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))


def _writer_command(out, spec, *extra) -> list:
    return [sys.executable, str(ROOT / "tests" / "output_writer.py"), str(out), str(spec), *extra]


def _steps(tmp_path, mode) -> list:
    out, spec, _, new = _prepare(tmp_path / "count", mode)
    done = subprocess.run(_writer_command(out, spec, "--free"), capture_output=True, text=True, env=WRITER_ENV)
    assert done.returncode == 0, done.stderr
    assert snapshot(out) == new
    return [line for line in done.stdout.splitlines() if line.startswith("step ")]


def _stop_at(tmp_path, mode, k, sig):
    """Run the writer to its k-th stop, send ``sig`` there; return (out, old, new, exit status, last line)."""
    out, spec, old, new = _prepare(tmp_path / f"{sig.name}-{k}", mode)
    proc = subprocess.Popen(_writer_command(out, spec), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=WRITER_ENV)
    seen = 0
    last = ""
    for line in proc.stdout:
        last = line.strip()
        if not last.startswith("step "):
            continue
        seen += 1
        if seen == k:
            proc.send_signal(sig)
            if sig == signal.SIGKILL:
                break
        try:
            proc.stdin.write("\n")
            proc.stdin.flush()
        except BrokenPipeError:
            break
    rest = proc.stdout.read() if sig != signal.SIGKILL else ""
    last = (rest.strip().splitlines() or [last])[-1]
    proc.wait(10)
    return out, old, new, proc.returncode, last


def _check_killed(tmp_path, mode, points):
    for k in points:
        out, old, new, code, _ = _stop_at(tmp_path, mode, k, signal.SIGKILL)
        assert code == -signal.SIGKILL
        if mode == "exchange":       # at every instant: the old set or the new one
            assert snapshot(out) in (old, new), k
        recover(out)                  # the next write finishes (or drops) the killed one
        after = snapshot(out)
        assert after in (old, new), k
        assert leftovers(out) == [], (k, leftovers(out))


def _check_interrupted(tmp_path, mode, points):
    for k in points:
        out, old, new, code, last = _stop_at(tmp_path, mode, k, signal.SIGINT)
        assert code == 130, (k, last)
        state = snapshot(out)
        assert state in (old, new), k
        assert last == ("interrupted after the new files were in place" if state == new else "interrupted"), \
            (k, last)
        assert leftovers(out) == [], (k, leftovers(out))


def test_killed_at_representative_steps_the_folder_is_old_or_new(tmp_path):
    steps = _steps(tmp_path, "exchange")
    swap = next(i for i, s in enumerate(steps, 1) if s.endswith("before exchange"))
    points = sorted({1, swap - 1, swap, swap + 1, swap + 2, len(steps)} | set(range(2, len(steps), 7)))
    _check_killed(tmp_path, "exchange", points)


def test_ctrl_c_at_representative_steps_finishes_or_undoes_the_write(tmp_path):
    steps = _steps(tmp_path, "exchange")
    swap = next(i for i, s in enumerate(steps, 1) if s.endswith("before exchange"))
    _check_interrupted(tmp_path, "exchange", sorted({1, swap, swap + 1, swap + 3, len(steps) - 1}))


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["exchange", "rename", "files"])
def test_killed_at_every_step_the_folder_is_old_or_new(tmp_path, mode):
    steps = _steps(tmp_path, mode)
    assert len(steps) > 20
    _check_killed(tmp_path, mode, range(1, len(steps) + 1))


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["exchange", "rename", "files"])
def test_ctrl_c_at_every_step_finishes_or_undoes_the_write(tmp_path, mode):
    steps = _steps(tmp_path, mode)
    _check_interrupted(tmp_path, mode, range(1, len(steps) + 1))
