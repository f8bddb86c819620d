"""Print-and-cut sheets for cutting machines (``pnp build --cutter``): registration marks, the area the
machine can cut between them, and the outline of every piece in the sheet's coordinates (plain data in mm).

A print-and-cut machine finds the sheet by the registration marks printed on it and then cuts the
outlines of a cut file drawn in the same coordinates as the marks. pnp prints the marks itself, at the
places the machine's software puts them for the settings docs/printing.md names, so the sheets can be
printed from any PDF viewer and the cut file opened in the machine's software with those settings.

Silhouette (Cameo, Portrait, Curio), "type 1" marks: a filled 5 mm square in the top-left corner and
L-shaped corners (legs 20 mm, 0.3 mm thick) at the top right and the bottom left, the outer edge of every
mark :attr:`Machine.inset` (10 mm) from the sheet's edges. Nothing may be printed or cut near the marks:
pieces keep to :func:`cut_area`, the rectangle inside the marks less the bands at the top and bottom
that hold them (the marks' legs plus :attr:`Machine.keepout`), and :attr:`Machine.keepout` from the
sides.

Pieces lie apart by twice their bleed (:data:`CUT_BLEED` at least), so a cut a little off runs through
the piece's own art, never a neighbour's or the white paper.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.layout.geometry import Box, Rect
from pnp.layout.sheet import Grid


@dataclass(frozen=True)
class Machine:
    """A cutting machine's registration marks and keep-out distances (mm)."""

    name: str
    title: str
    inset: float          # sheet edge to the marks' outer edges, on every side
    square: float         # the side of the filled square in the top-left corner
    leg: float            # the length of each leg of the L-shaped corners
    thickness: float      # the width of the L's legs
    keepout: float        # how far what is printed or cut keeps from the marks and their bands
    corner: float         # the radius of a card's corners in the cut file

    def settings(self) -> str:
        """The registration-mark settings to choose in the machine's software (docs/printing.md)."""
        return (f"type 1, length {self.leg:g} mm, thickness {self.thickness:g} mm, inset {self.inset:g} mm")


MACHINES = {
    "silhouette": Machine("silhouette", "Silhouette (Cameo, Portrait, Curio)", inset=10.0, square=5.0, leg=20.0,
                          thickness=0.3, keepout=3.0, corner=3.0),
}

#: Art runs at least this far past every cut line on cutter sheets, and pieces lie twice this far apart.
CUT_BLEED = 1.0
MARK_INK = "#000000"


def registration_marks(machine: Machine, page_w: float, page_h: float) -> list[Box]:
    """The marks as filled rectangles: the square at the top left, then the L at the top right, then the L
    at the bottom left (each L as its horizontal and its vertical leg)."""
    m, s, leg, t = machine.inset, machine.square, machine.leg, machine.thickness
    right, top = page_w - m, page_h - m
    return [
        Box(Rect(m, top - s, s, s), fill=MARK_INK, role="registration"),
        Box(Rect(right - leg, top - t, leg, t), fill=MARK_INK, role="registration"),
        Box(Rect(right - t, top - leg, t, leg), fill=MARK_INK, role="registration"),
        Box(Rect(m, m, leg, t), fill=MARK_INK, role="registration"),
        Box(Rect(m, m, t, leg), fill=MARK_INK, role="registration"),
    ]


def cut_area(machine: Machine, page_w: float, page_h: float) -> Rect:
    """Where pieces (with their bleed) may lie: inside the marks, below the top band and above the bottom
    band that hold them, :attr:`Machine.keepout` clear of the marks on every side. Centred on the sheet,
    so a grid centred on the sheet (and its duplex mirror) stays inside it."""
    side = machine.inset + machine.keepout
    band = machine.inset + machine.leg + machine.keepout
    return Rect(side, band, page_w - 2 * side, page_h - 2 * band)


def cutter_grid(machine: Machine, card_w: float, card_h: float, page_w: float, page_h: float,
                bleed: float) -> Grid:
    """The grid of cards (each its trim plus ``bleed`` on every side, so neighbours lie ``2 * bleed`` apart)
    centred on the sheet inside :func:`cut_area`: upright or turned a quarter, whichever holds more
    (upright on a tie). Raises ValueError when not one card fits."""
    area = cut_area(machine, page_w, page_h)
    best = None
    for w, h in ((card_w, card_h), (card_h, card_w)):
        pw, ph = w + 2 * bleed, h + 2 * bleed
        cols, rows = int((area.w + 1e-9) // pw), int((area.h + 1e-9) // ph)
        if cols >= 1 and rows >= 1 and (best is None or cols * rows > best.per_sheet):
            best = Grid(page_w, page_h, pw, ph, cols, rows)
    if best is None:
        raise ValueError(f"a {card_w:g} x {card_h:g} mm card does not fit between the {machine.name} "
                         f"registration marks on a {page_w:g} x {page_h:g} mm sheet")
    return best


@dataclass(frozen=True)
class CutOutline:
    """One piece's cut line on a sheet: a rectangle with corners rounded by ``radius`` (mm, sheet frame,
    y up), and the piece it cuts (``label``, e.g. ``outlaw#2``)."""

    rect: Rect
    radius: float
    label: str = ""


@dataclass(frozen=True)
class CutSheet:
    """The cut file of one or more consecutive pages that cut the same outlines: the page size, the
    machine, the pages (1-based, in the PDF beside it) and the outlines."""

    page_w: float
    page_h: float
    machine: Machine
    first: int
    last: int
    outlines: tuple

    @property
    def pages(self) -> str:
        return f"p{self.first}" if self.first == self.last else f"p{self.first}-{self.last}"


def cut_sheets(machine: Machine, page_w: float, page_h: float, pages: list[list[CutOutline]]) -> list[CutSheet]:
    """The outlines of each page (in page order) grouped into runs of consecutive pages that cut the same
    shapes (labels aside): one cut file serves every full sheet of a deck."""
    runs: list[CutSheet] = []
    for number, outlines in enumerate(pages, start=1):
        shapes = tuple((o.rect.rounded(4), round(o.radius, 4)) for o in outlines)
        if runs and tuple((o.rect.rounded(4), round(o.radius, 4)) for o in runs[-1].outlines) == shapes:
            last = runs[-1]
            runs[-1] = CutSheet(page_w, page_h, machine, last.first, number, last.outlines)
        else:
            runs.append(CutSheet(page_w, page_h, machine, number, number, tuple(outlines)))
    return runs
