"""Numbers printed on icons (a badge's value, ``[wave:2]`` in text), readable on any icon.

An icon says which colour its label is printed in (white on the built-in shapes, dark brown on the
coin). That is right for a dark, filled icon, and wrong for a game's own SVG icon that is light, of
several colours, or only an outline: the number then vanishes. So the colours around the label's
glyphs are measured: the icon is rasterized once (per shape and colour, pypdfium2), the label's glyphs
are rasterized where :func:`pnp.draw.icons._label` puts them (Pillow, the same font file), and the
pixels of a thin ring around the glyphs are what the number is read against.

:func:`label_ink` keeps the icon's colour when it reaches :data:`LABEL_CONTRAST` against that ring,
else tries white and the ink; when neither does, or the ring is not all icon (an outline icon: what
shows through is the card, the art, anything), the number gets an outline in the other of the two,
which separates it from whatever lies under it.
"""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from pnp import FONTS_DIR
from pnp.cache.buildcache import FileDigests
from pnp.layout.colour import contrast

#: The contrast a badge's number needs with what surrounds its glyphs (WCAG AA for text).
LABEL_CONTRAST = 4.5
WHITE, INK = "#ffffff", "#1f1a17"
#: The outline's width either side of the glyphs' edges, as a fraction of the font size.
OUTLINE = 0.16
#: Share of the ring's pixels that may miss the contrast (the icon's own fine lines and anti-aliased edges:
#: strokes) or show what is under the icon, before the colour counts as unreadable.
SLACK = 0.05
#: The size the icon and the glyphs are rasterized at (points) and the pixels per point.
CANON = 96.0
SCALE = 1.5


@dataclass(frozen=True)
class LabelInk:
    """How a label is printed: its font size ``fs`` (points), ``fill`` colour and, when the icon alone
    cannot carry it, an ``outline`` colour (drawn :data:`OUTLINE` x the font size wide around the
    glyphs)."""

    fs: float
    fill: str
    outline: str | None = None


#: A label that crosses a line of its icon (a coin's inner ring) is set smaller, in these steps, down
#: to this share of its size (never under the smallest printed text), before its colour changes.
SHRINK_STEP, SHRINK_LIMIT = 0.94, 0.7


def label_ink(icon_key: tuple, draw_icon, text: str, font_file: str, lcx: float, lcy: float, fs: float,
              size: float, designed: str, min_fs: float) -> LabelInk:
    """How to print ``text`` (``fs`` points, in the colour the icon asks for, ``designed``) centred on
    (``lcx``, ``lcy``) points from the centre of an icon ``size`` points across, so that it is readable
    there: the designed colour, set smaller if that is enough (down to ``min_fs``), else white or the
    ink, else with an outline. ``draw_icon(canvas, cx, cy, size)`` draws the icon without a label;
    ``icon_key`` names the shape and colour it draws (it is rasterized once per key).

    The answer is kept by a key of everything it depends on (:func:`_content_key`, the text, the font
    file, the places and sizes at the canonical scale; pnp's own code drew the rest): in memory for the
    life of the process and, during a build with the build cache, in the cache folder (:func:`_stored`),
    so a new process measures only the labels it has never seen. What is kept is how much the label
    shrinks and its colours: the font size is worked out from ``fs`` at each call, so the same label on an
    icon of another size gets its own size."""
    k = CANON / size
    icon_key = _content_key(icon_key)
    key = (icon_key, text, font_file, round(lcx * k, 2), round(lcy * k, 2), round(fs * k, 2), designed,
           round(min_fs * k, 2))
    found = _INKS.get(key)
    if found is None:
        stored = _stored()
        name = repr(key)
        held = stored.get(name) if stored is not None else None
        found = _ink_from_json(held) if held is not None else None
        if found is None:
            found = _measure(icon_key, draw_icon, text, font_file, key)
            if stored is not None:
                stored.add(name, found)
        if len(_INKS) >= 16 * MAX_KEPT:
            _INKS.clear()
        _INKS[key] = found
    shrink, fill, outline = found
    return LabelInk(fs * shrink, fill, outline)


def _measure(icon_key, draw_icon, text, font_file, key) -> tuple:
    """(shrink, fill, outline) of a label (see :func:`label_ink`): its font size is ``fs * shrink``."""
    if icon_key not in _RASTERS:
        if len(_RASTERS) >= MAX_KEPT:
            _RASTERS.clear()
        _RASTERS[icon_key] = icon_raster(draw_icon)
    raster = _RASTERS[icon_key]
    _, _, cx, cy, f0, designed, floor = key[1:]
    shrink = 1.0
    while f0 * shrink >= max(floor, SHRINK_LIMIT * f0) - 1e-9:
        if readable(designed, surround(raster, text, font_file, cx, cy, f0 * shrink)):
            return shrink, designed, None
        shrink *= SHRINK_STEP
    ink = choose(surround(raster, text, font_file, cx, cy, f0), designed, 1.0)
    return 1.0, ink.fill, ink.outline


def _content_key(icon_key: tuple) -> tuple:
    """``icon_key`` (``("builtin", name, colour)``: drawn by pnp's own code; ``("svg", path, colour)``: a
    game's SVG file) as what its raster depends on: an SVG named by its bytes, not its path (the same
    drawing anywhere is the same shape, and the cache folder names no folder of the machine). Rasters and
    inks are then kept under keys of their content (``pnp watch`` and the studio measure a label again
    only when its icon changed, not at every rebuild)."""
    if icon_key and icon_key[0] == "svg":
        return ("svg bytes", _FILES(icon_key[1]), *icon_key[2:])
    return icon_key


#: Icon rasters kept (and 16 times as many inks) before the memos start again.
MAX_KEPT = 256
#: Rasters of icons and the inks measured on them, keyed by content (:func:`_content_key`).
_RASTERS: dict = {}
_INKS: dict = {}
_FILES = FileDigests()


class _StoredInks:
    """The label inks the build cache holds (one entry per installation of pnp: its key is the code's),
    and those measured in this build, which :meth:`pnp.cache.buildcache.BuildCache.store` writes with it."""

    def __init__(self, cache):
        from pnp.cache.buildcache import code_digest, digest

        self.cache, self.key = cache, digest("label inks", code_digest())
        found = cache.get(self.key)
        inks = found[0].get("inks") if found is not None else None
        self.inks = inks if isinstance(inks, dict) and len(inks) <= 16 * MAX_KEPT else {}

    def get(self, name: str):
        return self.inks.get(name)

    def add(self, name: str, ink: tuple) -> None:
        if len(self.inks) >= 16 * MAX_KEPT:
            self.inks = {}
        self.inks[name] = list(ink)
        self.cache.put(self.key, {"kind": "label inks", "inks": self.inks}, [])


def _stored() -> _StoredInks | None:
    """The label inks of the running build's cache (None without one)."""
    from pnp.cache.buildcache import current

    cache = current()
    if not cache:
        return None
    held = cache.memo.get("label inks")
    if held is None:
        held = cache.memo["label inks"] = _StoredInks(cache)
    return held


def _ink_from_json(item) -> tuple | None:
    """A stored (shrink, fill, outline) back (None when it is not one: the label is measured)."""
    if not (isinstance(item, list) and len(item) == 3):
        return None
    shrink, fill, outline = item
    if not (type(shrink) in (int, float) and 0 < shrink <= 1 and isinstance(fill, str)
            and (outline is None or isinstance(outline, str))):
        return None
    return float(shrink), fill, outline


def choose(ring: Counter, designed: str, fs: float) -> LabelInk:
    """The icon's own colour when it is readable on ``ring``, else white or the ink, else an outline."""
    if not ring:
        return LabelInk(fs, designed)
    for fill in dict.fromkeys((designed, WHITE, INK)):
        if readable(fill, ring):
            return LabelInk(fs, fill)
    covered = {c: n for c, n in ring.items() if c is not None}

    def mean(fill):
        total = sum(covered.values())
        return sum(_contrast(fill, c) * n for c, n in covered.items()) / total if total else 0.0
    fill = WHITE if mean(WHITE) >= mean(INK) else INK
    return LabelInk(fs, fill, INK if fill == WHITE else WHITE)


def readable(fill: str, ring: Counter) -> bool:
    """Whether ``fill`` reaches :data:`LABEL_CONTRAST` on all but :data:`SLACK` of ``ring`` (colour ->
    pixels; None for where the icon does not cover it)."""
    bad = sum(n for c, n in ring.items() if c is None or _contrast(fill, c) < LABEL_CONTRAST)
    return bad <= SLACK * sum(ring.values())


@lru_cache(maxsize=16384)
def _contrast(fill: str, colour: str) -> float:
    """:func:`pnp.layout.colour.contrast`, once per pair: an icon's rings share most of their colours."""
    return contrast(fill, colour)


def icon_raster(draw_icon):
    """The icon drawn :data:`CANON` points across, centred on a page twice that size, rasterized with
    its transparency (RGBA)."""
    import pypdfium2 as pdfium
    from reportlab.pdfgen.canvas import Canvas

    side = 2 * CANON
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(side, side), invariant=1)
    draw_icon(c, CANON, CANON, CANON)
    c.showPage()
    c.save()
    doc = pdfium.PdfDocument(buf.getvalue())
    try:
        return doc[0].render(scale=SCALE, fill_color=(255, 255, 255, 0)).to_pil().convert("RGBA")
    finally:
        doc.close()


def glyph_mask(text: str, font_file: str, cx: float, cy: float, fs: float, width: int, height: int):
    """The glyphs of ``text`` set as :func:`pnp.draw.icons._label` sets them (font size ``fs``, centred
    on (cx, cy) points from the raster's centre, y up, the baseline 0.36 x ``fs`` below) as a Pillow mask
    the size of the icon's raster."""
    from PIL import Image, ImageDraw

    mask = Image.new("L", (width, height), 0)
    font = _font(font_file, round(fs * SCALE, 2))
    x = width / 2 + cx * SCALE - font.getlength(text) / 2
    y = height / 2 - (cy - 0.36 * fs) * SCALE
    ImageDraw.Draw(mask).text((x, y), text, fill=255, font=font, anchor="ls")
    return mask


@lru_cache(maxsize=64)
def _font(font_file: str, px: float):
    from PIL import ImageFont

    return ImageFont.truetype(str(FONTS_DIR / font_file), px)


def surround(raster, text: str, font_file: str, cx: float, cy: float, fs: float) -> Counter:
    """The icon's colours ('#rrggbb', None where it is mostly transparent) on a ring :data:`OUTLINE` x
    ``fs`` wide around the glyphs, with their pixel counts."""
    from PIL import Image, ImageChops

    mask = glyph_mask(text, font_file, cx, cy, fs, *raster.size).point(_THRESHOLD)
    glyphs = mask.getbbox()
    if glyphs is None:
        return Counter()
    reach = max(1, round(OUTLINE * fs * SCALE))
    box = (max(0, glyphs[0] - reach - 1), max(0, glyphs[1] - reach - 1), min(mask.width, glyphs[2] + reach + 1),
           min(mask.height, glyphs[3] + reach + 1))
    mask = mask.crop(box)
    ring = ImageChops.subtract(dilated(mask, reach), mask)
    outside = Image.new("RGBA", ring.size, _NOT_RING)
    colours = Image.composite(raster.crop(box), outside, ring).getcolors(ring.width * ring.height) or []
    out = Counter()
    for n, (r, g, b, a) in colours:
        if (r, g, b, a) != _NOT_RING:
            out[f"#{r:02x}{g:02x}{b:02x}" if a >= 192 else None] += n
    return out


#: The glyphs' coverage (0-255) made a two-level mask: a pixel at least half covered is a glyph's.
_THRESHOLD = [0] * 128 + [255] * 128


def dilated(mask, reach: int):
    """``mask`` (a Pillow "L" image) grown by ``reach`` pixels every way: each pixel the brightest of
    the square of side 2 x ``reach`` + 1 around it (what lies outside the image counts as black), as
    ``reach`` passes of a 3 x 3 ``MaxFilter`` give it, at the cost of a few whole-image maxima."""
    return _spread(_spread(mask, reach, horizontal=True), reach, horizontal=False)


def _spread(mask, reach: int, horizontal: bool):
    """``mask`` with each pixel the brightest of the 2 x ``reach`` + 1 pixels centred on it in its row
    (``horizontal``) or column. The mask is padded with ``reach`` black pixels before its start; a pixel
    there then holds the span starting at it, grown by doubling (a span of n and the same span shifted
    by up to n make one up to twice as long); the first pixels, as many as the mask had, are the spans
    centred on the mask's pixels."""
    from PIL import ImageChops

    w, h = mask.size
    if horizontal:
        span = mask.crop((-reach, 0, w, h))

        def ahead(im, step):
            return im.crop((step, 0, step + im.width, h))
    else:
        span = mask.crop((0, -reach, w, h))

        def ahead(im, step):
            return im.crop((0, step, w, step + im.height))
    length, target = 1, 2 * reach + 1
    while length < target:
        step = min(length, target - length)
        span = ImageChops.lighter(span, ahead(span, step))
        length += step
    return span.crop((0, 0, w, h))


#: What stands for the pixels off the ring while they are counted (a fully transparent colour the
#: renderer never produces: it gives transparent pixels as white).
_NOT_RING = (1, 2, 3, 0)
