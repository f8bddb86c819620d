"""Time ``pnp build`` for a bundled game: in-process (layout + render + write) and as a fresh command.

Usage: python benchmarks/bench_build.py [GAME] [--runs N] [--jobs N ...] [--src DIR ...]

Prints the median and spread of the wall-clock time and of the CPU time (user + system) of each run;
on a busy machine the CPU time is the steadier figure. ``--src`` times the command of other source
trees (for instance an export of an earlier commit: ``git archive main | tar -x -C /tmp/before``) in
the same run, so figures compare like with like.

Fresh processes run twice over: as an installed pnp runs (Python's compiled-module cache in use, kept
in a temporary folder so the tree stays clean) and with PYTHONDONTWRITEBYTECODE=1, where every module
is compiled from source at every start. Each fresh run is timed for every ``--jobs`` given (default: 1
and the default of ``pnp build``, the cores it may use). This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_command(args: list, env: dict | None, cwd: str, runs: int) -> tuple[list, list]:
    """(wall times, CPU times) of ``runs`` fresh processes."""
    walls, cpus = [], []
    for _ in range(runs):
        cpu, wall = _children_cpu(), time.perf_counter()
        subprocess.run(args, check=True, capture_output=True, env=env, cwd=cwd)
        walls.append(time.perf_counter() - wall)
        cpus.append(_children_cpu() - cpu)
    return walls, cpus


def report(name: str, times: list, runs: int) -> None:
    print(f"{name:60s} median {statistics.median(times):.3f} s  min {min(times):.3f}  max {max(times):.3f}"
          f"  ({runs} runs)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("game", nargs="?", default="shadow_throne")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--src", action="append", default=[],
                        help="also time `python -m pnp build` from this source tree (repeatable)")
    parser.add_argument("--jobs", type=int, nargs="+", default=None,
                        help="processes for `pnp build --jobs` (default: 1 and pnp's default)")
    args = parser.parse_args()
    from pnp.components import BuildOptions
    from pnp.build.kit import build_kit
    from pnp.build.workers import default_jobs

    jobs = args.jobs or sorted({1, default_jobs()})

    with tempfile.TemporaryDirectory() as out:
        build_kit(args.game, out, BuildOptions())  # warm caches (fonts, templates) as a long run would
        inproc = []
        for _ in range(args.runs):
            t = time.perf_counter()
            build_kit(args.game, out, BuildOptions())
            inproc.append(time.perf_counter() - t)
        report("build_kit, warm process (wall)", inproc, args.runs)
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        # `python -m` puts the working directory first on sys.path: run each tree from its own folder
        trees = [("this tree", here)] + [(src, os.path.abspath(src)) for src in args.src]
        with tempfile.TemporaryDirectory() as pycache:
            modes = [("bytecode cached", {"PYTHONPYCACHEPREFIX": pycache}),
                     ("no bytecode cache", {"PYTHONDONTWRITEBYTECODE": "1"})]
            for mode, extra in modes:
                for label, src in trees:
                    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
                    env.update(extra, PYTHONPATH=src)
                    for n in jobs:
                        command = [sys.executable, "-m", "pnp", "build", args.game, "--out", out]
                        if label == "this tree":
                            command += ["--jobs", str(n)]
                        elif n != 1:
                            continue        # an earlier tree may not know --jobs: timed in one process
                        subprocess.run(command, check=True, capture_output=True, env=env, cwd=src)   # fills the cache
                        walls, cpus = time_command(command, env, src, args.runs)
                        name = f"pnp build --jobs {n}, {label}, {mode}"
                        report(f"{name} (wall)", walls, args.runs)
                        report(f"{name} (CPU)", cpus, args.runs)


if __name__ == "__main__":
    sys.exit(main())
