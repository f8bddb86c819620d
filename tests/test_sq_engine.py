"""The Shadow Queen engine through the protocol and the core: it exports every protocol name and stands
alone, chance is explicit, clones are independent, determinizations keep what a seat knows, games keep
every invariant, reports are reproducible, and the commands work as for the other games."""

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import rules_engine.shadow_queen as sq
from pnp.commands.cli import main
from pnp.loading.gamedata import load_game
from rules_engine import engine_module
from rules_engine.core.bots import make_bot
from rules_engine.core.play import play
from rules_engine.core.state import State
from rules_engine.protocol import Spec, missing_names

GAME = load_game("shadow_queen")
RULES = sq.rules_for(GAME)
SCENARIOS = Path(__file__).parent / "scenarios"


def run(*args):
    return CliRunner().invoke(main, list(map(str, args)))


def test_the_engine_exports_the_protocol_and_is_found_by_name():
    assert missing_names(sq) == [] and engine_module("shadow_queen") is sq
    assert all(isinstance(spec, Spec) for spec in sq.SCENARIO_SCHEMA.values())
    assert set(sq.DEFAULT_BOTS) <= set(sq.BOTS) and {"random", "greedy", "search"} <= set(sq.BOTS)
    assert sq.PLAYERS == (2, 2) and sq.FACTS["die_sides"] == 6 and sq.FACTS["cave_turns"] == 4


def test_the_engine_imports_without_pnp_or_reportlab():
    code = ("import sys, rules_engine.shadow_queen as e; e.Rules; e.run_scenario; e.simulate; e.transcript_lines; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('pnp', 'reportlab', 'yaml', 'click')]; "
            "print(bad); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_game_data_compiles_to_the_draft_counts():
    assert [len(RULES.pieces_of[s]) for s in (0, 1)] == [18, 18]
    assert [sum(1 for h in RULES.holding_side if h == s) for s in (0, 1)] == [4, 4]
    assert [RULES.kinds[k].move for k in range(len(RULES.kinds))] == [2, 3, 1, 1, 2, 3, 1]
    assert all(s >= 0 for s in RULES.start)
    names = {c.name for c in GAME.cards}
    assert names == {"Possess", "Taint", "Attack", "Defend", "Sacrifice", "Lure", "Steal", "Build Bridge",
                     "Build Path", "Build Altar", "Sabotage", "Banish", "Bless", "Prayer", "Rescue",
                     "Patrol Orders", "Marching Orders", "Special Orders"}
    assert all(c.invented("copies") for c in GAME.cards)


def test_validate_passes_and_reports_the_placeholders(validated):
    result = validated("validate", "shadow_queen")     # shared with test_sq_kit (conftest.validated)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[-1] == ("Shadow Queen: 2 decks, 68 cards (24 different), 2 factions, components instructions, "
                         "hexmap, cards, tokens, standees, shadows_reference, kingdom_reference, rulebook, box: valid")
    assert any(line.endswith("map.yaml: warning: 1 placeholder: values invented where the source gives none "
                             "(marked 'placeholder'); replace them with the real ones when known") for line in lines)


def test_validate_reports_a_trait_the_engine_does_not_know(tmp_path):
    import shutil
    from pnp import DATA_DIR
    dest = tmp_path / "sq"
    shutil.copytree(DATA_DIR / "shadow_queen", dest)
    text = (dest / "game.yaml").read_text().replace("traits: [rescuable]}", "traits: [rescuabel]}", 1)
    (dest / "game.yaml").write_text(text)
    result = run("validate", dest)
    assert result.exit_code == 2
    assert ("piece 'thrall': traits: the rules engine knows no trait 'rescuabel' (did you mean 'rescuable'?); "
            "known: fighter, needs_orders, essential, rescuable") in result.output


def test_chance_events_have_explicit_outcomes():
    state = sq.ENGINE.new_state(RULES, 2, check=True, turn_limit=30)
    assert state.is_chance() and state.to_move() == []
    rng = random.Random(3)
    bots = [make_bot(sq.BOTS, "random")] * 2
    explicit = rolls = 0
    while not state.is_over:
        if state.is_chance():
            outcomes = state.chance_outcomes()
            assert outcomes and abs(sum(p for _, p in outcomes) - 1) < 1e-9
            rolls += state.phase == "roll"
            State.sample_chance(state, rng)
            explicit += 1
            continue
        p = state.to_move()[0]
        state.apply_action(bots[p].act(state, p, rng))
    assert explicit > 40 and state.violations == []


def test_dice_outcomes_are_the_sums_of_six_sided_dice():
    from rules_engine.shadow_queen.state import dice_sum_odds
    odds = dict(dice_sum_odds(2))
    assert sorted(odds) == list(range(2, 13)) and abs(odds[7] - 6 / 36) < 1e-12
    assert dice_sum_odds(0) == [(0, 1.0)]


def test_clones_are_independent_and_determinizations_keep_what_the_seat_knows():
    state = sq.ENGINE.new_state(RULES, 2, turn_limit=40)
    rng = random.Random(1)
    bots = [make_bot(sq.BOTS, "greedy")] * 2
    checked = 0
    while not state.is_over and checked < 25:
        if state.is_chance():
            state.sample_chance(rng)
            continue
        p = state.to_move()[0]
        seen = state.information_state(p)
        cards = sorted(state.all_cards())
        copy = state.clone()
        play(copy, bots, random.Random(checked))
        assert copy.is_over and state.information_state(p) == seen and sorted(state.all_cards()) == cards
        hands = set()
        for _ in range(4):
            d = state.determinize(p, rng)
            assert d.information_state(p) == seen and sorted(d.all_cards()) == cards
            assert d.legal_actions(p) == state.legal_actions(p)
            hands.add(tuple(sorted(d.hand[1 - p])))
        if len([c for c in state.hand[1 - p] if RULES.card_deck[RULES.card_of[c]] != p]) > 1:
            assert len(hands) > 1                           # hidden cards are dealt again
        checked += 1
        state.apply_action(bots[p].act(state, p, rng))
    assert checked == 25
    assert not any(isinstance(v, random.Random) for v in vars(state).values())


def test_games_with_every_bot_keep_every_invariant():
    for bots in (["random", "random"], ["greedy", "random"], ["random", "greedy"], ["greedy", "greedy"]):
        for seed in range(2):
            state = sq.play_game(RULES, bots, seed, record=True, check=True, turn_limit=60)
            assert state.is_over and state.violations == [], (bots, seed)


def test_the_search_bot_plays_legal_moves_reproducibly():
    a = sq.play_game(RULES, ["search:4", "greedy"], 4, record=True, check=True, turn_limit=4)
    b = sq.play_game(RULES, ["search:4", "greedy"], 4, record=True, check=True, turn_limit=4)
    assert a.is_over and a.violations == [] and a.events == b.events


def test_the_report_is_the_same_whatever_runs_the_games():
    one = sq.simulate(RULES, games=4, seed=5, bots=("greedy", "random"), turn_limit=40, check=True)
    two = sq.simulate(RULES, games=4, seed=5, bots=("greedy", "random"), turn_limit=40, check=True, jobs=2)
    assert one == two and one["invariants"] == {"checked": True, "broken": 0, "examples": []}
    assert one["games"] == 4 and sum(w["wins"] for w in one["wins"].values()) + one["undecided"]["games"] == 4
    assert set(one["endings"]) == {"enthralled", "banished", "held", "turn_limit"}
    assert {c["side"] for c in one["cards"]} == {"Shadows", "Kingdom"} and len(one["cards"]) == 24


def test_pnp_simulate_reports_sides_length_endings_and_cards():
    result = run("simulate", "shadow_queen", "--games", "3", "--bots", "greedy,random", "-o", "turn_limit=30")
    assert result.exit_code == 0, result.output
    text = result.output
    assert "Wins by side: Shadows" in text and "Length in turns" in text and "How games end:" in text
    assert "Cards played per game (Shadows): Possess" in text and "Cards played per game (Kingdom): Banish" in text
    data = json.loads(run("simulate", "shadow_queen", "--games", "2", "-o", "turn_limit=20", "--json").output)
    assert data["turn_limit"] == 20 and data["turns"]["max"] <= 20


def test_a_game_without_a_winner_is_reported_as_a_design_finding():
    report = sq.simulate(RULES, games=2, seed=1, bots=("random",), turn_limit=6)
    lines = sq.report_lines(report, title="Shadow Queen")
    assert report["undecided"]["games"] == 2
    assert any(line.startswith("Design finding: 2 of 2 games (100.0%) reached the limit of 6 turns without a winner")
               for line in lines)


def test_pnp_simulate_refuses_other_player_counts():
    result = run("simulate", "shadow_queen", "--players", "3", "--games", "1")
    assert result.exit_code == 2


def test_a_recorded_game_reads_as_a_transcript():
    seats, state = sq.recorded_game(RULES, seed=2, players=2, bots=["greedy", "greedy"], turn_limit=6)
    lines = sq.transcript_lines(state.events, GAME.cards, GAME.factions, seats)
    assert lines[0] == "Shadows against Kingdom; Shadows move first."
    assert lines[1] == "-- Turn 1: Shadows (4 holdings) --"
    assert lines[-1] == "The game stops at the turn limit with no winner."
    assert all("{" not in line for line in lines)


def test_pnp_scenario_json_and_errors_with_lines(tmp_path):
    result = run("scenario", SCENARIOS / "sq_attack.yaml", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert list(data) == ["players", "pieces", "bridges", "paths", "altars", "events", "turn", "game_over",
                          "reason", "winner"]
    assert data["players"]["Aldric"]["side"] == "kingdom" and data["winner"] is None
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: shadow_queen\nplayers: [Morgana, Aldric]\nothers: away\npieces:\n"
                   "  shadow: ['0708']\n  peasnt: ['0709']\nturns:\n  - - {move: '0708', to: '0505'}\n")
    result = run("scenario", bad)
    assert result.exit_code == 2
    assert f"{bad}:6: pieces.peasnt: unknown piece 'peasnt' (did you mean 'peasant'?)" in result.output
    bad.write_text("game: shadow_queen\nplayers: [Morgana, Aldric]\nothers: away\npieces:\n"
                   "  shadow: ['0708']\n  peasant: ['0709']\nturns:\n  - - {move: '0708', to: '0505'}\n")
    result = run("scenario", bad)
    assert result.exit_code == 2
    assert f"{bad}:8: turns[1][1].to: no hex or holding '0505'" in result.output


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("PNP_LONG_GAMES"), reason="2,000 checked games (10-25 min): "
                    "PNP_LONG_GAMES=1 pytest tests/test_sq_engine.py -k two_thousand")
def test_two_thousand_games_break_no_invariant():
    """Pieces conserved, one piece a hex outside holdings, cards conserved: 2,000 whole games of random
    and greedy bots with every invariant checked after every action."""
    report = sq.simulate(RULES, games=2000, seed=12, bots=("random", "greedy"), check=True, jobs=2)
    assert report["games"] == 2000
    assert report["invariants"] == {"checked": True, "broken": 0, "examples": []}
