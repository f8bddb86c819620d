"""The rulebook's typesetting rules as numbers (points): list indents and bullets, keeping headings
with what follows. Pure arithmetic, no reportlab: :mod:`pnp.draw.flowables` sets the text by these
numbers and the tests measure them.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.text import sentences, typography

#: A bullet's height as a fraction of the text size: about the height of a lower-case letter.
BULLET_SIZE = 0.42
#: The gap between a bullet (or a list number) and its item's text, as a fraction of the text size.
BULLET_GAP = 0.5
#: Where the bullet's centre sits above the baseline, as a fraction of the size (half the x-height).
BULLET_RAISE = 0.24
#: Lines of the text after a heading (or a lead-in ending with a colon) that must stand on the same
#: page as it: a heading never ends a page or column.
KEEP_LINES = 2


@dataclass(frozen=True)
class ListGeometry:
    """Where a list item's parts go, in points from the item's left edge: its marker (a bullet's
    centre and height, or a number's left edge) and the hanging indent where every line of text
    starts."""

    indent: float
    bullet_cx: float = 0.0
    bullet_size: float = 0.0
    bullet_raise: float = 0.0

    @property
    def gap(self) -> float:
        """Space between the marker's right edge and the text (bullets)."""
        return self.indent - (self.bullet_cx + self.bullet_size / 2)


def bullet_list(size: float) -> ListGeometry:
    """A bulleted list at text ``size`` (pt): a bullet the height of a lower-case letter, a gap of half
    an em, every line of the item at the indent."""
    bullet = BULLET_SIZE * size
    cx = 0.15 * size + bullet / 2
    return ListGeometry(indent=cx + bullet / 2 + BULLET_GAP * size, bullet_cx=cx, bullet_size=bullet,
                        bullet_raise=BULLET_RAISE * size)


def numbered_list(size: float, widest_number: float) -> ListGeometry:
    """A numbered list whose widest number (``12.``) is ``widest_number`` points wide: numbers set
    flush left, text at the indent past the widest of them by the gap."""
    return ListGeometry(indent=widest_number + BULLET_GAP * size)


def leads_in(text: str) -> bool:
    """Whether a paragraph (or a line of one) introduces what follows (it ends with a colon), so it is
    kept with it."""
    return text.rstrip().endswith(":")


#: A lead-in paragraph (one a figure follows) of this many lines or fewer moves on whole with its figure
#: rather than split: two lines left behind are half the introduction.
LEAD_IN_WHOLE = 4


def last_sentence_start(words: list[str], lang: str | None = None) -> int:
    """The index in ``words`` (a paragraph's words, plain text, in order) of the first word of its last
    sentence: the word after the last one that ends a sentence ("... troop type. The ...") in ``lang``
    (default: the language texts are set in now), 0 when the paragraph is one sentence. Abbreviations
    ("e.g.", "etc.", "No. 3", "p. ej."), numbers and initials do not end one
    (:mod:`pnp.text.sentences`)."""
    return sentences.last_sentence_start(words, lang or typography.active())
