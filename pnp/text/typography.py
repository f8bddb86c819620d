"""Typography by the rules of the trade, from the language's locale data: quotes, spacing, hyphenation.

No reportlab here: these are functions of text. :mod:`pnp.draw.text` applies them while it sets every
printed text (cards, boards, rulebook), in the language of the kit being built (:func:`language`,
set with a game's icons by :func:`pnp.draw.icons.with_game_icons`). Every convention comes from the
language's CLDR data (:mod:`pnp.text.locales`), for any language code, never from a table of ours:

* :func:`quotes` turns typewriter quotes into the language's own: its quotation marks for ``"`` and its
  alternate ones for ``'`` (CLDR's delimiters: English “double” and ‘single’, German „so“ and ‚so‘,
  French « » ...), and ``'`` inside or after a word into the apostrophe ’. Only text is changed, never
  markup syntax (an icon's ``[name:label]``); a quote written ``\\"`` stays straight. In French it also
  sets the narrow no-break space French typography puts before ``; : ! ?`` and inside « » (CLDR has no
  data for this spacing: it is the one rule here written for a language, :data:`SPACED_PUNCTUATION`).
* :func:`hyphen_points` gives where a word may be broken, from the maintained TeX patterns that
  ``pyphen`` ships for the language (:func:`pnp.text.locales.hyphenation_dictionary`), with at least two
  letters before a break and three after it; a language pyphen has no dictionary for breaks no word
  (validation warns, :func:`hyphenation_problem`). The dictionary follows the game's spelling
  (:func:`language`'s ``spelling``: game.yaml's ``spelling``, such as ``en-GB``, else the language
  code's likely region), and a word of one of the game's names (a card, faction, place or piece: its
  ``names``) never breaks.
* :func:`quotes` also sets an en dash between the two numbers of a range (``2-4`` -> ``2–4``).
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache

from pnp.text import locales

_ACTIVE: ContextVar = ContextVar("pnp_typography_language", default="en")
#: How words break while texts are set: (the locale whose hyphenation dictionary breaks them, or None for
#: the language's own; the words of the game's names, never broken). See :func:`language`.
_BREAKING: ContextVar = ContextVar("pnp_typography_breaking", default=(None, frozenset()))

#: The apostrophe (Unicode's recommended one, in every language: CLDR gives none).
APOSTROPHE = "\u2019"
#: Fewest letters a hyphenated word keeps before the break and carries after it.
HYPHEN_LEFT, HYPHEN_RIGHT = 2, 3
#: Languages whose typography puts a narrow no-break space before ``; : ! ?`` and inside « »
#: (French: Lexique des règles typographiques en usage à l'Imprimerie nationale). CLDR has no such data.
SPACED_PUNCTUATION = frozenset({"fr"})
NNBSP = "\u202f"
EN_DASH = "\\1\u2013\\2"
#: A range of two numbers written with a hyphen (``2-4``, ``91.5-94.6``), not part of a longer word or
#: a date (``2026-11-30``, ``A-3``).
_RANGE = re.compile(r"(?<![\w.,\-])(\d+(?:[.,]\d+)?)-(\d+(?:[.,]\d+)?)(?![\w\-]|[.,]\d)")
_HAS_RANGE = _RANGE.search
_RANGE = _RANGE.sub

#: Inline markup tokens that are not text (as :data:`pnp.text.markup._INLINE` splits them): escapes,
#: bold/italic stars, icons, line breaks. Spaces are text boundaries.
_TOKENS = re.compile(r"(\\.|\*\*|\*|\[[a-z][a-z0-9_-]*(?::[^\]]*)?\]|\n| +)", re.DOTALL)
#: Markup that is never text, for the spacing rules: escapes and icons.
_NOT_TEXT = re.compile(r"(\\.|\[[a-z][a-z0-9_-]*(?::[^\]]*)?\])", re.DOTALL)
#: After these, a quote opens.
_OPENS_AFTER = set(" \t\n([{\u2014\u2013-/\u00ab\u201c\u2018\u201e\u201a\u2039\u300c\u300e")
#: French spacing: a high punctuation mark after a word (spaces before it replaced), when a space, the
#: end, a style star, a closing mark or another punctuation follows (not ``12:30``, nor ``http://``).
_BEFORE_HIGH = re.compile(r"(?<=[^\s;:!?\u00ab(\[])(\*{0,2})[ \u00a0\u202f]*([;:!?])"
                          r"(?=$|[\s*\u00bb)\].,;:!?\u2019\u201d])")
_INSIDE_OPEN = re.compile(r"\u00ab[ \u00a0\u202f]*(?=[^\s\u00bb])")
_INSIDE_CLOSE = re.compile(r"(?<=[^\s\u00ab])[ \u00a0\u202f]*\u00bb")


def active() -> str:
    """The language texts are being set in (a language code as :func:`pnp.text.locales.locale_id` writes it)."""
    return _ACTIVE.get()


def breaking() -> tuple:
    """How words break in the active setting (hashable, for caches keyed by it): (the spelling's locale or
    None, the frozenset of name words never broken)."""
    return _BREAKING.get()


def breaking_key(text: str) -> tuple:
    """What of the active setting's breaking a cache keyed by texts containing ``text`` depends on: the
    spelling and the name words that occur in it (renaming a card a booklet never prints leaves its key
    as it was)."""
    spelling, names = _BREAKING.get()
    return spelling, tuple(sorted(w for w in names if w in text))


@contextmanager
def language(lang: str | None, spelling: str | None = None, names=()):
    """Set texts in ``lang`` inside the block (its quotes, spacing and hyphenation). ``spelling``: a
    language code with its region (``en-GB``) whose hyphenation dictionary breaks words, when it is a
    spelling of ``lang`` (else ``lang``'s own); ``names``: names (of cards, factions, places...) whose
    words never break."""
    lang_id = locales.locale_id(lang)
    if spelling and base_language(spelling) != base_language(lang_id):
        spelling = None
    token = _ACTIVE.set(lang_id)
    broken = _BREAKING.set((locales.locale_id(spelling) if spelling else None, name_words(names)))
    try:
        yield
    finally:
        _BREAKING.reset(broken)
        _ACTIVE.reset(token)


#: The parts of a name that are words (what :func:`hyphen_points` would break).
_WORDS = re.compile(r"[^\W\d_]+")


def name_words(names) -> frozenset:
    """The words of ``names`` long enough to break (six letters or more), as :func:`hyphen_points` sees
    them."""
    return frozenset(w for name in names for w in _WORDS.findall(str(name)) if len(w) >= 6)


def base_language(lang: str | None) -> str:
    """``es-MX`` -> ``es``; None -> ``en``."""
    return locales.locale_id(lang).split("_")[0].lower() or "en"


def quotes(markup: str, lang: str | None = None) -> str:
    """``markup`` with its text's straight quotes made typographic for ``lang`` (default: the active
    language), the language's spacing around punctuation and en dashes in ranges of numbers. Markup
    syntax and escaped quotes (``\\"``, ``\\'``) are left as written."""
    lang = locales.locale_id(lang) if lang else active()
    spaced = base_language(lang) in SPACED_PUNCTUATION
    if ("'" not in markup and '"' not in markup and not (spaced and _has_spaced(markup))
            and not ("-" in markup and _HAS_RANGE(markup))):
        return markup
    return _quotes(markup, lang)


def _has_spaced(markup: str) -> bool:
    return any(ch in markup for ch in ";:!?\u00ab\u00bb")


@lru_cache(maxsize=8192)
def _quotes(markup: str, lang: str) -> str:
    open2, close2, open1, close1 = locales.quotation_marks(lang)
    out, prev = [], " "         # the last printed character: a quote after a space opens
    single = False              # an alternate (single) quotation is open
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
        token = _RANGE(EN_DASH, token)
        chars = []
        for i, ch in enumerate(token):
            if ch == '"':
                ch = open2 if prev in _OPENS_AFTER else close2
            elif ch == "'":
                # after a space it opens a quotation if it closes later in the word ('word'); otherwise
                # it is an apostrophe, elision included ('tis, '90s); at the end of a word, while one is
                # open, it closes the quotation with the language's alternate closing mark
                if prev in _OPENS_AFTER and _single_opens(token, i):
                    ch, single = open1, True
                elif single and not token[i + 1:i + 2].isalpha():
                    ch, single = close1, False
                else:
                    ch = APOSTROPHE
            chars.append(ch)
            prev = ch
        out.append("".join(chars))
    text = "".join(out)
    return _spaced(text) if base_language(lang) in SPACED_PUNCTUATION else text


def spacing(text: str, lang: str | None = None) -> str:
    """``text`` with only the language's spacing around punctuation (French's narrow no-break spaces; the
    same text in other languages): for words set outside markup, such as a page's running head."""
    lang = locales.locale_id(lang) if lang else active()
    return _spaced(text) if base_language(lang) in SPACED_PUNCTUATION else text


def _spaced(text: str) -> str:
    """``text`` with French spacing: a narrow no-break space before ``; : ! ?`` and inside « »."""
    parts = _NOT_TEXT.split(text)
    for i in range(0, len(parts), 2):           # even parts are text, odd ones escapes and icons
        part = _BEFORE_HIGH.sub(lambda m: f"{m.group(1)}{NNBSP}{m.group(2)}", parts[i])
        part = _INSIDE_OPEN.sub("\u00ab" + NNBSP, part)
        parts[i] = _INSIDE_CLOSE.sub(NNBSP + "\u00bb", part)
    return "".join(parts)


def _single_opens(token: str, i: int) -> bool:
    """Whether the straight ``'`` at ``token[i]`` (after a space) opens a quotation: a closing ``'``
    follows later in the same text, else it is an apostrophe of elision (’tis)."""
    return "'" in token[i + 1:] and token[i + 1:i + 2].isalpha()


@lru_cache(maxsize=4)
def _dictionary(lang: str):
    name = locales.hyphenation_dictionary(lang)
    if name is None:
        return None
    import pyphen                    # imported when a text first needs a break

    return Patterns(pyphen.LANGUAGES[name])


def hyphenation_problem(lang: str | None) -> str | None:
    """Why texts in ``lang`` will not be set by the language's own conventions, or None: a code CLDR does not
    know (``xx``, ``de-XX``) prints by CLDR's root locale; a language pyphen has no dictionary for breaks
    no word."""
    if not locales.known(lang):
        return (f"CLDR has no locale data for '{lang}': its texts print by CLDR's root conventions (numbers "
                f"written 1,234.5, quotation marks \u201c \u201d, one plural form 'other') and break no word; "
                f"give a language code such as 'de' or 'pt-BR'")
    if locales.hyphenation_dictionary(lang) is not None:
        return None
    return (f"pyphen has no hyphenation dictionary for '{lang}': texts in '{lang}' print without "
            f"breaking a word (lines may end shorter)")


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


def hyphen_points(word: str, lang: str | None = None) -> tuple[int, ...]:
    """Indexes into ``word`` where it may break with a hyphen (none for a language without a
    dictionary, a word with digits or capitals only, one shorter than six letters, or a word of one of
    the game's names). Without ``lang``: the active setting's spelling (see :func:`language`)."""
    if lang:
        return _points(word, locales.locale_id(lang), frozenset())
    spelling, names = _BREAKING.get()
    return _points(word, spelling or active(), names)


@lru_cache(maxsize=16384)
def _points(word: str, lang: str, names: frozenset) -> tuple[int, ...]:
    core = word.strip(".,;:!?)»”’\"'(«“‘„‚‹›\u202f\u00a0")
    if len(core) < 6 or not core.isalpha() or core.isupper() or core in names:
        return ()
    dictionary = _dictionary(lang)
    if dictionary is None:
        return ()
    start = word.index(core)
    return tuple(start + p for p in dictionary.positions(core))
