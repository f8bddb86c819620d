"""A one-sheet duplex test: scales on the front, pointers on the back, to measure a printer's drift.

Print both pages on one sheet, double-sided, flipping on the edge you will use for the cards. Hold the
sheet against a light: each pointer printed on the back crosses the matching scale on the front at the
number to pass as ``pnp build --back-offset X,Y``. The scales are numbered so that no sign has to be
worked out by hand, for either flip.
"""

from __future__ import annotations

from pnp.layout.geometry import Line, Page, Rect, Style, Text
from pnp.layout.sheet import mirror

RANGE = 10          # mm either side of zero
INK = "#1f1a17"
LABEL = Style(font="sans", size=6.5, min_size=5, max_lines=1)
NOTE = Style(font="serif", size=10, min_size=7, align="left", valign="top", leading=1.25)
TITLE = Style(font="serif-semibold", size=16, min_size=10, max_lines=1, align="left")


def calibration_pages(page_w: float, page_h: float, flip: str, words: dict) -> list[Page]:
    """[front, back]. Scale numbers read as the back offset to use for that axis."""
    cx, cy = page_w / 2, page_h / 2
    front = Page(page_w, page_h, label="Calibration front")
    back = Page(page_w, page_h, label="Calibration back")
    # A back pointer drawn at back-page x_b appears from the front at mirror(x_b). If the printer moves
    # the back by d (back frame), the pointer appears shifted by -d across a mirrored axis and by +d
    # along an unmirrored one; the offset to pass is -d. So a mirrored axis is numbered +reading,
    # an unmirrored one -reading.
    x_sign = 1 if flip == "long" else -1
    y_sign = -1 if flip == "long" else 1
    for y in (page_h * 0.72, page_h * 0.28):
        _scale(front, cx, y, horizontal=True, sign=x_sign)
        p = mirror(Rect(cx, y - 9, 0, 18), page_w, page_h, flip)
        back.add(Line(p.x, p.y, p.x, p.top, INK, 0.25, role="pointer-x"))
    for x in (page_w * 0.2, page_w * 0.8):
        _scale(front, x, cy, horizontal=False, sign=y_sign)
        p = mirror(Rect(x - 9, cy, 18, 0), page_w, page_h, flip)
        back.add(Line(p.x, p.y, p.right, p.y, INK, 0.25, role="pointer-y"))
    front.add(Text(Rect(18, page_h - 40, page_w - 36, 12), words.get("calibration_title", "Duplex calibration"),
                   TITLE, role="title"))
    front.add(Text(Rect(18, page_h - 75, page_w - 36, 34), words.get("calibration_how", ""), NOTE, role="note"))
    back.add(Text(Rect(18, 18, page_w - 36, 12), words.get("calibration_back", ""), NOTE, role="note"))
    return [front, back]


def _scale(page: Page, x0: float, y0: float, horizontal: bool, sign: int) -> None:
    for k in range(-RANGE * 2, RANGE * 2 + 1):        # half-millimetre ticks
        v = k / 2
        tall = 4.0 if k % 10 == 0 else 2.5 if k % 2 == 0 else 1.5
        if horizontal:
            page.add(Line(x0 + v, y0, x0 + v, y0 + tall, INK, 0.12, role="tick"))
            page.add(Line(x0 + v, y0, x0 + v, y0 - tall, INK, 0.12, role="tick"))
        else:
            page.add(Line(x0, y0 + v, x0 + tall, y0 + v, INK, 0.12, role="tick"))
            page.add(Line(x0, y0 + v, x0 - tall, y0 + v, INK, 0.12, role="tick"))
        if k % 10 == 0:
            label = "0" if v == 0 else f"{sign * v:+g}"
            if horizontal:
                page.add(Text(Rect(x0 + v - 4, y0 + 4.5, 8, 3), label, LABEL, role="label"))
            else:
                page.add(Text(Rect(x0 + 4.5, y0 + v - 1.5, 8, 3), label, LABEL, role="label"))
