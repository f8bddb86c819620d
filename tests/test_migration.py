"""An older game folder is answered with the fix: renamed built-in icons and removed keys (the table in
pnp/renames.yaml, told again in CHANGELOG.md), and a one-deck game whose cards are in a CSV file."""

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp import PROJECT_ROOT
from pnp import renames
from pnp.commands.cli import main
from pnp.text.icon_names import ICON_NAMES

GAME = """\
title: Old Lanterns
players: {min: 2, max: 4}
decks:
  - id: lanterns
    cards: lanterns.csv
    fields:
      glow: {type: int, icon: influence}
      text: {type: text}
components: [cards]
"""
CARDS = "id,name,copies,glow,text\nmoon,Paper Moon,2,3,Pay [gold] to relight.\n"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def old_game(tmp_path) -> Path:
    root = tmp_path / "old"
    root.mkdir()
    (root / "game.yaml").write_text(GAME)
    (root / "lanterns.csv").write_text(CARDS)
    return root


def test_old_built_in_icon_names_are_answered_with_the_fix(old_game):
    result = run("validate", old_game)
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        f"{old_game / 'game.yaml'}:7: deck 'lanterns': fields.glow.icon: unknown icon 'influence': the built-in icon "
        f"was renamed 'seal'; add icons: {{influence: seal}}",
        f"{old_game / 'lanterns.csv'}:2:5: card 'moon': text: unknown icon [gold]: the built-in icon was renamed "
        f"'coin'; add icons: {{gold: coin}}",
        "2 problems found; nothing was written."]


def test_following_the_hints_makes_the_game_valid(old_game):
    game = old_game / "game.yaml"
    game.write_text(game.read_text() + "icons: {influence: seal, gold: coin}\n")
    result = run("validate", old_game)
    assert result.exit_code == 0, result.output


def test_a_game_icon_of_the_old_name_is_the_games_own(old_game):
    # a game may call its own SVG 'influence': then it is no old name at all
    (old_game / "icons").mkdir()
    svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4"/></svg>'
    (old_game / "icons" / "influence.svg").write_text(svg)
    (old_game / "icons" / "gold.svg").write_text(svg)
    assert run("validate", old_game).exit_code == 0


def test_an_old_name_in_a_flavour_line_of_a_yaml_deck(tmp_path):
    root = tmp_path / "g"
    root.mkdir()
    (root / "game.yaml").write_text("title: T\nplayers: {min: 1, max: 2}\ncard: {width: 63, height: 88}\n"
                                    "components: [cards]\n")
    (root / "cards.yaml").write_text("cards:\n  - id: a\n    name: A\n    copies: 1\n"
                                     "    flavour: Worth a [plus_one].\n")
    result = run("validate", root)
    assert result.exit_code == 2
    assert result.output.splitlines()[0] == (
        f"{root / 'cards.yaml'}:5: card 'a': flavour: unknown icon [plus_one]: the built-in icon was renamed "
        f"'plus'; add icons: {{plus_one: plus}}")


def test_a_removed_game_yaml_key_says_what_replaced_it(game_copy):
    game = game_copy / "game.yaml"
    game.write_text(game.read_text().replace("engine: shadow_throne\n", "engine: shadow_throne\ntemplates: st\n"))
    line = game.read_text().splitlines().index("templates: st") + 1
    result = run("validate", game_copy)
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        f"{game}:{line}: templates: the setting is gone: a game's templates live in its own folder's templates/ "
        f"(rulebook/<lang>/, aids/<lang>/, abilities/<lang>.j2); move them there and delete the key",
        "1 problem found; nothing was written."]


def test_an_unknown_key_that_never_existed_still_gets_the_closest_key(game_copy):
    game = game_copy / "game.yaml"
    game.write_text(game.read_text().replace("engine: shadow_throne\n", "engine: shadow_throne\ntitel: x\n"))
    result = run("validate", game_copy)
    assert result.exit_code == 2 and "titel: unknown key (did you mean 'title'?); accepted keys: title," in result.output


ONE_DECK = "title: T\nplayers: {min: 2, max: 4}\ncard:\n  width: 63\n  height: 88\n  fields:\n    glow: {type: int}\n" \
           "components: [cards]\n"


@pytest.mark.parametrize("sheet,size", [("cards.csv", "poker"), ("lanterns.xlsx", "{width: 63, height: 89}")])
def test_a_one_deck_game_with_a_spreadsheet_and_no_cards_yaml_says_how_to_declare_it(tmp_path, sheet, size):
    root = tmp_path / "g"
    root.mkdir()
    (root / "game.yaml").write_text(ONE_DECK.replace("height: 88", "height: 89") if "89" in size else ONE_DECK)
    (root / sheet).write_bytes(b"id,name,copies,glow\na,A,1,2\n")
    result = run("validate", root)
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        f"{root / 'game.yaml'}:3: card: the one-deck form reads its cards from cards.yaml, which is not in the game "
        f"folder; to use the cards in {sheet}, declare the deck in a decks: list instead of card: (decks: [{{id: "
        f"cards, cards: {sheet}, size: {size}, fields: ...}}], with card:'s fields; docs/data-format.md, \"Decks\")",
        "1 problem found; nothing was written."]


def test_the_fix_the_message_gives_works(tmp_path):
    root = tmp_path / "g"
    root.mkdir()
    (root / "cards.csv").write_text("id,name,copies,glow\na,A,1,2\n")
    (root / "game.yaml").write_text("title: T\nplayers: {min: 2, max: 4}\ndecks: [{id: cards, cards: cards.csv, "
                                    "size: poker, fields: {glow: {type: int}}}]\ncomponents: [cards]\n")
    assert run("validate", root).exit_code == 0


def test_a_one_deck_game_without_any_cards_file(tmp_path):
    root = tmp_path / "g"
    root.mkdir()
    (root / "game.yaml").write_text(ONE_DECK)
    result = run("validate", root)
    assert result.exit_code == 2
    assert result.output.splitlines()[0] == (f"{root / 'game.yaml'}:3: card: the one-deck form reads its cards from "
                                             f"cards.yaml, which is not in the game folder")


# ---------------------------------------------------------------- the table itself

def test_every_renamed_icon_is_a_built_in_icon_now_and_no_old_name_is_one():
    table = renames._table()["icons"]
    assert table and set(table.values()) <= ICON_NAMES
    assert not set(table) & ICON_NAMES


def test_every_schema_with_a_history_exists():
    from pnp.loading.gamedata import GAME_SCHEMA

    schemas = {GAME_SCHEMA.name: GAME_SCHEMA}
    for name, keys in renames._table()["keys"].items():
        assert name in schemas, name
        assert not set(keys) & set(schemas[name]), "an old key is a key again"


def test_the_changelog_tells_every_rename_of_the_table():
    changelog = (PROJECT_ROOT / "CHANGELOG.md").read_text()
    table = renames._table()
    for old, new in table["icons"].items():
        assert re.search(rf"`{old}`[^.]*`{new}`", changelog, re.S), (old, new)
    for keys in table["keys"].values():
        for key in keys:
            assert f"`{key}:`" in changelog, key


# ---------------------------------------------------------------- list entries are named, not indexed

def test_entries_are_named_by_id_or_place():
    from pnp.loading.schema import entry, ordinal, subkey

    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th", "112th"]
    assert entry("decks", {"id": "current"}, 0) == "deck 'current'"
    assert entry("decks", {"id": "current"}, 3, named=False) == "4th deck"
    assert entry("factions", {"name": "Church"}, 2) == "3rd faction"
    assert entry("factions", {"id": "not an id"}, 0) == "1st faction"
    assert entry("ability_categories", {"id": "bold"}, 0) == "ability category 'bold'"
    assert entry("deck 'current': fields.kind.choices", 7, 1) == "deck 'current': fields.kind: 2nd choice"
    assert entry(entry("exactly_one_of", ["a"], 0), "b", 1) == "1st group: 2nd entry"
    assert entry("hexes", {"at": [0, 0]}, 10) == "11th hex"
    assert subkey("deck 'current'", "size") == "deck 'current': size"
    assert subkey("3rd faction", "id") == "3rd faction: id"
    assert subkey("card.fields", "glow") == "card.fields.glow" and subkey("", "title") == "title"


def test_a_problem_inside_a_named_deck_names_the_deck(old_game):
    game = old_game / "game.yaml"
    game.write_text(GAME.replace("      text: {type: text}\n",
                                 "      text: {type: text}\n      kind: {type: choice, choices: [red, [green]]}\n")
                    .replace("icon: influence", "icon: seal"))
    (old_game / "lanterns.csv").write_text(CARDS.replace("[gold]", "a coin"))
    result = run("validate", old_game)
    assert result.exit_code == 2
    assert result.output.splitlines()[0] == (
        f"{game}:9: deck 'lanterns': fields.kind: 2nd choice: expected text, got a list")


def test_a_deck_without_an_id_is_named_by_its_place(old_game):
    game = old_game / "game.yaml"
    game.write_text(GAME.replace("  - id: lanterns\n    cards", "  - cards").replace("icon: influence", "icon: seal"))
    result = run("validate", old_game)
    assert result.exit_code == 2
    assert f"{game}:4: 1st deck: id: required key is missing" in result.output.splitlines()
