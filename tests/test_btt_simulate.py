"""``pnp simulate`` for Behind the Throne and the game-neutral options: GAME, --game, --players 2..5,
-o NAME=VALUE; reproducibility across --jobs; transcripts; the simulation API and the validate hook."""

import json
import re
import time
from dataclasses import replace

import pytest
from click.testing import CliRunner

from pnp import PROJECT_ROOT
from pnp.commands.cli import main
from pnp.loading.gamedata import load_game
from rules_engine.behind_the_throne import play_game, rules_for, run_games, simulate, validate_game
from rules_engine.model.cards import Ability

GAME = load_game("behind_the_throne")
RULES = rules_for(GAME)


def run(*args):
    return CliRunner().invoke(main, ["simulate", *map(str, args)])


def test_json_report_shape():
    result = run("behind_the_throne", "--games", 200, "--seed", 3, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 200 and data["players"] == 4 and data["bots"] == ["random"]
    assert set(data) == {"games", "players", "seed", "bots", "wins_by_seat", "shared_victories", "wins_by_bot",
                         "turns", "turn_endings", "per_game", "scores", "game_over", "invariants"}
    # every game has at least one winner; a shared victory counts for each winner
    wins, shared = sum(data["wins_by_seat"].values()), data["shared_victories"]
    assert 200 + shared <= wins <= 200 + 3 * shared
    assert data["game_over"] == {"end_card": 200, "turn_limit": 0}
    assert sum(v["turns"] for v in data["turn_endings"].values()) == round(data["turns"]["mean"] * 200)
    assert data["turn_endings"]["end"]["turns"] == 200
    assert data["wins_by_bot"]["random"]["share"] == 1.0
    assert data["invariants"] == {"checked": False, "broken": 0, "examples": []}


def test_a_range_of_player_counts_gives_one_report_each():
    result = run("behind_the_throne", "--players", "2..5", "--games", 40, "--json")
    assert result.exit_code == 0, result.output
    reports = json.loads(result.output)
    assert [r["players"] for r in reports] == [2, 3, 4, 5]
    text = run("behind_the_throne", "--players", "2..3", "--games", 40).output
    assert "Behind the Throne: 40 games, 2 players" in text and "Behind the Throne: 40 games, 3 players" in text


def test_game_option_is_an_alias_of_the_argument():
    a = run("behind_the_throne", "--games", 50, "--json")
    b = run("--game", "behind_the_throne", "--games", 50, "--json")
    assert a.exit_code == b.exit_code == 0 and a.output == b.output
    clash = run("behind_the_throne", "--game", "shadow_throne")
    assert clash.exit_code == 2 and "give the game once" in clash.output


def test_text_report():
    result = run("behind_the_throne", "--games", 100, "--seed", 1, "--bots", "random,cautious", "--check")
    assert result.exit_code == 0, result.output
    for start in ("Behind the Throne: 100 games, 4 players, seed 1, bots random, cautious", "Wins by seat",
                  "Wins by bot: random", "Turns per game: mean", "Turns ending in: collect",
                  "Per game:", "Scores: mean", "Game over: End of Game card 100", "Invariants: none broken"):
        assert start in result.output, start


def test_same_seed_same_report_for_any_jobs():
    """120 games: 8 batches of 15 between the two processes (rules_engine.core.runs.batch_size), as 600 are 8
    batches of 75."""
    args = ("behind_the_throne", "--games", 120, "--seed", 42, "--bots", "random,cautious", "--json")
    one, two = run(*args), run(*args, "--jobs", 2)
    assert one.exit_code == two.exit_code == 0
    assert json.loads(one.output) == json.loads(two.output)
    other = run("behind_the_throne", "--games", 120, "--seed", 43, "--bots", "random,cautious", "--json")
    assert json.loads(other.output) != json.loads(one.output)


def test_transcript_of_one_game_is_game_zero_of_a_run():
    a = run("behind_the_throne", "--games", 1, "--seed", 5, "--transcript", "--bots", "cautious,random")
    b = run("behind_the_throne", "--games", 1, "--seed", 5, "--transcript", "--bots", "cautious,random")
    assert a.exit_code == 0, a.output
    assert a.output == b.output
    lines = a.output.splitlines()
    assert lines[0] == ("Behind the Throne, seed 5. Seats: Ana (cautious bot), Ben (random bot), "
                        "Cleo (cautious bot), Dev (random bot).")
    assert lines[1] == "A game for 4 players begins with 82 cards; the End of Game card starts the discard pile."
    assert lines[2] == "-- Turn 1: Ana --"
    assert "reveals the End of Game card: the game ends at once." in a.output
    events = json.loads(run("behind_the_throne", "--games", 1, "--seed", 5, "--transcript", "--json",
                            "--bots", "cautious,random").output)["events"]
    report = json.loads(run("behind_the_throne", "--games", 1, "--seed", 5, "--json",
                            "--bots", "cautious,random").output)
    assert max(e["turn"] for e in events) == report["turns"]["max"]


def test_two_player_transcript_uses_the_smaller_deck():
    out = run("behind_the_throne", "--games", 1, "--players", 2, "--transcript").output
    assert "A game for 2 players begins with 46 cards" in out


@pytest.mark.parametrize("args, message", [
    (("-o", "goal=20"), "Behind the Throne has no option 'goal'; options: max_stacks (stacks a player may keep), "
                        "turn_limit (turns after which a game stops (a safety net))"),
    (("--goal", 20), "Behind the Throne has no option 'goal'"),
    (("--players", "2..x"), "--players: expected a number or a range like 2..5"),
    (("--players", "5..2"), "--players: the range 5..2 is empty"),
    (("--players", "0..3"), "--players: 0 is not between 2 and 5"),
    (("--players", 7, "--games", 10), "--players: 7 is not between 2 and 5 (the players Behind the Throne's rules "
                                      "engine plays)"),
    (("--players", "2..3", "--games", 1, "--transcript"), "--transcript shows one game: give one player count"),
    (("--bots", "random,greedy"), "unknown bot 'greedy'; known bots: random, cautious, search"),
])
def test_bad_options(args, message):
    result = run("behind_the_throne", *args)
    assert result.exit_code == 2, result.output
    assert message in result.output


def test_options_of_another_engine_pass_through():
    a = run("shadow_throne", "--games", 60, "-o", "goal=20", "--json")
    b = run("shadow_throne", "--games", 60, "--goal", 20, "--json")
    assert a.exit_code == b.exit_code == 0
    assert json.loads(a.output) == json.loads(b.output) and json.loads(a.output)["goal"] == 20
    bad = run("shadow_throne", "-o", "goal=zero")
    assert bad.exit_code == 2 and "--option goal: expected an integer" in bad.output
    assert "options: goal (influence that ends the game)" in run("shadow_throne", "-o", "speed=2").output


def test_a_player_count_outside_the_game_but_inside_the_engine_warns(tmp_path):
    import shutil

    folder = tmp_path / "duel"
    shutil.copytree(PROJECT_ROOT / "data" / "behind_the_throne", folder)
    text = (folder / "game.yaml").read_text()
    (folder / "game.yaml").write_text(re.sub(r"players: \{min: 2, max: 5\}", "players: {min: 3, max: 4}", text))
    result = run(str(folder), "--players", 2, "--games", 10)
    assert result.exit_code == 0, result.output
    assert "is played by 3 to 4 players" in result.output


def test_cautious_beats_random():
    report = simulate(RULES, games=300, seed=2, players=4, bots=("random", "cautious"))
    rates = {name: b["win_rate"] for name, b in report["wins_by_bot"].items()}
    assert rates["cautious"] > 5 * rates["random"]


def test_run_games_results_in_game_order():
    all_games = run_games(RULES, games=30, seed=4)
    assert run_games(RULES, games=10, seed=4) == all_games[:10]


def test_play_game_reaches_the_end_card():
    state = play_game(RULES, ["cautious", "random", "random"], 11, check=True)
    assert state.is_over and state.over_reason == "end_card" and state.violations == []
    assert state.scores == [state.score(p) for p in range(3)]


def test_validate_hook_is_fast_and_clean():
    start = time.process_time()  # CPU time: a machine loaded by other jobs must not fail it
    assert validate_game(GAME) == []
    assert time.process_time() - start < 1.0


def test_validate_hook_reports_unknown_effect_kinds_and_broken_decks():
    class Broken:
        cards = (replace(GAME.cards[0], ability=Ability("teleport", None, {})),) + GAME.cards[1:]
        players = (2, 5)
    problems = validate_game(Broken())
    assert problems and "no handler for effect kind 'teleport'" in problems[0][1] and problems[0][2] is False

    class NoEnd:
        cards = GAME.cards[:-1]
        players = (2, 5)
    assert "exactly one End of Game card" in validate_game(NoEnd())[0][1]
