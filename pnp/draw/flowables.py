"""Platypus flowables that set pnp's rich text (inline vector icons) and the rulebook's blocks.

:class:`RichText` wraps text with :mod:`pnp.draw.text` so rulebook paragraphs use the same markup and
icons as card faces. It splits between lines across pages and never leaves a single line behind or
ahead (no widows or orphans); list items hang from their bullet or number by the numbers of
:mod:`pnp.layout.typeset`. :class:`KeepWithNext` holds a heading (or a lead-in ending with a colon)
together with the first lines of what follows, so no heading ends a page; no page ends on a line
ending in a colon either, and a paragraph leading in to a figure keeps its last sentence with it.
"""

from __future__ import annotations

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, KeepTogether, Spacer
from reportlab.platypus.doctemplate import ActionFlowable
from reportlab.platypus.flowables import UseUpSpace

from pnp.draw import fonts, icons
from pnp.draw import text as rich
from pnp.text import typography
from pnp.layout.geometry import Style, Transform, scaling
from pnp.layout.typeset import KEEP_LINES, LEAD_IN_WHOLE, ListGeometry, last_sentence_start, leads_in
from pnp.units import MM_PER_INCH, pt


class MeasuringCanvas(Canvas):
    """A canvas for a layout pass whose pages are thrown away (a booklet's length and contents): pnp's
    text and icons are not painted on it (:func:`painting`) and saving it writes no PDF."""

    measuring = True

    def save(self):
        pass

    # no outline: the pass is thrown away, and one resumed at a page (pnp.draw.document.lay_out) would
    # start below the outline's top level
    def bookmarkPage(self, key, **kw):
        pass

    def addOutlineEntry(self, title, key, level=0, closed=None):
        pass


def painting(c) -> bool:
    """Whether drawing on canvas ``c`` shows anywhere (False on a :class:`MeasuringCanvas`)."""
    return not getattr(c, "measuring", False)


class RichText(Flowable):
    """A paragraph of pnp markup at a fixed size, with optional bullet/number in a hanging indent."""

    kind = "text"

    def __init__(self, markup: str, style: Style, space_before=0.0, space_after=0.0, indent=0.0,
                 bullet: str | None = None, lines=None, keep_with_next=False, toc_level=None, background=None,
                 marker: ListGeometry | None = None, kind: str | None = None, min_lines: int = 0):
        super().__init__()
        self.markup = markup
        self.style = style
        self.space_before = space_before
        self.space_after = space_after
        self.indent = marker.indent if marker is not None else indent
        self.bullet = bullet            # markup set in the hanging indent (a list's number)
        self.marker = marker            # a bullet drawn in the hanging indent
        self._lines = lines
        self.keep_next = keep_with_next  # grouped with what follows by keep_with_next() (not platypus)
        self.toc_level = toc_level
        self.background = background
        if kind:
            self.kind = kind
        self.min_lines = min_lines      # as tall as this many lines, however few it holds (a blank line)
        self._width = None

    # platypus asks these for spacing between flowables
    def getSpaceBefore(self):
        return self.space_before

    def getSpaceAfter(self):
        return self.space_after

    @property
    def lead(self):
        return self.style.size * self.style.leading

    def _wrap_lines(self, width):
        if self._lines is not None and self._width == width:
            return self._lines
        lines = rich.wrap(self.markup, self.style, self.style.size, width - self.indent, runt=True)
        if lines is None:  # a single word wider than the column: let it overflow visibly, once per line
            lines = rich.wrap(self.markup, self.style, self.style.size, 10 ** 6)
        self._lines, self._width = lines, width
        return lines

    def _height(self, n):
        return self.lead * max(n, self.min_lines)

    def wrap(self, avail_width, avail_height):
        self.width = avail_width
        lines = self._wrap_lines(avail_width)
        self.height = self._height(len(lines))
        return self.width, self.height

    def split(self, avail_width, avail_height):
        lines = self._wrap_lines(avail_width)
        fit = int((avail_height + 0.01) // self.lead)
        n = len(lines)
        if fit >= n:
            return [self]
        if n < 4 or fit < 2:
            return []          # keep short paragraphs whole; never leave one line at a page foot
        fit = min(fit, n - 2)  # and never carry one line alone to the next page
        # a line ending in a colon introduces the next one ("... in the lower right corner:" / "Goblin,
        # Orc, ..."): like a heading, it never ends a page
        while fit >= 2 and leads_in(line_text(lines[fit - 1])):
            fit -= 1
        if fit < 2:
            return []
        head = RichText(self.markup, self.style, self.space_before, 0, self.indent, self.bullet,
                        lines[:fit], background=self.background, marker=self.marker, kind=self.kind)
        tail = RichText(self.markup, self.style, 0, self.space_after, self.indent, None, lines[fit:],
                        background=self.background, kind=self.kind)
        if self.marker is not None:
            tail.indent = self.indent
        head._width = tail._width = avail_width
        head.source = tail.source = getattr(self, "source", None)   # where in the markup (pnp.draw.document)
        return [head, tail]

    def draw(self):
        c = self.canv
        if not painting(c):
            return
        lines = self._lines or ()
        size = self.style.size
        if self.background:
            c.setFillColor(HexColor(self.background))
            c.rect(-2, -1.5, self.width + 4, self.height + 1.5, stroke=0, fill=1)
        first = self.height - size * 0.95 - (self.lead - size) / 2
        if self.bullet is not None:
            # a number is one unbreakable token: wrapped at any width so a wide one ("12.") is never dropped
            rich.paint_lines(c, rich.wrap(self.bullet, self.style, size, 1e6) or (), self.style, size,
                             0, self.indent, first)
        if self.marker is not None and self.marker.bullet_size:
            m = self.marker     # the pip icon's diamond is 0.84 of the size it is drawn at
            icons.draw(c, "pip", m.bullet_cx, first + m.bullet_raise, m.bullet_size / 0.84, self.style.colour)
        rich.paint_lines(c, lines, self.style, size, self.indent, self.width - self.indent, first)


def line_text(line) -> str:
    """The words of a wrapped line (:func:`pnp.draw.text.wrap`) as plain text, icons left out."""
    return " ".join("".join(a.text for a in word if a.kind == "text") for word in line)


def _last_sentence_line(lines) -> int:
    """The index of the line on which the last sentence of wrapped ``lines`` starts."""
    words = [(k, "".join(a.text for a in word if a.kind == "text")) for k, line in enumerate(lines) for word in line]
    if not words:
        return 0
    return words[last_sentence_start([w for _, w in words])][0]


def lines_of(flowable) -> int:
    """How many lines of text a flowable starts with (a picture or table counts as many as it needs)."""
    lines = getattr(flowable, "_lines", None)
    return len(lines) if lines is not None else KEEP_LINES


class KeepWithNext(Flowable):
    """A heading (or a lead-in) and the flowable after it, set so that the heading is never the last
    thing on a page: when both do not fit, the next one is split with at least :data:`KEEP_LINES` of
    its lines beside the heading, or the pair moves on to the next page."""

    def __init__(self, first, second):
        super().__init__()
        self.first, self.second = first, second
        self.kind = "group"

    def getSpaceBefore(self):
        return self.first.getSpaceBefore()

    def getSpaceAfter(self):
        return self.second.getSpaceAfter()

    def _gap(self):
        return self.first.getSpaceAfter() + self.second.getSpaceBefore()

    def wrap(self, avail_width, avail_height):
        canv = getattr(self, "canv", None)
        _, h1 = self.first.wrapOn(canv, avail_width, avail_height)
        _, h2 = self.second.wrapOn(canv, avail_width, max(0.0, avail_height - h1 - self._gap()))
        self._h1, self._h2 = h1, h2
        self.width, self.height = avail_width, h1 + self._gap() + h2
        return self.width, self.height

    def split(self, avail_width, avail_height):
        canv = getattr(self, "canv", None)
        _, h1 = self.first.wrapOn(canv, avail_width, avail_height)
        return self._split_kept(canv, avail_width, avail_height, h1) or \
            self._split_lead_in(canv, avail_width, avail_height)

    def _split_lead_in(self, canv, avail_width, avail_height) -> list:
        """A paragraph leading in to a figure, the pair too tall for the room left: the paragraph's
        first lines here, its last sentence (the one that introduces the figure; at least
        :data:`KEEP_LINES` lines) with the figure on the next page, rather than all of it moving on and
        leaving the foot of the page empty. A paragraph of :data:`LEAD_IN_WHOLE` lines or fewer, or one
        whose last sentence would leave fewer than :data:`KEEP_LINES` lines here, moves on whole with
        the figure (but for one at the top of a page, which keeps only its last two lines with it, as it
        must to fit); and no page ends on a line ending in a colon (:meth:`RichText.split`)."""
        if not (isinstance(self.first, RichText) and self.first.kind == "body"
                and isinstance(self.second, FigureRow)):
            return []
        lines = self.first._wrap_lines(avail_width)
        n = len(lines)
        if getattr(getattr(self, "_frame", None), "_atTop", False):
            # at the top of a page already (a long sentence and its figure taller than a page): moving on
            # gains nothing, so the paragraph splits as it can, its last two lines with the figure
            kept = KEEP_LINES
        else:
            kept = max(KEEP_LINES, n - _last_sentence_line(lines))
            if n <= LEAD_IN_WHOLE or n - kept < KEEP_LINES:
                return []
        parts = self.first.splitOn(canv, avail_width, min(avail_height, (n - kept) * self.first.lead + 0.01))
        if len(parts) != 2:
            return []
        head, tail = parts
        rest = KeepWithNext(tail, self.second)
        rest.source = getattr(self, "source", None)
        return [head, rest]

    def _split_kept(self, canv, avail_width, avail_height, h1) -> list:
        """The heading (or lead-in) whole here with the first part of what follows it; [] when that part
        would be too small."""
        room = avail_height - h1 - self._gap()
        if room <= 0:
            return []
        parts = self._split_second(canv, avail_width, room)
        if parts and isinstance(parts[0], ActionFlowable):
            # a block kept together (an example box) that does not fit in the room left: platypus asks
            # for the next frame, and the pair goes there; at the top of a frame already, the block is
            # taller than a page and is split where it stands
            if getattr(parts[0], "locChanger", 0):
                return []
            parts = parts[1:]
        # (a kept block that fits hands back its content, whole: one line of a box is a placement too; any
        # other flowable that splits into fewer than two parts did not split)
        if not parts or not isinstance(parts[0], Flowable) or (len(parts) < 2
                                                                and not isinstance(self.second, KeepTogether)):
            return []
        head = parts[0]
        _, hh = head.wrapOn(canv, avail_width, room)
        torn = (len(parts) > 1 and isinstance(head, RichText) and isinstance(parts[1], RichText)
                and parts[1].markup == head.markup
                and len(head._lines or ()) < KEEP_LINES)      # a paragraph split with one line left here
        if hh > room + 0.01 or torn:
            return []
        return [self.first, *parts]

    def _split_second(self, canv, avail_width, room) -> list:
        """The second flowable split to ``room``, told of the frame the pair is split in (a kept block
        asks it whether it stands at the top of a page)."""
        frame = getattr(self, "_frame", None)
        if frame is None:
            return self.second.splitOn(canv, avail_width, room)
        self.second._frame = frame
        try:
            return self.second.splitOn(canv, avail_width, room)
        finally:
            if getattr(self.second, "_frame", None) is frame:
                del self.second._frame

    def drawOn(self, canvas, x, y, _sW=0):
        # the pair as the frame placed it: the first on top, the second below with the gap between
        self.first.drawOn(canvas, x, y + self.height - self._h1, _sW)
        self.second.drawOn(canvas, x, y, _sW)

    def draw(self):  # pragma: no cover - drawOn does the work
        pass


def keep_with_next(flows: list) -> list:
    """``flows`` with every flowable marked ``keep_next`` grouped with the one after it (chains group
    from the end: a chapter heading, a section heading and its first paragraph stay together)."""
    out = []
    for f in reversed(flows):
        if getattr(f, "keep_next", False) and out and _content(out[-1]):
            out[-1] = KeepWithNext(f, out[-1])
        else:
            out.append(f)
    out.reverse()
    return out


def _content(f) -> bool:
    """Whether a flowable is content a heading can be kept with: not a page break or a space, nor an
    indexing flowable (the contents), which a multi-pass build must find at the top of the story."""
    return not isinstance(f, (ActionFlowable, Spacer, UseUpSpace)) and not f.isIndexing()


class Rule(Flowable):
    """A thin horizontal line (notes pages, separators)."""

    def __init__(self, colour="#b9ad99", width=0.4, space=18.0):
        super().__init__()
        self.colour, self.line_width, self.space = colour, width, space

    def wrap(self, avail_width, avail_height):
        self.width = avail_width
        return avail_width, self.space

    def draw(self):
        self.canv.setStrokeColor(HexColor(self.colour))
        self.canv.setLineWidth(self.line_width)
        self.canv.line(0, 0, self.width, 0)


#: The rows of figures measured (:meth:`FigureRow.wrap`), by the identity of their drawings (frozen, kept
#: alive here with the entry), caption style, gap, width and the active icons and language: every layout
#: pass of a booklet measures the same rows again (24 passes of Shadow Throne's on each paper).
_ROWS: dict = {}


class FigureRow(Flowable):
    """Figures drawn by pnp (:mod:`pnp.rulebook.figures`) side by side, centred in the column, each with its
    caption set below it. Figures next to each other with the same caption (a group of pieces: a kind's
    tokens) share one caption, set once under them (under the last line they take). A row wider than the column goes on over more lines,
    balanced (5 figures go 3 + 2, never 4 + 1), and broken between a shared caption's runs where the lines
    can be (a kind's tokens on one line); a figure wider than the column alone is scaled down to
    fit it."""

    kind = "figure"

    def __init__(self, drawings, caption_style: Style, gap_mm: float = 5.0, space_before=4.0, space_after=7.0):
        super().__init__()
        self.drawings = list(drawings)
        self.caption_style = caption_style
        self.gap = gap_mm
        self.space_before, self.space_after = space_before, space_after
        self._lines = None

    def getSpaceBefore(self):
        return self.space_before

    def getSpaceAfter(self):
        return self.space_after

    def groups(self) -> list[int]:
        """For each figure, how many figures its caption is shared by: the run of neighbours with the
        same caption it belongs to (1: a caption of its own, or none)."""
        out, k = [], 0
        while k < len(self.drawings):
            caption = self.drawings[k].caption
            end = k + 1
            while caption and end < len(self.drawings) and self.drawings[end].caption == caption:
                end += 1
            out += [end - k] * (end - k)
            k = end
        return out

    def layout(self, avail_mm: float) -> list[list[tuple]]:
        """Lines of (drawing, scale, index): each figure at its own scale (less if alone it is wider than
        the column), as many to a line as fit, then balanced: the same lines hold the figures as evenly
        as they can (5 figures that fit 4 to a line go 3 + 2, never 4 + 1; 10 that fit 3 go 3 + 3 + 2 +
        2), in order, each line still within the column."""
        placed = [(d, min(d.scale, avail_mm / d.width) if d.width else d.scale, i)
                  for i, d in enumerate(self.drawings)]
        runs = self.groups()
        widths = [self.slot(d, s, avail_mm, runs[i]) for d, s, i in placed]
        lines, line, used = [], [], 0.0
        for item, w in zip(placed, widths):
            if line and used + self.gap + w > avail_mm + 0.01:
                lines.append(line)
                line, used = [], 0.0
            used += (self.gap if line else 0.0) + w
            line.append(item)
        if line:
            lines.append(line)
        n = len(lines)
        if n < 2:
            return lines
        kept = self._by_runs(placed, widths, runs, n, avail_mm)
        if kept is not None:
            return kept
        base, more = divmod(len(placed), n)
        counts = [base + 1 if k < more else base for k in range(n)]
        balanced, start = [], 0
        for count in counts:
            part = widths[start:start + count]
            if sum(part) + self.gap * (count - 1) > avail_mm + 0.01:
                return lines            # an uneven row of wide figures: as many to a line as fit
            balanced.append(placed[start:start + count])
            start += count
        return balanced

    def _by_runs(self, placed, widths, runs, n: int, avail_mm: float):
        """The figures in ``n`` lines broken only between runs of a shared caption (a kind's tokens stay
        on one line, under their one caption), each line within the column, as even as can be (the
        fewest figures on a line against the most; then the fuller lines first): None when no such
        lines exist (a run wider than the column)."""
        from itertools import combinations
        from math import comb

        if max(runs, default=1) < 2:
            return None                 # no caption shared: any break keeps the captions whole
        bounds, k = [], 0
        while k < len(placed):
            k += runs[k]
            bounds.append(k)
        if comb(len(bounds) - 1, n - 1) > 2000:
            return None                 # (a long row of many kinds: lines by count)
        best = None
        for cuts in combinations(bounds[:-1], n - 1):
            edges = (0,) + cuts + (len(placed),)
            counts = [edges[j + 1] - edges[j] for j in range(n)]
            if any(sum(widths[edges[j]:edges[j + 1]]) + self.gap * (counts[j] - 1) > avail_mm + 0.01
                   for j in range(n)):
                continue
            key = (max(counts) - min(counts), [-c for c in counts])
            if best is None or key < best[0]:
                best = (key, edges)
        if best is None:
            return None
        edges = best[1]
        return [placed[edges[j]:edges[j + 1]] for j in range(n)]

    def slot(self, d, s: float, avail_mm: float, shared: int = 1) -> float:
        """Width (mm) a figure takes in its row: the drawing's, or its caption's on one line if that is
        wider (at most 30 mm, or 60 % of the column for a figure alone in its row, and never more than
        the column: longer captions take more lines); a caption ``shared`` by several figures asks each
        of them for its share of that width."""
        from pnp.units import PT_PER_MM as MM

        w = d.width * s
        if d.caption:
            _, one_line = rich.natural_widths(d.caption, self.caption_style)
            most = 0.6 * avail_mm if len(self.drawings) == 1 else 30.0
            wide = min(one_line / MM + 1.0, max(most, 30.0 * min(shared, 2)), avail_mm)
            w = max(w, (wide - self.gap * (shared - 1)) / shared)
        return w

    def _captions(self, line, widths) -> list[tuple[int, int, tuple]]:
        """(first, last, lines) of each caption under a line of figures: one per run of neighbours with
        the same caption, as wide as the run."""
        from pnp.units import PT_PER_MM as MM

        cap, out, k = self.caption_style, [], 0
        while k < len(line):
            caption = line[k][0].caption
            end = k + 1
            while caption and end < len(line) and line[end][0].caption == caption:
                end += 1
            if caption:
                span = sum(widths[k:end]) + self.gap * MM * (end - 1 - k)
                out.append((k, end - 1, tuple(rich.wrap(caption, cap, cap.size, span, runt=True) or ())))
            k = end
        return out

    def _goes_on(self, index: int) -> bool:
        """Whether the figure at ``index`` shares its caption with the next one (its run goes on)."""
        caption = self.drawings[index].caption
        return bool(caption) and index + 1 < len(self.drawings) and self.drawings[index + 1].caption == caption

    def _widths(self, line, avail_mm: float) -> list[float]:
        from pnp.units import PT_PER_MM as MM

        runs = self.groups()
        return [self.slot(d, s, avail_mm, runs[i]) * MM for d, s, i in line]

    def wrap(self, avail_width, avail_height):
        key = (tuple(map(id, self.drawings)), self.caption_style, self.gap, avail_width, id(icons.active()),
               typography.active(), typography.breaking())
        found = _ROWS.get(key)
        if found is not None and all(a is b for a, b in zip(found[0], self.drawings)):
            self._lines, self.width, self.height = found[1], avail_width, found[2]
            return self.width, self.height
        self._measure(avail_width)
        if len(_ROWS) >= 512:
            _ROWS.clear()
        _ROWS[key] = (tuple(self.drawings), self._lines, self.height, icons.active())
        return self.width, self.height

    def _measure(self, avail_width):
        """:meth:`wrap`'s work: the figures' lines, their captions' lines and the row's height."""
        from pnp.units import PT_PER_MM as MM

        cap = self.caption_style
        self._lines = []
        total = 0.0
        avail_mm = avail_width / MM
        for line in self.layout(avail_mm):
            # a caption shared by a run that goes on over the next line is set once, under its last line
            captions = [(first, last, lines) for first, last, lines in self._captions(line, self._widths(line, avail_mm))
                        if not self._goes_on(line[last][2])]
            caption_h = max((len(lines) * cap.size * cap.leading for _, _, lines in captions), default=0.0)
            caption_h += 2.5 if caption_h else 0.0
            art_h = max(d.height * s for d, s, _ in line) * MM
            self._lines.append((line, captions, art_h, caption_h))
            total += art_h + caption_h
        total += 6.0 * (len(self._lines) - 1)
        self.width, self.height = avail_width, total

    def split(self, avail_width, avail_height):
        """Between lines of figures: the lines that fit here, the rest on the next page."""
        self.wrap(avail_width, avail_height)
        used, fit = 0.0, 0
        for k, (_, _, art_h, caption_h) in enumerate(self._lines):
            used += art_h + caption_h + (6.0 if k else 0.0)
            if used > avail_height + 0.01:
                break
            fit = k + 1
        if fit == 0 or fit == len(self._lines):
            return []
        first = [d for line, *_ in self._lines[:fit] for d, _, _ in line]
        rest = [d for line, *_ in self._lines[fit:] for d, _, _ in line]
        parts = [FigureRow(first, self.caption_style, self.gap, self.space_before, 0.0),
                 FigureRow(rest, self.caption_style, self.gap, 0.0, self.space_after)]
        for part in parts:      # where in the markup (pnp.draw.document)
            part.source = getattr(self, "source", None)
        return parts

    def draw(self):
        from pnp.draw.paint import paint
        from pnp.units import PT_PER_MM as MM

        c = self.canv
        if not painting(c):
            return
        cap = self.caption_style
        top = self.height
        avail_mm = self.width / MM
        for line, captions, art_h, caption_h in self._lines:
            widths = self._widths(line, avail_mm)
            total = sum(widths) + self.gap * MM * (len(widths) - 1)
            left = (self.width - total) / 2
            base = top - art_h - caption_h
            starts, x = [], left
            for (d, s, _), w in zip(line, widths):
                h, dw = d.height * s * MM, d.width * s * MM
                c.saveState()
                c.translate(x + (w - dw) / 2, base + caption_h + (art_h - h))
                paint(c, placed_elements(d, s))
                c.restoreState()
                starts.append(x)
                x += w + self.gap * MM
            for first, last, lines in captions:
                if lines:
                    span = starts[last] + widths[last] - starts[first]
                    rich.paint_lines(c, lines, cap, cap.size, starts[first], span, base + caption_h - cap.size - 1.5)
            top = base - 6.0


class Ruler(Flowable):
    """A 50 mm scale and a 2 inch scale, to check that the printer did not resize the page."""

    def __init__(self, words):
        super().__init__()
        self.words = words

    def wrap(self, avail_width, avail_height):
        self.width = avail_width
        return avail_width, pt(24)

    @staticmethod
    def _scale(c, y, length_mm, ticks, major_every, label_every, label):
        """A scale ``length_mm`` long cut into ``ticks``; numbers count ticks / ``major_every`` units."""
        c.setLineWidth(0.5)
        c.line(0, y, pt(length_mm), y)
        for k in range(ticks + 1):
            x = pt(length_mm * k / ticks)
            c.line(x, y, x, y + pt(3.2 if k % major_every == 0 else 1.8))
            if k % label_every == 0:
                c.setFont(fonts.font_name("sans"), 6)
                c.drawCentredString(x, y + pt(4.2), f"{k // major_every}")
        c.setFont(fonts.font_name("sans-bold"), 6.5)
        c.drawString(pt(length_mm) + pt(3), y + pt(0.5), label)

    def draw(self):
        c = self.canv
        c.setStrokeColor(HexColor("#1f1a17"))
        c.setFillColor(HexColor("#1f1a17"))
        # 50 mm in millimetres, numbered every centimetre; 2 inches in eighths, numbered every inch
        self._scale(c, pt(14), 50, 50, 10, 10, self.words.get("ruler_mm", "cm (50 mm)"))
        self._scale(c, pt(2), 2 * MM_PER_INCH, 16, 8, 8, self.words.get("ruler_in", "in"))

def placed_elements(drawing, scale: float) -> tuple:
    """A figure's elements (a :class:`pnp.rulebook.figures.Drawing`) under ``scale`` (mm), as the rulebook paints them."""
    return (Transform(drawing.elements, scaling(scale), role="figure"),)
