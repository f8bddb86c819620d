"""Tiling a flat piece larger than a sheet (a board, a map) across several sheets, and the assembly map.

The piece is ``board_w`` x ``board_h`` mm of layout elements in its own frame (origin bottom-left).
:func:`plan_tiles` cuts it into a grid of tiles, rows lettered from the top (A, B, ...) and columns
numbered from the left (1, 2, ...), so tiles are named A1, A2, ..., B1, ...:

* **Seams** are the lines where neighbouring tiles meet on the finished board. Each tile's **core** is
  the part of the board it shows once assembled; the cores tile the board exactly.
* **Overlap**: every tile except those in the first row and column also prints a **glue strip**
  ``overlap`` mm wide beyond its core on its top (north) and left (west) sides. The tile above or to the
  left is **trimmed** exactly on the seam and laid over that strip, so the join is a single cut edge
  lying on printed board, never a gap. A tile's **region** (what is printed on its page and cut out)
  is its core plus its strips.
* Every mark stays inside the printer margin (6 mm): the region is centred on the sheet with a **band**
  (default 7 mm) all round it, between the region and the margin, holding the marks: **alignment
  crosshairs** centred on each seam's extension, printed on *both* tiles of the seam at the same board
  coordinates (the trimmed tile keeps half of its crosshair, whose arm continues the other tile's),
  the tile's label and its neighbours' labels, and trim guides that continue each trimmed edge to the
  margin for a ruler. The bands are cut away once the board is glued.
* **Paper**: portrait or landscape, whichever needs fewer sheets (then whichever cuts fewer features).
* **Seams avoid small features**: the caller lists rectangles (board frame) no seam should cut
  through (a shrine, a track space, a label), plain or as :class:`Keep` (a rectangle and the region it
  belongs to). Seams may move anywhere the sheet size allows, and the tiler picks, for each axis,
  positions closest to equal tiles that keep ``clearance`` mm away from every feature, else positions
  that merely miss them. When no seams miss them with the fewest sheets, the tiler uses **more tiles**
  along that axis, up to ``max_sheets`` sheets in all (the default, None, never adds tiles); when even
  that cannot keep them whole, it cuts what it must with the fewest sheets and says which features
  (:attr:`TilePlan.cut`, :func:`crossings`) and how many sheets would keep them whole
  (:attr:`TilePlan.whole_sheets`).
* **Hex maps** (:func:`plan_hex_tiles`): seams also keep out of the middles of hexes, running where
  neighbouring hex columns (or rows) interlock (see :func:`pnp.layout.hexgrid.seam_keepouts`).

:func:`tile_pages` draws the assembly map page and one page per tile; all results are plain data in mm.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

from pnp.layout.geometry import Box, Circle, Group, Line, Page, Rect, Style, Text, Transform, extent, scaling
from pnp.units import PAPERS, PRINTER_MARGIN

EPS = 1e-6
DEFAULT_OVERLAP = 10.0
DEFAULT_BAND = 7.0
DEFAULT_CLEARANCE = 2.0

CUT_INK = "#2b2b2b"
GUIDE_INK = "#8a8a8a"
MARK_INK = "#e4007c"           # the cut pink the token sheets use: marks that are cut away
HATCH_INK = "#6b6b6b"
CUT_WIDTH = 0.25
MARK_WIDTH = 0.2
CROSS_RADIUS = 2.0             # alignment crosshair: a circle and two arms through its centre
CROSS_ARM = 3.0

LABEL_STYLE = Style(font="sans-bold", size=8.0, min_size=5.0, max_lines=1, colour="#3a3a3a")
#: A tile's heading band narrower than this (mm) sets it on up to three lines.
NARROW_LABEL = 40.0
NARROW_LABEL_STYLE = Style(font="sans-bold", size=6.0, max_lines=3, leading=1.0, colour="#3a3a3a")
HINT_STYLE = Style(font="sans-bold", size=7.0, min_size=5.0, max_lines=1, colour="#3a3a3a")
STRIP_STYLE = Style(font="sans-bold", size=6.5, min_size=4.5, max_lines=3, colour="#3a3a3a", leading=1.1)
MAP_TITLE_STYLE = Style(font="serif-semibold", size=16, min_size=9, max_lines=1, upper=True, tracking=1.5)
MAP_LABEL_STYLE = Style(font="sans-black", size=18, min_size=6, max_lines=1, colour="#1f1a17")
MAP_NOTE_STYLE = Style(font="sans", size=8.5, min_size=6.0, align="left", valign="top", leading=1.3,
                       colour="#3a3a3a")


@dataclass(frozen=True)
class TileLabels:
    """Words printed on tile pages and the assembly map (English defaults; pass translations)."""

    tile: str = "{title} \u00b7 tile {label} \u00b7 {n} of {total}"
    glue: str = "glue under {label}"
    assembly: str = "{title}: assembly map"
    how: tuple = (
        "Cut each tile out on its solid lines. Cut the edges marked by a neighbour's name carefully: they "
        "are the visible joins.",
        "Lay each tile over the hatched glue strip of the tile named on that strip, the half crosshair in "
        "the margin continuing the whole one beneath it, and glue.",
        "Join the tiles of each row first, then the rows. Finally cut away the margins along the board's "
        "outer edge.",
    )


#: pnp's printed words (``templates/strings/<lang>.yaml``) for :class:`TileLabels`: ``tile``, ``glue``,
#: ``assembly``, and the assembly steps ``board_how_1``, ``board_how_2``, ...
TILE_WORDS = ("tile", "glue", "assembly")


def tile_words(words: dict) -> dict:
    """:class:`TileLabels`' fields from a kit's printed words (``board_tile``, ``board_glue``,
    ``board_assembly``, ``board_how_1`` ...); a field the words lack keeps its English default."""
    out = {key: words[f"board_{key}"] for key in TILE_WORDS if words.get(f"board_{key}")}
    how = [words[f"board_how_{n}"] for n in range(1, 10) if words.get(f"board_how_{n}")]
    if how:
        out["how"] = tuple(how)
    return out


def row_name(i: int) -> str:
    """Row letters as in a spreadsheet: A ... Z, AA, AB, ..."""
    name = ""
    i += 1
    while i:
        i, rem = divmod(i - 1, 26)
        name = chr(ord("A") + rem) + name
    return name


def tile_label(row: int, col: int) -> str:
    return f"{row_name(row)}{col + 1}"


@dataclass(frozen=True)
class Keep:
    """A rectangle (board frame) no seam may cut, and what it is: the layout region it belongs to and,
    for a track, which space."""

    rect: Rect
    region: str = ""
    part: str = ""


def _rect(feature) -> Rect:
    return feature.rect if isinstance(feature, Keep) else feature


@dataclass(frozen=True)
class Crossing:
    """A kept feature a seam runs through: the feature, the seam (``"x"``: a vertical seam at ``x = at``;
    ``"y"``: a horizontal one at ``y = at``, board frame) and the two tiles it parts (for a vertical
    seam, the tiles of the rows the feature spans: their labels, left then right)."""

    feature: object
    axis: str
    at: float
    tiles: tuple


@dataclass(frozen=True)
class AlignMark:
    """An alignment crosshair's centre in the board frame, shared by the two tiles of a seam."""

    x: float
    y: float
    seam: str                 # "v" (vertical seam: the mark sits above/below the row) or "h"


@dataclass(frozen=True)
class Tile:
    """One tile of the board (one sheet): what of the board it shows and prints, where that lies on its page,
    and which sides carry a glue strip or are trimmed."""

    row: int
    col: int
    label: str
    core: Rect                # board frame: what this tile shows on the finished board
    region: Rect              # board frame: core plus glue strips, printed and cut out
    dx: float                 # page position = board position + (dx, dy)
    dy: float
    glue: tuple               # sides carrying a glue strip: "n", "w"
    trim: tuple               # sides trimmed on a seam (a neighbour's strip goes under): "s", "e"
    marks: tuple = ()         # AlignMark, board frame

    @property
    def page_region(self) -> Rect:
        return self.region.moved(self.dx, self.dy)

    def to_page(self, x: float, y: float) -> tuple[float, float]:
        return x + self.dx, y + self.dy

    def strip(self, side: str, overlap: float) -> Rect:
        """The glue strip on ``side`` (board frame)."""
        r = self.region
        if side == "w":
            return Rect(r.x, r.y, overlap, r.h)
        if side == "n":
            return Rect(r.x, r.top - overlap, r.w, overlap)
        raise ValueError(side)


@dataclass(frozen=True)
class TilePlan:
    """How a board is cut into tiles: the board and sheet sizes, overlap, band, seams, and every tile in
    reading order."""

    board_w: float
    board_h: float
    page_w: float             # the sheet as printed (landscape when ``landscape``)
    page_h: float
    landscape: bool
    overlap: float
    margin: float
    band: float
    xs: tuple                 # column boundaries, left to right: 0 ... board_w
    ys: tuple                 # row boundaries, top to bottom: board_h ... 0
    tiles: tuple              # reading order: A1, A2, ..., B1, ...
    cut: tuple = ()           # avoided features some seam still cuts (no way round them within max_sheets)
    hex_cuts: int = 0         # seams that run through hex middles (hex-aware plans)
    whole_sheets: int | None = None   # sheets the fewest tiles cutting no avoided feature take (None: no such
                                      # tiling); == sheets when nothing is cut

    @property
    def cols(self) -> int:
        return len(self.xs) - 1

    @property
    def rows(self) -> int:
        return len(self.ys) - 1

    @property
    def sheets(self) -> int:
        return len(self.tiles)

    def tile(self, row: int, col: int) -> Tile:
        return self.tiles[row * self.cols + col]

    def by_label(self, label: str) -> Tile:
        return next(t for t in self.tiles if t.label == label)


# ---------------------------------------------------------------------------------------------- seams

def _merge(intervals) -> list[tuple[float, float]]:
    out = []
    for a, b in sorted(intervals):
        if out and a <= out[-1][1] + EPS:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _free(length: float, keepouts) -> list[tuple[float, float]]:
    """[0, length] without the open ``keepouts`` intervals: closed intervals, sorted."""
    free, start = [], 0.0
    for a, b in sorted((a, b) for a, b in keepouts if b > 0 and a < length):
        if a >= start - EPS:          # open intervals: a seam may run along an edge two features share
            free.append((start, max(start, a)))
        start = max(start, b)
    if start <= length + EPS:
        free.append((start, length))
    return free


def _intersect(xs, ys) -> list[tuple[float, float]]:
    out = []
    for a, b in xs:
        for c, d in ys:
            lo, hi = max(a, c), min(b, d)
            if hi >= lo - EPS:
                out.append((lo, max(lo, hi)))
    return _merge(out)


def _nearest(intervals, target: float) -> float:
    best = None
    for a, b in intervals:
        v = min(max(target, a), b)
        if best is None or abs(v - target) < abs(best - target) - EPS:
            best = v
    return best


def tiles_needed(length: float, usable: float, overlap: float) -> int:
    """How many tiles along one axis: the first covers ``usable`` mm, each further one ``usable - overlap``."""
    if length <= usable + EPS:
        return 1
    return 1 + math.ceil((length - usable) / (usable - overlap) - EPS)


def choose_seams(length: float, usable: float, overlap: float, count: int, keepouts=()) -> tuple | None:
    """Boundaries 0 = b0 < b1 < ... < b_count = length of ``count`` tiles along one axis, or None.

    Constraints: a tile's printed extent (its core, plus ``overlap`` for every tile but the first) is
    at most ``usable``; every core is at least ``max(overlap, 5)`` (a strip lies on one neighbour);
    no inner boundary lies inside an open ``keepouts`` interval. Among the solutions, each boundary is
    chosen, last to first, as close as it can be to equal tiles (forward reachability, then a
    backward pass that always succeeds).
    """
    min_core = max(overlap, 5.0)
    if count == 1:
        return (0.0, length) if length <= usable + EPS else None
    free = _free(length, keepouts)
    maxes = [usable] + [usable - overlap] * (count - 1)
    reach = [[(0.0, 0.0)]]
    for k in range(1, count):
        grown = _merge((a + min_core, b + maxes[k - 1]) for a, b in reach[-1])
        reach.append(_intersect(grown, free))
        if not reach[-1]:
            return None
    last = _intersect(reach[-1], [(length - maxes[-1], length - min_core)])
    if not last:
        return None
    slack = sum(maxes) - length
    targets = [0.0]
    for k in range(count):
        targets.append(targets[-1] + maxes[k] - slack / count)
    bounds = [length]
    allowed = last
    for k in range(count - 1, 0, -1):
        b = _nearest(allowed, targets[k])
        bounds.append(b)
        allowed = _intersect(reach[k - 1], [(b - maxes[k - 1], b - min_core)])
    bounds.append(0.0)
    return tuple(reversed(bounds))


def _cuts(bounds, keepouts) -> int:
    return sum(1 for a, b in keepouts for s in bounds[1:-1] if a + EPS < s < b - EPS)


def _axis(length, usable, overlap, hard, soft, clearance, most: int = 0):
    """(bounds, hard keepouts cut, soft keepouts cut) along one axis: the fewest tiles whose seams miss
    every ``hard`` keep-out (``clearance`` mm clear if they can, and off the ``soft`` ones where they
    can), trying up to ``most`` tiles. Failing that, the same without the keep-outs longer than a tile
    after the first can show (no seams miss those); failing that too, the fewest tiles missing as many
    keep-outs as they can, the longest given up first (so a plan that must cut something cuts the few
    features in the way, and a message can name them)."""
    fewest = tiles_needed(length, usable, overlap)
    small = [(a, b) for a, b in hard if b - a <= usable - overlap + EPS]
    for keeping in ([hard, small] if len(small) < len(hard) else [hard]):
        padded = [(a - clearance, b + clearance) for a, b in keeping]
        for count in range(fewest, max(fewest, most) + 1):
            for keep in (padded + soft, keeping + soft, padded, keeping):
                bounds = choose_seams(length, usable, overlap, count, keep)
                if bounds is not None:
                    return bounds, _cuts(bounds, hard), _cuts(bounds, soft)
            if (count + 1) * max(overlap, 5.0) > length:     # no more tiles fit: each needs its minimum core
                break
    shortest = sorted(hard, key=lambda iv: iv[1] - iv[0])
    for k in range(len(shortest) - 1, 0, -1):
        keeping = shortest[:k]
        padded = [(a - clearance, b + clearance) for a, b in keeping]
        for keep in (padded + soft, keeping + soft, padded, keeping):
            bounds = choose_seams(length, usable, overlap, fewest, keep)
            if bounds is not None:
                return bounds, _cuts(bounds, hard), _cuts(bounds, soft)
    for keep in (soft, []):
        bounds = choose_seams(length, usable, overlap, fewest, keep)
        if bounds is not None:
            return bounds, _cuts(bounds, hard), _cuts(bounds, soft)
    raise ValueError(f"cannot tile {length:g} mm in tiles of {usable:g} mm with {overlap:g} mm overlap")


def _most(length: float, overlap: float) -> int:
    """The most tiles an axis of ``length`` mm can be cut into (each core at least its minimum)."""
    return max(1, int(length // max(overlap, 5.0)))


# ---------------------------------------------------------------------------------------------- plans

def plan_tiles(board_w: float, board_h: float, paper=PAPERS["letter"], overlap: float = DEFAULT_OVERLAP,
               avoid=(), keepout_x=(), keepout_y=(), margin: float = PRINTER_MARGIN, band: float = DEFAULT_BAND,
               clearance: float = DEFAULT_CLEARANCE, orientation: str = "auto",
               max_sheets: int | float | None = None) -> TilePlan:
    """Tile a ``board_w`` x ``board_h`` mm board across sheets of ``paper`` ((w, h) portrait, mm, or a
    name in :data:`pnp.units.PAPERS`).

    ``avoid``: rectangles (board frame, or :class:`Keep`) no seam should cut. ``keepout_x`` /
    ``keepout_y``: open intervals (board frame) where vertical / horizontal seams should rather not run
    (softer than ``avoid``: given up first). ``orientation``: ``auto`` (fewest sheets), ``portrait`` or
    ``landscape``. ``max_sheets``: with a number (``math.inf``: as many as it takes), the plan may use
    more tiles than the fewest, up to that many sheets, so that no seam cuts an avoided feature; then a
    plan that cuts none is preferred to one on fewer sheets. None: the fewest sheets, always.
    """
    if isinstance(paper, str):
        paper = PAPERS[paper]
    pw, ph = sorted(paper)
    if overlap < 0 or band < 2 * CROSS_ARM:
        raise ValueError(f"overlap must be at least 0 and band at least {2 * CROSS_ARM:g} mm")
    if orientation not in ("auto", "portrait", "landscape"):
        raise ValueError(f"orientation must be auto, portrait or landscape, not {orientation!r}")
    rects = [_rect(f) for f in avoid]
    hard_x = [(r.x, r.right) for r in rects]
    hard_y = [(board_h - r.top, board_h - r.y) for r in rects]      # measured down from the top
    soft_y = [(board_h - b, board_h - a) for a, b in keepout_y]
    candidates = []
    for landscape in (False, True):
        if orientation != "auto" and landscape != (orientation == "landscape"):
            continue
        page_w, page_h = (ph, pw) if landscape else (pw, ph)
        uw, uh = page_w - 2 * (margin + band), page_h - 2 * (margin + band)
        if uw <= 2 * overlap or uh <= 2 * overlap:
            raise ValueError(f"a {page_w:g} x {page_h:g} mm sheet leaves no room for tiles with {overlap:g} mm "
                             f"overlap inside {margin:g} mm margins and {band:g} mm mark bands")
        fewest = [_axis(board_w, uw, overlap, hard_x, list(keepout_x), clearance),
                  _axis(board_h, uh, overlap, hard_y, soft_y, clearance)]
        options = [fewest]
        if max_sheets is not None and fewest[0][1] + fewest[1][1]:
            options.append([_axis(board_w, uw, overlap, hard_x, list(keepout_x), clearance, _most(board_w, overlap))
                            if fewest[0][1] else fewest[0],
                            _axis(board_h, uh, overlap, hard_y, soft_y, clearance, _most(board_h, overlap))
                            if fewest[1][1] else fewest[1]])
        for (xs, hx, sx), (ts, hy, sy) in options:
            sheets = (len(xs) - 1) * (len(ts) - 1)
            whole = sheets if hx + hy == 0 else None
            if max_sheets is None:
                key = (sheets, hx + hy, sx + sy, landscape)
            else:        # within the cap (else the fewest sheets), then the fewest cuts, then the fewest sheets
                key = (sheets > max_sheets, sheets if sheets > max_sheets else 0, hx + hy, sheets, sx + sy, landscape)
            candidates.append((key, page_w, page_h, xs, ts, sx + sy, whole))
    key, page_w, page_h, xs, ts, soft_cuts, _ = min(candidates, key=lambda c: c[0])
    landscape = key[-1]
    wholes = [c[6] for c in candidates if c[6] is not None]
    ys = tuple(board_h - t for t in ts)
    tiles = _tiles(xs, ys, overlap, page_w, page_h, band)
    cut = tuple(f for f in avoid if _crosses(_rect(f), xs, ys))
    return TilePlan(board_w, board_h, page_w, page_h, landscape, overlap, margin, band, tuple(xs), ys, tiles,
                    cut, soft_cuts, min(wholes) if wholes else None)


def _crosses(r: Rect, xs, ys) -> bool:
    return any(r.x + EPS < x < r.right - EPS for x in xs[1:-1]) or any(r.y + EPS < y < r.top - EPS for y in ys[1:-1])


def crossings(plan: TilePlan, features) -> list[Crossing]:
    """Every seam of ``plan`` that runs through one of ``features`` (rectangles or :class:`Keep`, board
    frame): a :class:`Crossing` per feature and seam, in the order of ``features``. A seam along a
    feature's edge does not cross it."""
    out = []
    for f in features:
        r = _rect(f)
        rows = [i for i in range(plan.rows) if plan.ys[i + 1] < r.top - EPS and plan.ys[i] > r.y + EPS]
        cols = [j for j in range(plan.cols) if plan.xs[j] < r.right - EPS and plan.xs[j + 1] > r.x + EPS]
        for j, x in enumerate(plan.xs[1:-1], 1):
            if r.x + EPS < x < r.right - EPS:
                out.append(Crossing(f, "x", x, (tile_label(rows[0], j - 1), tile_label(rows[0], j))))
        for i, y in enumerate(plan.ys[1:-1], 1):
            if r.y + EPS < y < r.top - EPS:
                out.append(Crossing(f, "y", y, (tile_label(i - 1, cols[0]), tile_label(i, cols[0]))))
    return out


def plan_hex_tiles(board_w: float, board_h: float, grid, hexes, paper=PAPERS["letter"], **options) -> TilePlan:
    """:func:`plan_tiles` for a hex map: ``grid`` (a :class:`~pnp.layout.hexgrid.HexGrid` placed in the
    board frame) and ``hexes`` (the map's hexes) add keep-outs round every hex-centre line, so seams
    run where neighbouring columns or rows interlock and no hex is cut through its middle where the
    sheet size allows (:attr:`TilePlan.hex_cuts` counts the seams that still do)."""
    from pnp.layout.hexgrid import seam_keepouts

    kx = list(options.pop("keepout_x", ())) + seam_keepouts(grid, hexes, "x")
    ky = list(options.pop("keepout_y", ())) + seam_keepouts(grid, hexes, "y")
    return plan_tiles(board_w, board_h, paper, keepout_x=kx, keepout_y=ky, **options)


def _tiles(xs, ys, overlap, page_w, page_h, band) -> tuple:
    rows, cols = len(ys) - 1, len(xs) - 1
    tiles = []
    for i in range(rows):
        for j in range(cols):
            core = Rect(xs[j], ys[i + 1], xs[j + 1] - xs[j], ys[i] - ys[i + 1])
            west = overlap if j > 0 else 0.0
            north = overlap if i > 0 else 0.0
            region = Rect(core.x - west, core.y, core.w + west, core.h + north)
            dx = (page_w - region.w) / 2 - region.x
            dy = (page_h - region.h) / 2 - region.y
            glue = tuple(s for s, on in (("n", i > 0), ("w", j > 0)) if on)
            trim = tuple(s for s, on in (("s", i < rows - 1), ("e", j < cols - 1)) if on)
            marks = []
            for x in (xs[j], xs[j + 1]):                  # vertical seams on this tile's left and right
                if 0 < x < xs[-1]:
                    marks += [AlignMark(x, region.top + band / 2, "v"), AlignMark(x, region.y - band / 2, "v")]
            for y in (ys[i], ys[i + 1]):                  # horizontal seams above and below
                if 0 < y < ys[0]:
                    marks += [AlignMark(region.x - band / 2, y, "h"), AlignMark(region.right + band / 2, y, "h")]
            tiles.append(Tile(i, j, tile_label(i, j), core, region, dx, dy, glue, trim, tuple(marks)))
    return tuple(tiles)


# ---------------------------------------------------------------------------------------------- pages

def crosshair(x: float, y: float, role: str = "align") -> list:
    """An alignment crosshair centred on (x, y): a circle and two arms (page frame)."""
    return [Circle(x, y, CROSS_RADIUS, stroke=MARK_INK, width=MARK_WIDTH, role=role),
            Line(x - CROSS_ARM, y, x + CROSS_ARM, y, MARK_INK, MARK_WIDTH, role=role),
            Line(x, y - CROSS_ARM, x, y + CROSS_ARM, MARK_INK, MARK_WIDTH, role=role)]


def _hatch(rect: Rect, spacing: float = 2.5) -> Group:
    """Diagonal lines filling ``rect`` (page frame), clipped to it: the glue strip's look."""
    lines = []
    k = -rect.h
    while k < rect.w:
        lines.append(Line(rect.x + k, rect.y, rect.x + k + rect.h, rect.top, HATCH_INK, 0.2, role="hatch"))
        k += spacing
    return Group(tuple(lines), clip=rect, role="glue-hatch")


def _neighbour(plan: TilePlan, tile: Tile, side: str) -> Tile:
    di, dj = {"n": (-1, 0), "s": (1, 0), "w": (0, -1), "e": (0, 1)}[side]
    return plan.tile(tile.row + di, tile.col + dj)


def visible(board_elements, region: Rect, extents=None) -> tuple:
    """The board elements that may paint inside ``region`` (the rest would be clipped away): each tile
    page then carries its share of the board, not all of it. ``extents``: the elements' precomputed
    :func:`~pnp.layout.geometry.extent`, in the same order."""
    extents = extents if extents is not None else [extent(e) for e in board_elements]
    near = region.inset(-1.0)
    return tuple(e for e, r in zip(board_elements, extents) if r is not None and near.overlaps(r))


def tile_page(plan: TilePlan, tile: Tile, board_elements, title: str = "Board",
              labels: TileLabels | None = None, extents=None, fits=None) -> Page:
    """One tile's page: the board clipped to the tile's region, glue strips, cut lines, trim guides,
    crosshairs, the tile's label and its neighbours' names. ``fits``: whether a text fits a box
    (:func:`glue_note`)."""
    labels = labels or TileLabels()
    o, band = plan.overlap, plan.band
    region = tile.page_region
    page = Page(plan.page_w, plan.page_h, label=f"{title} {tile.label}")
    page.add(Group(visible(board_elements, tile.region, extents), tile.dx, tile.dy, clip=tile.region,
                   role=f"tile:{tile.label}"))
    for side in tile.glue:
        strip = tile.strip(side, o).moved(tile.dx, tile.dy)
        page.add(Box(strip, fill="#ffffff", opacity=0.45, role=f"glue:{side}"), _hatch(strip))
        seam_w = MARK_WIDTH
        if side == "w":                      # where the trimmed edge of the tile to the left lands
            x = strip.right - seam_w / 2
            page.add(Line(x, strip.y, x, strip.top, CUT_INK, seam_w, role="seam"))
        else:
            y = strip.y + seam_w / 2
            page.add(Line(strip.x, y, strip.right, y, CUT_INK, seam_w, role="seam"))
        neighbour = _neighbour(plan, tile, side).label
        page.add(*glue_note(glue_room(tile, side, o), side, labels.glue.format(label=neighbour), neighbour, fits,
                            region.cy))
    page.add(*_cut_lines(plan, tile))
    for mark in tile.marks:
        page.add(*crosshair(*tile.to_page(mark.x, mark.y)))
    # labels in the bands: the tile's own above, its neighbours' beside the trimmed edges
    left = region.x + (o if "w" in tile.glue else 0) + CROSS_ARM + 2
    right = region.right - CROSS_ARM - 2
    top_band = Rect(left, region.top + 0.5, right - left, band - 1)
    # a thin strip's band is too short for its heading on one line (it printed "r board · tile B3")
    style = LABEL_STYLE
    if top_band.w < NARROW_LABEL:
        style, top_band = NARROW_LABEL_STYLE, Rect(left, region.top + 0.3, right - left, band - 0.6)
    page.add(Text(top_band, labels.tile.format(title=title, label=tile.label, n=plan.tiles.index(tile) + 1,
                                               total=plan.sheets), style, role="tile-label"))
    if "e" in tile.trim:
        r = Rect(region.right + 0.3, region.cy - 6, band - 0.6, 12)
        page.add(Text(r, _neighbour(plan, tile, "e").label, HINT_STYLE, role="hint:e"))
    if "s" in tile.trim:
        r = Rect(region.cx - 20, region.y - band + 0.5, 40, band - 1)
        page.add(Text(r, _neighbour(plan, tile, "s").label, HINT_STYLE, role="hint:s"))
    return page


#: The longest a glue strip's note is (mm): on a wide strip it stays a label, not a banner.
NOTE_LENGTH = {"w": 16.0, "n": 60.0}


def glue_room(tile: Tile, side: str, overlap: float) -> Rect:
    """Where the note of ``tile``'s glue strip on ``side`` may go (page frame): the strip, 0.5 mm in from
    its long edges, clear of the other strip's corner and 2 mm in from its ends along the top strip."""
    region = tile.page_region
    if side == "w":
        north = overlap if "n" in tile.glue else 0.0
        return Rect(region.x + 0.5, region.y + 0.5, overlap - 1, region.h - north - 1)
    west = overlap if "w" in tile.glue else 0.0
    return Rect(region.x + west + 2, region.top - overlap + 0.5, region.w - west - 4, overlap - 1)


def glue_note(room: Rect, side: str, text: str, short: str, fits=None, middle: float | None = None) -> list:
    """A glue strip's note ("glue under A3") inside ``room`` (:func:`glue_room`), never past it: a box up to
    :data:`NOTE_LENGTH` long centred in the room (on a side strip, on ``middle``, the tile's middle, as
    near as the room allows; by default the room's), the words wrapped
    to fit; on a side strip too narrow for them set across, turned to run up the strip; else the
    neighbour's name alone (``short``); else no note (the hatching still marks the strip). ``fits(markup,
    style, w, h)`` says whether a text fits a box (the caller measures: :func:`pnp.draw.text.fit`);
    without it every text is taken to fit its box."""
    fits = fits or (lambda *_: True)
    if room.w <= 0.4 or room.h <= 0.4:
        return []
    if side == "w":
        h = min(NOTE_LENGTH["w"], room.h)
        at = room.cy if middle is None else middle
        note = Rect(room.x, min(max(at, room.y + h / 2), room.top - h / 2) - h / 2, room.w, h)
    else:
        w = min(NOTE_LENGTH["n"], room.w)
        note = Rect(room.cx - w / 2, room.y, w, room.h)
    one = replace(STRIP_STYLE, max_lines=1)
    for words in (text, short):
        if fits(words, STRIP_STYLE, note.w, note.h):
            return [Box(note.inset(0.2), fill="#ffffff", radius=1.0, opacity=0.85, role="glue-note-bg"),
                    Text(note, words, STRIP_STYLE, role="glue-note")]
        if side != "w":
            continue
        # along the strip, reading upwards: the shortest box (2 mm steps) that holds the words on a line
        length = min(NOTE_LENGTH["w"], room.h)
        while length <= room.h + 1e-9 and not fits(words, one, length, room.w):
            length += 2.0
        if length <= room.h + 1e-9:
            along = Rect(room.x, min(max(note.cy, room.y + length / 2), room.top - length / 2) - length / 2,
                         room.w, length)
            turned = Transform((Text(Rect(0, 0, length, room.w), words, one, role="glue-note"),),
                               (0.0, 1.0, -1.0, 0.0, along.right, along.y), role="glue-note-turned")
            return [Box(along.inset(0.2), fill="#ffffff", radius=1.0, opacity=0.85, role="glue-note-bg"), turned]
    return []


def _cut_lines(plan: TilePlan, tile: Tile) -> list:
    """The region's outline (cut), trimmed edges continued to the margins (guides), crop marks in the
    bands at the other corners."""
    r, m = tile.page_region, plan.margin
    out = []
    h = CUT_WIDTH / 2      # outlines sit just outside the region: cutting on their inner edge leaves no ink
    edges = {"n": (r.x - h, r.top + h, r.right + h, r.top + h), "s": (r.x - h, r.y - h, r.right + h, r.y - h),
             "w": (r.x - h, r.y - h, r.x - h, r.top + h), "e": (r.right + h, r.y - h, r.right + h, r.top + h)}
    for side, (x1, y1, x2, y2) in edges.items():
        kind = "trim" if side in tile.trim else ("glue" if side in tile.glue else "edge")
        out.append(Line(x1, y1, x2, y2, CUT_INK, CUT_WIDTH, role=f"cut:{kind}"))
        if kind == "trim":                            # a ruler guide across the bands to the margins
            if side in ("e", "w"):
                out += [Line(x1, m, x1, y1, GUIDE_INK, MARK_WIDTH, role="guide"),
                        Line(x1, y2, x1, plan.page_h - m, GUIDE_INK, MARK_WIDTH, role="guide")]
            else:
                out += [Line(m, y1, x1, y1, GUIDE_INK, MARK_WIDTH, role="guide"),
                        Line(x2, y1, plan.page_w - m, y1, GUIDE_INK, MARK_WIDTH, role="guide")]
    lo, hi = 1.0, plan.band - 1.0                     # crop marks: 1 mm out, through the band
    for x in (r.x, r.right):
        if not (x == r.right and "e" in tile.trim):
            out += [Line(x, r.top + lo, x, r.top + hi, GUIDE_INK, MARK_WIDTH, role="crop"),
                    Line(x, r.y - lo, x, r.y - hi, GUIDE_INK, MARK_WIDTH, role="crop")]
    for y in (r.y, r.top):
        if not (y == r.y and "s" in tile.trim):
            out += [Line(r.x - lo, y, r.x - hi, y, GUIDE_INK, MARK_WIDTH, role="crop"),
                    Line(r.right + lo, y, r.right + hi, y, GUIDE_INK, MARK_WIDTH, role="crop")]
    return out


#: A word of a title: two letters or more, in any script (a number or a lone letter names nothing).
_WORD = re.compile(r"[^\W\d_]{2,}")


def _words(text: str) -> set[str]:
    return {w.casefold() for w in _WORD.findall(text)}


def assembly_title(phrase: str, title: str) -> str:
    """The assembly map's heading: ``phrase`` (the printed word ``board_assembly``, "{title}: assembly map")
    with the piece's title, unless every word of the title is already a word of the phrase (a map titled
    "Map": "Map: assembly map" says the kind twice). The phrase then prints alone ("Assembly map"): the
    text round ``{title}`` without its joining punctuation, its first letter a capital."""
    if "{title}" not in phrase:
        return phrase.format(title=title)
    own = phrase.replace("{title}", " ")
    said = _words(title)
    if not said or not said <= _words(own):
        return phrase.format(title=title)
    alone = re.sub(r"\s+", " ", own).strip(" \t:·,;–—-")
    return alone[:1].upper() + alone[1:] if alone else phrase.format(title=title)


def assembly_page(plan: TilePlan, board_elements, title: str = "Board", labels: TileLabels | None = None) -> Page:
    """A small picture of the whole board with the seams and every tile's label on its core, and how
    to put the tiles together."""
    labels = labels or TileLabels()
    m = plan.margin + 4.0
    page = Page(plan.page_w, plan.page_h, label=f"{title} assembly")
    head = Rect(m, plan.page_h - m - 10, plan.page_w - 2 * m, 10)
    page.add(Text(head, assembly_title(labels.assembly, title), MAP_TITLE_STYLE, role="map-title"))
    notes_h = 34.0
    area = Rect(m, m + notes_h + 4, plan.page_w - 2 * m, head.y - 4 - (m + notes_h + 4))
    s = min(area.w / plan.board_w, area.h / plan.board_h)
    ox = area.x + (area.w - plan.board_w * s) / 2
    oy = area.y + (area.h - plan.board_h * s) / 2
    page.add(Transform(tuple(board_elements), scaling(s, ox, oy), clip=Rect(0, 0, plan.board_w, plan.board_h),
                       role="map-board"))
    page.add(Box(Rect(ox, oy, plan.board_w * s, plan.board_h * s), stroke=CUT_INK, width=0.35, role="map-outline"))
    for x in plan.xs[1:-1]:
        page.add(Line(ox + x * s, oy, ox + x * s, oy + plan.board_h * s, MARK_INK, 0.5, role="map-seam"))
    for y in plan.ys[1:-1]:
        page.add(Line(ox, oy + y * s, ox + plan.board_w * s, oy + y * s, MARK_INK, 0.5, role="map-seam"))
    for tile in plan.tiles:
        c = tile.core
        box = Rect(ox + c.cx * s - 9, oy + c.cy * s - 5, 18, 10)
        page.add(Box(box, fill="#ffffff", stroke=MARK_INK, width=0.3, radius=1.5, opacity=0.9, role="map-label-bg"),
                 Text(box.inset(0.8), tile.label, MAP_LABEL_STYLE, role=f"map-label:{tile.label}"))
    how = "\n".join(f"{k + 1}. {step}" for k, step in enumerate(labels.how))
    page.add(Text(Rect(m, m, plan.page_w - 2 * m, notes_h), how, MAP_NOTE_STYLE, role="map-notes"))
    return page


def tile_pages(plan: TilePlan, board_elements, title: str = "Board", labels: TileLabels | None = None,
               fits=None) -> list[Page]:
    """The assembly map, then every tile in reading order (A1, A2, ..., B1, ...). ``fits(markup, style, w,
    h)``: whether a text fits a box, as the caller measures it (:func:`glue_note`)."""
    board_elements = list(board_elements)
    extents = [extent(e) for e in board_elements]
    pages = [assembly_page(plan, board_elements, title, labels)]
    pages += [tile_page(plan, t, board_elements, title, labels, extents, fits) for t in plan.tiles]
    return pages

