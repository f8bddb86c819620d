"""Cut files for cutting machines: the outlines of a :class:`pnp.layout.cutter.CutSheet` as SVG and as DXF,
and for Cricut Design Space the sheet's image to upload (PNG).

Both cut files are in millimetres, in the coordinates of the sheet's frame (the whole sheet, or for
Cricut the image), so the outlines lie where the pieces are printed relative to the registration marks:
the SVG's page is the frame (y down, as SVG draws), the DXF's origin is the frame's bottom-left corner
(y up, as pnp's layout). The cut lines are on the layer ``cut``, fold lines (standees, dice nets) on a
layer ``fold`` of their own (score them, or leave them out of the cut); never the marks: the machine's
software places those itself, and a cut file holding them would cut them. A rounded corner is an arc
(SVG ``A``, a DXF bulge), a circle a circle, not a row of short segments. The same outlines give the
same bytes (the DXF's dates and ids are fixed, through ezdxf's documented option).
"""

from __future__ import annotations

import io
import math
from xml.sax.saxutils import escape

from pnp.errors import UserError

CUT_LAYER = "cut"
CUT_COLOUR = "#ff0000"
FOLD_LAYER = "fold"
FOLD_COLOUR = "#0000ff"
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


def svg_outline(outline, frame, page_h: float | None = None) -> str:
    """An outline as an SVG element in the frame's coordinates (y down from the frame's top)."""
    top = frame.top if page_h is None else page_h
    if outline.shape == "circle":
        r = outline.rect.w / 2
        return f'<circle cx="{_n(outline.rect.cx - frame.x)}" cy="{_n(top - outline.rect.cy)}" r="{_n(r)}"/>'
    if outline.shape in ("polygon", "line"):
        pts = " ".join(f"{_n(x - frame.x)},{_n(top - y)}" for x, y in outline.points)
        return f'<path d="M{pts}{" Z" if outline.shape == "polygon" else ""}"/>'
    return f'<path d="{svg_path(outline.rect.moved(-frame.x, 0.0), outline.radius, top)}"/>'


def svg(sheet, title: str = "") -> bytes:
    """The cut lines of ``sheet`` as an SVG document whose page is the sheet's frame, in mm."""
    frame = sheet.area
    w, h = frame.w, frame.h
    paths = "\n".join(f"    {svg_outline(o, frame)}" for o in sheet.outlines)
    folds = ""
    if sheet.folds:
        lines = "\n".join(f'    <line x1="{_n(x1 - frame.x)}" y1="{_n(frame.top - y1)}" x2="{_n(x2 - frame.x)}" '
                          f'y2="{_n(frame.top - y2)}"/>' for x1, y1, x2, y2 in sheet.folds)
        folds = (f'  <g id="{FOLD_LAYER}" fill="none" stroke="{FOLD_COLOUR}" stroke-width="0.1" '
                 f'stroke-dasharray="1,1">\n{lines}\n  </g>\n')
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(w)}mm" height="{_n(h)}mm" '
            f'viewBox="0 0 {_n(w)} {_n(h)}">\n'
            f'  <title>{escape(title)}</title>\n'
            f'  <g id="{CUT_LAYER}" fill="none" stroke="{CUT_COLOUR}" stroke-width="0.1">\n'
            f'{paths}\n  </g>\n{folds}</svg>\n').encode("utf-8")


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
    """The cut lines of ``sheet`` as a DXF drawing (R2010, millimetres, origin the frame's bottom-left
    corner): one closed polyline (or circle) per piece on the layer ``cut``, fold lines on ``fold``."""
    try:
        import ezdxf
    except ImportError:
        raise UserError("--cutter writes DXF cut files with ezdxf, which is not installed: "
                        "pip install 'pnp[cutter]' (or pip install ezdxf)") from None
    ox, oy = sheet.area.x, sheet.area.y
    fixed = ezdxf.options.write_fixed_meta_data_for_testing
    ezdxf.options.write_fixed_meta_data_for_testing = True     # fixed dates and ids: reproducible bytes
    try:
        doc = ezdxf.new("R2010", units=4)            # 4: millimetres
        doc.layers.add(CUT_LAYER, color=1)           # red
        cut = {"layer": CUT_LAYER}
        msp = doc.modelspace()
        for o in sheet.outlines:
            if o.shape == "circle":
                msp.add_circle((round(o.rect.cx - ox, 4), round(o.rect.cy - oy, 4)), round(o.rect.w / 2, 4),
                               dxfattribs=cut)
                continue
            points = ([(x, y, 0.0) for x, y in o.points] if o.shape in ("polygon", "line")
                      else dxf_points(o.rect, o.radius))
            msp.add_lwpolyline([(round(x - ox, 4), round(y - oy, 4), b) for x, y, b in points],
                               format="xyb", close=o.shape != "line", dxfattribs=cut)
        if sheet.folds:
            doc.layers.add(FOLD_LAYER, color=5)      # blue
            for x1, y1, x2, y2 in sheet.folds:
                msp.add_line((round(x1 - ox, 4), round(y1 - oy, 4)), (round(x2 - ox, 4), round(y2 - oy, 4)),
                             dxfattribs={"layer": FOLD_LAYER})
        # ezdxf registers a class for each DXF type in use in the order of a set, which varies with the
        # process's string hashing: registered first in sorted order, the CLASSES section is the same bytes
        for dxftype in sorted(doc.entitydb.dxf_types_in_use()):
            doc.classes.add_class(dxftype)
        stream = io.StringIO()
        doc.write(stream)
    finally:
        ezdxf.options.write_fixed_meta_data_for_testing = fixed
    return stream.getvalue().encode("utf-8")


def sheet_image(pdf: bytes, index: int, sheet, dpi: int) -> bytes:
    """Cricut: page ``index`` of ``pdf`` cropped to ``sheet``'s frame at ``dpi``, as a PNG whose opaque
    pixels are the pieces inside their cut lines and transparent everywhere else: Design Space cuts
    round the opaque shapes of an uploaded Print Then Cut image."""
    from PIL import Image, ImageDraw

    from pnp.draw.raster import Rasterizer, png_bytes, size_px

    frame = sheet.area
    page_px = size_px(sheet.page_w, sheet.page_h, dpi)
    sx, sy = page_px[0] / sheet.page_w, page_px[1] / sheet.page_h
    with Rasterizer(pdf) as pages:
        page = pages.render(index, page_px)
    box = (round(frame.x * sx), round((sheet.page_h - frame.top) * sy),
           round(frame.right * sx), round((sheet.page_h - frame.y) * sy))
    image = page.crop(box).convert("RGBA")
    mask = Image.new("L", image.size, 0)
    draw = ImageDraw.Draw(mask)

    def px(x, y):
        return (x * sx - box[0], (sheet.page_h - y) * sy - box[1])

    # largest first; an outline inside one already drawn is a hole (a standee base's slit)
    drawn = []
    for o in sorted((o for o in sheet.outlines if o.shape != "line"), key=lambda o: -o.rect.w * o.rect.h):
        fill = 0 if any(r.contains(o.rect) for r in drawn) else 255
        drawn.append(o.rect)
        if o.shape == "polygon":
            draw.polygon([px(x, y) for x, y in o.points], fill=fill)
            continue
        (x0, y1), (x1, y0) = px(o.rect.x, o.rect.y), px(o.rect.right, o.rect.top)
        if o.shape == "circle":
            draw.ellipse((x0, y0, x1 - 1, y1 - 1), fill=fill)
        else:
            draw.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=o.radius * sx, fill=fill)
    image.putalpha(mask)
    return png_bytes(image, dpi)


def cut_files(title: str, machine, page_w: float, page_h: float, pages: list, stem: str,
              numbers: list | None = None, drawn: list | None = None, folds: list | None = None,
              words: dict | None = None) -> dict:
    """The files beside ``<stem>.pdf`` for ``machine``: ``<stem>-cut-p<first>-<last>.svg`` and ``.dxf``
    for each run of pages that cut the same outlines (one pair for every full sheet of a deck); with
    ``numbers`` (each page's number in the PDF, when other pages come between them), one pair per page.
    ``pages`` holds each page's :class:`pnp.layout.cutter.CutOutline` list, ``folds`` its fold lines.
    For a machine that takes images (Cricut), ``drawn`` (the pages themselves) also gives
    ``<stem>-p<n>.png``, each page's image to upload, and ``<stem>-images.txt`` lists their sizes, in the
    kit's printed ``words`` (:func:`pnp.loading.i18n.strings`: ``cutter_images``, ``cutter_image``; pnp's
    English without them)."""
    from dataclasses import replace

    from pnp.loading.i18n import REFERENCE, pnp_words

    from pnp.layout.cutter import IMAGE_DPI, cut_sheets

    files = {}
    folds = folds if folds is not None else [[] for _ in pages]
    if numbers is None:
        runs = cut_sheets(machine, page_w, page_h, pages, folds)
        numbers = list(range(1, len(pages) + 1))
    else:
        runs = [replace(cut_sheets(machine, page_w, page_h, [p], [f])[0], first=n, last=n)
                for p, f, n in zip(pages, folds, numbers)]
    for sheet in runs:
        name = f"{stem}-cut-{sheet.pages}"
        files[f"{name}.svg"] = svg(sheet, f"{title}: {stem}.pdf {sheet.pages}, {machine.title}")
        files[f"{name}.dxf"] = dxf(sheet)
    if machine.image and drawn:
        from pnp.draw.pdf import render

        pdf = render(drawn, f"{title}: {stem}.pdf")
        words = words if words is not None else pnp_words(REFERENCE)
        lines = [_said(words["cutter_images"], title=title, file=f"{stem}.pdf")]
        by_number = {}
        for sheet in runs:
            for n in range(sheet.first, sheet.last + 1):
                by_number[n] = sheet
        for index, n in enumerate(numbers):
            sheet = by_number[n]
            if not sheet.outlines:
                continue
            name = f"{stem}-p{n}.png"
            files[name] = sheet_image(pdf, index, replace(sheet, first=n, last=n), IMAGE_DPI)
            f = sheet.area
            lines.append(_said(words["cutter_image"], image=name, width_in=f"{f.w / 25.4:.3f}",
                               height_in=f"{f.h / 25.4:.3f}", width_mm=f"{f.w:.2f}", height_mm=f"{f.h:.2f}",
                               cut=f"{stem}-cut-{sheet.pages}.svg"))
        files[f"{stem}-images.txt"] = ("\n".join(lines) + "\n").encode("utf-8")
    return files


def _said(text: str, **values) -> str:
    """A printed word for a plain-text file, its ``{placeholders}`` replaced by ``values`` as written."""
    for name, value in values.items():
        text = text.replace("{" + name + "}", value)
    return text


def moved_sheets(title: str, machine, pages, page_w: float, page_h: float, stem: str,
                 words: dict | None = None) -> tuple[list, dict]:
    """A component's pages laid out on :func:`pnp.layout.cutter.virtual_page` (standees, dice), moved
    onto the machine's sheets, and the cut files (and Cricut images) of the cut and fold lines they
    print, for ``<stem>.pdf``: (pages, files beside)."""
    from pnp.layout.cutter import onto_sheets, virtual_page

    _, _, dx, dy = virtual_page(machine, page_w, page_h)
    sheets, cuts, folds = onto_sheets(machine, pages, page_w, page_h, dx, dy)
    return sheets, cut_files(title, machine, page_w, page_h, cuts, stem, drawn=sheets, folds=folds, words=words)
