"""Colour for everyone: simulated colour-vision deficiencies and greyscale on the game's faction colours
(pnp validate warns when two come too close with nothing else telling them apart), and ``pnp preview
--vision`` showing a card as such a player sees it."""

import io
import os
import shutil

import pytest
from click.testing import CliRunner
from PIL import Image

from pnp import DATA_DIR
from pnp.commands.cli import main
from pnp.validation.colourvision import TOO_CLOSE, close_pairs, distance, simulate
from pnp.errors import Problems
from pnp.loading.gamedata import load_game
from pnp.validation.colourvision import colour_only_pairs, piece_problems, vision_problems

EMPIRE, REBELS, CHURCH = "#8c1c24", "#2e6a3f", "#a8761a"


def test_the_empire_and_the_rebels_come_close_without_red_and_green():
    assert round(distance(EMPIRE, REBELS), 1) == 45.6
    assert round(distance(EMPIRE, REBELS, "deutan"), 1) == 8.2
    assert round(distance(EMPIRE, REBELS, "protan"), 1) == 18.1
    assert round(distance(EMPIRE, REBELS, "tritan"), 1) == 52.7
    assert round(distance(EMPIRE, REBELS, "grey"), 1) == 6.0
    # the worst of the simulations, for the one pair of the three that comes under the threshold
    assert close_pairs({"empire": EMPIRE, "rebels": REBELS, "church": CHURCH}) == [("empire", "rebels", "grey", 6.0)]
    assert TOO_CLOSE == 10.0


def test_greyscale_keeps_lightness_only():
    r, g, b = simulate((0.55, 0.11, 0.14), "grey")
    assert abs(r - g) < 0.01 and abs(g - b) < 0.01


def test_factions_with_the_same_emblem_and_colours_too_close_are_a_warning(tmp_path):
    root = tmp_path / "shadow_throne"
    shutil.copytree(DATA_DIR / "shadow_throne", root)
    text = (root / "game.yaml").read_text(encoding="utf-8")
    for emblem in ("crown", "sun"):
        text = text.replace(f"emblem: {emblem}}}", "emblem: star}")
    (root / "game.yaml").write_text(text, encoding="utf-8")
    problems = Problems()
    vision_problems(load_game(root), problems)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "id: rebels" in ln)
    assert [(p.path, p.line, p.subject, p.message) for p in problems] == [
        (str(root / "game.yaml"), line, "faction 'rebels'",
         "colour #2e6a3f and faction 'empire''s #8c1c24 come within ΔE 6 of each other for a greyscale print "
         "(under 10), and both show the emblem 'star': give one a colour further apart, or an emblem of its own")]
    assert all(p.warning for p in problems)


@pytest.mark.parametrize("name", ["shadow_throne", "shadow_queen"])
def test_factions_told_apart_by_their_emblems_are_fine(name):
    problems = Problems()
    vision_problems(load_game(name), problems)
    assert not problems


def _pixel(png: bytes, xy):
    return Image.open(io.BytesIO(png)).convert("RGB").getpixel(xy)


@pytest.mark.parametrize("vision", ["deutan", "protan", "tritan", "grey"])
def test_preview_shows_the_card_as_seen_with_that_vision(tmp_path, vision):
    plain, seen = tmp_path / "plain.png", tmp_path / "seen.png"
    runner = CliRunner()
    assert runner.invoke(main, ["preview", "dutiful-peasant", "--out", str(plain)]).exit_code == 0
    result = runner.invoke(main, ["preview", "dutiful-peasant", "--vision", vision, "--out", str(seen)])
    assert result.exit_code == 0, result.output
    a, b = plain.read_bytes(), seen.read_bytes()
    assert Image.open(io.BytesIO(b)).size == Image.open(io.BytesIO(a)).size
    # the Empire's frame, 1 mm inside the card's left edge at mid-height (100 dpi: 4 px)
    xy = (4, Image.open(io.BytesIO(a)).size[1] // 2)
    assert _pixel(a, xy) == (0x8c, 0x1c, 0x24)
    expected = [round(v * 255) for v in simulate([c / 255 for c in _pixel(a, xy)], vision)]
    assert all(abs(u - v) <= 1 for u, v in zip(_pixel(b, xy), expected)), (_pixel(b, xy), expected)


def test_preview_names_the_vision_in_its_default_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["preview", "dutiful-peasant", "--vision", "grey"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"{os.environ['XDG_CACHE_HOME']}/pnp/preview/shadow_throne/dutiful-peasant-grey.png"


# ------------------------------------------------------------------ pieces alike but for their colours

def _valeria_copy(tmp_path):
    root = tmp_path / "shadow_kingdoms_of_valeria"
    shutil.copytree(DATA_DIR / "shadow_kingdoms_of_valeria", root)
    return root


def test_pieces_alike_but_for_colours_a_vision_merges_are_found_and_a_second_cue_clears_them():
    blue, purple, red = "#2d5a9b", "#6b3d8c", "#9b2d2d"

    def marker(colour, **more):
        return {"background": colour, "icon": "crown", "icon_colour": "#ffffff", **more}
    # blue and purple: 1.8 apart in a greyscale print (their pair of colours is the only difference)
    assert colour_only_pairs([("blue", marker(blue)), ("purple", marker(purple))]) == [
        ("blue", "purple", blue, purple, "grey", 1.8)]
    # copies count once; a pattern, a label or another icon is a second cue
    assert colour_only_pairs([("a", marker(blue)), ("b", marker(blue))]) == []
    assert colour_only_pairs([("blue", marker(blue, pattern="ring")), ("purple", marker(purple))]) == []
    assert colour_only_pairs([("blue", marker(blue)), ("purple", {**marker(purple), "icon": "skull"})]) == []
    # a pair of colours any vision keeps apart is fine
    assert colour_only_pairs([("blue", marker(blue)), ("yellow", marker("#f2d64b"))]) == []
    # two colours differ: the one that stays farther apart is the cue left (here the icon's)
    assert colour_only_pairs([("x", marker(blue, icon_colour="#ffffff")),
                              ("y", marker(red, icon_colour="#000000"))]) == []


def test_token_sets_told_apart_by_colour_alone_are_one_warning_per_pair_of_colours(tmp_path):
    root = _valeria_copy(tmp_path)
    path = root / "tokens.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("pattern: dashed_ring, ", ""), encoding="utf-8")    # purple loses its cue
    problems = Problems()
    piece_problems(load_game(root), problems)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "id: conquest-purple" in ln)
    kinds = ("conquest", "score", "gold", "magic", "influence")
    assert [(p.path, p.line, p.subject, p.message, p.warning) for p in problems] == [
        (str(path), line, None,
         f"tokens {', '.join(repr(k + '-purple') for k in kinds)} look like "
         f"{', '.join(repr(k + '-red') for k in kinds)} but for their colour #6b3d8c against #9b2d2d, and the two "
         f"come within ΔE 3.1 of each other for a greyscale print (under 10): give them an icon, a label or a "
         f"pattern of their own, or colours further apart", True)]


def test_standees_alike_but_for_colour_are_a_warning_at_their_component(tmp_path):
    root = _valeria_copy(tmp_path)
    text = (root / "game.yaml").read_text(encoding="utf-8")
    assert "label: \"item.name ~ ' Warden'\"" in text
    (root / "game.yaml").write_text(text.replace("label: \"item.name ~ ' Warden'\"", "label: \"'Warden'\""),
                                    encoding="utf-8")
    problems = Problems()
    piece_problems(load_game(root), problems)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "kind: standee" in ln)
    messages = [(p.line, p.subject, p.message) for p in problems]
    assert (line, "standee 'wardens'", "piece 'warden_blue' looks like 'warden_red' but for its colour #2d5a9b "
            "against #9b2d2d, and the two come within ΔE 1.2 of each other for a greyscale print (under 10): give "
            "it an icon, a label or a pattern of its own, or colours further apart") in messages


@pytest.mark.parametrize("name", ["shadow_throne", "behind_the_throne", "shadow_kingdoms_of_valeria", "shadow_queen"])
def test_the_bundled_games_pieces_have_a_second_cue(name):
    problems = Problems()
    piece_problems(load_game(name), problems)
    assert [p.message for p in problems] == []


def test_a_pattern_is_a_line_inside_the_edge_and_the_icon_keeps_inside_it():
    from pnp.layout.geometry import Box, Circle, Icon, Polygon
    from pnp.layout.tokens import pattern_elements, token_face
    from pnp.loading.tokendata import Face

    ring, = pattern_elements("ring", "circle", 13, "#ffffff")
    assert isinstance(ring, Circle) and (ring.cx, ring.cy, round(ring.r, 2), ring.width, ring.dash) == \
        (6.5, 6.5, 5.05, 0.5, None)
    outer, inner = pattern_elements("double_ring", "circle", 13, "#ffffff")
    assert (round(outer.r, 2), round(inner.r, 2), round(inner.width, 2)) == (5.05, 4.2, 0.35)
    dashed, = pattern_elements("dashed_ring", "rounded", 13, "#ffffff")
    assert isinstance(dashed, Box) and dashed.dash == (1.6, 1.0)
    assert (round(dashed.rect.x, 2), round(dashed.rect.w, 2)) == (1.45, 10.1)
    hexagon, = pattern_elements("dotted_ring", "hexagon", 13 * 2 / 3 ** 0.5, "#ffffff")
    assert isinstance(hexagon, Polygon) and hexagon.dash == (0.5, 0.75)
    assert pattern_elements("none", "circle", 13, "#ffffff") == [] == pattern_elements(None, "circle", 13, "#fff")
    # on a 10 mm marker the icon shrinks from 7 mm to stay 0.3 mm inside the ring's ink (1.6 x its room)
    plain = Face("#2d5a9b", "crown", "#ffffff", None, None)
    ringed = Face("#2d5a9b", "crown", "#ffffff", None, None, pattern="ring")
    size = lambda face: next(e.size for e in token_face(face, "circle", 10, 1, None, None) if isinstance(e, Icon))
    assert (round(size(plain), 2), round(size(ringed), 2)) == (7.0, 4.8)


def test_a_pattern_on_an_outline_token_is_an_error(tmp_path):
    root = tmp_path / "g"
    shutil.copytree(DATA_DIR / "shadow_kingdoms_of_valeria", root)
    path = root / "tokens.yaml"
    text = path.read_text(encoding="utf-8")
    (root / "shape.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
                                    '<circle cx="5" cy="5" r="5"/></svg>', encoding="utf-8")
    text = text.replace("- {id: conquest-blue, kind: conquest_marker, count: 10, shape: circle,",
                        "- {id: conquest-blue, kind: conquest_marker, count: 10, shape: outline, outline: shape.svg,")
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(root)])
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "id: conquest-blue" in ln) + 1
    assert result.exit_code == 2
    assert (f"tokens.yaml:{line}: token 'conquest-blue': front.pattern: a pattern follows the token's edge, which "
            f"a shape 'outline' token does not have: use an icon or a caption as the second cue") in result.output
