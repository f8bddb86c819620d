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
