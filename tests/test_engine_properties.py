"""Property tests: whatever the seed, the table size or the bots, games keep the invariants
(54 cards accounted for, gold never negative, influence never decreasing, plays come from the hand),
and any battle of random plays keeps the power track equal to its characters' power."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.loading.gamedata import load_game
from rules_engine.shadow_throne import Play, Rules, Scenario, ScenarioPlayer, play_game, run_scenario

GAME = load_game("shadow_throne")
RULES = Rules(GAME.cards, GAME.factions)
CARD_IDS = [c.id for c in GAME.cards]
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(seed=st.integers(0, 2 ** 32), players=st.integers(3, 5),
       bots=st.lists(st.sampled_from(["random", "greedy"]), min_size=1, max_size=5),
       goal=st.sampled_from([15, 20, 25]))
def test_games_keep_every_invariant(seed, players, bots, goal):
    seats = [bots[i % len(bots)] for i in range(players)]
    state = play_game(RULES, seats, seed, goal=goal, check=True)
    assert state.violations == []
    assert state.phase == "over"
    assert max(state.influence) >= goal
    assert min(state.gold) >= 0
    if state.winner is not None:
        assert state.influence[state.winner] == max(state.influence)
    assert sum(state.faction_wins) >= state.battle  # ties count for every tied faction


@st.composite
def battles(draw):
    players = draw(st.integers(1, 5))
    names = [f"P{i}" for i in range(players)]
    left = {c.id: c.copies for c in GAME.cards}
    waves = []
    for _ in range(draw(st.integers(0, 4))):
        wave = {}
        for name in names:
            if not draw(st.booleans()):
                continue
            choices = [c for c in CARD_IDS if left[c] > 0]
            card = draw(st.sampled_from(choices))
            left[card] -= 1
            extra = None
            if card == "king-kyros":
                empire = [c.id for c in GAME.cards if c.faction == "empire" and left[c.id] > 0]
                if empire and draw(st.booleans()):
                    extra = draw(st.sampled_from(empire))
                    left[extra] -= 1
            wave[name] = Play(card, extra)
        waves.append(wave)
    gold = draw(st.lists(st.integers(0, 12), min_size=players, max_size=players))
    return Scenario(players=tuple(ScenarioPlayer(n, g) for n, g in zip(names, gold)), waves=tuple(waves))


@settings(max_examples=150, deadline=None)
@given(scenario=battles())
def test_random_battles_are_consistent(scenario):
    outcome = run_scenario(RULES, scenario)
    res = outcome.result
    assert outcome.state.violations == []
    totals = {f: 0 for f in RULES.factions}
    for c in res["characters"]:
        if c["dead"] or not c["played"]:
            assert c["power"] == 0
        totals[c["faction"]] += c["power"]
        assert c["converted"] == (c["faction"] != c["original_faction"])
        if c["converted"]:
            assert c["faction"] == "church"
    assert totals == res["power"]
    best = max(res["power"].values())
    assert res["winners"] == [f for f, p in res["power"].items() if p == best]
    for name, p in res["players"].items():
        assert p["gold"] >= p["gold_after_conflict"] >= 0


@pytest.mark.slow
def test_thousands_of_checked_games_break_no_invariant():
    """(The 10,000-game run is in the benchmark notes; this is its quicker cousin for CI.)"""
    from rules_engine.shadow_throne import run_games
    results = run_games(RULES, games=3000, seed=99, bots=("random", "greedy"), check=True, jobs=2)
    assert sum(len(r.violations) for r in results) == 0
