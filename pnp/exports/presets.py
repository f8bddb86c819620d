"""Print services' card specifications, and exporting a deck the way each one's upload page takes it.

Numbers are the services' published templates for poker-size cards (2.5 x 3.5 in trim) at 300 dpi:

- The Game Crafter: 825 x 1125 px PNG, 1/8 in (37.5 px) of bleed on every side around the 750 x 1050 px
  trim, art and text kept 1/4 in (75 px) from the image edge; RGB.
- MakePlayingCards and PrinterStudio (the same printer's templates): 822 x 1122 px, 36 px of bleed on
  every side around the 750 x 1050 px cut line; their templates' safe line is 36 px inside the cut line
  (72 px from the image edge).

A deck is exported as ``fronts/NNN-<card>-<copy>.png`` (one image per physical card, numbered in deck
order, so selecting the folder's files uploads them in order) and one ``back.png``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from pnp.errors import UserError
from pnp.layout.geometry import Icon, Rect, Text, extent, flatten
from pnp.units import MM_PER_INCH


@dataclass(frozen=True)
class CardProduct:
    """One card size a service prints, in pixels at ``dpi``."""

    name: str
    image_px: tuple          # (width, height) of the uploaded image, bleed included
    trim_px: tuple           # (width, height) of the finished card
    safe_px: float           # art and text stay this far from the image edge
    dpi: int = 300

    @property
    def trim_mm(self) -> tuple[float, float]:
        return tuple(_mm(v, self.dpi) for v in self.trim_px)

    @property
    def bleed_mm(self) -> float:
        """Bleed on every side, in mm."""
        return _mm(Fraction(self.image_px[0] - self.trim_px[0], 2), self.dpi)

    @property
    def safe_inside_trim_mm(self) -> float:
        """How far inside the trim line art and text must stay, in mm."""
        return _mm(Fraction(str(self.safe_px)) - Fraction(self.image_px[0] - self.trim_px[0], 2), self.dpi)


@dataclass(frozen=True)
class Preset:
    """A print service's card specification: its ``--preset`` name, the service's name, the card sizes it
    prints and the colour mode of its files."""

    name: str
    service: str
    products: tuple          # CardProduct, one per card size the service prints
    colour: str = "RGB"      # the images' colour mode


def _mm(px, dpi) -> float:
    return float(Fraction(str(px)) / Fraction(dpi) * Fraction(str(MM_PER_INCH)))


POKER_TGC = CardProduct("poker", (825, 1125), (750, 1050), 75)
POKER_MPC = CardProduct("poker", (822, 1122), (750, 1050), 72)

#: The image presets of ``pnp export cards --preset NAME``.
PRESETS = {
    "thegamecrafter": Preset("thegamecrafter", "The Game Crafter", (POKER_TGC,)),
    "makeplayingcards": Preset("makeplayingcards", "MakePlayingCards", (POKER_MPC,)),
    "printerstudio": Preset("printerstudio", "PrinterStudio", (POKER_MPC,)),
}

#: The PDF presets of ``pnp build --preset NAME``: one PDF per deck, one card side per page at trim plus
#: bleed, face then back, CMYK PDF/X-1a:2003 (DriveThruCards: poker cards 2.5 x 3.5 in, 1/8 in bleed).
PDF_PRESETS = {
    "drivethrucards": Preset("drivethrucards", "DriveThruCards", (POKER_TGC,), colour="CMYK"),
}

#: How far (mm) a deck's card size may differ from a product's trim for that product to print it
#: (a 63 x 88 mm card prints as a 63.5 x 88.9 mm poker card, its layout scaled to fit).
SIZE_TOLERANCE = 1.5


def product_for(preset: Preset, card_w: float, card_h: float) -> CardProduct:
    """The product of ``preset`` that prints cards of about ``card_w`` x ``card_h`` mm."""
    for product in preset.products:
        w, h = product.trim_mm
        if abs(w - card_w) <= SIZE_TOLERANCE and abs(h - card_h) <= SIZE_TOLERANCE:
            return product
    sizes = ", ".join(f"{p.name} {p.trim_mm[0]:.1f} x {p.trim_mm[1]:.1f} mm" for p in preset.products)
    raise UserError(f"--preset {preset.name}: {preset.service} prints no {card_w:g} x {card_h:g} mm cards "
                    f"(it prints {sizes})")


#: Element kinds that are art or text, which a service's safe zone must hold (frames and backgrounds run
#: into the bleed on purpose).
SAFE_KINDS = (Text, Icon)


def outside_safe_zone(elements, trim_w: float, trim_h: float, inside_trim: float) -> list[tuple[str, float]]:
    """(role, mm) for every text box or icon of a face (in the card's frame, origin at the trim corner)
    that comes closer than ``inside_trim`` mm to the trim line; mm is how close it comes."""
    safe = Rect(0.0, 0.0, trim_w, trim_h).inset(inside_trim)
    found = []
    for el in flatten(elements):
        if not isinstance(el, SAFE_KINDS):
            continue
        box = extent(el)
        if safe.contains(box, tol=1e-6):
            continue
        gap = min(box.x, box.y, trim_w - box.right, trim_h - box.top)
        found.append((el.role or type(el).__name__.lower(), gap))
    return found
