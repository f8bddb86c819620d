"""Rasterizing rendered pages for pixel checks (pypdfium2), shared by the geometry tests."""

from __future__ import annotations

from PIL import Image

from pnp.draw.pdf import render
from pnp.units import MM_PER_INCH


def raster(pages, dpi: float = 100) -> list[Image.Image]:
    """Each layout page painted to PDF, then rasterized at ``dpi`` as an RGB image."""
    pdfium = __import__("pypdfium2")
    doc = pdfium.PdfDocument(render(pages, "test"))
    try:
        return [doc[i].render(scale=dpi / 72).to_pil().convert("RGB") for i in range(len(doc))]
    finally:
        doc.close()


def px(mm: float, dpi: float) -> int:
    return int(round(mm / MM_PER_INCH * dpi))


def pixel(image: Image.Image, x_mm: float, y_mm: float, dpi: float) -> tuple:
    """The colour at the point (x_mm, y_mm) of a page (origin bottom-left, y up, as in layout)."""
    return image.getpixel((px(x_mm, dpi), image.height - 1 - px(y_mm, dpi)))
