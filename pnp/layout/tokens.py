"""Double-sided token sheets made by folding: fronts on the top half, backs mirrored on the bottom half.

Tokens are packed onto as few sheets as possible (largest first, in shelves centred across the half
sheet). Each back sits at the mirror image of its front across the fold line, so once the sheet is
folded along that line and glued (or cut on the line and each half glued to card), every back lies
exactly behind its front. Cut lines are pink, the fold line grey.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.layout.geometry import Box, Circle, Group, Icon, Line, Page, Rect, Style, Text
from pnp.units import PRINTER_MARGIN

CUT_PINK = "#e4007c"
FOLD_GREY = "#8c8c8c"
CAPTION_STYLE = Style(font="sans-black", size=6.5, min_size=4.0, max_lines=1, upper=True, colour="#ffffff",
                      tracking=0.4)
NOTE_STYLE = Style(font="sans", size=6.5, min_size=5.0, max_lines=1, colour="#6b6b6b")


@dataclass(frozen=True)
class Placement:
    token: str            # token id
    copy: int             # 1-based copy number
    shape: str
    front: Rect
    back: Rect


@dataclass(frozen=True)
class TokenPlan:
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
    """Shelf packing. ``items``: (key, size) in the order to try; returns sheets of (key, Rect).

    Items are sorted largest first (stable), laid left to right in shelves as tall as their largest
    item, each shelf centred horizontally; a new sheet starts when a shelf no longer fits.
    """
    ordered = sorted(items, key=lambda it: -it[1])
    sheets, shelves = [], []
    shelf, shelf_w, shelf_h, y_top = [], 0.0, 0.0, area.top

    def close_shelf():
        nonlocal shelf, shelf_w, shelf_h, y_top
        if shelf:
            shelves.append((shelf, shelf_w, shelf_h, y_top))
            y_top -= shelf_h + gap
        shelf, shelf_w, shelf_h = [], 0.0, 0.0

    def close_sheet():
        nonlocal shelves, y_top
        close_shelf()
        if shelves:
            placed = []
            for row, row_w, row_h, top in shelves:
                x = area.x + (area.w - row_w) / 2
                for key, size in row:
                    placed.append((key, Rect(x, top - row_h + (row_h - size) / 2, size, size)))
                    x += size + gap
            sheets.append(placed)
        shelves, y_top = [], area.top

    for key, size in ordered:
        if size > area.w or size > area.h:
            raise ValueError(f"a {size:g} mm token does not fit the {area.w:.1f} x {area.h:.1f} mm half sheet")
        needed = size if not shelf else shelf_w + gap + size
        if shelf and needed > area.w + 1e-9:
            close_shelf()
        if not shelf:
            if y_top - size < area.y - 1e-9:
                close_sheet()
            shelf_h = size
            shelf_w = size
        else:
            shelf_w = needed
        shelf.append((key, size))
    close_sheet()
    return sheets


def plan(tokens, page_w: float, page_h: float, gap: float, fold_gutter: float) -> TokenPlan:
    """Where every copy of every token goes, front and back, sheet by sheet."""
    area = front_area(page_w, page_h, fold_gutter)
    fold = page_h / 2
    shapes = {t.id: t.shape for t in tokens}
    items = [((t.id, k + 1), t.size) for t in tokens for k in range(t.count)]
    sheets = []
    for sheet in pack(items, area, gap):
        sheets.append(tuple(Placement(tid, copy, shapes[tid], rect, mirror_across_fold(rect, fold))
                            for (tid, copy), rect in sheet))
    return TokenPlan(page_w, page_h, fold, area, tuple(sheets))


def token_face(face, shape: str, size: float, bleed: float, colour: str | None, caption: str | None) -> list:
    """One face in the token's frame (0..size), art running ``bleed`` mm past the cut line."""
    background = colour if face.background == "faction" else face.background
    c = size / 2
    els = []
    if shape == "circle":
        els.append(Circle(c, c, c + bleed, fill=background, role="token-art"))
    else:
        els.append(Box(Rect(-bleed, -bleed, size + 2 * bleed, size + 2 * bleed), fill=background, role="token-art"))
    if face.icon:
        icon_size = size * (0.56 if caption else 0.7)
        cy = c + (size * 0.1 if caption else 0)
        els.append(Icon(face.icon, c, cy, icon_size, face.icon_colour, face.label, role="token-icon"))
    if caption:
        els.append(Text(Rect(size * 0.15, size * 0.1, size * 0.7, size * 0.2), caption, CAPTION_STYLE,
                        role="token-caption"))
    return els


def cut_outline(shape: str, rect: Rect):
    if shape == "circle":
        return Circle(rect.cx, rect.cy, rect.w / 2, stroke=CUT_PINK, width=0.25, role="cut")
    return Box(rect, stroke=CUT_PINK, width=0.25, role="cut")


def sheet_pages(token_plan: TokenPlan, faces: dict, bleed: float, note: str = "") -> list[Page]:
    """``faces``: token id -> (front elements, back elements), each in the token's own frame."""
    pages = []
    n = len(token_plan.sheets)
    for i, sheet in enumerate(token_plan.sheets):
        page = Page(token_plan.page_w, token_plan.page_h, label=f"Tokens {i + 1}")
        for p in sheet:
            front, back = faces[p.token]
            page.add(Group(tuple(front), p.front.x, p.front.y, role=f"front:{p.token}#{p.copy}"))
            page.add(Group(tuple(back), p.back.x, p.back.y, role=f"back:{p.token}#{p.copy}"))
        for p in sheet:
            page.add(cut_outline(p.shape, p.front), cut_outline(p.shape, p.back))
        page.add(Line(0, token_plan.fold_y, token_plan.page_w, token_plan.fold_y, FOLD_GREY, 0.35, role="fold"))
        if note:
            page.add(Text(Rect(PRINTER_MARGIN, token_plan.fold_y - 3.2, token_plan.page_w - 2 * PRINTER_MARGIN, 2.6),
                          f"{note} ({i + 1}/{n})", NOTE_STYLE, role="note"))
        pages.append(page)
    return pages
