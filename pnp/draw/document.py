"""The rulebook typeset: its chapters' pnp markup -> platypus flowables -> booklet PDFs.

The chapters' markup comes from :mod:`pnp.rulebook.chapters` (``rulebook.yaml`` and the chapter templates); this
module sets it with the rulebook's styles: the cover, the contents, headings, lists, tables, examples and
figures, the notes pages, laid out once (:func:`lay_out`) and drawn from that layout. The pages of sheets
and of the instructions page are set the same way, in one frame (:func:`single_frame_pdf`).
"""

from __future__ import annotations

import io
from contextvars import ContextVar
from dataclasses import dataclass, replace
from functools import lru_cache

from reportlab.lib.colors import HexColor
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (BaseDocTemplate, CondPageBreak, Flowable, Frame, KeepTogether, NextPageTemplate, PageBreak,
                                PageTemplate, Spacer, Table, TableStyle)
from reportlab.platypus.flowables import PageBreakIfNotEmpty
from reportlab.platypus.doctemplate import LayoutError
from reportlab.platypus.tableofcontents import TableOfContents

from pnp.text.credits import credit_lines
from pnp.draw import fonts, icons
from pnp.text import typography
from pnp.draw.flowables import (FigureRow, KeepWithNext, MeasuringCanvas, RichText, Rule, keep_with_next,
                                painting)
from pnp.draw.text import fit, line_width, natural_widths, paint_lines, wrap
from pnp.layout.typeset import bullet_list, leads_in, numbered_list
from pnp.errors import DataError, Problem, Problems
from pnp.layout.colour import readable
from pnp.layout.geometry import Style
from pnp.text.markup import (Directive, Example, Heading, ListBlock, MarkupError, Paragraph, TableBlock, escape,
                        escaped_at, fill, parse, plain_text)
from pnp.units import pt

INK = "#1f1a17"
ACCENT = "#6b1d2a"
MARGIN = dict(inner=12.0, outer=12.0, top=13.0, bottom=15.0)
#: The cover's double frame: its outer line this far inside the page's edges (mm), the inner 1.5 mm further.
COVER_FRAME = 6.0
#: A chapter starts on a new page when less than this is left on the page (mm).
CHAPTER_ROOM = 45.0

BODY = Style(font="serif", size=9.4, leading=1.26, align="left", hyphenate=True)
H1 = Style(font="serif-semibold", size=17, leading=1.1, align="left", colour=ACCENT)
H2 = Style(font="serif-semibold", size=12, leading=1.15, align="left", colour=INK)
H3 = Style(font="sans-bold", size=7.6, leading=1.3, align="left", colour=ACCENT, upper=True, tracking=0.7)
EXAMPLE = Style(font="sans", size=7.3, leading=1.3, align="left", colour="#2b2622", hyphenate=True)
CELL = Style(font="sans", size=7.0, leading=1.2, align="left", hyphenate=True)
CAPTION = Style(font="sans", size=6.8, leading=1.25, align="center", colour="#4a423b", hyphenate=True)
CELL_HEAD = Style(font="sans-bold", size=6.8, leading=1.2, align="left", colour="#ffffff", upper=True,
                  tracking=0.3)

#: The size the blocks being made are set at, as a multiple of the styles above (:func:`flowables`'s
#: ``scale``: the instructions page sets its text as large as fills it).
_SCALE: ContextVar = ContextVar("pnp_document_scale", default=1.0)


def _st(style: Style) -> Style:
    """``style`` at the size blocks are being made at (:data:`_SCALE`)."""
    k = _SCALE.get()
    return style if k == 1.0 else _scaled(style, k)


@lru_cache(maxsize=64)
def _scaled(style: Style, k: float) -> Style:
    return replace(style, size=round(style.size * k, 3))


def _sp(points: float) -> float:
    """A space between blocks (points) at the size blocks are being made at."""
    return points * _SCALE.get()


# ----------------------------------------------------------------------------- flowables

def _heading(node: Heading):
    style = _st({1: H1, 2: H2, 3: H3}[node.level])
    before = _sp({1: 0, 2: 9, 3: 6}[node.level])
    after = _sp({1: 7, 2: 3, 3: 2}[node.level])
    text = node.text
    unlisted = text.endswith("{-}") and not escaped_at(text, len(text) - 3)
    if unlisted:  # "# Contents {-}": a heading left out of the table of contents
        text = text[:-3].rstrip()
    flow = RichText(text, style, before, after, keep_with_next=True, toc_level=node.level - 1, kind="heading")
    # outline and contents entries: the words, no markup, with the language's quotes
    flow.plain = typography.quotes(plain_text(text))
    flow.unlisted = unlisted
    return flow


def _table(node: TableBlock, width):
    cells = []
    for r, row in enumerate(node.rows):
        style = _st(CELL_HEAD if r < node.header_rows else CELL)
        cells.append([RichText(cell, style) for cell in row])
    n = len(node.rows[0]) if node.rows else 1
    table = RulesTable(cells, repeatRows=node.header_rows, hAlign="LEFT", colWidths=_column_widths(node, width))
    commands = [
        ("FONTNAME", (0, 0), (-1, -1), "Lato-Regular"),  # else Table names Helvetica, left unembedded
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LEFTPADDING", (0, 0), (-1, -1), 3), ("RIGHTPADDING", (0, 0), (-1, -1), 3),
        ("TOPPADDING", (0, 0), (-1, -1), _sp(2.2)), ("BOTTOMPADDING", (0, 0), (-1, -1), _sp(2.2)),
        ("LINEBELOW", (0, 0), (-1, -1), 0.3, HexColor("#cbbfa8")),
    ]
    if node.header_rows:
        commands.append(("BACKGROUND", (0, 0), (-1, node.header_rows - 1), HexColor(ACCENT)))
    for r in range(node.header_rows, len(node.rows)):
        if (r - node.header_rows) % 2:
            commands.append(("BACKGROUND", (0, r), (-1, r), HexColor("#f3ecdd")))
    table.setStyle(TableStyle(commands))
    table.spaceBefore, table.spaceAfter = _sp(3), _sp(6)
    del n
    return table


CELL_PADDING = 6.0  # left + right padding of a table cell, points
#: A table whose columns hold numbers or single words and need no more than this share of the column
#: is set at its content's width rather than spread across the column.
COMPACT_TABLE = 2 / 3
#: A table split across pages starts at a page's foot with at least this many body rows under its header:
#: two rows there read as a stray (a Spanish faction's table did that twice, on Letter p9 and p10).
TABLE_HEAD_ROWS = 3
#: ... and carries at least this many body rows to the next page, under its header repeated.
TABLE_KEEP_ROWS = 2


class RulesTable(Table):
    """A table that splits across pages only with :data:`TABLE_HEAD_ROWS` body rows or more on the page it
    starts on and :data:`TABLE_KEEP_ROWS` or more on the next (a table of seven rows splits 5 + 2, 4 + 3
    or 3 + 4, never 2 + 5 nor 6 + 1; one of four rows or fewer never splits): one that cannot moves on
    whole."""

    kind = "Table"

    def split(self, avail_width, avail_height):
        height = avail_height
        while True:
            parts = super().split(avail_width, height)
            if len(parts) != 2:
                return parts
            head = len(parts[0]._cellvalues) - self.repeatRows
            tail = len(parts[1]._cellvalues) - self.repeatRows
            if head < TABLE_HEAD_ROWS:
                return []
            if tail >= TABLE_KEEP_ROWS:
                return parts
            parts[0].wrap(avail_width, height)
            height = sum(parts[0]._rowHeights[:-1]) + 0.01      # one row fewer on this page


def _column_widths(node: TableBlock, width):
    """Every column gets at least its widest word; what is left goes where whole lines are longest."""
    n = len(node.rows[0])
    least, most = [0.0] * n, [0.0] * n
    wraps = [False] * n                 # a body cell of the column has words a narrower measure would wrap
    for r, row in enumerate(node.rows):
        style = _st(CELL_HEAD if r < node.header_rows else CELL)
        for c, cell in enumerate(row):
            lo, hi = natural_widths(cell, style)
            least[c] = max(least[c], lo + CELL_PADDING + 0.5)
            most[c] = max(most[c], hi + CELL_PADDING + 0.5)
            wraps[c] = wraps[c] or (r >= node.header_rows and lo < hi - 0.01)
    if sum(most) <= width:
        # the table spans the column; the room to spare goes to the columns of words (those whose body a
        # narrower measure would wrap), a column of numbers or single words stays as wide as its content;
        # a table of such columns alone, narrow, is set at its content's width (Lantern Ferry's three
        # columns of numbers and Starfall's "Deck / Cards" spread across the page, their numbers far from
        # their names)
        wide = [c for c in range(n) if wraps[c]]
        if not wide and sum(most) <= COMPACT_TABLE * width:
            return most
        spare = width - sum(most)
        wide = wide or [c for c in range(n) if least[c] < most[c] - 0.01] or [0]
        total = sum(most[c] for c in wide)
        return [m + (spare * m / total if c in wide else 0.0) for c, m in enumerate(most)]
    # too wide for one line each: a short column (its whole content no wider than an even share of the
    # table's width) keeps its words on one line ("one side, folded" and "Troop dice: stickers" were set
    # "fol-ded", "stick-ers" beside a column of long lists); the long columns share the rest by how much
    # they would grow, as before
    whole = {c for c in range(n) if most[c] <= width / n}
    if sum(most[c] for c in whole) + sum(least[c] for c in range(n) if c not in whole) > width:
        whole = set()
    widths = [most[c] if c in whole else least[c] for c in range(n)]
    rest = [c for c in range(n) if c not in whole]
    spare = max(0.0, width - sum(widths))
    total = sum(most[c] - least[c] for c in rest) or 1.0
    for c in rest:
        widths[c] += spare * (most[c] - least[c]) / total
    return widths


def _example(node: Example):
    # an empty ">" line is a line of the box left blank
    flows = [RichText(line, _st(EXAMPLE), 0, 0, background="#efe6d2", min_lines=1) for line in node.lines]
    if len(flows) > 1 and node.lines[0].startswith("**"):
        flows[0].keep_next = True       # a box's title line stays with the box
    return flows


def _list(node: ListBlock) -> list:
    """A list's items, hanging from a bullet sized to the text or from their numbers."""
    body = _st(BODY)
    if node.ordered:
        labels = [f"**{k + 1}.**" for k in range(len(node.items))]
        widest = max(line_width(line, body, body.size) for label in labels
                     for line in (wrap(label, body, body.size, 1e6) or ()))
        marker = numbered_list(body.size, widest)
    else:
        labels, marker = [None] * len(node.items), bullet_list(body.size)
    out = [RichText(item, body, 0, _sp(2.5), bullet=label, marker=marker, kind="item")
           for item, label in zip(node.items, labels)]
    out[-1].space_after = _sp(6)
    # no item alone at the head or the foot of a page: the last one goes with the one before it, the
    # first with the one after it (the pair moves on, or the second one is split, at least two lines kept)
    if len(out) >= 2:
        out[-2].keep_next = True
    if len(out) >= 3:
        out[0].keep_next = True
    return out


def _figure_rows(nodes) -> list:
    """``nodes`` with every run of ``!figure`` directives on consecutive lines made one list: a row of
    figures."""
    out = []
    for node in nodes:
        if isinstance(node, Directive) and node.name == "figure":
            if out and isinstance(out[-1], list) and out[-1][-1].line + 1 == node.line:
                out[-1].append(node)
                continue
            out.append([node])
        else:
            out.append(node)
    return out


def flowables(nodes, width, extra: dict, figures=None, scale: float = 1.0):
    """Block nodes -> platypus flowables. ``extra`` handles directives (toc, notes, cover, ...);
    ``figures`` (:class:`pnp.rulebook.figures.Figures`) holds the drawings ``!figure N`` lines stand for.
    ``scale``: text and the space between blocks set at that multiple of the booklet's sizes (what a
    directive or a figure draws keeps its own)."""
    token = _SCALE.set(scale)
    try:
        return _flowables(nodes, width, extra, figures)
    finally:
        _SCALE.reset(token)


def _flowables(nodes, width, extra: dict, figures) -> list:
    out = []
    for node in _figure_rows(nodes):
        start = len(out)
        _flowables_of(node, out, width, extra, figures)
        line = node[-1].line if isinstance(node, list) else node.line
        for f in out[start:]:
            _mark(f, line)
    out = keep_with_next(out)
    for f in out:
        _mark(f, None)
    return out


def _mark(flowable, line) -> None:
    """Note on ``flowable`` (and what it holds) the markup line of the block it sets (``source_line``);
    ``line`` None: a group kept together takes the line of the block it ends with (:func:`page_ends`
    finds where a page's content ends in the markup, for a fill block to follow it)."""
    inner = [getattr(flowable, "first", None), getattr(flowable, "second", None),
             *(getattr(flowable, "_content", None) or ())]
    for f in inner:
        if f is not None:
            _mark(f, line)
    if line is None:            # a group: the line of what it ends with
        last = next((f for f in reversed(inner) if f is not None), None)
        line = getattr(last, "source_line", None) if last is not None else None
        if line is None or getattr(flowable, "source_line", None) is not None:
            return
    flowable.source_line = line


def _flowables_of(node, out: list, width, extra: dict, figures) -> None:
    """The flowables of one block node (or a row of figures) appended to ``out``."""
    if isinstance(node, list):
        drawings = []
        for d in node:
            n = int(d.arg) if d.arg.isdigit() else -1
            if figures is None or not 0 <= n < len(figures.drawings):
                raise MarkupError(d.line, f"!figure {d.arg[:20]}: write figures with figure.card(...) and the "
                                          f"like; this line names none")
            if figures.drawings[n].kind != "placed":
                drawings.append(figures.drawings[n])
        if drawings:
            if out and isinstance(out[-1], RichText) and out[-1].kind == "body":
                out[-1].keep_next = True        # the paragraph that introduces a figure stays with it
            out.append(FigureRow(drawings, _st(CAPTION)))
        return
    if isinstance(node, Heading):
        if node.level == 1:
            out.append(CondPageBreak(pt(CHAPTER_ROOM)))
        out.append(_heading(node))
    elif isinstance(node, Paragraph):
        out.append(RichText(node.text, _st(BODY), 0, _sp(5), keep_with_next=leads_in(node.text), kind="body"))
    elif isinstance(node, ListBlock):
        out.extend(_list(node))
    elif isinstance(node, TableBlock):
        out.append(_table(node, width))
    elif isinstance(node, Example):
        box = _example(node)
        box[0].space_before, box[-1].space_after = _sp(3), _sp(7)
        out.append(KeepTogether(box) if len(box) <= 12 else box[0])
        if len(box) > 12:
            out.extend(box[1:])
    elif isinstance(node, Directive):
        handler = extra.get(node.name)
        if handler is None:
            raise MarkupError(node.line, f"unknown directive !{node.name}; known: {', '.join(sorted(extra))}")
        try:
            out.extend(handler(node.arg))
        except MarkupError as exc:        # the directive's own complaint, at the directive's line
            raise MarkupError(exc.line or node.line, exc.message) from None
    else:  # pragma: no cover
        raise TypeError(node)


def single_frame_pdf(size_mm: tuple, margin_mm: float, title: str, author: str, story,
                     empty: list | None = None) -> bytes:
    """A document of flowing text in one frame per page (a sheet, the instructions page): ``size_mm`` paper,
    ``margin_mm`` on every side; ``story(width)`` gives its flowables for the frame's width (points).
    ``empty``, a list, receives the share of each page's frame left empty under what it holds (0: full to
    its foot, 1: blank), page by page."""
    buf = io.BytesIO()
    fonts.register()
    doc = BaseDocTemplate(buf, pagesize=(pt(size_mm[0]), pt(size_mm[1])), invariant=1,
                          initialFontName="EBGaramond-Regular", title=title, author=author,
                          leftMargin=pt(margin_mm), rightMargin=pt(margin_mm), topMargin=pt(margin_mm),
                          bottomMargin=pt(margin_mm))
    frame = Frame(doc.leftMargin, doc.bottomMargin, doc.width, doc.height, leftPadding=0, rightPadding=0,
                  topPadding=0, bottomPadding=0)
    doc.addPageTemplates([PageTemplate("page", [frame])])
    lows: dict = {}
    if empty is not None:               # the frame's fill line after each flowable placed, lowest per page
        def placed(_flowable):
            lows[doc.page] = min(lows.get(doc.page, doc.height), doc.frame._y - doc.bottomMargin)
        doc.afterFlowable = placed
    doc.build(story(doc.width))
    if empty is not None:
        empty += [round(max(0.0, lows.get(n, doc.height)) / doc.height, 3) for n in range(1, doc.page + 1)]
    return buf.getvalue()


# ----------------------------------------------------------------------------- the document

def xml_escape(text: str) -> str:
    """``text`` for reportlab's paragraph markup (the contents): &, < and > as entities (what
    xml.sax.saxutils.escape does, without importing urllib at start-up)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Cover(RichText):
    """The cover's content: title, emblems (or game.yaml's ``look.art``), player count, time, age — drawn to
    fill the frame, in ``look.palette``'s accent and ink when it gives them. It keeps what it prints (title,
    look, the factions' emblems and colours), not the game: a flowable holds plain values that copy."""

    def __init__(self, game, subtitle, facts, credits=()):
        super().__init__("", BODY)
        self.title, self.look = game.title, game.look
        self.emblems = tuple((f.emblem, f.colour) for f in game.factions)
        self.subtitle, self.facts, self.credits = subtitle, tuple(facts), tuple(credits)

    def wrap(self, avail_width, avail_height):
        self.width, self.height = avail_width, avail_height - 1
        return self.width, self.height

    def split(self, avail_width, avail_height):
        return [self]

    def draw(self):
        c, w, h = self.canv, self.width, self.height
        if not painting(c):
            return
        look = self.look
        accent, ink = look.colour("accent", ACCENT), look.colour("ink", INK)
        # a light accent (made for the dark backs and box) darkened just enough to read on the paper
        title = Style(font="serif-semibold", size=34, leading=1.0, colour=readable(accent, "#ffffff", 3.0),
                      upper=True, tracking=2.5)
        sub = Style(font="serif-italic", size=14, colour=ink)
        subtitle = wrap(self.subtitle, sub, 14, w)
        lines, y = cover_title(self.title, title, subtitle, w, h, look.art is not None)
        for fitted, baseline in lines:
            paint_lines(c, fitted.lines, title, fitted.size, 0, w, baseline)
        # below the title however many lines it takes (a long title pushes the subtitle down)
        paint_lines(c, subtitle, sub, 14, 0, w, min(h * 0.62, y - 8))
        if look.art is not None:        # the cover art between the subtitle and the facts
            from pnp.draw.pictures import draw_picture

            draw_picture(c, str(look.art), (w * 0.1, h * 0.27, w * 0.8, h * 0.3), "contain")
        else:
            # the look's emblem as the designed backs show it (accent on the back's colour); else each
            # faction's in white on its colour
            own = dict(look.palette)
            sign = own.get("accent", "#ffffff") if "back" in own else "#ffffff"
            emblems = [(look.emblem, own.get("back", accent), sign)] if look.emblem else \
                [(emblem, colour, "#ffffff") for emblem, colour in self.emblems] or [("crown", accent, "#ffffff")]
            n = len(emblems)
            for i, (emblem, colour, sign) in enumerate(emblems):
                cx = w * (i + 1) / (n + 1)
                c.setFillColor(HexColor(colour))
                c.circle(cx, h * 0.42, 26, stroke=0, fill=1)
                icons.draw(c, emblem, cx, h * 0.42, 30, sign)
        facts = Style(font="sans-bold", size=9, colour=ink, upper=True, tracking=1.2)
        paint_lines(c, wrap("  \u00b7  ".join(self.facts), facts, 9, w), facts, 9, 0, w, h * 0.2)
        # the credits below, small: design, art, publisher and the game's further credits
        credit = Style(font="sans", size=7.5, colour=INK, leading=1.35)
        y = h * 0.2 - 24
        for line in self.credits:
            lines = wrap(line, credit, 7.5, w)
            paint_lines(c, lines, credit, 7.5, 0, w, y)
            y -= 7.5 * 1.35 * len(lines)


#: The cover's title starts at this share of the frame's height (its first baseline).
COVER_TITLE_TOP = 0.80


def cover_picture_top(h: float, art: bool) -> float:
    """Where the cover's picture (the look's art, else the emblems) reaches up to, in points."""
    return h * 0.57 if art else h * 0.42 + 26


#: A word this long or shorter (an article, a preposition: "de", "la", "du", "of", "the") is not set alone
#: on a line of the cover's title: it goes with the word after it.
SHORT_TITLE_WORD = 3


def title_lines(text: str) -> list[str]:
    """The lines of the cover's title, a word a line but for short words (:data:`SHORT_TITLE_WORD`), each
    set with the word after it: "GUARDIANES / DE LA MAREA", "LES GARDIENS / DU PORT", "BEHIND / THE THRONE"
    (a line of its own for "DE", "LA", "DU" read as a broken title)."""
    lines, pending = [], []
    for word in text.split():
        pending.append(word)
        if len(word) > SHORT_TITLE_WORD:
            lines.append(" ".join(pending))
            pending = []
    if pending:
        if lines:
            lines[-1] += " " + " ".join(pending)
        else:
            lines.append(" ".join(pending))
    return lines


def cover_title(text: str, style: Style, subtitle: list, w: float, h: float, art: bool) -> tuple[list, float]:
    """The cover's title: ([(fitted lines, first baseline)], the baseline below it), a word a line at up to
    ``style.size`` as far as the frame holds it above the subtitle (``subtitle``: its wrapped lines) and the
    picture; a title too long for that is smaller (down to 18 pt), then set several words a line, shrunk
    to the room there is. :func:`cover_title_fits` tells whether even that is enough."""
    top, words = h * COVER_TITLE_TOP, title_lines(text)
    below = cover_picture_top(h, art) + 8 + 4 + 14 * 1.2 * max(len(subtitle) - 1, 0) + 8
    one_a_line = [fit(escape(word), replace(style, min_size=18), w / 2.8346, 20) for word in words]
    if top - sum(f.size * 1.05 for f in one_a_line) >= below or not words:
        out, y = [], top
        for f in one_a_line:
            out.append((f, y))
            y -= f.size * 1.05
        return out, y
    size = (top - below) / (1.05 * len(words))
    if size >= 18:                       # every word still on its own line, all a little smaller
        smaller = replace(style, size=min(style.size, size), min_size=18)
        out, y = [], top
        for word in words:
            f = fit(escape(word), smaller, w / 2.8346, 20)
            out.append((f, y))
            y -= f.size * 1.05
        return out, y
    room = max(top - below + style.size, style.size) / 2.8346
    f = fit(escape(text), replace(style, leading=1.05, min_size=12), w / 2.8346, room)
    return [(f, top)], top - f.size * 1.05 * len(f.lines)


def cover_title_fits(text: str, subtitle: str, w: float, h: float, art: bool) -> bool:
    """Whether the cover shows ``text`` and the subtitle above its picture (frame ``w`` x ``h`` pt)."""
    style = Style(font="serif-semibold", size=34, leading=1.0, upper=True, tracking=2.5)
    sub = Style(font="serif-italic", size=14)
    lines = wrap(subtitle, sub, 14, w)
    placed, y = cover_title(text, style, lines, w, h, art)
    last = min(h * 0.62, y - 8) - 14 * 1.2 * max(len(lines) - 1, 0) - 4
    return all(f.ok for f, _ in placed) and last >= cover_picture_top(h, art)


#: The back cover's foot (``!back``): the game's title, then its facts and what the box holds, small and
#: centred at the foot of the page, under an accent rule.
COLOPHON_TITLE = Style(font="sans-bold", size=7.6, leading=1.3, align="center", colour=ACCENT, upper=True,
                       tracking=0.7)
COLOPHON = Style(font="sans", size=7.0, leading=1.35, align="center", colour="#4a423b")
#: Room (mm) between the back cover's text and the rule over its foot.
COLOPHON_GAP = 5.0


def colophon_lines(colophon, width: float) -> list[tuple[Style, tuple]]:
    """(style, wrapped lines) of each line of the back cover's foot (``colophon``: the title first, then
    markup lines), in ``width`` points."""
    out = []
    for k, markup in enumerate(colophon):
        style = COLOPHON_TITLE if k == 0 else COLOPHON
        out.append((style, tuple(wrap(markup, style, style.size, width, runt=True) or ())))
    return out


def colophon_height(colophon, width: float) -> float:
    """Height (points) of the back cover's foot, its rule and the gap above it: 0 without one."""
    if not colophon:
        return 0.0
    lines = colophon_lines(colophon, width)
    return sum(len(ls) * st.size * st.leading for st, ls in lines) + 3.0 * (len(lines) - 1) + pt(COLOPHON_GAP) + 6.0


class RulebookDoc(BaseDocTemplate):
    def __init__(self, buf, game, page_size_mm, running_title, colophon=()):
        fonts.register()
        w, h = page_size_mm
        super().__init__(buf, pagesize=(pt(w), pt(h)), invariant=1, initialFontName="EBGaramond-Regular",
                         title=f"{game.title}: {running_title}", author=game.author, creator="pnp",
                         leftMargin=pt(MARGIN["inner"]), rightMargin=pt(MARGIN["outer"]),
                         topMargin=pt(MARGIN["top"]), bottomMargin=pt(MARGIN["bottom"]))
        self.game, self.running_title = game, running_title
        frame = _Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="body",
                       leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        # the back cover (!back): no running head nor page number; its foot (the title, the game's facts,
        # what the box holds) under the frame, which ends above it
        self.colophon = tuple(colophon)
        foot = colophon_height(self.colophon, self.width)
        back = _Frame(self.leftMargin, self.bottomMargin + foot, self.width, self.height - foot, id="back",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        self.addPageTemplates([
            PageTemplate("cover", [frame], onPage=self._cover_page),
            PageTemplate("body", [frame], onPage=self._body_page),
            PageTemplate("blank", [frame]),
            PageTemplate("back", [back], onPage=self._back_page),
        ])
        self._headings = 0
        self.placed = None          # [(page, kind, lines, markup)] of every flowable set, when asked
        self._record = None
        self.laid_out = None        # a layout pass's pages (:class:`LaidPage`), while one runs
        self.notes_at = None        # the index of its first page after the padding point
        self._story = self._notes_break = self._after_break = None
        self.chapter_starts = []
        self._original = None       # a layout pass's whole story, to note where each page starts in it
        self.starts = None          # ... each page's start (:class:`PageStart`), while one runs
        self._resume = None         # a layout pass resumed at a page: the PageStart it starts from

    def _cover_page(self, c, doc):
        w, h = self.pagesize
        c.saveState()
        c.setStrokeColor(HexColor(self.game.look.colour("accent", ACCENT)))
        c.setLineWidth(1.2)
        c.rect(pt(COVER_FRAME), pt(COVER_FRAME), w - pt(2 * COVER_FRAME), h - pt(2 * COVER_FRAME), stroke=1, fill=0)
        c.setLineWidth(0.4)
        inner = COVER_FRAME + 1.5
        c.rect(pt(inner), pt(inner), w - pt(2 * inner), h - pt(2 * inner), stroke=1, fill=0)
        c.restoreState()

    def frame_bottom(self, template: str) -> float:
        """The bottom (points) of a page template's text frame."""
        for t in self.pageTemplates:
            if t.id == template:
                return t.frames[0]._y1
        return self.bottomMargin

    def _back_page(self, c, doc):
        """The back cover: its foot (:func:`colophon_lines`) at the foot of the page, under a rule."""
        if not self.colophon:
            return
        c.saveState()
        lines = colophon_lines(self.colophon, self.width)
        y = self.bottomMargin + sum(len(ls) * st.size * st.leading for st, ls in lines) + 3.0 * (len(lines) - 1)
        c.setStrokeColor(HexColor(self.game.look.colour("accent", ACCENT)))
        c.setLineWidth(0.6)
        c.line(self.leftMargin, y + 6.0, self.leftMargin + self.width, y + 6.0)
        for style, wrapped in lines:
            paint_lines(c, wrapped, style, style.size, self.leftMargin, self.width, y - style.size * 0.95)
            y -= len(wrapped) * style.size * style.leading + 3.0
        c.restoreState()

    def _body_page(self, c, doc):
        w, h = self.pagesize
        c.saveState()
        c.setStrokeColor(HexColor("#cbbfa8"))
        c.setLineWidth(0.4)
        c.line(self.leftMargin, h - pt(9), w - self.rightMargin, h - pt(9))
        c.setFillColor(HexColor("#7a6f62"))
        font = fonts.font_name("sans-bold")
        c.setFont(font, 6.5)
        running = typography.spacing(f"{self.game.title.upper()}  ·  {self.running_title.upper()}")
        if fonts.NNBSP in running:          # set with its narrow spaces
            head = c.beginText(self.leftMargin, h - pt(7.6))
            head.setFont(font, 6.5)
            fonts.text_out(head, self.leftMargin, h - pt(7.6), running, font, 6.5)
            c.drawText(head)
        else:
            c.drawString(self.leftMargin, h - pt(7.6), running)
        c.setFont(fonts.font_name("serif"), 9)
        label = str(doc.page)
        x = w - self.rightMargin - fonts.width(label, fonts.font_name("serif"), 9) if doc.page % 2 else self.leftMargin
        c.drawString(x, pt(8), label)
        c.restoreState()

    def beforeDocument(self):
        if self._record is not None:    # the last pass's placements are the ones kept
            self._record.clear()
            self.placed = self._record
        self._headings = 0  # every multiBuild pass must produce the same bookmark keys
        self.toc_log = []   # the contents entries of this pass
        self._outline_level = -1
        start = self._resume
        if start is not None:           # a layout pass resumed at a page: the document as it was there
            self.page = start.page - 1
            self.pageTemplate = next(t for t in self.pageTemplates if t.id == start.template)
            self._headings, self._outline_level = start.headings, start.outline_level
            self.toc_log = list(start.entries)
            self.notes_at = start.notes_at

    def filterFlowables(self, flowables):
        # a layout pass notes where the padding point falls: when its page break comes up, the page it
        # ends is the last before the padding; a break right after a page ended is dropped unseen, and
        # the page begun for what follows it is the first after the padding
        if self.laid_out is not None and self.notes_at is None and flowables is self._story and flowables:
            if flowables[0] is self._notes_break:
                self.notes_at = len(self.laid_out)
            elif flowables[0] is self._after_break:
                self.notes_at = len(self.laid_out) - 1

    def beforePage(self):
        if self.laid_out is not None:
            self.laid_out.append(LaidPage(self.pageTemplate.id, []))
            if self.starts is not None:
                self.starts.append(self._page_start())

    def _page_start(self) -> "PageStart":
        """Where the page just begun starts in the story of a layout pass, and the document's state there."""
        story, original = self._story, self._original
        at = len(original) - len(story)
        whole = bool(story) and 0 <= at < len(original) and story[0] is original[at]
        return PageStart(self.page, self.pageTemplate.id, at if whole else None, self._headings,
                         self._outline_level, tuple(self.toc_log), self.notes_at)

    def afterFlowable(self, flowable):
        if isinstance(flowable, (_Replay, _Turn)):     # the drawing pass's scaffolding
            return
        if self.laid_out is not None:
            self.laid_out[-1].events.append(("after", flowable))
        self._after(flowable)

    def _after(self, flowable):
        if isinstance(flowable, KeepWithNext):     # a heading kept with what follows it
            self._after(flowable.first)
            self._after(flowable.second)
            return
        if self.placed is not None:
            self.placed.append((self.page, getattr(flowable, "kind", type(flowable).__name__),
                                len(getattr(flowable, "_lines", None) or ()), getattr(flowable, "markup", "")))
        level = getattr(flowable, "toc_level", None)
        if level is None or level > 1:
            return
        listed = level == 0 and not getattr(flowable, "unlisted", False)
        self._headings += 1
        key = f"h{self._headings}"
        self.canv.bookmarkPage(key)
        # a book whose first heading is a section (no chapter heading before it) still gets an outline
        outline_level = min(level, self._outline_level + 1)
        self._outline_level = outline_level
        self.canv.addOutlineEntry(flowable.plain, key, level=outline_level, closed=True)
        if listed:
            # the contents are reportlab paragraphs: their text is reportlab markup, so escape it
            entry = (level, xml_escape(flowable.plain), self.page, key)
            self.toc_log.append(entry)
            self.notify("TOCEntry", entry)


class Contents(TableOfContents):
    """The contents (``!toc``): reportlab's table of contents, which sets a line "Placeholder for table of
    contents" when it has no entry; a booklet without a listed chapter heading gets an empty list."""

    def wrap(self, avail_width, avail_height):
        if self._lastEntries:
            return super().wrap(avail_width, avail_height)
        self.width, self.height = avail_width, 0
        return self.width, self.height

    def split(self, avail_width, avail_height):
        return super().split(avail_width, avail_height) if self._lastEntries else []

    def drawOn(self, canvas, x, y, _sW=0):
        if self._lastEntries:
            super().drawOn(canvas, x, y, _sW)


def _toc():
    toc = Contents(dotsMinLevel=0)
    toc.tableStyle = TableStyle([("FONTNAME", (0, 0), (-1, -1), "EBGaramond-Regular"),
                                 ("VALIGN", (0, 0), (-1, -1), "TOP"),
                                 ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                                 ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0)])
    toc.levelStyles = [
        ParagraphStyle("toc1", fontName="EBGaramond-SemiBold", fontSize=10.5, leading=15, leftIndent=0),
        ParagraphStyle("toc2", fontName="EBGaramond-Regular", fontSize=9, leading=12, leftIndent=12),
    ]
    return [toc]


class BlankPage(Spacer):
    """A padding page: as tall as the page's frame (so each one takes a page of its own), drawing nothing."""

    kind = "blank"

    def __init__(self, frame_height: float):
        super().__init__(1, frame_height - 0.5)

    def split(self, avail_width, avail_height):
        return []


def _notes(count, title, ruled: bool, frame_height: float = 0.0, mark: bool = False):
    """The ``!notes`` handler: ``count`` padding pages, ruled Notes pages when rulebook.yaml asks for
    them (``notes: true``), else blank pages without header or number. What follows starts on a page of
    its own, padded or not (the last chapter, the back page, stays the back page). ``mark`` (a layout
    pass, no padding): the page break is one :func:`lay_out` finds, to know where padding goes."""
    def handler(arg):
        out = []
        if mark:
            return [_NotesBreak()]
        if not ruled:
            if count:       # (a break's own next template: right after a page break it is not a second one)
                out += [PageBreakIfNotEmpty("blank")]
                out += [BlankPage(frame_height) for _ in range(count)]
                return out + [PageBreakIfNotEmpty("body")]
            return out + [PageBreakIfNotEmpty()]
        for _ in range(count):
            out.append(PageBreakIfNotEmpty())     # a notes page right after the cover needs no extra break
            out.append(_heading(Heading(1, f"{title} {{-}}")))
            out.extend(Rule() for _ in range(26))
        return out + [PageBreakIfNotEmpty()]
    return handler


def _facts(game, words) -> list:
    """The cover's facts: players, minutes, ages."""
    if game.players[0] == game.players[1]:
        facts = [fill(words.get("players_one", "{min} players"), min=game.players[0])]
    else:
        facts = [fill(words.get("players_range", "{min}-{max} players"), min=game.players[0], max=game.players[1])]
    if game.minutes:
        facts.append(fill(words.get("minutes_range", "{min}-{max} minutes"), min=game.minutes[0],
                          max=game.minutes[1]))
    if game.ages:
        facts.append(fill(words.get("ages", "Ages {age}+"), age=game.ages))
    return facts


def _document(game, cfg, chapters, page_size_mm, notes: int, words: dict, figures, mark_notes: bool = False,
              kept: tuple | None = None):
    """(document, story, contents, [(entry, after the notes?)] guessed from the headings) of a booklet
    with ``notes`` padding pages (``mark_notes``: none, the padding point marked for a layout pass).
    ``kept``: (an earlier layout of the same booklet, n): its first n chapters, the same as these, stand
    in the story with that layout's flowables, not made again (a pass resumed after them never sets
    them: :func:`lay_out`)."""
    buf = io.BytesIO()
    doc = RulebookDoc(buf, game, page_size_mm, words.get("rules_of_play", "Rules of Play"),
                      cfg.get("_colophon") or ())
    toc = _toc()[0]
    facts = _facts(game, words)
    extra = {
        "cover": lambda arg: [Cover(game, words.get("rules_of_play", "Rules of Play"), facts,
                                    credit_lines(game, words, book=True)),
                              NextPageTemplate("body"), PageBreak()],
        "toc": _once(toc),
        "pagebreak": lambda arg: [PageBreakIfNotEmpty()],    # a new page, unless this one is still empty
        "back": _back,                                      # the back cover starts here
        "notes": _notes(notes, words.get("notes", "Notes"), bool(cfg.get("notes")), doc.height, mark_notes),
        "space": lambda arg: [Spacer(1, _space(arg))],      # points, as docs/rulebook.md says
        # the booklet takes spare content out unless it has room (pnp.rulebook.component.without_spare)
        "spare": lambda arg: [],
        "fill": lambda arg: [],                             # a fill block's start (pnp.rulebook.component)
        "rule": lambda arg: [_rule()],
    }
    story = []
    problems = Problems()
    nodes = []
    doc.chapter_starts = []            # the index in the story of each chapter's first flowable
    for index, ((name, markup), (_, given)) in enumerate(zip(with_notes_point(chapters), chapters)):
        doc.chapter_starts.append(len(story))
        if kept is not None and index < kept[1]:
            earlier = kept[0]
            made = earlier.story[earlier.chapter_starts[index]:earlier.chapter_starts[index + 1]]
            if any(f is earlier.toc for f in made):
                extra["toc"]("")        # the contents are set: a second !toc is the error it was
            story.extend(made)
            nodes.extend(parse(markup))
            continue
        # the line in the chapter as written (the padding point is a line pnp put before it, or after it)
        added = 0 if markup.startswith(given) else markup.count("\n") - given.count("\n")
        try:
            parsed = parse(markup)
            made = flowables(parsed, doc.width, extra, figures)
            for f in made:
                _mark_chapter(f, index, added)
            story.extend(made)
            nodes.extend(parsed)
        except MarkupError as exc:
            problems.error(name, exc.line - added if exc.line else exc.line, "rulebook", exc.message)
    problems.raise_if_errors()
    _drop_trailing_breaks(story)
    headed = notes if cfg.get("notes") else 0
    return doc, story, toc, contents_entries(nodes, headed)


def _back(arg):
    """The ``!back`` directive: what follows starts the back cover, a page of its own (the booklet's last):
    no running head nor page number, and at its foot the game's title, facts and what the box holds."""
    if arg.strip():
        raise MarkupError(0, f"!back takes nothing after it (it starts the back cover), not {arg[:20]!r}")
    return [PageBreakIfNotEmpty("back")]


def _rule():
    """The ``!rule`` directive: a thin line across the column, 4 pt below the text above it and 6 pt
    above what follows (a fill block's frame), kept with what follows."""
    line = Rule(colour="#b9ad99", width=0.5, space=4.0)
    line.spaceAfter = 6.0
    line.keep_next = True
    return line


def _mark_chapter(flowable, chapter: int, added: int) -> None:
    """``source``: (the chapter's index, the line in the chapter as written) of ``flowable`` and what it
    holds, from the ``source_line`` :func:`flowables` noted."""
    for f in (getattr(flowable, "first", None), getattr(flowable, "second", None),
              *(getattr(flowable, "_content", None) or ())):
        if f is not None:
            _mark_chapter(f, chapter, added)
    line = getattr(flowable, "source_line", None)
    if line is not None:
        flowable.source = (chapter, line - added)


def _drop_trailing_breaks(story: list) -> None:
    """Take the page breaks off the end of ``story``: with nothing after them they end no page that would
    not end anyway, and platypus fails on one right after a page ended (a booklet ending with ``!cover``
    and ``!pagebreak``). A layout pass's padding point stays (:func:`lay_out` takes it off)."""
    while story and type(story[-1]) is PageBreakIfNotEmpty:
        story.pop()


def _layout_problem(cfg, exc) -> DataError:
    return DataError([Problem(cfg["_path"], None, "rulebook", f"cannot be laid out: {str(exc)[:200]}")])


def render_booklet(game, cfg, chapters, page_size_mm, lang, notes: int, words: dict,
                   seed: list | None = None, measure: bool = False, placed: list | None = None,
                   figures=None) -> tuple[bytes, int, list]:
    """The booklet in reading order: (pdf, pages, contents entries), laid out by platypus's own passes
    (:func:`lay_out` and :func:`draw_laid_out` make it with one layout pass).

    ``seed``: the contents entries (level, text, page, key) expected, when known (the same booklet
    without padding, shifted by the notes pages). platypus lays out the document again until the
    contents stop changing; starting from the right entries saves those passes. Without ``seed``, the
    entries are guessed from the headings with page 0: the contents then take their final lines, so
    the pages and entries are right after one pass. ``measure`` stops after that one pass, on a canvas
    that paints and writes nothing (the PDF is empty): enough to know the length and the entries.
    ``placed``, a list, receives (page, kind, lines, markup) of every flowable as it was set.
    """
    doc, story, toc, guess = _document(game, cfg, chapters, page_size_mm, notes, words, figures)
    buf = doc.filename
    doc._record = placed
    toc.addEntries(seed if seed is not None else [entry for entry, _ in guess])
    try:
        if measure:
            toc.beforeBuild()           # as multiBuild does: the contents show the seeded entries
            doc.build(story, canvasmaker=MeasuringCanvas)      # lays out; paints and writes nothing
        else:
            doc.multiBuild(story)
    except LayoutError as exc:
        raise _layout_problem(cfg, exc) from None
    return buf.getvalue(), doc.page, list(doc.toc_log)


# ----------------------------------------------------------------------------- one layout pass

@dataclass
class LaidPage:
    """A page of a layout pass: its page template and, in order, where each flowable went
    (``("place", flowable, x, y, spare width)``) and each flowable the document was told of
    (``("after", flowable)``)."""

    template: str
    events: list


@dataclass(frozen=True)
class PageStart:
    """Where a page of a layout pass starts: its number and template, the index in the pass's story of the
    flowable it starts with (None: it starts with part of a flowable split over the page before), and the
    document's state then (headings counted, outline level, contents entries so far, padding point)."""

    page: int
    template: str
    at: int | None
    headings: int
    outline_level: int
    entries: tuple
    notes_at: int | None


@dataclass
class LaidOut:
    """A booklet laid out once, without padding pages (:func:`lay_out`): its pages, the contents'
    entries as they were set, the headings' guess of them, the index of the first page after the padding
    point (None: the booklet has none it can pad at) and what :func:`draw_laid_out` needs."""

    pages: list
    entries: list
    guess: list
    notes_at: int | None
    doc: object
    toc: object
    args: tuple
    starts: list | None = None          # each page's start (:class:`PageStart`)
    chapter_starts: tuple = ()          # the index in the story of each chapter's first flowable
    story: list | None = None           # the pass's story as it began


class _Frame(Frame):
    """The body frame. In a layout pass (the document's ``laid_out`` is a list) a flowable that fits is
    not drawn: where it goes is written down for :func:`draw_laid_out`.

    It holds nothing but reportlab's own geometry: platypus deep-copies the current frame to measure a
    :class:`KeepTogether` (an example box), so the frame finds its document through the canvas it is
    given, as platypus's own flowables do, rather than holding it (a copy would take the document along:
    its canvas, whose PDF's hash object cannot be copied, and the game)."""

    def add(self, flowable, canv, trySplit=0):
        pages = getattr(getattr(canv, "_doctemplate", None), "laid_out", None)
        if pages is None:
            return super().add(flowable, canv, trySplit)

        def place(canvas, x, y, _sW=0):
            pages[-1].events.append(("place", flowable, x, y, _sW))

        flowable.drawOn = place         # the frame draws what fits right where it decides its place
        try:
            return super().add(flowable, canv, trySplit)
        finally:
            del flowable.drawOn


class _NotesBreak(PageBreakIfNotEmpty):
    """The page break at the padding point of a layout pass."""


class _Turn(PageBreak):
    """The end of a replayed page (:func:`draw_laid_out`)."""


class _Replay(Flowable):
    """One page of a layout pass, drawn: each flowable where the pass placed it, the document told of
    each as it was then (outline, bookmarks, contents); the contents drawn with their ``entries``."""

    class Mismatch(Exception):
        """The drawing does not follow the layout (the booklet is then made by platypus's passes)."""

    def __init__(self, page: LaidPage, next_template, toc, entries):
        super().__init__()
        self.page, self.next_template, self.toc, self.entries = page, next_template, toc, entries

    def wrap(self, avail_width, avail_height):
        return 0, 0

    def drawOn(self, canv, x, y, _sW=0):
        doc = canv._doctemplate
        if doc.pageTemplate.id != self.page.template:
            raise _Replay.Mismatch(f"page {doc.page}: template {doc.pageTemplate.id}, laid out on "
                                   f"{self.page.template}")
        for event in self.page.events:
            if event[0] == "after":
                if not isinstance(event[1], _NotesBreak):
                    doc._after(event[1])
                continue
            _, flowable, fx, fy, sw = event
            if flowable is self.toc:            # the contents with their pages: the same lines
                width, height = flowable.width, flowable.height
                flowable.addEntries(self.entries)
                flowable.beforeBuild()
                if flowable.wrapOn(canv, doc.width, height + 1) != (width, height):
                    raise _Replay.Mismatch("the contents take other lines with their pages")
            flowable.drawOn(canv, fx, fy, sw)
        if self.next_template is not None:
            doc.handle_nextPageTemplate(self.next_template)


def lay_out(game, cfg, chapters, page_size_mm, lang, words: dict, figures=None,
            after: LaidOut | None = None) -> LaidOut:
    """The booklet laid out once, without padding and on a canvas that paints nothing: its length,
    its contents' entries and where every flowable goes, for :func:`draw_laid_out`. The contents show the
    entries guessed from the headings (page 0), which take the lines the final ones take.

    ``after``: an earlier layout of the same booklet (the same game object, settings, paper, language,
    words and figures) with other chapters. The pages it laid out before the first chapter that differs
    are taken as they are (:func:`resume_point`), and the pass starts at the page after them: the same
    flowables, set from the same state, go to the same places (a fill block tried at page 12 lays out
    pages 12 to 16, not 1 to 16)."""
    args = (game, cfg, chapters, page_size_mm, lang, words, figures)
    resumed = resume_point(after, args)
    # the chapters before the one the resumed pass starts in are not made again
    skipped = max(i for i, at in enumerate(after.chapter_starts) if at <= resumed.at) if resumed else 0
    doc, story, toc, guess = _document(game, cfg, chapters, page_size_mm, 0, words, figures, mark_notes=True,
                                       kept=(after, skipped) if skipped else None)
    toc.addEntries([entry for entry, _ in guess])
    toc.beforeBuild()                   # as multiBuild does: the contents show the seeded entries
    breaks = [i for i, f in enumerate(story) if isinstance(f, _NotesBreak)]
    at_end = len(breaks) == 1 and breaks[0] + 1 == len(story)
    if at_end:                          # padding at the end: its break, last, ends nothing
        del story[-1]
        _drop_trailing_breaks(story)
    elif len(breaks) == 1:              # one padding point in the middle
        doc._notes_break = story[breaks[0]]
        doc._after_break = story[breaks[0] + 1]
    original = list(story)
    pages, starts = [], []
    if resumed is not None:
        kept = resumed.page - 1
        pages, starts = list(after.pages[:kept]), list(after.starts[:kept])
        story = story[resumed.at:]
    doc.laid_out, doc._story, doc._original, doc.starts, doc._resume = pages, story, original, starts, resumed
    try:
        if story:
            doc.build(story, canvasmaker=MeasuringCanvas)
    except LayoutError as exc:
        raise _layout_problem(cfg, exc) from None
    finally:
        doc.laid_out = doc._story = doc._notes_break = doc._after_break = doc._original = doc.starts = None
        doc._resume = None
    notes_at, doc.notes_at = doc.notes_at, None
    if at_end:
        notes_at = len(pages)
    placed_toc = any(e[0] == "place" and e[1] is after.toc for page in pages[:resumed.page - 1]
                     for e in page.events) if resumed is not None else False
    return LaidOut(pages, list(doc.toc_log), guess, notes_at, doc, after.toc if placed_toc else toc,
                   args, starts, tuple(doc.chapter_starts), original)


def resume_point(after: LaidOut | None, args: tuple) -> PageStart | None:
    """The page of the layout ``after`` at which a layout pass of ``args`` (:func:`lay_out`'s) can start,
    the pages before it taken from ``after``; None: from the first.

    Those pages hold the same flowables, set from the same state, so they come out the same: the chapters
    before the first that differs make the same flowables (a chapter's flowables are made from its markup
    alone, with the same figures, settings, words and page size), and the page chosen is the last one
    that starts with a whole flowable (not the rest of one split over the page before) from those
    chapters. platypus decides each page from the flowables placed on it and the one that did not fit at
    its foot, which is the next page's first; the flowables' groups (a heading kept with what follows)
    are made before the pass, and a page's template is the one the layout noted for it."""
    if after is None or after.starts is None or len(after.starts) != len(after.pages):
        return None
    game, cfg, chapters, size, lang, words, figures = args
    old = after.args
    if old[0] is not game or old[1] != cfg or tuple(old[3]) != tuple(size) or old[4] != lang \
            or old[5] != words or old[6] is not figures:
        return None
    first = next((i for i, (a, b) in enumerate(zip(old[2], chapters)) if a != b), min(len(old[2]), len(chapters)))
    if first >= len(after.chapter_starts):
        return None
    same = after.chapter_starts[first]          # the flowables before this one are the same
    best = None
    for k, start in enumerate(after.starts):
        if k and start.at is not None and start.at < same:
            best = start
    return best


#: A page of the booklet with more than this share of its text frame left empty is reported (a warning).
EMPTY_SHARE = 1 / 3


def empty_pages(laid: LaidOut, page_size_mm: tuple, least: float = EMPTY_SHARE,
                last: bool = True) -> list[tuple[int, float]]:
    """(page number, share of its text frame left empty under what it holds) of each page of a laid out
    booklet that is more than ``least`` (:data:`EMPTY_SHARE`) empty: its content pages but the cover, the
    last one too (the back page; without ``last``, all but it). A back cover (``!back``) is measured in
    its frame, which ends above its foot. The padding pages are rulebook.yaml's notes."""
    top = pt(page_size_mm[1] - MARGIN["top"])
    out = []
    for number, page in enumerate(laid.pages if last else laid.pages[:-1], 1):
        if page.template == "cover":
            continue
        bottom = laid.doc.frame_bottom(page.template)      # a back cover's frame ends above its foot
        lows = [event[3] for event in page.events if event[0] == "place"]
        share = (min(lows) - bottom) / (top - bottom) if lows else 1.0
        if share > least:
            out.append((number, round(share, 3)))
    return out


def page_ends(laid: LaidOut, number: int) -> tuple[int, int] | None:
    """(chapter index, markup line) of the last block placed on page ``number`` (from 1) of a laid out
    booklet: what a block set at the foot of that page follows (None: the page sets no chapter's
    block)."""
    for event in reversed(laid.pages[number - 1].events):
        if event[0] == "place" and getattr(event[1], "source", None) is not None:
            return event[1].source
    return None


def page_blocks(laid: LaidOut, number: int) -> list[tuple[int, int]]:
    """(chapter index, markup line) of each block placed on page ``number`` (from 1) of a laid out
    booklet, in the order they are set (a block split over pages is on each of them)."""
    out = []
    for event in laid.pages[number - 1].events:
        source = getattr(event[1], "source", None) if event[0] == "place" else None
        if source is not None and source not in out:
            out.append(source)
    return out


def placed_lines(laid: LaidOut, chapter: int) -> dict[int, set]:
    """{markup line: the pages (from 1) it is set on} of a chapter's blocks in a laid out booklet."""
    out: dict[int, set] = {}
    for number, page in enumerate(laid.pages, 1):
        for event in page.events:
            source = getattr(event[1], "source", None) if event[0] == "place" else None
            if source is not None and source[0] == chapter:
                out.setdefault(source[1], set()).add(number)
    return out


def draw_laid_out(laid: LaidOut, notes: int, placed: list | None = None) -> tuple[bytes, int, list]:
    """The booklet of :func:`lay_out` drawn with ``notes`` padding pages at its padding point:
    (pdf, pages, contents entries), byte for byte what platypus's passes make (:func:`render_booklet`
    seeded with the shifted entries). Only the contents are set again, with their page numbers. When the
    drawing cannot follow the layout (no padding point to pad at, contents whose lines change), the
    booklet is made by :func:`render_booklet`."""
    game, cfg, chapters, size, lang, words, figures = laid.args
    headed = notes if cfg.get("notes") else 0
    entries = shifted_entries(laid.entries, laid.guess, notes, headed) \
        if len(laid.guess) == len(laid.entries) else None
    toc_pages = [e for page in laid.pages for e in page.events if e[0] == "place" and e[1] is laid.toc]
    if entries is not None and (laid.notes_at is not None or not notes) and len(toc_pages) <= 1:
        doc = laid.doc
        padding = _notes(notes, words.get("notes", "Notes"), bool(cfg.get("notes")), doc.height)("")
        story = []
        for i, page in enumerate(laid.pages):
            if i and i == laid.notes_at:
                story.extend(keep_with_next(padding))
            elif i:
                story.append(_Turn())
            after = laid.pages[i + 1].template if i + 1 < len(laid.pages) else None
            story.append(_Replay(page, after, laid.toc, entries))
        if laid.notes_at == len(laid.pages):
            story.extend(keep_with_next(padding))
        doc.filename = buf = io.BytesIO()
        doc._record = placed
        try:
            doc.build(story)
        except _Replay.Mismatch:
            pass
        else:
            if doc.page == len(laid.pages) + notes and doc.toc_log == entries:
                return buf.getvalue(), doc.page, list(doc.toc_log)
    return render_booklet(game, cfg, chapters, size, lang, notes, words, entries, placed=placed, figures=figures)


def with_notes_point(chapters):
    """The chapters with a ``!notes`` directive where the padding goes, unless one already has it: before
    the last chapter when that chapter is the back cover (it starts with ``!back``: the quick reference
    keeps the back page), else after the last chapter. Padding before any other last chapter parted the
    rules with blank pages (Tide Clock's "The end of the game" on page 4 after a blank page 3, Dusk
    Orchard's contents page, a blank page, then its one chapter of rules)."""
    if any("!notes" in markup for _, markup in chapters) or not chapters:
        return chapters
    name, markup = chapters[-1]
    if len(chapters) == 1 or not _starts_back_cover(markup):
        return chapters[:-1] + [(name, markup + "\n\n!notes\n")]
    return chapters[:-1] + [(name, "!notes\n" + markup)]


def _starts_back_cover(markup: str) -> bool:
    """Whether a chapter's markup opens with ``!back`` (blank lines, template comments and other
    directives' lines such as ``!pagebreak`` before it allowed)."""
    for line in markup.split("\n"):
        line = line.strip()
        if not line:
            continue
        if line == "!back" or line.startswith("!back "):
            return True
        if not line.startswith("!"):
            return False
    return False


def contents_entries(nodes, notes: int) -> list:
    """[((level, text, page 0, key), after the notes?)] for the listed headings of ``nodes``, as
    :meth:`RulebookDoc.afterFlowable` will record them (keys count every heading of levels 1-2;
    ``notes``: the headed Notes pages at the padding point)."""
    entries, count, after = [], 0, False
    for node in nodes:
        if isinstance(node, Directive) and node.name == "notes":
            count += notes              # each notes page has an unlisted heading
            after = True
        if not isinstance(node, Heading) or node.level > 2:
            continue
        count += 1
        text = node.text
        unlisted = text.endswith("{-}") and not escaped_at(text, len(text) - 3)
        if node.level == 1 and not unlisted:
            entries.append(((0, xml_escape(plain_text(text)), 0, f"h{count}"), after))
    return entries


def shifted_entries(entries, guess, notes: int, headed: int | None = None) -> list:
    """The contents ``entries`` of the unpadded booklet as they will be with ``notes`` pages of padding:
    entries after the notes point move ``notes`` pages on, and their keys ``headed`` headings on (the
    padding pages that carry a Notes heading; default: all of them)."""
    headed = notes if headed is None else headed
    out = []
    for (level, text, page, key), (_, after) in zip(entries, guess):
        if after:
            page, key = page + notes, f"h{int(key[1:]) + headed}"
        out.append((level, text, page, key))
    return out


def _once(toc):
    """The ``!toc`` handler: the contents, which a booklet can show only once."""
    used = []

    def handler(arg):
        if used:
            raise MarkupError(0, "!toc: the contents are already in the booklet; they can appear once")
        used.append(True)
        return [toc]
    return handler


def _space(arg: str) -> float:
    try:
        value = float(arg or 4)
    except ValueError:
        raise MarkupError(0, f"!space {arg[:20]!r}: give a number of points") from None
    if not 0 <= value <= 300:
        raise MarkupError(0, f"!space {arg[:20]!r}: give a number of points from 0 to 300")
    return value
