"""Cut files for cutting machines: the outlines of a :class:`pnp.layout.cutter.CutSheet` as SVG and as DXF.

Both are in millimetres, in the sheet's coordinates, so the outlines lie where the pieces are printed
relative to the registration marks: the SVG's page is the sheet (y down, as SVG draws), the DXF's origin
is the sheet's bottom-left corner (y up, as pnp's layout). Only the cut lines are in them (layer ``cut``),
never the marks: the machine's software places those itself, and a cut file holding them would cut
them. A rounded corner is an arc (SVG ``A``, a DXF bulge), not a row of short segments. The same
outlines give the same bytes (the DXF's dates and ids are fixed, through ezdxf's documented option).
"""

from __future__ import annotations

import io
import math
from xml.sax.saxutils import escape

from pnp.errors import UserError

CUT_LAYER = "cut"
CUT_COLOUR = "#ff0000"
#: A DXF bulge of a quarter circle turning left: tan(90° / 4).
QUARTER_BULGE = math.tan(math.radians(22.5))


def _n(v: float) -> str:
    text = f"{v:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def svg_path(rect, radius: float, page_h: float) -> str:
    """The ``d`` of a rectangle with rounded corners, in SVG's frame (y down from the sheet's top)."""
    r = min(radius, rect.w / 2, rect.h / 2)
    x0, x1 = rect.x, rect.right
    y0, y1 = page_h - rect.top, page_h - rect.y          # upper and lower edge, y down
    if r <= 0:
        return f"M{_n(x0)},{_n(y0)} H{_n(x1)} V{_n(y1)} H{_n(x0)} Z"
    a = f"A{_n(r)},{_n(r)} 0 0 1 "
    return (f"M{_n(x0 + r)},{_n(y0)} H{_n(x1 - r)} {a}{_n(x1)},{_n(y0 + r)} V{_n(y1 - r)} "
            f"{a}{_n(x1 - r)},{_n(y1)} H{_n(x0 + r)} {a}{_n(x0)},{_n(y1 - r)} V{_n(y0 + r)} "
            f"{a}{_n(x0 + r)},{_n(y0)} Z")


def svg(sheet, title: str = "") -> bytes:
    """The cut lines of ``sheet`` as an SVG document whose page is the sheet, in mm."""
    w, h = sheet.page_w, sheet.page_h
    paths = "\n".join(f'    <path d="{svg_path(o.rect, o.radius, h)}"/>' for o in sheet.outlines)
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(w)}mm" height="{_n(h)}mm" '
            f'viewBox="0 0 {_n(w)} {_n(h)}">\n'
            f'  <title>{escape(title)}</title>\n'
            f'  <g id="{CUT_LAYER}" fill="none" stroke="{CUT_COLOUR}" stroke-width="0.1">\n'
            f'{paths}\n  </g>\n</svg>\n').encode("utf-8")


def dxf_points(rect, radius: float) -> list[tuple[float, float, float]]:
    """(x, y, bulge) of a closed polyline round the rectangle, counter-clockwise from its bottom edge; a
    vertex's bulge rounds the segment that leaves it."""
    r = min(radius, rect.w / 2, rect.h / 2)
    x0, y0, x1, y1 = rect.x, rect.y, rect.right, rect.top
    if r <= 0:
        return [(x0, y0, 0.0), (x1, y0, 0.0), (x1, y1, 0.0), (x0, y1, 0.0)]
    b = QUARTER_BULGE
    return [(x0 + r, y0, 0.0), (x1 - r, y0, b), (x1, y0 + r, 0.0), (x1, y1 - r, b),
            (x1 - r, y1, 0.0), (x0 + r, y1, b), (x0, y1 - r, 0.0), (x0, y0 + r, b)]


def dxf(sheet) -> bytes:
    """The cut lines of ``sheet`` as a DXF drawing (R2010, millimetres), one closed polyline per piece on
    the layer ``cut``."""
    try:
        import ezdxf
    except ImportError:
        raise UserError("--cutter writes DXF cut files with ezdxf, which is not installed: "
                        "pip install 'pnp[cutter]' (or pip install ezdxf)") from None
    fixed = ezdxf.options.write_fixed_meta_data_for_testing
    ezdxf.options.write_fixed_meta_data_for_testing = True     # fixed dates and ids: reproducible bytes
    try:
        doc = ezdxf.new("R2010", units=4)            # 4: millimetres
        doc.layers.add(CUT_LAYER, color=1)           # red
        msp = doc.modelspace()
        for o in sheet.outlines:
            msp.add_lwpolyline([(round(x, 4), round(y, 4), b) for x, y, b in dxf_points(o.rect, o.radius)],
                               format="xyb", close=True, dxfattribs={"layer": CUT_LAYER})
        stream = io.StringIO()
        doc.write(stream)
    finally:
        ezdxf.options.write_fixed_meta_data_for_testing = fixed
    return stream.getvalue().encode("utf-8")
