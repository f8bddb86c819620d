"""The changelog pages of ``reprint.pdf``: a title, a line saying what the reprint holds, then one line per
card added, removed or changed (plain data in mm). Padded to an even number of pages, so the card sheets
after them stay front, back, front, back for a duplex printer."""

from __future__ import annotations

from pnp.layout.geometry import Line, Page, Rect, Style, Text
from pnp.units import PRINTER_MARGIN

MARGIN = PRINTER_MARGIN + 9.0
TITLE_STYLE = Style(font="serif-semibold", size=16, min_size=10, max_lines=2, align="left", valign="top")
LINE_STYLE = Style(font="serif", size=9.5, min_size=7.0, max_lines=2, align="left", valign="top", leading=1.15)
LINE_HEIGHT = 8.6       # mm: two lines of 9.5 pt and a little air
TITLE_HEIGHT = 16.0


def changelog_pages(title: str, summary: str, lines: list[str], page_w: float, page_h: float,
                    label: str = "Changelog") -> list[Page]:
    """``title`` and ``summary`` (markup) at the top of the first page, then ``lines`` (markup, each up to
    two lines of text) down the pages; an empty page after an odd count."""
    width = page_w - 2 * MARGIN
    pages: list[Page] = []
    rows = [summary] + list(lines)
    i = 0
    while i < len(rows) or not pages:
        page = Page(page_w, page_h, label=f"{label} {len(pages) + 1}")
        top = page_h - MARGIN
        if not pages:
            page.add(Text(Rect(MARGIN, top - TITLE_HEIGHT, width, TITLE_HEIGHT), title, TITLE_STYLE,
                          role="changelog-title"),
                     Line(MARGIN, top - TITLE_HEIGHT - 1.5, page_w - MARGIN, top - TITLE_HEIGHT - 1.5, "#8a1c1c", 0.4,
                          role="rule"))
            top -= TITLE_HEIGHT + 4.0
        while i < len(rows) and top - LINE_HEIGHT >= MARGIN:
            page.add(Text(Rect(MARGIN, top - LINE_HEIGHT, width, LINE_HEIGHT), rows[i], LINE_STYLE,
                          role="changelog-line"))
            top -= LINE_HEIGHT
            i += 1
        pages.append(page)
    if len(pages) % 2:
        pages.append(Page(page_w, page_h, label=f"{label} {len(pages) + 1}"))
    return pages
