"""The ring a badge's number is read against (pnp.draw.labels.surround) is grown from the glyphs by a
doubling dilation; these tests hold it to the pixels of the step-by-step one it replaced (``reach``
passes of a 3 x 3 MaxFilter), so every label keeps the ink it had."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageFilter

from pnp.cache import memo
from pnp.components import BuildOptions
from pnp.draw import labels
from pnp.draw.labels import OUTLINE, SCALE, _NOT_RING, _THRESHOLD, dilated, glyph_mask


def stepwise(mask, reach):
    """The dilation as it was: one 3 x 3 maximum a pixel of reach."""
    for _ in range(reach):
        mask = mask.filter(ImageFilter.MaxFilter(3))
    return mask


def stepwise_surround(raster, text, font_file, cx, cy, fs):
    """pnp.draw.labels.surround before the doubling dilation, line for line but that."""
    mask = glyph_mask(text, font_file, cx, cy, fs, *raster.size).point(lambda v: 255 if v >= 128 else 0)
    glyphs = mask.getbbox()
    if glyphs is None:
        return Counter()
    reach = max(1, round(OUTLINE * fs * SCALE))
    box = (max(0, glyphs[0] - reach - 1), max(0, glyphs[1] - reach - 1), min(mask.width, glyphs[2] + reach + 1),
           min(mask.height, glyphs[3] + reach + 1))
    mask = mask.crop(box)
    ring = ImageChops.subtract(stepwise(mask, reach), mask)
    outside = Image.new("RGBA", ring.size, _NOT_RING)
    colours = Image.composite(raster.crop(box), outside, ring).getcolors(ring.width * ring.height) or []
    out = Counter()
    for n, (r, g, b, a) in colours:
        if (r, g, b, a) != _NOT_RING:
            out[f"#{r:02x}{g:02x}{b:02x}" if a >= 192 else None] += n
    return out


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40), st.integers(1, 40), st.integers(1, 18),
       st.lists(st.tuples(st.integers(-5, 45), st.integers(-5, 45)), max_size=12), st.booleans())
def test_the_dilation_is_the_stepwise_one(width, height, reach, dots, grey):
    # any mask (dots anywhere, on the edges too, two-level or grey), any reach: the same pixels
    mask = Image.new("L", (width, height), 0)
    for i, (x, y) in enumerate(dots):
        if 0 <= x < width and 0 <= y < height:
            mask.putpixel((x, y), 255 if not grey else 40 + 37 * i % 215)
    assert dilated(mask, reach).tobytes() == stepwise(mask, reach).tobytes()


@pytest.mark.parametrize("text,fs", [("8", 40.0), ("+2", 31.0), ("\u221210", 22.5), ("1", 7.0)])
def test_a_real_glyph_mask_dilates_the_same(text, fs):
    mask = glyph_mask(text, "Lato-Bold.ttf", 3.0, -1.0, fs, 288, 288).point(_THRESHOLD)
    reach = max(1, round(OUTLINE * fs * SCALE))
    assert dilated(mask, reach).tobytes() == stepwise(mask, reach).tobytes()
    # and with the glyphs touching the image's edges
    x0, y0, x1, y1 = mask.getbbox()
    edge = mask.crop((x0 + 2, y0 + 1, x1, y1 - 1))
    assert dilated(edge, reach).tobytes() == stepwise(edge, reach).tobytes()


@pytest.mark.slow
@pytest.mark.parametrize("game,lang,least", [("shadow_throne", None, 40), ("shadow_throne", "es", 40),
                                             ("behind_the_throne", None, 5), ("shadow_kingdoms_of_valeria", None, 15),
                                             ("shadow_queen", None, 0)])     # Shadow Queen prints no number on an icon
def test_every_label_of_a_bundled_game_has_the_stepwise_ring(game, lang, least, tmp_path, monkeypatch):
    """Every ring a kit's build measures (cards, tokens, dice, the rulebook's figures) counts the same
    colours as the stepwise dilation's, so every label gets the same ink."""
    from pnp.build.kit import build_kit

    seen = []
    new = labels.surround

    def both(raster, text, font_file, cx, cy, fs):
        ring = new(raster, text, font_file, cx, cy, fs)
        assert ring == stepwise_surround(raster, text, font_file, cx, cy, fs), (game, text, font_file, cx, cy, fs)
        seen.append(text)
        return ring

    monkeypatch.setattr(labels, "surround", both)
    memo.clear()                     # nothing drawn or measured earlier in this process: every label now
    labels._INKS.clear()
    labels._RASTERS.clear()
    try:
        build_kit(game, tmp_path, BuildOptions(lang=lang))
    finally:
        memo.clear()
        labels._INKS.clear()
    assert len(seen) >= least, seen           # the rings measured (53, 53, 9, 23 and 0 when this was written)
