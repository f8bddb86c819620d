"""Rasterizing pnp's own PDFs with pypdfium2, at exact pixel sizes, to reproducible PNG bytes.

Pixel sizes follow one rule everywhere: a length of ``mm`` millimetres at ``dpi`` dots per inch is
``mm / 25.4 * dpi`` pixels rounded to the nearest whole pixel, halves rounding up (63 mm at 300 dpi is
744.09 -> 744 px; 88 mm is 1039.37 -> 1039 px). A page is drawn onto exactly that many pixels, so
the image holds the whole page; the scale differs from the nominal dpi by less than half a pixel
over the page.
"""

from __future__ import annotations

import io
import math
from fractions import Fraction

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image

from pnp.units import MM_PER_INCH


def pixels(mm: float, dpi: float) -> int:
    """``mm`` at ``dpi`` in whole pixels, rounded half up (exact arithmetic, no float surprises)."""
    exact = Fraction(str(mm)) * Fraction(str(dpi)) / Fraction(str(MM_PER_INCH))
    return math.floor(exact + Fraction(1, 2))


def size_px(width_mm: float, height_mm: float, dpi: float) -> tuple[int, int]:
    return pixels(width_mm, dpi), pixels(height_mm, dpi)


class Rasterizer:
    """Pages of one PDF (bytes), each drawn onto a bitmap of a given pixel size."""

    def __init__(self, pdf: bytes):
        self._doc = pdfium.PdfDocument(pdf)

    def __len__(self) -> int:
        return len(self._doc)

    def page_size_mm(self, index: int) -> tuple[float, float]:
        w_pt, h_pt = self._doc[index].get_size()
        return w_pt / 72 * MM_PER_INCH, h_pt / 72 * MM_PER_INCH

    def render(self, index: int, size: tuple[int, int]) -> Image.Image:
        """Page ``index`` stretched onto exactly ``size`` (width, height) pixels, white underneath."""
        width, height = size
        page = self._doc[index]
        bitmap = pdfium.PdfBitmap.new_native(width, height, pdfium_c.FPDFBitmap_BGR)
        bitmap.fill_rect((255, 255, 255, 255), 0, 0, width, height)
        pdfium_c.FPDF_RenderPageBitmap(bitmap, page, 0, 0, width, height, 0, pdfium_c.FPDF_ANNOT)
        image = bitmap.to_pil().convert("RGB")  # a copy: the bitmap's buffer goes with it
        page.close()
        return image

    def render_at(self, index: int, dpi: float) -> Image.Image:
        """Page ``index`` at ``dpi``, its size in pixels by the rounding rule above."""
        return self.render(index, size_px(*self.page_size_mm(index), dpi))

    def close(self) -> None:
        self._doc.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def png_bytes(image: Image.Image, dpi: float | None = None) -> bytes:
    """PNG bytes with the dpi recorded (pHYs chunk) and nothing that varies between runs."""
    buf = io.BytesIO()
    params = {"dpi": (dpi, dpi)} if dpi else {}
    image.save(buf, format="PNG", **params)
    return buf.getvalue()
