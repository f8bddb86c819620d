"""Languages: every printed word of a kit, in the language it is built in.

Facts stay language-neutral in the game's files, written in the game's own ``language``; each other
language has ``data/<game>/i18n/<lang>.yaml`` keyed by the same ids (as domdiv does), one section per
kind of thing that prints:

    title: ...
    factions: {empire: {name: ..., adjective: ...}}
    ranks: {commoner: {name: ..., plural: ...}}
    categories: {instant: {name: ...}}
    decks: {plans: {name: ..., back: {label: ..., labels: {VALUE: ...}}, fields: {FLAG: ...},
                    choices: {FIELD: {VALUE: ...}}, formats: {FIELD: "{value} ..."}}}
    cards: {outlaw: {name: ..., flavour: ..., FIELD: ...}}       # FIELD: a text (or list) field
    pieces: {knight: {name: ..., plural: ..., note: ...}}        # and holdings:, the same
    map: {holdings: {stronghold: ...}}                           # names the hex map file gives
    tokens: {gold-1: {front: {caption: ..., label: ...}, back: {...}}}
    components: {score: {title: ..., start_label: ...},
                 heroes: {title: ..., pieces: {knight: {label: ..., back: {label: ...}}}}}
    box: {pitch: ..., items: {<item as box.yaml writes it>: ...}}
    examples: {<example id>: <title>}
    strings: {<key>: ...}        # the game's printed words (layouts' t('key')), and pnp's overridden

pnp's own words live in ``templates/strings/<lang>.yaml``; templates (card text, rulebook chapters,
player aids, sheets, the instructions page) have a file per language. What must be translated, and
where each original is written, is :mod:`pnp.loading.i18n.catalogue`; :mod:`pnp.validation.translations` reports every
printed string a language lacks at the file and line of the original. A build in a language takes each
missing word from the game's own language (validation refuses that unless ``--allow-missing``).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pnp import TEMPLATES_DIR
from pnp.errors import DataError, Problem
from pnp.text.markup import Safe, fill, placeholder_problems
from pnp.suggest import closest
from pnp.loading.yamlsrc import load_yaml

#: Printed words that are filled in (:func:`pnp.text.markup.fill`), and the only placeholders each may use.
#: Validation reports any other placeholder with its file and line. Those with a ``{count}`` may be
#: plural forms (:func:`is_plural`); pnp's other words are one text each.
PLACEHOLDERS = {
    "players_range": {"min", "max"},
    "players_one": {"min"},
    "minutes_range": {"min", "max"},
    "ages": {"age"},
    "board_tile": {"title", "label", "n", "total"},
    "board_glue": {"label"},
    "board_assembly": {"title"},
    "box_players": {"min", "max"},
    "box_players_one": {"min"},
    "box_minutes": {"min", "max"},
    "box_minutes_one": {"min"},
    "box_ages": {"ages"},
    "box_sheet": {"n", "total"},
    "box_elsewhere": {"letter", "n"},
    "box_tab_edge": {"letter", "edge", "part", "face"},
    "booklet_sheet_front": {"n"},
    "booklet_sheet_back": {"n"},
    "credits_design": {"name"},
    "credits_art": {"name"},
    "credits_publisher": {"name"},
    "credits_role": {"role", "name"},
    "example_hand": {"player"},
    "example_bridges": {"hexes"},
    "example_tableau": {"player"},
    "example_stacks": {"player"},
    "reprint_summary": {"count"},
    "cutter_images": {"title", "file"},
    "cutter_image": {"image", "width_in", "height_in", "width_mm", "height_mm", "cut"},
    "kit_title": {"title"},
    "kit_invented": {"mark"},
    "kit_need_card": {"count", "what"},
    "kit_need_paper": {"count", "what"},
    "kit_cards_gutterfold_bleed": {"bleed"},
    "kit_cards_duplex": {"edge", "fronts", "backs"},
    "kit_cards_bleed": {"bleed"},
    "kit_decks": {"count"},
    "kit_deck": {"name", "cards", "width", "height"},
    "kit_deck_cards": {"count"},
    "kit_deck_aids": {"count"},
    "kit_deck_cards_aids": {"cards", "aids"},
    "kit_players_leave_out": {"players", "marked", "copies"},
    "kit_players_reduced": {"game"},
    "kit_tokens_cutter": {"edge"},
    "kit_booklet": {"edge"},
}


#: The language of pnp's reference words: every printed word pnp has is in templates/strings/en.yaml.
REFERENCE = "en"


def strings_path(lang: str) -> Path:
    return TEMPLATES_DIR / "strings" / f"{lang}.yaml"


def translation_path(game, lang: str) -> Path:
    return game.root / "i18n" / f"{lang}.yaml"


def _mapping(path: Path, within) -> dict:
    """A words file as a mapping; {} when it is missing, broken or not a mapping (validation says why)."""
    if not path.is_file():
        return {}
    try:
        data = load_yaml(path, within=within)
    except DataError:
        return {}
    return data if isinstance(data, dict) else {}


def _texts(mapping) -> dict:
    """The printed words of a words mapping: texts, and counted words given as plural forms (a mapping of
    CLDR plural categories to texts, :func:`is_plural`); anything else is left for validation to report."""
    return {k: v for k, v in mapping.items() if isinstance(k, str) and (isinstance(v, str) or is_plural(v))} \
        if isinstance(mapping, dict) else {}


def is_plural(value) -> bool:
    """Whether ``value`` is a printed word's plural forms: a mapping of CLDR plural categories (``one``,
    ``other``, ...; ``other`` required) or exact counts (``=0``) to texts."""
    from pnp.text.locales import CATEGORIES

    return isinstance(value, dict) and "other" in value and all(
        isinstance(k, str) and (k in CATEGORIES or k[:1] == "=" and k[1:].isdigit()) and isinstance(v, str)
        for k, v in value.items())


class Words(dict):
    """Printed words in one language (``lang``): key -> markup, or plural forms (:func:`is_plural`).

    :meth:`say` is how pnp prints one: the form for a ``count`` by the language's CLDR plural rules, its
    ``{placeholders}`` filled (texts escaped as data, numbers with the language's separators)."""

    def __init__(self, items, lang: str):
        super().__init__(items)
        self.lang = lang

    def say(self, key: str, **values) -> Safe:
        """The words at ``key`` with ``values`` filled in (``count`` picks a plural form)."""
        from pnp.text.locales import number, plural

        forms = self[key]
        text = plural(forms, self.lang, values.get("count", 0)) if isinstance(forms, dict) else forms
        if not values:
            return Safe(text)
        shown = {k: Safe(number(v, self.lang)) if isinstance(v, (int, float)) and not isinstance(v, bool) else v
                 for k, v in values.items()}
        return Safe(fill(text, **shown))

    def text(self, key: str, default: str = "") -> str:
        """The words at ``key`` as one text (a plural's ``other`` form), or ``default``."""
        found = self.get(key, default)
        return found.get("other", default) if isinstance(found, dict) else found


def pnp_words(lang: str) -> dict:
    """pnp's own printed words in ``lang`` (``templates/strings/<lang>.yaml``; {} when pnp has none)."""
    return _texts(_mapping(strings_path(lang), None))


def game_file(game, lang: str) -> dict:
    """The game's ``i18n/<lang>.yaml`` as a mapping ({} when there is none)."""
    return _mapping(translation_path(game, lang), game.root)


def game_words(game, lang: str) -> dict:
    """The game's own printed words in ``lang``: the ``strings:`` of its ``i18n/<lang>.yaml``."""
    return _texts(game_file(game, lang).get("strings"))


def strings(game, lang: str | None = None) -> "Words":
    """pnp's printed words for ``lang``, overlaid with the game's own (``strings:`` of its i18n file).

    A word the language lacks is the game's own language's, and one of pnp's words that neither gives is
    pnp's English (validation reports it as missing, and refuses the build unless ``--allow-missing``).
    They are markup (bold, icons); some are filled in with numbers (:data:`PLACEHOLDERS`, :meth:`Words.say`).
    """
    lang = lang or game.language
    merged = Words({}, lang)
    # pnp's English words under all: what a language pnp does not ship lacks (validation reports it)
    for each in dict.fromkeys((REFERENCE, game.source_language, lang)):
        merged.update(pnp_words(each))
        merged.update(game_words(game, each))
    return merged


def translation(game, lang: str | None) -> dict:
    """The game's translation file for ``lang`` ({} for the game's own language)."""
    if not lang or lang == game.source_language:
        return {}
    return game_file(game, lang)


def lookup(tr, *keys):
    """The text at ``keys`` in a translation, or None (missing, or not text: validation reports it)."""
    node = tr
    for k in keys:
        if not isinstance(node, dict):
            return None
        node = node.get(k)
    return node if isinstance(node, str) and node.strip() else None


def word(game, key: str, original, lang: str | None = None):
    """The translation at dotted ``key`` (``components.score.title``) into ``lang`` (default: the game's
    language), or ``original`` when the language is the data's own or the translation lacks it."""
    if original is None:
        return None
    found = lookup(translation(game, lang or game.language), *key.split("."))
    return original if found is None else found


def translate(game, lang: str | None):
    """The game with every printed word of its data in ``lang`` (the same game for its own language).

    Names, flavour, text fields, choice values and formats as printed, back labels, pieces and holdings;
    what components print from their own files (tokens, titles, labels) they look up with :func:`word`.
    Missing entries keep the original words; ``pnp validate --lang`` reports them. Facts do not change:
    a card's ``stats`` keep their values except its text fields (prose no engine acts on).
    """
    if not lang or lang == game.language:
        return game
    tr = translation(game, lang)
    if not tr:
        return replace(game, language=lang)
    factions = tuple(replace(f, name=lookup(tr, "factions", f.id, "name") or f.name,
                             adjective=lookup(tr, "factions", f.id, "adjective") or f.adjective,
                             grammar=translated_grammar(tr, ("factions", f.id), f.grammar))
                     for f in game.factions)
    ranks = tuple(replace(r, name=lookup(tr, "ranks", r.id, "name") or r.name,
                          plural=lookup(tr, "ranks", r.id, "plural") or r.plural)
                  for r in game.ranks)
    categories = tuple(replace(c, name=lookup(tr, "categories", c.id, "name") or c.name) for c in game.categories)
    cards, decks = [], []
    for d in game.decks:
        deck_cards = tuple(_translated_card(tr, d, c) for c in d.cards)
        cards += deck_cards
        side_b = d.side_b
        if side_b is not None:      # side B's own fields print as decks.<id>.side_b says, else as the deck's
            side_b = replace(side_b, fields=tuple(_translated_field(tr, d, f, "side_b" if side_b.own_fields else None)
                                                  for f in side_b.fields))
        decks.append(replace(d, name=lookup(tr, "decks", d.id, "name") or d.name, cards=deck_cards,
                             fields=tuple(_translated_field(tr, d, f) for f in d.fields),
                             back=_translated_back(tr, d), side_b=side_b))
    pieces = tuple(_translated_kind(tr, "pieces", p, ("name", "plural", "note")) for p in game.pieces)
    holdings = tuple(_translated_kind(tr, "holdings", h, ("name", "plural")) for h in game.holdings)
    credits = tuple((lookup(tr, "credits", role) or role, name) for role, name in getattr(game, "credits", ()))
    book_credits = tuple((lookup(tr, "credits", role) or role, name) for role, name in getattr(game, "book_credits", ()))
    icon_key = tuple((name, lookup(tr, "icon_key", name) or text, line) for name, text, line in
                     getattr(game, "icon_key", ()))
    return replace(game, title=lookup(tr, "title") or game.title, factions=factions, ranks=ranks, icon_key=icon_key,
                   cards=tuple(cards), decks=tuple(decks), categories=categories, pieces=pieces,
                   holdings=holdings, language=lang, credits=credits,
                   book_credits=book_credits)


def _translated_card(tr, deck, card, side: tuple = ()):
    """``card`` (a face: ``side`` ``("side_b",)`` for a card's side B) with its printed words from ``tr``."""
    stats = dict(card.stats)
    at = ("cards", card.id, *side)
    for f in deck.side_b.fields if side else deck.fields:
        value = stats.get(f.name)
        if f.type == "text" and isinstance(value, str):
            stats[f.name] = lookup(tr, *at, f.name) or value
        elif f.type == "list" and not f.choices and value:
            given = _value_at(tr, ".".join((*at, f.name)))
            if isinstance(given, list) and len(given) == len(value) and all(isinstance(v, str) for v in given):
                stats[f.name] = list(given)
    side_b = card.side_b
    if side_b is not None and not side and deck.side_b is not None:
        side_b = _translated_card(tr, deck, side_b, ("side_b",))
    return replace(card, name=lookup(tr, *at, "name") or card.name,
                   flavour=lookup(tr, *at, "flavour") or card.flavour, stats=stats, side_b=side_b,
                   grammar=translated_grammar(tr, at, card.grammar))


#: Keys a translation may give under a card or a faction: how its name is said in that language.
GRAMMAR_KEYS = ("gender", "article")


def translated_grammar(tr, at: tuple, original):
    """How a name is said in the translation ``tr`` (its ``<at>.gender`` and ``<at>.article``): the gender
    is the language's own (none when the translation gives none: the original's is another language's),
    the article follows the original's unless the translation says (a personal name stays one). A name the
    translation leaves untranslated (and gives no gender) prints as written in the original, a foreign
    name said without an article ("a Outlaw"): what it lacks is reported as untranslated, as its words are."""
    from pnp.text.grammar import grammar_of

    gender = _value_at(tr, ".".join((*at, "gender")))
    article = _value_at(tr, ".".join((*at, "article")))
    if not isinstance(gender, str) and not lookup(tr, *at, "name"):
        return grammar_of(None, False)
    try:
        return grammar_of(gender if isinstance(gender, str) else None,
                          article if isinstance(article, bool) else original.article)
    except ValueError:                 # (reported at the translation's line by validation)
        return grammar_of(None, original.article)


def _translated_field(tr, deck, f, section: str | None = None):
    """How field ``f`` of ``deck`` prints in ``tr`` (``section="side_b"``: one of side B's own fields)."""
    at = ("decks", deck.id, *((section,) if section else ()))
    labels = tuple((v, lookup(tr, *at, "choices", f.name, v) or v) for v in f.choices)
    return replace(f, labels=labels, format=lookup(tr, *at, "formats", f.name) or f.format,
                   title=lookup(tr, *at, "fields", f.name) or f.title)


def _translated_back(tr, deck):
    back = deck.back
    if back is None:
        return None
    return replace(back, label=lookup(tr, "decks", deck.id, "back", "label") or back.label,
                   labels=tuple((v, lookup(tr, "decks", deck.id, "back", "labels", v) or text)
                                for v, text in back.labels))


def _translated_kind(tr, section, kind, keys):
    return replace(kind, **{k: lookup(tr, section, kind.id, k) or getattr(kind, k) for k in keys
                            if getattr(kind, k, None)})


def given_at(game, lang: str | None, key: str) -> tuple | None:
    """(file, line) where the game's ``i18n/<lang>.yaml`` gives the dotted ``key`` (text, or a list of
    texts), or None: in the game's own language, or when the translation does not give it (the
    original's words print)."""
    if not lang or lang == game.source_language:
        return None
    node = game_file(game, lang)
    *parents, last = key.split(".")
    for part in parents:
        node = node.get(part) if isinstance(node, dict) else None
    if not isinstance(node, dict) or not isinstance(node.get(last), (str, list)):
        return None
    from pnp.loading.yamlsrc import line_of

    return translation_path(game, lang), line_of(node, last)


def words_of(text) -> str:
    """The words of a text or markup, compared as printed: no styles or icons, spaces and case aside."""
    from pnp.text.markup import card_markup, plain_text

    if isinstance(text, (list, tuple)):
        text = " ".join(map(str, text))
    return " ".join(plain_text(card_markup(str(text))).replace("\xad", "").split()).casefold()


def words_at(game, lang: str | None, printed: str, keys) -> tuple | None:
    """Where the translated words a kit in ``lang`` prints as ``printed`` (an element's markup) come
    from: (file, line) in ``i18n/<lang>.yaml`` of the longest translation among the dotted ``keys``
    whose words ``printed`` holds, or None (the game's own language, or words the translation does not
    give). A problem with translated words (a name too long for its card) belongs at that line, not at
    the original's."""
    if not lang or lang == game.source_language:
        return None
    shown = words_of(printed)
    best = None
    for key in keys:
        at = given_at(game, lang, key)
        if at is None:
            continue
        words = words_of(_value_at(translation(game, lang), key))
        if words and words in shown and (best is None or len(words) > best[0]):
            best = (len(words), at)
    return best[1] if best else None


def _value_at(tr, key: str):
    """The value at dotted ``key`` of a translation (any type), or None."""
    node = tr
    for part in key.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    return node


def languages(game) -> list[str]:
    """Languages the game claims: its own, and every i18n/<lang>.yaml."""
    found = {game.source_language}
    folder = game.root / "i18n"
    if folder.is_dir():
        found |= {p.stem for p in folder.glob("*.yaml")}
    return sorted(found)


def require_language(game, lang: str | None) -> None:
    """Refuse a build language the game does not claim at all (one clear problem; ``pnp validate --lang``
    lists everything a translation must give)."""
    if lang and lang not in languages(game):
        raise DataError([no_translation(game, lang)])


def no_translation(game, lang: str) -> Problem:
    return Problem(str(translation_path(game, lang)), None, f"language '{lang}'",
                   f"{game.title} has no translation into '{lang}' (available: {', '.join(languages(game))})")


# ----------------------------------------------------------------------------- layouts' t('key')

class UnknownWord(LookupError):
    """``t('key')`` in a layout names a printed word nobody defines (a validation error, never a blank)."""


def words_function(game, lang: str | None = None):
    """``t(key, **values)`` for layout expressions: the printed word ``key`` in the build's language
    (the game's ``strings:``, then pnp's), as markup, its ``{placeholders}`` filled with ``values``.

    A key that is in neither the game's own language's words nor pnp's is an error naming the closest
    keys; a placeholder the words use but the call does not give is an error too."""
    words = strings(game, lang)
    own = {key for each in dict.fromkeys((game.source_language, lang or game.language))
           for key in game_words(game, each)}

    def t(key, **values):
        key = str(key)
        if key not in words:
            close = closest(key, words, builtin=set(words) - own)       # the game's words first
            hint = f"; did you mean '{close}'?" if close else ""
            raise UnknownWord(f"t('{key}'): no printed word '{key}' in the game's i18n/{game.source_language}"
                              f".yaml strings: or pnp's words{hint}")
        forms = words[key]
        for text in forms.values() if isinstance(forms, dict) else (forms,):
            wrong = placeholder_problems(text, set(values))
            if wrong:
                raise UnknownWord(f"t('{key}'): {wrong[0]} (the words: {text!r})")
        return words.say(key, **values)
    return t


__all__ = ["PLACEHOLDERS", "REFERENCE", "Words", "is_plural", "game_file", "game_words", "given_at",
           "languages", "lookup", "no_translation", "pnp_words", "require_language", "strings", "strings_path",
           "translate", "translation", "translation_path", "word", "words_at", "words_of", "words_function",
           "UnknownWord"]
