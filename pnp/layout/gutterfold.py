"""Gutterfold card sheets: fronts and their backs on one side of one sheet, for printers without duplex.

The fold line runs through the middle of the sheet (so folding the paper edge to edge finds it). Fronts
fill one half, in a column (or row) block; each back sits at the mirror image of its front's slot across
the fold, drawn so that once the sheet is folded on the line (printed side out) and the blank halves are
glued together, every back lies exactly behind its front, the right way up for a card turned over like a
book page. A gutter (:data:`GUTTER` mm, half on each side of the fold) keeps the fold off the cards, and
the backs' colour runs :data:`BACK_SPILL` mm past their edges there and on the outer side, so a fold a
little off shows no white. Crop marks continue every trim line into the margins; cutting through both
glued layers along them leaves the cards.

Every arrangement is tried: fold line vertical (fronts left) or horizontal (fronts on top), cards upright
or turned a quarter, portrait sheet first; the one holding the most cards wins (63 x 88 mm cards: 4 per
Letter or A4 sheet, turned, fold vertical). Placements are matrices from the card's frame to the page,
so a test can fold the page: the fold's reflection applied to a back's placement gives its front's
placement after the turn (:func:`folded`). Plain data in mm.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.layout.doublesided import turn_matrix
from pnp.layout.geometry import Box, Group, Line, Page, Rect, Style, Text, Transform, apply, compose
from pnp.layout.sheet import CROP_LENGTH, CROP_OFFSET, crop_marks
from pnp.units import PRINTER_MARGIN

#: Space between the fronts and the backs (mm), the fold line in its middle.
GUTTER = 8.0
#: How far the backs' colour runs past their trim (mm) when there is no bleed: a fold that drifts shows no
#: white edge (as on the duplex back pages).
BACK_SPILL = 2.0
FOLD_INK = "#6b6b6b"
FOLD_DASH = (2.0, 1.5)
FOLD_WIDTH = 0.25
#: The hint printed in a margin: a grey dark enough for 4.5:1 contrast on white paper.
HINT_STYLE = Style(font="sans", size=6.5, min_size=5.5, max_lines=1, align="center", valign="middle",
                   colour=FOLD_INK)
HINT_HEIGHT = 3.0


@dataclass(frozen=True)
class FoldSlot:
    """One card of a sheet: its trim on the page, front and back, and the matrices placing each side's
    art (card frame: 0..w, 0..h, y up) on the page."""

    front: Rect
    back: Rect
    front_matrix: tuple
    back_matrix: tuple


@dataclass(frozen=True)
class Gutterfold:
    """How one deck's cards lie on gutterfold sheets."""

    page_w: float
    page_h: float
    card_w: float
    card_h: float
    axis: str             # "x": the fold is the vertical line x = fold; "y": the horizontal line y = fold
    fold: float
    turned: bool          # cards lie turned a quarter (their top towards the sheet's outer edge)
    bleed: float
    gutter: float
    slots: tuple          # FoldSlot per card of a full sheet, fronts in reading order

    @property
    def per_sheet(self) -> int:
        return len(self.slots)

    @property
    def reflection(self) -> tuple:
        """The fold as a matrix: where a point of the back half lands on the front half."""
        if self.axis == "x":
            return (-1.0, 0.0, 0.0, 1.0, 2 * self.fold, 0.0)
        return (1.0, 0.0, 0.0, -1.0, 0.0, 2 * self.fold)

    def fold_line(self, block: Rect) -> tuple:
        """(x1, y1, x2, y2): the fold across ``block`` (what the cards paint) and the crop marks' band beside
        it, kept inside the printer's margin."""
        reach = CROP_OFFSET + CROP_LENGTH
        m = PRINTER_MARGIN
        if self.axis == "x":
            return (self.fold, max(m, block.y - reach), self.fold, min(self.page_h - m, block.top + reach))
        return (max(m, block.x - reach), self.fold, min(self.page_w - m, block.right + reach), self.fold)


def folded(plan: Gutterfold, slot: FoldSlot) -> tuple:
    """The back's placement once the sheet is folded: the fold's reflection after the back matrix. Equal to
    ``compose(slot.front_matrix, turn_matrix("side", w, h))`` when the back lies behind its front."""
    return compose(plan.reflection, slot.back_matrix)


def _margin(bleed: float) -> float:
    """Sheet edge to the cards' trim: the printer's margin, the crop marks, and what runs past the trim."""
    return PRINTER_MARGIN + CROP_OFFSET + CROP_LENGTH + max(bleed, BACK_SPILL)


def gutter_for(bleed: float) -> float:
    """The gutter: :data:`GUTTER`, wider when the bleed would reach the fold (1 mm of paper left either side)."""
    return max(GUTTER, 2 * (bleed + 1.0))


def plan(card_w: float, card_h: float, page_size: tuple, bleed: float = 0.0) -> Gutterfold:
    """The gutterfold arrangement holding the most cards of ``card_w`` x ``card_h`` mm on a sheet of
    ``page_size`` (portrait given; a landscape sheet is tried after it). Cards sit apart by twice the
    ``bleed``; without one they abut, and share their cut lines."""
    pw, ph = sorted(page_size)
    gutter = gutter_for(bleed)
    margin = _margin(bleed)
    best = None
    for page_w, page_h in ((pw, ph), (ph, pw)):
        for axis in ("x", "y"):
            for turned in (False, True):
                # the footprint of one card on the sheet, and its pitch in the block (trim plus bleed)
                fw, fh = (card_h, card_w) if turned else (card_w, card_h)
                pitch_w, pitch_h = fw + 2 * bleed, fh + 2 * bleed
                if axis == "x":
                    half_w, half_h = (page_w - gutter) / 2 - margin + 2 * bleed, page_h - 2 * margin + 2 * bleed
                else:
                    half_w, half_h = page_w - 2 * margin + 2 * bleed, (page_h - gutter) / 2 - margin + 2 * bleed
                cols = int((half_w + 1e-9) // pitch_w)
                rows = int((half_h + 1e-9) // pitch_h)
                if cols < 1 or rows < 1:
                    continue
                if best is None or cols * rows > best[0]:
                    best = (cols * rows, page_w, page_h, axis, turned, cols, rows)
    if best is None:
        raise ValueError(f"a {card_w:g} x {card_h:g} mm card and its back do not fit on one side of a "
                         f"{pw:g} x {ph:g} mm sheet: print the cards double-sided")
    _, page_w, page_h, axis, turned, cols, rows = best
    return _arranged(card_w, card_h, page_w, page_h, axis, turned, cols, rows, bleed, gutter)


def _arranged(card_w, card_h, page_w, page_h, axis, turned, cols, rows, bleed, gutter) -> Gutterfold:
    fw, fh = (card_h, card_w) if turned else (card_w, card_h)
    pitch_w, pitch_h = fw + 2 * bleed, fh + 2 * bleed
    block_w, block_h = cols * pitch_w - 2 * bleed, rows * pitch_h - 2 * bleed     # trim to trim
    if axis == "x":
        fold = page_w / 2
        x0, top = fold - gutter / 2 - block_w, (page_h + block_h) / 2
    else:
        fold = page_h / 2
        x0, top = (page_w - block_w) / 2, fold + gutter / 2 + block_h
    reflection = ((-1.0, 0.0, 0.0, 1.0, 2 * fold, 0.0) if axis == "x" else (1.0, 0.0, 0.0, -1.0, 0.0, 2 * fold))
    turn = turn_matrix("side", card_w, card_h)
    slots = []
    for row in range(rows):
        for col in range(cols):
            # fronts in reading order; with a vertical fold the column nearest the fold is the last
            front = Rect(x0 + col * pitch_w, top - fh - row * pitch_h, fw, fh)
            if turned:     # a quarter turn counter-clockwise: the card's top points left
                matrix = (0.0, 1.0, -1.0, 0.0, front.x + card_h, front.y)
            else:
                matrix = (1.0, 0.0, 0.0, 1.0, front.x, front.y)
            back_matrix = compose(reflection, compose(matrix, turn))
            slots.append(FoldSlot(front, _image(back_matrix, card_w, card_h), matrix, back_matrix))
    return Gutterfold(page_w, page_h, card_w, card_h, axis, fold, turned, bleed, gutter, tuple(slots))


def _image(matrix: tuple, w: float, h: float) -> Rect:
    pts = [apply(matrix, x, y) for x, y in ((0, 0), (w, 0), (0, h), (w, h))]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def _union(rects) -> Rect:
    x0, y0 = min(r.x for r in rects), min(r.y for r in rects)
    return Rect(x0, y0, max(r.right for r in rects) - x0, max(r.top for r in rects) - y0)


def gutterfold_sheets(faces: list, back: list, plan: Gutterfold, labels: list | None = None, name: str = "",
                      card_backs: list | None = None, margins: list | None = None,
                      margin_fill: str = "#333333", hint: str = "", title: str = "Cards, gutterfold") -> list[Page]:
    """One page per :attr:`Gutterfold.per_sheet` cards: each face (elements in the card's frame, laid out
    with the plan's bleed) in its slot, its back (``card_backs[i]``, else ``back``) in the mirrored slot,
    the dashed fold line, crop marks and the ``hint`` (markup: how to fold and glue) in a margin.
    ``margins`` (one per face, elements in a frame :data:`BACK_SPILL` mm larger than the card on every side)
    replaces the plain ``margin_fill`` that runs past each back when there is no bleed."""
    b = plan.bleed
    w, h = plan.card_w, plan.card_h
    art = Rect(-b, -b, w + 2 * b, h + 2 * b)
    reach = b or BACK_SPILL
    full = _union([s.front.inset(-b) for s in plan.slots] + [s.back.inset(-reach) for s in plan.slots])
    pages = []
    for sheet_no, start in enumerate(range(0, len(faces), plan.per_sheet)):
        chunk = faces[start:start + plan.per_sheet]
        page = Page(plan.page_w, plan.page_h, label=f"{title}{': ' + name if name else ''} {sheet_no + 1}")
        slots = plan.slots[:len(chunk)]
        painted = []
        for i, (face, slot) in enumerate(zip(chunk, slots)):
            label = labels[start + i] if labels else None
            shown = card_backs[start + i] if card_backs else back
            if not b:
                # the back's colour runs past it, so a fold a little off shows no white
                margin = margins[start + i] if margins else None
                spill = Rect(-BACK_SPILL, -BACK_SPILL, w + 2 * BACK_SPILL, h + 2 * BACK_SPILL)
                if margin:
                    page.add(Transform((Group(tuple(margin), -BACK_SPILL, -BACK_SPILL),), slot.back_matrix,
                                       clip=spill, role="back-bleed"))
                else:
                    page.add(Transform((Box(spill, fill=margin_fill),), slot.back_matrix, role="back-bleed"))
                painted.append(slot.back.inset(-BACK_SPILL))
            page.add(Transform(tuple(face), slot.front_matrix, clip=art, role=f"card:{label}" if label else "card"),
                     Transform(tuple(shown), slot.back_matrix, clip=art, role=f"back:{label}" if label else "back"))
            painted += [slot.front.inset(-b), slot.back.inset(-b)]
        trims = [s.front for s in slots] + [s.back for s in slots]
        page.add(*crop_marks(trims, _union(painted)))
        # the fold line and the hint where a full sheet's cards leave room, the same on every page
        page.add(Line(*plan.fold_line(full), FOLD_INK, FOLD_WIDTH, FOLD_DASH, role="fold"))
        if hint:
            page.add(*_hint(plan, full, hint))
        pages.append(page)
    return pages


def _hint(plan: Gutterfold, block: Rect, hint: str) -> list:
    """The fold-and-glue hint in the widest margin band beside the block (turned to run along a side band),
    kept clear of the crop marks and the printer's margin; nothing when no band has room."""
    marks = CROP_OFFSET + CROP_LENGTH + 0.5
    m = PRINTER_MARGIN
    bands = {
        "bottom": block.y - marks - m,
        "top": plan.page_h - block.top - marks - m,
        "left": block.x - marks - m,
        "right": plan.page_w - block.right - marks - m,
    }
    side = max(bands, key=lambda k: (bands[k] >= HINT_HEIGHT, k in ("bottom", "top"), bands[k]))
    if bands[side] < HINT_HEIGHT:
        return _gutter_hint(plan, hint)
    if side in ("bottom", "top"):
        y = m if side == "bottom" else plan.page_h - m - HINT_HEIGHT
        return [Text(Rect(block.x, y, block.w, HINT_HEIGHT), hint, HINT_STYLE, role="fold-hint")]
    # a side band: the text runs upwards along it, the band's width its height
    x = m + HINT_HEIGHT if side == "left" else plan.page_w - m
    return [Transform((Text(Rect(0.0, 0.0, block.h, HINT_HEIGHT), hint, HINT_STYLE, role="fold-hint"),),
                      (0.0, 1.0, -1.0, 0.0, x, block.y), role="fold-hint")]


def _gutter_hint(plan: Gutterfold, hint: str) -> list:
    """The hint along the fold on the fronts' side, between the fronts' art and the fold line, when the
    cards leave no margin band for it (nothing when the gutter has no room either)."""
    room = plan.gutter / 2 - plan.bleed - 0.5
    if room < HINT_HEIGHT:
        return []
    if plan.axis == "x":
        x = plan.fold - 0.5
        y0, y1 = min(s.front.y for s in plan.slots), max(s.front.top for s in plan.slots)
        return [Transform((Text(Rect(0.0, 0.0, y1 - y0, HINT_HEIGHT), hint, HINT_STYLE, role="fold-hint"),),
                          (0.0, 1.0, -1.0, 0.0, x, y0), role="fold-hint")]
    x0, x1 = min(s.front.x for s in plan.slots), max(s.front.right for s in plan.slots)
    return [Text(Rect(x0, plan.fold + 0.5, x1 - x0, HINT_HEIGHT), hint, HINT_STYLE, role="fold-hint")]
