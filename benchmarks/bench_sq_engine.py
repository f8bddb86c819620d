"""Shadow Queen's greedy games split into the engine's share and the bot's: what one core could reach
with a bot that cost nothing.

Usage: python benchmarks/bench_sq_engine.py [--games 40] [--runs 3] [--kinds] [--settle] [--split]

Plays ``--games`` seeded greedy games (the engine's fast loop), recording every decision and how many
numbers the bot drew from the game's generator for it; then plays the same games again with a bot that
only hands back the recorded decision (and draws as many numbers, so the dice and draws fall the same:
the replay checks it ends every game as the first play did). The replay's CPU time is the engine's alone
(moves, cards, upkeep, draws and its own legality work); the rest of a game is the bot's. ``--kinds``
also counts the decisions of a game by kind: a piece's move to another space, its stay (a plain stay:
no card or action follows), the end of a turn, a card played or passed, a defence, a discard; and the
plain stays of a turn after its last other decision (what a bot that ended its turn early would save).
``--settle`` times a prototype of a protocol with fewer round trips: the greedy bot settles each run of
plain stays itself in one call (the same games, events, decision counts and traces: checked first),
against the engine's fast loop, runs alternating. ``--split`` times the same games again with the process's
CPU clock read around each bot call and each engine step (the cost of a pair of readings measured and
taken off): a game's time by kind of decision, the bot's part and the engine's. A measurement, not a test.
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

    def __init__(self, bot, log, kinds=None):
        self.bot, self.log, self.kinds = bot, log, kinds
        self.turn = []                     # the kinds of this turn's decisions so far (with ``kinds``)

    def act(self, state, seat, rng):
        counting = Counting(rng)
        action = self.bot.act(state, seat, counting)
        self.log.append((action, counting.drawn))
        if self.kinds is not None:
            self.count(state, action)
        return action

    def count(self, state, action):
        """Count the decision by kind (a stay is counted when the next decision shows whether a card
        followed it)."""
        turn, kinds = self.turn, self.kinds
        if turn and turn[-1] == "stay":
            turn[-1] = "stay, then a card" if state.phase == "act" else "plain stay"
            kinds[turn[-1]] += 1
        verb = action.verb
        if verb == "move":
            kind = "stay" if action.dest == state.pos[action.piece] else "move"
        else:
            kind = {"end": "end of turn", "play": "card", "finish": "card", "pass": "pass (no card)",
                    "defend": "defence", "no_defence": "defence", "discard": "discard"}.get(verb, verb)
        turn.append(kind)
        if kind != "stay":
            kinds[kind] += 1
        if kind == "end of turn":
            trailing = 0
            for k in reversed(turn[:-1]):
                if k != "plain stay":
                    break
                trailing += 1
            kinds["plain stays after a turn's last other decision"] += trailing
            turn.clear()


class Replaying:
    fast = True

    def __init__(self, log):
        self.moves = iter(log)

    def act(self, state, seat, rng):
        action, drawn = next(self.moves)
        for _ in range(drawn):
            rng.random()
        return action


def settling_bot():
    """The greedy bot with a ``settle`` call: in the piece phase it applies its plain stays itself (a stay
    after which the piece has nothing to play) until its choice is another decision, which it returns (or
    None when a stay was followed by a card to choose); the decisions it made are counted."""
    from rules_engine.shadow_queen.bots import GreedyBot
    from rules_engine.shadow_queen.state import MOVE, PIECE

    class Settling(GreedyBot):
        def settle(self, state, me, rng, decisions):
            step, piece, pos = state.step, self._piece, state.pos
            n = 0
            while True:
                a = piece(state, me, rng)
                if a.verb != MOVE or a.dest != pos[a.piece]:
                    decisions[me] += n
                    return a
                n += 1
                step(a)
                if state.phase != PIECE:
                    decisions[me] += n
                    return None

    return Settling()


def settling_play(state, bots, rng):
    """The engine's fast loop with the piece phase left to the bots' ``settle``."""
    from rules_engine.core import play as core_play
    from rules_engine.shadow_queen.state import DEFEND, DRAW, OVER, PIECE, ROLL

    acts = [bot.act for bot in bots]
    settles = [bot.settle for bot in bots]
    step = state.step
    decisions = core_play.start_record(state, 2)
    while True:
        phase = state.phase
        if phase == PIECE:
            p = state.active
            a = settles[p](state, p, rng, decisions)
            if a is not None:
                decisions[p] += 1
                step(a)
            continue
        if phase == DRAW or phase == ROLL:
            state.sample_chance(rng)
            continue
        if phase == OVER:
            return state
        p = 1 - state.active if phase == DEFEND else state.active
        decisions[p] += 1
        step(acts[p](state, p, rng))


def settle(sq, rules, games: int, runs: int) -> None:
    """``--settle``: the same games first, then the two loops timed in turn."""
    import os

    from rules_engine.shadow_queen.simulate import fast_play

    for seed in range(games):
        bot = sq.ENGINE.make_bot("greedy")
        one = fast_play(sq.ENGINE.new_state(rules, 2, record=True), [bot, bot], random.Random(seed))
        bot = settling_bot()
        two = settling_play(sq.ENGINE.new_state(rules, 2, record=True), [bot, bot], random.Random(seed))
        assert (one.events, one.decisions, one.trace) == (two.events, two.decisions, two.trace), seed
    best = {}
    for run in range(runs):
        for name, loop, make in (("fast loop", fast_play, lambda: sq.ENGINE.make_bot("greedy")),
                                 ("stays settled by the bot", settling_play, settling_bot)):
            start = time.process_time()
            for seed in range(games):
                bot = make()
                loop(sq.ENGINE.new_state(rules, 2), [bot, bot], random.Random(seed))
            spent = time.process_time() - start
            best[name] = min(best.get(name, spent), spent)
            print(f"settle run {run + 1} (load average {os.getloadavg()[0]:.1f}): {name} "
                  f"{1000 * spent / games:.1f} ms a game", flush=True)
    print("settle, best of each: " + ", ".join(f"{name} {1000 * t / games:.1f} ms a game ({games / t:.0f} games/s)"
                                               for name, t in best.items()))


def split(sq, rules, games: int) -> None:
    """``--split``: a game's CPU time by kind of decision, the bot's part and the engine's."""
    import os
    from collections import Counter

    from rules_engine.core import play as core_play
    from rules_engine.shadow_queen.simulate import fast_play
    from rules_engine.shadow_queen.state import DEFEND, DRAW, MOVE, OVER, PIECE, ROLL

    clock = time.process_time_ns
    spent, count = Counter(), Counter()

    def clocked_play(state, bots, rng):
        """The engine's fast loop (``simulate.fast_play``) with the clock read around each call."""
        acts = [bot.act for bot in bots]
        step = state.step
        decisions = core_play.start_record(state, 2)
        while True:
            phase = state.phase
            if phase == DRAW or phase == ROLL:
                t0 = clock()
                state.sample_chance(rng)
                spent["draws and dice"] += clock() - t0
                count["draws and dice"] += 1
                continue
            if phase == OVER:
                return state
            p = 1 - state.active if phase == DEFEND else state.active
            decisions[p] += 1
            t0 = clock()
            a = acts[p](state, p, rng)
            t1 = clock()
            if phase == PIECE and a.verb == MOVE:
                kind = "stay" if a.dest == state.pos[a.piece] else "move to another space"
            else:
                kind = f"{phase}: {a.verb}"
            t2 = clock()
            step(a)
            t3 = clock()
            spent["the bot, " + kind] += t1 - t0
            spent["the engine, " + kind] += t3 - t2
            count["the bot, " + kind] += 1
            count["the engine, " + kind] += 1

    def nothing():
        return None

    pair = []                                   # the cost of two readings around a call (best of 5)
    for _ in range(5):
        t0 = clock()
        for _ in range(100000):
            clock()
            nothing()
            clock()
        both = clock() - t0
        t0 = clock()
        for _ in range(100000):
            nothing()
        pair.append((both - (clock() - t0)) / 100000)
    pair = min(pair)
    start = time.process_time()
    for seed in range(games):
        bot = sq.ENGINE.make_bot("greedy")
        fast_play(sq.ENGINE.new_state(rules, 2), [bot, bot], random.Random(seed))
    plain = (time.process_time() - start) / games
    for seed in range(games):
        bot = sq.ENGINE.make_bot("greedy")
        clocked_play(sq.ENGINE.new_state(rules, 2), [bot, bot], random.Random(seed))
    rows = sorted(((spent[k] - count[k] * pair, k) for k in spent), reverse=True)
    print(f"split (load average {os.getloadavg()[0]:.1f}; a pair of clock readings {pair / 1000:.2f} us, taken "
          f"off): {games} games, {1000 * plain:.1f} ms a game unclocked, the parts {sum(t for t, _ in rows) / games / 1e6:.1f} ms")
    for t, k in rows:
        print(f"  {k}: {count[k] / games:.0f} a game, {t / count[k] / 1000:.2f} us each, {t / games / 1e6:.2f} ms a game")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--kinds", action="store_true", help="also count the decisions of a game by kind")
    parser.add_argument("--settle", action="store_true", help="also time the bot settling its plain stays itself")
    parser.add_argument("--split", action="store_true", help="also split a game's CPU time by kind of decision")
    args = parser.parse_args()
    import os
    from collections import Counter

    import rules_engine.shadow_queen as sq
    from pnp.loading.gamedata import load_game
    from rules_engine.shadow_queen.simulate import fast_play

    rules = sq.rules_for(load_game("shadow_queen"))
    logs, ends = [], []
    kinds = Counter() if args.kinds else None
    for seed in range(args.games):
        log = []
        bots = [Recording(sq.ENGINE.make_bot("greedy"), log, kinds) for _ in range(2)]
        state = fast_play(sq.ENGINE.new_state(rules, 2), bots, random.Random(seed))
        logs.append(log)
        ends.append((state.turn, state.winner, state.decisions))
    decisions = sum(len(log) for log in logs)
    if kinds is not None:
        print(f"{args.games} games, {decisions / args.games:.0f} decisions a game, "
              f"{sum(e[0] for e in ends) / args.games:.0f} turns a game; decisions a game by kind:")
        trailing = kinds.pop("plain stays after a turn's last other decision", 0)
        for kind, n in kinds.most_common():
            print(f"  {kind}: {n / args.games:.0f} ({100 * n / decisions:.1f} %)")
        print(f"  of the plain stays, after the turn's last other decision: {trailing / args.games:.0f} "
              f"({100 * trailing / decisions:.1f} %)")
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
    if args.settle:
        settle(sq, rules, args.games, max(args.runs, 1))
    if args.split:
        split(sq, rules, args.games)


if __name__ == "__main__":
    main()
