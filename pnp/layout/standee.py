"""Fold-over standees: a figure printed front and back on one strip, folded and glued back to back,
standing on fold-out feet or in a slotted base.

Sizes come from data: the figure's art ``width`` x ``height`` and the base's ``base_depth`` (mm).

* ``fold="top"`` (default): the strip is, from the bottom, front foot | front art | back art | back
  foot. The head is a fold, so the halves cannot slip apart at the top. The back art is printed turned
  half round, so it reads upright from behind.
* ``fold="side"``: front art | back art side by side, folded along the figure's vertical edge; the back
  art is printed as it is seen (the fold's mirroring and the walk round the figure cancel out). The feet
  are cut apart below the fold. Use it for figures too tall for the top fold on a sheet.

Either way the back art area is the mirror image of the front's across the fold line, so once folded
they coincide exactly (:func:`fold_point` is that mirror; tests fold the corners). Base:

* ``base="tabs"``: each half ends in a foot ``base_depth`` deep; after gluing the halves together the
  feet fold out in opposite directions, an inverted T.
* ``base="slot"``: the halves end in a plain tab ``slot_depth`` deep (glued together: two layers), which
  pushes into the slit of a separate base piece, ``2 * base_depth`` deep and 10 mm wider than the
  figure, with a slit ``slot_width`` wide (about two layers of card).

Lines: cut solid, fold dashed (as the box nets); every cut line lies on a light band, to show on dark art. Everything here is pure geometry in mm.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.layout.geometry import Box, Group, Line, Page, Rect, Transform, apply
from pnp.layout.packing import shelf_pack
from pnp.units import PRINTER_MARGIN

CUT_INK = "#2b2b2b"
FOLD_INK = "#8a8a8a"
LINE_WIDTH = 0.25
#: Under every cut line a light band this wide (mm), so the line shows on dark art as on the light feet
#: (the art runs past the cut into the bleed: a dark line alone vanishes on a dark figure).
CUT_HALO = "#ffffff"
HALO_WIDTH = 0.75
FOLD_DASH = (2.0, 1.5)
FOOT_FILL = "#d8d2c4"
BASE_MARGIN = 5.0          # the slotted base reaches this far past the figure on each side
SHEET_MARGIN = PRINTER_MARGIN + 2.0
PIECE_GAP = 4.0


@dataclass(frozen=True)
class StandeeSpec:
    """A standee's sizes and build, from data: the figure's art (mm), the fold, and the base and its sizes."""

    width: float                   # the figure's art, mm
    height: float
    base_depth: float = 15.0       # a foot's depth (tabs), or half the base piece's depth (slot)
    fold: str = "top"              # top | side
    base: str = "tabs"             # tabs | slot
    slot_depth: float = 8.0        # slot base: the tab below the figure
    slot_width: float = 1.0        # slot base: the slit's width
    bleed: float = 1.0             # art printed past its cut edges

    def __post_init__(self):
        if self.fold not in ("top", "side"):
            raise ValueError(f"standee fold must be 'top' or 'side', not {self.fold!r}")
        if self.base not in ("tabs", "slot"):
            raise ValueError(f"standee base must be 'tabs' or 'slot', not {self.base!r}")
        for name in ("width", "height", "base_depth", "slot_depth", "slot_width"):
            if not getattr(self, name) > 0:
                raise ValueError(f"standee {name} must be positive, not {getattr(self, name)!r}")


@dataclass(frozen=True)
class StandeeLayout:
    """A standee's flat strip in its own frame (origin bottom-left of its bounding box)."""

    spec: StandeeSpec
    size: tuple                    # (w, h) of the strip
    front: Rect                    # front art area
    back: Rect                     # back art area (the mirror image of ``front`` across the fold)
    front_matrix: tuple            # art frame (0..width, 0..height) -> strip frame, front
    back_matrix: tuple             # the same for the back (turned half round for a top fold)
    fold: tuple                    # the fold line (x1, y1, x2, y2) the halves are folded on
    folds: tuple                   # every fold line, the main one first
    cuts: tuple                    # every cut line
    feet: tuple                    # foot (or slot tab) rectangles: front one first
    base_piece: Rect | None = None  # slot base: the separate piece, in its own frame
    slit: Rect | None = None        # slot base: the slit in the base piece's frame


def fold_point(layout: StandeeLayout, x: float, y: float) -> tuple[float, float]:
    """Where the point (x, y) of the strip lands when the strip is folded on its main fold line: its
    mirror image across that line (the other layer, directly behind)."""
    x1, y1, x2, y2 = layout.fold
    if x1 == x2:
        return 2 * x1 - x, y
    return x, 2 * y1 - y


def standee_layout(spec: StandeeSpec) -> StandeeLayout:
    W, H = spec.width, spec.height
    D = spec.base_depth if spec.base == "tabs" else spec.slot_depth
    cut = []
    if spec.fold == "top":
        front, back = Rect(0, D, W, H), Rect(0, D + H, W, H)
        fold = (0.0, D + H, W, D + H)
        folds = (fold, (0.0, D, W, D), (0.0, D + 2 * H, W, D + 2 * H))
        feet = (Rect(0, 0, W, D), Rect(0, D + 2 * H, W, D))
        size = (W, 2 * D + 2 * H)
        back_matrix = (-1.0, 0.0, 0.0, -1.0, W, D + 2 * H)           # (u, v) -> (W - u, D + 2H - v)
        cut = [(0.0, 0.0, W, 0.0), (0.0, size[1], W, size[1]), (0.0, 0.0, 0.0, size[1]), (W, 0.0, W, size[1])]
    else:
        front, back = Rect(0, D, W, H), Rect(W, D, W, H)
        fold = (W, D, W, D + H)
        folds = (fold, (0.0, D, W, D), (W, D, 2 * W, D))
        feet = (Rect(0, 0, W, D), Rect(W, 0, W, D))
        size = (2 * W, D + H)
        back_matrix = (1.0, 0.0, 0.0, 1.0, W, D)                      # (u, v) -> (W + u, D + v)
        cut = [(0.0, 0.0, 2 * W, 0.0), (0.0, size[1], 2 * W, size[1]), (0.0, 0.0, 0.0, size[1]),
               (2 * W, 0.0, 2 * W, size[1]), (W, 0.0, W, D)]          # the feet are cut apart
    base_piece = slit = None
    if spec.base == "slot":
        base_piece = Rect(0, 0, W + 2 * BASE_MARGIN, 2 * spec.base_depth)
        slit = Rect(BASE_MARGIN - 0.25, spec.base_depth - spec.slot_width / 2, W + 0.5, spec.slot_width)
    return StandeeLayout(spec, size, front, back, (1.0, 0.0, 0.0, 1.0, 0.0, D), back_matrix, fold, folds,
                         tuple(cut), feet, base_piece, slit)


def _art_clip(layout: StandeeLayout, rect: Rect, matrix: tuple) -> Rect:
    """The art's clip in its own frame: its area, grown by the bleed on its cut edges (not on folds)."""
    s, b = layout.spec, layout.spec.bleed
    # which strip edges of ``rect`` are cut: the outer edges of the strip
    w, h = layout.size
    grow = {"w": rect.x <= 1e-9, "e": rect.right >= w - 1e-9}
    if s.fold == "side":                       # the art's top edge is a cut edge too
        grow["n"] = True
    # express the strip-frame growth in the art frame (a half turn swaps the sides)
    turned = matrix[0] < 0
    left = b if grow["e" if turned else "w"] else 0.0
    right = b if grow["w" if turned else "e"] else 0.0
    top = b if grow.get("n") else 0.0
    return Rect(-left, 0.0, s.width + left + right, s.height + top)


def standee_elements(layout: StandeeLayout, front_art, back_art, foot_fill: str = FOOT_FILL,
                     role: str = "standee") -> list:
    """The strip's elements in its own frame: ``front_art`` and ``back_art`` are elements in the art
    frame (0..width, 0..height, y up, as seen by someone looking at that side of the standing figure)."""
    els = []
    for foot in layout.feet:
        els.append(Box(foot, fill=foot_fill, role="foot"))
    els.append(Transform(tuple(front_art), layout.front_matrix, clip=_art_clip(layout, layout.front,
                                                                                layout.front_matrix),
                         role=f"{role}:front"))
    els.append(Transform(tuple(back_art), layout.back_matrix, clip=_art_clip(layout, layout.back, layout.back_matrix),
                         role=f"{role}:back"))
    for x1, y1, x2, y2 in layout.folds:
        els.append(Line(x1, y1, x2, y2, FOLD_INK, LINE_WIDTH, FOLD_DASH, role="fold"))
    for x1, y1, x2, y2 in layout.cuts:
        els.append(Line(x1, y1, x2, y2, CUT_HALO, HALO_WIDTH, role="cut-halo"))
    for x1, y1, x2, y2 in layout.cuts:
        els.append(Line(x1, y1, x2, y2, CUT_INK, LINE_WIDTH, role="cut"))
    return els


def base_elements(layout: StandeeLayout, fill: str = FOOT_FILL) -> list:
    """The slotted base piece (its own frame): a card with the slit cut through it."""
    if layout.base_piece is None:
        return []
    return [Box(layout.base_piece, fill=fill, stroke=CUT_INK, width=LINE_WIDTH, role="base"),
            Box(layout.slit, fill="#ffffff", stroke=CUT_INK, width=LINE_WIDTH, role="slit")]


@dataclass(frozen=True)
class PlacedStandee:
    """Where a standee went: its sheet (0-based), and its strip's and base piece's rectangles on that sheet."""

    key: object
    sheet: int
    strip: Rect                    # where the strip lies on its sheet
    base: Rect | None = None       # where its base piece lies (slot bases), on the same sheet


def standee_sheets(standees, page_w: float, page_h: float, gap: float = PIECE_GAP) -> list[PlacedStandee]:
    """Pack ``standees`` ((key, StandeeLayout) pairs) onto as few sheets as they fit, inside the
    printer margin plus 2 mm (strips and their bases kept together on one sheet)."""
    area = Rect(SHEET_MARGIN, SHEET_MARGIN, page_w - 2 * SHEET_MARGIN, page_h - 2 * SHEET_MARGIN)
    items = []
    for key, lay in standees:
        w, h = lay.size
        if lay.base_piece is not None:          # the base sits under its strip
            w = max(w, lay.base_piece.w)
            h = h + gap + lay.base_piece.h
        if w > area.w + 1e-9 or h > area.h + 1e-9:
            sp = lay.spec
            hint = (f" (fold: side lays the halves side by side: {2 * sp.width:g} x "
                    f"{(sp.base_depth if sp.base == 'tabs' else sp.slot_depth) + sp.height:g} mm)"
                    if sp.fold == "top" else "")
            raise ValueError(f"standee {key!r}: {w:g} x {h:g} mm does not fit the {area.w:g} x {area.h:g} mm "
                             f"printable area of the sheet{hint}")
        items.append((key, w, h))
    placed = []
    for (key, lay), p in zip(standees, shelf_pack(items, area, gap)):
        strip = Rect(p.rect.x, p.rect.top - lay.size[1], *lay.size)
        base = None if lay.base_piece is None else Rect(p.rect.x, p.rect.y, lay.base_piece.w, lay.base_piece.h)
        placed.append(PlacedStandee(key, p.sheet, strip, base))
    return placed


def standee_pages(standees, arts: dict, page_w: float, page_h: float, label: str = "Standees") -> list[Page]:
    """Pages of standees: ``standees`` as for :func:`standee_sheets`; ``arts``: key -> (front elements,
    back elements), each in the art frame."""
    layouts = dict(standees)
    placed = standee_sheets(standees, page_w, page_h)
    pages = [Page(page_w, page_h, label=f"{label} {s + 1}") for s in range(max((p.sheet for p in placed), default=-1) + 1)]
    for p in placed:
        lay = layouts[p.key]
        front, back = arts[p.key]
        pages[p.sheet].add(Group(tuple(standee_elements(lay, front, back, role=f"standee:{p.key}")),
                                 p.strip.x, p.strip.y, role=f"strip:{p.key}"))
        if p.base is not None:
            pages[p.sheet].add(Group(tuple(base_elements(lay)), p.base.x, p.base.y, role=f"base:{p.key}"))
    return pages


def art_point(layout: StandeeLayout, side: str, u: float, v: float) -> tuple[float, float]:
    """Where the art point (u, v) of ``side`` ("front" or "back") is printed on the strip."""
    return apply(layout.front_matrix if side == "front" else layout.back_matrix, u, v)
