"""Tracks: numbered spaces (any range: 0-30, 1-25, ...) laid out as a grid, as strips to cut and join,
or around the edge of a rectangle, with a title and an optional start area holding one token per side.

Spaces are squares as large as the area allows (capped at ``max_space``), so the tokens that move on
the track fit with room to spare; :func:`track_page` reports the space size it chose. :func:`track_spaces`
places the spaces in any rectangle, so a board can carry a track too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pnp.layout.colour import tint
from pnp.layout.geometry import Box, Circle, Line, Page, Rect, Style, Text
from pnp.text.markup import escape
from pnp.units import PRINTER_MARGIN

INK = "#1f1a17"
PAPER_TINT = "#f7f0e1"
HIGHLIGHT = "#efe3c8"
TITLE_STYLE = Style(font="serif-semibold", size=30, min_size=16, max_lines=1, tracking=3.0, upper=True)
LABEL_STYLE = Style(font="sans-bold", size=8, min_size=6, max_lines=1, upper=True, tracking=1.0)
NOTE_STYLE = Style(font="sans", size=8, min_size=6, max_lines=1, align="right", colour=INK)
NUMBER_STYLE = Style(font="serif-semibold", size=15, min_size=9, max_lines=1, align="left", valign="top")

#: Layouts a track may take.
SHAPES = ("grid", "strip", "around")
STRIP_GAP = 5.0        # between two strips, to cut them apart


@dataclass(frozen=True)
class TrackSpec:
    """A track's settings: its numbered spaces, its shape, sizes (mm) and colours, and the start area."""

    spaces: int = 25               # how many numbered spaces
    columns: int = 5               # grid: spaces per row; strip: spaces per strip (0: as many as fit)
    token_diameter: float = 20.0
    max_space: float = 38.0
    first: int = 1                 # the number of the first space
    shape: str = "grid"
    highlight_every: int = 5       # spaces whose number is a multiple of this are tinted (0: none)
    fill: str = PAPER_TINT
    highlight: str = HIGHLIGHT
    ink: str = INK
    start_area: bool = True        # a start area with one spot per side (when there are sides)

    @property
    def last(self) -> int:
        return self.first + self.spaces - 1

    def numbers(self) -> range:
        return range(self.first, self.first + self.spaces)


@dataclass(frozen=True)
class TrackLayout:
    """A track's page, with the space size chosen, each space's rectangle and the start area's spots."""

    page: Page
    space_size: float
    spaces: tuple          # Rect per number, index 0 = the first space
    start_spots: tuple     # (side id, Circle)


def around_positions(columns: int, rows: int) -> list[tuple[int, int]]:
    """(column, row from the top) of every cell on the edge of a columns x rows frame, clockwise from the
    top-left corner."""
    if rows == 1:
        return [(c, 0) for c in range(columns)]
    if columns == 1:
        return [(0, r) for r in range(rows)]
    top = [(c, 0) for c in range(columns)]
    right = [(columns - 1, r) for r in range(1, rows)]
    bottom = [(c, rows - 1) for c in range(columns - 2, -1, -1)]
    left = [(0, r) for r in range(rows - 2, 0, -1)]
    return top + right + bottom + left


def around_problem(spaces: int, columns: int | None = None, edge: str = "edge", first: int | None = None) -> str | None:
    """Why ``spaces`` cannot run round an ``edge`` as a closed ring (with ``columns`` of them along the
    top and the bottom edge, when given), naming the nearest counts that close (and, given the ``first``
    space's number, the last number each ends on); None when they close.

    A ring of ``c`` columns and ``r`` rows (each at least 2) holds ``2 (c + r) - 4`` spaces: an even
    number, 4 or more; with ``c`` fixed, ``2 c`` or more."""
    if spaces < 4 or spaces % 2:
        counts = sorted({max(4, spaces - 1), max(4, spaces + 1)}) if spaces % 2 else [4]
        named = " or ".join(f"{k}" + (f" (to: {first + k - 1})" if first is not None else "") for k in counts)
        return (f"{spaces} spaces cannot close round the {edge}: a ring takes an even number of spaces, "
                f"4 or more; {named} would close")
    if columns is not None and not 2 <= columns <= spaces // 2:
        return (f"columns: {columns} along the top and the bottom cannot close a ring of {spaces} spaces round "
                f"the {edge}: give columns from 2 to {spaces // 2}, or {2 * max(2, columns)} spaces or more")
    return None


def around_size(spaces: int, area: Rect, max_space: float) -> tuple[float, int, int]:
    """The largest square space (at most ``max_space``) that closes a ring of ``spaces`` round the edge of
    ``area``: (size, columns, rows), ``2 (columns + rows) - 4 == spaces``. ValueError (naming the counts
    that close) for a count that cannot close."""
    why = around_problem(spaces)
    if why:
        raise ValueError(why)
    half = (spaces + 4) // 2                      # columns + rows
    best = None
    for cols in range(2, half - 1):
        rows = half - cols
        size = min(area.w / cols, area.h / rows, max_space)
        if best is None or size > best[0] + 1e-9:
            best = (size, cols, rows)
    return best


def track_spaces(spec: TrackSpec, area: Rect) -> tuple[float, list[Rect]]:
    """(space size, a Rect per space) for ``spec`` inside ``area``, centred; reading order from the top
    left (grid, strip) or clockwise from the top-left corner (around: a closed ring, the last space
    beside the first)."""
    if spec.shape == "around":
        size, cols, rows = around_size(spec.spaces, area, spec.max_space)
        left = area.x + (area.w - cols * size) / 2
        top = area.top - (area.h - rows * size) / 2
        cells = around_positions(cols, rows)
        return size, [Rect(left + c * size, top - (r + 1) * size, size, size) for c, r in cells]
    if spec.shape == "strip":
        cols = spec.columns or max(1, int(area.w // spec.max_space))
        rows = -(-spec.spaces // cols)
        size = min(area.w / cols, (area.h - STRIP_GAP * (rows - 1)) / rows, spec.max_space)
        left = area.x + (area.w - cols * size) / 2
        top = area.top
        rects = []
        for k in range(spec.spaces):
            row, col = divmod(k, cols)
            rects.append(Rect(left + col * size, top - (row + 1) * size - row * STRIP_GAP, size, size))
        return size, rects
    rows = -(-spec.spaces // spec.columns)
    size = min(area.w / spec.columns, area.h / rows, spec.max_space)
    left = area.x + (area.w - size * spec.columns) / 2
    return size, [Rect(left + col * size, area.top - (row + 1) * size, size, size)
                  for row, col in (divmod(k, spec.columns) for k in range(spec.spaces))]


def side_by_side(space: float, token: float, clearance: float = 2.0) -> int:
    """How many ``token`` mm tokens fit side by side on a ``space`` mm square, ``clearance`` mm around each."""
    return max(0, int((space + 1e-9) // (token + clearance)))


def track_page(spec: TrackSpec, sides, title: str, start_label: str, page_w: float, page_h: float,
               label: str = "Track", stack_note: str = "") -> TrackLayout:
    """A page with the track: ``sides`` (objects with ``id``, ``name``, ``colour``, e.g. factions) get
    a spot each in the start area; ``title`` and ``start_label`` are markup. ``stack_note`` is printed in
    the start area when the sides' tokens cannot all sit side by side on one space (they can all tie),
    so players know that tied tokens stack."""
    if spec.shape == "around":
        inside = _around_page(spec, sides, title, start_label, page_w, page_h, label)
        if inside is not None:
            return inside
        # a ring too small to hold its title inside (4 spaces make a 2 x 2 square with no inside): the title
        # and the start area above it, as a grid's
    margin = PRINTER_MARGIN + 6.0
    title_h = 16.0
    with_start = spec.start_area and bool(sides)
    start_h = spec.token_diameter + 16.0 if with_start else 0.0
    start_gap = 8.0 if with_start else 4.0
    avail_w = page_w - 2 * margin
    avail_h = page_h - 2 * margin - title_h - start_h - start_gap
    probe = Rect(margin, margin, avail_w, avail_h)
    size, rects = track_spaces(spec, probe)
    grid_w = max(r.right for r in rects) - min(r.x for r in rects)
    grid_h = max(r.top for r in rects) - min(r.y for r in rects)
    total_h = title_h + start_h + start_gap + grid_h
    top = page_h - (page_h - total_h) / 2
    left = (page_w - grid_w) / 2
    page = Page(page_w, page_h, label=label)
    page.add(Text(Rect(left, top - title_h, grid_w, title_h), title, TITLE_STYLE, role="title"))
    spots = []
    if with_start:
        start = Rect(left, top - title_h - start_h, grid_w, start_h)
        stacked = stack_note if side_by_side(size, spec.token_diameter) < len(sides) else ""
        spots = _start_area(page, spec, sides, start, start_label, stacked)
    grid_top = top - title_h - start_h - start_gap
    dx, dy = left - min(r.x for r in rects), grid_top - max(r.top for r in rects)
    rects = [r.moved(dx, dy) for r in rects]
    _spaces(page, spec, rects)
    return TrackLayout(page, size, tuple(rects), tuple(spots))


#: The least inside (mm) of a ring that holds the track's title there: else the title goes above it.
MIN_INSIDE = (40.0, 24.0)


def _around_page(spec, sides, title, start_label, page_w, page_h, label) -> TrackLayout | None:
    """The ring with its title (and the start area) inside it; None when the inside cannot hold the title."""
    margin = PRINTER_MARGIN + 6.0
    area = Rect(margin, margin, page_w - 2 * margin, page_h - 2 * margin)
    size, rects = track_spaces(spec, area)
    page = Page(page_w, page_h, label=label)
    inner = Rect(min(r.x for r in rects) + size + 4, min(r.y for r in rects) + size + 4,
                 max(r.right for r in rects) - min(r.x for r in rects) - 2 * size - 8,
                 max(r.top for r in rects) - min(r.y for r in rects) - 2 * size - 8)
    if inner.w < MIN_INSIDE[0] or inner.h < MIN_INSIDE[1]:
        return None
    spots = []
    title_h = min(16.0, inner.h / 3)
    with_start = spec.start_area and bool(sides) and inner.h > title_h + spec.token_diameter + 16
    start_h = spec.token_diameter + 16.0 if with_start else 0.0
    block = title_h + (start_h + 6 if with_start else 0)
    top = inner.cy + block / 2
    page.add(Text(Rect(inner.x, top - title_h, inner.w, title_h), title, TITLE_STYLE, role="title"))
    if with_start:
        spots = _start_area(page, spec, sides, Rect(inner.x, top - title_h - 6 - start_h, inner.w, start_h),
                            start_label)
    _spaces(page, spec, rects)
    return TrackLayout(page, size, tuple(rects), tuple(spots))


def _start_area(page, spec, sides, start: Rect, start_label: str, stack_note: str = "") -> list:
    page.add(Box(start, fill=spec.fill, stroke=spec.ink, width=0.35, radius=3.0, role="start-area"))
    label_w = (start.w - 8) * (0.5 if stack_note else 1.0)
    page.add(Text(Rect(start.x + 4, start.top - 7.5, label_w, 5.5), start_label, LABEL_STYLE,
                  role="start-label"))
    if stack_note:
        page.add(Text(Rect(start.x + 4 + label_w, start.top - 7.5, start.w - 8 - label_w, 5.5), stack_note,
                      NOTE_STYLE, role="stack-note"))
    spot_r = spec.token_diameter / 2 + 1.5
    n = max(1, len(sides))
    spots = []
    for i, f in enumerate(sides):
        cx = start.x + start.w * (i + 0.5) / n
        cy = start.y + (start.h - 7.5) / 2
        spot = Circle(cx, cy, spot_r, fill=tint(f.colour, 0.8), stroke=f.colour, width=0.6, role=f"start:{f.id}")
        spots.append((f.id, spot))
        page.add(spot)
        page.add(Text(Rect(cx - spot_r - 6, cy - 3, 2 * spot_r + 12, 6), escape(f.name),
                      Style(font="sans-bold", size=8, min_size=5, max_lines=1, upper=True, colour=f.colour),
                      role="start-name"))
    return spots


def _spaces(page, spec: TrackSpec, rects) -> None:
    for number, r in zip(spec.numbers(), rects):
        every = spec.highlight_every
        fill = spec.highlight if every and number % every == 0 else spec.fill
        page.add(Box(r, fill=fill, stroke=spec.ink, width=0.35, role="space"))
        page.add(Text(Rect(r.x + 2.0, r.y + 2.0, r.w - 4.0, r.h - 3.0), str(number),
                      _number_style(r.w), role="number"))
    if spec.shape == "strip":
        cols = spec.columns or len(rects)
        for k in range(cols, len(rects), cols):       # a join mark where each strip continues the last
            r = rects[k]
            page.add(Line(r.x, r.top + 1.0, r.x, r.top + STRIP_GAP - 1.0, spec.ink, 0.35, dash=(1.0, 1.0),
                          role="join"))


def _number_style(size: float) -> Style:
    """Numbers shrink with small spaces (a 70-space track round a page has 12 mm spaces)."""
    if size >= 20:
        return NUMBER_STYLE
    scale = max(size / 20, 0.35)
    return Style(font=NUMBER_STYLE.font, size=math.floor(15 * scale * 4) / 4, min_size=4.0, max_lines=1,
                 align="left", valign="top")
