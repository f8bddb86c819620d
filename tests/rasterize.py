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


def booklet_text(pdf) -> str:
    """The words of a rulebook PDF (bytes or a path) in reading order, without the running header and
    page number of each page (a paragraph runs on across them), words hyphenated at a line end joined,
    typographic apostrophes read as typed ones."""
    import io
    import re

    import pypdf

    reader = pypdf.PdfReader(io.BytesIO(pdf) if isinstance(pdf, bytes) else str(pdf))
    pages = []
    for number, page in enumerate(reader.pages, 1):
        lines = page.extract_text().splitlines()
        if lines and "\u00b7" in lines[0] and lines[0].upper() == lines[0]:
            lines = lines[1:]
        # the page number, a line of its own that text extraction puts first or last
        lines = [line for k, line in enumerate(lines)
                 if not (line.strip() == str(number) and (k < 2 or k >= len(lines) - 2))]
        pages.append(" ".join(lines))
    text = " ".join(" ".join(pages).split()).replace("\u2019", "'")
    return re.sub(r"(\w)- (\w)", r"\1\2", text)


def page_words(pdf) -> list[str]:
    """The words of each page of a PDF (bytes or a path) as pdfium extracts them (many times faster than
    pypdf's extraction), one space between words, a word hyphenated at a line end joined, typographic
    quotes and apostrophes (English and Spanish) read as typed ones."""
    import re

    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        texts = [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    finally:
        doc.close()
    straight = str.maketrans("\u2018\u2019\u201c\u201d\u00ab\u00bb", "''\"\"\"\"")
    return [re.sub(r"(\w)-\s+(\w)", r"\1\2", " ".join(text.translate(straight).split())) for text in texts]
