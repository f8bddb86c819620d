"""The bundled OFL fonts (EB Garamond, Lato), registered once with reportlab and embedded as subsets,
each subset named from its own program."""

from __future__ import annotations

import hashlib
from functools import lru_cache

from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.ttfonts import FF_NONSYMBOLIC, FF_SYMBOLIC, TTFont, makeToUnicodeCMap

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

#: The font every canvas starts with (named before any text is set): a bundled one, so it is embedded.
INITIAL_FONT = "EBGaramond-Regular"

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


def subset_tag(font_program: bytes) -> str:
    """Six capital letters derived from a font subset's program: the same subset always gets the same
    tag, different subsets (practically) never share one."""
    digest = hashlib.sha256(font_program).digest()
    return "".join(chr(ord("A") + b % 26) for b in digest[:6])


class TaggedTTFont(TTFont):
    """A TrueType font whose embedded subsets are named ``TAG+Name``, the tag made from the subset's own
    program (:func:`subset_tag`). reportlab names a font's subsets ``AAAAAA+``, ``AAAAAB+``... in every
    file, so a merged kit would hold dozens of different programs under a few names, and preflight
    tools and print RIPs may then substitute one subset for another. Same objects as reportlab's
    :meth:`TTFont.addObjects` writes, each subset program made once."""

    def addObjects(self, doc):
        state = self.state.setdefault(doc, TTFont.State(self._asciiReadable))
        state.frozen = 1
        face = self.face
        for n, subset in enumerate(state.subsets):
            internal_name = self.getSubsetInternalName(n, doc)[1:]
            program = face.makeSubset(subset)
            base_name = f"{subset_tag(program)}+{(face.name + face.subfontNameX).decode('pdfdoc')}"
            font = pdfdoc.PDFTrueTypeFont()
            font.__Comment__ = f"Font {self.fontName} subset {n}"
            font.Name = internal_name
            font.BaseFont = base_name
            font.FirstChar = 0
            font.LastChar = len(subset) - 1
            font.Widths = pdfdoc.PDFArray(list(map(face.getCharWidth, subset)))
            cmap = pdfdoc.PDFStream()
            cmap.content = makeToUnicodeCMap(base_name, subset)
            if doc.compression:
                cmap.filters = [pdfdoc.PDFZCompress]
            font.ToUnicode = doc.Reference(cmap, "toUnicodeCMap:" + base_name)
            font.FontDescriptor = _descriptor(doc, face, base_name, program)
            doc.Reference(font, internal_name)
            doc.idToObject["BasicFonts"].dict[internal_name] = font
        del self.state[doc]


def _descriptor(doc, face, name: str, program: bytes):
    """The FontDescriptor of a subset and its embedded program (as TTFontFace.addSubsetObjects)."""
    file = pdfdoc.PDFStream()
    file.content = program
    file.dictionary["Length1"] = len(program)
    if doc.compression:
        file.filters = [pdfdoc.PDFZCompress]
    file_ref = doc.Reference(file, f"fontFile:{face.filename}({name})")
    descriptor = pdfdoc.PDFDictionary({
        "Type": "/FontDescriptor", "Ascent": face.ascent, "CapHeight": face.capHeight, "Descent": face.descent,
        "Flags": (face.flags & ~FF_NONSYMBOLIC) | FF_SYMBOLIC, "FontBBox": pdfdoc.PDFArray(face.bbox),
        "FontName": pdfdoc.PDFName(name), "ItalicAngle": face.italicAngle, "StemV": face.stemV,
        "FontFile2": file_ref, "MissingWidth": face.defaultWidth,
    })
    return doc.Reference(descriptor, "fontDescriptor:" + name)


@lru_cache(maxsize=None)
def register() -> None:
    """Register every bundled font (idempotent) and the families platypus uses for <b>/<i>."""
    for name, file in FILES.items():
        pdfmetrics.registerFont(TaggedTTFont(name, str(FONTS_DIR / file)))
    pdfmetrics.registerFontFamily("EBGaramond", normal="EBGaramond-Regular", bold="EBGaramond-Bold",
                                  italic="EBGaramond-Italic", boldItalic="EBGaramond-BoldItalic")
    pdfmetrics.registerFontFamily("Lato", normal="Lato-Regular", bold="Lato-Bold",
                                  italic="Lato-Italic", boldItalic="Lato-Bold")


@lru_cache(maxsize=None)
def font_name(role: str, bold: bool = False, italic: bool = False) -> str:
    register()
    regular, b, i, bi = ROLES[role]
    return bi if bold and italic else b if bold else i if italic else regular


#: U+202F NARROW NO-BREAK SPACE, which French typography puts before ``; : ! ?`` and inside « »
#: (:mod:`pnp.text.typography`). The bundled fonts have no glyph for it: it is measured and set as a gap of
#: NARROW_SPACE em (the typographer's "fine", an eighth of an em), never as a character.
NNBSP = "\u202f"
NARROW_SPACE = 0.125


@lru_cache(maxsize=65536)
def width(text: str, font: str, size: float) -> float:
    """Advance width in points (cached: a rulebook measures the same words on every layout pass)."""
    register()
    if NNBSP in text:
        return pdfmetrics.stringWidth(text.replace(NNBSP, ""), font, size) + text.count(NNBSP) * NARROW_SPACE * size
    return pdfmetrics.stringWidth(text, font, size)


def text_out(text_object, x: float, y: float, chars: str, font: str, size: float, tracking: float = 0.0) -> None:
    """Set ``chars`` in a reportlab text object from (x, y), each :data:`NNBSP` as its gap."""
    if NNBSP not in chars:
        text_object.textOut(chars)
        return
    for i, part in enumerate(chars.split(NNBSP)):
        if i:
            x += NARROW_SPACE * size + tracking
            text_object.setTextOrigin(x, y)
        if part:
            text_object.textOut(part)
            x += width(part, font, size) + tracking * len(part)


def missing_glyphs(text: str, font: str) -> set[str]:
    """Characters of ``text`` that ``font`` cannot draw (they would print as boxes)."""
    register()
    face = pdfmetrics.getFont(font).face
    held = _PRINTED.get(font)
    if held is None or held[0] is not face:
        held = _PRINTED[font] = (face, set())
    prints = held[1]
    missing = set()
    for ch in set(text).difference(prints):
        if ch.isspace() or ord(ch) in face.charToGlyph:
            prints.add(ch)
        else:
            missing.add(ch)
    return missing


#: The characters each font was found to draw (and white space), by the font's name, with the face they
#: were found in: a deck's texts are checked for the same few dozen characters card after card (each
#: text's every character was looked up in each font's glyph table).
_PRINTED: dict = {}


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
