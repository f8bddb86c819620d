"""Whole-game rules through the GameState API: set-up, draft, hands, keeping cards, carry-over, the
OpenSpiel-style interface (to_move, legal_actions, apply) and reproducibility."""

import random
from collections import Counter

import pytest

from pnp.loading.gamedata import load_game
from rules_engine.model.cards import Ability, Card
from rules_engine.shadow_throne import (EFFECTS, HANDLERS, GameState, IllegalAction, Play, RandomBot, Rules,
                                        Scenario, ScenarioPlayer, play_game, run_scenario)
from rules_engine.shadow_throne.state import DRAFT, EXTRA, KEEP, OVER, PLAY


@pytest.fixture(scope="module")
def game():
    return load_game("shadow_throne")


@pytest.fixture(scope="module")
def rules(game):
    return Rules(game.cards, game.factions)


def test_compiled_deck(rules):
    assert rules.ncards == 54
    assert Counter(rules.faction) == {0: 18, 1: 18, 2: 18}
    assert rules.factions == ("empire", "rebels", "church")
    outlaw = rules.copies_of["outlaw"][0]
    assert (rules.power[outlaw], rules.influence[outlaw], rules.delta[outlaw]) == (1, 0, 2)
    kyros = rules.copies_of["king-kyros"][0]
    assert rules.delta[kyros] == -5 and rules.ability[kyros].kind == "extra_play"


def test_every_effect_kind_has_a_handler():
    assert set(HANDLERS) == set(EFFECTS)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_setup_and_draft_pools(rules, players):
    state = GameState(rules, players, seed=11)
    assert state.gold == [3] * players and state.influence == [0] * players
    assert state.phase == DRAFT
    assert [len(pool) for pool in state.pools] == [6] * players
    assert len(state.deck) == 54 - 6 * players
    assert sorted(state.all_cards()) == list(range(54))


def test_draft_passes_pools_to_the_left(rules):
    state = GameState(rules, 4, seed=5)
    before = [list(pool) for pool in state.pools]
    picks = [pool[0] for pool in before]
    state.apply({p: picks[p] for p in range(4)})
    for p in range(4):
        rest = [c for c in before[p] if c != picks[p]]
        # seat p's pool, minus its pick, is now in front of seat p + 1
        assert sorted(state.pools[(p + 1) % 4]) == sorted(rest)
        assert state.hands[p] == [picks[p]]


def test_hands_of_six_then_seven_and_keep_one(rules):
    state = GameState(rules, 4, seed=9)
    rng = random.Random(1)
    while state.phase == DRAFT:
        state.apply({p: rng.choice(state.legal_actions(p)) for p in state.to_move()})
    assert [len(h) for h in state.hands] == [6, 6, 6, 6]
    while state.phase in (PLAY, EXTRA):
        state.apply({p: rng.choice([a for a in state.legal_actions(p) if a is not None] or [None])
                     for p in state.to_move()})
    assert state.phase == KEEP
    keeps = {p: state.hands[p][0] for p in state.to_move()}
    state.apply(keeps)
    assert state.battle == 2 and state.phase == DRAFT
    assert [h for h in state.hands] == [[keeps[p]] for p in range(4)]
    # the kept card is not drafted: the pools are still six cards each
    assert [len(pool) for pool in state.pools] == [6] * 4
    assert all(keeps[p] not in pool for p in range(4) for pool in state.pools)
    while state.phase == DRAFT:
        state.apply({p: state.legal_actions(p)[0] for p in state.to_move()})
    assert [len(h) for h in state.hands] == [7, 7, 7, 7]


def test_play_must_come_from_the_hand(rules):
    state = GameState(rules, 3, seed=2)
    while state.phase == DRAFT:
        state.apply({p: state.legal_actions(p)[0] for p in state.to_move()})
    stranger = state.deck[0]
    with pytest.raises(IllegalAction):
        state.apply({0: stranger, 1: state.hands[1][0], 2: state.hands[2][0]})
    with pytest.raises(IllegalAction):
        state.apply_play([stranger, state.hands[1][0], state.hands[2][0]])
    assert state.violations  # the direct call records the broken invariant before refusing
    assert None not in state.legal_actions(0)  # a player must play a card each wave


def test_legal_actions_and_apply_play_whole_games(rules):
    for seed in range(5):
        state = GameState(rules, 4, seed=seed, check=True)
        rng = random.Random(seed)
        steps = 0
        while state.phase != OVER:
            state.apply({p: rng.choice(state.legal_actions(p)) for p in state.to_move()})
            steps += 1
        assert state.violations == []
        assert max(state.influence) >= 15 or state.over_reason == "battle_limit"
        assert state.action_to_string(0, None).startswith("seat 0")


def test_same_seed_same_game(rules):
    a = play_game(rules, ["random", "greedy", "random", "greedy"], 1234, record=True)
    b = play_game(rules, ["random", "greedy", "random", "greedy"], 1234, record=True)
    assert a.events == b.events
    c = play_game(rules, ["random", "greedy", "random", "greedy"], 1235, record=True)
    assert a.events != c.events


def test_recording_does_not_change_the_game(rules):
    quiet = play_game(rules, ["greedy", "random", "random"], 77)
    loud = play_game(rules, ["greedy", "random", "random"], 77, record=True, check=True)
    assert (quiet.winner, quiet.influence, quiet.gold, quiet.battle) == (
        loud.winner, loud.influence, loud.gold, loud.battle)


def test_langman_carried_into_the_next_battle_of_a_game(rules):
    """Find seeded games where Langman stays, and check the next battle starts with him at wave 0."""
    langman = rules.copies_of["langman"][0]
    seen = 0
    for seed in range(400):
        state = GameState(rules, 4, seed=seed, check=True)
        bots = [RandomBot()] * 4
        rng = random.Random(seed)        # bots draw from the generator the play loop gives them
        while state.phase != OVER:
            if state.phase == KEEP and state.carry:
                carried = state.carry[0]
                assert carried.card == langman and not carried.dead
                owner = carried.owner
                state.apply({p: state.hands[p][0] for p in state.to_move()})
                assert state.chars and state.chars[0].card == langman and state.chars[0].wave == 0
                assert state.chars[0].bonus == 0 and state.chars[0].owner == owner
                assert state.power[1] >= 4
                seen += 1
                break
            movers = state.to_move()
            if state.phase == DRAFT:
                state.apply_draft([bots[p].draft(state, p, rng) for p in movers])
            elif state.phase == PLAY:
                state.apply_play([bots[p].play(state, p, rng) for p in movers])
            elif state.phase == EXTRA:
                state.apply_extra({p: None for p in movers})
            else:
                state.apply_keep([bots[p].keep(state, p, rng) if state.hands[p] else None for p in range(4)])
        assert state.violations == []
        if seen >= 3:
            break
    assert seen >= 3


def test_a_new_card_combining_known_kinds_needs_no_new_code():
    """An Empire herald that emboldens its own wave at step 3 also boosts King Kyros' extra card,
    because abilities at Kyros' step do affect the extra card."""
    herald = Card("herald", "Imperial Herald", 1, "empire", "elite", {"power": 1, "influence": 1, "cost": 0},
                  Ability("embolden", 3, {"amount": 2, "waves": "this", "rank": None, "others_only": True}))
    kyros = Card("king", "A King", 1, "empire", "noble", {"power": 5, "influence": 2, "cost": 0},
                 Ability("extra_play", 3, {"count": 1}))
    soldier = Card("soldier", "Soldier", 2, "empire", "commoner", {"power": 1, "influence": 1, "income": 1})
    rebel = Card("rebel", "Rebel", 2, "rebels", "commoner", {"power": 1, "influence": 1, "cost": 0})
    assassin = Card("assassin", "Assassin", 1, "church", "noble", {"power": 1, "influence": 1, "cost": 0},
                    Ability("kill", 1, {"rank": "elite"}))
    rules = Rules([herald, kyros, soldier, rebel, assassin])
    scenario = Scenario(players=(ScenarioPlayer("Ana"), ScenarioPlayer("Ben")),
                        waves=({"Ana": Play("king", extra="soldier"), "Ben": Play("herald")},))
    outcome = run_scenario(rules, scenario)
    by_card = {c["card"]: c for c in outcome.result["characters"]}
    assert by_card["soldier"]["power"] == 1 + 2     # the herald's same-step embolden reached the extra card
    assert by_card["king"]["power"] == 5 + 2
    assert by_card["herald"]["power"] == 1           # others_only
    # a church assassin kills the herald at step 1: it never emboldens
    scenario = Scenario(players=(ScenarioPlayer("Ana"), ScenarioPlayer("Ben")),
                        waves=({"Ana": Play("herald"), "Ben": Play("assassin")}, {"Ana": Play("soldier")}))
    outcome = run_scenario(rules, scenario)
    assert outcome.result["power"]["empire"] == 1
    assert outcome.state.violations == []


def test_players_out_of_range(rules):
    with pytest.raises(ValueError):
        GameState(rules, 10)
