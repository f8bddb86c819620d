"""Paint layout elements (mm) on a reportlab canvas (points)."""

from __future__ import annotations

from reportlab.lib.colors import HexColor

from pnp.draw import icons, text
from pnp.draw.pictures import draw_picture
from pnp.layout.geometry import Box, Circle, Group, Icon, Line, Picture, Polygon, Text, Transform
from pnp.units import pt


def _dash(c, dash):
    if dash:
        c.setDash([pt(d) for d in dash])
    else:
        c.setDash([])


def _pen(c, fill, stroke, width, dash) -> None:
    if fill:
        c.setFillColor(HexColor(fill))
    if stroke:
        c.setStrokeColor(HexColor(stroke))
        c.setLineWidth(pt(width))
        _dash(c, dash)


def _clip(c, rect) -> None:
    if rect is not None:
        p = c.beginPath()
        p.rect(pt(rect.x), pt(rect.y), pt(rect.w), pt(rect.h))
        c.clipPath(p, stroke=0, fill=0)


def _polygon(c, e: Polygon) -> None:
    if len(e.points) < 2 or (e.stroke is None and (e.fill is None or not e.closed)):
        return
    c.saveState()
    if e.opacity < 1:
        c.setFillAlpha(e.opacity)
        c.setStrokeAlpha(e.opacity)
    _pen(c, e.fill, e.stroke, e.width, e.dash)
    p = c.beginPath()
    (x0, y0), *rest = e.points
    p.moveTo(pt(x0), pt(y0))
    for x, y in rest:
        p.lineTo(pt(x), pt(y))
    if e.closed:
        p.close()
    c.drawPath(p, stroke=1 if e.stroke else 0, fill=1 if (e.fill and e.closed) else 0)
    c.restoreState()


def paint(c, elements) -> None:
    for e in elements:
        if isinstance(e, Group):
            c.saveState()
            c.translate(pt(e.dx), pt(e.dy))
            _clip(c, e.clip)
            paint(c, e.elements)
            c.restoreState()
        elif isinstance(e, Transform):
            a, b, cc, d, ex, fy = e.matrix
            c.saveState()
            c.transform(a, b, cc, d, pt(ex), pt(fy))
            _clip(c, e.clip)
            paint(c, e.elements)
            c.restoreState()
        elif isinstance(e, Polygon):
            _polygon(c, e)
        elif isinstance(e, Box):
            if e.fill is None and e.stroke is None:
                continue
            c.saveState()
            if e.opacity < 1:
                c.setFillAlpha(e.opacity)
            _pen(c, e.fill, e.stroke, e.width, e.dash)
            r = e.rect
            args = (pt(r.x), pt(r.y), pt(r.w), pt(r.h))
            if e.radius:
                c.roundRect(*args, pt(e.radius), stroke=1 if e.stroke else 0, fill=1 if e.fill else 0)
            else:
                c.rect(*args, stroke=1 if e.stroke else 0, fill=1 if e.fill else 0)
            c.restoreState()
        elif isinstance(e, Line):
            c.saveState()
            c.setStrokeColor(HexColor(e.colour))
            c.setLineWidth(pt(e.width))
            _dash(c, e.dash)
            c.line(pt(e.x1), pt(e.y1), pt(e.x2), pt(e.y2))
            c.restoreState()
        elif isinstance(e, Circle):
            c.saveState()
            _pen(c, e.fill, e.stroke, e.width, e.dash)
            c.circle(pt(e.cx), pt(e.cy), pt(e.r), stroke=1 if e.stroke else 0, fill=1 if e.fill else 0)
            c.restoreState()
        elif isinstance(e, Text):
            text.paint(c, e.rect, e.markup, e.style)
        elif isinstance(e, Picture):
            r = e.rect
            draw_picture(c, e.path, (pt(r.x), pt(r.y), pt(r.w), pt(r.h)), e.fit, e.focus, e.colour, e.outline,
                         stroke_width=pt(0.25), grow=tuple(pt(g) for g in e.grow_sides), grow_mode=e.grow_mode)
        elif isinstance(e, Icon):
            c.saveState()
            if e.opacity < 1:
                c.setFillAlpha(e.opacity)
                c.setStrokeAlpha(e.opacity)
            icons.draw(c, e.name, pt(e.cx), pt(e.cy), pt(e.size), e.colour, e.label)
            c.restoreState()
        else:  # pragma: no cover - a programming error
            raise TypeError(f"cannot paint {e!r}")
