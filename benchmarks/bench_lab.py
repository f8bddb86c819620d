"""The balance lab's throughput and the skill ladder's speed, timed through the commands a designer runs.

Usage: python benchmarks/bench_lab.py [GAME] [--games 1000] [--jobs 1 2] [--ladder-games 8]
       [--rungs random,greedy,search:25,search:100]

Throughput: ``pnp lab GAME compare base V1 V2`` (two parameter variants, so three arms of ``--games``
games on the same seeds) without a cache for each ``--jobs`` value: games per second of wall time and of
CPU time (this command and its workers: what the cores spent, however busy the machine); then the same
question with a cache, once to fill it and once more answered from it. Ladder: ``pnp lab GAME ladder``
with the rungs given, the seconds per game of each pair of rungs as the command reports them. A
measurement, not a test.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

VARIANTS = {"shadow_throne": ("goal: 12", "start_gold: 5"),
            "behind_the_throne": ("max_stacks: 4", "max_stacks: 6"),
            "shadow_kingdoms_of_valeria": ("end_plans: 5", "end_plans: 7"),
            "shadow_queen": ("enthral_to_win: 8", "banish_to_win: 1")}


def run(args: list[str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the command and its workers, output) of ``pnp ARGS``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pnp", *args], capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        sys.exit(f"pnp {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("game", nargs="?", default="shadow_throne")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--ladder-games", type=int, default=8)
    parser.add_argument("--rungs", default="random,greedy,search:25,search:100")
    args = parser.parse_args()
    print(f"{args.game} ({os.cpu_count()} CPUs, Python {sys.version.split()[0]}, load {os.getloadavg()[0]:.1f})")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        files = []
        for i, text in enumerate(VARIANTS[args.game]):
            path = tmp / f"v{i}.yaml"
            path.write_text(f"name: V{i}\nparameters: {{{text}}}\n")
            files.append(str(path))
        question = ["lab", args.game, "compare", "base", *files, "--games", str(args.games)]
        total = 3 * args.games
        for jobs in args.jobs:
            wall, cpu, _ = run([*question, "--jobs", str(jobs), "--no-cache", "--out", str(tmp / f"j{jobs}")])
            print(f"  compare, 3 arms x {args.games} games, --jobs {jobs}, no cache: {wall:6.1f} s wall, "
                  f"{total / wall:7.1f} games/s; {total / cpu:7.1f} games per CPU second")
        cached = [*question, "--jobs", str(max(args.jobs)), "--out", str(tmp / "cached")]
        wall, _, _ = run(cached)
        again, _, _ = run(cached)
        print(f"  the same with a cache: {wall:6.1f} s to fill it, {again:6.1f} s answered from it")
        wall, cpu, out = run(["lab", args.game, "ladder", "--rungs", args.rungs, "--games", str(args.ladder_games),
                              "--jobs", str(max(args.jobs)), "--no-cache", "--out", str(tmp / "ladder")])
        print(f"  ladder {args.rungs}, {args.ladder_games} games per pair: {wall:6.1f} s wall, {cpu:6.1f} s CPU")
        for line in out.splitlines():
            if re.search(r" vs .*: \d+ games in ", line):
                print(f"   {line.strip()}")


if __name__ == "__main__":
    main()
