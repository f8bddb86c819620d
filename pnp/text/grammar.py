"""Articles before names, from the name's language and the grammar the data gives it, never from a template's
"a {{ name }}".

A sentence that puts an article before a name of the data (a card, a faction) cannot be written once for
every name: English says "an Alchemist" but "a Minstrel" and "a unicorn" (by how the word is *said*), and
Spanish says "al Forajido", "a la Guardia de la Reina", "a los Rebeldes" and "a Anna Lys" (by the name's
gender and number, and whether it is a personal name, which takes none). So templates write the name
through a filter and pnp puts the article:

========================  ==================================  ==========================================
filter                    English                             Spanish
========================  ==================================  ==========================================
``{{ x|a }}`` (``an``)    a Minstrel, an Alchemist (inflect)  un Forajido, una Guardia, unos Rebeldes
``{{ x|the }}``           the Minstrel                        el Forajido, la Guardia, los Rebeldes
``{{ x|al }}``            (Spanish only)                      al Forajido, a la Guardia, a Anna Lys
``{{ x|del }}``           (Spanish only)                      del Forajido, de la Guardia, de Anna Lys
========================  ==================================  ==========================================

``x`` is a card, a faction or a rank (its ``name`` and :class:`Grammar`), an event template's
``n.card(id)`` or ``n.faction(id)`` (a :class:`Noun`: the name with its grammar), or, in English, any
text. English needs no gender: :mod:`inflect` chooses "a" or "an" by pronunciation ("an hour", "a
unicorn", "an FBI agent"). Spanish needs the name's gender, which the data gives per name
(``gender: feminine`` on the card, or ``cards.<id>.gender`` in ``i18n/es.yaml``); a name said without
an article (``article: false``: "Anna Lys") gets none. A name whose grammar the language needs and the
data does not give is a :class:`GrammarError` naming the key to add; a language pnp has no article rules
for is one too.

:func:`article_problems` finds templates that write an article before a data value themselves, and
:func:`plural_problems` those that make a plural by adding letters (counted words come from the
catalogue: ``t('key', count=n)``, in the language's plural form).
No reportlab here: these are functions of text.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache

from pnp.text.markup import Safe, escape
from rules_engine.model.cards import Grammar

#: Grammatical genders a name may have (``gender:`` in the data), and the word that makes it plural.
GENDERS = ("masculine", "feminine", "neuter")
PLURAL = "plural"
#: Every value ``gender:`` may take: ``feminine``, ``masculine plural``, ...
GENDER_VALUES = tuple(g for gender in GENDERS for g in (gender, f"{gender} {PLURAL}"))
#: Languages whose articles pnp puts (the others: a GrammarError naming the language).
LANGUAGES = ("en", "es")

#: Spanish articles: (definite, indefinite) by (gender, plural); neuter names take the masculine ones.
_ES = {("masculine", False): ("el", "un"), ("feminine", False): ("la", "una"),
       ("masculine", True): ("los", "unos"), ("feminine", True): ("las", "unas")}
#: Spanish contractions of a preposition with the definite article.
_ES_CONTRACTED = {("a", "el"): "al", ("de", "el"): "del"}


_SPEAKING: ContextVar = ContextVar("pnp_grammar_language", default=None)


@contextmanager
def speaking(lang: str | None):
    """Say names in ``lang`` inside the block: what the filters of templates rendered there put articles by
    (a chapter, an event's sentence, a card's text: each renders in the language it is written in). Outside
    any such block, the language texts are being set in (:func:`pnp.text.typography.active`)."""
    token = _SPEAKING.set(lang)
    try:
        yield
    finally:
        _SPEAKING.reset(token)


def written_in(filename, folder, lang: str, source: str) -> str:
    """The language a template found under ``folder`` (``templates/rulebook``, ``templates/sheets``) is
    written in: ``source`` when it lies in ``folder/<source>/`` and not in ``folder/<lang>/`` (the game's own
    template, used where the translation lacks one), else ``lang`` (its own, or pnp's shared templates,
    which print the kit's words)."""
    from pathlib import Path

    path = Path(str(filename)).resolve()
    folder = Path(folder).resolve()
    if lang != source and not path.is_relative_to(folder / lang) and path.is_relative_to(folder / source):
        return source
    return lang


def language() -> str:
    """The language names are said in now (:func:`speaking`)."""
    from pnp.text import typography

    return _SPEAKING.get() or typography.active()


class GrammarError(ValueError):
    """A name cannot take the article asked for: the language needs a gender the data does not give, or
    pnp has no article rules for the language. The message says what to add."""


def parse_gender(value) -> tuple[str | None, bool]:
    """(gender, plural) of a ``gender:`` value (``"feminine plural"`` -> ``("feminine", True)``); None
    gives (None, False). Raises ValueError naming the accepted values for anything else."""
    if value is None:
        return None, False
    words = str(value).split()
    if words and words[0] in GENDERS and (words[1:] == [] or words[1:] == [PLURAL]):
        return words[0], len(words) == 2
    raise ValueError(f"gender: {value!r} is not one of {', '.join(GENDER_VALUES)}")


def grammar_of(gender=None, article=None) -> Grammar:
    """A :class:`Grammar` from the data's ``gender`` and ``article`` values (checked where they are read)."""
    found, plural = parse_gender(gender)
    return Grammar(gender=found, plural=plural, article=article is not False)


class Noun(Safe):
    """A name as markup (escaped by pnp) that knows its grammar and what the data calls it (``key``:
    ``cards.outlaw``, for messages): what event templates' ``n.card(id)`` and ``n.faction(id)`` give."""

    __slots__ = ("grammar", "key")

    def __new__(cls, text: str, grammar: Grammar | None = None, key: str = ""):
        made = super().__new__(cls, escape(text))
        made.grammar = grammar or Grammar()
        made.key = key
        return made

    def __reduce__(self):
        return Noun, (Safe(str(self)), self.grammar, self.key)


def _name_and_grammar(value) -> tuple[str, Grammar | None, str]:
    """(name, grammar or None, what names it in a message) of a filter's value."""
    if isinstance(value, Noun):
        return value, value.grammar, value.key
    name = getattr(value, "name", None)
    if isinstance(name, str) and not isinstance(value, str):
        kind = {"Card": "cards", "Faction": "factions", "Rank": "ranks"}.get(type(value).__name__, "")
        ident = getattr(value, "id", "")
        return name, getattr(value, "grammar", None), f"{kind}.{ident}" if kind and ident else ""
    return str(value), None, ""


def base(lang: str | None) -> str:
    """``en_GB`` -> ``en``."""
    return (lang or "en").replace("-", "_").split("_")[0].lower() or "en"


@lru_cache(maxsize=1)
def _inflect():
    import inflect

    return inflect.engine()


#: What leads a name's first spoken word: markup stars, escapes and quotes are not said.
_LEAD = re.compile(r"^[\s*\\\"'\u201c\u2018\u00ab(]*")


def english_indefinite(name: str) -> str:
    """"a" or "an" for ``name`` by how its first word is said (inflect: "an hour", "a unicorn")."""
    word = _LEAD.sub("", str(name)).split(" ", 1)[0]
    if not word:
        return "a"
    return _inflect().a(word).split(" ", 1)[0].lower()


def default_plural(name: str, lang: str | None) -> tuple[str, str | None]:
    """``(plural, problem)`` of a name the data gives no ``plural`` for: in English, inflect's ("Church" ->
    "Churches", "Wolf" -> "Wolves", "Slave Pen" -> "Slave Pens") and no problem; in another language,
    whose plurals pnp does not make, the name itself and the message asking for its plural."""
    if base(lang) == "en" or not str(name).strip():
        return (_inflect().plural_noun(str(name)) if str(name).strip() else name), None
    return name, (f"plural: not given, and pnp makes the plurals of English names only (the game's language "
                  f"is '{lang}'): give it; the kit prints '{name}' where it needs the plural")


def _spanish(grammar: Grammar | None, key: str, name: str, lang: str) -> tuple[str, str] | None:
    """(definite, indefinite) Spanish article of a name, or None for a name said without one."""
    if grammar is not None and not grammar.article:
        return None
    if grammar is None or grammar.gender is None:
        where = f"give {key}.gender" if key else "give its gender"
        raise GrammarError(
            f"'{name}' needs its gender for an article in '{lang}': {where} (one of "
            f"{', '.join(GENDER_VALUES)}) in i18n/{lang}.yaml, or in the data for the game's own language"
            + ("" if key else "; pass the card or faction itself (card|al), not only its name"))
    gender = "masculine" if grammar.gender == "neuter" else grammar.gender
    return _ES[(gender, grammar.plural)]


def article(value, kind: str, lang: str | None, preposition: str | None = None) -> str:
    """``value``'s name with its article in ``lang``: ``kind`` ``definite`` or ``indefinite``; with a
    ``preposition`` (Spanish ``a``, ``de``) before the definite one, contracted where the language
    contracts (``al``, ``del``). The name is returned as it was given (markup stays markup)."""
    name, grammar, key = _name_and_grammar(value)
    language = base(lang)
    if language == "en":
        if preposition is not None:
            raise GrammarError(f"'{preposition} + the' is a Spanish contraction; in English write "
                               f"'to {{{{ x|the }}}}' or 'of {{{{ x|the }}}}'")
        if grammar is not None and not grammar.article:
            return name
        return f"the {name}" if kind == "definite" else f"{english_indefinite(name)} {name}"
    if language == "es":
        articles = _spanish(grammar, key, name, language)
        if articles is None:
            return f"{preposition} {name}" if preposition else name
        word = articles[0] if kind == "definite" else articles[1]
        if preposition:
            word = _ES_CONTRACTED.get((preposition, word), f"{preposition} {word}")
        return f"{word} {name}"
    raise GrammarError(f"pnp puts no articles in '{language}' (it knows {', '.join(LANGUAGES)}): write the "
                       f"sentence so that the name needs none")


def _filter(kind: str, preposition: str | None = None):
    def apply(value):
        said = article(value, kind, language(), preposition)
        return said if isinstance(said, Noun) else Safe(said)
    apply.__name__ = f"article_{kind}_{preposition or ''}"
    return apply


#: Markup before a text's first letter that is not a letter: style stars, escapes, quotes, spaces.
_BEFORE_LETTER = re.compile(r"^(?:\\.|[\s*\"'\u201c\u2018\u00ab(])*")


def capfirst(text) -> Safe:
    """``text`` (markup) with its first letter upper case and the rest as it was: a sentence that starts
    with an article ("El Forajido de Ana ..."). Jinja's ``capitalize`` would lower the rest."""
    text = str(text)
    at = _BEFORE_LETTER.match(text).end()
    return Safe(text[:at] + text[at:at + 1].upper() + text[at + 1:])


def filters() -> dict:
    """The template filters (name -> function): ``a`` and ``an`` (indefinite), ``the`` (definite), and
    the Spanish ``al`` (a + the) and ``del`` (de + the), each saying the name in the kit's language; and
    ``capfirst`` for a sentence that starts with one."""
    return {"a": _filter("indefinite"), "an": _filter("indefinite"), "the": _filter("definite"),
            "al": _filter("definite", "a"), "del": _filter("definite", "de"), "capfirst": capfirst}


# ----------------------------------------------------------------------------- templates that write articles

#: An article written before a data value (``{{ ... }}``), by language (``en``: a, an; ``es``: articles,
#: contractions and the preposition a), and the filter that says it instead.
_WRITTEN = {
    "en": (re.compile(r"(?<![\w'’-])(a|an|A|An)\s+\{\{-?\s*(?P<expr>.*?)\s*-?\}\}"),
           {"a": "a", "an": "a", "A": "a", "An": "a"}),
    "es": (re.compile(r"(?<![\w'’-])(el|la|los|las|un|una|unos|unas|al|del|a|El|La|Los|Las|Un|Una|Unos|Unas|Al|Del)"
                      r"\s+\{\{-?\s*(?P<expr>.*?)\s*-?\}\}"),
           {"el": "the", "la": "the", "los": "the", "las": "the", "un": "a", "una": "a", "unos": "a", "unas": "a",
            "al": "al", "del": "del", "a": "al"}),
}
#: What an expression must name to be a name that takes an article (a card's, a faction's, a rank's, an
#: event template's n.card / n.faction ...): numbers, players and words of the language do not.
_NAMES = re.compile(r"\bname\b|\bn\.(cards?|factions?|pieces?|holdings?|side|adjective)\b|\bcard\b|\bfaction\b")
#: Expressions that say their article already.
_SAID = re.compile(r"\|\s*(a|an|the|al|del)\b")


def article_problems(text: str, lang: str) -> list[tuple[int, str]]:
    """(line, message) for each place a template in ``lang`` writes an article itself before a value of the
    data that names something ("a {{ card.name }}", "el {{ factions[0].faction.name }}"), with the
    filter that says it by the name's pronunciation or gender."""
    found = _WRITTEN.get(base(lang))
    if found is None:
        return []
    pattern, filters_by_word = found
    out = []
    for match in pattern.finditer(text):
        expr = match.group("expr")
        if _SAID.search(expr) or not _NAMES.search(expr):
            continue
        written = match.group(1)
        use = filters_by_word[written.lower()]
        line = text.count("\n", 0, match.start()) + 1
        value = expr.split("|")[0].strip()
        if base(lang) != "en" and value.endswith(".name"):
            value = value[:-len(".name")]         # the gender is the card's or faction's, not its name's
        if written[:1].isupper():
            use += "|capfirst"
        out.append((line, f"'{written} {{{{ {excerpt(expr)} }}}}' writes the article itself, the same for every "
                          f"name: write '{{{{ {value}|{use} }}}}', which says it by the name's "
                          + ("pronunciation ('an Alchemist', 'a Minstrel')" if base(lang) == "en" else
                             "gender and number, from the data ('al Forajido', 'a la Guardia')")))
    return out


#: A plural made by adding letters to a word: ``Gem{{ "s" if n != 1 }}``, ``hex{{ "es" if ... }}``.
_PLURAL_BY_LETTERS = re.compile(r"""(?P<said>["'](?:s|es)["']\s+if\s+(?P<cond>[^}%]*?))\s*(?:-?\}\}|-?%\}|\)|\belse\b)""")


def plural_problems(text: str) -> list[tuple[int, str]]:
    """(line, message) for each place a template makes a plural by adding letters to a word
    (``Gem{{ "s" if n != 1 }}``): right in English for some words only, and no other language's plural
    rules are "add s when not 1". The word's plural forms belong in the catalogue, picked for the count by
    the language's CLDR rules (Babel): ``t('key', count=n)``."""
    out = []
    for match in _PLURAL_BY_LETTERS.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        out.append((line, f"'{excerpt(match.group('said').strip(), 30)}' makes a plural by adding letters: give "
                          f"the counted word's plural forms under strings: in i18n/<lang>.yaml ({{one: \"{{count}} "
                          f"Gem\", other: \"{{count}} Gems\"}}) and write t('key', count=n) (n.t in an event "
                          f"template), which picks the form by the language's plural rules"))
    return out


def excerpt(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


__all__ = ["GENDERS", "GENDER_VALUES", "Grammar", "GrammarError", "LANGUAGES", "Noun", "article",
           "article_problems", "default_plural", "english_indefinite", "filters", "grammar_of", "parse_gender",
           "plural_problems", "speaking", "written_in"]
