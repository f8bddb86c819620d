"""Several decks per game: typed fields, CSV and xlsx card files, the engine's card keys, every deck on
the sheets, the exports and the box."""

import shutil

import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.components import BuildOptions
from pnp.components import cards as cards_component
from pnp.loading.decks import NAMED_SIZES, CardField
from pnp.errors import Problems
from pnp.loading.gamedata import load_game
from pnp.layout.cards import stat_slots
from pnp.errors import Cell
from pnp.validation.checks import validate_game

GAME = """\
title: Two Decks
players: {min: 2, max: 4}
decks:
  - id: heroes
    name: Heroes
    cards: heroes.yaml
    size: poker
    fields:
      might: {type: int, required: true, min: 0, max: 9, icon: heater}
      cost: {type: int, min: 0, max: 9, icon: coin, sign: minus}
      guild: {type: choice, choices: [red, blue], required: true}
      tags: {type: list}
      loyal: {type: bool, default: false}
      motto: {type: text}
    copies: {total: 5}
    aids: {copies: 2}
  - id: quests
    name: Quests
    cards: quests.csv
    size: {width: 70, height: 120}
    fields:
      reward: {type: int, min: 0, max: 20, icon: coin, format: "{value} gold"}
      kind: {type: choice, choices: [hunt, trade]}
components: [cards]
"""

HEROES = """\
cards:
  - {id: knight, name: Knight, copies: 3, might: 4, cost: 2, guild: red, tags: [brave, old], loyal: true}
  - {id: rogue, name: Rogue, copies: 2, might: 2, guild: blue, motto: Never twice}
"""

QUESTS = """\
id,name,copies,reward,kind,flavour
dragon,Slay the Dragon,1,12,hunt,Bring a bucket.
caravan,Guard the Caravan,2,3,trade,

market,Corner the Market,1,,trade,
"""


def write_game(root, game=GAME, heroes=HEROES, quests=QUESTS):
    root.mkdir(parents=True, exist_ok=True)
    (root / "game.yaml").write_text(game)
    (root / "heroes.yaml").write_text(heroes)
    (root / "quests.csv").write_text(quests)
    aids = root / "templates" / "aids" / "en"
    aids.mkdir(parents=True, exist_ok=True)
    (aids / "quick_reference.md.j2").write_text("# {{ deck.name }}\nPlay a card, then draw one.\n")
    return root


@pytest.fixture
def game_dir(tmp_path):
    return write_game(tmp_path / "two_decks")


def line_in(path, needle):
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def validate(path):
    return CliRunner().invoke(main, ["validate", str(path)])


def test_named_sizes_follow_the_print_conventions():
    assert NAMED_SIZES["poker"] == (63, 88) and NAMED_SIZES["bridge"] == (57, 89)
    assert NAMED_SIZES["mini"] == (44, 63) and NAMED_SIZES["tarot"] == (70, 120)


def test_two_decks_load_with_typed_values(game_dir):
    game = load_game(game_dir)
    assert [d.id for d in game.decks] == ["heroes", "quests"]
    heroes, quests = game.decks
    assert (heroes.width, heroes.height, quests.width, quests.height) == (63, 88, 70, 120)
    assert [c.id for c in game.cards] == ["knight", "rogue", "dragon", "caravan", "market"]
    knight, rogue = heroes.cards
    assert knight.deck == "heroes" and game.card("dragon").deck == "quests"
    assert knight.stats == {"might": 4, "cost": 2, "guild": "red", "tags": ["brave", "old"], "loyal": True,
                            "motto": None}
    assert rogue.stats["loyal"] is False and rogue.stats["tags"] == [] and rogue.stats["motto"] == "Never twice"
    assert game.card("caravan").stats == {"reward": 3, "kind": "trade"} and game.card("caravan").flavour == ""
    assert game.card("market").stats["reward"] is None
    assert len(game.deck_for()) == 5 + 4 and game.aid_count == 2
    assert game.deck("quests").physical() == [game.card("dragon")] + [game.card("caravan")] * 2 + [game.card("market")]


def test_csv_cards_keep_their_row_and_column(game_dir):
    game = load_game(game_dir)
    path, line = game.sources["market"]
    assert path.endswith("quests.csv") and line == 5 and str(line) == "5:1"     # a blank row is skipped


def test_field_formats_are_data():
    cost = CardField("cost", sign="minus")
    income = CardField("income", sign="plus")
    assert (cost.display(2), cost.display(0), income.display(2), income.display(0)) == ("\u22122", "0", "+2", "0")
    assert CardField("reward", format="{value} gold").display(12) == "12 gold"
    assert CardField("tags", type="list").display(["a", "b"]) == "a, b"


def test_badges_print_as_the_fields_say(game_dir):
    game = load_game(game_dir)
    assert stat_slots(game, game.card("knight")) == (("might", "heater", "4"), ("cost", "coin", "\u22122"))
    assert stat_slots(game, game.card("dragon")) == (("reward", "coin", "12 gold"),)


def test_shadow_throne_signs_come_from_its_game_yaml():
    game = load_game("shadow_throne")
    deck = game.deck("cards")
    assert (deck.field("cost").sign, deck.field("income").sign) == ("minus", "plus")


CSV_CASES = [
    # (csv text, expected message after "quests.csv:ROW:COLUMN: ")
    ("id,name,copies,reward\ndragon,Slay,1,lots\n", "2:4: card 'dragon': reward: expected an integer, got 'lots'"),
    ("id,name,copies,reward\ndragon,Slay,one,3\n", "2:3: card 'dragon': copies: expected an integer, got 'one'"),
    ("id,name,copies,rewrd\ndragon,Slay,1,3\n", "2:4: card 'dragon': rewrd: unknown key (did you mean 'reward'?)"),
    ("id,name,copies,kind\ndragon,Slay,1,sail\n", "2:4: card 'dragon': kind: 'sail' is not one of: hunt, trade"),
    ("id,name,copies\ndragon,,1\n", "2:1: card 'dragon': name: required key is missing"),
    ("id,name,copies,reward\ndragon,Slay,1,3,9\n", "2:5: a cell right of the last named column"),
    ("id,name,copies,copies\ndragon,Slay,1,3\n", "1:4: column 'copies' appears twice"),
    # a quoted cell holding line breaks: a later card is named at the line its row starts on, not its row number
    ('id,name,copies,reward\ndragon,"Slay\nthe\nDragon",1,3\ncaravan,Guard,2,lots\n',
     "5:4: card 'caravan': reward: expected an integer, got 'lots'"),
]


@pytest.mark.parametrize("text,expected", CSV_CASES)
def test_csv_problems_name_row_and_column(tmp_path, text, expected):
    root = write_game(tmp_path / "g", quests=text)
    result = validate(root)
    assert result.exit_code == 2
    assert f"{root / 'quests.csv'}:{expected}" in result.output, result.output


def test_xlsx_cards_read_like_csv(tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    root = write_game(tmp_path / "g", game=GAME.replace("quests.csv", "quests.xlsx"))
    book = openpyxl.Workbook()
    sheet = book.active
    for row in [("id", "name", "copies", "reward", "kind"), ("dragon", "Slay the Dragon", 1, 12, "hunt"),
                ("caravan", "Guard", 2, "many", "trade")]:
        sheet.append(row)
    book.save(root / "quests.xlsx")
    result = validate(root)
    assert result.exit_code == 2
    assert f"{root / 'quests.xlsx'}:3:4: card 'caravan': reward: expected an integer, got 'many'" in result.output
    sheet.cell(3, 4, 3)
    book.save(root / "quests.xlsx")
    game = load_game(root)
    assert game.card("caravan").stats["reward"] == 3 and game.card("dragon").name == "Slay the Dragon"


def test_card_ids_are_unique_across_decks(tmp_path):
    root = write_game(tmp_path / "g", quests="id,name,copies\nknight,Knight Quest,1\n")
    out = validate(root).output
    assert f"{root / 'quests.csv'}:2:1: card 'knight': id: duplicate id (first at heroes.yaml:2)" in out


def test_every_problem_of_every_file_in_one_run(tmp_path):
    root = write_game(tmp_path / "g", game=GAME.replace("components: [cards]", "components: [cards, tokens, box]")
                      .replace("name: Quests", "name: Quests\n    colour: red"),
                      heroes=HEROES.replace("might: 4", "might: x"), quests="id,name,copies\ndragon,Slay,0\n")
    (root / "tokens.yaml").write_text("tokens:\n  - {id: t, kind: gold, count: 1, shape: circel, size: 10,"
                                      " front: {background: '#ffffff'}, back: {background: '#ffffff'}}\n")
    (root / "box.yaml").write_text("style: {kind: tuck}\ncard_thicknes: 0.3\n")
    (root / "i18n").mkdir()
    (root / "i18n" / "fr.yaml").write_text("title: Deux\ncards:\n  knigt: {name: Chevalier}\n")
    out = validate(root).output
    expected = [
        f"game.yaml:{line_in(root / 'game.yaml', 'colour: red')}: deck 'quests': colour: unknown key",
        "heroes.yaml:2: card 'knight': might: expected an integer, got 'x'",
        "quests.csv:2:3: card 'dragon': copies: 0 is below the minimum 1",
        "tokens.yaml:2: token 't': shape: 'circel' is not one of",
        "box.yaml:2: card_thicknes: unknown key",
        "fr.yaml:3: language 'fr': unused key 'cards.knigt': the game has no card 'knigt'; did you mean 'knight'?",
    ]
    for text in expected:
        assert text in out, (text, out)


def test_a_deck_must_name_its_cards_file_and_a_size(tmp_path):
    bad = GAME.replace("    cards: quests.csv\n", "").replace("size: {width: 70, height: 120}", "size: huge")
    root = write_game(tmp_path / "g", game=bad)
    out = validate(root).output
    path = root / "game.yaml"
    assert f"game.yaml:{line_in(path, '- id: quests')}: deck 'quests': cards: required key is missing" in out
    assert f"game.yaml:{line_in(path, 'size: huge')}: deck 'quests': size: unknown size 'huge'; give one of poker" in out


def test_both_deck_forms_at_once_is_an_error(tmp_path):
    root = write_game(tmp_path / "g", game=GAME + "card: {width: 63, height: 88}\n")
    assert "card: give either 'decks' (several decks) or 'card' (one deck), not both" in validate(root).output


def test_cards_file_must_stay_in_the_game_folder(tmp_path):
    root = write_game(tmp_path / "g", game=GAME.replace("cards: quests.csv", "cards: ../quests.csv"))
    assert "deck 'quests': cards: '../quests.csv' leaves the game folder" in validate(root).output


# ----------------------------------------------------------------------------- the engine's contract

def test_renaming_a_field_the_engine_reads_fails_validation(game_copy):
    for name in ("game.yaml", "cards.yaml"):
        path = game_copy / name
        path.write_text(path.read_text().replace("power:", "strength:"))
    out = validate(game_copy).output
    line = next(i for i, l in enumerate((game_copy / "game.yaml").read_text().splitlines(), 1) if "card:" in l)
    assert (f"{game_copy / 'game.yaml'}:{line}: engine 'shadow_throne': reads the card field 'power' (int) of deck "
            f"'cards', which card.fields does not declare") in out


def test_the_engine_needs_required_fields_on_every_card(game_copy):
    path = game_copy / "game.yaml"
    path.write_text(path.read_text().replace("power:       {required: true,", "power:       {required: false,"))
    out = validate(game_copy).output
    assert "engine 'shadow_throne': needs the card field 'power' on every card" in out


def test_a_field_of_the_wrong_type_for_the_engine(game_copy):
    path = game_copy / "game.yaml"
    path.write_text(path.read_text().replace("influence:   {required: true, min: 0, max: 10, icon: influence}",
                                             "influence:   {required: true, type: text}"))
    out = validate(game_copy).output
    assert "engine 'shadow_throne': reads the card field 'influence' as int, but card.fields declares it text" in out


def test_engines_declare_the_card_keys_they_read():
    import rules_engine.behind_the_throne as btt
    import rules_engine.shadow_throne as st

    assert set(st.CARD_KEYS["cards"]) == {"faction", "rank", "power", "influence", "cost", "income", "consolation"}
    assert set(btt.CARD_KEYS["cards"]) == {"value"}


# ----------------------------------------------------------------------------- output of every deck

def test_each_deck_prints_on_its_own_sheets_with_its_own_back(game_dir):
    game = load_game(game_dir)
    fronts, backs, duplex = cards_component.build(game, BuildOptions(paper="a4"))
    labels = [p.label for p in fronts.pages]
    assert labels == ["Card fronts: Heroes 1", "Card fronts: Quests 1"]
    roles = [[e.role for e in p.elements if e.role.startswith("card:")] for p in fronts.pages]
    assert roles == [["card:knight#1", "card:knight#2", "card:knight#3", "card:rogue#1", "card:rogue#2",
                      "card:heroes-aid#1", "card:heroes-aid#2"],
                     ["card:dragon#1", "card:caravan#1", "card:caravan#2", "card:market#1"]]
    # tarot cards (70 x 120) sit 2 x 2 on A4, and their backs are mirrored in their own slots
    quest_slots = [e for e in fronts.pages[1].elements if e.role.startswith("card:")]
    back_slots = [e for e in backs.pages[1].elements if e.role.startswith("back:")]
    for f, b in zip(quest_slots, back_slots):
        assert round(b.dx, 2) == round(210 - f.dx - 70, 2) and round(b.dy, 2) == round(f.dy, 2)
    titles = [e.markup for e in _flat(backs.pages[1]) if e.role == "back-title"]
    assert titles[:2] == ["TWO DECKS", "QUESTS"]


def _flat(page):
    from pnp.layout.geometry import flatten
    return list(flatten(page.elements))


def test_validate_summary_counts_every_deck(game_dir):
    result = validate(game_dir)
    assert result.exit_code == 0, result.output
    *warnings, summary = result.output.splitlines()
    assert summary.startswith("Two Decks: 2 decks, 9 cards (5 different)")
    # its text-only cards leave classic's art window empty, and its coin has no key: advice, not mistakes
    assert all(": warning: deck " in w and ("empty" in w or "has no key anywhere in the kit" in w)
               for w in warnings), warnings


def test_export_cards_writes_a_folder_per_deck(game_dir, tmp_path):
    out = tmp_path / "cards"
    result = CliRunner().invoke(main, ["export", "cards", str(game_dir), "--dpi", "40", "--out", str(out)])
    assert result.exit_code == 0, result.output
    heroes = sorted(p.name for p in (out / "heroes").iterdir())
    quests = sorted(p.name for p in (out / "quests").iterdir())
    assert heroes == ["aid-1.png", "aid-2.png", "back.png", "knight-1.png", "knight-2.png", "knight-3.png",
                      "rogue-1.png", "rogue-2.png"]
    assert quests == ["back.png", "caravan-1.png", "caravan-2.png", "dragon-1.png", "market-1.png"]
    from PIL import Image
    with Image.open(out / "quests" / "dragon-1.png") as im:
        assert im.size == (110, 189)              # 70 x 120 mm at 40 dpi
    with Image.open(out / "heroes" / "back.png") as im:
        assert im.size == (99, 139)               # 63 x 88 mm


def test_export_tts_gives_each_deck_its_sheets_and_back(game_dir, tmp_path):
    import json

    out = tmp_path / "tts"
    result = CliRunner().invoke(main, ["export", "tts", str(game_dir), "--out", str(out)])
    assert result.exit_code == 0, result.output
    index = json.loads((out / "tts.json").read_text())
    assert [(d["id"], d["back"], d["sheets"]) for d in index["decks"]] == [
        ("heroes", "heroes/back.png", ["heroes/deck-1.png"]), ("quests", "quests/back.png", ["quests/deck-1.png"])]
    assert {e["deck"] for e in index["cards"] if e["card"] == "dragon"} == {"quests"}
    assert (out / "quests" / "deck-1.png").is_file() and (out / "heroes" / "back.png").is_file()


def test_box_holds_every_card_of_every_deck_and_fits_the_largest(game_dir):
    from pnp.components.box import BoxData, spec

    game = load_game(game_dir)
    data = BoxData("box.yaml", "tuck", {}, {"card_thickness": 0.3, "token_bags": 0, "clearance": 2, "material": 0.3,
                                            "glue_tab": 10, "bleed": 0}, {}, "", (), {})
    s = spec(game, data, None)
    assert (s.card_w, s.card_l, s.cards) == (70, 120, 5 + 4 + 2)


def test_preview_names_each_decks_back(game_dir):
    from pnp.exports.preview import face_keys

    assert face_keys(load_game(game_dir))[-3:] == ["heroes:back", "heroes:aid", "quests:back"]


def test_a_copied_game_folder_builds_the_same(tmp_path):
    copy = tmp_path / "another_name"
    shutil.copytree(write_game(tmp_path / "orig"), copy)
    problems = Problems()
    assert validate_game(copy, problems).game is not None and not problems.errors


def test_cells_are_line_numbers_that_print_their_column():
    cell = Cell(2, 3)
    assert cell == 2 and isinstance(cell, int) and f"{cell}" == "2:3" and str(cell) == "2:3"


def test_placeholder_marks_in_yaml_and_csv_are_counted_by_file(tmp_path):
    heroes = HEROES.replace("loyal: true}", "loyal: true, placeholder: [might, cost]}")
    quests = QUESTS.replace("id,name,copies,reward,kind,flavour", "id,name,copies,reward,kind,flavour,placeholder") \
        .replace("Bring a bucket.", "Bring a bucket.,true").replace("2,3,trade,", '2,3,trade,,"reward, copies"')
    root = write_game(tmp_path / "g", heroes=heroes, quests=quests)
    result = validate(root)
    assert result.exit_code == 0, result.output
    assert f"{root / 'heroes.yaml'}: warning: 2 placeholders: values invented" in result.output
    assert f"{root / 'quests.csv'}: warning: 3 placeholders: values invented" in result.output
    game = load_game(root)
    assert game.card("knight").placeholder == ("might", "cost") and game.card("knight").invented("cost")
    assert game.card("dragon").placeholder == ("*",) and game.card("dragon").invented("kind")
    assert game.card("caravan").placeholder == ("reward", "copies") and not game.card("rogue").invented()


def test_a_placeholder_mark_that_is_not_a_key_is_an_error(tmp_path):
    root = write_game(tmp_path / "g", heroes=HEROES.replace("loyal: true}", "loyal: true, placeholder: [speed]}"))
    result = validate(root)
    assert result.exit_code == 2
    assert (f"{root / 'heroes.yaml'}:2: card 'knight': placeholder: 'speed' is not a key of this entry (its keys: "
            f"id, name, copies, might, cost, guild, tags, loyal)") in result.output


def test_a_missing_cards_file_is_an_error_at_the_deck_with_the_closest(tmp_path):
    """Found by the generated games (issue 32): a deck naming a cards file that is not there was reported as
    'quests.csv: file not found', with no line and nothing to say which deck named it."""
    root = tmp_path / "g"
    assert CliRunner().invoke(main, ["new", str(root)]).exit_code == 0
    (root / "cards.csv").rename(root / "card.csv")
    result = CliRunner().invoke(main, ["validate", str(root), "--no-cache"])
    line = next(i for i, x in enumerate((root / "game.yaml").read_text().splitlines(), 1) if "cards: cards.csv" in x)
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        f"{root / 'game.yaml'}:{line}: deck 'cards': cards: no file 'cards.csv' in the game folder; did you mean "
        f"'card.csv'?", "1 problem found; nothing was written."]
