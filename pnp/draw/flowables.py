"""Platypus flowables that set pnp's rich text (inline vector icons) and the rulebook's blocks.

:class:`RichText` wraps text with :mod:`pnp.draw.text` so rulebook paragraphs use the same markup and
icons as card faces. It splits between lines across pages and never leaves a single line behind or
ahead (no widows or orphans).
"""

from __future__ import annotations

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from pnp.draw import text as rich
from pnp.layout.geometry import Style


class MeasuringCanvas(Canvas):
    """A canvas for a layout pass whose pages are thrown away (a booklet's length and contents): pnp's
    text and icons are not painted on it (:func:`painting`) and saving it writes no PDF."""

    measuring = True

    def save(self):
        pass


def painting(c) -> bool:
    """Whether drawing on canvas ``c`` shows anywhere (False on a :class:`MeasuringCanvas`)."""
    return not getattr(c, "measuring", False)


class RichText(Flowable):
    """A paragraph of pnp markup at a fixed size, with optional bullet/number in a hanging indent."""

    def __init__(self, markup: str, style: Style, space_before=0.0, space_after=0.0, indent=0.0,
                 bullet: str | None = None, lines=None, keep_with_next=False, toc_level=None, background=None):
        super().__init__()
        self.markup = markup
        self.style = style
        self.space_before = space_before
        self.space_after = space_after
        self.indent = indent
        self.bullet = bullet
        self._lines = lines
        self.keepWithNext = keep_with_next
        self.toc_level = toc_level
        self.background = background
        self._width = None

    # platypus asks these for spacing between flowables
    def getSpaceBefore(self):
        return self.space_before

    def getSpaceAfter(self):
        return self.space_after

    @property
    def lead(self):
        return self.style.size * self.style.leading

    def _wrap_lines(self, width):
        if self._lines is not None and self._width == width:
            return self._lines
        lines = rich.wrap(self.markup, self.style, self.style.size, width - self.indent)
        if lines is None:  # a single word wider than the column: let it overflow visibly, once per line
            lines = rich.wrap(self.markup, self.style, self.style.size, 10 ** 6)
        self._lines, self._width = lines, width
        return lines

    def _height(self, n):
        return self.lead * n

    def wrap(self, avail_width, avail_height):
        self.width = avail_width
        lines = self._wrap_lines(avail_width)
        self.height = self._height(len(lines))
        return self.width, self.height

    def split(self, avail_width, avail_height):
        lines = self._wrap_lines(avail_width)
        fit = int((avail_height + 0.01) // self.lead)
        n = len(lines)
        if fit >= n:
            return [self]
        if n < 4 or fit < 2:
            return []          # keep short paragraphs whole; never leave one line at a page foot
        fit = min(fit, n - 2)  # and never carry one line alone to the next page
        head = RichText(self.markup, self.style, self.space_before, 0, self.indent, self.bullet,
                        lines[:fit], background=self.background)
        tail = RichText(self.markup, self.style, 0, self.space_after, self.indent, None, lines[fit:],
                        background=self.background)
        head._width = tail._width = avail_width
        return [head, tail]

    def draw(self):
        c = self.canv
        if not painting(c):
            return
        lines = self._lines or ()
        size = self.style.size
        if self.background:
            c.setFillColor(HexColor(self.background))
            c.rect(-2, -1.5, self.width + 4, self.height + 1.5, stroke=0, fill=1)
        first = self.height - size * 0.95 - (self.lead - size) / 2
        if self.bullet is not None:
            # a bullet is one unbreakable token: wrapped at any width so a wide one ("12.") is never dropped
            rich.paint_lines(c, rich.wrap(self.bullet, self.style, size, 1e6) or (), self.style, size,
                             0, self.indent, first)
        rich.paint_lines(c, lines, self.style, size, self.indent, self.width - self.indent, first)


class Rule(Flowable):
    """A thin horizontal line (notes pages, separators)."""

    def __init__(self, colour="#b9ad99", width=0.4, space=18.0):
        super().__init__()
        self.colour, self.line_width, self.space = colour, width, space

    def wrap(self, avail_width, avail_height):
        self.width = avail_width
        return avail_width, self.space

    def draw(self):
        self.canv.setStrokeColor(HexColor(self.colour))
        self.canv.setLineWidth(self.line_width)
        self.canv.line(0, 0, self.width, 0)
