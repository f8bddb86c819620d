"""Every physical card as an image: the faces (each copy of each card, then the player aids) and the
backs (the deck's, and one per value of the card key its back varies by), drawn by the same layout code
as the printed sheets (:mod:`pnp.layout.cards`).

Faces are laid out once per distinct card, placed on pages of the card's size plus the bleed on every
side, rendered to one PDF by :mod:`pnp.draw.pdf` and rasterized page by page (:mod:`pnp.draw.raster`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace

from pnp.suggest import closest
from pnp.loading.cardtext import aid_text
from pnp.components import BuildOptions
from pnp.components.cards import (_ValueCard, back_elements, card_key, kept_face_key, laid_out_face, palette,
                                  players_mark)
from pnp.draw.icons import for_game
from pnp.draw.pdf import render
from pnp.errors import DataError, Problems, UserError
from pnp.draw.raster import Rasterizer, png_bytes, size_px
from pnp.build.output import write_atomically
from pnp.loading.paths import excerpt
from pnp.layout.cards import aid_face
from pnp.text.markup import escape
from pnp.layout.geometry import Group, Page, Rect
from pnp.validation.checks import validate_game

#: The record of the files an export wrote, so the next one removes those it no longer makes.
RECORD = ".pnp-export-cards.json"
FRONTS = "fronts"  # folder of the face images in a print service's export
BACKS = "backs"    # folder of each card's back in a print service's export, when a deck's backs vary
AID = "aid"      # face key and file name stem of the player-aid cards
BACK = "back"    # face key and file name stem of the shared back
SIDE_B = "@b"    # after a card id in a face key: the card's side B (``plum@b|3+``); not in any id


@dataclass(frozen=True)
class DeckCard:
    """One physical card: which face it shows, and which copy of that face it is (1-based)."""

    id: str          # card id, or "aid" for a player-aid card
    copy: int
    name: str
    kind: str        # "card" or "aid"
    mark: str = ""   # player-count mark printed on this copy ("3+"), as on the printed sheets
    deck: str = ""   # the deck's id when the game has several decks (its faces' keys carry it)
    name_b: str = ""  # a double-sided card's side B's name ("" for a card with one face)

    @property
    def face(self) -> str:
        """Key of the image this card shows: copies with the same mark share one."""
        key = f"{self.deck}:{self.id}" if self.kind == "aid" and self.deck else self.id
        return f"{key}|{self.mark}" if self.mark else key

    @property
    def stem(self) -> str:
        return f"{self.id}-{self.copy}"


def checked_game(game_arg, lang: str | None = None):
    """The game, after the checks ``pnp build`` runs (DataError with every problem otherwise)."""
    return checked(game_arg, lang).game


def checked(game_arg, lang: str | None = None, allow_missing: bool = False):
    """The checks ``pnp build`` runs (:class:`pnp.validation.checks.ValidationResult`; DataError with every
    problem otherwise). With ``allow_missing``, printed strings ``lang`` lacks are no error: they print in
    the game's own language, and the result's ``untranslated`` counts them."""
    problems = Problems()
    result = validate_game(game_arg, problems, BuildOptions(lang=lang, thorough=False, allow_missing=allow_missing))
    if problems.errors:
        raise DataError(problems.errors)
    return result


def select_decks(game, ids=None) -> tuple:
    """The decks ``ids`` names (``--deck``), in game.yaml's order; every deck when ``ids`` is empty.
    UserError for an id the game has no deck of, with the closest one."""
    if not ids:
        return tuple(game.decks)
    known = [d.id for d in game.decks]
    for deck_id in ids:
        if deck_id not in known:
            close = closest(deck_id, known)
            hint = f"; did you mean '{close}'?" if close else ""
            raise UserError(f"--deck {excerpt(deck_id)}: {game.title} has no deck of that id{hint} "
                            f"(decks: {', '.join(known)})")
    return tuple(d for d in game.decks if d.id in ids)


def deck_cards(game, lang: str | None = None, deck=None) -> list[DeckCard]:
    """Every physical card of ``deck`` (default: of every deck) in print order: the cards (data order,
    copies together), then the deck's aids."""
    decks = [deck] if deck is not None else list(game.decks)
    out = []
    for d in decks:
        seen = {}
        tag = d.id if game.several_decks else ""
        for card in d.physical():
            seen[card.id] = seen.get(card.id, 0) + 1
            out.append(DeckCard(card.id, seen[card.id], card.name, "card", players_mark(game, card, seen[card.id]),
                                tag, card.side_b.name if card.side_b is not None else ""))
        if d.aid_copies:
            if AID in seen:
                raise UserError(f"a card has the id {AID!r}, which the player-aid images use; rename it to export")
            title = aid_text(game, d, lang)[0] or "Player aid"
            out.extend(DeckCard(AID, k + 1, title, "aid", deck=tag) for k in range(d.aid_copies))
    return out


def back_key(game, deck) -> str:
    """Face key of a deck's back: ``back`` (one deck) or ``<deck id>:back``."""
    return f"{deck.id}:{BACK}" if game.several_decks else BACK


def aid_key(game, deck) -> str:
    return f"{deck.id}:{AID}" if game.several_decks else AID


def deck_of_key(game, key: str):
    """The deck a face key belongs to."""
    head, sep, rest = key.partition(":")
    if sep and rest.split("|")[0] in (BACK, AID):
        return game.deck(head)
    if key.split("|")[0] in (BACK, AID):
        return game.decks[0]
    return game.deck_of(game.card(card_of_key(key)))


def card_of_key(key: str) -> str:
    """The card id of a card's face key (``plum|3+`` and ``plum@b`` -> ``plum``)."""
    return key.partition("|")[0].removesuffix(SIDE_B)


def is_side_b(key: str) -> bool:
    """Whether a face key is a card's side B."""
    return key.partition("|")[0].endswith(SIDE_B)


def back_variants(deck) -> list[str]:
    """Values of the card key a deck's back varies by, each with a back image of its own."""
    return deck.back.variants() if deck.back is not None and deck.back.by else []


def variant_keys(game, deck) -> list[str]:
    """Face keys of a deck's backs by value: ``back|<value>`` (``<deck>:back|<value>``)."""
    back = back_key(game, deck)
    return [f"{back}|{v}" for v in back_variants(deck)]


def card_back(game, deck, card: DeckCard) -> str:
    """Face key of the back ``card`` shows: its side B (``<id>@b``, with the copy's mark) when it is a
    double-sided card, its value's back when the deck's back varies by a card key and that value has one,
    else the deck's back (which player aids show too)."""
    back = back_key(game, deck)
    if card.kind == "card" and deck.double_sided and game.card(card.id).side_b is not None:
        return f"{card.id}{SIDE_B}|{card.mark}" if card.mark else f"{card.id}{SIDE_B}"
    if card.kind != "card" or not back_variants(deck):
        return back
    value = card_key(game.card(card.id), deck.back.by)
    return f"{back}|{value}" if value is not None and str(value) in back_variants(deck) else back


def back_value(key: str) -> str | None:
    """The value of a back face key (``back|bright`` -> ``bright``), None for the deck's own back."""
    plain = key.split(":", 1)[-1]
    return plain.partition("|")[2] or None if plain.startswith(BACK) else None


def back_file(key: str) -> str:
    """File name of a back face key: ``back.png``, ``back-<value>.png``."""
    value = back_value(key)
    return f"{BACK}-{value}.png" if value else f"{BACK}.png"


def face_elements(game, key: str, bleed: float = 0.0, lang: str | None = None, size_mm=None) -> list:
    """The elements of one face (a card id, or a deck's back or aid key) in the card's frame; ``size_mm``
    lays it out at another size than its deck's (a print service's product), scaled to fit."""
    deck = deck_of_key(game, key)
    w, h = size_mm or (deck.width, deck.height)
    plain = key.partition(":")[2] if ":" in key else key
    if plain.split("|")[0] == BACK:
        value = plain.partition("|")[2]
        return back_elements(game, deck, bleed, _ValueCard(deck.back.by, value) if value else None,
                             size_mm=size_mm)
    if plain == AID:
        title, body = aid_text(game, deck, lang)
        return aid_face(title, body, w, h, palette(deck), bleed=bleed, version=escape(game.version))
    card_id, _, mark = key.partition("|")
    card = game.card(card_of_key(card_id))
    # laid out once per content key with a build cache (the studio's: a card edit lays out that card's
    # faces only), as the kit's sheets lay them out
    if is_side_b(key):
        return list(laid_out_face(game, deck.b, card.side_b, lang, mark, (w, h), bleed))
    return list(laid_out_face(game, deck, card, lang, mark, (w, h), bleed))


def face_layout_key(game, key: str, bleed: float = 0.0, lang: str | None = None) -> str | None:
    """The build cache's content key of the card face ``key`` as :func:`face_elements` lays it out at its
    deck's size (:func:`pnp.components.cards.kept_face_key`: in the studio, once it is laid out); None for a
    back or an aid, or without a build cache."""
    deck = deck_of_key(game, key)
    plain = key.partition(":")[2] if ":" in key else key
    if plain.split("|")[0] in (BACK, AID):
        return None
    card_id, _, mark = key.partition("|")
    card = game.card(card_of_key(card_id))
    if is_side_b(key):
        return kept_face_key(game, deck.b, card.side_b, lang, mark, (deck.width, deck.height), bleed)
    return kept_face_key(game, deck, card, lang, mark, (deck.width, deck.height), bleed)


def faces_pdf(game, keys: list[str], bleed=0.0, lang: str | None = None, size_mm=None) -> bytes:
    """One page per face key, each its card's size (or ``size_mm``) plus ``bleed`` mm on every side
    (``(x, y)``: on the left and right, and on the top and bottom, when they differ)."""
    bx, by = bleed if isinstance(bleed, tuple) else (bleed, bleed)
    pages = []
    for key in keys:
        deck = deck_of_key(game, key)
        cw, ch = size_mm or (deck.width, deck.height)
        w, h = cw + 2 * bx, ch + 2 * by
        card = Group(tuple(face_elements(game, key, max(bx, by), lang, size_mm)), dx=bx, dy=by,
                     clip=Rect(-bx, -by, w, h))
        pages.append(Page(w, h, [card], label=key, trim=Rect(bx, by, cw, ch), bleed=Rect(0, 0, w, h)))
    return render(pages, f"{game.title}: cards", game.author)


def face_images(game, keys: list[str], size: tuple[int, int], bleed=0.0, lang: str | None = None,
                progress=None, size_mm=None) -> dict:
    """{face key: PIL image of exactly ``size`` pixels}; ``progress(key)`` after each one."""
    images = {}
    with for_game(game):
        pdf = faces_pdf(game, keys, bleed, lang, size_mm)
    with Rasterizer(pdf) as pages:
        for i, key in enumerate(keys):
            images[key] = pages.render(i, size)
            if progress:
                progress(key)
    return images


def distinct_faces(cards: list[DeckCard], back: str = BACK) -> list[str]:
    """Face keys in first-use order, then the back."""
    return list(dict.fromkeys(c.face for c in cards)) + [back]


def side_b_keys(game, deck, cards: list[DeckCard]) -> list[str]:
    """Face keys of the side Bs of ``cards`` (those of a double-sided deck that have one), in first-use
    order."""
    if not deck.double_sided:
        return []
    return list(dict.fromkeys(k for k in (card_back(game, deck, c) for c in cards) if is_side_b(k)))


@dataclass
class CardExport:
    """What a card image export wrote: the files, their pixel sizes (per deck), and the dpi and bleed used."""

    game: object
    files: list          # Paths written, in deck order, back.png last (per deck)
    size: tuple          # (width, height) px of the first deck's images
    dpi: int
    bleed: float
    sizes: dict = None   # deck id -> (width, height) px
    warnings: list = ()  # Problems: a record of an earlier export left alone (pnp.build.output.read_record)


def card_export_size(deck, dpi: int, bleed: float = 0.0) -> tuple[int, int]:
    """Pixel size of every exported image of ``deck``: card + 2 x bleed, in mm, at ``dpi``, rounded half up."""
    return size_px(deck.width + 2 * bleed, deck.height + 2 * bleed, dpi)


def export_cards(game_arg, out_dir: str | os.PathLike, dpi: int = 300, bleed: float = 0.0,
                 lang: str | None = None, progress=None, game=None, decks=None) -> CardExport:
    """Write ``<card id>-<copy>.png`` for every physical card, ``aid-<n>.png``, and ``back.png`` (and
    ``back-<value>.png`` for each value a deck's back varies by); with several decks, each deck's images
    go into a folder named by the deck's id. ``decks``: the ids of the decks to export (default: all).

    Copies of a card are the same image (same bytes): each distinct face is rasterized once.
    ``progress(face key)`` is called after each distinct face.
    """
    game = game or checked_game(game_arg, lang)
    files, sizes = {}, {}
    for deck in select_decks(game, decks):
        cards = deck_cards(game, lang, deck)
        size = sizes[deck.id] = card_export_size(deck, dpi, bleed)
        back = back_key(game, deck)
        variants = variant_keys(game, deck)
        sides = side_b_keys(game, deck, cards)
        images = face_images(game, distinct_faces(cards, back) + variants + sides, size, bleed, lang, progress)
        encoded = {key: png_bytes(image, dpi) for key, image in images.items()}
        folder = f"{deck.id}/" if game.several_decks else ""
        files.update({f"{folder}{c.stem}.png": encoded[c.face] for c in cards})
        for key in [back] + variants:
            files[f"{folder}{back_file(key)}"] = encoded[key]
        if deck.double_sided:           # each card's other side, named as its face: its side B, or the back
            files.update({f"{folder}{BACKS}/{c.stem}.png": encoded[card_back(game, deck, c)] for c in cards})
    first = next(iter(sizes.values()))
    written = []
    paths = write_atomically(out_dir, files, record=RECORD, warnings=written)
    return CardExport(game, paths, first, dpi, bleed, sizes,
                      back_bleed_warnings(game, {d.id: bleed for d in select_decks(game, decks)}, "") + written)


def back_bleed_warnings(game, bleeds: dict, context: str) -> list:
    """A warning for each back picture made to the trim that the bleeds (deck id -> mm) of an export would
    cut into (:func:`pnp.components.cards.check_back_bleed`)."""
    from pnp.components.cards import check_back_bleed

    found = Problems()
    check_back_bleed(game, found, bleeds, context)
    return list(found.warnings)


def face_count(game, lang=None, decks=None) -> int:
    """How many distinct faces an export rasterizes (for progress bars)."""
    return sum(len(distinct_faces(deck_cards(game, lang, d))) + len(back_variants(d)) +
               len(side_b_keys(game, d, deck_cards(game, lang, d))) for d in select_decks(game, decks))


def deck_products(game, preset, decks=None) -> tuple[dict, Problems]:
    """({deck id: the product of ``preset`` that prints it}, a warning for every deck it cannot print, at
    the deck's place in game.yaml) for the decks ``decks`` names (default: all)."""
    from pnp.exports.presets import match_product, unprintable

    products, skipped = {}, Problems()
    for deck in select_decks(game, decks):
        product = match_product(preset, deck.width, deck.height)
        if product is None:
            skipped.warn(*game.deck_where(deck), f"deck '{deck.id}'",
                         f"{unprintable(preset, deck.width, deck.height)}; the deck is left out of the export")
        else:
            products[deck.id] = product
    return products, skipped


def safe_zone_warnings(game, preset, lang: str | None = None, decks=None) -> Problems:
    """A warning for every distinct face (cards, player aids, backs) of every deck ``preset`` prints
    whose text or icons come closer to the trim line than its safe zone allows, naming the card's file and
    line and what comes too close. ``decks``: the ids of the decks to check (default: all)."""
    from pnp.exports.presets import outside_elements

    warnings = Problems()
    products, _ = deck_products(game, preset, decks)
    for deck in select_decks(game, decks):
        product = products.get(deck.id)
        if product is None:
            continue
        trim = product.trim_mm
        back = back_key(game, deck)
        cards = deck_cards(game, lang, deck)
        keys = distinct_faces(cards, back) + variant_keys(game, deck) + side_b_keys(game, deck, cards)
        for key in keys:
            found = outside_elements(face_elements(game, key, 0.0, lang, trim), *trim, product.safe_inside_trim_mm)
            if not found:
                continue
            outside = [(el.role or type(el).__name__.lower(), g) for el, g in found]
            roles = ", ".join(dict.fromkeys(role for role, _ in outside))
            gap = min(g for _, g in outside)
            card_id = key.partition("|")[0]
            plain = card_id.partition(":")[2] if ":" in card_id else card_id
            if plain in (BACK, AID):
                where, subject = (None, None), "card back" if plain == BACK else "player aid"
                if back_value(key):
                    subject = f"card back '{back_value(key)}'"
            elif is_side_b(key):        # at the line (or cell) of the side B value the nearest text prints
                card_id = card_of_key(key)
                where = side_b_where(game, deck, game.card(card_id), min(found, key=lambda f: f[1])[0])
                subject = f"card '{card_id}' side B"
            else:
                where, subject = game.source(game.card(card_id)), f"card '{card_id}'"
            warnings.warn(*where, subject,
                          f"{roles} come{'s' if len(outside) == 1 else ''} within {max(gap, 0.0):.1f} mm of the "
                          f"trim line; {preset.service} asks for art and text at least "
                          f"{product.safe_inside_trim_mm:.1f} mm inside it (--preset {preset.name})")
    return warnings


def side_b_where(game, deck, card, element) -> tuple:
    """(path, line) of the value of ``card``'s side B that ``element`` (of its side B's face) prints (its
    name, flavour, a field: :func:`pnp.components.cards.printed_key`), else of its ``side_b``."""
    from pnp.components.cards import printed_key, side_values
    from pnp.layout.geometry import Text

    key = printed_key(element.markup, side_values(deck.b, card.side_b)) if isinstance(element, Text) else None
    return game.source(card)[0], deck.side_b.where(card.id, key) if key else deck.side_b.where(card.id)


@dataclass
class PresetExport:
    """What an export for a print service's preset wrote: the files, the product and pixel size of each deck
    exported, the safe-zone warnings, and the decks the service cannot print (left out, with a warning)."""

    game: object
    preset: object           # pnp.exports.presets.Preset
    files: list              # Paths written: per deck, the fronts in deck order, then back.png
    sizes: dict              # deck id -> (width, height) px
    warnings: list           # Problems: art or text outside the service's safe zone, one per face and place
    products: dict = None    # deck id -> CardProduct
    skipped: list = None     # Problems: a warning per deck left out


def export_preset(game_arg, out_dir: str | os.PathLike, preset, lang: str | None = None, progress=None,
                  game=None, decks=None) -> PresetExport:
    """Every deck (or those ``decks`` names) as ``preset``'s upload page takes it: ``fronts/NNN-<card>-<copy>.png``
    for every physical card in deck order and ``back.png`` (in a folder per deck when the game has several),
    at the pixel size of the service's product for the deck's card size, with its bleed, RGB, the dpi
    recorded. A deck whose back varies by a card key also gets ``back-<value>.png`` for each value and
    ``backs/NNN-<card>-<copy>.png``: each card's own back, numbered as its front. Every face is checked
    against the service's safe zone: a warning per face and element outside it. A deck the service prints
    no card size of is left out with a warning; when that leaves nothing, DataError."""
    game = game or checked_game(game_arg, lang)
    products, skipped = deck_products(game, preset, decks)
    if not products:
        raise DataError([replace(p, warning=False) for p in skipped])
    warnings, files, sizes = safe_zone_warnings(game, preset, lang, decks), {}, {}
    for deck in select_decks(game, decks):
        product = products.get(deck.id)
        if product is None:
            continue
        trim = product.trim_mm
        cards = deck_cards(game, lang, deck)
        back = back_key(game, deck)
        variants = variant_keys(game, deck)
        keys = distinct_faces(cards, back) + variants + side_b_keys(game, deck, cards)
        images = face_images(game, keys, product.image_px, product.bleeds_mm, lang, progress, trim)
        encoded = {key: png_bytes(image.convert(preset.colour), product.dpi) for key, image in images.items()}
        folder = f"{deck.id}/" if game.several_decks else ""
        width = max(3, len(str(len(cards))))
        files.update({f"{folder}{FRONTS}/{n:0{width}d}-{c.stem}.png": encoded[c.face]
                      for n, c in enumerate(cards, 1)})
        for key in [back] + variants:
            files[f"{folder}{back_file(key)}"] = encoded[key]
        if variants or deck.double_sided:     # each card's own back, in the fronts' order, for "different backs"
            files.update({f"{folder}{BACKS}/{n:0{width}d}-{c.stem}.png": encoded[card_back(game, deck, c)]
                          for n, c in enumerate(cards, 1)})
        sizes[deck.id] = product.image_px
    written = []
    paths = write_atomically(out_dir, files, record=RECORD, warnings=written)
    cut = back_bleed_warnings(game, {k: p.bleed_mm for k, p in products.items()}, preset_bleed(preset))
    return PresetExport(game, preset, paths, sizes, cut + list(warnings.warnings) + written, products, list(skipped))


def preset_bleed(preset) -> str:
    """What adds the bleed of ``preset``'s files, for a message: ``--preset thegamecrafter (The Game
    Crafter)``."""
    return f"--preset {preset.name} ({preset.service})"
