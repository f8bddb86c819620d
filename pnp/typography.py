"""Typography by the rules of the trade: quotes and apostrophes per language, hyphenation points.

No reportlab here: these are functions of text. :mod:`pnp.draw.text` applies them while it sets every
printed text (cards, boards, rulebook), in the language of the kit being built (:func:`language`,
set with a game's icons by :func:`pnp.draw.icons.with_game_icons`).

* :func:`quotes` turns typewriter quotes into the language's own: English “double” and ‘single’
  quotes and the apostrophe ’; Spanish «comillas latinas» and the apostrophe ’. Only text is changed,
  never markup syntax (an icon's ``[name:label]``); a quote written ``\\"`` stays straight.
* :func:`hyphen_points` gives where a word may be broken, from the maintained TeX patterns that
  ``pyphen`` ships (English and Spanish dictionaries), with at least two letters before a break and
  three after it.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache

_ACTIVE: ContextVar = ContextVar("pnp_typography_language", default="en")

#: Per language: (opening double, closing double, opening single, closing single / apostrophe).
QUOTES = {
    "en": ("\u201c", "\u201d", "\u2018", "\u2019"),
    "es": ("\u00ab", "\u00bb", "\u201c", "\u201d"),
}
APOSTROPHE = "\u2019"
#: pyphen's dictionary for a language (the two-letter code of a kit's language).
DICTIONARIES = {"en": "en_US", "es": "es"}
#: Fewest letters a hyphenated word keeps before the break and carries after it.
HYPHEN_LEFT, HYPHEN_RIGHT = 2, 3

#: Inline markup tokens that are not text (as :data:`pnp.markup._INLINE` splits them): escapes,
#: bold/italic stars, icons, line breaks. Spaces are text boundaries.
_TOKENS = re.compile(r"(\\.|\*\*|\*|\[[a-z][a-z0-9_-]*(?::[^\]]*)?\]|\n| +)", re.DOTALL)
#: After these, a quote opens.
_OPENS_AFTER = set(" \t\n([{\u2014\u2013-/\u00ab\u201c\u2018")


def active() -> str:
    """The language texts are being set in (two-letter code)."""
    return _ACTIVE.get()


@contextmanager
def language(lang: str | None):
    """Set texts in ``lang`` inside the block (its quotes, its hyphenation)."""
    token = _ACTIVE.set(base_language(lang))
    try:
        yield
    finally:
        _ACTIVE.reset(token)


def base_language(lang: str | None) -> str:
    """``es-MX`` -> ``es``; None -> ``en``."""
    return (lang or "en").replace("_", "-").split("-")[0].lower() or "en"


def quotes(markup: str, lang: str | None = None) -> str:
    """``markup`` with its text's straight quotes made typographic for ``lang`` (default: the active
    language). Markup syntax and escaped quotes (``\\"``, ``\\'``) are left as written."""
    if "'" not in markup and '"' not in markup:
        return markup
    return _quotes(markup, base_language(lang) if lang else active())


@lru_cache(maxsize=8192)
def _quotes(markup: str, lang: str) -> str:
    open2, close2, open1, close1 = QUOTES.get(lang, QUOTES["en"])
    out, prev = [], " "         # the last printed character: a quote after a space opens
    for token in _TOKENS.split(markup):
        if not token:
            continue
        if token in ("**", "*"):
            out.append(token)   # styles are transparent: **"word"** opens after the space before it
            continue
        if token.startswith("\\") and len(token) == 2 or token.startswith("["):
            out.append(token)
            prev = token[-1] if token.startswith("\\") else "x"
            continue
        if token == "\n" or token.isspace():
            out.append(token)
            prev = " "
            continue
        chars = []
        for i, ch in enumerate(token):
            if ch == '"':
                ch = open2 if prev in _OPENS_AFTER else close2
            elif ch == "'":
                # after a space it opens a quotation if it closes later in the word ('word'); otherwise
                # it is an apostrophe, elision included ('tis, '90s)
                ch = open1 if prev in _OPENS_AFTER and _single_opens(token, i) else APOSTROPHE
            chars.append(ch)
            prev = ch
        out.append("".join(chars))
    return "".join(out)


def _single_opens(token: str, i: int) -> bool:
    """Whether the straight ``'`` at ``token[i]`` (after a space) opens a quotation: a closing ``'``
    follows later in the same text, else it is an apostrophe of elision (’tis)."""
    return "'" in token[i + 1:] and token[i + 1:i + 2].isalpha()


@lru_cache(maxsize=4)
def _dictionary(lang: str):
    name = DICTIONARIES.get(lang)
    if name is None:
        return None
    import pyphen                    # imported when a text first needs a break

    return pyphen.Pyphen(lang=name, left=HYPHEN_LEFT, right=HYPHEN_RIGHT)


@lru_cache(maxsize=16384)
def hyphen_points(word: str, lang: str | None = None) -> tuple[int, ...]:
    """Indexes into ``word`` where it may break with a hyphen (none for a language without a
    dictionary, a word with digits or capitals only, or one shorter than six letters)."""
    lang = base_language(lang) if lang else active()
    core = word.strip(".,;:!?)»”’\"'(«“‘")
    if len(core) < 6 or not core.isalpha() or core.isupper():
        return ()
    dictionary = _dictionary(lang)
    if dictionary is None:
        return ()
    start = word.index(core)
    return tuple(start + p for p in dictionary.positions(core))
