"""``pnp simulate`` and the simulation API: reports, reproducibility across --jobs, transcripts, token demand."""

import json
import time

import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.loading.gamedata import load_game
from rules_engine.shadow_throne import Rules, derive_seed, run_games, seat_bots, simulate, token_demand, validate_game

GAME = load_game("shadow_throne")


def run(*args):
    return CliRunner().invoke(main, ["simulate", *map(str, args)])


def test_json_report_shape():
    result = run("--games", 200, "--seed", 3, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 200 and data["players"] == 4 and data["bots"] == ["random"]
    assert sum(data["wins_by_seat"].values()) + data["no_winner"] == 200
    assert sum(data["battles"]["distribution"].values()) == 200
    assert sum(int(k) * v for k, v in data["battles"]["distribution"].items()) == data["battles_total"]
    assert set(data["battle_wins_by_faction"]) == {"empire", "rebels", "church"}
    # a tied battle counts as a win for every tied faction
    faction_wins = sum(v["wins"] for v in data["battle_wins_by_faction"].values())
    assert data["battles_total"] + data["tied_battles"] <= faction_wins <= data["battles_total"] + 2 * data["tied_battles"]
    assert set(data["game_over"]) == {"goal", "gold_tiebreak", "tie", "battle_limit"}
    assert sum(data["game_over"].values()) == 200
    assert set(data["peak_tokens"]) == {"quantile", "gold", "influence", "dead", "converted", "plus_one"}
    assert data["end"]["influence"]["winner_mean"] >= 15
    assert data["invariants"] == {"checked": False, "broken": 0, "examples": []}


def test_text_report():
    result = run("--games", 100, "--seed", 1, "--bots", "random,greedy", "--check")
    assert result.exit_code == 0, result.output
    out = result.output
    for start in ("Shadow Throne: 100 games, 4 players", "Wins by seat:", "Wins by bot: random", "Battles per game: mean",
                  "Battle wins by faction: Empire", "End of game, per player:", "Game over:",
                  "Peak tokens in use at once (99th percentile):", "Invariants: none broken"):
        assert start in out, start
    assert "Simulating" not in out  # no progress bar when not on a terminal


def test_same_seed_same_report_for_any_jobs():
    one = run("--games", 600, "--seed", 42, "--bots", "random,greedy", "--json")
    two = run("--games", 600, "--seed", 42, "--bots", "random,greedy", "--json", "--jobs", 2)
    assert one.exit_code == two.exit_code == 0
    assert json.loads(one.output) == json.loads(two.output)
    other = run("--games", 600, "--seed", 43, "--bots", "random,greedy", "--json")
    assert json.loads(other.output) != json.loads(one.output)


def test_seeds_and_seats():
    assert derive_seed(7, 0) == derive_seed(7, 0) != derive_seed(7, 1) != derive_seed(8, 0)
    assert seat_bots(["random", "greedy"], 4, 0) == ["random", "greedy", "random", "greedy"]
    assert seat_bots(["a", "b", "c"], 3, 1) == ["b", "c", "a"]


def test_transcript_of_one_game():
    a = run("--games", 1, "--seed", 5, "--transcript", "--bots", "greedy,random")
    b = run("--games", 1, "--seed", 5, "--transcript", "--bots", "greedy,random")
    assert a.exit_code == 0, a.output
    assert a.output == b.output
    lines = a.output.splitlines()
    assert lines[0] == "Shadow Throne, seed 5. Seats: Ana (greedy bot), Ben (random bot), Cleo (greedy bot), Dev (random bot)."
    assert any(line.startswith("Pick 1: Ana takes") for line in lines)
    assert any(line.startswith("Power track:") for line in lines)
    assert any(" keeps " in line for line in lines)
    assert "the game is over" in a.output


def test_transcript_json_events():
    result = run("--games", 1, "--seed", 5, "--transcript", "--json")
    data = json.loads(result.output)
    assert data["seats"][0] == {"name": "Ana", "bot": "random"}
    assert data["events"][0]["type"] == "game_start"
    assert data["violations"] == []


def test_transcript_matches_game_zero_of_a_run():
    """The transcript's game is game 0 of the same seed: same winner and battle count."""
    data = json.loads(run("--games", 1, "--seed", 8, "--json").output)
    events = json.loads(run("--games", 1, "--seed", 8, "--transcript", "--json").output)["events"]
    battles = max(e["battle"] for e in events)
    assert data["battles"]["distribution"] == {str(battles): 1}


@pytest.mark.parametrize("args, message", [
    (("--bots", "random,clever"), "unknown bot 'clever'"),
    (("--players", 12), "--players: 12 is not between 3 and 5 (the players Shadow Throne's rules engine plays)"),
    (("--players", 9), "--players: 9 is not between 3 and 5"),
    (("--bots", "search:x"), "--bots: search:x: the budget is a whole number of simulations"),
    (("--games", 2, "--transcript"), "--transcript shows one game"),
    (("--games", 0), "Invalid value for '--games'"),
])
def test_bad_options(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output


def test_greedy_beats_random():
    report = simulate(GAME.cards, factions=GAME.factions, games=300, seed=2, bots=("random", "greedy"))
    rates = {name: b["win_rate"] for name, b in report["wins_by_bot"].items()}
    assert rates["greedy"] > 2 * rates["random"]


def test_token_demand_api():
    demand = token_demand(GAME.cards, factions=GAME.factions, games=150, seed=1)
    assert set(demand) == {"gold", "influence", "dead", "converted", "plus_one"}
    assert demand["influence"] >= 15 and demand["gold"] > 15
    assert 1 <= demand["dead"] <= 20 and demand["plus_one"] >= 1
    assert demand == token_demand(GAME.cards, factions=GAME.factions, games=150, seed=1)


def test_validate_hook_is_fast_and_clean():
    start = time.process_time()  # CPU time: a machine loaded by other jobs must not fail it
    assert validate_game(GAME) == []
    assert time.process_time() - start < 2.0


def test_validate_hook_reports_unknown_effect_kinds():
    from dataclasses import replace
    from rules_engine.model.cards import Ability

    class Broken:
        cards = (replace(GAME.cards[0], ability=Ability("teleport", 1, {})),) + GAME.cards[1:]
        factions = GAME.factions
        players = (3, 5)
    problems = validate_game(Broken())
    assert problems and "no handler for effect kind 'teleport'" in problems[0][1] and problems[0][2] is False


def test_run_games_results_in_game_order():
    rules = Rules(GAME.cards, GAME.factions)
    all_games = run_games(rules, games=30, seed=4)
    assert run_games(rules, games=10, seed=4) == all_games[:10]
