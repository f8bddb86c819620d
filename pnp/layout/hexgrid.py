"""Hex grids in mm: axial coordinates, centres and corners, neighbours, shared edges, pixel -> hex.

Conventions (the ones a map designer writes data in):

* A hex is named by axial coordinates ``(q, r)`` (the third cube coordinate is ``s = -q - r``).
  ``q`` grows to the right; ``r`` grows *down* the page, so a map written row by row from the top
  reads naturally. The page itself has y growing upwards (the layout convention), so r = 1 lies below
  r = 0.
* ``orientation`` is ``"flat"`` (flat-top: hexes stand in vertical columns, a flat edge at the top) or
  ``"pointy"`` (pointy-top: hexes lie in horizontal rows, a corner at the top).
* ``size`` is the hex's **width across the flats** (flat-to-flat, in mm): what a ruler laid across a
  printed hex or a counter reads, and what "25 mm hexes" means in a catalogue. The corner radius
  (centre to corner, also the side length) is ``size / sqrt(3)``; across the corners a hex measures
  ``2 * radius``.
* Corners are numbered 0-5 counterclockwise, corner 0 at 0 degrees (flat: the right-hand corner) or at
  -30 degrees (pointy: the lower-right corner). Directions are numbered the same way: direction ``k``
  points across the edge between corners ``k`` and ``k + 1``, at ``30 + 60 k`` degrees (flat: 0 is
  up-right) or ``60 k`` degrees (pointy: 0 is right).
* ``origin`` is where the centre of hex (0, 0) lies on the page.

Everything is plain data; :meth:`HexGrid.polygon` gives a :class:`~pnp.layout.geometry.Polygon`
element for painting. :func:`seam_keepouts` tells the tiler (:mod:`pnp.layout.tiling`) where a
straight seam would cut hexes through their middles.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import NamedTuple

from pnp.layout.geometry import Polygon, Rect

SQRT3 = math.sqrt(3.0)
ORIENTATIONS = ("flat", "pointy")

#: Axial steps to the neighbours, by direction number (see the module docstring), per orientation.
DIRECTIONS = {
    "flat": ((1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1), (1, 0)),      # up-right, up, up-left, ...
    "pointy": ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)),    # right, up-right, up-left, ...
}


class Hex(NamedTuple):
    """Axial coordinates of one hex."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other):  # type: ignore[override]
        return Hex(self.q + other[0], self.r + other[1])


class Edge(NamedTuple):
    """The edge shared by two neighbouring hexes, stored in a canonical order (``a < b``), so the same
    edge is the same value whichever side names it: a river edge, a bridge site."""

    a: Hex
    b: Hex


def edge(a, b) -> Edge:
    """The canonical edge between neighbours ``a`` and ``b`` (ValueError when they are not neighbours)."""
    a, b = Hex(*a), Hex(*b)
    if distance(a, b) != 1:
        raise ValueError(f"hexes {tuple(a)} and {tuple(b)} are not neighbours")
    return Edge(*sorted((a, b)))


def distance(a, b) -> int:
    """Steps between two hexes."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def round_hex(q: float, r: float) -> Hex:
    """The hex containing fractional axial coordinates (cube rounding)."""
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))


@dataclass(frozen=True)
class HexGrid:
    """A hex grid on the page: its orientation, the hexes' size across the flats (mm) and where hex (0, 0)'s
    centre lies."""

    orientation: str = "flat"
    size: float = 25.0                 # across the flats, mm
    origin: tuple = (0.0, 0.0)         # page position of hex (0, 0)'s centre

    def __post_init__(self):
        if self.orientation not in ORIENTATIONS:
            raise ValueError(f"orientation must be 'flat' or 'pointy', not {self.orientation!r}")
        if not self.size > 0:
            raise ValueError(f"hex size must be positive, not {self.size!r}")

    # -- sizes
    @property
    def radius(self) -> float:
        """Centre to corner (= side length)."""
        return self.size / SQRT3

    @property
    def width(self) -> float:
        """Horizontal extent of one hex."""
        return 2 * self.radius if self.orientation == "flat" else self.size

    @property
    def height(self) -> float:
        """Vertical extent of one hex."""
        return self.size if self.orientation == "flat" else 2 * self.radius

    @property
    def spacing(self) -> tuple[float, float]:
        """(dx, dy): the distance between neighbouring columns' centres and between rows' centres.

        Flat-top: columns 1.5 radius apart, centres of one column ``size`` apart (half that between
        the staggered neighbouring columns). Pointy-top: the transpose."""
        if self.orientation == "flat":
            return 1.5 * self.radius, self.size
        return self.size, 1.5 * self.radius

    # -- positions
    def centre(self, h) -> tuple[float, float]:
        q, r = h[0], h[1]
        R = self.radius
        if self.orientation == "flat":
            x, y_down = 1.5 * R * q, SQRT3 * R * (r + q / 2)
        else:
            x, y_down = SQRT3 * R * (q + r / 2), 1.5 * R * r
        return self.origin[0] + x, self.origin[1] - y_down

    def corners(self, h) -> tuple:
        """The six corners, counterclockwise from corner 0 (see the module docstring)."""
        cx, cy = self.centre(h)
        start = 0.0 if self.orientation == "flat" else -30.0
        R = self.radius
        return tuple((cx + R * math.cos(math.radians(start + 60 * k)), cy + R * math.sin(math.radians(start + 60 * k)))
                     for k in range(6))

    def neighbour(self, h, direction: int) -> Hex:
        dq, dr = DIRECTIONS[self.orientation][direction % 6]
        return Hex(h[0] + dq, h[1] + dr)

    def neighbours(self, h) -> tuple:
        """The six neighbours, by direction number."""
        return tuple(self.neighbour(h, k) for k in range(6))

    def direction(self, a, b) -> int:
        """The direction number from ``a`` to its neighbour ``b``."""
        step = (b[0] - a[0], b[1] - a[1])
        try:
            return DIRECTIONS[self.orientation].index(step)
        except ValueError:
            raise ValueError(f"hexes {tuple(a)} and {tuple(b)} are not neighbours") from None

    def edge_segment(self, a, b) -> tuple:
        """The two end points ((x1, y1), (x2, y2)) of the edge ``a`` and ``b`` share: corners ``k`` and
        ``k + 1`` of ``a`` for direction ``k`` (so the segment runs counterclockwise round ``a``)."""
        k = self.direction(a, b)
        c = self.corners(a)
        return c[k], c[(k + 1) % 6]

    def edge_midpoint(self, a, b) -> tuple[float, float]:
        (x1, y1), (x2, y2) = self.edge_segment(a, b)
        return (x1 + x2) / 2, (y1 + y2) / 2

    def edges_of(self, h) -> tuple:
        """The six canonical edges round ``h``, by direction number."""
        return tuple(edge(h, n) for n in self.neighbours(h))

    def hex_at(self, x: float, y: float) -> Hex:
        """The hex containing the page point (x, y) (on an edge: either neighbour)."""
        R = self.radius
        px, py = x - self.origin[0], self.origin[1] - y        # y down, as the axial formulas
        if self.orientation == "flat":
            q = (2 / 3) * px / R
            r = (-px / 3 + SQRT3 / 3 * py) / R
        else:
            q = (SQRT3 / 3 * px - py / 3) / R
            r = (2 / 3) * py / R
        return round_hex(q, r)

    def bounds(self, hexes) -> Rect:
        """The smallest rectangle holding every corner of ``hexes``."""
        points = [p for h in hexes for p in self.corners(h)]
        if not points:
            raise ValueError("no hexes")
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))

    def fitted(self, hexes, margin: float = 0.0) -> "HexGrid":
        """The same grid moved so ``hexes``' bounding box starts at (margin, margin): a map's own frame."""
        b = self.bounds(hexes)
        return replace(self, origin=(self.origin[0] - b.x + margin, self.origin[1] - b.y + margin))

    def polygon(self, h, **style) -> Polygon:
        """The hex as a Polygon element (``fill``, ``stroke``, ``width``, ``role``... passed through)."""
        return Polygon(self.corners(h), **style)


def offset_to_axial(col: int, row: int, orientation: str = "flat", parity: str = "odd") -> Hex:
    """A hex named by (column, row) of a rectangular map, as axial coordinates.

    Flat-top maps stagger columns: with ``parity="odd"`` the odd columns sit half a hex lower;
    ``"even"``: the even ones. Pointy-top maps stagger rows: odd (or even) rows sit half a hex right.
    """
    if parity not in ("odd", "even"):
        raise ValueError(f"parity must be 'odd' or 'even', not {parity!r}")
    even = parity == "even"
    if orientation == "flat":
        return Hex(col, row - ((col + (col & 1)) // 2 if even else (col - (col & 1)) // 2))
    return Hex(col - ((row + (row & 1)) // 2 if even else (row - (row & 1)) // 2), row)


def axial_to_offset(h, orientation: str = "flat", parity: str = "odd") -> tuple[int, int]:
    """The inverse of :func:`offset_to_axial`: (column, row)."""
    q, r = h[0], h[1]
    if orientation == "flat":
        row = r + ((q + (q & 1)) // 2 if parity == "even" else (q - (q & 1)) // 2)
        return q, row
    col = q + ((r + (r & 1)) // 2 if parity == "even" else (r - (r & 1)) // 2)
    return col, r


def rectangle(cols: int, rows: int, orientation: str = "flat", parity: str = "odd") -> list[Hex]:
    """Every hex of a ``cols`` x ``rows`` rectangular map, row by row from the top."""
    return [offset_to_axial(c, r, orientation, parity) for r in range(rows) for c in range(cols)]


def seam_keepouts(grid: HexGrid, hexes, axis: str) -> list[tuple[float, float]]:
    """Open intervals of page coordinates where a straight seam would cut hexes through their middles.

    ``axis="x"``: for vertical seams (x positions); ``"y"``: for horizontal seams. Every hex centre
    keeps a seam at least a third of the spacing between neighbouring centre lines away: for flat-top
    hexes and vertical seams that leaves exactly the bands where neighbouring columns interlock, so a
    seam there only clips corners; the other three cases (flat/horizontal, pointy/both) cut every hex
    at least 0.29 radius (flat-to-flat / 6) from its centre.
    """
    i = 0 if axis == "x" else 1
    # the distance between neighbouring centre lines along the axis
    step = {("flat", 0): 1.5 * grid.radius, ("flat", 1): grid.size / 2,
            ("pointy", 0): grid.size / 2, ("pointy", 1): 1.5 * grid.radius}[(grid.orientation, i)]
    keep = step / 3
    lines = sorted({round(grid.centre(h)[i], 6) for h in hexes})
    return [(c - keep, c + keep) for c in lines]
