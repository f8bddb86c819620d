"""Shadow Queen's greedy games split into the engine's share and the bot's: what one core could reach
with a bot that cost nothing.

Usage: python benchmarks/bench_sq_engine.py [--games 40] [--runs 3]

Plays ``--games`` seeded greedy games (the engine's fast loop), recording every decision and how many
numbers the bot drew from the game's generator for it; then plays the same games again with a bot that
only hands back the recorded decision (and draws as many numbers, so the dice and draws fall the same:
the replay checks it ends every game as the first play did). The replay's CPU time is the engine's alone
(moves, cards, upkeep, draws and its own legality work); the rest of a game is the bot's. A measurement,
not a test.
"""

from __future__ import annotations

import argparse
import random
import time


class Counting:
    """The game's generator as the bot sees it: counts the numbers drawn."""

    def __init__(self, rng):
        self.rng, self.drawn = rng, 0

    def random(self):
        self.drawn += 1
        return self.rng.random()


class Recording:
    fast = True

    def __init__(self, bot, log):
        self.bot, self.log = bot, log

    def act(self, state, seat, rng):
        counting = Counting(rng)
        action = self.bot.act(state, seat, counting)
        self.log.append((action, counting.drawn))
        return action


class Replaying:
    fast = True

    def __init__(self, log):
        self.moves = iter(log)

    def act(self, state, seat, rng):
        action, drawn = next(self.moves)
        for _ in range(drawn):
            rng.random()
        return action


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    import os

    import rules_engine.shadow_queen as sq
    from pnp.loading.gamedata import load_game
    from rules_engine.shadow_queen.simulate import fast_play

    rules = sq.rules_for(load_game("shadow_queen"))
    logs, ends = [], []
    for seed in range(args.games):
        log = []
        bot = Recording(sq.ENGINE.make_bot("greedy"), log)
        state = fast_play(sq.ENGINE.new_state(rules, 2), [bot, bot], random.Random(seed))
        logs.append(log)
        ends.append((state.turn, state.winner, state.decisions))
    decisions = sum(len(log) for log in logs)
    for run in range(args.runs):
        start = time.process_time()
        for seed in range(args.games):
            bot = sq.ENGINE.make_bot("greedy")
            fast_play(sq.ENGINE.new_state(rules, 2), [bot, bot], random.Random(seed))
        whole = time.process_time() - start
        start = time.process_time()
        for seed in range(args.games):
            bot = Replaying(logs[seed])
            state = fast_play(sq.ENGINE.new_state(rules, 2), [bot, bot], random.Random(seed))
            assert (state.turn, state.winner, state.decisions) == ends[seed], "the replay left the game"
        engine = time.process_time() - start
        print(f"run {run + 1} (load average {os.getloadavg()[0]:.1f}): {args.games} games, {decisions} decisions; "
              f"whole games {1000 * whole / args.games:.1f} ms a game ({args.games / whole:.0f} games/s), "
              f"the engine alone {1000 * engine / args.games:.1f} ms ({args.games / engine:.0f} games/s, "
              f"{1e6 * engine / decisions:.2f} us a decision), the bot {1e6 * (whole - engine) / decisions:.2f} us "
              f"a decision", flush=True)


if __name__ == "__main__":
    main()
