"""Ctrl-C, at any point of any command: exit status 130, one line, no temporary file, no process left
(issue 23). A terminal sends SIGINT to the whole process group; a SIGINT to pnp alone (kill -INT) must
end as cleanly."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="looks for leftover processes in /proc")


def _said(err: str) -> list:
    """The lines pnp wrote to stderr but validate's warnings about the game (a page left emptier than a
    third, say), which the command prints before it is interrupted or ends."""
    return [line for line in err.splitlines() if ": warning: " not in line]


def processes_with(marker: str) -> list:
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                if marker.encode() in (proc / "cmdline").read_bytes() and b"Z" not in \
                        (proc / "stat").read_bytes().rpartition(b")")[2][:3]:
                    found.append(int(proc.name))
            except OSError:
                continue
    return found


def interrupt(tmp_path, point, *args):
    """Run ``pnp ARGS`` paused at ``point``, press Ctrl-C there; return (exit status, stdout, stderr)."""
    marker = tmp_path / "reached"
    proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / "interrupted_pnp.py"), str(marker), point, *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=ENV,
                            start_new_session=True)      # in the test's folder: validate writes output/ there
    deadline = time.monotonic() + 60
    while not marker.exists():
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail(f"pnp {' '.join(args)} hung after Ctrl-C")
    time.sleep(0.1)
    assert processes_with(str(marker)) == []
    return proc.returncode, out, err


def no_temporary_files(folder: Path) -> bool:
    return not [p for p in folder.rglob("*") if ".pnp-new" in p.name or ".pnp-old" in p.name
                or ".pnp-journal" in p.name or p.name.startswith(".report.")]


@pytest.mark.parametrize("command, args", [
    ("build", ["build", "--jobs", "2", "--out", "{out}"]),
    ("validate", ["validate"]),
    ("export", ["export", "cards", "--dpi", "30", "--out", "{out}"]),
    ("preview", ["preview", "outlaw", "--out", "{out}/outlaw.png"]),
    ("simulate", ["simulate", "--games", "50", "--jobs", "2"]),
    ("balance", ["balance", "--games", "50", "--out", "{out}"]),
    ("scenario", ["scenario", str(ROOT / "tests" / "scenarios" / "beatrice.yaml")]),
])
def test_ctrl_c_in_any_command_is_one_line_and_exit_130(tmp_path, command, args):
    out = tmp_path / "out"
    code, stdout, err = interrupt(tmp_path, "load", *[a.format(out=out) for a in args])
    assert code == 130, err
    assert _said(err) == [f"pnp {command}: interrupted"]
    assert stdout == ""
    assert not out.exists() and no_temporary_files(tmp_path)


def test_ctrl_c_that_python_swallows_still_ends_the_command(tmp_path):
    """A KeyboardInterrupt raised inside a finalizer is only printed by Python ("Exception ignored"), and
    the command would go on to exit 0."""
    code, stdout, err = interrupt(tmp_path, "finalizer", "validate")
    assert (code, _said(err)) == (130, ["pnp validate: interrupted"])


@pytest.mark.parametrize("command, said", [("validate", "pnp validate: interrupted"), ("watch", "pnp watch: stopped")])
def test_ctrl_c_while_a_class_is_created_is_no_internal_error(tmp_path, command, said):
    """Python 3.11 turns a KeyboardInterrupt raised in a descriptor's ``__set_name__`` (every dataclass
    field has one: a Ctrl-C during any import of a module with dataclasses, as ``pnp watch`` imports
    watchdog) into ``RuntimeError: Error calling __set_name__``; it used to be reported as a bug in pnp
    (exit status 70)."""
    out = tmp_path / "out"
    code, stdout, err = interrupt(tmp_path, "class", command, *(["--out", str(out)] if command == "watch" else []))
    assert (code, _said(err)) == (130, [said])
    assert not out.exists() and no_temporary_files(tmp_path)


@pytest.mark.slow
def test_ctrl_c_before_the_swap_leaves_the_old_kit(tmp_path):
    out = tmp_path / "out"
    subprocess.run([sys.executable, "-m", "pnp", "build", "--out", str(out)], cwd=ROOT, env=ENV, check=True,
                   capture_output=True)
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    code, _, err = interrupt(tmp_path, "staged", "build", "--paper", "a4", "--out", str(out))
    assert (code, _said(err)) == (130, ["pnp build: interrupted"])
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before
    assert no_temporary_files(tmp_path)


def test_ctrl_c_inside_the_swap_finishes_it_then_says_so(tmp_path):
    out = tmp_path / "out"
    subprocess.run([sys.executable, "-m", "pnp", "build", "--out", str(out)], cwd=ROOT, env=ENV, check=True,
                   capture_output=True)
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    code, _, err = interrupt(tmp_path, "swap", "build", "--paper", "a4", "--out", str(out))
    assert (code, _said(err)) == (130, ["pnp build: interrupted after the new files were in place"])
    after = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    assert after.keys() == before.keys() and after["kit.pdf"] != before["kit.pdf"]      # the A4 kit, whole
    assert no_temporary_files(tmp_path)


def test_ctrl_c_while_a_watch_builds(tmp_path):
    code, stdout, err = interrupt(tmp_path, "load", "watch", "--out", str(tmp_path / "out"))
    assert (code, _said(err), stdout) == (130, ["pnp watch: stopped"], "")
    assert not (tmp_path / "out").exists() and no_temporary_files(tmp_path)


def test_ctrl_c_stops_a_watch(tmp_path):
    """Ctrl-C once the watch says it is watching. (It used to say so before importing watchdog and
    starting the observer: a Ctrl-C landing in that import, inside the code a dataclass generates and
    runs through exec, made ``python -m pnp`` die by SIGINT after "stopped" (CPython marks such a
    KeyboardInterrupt as unhandled even when it is caught), or inside a field's ``__set_name__``, an
    internal error; it failed so under load.)"""
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-m", "pnp", "watch", "--out", str(out)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT, env=ENV, start_new_session=True)
    for line in proc.stdout:
        if line.startswith("Watching"):
            break
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert (proc.returncode, _said(err)) == (130, ["pnp watch: stopped"])
    assert (out / "kit.pdf").is_file() and no_temporary_files(tmp_path)


def children(pid: int) -> list:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


@pytest.mark.parametrize("args, workers", [
    pytest.param(["build", "shadow_kingdoms_of_valeria", "--jobs", "2", "--out", "{out}"], 1, marks=pytest.mark.slow),
    (["simulate", "--games", "200000", "--jobs", "2"], 2),
])
def test_ctrl_c_to_pnp_alone_leaves_no_worker_and_no_traceback(tmp_path, args, workers):
    """kill -INT to the main process only, while its workers run (right as they start, then later): the
    workers (which ignore SIGINT) are stopped by it, or die with it; nothing prints a traceback (a
    broken pipe; a KeyboardInterrupt inside fork's handlers once left the logging module's lock taken
    and pnp simulate hanging)."""
    for delay in (0, 0.05, 0.3):
        out = tmp_path / f"out-{delay}"
        proc = subprocess.Popen([sys.executable, "-m", "pnp", *[a.format(out=out) for a in args]],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=ENV,
                                start_new_session=True)
        deadline = time.monotonic() + 60
        while len(children(proc.pid)) < workers:
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.002)
        started = children(proc.pid)
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            pytest.fail(f"pnp {args[0]} hung after a SIGINT to it alone")
        assert proc.returncode == 130 and "Traceback" not in err, err
        assert _said(err)[-1].startswith(f"pnp {args[0]}: interrupted"), err
        time.sleep(0.2)
        assert [p for p in started if Path(f"/proc/{p}").exists()
                and b"Z" not in Path(f"/proc/{p}/stat").read_bytes().rpartition(b")")[2][:3]] == []
        assert not out.exists() and no_temporary_files(tmp_path)


# ---------------------------------------------------------------- Ctrl-C in a command's last instants

LAST_INSTANTS = {
    "validate": ["validate"],
    "export": ["export", "cards", "--dpi", "30", "--out", "{out}"],
    "build": ["build", "--jobs", "1", "--out", "{out}"],
}


def last_instant(tmp_path, point, command):
    out = tmp_path / "out"
    code, stdout, err = interrupt(tmp_path, point, *[a.format(out=out) for a in LAST_INSTANTS[command]])
    if command != "validate":       # the command had ended: its output whole and in place, nothing left aside
        assert (out / ("kit.pdf" if command == "build" else ".pnp-export-cards.json")).is_file()
    else:
        assert stdout.rstrip().endswith(": valid")
    assert no_temporary_files(tmp_path)
    return code, _said(err)


@pytest.mark.parametrize("point, command", [("returned", "export"), ("finished", "build")])
def test_ctrl_c_after_the_command_ended_is_said_once_with_130(tmp_path, point, command):
    """Once a command has said its outcome, pnp's handler only remembers a Ctrl-C, and says it as the
    program ends (it used to reach click, "Aborted!" and status 1, or Python's default handler: pnp
    killed by SIGINT with no message)."""
    assert last_instant(tmp_path, point, command) == (130, [f"pnp {command}: interrupted after it finished"])


def test_ctrl_c_as_the_interpreter_shuts_down_leaves_the_command_s_status(tmp_path):
    """In the interpreter's shutdown (exit handlers, then its own clean-up, where Python puts the
    default handler back) SIGINT is blocked: the command had ended, and its status stands; no
    traceback, no death by the signal."""
    assert last_instant(tmp_path, "shutdown", "validate") == (0, [])


@pytest.mark.slow
@pytest.mark.parametrize("point", ["returned", "finished"])
@pytest.mark.parametrize("command", sorted(LAST_INSTANTS))
def test_ctrl_c_after_any_command_ended(tmp_path, point, command):
    assert last_instant(tmp_path, point, command) == (130, [f"pnp {command}: interrupted after it finished"])
