"""Pads: sheets players write on (roll-and-write sheets, score pads), several to a printed page.

A pad is a piece ``w`` x ``h`` mm drawn by a layout (its boxes, lines and check boxes:
:mod:`pnp.layout.writein`). :func:`pad_sheet` chooses the sheet and the grid of pads on it, as cards
are imposed (:func:`pnp.layout.sheet.fit_grid`: centred, clear of the printer's margin, ``gap`` mm
apart), on a portrait or a landscape sheet, whichever holds more (portrait on a tie).
:func:`pad_pages` lays the pads out with a cut line along every pad's edges, running to the sheet's
edges (:func:`pnp.layout.sheet.cut_lines`); a pad with a back gets a back page after each page of fronts,
every back exactly behind its front for a duplex printer that turns the sheet over on ``flip``'s edge,
drawn the right way up for a pad turned over like a book page (``turn: side``) or a calendar (``top``).
Plain data in mm.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.layout.doublesided import flip_axis, turn_matrix
from pnp.layout.geometry import Group, Page, Rect, Transform, apply, compose
from pnp.layout.sheet import Grid, cut_lines, fit_grid
from pnp.units import PRINTER_MARGIN


@dataclass(frozen=True)
class PadSheet:
    """Where pads go on a sheet: the grid of slots (its page size is the sheet as printed)."""

    grid: Grid

    @property
    def per_sheet(self) -> int:
        return self.grid.per_sheet

    @property
    def landscape(self) -> bool:
        return self.grid.page_w > self.grid.page_h

    def sheets(self, count: int) -> int:
        """Sheets of paper ``count`` pads take."""
        return -(-count // self.per_sheet)


def pad_sheet(pad_w: float, pad_h: float, paper_w: float, paper_h: float, gap: float = 0.0,
              most: int | None = None, margin: float = PRINTER_MARGIN) -> PadSheet:
    """The sheet holding the most ``pad_w`` x ``pad_h`` pads (at most ``most``), portrait or landscape;
    ValueError when not one fits inside the margins either way round."""
    pw, ph = sorted((paper_w, paper_h))
    best = None
    for page_w, page_h in ((pw, ph), (ph, pw)):
        try:
            grid = fit_grid(page_w, page_h, pad_w, pad_h, margin=margin, gutter=gap)
        except ValueError:
            continue
        if most and grid.per_sheet > most:
            grid = _fewer(grid, most)
        if best is None or grid.per_sheet > best.per_sheet:
            best = grid
    if best is None:
        raise ValueError(f"a {pad_w:g} x {pad_h:g} mm pad does not fit a {pw:g} x {ph:g} mm sheet inside {margin:g} mm "
                         f"margins either way round")
    return PadSheet(best)


def _fewer(grid: Grid, most: int) -> Grid:
    """The grid of at most ``most`` slots nearest the full one's shape: fewer rows first, then columns."""
    cols, rows = grid.cols, grid.rows
    while cols * rows > most:
        if rows >= cols and rows > 1:
            rows -= 1
        elif cols > 1:
            cols -= 1
        else:
            rows -= 1
    return Grid(grid.page_w, grid.page_h, grid.item_w, grid.item_h, cols, rows, grid.gutter)


def back_matrix(sheet: PadSheet, slot: Rect, flip: str, turn: str, offset=(0.0, 0.0)) -> tuple:
    """Pad frame -> back page, for the back of the pad in ``slot``: behind it when the sheet is turned over
    on ``flip``'s edge, the pad itself turned over on its ``turn`` edge (:mod:`pnp.layout.doublesided`)."""
    g = sheet.grid
    axis = flip_axis(flip, g.page_w, g.page_h)
    reflection = (-1.0, 0.0, 0.0, 1.0, g.page_w, 0.0) if axis == "x" else (1.0, 0.0, 0.0, -1.0, 0.0, g.page_h)
    front = (1.0, 0.0, 0.0, 1.0, slot.x, slot.y)
    m = compose(reflection, compose(front, turn_matrix(turn, slot.w, slot.h)))
    return m[:4] + (m[4] + offset[0], m[5] + offset[1])


def back_rect(sheet: PadSheet, slot: Rect, flip: str, turn: str, offset=(0.0, 0.0)) -> Rect:
    """Where the back of the pad in ``slot`` is printed on the back page."""
    m = back_matrix(sheet, slot, flip, turn, offset)
    points = [apply(m, x, y) for x, y in ((0.0, 0.0), (slot.w, 0.0), (0.0, slot.h), (slot.w, slot.h))]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def pad_pages(sheet: PadSheet, front, count: int, back=None, flip: str = "long", turn: str = "side",
              offset=(0.0, 0.0), label: str = "Pads") -> list[Page]:
    """The pages of ``count`` pads (``front``, ``back``: elements in the pad's frame), in reading order on
    each sheet; a page of backs after each page of fronts when the pad has a back. Each pad is clipped to
    its rectangle; the fronts carry the cut lines (role ``cut``) of the slots they fill."""
    g = sheet.grid
    clip = Rect(0.0, 0.0, g.item_w, g.item_h)
    pages = []
    for s in range(sheet.sheets(count)):
        n = min(sheet.per_sheet, count - s * sheet.per_sheet)
        slots = [g.slot(i) for i in range(n)]
        page = Page(g.page_w, g.page_h, label=f"{label} {s + 1}")
        for i, slot in enumerate(slots):
            page.add(Group(tuple(front), slot.x, slot.y, clip=clip, role=f"pad:{s * sheet.per_sheet + i + 1}"))
        page.add(*cut_lines(slots, g.page_w, g.page_h))
        pages.append(page)
        if back is not None:
            turned = Page(g.page_w, g.page_h, label=f"{label} {s + 1} back")
            for i, slot in enumerate(slots):
                turned.add(Transform(tuple(back), back_matrix(sheet, slot, flip, turn, offset), clip=clip,
                                     role=f"pad-back:{s * sheet.per_sheet + i + 1}"))
            pages.append(turned)
    return pages
