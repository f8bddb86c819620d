"""``pnp build --jobs``: components checked and drawn in forked workers give the same kit and the same
messages as one process, and failures, crashes and Ctrl-C in a worker end the build as they would
without one."""

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from pnp.components import BuildOptions
from pnp.errors import DataError, Problem, UserError
from pnp.build.kit import build_kit
from pnp.build.workers import TaskPool, WorkerError, default_jobs

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="parallel builds fork")


def _slow_square(i):
    time.sleep(0.03)
    return i * i, os.getpid()


def test_tasks_are_shared_between_processes_and_each_runs_once():
    with TaskPool(24, _slow_square, workers=2) as pool:
        outcomes = pool.outcomes()
    assert sorted(outcomes) == list(range(24))
    assert all(ok for ok, _ in outcomes.values())
    assert [value[0] for _, value in (outcomes[i] for i in range(24))] == [i * i for i in range(24)]
    # three processes took part: this one and two workers
    assert len({pid for _, (_, pid) in outcomes.values()}) == 3
    assert os.getpid() in {pid for _, (_, pid) in outcomes.values()}


def _failing(i):
    time.sleep(0.02)
    if i == 3:
        raise ValueError("task three went wrong")
    if i == 5:
        raise DataError([Problem("cards.yaml", 4, "card 'x'", "name: too long")])
    return i


def test_a_task_exception_comes_back_with_its_type_message_and_problems():
    with TaskPool(8, _failing, workers=1) as pool:
        outcomes = pool.outcomes()
    ok, exc = outcomes[3]
    assert not ok and isinstance(exc, ValueError) and str(exc) == "task three went wrong"
    ok, exc = outcomes[5]
    assert not ok and isinstance(exc, DataError)
    assert exc.problems == [Problem("cards.yaml", 4, "card 'x'", "name: too long")]
    assert outcomes[7] == (True, 7)


def test_a_worker_that_dies_is_reported_not_waited_for():
    parent = os.getpid()

    def run(i):
        if os.getpid() != parent:
            os._exit(3)           # a crash: the worker never sends its task back
        return i

    with TaskPool(2, run, workers=1) as pool:
        time.sleep(0.3)           # the worker has taken the first task and died
        with pytest.raises(WorkerError, match="stopped before finishing task"):
            pool.outcomes()


def test_idle_work_runs_while_a_worker_is_still_busy_and_only_then():
    parent = os.getpid()

    def run(i):
        if os.getpid() != parent:
            time.sleep(0.5)       # the worker's task outlasts this process's
        return i

    idle = []
    with TaskPool(2, run, workers=1) as pool:
        time.sleep(0.1)           # the worker has taken the first task
        outcomes = pool.outcomes(idle=lambda: idle.append(time.monotonic()))
    assert outcomes == {0: (True, 0), 1: (True, 1)} and len(idle) == 1
    with TaskPool(2, run, workers=0) as pool:           # nobody to wait for: nothing to do ahead
        pool.outcomes(idle=lambda: idle.append(time.monotonic()))
    assert len(idle) == 1


def test_waiting_for_workers_the_build_compiles_the_instructions_template_once(monkeypatch, tmp_path):
    from pnp.components import instructions
    from pnp.loading.gamedata import load_game
    from pnp.build.kit import _Parallel

    game, options = load_game("shadow_throne"), BuildOptions()
    warmed = []
    monkeypatch.setattr(instructions, "COMPONENT", replace(instructions.COMPONENT, warm=lambda g, o: warmed.append(g)))
    parallel = _Parallel(game, options, replace(options, thorough=False), 1)
    parallel.game = game
    parallel._warm()
    assert warmed == [game]           # what the pool runs while a worker is busy: the kit pages' warm-up

    from pnp.text import templating
    instructions._environment.cache_clear()
    templating.environment.cache_clear()    # a build earlier in the run left the template compiled there
    for compiled_templates in templating._COMPILED.values():    # and kept its compiled code (CompiledTemplates)
        compiled_templates.clear()
    env, compiled = instructions._environment(), []
    monkeypatch.setattr(env, "compile", lambda *a, _c=env.compile, **k: compiled.append(a[1:2]) or _c(*a, **k))
    instructions.warm(game, options)
    assert compiled == [("page.md.j2",)]
    build_kit("shadow_throne", tmp_path / "kit", options)
    assert compiled == [("page.md.j2",)]    # the kit's instructions page, built afterwards, reuses it


def test_no_fork_from_a_process_running_threads():
    import threading

    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert default_jobs() == 1
    finally:
        stop.set()
        thread.join()
    assert default_jobs() >= 1


@pytest.mark.parametrize("load, jobs", [(0.0, 2), (0.4, 2), (0.6, 1), (1.0, 1), (1.4, 1), (7.5, 1)])
def test_the_default_jobs_are_the_free_cores(monkeypatch, load, jobs):
    # two cores: a second process only when the other core is mostly idle (the last minute's load)
    monkeypatch.setattr(threading, "active_count", lambda: 1)       # (a thread another test left running)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setattr(os, "getloadavg", lambda: (load, 0.0, 0.0))
    assert default_jobs() == jobs


def test_the_default_jobs_without_a_load_average(monkeypatch):
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(8)))
    monkeypatch.setattr(os, "getloadavg", lambda: (_ for _ in ()).throw(OSError("no load average")))
    assert default_jobs() == 4
    monkeypatch.setattr(os, "getloadavg", lambda: (5.2, 0.0, 0.0))
    assert default_jobs() == 3


def _files(folder: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("game", ["shadow_throne", "shadow_kingdoms_of_valeria"])
def test_the_kit_is_byte_identical_with_any_number_of_jobs(game, tmp_path):
    results = {}
    for jobs in (1, 2, 3):
        out = tmp_path / f"j{jobs}"
        result = build_kit(game, out, BuildOptions(), jobs=jobs)
        results[jobs] = (_files(out), result.pages, [str(w) for w in result.warnings])
    assert results[2] == results[1]
    assert results[3] == results[1]


def test_duplex_cards_are_the_fronts_and_backs_pages_in_turn(tmp_path):
    import pypdfium2 as pdfium

    build_kit("shadow_throne", tmp_path, BuildOptions(), jobs=2)
    fronts, backs, duplex = (pdfium.PdfDocument(str(tmp_path / f"cards-{n}.pdf")) for n in ("fronts", "backs", "duplex"))
    assert len(duplex) == len(fronts) + len(backs)
    for i in range(len(fronts)):
        for source, page in ((fronts[i], duplex[2 * i]), (backs[i], duplex[2 * i + 1])):
            assert source.get_size() == page.get_size()
            assert source.get_textpage().get_text_range() == page.get_textpage().get_text_range()
            assert source.render(scale=0.25).to_pil().tobytes() == page.render(scale=0.25).to_pil().tobytes()


def _break_two_components(game_copy: Path) -> None:
    """A card name too long for its card and a rulebook limited to fewer pages than it needs."""
    cards = game_copy / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    first = yaml.safe_load(text)["cards"][0]["name"]
    cards.write_text(text.replace(f"name: {first}", "name: " + "Extraordinarily Long-Winded " * 6 + first, 1),
                     encoding="utf-8")
    rulebook = game_copy / "rulebook.yaml"
    rulebook.write_text("pages: 4\n" + rulebook.read_text(encoding="utf-8"), encoding="utf-8")


def test_problems_are_the_same_and_in_the_same_order_with_jobs(game_copy, tmp_path):
    _break_two_components(game_copy)
    found = {}
    for jobs in (1, 2):
        with pytest.raises(DataError) as caught:
            build_kit(game_copy, tmp_path / "out", BuildOptions(), jobs=jobs)
        found[jobs] = [str(p) for p in caught.value.problems]
    assert found[2] == found[1]
    assert any("cards.yaml" in p and "does not fit" in p for p in found[1])
    assert any("rulebook.yaml" in p and "more than the 4" in p for p in found[1])
    # the card problem is listed first, as the components come in the kit
    assert [("cards.yaml" in p) for p in found[1]].index(True) < [("rulebook.yaml" in p) for p in found[1]].index(True)
    assert not (tmp_path / "out").exists()


def test_a_build_error_in_a_worker_stops_the_build(monkeypatch, tmp_path):
    from pnp.components import tokens

    def broken(*args, **kwargs):
        raise UserError("the token sheet cannot be drawn")

    monkeypatch.setattr(tokens, "COMPONENT", replace(tokens.COMPONENT, build=broken))
    with pytest.raises(UserError, match="the token sheet cannot be drawn"):
        build_kit("shadow_throne", tmp_path / "out", BuildOptions(), jobs=2)
    assert not (tmp_path / "out").exists()


def _processes_with(marker: str) -> list:
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if marker.encode() in (proc / "cmdline").read_bytes():
                found.append(int(proc.name))
        except OSError:
            continue
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="looks for leftover workers in /proc")
def test_ctrl_c_stops_every_process_without_a_traceback_or_output(tmp_path):
    out = tmp_path / "interrupted-kit"
    proc = subprocess.Popen([sys.executable, "-m", "pnp", "build", "shadow_kingdoms_of_valeria", "--jobs", "2",
                             "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=Path(__file__).resolve().parent.parent)
    deadline = time.monotonic() + 20
    while len(_processes_with(str(out))) < 2:     # wait for a worker: loaded, validated, drawing
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.02)
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signal.SIGINT)
    for pid in _processes_with(str(out)):
        if pid != proc.pid:   # Ctrl-C in a terminal reaches the whole process group, workers too
            with contextlib.suppress(ProcessLookupError):     # a worker may have ended meanwhile
                os.kill(pid, signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode != 0
    assert b"Traceback" not in err
    assert not out.exists() or not any(out.iterdir())
    time.sleep(0.2)
    assert _processes_with(str(out)) == []
