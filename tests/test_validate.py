"""``pnp validate`` on the bundled data and on broken copies: every error kind, with file and line."""

import re

import pytest
from click.testing import CliRunner

from pnp.commands.cli import main


def run(*args):
    return CliRunner().invoke(main, ["validate", *args])


def test_bundled_game_is_valid():
    result = run("shadow_throne")
    assert result.exit_code == 0, result.output
    assert result.output.strip() == (
        "Shadow Throne: 54 cards (27 different), 3 factions, components instructions, power_track, cards, "
        "tokens, rulebook, box, languages en, es: valid")
    # no warning: no page of its booklets (Letter, A4; English, Spanish) is more than a third empty (issue 37)


def test_default_game_is_shadow_throne():
    assert run().exit_code == 0


def test_unknown_game():
    result = run("no_such_game")
    assert result.exit_code == 2
    assert "no game 'no_such_game'" in result.output


def edit(path, old, new, count=1):
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, count))


def line_of(path, needle, start=0):
    for i, line in enumerate(path.read_text().splitlines(), 1):
        if i > start and needle in line:
            return i
    raise AssertionError(needle)


# (file, old text, new text, expected message after "file:line: ", line anchor or None)
CASES = [
    ("cards.yaml", "    power: 4\n    influence: 2\n    cost: 2\n    consolation: 2",
     "    powr: 4\n    influence: 2\n    cost: 2\n    consolation: 2",
     "card 'kings-guard': powr: unknown key (did you mean 'power'?)", "powr:"),
    ("cards.yaml", "id: outlaw\n    name: Outlaw\n    faction: rebels\n    rank: commoner\n    copies: 3\n    power: 1",
     "id: outlaw\n    name: Outlaw\n    faction: rebels\n    rank: commoner\n    copies: 3\n    power: lots",
     "card 'outlaw': power: expected an integer, got 'lots'", "power: lots"),
    ("cards.yaml", "    faction: church\n    rank: noble\n    copies: 1\n    power: 4",
     "    faction: heretics\n    rank: noble\n    copies: 1\n    power: 4",
     "card 'simone': faction: 'heretics' is not one of: empire, rebels, church", "heretics"),
    ("cards.yaml", "ability: {step: 1, kind: kill, rank: commoner}", "ability: {step: 1, kind: smite, rank: commoner}",
     "card 'benthon-knights': ability.kind: unknown effect kind 'smite'", "smite"),
    ("cards.yaml", "ability: {step: 1, kind: kill, rank: elite}", "ability: {step: 1, kind: kill, rank: peasant}",
     "card 'anna-lys': ability.rank: 'peasant' is not one of: commoner, elite, noble", "rank: peasant"),
    ("cards.yaml", "ability: {step: 3, kind: extra_play}", "ability: {kind: extra_play}",
     "card 'king-kyros': ability.step: 'extra_play' resolves at a step; give step: one of 1, 2, 3", "{kind: extra_play}"),
    ("cards.yaml", "ability: {step: 3, kind: extra_play}", "ability: {step: 4, kind: extra_play}",
     "card 'king-kyros': ability.step: 4 is not one of 1, 2, 3", "step: 4"),
    ("cards.yaml", "    influence: 0\n    income: 2\n    flavour: The road",
     "    influence: 0\n    income: 2\n    cost: 1\n    flavour: The road",
     "card 'outlaw': give exactly one of cost, income (found both cost and income)", "id: outlaw"),
]


@pytest.mark.parametrize("file,old,new,expected,anchor", CASES)
def test_each_error_kind_names_file_line_and_card(game_copy, file, old, new, expected, anchor):
    path = game_copy / file
    edit(path, old, new)
    result = run(str(game_copy))
    assert result.exit_code == 2, result.output
    line = line_of(path, anchor)
    expected_start = f"{path}:{line}: {expected}"
    assert any(l.startswith(expected_start) for l in result.output.splitlines()), result.output


def test_every_problem_is_reported_at_once(game_copy):
    path = game_copy / "cards.yaml"
    edit(path, "id: outlaw\n    name: Outlaw\n    faction: rebels\n    rank: commoner\n    copies: 3\n    power: 1",
         "id: outlaw\n    name: Outlaw\n    faction: rebels\n    rank: commoner\n    copies: 3\n    power: x")
    edit(path, "ability: {step: 1, kind: kill, rank: commoner}", "ability: {step: 1, kind: smite}")
    edit(path, "  - id: protis", "  - id: thamna")
    result = run(str(game_copy))
    assert result.exit_code == 2
    out = result.output
    assert "card 'outlaw': power: expected an integer" in out
    assert "card 'benthon-knights': ability.kind: unknown effect kind 'smite'" in out
    first = line_of(path, "- id: thamna")
    second = line_of(path, "- id: thamna", start=first)
    assert f"cards.yaml:{second}: card 'thamna': id: duplicate id (first at line {first})" in out
    assert out.strip().endswith("problems found; nothing was written.")


def test_deck_counts_come_from_game_yaml(game_copy):
    path = game_copy / "cards.yaml"
    edit(path, "    rank: commoner\n    copies: 4\n    power: 1\n    influence: 1\n    income: 1\n    flavour: Same sword",
         "    rank: commoner\n    copies: 5\n    power: 1\n    influence: 1\n    income: 1\n    flavour: Same sword")
    out = run(str(game_copy)).output
    assert "deck: 55 cards, but game.yaml's deck.total is 54" in out
    assert "faction 'rebels': 19 cards, but game.yaml's deck.per_faction is 18" in out
    assert "faction 'rebels': commoner copies are [3, 3, 5], but game.yaml's deck.copies_per_rank.commoner is [3, 3, 4]" in out


def test_missing_required_key(game_copy):
    path = game_copy / "cards.yaml"
    edit(path, "  - id: datura\n    name: Datura, Addled Assassin\n", "  - id: datura\n")
    out = run(str(game_copy)).output
    assert f"cards.yaml:{line_of(path, '- id: datura')}: card 'datura': name: required key is missing" in out


def test_malformed_yaml_is_reported_without_traceback(game_copy):
    path = game_copy / "cards.yaml"
    edit(path, "    flavour: Chains make poor anchors for loyalty.", "    flavour: [Chains make poor")
    result = run(str(game_copy))
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert re.search(r"cards\.yaml:\d+: malformed YAML, column \d+: ", result.output)


def test_game_yaml_unknown_key_and_bad_colour(game_copy):
    path = game_copy / "game.yaml"
    edit(path, "ages: 14", "ages: 14\nage_limit: 14")
    edit(path, 'colour: "#8c1c24"', 'colour: crimson')
    out = run(str(game_copy)).output
    assert f"game.yaml:{line_of(path, 'age_limit')}: age_limit: unknown key" in out
    assert "faction 'empire': colour: expected a colour like '#8a1c1c', got 'crimson'" in out


def test_text_that_cannot_fit_is_an_error(game_copy):
    path = game_copy / "cards.yaml"
    long_flavour = "word " * 60
    edit(path, "    flavour: A crown is held with both hands.", f"    flavour: {long_flavour}")
    out = run(str(game_copy)).output
    assert f"cards.yaml:{line_of(path, '- id: king-kyros')}: card 'king-kyros': flavour text does not fit" in out


def test_characters_missing_from_the_font_are_an_error(game_copy):
    path = game_copy / "cards.yaml"
    edit(path, "    name: Outlaw\n", "    name: Outlaw \u2192 Rebel\n")
    out = run(str(game_copy)).output
    assert "card 'outlaw': name 'Outlaw \u2192 Rebel' uses characters the fonts cannot print: \u2192" in out


def test_track_spaces_must_hold_the_tokens(game_copy):
    edit(game_copy / "tokens.yaml", "    size: 25\n    on_track: true", "    size: 40\n    on_track: true")
    out = run(str(game_copy)).output
    path = game_copy / "game.yaml"
    assert (f"{path}:{line_of(path, 'power_track:')}: power_track: spaces are 35.1 mm on letter, "
            "too small for 40 mm tokens (need 44 mm)") in out.splitlines()


def test_spaces_just_too_small_are_not_rounded_up_to_what_is_needed(tmp_path):
    # 70 spaces round a Letter page are 11.96 mm: "12.0 mm ... (need 12 mm)" read as a contradiction
    game = tmp_path / "g"
    assert CliRunner().invoke(main, ["new", str(game)]).exit_code == 0
    edit(game / "game.yaml", "  - tokens\n",
         "  - tokens\n  - {kind: track, id: edge, from: 0, to: 69, shape: around, token_diameter: 8}\n")
    result = run(str(game), "--no-cache")
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        f"{game / 'game.yaml'}:{line_of(game / 'game.yaml', 'id: edge')}: track 'edge': spaces are 11.9 mm on letter, "
        f"too small for 8 mm tokens (need 12 mm)", "1 problem found; nothing was written."]
