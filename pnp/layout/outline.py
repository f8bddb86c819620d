"""Cut pieces and how far what is printed on them keeps from their cut line (pure geometry in mm).

A component kind lists its pieces as :class:`CutPiece`: a name, the cut line (:class:`RectOutline`,
:class:`CircleOutline`, :class:`PolygonOutline`) and the elements printed on it, all in the piece's own
frame. :func:`clearances` walks the elements (groups and transforms applied, clips respected) and gives,
for every text, icon and figure, how far its ink keeps inside the cut line: the smallest signed distance
(mm, negative outside) from a point of its ink to the line. What the ink of an element is (a text's
lines, an icon's drawn outline) is measured by the drawing layer and passed in as ``ink``.

:func:`frames_near_trim` finds the frames (stroked rectangles and lines parallel to a rectangular
piece's edges) that sit a little inside the trim, where the cutting drift of a guillotine or a
trimmer (about 1.5 mm either way) makes them visibly uneven.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pnp.layout.geometry import Box, Group, Icon, Line, Picture, Rect, Text, Transform, apply, compose


@dataclass(frozen=True)
class RectOutline:
    """A rectangular cut (corners rounded by ``radius``)."""

    rect: Rect
    radius: float = 0.0
    name: str = "cut line"

    def clearance(self, x: float, y: float) -> float:
        r = self.rect
        if self.radius <= 0:
            inside = min(x - r.x, r.right - x, y - r.y, r.top - y)
            if inside >= 0:
                return inside
            dx = max(r.x - x, 0.0, x - r.right)
            dy = max(r.y - y, 0.0, y - r.top)
            return -math.hypot(dx, dy)
        rad = min(self.radius, r.w / 2, r.h / 2)
        # signed distance to a rounded rectangle: the inner rectangle grown by the radius
        qx = abs(x - r.cx) - (r.w / 2 - rad)
        qy = abs(y - r.cy) - (r.h / 2 - rad)
        outside = math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0) - rad
        return -outside


@dataclass(frozen=True)
class CircleOutline:
    cx: float
    cy: float
    r: float
    name: str = "cut circle"

    def clearance(self, x: float, y: float) -> float:
        return self.r - math.hypot(x - self.cx, y - self.cy)


@dataclass(frozen=True)
class PolygonOutline:
    """A cut along a closed polygon (a hexagon, an SVG outline flattened to points)."""

    points: tuple
    name: str = "cut line"

    def clearance(self, x: float, y: float) -> float:
        pts = self.points
        inside = False
        nearest = math.inf
        for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
            dx, dy = x2 - x1, y2 - y1
            t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy)))
            nearest = min(nearest, math.hypot(x - x1 - t * dx, y - y1 - t * dy))
        return nearest if inside else -nearest


@dataclass(frozen=True)
class CutPiece:
    """One piece a player cuts out (or a print shop trims): the ``component`` it belongs to (its id), its
    ``name`` ("card 'outlaw'", "token 'gold' front"), its cut line, what is printed on it (in the
    outline's frame), where its data is written (path, line), and whether it is trimmed straight along
    its edges (cards, tiles: frames near the trim are checked)."""

    component: str
    name: str
    outline: object
    elements: tuple
    where: tuple = (None, None)
    trimmed: bool = False
    # (words, (path, line)): where the words a text of the piece prints are written, when that is not
    # ``where`` (a double-sided card's side B: each value at its own line or spreadsheet cell)
    places: tuple = ()


#: How far text, icons and figures keep inside a cut line, in mm.
INSIDE_CUT = 1.0
#: Frames parallel to a trimmed edge closer than this (and further than FRAME_NEAR) show cutting drift.
FRAME_FAR = 6.0
FRAME_NEAR = 1.0


@dataclass(frozen=True)
class Clearance:
    """How far one printed element's ink keeps inside the cut line (mm; negative: it crosses it)."""

    element: object
    distance: float


def _identity():
    return (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _walk(elements, matrix, clip):
    """(element, matrix to the piece's frame, clip rectangle in the piece's frame or None)."""
    for e in elements:
        if isinstance(e, Group):
            inner = compose(matrix, (1.0, 0.0, 0.0, 1.0, e.dx, e.dy))
            yield from _walk(e.elements, inner, _clipped(clip, e.clip, inner))
        elif isinstance(e, Transform):
            inner = compose(matrix, e.matrix)
            yield from _walk(e.elements, inner, _clipped(clip, e.clip, inner))
        else:
            yield e, matrix, clip


def _clipped(outer, rect, matrix):
    if rect is None:
        return outer
    pts = [apply(matrix, x, y) for x, y in ((rect.x, rect.y), (rect.right, rect.top))]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    mine = Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
    if outer is None:
        return mine
    x0, y0 = max(outer.x, mine.x), max(outer.y, mine.y)
    return Rect(x0, y0, max(0.0, min(outer.right, mine.right) - x0), max(0.0, min(outer.top, mine.top) - y0))


def printed(element) -> bool:
    """Text, icons and figures (pictures that do not fill the piece as its background)."""
    return isinstance(element, (Text, Icon)) or (isinstance(element, Picture) and not element.outline)


def clearances(piece: CutPiece, ink, memo: dict | None = None) -> list[Clearance]:
    """Every text, icon and figure of ``piece`` with how far its ink keeps inside the cut line. ``ink(e)``
    gives the points (element's frame) whose convex hull holds what ``e`` paints. ``memo``: a dict kept over
    the pieces of one check with the same ``ink``, so that an element many pieces print alike (a deck's
    frame, its icons, a rules text in the same box, on the same cut line) is measured once: the distance
    is a function of the element, where it is put and clipped, and the outline."""
    out = []
    outline = piece.outline
    for e, matrix, clip in _walk(piece.elements, _identity(), None):
        if not printed(e):
            continue
        key = (e, matrix, clip, outline) if memo is not None else None
        try:
            found = memo.get(key, _NONE) if key is not None else _NONE
        except TypeError:               # an element or outline holding a list: measured each time
            key, found = None, _NONE
        if found is not _NONE:
            distance = found
        else:
            distance = _distance(e, matrix, clip, outline, ink)
            if key is not None:
                memo[key] = distance
        if distance is not None:
            out.append(Clearance(e, distance))
    return out


_NONE = object()


def _distance(e, matrix, clip, outline, ink) -> float | None:
    """How far the ink of ``e`` (put by ``matrix``, clipped to ``clip``) keeps inside ``outline``; None for a
    picture that is the piece's background, or an element that paints nothing."""
    points = [apply(matrix, x, y) for x, y in ink(e)]
    if isinstance(e, Picture) and _background(points, outline):
        return None
    if clip is not None:
        points = [(min(max(x, clip.x), clip.right), min(max(y, clip.y), clip.top)) for x, y in points]
    return min(outline.clearance(x, y) for x, y in points) if points else None


def _background(points, outline) -> bool:
    """A picture reaching past the cut line on every side is the piece's background (art in the bleed)."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    corners = ((min(xs), min(ys)), (max(xs), min(ys)), (min(xs), max(ys)), (max(xs), max(ys)))
    return all(outline.clearance(x, y) <= 0 for x, y in corners)


def frames_near_trim(piece: CutPiece) -> list[tuple[object, float]]:
    """(element, mm inside the trim) for every stroked rectangle or line of a trimmed rectangular piece
    that runs parallel to an edge, along most of it, between :data:`FRAME_NEAR` and :data:`FRAME_FAR`
    inside it."""
    outline = piece.outline
    if not piece.trimmed or not isinstance(outline, RectOutline):
        return []
    trim = outline.rect
    found = []
    for e, matrix, _ in _walk(piece.elements, _identity(), None):
        if matrix[1] or matrix[2]:
            continue            # turned or skewed: not parallel to the trim
        sx, sy, dx, dy = matrix[0], matrix[3], matrix[4], matrix[5]
        sides = []
        if isinstance(e, Box) and e.stroke:
            r = e.rect
            x0, x1 = sorted((r.x * sx + dx, r.right * sx + dx))
            y0, y1 = sorted((r.y * sy + dy, r.top * sy + dy))
            if x1 - x0 >= trim.w / 2:
                sides += [y0 - trim.y, trim.top - y1]
            if y1 - y0 >= trim.h / 2:
                sides += [x0 - trim.x, trim.right - x1]
        elif isinstance(e, Line):
            x0, x1 = sorted((e.x1 * sx + dx, e.x2 * sx + dx))
            y0, y1 = sorted((e.y1 * sy + dy, e.y2 * sy + dy))
            if abs(y1 - y0) < 1e-6 and x1 - x0 >= trim.w / 2:
                sides += [y0 - trim.y, trim.top - y0]
            elif abs(x1 - x0) < 1e-6 and y1 - y0 >= trim.h / 2:
                sides += [x0 - trim.x, trim.right - x0]
        near = [d for d in sides if FRAME_NEAR - 1e-6 <= d < FRAME_FAR - 1e-6]
        if near:
            found.append((e, min(near)))
    return found


__all__ = ["CircleOutline", "Clearance", "CutPiece", "FRAME_FAR", "FRAME_NEAR", "INSIDE_CUT", "PolygonOutline",
           "RectOutline", "clearances", "frames_near_trim", "printed"]
