"""Geometric primitives and the plain elements pages are made of (all lengths in mm)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class Rect:
    """A rectangle in mm: its lower-left corner (x, y), width and height (y grows upwards)."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def top(self) -> float:
        return self.y + self.h

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2

    def inset(self, dx: float, dy: float | None = None) -> "Rect":
        dy = dx if dy is None else dy
        return Rect(self.x + dx, self.y + dy, self.w - 2 * dx, self.h - 2 * dy)

    def moved(self, dx: float, dy: float) -> "Rect":
        return Rect(self.x + dx, self.y + dy, self.w, self.h)

    def contains(self, other: "Rect", tol: float = 1e-6) -> bool:
        return (other.x >= self.x - tol and other.y >= self.y - tol
                and other.right <= self.right + tol and other.top <= self.top + tol)

    def overlaps(self, other: "Rect", tol: float = 1e-6) -> bool:
        return not (other.x >= self.right - tol or other.right <= self.x + tol
                    or other.y >= self.top - tol or other.top <= self.y + tol)

    def rounded(self, digits: int = 2) -> tuple:
        return tuple(round(v, digits) for v in (self.x, self.y, self.w, self.h))


@dataclass(frozen=True)
class Style:
    """How a text box is set: font family role, size range (pt), alignment, colour."""

    font: str = "serif"            # serif, serif-italic, serif-bold, serif-semibold, sans, sans-bold, sans-black
    size: float = 9.0              # largest size tried
    min_size: float | None = None  # smallest acceptable size; None = never shrink
    align: str = "center"          # left, center, right, justify
    valign: str = "middle"         # top, middle, bottom
    colour: str = "#1f1a17"
    leading: float = 1.18          # line height as a multiple of the size
    max_lines: int | None = None
    tracking: float = 0.0          # extra space between letters, pt
    upper: bool = False
    hyphenate: bool = False        # break long words at the language's hyphenation points


@dataclass(frozen=True)
class Box:
    """A rectangle filled and/or stroked, with optional rounded corners and dashes."""

    rect: Rect
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.25            # stroke width in mm
    radius: float = 0.0
    dash: tuple | None = None      # dash pattern in mm
    opacity: float = 1.0
    role: str = ""


@dataclass(frozen=True)
class Line:
    """A straight line from (x1, y1) to (x2, y2), ``width`` mm wide."""

    x1: float
    y1: float
    x2: float
    y2: float
    colour: str = "#999999"
    width: float = 0.2
    dash: tuple | None = None
    role: str = ""


@dataclass(frozen=True)
class Circle:
    """A circle of radius ``r`` centred on (cx, cy), filled and/or stroked."""

    cx: float
    cy: float
    r: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.25
    dash: tuple | None = None
    role: str = ""


@dataclass(frozen=True)
class Text:
    """Markup set in ``rect`` with ``style`` (see :mod:`pnp.draw.text`)."""

    rect: Rect
    markup: str
    style: Style = Style()
    role: str = ""


@dataclass(frozen=True)
class Icon:
    """A vector icon from :mod:`pnp.draw.icons`, centred on (cx, cy), ``size`` mm across."""

    name: str
    cx: float
    cy: float
    size: float
    colour: str | None = None
    label: str | None = None       # text drawn on the icon (a number)
    opacity: float = 1.0
    role: str = ""


@dataclass(frozen=True)
class Picture:
    """A picture file of the game folder (PNG, JPEG or SVG) drawn into ``rect``: ``fit`` is ``cover`` (crop
    to fill, keeping ``focus`` in view: 0..1 from the left and from the top), ``contain`` (all of it,
    centred) or ``fill`` (stretched). ``colour`` recolours an SVG; ``outline`` draws only its outline
    (a cut line). ``grow`` (mm) and ``grow_mode`` (``extend`` or ``mirror``): the picture fills ``rect``
    less ``grow`` on every side (the trim), and the band round it (the bleed) is made from its edge
    pixels, repeated or mirrored: for art made to the trim. ``grow`` is one length for every side or
    (left, bottom, right, top), 0 where the band is not wanted (card art reaching the trim on some sides)."""

    path: str
    rect: Rect
    fit: str = "cover"
    focus: tuple = (0.5, 0.5)
    colour: str | None = None
    outline: bool = False
    role: str = ""
    grow: float | tuple = 0.0
    grow_mode: str = "extend"

    @property
    def grow_sides(self) -> tuple:
        """``grow`` as (left, bottom, right, top)."""
        return tuple(self.grow) if isinstance(self.grow, tuple) else (self.grow,) * 4


@dataclass(frozen=True)
class Polygon:
    """A closed outline through ``points`` ((x, y) pairs in mm), or an open polyline when ``closed`` is
    false (then ``fill`` is ignored). Hexagons, triangles, glue tabs and zigzag cut lines are polygons."""

    points: tuple
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.25
    dash: tuple | None = None
    closed: bool = True
    opacity: float = 1.0
    role: str = ""


@dataclass(frozen=True)
class Group:
    """Elements drawn translated by (dx, dy) and optionally clipped to ``clip`` (in the group's frame)."""

    elements: tuple
    dx: float = 0.0
    dy: float = 0.0
    clip: Rect | None = None
    role: str = ""


@dataclass(frozen=True)
class Transform:
    """Elements drawn through the affine map ``matrix`` = (a, b, c, d, e, f), which sends a point (x, y)
    of the elements' frame to (a·x + c·y + e, b·x + d·y + f) on the page (the PDF ``cm`` convention).

    For what a translation cannot do: a scaled-down picture of a board (an assembly map), art turned
    180 degrees (the back of a standee folded at the top). ``clip`` is in the elements' frame. Tests
    read positions through :func:`apply`; :func:`flatten` keeps a transform whole (one element).
    """

    elements: tuple
    matrix: tuple = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    clip: Rect | None = None
    role: str = ""


def apply(matrix: tuple, x: float, y: float) -> tuple[float, float]:
    """Where the affine ``matrix`` (a, b, c, d, e, f) sends the point (x, y)."""
    a, b, c, d, e, f = matrix
    return (a * x + c * y + e, b * x + d * y + f)


def compose(outer: tuple, inner: tuple) -> tuple:
    """The matrix applying ``inner`` first, then ``outer``."""
    a1, b1, c1, d1, e1, f1 = outer
    a2, b2, c2, d2, e2, f2 = inner
    return (a1 * a2 + c1 * b2, b1 * a2 + d1 * b2, a1 * c2 + c1 * d2, b1 * c2 + d1 * d2,
            a1 * e2 + c1 * f2 + e1, b1 * e2 + d1 * f2 + f1)


def scaling(factor: float, dx: float = 0.0, dy: float = 0.0) -> tuple:
    """Scale by ``factor`` about the origin, then move by (dx, dy)."""
    return (factor, 0.0, 0.0, factor, dx, dy)


def half_turn(cx: float, cy: float) -> tuple:
    """A 180-degree turn about (cx, cy)."""
    return (-1.0, 0.0, 0.0, -1.0, 2 * cx, 2 * cy)


@dataclass
class Page:
    """A page ``width`` x ``height`` mm and the elements drawn on it, with a label and, when it has them, its
    trim and bleed boxes."""

    width: float
    height: float
    elements: list = field(default_factory=list)
    label: str = ""
    trim: Rect | None = None
    bleed: Rect | None = None

    def add(self, *elements):
        self.elements.extend(elements)
        return self

    def find(self, role: str) -> list:
        """Elements with the given role, groups flattened into page coordinates."""
        return [e for e in flatten(self.elements) if getattr(e, "role", "") == role]

    def groups(self, prefix: str = "") -> list:
        """Groups whose role starts with ``prefix``, moved into page coordinates (nested groups too)."""
        return list(_groups(self.elements, prefix, 0.0, 0.0))


def translate(element, dx: float, dy: float):
    """A copy of ``element`` moved by (dx, dy)."""
    if isinstance(element, (Box, Text, Picture)):
        return replace(element, rect=element.rect.moved(dx, dy))
    if isinstance(element, Line):
        return replace(element, x1=element.x1 + dx, y1=element.y1 + dy, x2=element.x2 + dx, y2=element.y2 + dy)
    if isinstance(element, (Circle, Icon)):
        return replace(element, cx=element.cx + dx, cy=element.cy + dy)
    if isinstance(element, Group):
        return replace(element, dx=element.dx + dx, dy=element.dy + dy)
    if isinstance(element, Polygon):
        return replace(element, points=tuple((x + dx, y + dy) for x, y in element.points))
    if isinstance(element, Transform):
        a, b, c, d, e, f = element.matrix
        return replace(element, matrix=(a, b, c, d, e + dx, f + dy))
    raise TypeError(element)


def extent(element) -> Rect | None:
    """The rectangle an element may paint into (strokes included), in its parent's frame; None for an
    empty group. Lets a caller skip elements that a clip would hide anyway (board tiles)."""
    e = element
    if isinstance(e, (Box, Text, Picture)):
        grow = e.width / 2 if isinstance(e, Box) and e.stroke else 0.0
        return e.rect.inset(-grow)
    if isinstance(e, Line):
        g = e.width / 2
        return Rect(min(e.x1, e.x2) - g, min(e.y1, e.y2) - g, abs(e.x2 - e.x1) + 2 * g, abs(e.y2 - e.y1) + 2 * g)
    if isinstance(e, Circle):
        r = e.r + (e.width / 2 if e.stroke else 0.0)
        return Rect(e.cx - r, e.cy - r, 2 * r, 2 * r)
    if isinstance(e, Icon):
        return Rect(e.cx - e.size / 2, e.cy - e.size / 2, e.size, e.size)
    if isinstance(e, Polygon):
        g = e.width / 2 if e.stroke else 0.0
        xs, ys = [p[0] for p in e.points], [p[1] for p in e.points]
        return Rect(min(xs) - g, min(ys) - g, max(xs) - min(xs) + 2 * g, max(ys) - min(ys) + 2 * g)
    if isinstance(e, (Group, Transform)):
        inner = e.clip if e.clip is not None else _union(extent(x) for x in e.elements)
        if inner is None:
            return None
        if isinstance(e, Group):
            return inner.moved(e.dx, e.dy)
        pts = [apply(e.matrix, x, y) for x, y in ((inner.x, inner.y), (inner.right, inner.y),
                                                  (inner.x, inner.top), (inner.right, inner.top))]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
    raise TypeError(e)


def _union(rects) -> Rect | None:
    rects = [r for r in rects if r is not None]
    if not rects:
        return None
    x0, y0 = min(r.x for r in rects), min(r.y for r in rects)
    return Rect(x0, y0, max(r.right for r in rects) - x0, max(r.top for r in rects) - y0)


def _groups(elements, prefix, dx, dy):
    for e in elements:
        if isinstance(e, Group):
            if e.role.startswith(prefix) and e.role:
                yield replace(e, dx=e.dx + dx, dy=e.dy + dy)
            yield from _groups(e.elements, prefix, dx + e.dx, dy + e.dy)


def flatten(elements, dx: float = 0.0, dy: float = 0.0):
    """Every element in page coordinates, groups expanded."""
    for e in elements:
        if isinstance(e, Group):
            yield from flatten(e.elements, dx + e.dx, dy + e.dy)
        elif dx or dy:
            yield translate(e, dx, dy)
        else:
            yield e
