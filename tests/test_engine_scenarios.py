"""Every rule of Shadow Throne, checked on the scenario files in tests/scenarios/ through the engine API.

Each test loads a scenario with ``pnp.loading.scenario`` (the same path ``pnp scenario`` takes), plays it with
the engine, and asserts on the structured outcome (the ``--json`` shape) and, where the order of
events matters, on the recorded events.
"""

from pathlib import Path

import pytest

from pnp.loading.scenario import run_scenario_file

SCENARIOS = Path(__file__).parent / "scenarios"


def play(name):
    game, outcome = run_scenario_file(SCENARIOS / f"{name}.yaml")
    assert outcome.state.violations == []
    return outcome


def result(name):
    return play(name).result


def chars(res, card=None, owner=None, wave=None):
    return [c for c in res["characters"]
            if (card is None or c["card"] == card) and (owner is None or c["owner"] == owner)
            and (wave is None or c["wave"] == wave)]


def one(res, card, owner=None, wave=None):
    found = chars(res, card, owner, wave)
    assert len(found) == 1, found
    return found[0]


def events(outcome, *types):
    return [e for e in outcome.events if not types or e.type in types]


def test_every_scenario_file_plays_without_broken_invariants():
    files = sorted(SCENARIOS.glob("*.yaml"))
    assert len(files) >= 20
    for path in files:
        _, outcome = run_scenario_file(path)
        assert outcome.state.violations == [], path.name


# ---------------------------------------------------------------- abilities resolving together


def test_worked_example_outlaw_is_converted_and_emboldened():
    res = result("worked_example")
    outlaw = one(res, "outlaw")
    assert outlaw == {"card": "outlaw", "owner": "Ana", "wave": 1, "played": True, "original_faction": "rebels",
                      "faction": "church", "power": 2, "dead": False, "converted": True}
    assert res["power"] == {"empire": 0, "rebels": 0, "church": 2}
    assert res["winners"] == ["church"]
    # the converted Outlaw earns influence for the Church (0 for an Outlaw); the Shepherd gives 2
    assert res["players"]["Ben"]["influence"] == 2


def test_killed_at_an_earlier_step_loses_its_ability():
    outcome = play("step_order")
    res = outcome.result
    assert one(res, "shepherd-of-the-lost", "Ben", 1)["dead"] is True
    outlaw = one(res, "outlaw", "Cleo", 1)
    assert outlaw["faction"] == "rebels" and not outlaw["converted"]
    blocked = events(outcome, "blocked")
    assert {"card": "shepherd-of-the-lost", "player": 1} == blocked[0].data["character"]
    assert blocked[0].data["reason"] == "dead"


def test_killed_at_its_own_step_still_uses_its_ability():
    outcome = play("step_order")
    res = outcome.result
    assert one(res, "sythera", "Cleo", 2)["dead"] is True
    # Sythera died at step 1 with Datura's kill, yet still silenced the second Shepherd (step 2)
    assert one(res, "outlaw", "Dev", 2)["faction"] == "rebels"
    reasons = [(e.data["character"]["card"], e.data["reason"]) for e in events(outcome, "blocked") if e.wave == 2]
    assert reasons == [("shepherd-of-the-lost", "suppressed")]


# ---------------------------------------------------------------- gold


def test_hush_money_costs_and_incomes_not_cumulative():
    outcome = play("hush_money")
    pays = [(e.wave, e.type, e.data["player"], e.data["amount"]) for e in
            events(outcome, "pay", "pay_hush", "collect", "collect_hush", "play_free")]
    assert (2, "collect_hush", 0, 0) in pays       # Loyal Soldier's income 1 becomes 0
    assert (3, "collect_hush", 0, 1) in pays       # Tax Collector collects 1, not 2 (no pay-then-collect)
    assert (2, "pay_hush", 1, 1) in pays           # a Defiant Slave costs 1 after a Rebel
    assert (3, "pay_hush", 1, 1) in pays           # ... and still 1 after two Rebels
    assert all(p != 2 or kind == "play_free" for _, kind, p, _ in pays)  # alternating factions: no hush
    assert outcome.result["players"]["Ana"]["gold_after_conflict"] == 4
    assert outcome.result["players"]["Ben"]["gold_after_conflict"] == 1


def test_hush_money_follows_the_original_faction_after_conversion_and_death():
    outcome = play("hush_money_original_faction")
    res = outcome.result
    assert one(res, "outlaw")["faction"] == "church"
    assert one(res, "simone")["dead"] is True
    wave2 = {e.data["player"]: (e.type, e.data["amount"]) for e in outcome.events
             if e.wave == 2 and e.type in ("pay", "pay_hush", "play_free")}
    assert wave2[0] == ("pay_hush", 1)   # Ana: Defiant Slave after her (converted) Rebel Outlaw
    assert wave2[1] == ("play_free", 0)  # Ben: Empire after Church, no hush money
    assert wave2[2] == ("pay_hush", 1)   # Cleo: Pious Peasant after her dead Simone


def test_poor_player_turns_the_card_face_down_and_collects_one_gold():
    outcome = play("poor_player")
    res = outcome.result
    face_down = chars(res, "queens-guard", "Ana")
    assert [c["played"] for c in face_down] == [False, False]
    assert all(c["power"] == 0 for c in face_down)
    poor = events(outcome, "poor")
    assert [(e.wave, e.data["need"], e.data["had"], e.data["gold"]) for e in poor] == [(1, 1, 0, 1), (3, 2, 1, 2)]
    # after a face-down wave no hush money: the Defiant Slave costs 0 (Ana keeps her 1 gold)
    slave = [e for e in events(outcome, "play_free", "pay_hush") if e.data["card"] == "defiant-slave"]
    assert slave[0].type == "play_free" and slave[0].data["gold"] == 1
    # face-down cards are out of the battle: no power, no consolation
    assert res["power"]["rebels"] == 2
    assert res["players"]["Ana"]["gold"] == 2 + 3


# ---------------------------------------------------------------- King Kyros


def test_kyros_extra_card_joins_at_his_step():
    outcome = play("kyros_extra")
    res = outcome.result
    knights = one(res, "benthon-knights", "Ana", 2)
    assert knights["played"] and knights["faction"] == "empire"  # Protis' step-2 conversion missed it
    # the Knights' own ability acted at step 3 on the Outlaw converted at step 2
    outlaw = one(res, "outlaw", "Dev", 2)
    assert outlaw["dead"] and outlaw["converted"] and outlaw["power"] == 0
    assert one(res, "king-kyros")["power"] == 10
    types = [e.type for e in outcome.events if e.wave == 2]
    assert types.index("convert") < types.index("extra_pay") < types.index("kill")


def test_kyros_extra_card_owes_no_hush_money_but_counts_for_the_next_wave():
    outcome = play("kyros_extra")
    wave2 = [e for e in outcome.events if e.wave == 2 and e.data.get("player") == 0
             and e.type in ("pay", "pay_hush", "extra_pay")]
    assert [(e.type, e.data["amount"]) for e in wave2] == [("pay_hush", 6), ("extra_pay", 1)]
    wave3 = [e for e in outcome.events if e.wave == 3 and e.type in ("pay_hush", "play_free")]
    assert [(e.type, e.data["card"]) for e in wave3] == [("pay_hush", "dutiful-peasant")]


def test_kyros_extra_card_must_be_affordable():
    outcome = play("kyros_unaffordable")
    res = outcome.result
    guard = one(res, "kings-guard")
    assert guard["played"] is False and guard["power"] == 0
    assert res["players"]["Ana"]["gold"] == 1
    assert [e.data["reason"] for e in events(outcome, "extra_refused")] == ["unaffordable"]


# ---------------------------------------------------------------- Sythera


def test_sythera_blocks_other_factions_steps_two_and_three():
    outcome = play("sythera")
    res = outcome.result
    # King Kyros (step 3) adds no card; the Shepherd (step 2) converts no one
    tax = one(res, "tax-collector")
    assert tax["played"] is False
    assert [e.data["reason"] for e in events(outcome, "extra_refused")] == ["blocked"]
    assert one(res, "outlaw", "Ana", 2)["faction"] == "rebels"
    # her own faction is not blocked: the Phabos Scouts embolden Sythera
    assert one(res, "sythera")["power"] == 4
    assert res["power"] == {"empire": 10, "rebels": 8, "church": 0}


def test_sythera_does_not_block_step_one_or_simone():
    outcome = play("sythera_simone")
    res = outcome.result
    assert one(res, "sythera")["dead"] and one(res, "simone")["dead"]
    assert res["players"]["Cleo"]["influence"] == 5


# ---------------------------------------------------------------- Langman


def test_langman_stays_after_a_rebel_loss():
    res = result("langman_stays")
    assert res["winners"] == ["empire"]
    assert res["carryover"] == ["langman"]


def test_langman_goes_back_after_a_second_loss():
    res = result("langman_second_loss")
    langman = one(res, "langman")
    assert langman["wave"] == 0 and langman["power"] == 4
    assert res["power"]["rebels"] == 5
    assert res["carryover"] == []


def test_langman_does_not_stay_when_killed_even_after_triggering():
    outcome = play("langman_killed")
    assert [e.data["source"]["card"] for e in events(outcome, "stay")] == ["langman"]
    assert one(outcome.result, "langman")["dead"] is True
    assert outcome.result["carryover"] == []


def test_langman_does_not_stay_when_the_rebels_win():
    res = result("langman_wins")
    assert res["winners"] == ["rebels"] and res["carryover"] == []


# ---------------------------------------------------------------- Simone, Thamna, Beatrice


def test_simone_gives_five_influence_at_once_but_the_game_ends_at_resolution():
    outcome = play("simone")
    death = events(outcome, "death_influence")
    assert [(e.wave, e.data["player"], e.data["amount"], e.data["influence"]) for e in death] == [(1, 0, 5, 16)]
    # Ana passed 15 in wave 1, yet waves 2 to 4 were still played
    assert any(e.wave == 4 and e.type == "collect_hush" for e in outcome.events)
    game_over = events(outcome, "game_over")
    assert len(game_over) == 1 and game_over[0].wave == 4
    res = outcome.result
    assert res["game_over"] is True and res["winner"] == "Ana"
    assert res["players"]["Ana"]["influence"] == 11 + 5 + 1 + 1 + 1  # Simone dead: half of 2


def test_thamna_bonus_when_owner_is_poor_after_paying():
    assert one(result("thamna"), "thamna")["power"] == 4
    assert one(result("thamna_no_bonus"), "thamna")["power"] == 1
    assert one(result("thamna_hush"), "thamna")["power"] == 4


def test_beatrice_bonus_for_converted_commoners_only():
    res = result("beatrice")
    outlaw = one(res, "outlaw")
    assert outlaw["faction"] == "church" and outlaw["power"] == 2  # one bonus, although two converters
    assert one(res, "pious-peasant", "Dev")["power"] == 1          # already Church: no bonus
    assert res["power"]["church"] == 3


# ---------------------------------------------------------------- killing, emboldening


def test_killing_spares_the_empire_and_dead_give_half_influence_and_consolation():
    res = result("kill_and_rewards")
    assert one(res, "dutiful-peasant")["dead"] is False       # Empire commoner spared by the Knights
    assert one(res, "pious-peasant")["dead"] and one(res, "outlaw")["dead"]
    assert one(res, "protis")["dead"]
    # the dead Outlaw and Pious Peasant were not converted by the later Shepherd (different wave anyway)
    assert one(res, "outlaw")["faction"] == "rebels"
    # Church lost: Ben's dead Pious Peasant still pays 3 consolation gold
    assert res["players"]["Ben"]["gold"] == res["players"]["Ben"]["gold_after_conflict"] + 3


def test_dead_characters_cannot_be_converted():
    outcome = play("hush_money_original_faction")
    assert one(outcome.result, "simone")["faction"] == "church"
    res = result("step_order")
    assert one(res, "outlaw", "Cleo", 1)["faction"] == "rebels"


def test_killed_characters_lose_their_plus_one_tokens():
    outcome = play("kill_removes_tokens")
    outlaw = one(outcome.result, "outlaw")
    assert outlaw["dead"] and outlaw["power"] == 0
    assert outcome.state.tok_plus == 0
    assert outcome.result["power"]["rebels"] == 0


def test_embolden_waves():
    res = result("embolden")
    # Phabos Scouts: the other Rebels of wave 1, not themselves
    assert one(res, "phabos-scouts")["power"] == 2
    # wave-1 commoners: Scouts +1 and Eletheria (wave 3) +1
    assert one(res, "outlaw", "Ben", 1)["power"] == 3
    assert one(res, "mutinous-soldier", "Cleo", 1)["power"] == 3
    # Picreus (wave 2) emboldens wave 3's Rebels, including Eletheria herself
    assert one(res, "queens-guard", "Ana", 3)["power"] == 4
    assert one(res, "queen-eletheria")["power"] == 1
    assert one(res, "outlaw", "Ben", 3)["power"] == 3
    # Eletheria does not reach the later wave 4
    assert one(res, "mutinous-soldier", "Ana", 4)["power"] == 1
    assert res["power"]["rebels"] == 21


def test_picreus_in_the_last_wave_does_nothing():
    outcome = play("picreus_last_wave")
    assert [e.type for e in outcome.events if e.data.get("source", {}).get("card") == "picreus"] == [
        "nothing_no_next_wave"]
    assert outcome.result["power"]["rebels"] == 3


# ---------------------------------------------------------------- resolution and game end


def test_tied_factions_all_win():
    res = result("ties")
    assert res["winners"] == ["empire", "rebels"]
    assert res["players"]["Ana"]["influence"] == 2 and res["players"]["Ben"]["influence"] == 1
    # Cleo's Church Pious Peasant lost (consolation 3); her Rebel soldier won (influence 1)
    assert res["players"]["Cleo"] == {"gold_after_conflict": 6, "gold": 9, "influence": 1}


@pytest.mark.parametrize("name, winner, over", [
    ("game_end_gold", "Ana", True),
    ("game_end_ruins", None, True),
    ("goal_variant", None, False),
])
def test_game_end(name, winner, over):
    res = result(name)
    assert res["game_over"] is over
    assert res["winner"] == winner
