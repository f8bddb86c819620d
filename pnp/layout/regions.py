"""Regions of a layout turned into elements: pure geometry in millimetres (no reportlab).

A region comes evaluated (:func:`pnp.cardlayout.evaluate`): its colours, texts, icon names and labels
are values. Positions are in the layout's design frame (``size``) and scale to the piece's ``w`` x
``h``: x and widths by ``w / size[0]``, y and heights by ``h / size[1]``, icon sizes by the x scale
(badges by the smaller one); corner radii and line widths stay as written. Nothing here is card-only:
a board or player board is a bigger piece with the same kinds of regions.
"""

from __future__ import annotations

from dataclasses import replace

from pnp.layout.geometry import Box, Icon, Line, Picture, Rect, Style, Text

#: Style keys a region's ``style`` may set (see :class:`pnp.layout.geometry.Style`).
STYLE_KEYS = ("font", "size", "min_size", "max_lines", "leading", "align", "valign", "colour", "tracking", "upper")


def style_of(region: dict) -> Style:
    given = region.get("style") or {}
    style = Style(**{k: v for k, v in given.items() if k in STYLE_KEYS and v is not None})
    if region.get("colour"):
        style = replace(style, colour=region["colour"])
    return style


def place(regions: list[dict], size: tuple, w: float, h: float, content, bleed: float = 0.0) -> list:
    """Elements of the evaluated ``regions`` on a ``w`` x ``h`` piece. ``content`` gives what the
    card-bound kinds draw: ``pips`` (int), ``stats`` ((name, icon, label) per badge), ``emblem`` (icon
    name or None), ``art`` (an object with path, fit, focus, or None)."""
    sx, sy = w / size[0], h / size[1]
    rects = {}

    def rect(r):
        x, y, rw, rh = r
        return Rect(x * sx, y * sy, rw * sx, rh * sy)

    els = []
    for region in regions:
        kind, role = region["kind"], region.get("role") or region["name"]
        if "rect" in region:
            rects[region["name"]] = rect(region["rect"])
        area = rects.get(region.get("in")) if region.get("in") else rects.get(region["name"])
        if kind == "box":
            box = area
            if region.get("bleed"):
                box = Rect(box.x - bleed, box.y - bleed, box.w + 2 * bleed, box.h + 2 * bleed)
            els.append(Box(box, fill=region.get("fill"), stroke=region.get("stroke"),
                           width=region.get("width", 0.25), radius=region.get("radius", 0.0), role=role))
        elif kind == "text":
            text = region.get("text")
            if text:
                els.append(Text(area, str(text), style_of(region), role=role))
        elif kind == "line":
            (x1, y1), (x2, y2) = region["from"], region["to"]
            els.append(Line(x1 * sx, y1 * sy, x2 * sx, y2 * sy, region.get("colour") or "#999999",
                            region.get("width", 0.2), role=role))
        elif kind == "icon":
            x, y = region["at"]
            if region.get("icon"):
                label = region.get("label")
                els.append(Icon(str(region["icon"]), x * sx, y * sy, region.get("size", 5.0) * sx,
                                region.get("colour"), None if label is None else str(label), role=role))
        elif kind == "art":
            art = getattr(content, "art", None)
            if art is not None:
                els.append(Picture(str(art.path), area, art.fit, tuple(art.focus), role=role))
        elif kind == "emblem":
            emblem = getattr(content, "emblem", None)
            if emblem and area is not None:
                els.append(Icon(emblem, area.cx + region.get("dx", 0.0) * sx, area.cy + region.get("dy", 0.0) * sy,
                                min(area.h, area.w) * region.get("scale", 0.78), region.get("colour"), role=role))
        elif kind == "pips":
            x, y = region["at"]
            for k in range(getattr(content, "pips", 0)):
                step = k * region.get("step", 2.6) * sx
                els.append(Icon("pip", x * sx + step, y * sy, region.get("size", 2.8) * sx, region.get("colour"),
                                role="pip"))
                if region.get("mirror"):
                    els.append(Icon("pip", w - x * sx - step, y * sy, region.get("size", 2.8) * sx,
                                    region.get("colour"), role="pip"))
        elif kind == "badges" and area is not None:
            stats = getattr(content, "stats", ())
            badge = region.get("size", 7.2) * min(sx, sy)
            top = region.get("top", 4.0) * sy
            step_y = min(region.get("step", 8.0) * sy, (area.h - top) / max(1, len(stats)))
            for i, (name, icon, label) in enumerate(stats):
                els.append(Icon(icon, region.get("x", 10.6) * sx, area.top - top - i * step_y, badge, None, label,
                                role=f"stat:{name}"))
    return els
