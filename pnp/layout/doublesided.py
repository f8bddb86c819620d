"""Double-sided pieces (a campaign map, a reference board, a large tile): the back printed exactly
behind the front, either on the other side of the sheet (duplex) or beside the front to fold (fold).

A piece is ``piece_w`` x ``piece_h`` mm; its front and back art are elements in the piece's frame
(0..w, 0..h, y up), each drawn as seen when looking at that side. Which way the finished piece is turned
over decides what lies behind what:

* ``turn="side"`` (default): turned over like a book page (about its vertical axis): the back's point
  (u, v) lies behind the front's point (w - u, v).
* ``turn="top"``: turned over like a wall calendar (about its horizontal axis): behind (u, h - v).

How the back reaches the other side of the paper:

* :func:`duplex`: on the next page, for a duplex printer. ``flip="long"`` or ``"short"`` names the
  edge the printer turns the sheet over on (as ``pnp build --flip``). On a portrait page a long-edge
  flip mirrors the page left to right and a short-edge flip top to bottom, as
  :func:`pnp.layout.sheet.mirror` does for card backs; on a landscape page (a piece that only fits
  that way), the long edge is the horizontal one, so the roles swap. ``back_offset`` (dx, dy) moves the
  back as ``--back-offset`` does, to cancel a printer's drift.
* :func:`fold`: on the same page, mirrored across a fold line between the two (side by side with a
  vertical fold, or one above the other with a horizontal one, whichever fits, portrait first). Cut
  out the outline, fold on the dashed line, glue. With ``gutter`` > 0 the halves stand apart (cut
  each after gluing, as the token sheets do).

In both cases the back's placement is one matrix: the sheet's reflection (about its centre line, or
the fold line) after the front's placement after the turn. :func:`behind` applies it; the tests check
that every back point lands behind its front point. Plain data in mm.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.layout.geometry import Box, Line, Page, Rect, Transform, apply, compose
from pnp.units import PAPERS, PRINTER_MARGIN

CUT_INK = "#2b2b2b"
FOLD_INK = "#8a8a8a"
LINE_WIDTH = 0.25
FOLD_DASH = (2.0, 1.5)
DEFAULT_BLEED = 1.0
DEFAULT_BACK_BLEED = 2.0       # backs run further past the edge: home duplex drifts 1-4 mm


@dataclass(frozen=True)
class DoubleSided:
    """Where a double-sided piece's front and back are printed (duplex or fold), and the matrices that place
    each side's art on the page."""

    mode: str                  # duplex | fold
    page_w: float
    page_h: float
    piece_w: float
    piece_h: float
    turn: str                  # side | top
    front: Rect                # on the (front) page
    back: Rect                 # on the back page (duplex) or the same page (fold)
    front_matrix: tuple        # piece frame -> page, front art
    back_matrix: tuple         # piece frame -> page, back art
    reflection: tuple          # the page's mirror that takes a back point to the front point it is behind
    flip: str = ""             # duplex: long | short
    fold: tuple | None = None  # fold: the fold line (x1, y1, x2, y2)
    offset: tuple = (0.0, 0.0)  # duplex: the back offset applied
    gutter: float = 0.0        # fold: the space between the halves (0: one piece, folded on its edge)


def turn_matrix(turn: str, w: float, h: float) -> tuple:
    """Back frame -> front frame of the piece: which front point a back point lies behind."""
    if turn == "side":
        return (-1.0, 0.0, 0.0, 1.0, w, 0.0)
    if turn == "top":
        return (1.0, 0.0, 0.0, -1.0, 0.0, h)
    raise ValueError(f"turn must be 'side' or 'top', not {turn!r}")


def flip_axis(flip: str, page_w: float, page_h: float) -> str:
    """'x' when turning the sheet over on that edge mirrors it left to right, 'y' for top to bottom."""
    if flip not in ("long", "short"):
        raise ValueError(f"flip must be 'long' or 'short', not {flip!r}")
    portrait = page_h >= page_w
    return "x" if (flip == "long") == portrait else "y"


def _reflection(axis: str, at: float) -> tuple:
    """Mirror across the line x = at (axis 'x') or y = at (axis 'y')."""
    return (-1.0, 0.0, 0.0, 1.0, 2 * at, 0.0) if axis == "x" else (1.0, 0.0, 0.0, -1.0, 0.0, 2 * at)


def _paper(paper):
    return PAPERS[paper] if isinstance(paper, str) else paper


def behind(ds: DoubleSided, x: float, y: float) -> tuple[float, float]:
    """The front page point that a back point (x, y) (on the back page, or the folded half) lies behind."""
    return apply(ds.reflection, x, y)


def duplex(piece_w: float, piece_h: float, paper="letter", flip: str = "long", turn: str = "side",
           back_offset=(0.0, 0.0), margin: float = PRINTER_MARGIN) -> DoubleSided:
    """Front centred on a page, back on the next page behind it (portrait if it fits, else landscape)."""
    pw, ph = sorted(_paper(paper))
    for page_w, page_h in ((pw, ph), (ph, pw)):
        if piece_w <= page_w - 2 * margin + 1e-9 and piece_h <= page_h - 2 * margin + 1e-9:
            break
    else:
        raise ValueError(f"a {piece_w:g} x {piece_h:g} mm piece does not fit a {pw:g} x {ph:g} mm sheet inside "
                         f"{margin:g} mm margins either way round: tile it (front only) or make it smaller")
    front = Rect((page_w - piece_w) / 2, (page_h - piece_h) / 2, piece_w, piece_h)
    axis = flip_axis(flip, page_w, page_h)
    reflection = _reflection(axis, page_w / 2 if axis == "x" else page_h / 2)
    front_matrix = (1.0, 0.0, 0.0, 1.0, front.x, front.y)
    dx, dy = back_offset
    back_matrix = compose(reflection, compose(front_matrix, turn_matrix(turn, piece_w, piece_h)))
    back_matrix = back_matrix[:4] + (back_matrix[4] + dx, back_matrix[5] + dy)
    back = _image(back_matrix, piece_w, piece_h)
    return DoubleSided("duplex", page_w, page_h, piece_w, piece_h, turn, front, back, front_matrix, back_matrix,
                       reflection, flip=flip, offset=(dx, dy))


def fold(piece_w: float, piece_h: float, paper="letter", turn: str = "side", gutter: float = 0.0,
         margin: float = PRINTER_MARGIN) -> DoubleSided:
    """Front and back on one page, mirrored across a fold line: side by side (vertical fold) or stacked
    (horizontal fold), on a portrait page if either fits, else landscape."""
    pw, ph = sorted(_paper(paper))
    for page_w, page_h in ((pw, ph), (ph, pw)):
        uw, uh = page_w - 2 * margin, page_h - 2 * margin
        if 2 * piece_w + gutter <= uw + 1e-9 and piece_h <= uh + 1e-9:
            axis = "x"
            break
        if piece_w <= uw + 1e-9 and 2 * piece_h + gutter <= uh + 1e-9:
            axis = "y"
            break
    else:
        raise ValueError(f"a {piece_w:g} x {piece_h:g} mm piece and its back do not fit side by side on a "
                         f"{pw:g} x {ph:g} mm sheet: print it duplex")
    if axis == "x":
        at = page_w / 2
        front = Rect(at - gutter / 2 - piece_w, (page_h - piece_h) / 2, piece_w, piece_h)
        line = (at, front.y, at, front.top)
    else:
        at = page_h / 2
        front = Rect((page_w - piece_w) / 2, at + gutter / 2, piece_w, piece_h)
        line = (front.x, at, front.right, at)
    reflection = _reflection(axis, at)
    front_matrix = (1.0, 0.0, 0.0, 1.0, front.x, front.y)
    back_matrix = compose(reflection, compose(front_matrix, turn_matrix(turn, piece_w, piece_h)))
    back = _image(back_matrix, piece_w, piece_h)
    return DoubleSided("fold", page_w, page_h, piece_w, piece_h, turn, front, back, front_matrix, back_matrix,
                       reflection, fold=line, gutter=gutter)


def _image(matrix: tuple, w: float, h: float) -> Rect:
    pts = [apply(matrix, x, y) for x, y in ((0, 0), (w, 0), (0, h), (w, h))]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def _grown(w: float, h: float, bleed: float, except_side: str | None = None) -> Rect:
    """The piece frame grown by ``bleed`` on every side but ``except_side`` (n, s, e, w)."""
    left = 0.0 if except_side == "w" else bleed
    right = 0.0 if except_side == "e" else bleed
    low = 0.0 if except_side == "s" else bleed
    high = 0.0 if except_side == "n" else bleed
    return Rect(-left, -low, w + left + right, h + low + high)


def _fold_side(ds: DoubleSided, matrix: tuple) -> str | None:
    """Which side of the piece frame lies on the fold line of a one-piece fold (no bleed over it)."""
    if not _one_piece(ds):
        return None
    x1, y1, x2, y2 = ds.fold
    w, h = ds.piece_w, ds.piece_h
    for side, (u, v) in {"w": (0, h / 2), "e": (w, h / 2), "s": (w / 2, 0), "n": (w / 2, h)}.items():
        x, y = apply(matrix, u, v)
        if (x1 == x2 and abs(x - x1) < 1e-6) or (y1 == y2 and abs(y - y1) < 1e-6):
            return side
    return None


def _one_piece(ds: DoubleSided) -> bool:
    return ds.mode == "fold" and ds.gutter <= 1e-9


def double_sided_pages(ds: DoubleSided, front_art, back_art, label: str = "Piece",
                       bleed: float = DEFAULT_BLEED, back_bleed: float = DEFAULT_BACK_BLEED) -> list[Page]:
    """Duplex: [front page, back page]; fold: [one page] with the fold line dashed. Art runs ``bleed``
    (front) and ``back_bleed`` (back) mm past the cut edges; the front's outline is the cut line."""
    fclip = _grown(ds.piece_w, ds.piece_h, bleed, _fold_side(ds, ds.front_matrix))
    bclip = _grown(ds.piece_w, ds.piece_h, back_bleed, _fold_side(ds, ds.back_matrix))
    front = Transform(tuple(front_art), ds.front_matrix, clip=fclip, role="front")
    back = Transform(tuple(back_art), ds.back_matrix, clip=bclip, role="back")
    if ds.mode == "duplex":
        p1 = Page(ds.page_w, ds.page_h, [front, _outline(ds.front)], label=f"{label} front")
        p2 = Page(ds.page_w, ds.page_h, [back], label=f"{label} back")
        return [p1, p2]
    page = Page(ds.page_w, ds.page_h, [front, back], label=label)
    if _one_piece(ds):                     # one piece: cut round both halves, fold between them
        x1, y1, x2, y2 = ds.fold
        both = Rect(min(ds.front.x, ds.back.x), min(ds.front.y, ds.back.y),
                    max(ds.front.right, ds.back.right) - min(ds.front.x, ds.back.x),
                    max(ds.front.top, ds.back.top) - min(ds.front.y, ds.back.y))
        page.add(_outline(both), Line(x1, y1, x2, y2, FOLD_INK, LINE_WIDTH, FOLD_DASH, role="fold"))
    else:                                  # fold the sheet, glue, then cut each piece out
        x1, y1, x2, y2 = ds.fold
        if x1 == x2:
            y1, y2 = PRINTER_MARGIN, ds.page_h - PRINTER_MARGIN
        else:
            x1, x2 = PRINTER_MARGIN, ds.page_w - PRINTER_MARGIN
        page.add(_outline(ds.front), _outline(ds.back),
                 Line(x1, y1, x2, y2, FOLD_INK, LINE_WIDTH, FOLD_DASH, role="fold"))
    return [page]


def _outline(r: Rect) -> Box:
    return Box(r, stroke=CUT_INK, width=LINE_WIDTH, role="cut")
