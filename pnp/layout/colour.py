"""Colour arithmetic on '#rrggbb' strings (pure; used to derive tints from a faction colour)."""


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def mix(a: str, b: str, t: float) -> str:
    """``a`` moved a fraction ``t`` of the way towards ``b``."""
    ra, rb = _rgb(a), _rgb(b)
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(ra, rb))


def tint(colour: str, t: float) -> str:
    """A light tint: ``colour`` mixed with white by ``t``."""
    return mix(colour, "#ffffff", t)


def shade(colour: str, t: float) -> str:
    return mix(colour, "#000000", t)


def luminance(colour: str) -> float:
    """Relative luminance (WCAG 2): 0 for black, 1 for white."""
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in _rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours, from 1 (same) to 21 (black on white)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


#: Small printed text needs at least this contrast with what it sits on (WCAG AA for text).
SMALL_TEXT_CONTRAST = 4.5


def readable(colour: str, background: str, ratio: float = SMALL_TEXT_CONTRAST) -> str:
    """``colour``, shaded towards black in small steps until it reaches ``ratio`` against ``background``
    (kept as it is when it already does), so small coloured text stays legible and keeps its hue."""
    for k in range(21):
        candidate = shade(colour, k / 20)
        if contrast(candidate, background) >= ratio:
            return candidate
    return "#000000"


#: A pale picture behind the content (a card's faction emblem in its art window) stands out from the
#: paper by this much: visible at a glance, yet clearly behind the text (the classic layout's emblems
#: were 1.14 to 1.32:1 and the Church's sun all but vanished).
PALE_CONTRAST = 2.0


def tint_to(colour: str, background: str, ratio: float = PALE_CONTRAST) -> str:
    """The palest tint of ``colour`` (mixed with white, in steps of 1/20) that reaches ``ratio`` against
    ``background``; ``colour`` itself, shaded towards black as :func:`readable` does, when no tint does."""
    for k in range(20, -1, -1):
        candidate = tint(colour, k / 20)
        if contrast(candidate, background) >= ratio:
            return candidate
    return readable(colour, background, ratio)
