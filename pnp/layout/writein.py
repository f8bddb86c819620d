"""Regions players write in: grids of boxes, write-in lines and check boxes, and the form fields over them.

Pure geometry in millimetres (no reportlab). Each kind gives the elements that print (a box's outline,
its hint in the corner, a pre-filled value; a line with its label; a check box with its label) and,
when the caller asks for them, a :class:`FormField` over every place a player writes, in tab order:
a region's fields row by row, each row left to right (a track's spaces in their numbers' order). A
pad's fillable PDF (:mod:`pnp.draw.forms`) puts an AcroForm field on each; tracks and tables get
fields too when their region says so (``field: check`` or ``text``).

A region's field names are stable: ``<region>:r<row>c<column>`` in a grid of boxes, a table or a grid
of check boxes, ``<region>:<n>`` on a line or a track's space (rows, columns and n counted from 1;
a region repeated by ``for`` is ``<region>-<k>``, k from 1).
:func:`problems` says why a writing region cannot be written in on a piece of a given size: past its
edge, boxes or lines too small for a hand, a track with too many spaces for its length.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from pnp.layout.colour import tint
from pnp.layout.geometry import Box, Icon, Line, Rect, Style, Text
from pnp.units import PT_PER_MM

INK = "#1f1a17"

#: The smallest places a hand writes in (mm): a box for a digit or a letter, the band of a write-in line,
#: a check box's side, a track's space to circle or cross off.
MIN_BOX = 5.0
MIN_LINE = 5.0
MIN_CHECK = 3.0
MIN_SPACE = 4.0

#: What a region's ``field`` may ask for, and each kind's default on a pad.
FIELD_KINDS = ("text", "check", "none")
DEFAULT_FIELD = {"boxes": "text", "lines": "text", "checks": "check", "track": "check", "table": "none"}
#: The region kinds players write in (a track and a table only with a field).
WRITING_KINDS = ("boxes", "lines", "checks")
#: The keys a cell of a ``boxes`` region may give, as a mapping.
CELL_KEYS = ("text", "icon", "value", "shade")

#: A hint (an icon, a word) takes this share of a box's height, in its top-left corner.
HINT_SHARE = 0.38
#: Room kept between a box's outline and what is printed or typed in it (mm).
BOX_PAD = 0.5
#: How far a write-in line sits above the bottom of its band (mm).
LINE_RISE = 1.0


@dataclass(frozen=True)
class FormField:
    """A place a player writes in: ``name`` (``<region>:<place>``, unique on its piece), ``kind`` (``text``
    or ``check``), its rectangle on the piece and the region it belongs to."""

    name: str
    kind: str
    rect: Rect
    region: str


@dataclass(frozen=True)
class Cell:
    """What a box of a grid shows before anyone writes: a ``hint`` (markup: a word, an icon) and an
    ``icon`` in its corner, a pre-filled ``value`` (markup, printed large: nobody writes there), and
    ``shade`` (the box tinted)."""

    hint: str = ""
    icon: str = ""
    value: str = ""
    shade: bool = False


def field_region(name: str) -> str:
    """A region's name as its fields give it: a repeated region's copy ``grid[2]`` is ``grid-3``."""
    if name.endswith("]") and "[" in name:
        base, index = name[:-1].split("[", 1)
        if index.isdigit():
            return f"{base}-{int(index) + 1}"
    return name


def field_kind(region: dict) -> str:
    """The field a region's places get: its ``field``, else its kind's default (``none`` for other kinds)."""
    return region.get("field") or DEFAULT_FIELD.get(region.get("kind"), "none")


def grid_cells(area: Rect, columns: int, rows: int, gap: float = 0.0) -> list[list[Rect]]:
    """``columns`` x ``rows`` equal cells filling ``area``, ``gap`` mm apart: a list per row, the top row
    first, each left to right."""
    cw = (area.w - (columns - 1) * gap) / columns
    ch = (area.h - (rows - 1) * gap) / rows
    return [[Rect(area.x + c * (cw + gap), area.top - (r + 1) * ch - r * gap, cw, ch) for c in range(columns)]
            for r in range(rows)]


def cell_of(value) -> Cell:
    """A cell as a region's ``cells`` give it: nothing (an empty box), a text (a hint), or a mapping of
    :data:`CELL_KEYS`."""
    if value is None or value == "":
        return Cell()
    if isinstance(value, dict):
        return Cell(str(value.get("text") or ""), str(value.get("icon") or ""), str(value.get("value") or ""),
                    bool(value.get("shade")))
    return Cell(hint=str(value))


def _grid(region: dict) -> tuple[int, int]:
    grid = region.get("grid") or (1, 1)
    return int(grid[0]), int(grid[1])


def _pt(mm: float) -> float:
    return mm * PT_PER_MM


def hint_style(style: Style, box_h: float) -> Style:
    """The small style of a box's hint: sans, at most 8 pt, as large as its corner allows, never under 6 pt."""
    size = max(6.0, min(8.0, round(_pt(box_h * HINT_SHARE) * 0.8 * 4) / 4))
    return Style(font="sans-bold", size=size, min_size=6.0, max_lines=1, align="left", valign="top",
                 colour=style.colour)


def value_style(region: dict, style: Style, box_h: float) -> Style:
    """A pre-filled value's style: the region's style, centred, as large as the box by default."""
    given = region.get("style") if isinstance(region.get("style"), dict) else {}
    size = given.get("size") or max(6.0, round(_pt(box_h - 2 * BOX_PAD) * 0.6 * 4) / 4)
    return replace(style, size=size, min_size=given.get("min_size") or min(size, 6.0), max_lines=1,
                   align="center", valign="middle")


def boxes_elements(region: dict, area: Rect, role: str, style: Style, fields: list | None = None) -> list:
    """A grid of boxes (``grid: [columns, rows]``, ``gap`` mm apart) filling ``area``: each outlined, tinted
    where its cell says ``shade``, its hint and icon in the top-left corner, its pre-filled value in the
    middle; a field over every box without a value."""
    columns, rows = _grid(region)
    cells = region.get("cells") or ()
    ink = region.get("stroke") or INK
    shade = region.get("highlight") or tint(ink, 0.8)
    kind = field_kind(region)
    els = []
    for r, row in enumerate(grid_cells(area, columns, rows, region.get("gap", 0.0))):
        given = cells[r] if r < len(cells) and isinstance(cells[r], (list, tuple)) else ()
        for c, box in enumerate(row):
            cell = cell_of(given[c]) if c < len(given) else Cell()
            els.append(Box(box, fill=shade if cell.shade else region.get("fill"), stroke=ink,
                           width=region.get("width", 0.3), radius=region.get("radius", 0.0), role=f"{role}:box"))
            els += _hint(cell, box, style, role)
            if cell.value:
                els.append(Text(box.inset(BOX_PAD), cell.value, value_style(region, style, box.h), role=f"{role}:value"))
            elif fields is not None and kind != "none":
                fields.append(FormField(f"{field_region(region['name'])}:r{r + 1}c{c + 1}", kind,
                                        _field_rect(box, kind), region["name"]))
    return els


def _hint(cell: Cell, box: Rect, style: Style, role: str) -> list:
    """A box's icon and hint words, in its top-left corner."""
    corner = box.h * HINT_SHARE
    x, top = box.x + BOX_PAD, box.top - BOX_PAD
    els = []
    if cell.icon:
        size = min(corner, box.w * HINT_SHARE)
        els.append(Icon(cell.icon, x + size / 2, top - size / 2, size, None, role=f"{role}:icon"))
        x += size + 0.4
    if cell.hint:
        els.append(Text(Rect(x, top - corner, box.right - BOX_PAD - x, corner), cell.hint, hint_style(style, box.h),
                        role=f"{role}:hint"))
    return els


def _field_rect(box: Rect, kind: str) -> Rect:
    """Where a field sits in a box: inside its outline; a check box square, in the middle."""
    inner = box.inset(min(BOX_PAD, box.w / 8), min(BOX_PAD, box.h / 8))
    if kind != "check":
        return inner
    side = min(inner.w, inner.h)
    return Rect(inner.cx - side / 2, inner.cy - side / 2, side, side)


def line_count(region: dict) -> int:
    """How many lines a ``lines`` region has: its ``count``, else one per label (at least one)."""
    return region.get("count") or max(1, len(region.get("labels") or ()))


def line_bands(area: Rect, count: int) -> list[Rect]:
    """``count`` equal bands filling ``area``, the top one first: a line runs along each band's foot."""
    h = area.h / count
    return [Rect(area.x, area.top - (i + 1) * h, area.w, h) for i in range(count)]


def label_width(region: dict, area: Rect) -> float:
    """How much of a labelled line (or of a check box's cell) its label takes: ``label_width`` mm, else a
    third of the line (no label: none)."""
    if not region.get("labels"):
        return 0.0
    return region.get("label_width") if region.get("label_width") is not None else area.w / 3


def lines_elements(region: dict, area: Rect, role: str, style: Style, fields: list | None = None) -> list:
    """Write-in lines: ``count`` (or one per label) equal bands down ``area``, each with its label at the left
    and a line from the label's end to the right edge, a text field above each line."""
    labels = list(region.get("labels") or ())
    lw = label_width(region, area)
    ink = region.get("stroke") or INK
    label = replace(style, align="left", valign="bottom", max_lines=1)
    els = []
    for i, band in enumerate(line_bands(area, line_count(region))):
        y = band.y + LINE_RISE
        if i < len(labels) and labels[i]:
            els.append(Text(Rect(band.x, y + 0.4, max(0.0, lw - 1.5), band.h - LINE_RISE - 0.6), str(labels[i]),
                            label, role=f"{role}:label"))
        els.append(Line(band.x + lw, y, band.right, y, ink, region.get("width", 0.3), role=f"{role}:line"))
        if fields is not None and field_kind(region) != "none":
            fields.append(FormField(f"{field_region(region['name'])}:{i + 1}", "text",
                                    Rect(band.x + lw, y + 0.3, band.right - band.x - lw, band.h - LINE_RISE - 0.6),
                                    region["name"]))
    return els


def check_side(region: dict, cell: Rect) -> float:
    """A check box's side: the region's ``size``, else three quarters of its cell, at most 5 mm."""
    if region.get("size"):
        return region["size"]
    room = cell.h if region.get("labels") else min(cell.w, cell.h)
    return min(5.0, room * 0.75)


def check_boxes(region: dict, area: Rect) -> list[tuple[Rect, Rect]]:
    """(check box, label's room) of every cell of a ``checks`` region, in reading order: the box at the
    left of its cell when the region has labels, else in its middle."""
    columns, rows = _grid(region)
    labelled = bool(region.get("labels"))
    out = []
    for row in grid_cells(area, columns, rows, region.get("gap", 0.0)):
        for cell in row:
            side = check_side(region, cell)
            x = cell.x if labelled else cell.cx - side / 2
            box = Rect(x, cell.cy - side / 2, side, side)
            out.append((box, Rect(box.right + 1.2, cell.y, max(0.0, cell.right - box.right - 1.2), cell.h)))
    return out


def checks_elements(region: dict, area: Rect, role: str, style: Style, fields: list | None = None) -> list:
    """A grid of check boxes (``grid: [columns, rows]``), each with its label (``labels``, in reading order)
    to its right; a check-box field over each (``field: text`` for a box to write a mark in)."""
    labels = list(region.get("labels") or ())
    columns, _ = _grid(region)
    ink = region.get("stroke") or INK
    label = replace(style, align="left", valign="middle", max_lines=1)
    kind = field_kind(region)
    els = []
    for k, (box, room) in enumerate(check_boxes(region, area)):
        els.append(Box(box, fill=region.get("fill"), stroke=ink, width=region.get("width", 0.3),
                       radius=region.get("radius", 0.0), role=f"{role}:check"))
        if k < len(labels) and labels[k]:
            els.append(Text(room, str(labels[k]), label, role=f"{role}:label"))
        if fields is not None and kind != "none":
            name = f"{field_region(region['name'])}:r{k // columns + 1}c{k % columns + 1}"
            fields.append(FormField(name, kind, _field_rect(box, kind) if kind == "text" else box, region["name"]))
    return els


def track_fields(region: dict, cells: list[Rect], fields: list) -> None:
    """A field over each space of a track (when its region asks for one), in the numbers' order."""
    kind = field_kind(region)
    if kind == "none":
        return
    for i, cell in enumerate(cells):
        fields.append(FormField(f"{field_region(region['name'])}:{i + 1}", kind, _field_rect(cell, kind),
                                region["name"]))


def table_fields(region: dict, cells: list[list[Rect]], rows: list, fields: list) -> None:
    """A field over each empty cell of a table (when its region asks for one), row by row."""
    kind = field_kind(region)
    if kind == "none":
        return
    for i, row in enumerate(cells):
        for j, cell in enumerate(row):
            value = rows[i][j] if i < len(rows) and j < len(rows[i]) else ""
            if value is None or str(value) == "":
                fields.append(FormField(f"{field_region(region['name'])}:r{i + 1}c{j + 1}", kind,
                                        _field_rect(cell, kind), region["name"]))


# ------------------------------------------------------------------------------------------- checks

def problems(region: dict, area: Rect, track_cells: list | None, piece: tuple[float, float],
             what: str = "pad") -> list[str]:
    """Why a writing region (boxes, lines, checks, or a track) cannot be written in on a ``piece`` of
    (width, height) mm: it reaches past the piece's edge, its boxes, lines or check boxes are smaller than
    a hand writes in, a track has more spaces than its length holds, its cells or labels are more than
    its places. ``track_cells`` are a track's spaces as laid out. Empty when all is well."""
    kind = region.get("kind")
    out = []
    past = _past_edge(area, piece)
    if past:
        out.append(f"its rect ({area.w:g} x {area.h:g} mm at [{area.x:g}, {area.y:g}]) reaches {past} of the "
                   f"{piece[0]:g} x {piece[1]:g} mm {what}: give it a rect inside [0, 0, {piece[0]:g}, {piece[1]:g}]")
    if kind == "boxes":
        columns, rows = _grid(region)
        box = grid_cells(area, columns, rows, region.get("gap", 0.0))[0][0]
        if box.w < MIN_BOX - 1e-9 or box.h < MIN_BOX - 1e-9:
            out.append(f"its {columns} x {rows} boxes are {_mm(box.w)} x {_mm(box.h)} mm, too small to write in "
                       f"(at least {MIN_BOX:g} x {MIN_BOX:g} mm): a grid of {columns} x {rows} needs a rect of at least "
                       f"{_need(columns, MIN_BOX, region.get('gap', 0.0))} x {_need(rows, MIN_BOX, region.get('gap', 0.0))} mm; "
                       f"give it a larger rect or fewer boxes")
        cells = region.get("cells") or ()
        if len(cells) > rows:
            out.append(f"cells: gives {len(cells)} rows for a grid of {rows} rows (grid: [{columns}, {rows}])")
        for r, row in enumerate(cells[:rows]):
            if isinstance(row, (list, tuple)) and len(row) > columns:
                out.append(f"cells: row {r + 1} gives {len(row)} cells for a grid of {columns} columns "
                           f"(grid: [{columns}, {rows}])")
    elif kind == "lines":
        count, labels = line_count(region), list(region.get("labels") or ())
        band = area.h / count
        if band < MIN_LINE - 1e-9:
            out.append(f"its {count} lines are {_mm(band)} mm apart, too close to write on (at least {MIN_LINE:g} "
                       f"mm): {count} lines need a rect at least {_mm(count * MIN_LINE)} mm tall")
        if len(labels) > count:
            out.append(f"labels: gives {len(labels)} labels for {count} lines (count: {count})")
    elif kind == "checks":
        columns, rows = _grid(region)
        labels = list(region.get("labels") or ())
        boxes = check_boxes(region, area)
        side = boxes[0][0].w if boxes else 0.0
        if side < MIN_CHECK - 1e-9:
            out.append(f"its check boxes are {_mm(side)} mm, too small to tick (at least {MIN_CHECK:g} mm)")
        if len(labels) > columns * rows:
            out.append(f"labels: gives {len(labels)} labels for {columns * rows} check boxes (grid: [{columns}, {rows}])")
        cell = grid_cells(area, columns, rows, region.get("gap", 0.0))[0][0]
        if side > min(cell.w, cell.h) + 1e-9:
            out.append(f"size: {side:g} mm check boxes do not fit its {_mm(cell.w)} x {_mm(cell.h)} mm cells")
    elif kind == "track" and track_cells:
        short = min(min(c.w, c.h) for c in track_cells)
        if short < MIN_SPACE - 1e-9:
            n = len(track_cells)
            length = area.w if region.get("path", "row") == "row" else area.h if region.get("path") == "column" \
                else 2 * (area.w + area.h)
            out.append(f"{n} spaces are too many for its {_mm(length)} mm: each is {_mm(short)} mm, and a space to "
                       f"mark takes at least {MIN_SPACE:g} mm (at most {int((length + 1e-9) // MIN_SPACE)} spaces "
                       f"along {_mm(length)} mm); give it fewer numbers or a longer rect")
    return out


def _mm(value: float) -> str:
    """A length as a message about a minimum gives it: one decimal, rounded down (4.96 mm is not "5.0")."""
    return f"{math.floor(value * 10 + 1e-6) / 10:.1f}"


def _need(n: int, each: float, gap: float) -> str:
    return f"{n * each + (n - 1) * gap:g}"


def _past_edge(area: Rect, piece: tuple[float, float], tol: float = 1e-6) -> str:
    """Which edges of the piece ``area`` reaches past (and by how much), or ''."""
    w, h = piece
    past = [(f"{-area.x:.1f} mm past the left edge", area.x < -tol),
            (f"{-area.y:.1f} mm past the bottom edge", area.y < -tol),
            (f"{area.right - w:.1f} mm past the right edge", area.right > w + tol),
            (f"{area.top - h:.1f} mm past the top edge", area.top > h + tol)]
    found = [text for text, hit in past if hit]
    return " and ".join(found)
