"""Printable dice: sticker sheets for blank dice, and fold-up cube nets with glue tabs.

A die is six faces given by the caller in **face order**: ``faces[0]`` ... ``faces[5]`` (a standard die:
the faces showing 1 ... 6), each a list of elements in the face's own frame (0..size, y up).

* **Stickers** (:func:`sticker_plan`, :func:`sticker_pages`): for blank dice ``die_size`` mm across
  (16 mm by default), stickers ``sticker`` mm square (default: 2 mm smaller, clear of the rounded
  edges). A die's six stickers form one block, faces abutting (one cut between neighbours); blocks
  stand ``die_gap`` mm apart. The block is 3 x 2, 2 x 3, 6 x 1 or 1 x 6 stickers, whichever puts the
  most dice on the sheet (ties in that order), inside the printer margin.
* **Cube nets** (:func:`cube_net`, :func:`net_pages`): a cross of six ``edge`` mm squares joined by
  fold lines, with seven glue tabs, one on exactly one edge of each pair of edges that meet once folded.
  Faces go where ``opposite`` pairs (default (0, 5), (1, 4), (2, 3): 1-6, 2-5, 3-4, opposite faces
  summing to 7) end up on opposite sides of the cube, and the three faces of ``corner`` (default faces
  0, 1, 2) run counterclockwise round their shared corner seen from outside (``handed="right"``, the
  Western die) or clockwise (``"left"``, as on many Chinese and Japanese dice).

Every face is printed upright on the flat sheet; on a folded die, faces lie at various quarter turns,
as on any die. Plain data in mm.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.layout.geometry import Box, Circle, Group, Line, Page, Polygon, Rect, Style, Text
from pnp.layout.sheet import Grid, fit_grid
from pnp.units import PRINTER_MARGIN

CUT_INK = "#2b2b2b"
FOLD_INK = "#8a8a8a"
LINE_WIDTH = 0.2
FOLD_DASH = (1.5, 1.0)
TAB_FILL = "#e4e0d8"
GLUE_STYLE = Style(font="sans", size=5.0, min_size=3.5, max_lines=1, colour="#6b6b6b")

STANDARD_OPPOSITE = ((0, 5), (1, 4), (2, 3))
BLOCK_SHAPES = ((3, 2), (2, 3), (6, 1), (1, 6))


# ---------------------------------------------------------------------------------------------- stickers

@dataclass(frozen=True)
class StickerPlan:
    """Where each die's six stickers go on a sheet."""

    die_size: float
    sticker: float
    block_cols: int                # stickers across one die's block
    block_rows: int
    grid: Grid                     # the blocks on the sheet

    @property
    def per_sheet(self) -> int:
        return self.grid.per_sheet

    def face(self, slot: int, face: int) -> Rect:
        """Sticker of face ``face`` (0-5) of the die in block ``slot``: faces in reading order."""
        block = self.grid.slot(slot)
        row, col = divmod(face, self.block_cols)
        s = self.sticker
        return Rect(block.x + col * s, block.top - (row + 1) * s, s, s)


def sticker_plan(page_w: float, page_h: float, die_size: float = 16.0, sticker: float | None = None,
                 die_gap: float = 3.0, margin: float = PRINTER_MARGIN) -> StickerPlan:
    """The block shape and grid putting the most dice on a ``page_w`` x ``page_h`` sheet."""
    s = die_size - 2.0 if sticker is None else sticker
    if not 0 < s <= die_size:
        raise ValueError(f"a sticker must be more than 0 and at most the die's {die_size:g} mm, not {s:g} mm")
    best = None
    for cols, rows in BLOCK_SHAPES:
        try:
            grid = fit_grid(page_w, page_h, cols * s, rows * s, margin, die_gap)
        except ValueError:
            continue
        if best is None or grid.per_sheet > best.per_sheet:
            best = StickerPlan(die_size, s, cols, rows, grid)
    if best is None:
        raise ValueError(f"no die's stickers fit a {page_w:g} x {page_h:g} mm sheet")
    return best


def _clip(rect: Rect, bleed: float, sides) -> Rect:
    """``rect`` grown by ``bleed`` on ``sides`` (n, s, e, w)."""
    left = bleed if "w" in sides else 0.0
    right = bleed if "e" in sides else 0.0
    low = bleed if "s" in sides else 0.0
    high = bleed if "n" in sides else 0.0
    return Rect(rect.x - left, rect.y - low, rect.w + left + right, rect.h + low + high)


def sticker_pages(dice, plan: StickerPlan, bleed: float = 0.5, label: str = "Dice stickers") -> list[Page]:
    """``dice``: per die, six faces (each a list of elements in the sticker's frame, 0..sticker).

    Art runs ``bleed`` mm past the block's outer cut lines (not between the faces of a die: they
    abut). Cut lines are drawn round every sticker."""
    pages = []
    per = plan.per_sheet
    for first in range(0, len(dice), per):
        page = Page(plan.grid.page_w, plan.grid.page_h, label=f"{label} {first // per + 1}")
        chunk = dice[first:first + per]
        for slot, faces in enumerate(chunk):
            if len(faces) != 6:
                raise ValueError(f"die {first + slot + 1}: a die has 6 faces, not {len(faces)}")
            for k, art in enumerate(faces):
                r = plan.face(slot, k)
                row, col = divmod(k, plan.block_cols)
                outer = {s for s, on in (("n", row == 0), ("s", row == plan.block_rows - 1), ("w", col == 0),
                                         ("e", col == plan.block_cols - 1)) if on}
                clip = _clip(Rect(0, 0, r.w, r.h), bleed, outer)
                page.add(Group(tuple(art), r.x, r.y, clip=clip, role=f"sticker:{first + slot}:{k}"))
        for slot in range(len(chunk)):
            for k in range(6):
                page.add(Box(plan.face(slot, k), stroke=CUT_INK, width=LINE_WIDTH, role="cut"))
        pages.append(page)
    return pages


# ---------------------------------------------------------------------------------------------- cube nets

#: The cross net, in squares: (column, row) of each of its six positions, row 0 at the bottom.
#:         [A]
#:     [B] [C] [D]
#:         [E]
#:         [F]
NET_CELLS = {"A": (1, 3), "B": (0, 2), "C": (1, 2), "D": (2, 2), "E": (1, 1), "F": (1, 0)}
NET_FOLDS = (("C", "A"), ("C", "B"), ("C", "D"), ("C", "E"), ("E", "F"))
#: Where a pair of edges meeting on the cube gets its tab: the face first in this list carries it.
#: (F, E and A's free edges stick out where no face lies, so their tabs never overlap anything.)
TAB_PREFERENCE = ("F", "E", "A", "B", "D", "C")
SIDE_VECTORS = {"n": (0, 1), "s": (0, -1), "e": (1, 0), "w": (-1, 0)}


@dataclass(frozen=True)
class NetTab:
    """A glue tab on edge ``side`` of face ``face``; once folded it is glued under edge ``joins_side`` of
    face ``joins`` (faces by their index in face order)."""

    face: int
    side: str
    joins: int
    joins_side: str
    outline: tuple            # points, net frame: from one end of the edge round to the other


@dataclass(frozen=True)
class CubeNet:
    """A die's cross-shaped net in its own frame (mm): each face's square, the folds joining them and the
    glue tabs."""

    edge: float
    tab: float
    cells: dict               # face index -> net position letter (A-F)
    faces: tuple              # face index -> Rect (net frame)
    folds: tuple              # (face, face) pairs joined by a fold
    tabs: tuple               # NetTab
    normals: tuple            # face index -> outward normal once folded (a unit axis vector)
    size: tuple               # (w, h) of the net with its tabs (the net frame starts at (0, 0))

    def face_rect(self, face: int) -> Rect:
        return self.faces[face]


def _fold_frames(edge: float):
    """Fold the cross net into a cube, printed side out: for each position, a function mapping a net
    point to 3D, and the face's outward normal.

    The root face C stays in the plane z = 0, printed side up, the cube below it (outward normal +z).
    A face B joined to an already folded face A across an edge is turned down about that edge: a net
    point p of B, at distance d beyond the edge, lands at A's map of p's foot on the edge plus d times
    A's inward normal; B's outward normal is the direction, mapped by A, that points from the edge into
    B on the net.
    """
    def rect(cell):
        c, r = NET_CELLS[cell]
        return Rect(c * edge, r * edge, edge, edge)

    maps = {"C": (lambda x, y: (x, y, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))}
    pending = list(NET_FOLDS)
    while pending:
        for pair in pending:
            a, b = pair if pair[0] in maps else pair[::-1]
            if a not in maps:
                continue
            f, ex, ey, out = maps[a]
            ra, rb = rect(a), rect(b)
            ux, uy = (rb.cx - ra.cx) / edge, (rb.cy - ra.cy) / edge        # unit step from A into B
            # a point on the shared edge: A's centre plus half an edge towards B
            ox, oy = ra.cx + ux * edge / 2, ra.cy + uy * edge / 2
            inward = tuple(-v for v in out)
            direction = tuple(ux * ex[i] + uy * ey[i] for i in range(3))   # A's map of the step into B

            def fb(x, y, f=f, ox=ox, oy=oy, ux=ux, uy=uy, inward=inward):
                d = (x - ox) * ux + (y - oy) * uy
                foot = f(x - d * ux, y - d * uy)
                return tuple(foot[i] + d * inward[i] for i in range(3))

            # B's map of the net's axes: along the edge as A's; across it, the step into B goes inward
            bx = tuple(inward[i] * ux for i in range(3)) if ux else ex
            by = tuple(inward[i] * uy for i in range(3)) if uy else ey
            maps[b] = (fb, bx, by, direction)
            pending.remove(pair)
            break
    return {cell: (m[0], m[3]) for cell, m in maps.items()}


def _arrange(opposite, corner, handed, edge) -> dict:
    """face index -> net position: opposite pairs on opposite positions, the corner's handedness right."""
    frames = _fold_frames(edge)
    normal = {cell: tuple(round(v) for v in frames[cell][1]) for cell in NET_CELLS}
    opposite_cells = []
    for a in NET_CELLS:
        for b in NET_CELLS:
            if a < b and tuple(-v for v in normal[a]) == normal[b]:
                opposite_cells.append((a, b))
    # the cross: C-F, A-E, B-D; face pairs go to (C, F), (A, E), (B, D) in order
    order = [("C", "F"), ("A", "E"), ("B", "D")]
    assert sorted(opposite_cells) == sorted(tuple(sorted(p)) for p in order)
    pairs = [tuple(p) for p in opposite]
    seen = sorted(i for p in pairs for i in p)
    if seen != list(range(6)) or len(pairs) != 3:
        raise ValueError(f"opposite must pair the six faces 0-5, each once: {opposite!r}")
    if handed not in ("right", "left"):
        raise ValueError(f"handed must be 'right' or 'left', not {handed!r}")
    c0, c1, c2 = corner
    for p in pairs:
        if c0 in p and c1 in p or c0 in p and c2 in p or c1 in p and c2 in p:
            raise ValueError(f"the corner faces {corner!r} must meet at a corner (no two of them opposite)")
    for flip in (False, True):
        cells = {}
        for (i, j), (ca, cb) in zip(pairs, order):
            if flip and (ca, cb) == ("B", "D"):
                ca, cb = cb, ca
            cells[i], cells[j] = ca, cb
        n = [normal[cells[f]] for f in corner]
        det = (n[0][0] * (n[1][1] * n[2][2] - n[1][2] * n[2][1]) - n[0][1] * (n[1][0] * n[2][2] - n[1][2] * n[2][0])
               + n[0][2] * (n[1][0] * n[2][1] - n[1][1] * n[2][0]))
        # seen from outside the corner, a -> b -> c runs counterclockwise when (a, b, c) is right-handed
        if (det > 0) == (handed == "right"):
            return cells
    raise AssertionError("unreachable: one of the two arrangements has each handedness")


def _edge_points(rect: Rect, side: str):
    return {"n": ((rect.x, rect.top), (rect.right, rect.top)), "s": ((rect.x, rect.y), (rect.right, rect.y)),
            "e": ((rect.right, rect.y), (rect.right, rect.top)), "w": ((rect.x, rect.y), (rect.x, rect.top))}[side]


def tab_outline(rect: Rect, side: str, width: float) -> tuple:
    """A trapezoid tab on ``side`` of ``rect``: both ends cut back at 45 degrees (by at most a third of the
    edge), so a tab folded inside clears its neighbours."""
    c = min(width, (rect.w if side in "ns" else rect.h) / 3)
    if side == "n":
        return ((rect.x, rect.top), (rect.x + c, rect.top + width), (rect.right - c, rect.top + width),
                (rect.right, rect.top))
    if side == "s":
        return ((rect.x, rect.y), (rect.x + c, rect.y - width), (rect.right - c, rect.y - width), (rect.right, rect.y))
    if side == "e":
        return ((rect.right, rect.y), (rect.right + width, rect.y + c), (rect.right + width, rect.top - c),
                (rect.right, rect.top))
    return ((rect.x, rect.y), (rect.x - width, rect.y + c), (rect.x - width, rect.top - c), (rect.x, rect.top))


def cube_net(edge: float = 16.0, tab: float = 5.0, opposite=STANDARD_OPPOSITE, corner=(0, 1, 2),
             handed: str = "right") -> CubeNet:
    """The cross net of a die ``edge`` mm across, with ``tab`` mm glue tabs (see the module docstring)."""
    if not edge > 0 or not 0 < tab < edge:
        raise ValueError(f"a net needs edge > 0 and 0 < tab < edge, not edge {edge:g}, tab {tab:g}")
    cells = _arrange(opposite, corner, handed, edge)
    frames = _fold_frames(edge)
    oy = tab                                           # room for the tab under F
    rects = {}
    for cell, (c, r) in NET_CELLS.items():
        rects[cell] = Rect(c * edge, r * edge + oy, edge, edge)
    folded_in = {cell: set() for cell in NET_CELLS}
    for a, b in NET_FOLDS:
        ra, rb = rects[a], rects[b]
        for side, (dx, dy) in SIDE_VECTORS.items():
            if abs(ra.cx + dx * edge - rb.cx) < 1e-9 and abs(ra.cy + dy * edge - rb.cy) < 1e-9:
                folded_in[a].add(side)
                folded_in[b].add({"n": "s", "s": "n", "e": "w", "w": "e"}[side])
    # free edges, matched by where their end points land once folded
    free = []
    for cell in NET_CELLS:
        f = frames[cell][0]
        for side in "nsew":
            if side in folded_in[cell]:
                continue
            p, q = _edge_points(rects[cell], side)
            ends = frozenset(tuple(round(v, 6) for v in f(x, y - oy)) for x, y in (p, q))
            free.append((cell, side, ends))
    pairs = []
    for i, (ca, sa, ea) in enumerate(free):
        for cb, sb, eb in free[i + 1:]:
            if ea == eb:
                pairs.append(((ca, sa), (cb, sb)))
    assert len(pairs) == 7, pairs
    index = {cell: face for face, cell in cells.items()}
    tabs = []
    for (ca, sa), (cb, sb) in pairs:
        if TAB_PREFERENCE.index(cb) < TAB_PREFERENCE.index(ca):
            (ca, sa), (cb, sb) = (cb, sb), (ca, sa)
        tabs.append(NetTab(index[ca], sa, index[cb], sb, tab_outline(rects[ca], sa, tab)))
    faces = tuple(rects[cells[k]] for k in range(6))
    normals = tuple(tuple(round(v) for v in frames[cells[k]][1]) for k in range(6))
    folds = tuple((index[a], index[b]) for a, b in NET_FOLDS)
    xs = [p[0] for t in tabs for p in t.outline] + [0.0, 3 * edge]
    ys = [p[1] for t in tabs for p in t.outline] + [oy, oy + 4 * edge]
    assert min(xs) >= -1e-9 and min(ys) >= -1e-9
    return CubeNet(edge, tab, cells, faces, folds, tuple(tabs), normals, (max(xs), max(ys)))


def net_elements(net: CubeNet, faces, bleed: float = 0.5, glue: str = "glue") -> list:
    """The net's elements in its own frame: each face's art (``faces``: six element lists in the face's
    frame, 0..edge) bleeding ``bleed`` mm past cut edges only, tinted tabs, folds dashed, cuts solid."""
    els = []
    folded = {k: set() for k in range(6)}
    for a, b in net.folds:
        ra, rb = net.faces[a], net.faces[b]
        for side, (dx, dy) in SIDE_VECTORS.items():
            if abs(ra.cx + dx * net.edge - rb.cx) < 1e-6 and abs(ra.cy + dy * net.edge - rb.cy) < 1e-6:
                folded[a].add(side)
                folded[b].add({"n": "s", "s": "n", "e": "w", "w": "e"}[side])
    tabbed = {(t.face, t.side) for t in net.tabs}
    for k, art in enumerate(faces):
        r = net.faces[k]
        cut_sides = {s for s in "nsew" if s not in folded[k] and (k, s) not in tabbed}
        clip = _clip(Rect(0, 0, r.w, r.h), bleed, cut_sides)
        els.append(Group(tuple(art), r.x, r.y, clip=clip, role=f"face:{k}"))
    for t in net.tabs:
        els.append(Polygon(t.outline, fill=TAB_FILL, role="tab"))
        xs, ys = [p[0] for p in t.outline], [p[1] for p in t.outline]
        box = Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
        if t.side in "ns" and box.h >= 3.0:
            els.append(Text(box.inset(box.w * 0.25, 0.3), glue, GLUE_STYLE, role="glue-label"))
        els.append(Polygon(t.outline, stroke=CUT_INK, width=LINE_WIDTH, closed=False, role="cut"))
        (x1, y1), (x2, y2) = _edge_points(net.faces[t.face], t.side)
        els.append(Line(x1, y1, x2, y2, FOLD_INK, LINE_WIDTH, FOLD_DASH, role="fold"))
    for a, b in net.folds:
        ra, rb = net.faces[a], net.faces[b]
        side = next(s for s in folded[a] if abs(ra.cx + SIDE_VECTORS[s][0] * net.edge - rb.cx) < 1e-6
                    and abs(ra.cy + SIDE_VECTORS[s][1] * net.edge - rb.cy) < 1e-6)
        (x1, y1), (x2, y2) = _edge_points(ra, side)
        els.append(Line(x1, y1, x2, y2, FOLD_INK, LINE_WIDTH, FOLD_DASH, role="fold"))
    for k in range(6):
        for s in "nsew":
            if s not in folded[k] and (k, s) not in tabbed:
                (x1, y1), (x2, y2) = _edge_points(net.faces[k], s)
                els.append(Line(x1, y1, x2, y2, CUT_INK, LINE_WIDTH, role="cut"))
    return els


def net_grid(net: CubeNet, page_w: float, page_h: float, gap: float = 2.5, bleed: float = 0.5) -> Grid:
    """As many nets as fit a sheet, ``gap`` mm apart, their bleed inside the printer margin."""
    return fit_grid(page_w, page_h, net.size[0], net.size[1], PRINTER_MARGIN + bleed, gap)


def net_pages(dice, net: CubeNet, page_w: float, page_h: float, gap: float = 2.5, bleed: float = 0.5,
              glue: str = "glue", label: str = "Dice") -> list[Page]:
    """``dice``: per die, six faces (element lists in the face's frame); nets in reading order."""
    grid = net_grid(net, page_w, page_h, gap, bleed)
    pages = []
    for first in range(0, len(dice), grid.per_sheet):
        page = Page(page_w, page_h, label=f"{label} {first // grid.per_sheet + 1}")
        for slot, faces in enumerate(dice[first:first + grid.per_sheet]):
            if len(faces) != 6:
                raise ValueError(f"die {first + slot + 1}: a die has 6 faces, not {len(faces)}")
            r = grid.slot(slot)
            page.add(Group(tuple(net_elements(net, faces, bleed, glue)), r.x, r.y, role=f"net:{first + slot}"))
        pages.append(page)
    return pages


# ---------------------------------------------------------------------------------------------- faces

#: Pip positions of a standard die face, as fractions of the face (x, y from the bottom-left).
PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.75), (0.75, 0.25)),
    3: ((0.25, 0.75), (0.5, 0.5), (0.75, 0.25)),
    4: ((0.25, 0.25), (0.25, 0.75), (0.75, 0.25), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.25, 0.75), (0.5, 0.5), (0.75, 0.25), (0.75, 0.75)),
    6: ((0.25, 0.2), (0.25, 0.5), (0.25, 0.8), (0.75, 0.2), (0.75, 0.5), (0.75, 0.8)),
}


def pip_face(value: int, size: float, colour: str = "#1f1a17", background: str | None = None,
             bleed: float = 1.0) -> list:
    """The pips of a standard die face showing ``value`` (1-6), in a ``size`` mm face's frame."""
    if value not in PIPS:
        raise ValueError(f"a pip face shows 1 to 6, not {value!r}")
    els = []
    if background:
        els.append(Box(Rect(-bleed, -bleed, size + 2 * bleed, size + 2 * bleed), fill=background, role="face-bg"))
    r = size * (0.11 if value == 1 else 0.085)
    els += [Circle(x * size, y * size, r, fill=colour, role="pip") for x, y in PIPS[value]]
    return els
