"""How strong is the search bot? Seeded, resumable ladders of whole games (issue 25's rollout ladder and
issue 36's ladders against each engine's heuristic bot).

Usage:
    python benchmarks/ladder_search.py GAME --against greedy [--players 4] [--budget 100] [--games 400]
        [-o NAME=VALUE ...] [--src TREE] [--shard I/N] [--out FILE.jsonl ...] [--summary-only]
    python benchmarks/ladder_search.py shadow_throne --rollouts [--budget 25] [--pairs 200]
        [--reference-games 400] [--out FILE.jsonl]

``--against BOT``: game ``k`` seats one ``search:BUDGET`` bot in seat ``k mod players`` and the engine's
``BOT`` in every other seat, on the game seeded from ``(seed, k)``. GAME is a game folder's name or
``tricks`` (the trick-taking test engine of ``tests/engines/tricks``, played from its code with the
standard 36-card deck). ``--src TREE`` plays the search bot of another source tree (an export of an
earlier commit: its ``rules_engine`` is imported instead of this one's), on the same seeds, for a paired
comparison. A game's score is the search seat's return (1 for a win, 1/k of a win shared by k, 0 for a
loss or a game stopped without a winner); the summary gives its mean, the mean return of a heuristic
seat in the same games, and their paired difference, each with a 95 % interval (normal approximation
over the games): the search bot beats the heuristic when the difference's interval lies above 0 (with
every game decided, the same as its mean lying above the fair share 1/players).

``--rollouts`` (issue 25, Shadow Throne only): two search bots with the same budget, differing in their
rollout policy, ``new`` (a rollout ends at the battle's end) and ``old`` (``GreedyRollout(battle_end=
False)``), head to head (each seed played twice at four seats, ``new, old, new, old`` and ``old, new,
old, new``) and each against three greedy bots.

Each game is one line of ``--out`` (JSON) as soon as it is played, so a stopped run keeps its games and
the same command goes on where it stopped; the summary reads the file. ``--shard I/N`` plays only the
games ``k`` with ``k mod N = I`` (N processes, each with its own ``--out``); the summary of several
files (``--out A --out B --summary-only``) counts each game once.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TRICKS = os.path.join(HERE, "..", "tests", "engines", "tricks")


def interval(scores) -> tuple[float, float, float]:
    """Mean and its 95 % interval (normal approximation)."""
    n = len(scores)
    mean = sum(scores) / n
    if n < 2:
        return mean, float("nan"), float("nan")
    var = sum((s - mean) ** 2 for s in scores) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def percent(scores, points=False) -> str:
    mean, low, high = interval(scores)
    sign = "+" if points else ""
    return f"{100 * mean:{sign}.1f} % [{100 * low:{sign}.1f}, {100 * high:{sign}.1f}]"


# ---------------------------------------------------------------------- against a heuristic bot

def load(name: str):
    """``(engine module, rules)`` of a game folder, or of the ``tricks`` test engine."""
    if name == "tricks":
        sys.path.insert(0, TRICKS)
        import tricks

        return tricks, tricks.standard_rules()
    from pnp.loading.gamedata import load_game
    from rules_engine import engine_module

    game = load_game(name)
    engine = engine_module(game.engine)
    return engine, engine.rules_for(game)


def option(text: str):
    name, _, value = text.partition("=")
    try:
        return name, int(value)
    except ValueError:
        return name, value


def against_summary(rows: list[dict]) -> list[str]:
    if not rows:
        return ["no games yet"]
    search = [r["search_return"] for r in rows]
    heuristic = [r["heuristic_return"] for r in rows]
    diff = [s - h for s, h in zip(search, heuristic)]
    decided = sum(1 for r in rows if sum(r["returns"]) > 0)
    first = rows[0]
    lines = [f"{first['game']}, {first['players']} players, search:{first['budget']} against {first['against']}, "
             f"{len(rows)} games ({decided} won by someone), seats rotated",
             f"search seat's return {percent(search)} (fair share {100 / first['players']:.1f} %)",
             f"a {first['against']} seat's return {percent(heuristic)}",
             f"difference, paired by game: {percent(diff, points=True)}"]
    cpu = sum(r["cpu"] for r in rows)
    lines.append(f"{cpu:.0f} s CPU in the games ({cpu / len(rows):.2f} s a game)")
    return lines


def run_against(args, rows: list[dict]) -> None:
    if args.src:
        sys.path.insert(0, os.path.abspath(args.src))
        for name in [m for m in sys.modules if m == "rules_engine" or m.startswith("rules_engine.")]:
            del sys.modules[name]
    from rules_engine.core.play import play_game
    from rules_engine.core.runs import derive_seed

    engine, rules = load(args.name)
    options = dict(option(o) for o in args.option)
    done = {r["key"] for r in rows}
    print(f"{args.name}: search:{args.budget} against {args.against}, {len(done)} games already in {args.out} "
          f"(load average {os.getloadavg()[0]:.1f})", flush=True)
    search = engine.ENGINE.make_bot(f"search:{args.budget}")
    heuristic = engine.ENGINE.make_bot(args.against)
    with open(args.out, "a", encoding="utf-8") as out:
        for k in range(args.shard[0], args.games, args.shard[1]):
            key = f"{args.against}:{k}"
            if key in done:
                continue
            seat = k % args.players
            bots = [heuristic] * args.players
            bots[seat] = search
            start = time.process_time()
            state = play_game(engine.ENGINE, rules, bots, derive_seed("search-ladder", args.seed, k),
                              players=args.players, **options)
            returns = state.returns()
            others = [r for s, r in enumerate(returns) if s != seat]
            row = {"key": key, "game": args.name, "players": args.players, "budget": args.budget,
                   "against": args.against, "options": options, "src": args.src or "", "seat": seat,
                   "returns": returns, "search_return": returns[seat],
                   "heuristic_return": sum(others) / len(others), "cpu": round(time.process_time() - start, 3)}
            out.write(json.dumps(row) + "\n")
            out.flush()
            rows.append(row)
            if len(rows) % 20 == 0:
                print(f"{len(rows)} games (load average {os.getloadavg()[0]:.1f}): "
                      + against_summary(rows)[1], flush=True)


# ---------------------------------------------------------------------- issue 25: two rollouts

def rollout_bots(budget: int):
    """``{"new": bot, "old": bot, "greedy": bot}`` for Shadow Throne."""
    from rules_engine.core.search import SearchBot
    from rules_engine.shadow_throne.bots import GreedyBot, GreedyRollout

    new = SearchBot(budget, rollout=GreedyRollout(), heuristic=GreedyBot())
    old = SearchBot(budget, rollout=GreedyRollout(battle_end=False), heuristic=GreedyBot())
    new.name, old.name = f"new search:{budget}", f"old search:{budget}"
    return {"new": new, "old": old, "greedy": GreedyBot()}


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


def rollout_summary(rows: list[dict]) -> list[str]:
    lines = []
    by_key = {r["key"]: r for r in rows}
    pairs, paired = [], []
    for key, row in by_key.items():
        if key.startswith("h2h:") and key.endswith(":a") and key[:-1] + "b" in by_key:
            other = by_key[key[:-1] + "b"]
            pairs.append((row["new_share"] + other["new_share"]) / 2)
            paired += [row, other]
    if pairs:
        wins = sum(1 for r in paired if r["new_share"] == 1.0)
        losses = sum(1 for r in paired if r["new_share"] == 0.0)
        lines.append(f"head to head, {2 * len(pairs)} games ({len(pairs)} seeds x 2 seatings): the new bot's share "
                     f"of the returns {percent(pairs)} "
                     f"(won by a new seat {wins}, by an old seat {losses}, shared {2 * len(pairs) - wins - losses})")
    ref = {}
    for r in rows:
        if r["key"].startswith("ref:"):
            _, k, arm = r["key"].split(":")
            ref.setdefault(int(k), {})[arm] = r["search_return"]
    both = [v for v in ref.values() if len(v) == 2]
    if both:
        for arm in ("new", "old"):
            lines.append(f"{arm} search bot against three greedy bots, {len(both)} games: wins "
                         f"{percent([v[arm] for v in both])} (25 % = as strong as greedy)")
        lines.append(f"new minus old against greedy, paired by seed: {percent([v['new'] - v['old'] for v in both], True)}")
    cpu = sum(r["cpu"] for r in rows)
    lines.append(f"{len(rows)} games, {cpu:.0f} s CPU in the games")
    return lines


def run_rollouts(args, rows: list[dict]) -> None:
    from rules_engine.core.play import play_game
    from rules_engine.core.runs import derive_seed

    engine, rules = load("shadow_throne")
    made = rollout_bots(args.budget)
    done = {r["key"] for r in rows}
    print(f"shadow_throne, search:{args.budget}, {len(done)} games already in {args.out} "
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("name", nargs="?", default="shadow_throne", metavar="GAME")
    parser.add_argument("--against", metavar="BOT", help="the engine's heuristic bot the search bot plays against")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--src", help="play the search bot of this source tree")
    parser.add_argument("--rollouts", action="store_true", help="issue 25's ladder of two rollouts")
    parser.add_argument("--budget", type=int, default=None)
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--reference-games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2025)
    parser.add_argument("--shard", default="0/1", metavar="I/N", help="play only the games k with k mod N = I")
    parser.add_argument("--out", action="append", metavar="FILE.jsonl", help="default: ladder_search.jsonl")
    parser.add_argument("--summary-only", action="store_true")
    args = parser.parse_args()
    if args.rollouts == bool(args.against):
        parser.error("give --against BOT or --rollouts")
    args.budget = args.budget or (25 if args.rollouts else 100)
    index, _, count = args.shard.partition("/")
    args.shard = (int(index), int(count))
    outs = args.out or ["ladder_search.jsonl"]
    if len(outs) > 1 and not args.summary_only:
        parser.error("several --out files only with --summary-only")
    args.out = outs[0]
    kept = {}
    for name in outs:
        if os.path.exists(name):
            with open(name, encoding="utf-8") as f:
                for line in f:
                    if line.strip():
                        row = json.loads(line)
                        kept.setdefault(row["key"], row)
    rows = list(kept.values())
    if not args.summary_only:
        (run_rollouts if args.rollouts else run_against)(args, rows)
    print("\n".join(rollout_summary(rows) if args.rollouts else against_summary(rows)))


if __name__ == "__main__":
    sys.exit(main())
