"""Pictures from the game folder on the canvas: SVG files as vectors (svglib), PNG and JPEG images.

SVGs are checked first (:mod:`pnp.loading.svg`: nothing outside the file is referred to); svglib turns them
into reportlab drawings, kept per file while it is unchanged. A picture fills its box as the data
asks: ``cover`` (crop to fill, around a focal point), ``contain`` (whole picture, centred) or ``fill``
(stretched). An SVG may be recoloured to one colour (an emblem's tint, a token's icon colour), or drawn
as its outline only (a token's cut line).
"""

from __future__ import annotations

import copy
import hashlib
import logging
import re
from functools import lru_cache
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.lib.utils import ImageReader

from pnp.cache.memo import reads_files
from pnp.draw import fonts
from pnp.errors import DataError, Problem
from pnp.loading.svg import check_svg

#: svglib logs what it cannot draw; pnp's validation already refused what is unsafe.
logging.getLogger("svglib.svglib").setLevel(logging.CRITICAL)


def _stamp(path: str) -> tuple:
    try:
        st = Path(path).stat()
        return st.st_mtime_ns, st.st_size
    except OSError:
        return ()


@reads_files
@lru_cache(maxsize=128)
def _drawing(path: str, stamp: tuple):
    try:
        from svglib.svglib import svg2rlg
    except ImportError as exc:  # pragma: no cover - a declared dependency
        raise RuntimeError("drawing SVG files needs svglib: pip install -e . again") from exc
    if check_svg(Path(path)).problems:
        return None
    return svg2rlg(path, external_reference_root=str(Path(path).parent))


def svg_drawing(path: str):
    """The reportlab drawing of a checked SVG file (None when it is unusable)."""
    return _drawing(path, _stamp(path))


@reads_files
@lru_cache(maxsize=64)
def _image(path: str, stamp: tuple):
    return ImageReader(path)


def image_size(path: str) -> tuple[int, int]:
    return _image(path, _stamp(path)).getSize()


def _recoloured(drawing, colour: str | None, outline: bool, stroke_width: float):
    if colour is None and not outline:
        return drawing
    # the same icon in the same colour is drawn hundreds of times in a big kit: recolour it once
    return _recoloured_copy(drawing, colour, outline, round(stroke_width, 4) if outline else 0.0)


@lru_cache(maxsize=512)
def _recoloured_copy(drawing, colour: str | None, outline: bool, stroke_width: float):
    from reportlab.graphics.shapes import Group, Shape   # with svglib: only games with SVG files pay for them

    d = copy.deepcopy(drawing)
    paint = HexColor(colour) if colour else None

    def walk(node):
        for child in getattr(node, "contents", []):
            if isinstance(child, Group):
                walk(child)
            elif isinstance(child, Shape):
                if outline:
                    if hasattr(child, "fillColor"):
                        child.fillColor = None
                    if hasattr(child, "strokeColor"):
                        child.strokeColor = paint
                        child.strokeWidth = stroke_width
                else:
                    if getattr(child, "fillColor", None) is not None:
                        child.fillColor = paint
                    if getattr(child, "strokeColor", None) is not None:
                        child.strokeColor = paint
    walk(d)
    return d


@lru_cache(maxsize=256)
def _digest(path: str, stamp: tuple) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def _svg_form(c, path: str, drawing, colour, outline: bool, stroke_width: float) -> str:
    """The name of a form XObject holding ``drawing`` recoloured: drawn into the PDF once per canvas and
    placed wherever the icon appears (a big kit draws the same icon hundreds of times). The name comes
    from the file's content and the colouring, so output stays the same wherever the game folder is."""
    stroke_width = round(stroke_width, 4) if outline else 0.0
    key = f"{_digest(path, _stamp(path))}|{colour}|{outline}|{stroke_width}"
    name = "svg" + hashlib.sha256(key.encode()).hexdigest()[:16]
    forms = c.__dict__.setdefault("_pnp_svg_forms", set())
    if name not in forms:
        from reportlab.graphics import renderPDF

        c.beginForm(name, 0, 0, drawing.width, drawing.height)
        drawing = _recoloured(drawing, colour, outline, stroke_width)
        # renderPDF sets its default font (Helvetica) before drawing anything: name the canvas's own,
        # bundled and embedded, so no PDF refers to a font it does not carry (print shops refuse those)
        drawing.initialFontName = fonts.INITIAL_FONT
        try:
            _renderer()().draw(renderPDF.renderScaledDrawing(drawing), c, 0, 0)
        except ValueError as exc:        # a number svglib made (an arc's radii) too large to write in a PDF
            large = re.search(r"number too large (\S+)", str(exc))
            if large is None:
                raise
            raise DataError([Problem(path, None, None, f"cannot be drawn: its shapes make a number too large to "
                                                       f"write into a PDF ({large.group(1)[:30]}); keep its "
                                                       f"coordinates, radii and sizes within a sensible range")]) \
                from None
        c.endForm()
        forms.add(name)
    return name


@lru_cache(maxsize=1)
def _renderer():
    """reportlab's PDF renderer, drawing a picture embedded in an SVG as an image object: its own way
    (inline image data) puts bytes where reportlab expects text and fails."""
    from reportlab.graphics import renderPDF

    class Renderer(renderPDF._PDFRenderer):
        def drawImage(self, image):
            if image.path is not None and hasattr(image.path, "mode"):      # a decoded picture (svglib)
                self._canvas.drawImage(ImageReader(image.path), image.x, image.y, image.width, image.height,
                                       mask="auto")
    return Renderer


def _sides(grow) -> tuple:
    """``grow`` (one length, or (left, bottom, right, top)) as four lengths."""
    return tuple(grow) if isinstance(grow, (tuple, list)) else (grow,) * 4


def grown_image(path: str, inner: tuple, fit: str, focus: tuple, grow, mode: str):
    """(PIL image, (left, bottom, right, top) pixels added, (width, height) of the crop): the part of the
    picture that ``inner`` (x, y, w, h) shows, with ``grow`` (same unit as ``inner``: one length, or
    (left, bottom, right, top)) more on those sides made of its edge pixels, repeated (``extend``) or
    mirrored (``mirror``). A side that grows at all grows by one pixel at least."""
    import numpy as np
    from PIL import Image

    image = Image.open(path)
    if image.mode != "CMYK":           # CMYK art stays CMYK (print services' PDF/X files take no RGB image)
        image = image.convert("RGBA" if "A" in image.getbands() or "transparency" in image.info else "RGB")
    iw, ih = image.size
    x, y, w, h = inner
    px, py, pw, ph = placement(iw, ih, inner, fit, focus)
    # the crop the inner box shows, in the image's pixels (its rows run from the top)
    left, right = (x - px) / pw * iw, (x + w - px) / pw * iw
    top, bottom = (py + ph - (y + h)) / ph * ih, (py + ph - y) / ph * ih
    crop = image.crop(tuple(round(v) for v in (left, top, right, bottom)))
    cw, ch = crop.size
    gl, gb, gr, gt = (max(1, round(g / size * pixels)) if g > 0 else 0
                      for g, size, pixels in zip(_sides(grow), (w, h, w, h), (cw, ch, cw, ch)))
    pixels = np.asarray(crop)
    pad = ((gt, gb), (gl, gr), (0, 0))
    grown = np.pad(pixels, pad, mode="edge" if mode == "extend" else "symmetric")
    return Image.fromarray(grown, crop.mode), (gl, gb, gr, gt), (cw, ch)


@lru_cache(maxsize=64)
def _grown_reader(path: str, stamp: tuple, inner: tuple, fit: str, focus: tuple, grow: tuple, mode: str):
    image, pad, size = grown_image(path, inner, fit, focus, grow, mode)
    return ImageReader(image), pad, size


def _draw_grown(c, path, box, fit, focus, grow, mode) -> None:
    x, y, w, h = box
    gl, gb, gr, gt = _sides(grow)
    inner = (x + gl, y + gb, w - gl - gr, h - gb - gt)
    reader, (pl, pb, pr, pt_), (cw, ch) = _grown_reader(path, _stamp(path), tuple(round(v, 4) for v in inner), fit,
                                                        tuple(focus), tuple(round(g, 4) for g in (gl, gb, gr, gt)),
                                                        mode)
    sx, sy = inner[2] / cw, inner[3] / ch          # points per pixel: the crop fills the inner box exactly
    c.saveState()
    p = c.beginPath()
    p.rect(x, y, w, h)
    c.clipPath(p, stroke=0, fill=0)
    c.drawImage(reader, inner[0] - pl * sx, inner[1] - pb * sy, (cw + pl + pr) * sx, (ch + pb + pt_) * sy,
                mask="auto")
    c.restoreState()


def placement(src_w: float, src_h: float, box: tuple, fit: str, focus: tuple = (0.5, 0.5)) -> tuple:
    """(x, y, w, h) the picture is drawn at so that it fills ``box`` (x, y, w, h) as ``fit`` says; ``focus``
    (0..1 from the left and from the top) stays in view when ``cover`` crops."""
    x, y, w, h = box
    if fit == "fill" or src_w <= 0 or src_h <= 0:
        return x, y, w, h
    scale = max(w / src_w, h / src_h) if fit == "cover" else min(w / src_w, h / src_h)
    dw, dh = src_w * scale, src_h * scale
    fx, fy = focus
    if fit == "cover":
        # the focal point sits as near the middle as the crop allows
        dx = min(0.0, max(w - dw, w / 2 - fx * dw))
        dy_top = min(0.0, max(h - dh, h / 2 - fy * dh))
        return x + dx, y + h - dh - dy_top, dw, dh
    return x + (w - dw) / 2, y + (h - dh) / 2, dw, dh


def draw_picture(c, path: str, box: tuple, fit: str = "contain", focus: tuple = (0.5, 0.5),
                 colour: str | None = None, outline: bool = False, stroke_width: float = 0.7, grow=0.0,
                 grow_mode: str = "extend") -> None:
    """Draw a PNG, JPEG or SVG file into ``box`` (points), clipped to it when ``cover`` crops. With
    ``grow`` (points: one length, or (left, bottom, right, top)) a PNG or JPEG drawn ``cover`` or ``fill``
    fills the box less ``grow`` on those sides, and the band round it is its edge pixels repeated
    (``extend``) or mirrored (``mirror``)."""
    x, y, w, h = box
    gl, gb, gr, gt = _sides(grow)
    if (max(gl, gb, gr, gt) > 0 and fit != "contain" and not path.lower().endswith(".svg") and w > gl + gr
            and h > gb + gt):
        _draw_grown(c, path, box, fit, focus, grow, grow_mode)
        return
    c.saveState()
    if fit == "cover":
        p = c.beginPath()
        p.rect(x, y, w, h)
        c.clipPath(p, stroke=0, fill=0)
    if path.lower().endswith(".svg"):
        drawing = svg_drawing(path)
        if drawing is not None and drawing.width > 0 and drawing.height > 0:
            px, py, pw, ph = placement(drawing.width, drawing.height, box, fit, focus)
            sx, sy = pw / drawing.width, ph / drawing.height
            name = _svg_form(c, path, drawing, colour, outline, stroke_width / max(min(sx, sy), 1e-6))
            c.translate(px, py)
            c.scale(sx, sy)
            c.doForm(name)
    else:
        iw, ih = image_size(path)
        px, py, pw, ph = placement(iw, ih, box, fit, focus)
        c.drawImage(_image(path, _stamp(path)), px, py, pw, ph, mask="auto")
    c.restoreState()
