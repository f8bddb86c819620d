"""Experience metrics through the core: the play loops count decisions and the engines mark their progress
measure once per unit of length, the same in an engine's fast loop as in the core loop, never from a
search's clones; lead changes, comebacks and stalls are counted from that trace."""

import pytest

import rules_engine.behind_the_throne as btt
import rules_engine.shadow_queen as sq
import rules_engine.shadow_throne as st
import rules_engine.valeria as valeria
from pnp.loading.gamedata import load_game
from rules_engine.core.experience import comeback, experience, lead_changes, stalls

GAMES = {"shadow_throne": (st, ["random", "greedy"], 4), "behind_the_throne": (btt, ["random", "cautious"], 4),
         "shadow_kingdoms_of_valeria": (valeria, ["quick", "random"], 3)}
RULES = {name: engine.rules_for(load_game(name)) for name, (engine, _, _) in GAMES.items()}


def test_lead_changes_comebacks_and_stalls():
    trace = [(1, 0), (1, 1), (1, 2), (3, 2), (3, 2), (3, 5)]
    assert lead_changes(trace) == 3             # A, (tie), B, A, B
    assert stalls(trace) == 1                   # (3, 2) twice
    assert comeback(trace, (0,)) is True and comeback(trace, (1,)) is False     # at the half: (1, 2)
    assert comeback([(0, 2), (1, 2), (5, 2)], (0,)) is True and comeback([(2, 0), (2, 1), (5, 2)], (0,)) is False
    assert comeback(trace, ()) is False and comeback(trace, (0, 1)) is False and lead_changes([]) == 0


@pytest.mark.parametrize("name", GAMES)
def test_the_fast_loop_records_what_the_core_loop_records(name):
    engine, bots, players = GAMES[name]
    for seed in range(4):
        fast = engine.play_game(RULES[name], bots, seed, players=players)
        core = engine.play_game(RULES[name], bots, seed, players=players, generic=True)
        assert fast.decisions == core.decisions and fast.trace == core.trace
        assert all(d > 0 for d in fast.decisions) and len(fast.trace[0]) == players
        length = engine.ENGINE.result(fast, bots).length
        assert len(fast.trace) == length          # one mark per battle, turn or round
        assert fast.trace[-1] == tuple(fast.progress())


def test_shadow_throne_traces_influence_and_experience_adds_up():
    state = st.play_game(RULES["shadow_throne"], ["random", "greedy"], 5, players=4)
    assert state.trace[-1] == tuple(state.influence)
    assert all(a <= b for before, after in zip(state.trace, state.trace[1:]) for a, b in zip(before, after))
    result = st.ENGINE.result(state, ["random", "greedy"] * 2)
    x = experience(st.ENGINE, state, result)
    assert x.length == result.battles == x.trace_units and x.ending == result.reason and not x.timeout
    assert x.decisions == tuple(state.decisions) and x.lead_changes == lead_changes(state.trace)


def test_a_search_bot_leaves_no_mark_in_the_trace():
    rules = sq.rules_for(load_game("shadow_queen"))
    state = sq.play_game(rules, ["search:3", "greedy"], 2, turn_limit=6)
    assert len(state.trace) == state.turn == 6 and state.over_reason == "turn_limit"
    assert experience(sq.ENGINE, state, sq.ENGINE.result(state, ["search:3", "greedy"])).timeout
