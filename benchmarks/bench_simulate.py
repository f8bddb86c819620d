"""Measure simulation speed for any game with a rules engine: games per second on one core and with
worker processes.

Usage: python benchmarks/bench_simulate.py [GAME ...] [--games 10000] [--players 4 [N ...]] [--jobs 1 2]
       [--bots random] [--runs 3] [--check] [--cli]

For each GAME (default: every bundled game with an engine) and each player count it times the
engine's games (best of ``--runs``) for each ``--jobs`` value through the engine protocol (the core's
``run_games`` with the engine's ``ENGINE``, so a solo report's extra runs are not counted), prints the
engine's own report of one run, and with ``--cli`` also times the whole ``pnp simulate`` command
(start-up included). A measurement, not a test.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

from pnp import DATA_DIR
from pnp.loading.gamedata import load_game
from rules_engine import engine_module
from rules_engine.core import runs


def bundled_games() -> list[str]:
    names = sorted(p.name for p in DATA_DIR.iterdir() if (p / "game.yaml").is_file())
    return [name for name in names if load_game(name).engine]


def bench(game_name: str, args) -> None:
    game = load_game(game_name)
    engine = engine_module(game.engine)
    rules = engine.rules_for(game)
    bots = tuple(args.bots.split(",")) if args.bots else tuple(engine.DEFAULT_BOTS)
    lo, hi = engine.PLAYERS
    for players in args.players:
        if not lo <= players <= hi:
            continue
        print(f"{game.title}: {args.games} games, {players} players, bots {','.join(bots)}, check {args.check}, "
              f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
        base = None
        for jobs in args.jobs:
            times, cpu = [], []
            for _ in range(args.runs):
                start, start_cpu = time.perf_counter(), time.process_time()
                results = runs.run_games(engine.ENGINE, rules, games=args.games, seed=args.seed, players=players,
                                         bots=bots, jobs=jobs, check=args.check)
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
            best = min(times)
            base = base or best
            broken = sum(len(r.violations) for r in results)
            # with one job the games run in this process: its CPU time is what one core spends, whatever
            # else the machine runs (wall time is what a user waits for)
            on_cpu = f", CPU {min(cpu):.2f} s ({args.games / min(cpu):,.0f} games/s on one core)" if jobs == 1 else ""
            print(f"  jobs {jobs}: best {best:.2f} s wall ({args.games / best:,.0f} games/s, speed-up "
                  f"{base / best:.2f}x){on_cpu}; broken invariants {broken}")
        if args.report:
            report = engine.simulate(rules, games=args.games, seed=args.seed, players=players, bots=bots,
                                     jobs=max(args.jobs), check=args.check)
            for line in engine.report_lines(report, title=game.title, cards=game.cards, factions=game.factions)[1:]:
                print(f"    {line}")
        if args.cli:
            for jobs in args.jobs:
                start = time.perf_counter()
                subprocess.run([sys.executable, "-m", "pnp", "simulate", game_name, "--games", str(args.games),
                                "--players", str(players), "--bots", ",".join(bots), "--seed", str(args.seed),
                                "--jobs", str(jobs)], check=True, capture_output=True)
                print(f"  pnp simulate --jobs {jobs}: {time.perf_counter() - start:.2f} s wall")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("games_to_bench", nargs="*", metavar="GAME", help="bundled game names (default: all)")
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--players", type=int, nargs="+", default=[4], help="player counts (e.g. 1 2 3 4 5)")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--bots", default=None, help="comma-separated bots (default: the engine's default)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--check", action="store_true", help="check invariants at every step")
    parser.add_argument("--cli", action="store_true", help="also time the pnp simulate command")
    parser.add_argument("--report", action="store_true", help="also print the engine's report of one run")
    args = parser.parse_args()
    for name in args.games_to_bench or bundled_games():
        bench(name, args)


if __name__ == "__main__":
    main()
