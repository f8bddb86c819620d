"""Where a run's batches of games are played: here, in local worker processes, or on a Dask cluster.

An executor has ``run(engine_name, rules, batches, job, progress) -> [batch results]``, results in batch
order whatever order they finish in; ``batch_function(engine_name, rules, batch, job)`` (default: play the
batch's games, :func:`play_batch_by_name`) is what a worker runs, and ``done(index, result)`` (optional)
hears of each batch as it finishes (``pnp lab`` stores it at once, so an interrupted sweep resumes). A batch is a range of game indexes; ``job`` is ``(seed, players,
bots, check, options, experience, limits)``. Every game is seeded from ``(seed, index)`` alone, so any executor gives the
same results, and a batch that is played twice (a retried batch of a dead worker) is counted once:
its result is stored at its own place in the list.

* :class:`LocalExecutor` (``--jobs N``): this process, or ``N`` forked worker processes. Ctrl-C stops
  the workers (they ignore SIGINT themselves, so none prints a traceback) and re-raises
  ``KeyboardInterrupt`` in this process.
* :class:`DaskExecutor` (``--executor dask [--scheduler ADDRESS]``): batches are tasks on a running
  ``dask.distributed`` cluster, or on a local cluster it starts and stops. Dask retries the tasks of a
  worker that dies, up to a limit; the address is checked before connecting, and connecting, waiting
  for batches and a cluster without workers all have time limits (:class:`DaskError`). Needs the
  ``dask`` extra (``pip install 'pnp[dask]'``).
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import threading
import time
from typing import Callable, Sequence
from urllib.parse import urlsplit

from rules_engine.processes import die_with_parent, sigint_deferred, sigint_ignored_by_children


def play_batch_by_name(engine_name: str, rules, batch, job) -> list:
    """Play one batch in whatever process this runs in (the engine is looked up by its installed name, so
    a Dask worker needs the same engines installed)."""
    from rules_engine import engine_module
    from rules_engine.core.play import play_batch

    from rules_engine.core import faults

    # extra: (experience, limits): experience metrics asked for, the limits of the run's games
    seed, players, bots, check, options, *extra = job
    experience, limits = (list(extra) + [False, None])[:2]
    engine = engine_module(engine_name).ENGINE
    with faults.using(limits):
        return play_batch(engine, rules, batch, seed, players, bots, check, options, experience)


class LocalExecutor:
    """Batches in this process (``jobs`` 1, or a single batch) or in ``jobs`` forked worker processes."""

    def __init__(self, jobs: int = 1):
        self.jobs = max(1, int(jobs))

    def run(self, engine_name: str, rules, batches: Sequence, job, progress: Callable | None = None,
            batch_function: Callable = play_batch_by_name, done: Callable | None = None) -> list:
        if self.jobs <= 1 or len(batches) <= 1:
            results = []
            for i, batch in enumerate(batches):
                results.append(batch_function(engine_name, rules, batch, job))
                if done:
                    done(i, results[-1])
                if progress:
                    progress(len(batch))
            return results
        try:
            context = multiprocessing.get_context("fork")
        except ValueError:  # pragma: no cover - platforms without fork
            context = multiprocessing.get_context()
        with sigint_deferred():       # Ctrl-C once the pool exists, so that it is stopped (see processes)
            pool = context.Pool(self.jobs, initializer=_init_worker,
                                initargs=(engine_name, rules, job, os.getpid(), batch_function))
        try:
            results = []
            for i, (batch, part) in enumerate(zip(batches, pool.imap(_worker, batches))):
                results.append(part)
                if done:
                    done(i, part)
                if progress:
                    progress(len(batch))
        except BaseException:
            _stop(pool)
            raise
        pool.close()
        pool.join()
        return results


#: How long a failed run waits for its pool to stop before it goes on without it.
STOP_SECONDS = 10.0


def _stop(pool, seconds: float = STOP_SECONDS) -> None:
    """Stop a pool after a failure, in bounded time. ``Pool.terminate()`` kills the workers first and
    then joins the pool's task thread, which can stay blocked for good on the task queue's lock (seen
    once in CI: the run's fault reported, the workers dead, the process waiting forever). So terminate
    runs in a daemon thread: the run's error goes on after ``seconds`` at most, and a stuck thread
    (daemon, like the pool's own) does not keep the process alive."""
    stopper = threading.Thread(target=pool.terminate, name="pnp-pool-stop", daemon=True)
    stopper.start()
    stopper.join(seconds)
    if not stopper.is_alive():
        pool.join()


_WORKER = None


def _init_worker(engine_name, rules, job, parent, batch_function=play_batch_by_name):
    global _WORKER
    # Ctrl-C reaches the whole process group: the parent stops the pool, so workers ignore it
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent)
    _WORKER = (engine_name, rules, job, batch_function)


def _worker(batch):
    engine_name, rules, job, batch_function = _WORKER
    return batch_function(engine_name, rules, batch, job)


#: The address forms of a Dask scheduler pnp connects to.
SCHEDULER_SCHEMES = ("tcp", "tls")


class DaskError(RuntimeError):
    """A Dask run cannot go on (no scheduler answers, no batch finishes in time, workers lost); the
    message says why in one line."""


def scheduler_address(text: str) -> str:
    """``text`` checked as a Dask scheduler's address before anything connects to it: ``tcp://HOST:PORT`` or
    ``tls://HOST:PORT`` (an IPv6 host in brackets). Raises ValueError saying what is wrong."""
    example = "e.g. tcp://10.0.0.5:8786"
    text = (text or "").strip()
    if not text:
        raise ValueError(f"give the address of a Dask scheduler, {example}")
    scheme, sep, _ = text.partition("://")
    if not sep:
        raise ValueError(f"expected tcp://HOST:PORT or tls://HOST:PORT, {example}")
    if scheme.lower() not in SCHEDULER_SCHEMES:
        raise ValueError(f"{scheme}:// is not a scheduler address pnp can use: give tcp://HOST:PORT or "
                         f"tls://HOST:PORT, {example}")
    parts = urlsplit(text)
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"the port must be a number from 1 to 65535, {example}") from None
    if not parts.hostname:
        raise ValueError(f"no host in the address, {example}")
    if (parts.username is not None or parts.path not in ("", "/") or parts.query or parts.fragment
            or any(c.isspace() or not c.isprintable() for c in text)):
        raise ValueError(f"expected only a host and a port after {scheme}://, {example}")
    if port is None:
        raise ValueError(f"give the scheduler's port (Dask's default is 8786), {example}")
    if not 1 <= port <= 65535:
        raise ValueError(f"the port must be a number from 1 to 65535, {example}")
    return text


class DaskExecutor:
    """Batches as tasks of a Dask cluster: the one at ``scheduler`` (``tcp://host:8786``), or a local
    cluster of ``workers`` single-threaded processes started for the run.

    Every wait is bounded, and ends the run with a :class:`DaskError`: connecting (a listener that never
    answers as a scheduler does), a stretch without any batch finishing, a cluster without workers. A
    batch whose workers die is run again elsewhere up to :attr:`ALLOWED_FAILURES` times (on a cluster
    pnp starts; a running scheduler applies its own ``distributed.scheduler.allowed-failures``), then the
    run stops. Ctrl-C (``KeyboardInterrupt``) cancels the batches and closes the client and the local
    cluster before it goes on; the local cluster's processes never receive Ctrl-C themselves."""

    #: Seconds to reach a scheduler (connect and handshake) before giving up with an error naming it.
    CONNECT_TIMEOUT = 20
    #: Seconds without any batch finishing (a batch is at most 250 games) before the run stops.
    BATCH_TIMEOUT = 600
    #: Seconds the cluster may have no worker at all before the run stops.
    NO_WORKERS_TIMEOUT = 60
    #: Times a batch may lose its worker before the run stops (a cluster pnp starts).
    ALLOWED_FAILURES = 3
    #: Seconds between two looks at the batches, and between two questions to the scheduler about its workers.
    POLL = 0.1
    WORKERS_LOOK = 1.0

    def __init__(self, scheduler: str | None = None, workers: int = 2, retries: int = 2):
        self.scheduler = scheduler_address(scheduler) if scheduler is not None else None
        self.workers = max(1, int(workers))
        self.retries = retries

    def where(self) -> str:
        return f"the Dask scheduler at {self.scheduler}" if self.scheduler else "the local Dask cluster"

    def client(self):
        """(client, local cluster or None), connected within :attr:`CONNECT_TIMEOUT` seconds."""
        try:
            from dask.distributed import Client  # noqa: F401
        except ImportError:  # pragma: no cover - depends on the installed extras
            raise RuntimeError("the Dask executor needs dask.distributed: pip install 'pnp[dask]'") from None
        if self.scheduler:
            # Dask's own timeout ends a refused connection; a listener that accepts and never answers is
            # ended here, a little later
            return _within(self.CONNECT_TIMEOUT + 2, self._connect,
                           f"no Dask scheduler answered at {self.scheduler} within {self.CONNECT_TIMEOUT} s"), None
        return self._local_cluster()

    def _connect(self):
        import dask
        from dask.distributed import Client

        if self.scheduler.lower().startswith("tls://") and not dask.config.get("distributed.comm.tls.ca-file"):
            raise DaskError(f"{self.scheduler}: tls:// needs Dask's TLS settings (distributed.comm.tls: ca-file, "
                            f"and the client's cert and key) in Dask's configuration")
        self._probe()
        try:
            return Client(self.scheduler, timeout=f"{self.CONNECT_TIMEOUT}s", set_as_default=False)
        except (OSError, TimeoutError) as exc:
            raise DaskError(f"cannot reach a Dask scheduler at {self.scheduler}: {_first_line(exc)}") from None
        except Exception as exc:  # noqa: BLE001 - whatever answered, it did not answer as a scheduler does
            raise DaskError(f"what answers at {self.scheduler} is not a Dask scheduler pnp can use "
                            f"({type(exc).__name__}: {_first_line(exc)})") from None

    def _probe(self) -> None:
        """Ask what answers at the address who it is (Dask's ``identity`` message) on a connection of
        this method's own, closed whatever happens, before a :class:`~dask.distributed.Client` is made:
        a Client whose connection fails halfway is left to close itself when the program ends, which
        against a listener that sent garbage took 40 s and printed a traceback. :class:`DaskError` unless
        a scheduler answers."""
        import asyncio

        from distributed.comm import connect
        from distributed.security import Security

        async def identity():
            comm = await connect(self.scheduler, timeout=self.CONNECT_TIMEOUT,
                                 **Security().get_connection_args("client"))
            try:
                await comm.write({"op": "identity", "reply": True})
                return await comm.read()
            finally:
                comm.abort()

        try:
            answer = asyncio.run(identity())
        except (OSError, TimeoutError) as exc:
            raise DaskError(f"cannot reach a Dask scheduler at {self.scheduler}: {_first_line(exc)}") from None
        except Exception as exc:  # noqa: BLE001 - whatever answered, it did not answer as a scheduler does
            raise DaskError(f"what answers at {self.scheduler} is not a Dask scheduler pnp can use "
                            f"({_garbled(exc)})") from None
        if not isinstance(answer, dict) or answer.get("type") != "Scheduler":
            kind = answer.get("type") if isinstance(answer, dict) else None
            said = f"a Dask {kind[:40]}" if isinstance(kind, str) else "not a Dask scheduler's answer"
            raise DaskError(f"what answers at {self.scheduler} is not a Dask scheduler pnp can use ({said})")

    def _local_settings(self):
        """Dask's settings for a run on a local cluster: a batch may lose its worker
        :attr:`ALLOWED_FAILURES` times; workers (also one a nanny starts again later) come from a fork
        server, where the system has one, which :meth:`_local_cluster` starts ignoring Ctrl-C."""
        import multiprocessing as mp

        import dask

        settings = {"distributed.scheduler.allowed-failures": self.ALLOWED_FAILURES}
        if "forkserver" in mp.get_all_start_methods():
            settings["distributed.worker.multiprocessing-method"] = "forkserver"
        return dask.config.set(settings)

    def _local_cluster(self):
        from multiprocessing import forkserver

        import dask
        from dask.distributed import Client, LocalCluster
        from distributed.utils import get_mp_context

        if dask.config.get("distributed.worker.multiprocessing-method") == "forkserver":
            get_mp_context()                          # Dask's list of modules the fork server imports once
            with sigint_ignored_by_children():        # the server, and every worker it forks, ignore Ctrl-C
                forkserver.ensure_running()
        # the workers ignore Ctrl-C wherever they come from (preload: processes.dask_setup); the scheduler's
        # own log lines (a batch cancelled by Ctrl-C) are not the user's business: DaskError is
        cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.CRITICAL,
                               preload=["rules_engine.processes"])
        try:
            return Client(cluster, set_as_default=False), cluster
        except BaseException:
            cluster.close()
            raise

    def run(self, engine_name: str, rules, batches: Sequence, job, progress: Callable | None = None,
            batch_function: Callable = play_batch_by_name, done: Callable | None = None) -> list:
        """Each batch's result in batch order; ``done(i, result)`` is called as batch ``i`` arrives."""
        with self._local_settings() if self.scheduler is None else contextlib.nullcontext():
            return self._run(engine_name, rules, batches, job, progress, batch_function, done)

    def _run(self, engine_name, rules, batches, job, progress, batch_function, done) -> list:
        client = cluster = None
        futures = []
        try:
            # a local cluster starts whole, a Ctrl-C meanwhile raised after, and then it is stopped; waiting
            # for a scheduler can be stopped at once
            with sigint_deferred() if self.scheduler is None else contextlib.nullcontext():
                client, cluster = self.client()
            count = len(batches)       # one message to the scheduler for all batches
            futures = client.map(batch_function, [engine_name] * count, [rules] * count, list(batches),
                                 [job] * count, pure=False, retries=self.retries)
            return self._gather(client, futures, batches, progress, done)
        finally:
            with sigint_deferred():      # a second Ctrl-C does not cut the clean-up short
                try:
                    if client is not None:
                        self._stop(client, futures)
                finally:
                    if cluster is not None:
                        cluster.close(timeout=self.CONNECT_TIMEOUT)

    def _stop(self, client, futures) -> None:
        """Cancel the batches still out there and close the client, each within :attr:`CONNECT_TIMEOUT`
        seconds (a scheduler that stopped answering does not hold the run's end)."""
        if futures and client.status == "running":
            try:
                _within(self.CONNECT_TIMEOUT, lambda: client.cancel(futures), "")
            except Exception:  # noqa: BLE001 - the run ends anyway; its own error is the one to report
                pass
        try:
            client.close(timeout=self.CONNECT_TIMEOUT)
        except Exception:  # noqa: BLE001 - as above
            pass

    def _gather(self, client, futures, batches, progress, done=None) -> list:
        """Each batch's result, in batch order; a batch is counted once, whatever ran it."""
        from distributed import KilledWorker

        results = [None] * len(futures)
        pending = dict(enumerate(futures))
        last_done = time.monotonic()
        last_look = float("-inf")
        no_workers_since = None
        while pending:
            now = time.monotonic()
            finished = [i for i, future in pending.items() if future.done()]
            for i in finished:
                future = pending.pop(i)
                if future.status == "error":
                    exc = future.exception()
                    if isinstance(exc, KilledWorker):
                        raise DaskError(f"batch {i + 1} of {len(futures)} lost its worker too many times on "
                                        f"{self.where()} (Dask's allowed-failures); the run stops") from None
                    if isinstance(exc, ImportError):
                        raise DaskError(f"a worker of {self.where()} cannot run pnp's engines ({_first_line(exc)}): "
                                        f"install the same version of pnp on every worker") from None
                    raise exc
                if future.status != "finished":
                    raise DaskError(f"{self.where()} dropped batch {i + 1} of {len(futures)} "
                                    f"({future.status}); the run stops")
                results[i] = future.result()
                if done:
                    done(i, results[i])
                if progress:
                    progress(len(batches[i]))
            if finished:
                last_done = now
                continue
            if now - last_done > self.BATCH_TIMEOUT:
                raise DaskError(f"no batch of games finished on {self.where()} in {self.BATCH_TIMEOUT} s; "
                                f"the run stops")
            if client.status not in ("running", "connecting"):
                raise DaskError(f"lost the connection to {self.where()}; the run stops")
            if now - last_look >= self.WORKERS_LOOK:
                last_look = now
                try:
                    workers = client.nthreads(callback_timeout=self.CONNECT_TIMEOUT)
                except (OSError, TimeoutError):
                    raise DaskError(f"{self.where()} stopped answering; the run stops") from None
                if workers:
                    no_workers_since = None
                else:
                    no_workers_since = no_workers_since or now
                    if now - no_workers_since > self.NO_WORKERS_TIMEOUT:
                        raise DaskError(f"{self.where()} has had no worker for {self.NO_WORKERS_TIMEOUT} s; the "
                                        f"run stops")
            time.sleep(self.POLL)
        return results


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:200]


def _garbled(exc: BaseException) -> str:
    """How a message that is no Dask message failed to read, in a few words (not a claim to exabytes)."""
    if isinstance(exc, MemoryError):
        return "it announced a message too large to be Dask's"
    return f"{type(exc).__name__}: {_first_line(exc)[:120]}"


def _within(seconds: float, function: Callable, message: str):
    """``function()`` run on a helper thread, given ``seconds`` to return (connecting to a scheduler can
    wait forever on a listener that never answers); DaskError(``message``) after that. An exception
    ``function`` raises is raised here."""
    outcome: list = []

    def target():
        try:
            outcome.append((True, function()))
        except BaseException as exc:  # noqa: BLE001 - raised again on the calling thread
            outcome.append((False, exc))
    thread = threading.Thread(target=target, name="pnp-dask-connect", daemon=True)
    thread.start()
    thread.join(seconds)
    if not outcome:
        raise DaskError(message)
    ok, value = outcome[0]
    if not ok:
        raise value
    return value
