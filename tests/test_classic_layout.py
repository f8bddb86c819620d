"""The bundled classic layout prints every field a deck declares: badges, the rules box (the ability, then
the text fields), the type line (the rank, then choices, lists, flags, plain numbers); a layout extending
it that shows a field itself takes it out of those; a field no region prints is a warning."""

from dataclasses import replace
from types import SimpleNamespace

import pytest
import yaml
from click.testing import CliRunner

from pnp.loading.cardlayout import bundled, card_face, fields_named, load_layout
from pnp.commands.cli import main
from pnp.components import cards as cards_component
from pnp.draw.text import fit
from pnp.errors import Problems
from pnp.loading.gamedata import load_game
from pnp.layout.cards import FaceContent
from pnp.layout.colour import PALE_CONTRAST, contrast, readable, tint, tint_to
from pnp.layout.geometry import Box, Picture, flatten
from pnp.text.markup import plain_text

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
    # badges print them (the icon-key warning may name 'might' for its icon: another matter)
    assert "field 'might': no region" not in result.output and "field 'cost': no region" not in result.output


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


# The art window. A card with art and no rules text gets the tall window (the art down to the flavour
# line), so a third of its face is not left empty; the badges stay where they are on every card, because
# the window a when: leaves out still gives its place to the regions drawn in: it.

ART = SimpleNamespace(path="/game/art/ember.png", fit="cover", focus=(0.5, 0.5))
STATS = (("might", "shield", "3"), ("cost", "coin", "2"))


def plain_card(**changes):
    return replace(FaceContent("Ember", "", 0, "#8a1c1c", "crown", STATS, None, "", "Warm hands."), **changes)


def badges_at(els):
    return [(e.role, round(e.cx, 2), round(e.cy, 2), round(e.size, 2)) for e in els if e.role.startswith("stat:")]


#: The badges down the art window's left edge, 4 mm under its top (67.2 mm) and 8 mm apart.
BADGES = [("stat:might", 10.6, 63.2, 7.2), ("stat:cost", 10.6, 55.2, 7.2)]


def test_art_without_rules_text_fills_the_tall_window_and_the_badges_keep_their_place():
    els = list(flatten(card_face(plain_card(art=ART), 63, 88)))
    (art,) = [e for e in els if isinstance(e, Picture)]
    assert art.role == "art" and art.rect.rounded() == (5.0, 17.6, 53.0, 49.6)
    assert badges_at(els) == BADGES
    assert one(els, "flavour").rect.rounded() == (7.0, 6.6, 49.0, 10.4)        # under the window
    assert not [e for e in els if e.role == "emblem"]                          # the art replaces it


def test_art_with_rules_text_keeps_the_window_above_the_rules_box():
    els = list(flatten(card_face(plain_card(art=ART, ability="Burn [coin]."), 63, 88)))
    (art,) = [e for e in els if isinstance(e, Picture)]
    assert art.rect.rounded() == (5.0, 32.6, 53.0, 34.6)
    assert badges_at(els) == BADGES
    assert one(els, "ability-box").rect.rounded() == (4.6, 13.0, 53.8, 18.6)
    assert one(els, "flavour").rect.rounded() == (6.0, 4.0, 51.0, 8.6)


def test_the_emblem_fills_the_window_it_has_pale_but_seen():
    paper = bundled("classic").palette_dict()["paper"]
    tall = one(list(flatten(card_face(plain_card(), 63, 88))), "emblem")
    # the tall window [5, 17.6, 53, 49.6]: centred 4 mm right of its middle, 0.74 of its height
    assert (tall.name, round(tall.cx, 2), round(tall.cy, 2), round(tall.size, 2)) == ("crown", 35.5, 42.4, 36.7)
    short = one(list(flatten(card_face(plain_card(ability="Burn [coin]."), 63, 88))), "emblem")
    # the window above the rules box [5, 32.6, 53, 34.6]: 5.5 mm right of its middle, 0.78 of its height
    assert (round(short.cx, 2), round(short.cy, 2), round(short.size, 2)) == (37.0, 49.9, 26.99)
    assert tall.colour == short.colour == tint_to("#8a1c1c", paper)
    assert contrast(tall.colour, paper) >= PALE_CONTRAST
    # a watermark takes the window: no emblem under it
    marked = list(flatten(card_face(plain_card(watermark="7"), 63, 88)))
    assert [e.role for e in marked if e.role in ("emblem", "watermark")] == ["watermark"]


@pytest.mark.parametrize("colour,background", [("#8a1c1c", "#f7f0e1"), ("#2f6b3f", "#f7f0e1"),
                                               ("#c9a54a", "#ffffff"), ("#1f1a17", "#f7f0e1")])
def test_tint_to_is_the_palest_tint_that_reaches_the_contrast(colour, background):
    pale = tint_to(colour, background)
    steps = [tint(colour, k / 20) for k in range(21)]
    assert pale in steps and contrast(pale, background) >= PALE_CONTRAST
    paler = steps[steps.index(pale) + 1:]
    assert all(contrast(c, background) < PALE_CONTRAST for c in paler)


def test_tint_to_darkens_a_colour_too_pale_to_reach_it():
    pale = tint_to("#f0e0a0", "#ffffff")          # even untinted it is 1.2:1 on white
    assert contrast("#f0e0a0", "#ffffff") < PALE_CONTRAST <= contrast(pale, "#ffffff")
    assert pale == readable("#f0e0a0", "#ffffff", PALE_CONTRAST)


WINDOW = """\
size: [63, 88]
regions:
  - {name: window, kind: box, rect: [5, 40, 53, 30], fill: "#dddddd", when: art}
  - {name: badges, kind: badges, in: window, x: 9, size: 6, top: 3, step: 7}
  - {name: sign, kind: emblem, in: window, scale: 0.5}
"""


def test_a_region_left_out_by_its_when_still_gives_its_place_to_regions_drawn_in_it():
    problems = Problems()
    layout = load_layout(yaml.safe_load(WINDOW), None, problems, "game.yaml", 1, "layout")
    assert not problems.errors
    els = list(flatten(card_face(plain_card(), 63, 88, 0.0, layout)))
    assert [e for e in els if isinstance(e, Box)] == []                        # the window itself is not drawn
    assert badges_at(els) == [("stat:might", 9.0, 67.0, 6.0), ("stat:cost", 9.0, 60.0, 6.0)]
    sign = one(els, "sign")
    assert (round(sign.cx, 2), round(sign.cy, 2), round(sign.size, 2)) == (31.5, 55.0, 15.0)
    with_art = list(flatten(card_face(plain_card(art=ART), 63, 88, 0.0, layout)))
    assert [e.rect.rounded() for e in with_art if isinstance(e, Box)] == [(5.0, 40.0, 53.0, 30.0)]
    assert badges_at(with_art) == badges_at(els)
