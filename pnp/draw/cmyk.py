"""Colour management for print services' CMYK files: pnp's RGB colours as press inks, through the output
intent's ICC profile with LittleCMS (Pillow's ImageCms).

A colour is printed one of two ways, by what it paints:

- **on the black plate alone**: a neutral colour (chroma C*ab at most :data:`NEUTRAL_CHROMA`) used for text,
  a line or a small shape. Dark ones (those that would need :data:`SOLID_K` or more black) become
  0/0/0/100, so body text and hairlines print solid and sharp rather than screened, and a small shape
  never needs four plates in register; lighter greys get the black tint of the same lightness (L*).
- **colour-managed**: everything else (coloured text, lines and shapes, and every large fill, neutral or
  not). LittleCMS converts the colour from sRGB to the profile's CMYK (relative colorimetric with
  black-point compensation); then C, M and Y are replaced under K (grey-component replacement) until the
  four inks total at most :data:`INK_LIMIT`, taking the amount of black, and a last adjustment of the four
  inks in steps of 1/255, that bring the printed colour nearest the colour on screen. A large dark fill
  so becomes a rich black within the limit.

"Nearest" is measured as the print service's preflight would: ΔE76 between the colour's CIELAB (D50,
sRGB through LittleCMS) and the CIELAB the profile gives for the inks (LittleCMS, relative colorimetric:
both relative to paper white). Black-point compensation alone lifts colours the press can print by up to
ΔE 6 (Rebel green, the flavour text's brown): the search brings those back to the colour on screen, so
compensation decides where the search starts and how colours darker than the press's black are approached.
:meth:`Separation.report` measures every conversion made, for the docs' table and the tests.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from itertools import product

#: Total ink (C+M+Y+K, 1.0 = 100 %) a colour may reach: DriveThruCards asks for at most 240 %.
INK_LIMIT = 2.4
#: A colour whose CIELAB chroma is at most this is neutral (the cards' ink #1f1a17 has 3.6).
NEUTRAL_CHROMA = 6.0
#: Neutral text, lines and small shapes that would need this much black or more print as 100 % K.
SOLID_K = 0.8
#: A fill is large (colour-managed, a rich black when dark) when its shorter side is at least this (mm).
LARGE_FILL_MM = 12.0
#: ΔE76 a colour in the press's gamut (within the ink limit) may be off by, and one outside it.
IN_GAMUT_DELTA_E = 3.0
OUT_OF_GAMUT_DELTA_E = 8.0
#: A colour is in gamut when some inks within the limit print it within this ΔE76.
GAMUT_TOLERANCE = 1.0

#: What a colour paints: text, a stroked line, a small fill, a large fill.
USES = ("text", "line", "small", "large")


def delta_e(a, b) -> float:
    """CIE 1976 colour difference of two CIELAB colours."""
    return math.dist(a, b)


def chroma(lab) -> float:
    return math.hypot(lab[1], lab[2])


def _lab_bytes(data: bytes) -> list[tuple[float, float, float]]:
    """CIELAB colours from Pillow's 8-bit LAB pixels (L* 0-255 for 0-100; a*, b* signed bytes)."""
    out = []
    for i in range(0, len(data), 3):
        a, b = data[i + 1], data[i + 2]
        out.append((data[i] * 100 / 255, a - 256 if a > 127 else a, b - 256 if b > 127 else b))
    return out


@dataclass(frozen=True)
class Conversion:
    """One colour as printed: the sRGB colour (0-255), what it paints, the inks (0-255 each), the CIELAB
    on screen and as printed, and whether the press can print it at all within the ink limit."""

    rgb: tuple[int, int, int]
    use: str
    cmyk: tuple[int, int, int, int]
    screen: tuple[float, float, float]
    printed: tuple[float, float, float]
    in_gamut: bool
    black_only: bool

    @property
    def delta_e(self) -> float:
        return delta_e(self.screen, self.printed)

    @property
    def ink(self) -> float:
        return sum(self.cmyk) / 255

    @property
    def operands(self) -> list[float]:
        return [round(v / 255, 4) for v in self.cmyk]


class Separation:
    """Conversions of sRGB colours to one CMYK profile's inks, each worked out once."""

    def __init__(self, profile: bytes, limit: float = INK_LIMIT):
        from PIL import ImageCms

        self.limit = round(limit * 255)
        self._profile = ImageCms.ImageCmsProfile(io.BytesIO(profile))
        srgb = ImageCms.createProfile("sRGB")
        lab = ImageCms.createProfile("LAB", 5000)
        relative = ImageCms.Intent.RELATIVE_COLORIMETRIC
        self._to_cmyk = ImageCms.buildTransform(srgb, self._profile, "RGB", "CMYK", relative,
                                                flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
        self._screen = ImageCms.buildTransform(srgb, lab, "RGB", "LAB", relative)
        self._printed = ImageCms.buildTransform(self._profile, lab, "CMYK", "LAB", relative)
        self._done: dict[tuple, Conversion] = {}
        self._managed_done: dict[tuple, tuple] = {}
        self._grid = None
        self._k_ramp = None

    # LittleCMS, one image of many pixels per call
    def screen_lab(self, rgb) -> tuple[float, float, float]:
        from PIL import Image, ImageCms

        return _lab_bytes(ImageCms.applyTransform(Image.new("RGB", (1, 1), tuple(rgb)), self._screen).tobytes())[0]

    def printed_labs(self, inks: list[tuple[int, int, int, int]]) -> list[tuple[float, float, float]]:
        from PIL import Image, ImageCms

        image = Image.frombytes("CMYK", (len(inks), 1), bytes(v for ink in inks for v in ink))
        return _lab_bytes(ImageCms.applyTransform(image, self._printed).tobytes())

    def littlecms(self, rgb) -> tuple[int, int, int, int]:
        """LittleCMS's own separation: relative colorimetric with black-point compensation."""
        from PIL import Image, ImageCms

        return tuple(ImageCms.applyTransform(Image.new("RGB", (1, 1), tuple(rgb)), self._to_cmyk).tobytes())

    def _nearest(self, candidates, target, origin):
        """The candidate (inks within the limit) printed nearest ``target``; among those equally near (to
        a quarter of a ΔE unit, about what 8-bit CIELAB resolves), the one least changed from ``origin``."""
        candidates = [c for c in dict.fromkeys(candidates) if sum(c) <= self.limit]
        labs = self.printed_labs(candidates)
        return min((round(delta_e(lab, target) * 4), sum(abs(a - b) for a, b in zip(c, origin)), c)
                   for c, lab in zip(candidates, labs))

    def _coarse(self):
        """Inks on a grid of 9 steps per plate (within the limit) and how each prints: seeds for the
        search, so a colour far from LittleCMS's separation is still found."""
        if self._grid is None:
            steps = (0, 32, 64, 96, 128, 160, 192, 224, 255)
            inks = [c for c in product(steps, repeat=4) if sum(c) <= self.limit]
            self._grid = list(zip(inks, self.printed_labs(inks)))
        return self._grid

    def _polish(self, start, target, origin):
        """Moves each plate by 8, 4, 2, 1 steps of 1/255 while that brings the print nearer ``target``."""
        best = self._nearest([start], target, origin)
        for step in (8, 4, 2, 1):
            while True:
                cmyk = best[2]
                around = [tuple(min(255, max(0, v + d * step)) for v, d in zip(cmyk, move))
                          for move in product((-1, 0, 1), repeat=4)]
                found = self._nearest(around, target, origin)
                if found >= best:
                    break
                best = found
        return best

    def _managed(self, rgb, target) -> tuple[int, int, int, int]:
        if rgb not in self._managed_done:
            self._managed_done[rgb] = self._search(rgb, target)
        return self._managed_done[rgb]

    def _search(self, rgb, target) -> tuple[int, int, int, int]:
        """LittleCMS's separation when it prints the colour within :data:`GAMUT_TOLERANCE` and the ink
        limit; else the inks nearest the colour, found from that separation with C, M and Y replaced under
        K (and from the nearest of a coarse grid), changed as little as that allows."""
        origin = self.littlecms(rgb)
        if sum(origin) <= self.limit and delta_e(self.printed_labs([origin])[0], target) <= GAMUT_TOLERANCE:
            return origin
        c, m, y, k = origin
        grey = min(c, m, y)
        # grey-component replacement: take r of the grey out of C, M and Y, and find the black for it
        family = [(c - r, m - r, y - r, min(255, k + extra)) for r in range(0, grey + 1, 4)
                  for extra in range(0, 256 - k, 4)]
        starts = [self._nearest([origin] + family, target, origin)[2],
                  min(self._coarse(), key=lambda item: delta_e(item[1], target))[0]]
        return min(self._polish(s, target, origin) for s in starts)[2]

    def _black_only(self, target) -> tuple[int, int, int, int] | None:
        """The black tint of ``target``'s lightness: 100 % when that would be :data:`SOLID_K` or more, None
        when the tint would not print the colour within :data:`IN_GAMUT_DELTA_E` (a tinted grey)."""
        if self._k_ramp is None:
            self._k_ramp = list(zip(range(256), self.printed_labs([(0, 0, 0, k) for k in range(256)])))
        k, lab = min(self._k_ramp, key=lambda item: (abs(item[1][0] - target[0]), item[0]))
        if k >= SOLID_K * 255:
            return (0, 0, 0, 255)
        return (0, 0, 0, k) if delta_e(lab, target) <= IN_GAMUT_DELTA_E else None

    def convert(self, rgb, use: str) -> Conversion:
        """``rgb`` (0-255 each) as inks, for what it paints (one of :data:`USES`)."""
        rgb = tuple(int(v) for v in rgb)
        black_only_use = use != "large"
        key = (rgb, use if black_only_use else "large")
        if key in self._done:
            return self._done[key]
        target = self.screen_lab(rgb)
        cmyk = None
        if rgb == (255, 255, 255):
            cmyk = (0, 0, 0, 0)
        elif black_only_use and chroma(target) <= NEUTRAL_CHROMA:
            cmyk = self._black_only(target)
        black_only = cmyk is not None and rgb != (255, 255, 255)
        if cmyk is None:
            cmyk = self._managed(rgb, target)
        printed = self.printed_labs([cmyk])[0]
        in_gamut = self.in_gamut(rgb, target)
        self._done[key] = Conversion(rgb, use, cmyk, target, printed, in_gamut, black_only)
        return self._done[key]

    def in_gamut(self, rgb, target=None) -> bool:
        """Whether some inks within the limit print ``rgb`` within :data:`GAMUT_TOLERANCE`."""
        target = target or self.screen_lab(rgb)
        return delta_e(self.printed_labs([self._managed(rgb, target)])[0], target) <= GAMUT_TOLERANCE

    def report(self) -> list[Conversion]:
        """Every conversion made, darkest first."""
        return sorted(self._done.values(), key=lambda c: (c.screen[0], c.rgb, USES.index(c.use)))


def gamut_warnings(separation: Separation, preset: str) -> list[str]:
    """A warning for each colour the press prints more than :data:`OUT_OF_GAMUT_DELTA_E` from the screen
    (neutral text and lines on the black plate alone excepted: they are meant to print solid black)."""
    far: dict[tuple, list[Conversion]] = {}
    for done in separation.report():
        if not done.black_only and done.delta_e > OUT_OF_GAMUT_DELTA_E:
            far.setdefault(done.rgb, []).append(done)
    warnings = []
    for rgb, uses in far.items():
        done = uses[0]
        warnings.append(f"--preset {preset}: colour {hex_of(rgb)} ({', '.join(u.use for u in uses)}) prints as "
                        f"C/M/Y/K {percent(done.cmyk)}, ΔE {done.delta_e:.1f} from the colour on screen: the "
                        f"press cannot print it within {separation.limit / 2.55:.0f} % ink; a lighter or less "
                        f"saturated colour prints truer")
    return warnings


def hex_of(rgb) -> str:
    return "#" + "".join(f"{v:02x}" for v in rgb)


def percent(cmyk) -> str:
    return "/".join(f"{v / 2.55:.0f}" for v in cmyk)


__all__ = ["Conversion", "INK_LIMIT", "Separation", "USES", "chroma", "delta_e", "gamut_warnings", "hex_of",
           "percent"]
