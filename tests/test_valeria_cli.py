"""``pnp scenario`` and ``pnp simulate`` on Shadow Kingdoms of Valeria: the JSON shapes, the examples'
transcripts (printed by the rulebook), file:line errors, reports and their reproducibility."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.commands.cli import main

EXAMPLES = Path(__file__).parent.parent / "data" / "shadow_kingdoms_of_valeria" / "examples"
GAME = "shadow_kingdoms_of_valeria"


def run(*args):
    return CliRunner().invoke(main, list(map(str, args)))


def write(tmp_path, text):
    path = tmp_path / "s.yaml"
    path.write_text(text)
    return path


def test_scenario_json_shape():
    result = run("scenario", EXAMPLES / "battle_chain.yaml", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert list(data) == ["players", "scores", "shrines", "line", "rows", "round", "first_player", "awards",
                          "award_markers", "gems", "bag", "decks", "rolls_left", "game_over", "winners", "winner"]
    kira = data["players"]["Kira"]
    assert list(kira) == ["score", "influence", "gold", "magic", "gems", "dice", "where", "reserved", "completed",
                          "champions", "unlocked", "areas"]
    assert kira["score"] == 32 and kira["where"] == "camp" and kira["champions"] == ["shaman", "peddler",
                                                                                        "king_slayer"]
    assert kira["areas"] == ["top-left", "left", "bottom-left"] and "gem_storage" in kira["unlocked"]
    assert data["scores"] == {"Kira": 32, "David": 0}
    assert data["game_over"] is False and data["winners"] == [] and data["winner"] is None


def test_solo_scenario_json_has_the_adversary():
    data = json.loads(run("scenario", EXAMPLES / "adversary_turn.yaml", "--json").output)
    assert data["adversary"] == {"shrine": "tactics", "score": 45,
                                 "completed": ["trap_at_briarwatch", "blockade_at_thornwick"]}


def test_the_rulebook_examples_read_as_the_rules_do():
    lines = run("scenario", EXAMPLES / "battle_chain.yaml").output.splitlines()
    assert lines[0] == "Example: a battle with a chain bonus"
    for line in ["Kira fights Triumph at Avery Hollow, from reserve.",
                 "Kira sends Orc 6, Orc 6, Skeleton 2 and Gargoyle 5 into battle, using 1 Gem as Wild.",
                 "Kira gains 2 Gold from Peddler.",
                 "Strength 19, held to the influence of 14: 14 is worth 9 VP.",
                 "Kira places it on the top-left area (Clash): 2 VP.",
                 "Chain bonus between the top-left and left areas: a free Champion.",
                 "Kira takes King Slayer for free."]:
        assert line in lines, line
    lines = run("scenario", EXAMPLES / "adversary_turn.yaml").output.splitlines()
    assert lines[-4:] == ["The Adversary moves to the Tactics shrine.",
                          "The Adversary meets Kira's Warden there: 2 VP (now 33).",
                          "The Adversary completes Blockade at Thornwick (3 troop icons): 12 VP (now 45, 2 plans).",
                          "The Sack of Greymoor enters the 5-Gold space of the Battle Plans line."]


def test_scenario_problems_are_reported_with_their_lines(tmp_path):
    path = write(tmp_path, f"""\
game: {GAME}
players:
  - {{name: Kira, board: pink, dice: [orc 7]}}
  - {{name: David, champions: [kingslayer], reserved: {{left: no_such_plan}}}}
shrines: {{volcano: [orc 1]}}
""")
    result = run("scenario", path)
    assert result.exit_code == 2
    assert "s.yaml:3: players[1].board: unknown board 'pink'; boards: red, blue, green, purple, yellow" in \
        result.output
    path = write(tmp_path, f"""\
game: {GAME}
players:
  - {{name: Kira, dice: [orc 7]}}
  - David
""")
    assert "s.yaml:3: players[1].dice[1]: 'orc 7' is not a die: write a troop type and a strength, like " \
           "'orc 5'" in run("scenario", path).output
    path = write(tmp_path, f"""\
game: {GAME}
players: [Kira, {{name: David, champions: [kingslayer]}}]
""")
    assert "s.yaml:2: players[2].champions[1]: unknown champion 'kingslayer' (did you mean 'king_slayer'?)" in \
        run("scenario", path).output


def test_an_illegal_decision_names_what_is_possible(tmp_path):
    path = write(tmp_path, f"""\
game: {GAME}
players: [{{name: Kira, where: gold}}, David]
shrines: {{gem: [orc 1], magic: [], champions: [], gold: [orc 2, orc 3], tactics: []}}
turns:
  - [{{move: magic}}]
""")
    result = run("scenario", path)
    assert result.exit_code == 2
    assert "s.yaml:5: turns[1][1]: {move: magic} is not possible now; possible now: {move: gem}" in result.output


def test_simulate_json_report():
    result = run("simulate", GAME, "--players", "3", "--games", "6", "--seed", "2", "--json", "--check")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert list(data) == ["games", "players", "seed", "bots", "options", "wins_by_seat", "shared_victories",
                          "wins_by_bot", "rounds", "endings", "scores", "per_game", "plans_per_seat", "champions",
                          "invariants"]
    assert data["bots"] == ["planner"] and data["endings"]["plans"] == 6
    assert sum(data["wins_by_seat"].values()) >= 6 and data["invariants"] == {"checked": True, "broken": 0,
                                                                              "examples": []}
    some = next(iter(data["champions"].values()))
    assert list(some) == ["gained_per_game", "seats", "wins", "games", "win_rate", "ci_low", "ci_high", "without"]


def test_simulate_solo_reports_each_difficulty():
    result = run("simulate", GAME, "--players", "1", "--games", "4", "--json")
    data = json.loads(result.output)
    assert list(data["solo"]["difficulty"]) == ["10", "30"]
    assert data["solo"]["difficulty"]["10"]["games"] == 4
    harder = json.loads(run("simulate", GAME, "--players", "1", "--games", "4", "--json",
                            "-o", "adversary_vp=30").output)
    assert harder["options"] == {"adversary_vp": 30}
    assert harder["solo"]["difficulty"]["30"] == data["solo"]["difficulty"]["30"]


def test_simulate_text_report_for_a_range_of_player_counts():
    result = run("simulate", GAME, "--players", "1..2", "--games", "3")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Shadow Kingdoms of Valeria: 3 games, 1 player, seed 0, bots planner" in out
    assert "By difficulty (the Adversary's starting VP): 10:" in out
    assert "Shadow Kingdoms of Valeria: 3 games, 2 players, seed 0, bots planner" in out
    assert "Rounds per game: mean" in out and "Champions gained most" in out


def test_same_report_for_any_jobs():
    one = run("simulate", GAME, "--players", "4", "--games", "12", "--json", "--jobs", "1").output
    two = run("simulate", GAME, "--players", "4", "--games", "12", "--json", "--jobs", "2").output
    assert one == two


def test_a_recorded_game_transcript():
    result = run("simulate", GAME, "--players", "2", "--games", "1", "--seed", "3", "--transcript",
                 "--bots", "planner,random")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Shadow Kingdoms of Valeria, seed 3. Seats: Ana (planner bot), Ben (random bot)."
    assert lines[-1].startswith("The game ends (a seventh Battle Plan was completed).")


@pytest.mark.parametrize("option, message", [
    ("colour=red", "--option: Shadow Kingdoms of Valeria has no option 'colour'"),
    ("adversary_vp=many", "--option adversary_vp: expected an integer"),
])
def test_bad_options(option, message):
    result = run("simulate", GAME, "--games", "1", "-o", option)
    assert result.exit_code == 2 and message in result.output
