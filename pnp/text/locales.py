"""What a language's conventions are, from Unicode CLDR's locale data (through Babel), for any language code.

A kit is printed in one language (``fr``, ``pt-BR``, ``de_CH``); everything here answers for that
language from CLDR, never from a table of our own:

* :func:`plural` picks the form of a count (``{one: "{count} card", other: "{count} cards"}``) by the
  language's CLDR plural rules (Babel's ``Locale.plural_form``); :func:`ordinal_category` gives the
  ordinal rule's category (``Locale.ordinal_form``) for words that print a rank ("1st", "2nd").
* :func:`number` writes a number with the language's decimal and thousands separators (Babel's
  ``format_decimal``): ``63.5`` is ``63,5`` in French and ``1234`` is ``1 234`` (a narrow no-break space).
* :func:`quotation_marks` gives the language's quotation marks and its alternate (inner) ones: CLDR's
  ``delimiters``, which Babel does not ship, read from ``pnp/text/cldr_delimiters.json`` (made from CLDR's
  own data by ``scripts/update_cldr_delimiters.py``).
* :func:`hyphenation_dictionary` names pyphen's dictionary for the language (``en`` is ``en_US`` by
  CLDR's likely subtags), or None when pyphen has none (the kit then breaks no word; validation warns).

A language code Babel does not know (``xx``) is still a language a game may be written in: it gets
CLDR's root conventions (plural ``other``, ``.`` decimals, “ ” quotes) and :func:`known` says so.
The grammar of printed words (articles, contractions) is left to each language's words; these helpers
are what any code that prints a count, a number or a quotation in the kit's language should use.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.core import get_global
from babel.numbers import format_decimal

#: CLDR's quotation marks per locale (see the module docstring).
DELIMITERS_FILE = Path(__file__).with_name("cldr_delimiters.json")
#: CLDR's root locale: what a language Babel does not know follows.
ROOT = "root"


def locale_id(lang: str | None) -> str:
    """A language code as Babel writes it: ``pt-BR`` -> ``pt_BR``; None -> ``en``."""
    return (lang or "en").strip().replace("-", "_") or "en"


@lru_cache(maxsize=64)
def locale(lang: str | None) -> Locale:
    """Babel's locale for ``lang``, or CLDR's root locale when Babel does not know it."""
    try:
        return Locale.parse(locale_id(lang))
    except (UnknownLocaleError, ValueError):
        return Locale.parse(ROOT)


def known(lang: str | None) -> bool:
    """Whether CLDR has data for ``lang`` (else it prints with the root locale's conventions)."""
    try:
        Locale.parse(locale_id(lang))
    except (UnknownLocaleError, ValueError):
        return False
    return True


def plural_category(lang: str | None, count) -> str:
    """CLDR's plural category of ``count`` in ``lang``: ``zero``, ``one``, ``two``, ``few``, ``many`` or ``other``."""
    return locale(lang).plural_form(abs(count))


def ordinal_category(lang: str | None, count) -> str:
    """CLDR's ordinal category of ``count`` in ``lang`` (English 1 ``one``, 2 ``two``, 3 ``few``, 4 ``other``)."""
    return locale(lang).ordinal_form(abs(count))


#: The categories a plural may give, in CLDR's order.
CATEGORIES = ("zero", "one", "two", "few", "many", "other")


def plural(forms, lang: str | None, count):
    """The form of ``forms`` for ``count`` in ``lang``: ``forms`` is a text (the same for every count) or a
    mapping of CLDR categories to texts, of which ``other`` is required (it is used for any category the
    mapping lacks). An exact count may be given too, as ``=0`` (``{"=0": "no cards", ...}``)."""
    if not isinstance(forms, dict):
        return forms
    exact = forms.get(f"={count}")
    if exact is not None:
        return exact
    return forms.get(plural_category(lang, count), forms.get("other"))


def plural_categories(lang: str | None) -> tuple:
    """The plural categories ``lang`` uses for cardinal counts (English: one, other; Polish: one, few,
    many, other), so a translation can be told which forms it must give."""
    return tuple(c for c in CATEGORIES if c in locale(lang).plural_form.tags or c == "other")


def listed(items, lang: str | None) -> str:
    """``items`` (texts) as a list in ``lang``'s words: "a, b and c", "a, b y c" (CLDR's list patterns)."""
    from babel.lists import format_list

    items = [str(i) for i in items]
    return format_list(items, locale=locale(lang)) if items else ""


def number(value, lang: str | None) -> str:
    """``value`` written with ``lang``'s decimal and grouping separators (Babel's ``format_decimal``);
    integers stay integers and a float keeps its digits (``63.5``, never ``63.500``)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return format_decimal(value, format="#,##0.###", locale=locale(lang))


@lru_cache(maxsize=1)
def _delimiters() -> dict:
    return json.loads(DELIMITERS_FILE.read_text("utf-8"))["delimiters"]


def _candidates(lang: str | None):
    """CLDR locale ids to try for ``lang``, most specific first (``pt_PT``, ``pt``), then root."""
    loc = locale(lang)
    parts = [loc.language] + [p for p in (loc.script, loc.territory, loc.variant) if p]
    for n in range(len(parts), 0, -1):
        yield "_".join(parts[:n])
    if loc.territory:
        yield f"{loc.language}_{loc.territory}"
    yield "und"          # CLDR's JSON names the root locale's data "und"


@lru_cache(maxsize=64)
def quotation_marks(lang: str | None) -> tuple:
    """(opening, closing, alternate opening, alternate closing) quotation marks of ``lang``, from CLDR."""
    table = _delimiters()
    for candidate in _candidates(lang):
        if candidate in table:
            return tuple(table[candidate])
    return tuple(table["und"])


def likely(lang: str | None) -> str:
    """``lang`` with CLDR's likely region: ``en`` -> ``en_US``, ``pt`` -> ``pt_BR``, ``fr_CA`` stays."""
    loc = locale(lang)
    if loc.territory:
        return f"{loc.language}_{loc.territory}"
    found = get_global("likely_subtags").get(loc.language)
    if not found:
        return loc.language
    full = Locale.parse(found)
    return f"{full.language}_{full.territory}" if full.territory else full.language


@lru_cache(maxsize=64)
def hyphenation_dictionary(lang: str | None) -> str | None:
    """The name of pyphen's dictionary for ``lang`` (its own region's, or the language's likely region's:
    ``en`` -> ``en_US``), or None when pyphen has none for the language."""
    import pyphen

    if not known(lang):
        return None
    for candidate in (likely(lang), locale(lang).language):
        found = pyphen.language_fallback(candidate)
        if found:
            return found
    return None


__all__ = ["CATEGORIES", "hyphenation_dictionary", "known", "likely", "locale", "locale_id", "number",
           "ordinal_category", "plural", "plural_categories", "plural_category", "quotation_marks"]
