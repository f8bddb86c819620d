"""Packing rectangles of mixed sizes onto as few sheets as they fit (standees, cube nets, ...).

Shelf packing, first fit by decreasing height: the tallest items go first, each into the first shelf
(of any sheet) with room across and height enough, else into a new shelf below the last one of the
first sheet with height to spare, else onto a new sheet. Shelves start at the top of ``area``; the
items of a shelf sit on its bottom line, left-aligned. Plain data in mm.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.layout.geometry import Rect

EPS = 1e-9


@dataclass(frozen=True)
class Packed:
    """Where an item went: its key, its sheet (0-based) and its rectangle on that sheet."""

    key: object
    sheet: int
    rect: Rect


def shelf_pack(items, area: Rect, gap: float = 0.0) -> list[Packed]:
    """``items``: (key, width, height) in order; every item placed without rotation in ``area`` with at
    least ``gap`` mm between neighbours. Raises ValueError naming an item too large for the area."""
    sheets: list[list[list]] = []      # per sheet: shelves [top, height, used width]
    out = []
    order = sorted(range(len(items)), key=lambda i: -items[i][2])
    for i in order:
        key, w, h = items[i]
        if w > area.w + EPS or h > area.h + EPS:
            raise ValueError(f"{key}: a {w:g} x {h:g} mm piece does not fit the {area.w:g} x {area.h:g} mm "
                             f"printable area of the sheet")
        placed = None
        for s, shelves in enumerate(sheets):
            for shelf in shelves:
                top, height, used = shelf
                if h <= height + EPS and used + gap + w <= area.w + EPS:
                    x = area.x + used + gap
                    shelf[2] = used + gap + w
                    placed = (s, Rect(x, top - height, w, h))
                    break
            if placed:
                break
        if placed is None:
            for s, shelves in enumerate(sheets):
                bottom = shelves[-1][0] - shelves[-1][1]
                if bottom - gap - h >= area.y - EPS:
                    shelves.append([bottom - gap, h, w])
                    placed = (s, Rect(area.x, bottom - gap - h, w, h))
                    break
        if placed is None:
            sheets.append([[area.top, h, w]])
            placed = (len(sheets) - 1, Rect(area.x, area.top - h, w, h))
        out.append((i, Packed(key, *placed)))
    return [p for _, p in sorted(out, key=lambda t: t[0])]
