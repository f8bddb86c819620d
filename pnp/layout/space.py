"""Empty space on a piece's face: the largest rectangle a face leaves empty, inside its safe margin.

A face is a list of elements (mm, origin bottom-left). What it draws covers the face's cells (a grid of
:data:`CELL` mm): every element by its extent (:func:`pnp.layout.geometry.extent`), but a text by the
rectangle its lines take (the caller measures it, :func:`pnp.draw.text.ink_rect`), and a box as large as
:data:`BACKGROUND_SHARE` of the face or more not at all (a background, a panel, a frame: it holds the
rest). The largest empty rectangle of cells inside :data:`MARGIN` of the edges is the face's empty space;
a share of the face above :data:`MAX_EMPTY_SHARE` is a piece that does not use its space (``pnp validate``
warns at the line of the layout region that leaves it empty).

Pure geometry: nothing here measures text or imports reportlab.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from pnp.layout.geometry import Box, Rect, Text, extent, flatten

CELL = 1.0                  # mm: the grid the empty space is counted on
MARGIN = 3.0                # mm: the safe margin along the edges, never counted
BACKGROUND_SHARE = 0.4      # a box this large a share of the face is its background, not content
MAX_EMPTY_SHARE = 0.25      # more of the face than this left empty in one rectangle: a warning
BLAME_SHARE = 0.3           # a region leaves an empty area when its box covers this much of it


@dataclass(frozen=True)
class Empty:
    """The largest empty rectangle of a face and its share of the face's area."""

    rect: Rect
    share: float


def covered(elements, size: tuple, text_rect) -> list[Rect]:
    """The rectangles ``elements`` paint on a face of ``size`` (w, h): ``text_rect(text)`` gives a text's
    (None: it prints nothing); a box of :data:`BACKGROUND_SHARE` of the face or more is left out."""
    w, h = size
    out = []
    for e in flatten(elements):
        if isinstance(e, Box) and e.rect.w * e.rect.h >= BACKGROUND_SHARE * w * h:
            continue
        r = text_rect(e) if isinstance(e, Text) else extent(e)
        if r is not None and r.w > 0 and r.h > 0:
            out.append(r)
    return out


def largest_empty(rects, size: tuple, margin: float = MARGIN, cell: float = CELL) -> Empty:
    """The largest rectangle of whole cells inside ``margin`` of a face of ``size`` that no rectangle of
    ``rects`` touches (the maximal rectangle of a 0/1 grid, row by row with a histogram of empty cells)."""
    w, h = size
    cols, rows = max(0, math.floor((w - 2 * margin) / cell)), max(0, math.floor((h - 2 * margin) / cell))
    spans = []
    for r in rects:
        c0 = max(0, math.floor((r.x - margin) / cell))
        c1 = min(cols, math.ceil((r.right - margin) / cell))
        r0 = max(0, math.floor((r.y - margin) / cell))
        r1 = min(rows, math.ceil((r.top - margin) / cell))
        if c0 < c1 and r0 < r1:
            spans.append((c0, c1, r0, r1))
    # the answer is a function of the cells covered: faces that cover the same cells (the cards of a
    # large deck drawn by one layout, whose texts differ by a few letters) share it
    return _largest_on_grid(frozenset(spans), cols, rows, w, h, margin, cell)


#: Grids of more cells than this (a board's) are measured by whole rows with numpy; a card's grid (some
#: 5,000 cells) is walked, without importing numpy for it.
WALKED_CELLS = 20_000


@lru_cache(maxsize=4096)
def _largest_on_grid(spans: frozenset, cols: int, rows: int, w: float, h: float, margin: float,
                     cell: float) -> Empty:
    """:func:`largest_empty` of a grid of ``cols`` x ``rows`` cells whose ``spans`` (first column, past
    the last, first row, past the last) are covered: the rectangle the histogram method finds first among
    the largest (rows from the bottom, each row's histogram of empty cells above it, a stack of rising
    bars popped left to right), walked row by row (:func:`_walked`) or found by whole rows
    (:func:`_by_rows`) on a large grid: the same rectangle."""
    if not rows or not cols:
        return Empty(Rect(margin, margin, 0.0, 0.0), 0.0)
    found = _walked(spans, cols, rows) if cols * rows <= WALKED_CELLS else _by_rows(spans, cols, rows)
    if found is None:
        return Empty(Rect(margin, margin, 0.0, 0.0), 0.0)
    best, j, start, top, width = found
    return Empty(Rect(margin + start * cell, margin + (j - top + 1) * cell, width * cell, top * cell),
                 best * cell * cell / (w * h) if w and h else 0.0)


def _walked(spans, cols: int, rows: int):
    """(area, row, start column, height, width) of the first largest rectangle, every row's histogram
    walked with the stack; None when every cell is covered."""
    full = [[False] * cols for _ in range(rows)]              # row 0 at the bottom
    for c0, c1, r0, r1 in spans:
        for j in range(r0, r1):
            row = full[j]
            for i in range(c0, c1):
                row[i] = True
    best, where = 0, None
    heights = [0] * cols
    for j in range(rows):
        heights = [0 if full[j][i] else heights[i] + 1 for i in range(cols)]
        stack = []                                            # (start column, height), heights rising
        for i, height in enumerate(heights + [0]):
            start = i
            while stack and stack[-1][1] >= height:
                start, top = stack.pop()
                if top * (i - start) > best:
                    best = top * (i - start)
                    where = (best, j, start, top, i - start)
            stack.append((start, height))
    return where


def _by_rows(spans, cols: int, rows: int):
    """:func:`_walked`'s answer, from each row's bar limits worked out for whole rows at once (numpy): the
    largest area and the first row that holds it, then only that row's histogram walked
    (:func:`_first_largest_in_row`). A board's grid has some 100,000 cells, which the walk took a
    second for."""
    import numpy as np

    full = np.zeros((rows, cols), dtype=bool)                  # row 0 at the bottom
    for c0, c1, r0, r1 in spans:
        full[r0:r1, c0:c1] = True
    index = np.arange(cols)
    heights = np.zeros(cols, dtype=np.int64)
    left = np.zeros(cols, dtype=np.int64)
    right = np.full(cols, cols, dtype=np.int64)
    best, found = 0, None
    for j in range(rows):
        row = full[j]
        heights = np.where(row, 0, heights + 1)
        # each empty cell's bar reaches from the last covered cell left of it to the first right of it,
        # within the limits of the rows below that its bar spans
        left = np.where(row, 0, np.maximum(left, np.maximum.accumulate(np.where(row, index + 1, 0))))
        right = np.where(row, cols, np.minimum(right, np.minimum.accumulate(np.where(row, index, cols)[::-1])[::-1]))
        area = int((heights * (right - left)).max())
        if area > best:
            best, found = area, (j, heights.tolist())
    if found is None:
        return None
    j, bars = found
    start, top, width = _first_largest_in_row(bars, best)
    return best, j, start, top, width


def _first_largest_in_row(heights: list, area: int) -> tuple:
    """(start column, height, width) of the first rectangle of ``area`` cells the stack walk over one
    row's ``heights`` pops (bars rising on the stack, each popped by a lower or equal one)."""
    stack = []                                                # (start column, height), heights rising
    for i, height in enumerate(heights + [0]):
        start = i
        while stack and stack[-1][1] >= height:
            start, top = stack.pop()
            if top * (i - start) == area:
                return start, top, i - start
        stack.append((start, height))
    raise AssertionError("no rectangle of the row's largest area")


def empty_space(elements, size: tuple, text_rect) -> Empty:
    """The largest empty rectangle of a face (:func:`covered`, :func:`largest_empty`)."""
    return largest_empty(covered(elements, size, text_rect), size)


def blamed_region(elements, size: tuple, empty: Rect) -> str | None:
    """The region (an element's role up to its first ``:``) whose element overlaps ``empty`` the most,
    covering at least :data:`BLAME_SHARE` of it: the region that leaves it empty (a text shorter than its
    box, a panel with nothing in it). None when no element but a background (or a small mark at its edge)
    lies there."""
    w, h = size
    best, name = 0.0, None
    for e in flatten(elements):
        if isinstance(e, Box) and e.rect.w * e.rect.h >= BACKGROUND_SHARE * w * h:
            continue
        r = extent(e) if not isinstance(e, Text) else e.rect
        if r is None or not getattr(e, "role", ""):
            continue
        x0, y0 = max(r.x, empty.x), max(r.y, empty.y)
        x1, y1 = min(r.right, empty.right), min(r.top, empty.top)
        area = max(0.0, x1 - x0) * max(0.0, y1 - y0)
        if area > best + 1e-9 and area >= BLAME_SHARE * empty.w * empty.h:
            best, name = area, e.role.split(":", 1)[0]
    return name
