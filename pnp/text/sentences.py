"""Where sentences end in a paragraph's words, in the game's language.

A full stop ends a sentence unless it closes an abbreviation: "e.g.", "i.e.", "etc." before a word in
lower case, "No. 3", an initial ("J. Smith"). CLDR's sentence-break suppressions are the same idea; Babel
does not ship them, so each language's few abbreviations are data here (``abbreviations.yaml``: those that
never end a sentence, those that abbreviate only before a number, those that end one when a capital
follows). In every language a full stop before a word in lower case, inside a number ("2.5") or after
single letters each with a stop ("U.S.") ends none; "!" and "?" always end one. Pure functions of text.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import yaml

ABBREVIATIONS_FILE = Path(__file__).with_name("abbreviations.yaml")

#: What may close a sentence after its full stop, question or exclamation mark.
CLOSERS = ")]\"'\u201d\u2019\u00bb"
#: What may open a sentence before its first letter (Spanish opens questions and exclamations).
OPENERS = "([\"'\u201c\u2018\u00ab\u00bf\u00a1*"

_INITIALS = re.compile(r"^(?:[^\W\d_]\.)+$")      # "e.g.", "U.S.", "J."


@cache
def abbreviations(lang: str | None) -> tuple[frozenset, frozenset, frozenset]:
    """(never end a sentence, abbreviations only before a number, end one before a capital) of the
    language ``lang`` (``es``, ``es-MX`` and ``es_MX`` alike; empty sets for a language not listed)."""
    base = (lang or "en").replace("-", "_").split("_")[0].lower()
    entry = _data().get(base) or {}
    return tuple(frozenset(str(w).lower() for w in entry.get(key) or ())
                 for key in ("inside", "before_number", "may_end"))


@cache
def _data() -> dict:
    return yaml.safe_load(ABBREVIATIONS_FILE.read_text(encoding="utf-8")) or {}


def ends_sentence(word: str, following: str | None, lang: str | None) -> bool:
    """Whether ``word`` (plain text, as a paragraph's words are split) ends a sentence in ``lang``, given
    the ``following`` word (None at the paragraph's end, which ends one)."""
    if following is None:
        return True
    bare = word.rstrip(CLOSERS)
    if bare.endswith(("!", "?")):
        return True
    if not bare.endswith((".", "\u2026")):
        return False
    first = following.lstrip(OPENERS)[:1]
    if first.isalpha() and first.islower():             # "e.g. a card", "approx. three", "wait... and"
        return False
    if bare.endswith(("..", "\u2026")):                 # an ellipsis before a capital
        return True
    stem = bare[:-1].lstrip(OPENERS)
    if _INITIALS.match(bare.lstrip(OPENERS)):           # "e.g.", "i.e.", "U.S.", an initial
        return False
    inside, before_number, may_end = abbreviations(lang)
    key = stem.lower()
    if key in inside:
        return False
    if key in before_number and first.isdigit():
        return False
    if key in may_end:
        return first.isupper() or first.isdigit()
    return True


def last_sentence_start(words: list[str], lang: str | None) -> int:
    """The index in ``words`` (a paragraph's words, plain text, in order) of the first word of its last
    sentence in ``lang``: the word after the last one that ends a sentence (0: one sentence)."""
    start = 0
    for k in range(len(words) - 1):
        if ends_sentence(words[k], words[k + 1], lang):
            start = k + 1
    return start


def sentences(text: str, lang: str | None) -> list[str]:
    """``text`` cut into its sentences in ``lang`` (split at spaces; each sentence's words joined by one
    space)."""
    words = text.split()
    out, start = [], 0
    for k in range(len(words)):
        if ends_sentence(words[k], words[k + 1] if k + 1 < len(words) else None, lang):
            out.append(" ".join(words[start:k + 1]))
            start = k + 1
    return out


__all__ = ["ABBREVIATIONS_FILE", "abbreviations", "ends_sentence", "last_sentence_start", "sentences"]
