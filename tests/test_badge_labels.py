"""A badge's number stays readable on any icon: measured on the printed pixels.

Each case draws a badge (an icon with a number) on a backdrop, and the same badge without its number;
the pixels that differ are the number (and its outline, when it has one). The number's colour is then
measured against the pixels just around its glyphs: at least 4.5:1 (WCAG AA) on nearly all of them,
whatever the icon (filled, light, of several colours, only an outline) and whatever it lies on."""

import math
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageFilter

from pnp.draw.icons import COIN_DIGITS, ICONS, using
from pnp.draw.labels import INK, WHITE
from pnp.loading.icons import IconSet
from pnp.layout.colour import contrast
from pnp.layout.geometry import Box, Icon, Page, Rect
from pnp.units import MM_PER_INCH

from rasterize import raster

DPI = 1200
STARFALL = Path(__file__).parent / "games" / "starfall"
WAVE = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24">'
        '<path d="M2 14 C6 8 10 8 12 14 C14 20 18 20 22 14" fill="none" stroke="#1f5f8b" stroke-width="2.5"/></svg>')
BACKDROPS = ("#f7f0e1", "#1d2340", "#808080")
SIZE = 7.2          # the classic layout's badge, mm


def hexcolour(rgb):
    return "#%02x%02x%02x" % rgb[:3]


def near(a, b, tolerance=40):
    return sum(abs(x - y) for x, y in zip(a, b)) <= tolerance


def badge(name, label, backdrop, colour=None):
    """(with the number, without it) rasterized, the badge centred on a 12 mm square of ``backdrop``."""
    def page(text):
        return Page(12, 12, [Box(Rect(0, 0, 12, 12), fill=backdrop), Icon(name, 6, 6, SIZE, colour, text)])
    return raster([page(label), page(None)], DPI)


#: The colours a number may be printed in: white, the ink, the coin's digits' brown.
INKS = (WHITE, INK, COIN_DIGITS)


def measure(name, label, backdrop, colour=None):
    """(the number's colour, the share of the pixels around its glyphs at 4.5:1 or more, the glyphs'
    pixels as (x, y) in mm from the badge's centre). The number's colour is the one of :data:`INKS`
    among the pixels that differ whose glyphs stand out best (with an outline, the outline's colour
    surrounds the number, and the number only partly surrounds the outline)."""
    shown, bare = badge(name, label, backdrop, colour)
    r, g, b = ImageChops.difference(shown, bare).split()
    changed = ImageChops.lighter(ImageChops.lighter(r, g), b).point(lambda v: 255 if v > 16 else 0)
    # where the number is: what changed, its holes closed (a glyph over a part of the icon in its own
    # colour does not change those pixels)
    area = _points(changed.filter(ImageFilter.MaxFilter(9)).filter(ImageFilter.MinFilter(9)))
    changed = _points(changed)
    best = None
    for fill in INKS:
        glyphs = Image.new("L", shown.size, 0)
        for xy in area:
            if near(shown.getpixel(xy), _rgb(fill)):
                glyphs.putpixel(xy, 255)
        if len(_points(glyphs)) < 0.05 * len(changed):
            continue
        # the ring just around the glyphs, past their anti-aliased edge pixel
        inner = glyphs.filter(ImageFilter.MaxFilter(3))
        outer = inner.filter(ImageFilter.MaxFilter(5))
        ring = [shown.getpixel(xy) for xy in _points(ImageChops.subtract(outer, inner))]
        good = sum(1 for rgb in ring if contrast(fill, hexcolour(rgb)) >= 4.5) / len(ring)
        if best is None or good > best[1]:
            best = (fill, good, glyphs)
    fill, good, glyphs = best
    mm = MM_PER_INCH / DPI
    centre = shown.width / 2
    spots = [((x - centre) * mm, (centre - y) * mm) for x, y in _points(glyphs)]
    return fill, good, spots


def _rgb(colour):
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def _points(mask):
    box = mask.getbbox()
    if box is None:
        return []
    x0, y0, x1, y1 = box
    data = list(mask.crop(box).tobytes())
    w = x1 - x0
    return [(x0 + i % w, y0 + i // w) for i, v in enumerate(data) if v]


@pytest.mark.parametrize("name", sorted(set(ICONS) - {"pip", "plus"}))     # plus prints +1 when given none
def test_numbers_on_built_in_icons_are_readable_in_their_own_colour(name):
    fill, good, _ = measure(name, "8", BACKDROPS[0])
    designed = {"coin": COIN_DIGITS, "skull": INK, "cycle": INK, "tick_box": INK}.get(name, WHITE)
    assert fill == designed and good >= 0.95, (name, fill, good)


@pytest.mark.parametrize("backdrop", BACKDROPS)
def test_a_number_on_an_outline_icon_gets_an_outline(tmp_path, backdrop):
    path = tmp_path / "wave.svg"
    path.write_text(WAVE)
    with using(IconSet(files=(("wave", str(path), 1.0),))):
        fill, good, _ = measure("wave", "2", backdrop)
    assert fill in (WHITE, INK) and good >= 0.95, (fill, good)


@pytest.mark.parametrize("backdrop", BACKDROPS)
def test_a_number_on_a_two_colour_icon_is_readable(backdrop):
    # starfall's ember: orange outside, yellow inside; a white number used to vanish on the yellow
    with using(IconSet(files=(("ember", str(STARFALL / "icons" / "ember.svg"), 20 / 24),))):
        fill, good, _ = measure("ember", "3", backdrop)
    assert good >= 0.95, (fill, good)


def test_a_light_icon_gets_a_dark_number():
    fill, good, _ = measure("circle", "5", BACKDROPS[0], colour="#f3e6a0")
    assert fill == INK and good >= 0.95


@pytest.mark.parametrize("label", ["+2", "\u22123", "\u22125", "+1", "10"])
def test_a_signed_number_stays_inside_the_coins_inner_ring(label):
    fill, good, spots = measure("coin", label, BACKDROPS[0])
    assert fill == COIN_DIGITS and good >= 0.95
    # the coin's inner ring: radius 0.36 x size, stroke 0.025 x size (pnp.draw.icons.coin)
    inner = SIZE * (0.36 - 0.0125)
    assert max(math.hypot(x, y) for x, y in spots) <= inner + 0.03, label


def test_an_svg_icon_changed_in_place_is_measured_again_without_clearing(tmp_path):
    """Label inks are kept for the life of the process under the icon's content (``pnp watch`` keeps them
    from one rebuild to the next): the same path with other bytes is measured afresh."""
    import os

    path = tmp_path / "disc.svg"
    light = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24">'
             '<circle cx="12" cy="12" r="11" fill="{}"/></svg>')
    path.write_text(light.format("#f3e6a0"))
    with using(IconSet(files=(("disc", str(path), 1.0),))):
        first, good, _ = measure("disc", "4", BACKDROPS[0])
        assert first == INK and good >= 0.95
        path.write_text(light.format("#1d2340"))
        os.utime(path, ns=(1, 1))            # an old stamp: the bytes, not the clock, tell the change
        second, good, _ = measure("disc", "4", BACKDROPS[0])
    assert second == WHITE and good >= 0.95
