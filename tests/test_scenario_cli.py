"""``pnp scenario``: transcripts, the --json shape, and file:line errors for broken scenario files."""

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


def test_worked_example_json():
    result = run(SCENARIOS / "worked_example.yaml", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert list(data) == ["winners", "power", "players", "characters", "carryover", "game_over", "winner"]
    assert data["winners"] == ["church"]
    assert data["power"] == {"empire": 0, "rebels": 0, "church": 2}
    assert data["players"]["Ana"] == {"gold_after_conflict": 5, "gold": 5, "influence": 0}
    assert data["characters"][0] == {"card": "outlaw", "owner": "Ana", "wave": 1, "played": True,
                                     "original_faction": "rebels", "faction": "church", "power": 2,
                                     "dead": False, "converted": True}
    assert data["carryover"] == [] and data["game_over"] is False and data["winner"] is None


def test_worked_example_transcript():
    result = run(SCENARIOS / "worked_example.yaml")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Outlaw, Shepherd of the Lost and Queen Eletheria in one wave"
    assert "Shepherd of the Lost (Ben) converts Outlaw (Ana) to the Church." in lines
    assert "Queen Eletheria (Cleo) gives +1 power to Outlaw (Ana)." in lines
    assert "Final power: Empire 0, Rebels 0, Church 2. Victory goes to the Church." in lines


@pytest.mark.parametrize("name, check", [
    ("langman_stays", lambda d: d["carryover"] == ["langman"]),
    ("simone", lambda d: d["game_over"] and d["winner"] == "Ana"),
    ("game_end_ruins", lambda d: d["game_over"] and d["winner"] is None),
    ("poor_player", lambda d: [c["played"] for c in d["characters"] if c["card"] == "queens-guard"] == [False, False]),
    ("kyros_extra", lambda d: any(c["card"] == "benthon-knights" and c["faction"] == "empire" for c in d["characters"])),
    ("ties", lambda d: d["winners"] == ["empire", "rebels"]),
    ("beatrice", lambda d: [c["power"] for c in d["characters"] if c["card"] == "outlaw"] == [2]),
    ("thamna", lambda d: d["power"]["church"] == 4),
])
def test_rules_through_the_cli(name, check):
    result = run(SCENARIOS / f"{name}.yaml", "--json")
    assert result.exit_code == 0, result.output
    assert check(json.loads(result.output))


def test_issue_example_with_carryover_and_extra(tmp_path):
    path = write(tmp_path, """\
game: shadow_throne
players:
  - {name: Ana, gold: 5, influence: 0}
  - {name: Ben}
carryover: [{card: langman, owner: Ana}]
waves:
  - {Ana: outlaw, Ben: shepherd-of-the-lost}
  - {Ana: {card: king-kyros, extra: tax-collector}, Ben: picreus}
""")
    result = run(path, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    cards = [(c["card"], c["wave"], c["played"]) for c in data["characters"]]
    assert cards[0] == ("langman", 0, True)
    assert ("tax-collector", 2, True) in cards
    assert ("picreus", 2, False) in cards  # Ben had 1 gold left: face down


def test_every_problem_is_reported_with_its_line(tmp_path):
    path = write(tmp_path, """\
game: shadow_throne
players:
  - {name: Ana, gold: -1}
  - {name: Ben, colour: red}
carryover: [{card: langmann, owner: Zed}]
waves:
  - {Ana: outlaw, Ben: shepherd-of-the-lost, Cleo: queen-eletheria}
  - {Ana: {card: king-kyros, extra: outlaw}, Ben: picreus}
  - {Ana: {card: outlaw, extra: tax-collector}, Ben: picreus}
  - {Ana: outlaw, Ben: 3}
  - {}
""")
    result = run(path)
    assert result.exit_code == 2
    out = result.output
    expected = [
        "s.yaml:3: players[1].gold: -1 is below the minimum 0",
        "s.yaml:4: players[2].colour: unknown key",
        "s.yaml:5: carryover[1]: unknown card 'langmann' (did you mean 'langman'?)",
        "s.yaml:5: carryover[1]: unknown player 'Zed'",
        "s.yaml:7: waves[1].Cleo: unknown player 'Cleo'; players are: Ana, Ben",
        "s.yaml:8: waves[2].Ana.extra: 'outlaw' is not of the faction of 'king-kyros' (empire)",
        "s.yaml:9: waves[3].Ana.extra: 'outlaw' has no ability that adds an extra card",
        "s.yaml:9: waves[3].Ben: 'picreus' is used 2 times; the deck has 1",
        "s.yaml:10: waves[4].Ben: expected a card id or a mapping",
        "s.yaml:10: waves[4].Ana: 'outlaw' is used 4 times; the deck has 3",
        "s.yaml:11: waves: 5 waves; a battle has at most 4",
    ]
    for line in expected:
        assert line in out, (line, out)
    assert "problems found" in out
    assert "Traceback" not in out


@pytest.mark.parametrize("text, message", [
    ("players: [{name: Ana}]\nwaves:\n  - {Ana: no-such-card}\n", "s.yaml:3: waves[1].Ana: unknown card 'no-such-card'"),
    ("players: [{name: Ana}]\nwaves:\n  - [outlaw]\n", "s.yaml:3: waves[1]: expected a mapping"),
    ("players: [{name: Ana}]\nwaves:\n  - {Ana: {card: outlaw, extras: x}}\n", "waves[1].Ana.extras: unknown key"),
    ("players: []\n", "players: 0 players"),
    ("waves: []\n", "players: required key is missing"),
    ("game: nowhere\nplayers: [{name: Ana}]\n", "s.yaml:1: game: no bundled game 'nowhere'"),
    ("players: [{name: Ana}]\nwaves: [{Ana: outlaw}\n", "malformed YAML"),
    ("players: [{name: Ana}, {name: Ana}]\n", "'Ana' is already a player"),
    ("players: [{name: Ana}]\ngoal: 0\n", "goal: 0 is below the minimum 1"),
])
def test_bad_scenarios(tmp_path, text, message):
    result = run(write(tmp_path, text))
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_missing_file(tmp_path):
    result = run(tmp_path / "nothing.yaml")
    assert result.exit_code == 2
    assert "file not found" in result.output
