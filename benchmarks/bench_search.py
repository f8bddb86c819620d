"""The search bot's speed: simulations per second of CPU time at fixed positions, and whole games.

Usage: python benchmarks/bench_search.py [GAME] [--players 4] [--budget 100] [--positions 24]
       [--games 0] [--bots B,...] [--runs 3] [--src OLD_TREE ...]

Positions are taken from seeded games of the engine's default bots (or ``--bots``) (every few decisions of each seat,
so the draft, the waves and the later battles are all there); at each, a search bot with the given
budget chooses with its own seeded generator. Each tree (this one, then every ``--src`` tree: an
export of an earlier commit, run in a subprocess with its own ``PYTHONPATH``) is timed in turn, run
after run, so that trees are compared in the same conditions on a shared machine; the figure is the
CPU time of the process (what one core does, however loaded the machine is). The decisions' digest
shows whether two trees chose the same actions. ``--games N`` also plays N whole games with the
search bot in every seat (the issue's "seconds per game" figure).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import time


def positions(engine, rules, players: int, count: int, bot_specs, seed: int = 7):
    """``count`` decision points ``(state, seat)`` from seeded games of the given bots, spread over the games."""
    bots = [engine.ENGINE.make_bot(bot_specs[i % len(bot_specs)]) for i in range(players)]
    out = []
    game = 0
    while len(out) < count:
        rng = random.Random(seed * 1000 + game)
        state = engine.ENGINE.new_state(rules, players)
        decisions = 0
        while not state.is_over and len(out) < count:
            if state.is_chance():
                state.sample_chance(rng)
                continue
            movers = state.to_move()
            for p in movers:
                if decisions % 7 == game % 7 and len(state.legal_actions(p)) > 1:
                    out.append((state.clone(), p))
                decisions += 1
            joint = {p: bots[p].act(state, p, rng) for p in movers}
            if len(movers) == 1:
                state.step_action(joint[movers[0]])
            else:
                state.step_actions(joint)
        game += 1
    return out


def measure(name: str, players: int, budget: int, count: int, games: int, bots: str) -> dict:
    try:
        from pnp.loading.gamedata import load_game
    except ImportError:         # a tree from before the loading package (91f5fa9, the first "before")
        from pnp.gamedata import load_game
    from rules_engine import engine_module
    from rules_engine.core.runs import run_games

    game = load_game(name)
    engine = engine_module(game.engine)
    rules = engine.rules_for(game)
    points = positions(engine, rules, players, count, bots.split(",") if bots else engine.DEFAULT_BOTS)
    bot = engine.ENGINE.make_bot(f"search:{budget}")
    digest = hashlib.sha256()
    start = time.process_time()
    for i, (state, p) in enumerate(points):
        action = bot.act(state, p, random.Random(i))
        digest.update(state.action_to_string(p, action).encode())
    cpu = time.process_time() - start
    out = {"positions": len(points), "cpu": cpu, "simulations_per_s": budget * len(points) / cpu,
           "digest": digest.hexdigest()[:12]}
    if games:
        start = time.process_time()
        run_games(engine.ENGINE, rules, games=games, seed=7, players=players, bots=(f"search:{budget}",))
        out["seconds_per_game"] = (time.process_time() - start) / games
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("name", nargs="?", default="shadow_throne", metavar="GAME")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--budget", type=int, default=100)
    parser.add_argument("--positions", type=int, default=24)
    parser.add_argument("--games", type=int, default=0)
    parser.add_argument("--bots", default="", help="bots of the games the positions come from (default: "
                        "the engine's default bots)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--src", nargs="*", default=[], help="other source trees to time in the same run")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.name, args.players, args.budget, args.positions, args.games, args.bots)))
        return
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    trees = [here, *args.src]
    print(f"{args.name}, {args.players} players, search:{args.budget}, {args.positions} positions "
          f"(load average {os.getloadavg()[0]:.1f})")
    results = {tree: [] for tree in trees}
    for run in range(args.runs):
        for tree in trees:
            env = dict(os.environ, PYTHONPATH=tree)
            cmd = [sys.executable, os.path.abspath(__file__), args.name, "--child", "--players", str(args.players),
                   "--budget", str(args.budget), "--positions", str(args.positions), "--games", str(args.games),
                   "--bots", args.bots]
            done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
            result = json.loads(done.stdout)
            results[tree].append(result)
            extra = f", {result['seconds_per_game']:.2f} s a game" if "seconds_per_game" in result else ""
            print(f"  run {run + 1} {tree}: {result['simulations_per_s']:,.0f} simulations/s "
                  f"({result['cpu']:.2f} s CPU){extra}, decisions {result['digest']} "
                  f"(load {os.getloadavg()[0]:.1f})", flush=True)
    for tree, rows in results.items():
        best = max(r["simulations_per_s"] for r in rows)
        print(f"{tree}: best {best:,.0f} simulations/s")


if __name__ == "__main__":
    main()
