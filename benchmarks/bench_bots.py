"""Games per second per bot and per executor, for every game with a rules engine.

Usage: python benchmarks/bench_bots.py [GAME ...] [--games 4000] [--players 4] [--search-games 6]
       [--search 100] [--executors local1 local2 dask2] [--runs 2]

Per bot: a table of one bot everywhere (``random``, the game's own bots, ``search:N``) on one core.
Per executor: random bots on one core, two local processes, and a local Dask cluster of two workers
(cluster start-up included, as a user waits for it). A measurement, not a test.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from pnp import DATA_DIR
from pnp.loading.gamedata import load_game
from rules_engine import engine_module
from rules_engine.core.executors import DaskExecutor, LocalExecutor
from rules_engine.core.runs import run_games


def bundled_games() -> list[str]:
    names = sorted(p.name for p in DATA_DIR.iterdir() if (p / "game.yaml").is_file())
    return [name for name in names if load_game(name).engine]


def timed(engine, rules, games, players, bots, executor, runs) -> float:
    best = None
    for _ in range(runs):
        start = time.perf_counter()
        run_games(engine.ENGINE, rules, games=games, seed=7, players=players, bots=bots, executor=executor)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return games / best


def bench(name: str, args) -> None:
    game = load_game(name)
    engine = engine_module(game.engine)
    rules = engine.rules_for(game)
    players = min(max(args.players, engine.PLAYERS[0]), engine.PLAYERS[1])
    print(f"{game.title}, {players} players ({os.cpu_count()} CPUs, Python {sys.version.split()[0]})")
    own = [b for b in engine.BOTS if b not in ("random", "search")]
    for bot in ["random", *own, f"search:{args.search}"]:
        games = args.search_games if bot.startswith("search") else args.games
        runs = 1 if bot.startswith("search") else args.runs
        rate = timed(engine, rules, games, players, (bot,), LocalExecutor(1), runs)
        print(f"  bot {bot:>12}: {rate:10,.2f} games/s ({games} games, one core)")
    executors = {"local1": lambda: LocalExecutor(1), "local2": lambda: LocalExecutor(2),
                 "dask2": lambda: DaskExecutor(workers=2)}
    for key in args.executors:
        rate = timed(engine, rules, args.games, players, ("random",), executors[key](), args.runs)
        print(f"  executor {key:>8}: {rate:10,.0f} games/s (random bots, {args.games} games)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("names", nargs="*", metavar="GAME")
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--search", type=int, default=100, help="the search bot's budget")
    parser.add_argument("--search-games", type=int, default=6)
    parser.add_argument("--executors", nargs="+", default=["local1", "local2", "dask2"])
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    for name in args.names or bundled_games():
        bench(name, args)


if __name__ == "__main__":
    main()
