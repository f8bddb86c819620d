"""Writing PDFs: reproducible bytes, embedded font subsets, outline entries, atomic files.

``Canvas(invariant=1)`` fixes the dates and document id, so the same input gives byte-identical
files; reportlab also honours SOURCE_DATE_EPOCH for the dates.
"""

from __future__ import annotations

import io

from reportlab.pdfgen.canvas import Canvas

from pnp.text import typography
from pnp.draw import fonts
from pnp.draw.paint import paint
from pnp.units import pt


def new_canvas(target, title: str, author: str = "", subject: str = "") -> Canvas:
    fonts.register()
    # the initial font is named in every page: make it a bundled one so no font goes unembedded
    c = Canvas(target, invariant=1, pageCompression=1, initialFontName=fonts.INITIAL_FONT)
    c.setTitle(title)
    c.setAuthor(author)
    c.setSubject(subject)
    c.setCreator("pnp")
    c.setProducer("pnp (reportlab)")
    return c


def add_pages(c: Canvas, pages, outline: str | None = None, key: str | None = None) -> None:
    """Paint ``pages`` (layout Page objects); the first one gets an outline entry when asked."""
    for i, page in enumerate(pages):
        c.setPageSize((pt(page.width), pt(page.height)))
        if page.trim is not None:
            c.setTrimBox((pt(page.trim.x), pt(page.trim.y), pt(page.trim.right), pt(page.trim.top)))
        if page.bleed is not None:
            c.setBleedBox((pt(page.bleed.x), pt(page.bleed.y), pt(page.bleed.right), pt(page.bleed.top)))
        if i == 0 and outline:
            c.bookmarkPage(key or outline)
            c.addOutlineEntry(outline, key or outline, level=0)
        paint(c, page.elements)
        c.showPage()


def render(pages, title: str, author: str = "", outline: str | None = None) -> bytes:
    """One component's pages as PDF bytes."""
    buf = io.BytesIO()
    c = new_canvas(buf, title, author)
    add_pages(c, pages, outline)
    c.save()
    return buf.getvalue()


def drawing_context(pages=()) -> tuple:
    """What the painter reads besides the pages and the icons (a drawn file's build cache key holds it): the
    language texts are set in (its quotes and hyphenation, :mod:`pnp.text.typography`: the spelling and the
    names never broken that ``pages`` print)."""
    return ("typography", typography.active(), typography.breaking_key(repr(pages)))
