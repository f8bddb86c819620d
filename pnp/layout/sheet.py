"""Arranging equal items (cards, tiles) on a sheet: grid, centring, duplex mirroring, cut lines.

Used by every component that prints many copies of one shape. All results are plain data in mm.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.layout.geometry import Line, Rect
from pnp.units import PRINTER_MARGIN

CUT_GREY = "#9a9a9a"


@dataclass(frozen=True)
class Grid:
    """``cols`` x ``rows`` slots of ``item_w`` x ``item_h`` centred on a ``page_w`` x ``page_h`` sheet."""

    page_w: float
    page_h: float
    item_w: float
    item_h: float
    cols: int
    rows: int
    gutter: float = 0.0

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    @property
    def block(self) -> Rect:
        w = self.cols * self.item_w + (self.cols - 1) * self.gutter
        h = self.rows * self.item_h + (self.rows - 1) * self.gutter
        return Rect((self.page_w - w) / 2, (self.page_h - h) / 2, w, h)

    def slot(self, index: int) -> Rect:
        """Slot ``index`` in reading order: left to right, top row first."""
        row, col = divmod(index, self.cols)
        b = self.block
        x = b.x + col * (self.item_w + self.gutter)
        y = b.top - (row + 1) * self.item_h - row * self.gutter
        return Rect(x, y, self.item_w, self.item_h)

    @property
    def slots(self) -> list[Rect]:
        return [self.slot(i) for i in range(self.per_sheet)]


def fit_grid(page_w, page_h, item_w, item_h, margin=PRINTER_MARGIN, gutter=0.0,
             max_cols=None, max_rows=None) -> Grid:
    """The largest grid of items that keeps ``margin`` mm clear at every sheet edge."""
    usable_w, usable_h = page_w - 2 * margin, page_h - 2 * margin
    cols = int((usable_w + gutter + 1e-9) // (item_w + gutter))
    rows = int((usable_h + gutter + 1e-9) // (item_h + gutter))
    if max_cols:
        cols = min(cols, max_cols)
    if max_rows:
        rows = min(rows, max_rows)
    if cols < 1 or rows < 1:
        raise ValueError(f"a {item_w:g} x {item_h:g} mm item does not fit on a {page_w:g} x {page_h:g} mm "
                         f"sheet with {margin:g} mm margins")
    return Grid(page_w, page_h, item_w, item_h, cols, rows, gutter)


def mirror(rect: Rect, page_w: float, page_h: float, flip: str = "long") -> Rect:
    """Where ``rect`` lands on the other side of the sheet when a duplex printer flips it.

    Long-edge flip (portrait): mirrored across the vertical centre line; short-edge: across the
    horizontal centre line.
    """
    if flip == "long":
        return Rect(page_w - rect.x - rect.w, rect.y, rect.w, rect.h)
    if flip == "short":
        return Rect(rect.x, page_h - rect.y - rect.h, rect.w, rect.h)
    raise ValueError(f"flip must be 'long' or 'short', not {flip!r}")


def back_slots(grid: Grid, count: int, flip: str = "long") -> list[Rect]:
    """Back slot for each of the first ``count`` front slots (same order as the fronts)."""
    return [mirror(grid.slot(i), grid.page_w, grid.page_h, flip) for i in range(count)]


def cut_lines(rects: list[Rect], page_w: float, page_h: float, colour=CUT_GREY, width=0.2) -> list[Line]:
    """Full-length guide lines along every slot edge, running to the sheet edges (for a trimmer)."""
    xs = sorted({round(v, 4) for r in rects for v in (r.x, r.right)})
    ys = sorted({round(v, 4) for r in rects for v in (r.y, r.top)})
    return ([Line(x, 0.0, x, page_h, colour, width, role="cut") for x in xs]
            + [Line(0.0, y, page_w, y, colour, width, role="cut") for y in ys])


def margin_cut_lines(rects: list[Rect], page_w: float, page_h: float, clear: float = 0.0, colour=CUT_GREY,
                     width=0.2) -> list[Line]:
    """The cut lines of :func:`cut_lines`, kept to the margins: each stops ``clear`` mm short of the block
    of ``rects``, so nothing is drawn over the items (a card back's dark colour would show a light
    hairline wherever a duplex print drifts)."""
    x0, y0 = min(r.x for r in rects) - clear, min(r.y for r in rects) - clear
    x1, y1 = max(r.right for r in rects) + clear, max(r.top for r in rects) + clear
    out = []
    for line in cut_lines(rects, page_w, page_h, colour, width):
        if line.x1 == line.x2:
            out += [Line(line.x1, 0.0, line.x1, y0, colour, width, role="cut"),
                    Line(line.x1, y1, line.x1, page_h, colour, width, role="cut")]
        else:
            out += [Line(0.0, line.y1, x0, line.y1, colour, width, role="cut"),
                    Line(x1, line.y1, page_w, line.y1, colour, width, role="cut")]
    return out


#: Crop marks start this far outside the bleed edge and are this long (mm); PRINTING.md: 2-5 mm long,
#: 1-3 mm out, at least 0.25 pt wide.
CROP_OFFSET = 1.0
CROP_LENGTH = 3.0
CROP_WIDTH = 0.15


def crop_marks(trims: list[Rect], block: Rect, colour: str = "#000000") -> list[Line]:
    """Marks in the margins around ``block`` (the bleed area) continuing every trim edge outwards."""
    xs = sorted({round(v, 4) for r in trims for v in (r.x, r.right)})
    ys = sorted({round(v, 4) for r in trims for v in (r.y, r.top)})
    lo, hi = CROP_OFFSET, CROP_OFFSET + CROP_LENGTH
    marks = []
    for x in xs:
        marks.append(Line(x, block.top + lo, x, block.top + hi, colour, CROP_WIDTH, role="crop"))
        marks.append(Line(x, block.y - lo, x, block.y - hi, colour, CROP_WIDTH, role="crop"))
    for y in ys:
        marks.append(Line(block.x - lo, y, block.x - hi, y, colour, CROP_WIDTH, role="crop"))
        marks.append(Line(block.right + lo, y, block.right + hi, y, colour, CROP_WIDTH, role="crop"))
    return marks
