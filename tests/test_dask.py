"""The Dask executor's checks and bounds (issue 23): a scheduler address is checked before anything
connects; connecting, waiting for batches and a cluster without workers end the run with one message
and exit 2; a batch whose worker keeps dying stops the run cleanly; Ctrl-C cancels, closes, exit 130 and
no process left; ``--jobs`` and ``--workers`` are bounded by the cores. The real clusters are slow tests."""

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import rules_engine.shadow_throne as st
from pnp.commands.cli import main
from pnp.loading.gamedata import load_game
from rules_engine.core.executors import DaskError, DaskExecutor, LocalExecutor, play_batch_by_name, \
    scheduler_address

pytest.importorskip("dask.distributed")

ROOT = Path(__file__).resolve().parent.parent
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
EXAMPLE = "e.g. tcp://10.0.0.5:8786"


def simulate(*args):
    return CliRunner().invoke(main, ["simulate", "--games", "5", *map(str, args)])


# ------------------------------------------------------------------ the address, before connecting

@pytest.mark.parametrize("address, message", [
    ("", f"give the address of a Dask scheduler, {EXAMPLE}"),
    ("nonsense", f"expected tcp://HOST:PORT or tls://HOST:PORT, {EXAMPLE}"),
    ("http://10.0.0.5:8786", f"http:// is not a scheduler address pnp can use: give tcp://HOST:PORT or "
                             f"tls://HOST:PORT, {EXAMPLE}"),
    ("inproc://x", "inproc:// is not a scheduler address pnp can use"),
    ("ucx://10.0.0.5:8786", "ucx:// is not a scheduler address pnp can use"),
    ("tcp://10.0.0.5", f"give the scheduler's port (Dask's default is 8786), {EXAMPLE}"),
    ("tcp://10.0.0.5:0", f"the port must be a number from 1 to 65535, {EXAMPLE}"),
    ("tcp://10.0.0.5:99999", f"the port must be a number from 1 to 65535, {EXAMPLE}"),
    ("tcp://10.0.0.5:port", f"the port must be a number from 1 to 65535, {EXAMPLE}"),
    ("tcp://:8786", f"no host in the address, {EXAMPLE}"),
    ("tcp://me@10.0.0.5:8786", f"expected only a host and a port after tcp://, {EXAMPLE}"),
    ("tcp://10.0.0.5:8786/x", "expected only a host and a port after tcp://"),
    ("tcp://10.0.0.5:8786?a=1", "expected only a host and a port after tcp://"),
    ("tcp://10.0 .0.5:8786", "expected only a host and a port after tcp://"),
])
def test_a_bad_scheduler_address_is_refused_before_connecting(address, message):
    started = time.monotonic()
    result = simulate("--scheduler", address)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.output.startswith(f"error: --scheduler {address!r}: {message}"), result.output
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("address", ["tcp://10.0.0.5:8786", "TLS://scheduler.example:8786", "tcp://[::1]:8786",
                                     "tcp://localhost:1"])
def test_good_scheduler_addresses(address):
    assert scheduler_address(f" {address} ") == address


def test_tls_without_dask_tls_settings_says_what_is_missing(monkeypatch):
    result = simulate("--scheduler", "tls://127.0.0.1:8786")
    assert result.exit_code == 2
    assert result.output.startswith("error: --executor dask: tls://127.0.0.1:8786: tls:// needs Dask's TLS settings")


# ------------------------------------------------------------------ connecting is bounded

def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def listener():
    """A TCP listener on 127.0.0.1 that accepts and then never answers (``silent``) or sends garbage."""
    socks, conns = [], []

    def start(kind: str) -> str:
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        sock.listen(16)
        socks.append(sock)

        def serve():
            while True:
                try:
                    conn, _ = sock.accept()
                except OSError:
                    return
                conns.append(conn)
                if kind == "garbage":
                    try:
                        conn.sendall(b"\xff" * 64)
                    except OSError:
                        pass
        threading.Thread(target=serve, daemon=True).start()
        return f"tcp://127.0.0.1:{sock.getsockname()[1]}"
    yield start
    for item in socks + conns:
        item.close()


def test_an_unreachable_scheduler_is_one_message_naming_it(monkeypatch, tmp_path):
    monkeypatch.setattr(DaskExecutor, "CONNECT_TIMEOUT", 1)
    address = f"tcp://127.0.0.1:{free_port()}"
    result = CliRunner().invoke(main, ["balance", "--games", "5", "--scheduler", address, "--out", str(tmp_path)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.output.startswith(f"error: --executor dask: cannot reach a Dask scheduler at {address}: "), \
        result.output
    assert not (tmp_path / "report.json").exists()


def test_a_listener_that_never_answers_ends_at_the_connect_timeout(monkeypatch, listener):
    monkeypatch.setattr(DaskExecutor, "CONNECT_TIMEOUT", 1)
    address = listener("silent")
    started = time.monotonic()
    result = simulate("--scheduler", address)
    assert (result.exit_code, result.output) == (
        2, f"error: --executor dask: no Dask scheduler answered at {address} within 1 s\n")
    assert time.monotonic() - started < 10


def test_a_listener_that_answers_garbage_is_not_a_scheduler(monkeypatch, listener):
    monkeypatch.setattr(DaskExecutor, "CONNECT_TIMEOUT", 5)
    address = listener("garbage")
    result = simulate("--scheduler", address)
    assert result.exit_code == 2 and "Traceback" not in result.output and "EiB" not in result.output
    assert result.output.startswith(f"error: --executor dask: what answers at {address} is not a Dask scheduler "
                                    f"pnp can use ("), result.output


# ------------------------------------------------------------------ waiting for batches is bounded

class FakeFuture:
    def __init__(self, outcomes):
        self.outcomes = list(outcomes)       # per look: None (running) or ("finished", value) / ("error", exc)
        self.status = "pending"

    def done(self):
        if self.outcomes:
            outcome = self.outcomes.pop(0)
            if outcome is not None:
                self.status, self.value = outcome
        return self.status != "pending"

    def result(self):
        return self.value

    def exception(self):
        return self.value


class FakeClient:
    status = "running"

    def __init__(self, workers=({"tcp://w:1": 1}, )):
        self.workers = list(workers)

    def nthreads(self, callback_timeout=None):
        return self.workers.pop(0) if len(self.workers) > 1 else self.workers[0]


def fast(monkeypatch, **limits):
    monkeypatch.setattr(DaskExecutor, "POLL", 0.001)
    monkeypatch.setattr(DaskExecutor, "WORKERS_LOOK", 0.0)
    for name, value in limits.items():
        monkeypatch.setattr(DaskExecutor, name, value)


def test_results_in_batch_order_each_counted_once(monkeypatch):
    fast(monkeypatch)
    futures = [FakeFuture([None, None, ("finished", "a")]), FakeFuture([("finished", "b")]),
               FakeFuture([None, ("finished", "c")])]
    counted = []
    got = DaskExecutor()._gather(FakeClient(), futures, [range(3), range(5), range(2)], counted.append)
    assert got == ["a", "b", "c"] and sorted(counted) == [2, 3, 5]


def test_a_batch_that_keeps_losing_its_worker_stops_the_run(monkeypatch):
    from distributed import KilledWorker

    fast(monkeypatch)
    futures = [FakeFuture([("finished", "a")]), FakeFuture([None, ("error", KilledWorker("k", "w", 3))])]
    with pytest.raises(DaskError, match=r"^batch 2 of 2 lost its worker too many times on the local Dask "
                                        r"cluster \(Dask's allowed-failures\); the run stops$"):
        DaskExecutor()._gather(FakeClient(), futures, [range(1), range(1)], None)


def test_a_worker_without_the_engines_says_to_install_them(monkeypatch):
    fast(monkeypatch)
    futures = [FakeFuture([("error", ModuleNotFoundError("No module named 'rules_engine'"))])]
    with pytest.raises(DaskError, match="^a worker of the Dask scheduler at tcp://h:1 cannot run pnp's engines "
                                        r"\(No module named 'rules_engine'\): install the same version"):
        DaskExecutor("tcp://h:1")._gather(FakeClient(), futures, [range(1)], None)


def test_no_batch_finishing_in_time_stops_the_run(monkeypatch):
    fast(monkeypatch, BATCH_TIMEOUT=0.05)
    started = time.monotonic()
    with pytest.raises(DaskError, match=r"^no batch of games finished on the local Dask cluster in 0.05 s; "):
        DaskExecutor()._gather(FakeClient(), [FakeFuture([None] * 10**6)], [range(1)], None)
    assert time.monotonic() - started < 5


def test_a_cluster_without_workers_stops_the_run(monkeypatch):
    fast(monkeypatch, NO_WORKERS_TIMEOUT=0.05)
    client = FakeClient([{"tcp://w:1": 1}, {}])          # one worker, then none for good
    with pytest.raises(DaskError, match=r"^the Dask scheduler at tcp://h:1 has had no worker for 0.05 s; "):
        DaskExecutor("tcp://h:1")._gather(client, [FakeFuture([None] * 10**6)], [range(1)], None)


def test_a_lost_connection_stops_the_run(monkeypatch):
    fast(monkeypatch)
    client = FakeClient()
    client.status = "closed"
    with pytest.raises(DaskError, match="^lost the connection to the local Dask cluster; the run stops$"):
        DaskExecutor()._gather(client, [FakeFuture([None] * 10**6)], [range(1)], None)


# ------------------------------------------------------------------ --jobs and --workers

def test_jobs_beyond_the_cores_count_as_the_cores(monkeypatch):
    import pnp.build.workers

    monkeypatch.setattr(pnp.build.workers, "available_cores", lambda: 2)
    used = []
    monkeypatch.setattr(LocalExecutor, "run", lambda self, *a, **k: used.append(self.jobs) or [])
    CliRunner().invoke(main, ["simulate", "--games", "5", "--jobs", "10000"])
    assert used == [2]


def test_workers_of_a_local_cluster_beyond_the_cores_count_as_the_cores(monkeypatch):
    import pnp.build.workers

    monkeypatch.setattr(pnp.build.workers, "available_cores", lambda: 1)
    made = []
    monkeypatch.setattr(DaskExecutor, "run", lambda self, *a, **k: made.append(self.workers) or [])
    CliRunner().invoke(main, ["simulate", "--games", "5", "--executor", "dask", "--workers", "500"])
    assert made == [1]


# ------------------------------------------------------------------ real clusters (slow)

ST_RULES = None


def st_rules():
    global ST_RULES
    ST_RULES = ST_RULES or st.rules_for(load_game("shadow_throne"))
    return ST_RULES


def _always_dies(engine_name, rules, batch, job):
    if batch.start == 5:
        os._exit(1)
    return play_batch_by_name(engine_name, rules, batch, job)


@pytest.mark.slow
def test_a_batch_whose_worker_always_dies_fails_cleanly_after_the_allowed_failures():
    started = time.monotonic()
    with pytest.raises(DaskError, match=r"^batch 2 of 2 lost its worker too many times on the local Dask cluster"):
        DaskExecutor(workers=2).run("shadow_throne", st_rules(), [range(0, 5), range(5, 10)],
                                    (1, 3, ("random",), False, {}), batch_function=_always_dies)
    assert time.monotonic() - started < 120


@pytest.mark.slow
def test_every_worker_of_a_running_scheduler_killed_ends_the_run(monkeypatch):
    """A scheduler and one worker started as `dask scheduler` / `dask worker --no-nanny` would be; the
    worker killed (-9) in the middle of the run: the run ends at NO_WORKERS_TIMEOUT with one message."""
    monkeypatch.setattr(DaskExecutor, "NO_WORKERS_TIMEOUT", 3)
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                  "--port", str(port), "--dashboard-address", ":0", "--no-show"], env=ENV,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                               "--no-nanny", "--no-dashboard"], env=ENV, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    killer = threading.Timer(6, worker.kill)
    try:
        killer.start()
        started = time.monotonic()
        with pytest.raises(DaskError, match=rf"^the Dask scheduler at {address} has had no worker for 3 s; "):
            DaskExecutor(address).run("shadow_throne", st_rules(), [range(i, i + 250) for i in range(0, 10**6, 250)],
                                      (1, 3, ("random",), False, {}))
        assert time.monotonic() - started < 60
    finally:
        killer.cancel()
        worker.kill()
        scheduler.terminate()
        scheduler.wait(30)
        worker.wait(30)


def group_alive(pgid: int) -> list:
    alive = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                stat = (proc / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if int(stat[2]) == pgid and stat[0] != "Z":
                alive.append(int(proc.name))
    return alive


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="looks for leftover processes in /proc")
@pytest.mark.parametrize("wait", [3, 8])
def test_ctrl_c_during_a_local_dask_run_is_one_line_130_and_no_process_left(wait):
    proc = subprocess.Popen([sys.executable, "-m", "pnp", "simulate", "--games", "1000000", "--executor", "dask",
                             "--workers", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT, env=ENV, start_new_session=True)
    time.sleep(wait)                          # the cluster starting (3 s), then batches running (8 s)
    os.killpg(proc.pid, signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("pnp simulate --executor dask hung after Ctrl-C")
    assert proc.returncode == 130, err
    assert err.splitlines() == ["pnp simulate: interrupted; no report"]
    deadline = time.monotonic() + 10              # multiprocessing's resource tracker ends as its pipe closes
    while group_alive(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert group_alive(proc.pid) == []


# ------------------------------------------------------------------ what answers is asked who it is first

def pnp_subprocess(*args, timeout=60):
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pnp", *args], capture_output=True, text=True, env=ENV,
                          timeout=timeout)
    return done, time.monotonic() - started


@pytest.mark.parametrize("kind", ["garbage", "http"])
def test_a_listener_that_answers_garbage_is_given_up_at_once_with_one_line(kind):
    # a Client whose connection failed halfway closed itself at the program's end: 40 s more and a traceback
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    answer = b"\xff" * 64 if kind == "garbage" else b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"
    conns = []

    def serve():
        while True:
            try:
                conn, _ = sock.accept()
            except OSError:
                return
            conns.append(conn)
            conn.sendall(answer)
    threading.Thread(target=serve, daemon=True).start()
    address = f"tcp://127.0.0.1:{sock.getsockname()[1]}"
    try:
        done, seconds = pnp_subprocess("simulate", "behind_the_throne", "--games", "2", "--scheduler", address)
    finally:
        for item in [sock, *conns]:
            item.close()
    assert done.returncode == 2 and done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"error: --executor dask: what answers at {address} is not a Dask scheduler pnp can use (")
    assert "EiB" not in line and seconds < 15


def test_a_running_scheduler_is_recognised_and_a_worker_is_not_one(tmp_path):
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                  "--port", str(port), "--dashboard-address", ":0", "--no-show"], env=ENV,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker_port = free_port()
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                               "--no-nanny", "--no-dashboard", "--host", "127.0.0.1", "--worker-port",
                               str(worker_port)], env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                DaskExecutor(address)._probe()
                break
            except DaskError:
                assert time.monotonic() < deadline, "the scheduler did not start"
                time.sleep(0.5)
        while True:
            try:
                DaskExecutor(f"tcp://127.0.0.1:{worker_port}")._probe()
            except DaskError as exc:
                if "(a Dask Worker)" in str(exc):
                    assert str(exc) == (f"what answers at tcp://127.0.0.1:{worker_port} is not a Dask scheduler "
                                        f"pnp can use (a Dask Worker)")
                    break
            assert time.monotonic() < deadline, "the worker did not start"
            time.sleep(0.5)
    finally:
        for process in (worker, scheduler):
            process.terminate()
            process.wait(30)
