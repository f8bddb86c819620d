"""What a translation of a game must give: every printed string of its data, and where the original is.

Each :class:`Source` is one string a kit prints in the game's own language (a card's name, a token's
caption, a track's title, one of pnp's own words, ...), the key a translation gives it under
(``cards.outlaw.name`` in ``i18n/<lang>.yaml``), and the file and line the original is written at, so
``pnp validate --lang es`` can point at what is still in English. The game's own data gives the
names, decks and cards (:func:`data_sources`); every component kind adds what its own settings and files
print (:attr:`pnp.components.Component.words`: :func:`pnp.validation.translations.sources` gathers them all);
layouts add their printed literals (:mod:`pnp.loading.i18n.literals`); templates (rulebook chapters, card
text, aids) are one file per language.

Words without a letter (``3``, ``+1``, ``−2``) are the same in every language and need no translation.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from pnp.loading.i18n import REFERENCE, game_words, pnp_words, strings_path, translation_path
from pnp.loading.yamlsrc import line_of, load_yaml

#: What a source is: a word a translation file gives (``key``), a literal of a layout expression that
#: must become ``t('key')``, or a template (a file per language).
KINDS = ("key", "literal", "template")


@dataclass(frozen=True)
class Source:
    """One printed string in the data's language and where a translation gives it.

    ``key``: the dotted key in ``i18n/<lang>.yaml`` (for a template: the file the language needs,
    relative to the folder that holds its original); ``text`` the original words (a list of them for a
    list field); ``path``/``line`` where they are written; ``subject`` and ``what`` name them in messages.
    ``pnp_key``: one of pnp's own words (pnp's ``templates/strings/<lang>.yaml`` may give it as well as
    the game's ``strings:``). ``markup``: card markup (checked like the original)."""

    key: str
    text: object
    path: object
    line: int | None
    subject: str | None
    what: str
    kind: str = "key"
    pnp_key: str | None = None
    markup: bool = False


def has_letters(text) -> bool:
    """Whether ``text`` (or any text of a list) holds a letter: numbers and signs need no translation."""
    if isinstance(text, (list, tuple)):
        return any(has_letters(t) for t in text)
    if isinstance(text, dict):               # a printed word's plural forms
        return any(has_letters(t) for t in text.values())
    return isinstance(text, str) and any(unicodedata.category(ch).startswith("L") for ch in text)


def data_sources(game):
    """The game's title, factions, ranks, categories, decks (names, back labels, choices as printed,
    formats) and cards (names, flavour, text fields), its icon key, pieces and holdings."""
    yield Source("title", game.title, *game.where("title"), None, "title")
    for f in game.factions:
        at = game.where("factions", f.id)
        yield Source(f"factions.{f.id}.name", f.name, *at, f"faction '{f.id}'", "name")
        yield Source(f"factions.{f.id}.adjective", f.adjective, *at, f"faction '{f.id}'", "adjective")
    for r in game.ranks:
        at = game.where("ranks", r.id)
        yield Source(f"ranks.{r.id}.name", r.name, *at, f"rank '{r.id}'", "name")
        yield Source(f"ranks.{r.id}.plural", r.plural, *at, f"rank '{r.id}'", "plural")
    for c in game.categories:
        yield Source(f"categories.{c.id}.name", c.name, *game.where("ability_categories", c.id),
                     f"category '{c.id}'", "name")
    for deck in game.decks:
        yield from deck_sources(game, deck)
        for card in deck.cards:
            yield from card_sources(game, deck, card)
    for name, text, line in getattr(game, "icon_key", ()):
        yield Source(f"icon_key.{name}", text, game.root / "game.yaml", line, "icon_key", name)
    for role, _ in (*getattr(game, "credits", ()), *getattr(game, "book_credits", ())):     # a role; names are names
        yield Source(f"credits.{role}", role, *game.where("credits"), "credits", "role")
    for section, kinds, keys in (("pieces", game.pieces, ("name", "plural", "note")),
                                 ("holdings", game.holdings, ("name", "plural"))):
        for kind in kinds:
            for key in keys:
                if getattr(kind, key, None):
                    yield Source(f"{section}.{kind.id}.{key}", getattr(kind, key), *game.where(section),
                                 f"{section[:-1]} '{kind.id}'", key)


def deck_sources(game, deck):
    subject = f"deck '{deck.id}'"
    at = game.deck_where(deck)
    if game.several_decks:
        yield Source(f"decks.{deck.id}.name", deck.name, *at, subject, "name")
    back = deck.back
    if back is not None:
        line = back.line or at[1]
        if back.label:
            yield Source(f"decks.{deck.id}.back.label", back.label, at[0], line, subject, "back label")
        for value, label in back.labels:
            yield Source(f"decks.{deck.id}.back.labels.{value}", label, at[0], line, subject,
                         f"back label of '{value}'")
    yield from field_sources(f"decks.{deck.id}", deck.fields, at, subject, "")
    side_b = deck.side_b
    if side_b is not None and side_b.own_fields:      # side B's own fields: decks.<id>.side_b.choices...
        yield from field_sources(f"decks.{deck.id}.side_b", side_b.fields, (at[0], side_b.line or at[1]), subject,
                                 "side B ")


def field_sources(prefix: str, fields, at: tuple, subject: str, side: str):
    """What a deck's ``fields`` print besides the cards' values: choices, formats, set flags' names."""
    for f in fields:
        line = f.line or at[1]
        if f.choices and f.type in ("choice", "list"):
            for value in f.choices:
                yield Source(f"{prefix}.choices.{f.name}.{value}", value, at[0], line, subject,
                             f"{side}field '{f.name}': choice")
        if f.format:
            yield Source(f"{prefix}.formats.{f.name}", f.format, at[0], line, subject,
                         f"{side}field '{f.name}': format")
        if f.type == "bool":          # a flag that is set prints its name
            yield Source(f"{prefix}.fields.{f.name}", f.printed_name, at[0], line, subject,
                         f"{side}field '{f.name}': name")


def card_sources(game, deck, card):
    at = game.source(card)
    subject = f"card '{card.id}'"
    yield from face_sources(f"cards.{card.id}", deck.fields, card, at, subject, lambda key: at[1], "")
    if card.side_b is not None and deck.b is not None:     # its side B, each value at its own line or cell
        spec = deck.side_b
        yield from face_sources(f"cards.{card.id}.side_b", deck.b.fields, card.side_b, at, subject,
                                lambda key: spec.where(card.id, key) or at[1], "side_b.")


def face_sources(prefix: str, fields, card, at: tuple, subject: str, line, what: str):
    """A card face's printed words: its name, flavour, text fields and list fields without choices."""
    yield Source(f"{prefix}.name", card.name, at[0], line("name"), subject, f"{what}name")
    if card.flavour:
        yield Source(f"{prefix}.flavour", card.flavour, at[0], line("flavour"), subject, f"{what}flavour",
                     markup=True)
    for f in fields:
        value = card.stats.get(f.name)
        if f.type == "text" and isinstance(value, str) and value.strip():
            yield Source(f"{prefix}.{f.name}", value, at[0], line(f.name), subject, f"{what}{f.name}", markup=True)
        elif f.type == "list" and not f.choices and value:
            yield Source(f"{prefix}.{f.name}", list(value), at[0], line(f.name), subject, f"{what}{f.name}")


def word_sources(game):
    """The game's own printed words (``strings:`` of its i18n file in its language; layouts' ``t('key')``
    read them) and pnp's words (every key of pnp's reference words, ``templates/strings/en.yaml``, as the
    game's language gives it: pnp's ``templates/strings/<lang>.yaml``, or the game's ``strings:`` when pnp
    does not ship the language), each where it is written. A pnp word the game overrides in a language pnp
    ships is the game's own (its translations must give it too: pnp's would say something else)."""
    src = game.source_language
    own_path = translation_path(game, src)
    own = game_words(game, src)
    raw = _raw(own_path)
    section = raw.get("strings") if isinstance(raw, dict) else None
    reference, shipped = pnp_words(REFERENCE), pnp_words(src)
    for key, text in own.items():
        given = key in reference and key not in shipped       # one of pnp's words, in a language pnp lacks
        yield Source(f"strings.{key}", text, own_path, line_of(section, key),
                     "pnp's printed words" if given else "strings", f"printed word '{key}'",
                     pnp_key=key if given else None)
    pnp_path = strings_path(src) if shipped else strings_path(REFERENCE)
    pnp_raw = _raw(pnp_path)
    for key, text in (shipped or reference).items():
        if key not in own:
            yield Source(f"strings.{key}", text, pnp_path, line_of(pnp_raw, key), "pnp's printed words",
                         f"printed word '{key}'", pnp_key=key)


def _raw(path):
    try:
        return load_yaml(path) if path.is_file() else None
    except Exception:          # a broken file is reported by the checks that read it
        return None


def component_title(game, spec, kind: str, default: str | None = None):
    """A component's printed ``title`` (when given, or when its default comes from its id rather than
    from pnp's words): the translation's ``components.<id>.title``."""
    title = spec.config.get("title") if spec is not None else None
    if title is None and default is None:
        return []
    return [Source(f"components.{spec.id}.title", title or default, game.root / "game.yaml", spec.line,
                   f"{kind} '{spec.id}'", "title")]
