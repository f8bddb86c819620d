"""Card faces for the studio: which faces a game has, their fingerprints, their pictures, and the
cards as the page lists them (grouped by deck and faction or category, copies counted, every field).

Faces are drawn by the code ``pnp export cards`` uses (:func:`pnp.exports.cards.faces_pdf`: the card
layout, painted to PDF, rasterized with PDFium), so the page shows what the kit prints.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

from pnp.cache import buildcache
from pnp.cache.buildcache import digest
from pnp.draw.icons import for_game
from pnp.exports.cards import (SIDE_B, aid_key, back_key, back_variants, card_of_key, deck_of_key, face_elements,
                               face_layout_key, faces_pdf)
from pnp.draw.raster import Rasterizer, png_bytes, size_px
from pnp.serve.images import Image, layout_fingerprint
from pnp.serve.options import CARD_DPI, LARGE_CARD_DPI  # noqa: F401 - also read as faces.CARD_DPI

#: Key content stays this far inside the trim line (the safe zone print services ask for).
SAFE_ZONE_MM = 3.0


@dataclass
class Face:
    """One face of a view: a card, a deck's back (or one of its variants), or a deck's player aid.
    ``fingerprint`` is None when it is not drawn (a problem names the card, or ``error`` says why)."""

    key: str
    deck: str
    fingerprint: str | None = None
    error: str | None = None

    def picture(self, dpi: int) -> str | None:
        """The name (hash) of its picture at ``dpi``."""
        return digest("face", self.fingerprint, dpi) if self.fingerprint and not self.error else None


def card_subject(subject: str | None) -> str | None:
    """The card id a problem's subject names (``card 'outlaw'``, ``card 'oak' side B``), else None."""
    match = re.fullmatch(r"card '([^']+)'(?: side B)?", subject or "")
    return match.group(1) if match else None


def by_card(problems, warnings: bool = False) -> dict:
    """Card id -> the problems (errors, or with ``warnings`` the warnings) whose subject names it."""
    out: dict = {}
    for p in problems:
        cid = card_subject(p.subject)
        if cid is not None and p.warning == warnings:
            out.setdefault(cid, []).append(p)
    return out


def face_keys(game) -> list[tuple[str, object]]:
    """(face key, deck) of every face: each deck's cards, its back and back variants, its aid."""
    out = []
    for deck in game.decks:
        out += [(c.id, deck) for c in deck.cards]
        out += [(f"{c.id}{SIDE_B}", deck) for c in deck.cards if c.side_b is not None]    # turned over
        back = back_key(game, deck)
        out += [(back, deck)] + [(f"{back}|{v}", deck) for v in back_variants(deck)]
        if deck.aid_copies:
            out.append((aid_key(game, deck), deck))
    return out


def _named(name: str):
    return nullcontext()


#: Card faces' fingerprints by their layout's content key (:func:`_kept_fingerprint`), kept from one
#: version of the files to the next while a build cache is on (the studio's): the fingerprint hashes
#: the repr of every element of a face, most of what fingerprinting an unchanged face cost.
_FINGERPRINTS = buildcache.Generations()


def _kept_fingerprint(game, key: str, options, icons: str, deck) -> str | None:
    """The key a card face's fingerprint is kept by: its layout's content key (the elements
    :func:`pnp.exports.cards.face_elements` gives are kept by it, :func:`pnp.components.cards.laid_out_face`;
    it holds the game folder's files, so the pictures' bytes too), the icons drawn with, the size and
    bleed. None for a back or an aid, or without a build cache."""
    if not buildcache.current():
        return None
    content = face_layout_key(game, key, options.bleed, options.lang)
    return digest("face fingerprint", content, icons, deck.width, deck.height, options.bleed) if content else None


def fingerprint_faces(game, options, icons: str, files, broken=frozenset(), why=str, doing=_named,
                      work=str, known=None) -> dict:
    """Face key -> :class:`Face`, laid out and fingerprinted (cards in ``broken`` are not: their
    problems take their place); ``why(exc)`` words a face the data cannot draw; each face is laid out
    inside ``doing(work(key))`` (the preview process names what it draws). ``known``: the faces of
    the same files and options fingerprinted before (the data step's, for the check step), taken as
    they are instead of laid out again."""
    faces = {}
    known = known or {}
    with for_game(game):
        for key, deck in face_keys(game):
            face = Face(key, deck.id)
            before = known.get(key)
            if card_of_key(key) not in broken and before is not None and before.deck == deck.id and \
                    (before.fingerprint or before.error):
                face.fingerprint, face.error = before.fingerprint, before.error
            elif card_of_key(key) not in broken:
                try:
                    kept = _kept_fingerprint(game, key, options, icons, deck)
                    face.fingerprint = _FINGERPRINTS.get(buildcache.current(), kept) if kept else None
                    if face.fingerprint is None:
                        with doing(work(key)):
                            elements = face_elements(game, key, options.bleed, options.lang)
                        face.fingerprint = digest(layout_fingerprint(elements, icons, files), deck.width,
                                                  deck.height, options.bleed)
                        # (in the studio a face's key is known once it is laid out: the templates it read)
                        kept = kept or _kept_fingerprint(game, key, options, icons, deck)
                        if kept:
                            _FINGERPRINTS.put(buildcache.current(), kept, face.fingerprint)
                except Exception as exc:        # say why, and show the others
                    face.error = why(exc)
            faces[key] = face
    return faces


def draw_faces(game, keys: list, options, dpi: int, why=str, doing=_named, work=str) -> dict:
    """Face key -> :class:`Image` at ``dpi`` (or the reason it cannot be drawn): in one PDF when every
    face can be drawn, else one at a time so the others still are (also when drawing them together was
    stopped: then the one that takes too long is found); inside ``doing(name)`` (``work(key)`` for one
    face)."""
    together = work(keys[0]) if len(keys) == 1 else f"the pictures of {len(keys)} card faces"
    try:
        with doing(together):
            return _draw(game, keys, options, dpi)
    except Exception as exc:
        if len(keys) == 1:
            return {keys[0]: why(exc)}
    out = {}
    for key in keys:
        try:
            with doing(work(key)):
                out.update(_draw(game, [key], options, dpi))
        except Exception as exc:
            out[key] = why(exc)
    return out


def _draw(game, keys, options, dpi: int) -> dict:
    with for_game(game):
        pdf = faces_pdf(game, keys, options.bleed, options.lang)
    out = {}
    with Rasterizer(pdf) as pages:
        for i, key in enumerate(keys):
            deck = deck_of_key(game, key)
            size = size_px(deck.width + 2 * options.bleed, deck.height + 2 * options.bleed, dpi)
            out[key] = Image(png_bytes(pages.render(i, size), dpi), *size)
    return out


def group_of(game, card) -> tuple:
    """(id, name, colour) of the group a card is shown in: its faction, else its ability's category,
    else none (id '': the deck itself)."""
    if card.faction:
        faction = next((f for f in game.factions if f.id == card.faction), None)
        if faction is not None:
            return f"faction:{faction.id}", faction.name, faction.colour
    category = game.category_of(card)
    if category is not None:
        return f"category:{category.id}", category.name, category.colour
    return "", "", None


def side_b_fields(game, card) -> list[tuple[str, str]]:
    """A double-sided card's side B as the page lists it: its name, fields, flavour and art."""
    deck = game.deck_of(card).b
    side = card.side_b
    out = [("name", side.name)]
    for f in deck.fields:
        value = side.stats.get(f.name)
        if value is not None:
            out.append((f.name, f.display(value) or str(value)))
    if side.flavour:
        out.append(("flavour", side.flavour))
    art = deck.art.get(card.id)
    if art is not None:
        out.append(("art", Path(art.path).name))
    return out


def card_fields(game, card, lang=None) -> list[tuple[str, str]]:
    """A card's data as the page lists it: (key, value as printed, or as written)."""
    from pnp.loading.cardtext import ability_text
    from pnp.text.markup import plain_text

    deck = game.deck_of(card)
    out = [("id", card.id), ("name", card.name), ("deck", deck.name or deck.id), ("copies", str(card.copies))]
    if card.faction:
        out.append(("faction", next((f.name for f in game.factions if f.id == card.faction), card.faction)))
    if card.rank:
        out.append(("rank", next((r.name for r in game.ranks if r.id == card.rank), card.rank)))
    category = game.category_of(card)
    if category is not None:
        out.append(("category", category.name))
    for f in deck.fields:
        value = card.stats.get(f.name)
        if value is not None:
            out.append((f.name, f.display(value) or str(value)))
    if card.ability is not None:
        params = ", ".join(f"{k}: {v}" for k, v in card.ability.params.items())
        step = f", step {card.ability.step}" if card.ability.step is not None else ""
        out.append(("ability", f"{card.ability.kind}{step}{f' ({params})' if params else ''}"))
        try:
            with for_game(game):
                text = plain_text(ability_text(game, card, lang))
        except Exception:       # the template's own problem is reported by validation
            text = ""
        if text:
            out.append(("ability text", text))
    if card.flavour:
        out.append(("flavour", card.flavour))
    art = deck.art.get(card.id)
    if art is not None:
        out.append(("art", Path(art.path).name))
    if card.placeholder:
        out.append(("placeholder", ", ".join(card.placeholder)))
    return out


def face_urls(face: Face | None) -> dict:
    small = face.picture(CARD_DPI) if face else None
    return {"image": f"/img/{small}.png" if small else None,
            "large": f"/img/{face.picture(LARGE_CARD_DPI)}.png" if small else None}


def deck_json(game, deck, faces: dict, bleed: float) -> dict:
    """A deck as the page shows it: size, counts, its cards' groups, its backs and aid."""
    groups: OrderedDict = OrderedDict()
    for card in deck.cards:
        gid, name, colour = group_of(game, card)
        group = groups.setdefault(gid, {"id": gid, "name": name or deck.name, "colour": colour, "cards": [],
                                        "copies": 0})
        group["cards"].append(card.id)
        group["copies"] += card.copies
    if "" in groups and len(groups) > 1:        # the cards without a faction or category among grouped ones
        groups[""]["name"] = "Other"
        groups.move_to_end("")
    back = back_key(game, deck)
    labels = [(back, "Back")] + [(f"{back}|{v}", f"Back: {v}") for v in back_variants(deck)]
    if deck.aid_copies:
        labels.append((aid_key(game, deck), f"Player aid ×{deck.aid_copies}"))
    extras = [{"key": key, "name": label, "error": faces[key].error if key in faces else None,
               **face_urls(faces.get(key))} for key, label in labels]
    return {"id": deck.id, "name": deck.name or deck.id, "width": deck.width, "height": deck.height,
            "distinct": len(deck.cards), "copies": sum(c.copies for c in deck.cards),
            "bleed": bleed, "safe": SAFE_ZONE_MM, "groups": list(groups.values()), "extras": extras}


#: Each card's fields as the page lists them (:func:`card_fields`, :func:`side_b_fields`) and its group,
#: by :func:`_fields_key`, kept from one version of the files to the next while a build cache is on
#: (the studio's): a card edit words that card's fields only (its ability text is a template's render).
_FIELDS = buildcache.Generations()


def _fields_key(game, card, lang) -> str | None:
    """The key a card's listed fields are kept by: what every face of its deck reads besides the card
    (:func:`pnp.components.cards.face_context`, narrow: the game but its cards, the deck but its cards,
    the game folder's files but the card files and the templates, pnp's code), the card itself and the
    language; the templates its ability text read are kept with the fields and checked. None without
    the studio's build cache."""
    from pnp.components.cards import face_context

    if not buildcache.current():
        return None
    context = face_context(game, game.deck_of(card), narrow=True)
    return digest("card fields", context, repr(card), lang or game.language) if context else None


def _listed(game, card, lang) -> tuple:
    """(fields, side B's fields or None, group (id, name, colour)) of ``card``, kept by :func:`_fields_key`
    with the templates they read."""
    from pnp.components.cards import kept_templates_stamp
    from pnp.text.templating import template_reads

    cache = buildcache.current()
    key = _fields_key(game, card, lang)
    found = _FIELDS.get(cache, key) if key else None
    if found is not None and kept_templates_stamp(cache, found[1]) == found[2]:
        return found[0]
    with template_reads() as read:
        listed = (card_fields(game, card, lang), side_b_fields(game, card) if card.side_b is not None else None,
                  group_of(game, card))
    if key:
        read = frozenset(read)
        _FIELDS.put(cache, key, (listed, read, kept_templates_stamp(cache, read)))
    return listed


def card_json(game, card, face: Face | None, problems: list, warnings: list, lang, where, problem_json,
              side_face: Face | None = None) -> dict:
    """A card as the page shows it; ``where(path, line)`` and ``problem_json(p)`` word places and problems.
    A double-sided card also has ``side_b``: its side B's name, fields, place and pictures (``side_face``),
    for the large view to turn the card over."""
    path, line = game.source(card)
    fields, side_fields, (gid, group, _) = _listed(game, card, lang)
    words = [card.id, card.name, card.deck, group or ""] + [f"{k} {v}" for k, v in fields]
    side = None
    if card.side_b is not None:
        words += [f"{k} {v}" for k, v in side_fields]
        spec = game.deck_of(card).side_b
        side = {"name": card.side_b.name, "fields": [[k, v] for k, v in side_fields],
                "source": where(path, spec.where(card.id) if spec is not None else line),
                "error": side_face.error if side_face else None,
                **(face_urls(side_face) if not problems else {"image": None, "large": None})}
    return {
        "id": card.id, "name": card.name, "deck": card.deck, "group": gid, "copies": card.copies,
        "fields": [[k, v] for k, v in fields],
        "source": where(path, line),
        "problems": [problem_json(p) for p in problems],
        "warnings": [problem_json(p) for p in warnings],
        "error": face.error if face else None,
        "search": " ".join(words).lower(),
        "side_b": side,
        **(face_urls(face) if not problems else {"image": None, "large": None}),
    }
