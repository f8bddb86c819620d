"""Print services' card templates, and which of them prints a deck.

Each service sells cards of several sizes and publishes a template for each: the image it takes (in
pixels at 300 dpi, bleed included), the finished card (the trim, centred in the image) and how far inside
the trim art and text must stay (the safe zone). A deck goes to the service's product whose trim is
closest to the deck's size, within :data:`SIZE_TOLERANCE` on each side (its layout is scaled to the
product's trim: 63 x 88 mm cards print as 63.5 x 88.9 mm poker cards). A deck no product fits is
skipped with a warning (:func:`unprintable`), never the whole game. Sources (docs/printing.md, "Where
the numbers come from"):

- **The Game Crafter** (its product catalogue, ``/api/tgc/products``: each deck product's image pixels
  and finished inches): poker 825 x 1125 px for 2.5 x 3.5 in, bridge 750 x 1125 for 2.25 x 3.5, mini
  600 x 825 for 1.75 x 2.5, tarot 900 x 1500 for 2.75 x 4.75, euro square 900 x 900 for 70 x 70 mm,
  small square 825 x 825 for 2.5 x 2.5, square 1125 x 1125 for 3.5 x 3.5, jumbo 1125 x 1725 for
  3.5 x 5.5, business 675 x 1125 for 2 x 3.5, domino 600 x 1125 for 1.75 x 3.5, micro 450 x 600 for
  1.25 x 1.75, US game 750 x 1125 for 56 x 87 mm, mint tin 750 x 1125 for 52 x 87 mm; art and text 1/8 in
  inside the trim (75 px from the edge of a poker image).
- **MakePlayingCards** (its upload FAQ: 36 px of bleed on every side at 300 dpi, and the safe line 36 px
  further in; the image sizes as projects that print there record them): poker 822 x 1122 px, bridge
  747 x 1122, mini 597 x 822, tarot 897 x 1497, jumbo 1122 x 1797 (3.5 x 5.75 in), business 672 x 1122,
  domino 597 x 1122, micro 447 x 597.
- **PrinterStudio** is a site of the MakePlayingCards group with the same card editor, and prints from
  MakePlayingCards' templates.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from pnp.errors import Problems, UserError
from pnp.layout.geometry import Icon, Picture, Rect, Text, extent, flatten
from pnp.units import MM_PER_INCH

_MM_PER_INCH = Fraction(str(MM_PER_INCH))


@dataclass(frozen=True)
class CardProduct:
    """One card size a service prints: the uploaded image and the finished card in pixels at ``dpi`` (the
    trim, centred in the image, may be a fraction of a pixel for a size given in mm), and ``safe_px``:
    how far from the image's left edge art and text stay (the safe zone is as far inside the trim on
    every side). ``label`` is the service's name for the product."""

    name: str
    image_px: tuple          # (width, height) of the uploaded image, bleed included
    trim_px: tuple           # (width, height) of the finished card
    safe_px: float           # art and text stay this far from the image edge (measured across the width)
    dpi: int = 300
    label: str = ""          # the service's name for it ("Poker Deck")

    @property
    def trim_mm(self) -> tuple[float, float]:
        return tuple(_mm(v, self.dpi) for v in self.trim_px)

    @property
    def bleeds_mm(self) -> tuple[float, float]:
        """Bleed beyond the trim on the left and right, and on the top and bottom, in mm."""
        return tuple(_mm(Fraction(i) - Fraction(str(t)), self.dpi) / 2 for i, t in zip(self.image_px, self.trim_px))

    @property
    def bleed_mm(self) -> float:
        """Bleed on every side, in mm (the left and right one when they differ)."""
        return self.bleeds_mm[0]

    @property
    def safe_inside_trim_mm(self) -> float:
        """How far inside the trim line art and text must stay, in mm."""
        return _mm(Fraction(str(self.safe_px)) - (Fraction(self.image_px[0]) - Fraction(str(self.trim_px[0]))) / 2,
                   self.dpi)

    @property
    def title(self) -> str:
        return self.label or self.name


@dataclass(frozen=True)
class Preset:
    """A print service's card specification: its ``--preset`` name, the service's name, the card sizes it
    prints and the colour mode of its files."""

    name: str
    service: str
    products: tuple          # CardProduct, one per card size the service prints
    colour: str = "RGB"      # the images' colour mode


def _mm(px, dpi) -> float:
    return float(Fraction(str(px)) / Fraction(dpi) * _MM_PER_INCH)


def _px(mm, dpi: int = 300) -> Fraction:
    """``mm`` in (fractional) pixels at ``dpi``."""
    return Fraction(str(mm)) / _MM_PER_INCH * dpi


def _product(name: str, label: str, size_in, image_px, inside_trim_px, mm: bool = False) -> CardProduct:
    """A product from its finished size (inches, or mm with ``mm``), its image and its safe zone (pixels
    inside the trim)."""
    trim = tuple(_px(v) if mm else Fraction(str(v)) * 300 for v in size_in)
    trim = tuple(int(t) if t.denominator == 1 else t for t in trim)
    bleed = (Fraction(image_px[0]) - Fraction(trim[0])) / 2
    safe = bleed + Fraction(str(inside_trim_px))
    return CardProduct(name, tuple(image_px), trim, float(safe) if safe.denominator != 1 else int(safe), 300, label)


_TGC_SAFE = Fraction(75, 2)        # 1/8 in inside the trim
_MPC_SAFE = 36                     # 36 px inside the cut line

#: The Game Crafter's deck products (order: the common sizes first; the closest trim wins).
TGC_PRODUCTS = (
    _product("poker", "Poker Deck", (2.5, 3.5), (825, 1125), _TGC_SAFE),
    _product("bridge", "Bridge Deck", (2.25, 3.5), (750, 1125), _TGC_SAFE),
    _product("mini", "Mini Deck", (1.75, 2.5), (600, 825), _TGC_SAFE),
    _product("tarot", "Tarot Deck", (2.75, 4.75), (900, 1500), _TGC_SAFE),
    _product("euro-square", "Euro Square Deck", (70, 70), (900, 900), _TGC_SAFE, mm=True),
    _product("small-square", "Small Square Deck", (2.5, 2.5), (825, 825), _TGC_SAFE),
    _product("square", "Square Deck", (3.5, 3.5), (1125, 1125), _TGC_SAFE),
    _product("jumbo", "Jumbo Deck", (3.5, 5.5), (1125, 1725), _TGC_SAFE),
    _product("business", "Business Deck", (2.0, 3.5), (675, 1125), _TGC_SAFE),
    _product("domino", "Domino Deck", (1.75, 3.5), (600, 1125), _TGC_SAFE),
    _product("micro", "Micro Deck", (1.25, 1.75), (450, 600), _TGC_SAFE),
    _product("us-game", "US Game Deck", (56, 87), (750, 1125), _TGC_SAFE, mm=True),
    _product("mint-tin", "Mint Tin Deck", (52, 87), (750, 1125), _TGC_SAFE, mm=True),
)

#: MakePlayingCards' card products (PrinterStudio prints from the same templates).
MPC_PRODUCTS = (
    _product("poker", "Poker size (2.5 x 3.5 in)", (2.5, 3.5), (822, 1122), _MPC_SAFE),
    _product("bridge", "Bridge size (2.25 x 3.5 in)", (2.25, 3.5), (747, 1122), _MPC_SAFE),
    _product("mini", "Mini cards (1.75 x 2.5 in)", (1.75, 2.5), (597, 822), _MPC_SAFE),
    _product("tarot", "Tarot cards (2.75 x 4.75 in)", (2.75, 4.75), (897, 1497), _MPC_SAFE),
    _product("jumbo", "Jumbo cards (3.5 x 5.75 in)", (3.5, 5.75), (1122, 1797), _MPC_SAFE),
    _product("business", "Business card size (2 x 3.5 in)", (2.0, 3.5), (672, 1122), _MPC_SAFE),
    _product("domino", "Domino cards (1.75 x 3.5 in)", (1.75, 3.5), (597, 1122), _MPC_SAFE),
    _product("micro", "Micro cards (1.25 x 1.75 in)", (1.25, 1.75), (447, 597), _MPC_SAFE),
)

#: The poker template of The Game Crafter and DriveThruCards (2.5 x 3.5 in, 1/8 in bleed and safe zone).
POKER_TGC = TGC_PRODUCTS[0]
POKER_MPC = MPC_PRODUCTS[0]

#: The image presets of ``pnp export cards --preset NAME``.
PRESETS = {
    "thegamecrafter": Preset("thegamecrafter", "The Game Crafter", TGC_PRODUCTS),
    "makeplayingcards": Preset("makeplayingcards", "MakePlayingCards", MPC_PRODUCTS),
    "printerstudio": Preset("printerstudio", "PrinterStudio", MPC_PRODUCTS),
}

#: The PDF presets of ``pnp build --preset NAME``: one PDF per deck, one card side per page at trim plus
#: bleed, each card's back then its face (DriveThruCards' card specification), CMYK PDF/X-1a:2003 (DriveThruCards: poker cards 2.5 x 3.5 in, 1/8 in bleed;
#: pnp knows only that template of theirs).
PDF_PRESETS = {
    "drivethrucards": Preset("drivethrucards", "DriveThruCards", (POKER_TGC,), colour="CMYK"),
}

#: How far (mm) a deck's card size may differ from a product's trim for that product to print it
#: (a 63 x 88 mm card prints as a 63.5 x 88.9 mm poker card, its layout scaled to fit).
SIZE_TOLERANCE = 1.5


def match_product(preset: Preset, card_w: float, card_h: float) -> CardProduct | None:
    """The product of ``preset`` whose trim is closest to ``card_w`` x ``card_h`` mm (within
    :data:`SIZE_TOLERANCE` on each side; the first listed on a tie), or None."""
    best, best_gap = None, None
    for product in preset.products:
        w, h = product.trim_mm
        gap = max(abs(w - card_w), abs(h - card_h))
        if gap <= SIZE_TOLERANCE and (best_gap is None or gap < best_gap - 1e-9):
            best, best_gap = product, gap
    return best


def unprintable(preset: Preset, card_w: float, card_h: float) -> str:
    """Why no product of ``preset`` prints ``card_w`` x ``card_h`` mm cards, with the closest it has."""
    closest = min(preset.products, key=lambda p: max(abs(p.trim_mm[0] - card_w), abs(p.trim_mm[1] - card_h)))
    w, h = closest.trim_mm
    owner = preset.service + ("'" if preset.service.endswith("s") else "'s")
    return (f"none of {owner} card templates pnp knows fits {card_w:g} x {card_h:g} mm cards "
            f"(within {SIZE_TOLERANCE:g} mm; the closest is {closest.name}, {w:.1f} x {h:.1f} mm; "
            f"docs/printing.md lists them)")


def product_for(preset: Preset, card_w: float, card_h: float) -> CardProduct:
    """The product of ``preset`` that prints cards of about ``card_w`` x ``card_h`` mm (UserError if none)."""
    product = match_product(preset, card_w, card_h)
    if product is None:
        raise UserError(f"--preset {preset.name}: {unprintable(preset, card_w, card_h)}")
    return product


#: Element kinds that are art or text, which a service's safe zone must hold (frames and backgrounds run
#: into the bleed on purpose).
SAFE_KINDS = (Text, Icon)


def outside_safe_zone(elements, trim_w: float, trim_h: float, inside_trim: float) -> list[tuple[str, float]]:
    """(role, mm) for every text box or icon of a face (in the card's frame, origin at the trim corner)
    that comes closer than ``inside_trim`` mm to the trim line; mm is how close it comes."""
    return [(el.role or type(el).__name__.lower(), gap)
            for el, gap in outside_elements(elements, trim_w, trim_h, inside_trim)]


def outside_elements(elements, trim_w: float, trim_h: float, inside_trim: float) -> list[tuple]:
    """(element, mm) for every text box or icon of :func:`outside_safe_zone`."""
    safe = Rect(0.0, 0.0, trim_w, trim_h).inset(inside_trim)
    found = []
    for el in flatten(elements):
        if not isinstance(el, SAFE_KINDS):
            continue
        box = extent(el)
        if safe.contains(box, tol=1e-6):
            continue
        found.append((el, min(box.x, box.y, trim_w - box.right, trim_h - box.top)))
    return found


def cmyk_refusal(path) -> str | None:
    """Why the PNG or JPEG picture at ``path`` cannot go into a CMYK PDF/X-1a file as it is (None for a CMYK
    picture, and a grey one without transparency): pnp does not convert pictures' colours yet."""
    from PIL import Image

    with Image.open(path) as image:
        mode, transparent = image.mode, "transparency" in image.info or "A" in image.getbands()
    if mode == "CMYK" or (mode in ("L", "1") and not transparent):
        return None
    if transparent:
        return "has transparency, which PDF/X-1a does not allow"
    return f"is {'a palette' if mode == 'P' else 'an RGB' if mode.startswith('RGB') else f'a {mode}'} picture"


def print_shop_problems(game, deck, preset: Preset, product: CardProduct | None, cards: list, faces: list,
                        backs: list) -> Problems:
    """What stops ``preset``'s CMYK file of ``deck``, each at its file and line: a card size none of its
    products prints (``product`` None, at the deck in game.yaml), and every PNG or JPEG picture a card's
    face or back draws that is not CMYK (:func:`cmyk_refusal`), once per card and picture. ``cards``,
    ``faces`` and ``backs``: the deck's physical cards (None for a player aid) and their laid-out sides."""
    problems = Problems()
    if product is None:
        problems.error(*game.deck_where(deck), f"deck '{deck.id}'",
                       f"--preset {preset.name}: {unprintable(preset, deck.width, deck.height)}")
    for card, face, back in zip(cards, faces, backs):
        for side, elements in (("face", face), ("back", back)):
            for picture in flatten(elements):
                if not isinstance(picture, Picture) or picture.path.lower().endswith(".svg"):
                    continue
                why = cmyk_refusal(picture.path)
                if why is not None:
                    path, line, subject, what = _picture_source(game, deck, card, side, picture)
                    problems.error(path, line, subject,
                                   f"{what} {why}; --preset {preset.name} writes CMYK PDF/X-1a and pnp does not "
                                   f"convert pictures' colours yet: save it as a CMYK JPEG (or in grey), or draw "
                                   f"it as SVG")
    return Problems(problems.unique())


def _picture_source(game, deck, card, side: str, picture: Picture) -> tuple:
    """(path, line, subject, what) naming where the data asks for ``picture`` on ``side`` of ``card`` (None:
    a player aid): a back picture at the deck's ``back``, card art at the card's ``art``, any other picture
    (a layout's) at the card."""
    file = Path(picture.path)
    name = file.relative_to(game.root).as_posix() if file.is_relative_to(game.root) else file.name
    deck_file, deck_line = game.deck_where(deck)
    if side == "back" and picture.role == "back-image":
        return deck_file, deck.back.line or deck_line, f"deck '{deck.id}' back", f"back picture {name}"
    if card is None:
        return deck_file, deck_line, f"deck '{deck.id}' player aid", f"picture {name}"
    path, line = game.source(card)
    if side == "back" and card.side_b is not None and deck.b is not None:    # a double-sided card's side B
        art = deck.b.art.get(card.id)
        if art is not None and str(art.path) == picture.path:
            return path, art.line or line, f"card '{card.id}' side B", f"side_b.art {name}"
        return path, deck.side_b.where(card.id) or line, f"card '{card.id}' side B", f"picture {name}"
    art = deck.art.get(card.id)
    if art is not None and str(art.path) == picture.path:
        return path, art.line or line, f"card '{card.id}'", f"art {name}"
    return path, line, f"card '{card.id}'", f"picture {name} on its {side}"
