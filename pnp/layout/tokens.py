"""Double-sided token sheets made by folding: fronts on the top half, backs mirrored on the bottom half.

Tokens are packed onto as few sheets as possible (largest first, in shelves centred across the half
sheet). Each back sits at the mirror image of its front across the fold line, so once the sheet is
folded along that line and glued (or cut on the line and each half glued to card), every back lies
exactly behind its front. Cut lines are pink, the fold line grey.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from pnp.layout.colour import contrast
from pnp.layout.geometry import Box, Circle, Group, Icon, Line, Page, Picture, Polygon, Rect, Style, Text
from pnp.units import PRINTER_MARGIN

CUT_PINK = "#e4007c"
FOLD_GREY = "#8c8c8c"
CAPTION_STYLE = Style(font="sans-black", size=6.5, min_size=4.0, max_lines=1, upper=True, colour="#ffffff",
                      tracking=0.4)
NOTE_STYLE = Style(font="sans", size=6.5, min_size=5.0, max_lines=1, colour="#6b6b6b")


@dataclass(frozen=True)
class Placement:
    """One copy of a token on a sheet: its front and, mirrored across the fold, its back."""

    token: str            # token id
    copy: int             # 1-based copy number
    shape: str
    front: Rect
    back: Rect


@dataclass(frozen=True)
class TokenPlan:
    """Token sheets: the page size, the fold line's height, the area fronts go in, and each sheet's tokens."""

    page_w: float
    page_h: float
    fold_y: float
    area: Rect            # where fronts may go (top half, inside margins and fold gutter)
    sheets: tuple         # tuple of tuples of Placement


def front_area(page_w: float, page_h: float, fold_gutter: float, margin: float = PRINTER_MARGIN) -> Rect:
    fold = page_h / 2
    return Rect(margin, fold + fold_gutter, page_w - 2 * margin, page_h - margin - fold - fold_gutter)


def mirror_across_fold(rect: Rect, fold_y: float) -> Rect:
    return Rect(rect.x, 2 * fold_y - rect.y - rect.h, rect.w, rect.h)


def pack(items, area: Rect, gap: float) -> list[list[tuple]]:
    """First-fit-decreasing shelf packing. ``items``: (key, size) or (key, size, width); returns sheets of
    (key, Rect), each Rect the token's ``size`` square.

    Items go largest first (stable) into the first shelf, on any sheet, with room left for them;
    otherwise into a new shelf on the first sheet with height to spare, otherwise onto a new sheet.
    A shelf is as tall as its first (largest) item; its contents are centred across the half sheet.
    An item's ``width`` (its size when not given) is what it takes across a shelf: a pointy-top
    hexagon is narrower (across its flats) than its square, which then reaches past its neighbours' into
    the gap beside their corners, where neither prints.
    """
    sheets = []          # each: {"bottom": y below the last shelf, "shelves": [[top, height, width, items]]}
    for key, size, width in sorted(((it[0], it[1], it[2] if len(it) > 2 else it[1]) for it in items),
                                   key=lambda it: -it[1]):
        if width > area.w + 1e-9 or size > area.h + 1e-9:
            raise ValueError(f"a {size:g} mm token does not fit the {area.w:.1f} x {area.h:.1f} mm half sheet")
        placed = False
        for sheet in sheets:
            for shelf in sheet["shelves"]:
                if size <= shelf[1] + 1e-9 and shelf[2] + gap + width <= area.w + 1e-9:
                    shelf[2] += gap + width
                    shelf[3].append((key, size, width))
                    placed = True
                    break
            if placed:
                break
        if placed:
            continue
        for sheet in sheets:
            top = sheet["bottom"] - (gap if sheet["shelves"] else 0)
            if top - size >= area.y - 1e-9:
                sheet["shelves"].append([top, size, width, [(key, size, width)]])
                sheet["bottom"] = top - size
                break
        else:
            sheets.append({"bottom": area.top - size, "shelves": [[area.top, size, width, [(key, size, width)]]]})
    result = []
    for sheet in sheets:
        placed = []
        for top, height, width, row in sheet["shelves"]:
            x = area.x + (area.w - width) / 2
            for key, size, across in row:
                placed.append((key, Rect(x - (size - across) / 2, top - height + (height - size) / 2, size, size)))
                x += across + gap
        result.append(placed)
    return result


def across(token) -> float:
    """How wide a token prints across a shelf: a pointy-top hexagon its size (across the flats), any other
    shape its whole square."""
    return token.size if token.shape == "hexagon" else getattr(token, "extent", token.size)


def plan(tokens, page_w: float, page_h: float, gap: float, fold_gutter: float) -> TokenPlan:
    """Where every copy of every token goes, front and back, sheet by sheet.

    Tokens are packed by their squares; when packing hexagons by their width across the flats (closer
    together in a shelf) takes fewer sheets, that packing is used: a last sheet holding two coins is a
    sheet of paper, folded and glued, for nothing. Otherwise the squares' packing stays (the same sheets,
    byte for byte, as before the tighter packing was tried)."""
    area = front_area(page_w, page_h, fold_gutter)
    fold = page_h / 2
    shapes = {t.id: t.shape for t in tokens}
    items = [((t.id, k + 1), getattr(t, "extent", t.size)) for t in tokens for k in range(t.count)]
    packed = pack(items, area, gap)
    if len(packed) > 1 and any(t.shape == "hexagon" for t in tokens):
        tight = pack([((t.id, k + 1), getattr(t, "extent", t.size), across(t)) for t in tokens
                      for k in range(t.count)], area, gap)
        if len(tight) < len(packed):
            packed = tight
    sheets = []
    for sheet in packed:
        sheets.append(tuple(Placement(tid, copy, shapes[tid], rect, mirror_across_fold(rect, fold))
                            for (tid, copy), rect in sheet))
    return TokenPlan(page_w, page_h, fold, area, tuple(sheets))


#: Corner radius of a ``rounded`` token, as a fraction of its side.
ROUNDED = 0.18


def hexagon_points(cx: float, cy: float, across_flats: float) -> tuple:
    """A pointy-top hexagon's corners (counterclockwise from the top), ``across_flats`` wide."""
    r = across_flats / 3 ** 0.5
    return tuple((cx + r * math.cos(math.radians(90 + 60 * k)), cy + r * math.sin(math.radians(90 + 60 * k)))
                 for k in range(6))


def shape_element(shape: str, rect: Rect, grow: float = 0.0, role: str = "", outline=None, **paint):
    """The element of a token shape filling ``rect`` (its square on the sheet), grown by ``grow`` mm all
    round (the bleed); ``paint`` gives fill or stroke."""
    s = rect.w
    if shape == "circle":
        return Circle(rect.cx, rect.cy, s / 2 + grow, role=role, **paint)
    if shape == "hexagon":
        return Polygon(hexagon_points(rect.cx, rect.cy, rect.w * 3 ** 0.5 / 2 + 2 * grow), role=role, **paint)
    if shape == "rounded":
        return Box(rect.inset(-grow), radius=s * ROUNDED + grow, role=role, **paint)
    if shape == "outline" and outline is not None:
        return Picture(str(outline), rect.inset(-grow), "contain", colour=paint.get("fill") or paint.get("stroke"),
                       outline=paint.get("fill") is None, role=role)
    return Box(rect.inset(-grow), role=role, **paint)


def caption_style(background: str | None):
    """The caption's style on ``background``: white, or the dark ink where white would not stand out."""
    if background and background.startswith("#") and \
            contrast("#ffffff", background) < contrast(DARK_CAPTION, background):
        return replace(CAPTION_STYLE, colour=DARK_CAPTION)
    return CAPTION_STYLE


#: A caption on a light token is printed in this ink.
DARK_CAPTION = "#1f1a17"
#: How far a caption's ink keeps inside the token's cut line (mm): the check asks for 1 mm.
CAPTION_MARGIN = 1.2
#: Where a caption sits: its box's middle, below the token's centre (fraction of the size), and height.
CAPTION_DROP = 0.24
CAPTION_HEIGHT = 0.16
#: Below its box's middle a caption's ink reaches about this far (mm: half a 6.5 pt capital and a little).
CAPTION_INK = 0.9


def half_width(shape: str, size: float, dy: float) -> float:
    """Half the token's width (mm) at ``dy`` mm above or below its centre: how wide a line of text may be
    there (a circle's half chord, a pointy-top hexagon's slanted sides, a rounded square's corners)."""
    dy = abs(dy)
    if shape == "circle":
        return math.sqrt(max(0.0, (size / 2) ** 2 - dy ** 2))
    if shape == "hexagon":
        r = size / 3 ** 0.5                      # circumradius; across the flats is ``size``
        return size / 2 if dy <= r / 2 else max(0.0, size / 2 * (r - dy) / (r / 2))
    if shape == "rounded":
        rad = size * ROUNDED
        inner = size / 2 - rad
        return size / 2 if dy <= inner else inner + math.sqrt(max(0.0, rad ** 2 - (dy - inner) ** 2))
    return size / 2


def token_face(face, shape: str, size: float, bleed: float, colour: str | None, caption: str | None,
               outline=None) -> list:
    """One face in the token's frame (its square on the sheet: 0..size, or 0..extent for a hexagon), art
    running ``bleed`` mm past the cut line. A caption's box is as wide as the token is at the caption's
    lowest ink, less :data:`CAPTION_MARGIN` on each side, so its text keeps inside the cut line."""
    background = colour if face.background == "faction" else face.background
    extent = size * 2 / 3 ** 0.5 if shape == "hexagon" else size
    c = extent / 2
    els = [shape_element(shape, Rect(0, 0, extent, extent), bleed, "token-art", outline, fill=background)]
    els += pattern_elements(face.pattern, shape, extent, face.pattern_colour or face.icon_colour
                            or caption_style(background).colour)
    if face.icon:
        icon_size = size * (0.5 if caption else 0.7) * (face.icon_size or 1.0)
        if face.pattern not in (None, "none") and not caption:
            # a round edge: the icon's square may reach past the ring at its corners, so keep it smaller
            across = 2.0 if shape in ("square", "rounded") else 1.6
            icon_size = min(icon_size, across * pattern_room(face.pattern, size))
        cy = c + (size * 0.12 if caption else 0)
        els.append(Icon(face.icon, c, cy, icon_size, face.icon_colour, face.label, role="token-icon"))
    if caption:
        middle = c - size * CAPTION_DROP
        across = half_width("circle" if shape == "outline" else shape, size, size * CAPTION_DROP + CAPTION_INK)
        w = min(size * 0.8, 2 * (across - CAPTION_MARGIN))
        h = size * CAPTION_HEIGHT
        els.append(Text(Rect(c - w / 2, middle - h / 2, w, h), caption, caption_style(background),
                        role="token-caption"))
    return els


#: Where a pattern's line runs (mm inside the cut line, to its middle) and how wide it is: the first line
#: keeps its ink 1 mm inside the cut, as captions do; a double ring's second line runs 1 mm further in.
PATTERN_INSET = 1.45
PATTERN_WIDTH = 0.5
PATTERN_STEP = 0.85
#: Room kept between a pattern's innermost line and the icon inside it (mm).
PATTERN_ROOM = 0.3
#: Dashes of the dashed and the dotted ring (mm on, mm off).
PATTERN_DASHES = {"dashed_ring": (1.6, 1.0), "dotted_ring": (0.5, 0.75)}


def _pattern_lines(pattern: str) -> tuple:
    """(insets of the pattern's lines, their width) in mm."""
    if pattern == "double_ring":
        return (PATTERN_INSET, PATTERN_INSET + PATTERN_STEP), PATTERN_WIDTH * 0.7
    return (PATTERN_INSET,), PATTERN_WIDTH


def pattern_room(pattern: str, size: float) -> float:
    """Half the width left inside a pattern's innermost line, less :data:`PATTERN_ROOM`: an icon in
    the middle of the face stays that far inside it."""
    insets, width = _pattern_lines(pattern)
    return size / 2 - insets[-1] - width / 2 - PATTERN_ROOM


def pattern_elements(pattern: str | None, shape: str, extent: float, colour: str) -> list:
    """A face's pattern (a line following the token's edge, inside it) in the token's frame: a second cue
    beside colour for tokens alike but for their colour (each player's set)."""
    if pattern in (None, "none"):
        return []
    frame = Rect(0, 0, extent, extent)
    insets, width = _pattern_lines(pattern)
    dash = PATTERN_DASHES.get(pattern)
    return [shape_element(shape, frame, -inset, "token-pattern", stroke=colour, width=width, dash=dash)
            for inset in insets]


def cut_outline(shape: str, rect: Rect, outline=None):
    return shape_element(shape, rect, 0.0, "cut", outline, stroke=CUT_PINK, width=0.25)


def sheet_pages(token_plan: TokenPlan, faces: dict, bleed: float, note: str = "", outlines: dict | None = None,
                ) -> list[Page]:
    """``faces``: token id -> (front elements, back elements), each in the token's own frame;
    ``outlines``: token id -> SVG file of ``outline`` tokens."""
    pages = []
    n = len(token_plan.sheets)
    for i, sheet in enumerate(token_plan.sheets):
        page = Page(token_plan.page_w, token_plan.page_h, label=f"Tokens {i + 1}")
        _add_tokens(page, sheet, faces, outlines)
        page.add(Line(0, token_plan.fold_y, token_plan.page_w, token_plan.fold_y, FOLD_GREY, 0.35, role="fold"))
        if note:
            page.add(Text(Rect(PRINTER_MARGIN, token_plan.fold_y - 3.2, token_plan.page_w - 2 * PRINTER_MARGIN, 2.6),
                          f"{note} ({i + 1}/{n})", NOTE_STYLE, role="note"))
        pages.append(page)
    return pages


#: A fold block (the last sheet's tokens, to share a sheet): how far its cut-out edge keeps from the
#: tokens, and its edge's ink.
BLOCK_MARGIN = 3.0
BLOCK_EDGE = "#8c8c8c"


def fold_block(token_plan: TokenPlan, gap: float, fold_gutter: float) -> tuple:
    """The last sheet's tokens as a fold block: the same tokens packed in shelves that start at the fold
    and go up (the lowest shelf's bottom ``fold_gutter`` above the fold line), each back mirrored across
    the fold below its front. The fold is the sheet's own (its middle), so the block printed alone is
    still a token sheet folded in half; cut out of a shared sheet along its edge, it folds on its own
    line. Returns (the placements, the block's edge Rect)."""
    last = token_plan.sheets[-1]
    fold = token_plan.fold_y
    dy = fold + fold_gutter - min(p.front.y for p in last)
    placed = []
    for p in last:
        front = Rect(p.front.x, p.front.y + dy, p.front.w, p.front.h)
        placed.append(replace(p, front=front, back=mirror_across_fold(front, fold)))
    left = min(p.front.x for p in placed) - BLOCK_MARGIN
    right = max(p.front.right for p in placed) + BLOCK_MARGIN
    top = max(p.front.top for p in placed) + BLOCK_MARGIN
    return tuple(placed), Rect(left, 2 * fold - top, right - left, 2 * (top - fold))


def _add_tokens(page: Page, placed, faces: dict, outlines: dict | None) -> None:
    """Every placed token's front and back faces on ``page``, then their cut lines (over all faces)."""
    for p in placed:
        front, back = faces[p.token]
        page.add(Group(tuple(front), p.front.x, p.front.y, role=f"front:{p.token}#{p.copy}"))
        page.add(Group(tuple(back), p.back.x, p.back.y, role=f"back:{p.token}#{p.copy}"))
    for p in placed:
        outline = outlines.get(p.token) if outlines else None
        page.add(cut_outline(p.shape, p.front, outline), cut_outline(p.shape, p.back, outline))


def fold_block_page(token_plan: TokenPlan, faces: dict, gap: float, fold_gutter: float,
                    outlines: dict | None = None) -> Page:
    """:func:`fold_block` as a page of the sheet's size: the tokens' faces and cut lines, the fold line
    across the block only, and the block's edge (grey, thin) to cut it out along."""
    placed, edge = fold_block(token_plan, gap, fold_gutter)
    page = Page(token_plan.page_w, token_plan.page_h, label=f"Tokens {len(token_plan.sheets)}")
    _add_tokens(page, placed, faces, outlines)
    page.add(Line(edge.x, token_plan.fold_y, edge.right, token_plan.fold_y, FOLD_GREY, 0.35, role="fold"))
    page.add(Box(edge, stroke=BLOCK_EDGE, width=0.25, role="block-edge"))
    return page
