"""Where an element's ink lands: points (mm, the element's frame) whose convex hull holds what it paints.

For :func:`pnp.layout.outline.clearances` (the inside-the-cut-line check). A text's ink is each of its
lines as set (the same fitting and alignment as :func:`pnp.draw.text.paint`), from the descenders to the
top of accented capitals; an icon's is the convex hull of its drawn pixels (every icon the game uses is
drawn once, on one page rasterized with pypdfium2, and kept for the process); a picture's is where it is
drawn (``contain`` keeps its proportions inside its box).
"""

from __future__ import annotations

import math

from pnp.draw import icons, text
from pnp.layout.geometry import Icon, Picture, Text
from pnp.units import pt

#: Above the baseline: capitals and ascenders (0.75 em) and the accents of capitals (Á, Ñ) on top.
ASCENT = 0.75
ACCENT = 0.18
#: Below the baseline: descenders (g, p, y) and commas.
DESCENT = 0.22
_DESCENDERS = set("gjpqyQ,;()[]{}|/@$¡¿")
MM = 25.4 / 72

#: Pixels per icon cell when icons are rasterized for their outline.
_CELL = 120
_HULLS: dict = {}
#: Grey levels to 1 (ink) or 0 (paper).
_DARK = bytes(1 if v < 250 else 0 for v in range(256))


def text_ink(e: Text) -> list[tuple[float, float]]:
    """The corners of each line of ``e`` as :func:`pnp.draw.text.paint` sets it (mm); its lines' widths as
    the empty-space check measured them (:func:`pnp.draw.text.line_widths`)."""
    style, rect = e.style, e.rect
    fitted, widths = text.line_widths(e.markup, style, rect.w, rect.h)
    lines, size = fitted.lines, fitted.size
    if not lines:
        return []
    lead = size * style.leading
    block = lead * (len(lines) - 1) + size
    top = pt(rect.top)
    if style.valign == "top":
        first = top - size * 0.8
    elif style.valign == "bottom":
        first = pt(rect.y) + block - size * 0.8
    else:
        first = pt(rect.cy) + block / 2 - size / 2 - size * text.CAP_CENTRE
    x0, width = pt(rect.x), pt(rect.w)
    points = []
    for i, line in enumerate(lines):
        baseline = first - i * lead
        lw = widths[i]
        left = x0 if style.align == "left" else x0 + width - lw if style.align == "right" else x0 + (width - lw) / 2
        chars = "".join(a.text for word in line for a in word if a.kind != "icon")
        chars = chars.upper() if style.upper else chars
        has_icon = any(a.kind == "icon" for word in line for a in word)
        up = size * (ASCENT + (ACCENT if any(c.isupper() and ord(c) > 127 for c in chars) else 0.0))
        if has_icon:
            up = max(up, size * text.ICON_SCALE * 0.8)
        down = size * DESCENT if (_DESCENDERS & set(chars) or has_icon) else size * 0.02
        points += [(left * MM, (baseline - down) * MM), ((left + lw) * MM, (baseline - down) * MM),
                   (left * MM, (baseline + up) * MM), ((left + lw) * MM, (baseline + up) * MM)]
    return points


def icon_hulls(names) -> dict:
    """{icon name: hull} for the active icon set: each hull is points as fractions of the icon's size,
    from its centre. Icons not yet measured are drawn together on one page and rasterized once."""
    key = id(icons.active())
    if key not in _HULLS and len(_HULLS) >= 4:      # pnp watch loads the game again and again: keep a few
        _HULLS.pop(next(iter(_HULLS)))
    known = _HULLS.setdefault(key, (icons.active(), {}))[1]
    missing = sorted({n for n in names if n not in known})
    if missing:
        known.update(_measure(missing))
    return {n: known[n] for n in names}


def _measure(names) -> dict:
    import pypdfium2 as pdfium

    from pnp.draw.pdf import render
    from pnp.layout.geometry import Page

    cell, size = 30.0, 12.0            # mm: each icon drawn 12 mm tall in the middle of its cell
    cols = max(1, math.ceil(math.sqrt(len(names))))
    rows = math.ceil(len(names) / cols)
    page = Page(cols * cell, rows * cell, [Icon(name, (k % cols + 0.5) * cell, (rows - k // cols - 0.5) * cell, size,
                                                "#000000") for k, name in enumerate(names)])
    doc = pdfium.PdfDocument(render([page], "icons"))
    try:
        image = doc[0].render(scale=_CELL / cell * 25.4 / 72).to_pil().convert("L")
    finally:
        doc.close()
    px = image.width / (cols * cell)           # pixels per mm
    out = {}
    for k, name in enumerate(names):
        x0, y0 = round((k % cols) * cell * px), round((k // cols) * cell * px)
        # the last row and column may end a pixel past the image (rounding): PIL would fill that with ink
        crop = image.crop((x0, y0, min(x0 + round(cell * px), image.width), min(y0 + round(cell * px), image.height)))
        data, width = crop.tobytes().translate(_DARK), crop.width
        dots = []
        for j in range(crop.height):
            row = data[j * width:(j + 1) * width]
            first = row.find(1)
            if first >= 0:           # the corners of the row's first and last inked pixels
                last = row.rfind(1) + 1
                dots += [(first, j), (first, j + 1), (last, j), (last, j + 1)]
        centre = cell * px / 2
        scale = size * px
        out[name] = _support(tuple(((i - centre) / scale, (centre - j) / scale) for i, j in _hull(dots)))
    return out


#: Directions in which an icon's hull keeps its farthest point (enough for clearances to 0.01 of its size).
_DIRECTIONS = tuple((math.cos(k * math.pi / 24), math.sin(k * math.pi / 24)) for k in range(48))


def _support(hull: tuple) -> tuple:
    """The hull's farthest point in each of :data:`_DIRECTIONS`: a few dozen points instead of hundreds."""
    if len(hull) <= len(_DIRECTIONS):
        return hull
    return tuple(dict.fromkeys(max(hull, key=lambda p: p[0] * dx + p[1] * dy) for dx, dy in _DIRECTIONS))


def _hull(points):
    """Convex hull (Andrew's monotone chain) of integer points."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def half(seq):
        out = []
        for p in seq:
            while len(out) >= 2 and ((out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                                     - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])) <= 0:
                out.pop()
            out.append(p)
        return out

    return half(pts)[:-1] + half(reversed(pts))[:-1]


def icon_ink(e: Icon) -> list[tuple[float, float]]:
    hull = icon_hulls([e.name])[e.name]
    return [(e.cx + fx * e.size, e.cy + fy * e.size) for fx, fy in hull]


def picture_ink(e: Picture) -> list[tuple[float, float]]:
    from pnp.draw.pictures import image_size, placement, svg_drawing

    r = e.rect
    x, y, w, h = r.x, r.y, r.w, r.h
    if e.fit == "contain":
        if e.path.lower().endswith(".svg"):
            drawing = svg_drawing(e.path)
            src = (drawing.width, drawing.height) if drawing is not None else (w, h)
        else:
            src = image_size(e.path)
        x, y, w, h = placement(*src, (x, y, w, h), "contain", e.focus)
    return [(x, y), (x + w, y), (x, y + h), (x + w, y + h)]


def ink(e) -> list[tuple[float, float]]:
    """The points holding what a text, icon or picture paints (mm, its frame); [] when it paints nothing."""
    if isinstance(e, Text):
        return text_ink(e)
    if isinstance(e, Icon):
        return icon_ink(e) if icons.drawable(e.name) else []
    if isinstance(e, Picture):
        return picture_ink(e)
    return []


__all__ = ["icon_hulls", "ink", "text_ink"]


def svg_outline(path: str, rect) -> tuple:
    """The convex hull of an SVG file's shapes drawn ``contain`` in ``rect`` (mm): the cut line of an
    ``outline`` token, as far as the check of what keeps inside it needs (a concave outline is taken by
    its hull)."""
    from reportlab.graphics import shapes

    from pnp.draw.pictures import placement, svg_drawing
    from pnp.layout.geometry import apply, compose

    drawing = svg_drawing(path)
    if drawing is None or drawing.width <= 0 or drawing.height <= 0:
        return ((rect.x, rect.y), (rect.right, rect.y), (rect.right, rect.top), (rect.x, rect.top))
    x, y, w, h = placement(drawing.width, drawing.height, (rect.x, rect.y, rect.w, rect.h), "contain")
    points = []

    def walk(node, matrix):
        for child in getattr(node, "contents", ()):
            inner = compose(matrix, tuple(getattr(child, "transform", (1, 0, 0, 1, 0, 0))))
            if isinstance(child, shapes.Group):
                walk(child, inner)
            elif isinstance(child, (shapes.Path, shapes.Polygon, shapes.PolyLine)):
                flat = child.points
                points.extend(apply(matrix, px, py) for px, py in zip(flat[0::2], flat[1::2]))
            elif isinstance(child, shapes.Rect):
                points.extend(apply(matrix, px, py) for px, py in (
                    (child.x, child.y), (child.x + child.width, child.y), (child.x, child.y + child.height),
                    (child.x + child.width, child.y + child.height)))
            elif isinstance(child, (shapes.Circle, shapes.Ellipse)):
                rx = getattr(child, "rx", None) or child.r
                ry = getattr(child, "ry", None) or child.r
                points.extend(apply(matrix, child.cx + rx * math.cos(a * math.pi / 16),
                                    child.cy + ry * math.sin(a * math.pi / 16)) for a in range(32))

    walk(drawing, (w / drawing.width, 0.0, 0.0, h / drawing.height, x, y))
    if len(points) < 3:
        return ((rect.x, rect.y), (rect.right, rect.y), (rect.right, rect.top), (rect.x, rect.top))
    scale = 1000.0
    hull = _hull([(round(px * scale), round(py * scale)) for px, py in points])
    return tuple((px / scale, py / scale) for px, py in hull)
