"""Ink saver: large colour fills become light tints outlined in their colour; light text that sat on
them turns dark. A pure transformation of layout elements, so every component gets it for free."""

from __future__ import annotations

from dataclasses import replace

from pnp.layout.colour import _rgb, tint
from pnp.layout.geometry import Box, Circle, Group, Icon, Page, Polygon, Text, Transform

#: Fills larger than this (mm²) are "large": card frames and backs, box panels, big token discs.
LARGE_AREA = 600.0
TINT = 0.86
DARK_INK = "#1f1a17"


def _light(colour: str | None) -> bool:
    if not colour or not colour.startswith("#"):
        return False
    r, g, b = _rgb(colour)
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255 > 0.62


def polygon_area(points) -> float:
    """Area enclosed by a polygon (shoelace formula), whatever its winding."""
    return abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1]))) / 2


def save_ink(elements) -> list:
    out = []
    for e in elements:
        if isinstance(e, (Group, Transform)):
            out.append(replace(e, elements=tuple(save_ink(e.elements))))
        elif (isinstance(e, Polygon) and e.fill and e.closed and polygon_area(tuple(e.points)) > LARGE_AREA
              and not _light(e.fill)):
            out.append(replace(e, fill=tint(e.fill, TINT), stroke=e.stroke or e.fill, width=max(e.width, 0.35)))
        elif isinstance(e, Box) and e.fill and e.rect.w * e.rect.h > LARGE_AREA and not _light(e.fill):
            out.append(replace(e, fill=tint(e.fill, TINT), stroke=e.stroke or e.fill, width=max(e.width, 0.35)))
        elif isinstance(e, Circle) and e.fill and 3.14159 * e.r ** 2 > LARGE_AREA and not _light(e.fill):
            out.append(replace(e, fill=tint(e.fill, TINT), stroke=e.stroke or e.fill, width=max(e.width, 0.35)))
        elif isinstance(e, Text) and _light(e.style.colour):
            out.append(replace(e, style=replace(e.style, colour=DARK_INK)))
        elif isinstance(e, Box) and e.stroke and _light(e.stroke) and not e.fill:
            out.append(replace(e, stroke=DARK_INK))
        elif isinstance(e, Icon) and e.colour and _light(e.colour) and e.role != "emblem":
            # light icons (on dark fills that become tints) turn dark; the face's pale watermark stays pale
            out.append(replace(e, colour=DARK_INK))
        else:
            out.append(e)
    return out


def save_ink_page(page: Page) -> Page:
    return replace(page, elements=save_ink(page.elements))
