"""Box nets: the box's sizes from what it holds, flat nets of its pieces, and the sheets they print on.

Everything here is pure geometry in mm (origin bottom-left, y up); nothing imports reportlab.

* :func:`dimensions` sizes the box: inner footprint from the card size (plus sleeve oversize) and a
  clearance; inner depth from the deck's thickness, the token bags' allowance and the clearance.
* A box *style* (a class in :data:`STYLES`, one per design, in the spirit of boxes.py's generators) turns
  those sizes into complete nets: faces joined by fold lines, with glue tabs.
* :func:`sheets` turns a net that fits the sheet only turned a quarter (when nothing on it reads along an
  edge), splits any net still too large for the sheet along fold lines (the new joint gets a
  lettered glue tab, and the edge it glues behind gets the same letter), packs the pieces onto as few
  sheets as they fit, and draws them: cut lines solid, fold lines dashed, decoration on the faces, and a
  note on each sheet saying which pieces it holds.

Sizes of a folded tray (base or lid) with inner size (w, l, d) in a material ``t`` thick: the fold lines
sit at the middle of the material, so the bottom panel measures (w + t) x (l + t) between its folds and
a wall is d + t / 2 high from its fold to its rim; the outside is (w + 2t) x (l + 2t) x (d + t).

Nothing here rotates text (the drawing layer has no rotated text), so every face that carries words is
laid out with its "up" towards the top of the sheet. The telescoping lid is therefore a top panel with
a band of four walls hanging below it, rather than a cross: every side's title then reads upright.
"""

from __future__ import annotations

import math

from dataclasses import dataclass, field, replace

from pnp.layout.geometry import Box, Circle, Icon, Line, Page, Picture, Rect, Style, Text, Transform
from pnp.text.markup import fill
from pnp.units import PRINTER_MARGIN, PT_PER_MM

EPS = 1e-6

CUT_INK = "#2b2b2b"
FOLD_INK = "#8a8a8a"
LINE_WIDTH = 0.25
FOLD_DASH = (2.0, 1.5)
TAB_FILL = "#e4e0d8"
NOTE_INK = "#4a4a4a"

LID_FILL = "#2a2130"        # the card backs' colour, so the box matches the deck
LID_GOLD = "#c9a54a"
BASE_FILL = "#f7f0e1"       # the card faces' parchment
INK = "#1f1a17"
#: The box's colours by the names game.yaml's look.palette gives them.
BOX_COLOURS = {"back": LID_FILL, "accent": LID_GOLD, "paper": BASE_FILL, "ink": INK}

#: Kept clear around every piece, inside the printer margin: cut lines and bleed stay off the edge.
SHEET_MARGIN = PRINTER_MARGIN + 2.0
PIECE_GAP = 5.0             # between neighbouring pieces (more than twice the bleed)
NOTE_HEIGHT = 8.0           # the note at the foot of each sheet

SIDES = ("n", "e", "s", "w")
OPPOSITE = {"n": "s", "s": "n", "e": "w", "w": "e"}


# ---------------------------------------------------------------------------------------------- sizes

@dataclass(frozen=True)
class Sleeve:
    """A card sleeve from box.yaml: what it adds to each card's thickness and to its width and length (mm)."""

    name: str
    thickness: float         # mm added to each card's thickness (both films of the sleeve)
    oversize: float          # mm a sleeved card is wider and longer than the bare card


@dataclass(frozen=True)
class BoxSpec:
    """Everything the box is sized from, in mm."""

    card_w: float
    card_l: float
    cards: int
    card_thickness: float
    token_bags: float        # depth added for the bagged tokens
    clearance: float         # added to each inner dimension (so half of it on each side)
    material: float          # thickness of the card stock the net is printed on
    glue_tab: float          # width of a glue tab
    bleed: float = 1.0       # face colour printed past a cut edge
    sleeve: Sleeve | None = None
    style: dict = field(default_factory=dict, hash=False)   # style-specific parameters


@dataclass(frozen=True)
class Size3:
    """A box size in mm: across the cards' width, along their length, and the depth."""

    w: float                 # across the cards' width
    l: float                 # along the cards' length
    d: float                 # depth (height of the box)

    def rounded(self, digits: int = 2) -> tuple:
        return (round(self.w, digits), round(self.l, digits), round(self.d, digits))


def tray_outer(inner: Size3, t: float) -> Size3:
    """Outside of an open tray (base or lid): walls on four sides, a panel on one face."""
    return Size3(inner.w + 2 * t, inner.l + 2 * t, inner.d + t)


def tray_net(inner: Size3, t: float) -> tuple[float, float, float]:
    """(panel w, panel l, wall height) between the net's fold lines (folds at mid-material)."""
    return inner.w + t, inner.l + t, inner.d + t / 2


def deck_thickness(spec: BoxSpec) -> float:
    per_card = spec.card_thickness + (spec.sleeve.thickness if spec.sleeve else 0.0)
    return spec.cards * per_card


def contents_inner(spec: BoxSpec) -> Size3:
    """The inside the contents need: sleeved or bare card footprint and the deck plus tokens, with clearance."""
    over = spec.sleeve.oversize if spec.sleeve else 0.0
    return Size3(spec.card_w + over + spec.clearance,
                 spec.card_l + over + spec.clearance,
                 deck_thickness(spec) + spec.token_bags + spec.clearance)


# ---------------------------------------------------------------------------------------------- nets

@dataclass(frozen=True)
class Face:
    """A flat panel of a net. ``name`` is '<part>-<side>' (``lid-top``, ``base-left``)."""

    name: str
    rect: Rect
    decor: str = ""          # what is printed on it: lid-top, lid-side, base-bottom, or nothing
    fill: str | None = None
    notch: float = 0.0       # diameter of a thumb notch cut in the middle of the face's top edge

    @property
    def part(self) -> str:
        return self.name.split("-", 1)[0]

    @property
    def side(self) -> str:
        return self.name.split("-", 1)[1]


@dataclass(frozen=True)
class Tab:
    """A glue tab on edge ``side`` of face ``owner``; it is glued behind edge ``joins_side`` of ``joins``."""

    owner: str
    side: str
    joins: str
    joins_side: str
    width: float
    letter: str = ""         # set when the two faces end up in different pieces


def edge(rect: Rect, side: str) -> tuple[float, float, float, float]:
    """The segment (x1, y1, x2, y2) of a rectangle's side."""
    if side == "n":
        return rect.x, rect.top, rect.right, rect.top
    if side == "s":
        return rect.x, rect.y, rect.right, rect.y
    if side == "e":
        return rect.right, rect.y, rect.right, rect.top
    if side == "w":
        return rect.x, rect.y, rect.x, rect.top
    raise ValueError(side)


def edge_length(rect: Rect, side: str) -> float:
    return rect.w if side in ("n", "s") else rect.h


def tab_geometry(face: Rect, tab: Tab) -> tuple[Rect, tuple]:
    """(bounding rect, outline points from one end of the attached edge round to the other) of a tab.

    Both ends are cut back at 45 degrees (by at most a third of the edge) so a folded tab clears the
    folds and tabs next to it.
    """
    length = edge_length(face, tab.side)
    c = min(tab.width, length / 3)
    wd = tab.width
    if tab.side == "n":
        box = Rect(face.x, face.top, face.w, wd)
        pts = ((face.x, face.top), (face.x + c, face.top + wd), (face.right - c, face.top + wd), (face.right, face.top))
    elif tab.side == "s":
        box = Rect(face.x, face.y - wd, face.w, wd)
        pts = ((face.x, face.y), (face.x + c, face.y - wd), (face.right - c, face.y - wd), (face.right, face.y))
    elif tab.side == "e":
        box = Rect(face.right, face.y, wd, face.h)
        pts = ((face.right, face.y), (face.right + wd, face.y + c), (face.right + wd, face.top - c),
               (face.right, face.top))
    else:
        box = Rect(face.x - wd, face.y, wd, face.h)
        pts = ((face.x, face.y), (face.x - wd, face.y + c), (face.x - wd, face.top - c), (face.x, face.top))
    return box, pts


def tab_core(face: Rect, tab: Tab) -> Rect:
    """The rectangle inside a tab between its cut-back ends (where its label and tint go)."""
    box, _ = tab_geometry(face, tab)
    c = min(tab.width, edge_length(face, tab.side) / 3)
    if tab.side in ("n", "s"):
        return Rect(box.x + c, box.y, box.w - 2 * c, box.h)
    return Rect(box.x, box.y + c, box.w, box.h - 2 * c)


def shared_side(a: Rect, b: Rect) -> str | None:
    """Which side of ``a`` lies along a side of ``b`` (with a common stretch), if any."""
    def overlap(p1, p2, q1, q2):
        return min(p2, q2) - max(p1, q1) > EPS
    if abs(a.top - b.y) < EPS and overlap(a.x, a.right, b.x, b.right):
        return "n"
    if abs(a.y - b.top) < EPS and overlap(a.x, a.right, b.x, b.right):
        return "s"
    if abs(a.right - b.x) < EPS and overlap(a.y, a.top, b.y, b.top):
        return "e"
    if abs(a.x - b.right) < EPS and overlap(a.y, a.top, b.y, b.top):
        return "w"
    return None


@dataclass(frozen=True)
class Piece:
    """One connected cut-out: faces joined by folds, with the glue tabs attached to them."""

    faces: tuple
    folds: tuple             # (face name, face name) pairs joined by a fold line
    tabs: tuple

    def face(self, name: str) -> Face:
        return next(f for f in self.faces if f.name == name)

    @property
    def names(self) -> tuple:
        return tuple(f.name for f in self.faces)

    def has(self, name: str) -> bool:
        return any(f.name == name for f in self.faces)

    def fold_side(self, a: str, b: str) -> str:
        side = shared_side(self.face(a).rect, self.face(b).rect)
        if side is None:
            raise ValueError(f"faces {a} and {b} do not share an edge")
        return side

    def edge_kind(self, name: str, side: str) -> str:
        """'fold', 'tab' or 'cut' for one side of a face."""
        for a, b in self.folds:
            if name in (a, b):
                other = b if name == a else a
                if self.fold_side(name, other) == side:
                    return "fold"
        if any(t.owner == name and t.side == side for t in self.tabs):
            return "tab"
        return "cut"

    def bounds(self, bleed: float = 0.0) -> Rect:
        rects = []
        for f in self.faces:
            r = f.rect
            grow = {s: (bleed if self.edge_kind(f.name, s) == "cut" else 0.0) for s in SIDES}
            rects.append(Rect(r.x - grow["w"], r.y - grow["s"], r.w + grow["w"] + grow["e"],
                              r.h + grow["s"] + grow["n"]))
        for t in self.tabs:
            rects.append(tab_geometry(self.face(t.owner).rect, t)[0])
        x0, y0 = min(r.x for r in rects), min(r.y for r in rects)
        x1, y1 = max(r.right for r in rects), max(r.top for r in rects)
        return Rect(x0, y0, x1 - x0, y1 - y0)


@dataclass(frozen=True)
class Dimensions:
    """The sizes a style gives the box (mm): the inside and outside of the base, and of the lid when there is
    one, and the packed deck's thickness."""

    inner: Size3             # the (base's) inside: what the contents need
    base_outer: Size3        # the outside of the box (of the base, for a two-piece box)
    lid_inner: Size3 | None  # None for one-piece boxes
    lid_outer: Size3 | None
    deck: float              # thickness of the deck as packed (sleeved or bare)


#: The least inside depth of a telescoping box's trays (mm): their walls carry the title and their glue tabs
#: the join letters, which a shallower wall has no room for (a box for a few cards is this deep).
MIN_TRAY_DEPTH = 15.0


class TelescopingBox:
    """Two open trays: a base holding the contents and a lid sliding over it (a "telescoping" box). The
    trays are at least :data:`MIN_TRAY_DEPTH` deep inside.

    Style parameters: ``lid_clearance`` (added to the base's outside to give the lid's inside) and
    ``lid_depth`` (``None`` = full depth, the lid reaching down to the table, or a depth in mm).

    Base: a cross-shaped net, the bottom panel with a wall on each side; tabs on the ends of the left
    and right walls glue inside the front and back walls. Lid: the top panel with the front wall
    folded from it, and the walls continuing as a band (left | front | right | back); tabs on the other
    three walls' top edges glue under the top panel, and a tab at the band's end closes the ring.
    """

    name = "telescoping"

    def dimensions(self, spec: BoxSpec) -> Dimensions:
        t = spec.material
        need = contents_inner(spec)
        inner = Size3(need.w, need.l, max(need.d, MIN_TRAY_DEPTH))
        base_outer = tray_outer(inner, t)
        gap = spec.style.get("lid_clearance", 1.0)
        depth = spec.style.get("lid_depth")
        lid_inner = Size3(base_outer.w + gap, base_outer.l + gap,
                          base_outer.d if depth is None else min(depth, base_outer.d))
        return Dimensions(inner, base_outer, lid_inner, tray_outer(lid_inner, t), deck_thickness(spec))

    def nets(self, spec: BoxSpec) -> list[Piece]:
        dims = self.dimensions(spec)
        return [self.lid_net(dims.lid_inner, spec), self.base_net(dims.inner, spec)]

    @staticmethod
    def lid_net(inner: Size3, spec: BoxSpec) -> Piece:
        pw, pl, d = tray_net(inner, spec.material)
        L, W = pl, pw                      # the top panel lies landscape: its length along x
        fill = LID_FILL
        faces = (
            Face("lid-top", Rect(0, 0, L, W), "lid-top", fill),
            Face("lid-front", Rect(0, -d, L, d), "lid-side", fill),
            Face("lid-left", Rect(-W, -d, W, d), "lid-side", fill),
            Face("lid-right", Rect(L, -d, W, d), "lid-side", fill),
            Face("lid-back", Rect(L + W, -d, L, d), "lid-side", fill),
        )
        folds = (("lid-top", "lid-front"), ("lid-left", "lid-front"), ("lid-front", "lid-right"),
                 ("lid-right", "lid-back"))
        g = spec.glue_tab
        tabs = (
            Tab("lid-left", "n", "lid-top", "w", g),
            Tab("lid-right", "n", "lid-top", "e", g),
            Tab("lid-back", "n", "lid-top", "n", g),
            Tab("lid-back", "e", "lid-left", "w", g),
        )
        return Piece(faces, folds, tabs)

    @staticmethod
    def base_net(inner: Size3, spec: BoxSpec) -> Piece:
        pw, pl, d = tray_net(inner, spec.material)
        L, W = pl, pw
        fill = BASE_FILL
        faces = (
            Face("base-bottom", Rect(0, 0, L, W), "base-bottom", fill),
            Face("base-front", Rect(0, -d, L, d), "", fill),
            Face("base-back", Rect(0, W, L, d), "", fill),
            Face("base-left", Rect(-d, 0, d, W), "", fill),
            Face("base-right", Rect(L, 0, d, W), "", fill),
        )
        folds = tuple(("base-bottom", f.name) for f in faces[1:])
        g = spec.glue_tab
        tabs = (
            Tab("base-left", "s", "base-front", "w", g),
            Tab("base-left", "n", "base-back", "w", g),
            Tab("base-right", "s", "base-front", "e", g),
            Tab("base-right", "n", "base-back", "e", g),
        )
        return Piece(faces, folds, tabs)


class TuckBox:
    """A one-piece tuck box: the deck stands in a sleeve of four walls closed by a bottom glued shut and
    a lid whose flap tucks in at the front; dust flaps on the side walls keep cards from slipping out.

    Style parameters: ``flap`` (tuck and dust flaps' height as a fraction of the depth; PRINTING.md:
    about 0.6) and ``notch`` (diameter in mm of the thumb notch cut in the front's top edge).

    The net, left to right: back | right side | front | left side, a glue tab on the left side's free
    edge closing the ring behind the back. The lid and its tuck flap rise from the back; the bottom
    hangs from the front with a tab glued inside the back; dust flaps rise and hang from both sides.
    """

    name = "tuck"

    def dimensions(self, spec: BoxSpec) -> Dimensions:
        inner = contents_inner(spec)
        t = spec.material
        outer = Size3(inner.w + 2 * t, inner.l + 2 * t, inner.d + 2 * t)
        return Dimensions(inner, outer, None, None, deck_thickness(spec))

    def nets(self, spec: BoxSpec) -> list[Piece]:
        inner = self.dimensions(spec).inner
        t = spec.material
        W, H, D = inner.w + t, inner.l + t, inner.d + t      # between fold lines (mid-material)
        flap = max(8.0, spec.style.get("flap", 0.6) * D)
        dark, light = LID_FILL, BASE_FILL
        faces = (
            Face("tuck-back", Rect(0, 0, W, H), "base-bottom", light),
            Face("tuck-right", Rect(W, 0, D, H), "tuck-side", dark),
            Face("tuck-front", Rect(W + D, 0, W, H), "tuck-front", dark, notch=spec.style.get("notch", 14.0)),
            Face("tuck-left", Rect(2 * W + D, 0, D, H), "tuck-side", dark),
            Face("tuck-lid", Rect(0, H, W, D), "", dark),
            Face("tuck-flap", Rect(0, H + D, W, flap), "", dark),
            Face("tuck-bottom", Rect(W + D, -D, W, D), "", dark),
            Face("tuck-dust1", Rect(W, H, D, flap), "", dark),
            Face("tuck-dust2", Rect(2 * W + D, H, D, flap), "", dark),
            Face("tuck-dust3", Rect(W, -flap, D, flap), "", dark),
            Face("tuck-dust4", Rect(2 * W + D, -flap, D, flap), "", dark),
        )
        folds = (("tuck-back", "tuck-right"), ("tuck-right", "tuck-front"), ("tuck-front", "tuck-left"),
                 ("tuck-back", "tuck-lid"), ("tuck-lid", "tuck-flap"), ("tuck-front", "tuck-bottom"),
                 ("tuck-right", "tuck-dust1"), ("tuck-left", "tuck-dust2"), ("tuck-right", "tuck-dust3"),
                 ("tuck-left", "tuck-dust4"))
        g = spec.glue_tab
        tabs = (
            Tab("tuck-left", "e", "tuck-back", "w", g),
            Tab("tuck-bottom", "s", "tuck-back", "s", g),
        )
        return [Piece(faces, folds, tabs)]


#: Box styles by the name box.yaml's ``style.kind`` gives.
STYLES = {TelescopingBox.name: TelescopingBox, TuckBox.name: TuckBox}


# ---------------------------------------------------------------------------------------------- splitting

def _components(names, folds) -> list[set]:
    groups = []
    left = list(names)
    while left:
        group, todo = set(), [left[0]]
        while todo:
            n = todo.pop()
            if n in group:
                continue
            group.add(n)
            todo.extend(b if a == n else a for a, b in folds if n in (a, b))
        groups.append(group)
        left = [n for n in left if n not in group]
    return groups


def split(piece: Piece, fold: tuple, tab_on: str, width: float) -> tuple[Piece, Piece]:
    """Cut ``piece`` along ``fold``; face ``tab_on`` (one of the fold's two faces) gets a glue tab there.

    Returns (the part holding the piece's first face, the other part).
    """
    a, b = fold
    if tab_on not in fold:
        raise ValueError(f"{tab_on} is not on the fold {fold}")
    other = b if tab_on == a else a
    side = piece.fold_side(tab_on, other)
    folds = tuple(f for f in piece.folds if f != fold)
    groups = _components(piece.names, folds)
    if len(groups) != 2:
        raise ValueError(f"cutting {fold} does not split the piece in two")
    new_tab = Tab(tab_on, side, other, OPPOSITE[side], width)
    parts = []
    for group in sorted(groups, key=lambda g: piece.names[0] not in g):
        parts.append(Piece(
            tuple(f for f in piece.faces if f.name in group),
            tuple(f for f in folds if f[0] in group),
            tuple(t for t in piece.tabs + (new_tab,) if t.owner in group),
        ))
    return parts[0], parts[1]


#: Faces whose print reads the same whichever way the net lies on the sheet (a base's underside: its words
#: are laid out upright in whatever rectangle the face has); a wall's title must run along its rim.
TURNABLE_DECOR = ("", "base-bottom")

#: A side after a quarter turn anticlockwise.
TURNED_SIDE = {"n": "w", "w": "s", "s": "e", "e": "n"}


def turned(piece: Piece) -> Piece:
    """``piece`` turned a quarter anticlockwise about the net's origin: (x, y) -> (-y, x)."""
    faces = tuple(replace(f, rect=Rect(-f.rect.top, f.rect.x, f.rect.h, f.rect.w)) for f in piece.faces)
    tabs = tuple(replace(t, side=TURNED_SIDE[t.side], joins_side=TURNED_SIDE[t.joins_side]) for t in piece.tabs)
    return Piece(faces, piece.folds, tabs)


def upright_to_fit(piece: Piece, area_w: float, area_h: float, bleed: float) -> Piece:
    """A net too large for the sheet but that fits turned a quarter (a base taller than it is wide on a
    portrait sheet) is turned rather than cut in two, when nothing on it has to read along an edge."""
    if _fits(piece, area_w, area_h, bleed) or any(f.notch or f.decor not in TURNABLE_DECOR for f in piece.faces):
        return piece
    other = turned(piece)
    return other if _fits(other, area_w, area_h, bleed) else piece


def _fits(piece: Piece, area_w: float, area_h: float, bleed: float) -> bool:
    r = piece.bounds(bleed)
    return r.w <= area_w + EPS and r.h <= area_h + EPS


class NetTooLarge(ValueError):
    """A net that cannot be split into pieces small enough for the sheet."""


def split_to_fit(pieces, area_w: float, area_h: float, glue_tab: float, bleed: float) -> list[Piece]:
    """Split every piece larger than ``area_w`` x ``area_h`` along fold lines until all fit.

    Of all the folds of a piece that is too large (and the two faces the new tab could go on), the cut
    chosen leaves the most parts that fit, then the smallest largest part; ties go to the first fold.
    """
    done, queue = [], list(pieces)
    while queue:
        piece = queue.pop(0)
        if _fits(piece, area_w, area_h, bleed):
            done.append(piece)
            continue
        best = None
        for fold in piece.folds:
            for tab_on in (fold[1], fold[0]):
                first, second = split(piece, fold, tab_on, glue_tab)
                misfits = sum(not _fits(p, area_w, area_h, bleed) for p in (first, second))
                largest = max(p.bounds(bleed).w * p.bounds(bleed).h for p in (first, second))
                score = (misfits, round(largest, 6))
                if best is None or score < best[0]:
                    best = (score, first, second)
        if best is None:
            r = piece.bounds(bleed)
            raise NetTooLarge(f"the {piece.faces[0].name} piece ({r.w:.1f} x {r.h:.1f} mm) does not fit "
                              f"the {area_w:.1f} x {area_h:.1f} mm printable area and has no fold left to cut")
        queue[0:0] = [best[1], best[2]]
    return done


def letter_tabs(pieces) -> list[Piece]:
    """Give every tab that joins two different pieces a letter (A, B, ... in piece order)."""
    out, n = [], 0
    for p in pieces:
        tabs = []
        for t in p.tabs:
            if not p.has(t.joins):
                t = replace(t, letter=_letter(n))
                n += 1
            tabs.append(t)
        out.append(replace(p, tabs=tuple(tabs)))
    return out


def _letter(n: int) -> str:
    s = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        s = chr(65 + r) + s
    return s


# ---------------------------------------------------------------------------------------------- packing

@dataclass(frozen=True)
class Placement:
    """Where a piece of a net is printed: its sheet and the shift from the net's frame to the sheet's."""

    piece: Piece
    sheet: int               # 0-based
    dx: float                # added to the piece's net coordinates to give sheet coordinates
    dy: float

    def rect(self, name: str) -> Rect:
        return self.piece.face(name).rect.moved(self.dx, self.dy)


def pack(pieces, page_w: float, page_h: float, bleed: float) -> list[Placement]:
    """Pieces in order on shelves (rows), each on the first sheet with room; rows and blocks centred."""
    area = printable_area(page_w, page_h)
    sheets = []                          # per sheet: list of rows; a row: list of (piece, bounds)
    for piece in pieces:
        b = piece.bounds(bleed)
        for rows in sheets:
            if _row_fits(rows[-1], b, area) or _new_row_fits(rows, b, area):
                if _row_fits(rows[-1], b, area):
                    rows[-1].append((piece, b))
                else:
                    rows.append([(piece, b)])
                break
        else:
            sheets.append([[(piece, b)]])
    placements = []
    for s, rows in enumerate(sheets):
        heights = [max(b.h for _, b in row) for row in rows]
        block_h = sum(heights) + PIECE_GAP * (len(rows) - 1)
        top = area.top - (area.h - block_h) / 2
        for row, row_h in zip(rows, heights):
            row_w = sum(b.w for _, b in row) + PIECE_GAP * (len(row) - 1)
            x = area.x + (area.w - row_w) / 2
            for piece, b in row:
                # each piece sits at the top of its row
                placements.append(Placement(piece, s, x - b.x, top - b.h - b.y))
                x += b.w + PIECE_GAP
            top -= row_h + PIECE_GAP
    return placements


def _row_fits(row, b: Rect, area: Rect) -> bool:
    used = sum(r.w for _, r in row) + PIECE_GAP * len(row)
    return used + b.w <= area.w + EPS and b.h <= max(r.h for _, r in row) + EPS


def _new_row_fits(rows, b: Rect, area: Rect) -> bool:
    used = sum(max(r.h for _, r in row) for row in rows) + PIECE_GAP * len(rows)
    return used + b.h <= area.h + EPS and b.w <= area.w + EPS


def printable_area(page_w: float, page_h: float) -> Rect:
    """Where pieces may go: inside the sheet margin, above the note."""
    bottom = SHEET_MARGIN + NOTE_HEIGHT + 2.0
    return Rect(SHEET_MARGIN, bottom, page_w - 2 * SHEET_MARGIN, page_h - SHEET_MARGIN - bottom)


# ---------------------------------------------------------------------------------------------- content

@dataclass(frozen=True)
class BoxContent:
    """The words and pictures printed on the box, already resolved to strings."""

    title: str
    emblems: tuple           # (emblem icon name, colour) per faction
    facts: tuple             # short lines for the lid top: players, minutes, ages
    pitch: str
    contents_heading: str
    contents: tuple          # lines: "54 character cards", ... (what the box holds)
    title_lines: int = 1     # lines the title may take on the lid top and sides
    colours: tuple = ()      # (name, colour) of game.yaml's look.palette: back, accent, paper, ink
    art: str | None = None   # look.art: a picture on the lid (and a tuck box's front) instead of the emblems
    beside: tuple = ()       # lines: what the kit has that travels beside the box ("1 rulebook")
    beside_heading: str = ""
    credits: tuple = ()      # lines: design, art, publisher, further credits (pnp.text.credits)
    credits_at: str = "lid"  # a lid's back wall under the title; "wall" alone on it (too shallow for both);
                             # "base": the base's bottom (too shallow for them at all)

    def colour(self, name: str) -> str:
        """A colour of the box: the look's, else pnp's (the card backs' dark lid, gold, parchment, ink)."""
        return dict(self.colours).get(name) or BOX_COLOURS[name]

    def fill(self, fill: str | None) -> str | None:
        """A face's fill in the look's colours (the lid's dark, the base's parchment)."""
        return self.colour("back") if fill == LID_FILL else self.colour("paper") if fill == BASE_FILL else fill

    def styled(self, style: Style, name: str = "accent") -> Style:
        """``style`` in the look's colour ``name`` when the look gives one (else unchanged)."""
        given = dict(self.colours).get(name)
        return replace(style, colour=given) if given else style


@dataclass(frozen=True)
class BoxLabels:
    """Words for the sheet notes."""

    sheet: str = "Box, sheet {n} of {total}"
    parts: dict = field(default_factory=lambda: {"lid": "lid", "base": "base"}, hash=False)
    faces: dict = field(default_factory=lambda: {"top": "top", "bottom": "bottom", "front": "front",
                                                 "back": "back", "left": "left side", "right": "right side"},
                        hash=False)
    glue: str = "glue"
    how: str = "Cut solid lines, fold dashed lines."
    letters: str = "Lettered tabs glue behind these edges:"
    tab_edge: str = "{letter}: {edge} of {part} {face}"
    edges: dict = field(default_factory=lambda: {"n": "top edge", "s": "bottom edge", "e": "right edge",
                                                 "w": "left edge"}, hash=False)
    elsewhere: str = "Tab {letter} meets its edge on sheet {n}."


TITLE_TOP = Style(font="serif-semibold", size=24, min_size=11, max_lines=1, tracking=2.0, upper=True,
                  colour=LID_GOLD)
TITLE_SIDE = Style(font="serif-semibold", size=17, min_size=8, max_lines=1, tracking=2.0, upper=True,
                   colour=LID_GOLD)
FACT_SEPARATOR = " \u00b7 "
FACT_STYLE = Style(font="sans-bold", size=7.5, min_size=5.0, max_lines=1, upper=True, tracking=0.8,
                   colour=LID_GOLD)
HEADING_STYLE = Style(font="serif-semibold", size=13, min_size=8, max_lines=1, tracking=1.5, upper=True)
PITCH_STYLE = Style(font="serif-italic", size=9.0, min_size=6.0, leading=1.15, colour="#3b322b")
CONTENTS_HEAD_STYLE = Style(font="sans-bold", size=6.5, min_size=5.0, max_lines=1, upper=True, tracking=1.0)
CONTENTS_STYLE = Style(font="sans", size=8.0, min_size=5.5, leading=1.3)
CREDITS_STYLE = Style(font="sans", size=6.5, min_size=6.0, leading=1.25, colour=LID_GOLD)
NOTE_STYLE = Style(font="sans", size=7.5, min_size=5.0, max_lines=2, align="left", valign="bottom",
                   colour=NOTE_INK, leading=1.2)
GLUE_STYLE = Style(font="sans", size=6.0, min_size=4.0, max_lines=1, colour="#6b6b6b")
LETTER_STYLE = Style(font="sans-black", size=9.0, min_size=6.0, max_lines=1, colour=INK)

#: Decoration keeps this far inside a face's edges (folds are never quite where the line is).
SAFE = 3.0


def decorate(face: Face, rect: Rect, content: BoxContent) -> list:
    """The printed elements of a face placed at ``rect`` (sheet coordinates)."""
    if face.decor == "lid-top":
        return _lid_top(rect, content)
    if face.decor == "lid-side" and face.side == "back" and content.credits and content.credits_at != "base":
        return _lid_back(rect, content)
    if face.decor == "lid-side":
        return _lid_side(rect, content)
    if face.decor == "base-bottom":     # a tuck box has no lid: its back carries the credits
        return _base_bottom(rect, content, credits=face.part != "base" or content.credits_at == "base")
    if face.decor == "tuck-front":
        return _tuck_front(rect, content)
    if face.decor == "tuck-side":
        return _tuck_side(rect, content)
    return []


#: The least width (mm) inside a tuck box's side wall's safe margin that carries the title: a line of the side
#: title at its smallest size (8 pt, 2.8 mm) with a millimetre either side.
SPINE_LEAST = 5.0


def _tuck_side(r: Rect, content: BoxContent) -> list:
    """A standing box's side wall, its spine on a shelf: the title running up it, bottom to top, between
    two gold rules (the walls were bare: two empty dark panels on a box that stands side-on)."""
    inner = r.inset(SAFE)
    gold = content.colour("accent")
    length, across = inner.h, inner.w           # the title's line runs along the wall's height
    if across < SPINE_LEAST or length < 20.0:   # a box for a few cards: too thin a spine to letter
        return []
    h = min(12.0, across - 2.0)
    # in the title's own frame, x along the wall (upwards on the sheet), y across it (leftwards);
    # a quarter turn anticlockwise sends (x, y) to (inner.right - y, inner.y + x) on the sheet
    own = [Line(0, 0, length, 0, gold, 0.3, role="decor"), Line(0, across, length, across, gold, 0.3, role="decor"),
           Text(Rect(5.0, across / 2 - h / 2, length - 10.0, h), content.title,
                content.styled(TITLE_SIDE), role="spine-title")]
    return [Transform(tuple(own), (0.0, 1.0, -1.0, 0.0, inner.right, inner.y), role="spine")]


def _tuck_front(r: Rect, content: BoxContent) -> list:
    """A standing box's front: the title high up (below the thumb notch), emblems, facts stacked."""
    inner = Rect(r.x + SAFE, r.y + SAFE, r.w - 2 * SAFE, r.h - SAFE - 10.0)   # below the thumb notch
    gold = content.colour("accent")
    els = [Box(inner, stroke=gold, width=0.45, radius=2.0, role="decor")]
    body = inner.inset(3.0)
    title_h = min(22.0, body.h * 0.28)
    title_top = body.top
    els.append(Text(Rect(body.x, title_top - title_h, body.w, title_h), content.title,
                    replace(content.styled(TITLE_TOP), max_lines=2, leading=1.05), role="lid-title"))
    n_facts = len(content.facts)
    facts_h = 4.5 * n_facts
    for i, fact in enumerate(content.facts):
        els.append(Text(Rect(body.x, body.y + facts_h - 4.5 * (i + 1), body.w, 4.2), fact,
                        content.styled(FACT_STYLE), role="lid-fact"))
    band = Rect(body.x, body.y + facts_h + 2.0, body.w, title_top - title_h - 2.0 - (body.y + facts_h + 2.0))
    emblems = content.emblems or (("crown", gold),)
    n = len(emblems)
    if band.h > 6 and content.art:
        els.append(Picture(content.art, band.inset(1.0), "contain", role="lid-art"))
    elif band.h > 6:
        size = min(band.h * 0.8, band.w / (1.3 * n), 22.0)
        for i, (emblem, colour) in enumerate(emblems):
            cx = band.cx + (i - (n - 1) / 2) * size * 1.3
            els.append(Icon(emblem, cx, band.cy, size, colour, role="emblem"))
    return els


def _lid_top(r: Rect, content: BoxContent) -> list:
    inner = r.inset(SAFE)
    gold = content.colour("accent")
    els = [Box(inner, stroke=gold, width=0.45, radius=2.0, role="decor"),
           Box(inner.inset(1.4), stroke=gold, width=0.2, radius=1.5, role="decor")]
    body = inner.inset(4.0)
    title_h = min(13.0, body.h * 0.24)
    title = content.styled(TITLE_TOP)
    els.append(Text(Rect(body.x, body.top - title_h, body.w, title_h), content.title,
                    replace(title, max_lines=content.title_lines, leading=1.0) if content.title_lines > 1
                    else title, role="lid-title"))
    facts_h = min(6.0, body.h * 0.14)
    if content.facts:
        # one line with the same separator between facts, so they are evenly spaced whatever their lengths
        els.append(Text(Rect(body.x, body.y, body.w, facts_h), FACT_SEPARATOR.join(content.facts),
                        content.styled(FACT_STYLE), role="lid-fact"))
        els.append(Line(body.x + 6, body.y + facts_h + 1.8, body.right - 6, body.y + facts_h + 1.8,
                        gold, 0.2, role="decor"))
    # the factions' emblems, each on a parchment disc ringed in its colour, in a gentle arc; a game without
    # any has the crown its rulebook's cover shows (an empty lid looks unfinished)
    band = Rect(body.x, body.y + facts_h + 3.0, body.w, body.h - title_h - facts_h - 5.0)
    emblems = content.emblems or (("crown", gold),)
    n = len(emblems)
    if content.art and band.h > 4:
        els.append(Picture(content.art, band.inset(1.0), "contain", role="lid-art"))
    elif band.h > 4:
        r_disc = min(band.h / 2 - 0.5, band.w / (2.6 * n), 11.0)
        pitch = r_disc * 2.6
        for i, (emblem, colour) in enumerate(emblems):
            cx = band.cx + (i - (n - 1) / 2) * pitch
            lift = 0.0 if n < 3 else (band.h / 2 - r_disc) * 0.6 * (1 - abs(i - (n - 1) / 2) / ((n - 1) / 2))
            cy = band.cy - (band.h / 2 - r_disc) * 0.3 + lift
            els.append(Circle(cx, cy, r_disc, fill=content.colour("paper"), stroke=colour, width=0.8,
                              role="emblem-disc"))
            els.append(Icon(emblem, cx, cy, r_disc * 1.15, colour, role="emblem"))
    return els


def _lid_side(r: Rect, content: BoxContent) -> list:
    inner = r.inset(SAFE)
    gold = content.colour("accent")
    els = [Line(inner.x, inner.top, inner.right, inner.top, gold, 0.3, role="decor"),
           Line(inner.x, inner.y, inner.right, inner.y, gold, 0.3, role="decor")]
    h = min(12.0, inner.h - 2.0)
    # 8 mm clear at each end: join letters sit there
    side = content.styled(TITLE_SIDE)
    style = replace(side, max_lines=content.title_lines, leading=1.0) if content.title_lines > 1 else side
    els.append(Text(Rect(r.x + 8.0, inner.cy - h / 2, r.w - 16.0, h), content.title, style, role="side-title"))
    return els


def _credits_height(content: BoxContent) -> float:
    """The height (mm) the credits take on the lid's back wall."""
    return 2.9 * len(content.credits) + 0.6


def credits_place(wall_h: float, content: BoxContent) -> str:
    """Where the credits go on a box whose lid's back wall is ``wall_h`` mm high (:attr:`BoxContent.credits_at`):
    under the title on that wall when both fit at their smallest sizes, else alone on it, else on the base's
    bottom."""
    inner_h = wall_h - 2 * SAFE
    credits_h = _credits_height(content)
    title = TITLE_SIDE.min_size / PT_PER_MM * content.title_lines
    if credits_h <= inner_h * 0.5 and inner_h - credits_h - 3.0 >= title:
        return "lid"
    return "wall" if credits_h <= inner_h - 2.0 else "base"


def _lid_back(r: Rect, content: BoxContent) -> list:
    """The lid's back wall: the title as on the other walls, smaller and higher, and the credits below it."""
    inner = r.inset(SAFE)
    gold = content.colour("accent")
    els = [Line(inner.x, inner.top, inner.right, inner.top, gold, 0.3, role="decor"),
           Line(inner.x, inner.y, inner.right, inner.y, gold, 0.3, role="decor")]
    if content.credits_at == "wall":           # too shallow for the title too: the credits alone, in the middle
        els.append(Text(Rect(r.x + 8.0, inner.y + 1.0, r.w - 16.0, inner.h - 2.0), "\n".join(content.credits),
                        content.styled(CREDITS_STYLE), role="credits"))
        return els
    credits_h = min(inner.h * 0.5, _credits_height(content))
    title_h = min(9.0, inner.h - credits_h - 3.0)
    els.append(Text(Rect(r.x + 8.0, inner.top - 1.0 - title_h, r.w - 16.0, title_h), content.title,
                    replace(content.styled(TITLE_SIDE), size=13), role="side-title"))
    els.append(Text(Rect(r.x + 8.0, inner.y + 1.0, r.w - 16.0, credits_h), "\n".join(content.credits),
                    content.styled(CREDITS_STYLE), role="credits"))
    return els


def _base_bottom(r: Rect, content: BoxContent, credits: bool = False) -> list:
    """The base's bottom: the title, the pitch, then what the box holds and (when the kit has more than
    it holds) what travels beside it, each list under its own heading; with ``credits``, the credits at
    the foot."""
    body = r.inset(SAFE + 1.5)
    els = [Box(r.inset(SAFE), stroke=content.colour("ink"), width=0.3, radius=1.5, role="decor")]
    if credits and content.credits:
        credits_h = 2.9 * len(content.credits) + 0.6
        els.append(Text(Rect(body.x, body.y, body.w, credits_h), "\n".join(content.credits),
                        replace(CREDITS_STYLE, colour=content.colour("ink")), role="credits"))
        body = Rect(body.x, body.y + credits_h + 2.0, body.w, body.h - credits_h - 2.0)
    lines = content.title_lines if r.w < r.h else 1       # a turned, narrow underside may wrap the title
    head_h = min(8.0 + 4.5 * (lines - 1), body.h * 0.16 * lines)
    heading = replace(HEADING_STYLE, max_lines=lines, leading=1.0) if lines > 1 else HEADING_STYLE
    els.append(Text(Rect(body.x, body.top - head_h, body.w, head_h), content.title,
                    content.styled(heading, "ink"), role="base-title"))
    label_h = 4.0
    blocks = [(content.contents_heading, content.contents, "contents")]
    if content.beside:
        blocks.append((content.beside_heading, content.beside, "beside"))
    wanted = [3.6 * max(1, len(lines)) + 1.0 for _, lines, _ in blocks]
    scale = min(1.0, body.h * 0.5 / (sum(wanted) + label_h * (len(blocks) - 1)))
    y = body.y
    for (heading, lines, role), h in reversed(list(zip(blocks, wanted))):
        h *= scale
        els.append(Text(Rect(body.x, y, body.w, h), "\n".join(lines), CONTENTS_STYLE, role=role))
        els.append(Text(Rect(body.x, y + h, body.w, label_h), heading, CONTENTS_HEAD_STYLE, role=f"{role}-heading"))
        y += h + label_h
    pitch_top = body.top - head_h - 1.5
    pitch_bottom = y + 4.0
    if content.pitch:           # a box.yaml without a pitch prints none (and asks no room for it)
        els.append(Text(Rect(body.x, pitch_bottom, body.w, pitch_top - pitch_bottom), content.pitch, PITCH_STYLE,
                        role="pitch"))
    rule_y = y + 1.8
    els.append(Line(body.x + body.w * 0.3, rule_y, body.right - body.w * 0.3, rule_y, content.colour("ink"), 0.2,
                    role="decor"))
    return els


# ---------------------------------------------------------------------------------------------- drawing

def _line(x1, y1, x2, y2, kind: str) -> Line:
    if kind == "fold":
        return Line(x1, y1, x2, y2, FOLD_INK, LINE_WIDTH, FOLD_DASH, role="fold")
    return Line(x1, y1, x2, y2, CUT_INK, LINE_WIDTH, role="cut")


def piece_elements(pl: Placement, content: BoxContent, labels: BoxLabels, bleed: float, lettered) -> list:
    """Fills, decoration, tabs, join letters, then fold and cut lines (lines on top) of a placed piece."""
    piece, dx, dy = pl.piece, pl.dx, pl.dy
    fills, deco, tabs, lines = [], [], [], []
    for f in piece.faces:
        r = f.rect.moved(dx, dy)
        if f.fill and bleed > 0:
            for s in SIDES:
                if piece.edge_kind(f.name, s) == "cut":
                    fills.append(Box(_bleed_strip(r, s, bleed), fill=content.fill(f.fill), role="bleed"))
        fills.append(Box(r, fill=content.fill(f.fill), role=f"panel:{f.name}"))
        if f.notch and piece.edge_kind(f.name, "n") == "cut":  # the notch is cut away: unprinted paper
            fills.append(Circle(r.cx, r.top, min(f.notch, r.w / 2) / 2, fill="#ffffff", role="notch"))
        deco.extend(decorate(f, r, content))
        for s in SIDES:
            kind = piece.edge_kind(f.name, s)
            if kind == "cut" and s == "n" and f.notch:
                lines.extend(_notched_edge(r, f.notch))
            elif kind == "cut":
                lines.append(_line(*edge(r, s), "cut"))
            elif kind == "tab":
                lines.append(_line(*edge(r, s), "fold"))
    for a, b in piece.folds:
        ra, rb = piece.face(a).rect.moved(dx, dy), piece.face(b).rect.moved(dx, dy)
        side = shared_side(ra, rb)
        x1, y1, x2, y2 = edge(ra, side)
        if side in ("n", "s"):
            x1, x2 = max(ra.x, rb.x), min(ra.right, rb.right)
        else:
            y1, y2 = max(ra.y, rb.y), min(ra.top, rb.top)
        lines.append(_line(x1, y1, x2, y2, "fold"))
    for t in piece.tabs:
        fr = piece.face(t.owner).rect.moved(dx, dy)
        box, pts = tab_geometry(fr, t)
        core = tab_core(fr, t)
        tabs.append(Box(box, role="glue-tab"))             # the tab's extent (not drawn)
        tabs.append(Box(core, fill=TAB_FILL, role="glue-fill"))
        for (x1, y1), (x2, y2) in zip(pts, pts[1:]):
            lines.append(_line(x1, y1, x2, y2, "cut"))
        if t.letter:
            tabs.append(Text(core, t.letter, LETTER_STYLE, role="glue-letter"))
        elif core.h >= 2.5 and core.w - 1.0 >= _word_width(labels.glue, GLUE_STYLE.min_size):
            tabs.append(Text(core.inset(0.5), labels.glue, GLUE_STYLE, role="glue-label"))
    # the edge a lettered tab glues behind carries no letter (it would print on the outside of the box):
    # the sheet's note names it
    return fills + deco + tabs + lines


def _word_width(word: str, size: float) -> float:
    """A generous width (mm) of ``word`` set in sans at ``size`` pt: 0.62 em a letter, more than any
    bundled sans font's average, so a label given this much room fits it."""
    return len(word) * 0.62 * size / PT_PER_MM


def _notched_edge(r: Rect, diameter: float) -> list:
    """A top cut edge with a half-round thumb notch in its middle (drawn as short straight cuts)."""
    rad = min(diameter, r.w / 2) / 2
    pts = [(r.x, r.top), (r.cx - rad, r.top)]
    steps = 16
    for k in range(1, steps):
        a = math.pi + math.pi * k / steps          # from the left end round the bottom to the right
        pts.append((r.cx + rad * math.cos(a), r.top + rad * math.sin(a)))
    pts += [(r.cx + rad, r.top), (r.right, r.top)]
    return [_line(x1, y1, x2, y2, "cut") for (x1, y1), (x2, y2) in zip(pts, pts[1:])]


def _bleed_strip(r: Rect, side: str, b: float) -> Rect:
    if side == "n":
        return Rect(r.x, r.top, r.w, b)
    if side == "s":
        return Rect(r.x, r.y - b, r.w, b)
    if side == "e":
        return Rect(r.right, r.y, b, r.h)
    return Rect(r.x - b, r.y, b, r.h)


def _note(sheet_no: int, total: int, placed: list, all_placed: list, labels: BoxLabels, page_w: float) -> Text:
    pieces = []
    for pl in placed:
        parts = []
        for part in dict.fromkeys(f.part for f in pl.piece.faces):
            faces = ", ".join(dict.fromkeys(labels.faces.get(f.side, f.side) for f in pl.piece.faces
                                            if f.part == part))
            parts.append(f"{labels.parts.get(part, part)}: {faces}")
        pieces.append("; ".join(parts))
    text = fill(labels.sheet, n=sheet_no + 1, total=total) + " \u2014 " + " | ".join(pieces) + ". " + labels.how
    letters = [t for pl in placed for t in pl.piece.tabs if t.letter]
    if letters:
        edges = []
        for t in letters:
            home = next(p for p in all_placed if p.piece.has(t.joins))
            face = home.piece.face(t.joins)
            edges.append(fill(labels.tab_edge, letter=t.letter, edge=labels.edges.get(t.joins_side, t.joins_side),
                              part=labels.parts.get(face.part, face.part),
                              face=labels.faces.get(face.side, face.side)))
        text += " " + labels.letters + " " + "; ".join(edges) + "."
        for t in letters:
            home = next(p.sheet for p in all_placed if p.piece.has(t.joins))
            if home != sheet_no:
                text += " " + fill(labels.elsewhere, letter=t.letter, n=home + 1)
    return Text(Rect(SHEET_MARGIN, SHEET_MARGIN, page_w - 2 * SHEET_MARGIN, NOTE_HEIGHT), text, NOTE_STYLE,
                role="note")


# ---------------------------------------------------------------------------------------------- sheets

@dataclass(frozen=True)
class BoxLayout:
    """A laid-out box: its sizes, the nets before splitting, where every piece went, and the pages."""

    dimensions: Dimensions
    nets: tuple              # the complete nets, before splitting
    placements: tuple        # every piece with its sheet and offset
    pages: list


def box_layout(style, spec: BoxSpec, content: BoxContent, page_w: float, page_h: float,
               labels: BoxLabels | None = None) -> BoxLayout:
    """Size the box, build its nets, split them to fit the sheet, pack and draw them."""
    labels = labels or BoxLabels()
    dims = style.dimensions(spec)
    nets = style.nets(spec)
    if dims.lid_inner is not None and content.credits:
        content = replace(content, credits_at=credits_place(tray_net(dims.lid_inner, spec.material)[2], content))
    area = printable_area(page_w, page_h)
    upright = [upright_to_fit(n, area.w, area.h, spec.bleed) for n in nets]
    pieces = letter_tabs(split_to_fit(upright, area.w, area.h, spec.glue_tab, spec.bleed))
    placements = pack(pieces, page_w, page_h, spec.bleed)
    total = max(p.sheet for p in placements) + 1
    lettered = {t: pl.sheet for pl in placements for t in pl.piece.tabs if t.letter}
    pages = []
    for s in range(total):
        page = Page(page_w, page_h, label=f"Box {s + 1}")
        placed = [p for p in placements if p.sheet == s]
        for pl in placed:
            page.add(*piece_elements(pl, content, labels, spec.bleed, lettered))
        page.add(_note(s, total, placed, placements, labels, page_w))
        pages.append(page)
    return BoxLayout(dims, tuple(nets), tuple(placements), pages)
