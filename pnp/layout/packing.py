"""Packing rectangles of mixed sizes onto as few sheets as they fit (standees, cube nets, small boards).

Shelf packing, first fit by decreasing height: the tallest items go first, each into the first shelf
(of any sheet) with room across and height enough, else into a new shelf below the last one of the
first sheet with height to spare, else onto a new sheet. Shelves start at the top of ``area``; the
items of a shelf sit on its bottom line, left-aligned. Plain data in mm. :func:`free_pack` packs by
free rectangles instead (a short item under a tall one's short neighbour), items optionally turned a
quarter: shared sheets use it when shelves take a sheet more than the blocks need.

:func:`pack_pieces` and :func:`piece_sheet_pages` put flat pieces smaller than a sheet (player boards,
small maps) several to a sheet, each with its cut line and its name.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.layout.geometry import Box, Group, Page, Rect, Text, _union, extent

EPS = 1e-9


@dataclass(frozen=True)
class Packed:
    """Where an item went: its key, its sheet (0-based) and its rectangle on that sheet; ``turned`` when
    it lies a quarter turn anticlockwise (its rectangle then as wide as the item is tall)."""

    key: object
    sheet: int
    rect: Rect
    turned: bool = False


def shelf_pack(items, area: Rect, gap: float = 0.0) -> list[Packed]:
    """``items``: (key, width, height) in order; every item placed without rotation in ``area`` with at
    least ``gap`` mm between neighbours. Raises ValueError naming an item too large for the area."""
    sheets: list[list[list]] = []      # per sheet: shelves [top, height, used width]
    out = []
    order = sorted(range(len(items)), key=lambda i: -items[i][2])
    for i in order:
        key, w, h = items[i]
        if w > area.w + EPS or h > area.h + EPS:
            raise ValueError(f"{key}: a {w:g} x {h:g} mm piece does not fit the {area.w:g} x {area.h:g} mm "
                             f"printable area of the sheet")
        placed = None
        for s, shelves in enumerate(sheets):
            for shelf in shelves:
                top, height, used = shelf
                if h <= height + EPS and used + gap + w <= area.w + EPS:
                    x = area.x + used + gap
                    shelf[2] = used + gap + w
                    placed = (s, Rect(x, top - height, w, h))
                    break
            if placed:
                break
        if placed is None:
            for s, shelves in enumerate(sheets):
                bottom = shelves[-1][0] - shelves[-1][1]
                if bottom - gap - h >= area.y - EPS:
                    shelves.append([bottom - gap, h, w])
                    placed = (s, Rect(area.x, bottom - gap - h, w, h))
                    break
        if placed is None:
            sheets.append([[area.top, h, w]])
            placed = (len(sheets) - 1, Rect(area.x, area.top - h, w, h))
        out.append((i, Packed(key, *placed)))
    return [p for _, p in sorted(out, key=lambda t: t[0])]


def free_pack(items, area: Rect, gap: float = 0.0, order: str = "height", turn: bool = False,
              rule: str = "top-left") -> list[Packed]:
    """``items`` ((key, width, height), mm) packed by free rectangles ("maximal rectangles"): each sheet
    keeps every largest empty rectangle left in ``area``; the items go in ``order`` ("height", "area",
    "side": the longer side, "width"; largest first, stable), each into the first sheet with room for it,
    where ``rule`` puts it: "top-left" (as high, then as far left as it goes) or "snug" (the free
    rectangle it leaves the least room in, across its shorter side). With ``turn``, an item may lie a
    quarter turn round where that fits (or fits snugger) and the upright way does not. Items keep at least
    ``gap`` mm apart. Unlike shelves, a short item can sit under a short neighbour of a tall one, so mixed
    sizes fill more of a sheet. Raises ValueError naming an item too large for the area either way."""
    keys = {"height": lambda it: (-it[2], -it[1]), "area": lambda it: (-it[1] * it[2], -it[2]),
            "side": lambda it: (-max(it[1], it[2]), -min(it[1], it[2])), "width": lambda it: (-it[1], -it[2])}
    order_of = sorted(range(len(items)), key=lambda i: keys[order](items[i]))
    # y runs down from the area's top here; each item is grown by ``gap`` right and down, the area too
    full = (0.0, 0.0, area.w + gap, area.h + gap)
    sheets: list[list[tuple]] = []
    out = []
    for i in order_of:
        key, w, h = items[i]
        shapes = [(w, h, False)] + ([(h, w, True)] if turn and abs(w - h) > EPS else [])
        if not any(a <= area.w + EPS and b <= area.h + EPS for a, b, _ in shapes):
            raise ValueError(f"{key}: a {w:g} x {h:g} mm piece does not fit the {area.w:g} x {area.h:g} mm "
                             f"printable area of the sheet")
        placed = None
        for s, free in enumerate(sheets + [[full]]):
            best = None
            for fx, fy, fw, fh in free:
                for a, b, turned in shapes:
                    ga, gb = a + gap, b + gap
                    if ga > fw + EPS or gb > fh + EPS:
                        continue
                    score = (fy, fx, turned) if rule == "top-left" else (min(fw - ga, fh - gb), max(fw - ga, fh - gb), turned)
                    if best is None or score < best[0]:
                        best = (score, fx, fy, ga, gb, turned)
            if best is not None:
                placed = (s, best)
                break
        s, (_, x, y, ga, gb, turned) = placed
        if s == len(sheets):
            sheets.append([full])
        sheets[s] = _split(sheets[s], (x, y, ga, gb))
        a, b = ga - gap, gb - gap
        out.append((i, Packed(key, s, Rect(area.x + x, area.top - y - b, a, b), turned)))
    return [p for _, p in sorted(out, key=lambda t: t[0])]


def _split(free: list, used: tuple) -> list:
    """The largest empty rectangles of ``free`` once ``used`` is taken (all (x, y, w, h)), none inside
    another."""
    ux, uy, uw, uh = used
    out = []
    for fx, fy, fw, fh in free:
        if ux >= fx + fw - EPS or ux + uw <= fx + EPS or uy >= fy + fh - EPS or uy + uh <= fy + EPS:
            out.append((fx, fy, fw, fh))
            continue
        if ux > fx + EPS:
            out.append((fx, fy, ux - fx, fh))
        if ux + uw < fx + fw - EPS:
            out.append((ux + uw, fy, fx + fw - ux - uw, fh))
        if uy > fy + EPS:
            out.append((fx, fy, fw, uy - fy))
        if uy + uh < fy + fh - EPS:
            out.append((fx, uy + uh, fw, fy + fh - uy - uh))
    kept = []
    for i, r in enumerate(out):
        inside = any(j != i and r[0] >= o[0] - EPS and r[1] >= o[1] - EPS and r[0] + r[2] <= o[0] + o[2] + EPS
                     and r[1] + r[3] <= o[1] + o[3] + EPS and (o != r or j < i) for j, o in enumerate(out))
        if not inside:
            kept.append(r)
    return kept


# ---------------------------------------------------------------------------------------------- pieces

#: Sheets of small pieces (boards smaller than a sheet): how far from the sheet's edges, how far apart,
#: and the band above each piece for its name.
PIECE_MARGIN = 8.0
PIECE_GAP = 5.0
NAME_BAND = 6.0
CUT_INK = "#2b2b2b"
CUT_WIDTH = 0.25


@dataclass(frozen=True)
class PieceSheets:
    """Where small pieces go: the sheet as printed (landscape when wider), and each piece's rectangle on
    its sheet (in the pieces' order; the name band above it not included)."""

    page_w: float
    page_h: float
    placed: tuple             # Packed per piece: key = its index, rect = the piece itself

    @property
    def sheets(self) -> int:
        return max((p.sheet for p in self.placed), default=-1) + 1

    def per_sheet(self) -> list[int]:
        return [sum(1 for p in self.placed if p.sheet == s) for s in range(self.sheets)]


def pack_pieces(sizes, paper_w: float, paper_h: float, margin: float = PIECE_MARGIN, gap: float = PIECE_GAP,
                band: float = NAME_BAND) -> PieceSheets:
    """Pieces of ``sizes`` ((w, h) mm each) shelf-packed onto as few sheets as they fit, each with a name
    band ``band`` mm tall above it, ``gap`` mm apart and ``margin`` mm from the sheet's edges; the sheet
    portrait or landscape, whichever takes fewer sheets (portrait on a tie). ValueError when a piece fits
    neither way."""
    pw, ph = sorted((paper_w, paper_h))
    best = None
    for page_w, page_h in ((pw, ph), (ph, pw)):
        area = Rect(margin, margin, page_w - 2 * margin, page_h - 2 * margin)
        try:
            packed = shelf_pack([(i, w, h + band) for i, (w, h) in enumerate(sizes)], area, gap)
        except ValueError:
            continue
        placed = tuple(Packed(p.key, p.sheet, Rect(p.rect.x, p.rect.y, p.rect.w, p.rect.h - band)) for p in packed)
        found = PieceSheets(page_w, page_h, placed)
        if best is None or found.sheets < best.sheets:
            best = found
    if best is None:
        w, h = max(sizes, key=lambda s: s[0] * s[1])
        raise ValueError(f"a {w:g} x {h:g} mm piece does not fit a {pw:g} x {ph:g} mm sheet with its name")
    return best


def piece_sheet_pages(pieces, packing: PieceSheets, name_style, label: str = "Pieces") -> list:
    """The pages of ``packing``: ``pieces`` are (name markup, elements in the piece's frame) in the order
    packed; each piece clipped to its rectangle, its cut line drawn just outside it (cutting on the
    line's inner edge leaves no ink), its name in the band above."""
    pages = [Page(packing.page_w, packing.page_h, label=f"{label} {s + 1}") for s in range(packing.sheets)]
    half = CUT_WIDTH / 2
    for p in packing.placed:
        name, elements = pieces[p.key]
        r = p.rect
        page = pages[p.sheet]
        page.add(Group(tuple(elements), r.x, r.y, clip=Rect(0.0, 0.0, r.w, r.h), role=f"piece:{p.key}"))
        page.add(Box(r.inset(-half), stroke=CUT_INK, width=CUT_WIDTH, role="cut"))
        page.add(Text(Rect(r.x, r.top + 1.0, r.w, NAME_BAND - 1.5), name, name_style, role="piece-label"))
    return pages


# ---------------------------------------------------------------------------------------- shared sheets

#: Shared sheets: a page joins them when what it prints covers at most this share of the sheet's
#: printable area; the blocks sit this far apart and this far from the sheet's edges.
SHARE_AT_MOST = 0.5
SHARE_GAP = 4.0
SHARE_MARGIN = 6.0
#: Elements left out of a page's block: ruler guides that run from a trimmed edge to the margins (on a
#: shared sheet they stop at the block's edge, as crop marks).
GUIDE_ROLES = ("guide",)


def page_block(page: Page, skip: tuple = GUIDE_ROLES) -> Rect | None:
    """The rectangle a page prints into (every element's :func:`~pnp.layout.geometry.extent`, strokes
    included), guides ``skip`` left out; None for an empty page."""
    return _union(extent(e) for e in page.elements if getattr(e, "role", "") not in skip)


@dataclass(frozen=True)
class SharedSheets:
    """Where blocks of nearly empty pages go on shared sheets: the sheet as printed (landscape when that
    takes fewer), and each block's rectangle there (key = its index in the blocks given)."""

    page_w: float
    page_h: float
    placed: tuple             # Packed per block, in the blocks' order

    @property
    def sheets(self) -> int:
        return max((p.sheet for p in self.placed), default=-1) + 1

    def offset(self, i: int, block: Rect) -> tuple[float, float]:
        """How far block ``i`` (``block``: where it is on its own page) moves to its place (unturned)."""
        r = self.placed[i].rect
        return (r.x - block.x, r.y - block.y)

    def matrix(self, i: int, block: Rect) -> tuple:
        """The transform (a, b, c, d, e, f: x' = a x + c y + e, y' = b x + d y + f, mm) taking block ``i``
        (``block``: where it is on its own page) to its place: a move, or a quarter turn anticlockwise
        then a move when it lies turned (its left edge then along the place's bottom)."""
        r = self.placed[i].rect
        if not self.placed[i].turned:
            return (1.0, 0.0, 0.0, 1.0, r.x - block.x, r.y - block.y)
        # (x, y) -> (-y, x) turns the block's bottom-left corner to (-block.y, block.x) with its top edge
        # at x = -block.top: moved so that edge sits on the place's left side and its left on its bottom
        return (0.0, 1.0, -1.0, 0.0, r.x + block.top, r.y - block.x)


def small_enough(block: Rect, paper_w: float, paper_h: float, margin: float = SHARE_MARGIN,
                 share: float = SHARE_AT_MOST) -> bool:
    """Whether a page whose print is ``block`` is nearly empty: the block covers at most ``share`` of
    the sheet's printable area and fits the sheet (either way up)."""
    pw, ph = sorted((paper_w, paper_h))
    w, h = pw - 2 * margin, ph - 2 * margin
    fits = (block.w <= w + EPS and block.h <= h + EPS) or (block.w <= h + EPS and block.h <= w + EPS)
    return fits and block.w * block.h <= share * w * h + EPS


def share_pack(blocks, paper_w: float, paper_h: float, margin: float = SHARE_MARGIN,
               gap: float = SHARE_GAP, turn: bool = True) -> SharedSheets:
    """``blocks`` (Rects: what each page prints, where it prints it) packed onto as few sheets of the
    paper as hold them, ``gap`` mm apart and ``margin`` mm from the edges; portrait or landscape,
    whichever takes fewer sheets (portrait on a tie). ValueError when a block fits neither.

    Shelves of unturned blocks, tallest first, come first. When they take more sheets than the blocks'
    area needs, free-rectangle packings (:func:`free_pack`) are tried, blocks upright, then (with
    ``turn``) some a quarter turn round: the first that takes fewer sheets than the shelves, with the
    fewest blocks turned, is used; otherwise the shelves stay, the same sheets as before these were tried.
    A block turns whole, its marks and labels with it, so each piece keeps them where they were on it."""
    pw, ph = sorted((paper_w, paper_h))
    best = None
    for page_w, page_h in ((pw, ph), (ph, pw)):
        area = Rect(margin, margin, page_w - 2 * margin, page_h - 2 * margin)
        try:
            packed = shelf_pack([(i, b.w, b.h) for i, b in enumerate(blocks)], area, gap)
        except ValueError:
            continue
        found = SharedSheets(page_w, page_h, tuple(packed))
        if best is None or found.sheets < best.sheets:
            best = found
    if best is None and not turn:
        raise ValueError(f"a block does not fit a {pw:g} x {ph:g} mm sheet")
    room = (pw - 2 * margin) * (ph - 2 * margin)
    least = max(1, -int(-sum(b.w * b.h for b in blocks) // room))
    if best is not None and best.sheets <= least:
        return best
    tried = None
    for turned in ((False, True) if turn else (False,)):
        for page_w, page_h in ((pw, ph), (ph, pw)):
            area = Rect(margin, margin, page_w - 2 * margin, page_h - 2 * margin)
            for rule in ("top-left", "snug"):
                for order in ("height", "area", "side", "width"):
                    try:
                        packed = free_pack([(i, b.w, b.h) for i, b in enumerate(blocks)], area, gap, order,
                                           turned, rule)
                    except ValueError:
                        continue
                    found = SharedSheets(page_w, page_h, tuple(packed))
                    rank = (found.sheets, sum(p.turned for p in packed))
                    if tried is None or rank < tried[0]:
                        tried = (rank, found)
    if tried is not None and (best is None or tried[1].sheets < best.sheets):
        return tried[1]
    if best is None:
        raise ValueError(f"a block does not fit a {pw:g} x {ph:g} mm sheet")
    return best
