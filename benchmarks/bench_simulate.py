"""Measure Shadow Throne simulation speed: games per second on one core and with worker processes.

Usage: python benchmarks/bench_simulate.py [--games 10000] [--players 4] [--jobs 1 2] [--bots random]
       [--runs 3] [--check] [--cli]

Times the in-process API (``run_games``), best of ``--runs``, for each ``--jobs`` value, and with
``--cli`` also the whole ``pnp simulate`` command (start-up included). A measurement, not a test.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

from pnp.gamedata import load_game
from rules_engine.shadow_throne import Rules, run_games, summarize


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--bots", default="random")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--check", action="store_true", help="check invariants at every step")
    parser.add_argument("--cli", action="store_true", help="also time the pnp simulate command")
    args = parser.parse_args()
    bots = tuple(args.bots.split(","))
    game = load_game("shadow_throne")
    rules = Rules(game.cards, game.factions)
    print(f"{args.games} games, {args.players} players, bots {','.join(bots)}, check {args.check}, "
          f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    base = None
    for jobs in args.jobs:
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            results = run_games(rules, games=args.games, seed=args.seed, players=args.players, bots=bots,
                                jobs=jobs, check=args.check)
            times.append(time.perf_counter() - start)
        best = min(times)
        base = base or best
        summary = summarize(results, factions=rules.factions, players=args.players, seed=args.seed, bots=bots,
                            checked=args.check)
        print(f"  jobs {jobs}: best {best:.2f} s ({args.games / best:,.0f} games/s, speed-up {base / best:.2f}x); "
              f"battles/game {summary['battles']['mean']:.2f}; broken invariants {summary['invariants']['broken']}")
    if args.cli:
        for jobs in args.jobs:
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "pnp", "simulate", "--games", str(args.games), "--players",
                            str(args.players), "--bots", args.bots, "--seed", str(args.seed), "--jobs", str(jobs)],
                           check=True, capture_output=True)
            print(f"  pnp simulate --jobs {jobs}: {time.perf_counter() - start:.2f} s wall")


if __name__ == "__main__":
    main()
