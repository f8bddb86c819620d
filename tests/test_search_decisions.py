"""The search bot decides as recorded: at fixed positions of every bundled game and of the trick-taking test
engine (tests/engines/tricks), and through the first moves of a game with a search bot in every seat, it
chooses the moves recorded in ``search_decisions.json``.

The file is written by the code, never by hand, and recorded again only when a change is *meant* to change
the search bot's play, with a ladder to show its strength (benchmarks/README.md). History: main's code
wrote it before the speed-up of issue 25; Shadow Throne's rollouts to the battle's end added the entry
``shadow_throne, rollouts to the battle's end``; issue 36 replaced the tree search by sequential halving
over the heuristic's move and other candidates, with the engine's heuristic as rollout policy and model
of the other seats (every entry recorded again from that code; the entry ``shadow_throne`` still plays
the earlier rollout, ``GreedyRollout(battle_end=False)``). To record entries again from a source tree:

    PYTHONPATH=TREE python tests/test_search_decisions.py --record [ENTRY ...]
"""

from __future__ import annotations

import json
import os
import random
import sys

import pytest

from pnp.loading.gamedata import load_game
from rules_engine import engine_module

RECORDED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "search_decisions.json")

#: The entry of Shadow Throne's search bot as shipped (rollouts end at the battle's end).
BATTLE_END = "shadow_throne, rollouts to the battle's end"
#: entry -> (game, players, budget at the positions, positions, budget of the whole game, rollout: the
#: engine's own, or Shadow Throne's rollout to the horizon as before)
CASES = {
    "shadow_throne": ("shadow_throne", 4, 50, 16, 6, "to the horizon"),
    BATTLE_END: ("shadow_throne", 4, 50, 16, 6, "engine"),
    "behind_the_throne": ("behind_the_throne", 4, 50, 16, 6, "engine"),
    "shadow_kingdoms_of_valeria": ("shadow_kingdoms_of_valeria", 4, 30, 12, 3, "engine"),
    "shadow_queen": ("shadow_queen", 2, 30, 12, 3, "engine"),
    "tricks": ("tricks", 3, 50, 16, 20, "engine"),
}
#: Seat decisions of the game played with search bots (Shadow Throne ends sooner).
GAME_MOVES = 180


def _engine(name):
    if name == "tricks":                  # the trick-taking test engine, played from its code
        sys.path.insert(0, os.path.join(os.path.dirname(RECORDED), "engines", "tricks"))
        import tricks

        return tricks, tricks.standard_rules()
    game = load_game(name)
    engine = engine_module(game.engine)
    return engine, engine.rules_for(game)


def positions(engine, rules, players: int, count: int, seed: int = 3):
    """``count`` decision points ``(state, seat)`` with a real choice, from seeded games of the engine's
    default bots, every fifth decision."""
    specs = engine.DEFAULT_BOTS
    bots = [engine.ENGINE.make_bot(specs[i % len(specs)]) for i in range(players)]
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
                if decisions % 5 == game % 5 and len(state.legal_actions(p)) > 1 and len(out) < count:
                    out.append((state.clone(), p))
                decisions += 1
            joint = {p: bots[p].act(state, p, rng) for p in movers}
            if len(movers) == 1:
                state.step_action(joint[movers[0]])
            else:
                state.step_actions(joint)
        game += 1
    return out


def search_bot(engine, budget: int, rollout: str):
    """The engine's ``search:budget``, or Shadow Throne's search bot with the rollout named."""
    if rollout == "engine":
        return engine.ENGINE.make_bot(f"search:{budget}")
    from rules_engine.core.search import SearchBot
    from rules_engine.shadow_throne.bots import GreedyBot, GreedyRollout

    return SearchBot(budget, rollout=GreedyRollout(battle_end=rollout == "to the battle's end"), heuristic=GreedyBot())


def decisions(name: str) -> dict:
    """What the search bot chooses at the positions, and the first ``GAME_MOVES`` moves of a game of search
    bots (with the returns when it ends sooner)."""
    game, players, budget, count, game_budget, rollout = CASES[name]
    engine, rules = _engine(game)
    bot = search_bot(engine, budget, rollout)
    chosen = []
    for i, (state, p) in enumerate(positions(engine, rules, players, count)):
        chosen.append(state.action_to_string(p, bot.act(state, p, random.Random(i))))
    bots = [search_bot(engine, game_budget, rollout) for _ in range(players)]
    rng = random.Random(17)
    state = engine.ENGINE.new_state(rules, players)
    moves = []
    while not state.is_over and len(moves) < GAME_MOVES:
        if state.is_chance():
            state.sample_chance(rng)
            continue
        movers = state.to_move()
        joint = {p: bots[p].act(state, p, rng) for p in movers}
        moves.extend(state.action_to_string(p, joint[p]) for p in movers)
        state.apply_actions(joint)
    return {"players": players, "positions": chosen, "game": moves,
            "returns": state.returns() if state.is_over else None}


@pytest.mark.parametrize("name", CASES)
def test_the_search_bot_chooses_the_recorded_moves(name):
    with open(RECORDED, encoding="utf-8") as f:
        recorded = json.load(f)[name]
    now = decisions(name)
    assert now["positions"] == recorded["positions"]
    assert now["game"] == recorded["game"]
    assert now["returns"] == recorded["returns"]


if __name__ == "__main__":
    if sys.argv[1:2] != ["--record"] or not set(sys.argv[2:]) <= set(CASES):
        sys.exit(__doc__ + "\nentries: " + ", ".join(repr(n) for n in CASES))
    names = sys.argv[2:] or list(CASES)
    recorded = {}
    if os.path.exists(RECORDED):
        with open(RECORDED, encoding="utf-8") as f:
            recorded = json.load(f)
    for name in names:
        recorded[name] = decisions(name)
    out = {name: recorded[name] for name in CASES if name in recorded}
    with open(RECORDED, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(f"recorded {RECORDED}: " + ", ".join(f"{n} {len(out[n]['positions'])} positions, {len(out[n]['game'])} moves"
                                                for n in names))
