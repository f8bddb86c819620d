"""Geometric primitives and the plain elements pages are made of (all lengths in mm)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class Rect:
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


@dataclass(frozen=True)
class Box:
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
class Group:
    """Elements drawn translated by (dx, dy) and optionally clipped to ``clip`` (in the group's frame)."""

    elements: tuple
    dx: float = 0.0
    dy: float = 0.0
    clip: Rect | None = None
    role: str = ""


@dataclass
class Page:
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
    if isinstance(element, (Box, Text)):
        return replace(element, rect=element.rect.moved(dx, dy))
    if isinstance(element, Line):
        return replace(element, x1=element.x1 + dx, y1=element.y1 + dy, x2=element.x2 + dx, y2=element.y2 + dy)
    if isinstance(element, (Circle, Icon)):
        return replace(element, cx=element.cx + dx, cy=element.cy + dy)
    if isinstance(element, Group):
        return replace(element, dx=element.dx + dx, dy=element.dy + dy)
    raise TypeError(element)


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
