"""``pnp scenario`` on Behind the Throne files: the --json shape, transcripts, and file:line errors."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.commands.cli import main

SCENARIOS = Path(__file__).parent / "scenarios"


def run(*args):
    return CliRunner().invoke(main, ["scenario", *map(str, args)])


def write(tmp_path, text, name="s.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_json_shape():
    result = run(SCENARIOS / "btt_assassin_destroys.yaml", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert list(data) == ["players", "scores", "turns", "deck", "discard", "game_over", "winners", "winner"]
    assert data["players"]["Ana"] == {"stacks": {"assassin": 3, "jester": 1}, "score": 2,
                                      "abilities": ["assassin", "jester"]}
    assert data["scores"] == {"Ana": 2, "Ben": 9}
    assert list(data["turns"][0]) == ["turn", "player", "revealed", "abilities", "destroyed", "end", "took",
                                      "discarded"]
    assert data["deck"] + data["discard"] + 4 + 2 == 46                # the 2-player deck: stacks and the rest
    assert data["game_over"] is False and data["winners"] == [] and data["winner"] is None


def test_transcript():
    result = run(SCENARIOS / "btt_assassin_destroys.yaml")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "The Assassin turns a 4 into a 2"
    assert lines[1].startswith("Before the first turn: Ana holds Assassin x2; Ben holds Alchemist x1, King x2.")
    assert "Ana reveals Jester (4)." in lines
    assert "Ana uses the Assassin: Jester now counts 2 instead of 4." in lines
    assert "Equal values: Ana destroys Ben's Alchemist." in lines
    assert lines[-1] == "Ben's stacks: King x2."


def test_game_end_through_the_cli():
    data = json.loads(run(SCENARIOS / "btt_shared_victory.yaml", "--json").output)
    assert data["game_over"] and data["winners"] == ["Ana", "Ben"] and data["winner"] is None
    out = run(SCENARIOS / "btt_shared_victory.yaml").output
    assert "Ana and Ben share the victory with 6 points." in out


def test_every_static_problem_is_reported_with_its_line(tmp_path):
    path = write(tmp_path, """\
game: behind_the_throne
players:
  - {name: Ana, stacks: {kign: 1, end-of-game: 1}}
  - {name: Ben, stacks: {queen: 6}, colour: red}
  - Ben
first: Zed
deck: [king, king, king, king, king, king]
turns:
  - [reveal, revel, {destroy: king}]
  - [{use: jester, from: Ben}, {swap: king, from: Zed}]
  - []
""")
    result = run(path)
    assert result.exit_code == 2
    out = result.output
    expected = [
        "s.yaml:3: players[1].stacks.kign: unknown card 'kign' (did you mean 'king'?)",
        "s.yaml:3: players[1].stacks.end-of-game: the End of Game card cannot be in a stack",
        "s.yaml:4: players[2].stacks.queen: 6 is above the maximum 5",
        "s.yaml:4: players[2].colour: unknown key",
        "s.yaml:5: players[3].name: 'Ben' is already a player",
        "s.yaml:6: first: unknown player 'Zed'; players are: Ana, Ben",
        "s.yaml:7: deck[6]: 'king' is used 6 times; the 2-player deck has 5",
        "s.yaml:9: turns[1][2]: unknown decision 'revel' (did you mean 'reveal'?)",
        "s.yaml:9: turns[1][3]: 'destroy' needs 'from'",
        "s.yaml:10: turns[2][1]: 'from' does not go with 'use'",
        "s.yaml:10: turns[2][2].from: unknown player 'Zed'; players are: Ana, Ben",
        "s.yaml:11: turns[3]: a turn needs at least one decision",
    ]
    for line in expected:
        assert line in out, (line, out)
    assert "Traceback" not in out


@pytest.mark.parametrize("turns, message", [
    ("  - [stop]\n", "s.yaml:5: turns[1][1]: Ana cannot stop now: nothing has been revealed yet; possible now: reveal"),
    ("  - [reveal, reveal, stop]\n", "s.yaml:5: turns[1][3]: Ana's turn is already over"),
    ("  - [reveal]\n", "s.yaml:5: turns[1]: Ana's turn is not over after its decisions; possible next: reveal, stop"),
    ("  - [reveal, {destroy: king, from: Ben}]\n",
     "turns[1][2]: a card can be destroyed only when the last card equals the one before it"),
    ("  - [reveal, {use: general}]\n", "turns[1][2]: Ana cannot use the General now without a General stack"),
    ("  - [reveal, {use: jester}]\n", "say how the Jester changes the value: change: 1 or -1"),
    ("  - [reveal, {discard: king}]\n", "nobody has more than five stacks to discard from"),
    ("  - [reveal, {swap: alchemist, from: Ben}]\n", "Ben has no Alchemist"),
])
def test_decisions_are_checked_when_their_turn_comes(tmp_path, turns, message):
    path = write(tmp_path, "game: behind_the_throne\nplayers: [Ana, {name: Ben, stacks: {king: 2}}]\n"
                           "deck: [jester, queen]\nturns:\n" + turns)
    result = run(path)
    assert result.exit_code == 2, result.output
    assert message in result.output, result.output


def test_protection_and_hindrance_are_explained(tmp_path):
    path = write(tmp_path, """\
game: behind_the_throne
players:
  - {name: Ana, stacks: {king: 2}}
  - {name: Ben, stacks: {minstrel: 1, queen: 1}}
deck: [queen, queen]
turns:
  - [reveal, {swap: minstrel, from: Ben}]
""")
    assert "row is too short for the Kings they hold" in run(path).output
    path = write(tmp_path, """\
game: behind_the_throne
players:
  - Ana
  - {name: Ben, stacks: {minstrel: 1, queen: 1}}
deck: [queen, queen]
turns:
  - [reveal, {swap: queen, from: Ben}]
""")
    out = run(path).output
    assert "Ben holds the largest Minstrel stack: only a Minstrel can be taken" in out
    assert "possible now: reveal, stop, {swap: minstrel, from: Ben}" in out


def test_the_game_over_is_reported(tmp_path):
    path = write(tmp_path, "game: behind_the_throne\nplayers: [Ana, Ben]\ndeck: [end-of-game]\n"
                           "turns:\n  - [reveal]\n  - [reveal]\n")
    result = run(path)
    assert result.exit_code == 2
    assert "s.yaml:6: turns[2]: the game is already over" in result.output


def test_judge_needs_via(tmp_path):
    path = write(tmp_path, """\
game: behind_the_throne
players:
  - {name: Ana, stacks: {general: 1, judge: 1}}
  - {name: Ben, stacks: {general: 2}}
deck: [assassin, jester]
turns:
  - [reveal, reveal, {use: general}]
""")
    assert "Ana can use the General only through another ability (add 'via')" in run(path).output
    path.write_text(path.read_text().replace("{use: general}", "{use: judge}"))
    assert "the Judge lends another ability: write it as {use: CHARACTER, via: judge}" in run(path).output


def test_a_bare_game_is_the_default_game(tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_GAME", "behind_the_throne")
    result = run(write(tmp_path, "players: [Ana, Ben]\ndeck: [king]\nturns: [[reveal, stop]]\n"), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["players"]["Ana"]["stacks"] == {"king": 1}


def test_scenario_files_may_leave_the_rest_below_shuffled_by_seed(tmp_path):
    text = "game: behind_the_throne\nplayers: [Ana, Ben]\nseed: {seed}\nturns: [[reveal, stop]]\n"
    one = json.loads(run(write(tmp_path, text.format(seed=1)), "--json").output)
    again = json.loads(run(write(tmp_path, text.format(seed=1)), "--json").output)
    assert one == again
    revealed = {json.loads(run(write(tmp_path, text.format(seed=s)), "--json").output)["turns"][0]["revealed"][0]
                for s in range(8)}
    assert len(revealed) > 1
