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

    return Patterns(pyphen.LANGUAGES[pyphen.language_fallback(name)])


class Patterns:
    """A pyphen dictionary (``hyph_*.dic``: Liang's TeX patterns, one a line) read as pyphen reads it,
    but each pattern's numbers parsed only when a word needs that pattern: a kit breaks a few dozen
    words, and ``pyphen.Pyphen`` parses all 11,000 patterns of the English file first (0.05 s of every
    fresh build). :meth:`positions` gives what ``pyphen.Pyphen(...).positions`` gives (the same file,
    the same rules: tested word by word)."""

    def __init__(self, path):
        with path.open("rb") as file:
            encoding = file.readline().decode()
        if encoding.lower() == "microsoft-cp1251":
            encoding = "cp1251"
        self._written: dict = {}     # a pattern's letters -> the pattern as written (the last one kept)
        self._parsed: dict = {}
        for pattern in path.read_text(encoding).split("\n")[1:]:
            pattern = pattern.strip()
            if not pattern or pattern.startswith(_IGNORED):
                continue
            if "^^" in pattern:
                pattern = _HEX(lambda match: chr(int(match.group(1), 16)), pattern)
            if "/" in pattern and "=" in pattern:
                pattern = pattern.split("/", 1)[0]    # a nonstandard break's spelling: its place is all we use
            if _BREAKS(pattern) or any(map(int, _DIGITS(pattern))):     # zeros only allow nothing: left out
                self._written[_NUMBERS("", pattern)] = pattern
        self._longest = max(map(len, self._written), default=0)

    def _pattern(self, letters: str):
        """(offset, values) of the pattern of ``letters`` as pyphen stores it, or None."""
        found = self._parsed.get(letters)
        if found is None and letters in self._written:
            values = tuple(int(n or "0") for n, _ in _PARTS(self._written[letters]))
            start, end = 0, len(values)
            while not values[start]:
                start += 1
            while not values[end - 1]:
                end -= 1
            found = self._parsed[letters] = (start, values[start:end])
        return found

    def positions(self, word: str) -> list[int]:
        """Where ``word`` may break, at least :data:`HYPHEN_LEFT` letters from its start and
        :data:`HYPHEN_RIGHT` from its end (Liang's algorithm: the highest number any pattern puts
        between two letters, odd allowing a break)."""
        pointed = f".{word.lower()}."
        weights = [0] * (len(pointed) + 1)
        for i in range(len(pointed) - 1):
            for j in range(i + 1, min(i + self._longest, len(pointed)) + 1):
                found = self._pattern(pointed[i:j])
                if found:
                    offset, values = found
                    at = slice(i + offset, i + offset + len(values))
                    weights[at] = map(max, values, weights[at])
        last = len(word) - HYPHEN_RIGHT
        return [i - 1 for i, w in enumerate(weights) if w % 2 and HYPHEN_LEFT <= i - 1 <= last]


#: How pyphen reads a pattern file: lines it skips, ``^^hh`` characters, the digits of a pattern.
_IGNORED = ("%", "#", "LEFTHYPHENMIN", "RIGHTHYPHENMIN", "COMPOUNDLEFTHYPHENMIN", "COMPOUNDRIGHTHYPHENMIN")
_HEX = re.compile(r"\^{2}([0-9a-f]{2})").sub
_PARTS = re.compile(r"(\d?)(\D?)").findall
_NUMBERS = re.compile(r"\d").sub
_DIGITS = re.compile(r"\d").findall
_BREAKS = re.compile(r"[1-9]").search


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
