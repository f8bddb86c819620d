"""Regions of a layout turned into elements: pure geometry in millimetres (no reportlab).

A region comes evaluated (:func:`pnp.loading.cardlayout.evaluate`): its colours, texts, icon names and labels
are values. Positions are in the layout's design frame (``size``) and scale to the piece's ``w`` x
``h``: x and widths by ``w / size[0]``, y and heights by ``h / size[1]``, icon sizes by the x scale
(badges by the smaller one); corner radii and line widths stay as written. Nothing here is card-only:
a board or player board is a bigger piece with the same kinds of regions.
"""

from __future__ import annotations

from dataclasses import replace

import math

from pnp.layout.colour import tint
from pnp.layout.geometry import Box, Circle, Icon, Line, Picture, Rect, Style, Text, extent
from pnp.layout.tiling import Keep
from pnp.layout.track import around_problem
from pnp.layout.writein import (boxes_elements, checks_elements, grid_cells, lines_elements, table_fields,
                                track_fields)
from pnp.text.markup import escape, plain_text

#: Style keys a region's ``style`` may set (see :class:`pnp.layout.geometry.Style`).
STYLE_KEYS = ("font", "size", "min_size", "max_lines", "leading", "align", "valign", "colour", "tracking", "upper")


class RegionError(ValueError):
    """A region that cannot be drawn as its data says (a track round an edge that cannot close): names the
    region, so the caller can point at its line in the layout file."""

    def __init__(self, region: str, message: str):
        super().__init__(message)
        self.region = region


#: Styles made by :func:`style_of`, by what they were made of (each value with its type): a deck's faces
#: set their texts in a handful of styles, and each made them again per card.
_STYLES: dict = {}


def style_of(region: dict) -> Style:
    given = region.get("style") or {}
    items = {k: v for k, v in given.items() if k in STYLE_KEYS and v is not None}
    colour = region.get("colour")
    try:
        key = (tuple((k, type(v), v) for k, v in items.items()), type(colour), colour or None)
        found = _STYLES.get(key)
    except TypeError:                 # a value that is a list: Style takes it as it is, made each time
        key = found = None
    if found is None:
        found = Style(**items)
        if colour:
            found = replace(found, colour=colour)
        if key is not None:
            if len(_STYLES) >= 1024:
                _STYLES.clear()
            _STYLES[key] = found
    return found


def place(regions: list[dict], size: tuple, w: float, h: float, content, bleed: float = 0.0,
          keep: list | None = None, fields: list | None = None) -> list:
    """Elements of the evaluated ``regions`` on a ``w`` x ``h`` piece. ``content`` gives what the
    card-bound kinds draw: ``pips`` (int), ``stats`` ((name, icon, label) per badge), ``emblem`` (icon
    name or None), ``art`` (an object with path, fit, focus, or None).

    ``keep`` (a board's): gets a :class:`~pnp.layout.tiling.Keep` for every element a tile seam must not
    cut (see :func:`kept`). ``fields`` (a pad's): gets a :class:`~pnp.layout.writein.FormField` over every
    place a player writes in (boxes, lines, check boxes; a track's spaces and a table's empty cells when
    their region asks), in tab order."""
    sx, sy = w / size[0], h / size[1]
    rects = {}

    def rect(r):
        x, y, rw, rh = r
        return Rect(x * sx, y * sy, rw * sx, rh * sy)

    els = []
    for region in regions:
        kind, role = region["kind"], region.get("role") or region["name"]
        start = len(els)
        if "rect" in region:
            rects[region["name"]] = rect(region["rect"])
        area = rects.get(region.get("in")) if region.get("in") else rects.get(region["name"])
        if kind == "box":
            box = area
            if region.get("bleed"):
                box = Rect(box.x - bleed, box.y - bleed, box.w + 2 * bleed, box.h + 2 * bleed)
            els.append(Box(box, fill=region.get("fill"), stroke=region.get("stroke"),
                           width=region.get("width", 0.25), radius=region.get("radius", 0.0), role=role))
        elif kind == "text":
            text = region.get("text")
            if text:
                els.append(Text(area, str(text), style_of(region), role=role))
        elif kind == "line":
            (x1, y1), (x2, y2) = region["from"], region["to"]
            els.append(Line(x1 * sx, y1 * sy, x2 * sx, y2 * sy, region.get("colour") or "#999999",
                            region.get("width", 0.2), role=role))
        elif kind == "icon":
            x, y = region["at"]
            if region.get("icon"):
                label = region.get("label")
                # a label is printed on the icon as plain text: its markup's words
                els.append(Icon(str(region["icon"]), x * sx, y * sy, region.get("size", 5.0) * sx,
                                region.get("colour"), None if label is None else plain_text(str(label)), role=role))
        elif kind == "art":
            art = getattr(content, "art", None)
            if art is not None:
                els.append(art_picture(art, area, w, h, bleed, role))
        elif kind == "emblem":
            emblem = getattr(content, "emblem", None)
            if emblem and area is not None:
                els.append(Icon(emblem, area.cx + region.get("dx", 0.0) * sx, area.cy + region.get("dy", 0.0) * sy,
                                min(area.h, area.w) * region.get("scale", 0.78), region.get("colour"), role=role))
        elif kind == "pips":
            x, y = region["at"]
            for k in range(getattr(content, "pips", 0)):
                step = k * region.get("step", 2.6) * sx
                els.append(Icon("pip", x * sx + step, y * sy, region.get("size", 2.8) * sx, region.get("colour"),
                                role="pip"))
                if region.get("mirror"):
                    els.append(Icon("pip", w - x * sx - step, y * sy, region.get("size", 2.8) * sx,
                                    region.get("colour"), role="pip"))
        elif kind == "badges" and area is not None:
            stats = getattr(content, "stats", ())
            badge = region.get("size", 7.2) * min(sx, sy)
            top = region.get("top", 4.0) * sy
            step_y = min(region.get("step", 8.0) * sy, (area.h - top) / max(1, len(stats)))
            for i, (name, icon, label) in enumerate(stats):
                els.append(Icon(icon, region.get("x", 10.6) * sx, area.top - top - i * step_y, badge, None, label,
                                role=f"stat:{name}"))
        elif kind == "circle":
            x, y = region["at"]
            r = region["r"] * sx
            els.append(Circle(x * sx, y * sy, r, fill=region.get("fill"), stroke=region.get("stroke"),
                              width=region.get("width", 0.25), role=role))
            if region.get("text"):
                side = r * math.sqrt(2)
                els.append(Text(Rect(x * sx - side / 2, y * sy - side / 2, side, side), str(region["text"]),
                                style_of(region), role=f"{role}:text"))
        elif kind == "track":
            if keep is not None and region.get("keep_whole") is False:
                raise RegionError(region["name"], "keep_whole: false: a track's spaces are never cut by a tile "
                                                  "seam (a marker must sit on a whole space)")
            try:
                els += track_elements(region, area, role, fields)
            except ValueError as exc:
                raise RegionError(region["name"], str(exc)) from None
        elif kind == "table":
            els += table_elements(region, area, role, fields)
        elif kind == "boxes":
            els += boxes_elements(region, area, role, style_of(region), fields)
        elif kind == "lines":
            els += lines_elements(region, area, role, style_of(region), fields)
        elif kind == "checks":
            els += checks_elements(region, area, role, style_of(region), fields)
        if keep is not None:
            keep += kept(region, els[start:])
    return els


#: How close (mm) a region's edge must come to the piece's edge to count as reaching the trim.
AT_TRIM = 0.01


def trim_sides(area: Rect, w: float, h: float) -> tuple:
    """Which sides of ``area`` lie on the trim of a ``w`` x ``h`` piece, as (left, bottom, right, top) bools."""
    return (area.x <= AT_TRIM, area.y <= AT_TRIM, area.right >= w - AT_TRIM, area.top >= h - AT_TRIM)


def art_picture(art, area: Rect, w: float, h: float, bleed: float, role: str) -> Picture:
    """A card's art in its ``area``. Art made to the trim (``art.bleed``: extend or mirror) in an area that
    reaches the trim runs into the bleed on those sides, the band made from its edge pixels; the picture
    itself still fills ``area`` exactly."""
    mode = getattr(art, "bleed", None)
    if mode and bleed > 0:
        grow = tuple(bleed if at else 0.0 for at in trim_sides(area, w, h))
        if any(grow):
            l, b, r, t = grow
            return Picture(str(art.path), Rect(area.x - l, area.y - b, area.w + l + r, area.h + b + t), art.fit,
                           tuple(art.focus), role=role, grow=grow, grow_mode=mode)
    return Picture(str(art.path), area, art.fit, tuple(art.focus), role=role)


def kept(region: dict, elements) -> list:
    """What of a region's ``elements`` no tile seam may cut, as :class:`~pnp.layout.tiling.Keep`: every
    element with ``keep_whole: true``; none with ``keep_whole: false``; by default the texts and icons
    (what a seam would make unreadable) and, always, a track's spaces (a marker sits on a whole space)."""
    name, whole = region["name"], region.get("keep_whole")
    if region["kind"] == "track":
        # the space itself, not its outline's half width: a seam may run on the line two spaces share
        return [Keep(e.rect, name, f"space {n.markup}") for e, n in zip(elements[::2], elements[1::2])]
    if whole is False:
        return []
    return [Keep(r, name) for r in (extent(e) for e in elements if whole or isinstance(e, (Text, Icon)))
            if r is not None]


def track_cells(path: str, area: Rect, n: int, columns: int | None = None) -> list[Rect]:
    """``n`` spaces filling ``area``: in a row (left to right), a column (top to bottom) or ``around``
    its edge clockwise from the top-left corner, a closed ring (``columns`` spaces along the top and the
    bottom edge, by default as many as keep the spaces nearest square; the corners belong to the top and
    bottom rows). ValueError for a ring that cannot close (an odd count, fewer than 4 spaces, or
    ``columns`` outside 2 .. n / 2), naming the counts that would."""
    if n <= 0:
        return []
    if path == "row":
        cw = area.w / n
        return [Rect(area.x + i * cw, area.y, cw, area.h) for i in range(n)]
    if path == "column":
        ch = area.h / n
        return [Rect(area.x, area.top - (i + 1) * ch, area.w, ch) for i in range(n)]
    why = around_problem(n, columns, "rect's edge")
    if why:
        raise ValueError(why)
    half = (n + 4) // 2                                  # columns + rows
    cols = columns or min(half - 2, max(2, round(half * area.w / (area.w + area.h))))
    rows = half - cols
    cw, ch = area.w / cols, area.h / rows
    cells = [Rect(area.x + i * cw, area.top - ch, cw, ch) for i in range(cols)]                  # top, left to right
    cells += [Rect(area.right - cw, area.top - (j + 1) * ch, cw, ch) for j in range(1, rows - 1)]  # right, down
    cells += [Rect(area.x + i * cw, area.y, cw, ch) for i in range(cols - 1, -1, -1)]            # bottom, right to left
    cells += [Rect(area.x, area.top - (j + 1) * ch, cw, ch) for j in range(rows - 2, 0, -1)]      # left, up
    return cells


def track_elements(region: dict, area: Rect, role: str, fields: list | None = None) -> list:
    """A track's numbered spaces (see :func:`track_cells`); every ``highlight_every``-th number tinted;
    with ``fields``, a field over each space (see :func:`pnp.layout.writein.track_fields`)."""
    numbers = list(region.get("numbers") or ())
    cells = track_cells(region.get("path", "row"), area, len(numbers), region.get("columns"))
    if fields is not None:
        track_fields(region, cells, fields)
    every = region.get("highlight_every", 0)
    fill = region.get("fill") or "#ffffff"
    highlight = region.get("highlight") or tint(region.get("stroke") or "#1f1a17", 0.75)
    style = style_of(region)
    els = []
    for number, cell in zip(numbers, cells):
        lit = every and isinstance(number, int) and number % every == 0
        els.append(Box(cell, fill=highlight if lit else fill, stroke=region.get("stroke") or "#1f1a17",
                       width=region.get("width", 0.3), role=f"{role}:space"))
        els.append(Text(cell.inset(min(0.8, cell.w / 8)), escape(number), style, role=f"{role}:number"))
    return els


def table_elements(region: dict, area: Rect, role: str, fields: list | None = None) -> list:
    """A table: ``rows`` (lists of values, escaped) in equal columns and rows filling ``area``, ruled;
    with ``header`` the first row on a tinted band; with ``fields``, a field over each empty cell when the
    region asks (``field: text``)."""
    rows = [list(r) for r in (region.get("rows") or ())]
    if not rows:
        return []
    ncols = max(len(r) for r in rows)
    cw, ch = area.w / ncols, area.h / len(rows)
    if fields is not None:
        table_fields(region, grid_cells(area, ncols, len(rows)), rows, fields)
    ink = region.get("stroke") or "#1f1a17"
    els = [Box(area, fill=region.get("fill"), stroke=ink, width=region.get("width", 0.3), role=role)]
    if region.get("header"):
        els.append(Box(Rect(area.x, area.top - ch, area.w, ch), fill=tint(ink, 0.8), role=f"{role}:header"))
    style = style_of(region)
    for i, row in enumerate(rows):
        for j, value in enumerate(row):
            cell = Rect(area.x + j * cw, area.top - (i + 1) * ch, cw, ch)
            els.append(Text(cell.inset(min(1.0, cw / 10), min(0.5, ch / 10)), escape(value), style,
                            role=f"{role}:cell"))
    for i in range(1, len(rows)):
        y = area.top - i * ch
        els.append(Line(area.x, y, area.right, y, ink, region.get("width", 0.3) * 0.7, role=f"{role}:rule"))
    for j in range(1, ncols):
        x = area.x + j * cw
        els.append(Line(x, area.y, x, area.top, ink, region.get("width", 0.3) * 0.7, role=f"{role}:rule"))
    return els
