"""Rich text in a box: a tiny markup, line breaking, shrink-to-fit, and painting.

Markup (parsed by :func:`pnp.text.markup.inline_atoms`): ``**bold**``, ``*italic*``, inline icons
``[power]`` / ``[pips:2]`` / ``[step:1]`` (see :mod:`pnp.draw.icons`), ``\\n`` for a line break and
``\\*`` for a literal star. Quotes become the active language's (:mod:`pnp.text.typography`); a style with
``hyphenate`` breaks long words at the language's hyphenation points rather than leave a line short;
:func:`fit` avoids a last line of one word where a different break or a slightly smaller size can. Text that does not fit at the style's size is shrunk in quarter-point steps
down to ``min_size``; :func:`fit` reports when even that is not enough, which :mod:`pnp.validation.checks`
turns into an error instead of letting text overflow on paper. Validation also reports unknown icons
(:func:`pnp.text.markup.markup_problems`); should one reach drawing, it prints as the text it was written as.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache

from reportlab.lib.colors import HexColor

from pnp.text import typography
from pnp.draw import fonts, icons
from pnp.layout.geometry import Rect, Style
from pnp.text.markup import Atom, inline_atoms, pips_count
from pnp.units import MIN_TEXT_PT, pt

ICON_SCALE = 1.2       # inline icon size as a multiple of the font size
CAP_CENTRE = 0.33      # baseline to the optical middle of capitals, as a fraction of the size


def parse(markup: str, upper: bool = False) -> tuple:
    """Markup -> words (tuples of atoms) with ``None`` marking forced line breaks, quotes typographic in
    the active language. An icon this module cannot draw (reported by validation) becomes the text it
    was written as."""
    return _parsed(markup, upper, icons.active(), typography.active())


@lru_cache(maxsize=8192)
def _parsed(markup: str, upper: bool, icon_set, lang: str) -> tuple:
    # cached: a rulebook sets the same paragraphs on every layout pass, cards check then print their text
    words = inline_atoms(typography.quotes(markup, lang), upper)
    words = [w if w is None or all(_drawable(a) for a in w) else [a if _drawable(a) else _as_text(a) for a in w]
             for w in words]
    return tuple(None if w is None else tuple(w) for w in _keep_together(words))


def _keep_together(words: list) -> list:
    """Words joined where a line must not break: an inline icon stays on the line of the word before it
    ("1 [gold]", "influence [influence]", "[step:1] [step:2] [step:3]"), the space between them kept."""
    out = []
    for word in words:
        prev = out[-1] if out else None
        if word and prev and word[0].kind == "icon":
            last = prev[-1]
            out[-1] = [*prev, Atom("text", " ", last.bold, last.italic), *word]
        else:
            out.append(word)
    return out


def _drawable(atom: Atom) -> bool:
    if atom.kind != "icon":
        return True
    if atom.text == "pips":
        return pips_count(atom.arg) is not None
    return icons.drawable(atom.text)


def _as_text(atom: Atom) -> Atom:
    return Atom("text", f"[{atom.text}{':' + atom.arg if atom.arg is not None else ''}]")


def icon_names(markup: str) -> set[str]:
    return {a.text for w in parse(markup) if w for a in w if a.kind == "icon"}


def _atom_width(atom: Atom, style: Style, size: float) -> float:
    if atom.kind == "icon":
        isize = size * ICON_SCALE
        if atom.text == "pips":
            return isize * 0.62 * pips_count(atom.arg) + isize * 0.1
        return isize * icons.inline_width(atom.text) + size * 0.08
    font = fonts.font_name(style.font, atom.bold, atom.italic)
    return fonts.width(atom.text, font, size) + style.tracking * len(atom.text)


def _word_width(word, style, size) -> float:
    return sum(_atom_width(a, style, size) for a in word)


@dataclass(frozen=True)
class Fitted:
    """Text fitted to a box: whether it fits, at which size (pt), its wrapped lines and the block they make
    (pt); ``reason`` says why it does not fit."""

    ok: bool
    size: float
    lines: tuple           # tuple of lines; a line is a tuple of words
    width_pt: float
    height_pt: float
    reason: str = ""


def _wrap(words, style, size, width):
    space = fonts.width(" ", fonts.font_name(style.font), size)
    # a line left shorter than this by a long word is filled with a hyphenated part of it
    zone = max(2.5 * size, 0.12 * width)
    lines, line, used = [], [], 0.0
    pending = list(words)
    pending.reverse()
    while pending:
        word = pending.pop()
        if word is None:
            lines.append(tuple(line))
            line, used = [], 0.0
            continue
        w = _word_width(word, style, size)
        extra = w if not line else space + w
        if used + extra <= width + 0.01:
            line.append(tuple(word))
            used += extra
            continue
        free = width - used - (space if line else 0.0)
        if style.hyphenate and (free > zone or w > width + 0.01):
            parts = _hyphenated(word, style, size, free)
            if parts is not None:
                line.append(parts[0])
                pending.append(parts[1])
                lines.append(tuple(line))
                line, used = [], 0.0
                continue
        if w > width + 0.01:
            return None
        lines.append(tuple(line))
        line, used = [tuple(word)], w
    if line:
        lines.append(tuple(line))
    return tuple(lines)


def _hyphenated(word, style, size, room: float):
    """(head with a hyphen, rest) of a one-atom text ``word`` broken at its last hyphenation point whose
    head fits in ``room`` points; None when it has none."""
    if len(word) != 1 or word[0].kind != "text":
        return None
    atom = word[0]
    for p in reversed(typography.hyphen_points(atom.text)):
        head = Atom("text", atom.text[:p] + "-", atom.bold, atom.italic)
        if _atom_width(head, style, size) <= room + 0.01:
            return (head,), (Atom("text", atom.text[p:], atom.bold, atom.italic),)
    return None


def _runt(words, lines) -> bool:
    """Whether the last line of the text's last paragraph is one word of a paragraph of four or more
    words set on two or more lines."""
    tail = []
    for w in reversed(words):
        if w is None:
            break
        tail.append(w)
    return len(tail) >= 4 and len(lines) >= 2 and len(lines[-1]) == 1 and bool(lines[-2])


def fit(markup: str, style: Style, w_mm: float, h_mm: float) -> Fitted:
    """Largest size (quarter-point steps, from style.size down to style.min_size) at which the text fits
    (inline icons measured in the active icon set). No text is set below :data:`pnp.units.MIN_TEXT_PT`,
    whatever its style asks. Inside :func:`fits_kept`, each text is fitted once for the whole block."""
    args = (markup, style, w_mm, h_mm, icons.active(), typography.active(), typography.breaking())
    if _KEPT:
        kept = _KEPT[-1]
        found = kept.get(args)
        if found is None:
            found = kept[args] = _fit(*args)
        return found
    return _fit(*args)


def text_fits(markup: str, style: Style, w_mm: float, h_mm: float) -> bool:
    """Whether ``markup`` fits a ``w_mm`` x ``h_mm`` box set in ``style`` (:func:`fit`): the measure the
    layout's pure geometry asks its callers for (:func:`pnp.layout.tiling.glue_note`)."""
    return fit(markup, style, w_mm, h_mm).ok


#: The fits of the current :func:`fits_kept` block (a stack: the outermost block's dict).
_KEPT: list = []


def kept(kind: str, markup: str, style: Style, rect: Rect, measure):
    """``measure()``, a function of a text set in ``rect`` (and of the icon set, language and breaking
    rules, as :func:`fit` is), made once per :func:`fits_kept` block for each ``kind`` of measure (the
    empty-space and the cut-line checks measured each text's lines once each). Outside a block, measured
    each time. (Keeping a text's ink and rectangle too was tried: hashing the key cost more than a deck's
    shared texts saved.)"""
    if not _KEPT:
        return measure()
    key = (kind, markup, style, rect, icons.active(), typography.active(), typography.breaking())
    memo = _KEPT[-1]
    found = memo.get(key)
    if found is None:
        found = memo[key] = (measure(),)
    return found[0]


@contextmanager
def fits_kept():
    """``with fits_kept():`` every text fitted in the block is fitted once: a validation's cards' check,
    its empty-space and cut-line checks, then the build's drawing all ask for the same faces' texts, and a
    large deck has more texts than :func:`_fit`'s memo holds (each asker fitted them again). The fit is a
    function of its arguments (the text, style, box, icon set, language and breaking rules), so what is
    kept is what fitting again gives; it is dropped when the block ends (a build, a validation)."""
    if _KEPT:
        yield
        return
    _KEPT.append({})
    try:
        yield
    finally:
        _KEPT.pop()


@lru_cache(maxsize=4096)
def _fit(markup: str, style: Style, w_mm: float, h_mm: float, icon_set, lang: str = "en",
         breaking: tuple = ()) -> Fitted:
    words = parse(markup, style.upper)
    width, height = pt(w_mm), pt(h_mm)
    size = max(style.size, MIN_TEXT_PT)
    smallest = max(style.min_size if style.min_size is not None else style.size, MIN_TEXT_PT)
    reason = ""
    while size >= smallest - 1e-9:
        lines = _wrap(words, style, size, width)
        if lines is None:
            reason = "a word is wider than the box"
        else:
            n = len(lines)
            block = size * style.leading * (n - 1) + size
            if style.max_lines is not None and n > style.max_lines:
                reason = f"needs {n} lines, at most {style.max_lines} allowed"
            elif block > height + 0.01:
                reason = f"needs {n} lines ({block / 2.8346:.1f} mm), box is {h_mm:.1f} mm tall"
            else:
                if _runt(words, lines):
                    lines, size, block = _without_runt(words, style, size, smallest, width, height, lines)
                return Fitted(True, size, lines, width, block)
        size = round(size - 0.25, 2)
    return Fitted(False, smallest, (), width, 0.0, reason)


#: How much smaller than its fitted size a text may be set to keep a word from standing alone on its
#: last line (points).
RUNT_SHRINK = 0.5


def _without_runt(words, style: Style, size: float, smallest: float, width: float, height: float, lines):
    """(lines, size, block height) of a text whose last line is a single word, set again without that
    runt when it can be: first a different break at the same size (the lines narrowed, so a word of
    the line before joins the last one), then up to :data:`RUNT_SHRINK` points smaller. Otherwise the
    lines as they were."""
    n = len(lines)
    again = _narrowed(words, style, size, width, n)
    if again is not None:
        return again, size, size * style.leading * (len(again) - 1) + size
    smaller = round(size - 0.25, 2)
    while smaller >= max(smallest, size - RUNT_SHRINK) - 1e-9:
        again = _wrap(words, style, smaller, width)
        if again is not None and not _runt(words, again):
            block = smaller * style.leading * (len(again) - 1) + smaller
            if block <= height + 0.01 and (style.max_lines is None or len(again) <= style.max_lines):
                return again, smaller, block
        smaller = round(smaller - 0.25, 2)
    return lines, size, size * style.leading * (n - 1) + size


def _narrowed(words, style: Style, size: float, width: float, n: int):
    """The lines of a text whose last line is a single word, broken again in a narrower measure (2 %
    steps, down to 60 % of ``width``) so that a word of the line before joins it, on no more lines; None
    when no such break exists."""
    step = width * 0.02
    narrower = width - step
    while narrower >= width * 0.6:
        again = _wrap(words, style, size, narrower)
        if again is None or len(again) > n:
            return None
        if not _runt(words, again):
            return again
        narrower -= step
    return None


def line_width(line, style, size) -> float:
    space = fonts.width(" ", fonts.font_name(style.font), size)
    return sum(_word_width(w, style, size) for w in line) + space * max(0, len(line) - 1)


def line_widths(markup: str, style: Style, w_mm: float, h_mm: float) -> tuple:
    """(:func:`fit` of the text in a ``w_mm`` x ``h_mm`` box, :func:`line_width` of each of its lines), once
    per :func:`fits_kept` block: the empty-space check (:func:`ink_rect`) and the cut-line check
    (:func:`pnp.draw.ink.text_ink`) measure the same lines."""
    def measure():
        fitted = fit(markup, style, w_mm, h_mm)
        return fitted, tuple(line_width(line, style, fitted.size) for line in fitted.lines)
    return kept("line widths", markup, style, Rect(0.0, 0.0, w_mm, h_mm), measure)


def paint(c, rect: Rect, markup: str, style: Style) -> Fitted:
    """Draw fitted text in ``rect`` (mm). Text that cannot fit is drawn at the minimum size, clipped."""
    result = fit(markup, style, rect.w, rect.h)
    size = result.size
    lines = result.lines
    if not result.ok:  # validation reports this; draw something visible rather than nothing
        c.saveState()
        p = c.beginPath()
        p.rect(pt(rect.x), pt(rect.y), pt(rect.w), pt(rect.h))
        c.clipPath(p, stroke=0, fill=0)
        lines = _wrap(parse(markup, style.upper), style, size, 10 ** 6) or ()
    lead = size * style.leading
    block = lead * (len(lines) - 1) + size
    top = pt(rect.top)
    if style.valign == "top":
        first = top - size * 0.8
    elif style.valign == "bottom":
        first = pt(rect.y) + block - size * 0.8
    else:
        first = pt(rect.cy) + block / 2 - size / 2 - size * CAP_CENTRE
    paint_lines(c, lines, style, size, pt(rect.x), pt(rect.w), first)
    if not result.ok:
        c.restoreState()
    return result


def ink_rect(rect: Rect, markup: str, style: Style) -> Rect | None:
    """The rectangle (mm) the lines of ``markup`` take when painted in ``rect`` (:func:`paint`): as wide as
    its longest line, as tall as its block, placed by the style's alignment; None for no text. A text that
    cannot fit takes its whole box."""
    result = fit(markup, style, rect.w, rect.h)
    if not result.ok:
        return rect
    if not result.lines:
        return None
    size = result.size
    block = (size * style.leading * (len(result.lines) - 1) + size) / pt(1)
    wide = min(rect.w, max(line_widths(markup, style, rect.w, rect.h)[1]) / pt(1))
    if wide <= 0:
        return None
    x = {"left": rect.x, "right": rect.right - wide}.get(style.align, rect.cx - wide / 2)
    if style.align == "justify" and len(result.lines) > 1:
        x, wide = rect.x, rect.w
    y = {"top": rect.top - block, "bottom": rect.y}.get(style.valign, rect.cy - block / 2)
    return Rect(x, max(rect.y, y), wide, min(block, rect.h))


def wrap(markup: str, style: Style, size: float, width_pt: float, runt: bool = False):
    """Lines of ``markup`` set at ``size`` in ``width_pt`` points (None if a word cannot fit). With
    ``runt``, a last line of one word (of a text of four or more words) is avoided where a narrower
    measure gives the same number of lines without it (the rulebook's paragraphs)."""
    return _wrapped(markup, style, size, width_pt, icons.active(), typography.active(), typography.breaking(),
                    runt)


@lru_cache(maxsize=8192)
def _wrapped(markup: str, style: Style, size: float, width_pt: float, icon_set, lang: str = "en",
             breaking: tuple = (), runt: bool = False):
    # cached: a booklet laid out for its length and then with spare content (or in another size)
    words = parse(markup, style.upper)
    lines = _wrap(words, style, size, width_pt)
    if runt and lines and _runt(words, lines):
        lines = _narrowed(words, style, size, width_pt, len(lines)) or lines
    return lines


def natural_widths(markup: str, style: Style, size: float | None = None) -> tuple[float, float]:
    """(widest word, whole text on one line) in points: the least and most a column needs."""
    size = size or style.size
    return _natural_widths(markup, style, size, icons.active(), typography.active())


@lru_cache(maxsize=8192)
def _natural_widths(markup: str, style: Style, size: float, icon_set, lang: str) -> tuple[float, float]:
    # cached as _wrapped is (keyed by what parse reads): every layout pass of a booklet measures each
    # figure's caption and each table's cells again (18,000 calls a Shadow Throne rulebook, 14 % of it)
    words = [w for w in parse(markup, style.upper) if w is not None]
    if not words:
        return 0.0, 0.0
    space = fonts.width(" ", fonts.font_name(style.font), size)
    widths = [_word_width(w, style, size) for w in words]
    return max(widths), sum(widths) + space * (len(widths) - 1)


def paint_lines(c, lines, style: Style, size: float, x0: float, width: float, first_baseline: float) -> None:
    """Paint already wrapped lines (points), the first baseline at ``first_baseline``.

    Text between icons goes into one PDF text object; words in the same font separated by one space
    are set as one string when the style has no tracking and the font's space is the measured one (the
    words then land exactly where they were measured).
    """
    lead = size * style.leading
    colour = HexColor(style.colour)
    space = fonts.width(" ", fonts.font_name(style.font), size)
    for i, line in enumerate(lines):
        baseline = first_baseline - i * lead
        lw = line_width(line, style, size)
        if style.align == "left":
            x = x0
        elif style.align == "right":
            x = x0 + width - lw
        else:
            x = x0 + (width - lw) / 2
        runs = []                     # [x, font, text, end x] pieces of text; None for an icon
        for word in line:
            for atom in word:
                aw = _atom_width(atom, style, size)
                if atom.kind == "icon":
                    runs.append((None, atom, x, aw))
                else:
                    font = fonts.font_name(style.font, atom.bold, atom.italic)
                    last = runs[-1] if runs else None
                    if (last is not None and last[0] is not None and last[1] == font and not style.tracking
                            and abs(last[3] + space - x) < 1e-6 and fonts.width(" ", font, size) == space):
                        runs[-1] = [last[0], font, last[2] + " " + atom.text, x + aw]
                    else:
                        runs.append([x, font, atom.text, x + aw])
                x += aw
            x += space
        _paint_runs(c, runs, style, size, baseline, colour)


def _paint_runs(c, runs, style, size, baseline, colour) -> None:
    text = None
    for run in runs:
        if run[0] is None:
            if text is not None:
                c.drawText(text)
                text = None
            _, atom, x, aw = run
            _paint_icon(c, atom, x, baseline, size, aw, style)
            continue
        x, font, chars, _ = run
        if text is None:
            c.setFillColor(colour)
            text = c.beginText(x, baseline)
            # Tc is graphics state in PDF and outlives the text object: always set it
            text.setCharSpace(style.tracking)
            current = None
        else:
            text.setTextOrigin(x, baseline)
        if font != current:
            text.setFont(font, size)
            current = font
        fonts.text_out(text, x, baseline, chars, font, size, style.tracking)
    if text is not None:
        c.drawText(text)


def _paint_icon(c, atom, x, baseline, size, width, style):
    isize = size * ICON_SCALE
    cy = baseline + size * CAP_CENTRE
    if atom.text == "pips":
        for k in range(pips_count(atom.arg)):
            icons.draw(c, "pip", x + isize * 0.05 + isize * 0.62 * (k + 0.5), cy, isize * 0.8, style.colour)
        return
    icons.draw(c, atom.text, x + width / 2, cy, isize, None, atom.arg)
