"""Card faces and backs, and the sheets they are printed on.

A face is laid out in the card's own frame (origin at its bottom-left corner) from the game's facts:
faction colour, rank pips, name, the stat fields the game declares (with their icons), the ability
text generated from the structured ability, and the flavour line. Sheets place faces in a centred grid
and backs in the mirrored slots, so a long-edge duplex print puts every back behind its front.
Proportions are given for a 63 x 88 mm card and scale with the game's card size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from pnp.layout.geometry import Box, Circle, Group, Icon, Line, Page, Rect, Style, Text, Transform
from pnp.text.markup import escape
from pnp.layout.sheet import (CROP_LENGTH, CROP_OFFSET, Grid, back_slots, crop_marks, cut_lines, fit_grid,
                              margin_cut_lines)
from pnp.units import MIN_TEXT_PT, PRINTER_MARGIN

#: The colours backs and aids use when no layout gives a palette (plain: the look is the layout's).
PLAIN = {"paper": "#ffffff", "ink": "#222222", "neutral": "#666666", "back": "#333333", "accent": "#bbbbbb"}
#: How far a back's colour runs past its card on the back pages (mm), so duplex drift shows no white edge.
BACK_SPILL = 2.0



@dataclass(frozen=True)
class FaceContent:
    """What a face shows, already resolved to strings (translated, with generated ability text)."""

    name: str
    rank_name: str
    pips: int
    colour: str
    emblem: str | None
    stats: tuple            # (field name, icon, label) from top to bottom
    step: int | None
    ability: str            # markup
    flavour: str
    watermark: str = ""     # printed large and pale in the art area (e.g. a card's value)
    mark: str = ""          # small mark in the bottom corner (e.g. "3+": only with 3 or more players)
    version: str = ""       # the game's version (game.yaml's version:, or its git commit), printed small
    art: object = None      # the card's picture (pnp.loading.decks.Art), or None for the placeholder look
    values: dict = field(default_factory=dict, hash=False, compare=False)   # more for the layout: card, fields
    texts: tuple = ()       # (field name, card markup) of its text fields with a value, in the deck's order
    labels: tuple = ()      # (field name, value as printed) of its other shown fields: choices, lists, ...


def stat_slots(game, card, deck=None) -> tuple:
    """The stat badges of a card: one per badge field of its deck, one per exactly-one-of group,
    each value printed as its field's format says (sign, format). ``deck``: the deck as the face sees it
    (``deck.b`` for a card's side B; default: the card's deck).

    Optional fields with nothing to give (0 or missing) are left off, as on printed cards.
    """
    deck = deck if deck is not None else game.deck_of(card)
    slots, grouped = [], {}
    for group in deck.exactly_one_of:
        for name in group:
            grouped[name] = group
    done = set()
    for f in deck.fields:
        if not f.badge:
            continue
        value = card.stats.get(f.name)
        group = grouped.get(f.name)
        if group:
            if group in done:
                continue
            present = [g for g in group if card.stats.get(g) is not None]
            if not present:
                continue
            done.add(group)
            shown = deck.field(present[0])
            slots.append((shown.name, shown.icon, shown.display(card.stats[shown.name])))
            continue
        if value is None or (not f.required and value == 0):
            continue
        slots.append((f.name, f.icon, f.display(value)))
    return tuple(slots)


def art_area(w: float, h: float) -> Rect:
    """The art area of a ``w`` x ``h`` face: between the name and the ability box."""
    sx, sy = w / 63.0, h / 88.0
    return Rect(5.0 * sx, 32.6 * sy, w - 10 * sx, h - 20.8 * sy - 32.6 * sy)


def face_context(content: FaceContent) -> dict:
    """What a layout's expressions see of a face: its content (markup already escaped) and the extra
    values the caller gives (the card's fields, ...)."""
    return {"name": content.name, "rank_name": content.rank_name, "pips": content.pips, "colour": content.colour,
            "emblem": content.emblem, "step": content.step, "ability": content.ability, "flavour": content.flavour,
            "watermark": content.watermark, "mark": escape(content.mark), "version": content.version,
            "art": content.art is not None,
            "stats": tuple((name, icon, escape(label)) for name, icon, label in content.stats), **content.values}


def _with(style: Style, **changes) -> Style:
    return replace(style, **changes)


AID_TITLE_STYLE = Style(font="serif-semibold", size=12, min_size=8, max_lines=1)
AID_BODY_STYLE = Style(font="sans", size=10.5, min_size=4.8, align="left", valign="top", leading=1.16)


#: The game's version on a player aid (a card's layout places its own: the classic layout's ``version``).
VERSION_STYLE = Style(font="sans", size=6.0, min_size=6.0, max_lines=1, align="left", valign="bottom",
                      colour="#4a3f35")


def aid_face(title: str, body: str, w: float, h: float, palette: dict | None = None, bleed: float = 0.0,
             version: str = "") -> list:
    """A player-aid card: the back colour as frame, a title and dense reference text (colours from the
    deck's layout palette: back, paper, accent); the game's ``version`` (markup) small in the bottom-left
    corner, inside the safe zone."""
    p = {**PLAIN, **(palette or {})}
    sx, sy = w / 63.0, h / 88.0
    stamp = ([Text(Rect(4.2 * sx, 3.2, w / 2 - 4.2 * sx, 2.4), version, VERSION_STYLE, role="version")]
             if version else [])
    bottom = 6.0 if version else 5.0 * sy
    return [
        Box(Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed), fill=p["back"], role="frame"),
        Box(Rect(2.8 * sx, 2.8 * sy, w - 5.6 * sx, h - 5.6 * sy), fill=p["paper"], radius=2.2, role="panel"),
        Text(Rect(5 * sx, h - 12.5 * sy, w - 10 * sx, 8 * sy), title, AID_TITLE_STYLE, role="aid-title"),
        Line(12 * sx, h - 13.3 * sy, w - 12 * sx, h - 13.3 * sy, p["accent"], 0.35, role="rule"),
        # above the version, when there is one
        Text(Rect(5.2 * sx, bottom, w - 10.4 * sx, h - 14.5 * sy - bottom), body, AID_BODY_STYLE, role="aid-body"),
    ] + stamp


#: How far a designed back's gold frames sit inside the trim (mm): 6 mm, clear of cutting drift.
FRAME_INSET = 6.0


def card_back(title: str, emblems: tuple, w: float, h: float, bleed: float = 0.0, subtitle: str | None = None,
              palette: dict | None = None) -> list:
    """The designed back: title above and below a ring holding every faction's emblem; with a
    ``subtitle`` (a deck's name), the whole title above the ring and the subtitle below it. Colours: the
    palette's ``back`` and ``accent``."""
    p = {**PLAIN, **(palette or {})}
    fill, gold = p["back"], p["accent"]
    sx, sy = w / 63.0, h / 88.0
    els = [
        Box(Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed), fill=fill, role="back"),
        # the frames keep FRAME_INSET inside the trim, where cutting drift does not show (pnp.validation.piececheck)
        Box(Rect(0, 0, w, h).inset(FRAME_INSET), stroke=gold, width=0.45, radius=2.4, role="back-border"),
        Box(Rect(0, 0, w, h).inset(FRAME_INSET + 1.4), stroke=gold, width=0.2, radius=1.8, role="back-border"),
    ]
    words = title.upper().split()
    top_words = " ".join(words[: max(1, len(words) // 2)])
    bottom_words = " ".join(words[max(1, len(words) // 2):])
    if subtitle is not None:
        top_words, bottom_words = title.upper(), subtitle.upper()
    # down to pnp's smallest printed text: inside the frames a mini card's back has 26 mm for a word
    style = Style(font="serif-semibold", size=15, min_size=MIN_TEXT_PT, max_lines=1, colour=gold, tracking=2.0)
    side = FRAME_INSET + 1.4 + 1.6          # the lettering keeps inside the inner frame
    if subtitle is not None:   # the whole title above the ring: a long one takes two lines
        els.append(Text(Rect(side, h - 27 * sy, w - 2 * side, 16 * sy), top_words, replace(style, max_lines=2),
                        role="back-title"))
    else:
        els.append(Text(Rect(side, h - 24 * sy, w - 2 * side, 10 * sy), top_words, style, role="back-title"))
    if bottom_words:
        els.append(Text(Rect(side, 14 * sy, w - 2 * side, 10 * sy), bottom_words,
                        replace(style, max_lines=2, leading=1.05) if subtitle is not None else style,
                        role="back-title"))
    cx, cy, r = w / 2, h / 2, 17 * min(sx, sy)
    els.append(Circle(cx, cy, r, stroke=gold, width=0.5))
    els.append(Circle(cx, cy, r - 1.4 * min(sx, sy), stroke=gold, width=0.2))
    emblems = emblems or ("crown",)       # a game without factions shows a crown
    n = len(emblems)
    for i, emblem in enumerate(emblems):
        a = math.pi / 2 + 2 * math.pi * i / max(1, n)
        d = r * 0.48 if n > 1 else 0
        els.append(Icon(emblem, cx + d * math.cos(a), cy + d * math.sin(a), r * 0.62, gold, role="back-emblem"))
    return els


@dataclass(frozen=True)
class CardSheets:
    """Card sheets: the grid of slots, the front pages, and one back page per front page, in the same order."""

    grid: Grid
    fronts: list          # Page per sheet
    backs: list           # Page per sheet, same order


def card_grid(card_w: float, card_h: float, page_w: float, page_h: float, bleed: float = 0.0) -> Grid:
    """The slots of a card sheet: as many cards (each with its bleed) as keep the printer margin, and
    room for crop marks when there is a bleed. With a bleed, cards may lie turned a quarter (the slots are
    then ``card_h`` wide): whichever way holds more cards (63 x 88 mm cards with 3 mm bleed: 4 upright,
    6 turned on Letter, 8 turned on A4). See :func:`turned`."""
    margin = PRINTER_MARGIN + (CROP_OFFSET + CROP_LENGTH if bleed else 0.0)
    upright = fit_grid(page_w, page_h, card_w + 2 * bleed, card_h + 2 * bleed, margin=margin)
    if not bleed:
        return upright
    try:
        sideways = fit_grid(page_w, page_h, card_h + 2 * bleed, card_w + 2 * bleed, margin=margin)
    except ValueError:
        return upright
    return sideways if sideways.per_sheet > upright.per_sheet else upright


def turned(grid: Grid, card_w: float, card_h: float) -> bool:
    """Whether the grid's slots hold the cards turned a quarter (slots wider than tall for an upright card)."""
    return card_w != card_h and round(grid.item_w - grid.item_h, 6) == round(card_h - card_w, 6)


def _placed(elements: tuple, slot: Rect, bleed: float, art: Rect, turn: int, role: str):
    """``elements`` (a face or back in the card's frame) placed in ``slot`` (which includes the bleed),
    turned ``turn`` quarter turns counter-clockwise (0, 1 or -1)."""
    if turn == 0:
        return Group(elements, slot.x + bleed, slot.y + bleed, clip=art, role=role)
    w, h = art.w - 2 * bleed, art.h - 2 * bleed
    if turn == 1:    # (x, y) -> (-y, x): the card's top points left
        matrix = (0.0, 1.0, -1.0, 0.0, slot.x + h + bleed, slot.y + bleed)
    else:            # (x, y) -> (y, -x): the card's top points right
        matrix = (0.0, -1.0, 1.0, 0.0, slot.x + bleed, slot.y + w + bleed)
    return Group((Transform(elements, matrix, clip=art),), role=role)


#: Closer to the sheet edge than this (mm), many home printers leave the paper white.
PRINTABLE_EDGE = 5.0


def offset_backs_clearance(card_w: float, card_h: float, page_w: float, page_h: float, flip: str = "long",
                           bleed: float = 0.0, back_offset: tuple = (0.0, 0.0)) -> tuple[float, str]:
    """(mm, edge): how close the card backs of a full sheet come to the sheet's edge once moved by
    ``back_offset``, and which edge ("left", "right", "top", "bottom") that is."""
    grid = card_grid(card_w, card_h, page_w, page_h, bleed)
    dx, dy = back_offset
    slots = [s.moved(dx, dy).inset(bleed) for s in back_slots(grid, grid.per_sheet, flip)]
    gaps = {"left": min(s.x for s in slots), "right": page_w - max(s.right for s in slots),
            "bottom": min(s.y for s in slots), "top": page_h - max(s.top for s in slots)}
    edge = min(gaps, key=gaps.get)
    return gaps[edge], edge


def card_sheets(faces: list, back: list, card_w: float, card_h: float, page_w: float, page_h: float,
                flip: str = "long", labels: list | None = None, bleed: float = 0.0,
                back_offset: tuple = (0.0, 0.0), name: str = "", card_backs: list | None = None,
                margins: list | None = None, margin_fill: str = PLAIN["back"], grid: Grid | None = None,
                crop: bool = True, first_sheet: int = 0) -> CardSheets:
    """Fronts in a centred grid (reading order), one back page per front page in mirrored slots.

    Without bleed, cards abut and full-length grey cut lines run along their edges. With ``bleed`` mm
    (faces and back drawn with that bleed), each card takes its trim size plus the bleed on every side,
    crop marks in the margins continue the trim lines, and cards lie turned a quarter when more fit that way
    (:func:`card_grid`); such sheets carry no page boxes (:func:`single_card_pages` has them).
    ``back_offset`` (mm, in the back page's own frame) moves everything on the back pages, to correct
    a printer's duplex drift. ``card_backs`` (one per face) gives each card its own back instead of ``back``;
    ``margins`` (one per face, elements in a frame 2 mm larger than the card) replaces the plain colour
    that runs past each back when there is no bleed (an image back runs on instead). ``grid`` places the
    cards instead of :func:`card_grid` (centred on the sheet, each slot the card and its bleed; a cutting
    machine's, :mod:`pnp.layout.cutter`); ``crop=False`` leaves out the crop marks (a machine cuts).
    ``first_sheet`` numbers the sheets' labels from the one after it (a deck's sheets laid out in pieces).
    """
    grid = grid or card_grid(card_w, card_h, page_w, page_h, bleed)
    art = Rect(-bleed, -bleed, card_w + 2 * bleed, card_h + 2 * bleed)
    # turned cards: fronts a quarter turn counter-clockwise, backs the other way, so that after the
    # duplex flip each back's top lies behind its front's top
    turn = 1 if turned(grid, card_w, card_h) else 0
    fronts, backs = [], []
    for sheet_no, start in enumerate(range(0, len(faces), grid.per_sheet)):
        chunk = faces[start:start + grid.per_sheet]
        what = f"Card fronts{': ' + name if name else ''}"
        sheet_no += first_sheet
        front = Page(page_w, page_h, label=f"{what} {sheet_no + 1}")
        slots = [grid.slot(i) for i in range(len(chunk))]
        for i, (face, slot) in enumerate(zip(chunk, slots)):
            role = f"card:{labels[start + i]}" if labels else "card"
            front.add(_placed(tuple(face), slot, bleed, art, turn, role))
        back_page = Page(page_w, page_h, label=f"Card backs{': ' + name if name else ''} {sheet_no + 1}")
        bslots = back_slots(grid, len(chunk), flip)
        on_back = []
        if not bleed:
            # background colour runs 2 mm past the block so a drifting duplex print shows no white edge
            for i, slot in enumerate(bslots):
                margin = margins[start + i] if margins else None
                if margin:
                    big = slot.inset(-BACK_SPILL)
                    on_back.append(Group(tuple(margin), big.x, big.y, clip=Rect(0, 0, big.w, big.h),
                                         role="back-bleed"))
                else:
                    on_back.append(Box(slot.inset(-BACK_SPILL), fill=margin_fill, role="back-bleed"))
        for i, slot in enumerate(bslots):
            role = f"back:{labels[start + i]}" if labels else "back"
            shown = card_backs[start + i] if card_backs else back
            on_back.append(_placed(tuple(shown), slot, bleed, art, -turn, role))
        if bleed:
            if crop:
                _trim_and_marks(front, slots, bleed)
                _trim_and_marks(back_page, bslots, bleed, on_back)
        else:
            front.add(*cut_lines(slots, page_w, page_h))
            # on the backs, cut lines only in the margins: over the dark backs a drifting duplex print
            # would show each line as a light hairline inside the card
            on_back += margin_cut_lines(bslots, page_w, page_h, clear=BACK_SPILL)
        dx, dy = back_offset
        back_page.add(*(on_back if not (dx or dy) else [Group(tuple(on_back), dx, dy, role="back-offset")]))
        fronts.append(front)
        backs.append(back_page)
    return CardSheets(grid, fronts, backs)


def _trim_and_marks(page: Page, slots: list, bleed: float, into: list | None = None) -> None:
    """Crop marks continuing every card's trim lines into the margins. A sheet of several cards has no
    TrimBox or BleedBox: a page box can describe one finished piece, and a box around the whole group
    would tell preflight that the piece is the group (one card per page: :func:`single_card_pages`)."""
    trims = [s.inset(bleed) for s in slots]
    block = Rect(min(s.x for s in slots), min(s.y for s in slots),
                 max(s.right for s in slots) - min(s.x for s in slots),
                 max(s.top for s in slots) - min(s.y for s in slots))
    (into if into is not None else page.elements).extend(crop_marks(trims, block))


def single_card_pages(faces: list, back: list, card_w: float, card_h: float, bleed: float,
                      labels: list | None = None, backs: list | None = None, back_first: bool = False) -> list:
    """One page per card side, the page the card's trim plus ``bleed`` on every side, with its TrimBox
    (the card) and BleedBox (the page): each face followed by its back, or with ``back_first`` each back
    followed by its face (DriveThruCards' card specification: page 1 the back of card 1, page 2 its
    front, and so on). ``backs`` gives each card its own back (default: ``back`` for every card)."""
    w, h = card_w + 2 * bleed, card_h + 2 * bleed
    art = Rect(-bleed, -bleed, w, h)
    trim, whole = Rect(bleed, bleed, card_w, card_h), Rect(0.0, 0.0, w, h)
    pages = []
    for i, face in enumerate(faces):
        label = labels[i] if labels else str(i + 1)
        sides = (("card", face), ("back", backs[i] if backs else back))
        for side, elements in (sides[::-1] if back_first else sides):
            pages.append(Page(w, h, [Group(tuple(elements), bleed, bleed, clip=art, role=f"{side}:{label}")],
                              label=f"{side} {label}", trim=trim, bleed=whole))
    return pages
