"""Saddle-stitch imposition: which booklet pages share each side of each printed sheet.

A booklet of ``n`` pages (padded with blanks to a multiple of 4) is printed two pages per sheet side
on sheets folded in the middle and nested. Sheet ``k`` (0-based) of ``n`` pages carries, front:
``n - 2k | 2k + 1``, back: ``2k + 2 | n - 2k - 1``: for 16 pages, sheet 1 front 16|1, back 2|15.

The order is right for a duplex printer that flips landscape sheets on the short edge. A printer that
flips on the long edge turns every back side upside down, so for it the back sides are rotated 180°.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.layout.geometry import Line, Page, Rect, Style, Text, Transform
from pnp.units import PRINTER_MARGIN

#: Fold marks and sheet labels: a grey dark enough for 4.5:1 contrast on white paper (small text).
MARK_GREY = "#6b6b6b"
FOLD_MARK_LENGTH = 5.0
LABEL_STYLE = Style(font="sans", size=6.5, min_size=6.0, max_lines=1, align="left", valign="bottom",
                    colour=MARK_GREY)
#: Where a sheet's label runs: up the fold, between these distances (mm) right of it. Every page keeps
#: a wider strip free beside the fold (the cover's frame starts 6 mm in, text 12 mm), so the label is
#: outside every page's frame.
LABEL_STRIP = (1.2, 4.2)
#: Length of the label's box along the fold (mm).
LABEL_LENGTH = 45.0


def padded(n: int) -> int:
    """Page count rounded up to a multiple of 4 (a booklet sheet holds four pages)."""
    if n < 1:
        raise ValueError("a booklet needs at least one page")
    return -(-n // 4) * 4


@dataclass(frozen=True)
class Side:
    """One side of a booklet sheet: the booklet pages printed on its left and right halves."""

    left: int | None       # 1-based booklet page, None for a blank padding page
    right: int | None
    rotated: bool = False  # painted upside down (long-edge duplex backs)


@dataclass(frozen=True)
class Sheet:
    """One booklet sheet: the pages on its front and on its back."""

    front: Side
    back: Side


def saddle_stitch(n_pages: int, flip: str = "short") -> list[Sheet]:
    if flip not in ("short", "long"):
        raise ValueError(f"flip must be 'short' or 'long', not {flip!r}")
    total = padded(n_pages)

    def page(p: int) -> int | None:
        return p if p <= n_pages else None

    sheets = []
    for k in range(total // 4):
        front = Side(page(total - 2 * k), page(2 * k + 1))
        back = Side(page(2 * k + 2), page(total - 2 * k - 1), rotated=(flip == "long"))
        sheets.append(Sheet(front, back))
    return sheets


def print_order(n_pages: int, flip: str = "short") -> list[Side]:
    """The sides in the order the printer receives them: sheet 1 front, sheet 1 back, sheet 2 front..."""
    return [side for sheet in saddle_stitch(n_pages, flip) for side in (sheet.front, sheet.back)]


def side_marks(page_w: float, page_h: float, label: str, margin: float = PRINTER_MARGIN) -> Page:
    """The marks of one side of a sheet holding two ``page_w`` x ``page_h`` booklet pages: dashed fold
    marks on the centre line at the top and bottom, and ``label`` (markup, e.g. "sheet 1 front") running
    up the fold just right of it, above the lower mark (:data:`LABEL_STRIP`): outside every page's
    frame and text. Everything stays ``margin`` mm inside the sheet's edges, where home printers print."""
    sheet_w = 2 * page_w
    x = page_w
    page = Page(sheet_w, page_h, label=label)
    for y0 in (margin, page_h - margin - FOLD_MARK_LENGTH):
        page.add(Line(x, y0, x, y0 + FOLD_MARK_LENGTH, MARK_GREY, 0.18, dash=(1.0, 0.7), role="fold"))
    near, far = LABEL_STRIP
    # a quarter turn: the label's x runs up the page, its y to the left, so its foot faces the right page
    text = Text(Rect(0.0, -far, LABEL_LENGTH, far - near), label, LABEL_STYLE, role="sheet-label-text")
    page.add(Transform((text,), (0.0, 1.0, -1.0, 0.0, x, margin + FOLD_MARK_LENGTH + 2.0), role="sheet-label"))
    return page
