"""Labels kept clear: a map's words (hex numbers, start and piece names, a site's name) moved off the rings,
pieces, hex outlines and other words they would touch, set smaller or wrapped where they do not fit, or
left out where no place near their own is clear.

A label is the rectangle its lines take (the caller measures it, :func:`pnp.draw.text.ink_rect`) and a
home: the point it belongs to (its hex's centre) and how far from it its centre may go. What a label
keeps clear of, with :data:`CLEARANCE` to spare: a ring's stroke (a label may sit wholly inside a ring,
as a holding's name does, or wholly outside it, never across its edge), a piece's disc, a counter's
box, an arrow, and every label placed before it; and, where it has room, of the lines it should rather not
cross (a map's hex outlines: a word inside its own hex). Labels are placed in the order given (the caller
puts first the ones that stay: a holding's name); each stays where it is when it is clear there, else
takes the nearest clear place within its reach, tried on a grid of :data:`STEP` mm (one set inside a
ring stays inside it: a holding's name never leaves its ring); else the same with
each of its other settings in turn (the caller measures them: the words set smaller, or wrapped); else
the same without the lines it should rather not cross; else it is left out (one that stays is kept
where it is).

Pure geometry: nothing here measures text or imports reportlab.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from pnp.layout.geometry import Rect

#: Room (mm) a label keeps from a ring's stroke, a piece and another label.
CLEARANCE = 0.3
#: The grid (mm) the places a label may move to are tried on.
STEP = 0.25


@dataclass(frozen=True)
class Ring:
    """A circle's stroke: centre, and the inner and outer radius of the band its stroke paints."""

    cx: float
    cy: float
    inner: float
    outer: float


@dataclass(frozen=True)
class Disc:
    """A filled circle a label may not touch (a piece)."""

    cx: float
    cy: float
    r: float


@dataclass(frozen=True)
class Label:
    """A label's rectangle, and the point it belongs to with the distance its centre may move from it
    (0: it stays, and is left out when it is not clear where it is); one that ``stays`` is kept where it
    is when it is clear nowhere else, whatever it touches, and the others keep clear of it. ``settings``:
    the same words set otherwise (each a rectangle, tried in order, with the same home and reach)."""

    rect: Rect
    home: tuple = (0.0, 0.0)
    reach: float = 0.0
    stays: bool = False             # kept where it is when nothing else is clear (a holding's name in its ring)
    settings: tuple = ()            # the rectangles the same words take set otherwise (smaller, wrapped), in
                                    # the order they are tried when the label is clear nowhere as it is set


@dataclass(frozen=True)
class Segment:
    """A stroked line a label may not touch (an arrow): its ends and the width of its stroke."""

    x1: float
    y1: float
    x2: float
    y2: float
    width: float = 0.0


def _near_far(cx: float, cy: float, r: Rect) -> tuple[float, float]:
    """The nearest and the farthest distance from (cx, cy) to a point of ``r``."""
    nx, ny = min(max(cx, r.x), r.right), min(max(cy, r.y), r.top)
    far = max(math.hypot(px - cx, py - cy) for px in (r.x, r.right) for py in (r.y, r.top))
    return math.hypot(nx - cx, ny - cy), far


def crosses(r: Rect, ring: Ring, clearance: float = 0.0) -> bool:
    """Whether ``r`` touches the band of ``ring``'s stroke (with ``clearance`` round it): partly inside
    and partly outside the ring, or on its line."""
    near, far = _near_far(ring.cx, ring.cy, r)
    return near < ring.outer + clearance and far > ring.inner - clearance


def covers(r: Rect, disc: Disc, clearance: float = 0.0) -> bool:
    """Whether ``r`` touches ``disc`` (with ``clearance`` round it)."""
    return _near_far(disc.cx, disc.cy, r)[0] < disc.r + clearance


def meets(r: Rect, line: Segment, clearance: float = 0.0) -> bool:
    """Whether ``line`` (its stroke, with ``clearance`` round it) passes through ``r``: the segment
    clipped to ``r`` grown by half the stroke and the clearance (Liang-Barsky) is not empty."""
    g = r.inset(-(line.width / 2 + clearance))
    dx, dy = line.x2 - line.x1, line.y2 - line.y1
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, line.x1 - g.x), (dx, g.right - line.x1), (-dy, line.y1 - g.y), (dy, g.top - line.y1)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def clear(r: Rect, rings=(), discs=(), boxes=(), lines=(), clearance: float = CLEARANCE) -> bool:
    """Whether ``r`` keeps clear of every ring's stroke, disc, box and line."""
    return (not any(crosses(r, g, clearance) for g in rings)
            and not any(covers(r, d, clearance) for d in discs)
            and not any(r.overlaps(b.inset(-clearance)) for b in boxes)
            and not any(meets(r, x, clearance) for x in lines))


@lru_cache(maxsize=64)
def _moves(reach: float, step: float):
    """Offsets (dx, dy) on a grid of ``step`` within ``reach``, nearest first (up before down, then left
    before right, for the same distance), (0, 0) first."""
    n = int(reach / step + 1e-9)
    out = [(i * step, j * step) for i in range(-n, n + 1) for j in range(-n, n + 1)
           if math.hypot(i, j) * step <= reach + 1e-9]
    return tuple(sorted(out, key=lambda d: (round(math.hypot(*d), 6), -d[1], d[0])))


def place(labels, rings=(), discs=(), boxes=(), lines=(), within: Rect | None = None,
          clearance: float = CLEARANCE, step: float = STEP, avoid=()) -> list:
    """Where each of ``labels`` (:class:`Label`) goes: its offset (dx, dy), or None when it is left out,
    in the order given (:func:`arrange` without the setting each takes)."""
    return [None if a is None else a[1:] for a in arrange(labels, rings, discs, boxes, lines, within, clearance,
                                                           step, avoid)]


def arrange(labels, rings=(), discs=(), boxes=(), lines=(), within: Rect | None = None,
            clearance: float = CLEARANCE, step: float = STEP, avoid=()) -> list:
    """How each of ``labels`` (:class:`Label`) is set and where it goes: (setting, dx, dy), the setting 0
    for its ``rect`` and k for its ``settings[k - 1]``, or None when it is left out, in the order given.

    A label stays where it is when it is clear of ``rings``, ``discs``, ``boxes``, ``lines``, ``avoid``
    (segments it should rather not cross: a map's hex outlines) and the labels placed before it (and inside
    ``within``, when given); else it moves to the nearest clear place whose centre lies within its reach of
    its home; else each of its other settings is tried the same way; else all of that again without
    ``avoid``; else it is left out, or kept as it is when it ``stays``."""
    placed: list[Rect] = []
    out = []
    lines, avoid = _spans(lines, clearance), _spans(avoid, clearance)
    for label in labels:
        found = fallback = None
        for k, r in enumerate((label.rect, *label.settings)):
            best, plain = _spot(label, r, rings, discs, boxes, lines, avoid, placed, within, clearance, step,
                                plain=fallback is None)
            if best is not None:
                found = (k, *best)
                break
            if fallback is None and plain is not None:
                fallback = (k, *plain)
        found = found or fallback
        if found is None and label.stays:
            found = (0, 0.0, 0.0)
        out.append(found)
        if found is not None:
            r = label.rect if found[0] == 0 else label.settings[found[0] - 1]
            placed.append(r.moved(*found[1:]))
    return out


def _spans(lines, clearance: float) -> list:
    """Each of ``lines`` (:class:`Segment`) with the box its stroke and ``clearance`` take, (x0, y0, x1, y1,
    line): a quick test before :func:`meets`."""
    out = []
    for x in lines:
        g = x.width / 2 + clearance
        out.append((min(x.x1, x.x2) - g, min(x.y1, x.y2) - g, max(x.x1, x.x2) + g, max(x.y1, x.y2) + g, x))
    return out


def _spot(label: Label, r: Rect, rings, discs, boxes, lines, avoid, placed, within, clearance: float, step: float,
          plain: bool = True):
    """(the nearest clear offset (dx, dy) of ``r``, a setting of ``label``, within the label's reach of its
    home, clear of ``avoid`` too; the nearest clear of the rest, when ``plain`` and the first is None),
    each None where there is none: one pass over the offsets finds both."""
    hx, hy = label.home
    far = label.reach + math.hypot(r.cx - hx, r.cy - hy) if label.reach > 0 else 0.0
    # only what lies within the label's reach can stand in its way
    area = r.inset(-(math.ceil(far / step) * step + clearance + 1e-6))
    near_rings = [g for g in rings if _near_far(g.cx, g.cy, area)[0] < g.outer + clearance]
    near_discs = [d for d in discs if covers(area, d, clearance)]
    near_boxes = [b for b in (*boxes, *placed) if area.overlaps(b.inset(-clearance))]
    near_lines = [x for x0, y0, x1, y1, x in lines
                  if x0 < area.right and area.x < x1 and y0 < area.top and area.y < y1 and meets(area, x, clearance)]
    near_avoid = [x for x0, y0, x1, y1, x in avoid
                  if x0 < area.right and area.x < x1 and y0 < area.top and area.y < y1 and meets(area, x, clearance)]
    # a label set inside a ring (a holding's name in its ring) stays inside it
    held = [g for g in near_rings if math.hypot(label.rect.cx - g.cx, label.rect.cy - g.cy) < g.inner]
    second = None
    for dx, dy in _moves(math.ceil(far / step) * step, step) if far > 0 else ((0.0, 0.0),):
        moved = r.moved(dx, dy)
        if (dx or dy) and math.hypot(moved.cx - hx, moved.cy - hy) > label.reach + 1e-9:
            continue
        if any(math.hypot(moved.cx - g.cx, moved.cy - g.cy) >= g.inner for g in held):
            continue
        if within is not None and not within.contains(moved, 1e-6):
            continue
        if clear(moved, near_rings, near_discs, near_boxes, near_lines, clearance):
            if not any(meets(moved, x, clearance) for x in near_avoid):
                return (dx, dy), second
            if second is None:
                second = (dx, dy)
    return None, second if plain else None
