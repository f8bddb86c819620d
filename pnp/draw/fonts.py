"""The bundled OFL fonts (EB Garamond, Lato), registered once with reportlab and embedded as subsets."""

from __future__ import annotations

from functools import lru_cache

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from pnp import FONTS_DIR

FILES = {
    "EBGaramond-Regular": "EBGaramond-Regular.ttf",
    "EBGaramond-Italic": "EBGaramond-Italic.ttf",
    "EBGaramond-SemiBold": "EBGaramond-SemiBold.ttf",
    "EBGaramond-Bold": "EBGaramond-Bold.ttf",
    "EBGaramond-BoldItalic": "EBGaramond-BoldItalic.ttf",
    "Lato-Regular": "Lato-Regular.ttf",
    "Lato-Italic": "Lato-Italic.ttf",
    "Lato-Bold": "Lato-Bold.ttf",
    "Lato-Black": "Lato-Black.ttf",
}

#: Style roles -> (regular, bold, italic, bold italic) font names.
ROLES = {
    "serif": ("EBGaramond-Regular", "EBGaramond-Bold", "EBGaramond-Italic", "EBGaramond-BoldItalic"),
    "serif-italic": ("EBGaramond-Italic", "EBGaramond-BoldItalic", "EBGaramond-Regular", "EBGaramond-Bold"),
    "serif-semibold": ("EBGaramond-SemiBold", "EBGaramond-Bold", "EBGaramond-Italic", "EBGaramond-BoldItalic"),
    "serif-bold": ("EBGaramond-Bold", "EBGaramond-Bold", "EBGaramond-BoldItalic", "EBGaramond-BoldItalic"),
    "sans": ("Lato-Regular", "Lato-Bold", "Lato-Italic", "Lato-Bold"),
    "sans-bold": ("Lato-Bold", "Lato-Black", "Lato-Italic", "Lato-Black"),
    "sans-black": ("Lato-Black", "Lato-Black", "Lato-Italic", "Lato-Black"),
}


@lru_cache(maxsize=None)
def register() -> None:
    """Register every bundled font (idempotent) and the families platypus uses for <b>/<i>."""
    for name, file in FILES.items():
        pdfmetrics.registerFont(TTFont(name, str(FONTS_DIR / file)))
    pdfmetrics.registerFontFamily("EBGaramond", normal="EBGaramond-Regular", bold="EBGaramond-Bold",
                                  italic="EBGaramond-Italic", boldItalic="EBGaramond-BoldItalic")
    pdfmetrics.registerFontFamily("Lato", normal="Lato-Regular", bold="Lato-Bold",
                                  italic="Lato-Italic", boldItalic="Lato-Bold")


@lru_cache(maxsize=None)
def font_name(role: str, bold: bool = False, italic: bool = False) -> str:
    register()
    regular, b, i, bi = ROLES[role]
    return bi if bold and italic else b if bold else i if italic else regular


@lru_cache(maxsize=65536)
def width(text: str, font: str, size: float) -> float:
    """Advance width in points (cached: a rulebook measures the same words on every layout pass)."""
    register()
    return pdfmetrics.stringWidth(text, font, size)


def missing_glyphs(text: str, font: str) -> set[str]:
    """Characters of ``text`` that ``font`` cannot draw (they would print as boxes)."""
    register()
    face = pdfmetrics.getFont(font).face
    return {ch for ch in text if not ch.isspace() and ord(ch) not in face.charToGlyph}


def unprintable(text: str, roles=tuple(ROLES)) -> str | None:
    """The characters of data ``text`` that the fonts of ``roles`` (regular or bold) cannot print, shown
    for a message (``U+0001`` for a control character), or None when every one prints."""
    missing = set()
    for role in roles:
        for bold in (False, True):
            missing |= missing_glyphs(text, font_name(role, bold))
    if not missing:
        return None
    return " ".join(sorted(f"U+{ord(ch):04X}" if not ch.isprintable() else ch for ch in missing)[:10])
