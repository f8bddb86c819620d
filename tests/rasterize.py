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
    import re

    pages = []
    for number, text in enumerate(page_texts(pdf), 1):
        lines = text.splitlines()
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


#: Room between two characters on a line, in heights of their font's line (ascent to descent, about
#: 1.2 ems), that :func:`page_texts` reads as a space (a table's columns; letter-spaced capitals and
#: kerned pairs are closer).
GAP = 0.4


def page_texts(pdf) -> list[str]:
    """The text of each page of a PDF (bytes or a path) much as pypdf's ``extract_text`` gives it, but
    read by pdfium, thirty times faster (pypdf took 4-5 s of CPU for a 16-page rulebook, 8-9 s for a
    kit): the characters in the order the page draws them, a line break where the next one is on
    another line, a space where the page leaves room between two (table cells pdfium would run
    together), a word broken with a hyphen at a line's end as its hyphen and a line break. Turned text
    (a sheet's label) keeps pdfium's own spaces. It differs from pypdf in the contents' leaders, where
    a page number comes after the next line's title."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument(pdf)
    texts = []
    try:
        for number in range(len(doc)):
            textpage = doc[number].get_textpage()
            out, last = [], None    # last: (baseline, right edge, height, angle) of the last character written
            x, y, box = ctypes.c_double(), ctypes.c_double(), raw.FS_RECTF()
            for i in range(textpage.count_chars()):
                ch = chr(raw.FPDFText_GetUnicode(textpage, i))
                if ch in "\ufffe\x02":     # pdfium's mark of a word broken at a line's end
                    out.append("-\n")
                    last = None
                    continue
                if ch == "\r":
                    continue
                if ch.isspace():
                    out.append(ch)
                    last = None
                    continue
                raw.FPDFText_GetCharOrigin(textpage, i, x, y)
                raw.FPDFText_GetLooseCharBox(textpage, i, box)
                size = box.top - box.bottom         # the font's height as printed (a figure is scaled)
                angle = round(raw.FPDFText_GetCharAngle(textpage, i), 2)
                if last is not None:
                    if angle != last[3]:
                        out.append("\n")
                    elif angle:                     # turned text: as pdfium parts it
                        pass
                    elif abs(y.value - last[0]) > 0.5 * max(size, last[2]):
                        out.append("\n")
                    elif box.left - last[1] > GAP * max(size, last[2]):
                        out.append(" ")
                out.append(ch)
                last = (y.value, box.right, size, angle)
            texts.append("".join(out))
    finally:
        doc.close()
    return texts
