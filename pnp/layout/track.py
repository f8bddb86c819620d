"""The power track: a numbered grid of spaces and a start area holding one token per faction.

Spaces are squares as large as the sheet allows (capped), so the faction tokens from the token sheet
fit on them with room to spare; :func:`track_page` reports the space size it chose.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.layout.colour import tint
from pnp.layout.geometry import Box, Circle, Page, Rect, Style, Text
from pnp.markup import escape
from pnp.units import PRINTER_MARGIN

INK = "#1f1a17"
PAPER_TINT = "#f7f0e1"
TITLE_STYLE = Style(font="serif-semibold", size=30, min_size=16, max_lines=1, tracking=3.0, upper=True)
LABEL_STYLE = Style(font="sans-bold", size=8, min_size=6, max_lines=1, upper=True, tracking=1.0)
NUMBER_STYLE = Style(font="serif-semibold", size=15, min_size=9, max_lines=1, align="left", valign="top")


@dataclass(frozen=True)
class TrackSpec:
    spaces: int = 25
    columns: int = 5
    token_diameter: float = 20.0
    max_space: float = 38.0


@dataclass(frozen=True)
class TrackLayout:
    page: Page
    space_size: float
    spaces: tuple          # Rect per number, index 0 = space 1
    start_spots: tuple     # (faction id, Circle)


def track_page(spec: TrackSpec, factions, title: str, start_label: str, page_w: float, page_h: float,
               ) -> TrackLayout:
    margin = PRINTER_MARGIN + 6.0
    rows = -(-spec.spaces // spec.columns)
    title_h = 16.0
    start_h = spec.token_diameter + 16.0
    avail_w = page_w - 2 * margin
    avail_h = page_h - 2 * margin - title_h - start_h - 8.0
    size = min(avail_w / spec.columns, avail_h / rows, spec.max_space)
    grid_w, grid_h = size * spec.columns, size * rows
    total_h = title_h + start_h + 8.0 + grid_h
    top = page_h - (page_h - total_h) / 2
    left = (page_w - grid_w) / 2
    page = Page(page_w, page_h, label="Power track")
    page.add(Text(Rect(left, top - title_h, grid_w, title_h), title, TITLE_STYLE, role="title"))

    # start area: one spot per faction token
    start = Rect(left, top - title_h - start_h, grid_w, start_h)
    page.add(Box(start, fill=PAPER_TINT, stroke=INK, width=0.35, radius=3.0, role="start-area"))
    page.add(Text(Rect(start.x + 4, start.top - 7.5, start.w - 8, 5.5), start_label, LABEL_STYLE, role="start-label"))
    spot_r = spec.token_diameter / 2 + 1.5
    n = max(1, len(factions))
    spots = []
    for i, f in enumerate(factions):
        cx = start.x + start.w * (i + 0.5) / n
        cy = start.y + (start.h - 7.5) / 2
        spot = Circle(cx, cy, spot_r, fill=tint(f.colour, 0.8), stroke=f.colour, width=0.6, role=f"start:{f.id}")
        spots.append((f.id, spot))
        page.add(spot)
        page.add(Text(Rect(cx - spot_r - 6, cy - 3, 2 * spot_r + 12, 6), escape(f.name),
                      Style(font="sans-bold", size=8, min_size=5, max_lines=1, upper=True, colour=f.colour),
                      role="start-name"))

    # the numbered grid, reading order from the top-left
    grid_top = start.y - 8.0
    rects = []
    for k in range(spec.spaces):
        row, col = divmod(k, spec.columns)
        r = Rect(left + col * size, grid_top - (row + 1) * size, size, size)
        rects.append(r)
        fill = "#efe3c8" if (k + 1) % 5 == 0 else PAPER_TINT
        page.add(Box(r, fill=fill, stroke=INK, width=0.35, role="space"))
        page.add(Text(Rect(r.x + 2.0, r.y + 2.0, r.w - 4.0, r.h - 3.0), str(k + 1), NUMBER_STYLE, role="number"))
    return TrackLayout(page, size, tuple(rects), tuple(spots))
