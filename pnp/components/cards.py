"""Card fronts and backs: every physical card of the deck, 3 x 3 (or as many as fit) per sheet."""

from __future__ import annotations

import jinja2

from pnp.cardtext import ability_text, aid_text
from pnp.components import BuildOptions, Component, Output, register
from pnp.draw import fonts
from pnp.draw.text import fit
from pnp.i18n import strings
from pnp.layout.cards import NEUTRAL, FaceContent, aid_face, card_back, card_face, card_sheets, stat_slots
from pnp.layout.geometry import Text, flatten
from pnp.markup import escape, plain_text


def face_content(game, card, lang=None, mark: str = "") -> FaceContent:
    faction = game.faction(card.faction) if card.faction else None
    rank = game.rank(card.rank) if card.rank else None
    category = game.category_of(card)
    colour = faction.colour if faction else category.colour if category else NEUTRAL
    watermark = card.stats.get(game.watermark) if game.watermark else None
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
        watermark="" if watermark is None else escape(str(watermark)),
        mark=mark,
    )


def players_mark(game, card, copy: int) -> str:
    """'3+' on a copy used only with 3 or more players (deck.max_copies_by_players), else ''."""
    lo, hi = game.players
    needed = next((p for p in range(lo, hi + 1) if copy <= game.copies_for(card, p)), hi)
    return f"{needed}+" if needed > lo else ""


def aid_elements(game, lang=None, bleed: float = 0.0) -> tuple:
    if not game.player_aid.get("copies"):
        return ()
    title, body = aid_text(game, lang)
    return tuple(aid_face(title, body, game.card_width, game.card_height, bleed=bleed))


def back_elements(game, bleed: float = 0.0):
    return card_back(escape(game.title), tuple(f.emblem for f in game.factions), game.card_width,
                     game.card_height, bleed)


def build(game, options: BuildOptions) -> list[Output]:
    deck = game.deck_for(options.players)
    faces, labels, seen = [], [], {}
    cache = {}
    for card in deck:
        seen[card.id] = seen.get(card.id, 0) + 1
        mark = players_mark(game, card, seen[card.id])
        if (card.id, mark) not in cache:
            cache[card.id, mark] = tuple(card_face(face_content(game, card, options.lang, mark),
                                                   game.card_width, game.card_height, options.bleed))
        faces.append(cache[card.id, mark])
        labels.append(f"{card.id}#{seen[card.id]}")
    aid = aid_elements(game, options.lang, options.bleed)
    for k in range(game.player_aid.get("copies", 0)):
        faces.append(aid)
        labels.append(f"aid#{k + 1}")
    w, h = options.page_size
    sheets = card_sheets(faces, back_elements(game, options.bleed), game.card_width, game.card_height, w, h,
                         options.flip, labels, bleed=options.bleed, back_offset=options.back_offset)
    words = strings(game, options.lang)
    interleaved = [page for pair in zip(sheets.fronts, sheets.backs) for page in pair]
    return [
        Output("cards-fronts.pdf", words.get("card_fronts", "Card fronts"), sheets.fronts),
        Output("cards-backs.pdf", words.get("card_backs", "Card backs"), sheets.backs),
        # for duplex printers: each front page followed by its back page
        Output("cards-duplex.pdf", words.get("card_duplex", "Cards, fronts and backs"), interleaved,
               in_kit=False),
    ]


def check(game, problems, options: BuildOptions | None = None) -> None:
    """Every text on every face fits its box at the smallest allowed size, in fonts that have its glyphs."""
    lang = options.lang if options else None
    for card in game.cards:
        path, line = game.sources.get(card.id, (game.root / "cards.yaml", None))
        subject = f"card '{card.id}'"
        elements = card_face(face_content(game, card, lang), game.card_width, game.card_height)
        for el in flatten(elements):
            if not isinstance(el, Text):
                continue
            result = fit(el.markup, el.style, el.rect.w, el.rect.h)
            if not result.ok:
                problems.error(path, line, subject,
                               f"{el.role} text does not fit its {el.rect.w:.1f} x {el.rect.h:.1f} mm box even at "
                               f"{el.style.min_size or el.style.size:g} pt ({result.reason}): {el.markup!r}")
            missing = fonts.missing_glyphs(plain_text(el.markup), fonts.font_name(el.style.font))
            if missing:
                problems.error(path, line, subject,
                               f"{el.role} text uses characters the font cannot print: {' '.join(sorted(missing))}")
    try:
        aid = aid_elements(game, lang)
    except jinja2.TemplateNotFound as exc:
        problems.error(*game.where("player_aid"), "player aid", f"no template {exc.name} in templates/")
        aid = ()
    for el in aid:
        if isinstance(el, Text) and not fit(el.markup, el.style, el.rect.w, el.rect.h).ok:
            problems.error(*game.where("player_aid"), "player aid",
                           f"{el.role} text does not fit the card even at {el.style.min_size:g} pt")
    for el in flatten(back_elements(game)):
        if isinstance(el, Text) and not fit(el.markup, el.style, el.rect.w, el.rect.h).ok:
            problems.error(*game.where("title"), "card back", f"title {el.markup!r} does not fit")


register(Component("cards", build, check, order=20))
