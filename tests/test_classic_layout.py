"""The bundled classic layout prints every field a deck declares: badges, the rules box (the ability, then
the text fields), the type line (the rank, then choices, lists, flags, plain numbers); a layout extending
it that shows a field itself takes it out of those; a field no region prints is a warning."""

import pytest
from click.testing import CliRunner

from pnp.cardlayout import bundled, fields_named
from pnp.cli import main
from pnp.components import cards as cards_component
from pnp.draw.text import fit
from pnp.gamedata import load_game
from pnp.layout.cards import FaceContent, card_face
from pnp.layout.geometry import flatten
from pnp.markup import plain_text

from test_decks import write_game


def face(game, card_id):
    card = game.card(card_id)
    deck = game.deck_of(card)
    return list(flatten(cards_component.card_face(cards_component.face_content(game, card), deck.width,
                                                  deck.height, 0.0, cards_component.layout_of(deck, card))))


def one(elements, role):
    (el,) = [e for e in elements if e.role == role]
    return el


@pytest.fixture
def heroes(tmp_path):
    return write_game(tmp_path / "two_decks")


def test_choices_lists_and_flags_print_in_the_type_line(heroes):
    knight = face(load_game(heroes), "knight")
    line = one(knight, "type-line")
    assert line.rect.rounded() == (9.6, 78.2, 43.8, 5.2)
    assert plain_text(line.markup) == "red \u00b7 brave, old \u00b7 loyal"
    assert line.style.upper and line.style.max_lines == 2 and line.style.size == 6.0
    assert [e for e in knight if e.role in ("rank", "ability", "ability-box")] == []
    assert [e.role for e in knight if e.role.startswith("stat:")] == ["stat:might", "stat:cost"]   # badges


def test_a_text_field_prints_in_the_rules_box(heroes):
    rogue = face(load_game(heroes), "rogue")
    box, text = one(rogue, "ability-box"), one(rogue, "ability")
    assert box.rect.rounded() == (4.6, 13.0, 53.8, 18.6)
    assert text.rect.rounded() == (6.4, 14.0, 50.2, 16.6) and text.markup == "Never twice"
    assert text.style.min_size == 6.5                         # shrinks to fit, down to the ability style's
    assert plain_text(one(rogue, "type-line").markup) == "blue"


def test_the_rules_box_holds_the_ability_then_each_text_field_one_per_line():
    content = FaceContent("Seer", "", 0, "#446688", None, (), 2, "**Scry** [step:1].", "",
                          texts=(("motto", "Look *twice*."), ("oath", "Never [coin].")))
    els = list(flatten(card_face(content, 63, 88)))
    text = one(els, "ability")
    assert text.rect.rounded() == (6.4, 14.0, 50.2, 14.9)    # under the step badge
    assert text.markup == "**Scry** [step:1].\nLook *twice*.\nNever [coin]."
    assert one(els, "step").label == "2"
    assert fit(text.markup, text.style, text.rect.w, text.rect.h).ok


def test_classic_scales_the_new_regions_with_the_card_size(heroes):
    game = load_game(heroes)
    card = game.card("knight")
    content = cards_component.face_content(game, card)
    small = list(flatten(card_face(content, 44, 63, 0.0, bundled("classic"))))
    assert one(small, "type-line").rect.rounded() == (round(9.6 * 44 / 63, 2), round(78.2 * 63 / 88, 2),
                                                     round(43.8 * 44 / 63, 2), round(5.2 * 63 / 88, 2))


EXTENDED = """\
extends: classic
regions:
  - {name: motto-plate, kind: text, rect: [6, 34, 51, 6], text: "field('motto')", style: flavour}
"""


def test_a_field_a_region_shows_by_name_leaves_the_rules_box(heroes):
    (heroes / "templates" / "layouts").mkdir(parents=True)
    (heroes / "templates" / "layouts" / "mottos.yaml").write_text(EXTENDED)
    game_yaml = heroes / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("    copies: {total: 5}", "    copies: {total: 5}\n    layout: mottos"))
    rogue = face(load_game(heroes), "rogue")
    assert one(rogue, "motto-plate").markup == "Never twice"
    assert [e for e in rogue if e.role in ("ability", "ability-box")] == []    # printed once, not twice


def test_fields_named_by_an_expression():
    assert fields_named("'VP ' ~ field('vp') ~ fields.gold ~ card.stats['kind'] ~ card.stats.tags[0]") == \
        {"vp", "gold", "kind", "tags"}
    assert fields_named("name ~ card.copies") == set()
    assert fields_named("field(item)") is None and fields_named("card.stats | length") is None


def test_bundled_faces_keep_their_regions():
    game = load_game("shadow_throne")
    for card in game.cards:
        roles = {e.role for e in face(game, card.id)}
        assert "type-line" not in roles and ("rank" in roles) == bool(card.rank)


UNPRINTED = """\
size: [63, 88]
regions:
  - {name: title, kind: text, rect: [4, 70, 55, 12], text: name, style: {font: serif, size: 12, min_size: 8}}
  - {name: badges, kind: badges, in: title, x: 8, size: 6, top: 0, step: 7}
"""


def test_a_field_no_region_prints_is_a_warning(heroes):
    (heroes / "templates" / "layouts").mkdir(parents=True)
    (heroes / "templates" / "layouts" / "bare.yaml").write_text(UNPRINTED)
    game_yaml = heroes / "game.yaml"
    text = game_yaml.read_text().replace("    copies: {total: 5}", "    copies: {total: 5}\n    layout: bare")
    game_yaml.write_text(text)
    result = CliRunner().invoke(main, ["validate", str(heroes)])
    assert result.exit_code == 0, result.output
    lines = text.splitlines()
    for name in ("guild", "tags", "loyal", "motto"):
        line = next(i for i, t in enumerate(lines, 1) if t.strip().startswith(f"{name}:"))
        assert (f"{game_yaml}:{line}: warning: deck 'heroes' field '{name}': no region of layout 'bare' (bare.yaml) "
                f"prints it") in result.output
    assert "field 'might'" not in result.output and "field 'cost'" not in result.output   # badges


def test_every_text_in_the_type_line_and_rules_box_is_checked_for_fit(heroes):
    path = heroes / "heroes.yaml"
    path.write_text(path.read_text().replace("motto: Never twice", "motto: " + "Never twice again. " * 40))
    result = CliRunner().invoke(main, ["validate", str(heroes)])
    assert result.exit_code == 2 and "card 'rogue': ability text does not fit" in result.output


def test_face_content_keeps_text_fields_and_labels(heroes):
    game = load_game(heroes)
    content = cards_component.face_content(game, game.card("knight"))
    assert content.texts == () and [n for n, _ in content.labels] == ["guild", "tags", "loyal"]
    rogue = cards_component.face_content(game, game.card("rogue"))
    assert rogue.texts == (("motto", "Never twice"),)
