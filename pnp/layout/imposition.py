"""Saddle-stitch imposition: which booklet pages share each side of each printed sheet.

A booklet of ``n`` pages (padded with blanks to a multiple of 4) is printed two pages per sheet side
on sheets folded in the middle and nested. Sheet ``k`` (0-based) of ``n`` pages carries, front:
``n - 2k | 2k + 1``, back: ``2k + 2 | n - 2k - 1``: for 16 pages, sheet 1 front 16|1, back 2|15.

The order is right for a duplex printer that flips landscape sheets on the short edge. A printer that
flips on the long edge turns every back side upside down, so for it the back sides are rotated 180°.
"""

from __future__ import annotations

from dataclasses import dataclass


def padded(n: int) -> int:
    """Page count rounded up to a multiple of 4 (a booklet sheet holds four pages)."""
    if n < 1:
        raise ValueError("a booklet needs at least one page")
    return -(-n // 4) * 4


@dataclass(frozen=True)
class Side:
    left: int | None       # 1-based booklet page, None for a blank padding page
    right: int | None
    rotated: bool = False  # painted upside down (long-edge duplex backs)


@dataclass(frozen=True)
class Sheet:
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
