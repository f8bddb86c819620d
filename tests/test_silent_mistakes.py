"""Mistakes a designer made in a game folder that once passed ``pnp validate`` and printed something wrong
(issue 32): each is made here in a small game started with ``pnp new``, and the test asserts what pnp now
says (the message, at its file and line) or prints."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.components.board import pieces
from pnp.layout.geometry import Text, flatten
from pnp.loading.gamedata import load_game
from pnp.text.markup import inline_atoms


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def new_game(root: Path) -> Path:
    result = run("new", root)
    assert result.exit_code == 0, result.output
    return root


def add_component(root: Path, entry: str) -> None:
    """``entry`` added to game.yaml's components, after the tokens."""
    game = root / "game.yaml"
    text = game.read_text()
    assert "  - tokens\n" in text
    game.write_text(text.replace("  - tokens\n", f"  - tokens\n  - {entry}\n", 1))


def line_of(path: Path, needle: str) -> int:
    """The 1-based line of ``path`` holding ``needle``."""
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def page_text(pdf: Path) -> str:
    return "\n".join(page.get_textpage().get_text_range() for page in pdfium.PdfDocument(str(pdf)))


def icons_in(markup: str) -> list[str]:
    return [a.text for word in inline_atoms(markup) if word for a in word if a.kind == "icon"]


# ----------------------------------------------------------------------------- tables draw markup

MAT = textwrap.dedent("""\
    size: [120, 80]
    regions:
      - {name: ground, kind: box, rect: [0, 0, 120, 80], fill: "#f4ecd8"}
      - {name: heading, kind: text, rect: [8, 62, 104, 12], text: "'**Harvest** [bloom] ' ~ title"}
      - {name: chart, kind: table, rect: [8, 8, 104, 50], header: true,
         rows: "[['Action', 'Gain'], ['**Plant**', '[bloom] 1'], [data.crops[0].name, data.crops[0].gain]]"}
    """)


@pytest.fixture(scope="module")
def mat_game(tmp_path_factory) -> Path:
    """A starter game with its own icon ``bloom`` and a board whose text and table write it, and a data
    file whose values hold markup characters (data stays data)."""
    root = new_game(tmp_path_factory.mktemp("mat") / "g")
    shutil.copy(root / "icons" / "spark.svg", root / "icons" / "bloom.svg")
    (root / "templates" / "layouts" / "mat.yaml").write_text(MAT)
    (root / "crops.csv").write_text("name,gain\n*Wheat*,[bloom] 2\n")
    game = root / "game.yaml"
    game.write_text(game.read_text().replace("\ndecks:", "\ndata: [crops.csv]\n\ndecks:", 1))
    add_component(root, "{kind: board, id: mat, layout: mat, title: Mat}")
    box = root / "box.yaml"
    box.write_text(box.read_text() + "  - {count: 1, item: mat}\n")      # the box lists what the kit makes
    return root


def test_a_board_table_draws_the_icons_and_bold_its_quoted_texts_write_as_a_text_region_does(mat_game, tmp_path):
    game = load_game(mat_game)
    (spec,) = [s for s in game.component_specs if s.id == "mat"]
    (piece,) = pieces(game, spec)
    texts = {}
    for el in flatten(piece.front):
        if isinstance(el, Text):
            texts.setdefault(el.role, []).append(el.markup)
    assert texts["heading"] == ["**Harvest** [bloom] G"]
    assert texts["chart:cell"] == ["Action", "Gain", "**Plant**", "[bloom] 1", "\\*Wheat\\*", "\\[bloom\\] 2"]
    assert icons_in(texts["heading"][0]) == ["bloom"]
    assert [icons_in(cell) for cell in texts["chart:cell"]] == [[], [], [], ["bloom"], [], []]
    result = run("build", mat_game, "--out", tmp_path / "kit", "--no-cache")
    assert result.exit_code == 0, result.output
    printed = page_text(tmp_path / "kit" / "mat.pdf")
    # the quoted texts print their words, bold and icons drawn; the data file's values as written
    assert "Plant" in printed and "**Plant**" not in printed and "[bloom] 1" not in printed
    assert "*Wheat*" in printed and "[bloom] 2" in printed
    assert "Harvest" in printed and "**" not in printed.replace("*Wheat*", "")


def test_an_unknown_icon_in_a_board_table_is_an_error_at_the_region_with_the_closest_name(mat_game, tmp_path):
    root = tmp_path / "g"
    shutil.copytree(mat_game, root)
    layout = root / "templates" / "layouts" / "mat.yaml"
    layout.write_text(layout.read_text().replace("'[bloom] 1'", "'[bloomm] 1'"))
    result = run("validate", root, "--no-cache")
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[0] == (
        f"{layout}:{line_of(layout, '[bloomm]')}: layout 'mat', region 'chart': rows: unknown icon [bloomm]; "
        f"did you mean [bloom]? (board 'mat')")


def test_a_card_layout_table_draws_markup_and_checks_its_icons(tmp_path):
    root = new_game(tmp_path / "g")
    layout = root / "templates" / "layouts" / "starter.yaml"
    layout.write_text(layout.read_text() + "  - {name: chart, kind: table, rect: [8, 58, 47, 10], "
                                           "rows: \"[['**Play**', '[spark] ' ~ field('points')]]\"}\n")
    from pnp.components.cards import face_content, layout_of
    from pnp.loading.cardlayout import card_face

    game = load_game(root)
    card = game.card("ember")
    face = card_face(face_content(game, card), 63.0, 88.0, 0.0, layout_of(game.deck_of(card), card))
    cells = [el.markup for el in flatten(face) if isinstance(el, Text) and el.role == "chart:cell"]
    assert cells == ["**Play**", "[spark] 2"] and icons_in(cells[1]) == ["spark"]
    layout.write_text(layout.read_text().replace("'[spark] '", "'[sprak] '"))
    result = run("validate", root, "--no-cache")
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[0] == (
        f"{layout}:{line_of(layout, 'name: chart')}: layout 'starter', region 'chart': rows: unknown icon "
        f"[sprak]; did you mean [spark]? (4 cards, e.g. card 'spark')")


# ----------------------------------------------------------------------------- the box and its contents

def tarot_deck(root: Path, deck_id: str = "omens") -> None:
    """A second deck of two tarot cards, ``deck_id``, in the starter game."""
    (root / f"{deck_id}.csv").write_text("id,name,copies\nsun,The Sun,1\nmoon,The Moon,1\n")
    game = root / "game.yaml"
    game.write_text(game.read_text().replace("\n# the kit", f"""  - id: {deck_id}
    name: Omens
    cards: {deck_id}.csv
    size: tarot
    fields: {{points: {{type: int, default: 0}}}}

# the kit""", 1))


def box_lines(root: Path, *lines: str) -> Path:
    """box.yaml's contents replaced by ``lines`` (each one entry's mapping)."""
    box = root / "box.yaml"
    text = box.read_text()
    box.write_text(text[:text.index("contents:")] + "contents:\n" + "".join(f"  - {line}\n" for line in lines))
    return box


@pytest.mark.parametrize("deck_id, line, message", [
    ("aids", "{count: aids, item: aid cards}",
     "count: 'aids' counts the player-aid cards (a deck's aids:), and the game has none; did you mean deck:aids "
     "(the deck 'aids')?"),
    ("omens", "{count: aids, item: aid cards}",
     "count: 'aids' counts the player-aid cards (a deck's aids:, or player_aid:), and the game has none"),
    ("omens", "{count: \"deck:omen\", item: omen cards}", "count: the game has no deck 'omen'; did you mean deck:omens?"),
    ("omens", "{count: omens, item: omen cards}",
     "count: expected a number, one of cards, tokens, aids, dice or deck:<deck id>, got 'omens'; did you mean deck:omens?"),
])
def test_a_box_contents_line_that_counts_nothing_is_an_error_at_its_line(tmp_path, deck_id, line, message):
    root = new_game(tmp_path / "g")
    tarot_deck(root, deck_id)
    box = box_lines(root, "{count: cards, item: cards}", line, "{count: 1, item: rulebook}")
    result = run("validate", root, "--no-cache")
    assert result.exit_code == 2, result.output
    assert result.output.splitlines() == [f"{box}:{line_of(box, line)}: contents #2: {message}",
                                          "1 problem found; nothing was written."]


def test_a_deck_beside_the_box_neither_sizes_it_nor_counts_in_it(tmp_path):
    from pnp.components import BuildOptions
    from pnp.components.box import content, layout, load_box, spec

    root = new_game(tmp_path / "g")
    starter = layout(load_game(root), BuildOptions()).dimensions
    tarot_deck(root)
    box_lines(root, "{count: cards, item: cards}", "{count: \"deck:omens\", item: tarot omens, in_box: false}",
              "{count: 1, item: rulebook}")
    game = load_game(root)
    sized = spec(game, load_box(game), None)
    assert (sized.card_w, sized.card_l, sized.cards) == (63.0, 88.0, 9)
    dims = layout(game, BuildOptions()).dimensions
    # the poker cards alone: (63 + 2) x (88 + 2) x (9 x 0.3 + 2) mm inside, as the starter's own box
    assert dims.inner.rounded() == (65.0, 90.0, 4.7) == starter.inner.rounded()
    result = run("build", root, "--out", tmp_path / "kit", "--no-cache")
    assert result.exit_code == 0, result.output
    words = content(game, load_box(game))
    assert (words.contents, words.beside) == (("9 cards",), ("2 tarot omens", "1 rulebook"))
    printed = page_text(tmp_path / "kit" / "box.pdf")
    assert "9 cards" in printed and "2 tarot omens" in printed and "11 cards" not in printed
    # every deck beside the box: nothing to size it by
    box = box_lines(root, "{count: cards, item: cards, in_box: false}")
    result = run("validate", root, "--no-cache")
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[0] == (
        f"{box}:{line_of(box, 'contents:')}: contents: every card travels beside the box (in_box: false), and a box "
        f"is sized for the cards it holds: put a deck in it, or leave the box out of the kit")


# ----------------------------------------------------------------------------- picture backs

def picture_backs(root: Path, images: dict, sizes: dict | None = None) -> Path:
    """The starter deck's back made ``{by: id, images: ...}`` (pictures of 744 x 1039 px, or ``sizes``)."""
    from PIL import Image

    (root / "art").mkdir(exist_ok=True)
    lines = []
    for value, name in images.items():
        Image.new("RGB", (sizes or {}).get(name, (744, 1039)), "#336699").save(root / "art" / name)
        lines.append(f"        {value}: art/{name}\n")
    game = root / "game.yaml"
    text = game.read_text()
    old = "    back: {emblem: spark}         # pnp's designed back, with the game's own icon\n"
    assert old in text
    game.write_text(text.replace(old, "    back:\n      by: id\n      images:\n" + "".join(lines)))
    return game


def test_a_misspelt_card_id_in_a_picture_back_is_an_error_with_the_closest_id(tmp_path):
    root = new_game(tmp_path / "g")
    game = picture_backs(root, {"spark": "spark.png", "embr": "ember.png", "flare": "flare.png",
                                "star": "star.png"})
    result = run("validate", root, "--no-cache")
    assert result.exit_code == 2, result.output
    # one message: the card the misspelt id was meant for is not also reported as left without a picture
    assert result.output.splitlines() == [
        f"{game}:{line_of(game, 'embr:')}: deck 'cards': back.images: no card of the deck has id 'embr'; did you "
        f"mean 'ember'?", "1 problem found; nothing was written."]


def test_a_card_left_out_of_a_picture_back_is_a_warning_naming_it(tmp_path):
    root = new_game(tmp_path / "g")
    game = picture_backs(root, {"spark": "spark.png", "ember": "ember.png", "flare": "flare.png"})
    result = run("validate", root, "--no-cache")
    assert result.exit_code == 0, result.output
    assert f"{game}:{line_of(game, 'images:')}: warning: deck 'cards': back.images: card 'star' has no picture, and " \
           f"there is no image: for the others, so it prints the designed back; give it a picture, or give image: " \
           f"for every card without one" in result.output.splitlines()
    # image: for the others is the documented fallback: nothing to warn about
    game.write_text(game.read_text().replace("      by: id\n", "      by: id\n      image: art/spark.png\n"))
    result = run("validate", root, "--no-cache")
    assert result.exit_code == 0 and "warning" not in result.output, result.output


def test_a_back_picture_at_30_dpi_is_a_warning_as_card_art_is(tmp_path):
    root = new_game(tmp_path / "g")
    game = picture_backs(root, {"spark": "spark.png", "ember": "ember.png", "flare": "flare.png", "star": "star.png"},
                         sizes={"flare.png": (74, 104)})
    result = run("validate", root, "--no-cache")
    assert result.exit_code == 0, result.output
    # 744 x 1039 px (what print services ask for, 299.9 dpi on a poker card) is not reported
    assert [line for line in result.output.splitlines() if "warning" in line] == [
        f"{game}:{line_of(game, 'flare:')}: warning: deck 'cards': back.images.flare: flare.png prints at 30 dpi "
        f"(74 x 104 px on 63.0 x 88.0 mm); print shops ask for 300"]


def test_a_back_by_a_choice_field_names_a_value_no_card_has_with_the_closest(tmp_path):
    root = new_game(tmp_path / "g")
    (root / "cards.csv").write_text((root / "cards.csv").read_text().replace("id,name,copies,points,text,flavour",
                                                                               "id,name,copies,points,text,flavour,kind")
                                    .replace("\n", ",hot\n").replace("flavour,kind,hot", "flavour,kind"))
    game = root / "game.yaml"
    game.write_text(game.read_text().replace(
        "      text: {type: text}", "      text: {type: text}\n      kind: {type: choice, choices: [hot, cold]}").replace(
        "    back: {emblem: spark}", "    back: {by: kind, labels: {hto: Hot, cold: Cold}}"))
    result = run("validate", root, "--no-cache")
    assert result.exit_code == 2, result.output
    # 'cold' is a declared choice no card has yet: not a mistake
    assert result.output.splitlines() == [
        f"{game}:{line_of(game, 'hto: Hot')}: deck 'cards': back.labels: no card of the deck has kind 'hto'; did you "
        f"mean 'hot'?", "1 problem found; nothing was written."]


# ----------------------------------------------------------------------------- a back picture in the exports' bleed

@pytest.fixture(scope="module")
def trim_back_game(tmp_path_factory) -> Path:
    """The starter game with a picture back made to the card's trim (744 x 1039 px, a gold frame 20 px in),
    CMYK so the DriveThruCards preset takes it, and no ``bleed: extend``."""
    from PIL import Image, ImageDraw

    root = new_game(tmp_path_factory.mktemp("trimback") / "g")
    (root / "art").mkdir()
    picture = Image.new("RGB", (744, 1039), "#203050")
    ImageDraw.Draw(picture).rectangle([20, 20, 723, 1018], outline="#e0c060", width=18)
    picture.convert("CMYK").save(root / "art" / "back.jpg", quality=90)
    game = root / "game.yaml"
    game.write_text(game.read_text().replace("    back: {emblem: spark}         # pnp's designed back, with the "
                                             "game's own icon\n", "    back: {image: art/back.jpg}\n"))
    return root


@pytest.mark.parametrize("command, bleed", [
    (("export", "cards", "--preset", "thegamecrafter"), "3.2 mm bleed that --preset thegamecrafter (The Game Crafter) adds,"),
    (("export", "cards", "--preset", "makeplayingcards"), "3.0 mm bleed that --preset makeplayingcards (MakePlayingCards) "
                                                          "adds,"),
    (("build", "--preset", "drivethrucards"), "3.2 mm bleed that --preset drivethrucards (DriveThruCards) adds,"),
    (("export", "cards", "--bleed", "3"), "3 mm bleed"),
])
def test_a_back_picture_made_to_the_trim_is_a_warning_in_every_export_that_adds_a_bleed(trim_back_game, tmp_path,
                                                                                          command, bleed):
    game = trim_back_game / "game.yaml"
    args = [command[0], *([command[1]] if command[0] == "export" else []), trim_back_game,
            *command[2 if command[0] == "export" else 1:], "--out", tmp_path / "out"]
    result = run(*args)
    assert result.exit_code == 0, result.output
    warning = (f"{game}:{line_of(game, 'back: {image')}: warning: deck 'cards' back: back.jpg (744 x 1039 px) has the "
               f"proportions of the 63 x 88 mm card, so it ends at the trim: drawn over the {bleed} it loses about "
               f"{bleed.split(' mm')[0]} mm at every edge; give it bleed: extend (or mirror) to make the bleed from "
               f"its edges")
    assert warning in result.output.splitlines()


def test_a_back_picture_with_a_bleed_made_from_its_edges_is_not_reported(trim_back_game, tmp_path):
    root = tmp_path / "g"
    shutil.copytree(trim_back_game, root)
    game = root / "game.yaml"
    game.write_text(game.read_text().replace("back: {image: art/back.jpg}", "back: {image: art/back.jpg, bleed: extend}"))
    result = run("export", "cards", root, "--preset", "thegamecrafter", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output, result.output


# ----------------------------------------------------------------------------- every translation, validated

def test_pnp_validate_checks_every_translation_the_game_ships_unless_lang_narrows_it(tmp_path):
    root = new_game(tmp_path / "g")
    (root / "i18n").mkdir(exist_ok=True)          # the starter has its English words there
    (root / "i18n" / "fr.yaml").write_text("title: Étincelle\n", encoding="utf-8")
    chapter = root / "templates" / "rulebook" / "fr" / "rules.md.j2"
    chapter.parent.mkdir(parents=True)
    chapter.write_text((root / "templates" / "rulebook" / "en" / "rules.md.j2").read_text()
                       .replace("Put the [spark] tokens", "Put the [sprak] tokens"))
    typo = (f"{chapter}:{line_of(chapter, '[sprak]')}: chapter 'rules': unknown icon [sprak]; did you mean "
            f"[spark]?")
    result = run("validate", root, "--no-cache")
    assert result.exit_code == 2, result.output
    lines = result.output.splitlines()
    assert typo in lines and lines[-1] == "1 problem found; nothing was written."
    # what the translation lacks is counted, not listed (pnp validate --lang fr lists it)
    (counted,) = [line for line in lines if "warning" in line]
    assert counted.startswith(f"{root / 'i18n' / 'fr.yaml'}: warning: language 'fr': ") and counted.endswith(
        " printed strings are not translated (pnp validate --lang fr lists them; a build in 'fr' needs "
        "--allow-missing)")
    result = run("validate", root, "--no-cache", "--lang", "fr", "--allow-missing")
    assert result.exit_code == 2 and typo in result.output.splitlines()
    # --lang narrows the check to one language: the English kit is valid
    result = run("validate", root, "--no-cache", "--lang", "en")
    assert result.exit_code == 0, result.output
    chapter.write_text(chapter.read_text().replace("[sprak]", "[spark]"))
    result = run("validate", root, "--no-cache")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == ("G: 9 cards (4 different), components instructions, score, cards, "
                                              "tokens, rulebook, box, languages en, fr: valid")


# ----------------------------------------------------------------------------- a name tested in a template

def test_a_misspelt_name_tested_with_is_defined_is_a_warning_at_the_template_line(tmp_path):
    root = new_game(tmp_path / "g")
    chapter = root / "templates" / "rulebook" / "en" / "rules.md.j2"
    chapter.write_text(chapter.read_text() + textwrap.dedent("""\

        ## High cards
        | Card | Points |
        |---|---|
        {% for card in game.cards %}{% if card.stats.pionts is defined %}
        | {{ card.name }} | {{ card.stats.pionts }} |
        {% endif %}{% endfor %}

        {% for c in cards | sort(attribute='name') %}{% if c.flavor is defined %}{{ c.flavor }}{% endif %}{% if 'txt' in c.stats %}!{% endif %}{% endfor %}
        {% if examples.anything is defined %}{% endif %}{% if game.title is defined %}{{ game.title }}{% endif %}
        """))
    result = run("validate", root, "--no-cache")
    assert result.exit_code == 0, result.output
    line = line_of(chapter, "pionts is defined")
    after = line_of(chapter, "c.flavor")
    # a name pnp cannot follow (examples) is left alone, one that exists (game.title) is fine
    # (the chapter's short page is the page-fill advice's, not this check's)
    assert [w for w in result.output.splitlines() if "warning" in w and "more than a third empty" not in w] == [
        f"{chapter}:{line}: warning: card.stats.pionts is defined: no deck of the game has a field 'pionts', so the "
        f"test is always false; did you mean 'points'?",
        f"{chapter}:{after}: warning: c.flavor is defined: no card has an attribute 'flavor', so the test is always "
        f"false; did you mean 'flavour'?",
        f"{chapter}:{after}: warning: 'txt' in c.stats: no deck of the game has a field 'txt', so the test is always "
        f"false; did you mean 'text'?"]


# ----------------------------------------------------------------------------- layouts picked by a card key

def layouts_by(root: Path, by: str, layouts: str) -> Path:
    """The starter deck's layout made ``{by: BY, default: starter, layouts: LAYOUTS}``."""
    game = root / "game.yaml"
    text = game.read_text()
    old = "    layout: starter               # templates/layouts/starter.yaml, which extends pnp's classic look\n"
    assert old in text
    game.write_text(text.replace(old, f"    layout:\n      by: {by}\n      default: starter\n      layouts:\n"
                                      f"{layouts}"))
    return game


def test_a_layout_by_a_key_the_deck_has_not_is_an_error_with_the_closest(tmp_path):
    root = new_game(tmp_path / "g")
    game = layouts_by(root, "pionts", "        5: {extends: classic}\n")
    result = run("validate", root, "--no-cache")
    assert result.exit_code == 2, result.output
    # without the check every card was drawn with the default layout
    assert result.output.splitlines() == [
        f"{game}:{line_of(game, 'by: pionts')}: deck 'cards' layout.by: 'pionts' is not a card key of the deck; did "
        f"you mean 'points'?", "1 problem found; nothing was written."]


def test_a_layout_for_a_value_no_card_has_is_an_error_with_the_closest(tmp_path):
    root = new_game(tmp_path / "g")
    game = layouts_by(root, "id", "        star: {extends: classic}\n        embr: {extends: classic}\n")
    result = run("validate", root, "--no-cache")
    assert result.exit_code == 2, result.output
    assert result.output.splitlines() == [
        f"{game}:{line_of(game, 'embr:')}: deck 'cards': layout.layouts: no card of the deck has id 'embr'; did you "
        f"mean 'ember'?", "1 problem found; nothing was written."]


def test_a_layout_for_a_declared_choice_no_card_has_yet_is_not_a_mistake(tmp_path):
    root = new_game(tmp_path / "g")
    (root / "cards.csv").write_text((root / "cards.csv").read_text().replace("id,name,copies,points,text,flavour",
                                                                               "id,name,copies,points,text,flavour,kind")
                                    .replace("\n", ",hot\n").replace("flavour,kind,hot", "flavour,kind"))
    game = layouts_by(root, "kind", "        cold: {extends: classic}\n")
    game.write_text(game.read_text().replace(
        "      text: {type: text}", "      text: {type: text}\n      kind: {type: choice, choices: [hot, cold]}"))
    result = run("validate", root, "--no-cache")
    assert result.exit_code == 0, result.output
