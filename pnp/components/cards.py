"""Card fronts and backs: every physical card of the deck, 3 x 3 (or as many as fit) per sheet."""

from __future__ import annotations

import weakref
from dataclasses import fields as dataclass_fields, replace
from pathlib import Path

import jinja2

from pnp.cache import buildcache
from pnp.text import templating
from pnp.loading.cardtext import ability_text, aid_text, template_names, template_roots
from pnp.components import BuildOptions, Component, Output, Part
from pnp.errors import DataError, Problems
from pnp.draw.icons import with_game_icons
from pnp.draw import fonts, icons
from pnp.draw.text import fit
from pnp.loading.i18n import strings, words_at, words_function, words_of
from pnp.loading.decks import image_pixels
from pnp.loading.cardlayout import (FieldValues, RegionProblems, bundled, card_face, evaluate, face_scope, showing,
                                    shown_fields)
from pnp.layout.cards import (BACK_SPILL, PLAIN, PRINTABLE_EDGE, FaceContent, aid_face, art_area, card_back, card_grid,
                              card_sheets, offset_backs_clearance, single_card_pages, stat_slots)
from pnp.layout.geometry import Group, Picture, Rect, Text, extent, flatten
from pnp.layout.regions import RegionError, trim_sides
from pnp.layout.gutterfold import gutterfold_sheets, plan as gutterfold_plan
from pnp.layout.cutter import CUT_BLEED, MACHINES, CutOutline, cutter_grid, keylines, registration_marks
from pnp.layout.outline import CutPiece, RectOutline
from pnp.text.icon_names import ICON_NAMES
from pnp.text.markup import card_markup, escape, markup_problems, plain_text
from pnp.loading.paths import excerpt
from pnp.suggest import closest
from pnp.loading.placeholders import PRINTED_MARK
from pnp.components import record


#: ``pnp build --cards gutterfold``: the file of card sheets folded on their gutter, and its hint in the margin.
GUTTERFOLD_FILE = "cards-gutterfold.pdf"
GUTTERFOLD_HINT = ("Fold on the dashed line, printed side out; glue the blank halves together; cut along the "
                   "marks through both layers")


def layout_of(deck, card=None):
    """The layout a card of ``deck`` is drawn with (the deck's default for None)."""
    return deck.layout.for_card(card) if deck.layout is not None else bundled("classic")


def palette(deck) -> dict:
    """The colours of the deck's (default) layout: backs and aids use them."""
    return layout_of(deck).palette_dict()


def back_palette(game, deck) -> dict:
    """The designed back's colours: the deck's palette, with game.yaml's ``look.palette`` ``back`` and
    ``accent`` over it."""
    return {**palette(deck), **{k: v for k, v in game.look.palette if k in ("back", "accent")}}


def face_content(game, card, lang=None, mark: str = "", deck=None, words=None) -> FaceContent:
    """What ``card``'s face shows. ``deck``: the deck as the face sees it (``deck.b`` for a card's side B;
    default: the card's deck). ``words``: the layouts' ``t`` (:func:`pnp.loading.i18n.words_function` of
    ``game`` and ``lang``) when the caller made it already for the deck's cards (the cards' check)."""
    deck = deck if deck is not None else game.deck_of(card)
    faction = game.faction(card.faction) if card.faction else None
    rank = game.rank(card.rank) if card.rank else None
    category = game.category_of(card)
    neutral = layout_of(deck, card).palette_dict().get("neutral", PLAIN["neutral"])
    colour = faction.colour if faction else category.colour if category else neutral
    fields = FieldValues.of(deck.id, {f.name: card_markup(f.display(card.stats.get(f.name))) if f.type == "text" else
                                      escape(f.display(card.stats.get(f.name))) for f in deck.fields})
    data = templating.game_part(game, card)      # as the game's conversion holds it (converted once)
    data = replace(data, stats=FieldValues.of(deck.id, data.stats))     # a field the deck lacks is an error
    watermark = card.stats.get(deck.watermark) if deck.watermark else None
    # names and other values print as written (escaped); flavour and text fields are card markup, checked
    # when the cards were loaded; the ability text is the template's markup
    return FaceContent(
        name=escape(card.name),
        rank_name=escape(rank.name if rank else category.name if category else ""),
        pips=rank.pips if rank else 0,
        colour=colour,
        emblem=faction.emblem if faction else None,
        stats=stat_slots(game, card, deck),
        step=card.ability.step if card.ability else None,
        ability=ability_text(game, card, lang),
        flavour=card_markup(card.flavour),
        watermark="" if watermark is None else escape(deck.field(deck.watermark).display(watermark)),
        mark=mark,
        version=escape(game.version),
        art=deck.art.get(card.id),
        texts=tuple((f.name, fields[f.name]) for f in deck.fields if f.type == "text" and fields[f.name]),
        labels=labels_of(deck, card),
        values={"card": data, "fields": fields, "deck": deck.id,
                "data": templating.game_part(game, game.data),      # escaped: a text from it prints as written
                "field": fields.__getitem__, "t": words if words is not None else words_function(game, lang),
                "faction_name": escape(faction.name) if faction else "",
                "category": category.id if category else ""},
    )


def labels_of(deck, card) -> tuple:
    """(field name, value as printed, escaped) of each field of ``card`` that prints as a label: a choice,
    a list, a flag that is set (its name), a number without an icon (0 left out when optional). Not the
    fields printed elsewhere: badges, the watermark, the key its back is chosen by."""
    skip = {deck.watermark, deck.back.by if deck.back is not None else None}
    out = []
    for f in deck.fields:
        value = card.stats.get(f.name)
        if f.name in skip or f.type == "text" or f.badge or value is None or value == [] or value is False:
            continue
        if f.type == "int" and not f.required and value == 0:
            continue
        shown = f.printed_name if f.type == "bool" else f.display(value)
        if shown:
            out.append((f.name, escape(shown)))
    return tuple(out)


_FACES: dict = {"game": None, "faces": {}}
#: Faces laid out, by :func:`face_key`, kept from one build to the next (``pnp watch``, the studio).
_LAID_OUT = buildcache.Generations()
#: Each card's check (its problems and its layout regions' reports), by :func:`_check_key`.
_CHECKED = buildcache.Generations()
#: The game's attributes a face may read that hold every card: a face reads its own card only, which
#: :func:`face_key` holds (a card edit changes only that card's faces).
PER_CARD = ("cards", "decks", "sources")


def face_context(game, deck, cache=None, narrow: bool = False) -> str | None:
    """The key of what every face of ``deck`` reads besides its own card: pnp's code, the game folder's
    files but the card files, every attribute of the game but :data:`PER_CARD`, the deck but its
    cards, the icons drawn with. None without a build cache (or when a value names an object by its
    address). ``narrow``: the game folder's files but the card files and the templates (``face_files``
    of the cache, the studio's): the templates a face read are keyed apart (:func:`narrow_face_key`);
    None when the cache has no ``face_files``."""
    cache = cache if cache is not None else buildcache.current()
    files = getattr(cache, "face_files", None) if narrow else getattr(cache, "game_files", None)
    if not cache or files is None:
        return None
    memo = cache.memo.setdefault("narrow face contexts" if narrow else "face contexts", {})
    active = icons.active()
    at = (id(game), deck.id, deck.side, id(active))
    found = memo.get(at)
    if found is None or found[0] is not game or found[1] is not active:
        # (where each card's side B is written is per card, as its source is)
        side_b = replace(deck.side_b, lines={}) if deck.side_b is not None else None
        described = repr(([(f.name, getattr(game, f.name)) for f in dataclass_fields(game) if f.name not in PER_CARD],
                          replace(deck, cards=(), side_b=side_b), active))
        key = None if " at 0x" in described else buildcache.digest(
            "card face", buildcache.code_digest(), files, described, narrow)
        found = memo[at] = (game, active, key)
    return found[2]


def face_key(game, deck, card, lang, mark: str, size_mm: tuple, bleed: float) -> str | None:
    """A content key of ``card``'s face: its :func:`face_context`, the card itself, and how it is laid out
    (language, corner mark, size, bleed). None without a build cache."""
    context = face_context(game, deck)
    if context is None:
        return None
    return buildcache.digest(context, repr(card), lang or game.language, mark, tuple(size_mm), bleed)


#: Faces laid out, by :func:`narrow_face_key`: (elements, the templates they read, those templates'
#: stamp), kept from one version of the files to the next in the studio: a chapter edit (a template
#: file, which every :func:`face_key` holds) lays out no face that did not read it.
_NARROW = buildcache.Generations()


def narrow_face_key(game, deck, card, lang, mark: str, size_mm: tuple, bleed: float) -> str | None:
    """:func:`face_key` without the game's templates (:func:`face_context` ``narrow``): the face is kept by
    it with the templates it read and their bytes, checked each time it is found. None without a cache
    that has ``face_files`` (only the studio's)."""
    context = face_context(game, deck, narrow=True)
    if context is None:
        return None
    return buildcache.digest(context, repr(card), lang or game.language, mark, tuple(size_mm), bleed)


def kept_templates_stamp(cache, names) -> tuple:
    """:func:`pnp.text.templating.templates_stamp` of ``names``, once per set of names and build."""
    memo = cache.memo.setdefault("templates stamps", {})
    found = memo.get(names)
    if found is None:
        found = memo[names] = templating.templates_stamp(names)
    return found


def _narrow_found(cache, key):
    """The entry of :data:`_NARROW` under ``key`` when the templates it read are as they were."""
    found = _NARROW.get(cache, key)
    return found if found is not None and kept_templates_stamp(cache, found[1]) == found[2] else None


def kept_face_key(game, deck, card, lang, mark: str, size_mm: tuple, bleed: float) -> str | None:
    """A key of the face's content as the files are now: its :func:`narrow_face_key` and the bytes of the
    templates it read, once laid out (None before); its :func:`face_key` without ``face_files``."""
    key = narrow_face_key(game, deck, card, lang, mark, size_mm, bleed)
    if key is None:
        return face_key(game, deck, card, lang, mark, size_mm, bleed)
    found = _narrow_found(buildcache.current(), key)
    return buildcache.digest("kept face", key, found[2]) if found is not None else None


def laid_out_face(game, deck, card, lang, mark: str, size_mm: tuple, bleed: float, content=None,
                  regions=None) -> tuple:
    """The elements of ``card``'s face (:func:`card_face` of its :func:`face_content`), laid out once:
    validation checks every face, then the build places the same ones on sheets. With a build cache,
    faces are kept by :func:`face_key` from one build to the next (a card edit lays out that card's
    faces only); without, once per game object (a game loaded again is another object). ``content``:
    its :func:`face_content` when the caller has it already (the card's check); ``regions``: its layout's
    regions evaluated over that content (:func:`pnp.loading.cardlayout.evaluate`), likewise."""
    cache = buildcache.current()
    narrow = narrow_face_key(game, deck, card, lang, mark, size_mm, bleed) if cache else None
    if narrow is not None:
        found = _narrow_found(cache, narrow)
        if found is not None:
            templating.note_templates(found[1])
            return found[0]
        with templating.template_reads() as read:
            fresh = content is None
            if fresh:
                content, regions = face_content(game, card, lang, mark, deck), None
            elements = tuple(card_face(content, *size_mm, bleed, layout_of(deck, card), regions))
        if fresh:     # (a caller's content was made outside: what it read of the templates is not known here)
            read = frozenset(read)
            _NARROW.put(cache, narrow, (elements, read, kept_templates_stamp(cache, read)))
        return elements
    key = face_key(game, deck, card, lang, mark, size_mm, bleed) if cache else None
    if key is not None:
        found = _LAID_OUT.get(cache, key)
        if found is None:
            if content is None:
                content, regions = face_content(game, card, lang, mark, deck), None
            found = tuple(card_face(content, *size_mm, bleed, layout_of(deck, card), regions))
            _LAID_OUT.put(cache, key, found)
        return found
    owner = _FACES["game"]
    if owner is None or owner() is not game:
        _FACES.update(game=weakref.ref(game), faces={})
    faces = _FACES["faces"]
    key = (deck.id, deck.side, card.id, lang or game.language, mark, size_mm, bleed, icons.active())
    if key not in faces:
        if content is None:
            content, regions = face_content(game, card, lang, mark, deck), None
        faces[key] = tuple(card_face(content, *size_mm, bleed, layout_of(deck, card), regions))
    return faces[key]


def side_b_face(game, deck, card, lang=None, mark: str = "", size_mm=None, bleed: float = 0.0) -> tuple | None:
    """The elements of ``card``'s side B (laid out as its face is, with its deck's side B layout and the
    same corner mark), or None for a card with one face."""
    side = getattr(card, "side_b", None)
    if side is None or deck.b is None:
        return None
    return laid_out_face(game, deck.b, side, lang, mark, tuple(size_mm or deck.size), bleed)


def players_mark(game, card, copy: int) -> str:
    """'3+' on a copy used only with 3 or more players (its deck's max_copies_by_players), else ''."""
    lo, hi = game.players
    needed = next((p for p in range(lo, hi + 1) if copy <= game.copies_for(card, p)), hi)
    return f"{needed}+" if needed > lo else ""


def printed_mark(game, card, copy: int) -> str:
    """The mark in the corner of a copy of ``card``: its :func:`players_mark`, and a placeholder mark
    when the card was invented where the source is silent."""
    mark = players_mark(game, card, copy)
    return f"{mark} {PRINTED_MARK}".strip() if card.placeholder else mark


#: With --bleed: one card side per page, face then back, each page with its TrimBox and BleedBox
#: (``cards-<deck>-one-per-page.pdf`` for each deck of a game with several).
SINGLE_FILE = "cards-one-per-page.pdf"


def single_file(game, deck) -> str:
    return f"cards-{deck.id}-one-per-page.pdf" if game.several_decks else SINGLE_FILE


def aid_elements(game, deck, lang=None, bleed: float = 0.0, size_mm=None) -> tuple:
    if not deck.aid_copies:
        return ()
    title, body = aid_text(game, deck, lang)
    w, h = size_mm or (deck.width, deck.height)
    return tuple(aid_face(title, body, w, h, palette(deck), bleed=bleed, version=escape(game.version)))


def card_key(card, key: str):
    """A card's value for ``key``: one of its deck's fields or a key every card has (faction, rank, ...)."""
    if key in ("id", "name", "copies", "faction", "rank", "flavour"):
        return getattr(card, key)
    return card.stats.get(key)


def back_elements(game, deck, bleed: float = 0.0, card=None, size_mm=None, lang=None, mark: str = "") -> tuple:
    """The back of ``card`` (None: the deck's own back, which player aids show too): a double-sided card's
    side B (:func:`side_b_face`, in ``lang`` with the copy's corner ``mark``), a picture from the data, or
    the designed back (the game's title round its emblem, ``look.emblem``, else the factions'; with
    several decks or a label from the data, the label or the deck's name below the emblems; coloured by
    the deck's palette, ``look.palette``'s ``back`` and ``accent`` over it). ``size_mm`` lays it out at
    another size than the deck's (a print service's product)."""
    w, h = size_mm or (deck.width, deck.height)
    side = side_b_face(game, deck, card, lang, mark, (w, h), bleed) if card is not None else None
    if side is not None:
        return side
    back = deck.back
    image = label = emblem = None
    if back is not None:
        value = card_key(card, back.by) if back.by and card is not None else None
        image, label, emblem = back.for_value(value)
    if image is not None:
        # made to the trim (back.bleed, else the deck's): the picture fills the card, its bleed made from its edges
        mode = back.bleed or deck.bleed
        grow = bleed if mode and bleed > 0 else 0.0
        return (Picture(str(image), Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed), back.fit,
                        role="back-image", grow=grow, grow_mode=mode or "extend"),)
    subtitle = escape(label) if label else escape(deck.name) if game.several_decks else None
    emblems = (emblem,) if emblem else game.look.emblems(game.factions)
    return tuple(card_back(escape(game.title), emblems, w, h, bleed, subtitle=subtitle,
                           palette=back_palette(game, deck)))


def back_margin(game, deck, card=None, lang=None, mark: str = "") -> tuple | None:
    """What runs 2 mm past a picture back (the picture itself) or a card's side B (its own frame, laid out
    with 2 mm of bleed) on sheets without bleed, in a frame 2 mm larger than the card; or None."""
    side = side_b_face(game, deck, card, lang, mark, deck.size, BACK_SPILL) if card is not None else None
    if side is not None:            # what of it runs past the trim (its frame's colour, art made to the trim)
        trim = Rect(0.0, 0.0, deck.width, deck.height)
        past = tuple(e for e in flatten(side) if not trim.contains(extent(e), tol=1e-6))
        return (Group(past, BACK_SPILL, BACK_SPILL, clip=Rect(-BACK_SPILL, -BACK_SPILL, deck.width + 2 * BACK_SPILL,
                                                             deck.height + 2 * BACK_SPILL)),)
    back = deck.back
    if back is None:
        return None
    value = card_key(card, back.by) if back.by and card is not None else None
    image = back.for_value(value)[0]
    if image is None:
        return None
    return (Picture(str(image), Rect(0, 0, deck.width + 4, deck.height + 4), "cover", role="back-image"),)


def varies(deck) -> bool:
    """Whether a deck's cards have backs of their own: a back picked by a card key, a picture, or side B of
    double-sided cards."""
    return deck.double_sided or (deck.back is not None and (deck.back.by is not None or deck.back.image is not None))


def copy_mark(game, card, label: str) -> str:
    """The corner mark of the copy ``label`` (``<card id>#<copy>``) of ``card``."""
    copy = label.rsplit("#", 1)[-1]
    return printed_mark(game, card, int(copy)) if copy.isdigit() else printed_mark(game, card, 1)


def deck_copies(game, deck, options: BuildOptions) -> list:
    """(card, label, corner mark) of every physical card of ``deck`` in print order, then its player
    aids (card None), without laying any out."""
    copies, seen = [], {}
    for card in deck.physical(options.players):
        seen[card.id] = seen.get(card.id, 0) + 1
        copies.append((card, f"{card.id}#{seen[card.id]}", printed_mark(game, card, seen[card.id])))
    aid_id = "aid" if not game.several_decks else f"{deck.id}-aid"
    copies += [(None, f"{aid_id}#{k + 1}", "") for k in range(deck.aid_copies)]
    return copies


def deck_faces(game, deck, options: BuildOptions, size_mm=None, copies=None) -> tuple[list, list, list]:
    """(faces, labels, cards) of every physical card of ``deck`` in print order, then its player aids
    (card None); ``size_mm`` lays them out at another size than the deck's (a print service's product);
    ``copies`` (some of :func:`deck_copies`) lays out those only."""
    w, h = size_mm or (deck.width, deck.height)
    copies = deck_copies(game, deck, options) if copies is None else copies
    aid = aid_elements(game, deck, options.lang, options.bleed, size_mm) if any(c is None for c, _, _ in copies) \
        else ()
    faces = [laid_out_face(game, deck, card, options.lang, mark, (w, h), options.bleed) if card is not None else aid
             for card, _, mark in copies]
    return faces, [label for _, label, _ in copies], [card for card, _, _ in copies]


def deck_parts(deck, cards, words, several: bool = True) -> list[Part]:
    """The bill of materials of a deck as printed: its cards (a double-sided deck's cards with a side B as
    pieces of two faces, the others apart), then its player aids."""
    aids = sum(1 for c in cards if c is None)
    two = sum(1 for c in cards if c is not None and c.side_b is not None) if deck.double_sided else 0
    return counted_parts(deck, len(cards), two, aids, words, several)


def counted_parts(deck, total: int, two: int, aids: int, words, several: bool = True) -> list[Part]:
    """:func:`deck_parts` from the deck's numbers: ``total`` physical cards and aids, ``two`` cards of
    them with a side B printed, ``aids`` player aids."""
    name = escape(deck.name) if several else words.get("part_cards", "cards")
    parts = [Part("card", deck.id, total - aids - two, name)] if total - aids - two or not two else []
    if two:
        parts.append(Part("card", deck.id, two, f"{name} ({words.get('part_double_sided', 'double-sided')})",
                          faces=2))
    if aids:
        parts.append(Part("card", f"{deck.id}-aids", aids, words.get("part_aids", "player aids")))
    return parts


@with_game_icons
def build(game, options: BuildOptions, spec=None) -> list[Output]:
    """Every deck's sheets in game.yaml's order; a deck starts on a new sheet (decks of different card
    sizes never share one), each with its own back. With ``options.cutter`` the fronts carry the cutting
    machine's registration marks, the cards lie apart inside the area it cuts, and cut files (SVG, DXF)
    of the fronts' outlines go beside the PDFs. The first file records every card's drawing for the kit's
    ``pieces.json`` (:func:`printed`, :mod:`pnp.reprint.changes`)."""
    pieces = sheet_pieces(game, options)
    if pieces is not None:
        return joined_pieces(game, options, pieces, [draw_piece(game, options, piece) for piece in pieces])
    w, h = options.page_size
    fronts, backs, single, parts, folded, cut_pages = [], [], [], [], [], []
    words = strings(game, options.lang)
    machine = MACHINES[options.cutter] if options.cutter else None
    laid = replace(options, bleed=max(options.bleed, CUT_BLEED)) if machine else options
    for deck in game.decks:
        faces, labels, cards = deck_faces(game, deck, laid)
        if not faces:
            continue
        parts += deck_parts(deck, cards, words, game.several_decks)
        sheets = _deck_sheets(game, deck, options, laid, machine, faces, labels, cards, words)
        fronts += sheets[0]
        backs += sheets[1]
        folded += sheets[2]
        cut_pages += sheets[3]
        if options.bleed:
            # what print services take: every card on its own page, with its own TrimBox and BleedBox
            title = words.get("card_singles", "Cards, one per page") + (f": {deck.name}" if game.several_decks else "")
            single.append(Output(single_file(game, deck), title,
                                 single_card_pages(faces, back_elements(game, deck, laid.bleed), deck.width,
                                                   deck.height, laid.bleed, labels,
                                                   _backs(game, deck, cards, laid, labels)),
                                 in_kit=False))
    recorded = record.fragment(game, "cards", *printed(game, options))
    if options.cards == "gutterfold":
        # fronts and backs on one side of each sheet, folded on the gutter and glued
        out = Output(GUTTERFOLD_FILE, words.get("card_gutterfold", "Cards, gutterfold"), folded, parts=tuple(parts),
                     sides="fold")
        out.record = recorded
        return [out] + single
    fronts_out = Output("cards-fronts.pdf", words.get("card_fronts", "Card fronts"), fronts, parts=tuple(parts),
                        sides="double")
    if machine:
        fronts_out.beside = cut_files(game, machine, w, h, cut_pages, "cards-fronts", drawn=fronts)
    fronts_out.record = recorded
    return [
        fronts_out,
        # printed on the reverse of the fronts' sheets
        Output("cards-backs.pdf", words.get("card_backs", "Card backs"), backs, sides="double", sheets=0),
        # for duplex printers: each front page followed by its back page
        Output("cards-duplex.pdf", words.get("card_duplex", "Cards, fronts and backs"), in_kit=False,
               interleave=("cards-fronts.pdf", "cards-backs.pdf")),
    ] + single


def _backs(game, deck, cards, options, labels=None) -> list | None:
    """Each card's back when the deck's backs vary (one layout per key value a back varies by, one per copy
    of a double-sided card, its side B with the copy's corner mark), else None. ``labels``: the copies'
    (``<card id>#<copy>``), for their marks."""
    if not varies(deck):
        return None
    shared = {}
    out = []
    for i, c in enumerate(cards):
        if c is not None and c.side_b is not None and deck.double_sided:
            mark = copy_mark(game, c, labels[i]) if labels else printed_mark(game, c, 1)
            key = ("side b", c.id, mark)
        else:
            mark, key = "", card_key(c, deck.back.by) if c and deck.back is not None and deck.back.by else None
        if key not in shared:
            shared[key] = back_elements(game, deck, options.bleed, c, lang=options.lang, mark=mark)
        out.append(shared[key])
    return out


#: Card sheets drawn as one piece: when the decks take more sheets than this, they are laid out and
#: drawn in pieces of this many sheets (each a task of ``pnp build --jobs``, each kept by the build
#: cache by its cards' faces), and the pieces' pages put together. Fewer pieces, smaller files (each
#: piece embeds its own font subsets); more, finer tasks and cache entries.
PIECE_SHEETS = 32


def sheet_pieces(game, options: BuildOptions) -> list | None:
    """The card sheets in pieces of :data:`PIECE_SHEETS` sheets: per piece, (deck number, first sheet,
    sheet after the last) of each deck it holds. None when they are drawn whole: few enough sheets, or
    sheets other than plain fronts and backs (gutterfold, a cutting machine, a bleed)."""
    if options.cards != "sheets" or options.cutter or options.bleed:
        return None
    w, h = options.page_size
    sheets = []
    for number, deck in enumerate(game.decks):
        count = len(deck.physical(options.players)) + deck.aid_copies
        if count:
            per = card_grid(deck.width, deck.height, w, h).per_sheet
            sheets += [(number, sheet) for sheet in range(-(-count // per))]
    if len(sheets) <= PIECE_SHEETS:
        return None
    pieces = []
    for start in range(0, len(sheets), PIECE_SHEETS):
        spans: dict = {}
        for number, sheet in sheets[start:start + PIECE_SHEETS]:
            spans[number] = (spans.get(number, (sheet,))[0], sheet + 1)
        pieces.append(tuple((number, first, end) for number, (first, end) in spans.items()))
    return pieces


def _piece_copies(game, options, number, first, end) -> tuple:
    deck = game.decks[number]
    w, h = options.page_size
    per = card_grid(deck.width, deck.height, w, h).per_sheet
    return deck, deck_copies(game, deck, options)[first * per:end * per]


def _piece_key(game, options, piece) -> str | None:
    parts = []
    for number, first, end in piece:
        deck, copies = _piece_copies(game, options, number, first, end)
        context = face_context(game, deck)
        if context is None:
            return None
        faces = [(face_key(game, deck, card, options.lang, mark, deck.size, options.bleed) if card is not None
                  else "aid", label) for card, label, mark in copies]
        parts.append((context, number, first, end, faces))
    return buildcache.digest("card sheets piece", repr(options), parts)


def draw_piece(game, options: BuildOptions, piece) -> tuple:
    """(fronts PDF, backs PDF, [(deck number, card id or None, label, face and back fingerprints)]) of one
    piece of the card sheets (:func:`sheet_pieces`), from the build cache when it holds it."""
    from pnp.draw.merge import tag_font_subsets
    from pnp.draw.pdf import render
    from pnp.layout.inksaver import save_ink_page

    cache = buildcache.current()
    key = _piece_key(game, options, piece) if cache else None
    found = cache.get(key) if key is not None else None
    if found is not None and len(found[1]) == 2 and isinstance(found[0].get("prints"), list):
        return found[1][0], found[1][1], [tuple(p) for p in found[0]["prints"]]
    words = strings(game, options.lang)
    fronts, backs, prints, digests = [], [], [], {}
    for number, first, end in piece:
        deck, copies = _piece_copies(game, options, number, first, end)
        faces, labels, cards = deck_faces(game, deck, options, copies=copies)
        sheets = _deck_sheets(game, deck, options, options, None, faces, labels, cards, words, first_sheet=first)
        fronts += sheets[0]
        backs += sheets[1]
        per_card = _backs(game, deck, cards, options, labels)
        own = back_elements(game, deck, 0.0)
        for i, (face, label, card) in enumerate(zip(faces, labels, cards)):
            prints.append((number, card.id if card is not None else None, label,
                           record.fingerprint(face, game.root, digests),
                           record.fingerprint(per_card[i] if per_card is not None else own, game.root, digests)))

    def paint(pages):
        pages = [save_ink_page(p) for p in pages] if options.ink_saver else pages
        return tag_font_subsets(render(pages, game.title, game.author))
    drawn = paint(fronts), paint(backs), prints
    if key is not None:
        cache.put(key, {"kind": "card sheets piece", "prints": [list(p) for p in prints]}, [drawn[0], drawn[1]])
    return drawn


def joined_pieces(game, options: BuildOptions, pieces, drawn) -> list[Output]:
    """The card sheets' files from their pieces drawn (:func:`draw_piece`), as :func:`build` makes them
    whole: the pieces' pages one after the other, cards.json from their fingerprints."""
    from pnp.draw.merge import concatenate

    words = strings(game, options.lang)
    parts, prints = [], []
    for deck in game.decks:
        cards = [card for card, _, _ in deck_copies(game, deck, options)]
        if cards:
            parts += deck_parts(deck, cards, words, game.several_decks)
    aid = words.get("reprint_aid", "player aid")
    for _, _, drawn_prints in drawn:
        for number, card_id, label, face, back in drawn_prints:
            deck = game.decks[number]
            card = next(c for c in deck.cards if c.id == card_id) if card_id is not None else None
            prints.append((card.id if card is not None else label.rsplit("#", 1)[0], label,
                           escape(card.name) if card is not None else aid, face, back,
                           record.card_values(card) if card is not None else {}, deck.id))
    fronts_title, backs_title = words.get("card_fronts", "Card fronts"), words.get("card_backs", "Card backs")
    fronts = Output("cards-fronts.pdf", fronts_title, parts=tuple(parts), sides="double",
                    pdf=concatenate([d[0] for d in drawn], f"{game.title}: {fronts_title}", game.author, fronts_title))
    fronts.record = record.fragment_of(game, "cards", words.get("reprint_cards", "Cards"), prints)
    return [
        fronts,
        Output("cards-backs.pdf", backs_title, sides="double", sheets=0,
               pdf=concatenate([d[1] for d in drawn], f"{game.title}: {backs_title}", game.author, backs_title)),
        Output("cards-duplex.pdf", words.get("card_duplex", "Cards, fronts and backs"), in_kit=False,
               interleave=("cards-fronts.pdf", "cards-backs.pdf")),
    ]


def run_part(game, options: BuildOptions, checking: BuildOptions, pieces, index: int) -> tuple:
    """Part ``index`` of a parallel build of the card sheets: the checks of a share of the cards (all
    decks' cards in order, shared out evenly) and piece ``index`` drawn. For :func:`join_parts`."""
    lang, bleed = checking.lang, checking.bleed
    every = [(face, card) for deck in game.decks for face in faces_of(deck) for card in face.cards]
    share = every[len(every) * index // len(pieces):len(every) * (index + 1) // len(pieces)]
    checked, checks = [], {}
    with icons.for_game(game):
        for face, card in share:
            if (face.id, face.side) not in checks:
                checks[face.id, face.side] = _CardChecks(game, face, lang, bleed)
            checked.append(((face.id, face.side, card.id), card_check(game, face, card, checks[face.id, face.side],
                                                                      lang, bleed)))
        try:
            drawn = draw_piece(game, options, pieces[index])
        except (templating.TEMPLATE_ERRORS + (RegionError,)):
            drawn = None                    # the checks report it
    return checked, drawn


def join_parts(game, problems, options: BuildOptions, checking: BuildOptions, pieces, results) -> list | None:
    """The check's problems (as :func:`check` adds them) and the files of a build done in parts
    (:func:`run_part`): None when the check found errors."""
    done = {}
    for checked, _ in results:
        done.update(checked)
    before = len(problems.errors)
    check(game, problems, checking, done=done)
    if len(problems.errors) > before or any(drawn is None for _, drawn in results):
        return None
    with icons.for_game(game):
        return joined_pieces(game, options, pieces, [drawn for _, drawn in results])


def _deck_sheets(game, deck, options, laid, machine, faces, labels, cards, words, first_sheet: int = 0) -> tuple:
    """(front pages, back pages, gutterfold pages, cut outlines per front page) of some of a deck's cards."""
    w, h = options.page_size
    name = deck.name if game.several_decks else ""
    per_card = _backs(game, deck, cards, laid, labels)
    margins = [back_margin(game, deck, c, laid.lang, copy_mark(game, c, label) if c is not None else "")
               for c, label in zip(cards, labels)] if per_card is not None else None
    fill = back_palette(game, deck).get("back", PLAIN["back"])
    if options.cards == "gutterfold":
        return [], [], gutterfold_sheets(faces, back_elements(game, deck, options.bleed),
                                         gutterfold_plan(deck.width, deck.height, (w, h), options.bleed), labels,
                                         name, per_card, margins, fill,
                                         words.get("gutterfold_hint", GUTTERFOLD_HINT),
                                         words.get("card_gutterfold", "Cards, gutterfold")), []
    grid = cutter_grid(machine, deck.width, deck.height, w, h, laid.bleed) if machine else None
    sheets = card_sheets(faces, back_elements(game, deck, laid.bleed), deck.width, deck.height, w, h,
                         options.flip, labels, bleed=laid.bleed, back_offset=options.back_offset,
                         name=name, card_backs=per_card, margins=margins, margin_fill=fill, grid=grid,
                         crop=machine is None, first_sheet=first_sheet)
    cut_pages = []
    if machine:
        for start, page in zip(range(0, len(faces), grid.per_sheet), sheets.fronts):
            page.add(*registration_marks(machine, w, h))
            count = min(grid.per_sheet, len(faces) - start)
            outlines = [CutOutline(grid.slot(i).inset(laid.bleed), machine.corner, labels[start + i])
                        for i in range(count)]
            page.add(*keylines(machine, outlines))
            cut_pages.append(outlines)
    return sheets.fronts, sheets.backs, [], cut_pages


def printed(game, options: BuildOptions, spec=None) -> tuple[str, list]:
    """(title, every physical card and player aid of every deck in print order, as :mod:`pnp.reprint.changes` records
    them): each copy's face and back at the deck's size without bleed, and the values it is printed from."""
    plain = replace(options, bleed=0.0)
    words = strings(game, options.lang)
    out = []
    for deck in game.decks:
        faces, labels, cards = deck_faces(game, deck, plain)
        backs = _backs(game, deck, cards, plain, labels)
        own = back_elements(game, deck, 0.0)
        for i, (face, label, card) in enumerate(zip(faces, labels, cards)):
            key = card.id if card is not None else label.rsplit("#", 1)[0]
            name = escape(card.name) if card is not None else words.get("reprint_aid", "player aid")
            out.append(record.Printed(key, label, name, face, backs[i] if backs is not None else own,
                                       record.card_values(card) if card is not None else {}, deck.id))
    return words.get("reprint_cards", "Cards"), out


@with_game_icons
def reprinted(game, options: BuildOptions, labels: set, first: int, spec=None) -> record.Reprinted:
    """The sheets of the card copies ``labels`` (:mod:`pnp.reprint.changes`), laid out as :func:`build` lays out its
    cards (the same paper, bleed, gutterfold or cutting machine, whose cut files are named by the pages of
    ``reprint.pdf``, the first of these being page ``first``)."""
    w, h = options.page_size
    words = strings(game, options.lang)
    machine = MACHINES[options.cutter] if options.cutter else None
    laid = replace(options, bleed=max(options.bleed, CUT_BLEED)) if machine else options
    sheets, cut_pages, numbers, drawn = [], [], [], []
    for deck in game.decks:
        copies = [c for c in deck_copies(game, deck, laid) if c[1] in labels]
        if not copies:
            continue
        faces, names, cards = deck_faces(game, deck, laid, copies=copies)
        fronts, backs, folded, cuts = _deck_sheets(game, deck, options, laid, machine, faces, names, cards, words)
        cut_pages += cuts
        for front, back in zip(fronts, backs):      # a front page, then its back: for a duplex printer
            numbers.append(first + 2 * len(sheets))
            drawn.append(front)
            sheets.append((front, back))
        sheets += [(page, None) for page in folded]
    out = record.Reprinted(sheets)
    if machine and cut_pages:
        out.beside = cut_files(game, machine, w, h, cut_pages, "reprint", numbers, drawn=drawn)
    return out


def cut_files(game, machine, page_w: float, page_h: float, pages: list, stem: str,
              numbers: list | None = None, drawn: list | None = None) -> dict:
    """The cut files (and, for Cricut, the images) beside ``<stem>.pdf``: :func:`pnp.draw.cutfile.cut_files`."""
    from pnp.draw import cutfile

    return cutfile.cut_files(game.title, machine, page_w, page_h, pages, stem, numbers, drawn,
                             words=strings(game))


def _check_texts(elements, problems, path, line, subject, what: str = "", icons=None, place=None,
                 stamp=None, memo: dict | None = None) -> None:
    """Every text of ``elements`` has known icons, fits its box and has its characters in its font; each
    problem at ``path``:``line``, or where ``place(markup)`` says the words come from (a translation's
    line) when it says. ``stamp(text)``, when given, checks the version stamp instead (pnp prints it: it is
    not the card's). ``memo``: a dict kept over the faces of one check (a deck's), so that a text many
    faces print alike (a type line, a rules text, a badge's number) is checked once: what is found depends
    only on the text, its role, style and box, and the icons known."""
    names = None
    for el in flatten(elements):
        if not isinstance(el, Text):
            continue
        if stamp is not None and el.role == "version":
            stamp(el)
            continue
        key = (what, el.role, el.markup, el.style, el.rect.w, el.rect.h, id(icons)) if memo is not None else None
        held = memo.get(key) if key is not None else None
        if held is not None and held[0] is icons:
            found = held[1]
        else:
            if names is None:
                names = icons.names if icons else ICON_NAMES
            found = _text_problems(el, what, names)
            if key is not None:
                memo[key] = (icons, found)
        if found:       # where its words come from is looked up only for a text with a problem
            at = (place(el.markup) if place is not None else None) or (path, line)
            for message in found:
                problems.error(*at, subject, message)


def _text_problems(el: Text, what: str, names) -> tuple:
    """What is wrong with one text of a face (:func:`_check_texts`): unknown icons (of ``names``), a text
    that does not fit its box at its smallest size, characters its font lacks."""
    found = [f"{what}{el.role} text: {message}" for message in markup_problems(el.markup, names)]
    result = fit(el.markup, el.style, el.rect.w, el.rect.h)
    if not result.ok:
        found.append(f"{what}{el.role} text does not fit its {el.rect.w:.1f} x {el.rect.h:.1f} mm box even at "
                     f"{el.style.min_size or el.style.size:g} pt ({result.reason}): {el.markup!r}")
    missing = fonts.missing_glyphs(plain_text(el.markup), fonts.font_name(el.style.font))
    if missing:
        found.append(f"{what}{el.role} text uses characters the font cannot print: {' '.join(sorted(missing))}")
    return tuple(found)


def check_version_stamp(game, deck, text: Text, problems) -> None:
    """The game's version stamp (``version:`` in game.yaml, else the commit of the game folder's git
    repository) fits the region the deck's layout gives it. It is pnp's, not a card's: one problem for the
    deck, at game.yaml's ``version:`` (or the deck's line, for a commit), saying what to change."""
    result = fit(text.markup, text.style, text.rect.w, text.rect.h)
    if result.ok:
        return
    path, line = game.where("version")
    source = "game.yaml's version"
    if line is None:
        path, line = game.deck_where(deck)
        source = "the commit of the game folder's git repository"
    problems.error(path, line, f"deck '{deck.id}'",
                   f"the version stamp {game.version!r} ({source}) does not fit the {text.rect.w:.1f} x "
                   f"{text.rect.h:.1f} mm corner its layout gives it on {deck.width:g} x {deck.height:g} mm cards, "
                   f"even at {text.style.min_size or text.style.size:g} pt ({result.reason}): give the layout's "
                   f"'version' region more room, or leave it out with {{name: version, remove: true}}")


def translated_card_place(game, deck, card, lang):
    """``place(markup)`` for :func:`_check_texts` of a card's face in ``lang``: the line of
    ``i18n/<lang>.yaml`` that gives the card's words a text prints (its name, flavour, a text or list
    field), or None. None in the game's own language."""
    if not lang or lang == game.source_language:
        return None
    at = f"cards.{card.id}.side_b" if deck.side == "b" else f"cards.{card.id}"
    keys = [f"{at}.{key}" for key in ("name", "flavour", *(f.name for f in deck.fields if f.type in ("text", "list")))]
    return lambda markup: words_at(game, lang, markup, keys)


def unprinted_fields(game, deck, layout) -> list:
    """The fields of ``deck`` that no region of ``layout`` prints: not named by a region
    (:func:`pnp.loading.cardlayout.shown_fields`), nor printed by a generic one (``badges``, the ``rules`` box, the
    ``type_line``, the ``watermark``), nor on the back (its ``by`` key), nor shown by the look it chooses
    (the key the deck's layouts are chosen by)."""
    shown = shown_fields(layout)
    if shown is None:                # a region reaches fields by a computed name: it may print any
        return []
    kinds, names = showing(layout)
    printed = set(shown)
    if deck.back is not None and deck.back.by:
        printed.add(deck.back.by)
    if deck.layout is not None and deck.layout.by:      # the look its value chooses shows it
        printed.add(deck.layout.by)
    if deck.watermark and "watermark" in names:
        printed.add(deck.watermark)
    for f in deck.fields:
        if f.badge and ("badges" in kinds or "stats" in names):
            printed.add(f.name)
        elif f.type == "text" and "rules" in names:
            printed.add(f.name)
        elif not f.badge and f.type != "text" and names & {"type_line", "labels"}:
            printed.add(f.name)
    return [f for f in deck.fields if f.name not in printed]


def check_unprinted_fields(game, deck, problems) -> None:
    """A warning for each field of ``deck`` that a layout its cards use prints nowhere."""
    used = {}
    for card in deck.cards:
        layout = layout_of(deck, card)
        used.setdefault(id(layout), layout)
    for layout in used.values():
        for f in unprinted_fields(game, deck, layout):
            where = f"deck '{deck.id}'" if game.several_decks or deck.id != "cards" else "card"
            where += " side B" if deck.side == "b" else ""
            problems.warn(game.root / "game.yaml", f.line or deck.line, f"{where} field '{f.name}'",
                          f"no region of layout '{layout.name}' ({Path(layout.source).name}) prints it; show it in a "
                          f"region of its own (text: \"field('{f.name}')\") or keep the rules box and type line of "
                          f"'classic', which print every field")


#: Art printed below this many dots per inch looks soft; validation warns.
ART_DPI = 300


def effective_dpi(pixels: tuple, area_mm: tuple, fit: str) -> float:
    """Dots per inch of an image of ``pixels`` printed to fill ``area_mm`` as ``fit`` says (the lower of
    the two directions)."""
    (pw, ph), (w, h) = pixels, area_mm
    across, down = pw / (w / 25.4), ph / (h / 25.4)
    return max(across, down) if fit == "contain" else min(across, down)


class _ValueCard:
    """A stand-in card whose key ``key`` has ``value`` (to lay out each back a deck varies by)."""

    def __init__(self, key, value):
        self.stats = {key: value}
        self.id = self.name = self.faction = self.rank = self.flavour = value
        self.copies = 1


def check_art_dpi(game, deck, problems, lang=None, bleed: float = 0.0) -> None:
    """Warn when a card's PNG or JPEG art prints below :data:`ART_DPI` at its size on the card (the art
    area its layout gives it: the classic layout's is taller on a card without rules text)."""
    for card_id, art in deck.art.items():
        if art.path.suffix.lower() == ".svg":
            continue
        pixels = image_pixels(art.path)
        if pixels is None:
            continue
        card = next(c for c in deck.cards if c.id == card_id)     # deck.b holds each card's side B
        area = art_area(deck.width, deck.height)
        try:
            face = laid_out_face(game, deck, card, lang, printed_mark(game, card, 1), (deck.width, deck.height), bleed)
            shown = next((e for e in flatten(face) if isinstance(e, Picture) and e.path == str(art.path)), None)
            if shown is not None:           # the picture itself: its generated bleed is made of its edge pixels
                gl, gb, gr, gt = shown.grow_sides
                area = Rect(shown.rect.x + gl, shown.rect.y + gb, shown.rect.w - gl - gr, shown.rect.h - gb - gt)
        except (templating.TEMPLATE_ERRORS + (RegionError,)):
            pass                                 # its layout's problem is reported for its region
        low = low_dpi(pixels, (area.w, area.h), art.fit)
        if low:
            path, line = game.sources.get(card_id, (deck.cards_file, None))
            what = "side_b.art" if deck.side == "b" else "art"
            problems.warn(path, art.line or line, face_subject(deck, card), f"{what} {art.path.name} {low}")


def low_dpi(pixels: tuple, area_mm: tuple, fit: str) -> str | None:
    """How a picture of ``pixels`` filling ``area_mm`` as ``fit`` says prints when that is below
    :data:`ART_DPI` (``prints at 30 dpi (...); print shops ask for 300``), else None."""
    dpi = effective_dpi(pixels, area_mm, fit)
    if round(dpi) >= ART_DPI:               # 744 x 1039 px on a poker card: 299.9 dpi, the size services ask for
        return None
    return (f"prints at {dpi:.0f} dpi ({pixels[0]} x {pixels[1]} px on {area_mm[0]:.1f} x {area_mm[1]:.1f} mm); "
            f"print shops ask for {ART_DPI}")


def check_empty_space(game, deck, problems, lang=None) -> None:
    """A warning for every layout region (else every layout) that leaves more than
    :data:`pnp.layout.space.MAX_EMPTY_SHARE` of a card's face empty in one rectangle
    (:mod:`pnp.components.emptiness`), at the region's line, or at the deck's line in game.yaml."""
    from pnp.components.emptiness import EmptySpace
    from pnp.draw.icons import using

    size = (deck.width, deck.height)
    empty = EmptySpace(f"deck '{deck.id}'")
    with using(game.icons):
        for card in deck.cards:
            try:
                face = laid_out_face(game, deck, card, lang, printed_mark(game, card, 1), size, 0.0)
            except (RegionError, DataError):
                continue                        # reported by the card's own check
            empty.add(layout_of(deck, card), face, size, card.id, game.deck_where(deck))
    empty.report(problems)


def check_aid_space(game, deck, aid, problems, lang=None) -> None:
    """A warning at the player aid's template when its card, its text set as large as it may print
    (:data:`pnp.layout.cards.AID_BODY_STYLE`), still leaves more than
    :data:`pnp.layout.space.MAX_EMPTY_SHARE` of its face empty in one rectangle (Starfall's four short
    lines left the lower half of the card blank)."""
    from pnp.components.emptiness import face_empty, where_on
    from pnp.draw.icons import using
    from pnp.layout.cards import AID_BODY_STYLE
    from pnp.layout.space import MAX_EMPTY_SHARE
    from pnp.loading.cardtext import aid_template

    size = (deck.width, deck.height)
    with using(game.icons):
        empty = face_empty(aid, size)
    if empty.share <= MAX_EMPTY_SHARE:
        return
    try:
        path, line = aid_template(game, deck, lang).filename, 1
    except jinja2.TemplateNotFound:
        path, line = game.deck_where(deck) if game.several_decks else game.where("player_aid")
    r = empty.rect
    problems.warn(path, line, f"deck '{deck.id}': player aid",
                  f"its text, at {AID_BODY_STYLE.size:g} pt, the largest a player aid prints, leaves "
                  f"{empty.share:.0%} of the card empty in one area ({r.w:.0f} x {r.h:.0f} mm "
                  f"{where_on(r, size[1])}; more than {MAX_EMPTY_SHARE:.0%}): give it more of what a player "
                  f"looks up during the game (the turn's steps, what scores, the end), or leave the aids out")


def check_back_pictures(game, deck, problems) -> None:
    """A deck's back pictures, as its card art is checked: a PNG or JPEG that prints below :data:`ART_DPI`
    on the card is a warning at its line; with a back picked by a card key (``by``), a value of
    ``images``, ``labels`` or ``emblems`` that no card of the deck has (nor the key declares: a choice, a
    faction, a rank) is an error naming the closest value, and cards left without a picture (no value of
    theirs in ``images``, ``labels`` or ``emblems`` and no ``image`` for the others: they print the
    designed back) are a warning naming them."""
    back = deck.back
    if back is None:
        return
    path, subject = game.root / "game.yaml", f"deck '{deck.id}'"
    for what, value, picture in [("image", None, back.image)] + [("images", v, p) for v, p in back.images]:
        pixels = image_pixels(picture) if picture is not None and picture.suffix.lower() != ".svg" else None
        low = low_dpi(pixels, (deck.width, deck.height), back.fit) if pixels else None
        if low:
            problems.warn(path, back.where(what, value), subject, f"back.{what}{f'.{value}' if value else ''}: "
                                                                  f"{picture.name} {low}")
    if back.by is None:
        return
    held = {}
    for card in deck.cards:
        value = card_key(card, back.by)
        if value is not None:
            held.setdefault(str(value), []).append(card)
    declared = {"faction": [f.id for f in game.factions], "rank": [r.id for r in game.ranks]}.get(back.by) or \
        next((list(f.choices or ()) for f in deck.fields if f.name == back.by), [])
    known = list(held) + [str(v) for v in declared if str(v) not in held]
    meant = set()                       # the values a misspelt one is taken for: not reported twice
    for what, keyed in (("images", back.images), ("labels", back.labels), ("emblems", back.emblems)):
        for value, _ in keyed:
            if value in known:
                continue
            close = closest(value, known)
            meant.add(close)
            hint = f"; did you mean '{close}'?" if close else f" (the cards have: {', '.join(sorted(held)[:12])})"
            problems.error(path, back.where(what, value), subject,
                           f"back.{what}: no card of the deck has {back.by} {excerpt(value)}{hint}")
    if not back.images or back.image is not None:
        return
    # a value with a label or an emblem of its own prints the designed back on purpose
    chosen = {v for v, _ in back.images} | {v for v, _ in back.labels} | {v for v, _ in back.emblems}
    bare = [(value, cards) for value, cards in held.items() if value not in chosen and value not in meant]
    if bare:
        problems.warn(path, back.where("images"), subject, f"back.images: {_without(back.by, bare)}")


def check_layout_values(game, deck, problems) -> None:
    """With layouts picked by a card key (``layout: {by: KEY, layouts: {VALUE: ...}}``), a VALUE that no card
    of the deck has (nor the key declares: a choice, a faction, a rank) is an error naming the closest value
    the cards have: its layout would never be drawn, and the cards meant for it would get the default."""
    choice = deck.layout
    if choice is None or choice.by is None or not choice.layouts:
        return
    held = {str(v) for v in (card_key(card, choice.by) for card in deck.cards) if v is not None}
    declared = {"faction": [f.id for f in game.factions], "rank": [r.id for r in game.ranks]}.get(choice.by) or \
        next((list(f.choices or ()) for f in deck.fields if f.name == choice.by), [])
    known = sorted(held) + [str(v) for v in declared if str(v) not in held]
    for value, _ in choice.layouts:
        if value in known:
            continue
        close = closest(value, known)
        hint = f"; did you mean '{close}'?" if close else f" (the cards have: {', '.join(sorted(held)[:12])})"
        key = "side_b.layout.layouts" if deck.side == "b" else "layout.layouts"       # (deck.b: its side B's)
        problems.error(game.root / "game.yaml", choice.line(value), f"deck '{deck.id}'",
                       f"{key}: no card of the deck has {choice.by} {excerpt(value)}{hint}")


def _without(key: str, bare: list) -> str:
    """What a back keyed by ``key`` says of the ``bare`` (value, cards) it gives no picture."""
    if key == "id":
        names = [f"'{value}'" for value, _ in bare]
        one = len(names) == 1
        who = ("card " if one else "cards ") + _listed(names)
    else:
        named = [f"{key} '{value}' ({f'card {cards[0].id!r}' if len(cards) == 1 else f'{len(cards)} cards, e.g. card {cards[0].id!r}'})"
                 for value, cards in bare]
        one = sum(len(cards) for _, cards in bare) == 1
        who = _listed(named)
    return (f"{who} {'has no picture' if len(bare) == 1 else 'have no picture'}, and there is no image: for the others, so "
            f"{'it prints' if one else 'they print'} the designed back; give {'it' if len(bare) == 1 else 'each'} a "
            f"picture, or give image: for every card without one")


def _listed(names: list, most: int = 6) -> str:
    """``'a', 'b' and 'c'`` (the first ``most``, then how many more)."""
    if len(names) > most:
        return ", ".join(names[:most]) + f" and {len(names) - most} more"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def check_back_bleed(game, problems, bleed, context: str = "") -> None:
    """With a bleed (mm, or {deck id: mm} for the decks an export prints): a warning for each back picture
    that has the card's own proportions (made to the trim, so the bleed would cut into it) when its deck
    does not ask for a bleed made from its edges, at the back's line in game.yaml. ``context`` says what
    adds the bleed when it is not ``--bleed`` (an export's preset)."""
    for deck in game.decks:
        back = deck.back
        deck_bleed = bleed.get(deck.id) if isinstance(bleed, dict) else bleed
        if back is None or back.bleed or deck.bleed or not deck_bleed:
            continue
        pictures = dict.fromkeys([back.image] + [p for _, p in back.images])
        w, h = deck.width, deck.height
        for picture in pictures:
            if picture is None or picture.suffix.lower() == ".svg":
                continue
            size = image_pixels(picture)
            if not size or not size[1]:
                continue
            ratio = size[0] / size[1]
            trim, full = w / h, (w + 2 * deck_bleed) / (h + 2 * deck_bleed)
            if abs(ratio - trim) < abs(ratio - full) and abs(ratio - trim) <= 0.01 * trim:
                mm = f"{deck_bleed:.1f}" if context else f"{deck_bleed:g}"
                problems.warn(game.root / "game.yaml", back.line or game.deck_where(deck)[1], f"deck '{deck.id}' back",
                              f"{picture.name} ({size[0]} x {size[1]} px) has the proportions of the {w:g} x {h:g} mm "
                              f"card, so it ends at the trim: drawn over the {mm} mm bleed"
                              f"{f' that {context} adds,' if context else ''} it loses about {mm} mm at every edge; give it "
                              f"bleed: extend (or mirror) to make the bleed from its edges")


def check_art_at_trim(deck, card, face, bleed: float, problems, path, line) -> None:
    """With a bleed: a warning when a card's PNG or JPEG art fills an area that reaches the trim and neither
    the card (``art_bleed``) nor its deck (``bleed``) says how to make its bleed: the band past the trim
    there prints without it."""
    art = deck.art.get(card.id)
    if art is None or art.bleed or art.fit == "contain" or art.path.suffix.lower() == ".svg":
        return
    picture = next((e for e in flatten(face) if isinstance(e, Picture) and e.path == str(art.path)), None)
    if picture is None:
        return
    sides = [name for name, at in zip(("left", "bottom", "right", "top"),
                                      trim_sides(picture.rect, deck.width, deck.height)) if at]
    if sides:
        edges = ", ".join(sides[:-1]) + (" and " if len(sides) > 1 else "") + sides[-1]
        problems.warn(path, art.line or line, f"card '{card.id}'",
                      f"art {art.path.name} ends at the trim ({edges} {'edges' if len(sides) > 1 else 'edge'}): the "
                      f"{bleed:g} mm bleed there prints without it; give the card art_bleed: extend (or mirror), or "
                      f"its deck bleed: extend, to make the bleed from the picture's edges")


def check_back_offset(game, problems, options: BuildOptions) -> None:
    """A warning when ``--back-offset`` moves card backs closer to the sheet edge than home printers
    print (5 mm): those edges would come out white."""
    if not any(options.back_offset):
        return
    w, h = options.page_size
    gap, edge = min(offset_backs_clearance(d.width, d.height, w, h, options.flip, options.bleed,
                                           options.back_offset) for d in game.decks)
    if gap < PRINTABLE_EDGE - 1e-9:
        x, y = options.back_offset
        problems.warn(None, None, "--back-offset",
                      f"{x:g},{y:g} moves card backs to {max(gap, 0.0):.1f} mm from the {edge} edge of the "
                      f"{options.paper} sheet; most home printers leave {PRINTABLE_EDGE:g} mm white, so the "
                      f"backs' edge will not print there (check the offset with --calibration)")


def _check_card(game, deck, card, problems, lang, bleed, path, line, mark, reports: list, words=None,
                texts: dict | None = None) -> None:
    """One card's check: its face's regions evaluated, its face laid out and every text fitted. Each
    problem of a layout region is noted in ``reports`` as (region, key, text), for the deck's
    :class:`RegionProblems` (which tells a problem once for all cards). ``words``: the layouts' ``t`` for
    the deck's cards (:func:`face_content`); ``texts``: the deck's memo of its texts' checks
    (:func:`_check_texts`)."""
    try:
        content = face_content(game, card, lang, mark, deck, words)
    except templating.TEMPLATE_ERRORS as exc:            # its ability text's template
        problems.append(templating.template_problem(exc, subject=face_subject(deck, card)))
        return
    # every region of its layout evaluated: a problem is reported once per region, for all cards
    layout = layout_of(deck, card)
    wrong = []
    regions = evaluate(layout, face_scope(content, layout), markup=True, icons=game.icons.names,
                       report=lambda *problem: (wrong.append(problem), reports.append(tuple(problem))))
    if wrong:
        return
    try:
        # the face of its first copy as the build prints it (the build then reuses it), laid out from the
        # regions just evaluated: with nothing reported they are what evaluating them again would give
        # (the game's icons only checked, no value changed)
        face = laid_out_face(game, deck, card, lang, mark, (deck.width, deck.height), bleed, content, regions)
    except RegionError as exc:
        reports.append((exc.region, None, str(exc)))
        return
    _check_texts(face, problems, path, line, face_subject(deck, card), icons=game.icons,
                 place=card_place(game, deck, card, lang),
                 stamp=lambda text: check_version_stamp(game, deck, text, problems), memo=texts)
    if bleed:
        check_art_at_trim(deck, card, face, bleed, problems, path, line)


def face_subject(deck, card) -> str:
    """How a message names a card's face: ``card 'plum'``, or ``card 'plum' side B`` for its side B."""
    return f"card '{card.id}' side B" if deck.side == "b" else f"card '{card.id}'"


def card_place(game, deck, card, lang):
    """``place(markup)`` for :func:`_check_texts` of a card's face (:func:`translated_card_place`); on a
    card's side B, without a translation's line, the line (or spreadsheet cell) of the side B value whose
    words the text prints (its name, flavour, a field), else of its ``side_b``."""
    translated = translated_card_place(game, deck, card, lang)
    if deck.side != "b":
        return translated
    path = game.source(card)[0]
    where = deck_b_spec(game, deck).where

    def place(markup):
        found = translated(markup) if translated is not None else None
        if found is not None:
            return found
        key = printed_key(markup, side_values(deck, card))
        return path, where(card.id, key) if key else where(card.id)
    return place


def deck_b_spec(game, deck):
    """The :class:`~pnp.loading.decks.SideB` of a deck as its side B sees it (``deck.b``)."""
    return game.deck(deck.id).side_b


def side_values(deck, card) -> dict:
    """The printed words of a card's face by key (its name, flavour, text and list fields)."""
    values = {"name": card.name, "flavour": card.flavour}
    for f in deck.fields:
        value = card.stats.get(f.name)
        if f.type in ("text", "list") and value:
            values[f.name] = value
    return values


def printed_key(markup: str, values: dict) -> str | None:
    """The key of ``values`` (key -> text or list of texts) whose words ``markup`` (an element's) prints,
    the longest when several do, or None."""
    shown = words_of(markup)
    best = None
    for key, value in values.items():
        words = words_of(value) if value else ""
        if words and words in shown and (best is None or len(words) > best[0]):
            best = (len(words), key)
    return best[1] if best else None


def card_check(game, deck, card, checks, lang, bleed) -> tuple:
    """(key, problems, region reports) of one card's check, from ``checks`` (a :class:`_CardChecks`)
    when it holds it."""
    path, line = game.source(card)
    mark = printed_mark(game, card, 1)
    # a side B's problems are told at the lines of its values: they are its place too
    place = (line, sorted(deck_b_spec(game, deck).lines.get(card.id, {}).items())) if deck.side == "b" else line
    key = checks.key(card, mark, path, place)
    held = checks.get(key)
    if held is not None:
        return key, held[0], held[1]
    found, reports = Problems(), []
    _check_card(game, deck, card, found, lang, bleed, path, line, mark, reports, checks.words, checks.texts)
    return key, tuple(found), tuple(reports)


class _CardChecks:
    """Each card's check by a key of its face and its place (:func:`face_key`, file and line), from this
    process's last builds or the build cache's entry for the deck (one entry per deck and language: the
    checks of its cards as they are now), so a card edit checks that card only. Without a build cache,
    every card is checked."""

    def __init__(self, game, deck, lang, bleed):
        self.cache, self.game, self.deck, self.lang, self.bleed = buildcache.current(), game, deck, lang, bleed
        context = face_context(game, deck, self.cache) if self.cache else None
        self.entry = buildcache.digest("card checks", context, lang, bleed) if context is not None else None
        self.found = self.cache.get(self.entry) if self.entry is not None else None
        self.kept: dict = {}
        self.fresh = False
        self._words = None
        #: each distinct text's problems (:func:`_check_texts`), for the deck's faces
        self.texts: dict = {}

    @property
    def words(self):
        """The layouts' ``t`` for the deck's cards, made once for all of them (it reads the game's and
        pnp's words files: per card it was a tenth of a large deck's check)."""
        if self._words is None:
            self._words = words_function(self.game, self.lang)
        return self._words

    def key(self, card, mark, path, line) -> str | None:
        if self.entry is None:
            return None
        face = face_key(self.game, self.deck, card, self.lang, mark, (self.deck.width, self.deck.height), self.bleed)
        return buildcache.digest("card check", face, str(path), line) if face is not None else None

    def get(self, key):
        """(problems, region reports) of the card check ``key``, or None."""
        if key is None:
            return None
        held = _CHECKED.get(self.cache, key)
        if held is None and self.found is not None:
            cards = self.found[0].get("cards")
            item = cards.get(key) if isinstance(cards, dict) else None
            problems = buildcache.problems_from_json(item[0], self.game.root) if isinstance(item, list) and \
                len(item) == 2 else None
            reports = item[1] if problems is not None else None
            if isinstance(reports, list) and all(isinstance(r, list) and len(r) == 3 and
                                                 all(v is None or isinstance(v, str) for v in r) for r in reports):
                held = (tuple(problems), tuple(tuple(r) for r in reports))
                _CHECKED.put(self.cache, key, held)
        if held is not None:
            self.kept[key] = held
        return held

    def put(self, key, problems, reports) -> None:
        """Note a card's check (done here, or by a part of a parallel build), kept by :meth:`store`."""
        if key is None:
            return
        held = (tuple(problems), tuple(reports))
        if key not in self.kept:
            self.fresh = True
        _CHECKED.put(self.cache, key, held)
        self.kept[key] = held

    def store(self) -> None:
        """Keep the deck's checks in the build cache (when one was done anew)."""
        if self.entry is None or not (self.fresh or self.found is None):
            return
        cards = {}
        for key, (problems, reports) in self.kept.items():
            written = buildcache.problems_to_json(problems, self.game.root)
            if written is None:
                return
            cards[key] = [written, [list(r) for r in reports]]
        self.cache.put(self.entry, {"kind": "card checks", "cards": cards}, [])


@with_game_icons
def check(game, problems, options: BuildOptions | None = None, spec=None, done: dict | None = None) -> None:
    """Every text on every face fits its box at the smallest allowed size, in fonts that have its glyphs.
    ``done``: cards checked already (by (deck id, side, card id): :func:`card_check`'s result), as the parts
    of a parallel build check them (:func:`run_part`)."""
    if options is not None:
        check_back_offset(game, problems, options)
        if options.bleed:
            check_back_bleed(game, problems, options.bleed)
    lang = options.lang if options else None
    bleed = options.bleed if options else 0.0
    for deck in game.decks:
        regions = RegionProblems()
        for face in faces_of(deck):         # its cards' faces, then their side B (a double-sided deck)
            checks = _CardChecks(game, face, lang, bleed)
            for card in face.cards:
                given = done.get((face.id, face.side, card.id)) if done is not None else None
                key, found, reports = given if given is not None else card_check(game, face, card, checks, lang,
                                                                                 bleed)
                checks.put(key, found, reports)
                problems.extend(found)
                if reports:
                    report = regions.for_piece(layout_of(face, card), card.id)
                    for region, name, text in reports:
                        report(region, name, text)
            checks.store()
        regions.report(problems)
        for face in faces_of(deck):
            check_art_dpi(game, face, problems, lang, bleed)
            check_unprinted_fields(game, face, problems)
            check_layout_values(game, face, problems)
            if not problems.errors:     # advice on a design that draws: after its mistakes are fixed
                check_empty_space(game, face, problems, lang)
        check_back_pictures(game, deck, problems)
        at = game.deck_where(deck) if game.several_decks else game.where("player_aid")
        try:
            aid = aid_elements(game, deck, lang)
        except jinja2.TemplateNotFound as exc:
            problems.error(*at, "player aid", f"no template {exc.name} in templates/")
            aid = ()
        for el in aid:
            if not isinstance(el, Text):
                continue
            for message in markup_problems(el.markup, game.icons.names):
                problems.error(*at, "player aid", f"{el.role} text: {message}")
            if not fit(el.markup, el.style, el.rect.w, el.rect.h).ok:
                problems.error(*at, "player aid",
                               f"{el.role} text does not fit the card even at {el.style.min_size:g} pt")
        if aid and not problems.errors:
            check_aid_space(game, deck, aid, problems, lang)
        values = [None] + (deck.back.variants() if deck.back is not None else [])
        for value in values:
            probe = _ValueCard(deck.back.by, value) if value is not None else None
            for el in flatten(back_elements(game, deck, 0.0, probe)):
                if isinstance(el, Text) and not fit(el.markup, el.style, el.rect.w, el.rect.h).ok:
                    keys = ["title", f"decks.{deck.id}.back.label"] + \
                        ([f"decks.{deck.id}.back.labels.{value}"] if value is not None else [])
                    given = words_at(game, lang, el.markup, keys)        # at the translation's line
                    where = given or (game.deck_where(deck) if game.several_decks or deck.back else
                                      game.where("title"))
                    subject = f"deck '{deck.id}': back" + (f" of '{value}'" if value is not None else "")
                    words = f" (the words of i18n/{lang}.yaml)" if lang and lang != game.source_language and \
                        not given else ""
                    problems.error(*where, subject, f"{plain_text(el.markup)!r}{words} does not fit the "
                                   f"{deck.width:g} x {deck.height:g} mm designed back even at "
                                   f"{el.style.min_size:g} pt ({el.rect.w:.1f} mm across inside its frame): "
                                   f"shorten it")


def faces_of(deck) -> list:
    """The deck as each face of its cards sees it: the deck, then ``deck.b`` when its cards have a side B."""
    return [deck] + ([deck.b] if deck.b is not None else [])


def cut_pieces(game, options: BuildOptions | None = None, spec=None):
    """Every distinct face (each card's first copy, the player aid) and back of every deck, as cut out."""
    lang = options.lang if options else None
    name = spec.id if spec else "cards"
    for deck in game.decks:
        outline = RectOutline(Rect(0.0, 0.0, deck.width, deck.height))
        for card in deck.cards:
            face = laid_out_face(game, deck, card, lang, printed_mark(game, card, 1), (deck.width, deck.height), 0.0)
            yield CutPiece(name, f"card '{card.id}'", outline, face, game.source(card), trimmed=True)
            side = side_b_face(game, deck, card, lang, printed_mark(game, card, 1))
            if side is not None:        # its side B: each text at the line of the value it prints
                path = game.source(card)[0]
                spec = deck.side_b
                places = tuple((words_of(value), (path, spec.where(card.id, key)))
                               for key, value in side_values(deck.b, card.side_b).items())
                yield CutPiece(name, f"card '{card.id}' side B", outline, side, (path, spec.where(card.id)),
                               trimmed=True, places=places)
        at = game.deck_where(deck) if game.several_decks else game.where("player_aid")
        deck_name = f" ({deck.id})" if game.several_decks else ""
        aid = aid_elements(game, deck, lang)
        if aid:
            yield CutPiece(name, f"player aid{deck_name}", outline, aid, at, trimmed=True)
        values = [None] + (deck.back.variants() if deck.back is not None else [])
        where = game.deck_where(deck) if game.several_decks or deck.back else game.where("title")
        for value in values:
            probe = _ValueCard(deck.back.by, value) if value is not None else None
            yield CutPiece(name, f"card back{deck_name}{f' {value}' if value is not None else ''}", outline,
                           back_elements(game, deck, 0.0, probe), where, trimmed=True)


def words(game, spec=None) -> list:
    """What the card sheets print beyond the decks' data that a translation gives: the printed literals of
    the decks' layouts (which should say ``t('key')`` instead), the card-text template of the game's
    ability kinds and each deck's player-aid template (a file per language)."""
    from pnp.loading.i18n.catalogue import Source
    from pnp.loading.i18n.literals import layout_sources

    out = []
    for deck in game.decks:
        layouts = deck.layout.all() if deck.layout is not None else [bundled("classic")]
        for layout in layouts:
            out += layout_sources(layout, game.root, game.deck_where(deck))
    roots = [str(r) for r in template_roots(game.root)]
    if game.engine and any(c.ability for c in game.cards):
        names = template_names(game.engine, "{lang}")
        out += _template(game, roots, names, "the template", "card text")
    for deck in game.decks:
        if deck.aid_copies:
            stem = deck.aids.get("template", "quick_reference")
            out += _template(game, roots, [f"aids/{{lang}}/{stem}.md.j2"], "the template", f"deck '{deck.id}' player aid")
    return out


def _template(game, roots, names, what, subject) -> list:
    """A template per language as a :class:`~pnp.loading.i18n.catalogue.Source` (none when the data's own
    language lacks it too: its own check reports that)."""
    from pathlib import Path

    from pnp.loading.i18n.catalogue import Source

    patterns = tuple(f"{root}/{name}" for name in names for root in roots)
    original = next((Path(p.replace("{lang}", game.source_language)) for p in patterns
                     if Path(p.replace("{lang}", game.source_language)).is_file()), None)
    if original is None:
        return []
    return [Source(f"templates/{names[0]}", patterns, original, None, subject, what, kind="template")]


def listed(game, options: BuildOptions, spec=None) -> list[Output]:
    """The files :func:`build` makes as the instructions page lists them (titles, pieces, sides, a page per
    sheet of cards), without laying out a card (``Component.listed``): the page's check measures it on
    every validate, a deck of thousands of cards included."""
    words = strings(game, options.lang)
    w, h = options.page_size
    parts, pages = [], 0
    for deck in buildcache.counts_only(game).decks:    # the cards' numbers only: a card's edit keeps the page's check
        cards = deck.physical(options.players)
        two = sum(1 for c in cards if c.side_b) if deck.double_sided else 0
        total = len(cards) + deck.aid_copies
        if total:
            parts += counted_parts(deck, total, two, deck.aid_copies, words, game.several_decks)
            per = max(1, card_grid(deck.width, deck.height, w, h).per_sheet)
            pages += -(-total // per)
    blank = [()] * pages
    if options.cards == "gutterfold":
        return [Output(GUTTERFOLD_FILE, words.get("card_gutterfold", "Cards, gutterfold"), blank, parts=tuple(parts),
                       sides="fold")]
    return [Output("cards-fronts.pdf", words.get("card_fronts", "Card fronts"), blank, parts=tuple(parts),
                   sides="double"),
            Output("cards-backs.pdf", words.get("card_backs", "Card backs"), blank, sides="double", sheets=0)]


COMPONENT = Component("cards", build, check, weight=4, listed=listed, pieces=cut_pieces, words=words, printed=printed,
                      reprint=reprinted,
                      split=sheet_pieces, run_part=run_part, join_parts=join_parts)
