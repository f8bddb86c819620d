"""Property tests: whatever the seed, the table or the moves, Behind the Throne keeps its invariants
(every card of the table's deck in one place, at most five stacks of at most five cards), every legal
action applies, the cheap move lists agree with ``legal_actions``, and the score follows the stacks."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.loading.gamedata import load_game
from rules_engine.behind_the_throne import GameState, play_game, rules_for
from rules_engine.behind_the_throne.invariants import check_state

GAME = load_game("behind_the_throne")
RULES = rules_for(GAME)
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(seed=st.integers(0, 2 ** 32), players=st.integers(1, 6),
       bots=st.lists(st.sampled_from(["random", "cautious"]), min_size=1, max_size=4))
def test_bot_games_keep_every_invariant(seed, players, bots):
    state = play_game(RULES, bots, seed, players=players, check=True)
    assert state.violations == []
    assert state.is_over and state.over_reason == "end_card"
    assert len(state.all_cards()) == len(RULES.deck(players))
    for p in range(players):
        expected = sum(RULES.value[k] for k, stack in state.stacks[p].items() if len(stack) >= 2)
        assert state.scores[p] == expected
    best = max(state.scores)
    assert state.winners == tuple(p for p in range(players) if state.scores[p] == best)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32), players=st.integers(2, 5), data=st.data())
def test_any_legal_action_keeps_the_invariants(seed, players, data):
    state = GameState(RULES, players, seed, check=True)
    for _ in range(400):
        if state.is_over:
            break
        legal = state.legal_actions()
        assert legal, "a player to move always has a choice"
        assert set(state.verbs()) == {a.verb for a in legal}
        for verb in state.verbs():
            assert set(state.actions_for(verb)) == {a for a in legal if a.verb == verb}
        action = data.draw(st.sampled_from(legal))
        state.apply(action)
        assert check_state(state) == []
        assert state.violations == []
        for stacks in state.stacks:
            assert all(1 <= len(s) <= 5 for s in stacks.values())
        if state.phase == "turn":
            assert all(len(s) <= 5 for s in state.stacks)
