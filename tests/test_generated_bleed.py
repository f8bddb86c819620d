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

from pnp.cli import main
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
    image, (gx, gy), size = grown_image(str(path), (2.0, 2.0, 10.0, 14.0), "fill", (0.5, 0.5), 2.0, mode)
    grown = np.asarray(image)
    assert (gx, gy) == (2, 2) and size == (10, 14) and grown.shape == (18, 14, 3)
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
