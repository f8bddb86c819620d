"""Card layouts from data: regions, expressions, extends, per deck and per card type, palettes; the
bundled classic layout is the bundled games' look."""

import pytest
from click.testing import CliRunner

from pnp.loading.cardlayout import bundled
from pnp.commands.cli import main
from pnp.components import BuildOptions
from pnp.components import cards as cards_component
from pnp.loading.gamedata import load_game
from pnp.layout.geometry import Box, Icon, Line, Rect, Text, flatten

GAME = """\
title: Orchard
players: {min: 2, max: 4}
palette: {back: "#203040"}
decks:
  - id: fruit
    cards: fruit.yaml
    size: bridge
    fields:
      kind: {type: choice, choices: [apple, pear], required: true}
      sweet: {type: int, icon: coin}
    layout:
      by: kind
      default: plain
      layouts:
        pear:
          extends: plain
          palette: {leaf: "#3c7a3c"}
          regions:
            - {name: title, rect: [4, 70, 49, 14], colour: palette.leaf}
            - {name: stripe, remove: true}
            - {name: tag, kind: text, rect: [4, 4, 49, 6], text: "'PEAR ' ~ field('sweet')", style: small}
components: [cards]
"""

PLAIN = """\
size: [57, 89]
palette: {paper: "#fbf8ef", ink: "#222222", back: "#444444", accent: "#d0b060", neutral: "#777777"}
styles:
  title: {font: serif-semibold, size: 14, min_size: 8, max_lines: 1}
  small: {font: sans-bold, size: 6, min_size: 6, max_lines: 1}
regions:
  - {name: frame, kind: box, rect: [0, 0, 57, 89], bleed: true, fill: palette.paper}
  - {name: stripe, kind: box, rect: [0, 40, 57, 6], fill: "'#aa2222' if card.stats.kind == 'apple' else '#999999'"}
  - {name: title, kind: text, rect: [4, 72, 49, 12], text: name, style: title}
  - {name: badges, kind: badges, in: title, x: 8, size: 6, top: 0, step: 7}
  - {name: rule, kind: line, from: [4, 70], to: [53, 70], colour: palette.ink, width: 0.3}
  - {name: dot, kind: icon, icon: "'circle'", at: [28.5, 20], size: 8, colour: palette.accent, when: "card.stats.sweet"}
"""

CARDS = """\
cards:
  - {id: crab, name: Crab Apple, copies: 1, kind: apple, sweet: 0}
  - {id: conference, name: Conference, copies: 2, kind: pear, sweet: 3}
"""


def write_game(root, game=GAME, plain=PLAIN, cards=CARDS):
    (root / "templates" / "layouts").mkdir(parents=True, exist_ok=True)
    (root / "game.yaml").write_text(game)
    (root / "fruit.yaml").write_text(cards)
    (root / "templates" / "layouts" / "plain.yaml").write_text(plain)
    return root


@pytest.fixture
def orchard(tmp_path):
    return write_game(tmp_path / "orchard")


def face(game, card_id):
    card = game.card(card_id)
    deck = game.deck_of(card)
    return list(flatten(cards_component.card_face(cards_component.face_content(game, card), deck.width, deck.height,
                                                  0.0, cards_component.layout_of(deck, card))))


def by_role(elements, role):
    return [e for e in elements if e.role == role]


def test_the_classic_layout_is_the_bundled_games_look():
    layout = bundled("classic")
    assert layout.size == (63, 88) and layout.palette_dict()["paper"] == "#f7f0e1"
    game = load_game("shadow_throne")
    els = face(game, "king-kyros")
    (frame,) = by_role(els, "frame")
    assert frame.fill == game.faction("empire").colour and frame.rect.rounded() == (0, 0, 63, 88)
    (name,) = by_role(els, "name")
    assert name.rect.rounded() == (5.5, 68.8, 52.0, 9.4) and name.markup == "King Kyros"
    (step,) = by_role(els, "step")
    assert (round(step.cx, 2), round(step.cy, 2), step.label) == (8.0, 31.6, "3")
    assert [e.role for e in els if e.role.startswith("stat:")] == ["stat:power", "stat:influence", "stat:cost"]


def test_regions_scale_with_the_card_size():
    game = load_game("shadow_throne")
    from dataclasses import replace

    content = cards_component.face_content(game, game.card("outlaw"))
    small = list(flatten(cards_component.card_face(content, 44, 63, 0.0, bundled("classic"))))
    (name,) = by_role(small, "name")
    assert name.rect.rounded() == (round(5.5 * 44 / 63, 2), round(68.8 * 63 / 88, 2), round(52 * 44 / 63, 2),
                                   round(9.4 * 63 / 88, 2))
    del replace


def test_a_layout_per_card_type_with_extends_and_removed_regions(orchard):
    game = load_game(orchard)
    apple, pear = face(game, "crab"), face(game, "conference")
    (stripe,) = by_role(apple, "stripe")
    assert stripe.fill == "#aa2222" and stripe.rect.rounded() == (0, 40, 57, 6)
    assert by_role(pear, "stripe") == []                                    # removed by the pear layout
    (title,) = by_role(pear, "title")
    assert title.rect.rounded() == (4, 70, 49, 14) and title.style.colour == "#3c7a3c"
    (tag,) = by_role(pear, "tag")
    assert tag.markup == "PEAR 3"
    assert by_role(apple, "dot") == [] and len(by_role(pear, "dot")) == 1   # when: card.stats.sweet
    (badge,) = [e for e in pear if e.role == "stat:sweet"]
    assert isinstance(badge, Icon) and badge.label == "3"


def test_the_games_palette_overrides_the_layouts(orchard):
    game = load_game(orchard)
    _, backs, _ = cards_component.build(game, BuildOptions())
    fills = {e.fill for e in flatten(backs.pages[0].elements) if isinstance(e, Box) and e.role == "back"}
    assert fills == {"#203040"}


def test_data_in_expressions_stays_data(tmp_path):
    root = write_game(tmp_path / "g", cards=CARDS.replace("name: Crab Apple", "name: '**[coin]** Crab'"))
    (title,) = by_role(face(load_game(root), "crab"), "title")
    assert title.markup == "\\*\\*\\[coin\\]\\*\\* Crab"


@pytest.mark.parametrize("plain,message", [
    (PLAIN.replace("kind: text, rect: [4, 72, 49, 12]", "kind: txt, rect: [4, 72, 49, 12]"),
     "region 'title': kind: 'txt' is not one of: box, text, line, icon, art, emblem, pips, badges"),
    (PLAIN.replace("text: name, style: title", "text: 'name +', style: title"),
     "region 'title': text: 'name +' is not an expression"),
    (PLAIN.replace("rect: [4, 72, 49, 12]", "rect: [4, 72]"), "region 'title': rect: give [x, y, width, height]"),
    (PLAIN.replace("fill: palette.paper}", "fill: palette.paper, glow: 2}"), "region 'frame': glow: unknown key"),
    (PLAIN.replace("size: 6, min_size: 6", "size: 6, min_size: 5.5"),
     "plain.yaml:5: styles.small.min_size: 5.5 pt is under 6 pt, the smallest text pnp prints"),
    (PLAIN.replace("text: name, style: title", "text: name, style: {font: sans, size: 4}"),
     "region 'title': style.size: 4 pt is under 6 pt, the smallest text pnp prints"),
])
def test_layout_problems_name_the_file_and_line(tmp_path, plain, message):
    root = write_game(tmp_path / "g", plain=plain)
    result = CliRunner().invoke(main, ["validate", str(root)])
    assert result.exit_code == 2 and message in result.output and "plain.yaml" in result.output, result.output
    assert result.output.count(message) == 1, result.output


def test_a_problem_found_twice_is_reported_once():
    from pnp.errors import DataError, Problems

    problems = Problems()
    for _ in range(2):       # e.g. one layout checked for each of two decks that use it
        problems.error("layout.yaml", 7, None, "styles.tags.size: 5.5 pt is under 6 pt")
    problems.warn("layout.yaml", 8, None, "a warning")
    problems.warn("layout.yaml", 8, None, "a warning")
    assert str(DataError(problems.errors)).count("layout.yaml:7") == 1
    assert [str(w) for w in problems.warnings] == ["layout.yaml:8: warning: a warning"]


def test_an_unknown_layout_is_an_error(tmp_path):
    root = write_game(tmp_path / "g", game=GAME.replace("default: plain", "default: fancy"))
    result = CliRunner().invoke(main, ["validate", str(root)])
    assert "deck 'fruit' layout.default: no layout 'fancy'" in result.output


def test_an_expression_naming_nothing_is_reported_for_the_card(tmp_path):
    root = write_game(tmp_path / "g", plain=PLAIN.replace("text: name, style: title", "text: nmae, style: title"))
    result = CliRunner().invoke(main, ["validate", str(root)])
    assert result.exit_code == 2
    # once for the region, though two layouts (plain, and the pear layout extending it) use it
    assert (f"{root / 'templates' / 'layouts' / 'plain.yaml'}:9: layout 'plain', region 'title': text: no value "
            f"'nmae' in a layout; did you mean 'name'? (2 cards, e.g. card 'crab')\n") in result.output
    assert result.output.count("nmae") == 1


def test_text_regions_are_checked_for_fit(tmp_path):
    root = write_game(tmp_path / "g", cards=CARDS.replace("name: Conference", "name: " + "Very " * 12 + "Long"))
    result = CliRunner().invoke(main, ["validate", str(root)])
    assert result.exit_code == 2 and "card 'conference': title text does not fit" in result.output


def test_geometry_types():
    assert Rect(0, 0, 1, 1).contains(Rect(0, 0, 1, 1)) and Line and Text
