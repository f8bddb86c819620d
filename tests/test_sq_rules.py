"""Every rule of the Shadow Queen draft and every ruling on its open points (docs/engine.md, "Shadow
Queen"), checked on the scenario files tests/scenarios/sq_*.yaml and on positions set up in the tests.

Files go through ``pnp.loading.scenario`` (the path ``pnp scenario`` takes); a position that should refuse a
move is built with the same scenario reader, so every message a user would see is checked too.
"""

from pathlib import Path

import pytest

from pnp.loading.gamedata import load_game
from pnp.loading.scenario import run_scenario_file
from rules_engine.shadow_queen import GameState, rules_for, scenario_from_data, scenario_lines
from rules_engine.shadow_queen.scenario import _setup
from rules_engine.shadow_queen.state import ACT, DEFEND, MOVE, PASS_ACTION, PIECE, PLAY, Action

SCENARIOS = Path(__file__).parent / "scenarios"
GAME = load_game("shadow_queen")
RULES = rules_for(GAME)
S = RULES.space_by_id


def play(name):
    _, outcome = run_scenario_file(SCENARIOS / f"sq_{name}.yaml")
    assert outcome.state.violations == []
    return outcome


def kinds(outcome, *types):
    return [e.as_dict() for e in outcome.events if not types or e.type in types]


def piece_at(result, hex_id):
    return [p for p in result["pieces"] if p["at"] == hex_id]


def position(**data):
    """The state at the start of the first turn (cards drawn) of a scenario given as keywords."""
    data.setdefault("players", ["Morgana", "Aldric"])
    data.setdefault("others", "away")
    scenario, problems = scenario_from_data(RULES, data)
    assert problems == []
    state, _ = _setup(RULES, scenario, record=True, check=True)
    return state


def refused(**data):
    data.setdefault("players", ["Morgana", "Aldric"])
    data.setdefault("others", "away")
    scenario, problems = scenario_from_data(RULES, data)
    assert scenario is None
    return problems


def at(state, hex_id):
    return [p for p, s in enumerate(state.pos) if s == S[hex_id]]


def test_every_shadow_queen_scenario_plays_cleanly():
    files = sorted(SCENARIOS.glob("sq_*.yaml"))
    assert len(files) >= 25
    for path in files:
        _, outcome = run_scenario_file(path)
        assert outcome.state.violations == [], path.name


# ---------------------------------------------------------------- turns and cards


def test_shadows_move_first_and_draw_a_card_per_holding():
    out = play("turn_order")
    starts = kinds(out, "turn_start")
    assert [(e["turn"], e["side"], e["holdings"]) for e in starts] == [(1, 0, 3), (2, 1, 5)]
    draws = kinds(out, "draw")
    assert [e["side"] for e in draws] == [0] * 3 + [1] * 5
    assert len(out.result["players"]["Aldric"]["hand"]) == 5


def test_a_played_card_leaves_the_game():
    res = play("attack_undefended").result
    assert res["players"]["Morgana"]["used"] == ["shadow-attack"]
    assert "shadow-attack" not in res["players"]["Morgana"]["hand"]


def test_discards_go_back_into_their_own_deck_at_once():
    res = play("steal").result
    assert res["players"]["Morgana"]["hand"] == ["taint"] * 4
    assert res["players"]["Aldric"]["hand"] == []
    # the stolen Bless went back to the Kingdom's deck: 4 copies, none used, none in a hand
    assert res["players"]["Aldric"]["deck"] == len(RULES.deck_cards[1])


def test_ruling_a_side_without_holdings_draws_nothing_and_keeps_nothing():
    out = play("zero_holdings")
    assert kinds(out, "draw") == [] and out.result["players"]["Aldric"]["hand"] == []
    assert [e["card"] for e in kinds(out, "discard")] == ["bless", "banish"]


def test_each_piece_has_one_go_a_turn_and_may_stay_put():
    state = position(pieces={"shadow": ["0705", "0101"], "peasant": ["0111"]})
    p = at(state, "0705")[0]
    assert Action(MOVE, p, dest=S["0705"]) in state.legal_actions()
    state.apply_action(Action(MOVE, p, dest=S["0704"]))
    assert state.phase == PIECE and p not in state.movable()


# ---------------------------------------------------------------- movement


@pytest.mark.parametrize("kind, start, hexes", [
    ("shadow", "0702", 2), ("familiar", "0702", 3), ("thrall", "0702", 1),
    ("priest", "0710", 1), ("messenger", "0710", 3), ("peasant", "0710", 1),
])
def test_each_kind_moves_its_own_number_of_hexes(kind, start, hexes):
    others = {"shadow": ["0101"], "peasant": ["0111"]}
    others[kind] = [start] + ([others[kind][0]] if kind in others else [])
    state = position(pieces=others, first="shadows" if RULES.kind_side[RULES.kind_index[kind]] == 0 else "kingdom")
    p = at(state, start)[0]
    far = max(RULES.dist[S[start]][s] for s in state.destinations(p))
    assert far == hexes


def test_soldiers_move_only_under_orders():
    state = position(first="kingdom", pieces={"shadow": ["0101"], "soldier": ["0610"]})
    assert state.destinations(at(state, "0610")[0]) == [S["0610"]]


def test_marching_orders_go_three_hexes_in_the_direction_of_the_first_march():
    out = play("marching")
    moves = [(e["start"], e["to"], e["hexes"]) for e in kinds(out, "move") if e["kind"] == "soldier"]
    assert moves == [("0611", "0608", 3), ("0608", "0607", 1)]
    state = out.state
    soldier = at(state, "0607")[0]
    assert state.orders[soldier].order == "marching"
    # only straight on: the line goes on north into the river, so it cannot move at all now
    assert state.orders[soldier].direction == 1 and state.destinations(soldier) == [S["0607"]]


def test_ruling_a_move_into_or_out_of_a_forest_is_one_hex():
    state = position(pieces={"shadow": ["0605", "0101"], "peasant": ["0111"]})
    p = at(state, "0605")[0]
    dests = {RULES.hex_id[s] for s in state.destinations(p)}
    assert "0604" in dests and "0504" not in dests        # into the forest, but not through it
    state = position(pieces={"shadow": ["0604", "0101"], "peasant": ["0111"]})
    p = at(state, "0604")[0]
    assert max(RULES.dist[S["0604"]][s] for s in state.destinations(p)) == 1


def test_a_path_lets_pieces_walk_through_the_forest():
    out = play("forest_path")
    assert [(e["start"], e["to"]) for e in kinds(out, "move")] == [("0605", "0504")]


def test_the_river_is_crossed_only_by_a_bridge():
    state = position(pieces={"shadow": ["0705", "0101"], "peasant": ["0111"]})
    assert S["0706"] not in state.destinations(at(state, "0705")[0])
    state = position(pieces={"shadow": ["0705", "0101"], "peasant": ["0111"]}, bridges=["0706"])
    assert S["0706"] in state.destinations(at(state, "0705")[0])


def test_ruling_pieces_share_holdings_and_pass_only_their_own_pieces():
    out = play("holding_stack")
    res = out.result
    assert len(piece_at(res, "0808")) == 2
    # the third Messenger went 0807 -> 0808 (a holding) -> 0809? no: the Peasant stands on 0809;
    # it passed through the holding and its own side's hexes to reach 0710
    assert [(e["start"], e["to"]) for e in kinds(out, "move")][-1] == ("0807", "0710")
    state = position(pieces={"shadow": ["0708", "0101"], "messenger": ["0709"], "peasant": ["0111"]},
                     first="kingdom")
    m = at(state, "0709")[0]
    dests = {RULES.hex_id[s] for s in state.destinations(m)}
    assert "0708" not in dests and "0707" not in dests       # not onto or past the enemy Shadow on 0708


# ---------------------------------------------------------------- fights


def test_attack_dice_per_fighter_next_to_the_target_and_defence_with_a_card():
    out = play("attack")
    rolls = [(e["role"], e["dice"], e["total"]) for e in kinds(out, "roll")]
    assert rolls == [("attack", 2, 9), ("defence", 1, 3)]
    assert piece_at(out.result, "0808") == []
    assert [e["fate"] for e in kinds(out, "removed")] == ["killed"]


def test_ruling_without_a_defend_card_the_defence_rolls_nothing():
    out = play("attack_undefended")
    assert [(e["role"], e["total"]) for e in kinds(out, "roll")] == [("attack", 1)]
    assert kinds(out, "fight")[0]["defence"] == 0 and piece_at(out.result, "0709") == []


def test_ruling_a_lower_attack_roll_costs_the_attacker():
    out = play("attack_fails")
    assert [(e["role"], e["dice"], e["total"]) for e in kinds(out, "roll")] == [("attack", 1, 2), ("defence", 2, 11)]
    assert [(e["kind"], e["at"]) for e in kinds(out, "removed")] == [("shadow", "0708")]


def test_equal_rolls_leave_every_piece():
    out = play("attack_tie")
    assert kinds(out, "fight")[0]["result"] == "tie" and kinds(out, "removed") == []


def test_no_piece_may_attack_its_own_side_or_a_possessed_piece():
    state = position(pieces={"shadow": ["0708", "0101"], "peasant": ["0709", "0807"]}, possessed=["0807"],
                     players=[{"name": "Morgana", "hand": ["shadow-attack"]}, "Aldric"])
    s = at(state, "0708")[0]
    state.apply_action(Action(MOVE, s, dest=S["0708"]))
    targets = {RULES.hex_id[state.pos[a.target]] for a in state.legal_actions()
               if a.verb == PLAY and RULES.card_id(a.card) == "shadow-attack"}
    assert targets == {"0709"}                                 # not the possessed Peasant on 0807


def test_no_piece_may_be_attacked_in_a_cave_and_nothing_is_played_from_one():
    state = position(pieces={"shadow": ["0708", "0101"], "peasant": ["0608"]},
                     players=[{"name": "Morgana", "hand": ["shadow-attack"]}, "Aldric"])
    s = at(state, "0708")[0]
    state.apply_action(Action(MOVE, s, dest=S["0708"]))
    assert state.phase == PIECE                               # nothing to play: the only target is in a cave
    state = position(pieces={"shadow": ["0805", "0101"], "peasant": ["0111"]},
                     players=[{"name": "Morgana", "hand": ["taint", "sacrifice"]}, "Aldric"])
    s = at(state, "0805")[0]
    state.current = s
    assert state.act_actions() == [PASS_ACTION]


def test_a_piece_in_a_cave_more_than_four_turns_is_eaten():
    out = play("cave_bear")
    assert [(e["kind"], e["fate"]) for e in kinds(out, "removed")] == [("peasant", "eaten")]
    state = position(first="kingdom", pieces={"shadow": ["0101"], "peasant": ["0608", "0709"]},
                     cave_turns={"0608": 3})
    state.apply_action(Action("end"))
    assert state.fate[at(state, "0608")[0]] is None and state.cave_turns[at(state, "0608")[0]] == 4


# ---------------------------------------------------------------- the Shadows' cards


def test_possession_lets_the_shadows_move_the_piece_at_once():
    out = play("possess")
    res = out.result
    assert res["players"]["Aldric"]["possessed"] == 1
    assert [(e["side"], e["kind"], e["to"]) for e in kinds(out, "move")][-1] == (0, "peasant", "0708")


def test_possession_in_a_holding_needs_the_holding_under_shadow_control():
    hand = [{"name": "Morgana", "hand": ["possess"]}, "Aldric"]
    for control, expected in (({}, set()), ({"village-mill": "shadows"}, {"0808"})):
        state = position(pieces={"shadow": ["0708", "0101"], "peasant": ["0808"]}, players=hand, control=control)
        s = at(state, "0708")[0]
        state.apply_action(Action(MOVE, s, dest=S["0708"]))
        targets = {RULES.hex_id[state.pos[a.target]] for a in state.legal_actions()
                   if a.verb == PLAY and RULES.card_id(a.card) == "possess"}
        assert targets == expected


def test_ruling_the_kingdom_moves_its_possessed_piece_only_on_its_own_half_and_never_plays_with_it():
    out = play("possessed_moves")
    assert [(e["side"], e["start"], e["to"]) for e in kinds(out, "move") if e["kind"] == "peasant"] == [
        (0, "0707", "0708"), (1, "0708", "0709")]
    state = position(first="kingdom", pieces={"shadow": ["0101"], "peasant": ["0707", "0111"]},
                     possessed=["0707"], bridges=["0706"], players=["Morgana", {"name": "Aldric",
                                                                                "hand": ["kingdom-sabotage"]}])
    p = at(state, "0707")[0]
    assert S["0706"] not in state.destinations(p)             # the bridge is on no side's half
    state.apply_action(Action(MOVE, p, dest=S["0708"]))
    assert state.phase == PIECE                               # its move is all the Kingdom gets from it


def test_taint_passes_a_holding_to_the_shadows():
    out = play("taint")
    assert "village-mill" in out.result["players"]["Morgana"]["holdings"]
    assert len(out.result["players"]["Aldric"]["holdings"]) == 3


def test_ruling_lure_brings_the_target_as_near_as_the_way_allows():
    out = play("lure")
    play_event = kinds(out, "play")[0]
    assert (play_event["target_at"], play_event["to"]) == ("0808", "0707")
    state = position(pieces={"shadow": ["0101"], "familiar": ["0706"], "peasant": ["0808"]}, bridges=["0706"])
    f = at(state, "0706")[0]
    assert [RULES.hex_id[s] for s in state.lure_ends(at(state, "0808")[0], S["0706"])] == ["0707"]
    # the bridge is taken by the Familiar: the Peasant cannot come nearer than 0707 (distance 1)
    assert RULES.dist[S["0707"]][state.pos[f]] == 1


def test_special_orders_make_a_soldier_immune_to_lure():
    hand = [{"name": "Morgana", "hand": ["lure"]}, "Aldric"]
    state = position(pieces={"shadow": ["0101"], "familiar": ["0706"], "soldier": ["0808"]}, bridges=["0706"],
                     players=hand, orders=[{"piece": "0808", "card": "special-orders"}])
    f = at(state, "0706")[0]
    state.apply_action(Action(MOVE, f, dest=S["0706"]))
    assert state.phase == PIECE                               # nothing to lure
    state = position(pieces={"shadow": ["0101"], "familiar": ["0706"], "soldier": ["0808"]}, bridges=["0706"],
                     players=hand, orders=[{"piece": "0808", "card": "marching-orders"}])
    state.apply_action(Action(MOVE, at(state, "0706")[0], dest=S["0706"]))
    assert state.phase == ACT


def test_steal_takes_any_card_and_only_a_possessed_piece_may_play_it():
    out = play("steal")
    assert kinds(out, "play")[0]["target_card"] == "bless"
    state = position(pieces={"shadow": ["0101"], "peasant": ["0707", "0111"], "priest": ["0708"]},
                     possessed=["0708"], control={"village-mill": "shadows"},
                     players=[{"name": "Morgana", "hand": ["bless"]}, "Aldric"])
    priest = at(state, "0708")[0]
    state.apply_action(Action(MOVE, priest, dest=S["0808"]))
    assert state.phase == PIECE          # a possessed Priest may bless only what the Shadows would lose
    state = position(pieces={"shadow": ["0101"], "peasant": ["0111"], "priest": ["0708"]},
                     possessed=["0708"], players=[{"name": "Morgana", "hand": ["banish"]}, "Aldric"])
    # the stolen Banish in a possessed Priest's hands sends Kingdom pieces off? none are near: nothing
    state.apply_action(Action(MOVE, at(state, "0708")[0], dest=S["0708"]))
    assert state.phase == PIECE


def test_a_possessed_piece_plays_stolen_cards_for_the_shadows():
    state = position(pieces={"shadow": ["0101"], "soldier": ["0708"], "peasant": ["0709", "0111"]},
                     possessed=["0708"], players=[{"name": "Morgana", "hand": ["kingdom-attack"]}, "Aldric"],
                     dice=[3])
    soldier = at(state, "0708")[0]
    assert len(state.destinations(soldier)) > 1             # a possessed Soldier needs no orders
    state.apply_action(Action(MOVE, soldier, dest=S["0708"]))
    attack = [a for a in state.legal_actions() if a.verb == PLAY and RULES.card_id(a.card) == "kingdom-attack"]
    assert [RULES.hex_id[state.pos[a.target]] for a in attack] == ["0709"]
    assert state._fighters(0, attack[0].target) == 1         # it rolls for the Shadows


def test_ruling_a_build_takes_the_same_piece_two_turns():
    out = play("build_bridge")
    assert kinds(out, "built")[0]["place"] == "0706" and out.result["bridges"] == ["0706"]
    out = play("build_abandoned")
    assert kinds(out, "built") == [] and out.result["bridges"] == []
    assert "shadow-build-bridge" in out.result["players"]["Morgana"]["used"]


def test_builders_stand_where_the_card_says():
    hand = [{"name": "Morgana", "hand": ["shadow-build-bridge", "shadow-build-path", "shadow-build-altar"]},
            "Aldric"]
    cases = {"0605": {"shadow-build-bridge": ["0706"]}, "0604": {"shadow-build-path": ["0604"]},
             "0804": {"shadow-build-altar": ["pen-ford"]}, "0704": {}}
    from rules_engine.shadow_queen.scenario import _target_name
    for hex_id, expected in cases.items():
        state = position(pieces={"shadow": ["0101"], "thrall": [hex_id], "peasant": ["0111"]}, players=hand)
        t = at(state, hex_id)[0]
        state.apply_action(Action(MOVE, t, dest=S[hex_id]))
        got = {}
        for a in (state.legal_actions() if state.phase == ACT else []):
            if a.verb == PLAY:
                got.setdefault(RULES.card_id(a.card), []).append(_target_name(state, a))
        assert got == expected, hex_id


def test_sabotage_removes_a_bridge_and_drowns_the_piece_on_it():
    out = play("sabotage_drown")
    assert [(e["kind"], e["fate"]) for e in kinds(out, "removed")] == [("shadow", "drowned")]
    assert out.result["bridges"] == []


def test_sacrifice_brings_a_used_card_back_into_the_deck():
    res = play("sacrifice").result
    assert res["players"]["Morgana"]["used"] == ["sacrifice"]
    assert res["players"]["Morgana"]["deck"] + len(res["players"]["Morgana"]["hand"]) == len(RULES.deck_cards[0]) - 1


# ---------------------------------------------------------------- the Kingdom's cards


def test_banish_sends_enemy_and_possessed_pieces_to_the_nearest_shadow_holding():
    out = play("banish")
    assert [(e["kind"], e["holding"]) for e in kinds(out, "banished")] == [("shadow", "pen-ford"),
                                                                           ("peasant", "pen-ford")]
    assert len(piece_at(out.result, "0804")) == 2


def test_bless_lifts_taint_and_ends_possession():
    out = play("bless")
    res = out.result
    assert "village-mill" in res["players"]["Aldric"]["holdings"] and res["players"]["Aldric"]["possessed"] == 0


def test_the_kingdom_builds_altars_in_shadow_holdings_as_written_and_prays_once_it_holds_them():
    out = play("kingdom_altar")
    assert out.result["altars"] == ["village-mill"]
    assert out.result["players"]["Aldric"]["used"] == ["kingdom-build-altar", "prayer"]
    assert "village-mill" in out.result["players"]["Aldric"]["holdings"]
    # in a village the Kingdom holds, the Peasant cannot start an altar
    state = position(first="kingdom", pieces={"shadow": ["0101"], "peasant": ["0808"]},
                     players=["Morgana", {"name": "Aldric", "hand": ["kingdom-build-altar"]}])
    state.apply(Action(MOVE, state.pos.index(S["0808"]), dest=S["0808"]))
    assert state.phase != ACT or not [a for a in state.legal_actions() if a.verb == PLAY]


def test_ruling_a_rescued_piece_may_go_to_the_nearest_kingdom_holding():
    """The draft: a successful rescue lets the player move the Thralls or Peasants to the nearest land
    the Kingdom controls. The Thrall is brought to the nearest village and stays a Thrall; the Peasant is
    freed of the possession and left where it stands."""
    out = play("rescue")
    assert kinds(out, "removed") == []
    rescued = kinds(out, "rescued")
    assert [(e["kind"], e["at"], e["freed"], e["moved"]) for e in rescued] == [
        ("thrall", "0808", False, True), ("peasant", "0607", True, False)]
    assert out.result["players"]["Aldric"]["possessed"] == 0
    lines = scenario_lines(out, GAME.cards, GAME.factions)
    assert "The Thrall is rescued and goes to 0808." in lines


def test_orders_are_delivered_by_a_messenger_next_to_the_soldier_and_patrols_head_for_their_goal():
    out = play("patrol")
    soldier_moves = [(e["start"], e["to"]) for e in kinds(out, "move") if e["kind"] == "soldier"]
    assert soldier_moves == [("0710", "0608")]
    assert [e["reason"] for e in kinds(out, "orders_end")] == ["arrived"]
    state = position(first="kingdom", pieces={"shadow": ["0607"], "messenger": ["0709"], "soldier": ["0710"]},
                     players=["Morgana", {"name": "Aldric", "hand": ["patrol-orders"]}])
    m = at(state, "0709")[0]
    state.apply_action(Action(MOVE, m, dest=S["0709"]))
    orders = [a for a in state.legal_actions() if a.verb == PLAY]
    soldier = at(state, "0710")[0]
    shadow = at(state, "0607")[0]
    nh = len(RULES.holdings)
    assert Action(PLAY, m, orders[0].card, soldier, nh + shadow) in orders
    state.apply_action(Action(PLAY, m, orders[0].card, soldier, nh + shadow))
    # every hex of the patrol's move brings the Soldier nearer the Shadow
    for s in state.destinations(soldier):
        assert s == S["0710"] or RULES.dist[s][S["0607"]] < RULES.dist[S["0710"]][S["0607"]]


def test_orders_end_when_the_soldier_enters_a_holding_acts_or_stands_still():
    out = play("orders_end")
    assert [e["reason"] for e in kinds(out, "orders_end")] == ["holding"]
    state = position(first="kingdom", pieces={"shadow": ["0708"], "soldier": ["0709"], "familiar": ["0101"]},
                     players=["Morgana", {"name": "Aldric", "hand": ["kingdom-attack"]}],
                     orders=[{"piece": "0709", "card": "special-orders"}], dice=[1])
    s = at(state, "0709")[0]
    state.apply_action(Action(MOVE, s, dest=S["0709"]))
    attack = next(a for a in state.legal_actions() if a.verb == PLAY)
    state.apply_action(attack)
    assert state.orders[s] is None                                       # it took an action
    state = position(first="kingdom", pieces={"shadow": ["0101"], "soldier": ["0709"], "peasant": ["0111"]},
                     orders=[{"piece": "0709", "card": "special-orders"}])
    s = at(state, "0709")[0]
    state.apply_action(Action("end"))
    assert state.orders[s] is None                                       # it stood still a whole turn


def test_a_soldier_takes_one_set_of_orders_at_a_time():
    state = position(first="kingdom", pieces={"shadow": ["0101"], "messenger": ["0709"], "soldier": ["0710"]},
                     players=["Morgana", {"name": "Aldric", "hand": ["marching-orders"]}],
                     orders=[{"piece": "0710", "card": "special-orders"}])
    state.apply_action(Action(MOVE, at(state, "0709")[0], dest=S["0709"]))
    assert state.phase == PIECE


# ---------------------------------------------------------------- the end


def test_the_shadows_win_when_every_kingdom_piece_is_possessed_or_gone():
    out = play("shadows_win")
    assert out.result["game_over"] and out.result["winner"] == "Morgana" and out.result["reason"] == "enthralled"


def test_ruling_the_kingdom_wins_when_no_shadow_and_no_taint_is_left():
    out = play("kingdom_win")
    assert out.result["winner"] == "Aldric" and out.result["reason"] == "banished"
    # a Familiar still stands, but the Shadows (the essential pieces) are gone
    assert [p["kind"] for p in out.result["pieces"] if p["at"] and p["side"] == "shadows"] == ["familiar"]
    state = position(first="kingdom", pieces={"shadow": ["0708"], "soldier": ["0709"]},
                     control={"village-west": "shadows"},
                     players=["Morgana", {"name": "Aldric", "hand": ["kingdom-attack"]}], dice=[2])
    s = at(state, "0709")[0]
    state.apply_action(Action(MOVE, s, dest=S["0709"]))
    state.apply_action(next(a for a in state.legal_actions() if a.verb == PLAY))
    assert not state.is_over                                   # Westmere is still tainted


def test_a_game_stops_at_the_turn_limit_without_a_winner():
    state = GameState(RULES, 2, seed=1, turn_limit=3)
    while not state.is_over:
        state.apply_action(state.legal_actions()[-1] if state.phase == PIECE else state.legal_actions()[0])
    assert state.turn == 3 and state.winner is None and state.over_reason == "turn_limit"


def test_a_defence_is_offered_only_to_the_attacked_side_with_a_defend_card():
    state = position(pieces={"shadow": ["0708", "0101"], "peasant": ["0808"], "soldier": ["0809"]},
                     players=[{"name": "Morgana", "hand": ["shadow-attack"]}, {"name": "Aldric",
                                                                            "hand": ["kingdom-defend"]}])
    state.apply_action(Action(MOVE, at(state, "0708")[0], dest=S["0708"]))
    state.apply_action(next(a for a in state.legal_actions() if a.verb == PLAY))
    assert state.phase == DEFEND and state.to_move() == [1]
    assert {a.verb for a in state.legal_actions(1)} == {"defend", "no_defence"}


def test_a_refused_play_names_the_rule_that_refuses_it():
    far = refused(first="kingdom", pieces={"shadow": ["0708", "0711"], "soldier": ["0709"]},
                  players=["Morgana", {"name": "Aldric", "hand": ["kingdom-attack"]}],
                  turns=[[{"move": "0709"}, {"play": "kingdom-attack", "target": "0711"}]])
    assert far[0][0] == "turns[1][2]" and far[0][1].startswith(
        "kingdom-attack cannot target 0711: an attack needs an enemy piece within reach, not in a cave, never one "
        "of your own (ruling 5); possible now: ")
    priest_card = refused(first="kingdom", pieces={"shadow": ["0708"], "soldier": ["0709"]},
                          players=["Morgana", {"name": "Aldric", "hand": ["kingdom-attack", "banish"]}],
                          turns=[[{"move": "0709"}, {"play": "banish"}]])
    assert priest_card[0][1].startswith("the Soldier cannot play banish now: only a Priest plays Banish (the card's "
                                        "played_by)")
    elsewhere = refused(first="kingdom", pieces={"shadow": ["0101"], "thrall": ["0708"], "soldier": ["0709"]},
                        players=["Morgana", {"name": "Aldric", "hand": ["rescue"]}],
                        turns=[[{"move": "0709"}, {"play": "rescue", "target": "0708", "to": "0111"}]])
    assert "rescue cannot bring its target to 0111: a rescue takes a Thrall or a possessed Peasant within reach, " \
           "not in a cave; it may bring the piece only to the nearest holding your side controls (ruling 20)" \
           in elsewhere[0][1]


def test_the_kingdom_wins_with_familiars_on_the_board_unless_every_trace_must_go():
    """The Goal line names the Shadows and their taint; the opening says every trace of the Queen's
    forces. The engine reads the Goal line; the option kingdom_goal: all reads the opening."""
    default = play("kingdom_win")
    assert default.result["winner"] == "Aldric" and default.result["reason"] == "banished"
    assert any(p["kind"] == "familiar" and p["at"] for p in default.result["pieces"])
    traces = play("kingdom_goal_all")
    assert traces.result["game_over"] is False and traces.result["winner"] is None
