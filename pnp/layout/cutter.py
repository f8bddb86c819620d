"""Print-and-cut sheets for cutting machines (``pnp build --cutter``): registration marks, the area the
machine can cut between them, and the outline of every piece in the sheet's coordinates (plain data in mm).

A print-and-cut machine finds the sheet by the registration marks printed on it and then cuts the
outlines of a cut file drawn in the same coordinates as the marks. pnp prints the marks itself, at the
places the machine's software puts them for the settings docs/printing.md names, so the sheets can be
printed from any PDF viewer and the cut file opened in the machine's software with those settings.

Silhouette (Cameo, Portrait, Curio), "type 1" marks, as inkscape-silhouette's template draws them and its
driver announces them to the machine (``TB51,400``: legs of 20 mm; ``TB53,10``: lines 0.5 mm wide):
L-shaped corners (legs 20 mm, lines 0.5 mm wide) at the top right and the bottom left and a 5 mm square
in the top-left corner drawn with the same line round it, the centre of every line :attr:`Machine.inset`
(10 mm) from the sheet's edges. Nothing may be printed or cut near the marks: pieces keep to
:func:`cut_area`, the rectangle inside the marks' lines less the bands at the top and bottom that hold
them (the marks' legs plus :attr:`Machine.keepout`), and :attr:`Machine.keepout` from the sides.

Cricut (Explore, Maker, Joy Xtra) "Print Then Cut": Design Space prints its own registration frame
round an uploaded image and cuts the image's outline, so pnp prints no marks: the pieces keep to the
largest image Design Space prints on a Letter or A4 sheet (:data:`CRICUT_AREA`, 6.75 x 9.25 in), and
beside the PDF each sheet is also a PNG whose opaque pixels are exactly the pieces inside their cut
lines (transparent between them), the image to upload (:mod:`pnp.draw.cutfile`).

Brother ScanNCut: the machine scans the sheet on its mat and needs no printed marks; the pieces keep
to the printer's margin (the whole sheet lies inside the mat's scan area) and each carries a thin dark
keyline on its cut line, so its edge shows against the paper in the scan.

Pieces lie apart by twice their bleed (:data:`CUT_BLEED` at least), so a cut a little off runs through
the piece's own art, never a neighbour's or the white paper.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.layout.geometry import Box, Circle, Polygon, Rect
from pnp.layout.sheet import Grid
from pnp.units import MM_PER_INCH, PRINTER_MARGIN


@dataclass(frozen=True)
class Machine:
    """A cutting machine's registration marks and keep-out distances (mm). ``marks`` is the kind of marks
    pnp prints (``type1``: Silhouette's; ``""``: none, the machine's software prints its own or the machine
    scans the sheet); ``image`` writes each sheet as a PNG to upload (Cricut Design Space); ``keyline``
    draws every cut line thinly on the sheet (ScanNCut's scan)."""

    name: str
    title: str
    inset: float = 0.0    # sheet edge to the centre of the marks' lines, on every side
    square: float = 0.0   # the side of the square in the top-left corner, between its outline's centres
    leg: float = 0.0      # the length of each leg of the L-shaped corners, from the corner's centre
    thickness: float = 0.0  # the width of the marks' lines
    keepout: float = 0.0  # how far what is printed or cut keeps from the marks and their bands
    corner: float = 3.0   # the radius of a card's corners in the cut file
    marks: str = ""
    image: bool = False
    keyline: bool = False

    def settings(self) -> str:
        """The registration-mark settings to choose in the machine's software (docs/printing.md)."""
        if self.marks != "type1":
            return ""
        return (f"type 1, length {self.leg:g} mm, thickness {self.thickness:g} mm, inset {self.inset:g} mm")


MACHINES = {
    "silhouette": Machine("silhouette", "Silhouette (Cameo, Portrait, Curio)", inset=10.0, square=5.0, leg=20.0,
                          thickness=0.5, keepout=3.0, corner=3.0, marks="type1"),
    "cricut": Machine("cricut", "Cricut (Print Then Cut in Design Space)", corner=3.0, image=True),
    "scanncut": Machine("scanncut", "Brother ScanNCut", corner=3.0, keyline=True),
}

#: The largest image Cricut Design Space prints for Print Then Cut on a Letter or A4 sheet (6.75 x 9.25 in):
#: it draws its registration frame round it, in the sheet's margins.
CRICUT_AREA = (6.75 * MM_PER_INCH, 9.25 * MM_PER_INCH)
#: Art runs at least this far past every cut line on cutter sheets, and pieces lie twice this far apart.
CUT_BLEED = 1.0
MARK_INK = "#000000"
#: ScanNCut: the dark line drawn on every cut line, so each piece's edge shows in the machine's scan.
KEYLINE_INK = "#1a1a1a"
KEYLINE_WIDTH = 0.2
#: Cricut: the resolution of the sheet images to upload.
IMAGE_DPI = 300


def registration_marks(machine: Machine, page_w: float, page_h: float) -> list[Box]:
    """The marks pnp prints, as filled rectangles (none for a machine whose software prints its own, or
    that scans the sheet). Silhouette type 1: the square at the top left (its outline's centre on the
    lines ``inset`` from the edges, so its ink reaches half a line beyond them), then the L at the top
    right, then the L at the bottom left, each as its horizontal and its vertical leg: a line centred
    ``inset`` from the edges, running ``leg`` from the corner's centre inwards, its outer end squared
    off at the corner (as a stroked path with a mitred corner draws it)."""
    if machine.marks != "type1":
        return []
    m, s, leg, t = machine.inset, machine.square, machine.leg, machine.thickness
    right, top, half = page_w - m, page_h - m, t / 2
    return [
        Box(Rect(m - half, top - s - half, s + t, s + t), fill=MARK_INK, role="registration"),
        Box(Rect(right - leg, top - half, leg + half, t), fill=MARK_INK, role="registration"),
        Box(Rect(right - half, top - leg, t, leg + half), fill=MARK_INK, role="registration"),
        Box(Rect(m - half, m - half, leg + half, t), fill=MARK_INK, role="registration"),
        Box(Rect(m - half, m - half, t, leg + half), fill=MARK_INK, role="registration"),
    ]


def keylines(machine: Machine, outlines) -> list:
    """ScanNCut: each outline drawn as a thin dark line on the sheet (its edge in the machine's scan);
    nothing for the other machines."""
    if not machine.keyline:
        return []
    out = []
    for o in outlines:
        if o.shape == "circle":
            out.append(Circle(o.rect.cx, o.rect.cy, o.rect.w / 2, stroke=KEYLINE_INK, width=KEYLINE_WIDTH,
                              role="keyline"))
        elif o.shape == "polygon":
            out.append(Polygon(o.points, stroke=KEYLINE_INK, width=KEYLINE_WIDTH, role="keyline"))
        else:
            out.append(Box(o.rect, stroke=KEYLINE_INK, width=KEYLINE_WIDTH, radius=o.radius, role="keyline"))
    return out


def cut_area(machine: Machine, page_w: float, page_h: float) -> Rect:
    """Where pieces (with their bleed) may lie, centred on the sheet (so a grid centred on the sheet, and
    its duplex mirror, stays inside it). Silhouette: inside the marks, below the top band and above the
    bottom band that hold them, :attr:`Machine.keepout` clear of the centre of the marks' lines at the
    sides and of the ends of their legs above and below. Cricut: the
    image Design Space prints (:data:`CRICUT_AREA`), within the printer's margin. ScanNCut: the sheet
    less the printer's margin."""
    if machine.marks == "type1":
        side = machine.inset + machine.keepout
        band = machine.inset + machine.leg + machine.keepout
        return Rect(side, band, page_w - 2 * side, page_h - 2 * band)
    w, h = page_w - 2 * PRINTER_MARGIN, page_h - 2 * PRINTER_MARGIN
    if machine.image:
        w, h = min(w, CRICUT_AREA[0]), min(h, CRICUT_AREA[1])
    return Rect((page_w - w) / 2, (page_h - h) / 2, w, h)


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
    """One piece's cut line on a sheet (mm, sheet frame, y up) and the piece it cuts (``label``, e.g.
    ``outlaw#2``): a rectangle ``rect`` with corners rounded by ``radius`` (``shape="rect"``), the circle
    inscribed in the square ``rect`` (``"circle"``), or the closed polygon through ``points``
    (``"polygon"``, ``rect`` its bounding box)."""

    rect: Rect
    radius: float = 0.0
    label: str = ""
    shape: str = "rect"
    points: tuple = ()

    def key(self) -> tuple:
        """What the cut looks like (the label aside), rounded to 0.1 µm."""
        return (self.shape, self.rect.rounded(4), round(self.radius, 4),
                tuple((round(x, 4), round(y, 4)) for x, y in self.points))


def circle_outline(cx: float, cy: float, r: float, label: str = "") -> CutOutline:
    return CutOutline(Rect(cx - r, cy - r, 2 * r, 2 * r), 0.0, label, "circle")


def polygon_outline(points, label: str = "") -> CutOutline:
    points = tuple((float(x), float(y)) for x, y in points)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return CutOutline(Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)), 0.0, label, "polygon", points)


def bounds(outlines) -> Rect:
    """The smallest rectangle holding every outline."""
    x0, y0 = min(o.rect.x for o in outlines), min(o.rect.y for o in outlines)
    return Rect(x0, y0, max(o.rect.right for o in outlines) - x0, max(o.rect.top for o in outlines) - y0)


@dataclass(frozen=True)
class CutSheet:
    """The cut file of one or more consecutive pages that cut the same outlines: the page size, the
    machine, the pages (1-based, in the PDF beside it), the outlines, the fold lines ((x1, y1, x2, y2),
    a layer of their own) and the ``frame``: the part of the sheet the file covers (the whole sheet, or
    for Cricut the image to upload: the outlines' bounds). The file's origin is the frame's corner."""

    page_w: float
    page_h: float
    machine: Machine
    first: int
    last: int
    outlines: tuple
    folds: tuple = ()
    frame: Rect | None = None

    @property
    def pages(self) -> str:
        return f"p{self.first}" if self.first == self.last else f"p{self.first}-{self.last}"

    @property
    def area(self) -> Rect:
        return self.frame if self.frame is not None else Rect(0.0, 0.0, self.page_w, self.page_h)


def cut_sheets(machine: Machine, page_w: float, page_h: float, pages: list[list[CutOutline]],
               folds: list[list[tuple]] | None = None) -> list[CutSheet]:
    """The outlines of each page (in page order) grouped into runs of consecutive pages that cut the same
    shapes (labels aside) and fold the same lines: one cut file serves every full sheet of a deck."""
    runs: list[CutSheet] = []
    folds = folds if folds is not None else [[] for _ in pages]
    for number, (outlines, lines) in enumerate(zip(pages, folds), start=1):
        lines = tuple(tuple(round(v, 6) for v in line) for line in lines)
        shapes = (tuple(o.key() for o in outlines), lines)
        if runs and (tuple(o.key() for o in runs[-1].outlines), runs[-1].folds) == shapes:
            last = runs[-1]
            runs[-1] = CutSheet(page_w, page_h, machine, last.first, number, last.outlines, last.folds, last.frame)
        else:
            frame = bounds(outlines) if machine.image and outlines else None
            runs.append(CutSheet(page_w, page_h, machine, number, number, tuple(outlines), lines, frame))
    return runs


def line_outline(points, label: str = "") -> CutOutline:
    """An open cut (a slit, the cut between a standee's feet): the polyline through ``points``."""
    outline = polygon_outline(points, label)
    return CutOutline(outline.rect, 0.0, label, "line", outline.points)


def placed_outline(outline, dx: float, dy: float, label: str = "") -> CutOutline:
    """A piece's cut line (:mod:`pnp.layout.outline`: a rectangle, a circle or a polygon in the piece's
    frame) moved by (dx, dy) onto the sheet."""
    if hasattr(outline, "r"):
        return circle_outline(outline.cx + dx, outline.cy + dy, outline.r, label)
    if hasattr(outline, "points"):
        return polygon_outline(((x + dx, y + dy) for x, y in outline.points), label)
    return CutOutline(outline.rect.moved(dx, dy), outline.radius, label)


def piece_sheets(machine: Machine, items, page_w: float, page_h: float, bleed: float = CUT_BLEED) -> list[list]:
    """Pieces of mixed sizes on cutter sheets: ``items`` are (key, width, height) of each piece's cut
    line's extent; each sheet is a list of :class:`pnp.layout.packing.Packed` (sheet-relative), their
    bleed inside :func:`cut_area` and ``2 * bleed`` between neighbours. The area is centred on the sheet,
    so each piece's duplex mirror (its back) lies inside it too. Raises ValueError for a piece too large."""
    from pnp.layout.packing import shelf_pack

    area = cut_area(machine, page_w, page_h).inset(bleed)
    sheets: list[list] = []
    for p in shelf_pack(list(items), area, 2 * bleed):
        while len(sheets) <= p.sheet:
            sheets.append([])
        sheets[p.sheet].append(p)
    return sheets


def virtual_page(machine: Machine, page_w: float, page_h: float, margin: float = PRINTER_MARGIN) -> tuple:
    """(width, height, dx, dy): a page to lay pieces out on with a component's own layout (which keeps
    ``margin`` clear at its edges), and the shift that puts what it holds inside :func:`cut_area` of the
    real sheet."""
    area = cut_area(machine, page_w, page_h)
    return area.w + 2 * margin, area.h + 2 * margin, area.x - margin, area.y - margin


CUT_ROLES = ("cut", "base", "slit")


def printed_cuts(page) -> tuple[list[CutOutline], list[tuple]]:
    """The cut lines and fold lines a component's page prints, as the cut file's outlines and folds (sheet
    frame): stroked boxes, circles and closed polygons with a cut role (``cut``; a standee base's
    ``base`` and ``slit``) are outlines; cut lines and open polylines are chained end to end, and each
    chain that closes on itself is one polygon outline (a cube net's edge), the rest open cuts; ``fold``
    lines are folds."""
    from pnp.layout.geometry import Line

    outlines, segments, folds = [], [], []
    for e in page.find("fold"):
        if isinstance(e, Line):
            folds.append((e.x1, e.y1, e.x2, e.y2))
    for role in CUT_ROLES:
        for e in page.find(role):
            if isinstance(e, Line):
                segments.append(((e.x1, e.y1), (e.x2, e.y2)))
            elif isinstance(e, Polygon) and not e.closed:
                segments += list(zip(e.points, e.points[1:]))
            elif isinstance(e, Polygon):
                outlines.append(polygon_outline(e.points))
            elif isinstance(e, Circle):
                outlines.append(circle_outline(e.cx, e.cy, e.r))
            elif isinstance(e, Box):
                outlines.append(CutOutline(e.rect, e.radius))
    return outlines + chains(segments), folds


def chains(segments) -> list[CutOutline]:
    """Segments joined where they meet (to 0.001 mm): a closed chain in which every point joins exactly
    two segments is a polygon outline; every other segment stays an open cut of its own."""
    def key(p):
        return (round(p[0], 3), round(p[1], 3))

    ends: dict = {}
    for i, (a, b) in enumerate(segments):
        if key(a) == key(b):
            continue
        ends.setdefault(key(a), []).append(i)
        ends.setdefault(key(b), []).append(i)
    used, out = set(), []
    for start in range(len(segments)):
        if start in used or key(segments[start][0]) == key(segments[start][1]):
            continue
        # walk round from this segment while every point joins two segments
        loop, points, at, i = [start], [segments[start][0]], key(segments[start][1]), start
        closed = False
        while len(ends.get(at, ())) == 2:
            a, b = segments[i]
            points.append(b if key(b) == at else a)
            nxt = [j for j in ends[at] if j != i][0]
            if nxt == start:
                closed = True
                break
            if nxt in loop:
                break
            i = nxt
            loop.append(i)
            a, b = segments[i]
            at = key(b) if key(a) == at else key(a)
        if closed and len(ends.get(key(segments[start][0]), ())) == 2:
            used.update(loop)
            if key(points[-1]) == key(points[0]):
                points.pop()
            out.append(polygon_outline(points))
    for i, (a, b) in enumerate(segments):
        if i not in used and key(a) != key(b):
            out.append(line_outline((a, b)))
    return out


def onto_sheets(machine: Machine, pages, page_w: float, page_h: float, dx: float, dy: float) -> tuple:
    """Pages a component laid out on :func:`virtual_page` moved onto real sheets inside the cut area,
    with the machine's marks: (sheets, each sheet's cut outlines, each sheet's fold lines), the cuts
    and folds being those the pages print (:func:`printed_cuts`)."""
    from pnp.layout.geometry import Group, Page

    sheets, cuts, folds = [], [], []
    for p in pages:
        sheet = Page(page_w, page_h, [Group(tuple(p.elements), dx, dy, role="cutter-sheet")], label=p.label)
        outlines, lines = printed_cuts(sheet)
        sheet.add(*registration_marks(machine, page_w, page_h))
        sheets.append(sheet)
        cuts.append(outlines)
        folds.append(lines)
    return sheets, cuts, folds
