"""Generated bleed (``back: {bleed: extend | mirror}``): a back picture made to the card's trim fills the
trim exactly and its bleed is made from its edge pixels, repeated or mirrored; with a bleed and no such
setting, a picture with the card's own proportions is a warning; an SVG cannot ask for it."""

import io
import shutil
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

from pnp.commands.cli import main
from pnp.components import BuildOptions
from pnp.components.cards import back_elements, check
from pnp.draw.pictures import grown_image
from pnp.errors import Problems
from pnp.loading.gamedata import load_game

STARFALL = Path(__file__).parent / "games" / "starfall"
BACK_LINE = "    back: {by: kind, images: {bright: art/back-bright.png}, labels: {dim: Dim stars}}"


def _starfall(tmp_path, back=BACK_LINE):
    root = tmp_path / "starfall"
    shutil.copytree(STARFALL, root)
    text = (root / "game.yaml").read_text(encoding="utf-8")
    assert BACK_LINE in text
    (root / "game.yaml").write_text(text.replace(BACK_LINE, back), encoding="utf-8")
    return root


@pytest.mark.parametrize("mode", ["extend", "mirror"])
def test_the_band_round_the_picture_is_made_of_its_edges(tmp_path, mode):
    rng = np.random.default_rng(7)
    pixels = rng.integers(0, 255, (14, 10, 3), dtype=np.uint8)
    path = tmp_path / "art.png"
    Image.fromarray(pixels, "RGB").save(path)
    # the inner box 10 x 14 units shows the whole picture (fill); 2 units more round it: 2 pixels a side
    image, pads, size = grown_image(str(path), (2.0, 2.0, 10.0, 14.0), "fill", (0.5, 0.5), 2.0, mode)
    grown = np.asarray(image)
    assert pads == (2, 2, 2, 2) and size == (10, 14) and grown.shape == (18, 14, 3)
    assert (grown[2:-2, 2:-2] == pixels).all()                  # the picture itself, untouched
    if mode == "extend":
        assert (grown[2:-2, 0] == pixels[:, 0]).all() and (grown[2:-2, 1] == pixels[:, 0]).all()
        assert (grown[0, 2:-2] == pixels[0]).all() and (grown[-1, 2:-2] == pixels[-1]).all()
    else:
        assert (grown[2:-2, 1] == pixels[:, 0]).all() and (grown[2:-2, 0] == pixels[:, 1]).all()
        assert (grown[-1, 2:-2] == pixels[-2]).all()


def test_a_back_made_to_the_trim_fills_it_and_grows_into_the_bleed(tmp_path):
    game = load_game(_starfall(tmp_path, BACK_LINE[:-2] + "}, bleed: extend}"))
    deck = game.deck("stars")
    bright = next(c for c in deck.cards if c.stats.get("kind") == "bright")
    (picture,) = back_elements(game, deck, 3.0, bright)
    assert picture.rect.rounded() == (-3.0, -3.0, 69.0, 94.0)
    assert (picture.grow, picture.grow_mode) == (3.0, "extend")
    (plain,) = back_elements(game, deck, 0.0, bright)
    assert plain.grow == 0.0


def _preview(root, tmp_path, name):
    out = tmp_path / f"{name}.png"
    result = CliRunner().invoke(main, ["preview", "stars:back-bright", str(root), "--bleed", "3", "--dpi", "150",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    return np.asarray(Image.open(out).convert("RGB")).astype(int)


def test_the_printed_back_repeats_its_edge_pixels_into_the_bleed(tmp_path):
    seen = _preview(_starfall(tmp_path, BACK_LINE[:-2] + "}, bleed: extend}"), tmp_path, "extend")
    b = round(3 / 25.4 * 150)                                   # the bleed: 18 px at 150 dpi
    h = seen.shape[0]
    for row in range(b + 5, h - b - 5, 37):
        edge = seen[row, b + 1]
        # every pixel of the band left of the trim is the picture's first column (rasterizing blurs 1 px)
        assert np.abs(seen[row, 1:b - 1] - edge).max() <= 24, row
    # the picture is drawn whole inside the trim: its outermost ring (gold on the dark sky) touches the
    # trim's left edge, where a picture stretched over the bleed would have it cut off
    assert seen[:, b:b + 4, 0].max() > 150


def test_a_back_with_the_cards_proportions_and_no_setting_is_a_warning_with_a_bleed(tmp_path):
    root = _starfall(tmp_path)
    problems = Problems()
    check(load_game(root), problems, BuildOptions(bleed=3.0))
    found = [p for p in problems if p.subject == "deck 'stars' back"]
    assert [(p.path, p.line, p.warning, p.message) for p in found] == [
        (str(root / "game.yaml"), 34, True,
         "back-bright.png (300 x 420 px) has the proportions of the 63 x 88 mm card, so it ends at the trim: drawn "
         "over the 3 mm bleed it loses about 3 mm at every edge; give it bleed: extend (or mirror) to make the "
         "bleed from its edges")]
    quiet = Problems()
    check(load_game(root), quiet, BuildOptions(bleed=0.0))
    assert not [p for p in quiet if p.subject == "deck 'stars' back"]
    settled = Problems()
    check(load_game(_starfall(tmp_path / "b", BACK_LINE[:-2] + "}, bleed: mirror}")), settled, BuildOptions(bleed=3.0))
    assert not [p for p in settled if p.subject == "deck 'stars' back"]


def test_an_svg_back_cannot_ask_for_a_generated_bleed(tmp_path):
    root = _starfall(tmp_path, "    back: {image: icons/comet.svg, bleed: extend}")
    assert (root / "icons" / "comet.svg").is_file()
    result = CliRunner().invoke(main, ["validate", str(root)])
    assert result.exit_code == 2
    assert ("game.yaml:34: deck 'stars': back.bleed: extend makes a bleed from a PNG or JPEG picture's edge pixels; "
            "an SVG back can be drawn past the trim itself (leave bleed out)") in result.output


def test_only_the_sides_asked_for_grow():
    rng = np.random.default_rng(3)
    pixels = rng.integers(0, 255, (10, 8, 3), dtype=np.uint8)
    buf = io.BytesIO()
    Image.fromarray(pixels, "RGB").save(buf, format="PNG")
    image, pads, size = grown_image(io.BytesIO(buf.getvalue()), (0.0, 0.0, 8.0, 10.0), "fill", (0.5, 0.5),
                                    (2.0, 0.0, 0.0, 3.0), "mirror")
    grown = np.asarray(image)
    # left 2 px and top 3 px; the bottom and right edges stay where the picture ends
    assert pads == (2, 0, 0, 3) and size == (8, 10) and grown.shape == (13, 10, 3)
    assert (grown[3:, 2:] == pixels).all()
    assert (grown[3:, 1] == pixels[:, 0]).all() and (grown[3:, 0] == pixels[:, 1]).all()
    assert (grown[2, 2:] == pixels[0]).all() and (grown[0, 2:] == pixels[2]).all()


# ----------------------------------------------------------------------------- card art made to the trim

#: A layout whose art fills the card's top half: it reaches the trim on the left, the right and the top.
POSTER = """extends: starfall
regions:
  - {name: art, rect: [0, 44, 63, 44], when: art}
  - {name: art-tall, kind: art, rect: [5.0, 17.6, 53, 49.6], when: "false"}
"""
SKY = (756, 528)          # 12 px a millimetre over the 63 x 44 mm area (305 dpi)


def _poster(tmp_path, card_keys="art_fit: fill", deck_keys=""):
    """Starfall with its 'lantern' star drawn by the poster layout, its art a picture whose red rises from
    left to right and green from top to bottom (so extended and mirrored bands tell apart)."""
    root = _starfall(tmp_path, BACK_LINE + deck_keys)
    (root / "templates" / "layouts" / "poster.yaml").write_text(POSTER, encoding="utf-8")
    game = (root / "game.yaml").read_text(encoding="utf-8")
    game = game.replace("layouts: {dim: {extends: starfall,", "layouts: {bright: poster, dim: {extends: starfall,")
    (root / "game.yaml").write_text(game, encoding="utf-8")
    x = np.linspace(20, 240, SKY[0]).astype(np.uint8)
    y = np.linspace(30, 220, SKY[1]).astype(np.uint8)
    pixels = np.zeros((SKY[1], SKY[0], 3), dtype=np.uint8)
    pixels[:, :, 0] = x[None, :]
    pixels[:, :, 1] = y[:, None]
    pixels[:, :, 2] = 90
    Image.fromarray(pixels, "RGB").save(root / "art" / "sky.png")
    stars = (root / "stars.yaml").read_text(encoding="utf-8")
    old = "art: art/nebula.png, art_fit: cover, art_focus: [0.7, 0.4],"
    assert old in stars
    (root / "stars.yaml").write_text(stars.replace(old, f"art: art/sky.png, {card_keys},"), encoding="utf-8")
    return root


def _art_of(game, bleed):
    from pnp.components.cards import laid_out_face
    from pnp.layout.geometry import Picture, flatten

    deck = game.deck("stars")
    face = laid_out_face(game, deck, game.card("lantern"), None, "", (deck.width, deck.height), bleed)
    (art,) = [e for e in flatten(face) if isinstance(e, Picture) and e.path.endswith("sky.png")]
    return art


@pytest.mark.parametrize("keys, deck_keys, mode", [("art_fit: fill, art_bleed: mirror", "", "mirror"),
                                                    ("art_fit: fill", "\n    bleed: extend", "extend"),
                                                    ("art_fit: fill, art_bleed: mirror", "\n    bleed: extend",
                                                     "mirror")])
def test_art_at_the_trim_grows_into_the_bleed_on_those_sides_only(tmp_path, keys, deck_keys, mode):
    game = load_game(_poster(tmp_path, keys, deck_keys))
    art = _art_of(game, 3.0)
    # the area [0, 44, 63, 44] runs 3 mm past the left, right and top trim; not down into the card
    assert art.rect.rounded() == (-3.0, 44.0, 69.0, 47.0)
    assert (art.grow, art.grow_mode) == ((3.0, 0.0, 3.0, 3.0), mode)
    plain = _art_of(game, 0.0)
    assert plain.rect.rounded() == (0.0, 44.0, 63.0, 44.0) and plain.grow == 0.0


def _band(root, tmp_path):
    """The lantern's face with a 3 mm bleed at 254 dpi (10 px a millimetre): the trim starts 30 px in."""
    out = tmp_path / "lantern.png"
    result = CliRunner().invoke(main, ["preview", "lantern", str(root), "--bleed", "3", "--dpi", "254",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    return np.asarray(Image.open(out).convert("RGB")).astype(int)


@pytest.mark.parametrize("mode", ["extend", "mirror"])
def test_the_printed_bleed_band_is_the_arts_edge_extended_or_mirrored(tmp_path, mode):
    seen = _band(_poster(tmp_path, f"art_fit: fill, art_bleed: {mode}"), tmp_path)
    assert seen.shape == (940, 690, 3)                          # (88 + 6) x (63 + 6) mm
    b = 30
    rows = range(b + 20, b + 400, 23)                           # inside the art's height (top half)
    for row in rows:
        for d in (3, 10, 20, 27):                              # pixels out into the left band
            out, inside = seen[row, b - 1 - d], seen[row, b + d]
            edge = seen[row, b + 1]
            if mode == "extend":
                assert np.abs(out - edge).max() <= 6, (row, d, out, edge)
            else:                                               # the picture mirrored at the trim
                assert np.abs(out - inside).max() <= 6, (row, d, out, inside)
    # the top band: green rises downwards in the picture, so mirrored it falls again above the trim
    col = b + 300
    top_edge, above, below = seen[b + 1, col], seen[b - 25, col], seen[b + 24, col]
    if mode == "extend":
        assert np.abs(above - top_edge).max() <= 6
    else:
        assert np.abs(above - below).max() <= 6 and below[1] - top_edge[1] > 8
    # the art stops at the middle of the card: under it the card's panel, not art, and no band
    assert np.abs(seen[b + 450, b + 300] - seen[b + 1, b + 300]).max() > 30


def test_art_ending_at_the_trim_without_a_setting_is_a_warning_with_a_bleed(tmp_path):
    root = _poster(tmp_path)
    problems = Problems()
    check(load_game(root), problems, BuildOptions(bleed=3.0))
    found = [(p.path, p.line, p.warning, p.message) for p in problems if p.subject == "card 'lantern'"]
    assert found == [
        (str(root / "stars.yaml"), 3, True,
         "art sky.png ends at the trim (left, right and top edges): the 3 mm bleed there prints without it; give "
         "the card art_bleed: extend (or mirror), or its deck bleed: extend, to make the bleed from the "
         "picture's edges")]
    quiet = Problems()
    check(load_game(root), quiet, BuildOptions(bleed=0.0))
    assert not [p for p in quiet if p.subject == "card 'lantern'"]
    for keys, deck_keys in (("art_fit: fill, art_bleed: extend", ""), ("art_fit: fill", "\n    bleed: mirror")):
        settled = Problems()
        check(load_game(_poster(tmp_path / deck_keys.strip()[-6:] / keys[-6:], keys, deck_keys)), settled,
              BuildOptions(bleed=3.0))
        assert not [p for p in settled if p.subject == "card 'lantern'"]
    # the classic art window is inside the trim: no warning for the bundled look
    classic = Problems()
    check(load_game(_starfall(tmp_path / "classic")), classic, BuildOptions(bleed=3.0))
    assert not [p for p in classic if (p.subject or "").startswith("card '") and "ends at the trim" in p.message]


@pytest.mark.parametrize("keys, message", [
    ("art_fit: fill, art_bleed: stretch",
     "art_bleed: 'stretch' is not one of: extend, mirror"),
    ("art_fit: contain, art_bleed: extend",
     "art_bleed: extend makes a bleed from the edges of art that fills its area; art_fit: contain shows the whole "
     "picture inside it (use cover or fill)"),
])
def test_art_bleed_mistakes_are_errors_at_their_line(tmp_path, keys, message):
    root = _poster(tmp_path, keys)
    result = CliRunner().invoke(main, ["validate", str(root)])
    assert result.exit_code == 2
    assert f"stars.yaml:3: card 'lantern': {message}" in result.output, result.output


def test_an_svg_cards_art_cannot_ask_for_a_generated_bleed(tmp_path):
    root = _starfall(tmp_path)
    stars = (root / "stars.yaml").read_text(encoding="utf-8")
    old = "art: art/moon.svg,"
    assert old in stars
    (root / "stars.yaml").write_text(stars.replace(old, "art: art/moon.svg, art_bleed: mirror,"), encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(root)])
    assert result.exit_code == 2
    assert ("stars.yaml:8: card 'pale-moon': art_bleed: mirror makes a bleed from a PNG or JPEG picture's edge "
            "pixels; an SVG can be drawn past the trim itself (leave art_bleed out)") in result.output, result.output


def test_generated_bleed_is_the_same_bytes_every_time(tmp_path):
    root = _poster(tmp_path, "art_fit: fill, art_bleed: mirror")
    runs = []
    for n in (1, 2):
        out = tmp_path / f"run{n}.png"
        result = CliRunner().invoke(main, ["preview", "lantern", str(root), "--bleed", "3", "--dpi", "100",
                                           "--out", str(out)])
        assert result.exit_code == 0, result.output
        runs.append(out.read_bytes())
    assert runs[0] == runs[1]


def test_cmyk_art_keeps_its_colours_in_cmyk(tmp_path):
    # a print service's PDF/X file takes no RGB image: a CMYK picture's generated bleed stays CMYK
    path = tmp_path / "art.jpg"
    Image.new("CMYK", (40, 30), (10, 200, 30, 5)).save(path, quality=100)
    image, pads, _ = grown_image(str(path), (0.0, 0.0, 40.0, 30.0), "fill", (0.5, 0.5), (4.0, 0.0, 0.0, 0.0),
                                 "extend")
    assert image.mode == "CMYK" and pads == (4, 0, 0, 0)
    grown = np.asarray(image).astype(int)
    assert np.abs(grown[:, :4] - grown[:, 4:5]).max() == 0
    assert np.abs(grown[10, 10] - (10, 200, 30, 5)).max() <= 3
