"""The changelog pages of ``reprint.pdf``: a title, a line saying what the reprint holds, then for each kind
of piece a heading and one line per piece added, removed or changed (plain data in mm). Padded to an even
number of pages, so the sheets after them stay front, back, front, back for a duplex printer."""

from __future__ import annotations

from pnp.layout.geometry import Line, Page, Rect, Style, Text
from pnp.units import PRINTER_MARGIN

MARGIN = PRINTER_MARGIN + 9.0
TITLE_STYLE = Style(font="serif-semibold", size=16, min_size=10, max_lines=2, align="left", valign="bottom")
LINE_STYLE = Style(font="serif", size=9.5, min_size=7.0, max_lines=2, align="left", valign="top", leading=1.15)
HEADING_STYLE = Style(font="serif-semibold", size=11, min_size=8.0, max_lines=1, align="left", valign="bottom")
LINE_HEIGHT = 8.6       # mm: two lines of 9.5 pt and a little air
HEADING_HEIGHT = 9.0    # mm: a line of 11 pt with air above it
TITLE_HEIGHT = 14.0     # mm: two lines of 16 pt, set on the rule below them


def changelog_pages(title: str, summary: str, rows: list, page_w: float, page_h: float,
                    label: str = "Changelog") -> list[Page]:
    """``title`` and ``summary`` (markup) at the top of the first page, then ``rows`` down the pages: each
    ``("heading", markup)`` (a kind of piece) or ``("line", markup)`` (up to two lines of text); a plain
    string is a line. A heading is never the last row of a page. An empty page after an odd count."""
    width = page_w - 2 * MARGIN
    pages: list[Page] = []
    rows = [("line", summary)] + [r if isinstance(r, tuple) else ("line", r) for r in rows]
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
        while i < len(rows):
            kind, markup = rows[i]
            height = HEADING_HEIGHT if kind == "heading" else LINE_HEIGHT
            need = height + (LINE_HEIGHT if kind == "heading" else 0.0)      # a heading keeps its first line
            if top - need < MARGIN:
                break
            style, role = (HEADING_STYLE, "changelog-heading") if kind == "heading" else (LINE_STYLE,
                                                                                          "changelog-line")
            page.add(Text(Rect(MARGIN, top - height, width, height), markup, style, role=role))
            top -= height
            i += 1
        pages.append(page)
    if len(pages) % 2:
        pages.append(Page(page_w, page_h, label=f"{label} {len(pages) + 1}"))
    return pages
