"""Digests of seeded Shadow Queen games, to show that two trees play the same games for the same decisions.

Usage: PYTHONPATH=TREE python benchmarks/sq_same_games.py [--games 200] [--seed 7] [--bots greedy,greedy]
       [-o NAME=VALUE ...]

Game ``i`` is seeded as ``bench_simulate.py``'s game ``i`` of run ``--seed``. Each game is played twice
through the core's ``play_game`` (the engine's own loop when every bot allows it, else the core loop with
its legality checks): recorded, for the transcript's text, the events, each seat's decisions, the progress
trace and the result; and unrecorded (what simulations play), whose result, decisions and trace must be
the recorded game's, for its experience record and the final position, hands, decks and used cards. It
prints a digest per game and one of them all (``TOTAL``): run it from each tree and compare. A
measurement, not a test.
"""

from __future__ import annotations

import argparse
import hashlib

import yaml

import rules_engine.shadow_queen as sq
from pnp.loading.gamedata import load_game
from rules_engine.core.experience import experience
from rules_engine.core.play import game_result, play_game


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--bots", default="greedy,greedy")
    parser.add_argument("-o", dest="options", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    game = load_game("shadow_queen")
    rules = sq.rules_for(game)
    bots = args.bots.split(",")
    options = {k: yaml.safe_load(v) for k, v in (o.split("=", 1) for o in args.options)}
    total = hashlib.sha256()
    for i in range(args.games):
        seed = sq.ENGINE.game_seed(args.seed, i)
        h = hashlib.sha256()
        state = play_game(sq.ENGINE, rules, bots, seed, players=2, record=True, **options)
        h.update("\n".join(sq.transcript_lines(state.events, game.cards, game.factions, bots)).encode())
        h.update(repr(state.events).encode())
        h.update(repr((state.decisions, state.trace)).encode())
        result = game_result(sq.ENGINE, state, bots, seed, options)
        h.update(repr(result).encode())
        plain = play_game(sq.ENGINE, rules, bots, seed, players=2, **options)
        again = game_result(sq.ENGINE, plain, bots, seed, options)
        if again != result or plain.decisions != state.decisions or plain.trace != state.trace:
            raise SystemExit(f"game {i}: the unrecorded game differs from the recorded one")
        h.update(repr(experience(sq.ENGINE, plain, again)).encode())
        h.update(repr((plain.pos, plain.hand, plain.deck, plain.used, plain.control, plain.turn)).encode())
        total.update(h.digest())
        print(i, seed, h.hexdigest()[:16])
    print("TOTAL", total.hexdigest())


if __name__ == "__main__":
    main()
