"""Where a run's batches of games are played: here, in local worker processes, or on a Dask cluster.

An executor has ``run(engine_name, rules, batches, job, progress) -> [batch results]``, results in batch
order whatever order they finish in; ``batch_function(engine_name, rules, batch, job)`` (default: play the
batch's games, :func:`play_batch_by_name`) is what a worker runs, and ``done(index, result)`` (optional)
hears of each batch as it finishes (``pnp lab`` stores it at once, so an interrupted sweep resumes). A batch is a range of game indexes; ``job`` is ``(seed, players,
bots, check, options)``. Every game is seeded from ``(seed, index)`` alone, so any executor gives the
same results, and a batch that is played twice (a retried batch of a dead worker) is counted once:
its result is stored at its own place in the list.

* :class:`LocalExecutor` (``--jobs N``): this process, or ``N`` forked worker processes. Ctrl-C stops
  the workers (they ignore SIGINT themselves, so none prints a traceback) and re-raises
  ``KeyboardInterrupt`` in this process.
* :class:`DaskExecutor` (``--executor dask [--scheduler ADDRESS]``): batches are tasks on a running
  ``dask.distributed`` cluster, or on a local cluster it starts and stops. Dask retries the tasks of a
  worker that dies. Needs the ``dask`` extra (``pip install 'pnp[dask]'``).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
from typing import Callable, Sequence

from rules_engine.processes import die_with_parent, sigint_deferred


def play_batch_by_name(engine_name: str, rules, batch, job) -> list:
    """Play one batch in whatever process this runs in (the engine is looked up by its installed name, so
    a Dask worker needs the same engines installed)."""
    from rules_engine import engine_module
    from rules_engine.core.play import play_batch

    seed, players, bots, check, options, *extra = job     # extra: (experience,) asks for experience metrics
    engine = engine_module(engine_name).ENGINE
    return play_batch(engine, rules, batch, seed, players, bots, check, options, *extra)


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
            pool.terminate()
            pool.join()
            raise
        pool.close()
        pool.join()
        return results


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


class DaskExecutor:
    """Batches as tasks of a Dask cluster: the one at ``scheduler`` (``tcp://host:8786``), or a local
    cluster of ``workers`` single-threaded processes started for the run."""

    #: How long to try reaching a scheduler before giving up with an error naming it.
    CONNECT_TIMEOUT = "20s"

    def __init__(self, scheduler: str | None = None, workers: int = 2, retries: int = 2):
        self.scheduler = scheduler
        self.workers = max(1, int(workers))
        self.retries = retries

    def client(self):
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:  # pragma: no cover - depends on the installed extras
            raise RuntimeError("the Dask executor needs dask.distributed: pip install 'pnp[dask]'") from None
        if self.scheduler:
            return Client(self.scheduler, timeout=self.CONNECT_TIMEOUT), None
        cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.ERROR)
        return Client(cluster), cluster

    def run(self, engine_name: str, rules, batches: Sequence, job, progress: Callable | None = None,
            batch_function: Callable = play_batch_by_name, done: Callable | None = None) -> list:
        from dask.distributed import as_completed

        client, cluster = self.client()
        try:
            futures = [client.submit(batch_function, engine_name, rules, batch, job, pure=False,
                                     retries=self.retries) for batch in batches]
            where = {future.key: i for i, future in enumerate(futures)}
            results = [None] * len(futures)
            for future in as_completed(futures):
                i = where[future.key]
                if results[i] is None:        # a batch is counted once, whatever ran it
                    results[i] = future.result()
                    if done:
                        done(i, results[i])
                    if progress:
                        progress(len(batches[i]))
            return results
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
