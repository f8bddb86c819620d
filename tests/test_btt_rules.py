"""Every rule of Behind the Throne, checked on the scenario files tests/scenarios/btt_*.yaml.

Each test loads a scenario through ``pnp.loading.scenario`` (the path ``pnp scenario`` takes), plays it with the
engine and asserts on the structured outcome (the ``--json`` shape) and, where order matters, on the
recorded events. Rules that need a position no file can set up are checked on states built directly.
"""

from pathlib import Path

import pytest

from pnp.loading.gamedata import load_game
from pnp.loading.scenario import run_scenario_file
from rules_engine.behind_the_throne import (Action, GameState, IllegalAction, Rules, rules_for,
                                            scenario_from_data, run_scenario)

SCENARIOS = Path(__file__).parent / "scenarios"
GAME = load_game("behind_the_throne")
RULES = rules_for(GAME)


def play(name):
    _, outcome = run_scenario_file(SCENARIOS / f"btt_{name}.yaml")
    assert outcome.state.violations == []
    return outcome


def result(name):
    return play(name).result


def events(outcome, *types):
    return [e for e in outcome.events if not types or e.type in types]


def test_every_btt_scenario_plays_cleanly():
    files = sorted(SCENARIOS.glob("btt_*.yaml"))
    assert len(files) >= 20
    for path in files:
        _, outcome = run_scenario_file(path)
        assert outcome.state.violations == [], path.name


# ------------------------------------------------------------------ the turn


def test_stop_and_collect_makes_new_stacks():
    res = result("collect")
    assert res["players"]["Ana"]["stacks"] == {"judge": 1, "queen": 1, "king": 1}
    assert res["turns"][0]["revealed"] == ["king", "queen", "judge"]
    assert res["turns"][0]["end"] == "collect"
    assert res["players"]["Ben"]["stacks"] == {}


def test_a_higher_card_busts_and_the_row_is_discarded():
    out = play("bust")
    res = out.result
    assert res["turns"][0]["end"] == "bust" and res["players"]["Ana"]["stacks"] == {}
    bust = events(out, "bust")[0].data
    assert (bust["card"], bust["value"], bust["previous"]) == ("jester", 4, 2)
    # play passes to Ben, who collects; the busted row went to the discard pile with End of Game
    assert res["turns"][1]["player"] == "Ben" and res["players"]["Ben"]["stacks"] == {"queen": 1}
    assert res["discard"] == 3


def test_a_card_no_ability_can_save_busts_without_a_decision():
    res = result("bust_beyond_abilities")
    assert res["turns"][0]["end"] == "bust" and res["turns"][0]["abilities"] == []


def test_the_row_stops_at_five_cards():
    res = result("five_cards")
    assert len(res["turns"][0]["revealed"]) == 5
    assert res["players"]["Ana"]["stacks"] == {"alchemist": 1, "minstrel": 1, "queen": 1, "king": 2}
    # the sixth card (the General) is still on top of the deck
    state = play("five_cards").state
    assert state.rules.card_id(state.deck[-1]) == "general"


def test_a_turn_must_reveal_before_stopping():
    state = _state({"players": ["Ana", "Ben"], "deck": ["king"]})
    assert Action("stop") not in state.legal_actions()
    assert [a.verb for a in state.legal_actions()] == ["reveal"]
    with pytest.raises(IllegalAction):
        state.apply(Action("stop"))


def test_turns_pass_to_the_left_from_the_first_player():
    res = result("turn_order")
    assert [t["player"] for t in res["turns"]] == ["Ben", "Cleo", "Ana"]


# ------------------------------------------------------------------ destroying


def test_the_assassin_turns_a_4_into_a_2_and_destroys_the_alchemist():
    out = play("assassin_destroys")
    res = out.result
    turn = res["turns"][0]
    assert turn["abilities"] == [{"card": "assassin", "via": None, "row_card": "jester", "before": 4, "after": 2}]
    assert turn["destroyed"] == [{"card": "alchemist", "owner": "Ben"}]
    assert res["players"]["Ben"]["stacks"] == {"king": 2}
    assert res["players"]["Ana"]["stacks"] == {"assassin": 3, "jester": 1}
    assert [e.type for e in events(out, "ability", "destroy", "collect")] == ["ability", "destroy", "collect"]


def test_each_player_is_targeted_once_a_turn_and_own_cards_may_go():
    out = play("destroy_once")
    res = out.result
    assert res["turns"][0]["destroyed"] == [{"card": "king", "owner": "Ben"}, {"card": "general", "owner": "Ana"}]
    assert res["players"]["Ben"]["stacks"] == {"king": 2}
    assert res["players"]["Ana"]["stacks"] == {"jester": 4}


def test_no_second_destroy_of_the_same_player_and_none_without_equal_values():
    state = _state({"players": ["Ana", {"name": "Ben", "stacks": {"king": 3}}],
                    "deck": ["jester", "jester", "jester", "general"]})
    state.apply(Action("reveal"))
    assert state.destroy_targets() == []                      # one card: nothing to compare
    state.apply(Action("reveal"))
    king = RULES.index["king"]
    assert state.destroy_targets() == [Action("destroy", king, 1)]
    state.apply(Action("destroy", king, 1))
    assert state.destroy_targets() == []                      # this card has given its destroy
    state.apply(Action("reveal"))
    assert state.destroy_targets() == []                      # Ben was targeted already; Ana has no cards
    state.apply(Action("reveal"))                             # General (1) after a Jester (4): lower, no tie
    assert state.cur != state.prev and state.destroy_targets() == []


def test_the_alchemist_protects_only_its_largest_holder():
    res = result("alchemist")
    assert res["turns"][0]["destroyed"] == [{"card": "king", "owner": "Ben"}, {"card": "alchemist", "owner": "Cleo"}]
    state = _state({"players": ["Ana", {"name": "Ben", "stacks": {"alchemist": 1, "king": 2}}],
                    "deck": ["queen", "queen"]})
    state.apply(Action("reveal"))
    state.apply(Action("reveal"))
    assert state.destroy_targets() == [Action("destroy", RULES.index["alchemist"], 1)]


def test_the_alchemist_does_not_protect_against_its_owner():
    state = _state({"players": [{"name": "Ana", "stacks": {"alchemist": 1, "king": 1}}, "Ben"],
                    "deck": ["queen", "queen"]})
    state.apply(Action("reveal"))
    state.apply(Action("reveal"))
    assert {a.kind for a in state.destroy_targets()} == {RULES.index["alchemist"], RULES.index["king"]}


def test_the_queen_blocks_destroys_until_the_row_outgrows_her_stack():
    out = play("queen")
    assert out.result["turns"][0]["destroyed"] == [{"card": "king", "owner": "Ben"}]
    state = _state({"players": [{"name": "Ana", "stacks": {"queen": 2}}, {"name": "Ben", "stacks": {"king": 2}}],
                    "deck": ["judge", "judge", "judge"]})
    state.apply(Action("reveal"))
    state.apply(Action("reveal"))
    assert state.cur == state.prev and state.destroy_targets() == []   # 2 cards, 2 Queens
    state.apply(Action("reveal"))
    assert state.destroy_targets() != []                               # 3 cards > 2 Queens


def test_a_single_queen_hinders_even_when_others_hold_more():
    # prohibitive abilities apply to every holder, largest stack or not
    state = _state({"players": [{"name": "Ana", "stacks": {"queen": 2}}, {"name": "Ben", "stacks": {"queen": 3}}],
                    "deck": ["judge", "judge", "judge"]})
    for _ in range(2):
        state.apply(Action("reveal"))
    assert state.destroy_targets() == []
    state.apply(Action("reveal"))
    assert state.destroy_targets() != []


# ------------------------------------------------------------------ swapping


def test_the_king_blocks_short_rows_and_the_minstrel_must_be_taken():
    res = result("king_minstrel")
    assert res["turns"][0]["end"] == "swap"
    assert res["turns"][0]["took"] == {"card": "minstrel", "from": "Ben"}
    assert res["players"]["Ana"]["stacks"] == {"minstrel": 1, "king": 2}
    assert res["players"]["Ben"]["stacks"] == {"prophet": 2, "judge": 1, "queen": 1}
    state = _state({"players": [{"name": "Ana", "stacks": {"king": 2}},
                                {"name": "Ben", "stacks": {"minstrel": 1, "prophet": 2}}],
                    "deck": ["queen", "judge"]})
    state.apply(Action("reveal"))
    assert state.swap_targets() == []                                  # 1 card < 2 Kings
    state.apply(Action("reveal"))
    assert state.swap_targets() == [Action("swap", RULES.index["minstrel"], 1)]


def test_without_the_largest_minstrel_stack_any_card_may_be_taken():
    state = _state({"players": ["Ana", {"name": "Ben", "stacks": {"minstrel": 1, "prophet": 2}},
                                {"name": "Cleo", "stacks": {"minstrel": 2}}],
                    "deck": ["queen"]})
    state.apply(Action("reveal"))
    ben = {a.kind for a in state.swap_targets() if a.seat == 1}
    assert ben == {RULES.index["minstrel"], RULES.index["prophet"]}


def test_the_receiver_of_a_swap_stacks_and_discards_by_the_same_rules():
    out = play("swap_receiver_discards")
    res = out.result
    assert res["players"]["Ana"]["stacks"] == {"general": 1}
    assert res["players"]["Ben"]["stacks"] == {"prophet": 1, "jester": 1, "judge": 1, "minstrel": 1, "queen": 1}
    assert res["turns"][0]["discarded"] == [{"player": "Ben", "cards": ["assassin"]}]


def test_the_player_in_turn_discards_a_stack_to_take_the_queen():
    res = result("swap_active_discards")
    assert res["players"]["Ana"]["stacks"] == {"assassin": 1, "prophet": 1, "jester": 1, "judge": 1, "queen": 1}
    assert res["players"]["Ben"]["stacks"] == {"queen": 1, "king": 1}


def test_the_receiver_chooses_after_the_player_in_turn():
    five = {"general": 1, "assassin": 1, "prophet": 1, "jester": 1, "judge": 1}
    state = _state({"players": [{"name": "Ana", "stacks": five},
                                {"name": "Ben", "stacks": {"king": 1, "queen": 2, "prophet": 1, "alchemist": 1,
                                                           "general": 1}}],
                    "deck": ["minstrel"]})
    state.apply(Action("reveal"))
    state.apply(Action("swap", RULES.index["queen"], 1))
    assert state.phase == "discard" and state.to_move() == [0]       # Ana: six stacks with the Queen
    assert len(state.stacks[1]) == 6                                   # Ben stacked the Minstrel already
    state.apply(Action("discard", RULES.index["queen"]))
    assert state.phase == "discard" and state.to_move() == [1]
    state.apply(Action("discard", RULES.index["minstrel"]))
    assert state.phase == "turn" and state.active == 1
    assert state.violations == []


# ------------------------------------------------------------------ stacks


def test_stack_limits_sixth_card_and_sixth_stack():
    out = play("stack_limits")
    res = out.result
    assert res["players"]["Ana"]["stacks"] == {"general": 1, "assassin": 1, "prophet": 1, "jester": 1, "king": 5}
    assert res["turns"][0]["discarded"] == [{"player": "Ana", "cards": ["king"]}, {"player": "Ana", "cards": ["queen"]}]


def test_a_card_must_join_its_stack_when_there_is_room():
    five = {"general": 1, "assassin": 1, "prophet": 1, "jester": 1, "judge": 2}
    state = _state({"players": [{"name": "Ana", "stacks": five}, "Ben"], "deck": ["judge", "assassin"]})
    state.apply(Action("reveal"))
    state.apply(Action("reveal"))
    state.apply(Action("stop"))
    assert state.phase == "turn" and state.active == 1                 # nothing to choose: no discard
    assert state.stack_counts(0)["judge"] == 3 and state.stack_counts(0)["assassin"] == 2


def test_any_stack_may_be_discarded_old_or_new():
    five = {"general": 1, "assassin": 1, "prophet": 1, "jester": 1, "judge": 1}
    state = _state({"players": [{"name": "Ana", "stacks": five}, "Ben"], "deck": ["king", "queen"]})
    state.apply(Action("reveal"))
    state.apply(Action("reveal"))
    state.apply(Action("stop"))
    assert state.phase == "discard"
    assert {a.kind for a in state.legal_actions()} == {RULES.index[c] for c in [*five, "king", "queen"]}
    state.apply(Action("discard", RULES.index["general"]))
    assert state.phase == "discard"                                    # still six stacks
    state.apply(Action("discard", RULES.index["king"]))
    assert set(state.stack_counts(0)) == {"assassin", "prophet", "jester", "judge", "queen"}


# ------------------------------------------------------------------ abilities


def test_manipulative_abilities_belong_to_the_largest_stack():
    res = result("largest_stack")
    assert res["turns"][0]["end"] == "bust"                            # Ana's single General is outnumbered
    assert res["turns"][1]["abilities"][0]["card"] == "general"
    assert "general" in res["players"]["Ben"]["abilities"]


def test_ties_for_the_largest_stack_count():
    res = result("tie_counts")
    assert res["turns"][0]["end"] == "collect"
    assert "general" in res["players"]["Ana"]["abilities"] and res["players"]["Ben"]["abilities"] == ["general"]


def test_an_ability_is_used_once_a_turn():
    res = result("once_per_turn")
    assert len(res["turns"][0]["abilities"]) == 1 and res["turns"][0]["end"] == "bust"


def test_abilities_come_back_next_turn():
    state = _state({"players": [{"name": "Ana", "stacks": {"general": 1}}, "Ben"],
                    "deck": ["assassin", "jester", "king", "king", "assassin", "jester"]})
    general = RULES.index["general"]
    for action in (Action("reveal"), Action("reveal"), Action("use", general, delta=-3), Action("stop")):
        state.apply(action)
    state.apply(Action("reveal"))
    state.apply(Action("stop"))                                        # Ben's turn
    state.apply(Action("reveal"))
    state.apply(Action("reveal"))
    assert Action("use", general, delta=-3) in state.legal_actions()


def test_the_judge_reuses_an_ability_already_used():
    res = result("judge")
    uses = res["turns"][0]["abilities"]
    assert [(u["card"], u["via"]) for u in uses] == [("assassin", None), ("assassin", "judge")]
    assert res["turns"][0]["end"] == "collect"


def test_the_judge_reaches_a_stack_that_is_not_the_largest():
    res = result("judge_sideways")
    assert res["turns"][0]["abilities"][0] == {"card": "general", "via": "judge", "row_card": "jester",
                                               "before": 4, "after": 1}


def test_the_judge_is_not_offered_for_abilities_usable_directly_and_works_once():
    state = _state({"players": [{"name": "Ana", "stacks": {"assassin": 1, "judge": 1, "general": 1}}, "Ben"],
                    "deck": ["general", "king"]})
    state.apply(Action("reveal"))
    state.apply(Action("reveal"))                                      # 9 after 1: -3 -2 and a reuse of -3 reach 1
    judge = RULES.index["judge"]
    assert all(a.via == -1 for a in state.value_uses())
    state.apply(Action("use", RULES.index["general"], delta=-3))
    state.apply(Action("use", RULES.index["assassin"], delta=-2))
    assert {(a.kind, a.via) for a in state.value_uses()} == {(RULES.index["general"], judge),
                                                              (RULES.index["assassin"], judge)}
    state.apply(Action("use", RULES.index["general"], delta=-3, via=judge))
    assert state.cur == 1 and state.value_uses() == []


def test_several_abilities_on_one_card():
    res = result("two_abilities")
    turn = res["turns"][0]
    assert [(u["card"], u["after"]) for u in turn["abilities"]] == [("assassin", 2), ("jester", 1)]
    assert turn["destroyed"] == [{"card": "king", "owner": "Ben"}]


def test_the_jester_raises_or_lowers():
    state = _state({"players": [{"name": "Ana", "stacks": {"jester": 1}}, {"name": "Ben", "stacks": {"king": 2}}],
                    "deck": ["judge", "jester"]})
    state.apply(Action("reveal"))
    state.apply(Action("reveal"))                                      # 4 after 5: no bust
    jester = RULES.index["jester"]
    assert {a.delta for a in state.value_uses()} == {1, -1}
    state.apply(Action("use", jester, delta=1))
    assert state.cur == 5 and state.destroy_targets()


def test_values_return_to_print_when_the_next_card_shows():
    out = play("values_return")
    reveal = [e.data for e in events(out, "reveal")][-1]
    assert (reveal["card"], reveal["previous"]) == ("prophet", 4)
    assert out.result["turns"][0]["end"] == "collect"


def test_the_prophet_sees_the_top_card():
    res = result("prophet")
    assert res["turns"][0]["abilities"] == [{"card": "prophet", "via": None, "seen": "end-of-game"}]
    assert res["game_over"] is False and res["players"]["Ana"]["stacks"] == {"prophet": 1, "queen": 1}


def test_destroying_can_unlock_an_ability_the_same_turn():
    res = result("destroy_unlocks")
    turn = res["turns"][0]
    assert turn["destroyed"] == [{"card": "general", "owner": "Ben"}]
    assert turn["abilities"][0]["card"] == "general" and turn["end"] == "collect"


def test_protective_and_manipulative_abilities_need_a_card():
    state = _state({"players": ["Ana", "Ben"], "deck": ["assassin", "jester"]})
    state.apply(Action("reveal"))
    state.apply(Action("reveal"))
    assert state.phase == "turn" and state.turn == 2                   # no abilities: Ana busted at once


# ------------------------------------------------------------------ deck, end and scoring


def test_the_end_of_game_card_starts_the_discard_pile():
    state = GameState(RULES, 4, seed=1)
    assert state.discard == [RULES.end_card] and RULES.end_card not in state.deck
    assert len(state.deck) == 81


def test_the_deck_is_rebuilt_from_the_discard_pile():
    out = play("rebuild")
    rebuild = events(out, "rebuild")
    assert len(rebuild) == 1 and rebuild[0].data["cards"] == 44        # 46 cards less the two in the row
    types = [e.type for e in out.events]
    # rebuilt the moment the Queen, the deck's last card, is revealed: before Ana decides to stop
    assert types.index("rebuild") == types.index("reveal") + 2 and types.index("rebuild") < types.index("collect")


def test_a_row_busting_on_the_last_card_stays_out_of_the_new_deck():
    out = play("rebuild_bust")
    types = [e.type for e in out.events]
    assert types.index("rebuild") < types.index("bust")
    assert events(out, "rebuild")[0].data["cards"] == 44
    state = out.state
    # the new deck (44 cards, less Ben's one) holds neither busted card; both are the discard pile
    assert sorted(state.rules.card_id(c) for c in state.discard) == ["assassin", "jester"]
    assert len(state.deck) == 43


def test_a_row_of_five_cards_cannot_be_swapped():
    state = _state({"players": ["Ana", {"name": "Ben", "stacks": {"queen": 2}}],
                    "deck": ["king", "king", "queen", "minstrel", "alchemist"]})
    for _ in range(4):
        state.apply(Action("reveal"))
    assert state.swap_targets() == [Action("swap", RULES.index["queen"], 1)]     # four cards: open
    state.apply(Action("reveal"))
    assert state.swap_targets() == [] and "swap" not in state.verbs()
    assert Action("stop") in state.legal_actions()
    data = {"players": ["Ana", {"name": "Ben", "stacks": {"queen": 2}}],
            "deck": ["king", "king", "queen", "minstrel", "alchemist"],
            "turns": [["reveal"] * 5 + [{"swap": "queen", "from": "Ben"}]]}
    scenario, problems = scenario_from_data(RULES, data)
    assert scenario is None and problems == [
        ("turns[1][6]", "a row of five cards is collected, not swapped; possible now: stop")]


def test_revealing_the_end_of_game_card_ends_the_game_at_once():
    res = result("end_card")
    assert res["game_over"] is True
    assert res["scores"] == {"Ana": 9, "Ben": 8} and res["winner"] == "Ana" and res["winners"] == ["Ana"]
    assert res["players"]["Ana"]["stacks"] == {"king": 2}              # the Queen in the row is not collected
    assert res["turns"][0]["end"] == "end_card"


def test_scoring_and_shared_victory():
    res = result("shared_victory")
    assert res["scores"] == {"Ana": 6, "Ben": 6}
    assert res["winners"] == ["Ana", "Ben"] and res["winner"] is None


def test_no_winner_before_the_end():
    res = result("collect")
    assert res["game_over"] is False and res["winners"] == [] and res["winner"] is None


@pytest.mark.parametrize("players, copies, cards", [(2, 5, 46), (3, 7, 64), (4, 9, 82), (5, 9, 82)])
def test_the_deck_depends_on_the_table(players, copies, cards):
    assert len(RULES.deck(players)) == cards
    assert RULES.copies(players)["king"] == copies and RULES.copies(players)["end-of-game"] == 1
    assert len(GAME.deck_for(players)) == cards
    state = GameState(RULES, players, seed=0)
    assert len(state.all_cards()) == cards


def test_rules_without_table_caps_use_every_copy():
    rules = Rules(GAME.cards)
    assert len(rules.deck(2)) == 82


# ------------------------------------------------------------------ helpers


def _state(data):
    scenario, problems = scenario_from_data(RULES, {"turns": [], **data})
    assert problems == []
    return run_scenario(RULES, scenario).state
