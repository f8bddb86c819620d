"""Is the search bot with the cheaper rollout as strong as before? A seeded ladder of whole games.

Usage: python benchmarks/ladder_search.py [GAME] [--budget 25] [--pairs 200] [--reference-games 400]
       [--out FILE.jsonl] [--summary-only]

Two search bots with the same budget, differing only in their rollout policy:

* ``new``: the engine's rollout as shipped (Shadow Throne: a rollout ends at the end of the battle);
* ``old``: the rollout before (Shadow Throne: ``GreedyRollout(battle_end=False)``, to the horizon of
  20 decisions; the same decisions as main before the change: ``tests/test_search_decisions.py``).

Head to head: ``--pairs`` seeds, each played twice at four seats, ``new, old, new, old`` and then
``old, new, old, new`` (so every bot sits in every seat, on the same deals): 2 x pairs games. A game
scores the share of the returns (1 for the winner, shared on a tie) that the ``new`` seats took: 50 %
when the two are as strong. Against a fixed reference: each bot in one seat (rotating) against three
greedy bots, on the same seeds for both.

Each game is one line of ``--out`` (JSON) as soon as it is played, so a run that is stopped keeps its
games and a new run goes on where it stopped. The summary gives each figure with a 95 % interval (the
mean of per-seed scores, normal approximation; the head-to-head pairs are the unit).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time


def bots(engine_name: str, budget: int):
    """``{"new": bot, "old": bot, "greedy": bot}`` for the engine."""
    from rules_engine import engine_module
    from rules_engine.core.search import SearchBot

    engine = engine_module(engine_name)
    if engine_name != "shadow_throne":
        raise SystemExit(f"{engine_name}: only Shadow Throne's rollout changed")
    from rules_engine.shadow_throne.bots import GreedyBot, GreedyRollout

    new = SearchBot(budget, rollout=GreedyRollout())
    old = SearchBot(budget, rollout=GreedyRollout(battle_end=False))
    new.name, old.name = f"new search:{budget}", f"old search:{budget}"
    return engine, {"new": new, "old": old, "greedy": GreedyBot()}


def games_to_play(pairs: int, reference: int):
    """``(key, seed index, seat names)`` of every game, head to head first, then the reference games
    (the two bots' games on one seed one after the other, so a stopped run is still paired)."""
    out = []
    for k in range(pairs):
        out.append((f"h2h:{k}:a", k, ["new", "old", "new", "old"]))
        out.append((f"h2h:{k}:b", k, ["old", "new", "old", "new"]))
    for k in range(reference):
        for arm in ("new", "old"):
            seats = ["greedy"] * 4
            seats[k % 4] = arm
            out.append((f"ref:{k}:{arm}", 10_000 + k, seats))
    return out


def interval(scores) -> tuple[float, float, float]:
    """Mean and its 95 % interval (normal approximation)."""
    n = len(scores)
    mean = sum(scores) / n
    if n < 2:
        return mean, float("nan"), float("nan")
    var = sum((s - mean) ** 2 for s in scores) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def summary(rows: list[dict]) -> list[str]:
    lines = []
    by_key = {r["key"]: r for r in rows}
    pairs, paired = [], []
    for key, row in by_key.items():
        if key.startswith("h2h:") and key.endswith(":a") and key[:-1] + "b" in by_key:
            other = by_key[key[:-1] + "b"]
            pairs.append((row["new_share"] + other["new_share"]) / 2)
            paired += [row, other]
    if pairs:
        mean, low, high = interval(pairs)
        wins = sum(1 for r in paired if r["new_share"] == 1.0)
        losses = sum(1 for r in paired if r["new_share"] == 0.0)
        lines.append(f"head to head, {2 * len(pairs)} games ({len(pairs)} seeds x 2 seatings): the new bot's share "
                     f"of the returns {100 * mean:.1f} % [{100 * low:.1f}, {100 * high:.1f}] "
                     f"(won by a new seat {wins}, by an old seat {losses}, shared {2 * len(pairs) - wins - losses})")
    ref = {}
    for r in rows:
        if r["key"].startswith("ref:"):
            _, k, arm = r["key"].split(":")
            ref.setdefault(int(k), {})[arm] = r["search_return"]
    both = [v for v in ref.values() if len(v) == 2]
    if both:
        for arm in ("new", "old"):
            mean, low, high = interval([v[arm] for v in both])
            lines.append(f"{arm} search bot against three greedy bots, {len(both)} games: wins "
                         f"{100 * mean:.1f} % [{100 * low:.1f}, {100 * high:.1f}] (25 % = as strong as greedy)")
        mean, low, high = interval([v["new"] - v["old"] for v in both])
        lines.append(f"new minus old against greedy, paired by seed: {100 * mean:+.1f} points "
                     f"[{100 * low:+.1f}, {100 * high:+.1f}]")
    cpu = sum(r["cpu"] for r in rows)
    lines.append(f"{len(rows)} games, {cpu:.0f} s CPU in the games")
    return lines


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("name", nargs="?", default="shadow_throne", metavar="GAME")
    parser.add_argument("--budget", type=int, default=25)
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--reference-games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2025)
    parser.add_argument("--out", default="ladder_search.jsonl")
    parser.add_argument("--summary-only", action="store_true")
    args = parser.parse_args()
    rows = []
    if os.path.exists(args.out):
        with open(args.out, encoding="utf-8") as f:
            rows = [json.loads(line) for line in f if line.strip()]
    if not args.summary_only:
        from pnp.loading.gamedata import load_game
        from rules_engine.core.play import play_game
        from rules_engine.core.runs import derive_seed

        game = load_game(args.name)
        engine, made = bots(game.engine, args.budget)
        rules = engine.rules_for(game)
        done = {r["key"] for r in rows}
        print(f"{args.name}, search:{args.budget}, {len(done)} games already in {args.out} "
              f"(load average {os.getloadavg()[0]:.1f})", flush=True)
        with open(args.out, "a", encoding="utf-8") as out:
            for key, k, seats in games_to_play(args.pairs, args.reference_games):
                if key in done:
                    continue
                start = time.process_time()
                state = play_game(engine.ENGINE, rules, [made[s] for s in seats],
                                  derive_seed("search-ladder", args.seed, k), players=4)
                returns = state.returns()
                row = {"key": key, "seats": seats, "returns": returns, "budget": args.budget,
                       "new_share": sum(r for r, s in zip(returns, seats) if s == "new"),
                       "search_return": sum(r for r, s in zip(returns, seats) if s != "greedy"),
                       "battles": state.battle, "cpu": round(time.process_time() - start, 3)}
                out.write(json.dumps(row) + "\n")
                out.flush()
                rows.append(row)
                if len(rows) % 20 == 0:
                    print(f"{len(rows)} games (load average {os.getloadavg()[0]:.1f})", flush=True)
    print("\n".join(summary(rows)))


if __name__ == "__main__":
    sys.exit(main())
