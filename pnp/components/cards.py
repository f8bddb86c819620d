"""Card fronts and backs: every physical card of the deck, 3 x 3 (or as many as fit) per sheet."""

from __future__ import annotations

import jinja2

from pnp.cardtext import ability_text, aid_text
from pnp.components import BuildOptions, Component, Output
from pnp.draw import fonts
from pnp.draw.text import fit
from pnp.i18n import strings
from pnp.layout.cards import NEUTRAL, FaceContent, aid_face, card_back, card_face, card_sheets, stat_slots
from pnp.layout.geometry import Text, flatten
from pnp.markup import escape, plain_text


def face_content(game, card, lang=None, mark: str = "") -> FaceContent:
    deck = game.deck_of(card)
    faction = game.faction(card.faction) if card.faction else None
    rank = game.rank(card.rank) if card.rank else None
    category = game.category_of(card)
    colour = faction.colour if faction else category.colour if category else NEUTRAL
    watermark = card.stats.get(deck.watermark) if deck.watermark else None
    # names and flavour are data: escaped, so they print as written (the ability text is markup)
    return FaceContent(
        name=escape(card.name),
        rank_name=escape(rank.name if rank else category.name if category else ""),
        pips=rank.pips if rank else 0,
        colour=colour,
        emblem=faction.emblem if faction else None,
        stats=stat_slots(game, card),
        step=card.ability.step if card.ability else None,
        ability=ability_text(game, card, lang),
        flavour=escape(card.flavour),
        watermark="" if watermark is None else escape(deck.field(deck.watermark).display(watermark)),
        mark=mark,
    )


def players_mark(game, card, copy: int) -> str:
    """'3+' on a copy used only with 3 or more players (its deck's max_copies_by_players), else ''."""
    lo, hi = game.players
    needed = next((p for p in range(lo, hi + 1) if copy <= game.copies_for(card, p)), hi)
    return f"{needed}+" if needed > lo else ""


def aid_elements(game, deck, lang=None, bleed: float = 0.0) -> tuple:
    if not deck.aid_copies:
        return ()
    title, body = aid_text(game, deck, lang)
    return tuple(aid_face(title, body, deck.width, deck.height, bleed=bleed))


def back_elements(game, deck, bleed: float = 0.0):
    """The deck's designed back: the game's title round the factions' emblems (with several decks, the
    deck's name below the emblems instead of the title's second half)."""
    subtitle = escape(deck.name) if game.several_decks else None
    return card_back(escape(game.title), tuple(f.emblem for f in game.factions), deck.width, deck.height, bleed,
                     subtitle=subtitle)


def deck_faces(game, deck, options: BuildOptions) -> tuple[list, list]:
    """(faces, labels) of every physical card of ``deck`` in print order, then its player aids."""
    faces, labels, seen, cache = [], [], {}, {}
    for card in deck.physical(options.players):
        seen[card.id] = seen.get(card.id, 0) + 1
        mark = players_mark(game, card, seen[card.id])
        if (card.id, mark) not in cache:
            cache[card.id, mark] = tuple(card_face(face_content(game, card, options.lang, mark), deck.width,
                                                   deck.height, options.bleed))
        faces.append(cache[card.id, mark])
        labels.append(f"{card.id}#{seen[card.id]}")
    aid = aid_elements(game, deck, options.lang, options.bleed)
    aid_id = "aid" if not game.several_decks else f"{deck.id}-aid"
    for k in range(deck.aid_copies):
        faces.append(aid)
        labels.append(f"{aid_id}#{k + 1}")
    return faces, labels


def build(game, options: BuildOptions, spec=None) -> list[Output]:
    """Every deck's sheets in game.yaml's order; a deck starts on a new sheet (decks of different card
    sizes never share one), each with its own back."""
    w, h = options.page_size
    fronts, backs = [], []
    for deck in game.decks:
        faces, labels = deck_faces(game, deck, options)
        if not faces:
            continue
        name = deck.name if game.several_decks else ""
        sheets = card_sheets(faces, back_elements(game, deck, options.bleed), deck.width, deck.height, w, h,
                             options.flip, labels, bleed=options.bleed, back_offset=options.back_offset,
                             name=name)
        fronts += sheets.fronts
        backs += sheets.backs
    words = strings(game, options.lang)
    interleaved = [page for pair in zip(fronts, backs) for page in pair]
    return [
        Output("cards-fronts.pdf", words.get("card_fronts", "Card fronts"), fronts),
        Output("cards-backs.pdf", words.get("card_backs", "Card backs"), backs),
        # for duplex printers: each front page followed by its back page
        Output("cards-duplex.pdf", words.get("card_duplex", "Cards, fronts and backs"), interleaved,
               in_kit=False),
    ]


def _check_texts(elements, problems, path, line, subject, what: str = "") -> None:
    for el in flatten(elements):
        if not isinstance(el, Text):
            continue
        result = fit(el.markup, el.style, el.rect.w, el.rect.h)
        if not result.ok:
            problems.error(path, line, subject,
                           f"{what}{el.role} text does not fit its {el.rect.w:.1f} x {el.rect.h:.1f} mm box even at "
                           f"{el.style.min_size or el.style.size:g} pt ({result.reason}): {el.markup!r}")
        missing = fonts.missing_glyphs(plain_text(el.markup), fonts.font_name(el.style.font))
        if missing:
            problems.error(path, line, subject,
                           f"{what}{el.role} text uses characters the font cannot print: {' '.join(sorted(missing))}")


def check(game, problems, options: BuildOptions | None = None, spec=None) -> None:
    """Every text on every face fits its box at the smallest allowed size, in fonts that have its glyphs."""
    lang = options.lang if options else None
    for deck in game.decks:
        for card in deck.cards:
            path, line = game.source(card)
            _check_texts(card_face(face_content(game, card, lang), deck.width, deck.height), problems, path, line,
                         f"card '{card.id}'")
        at = game.deck_where(deck) if game.several_decks else game.where("player_aid")
        try:
            aid = aid_elements(game, deck, lang)
        except jinja2.TemplateNotFound as exc:
            problems.error(*at, "player aid", f"no template {exc.name} in templates/")
            aid = ()
        for el in aid:
            if isinstance(el, Text) and not fit(el.markup, el.style, el.rect.w, el.rect.h).ok:
                problems.error(*at, "player aid",
                               f"{el.role} text does not fit the card even at {el.style.min_size:g} pt")
        for el in flatten(back_elements(game, deck)):
            if isinstance(el, Text) and not fit(el.markup, el.style, el.rect.w, el.rect.h).ok:
                where = game.deck_where(deck) if game.several_decks else game.where("title")
                problems.error(*where, "card back", f"{el.role} {el.markup!r} does not fit")


COMPONENT = Component("cards", build, check, order=20)
