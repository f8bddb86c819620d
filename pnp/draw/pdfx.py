"""PDF/X-1a:2003 from pnp's own PDFs: every colour CMYK through the output intent's profile, total ink at
most 240 %, an output intent.

pnp draws in RGB (``#rrggbb`` in the data). For a print service's CMYK files the drawn PDF is rewritten
with pikepdf: every colour of every page and form becomes inks, chosen by :mod:`pnp.draw.cmyk` (LittleCMS
through the output intent's ICC profile) for what the colour paints there: neutral text, lines and small
shapes on the black plate alone (dark ones as solid 100 % K), everything else colour-managed within the
ink limit, large dark fills as a rich black. A colour operator no longer stands where the data set the
colour: the inks are set just before each painting operator (text shown, a path stroked or filled) that
needs them, once while they stay the same. Then the output intent (the CMYK ICC profile), the PDF/X keys
and PDF 1.4 file structure are added. Transparency, shadings and RGB images are refused rather than
printed wrongly.

The output intent's profile is a CMYK ICC profile on the machine: ``PNP_CMYK_PROFILE`` names one, else
Ghostscript's SWOP profile (Debian package ``libgs-common``, installed with ``ghostscript``).
"""

from __future__ import annotations

import io
import os
from dataclasses import dataclass, replace
from pathlib import Path

import pikepdf
from pikepdf import Array, Dictionary, Name, Pdf, String

from pnp.draw.merge import pdf_date
from pnp.errors import UserError
from pnp.draw.cmyk import INK_LIMIT, LARGE_FILL_MM, Separation

PDFX_VERSION = "PDF/X-1a:2003"
#: Where a CMYK profile is looked for (Debian/Ubuntu's Ghostscript, then other common places).
PROFILE_PLACES = (
    "/usr/share/color/icc/ghostscript/default_cmyk.icc",
    "/usr/share/ghostscript/iccprofiles/default_cmyk.icc",
    "/usr/local/share/ghostscript/iccprofiles/default_cmyk.icc",
    "/opt/homebrew/share/ghostscript/iccprofiles/default_cmyk.icc",
)
#: The printing condition the profile describes (Ghostscript's profile is a SWOP press profile).
CONDITION = "CGATS TR 001"
CONDITION_INFO = "SWOP (CGATS TR 001), coated paper; profile: {name}"

#: Operators that build a path (they stand between the path's start and its painting operator).
_PATH_OPS = {"m", "l", "c", "v", "y", "h", "re", "W", "W*"}
_FILLS = {"f", "F", "f*"}
_STROKES = {"S", "s"}
_BOTH = {"B", "B*", "b", "b*"}
_TEXT_SHOWS = {"Tj", "TJ", "'", '"'}
_PT_MM = 25.4 / 72

def cmyk_profile() -> Path:
    """The CMYK ICC profile for the output intent, or a UserError saying what to install."""
    named = os.environ.get("PNP_CMYK_PROFILE")
    candidates = [named] if named else list(PROFILE_PLACES)
    for place in candidates:
        path = Path(place)
        if path.is_file():
            data = path.read_bytes()[:20]
            if data[16:20] != b"CMYK":
                raise UserError(f"PNP_CMYK_PROFILE={place}: not a CMYK ICC profile")
            return path
    if named:
        raise UserError(f"PNP_CMYK_PROFILE={named}: no such file")
    raise UserError("CMYK PDF/X output needs a CMYK ICC profile for its output intent: install Ghostscript "
                    "(Debian/Ubuntu: apt-get install ghostscript; macOS: brew install ghostscript) or set "
                    "PNP_CMYK_PROFILE to a CMYK .icc file")


def _times(m, n):
    """The matrix product ``m`` x ``n`` (PDF's 6-number matrices: ``m`` then ``n``)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


@dataclass
class _State:
    """The graphics state's colours as the drawn PDF asked for them (``fill``, ``stroke``: ``("rgb", r, g,
    b)`` 0-255 or ``("cmyk", c, m, y, k)`` 0-1, None while unset in a form), the inks the rewritten stream
    has set, the transformation and the text rendering mode."""

    fill: tuple | None
    stroke: tuple | None
    fill_set: tuple | None = None
    stroke_set: tuple | None = None
    ctm: tuple = (1, 0, 0, 1, 0, 0)
    text_mode: int = 0


class _Rewriter:
    """Rewrites one content stream's colours as inks; forms it draws are rewritten on their first use."""

    def __init__(self, pdf: Pdf, separation: Separation, what: str, seen: dict):
        self.pdf, self.separation, self.what, self.seen = pdf, separation, what, seen
        self.inherits = False       # a form that paints in the colour it is drawn with

    def _requested(self, operands, space):
        values = [float(v) for v in operands]
        if space == "/DeviceGray" or len(values) == 1:
            return ("rgb",) + (round(values[0] * 255),) * 3
        if space == "/DeviceCMYK" or len(values) == 4:
            return ("cmyk",) + tuple(values)
        return ("rgb",) + tuple(round(v * 255) for v in values)

    def _inks(self, colour, use):
        if colour[0] == "cmyk":
            return list(colour[1:])
        return self.separation.convert(colour[1:], use).operands

    def _set(self, state, out, which, use):
        """Sets the fill (``k``) or stroke (``K``) inks ``use`` needs, unless they are set already."""
        colour = state.fill if which == "fill" else state.stroke
        if colour is None:
            self.inherits = True
            return
        inks = self._inks(colour, use)
        key = (which, tuple(inks))
        if (state.fill_set if which == "fill" else state.stroke_set) == key:
            return
        out.append((inks, pikepdf.Operator("k" if which == "fill" else "K")))
        if which == "fill":
            state.fill_set = key
        else:
            state.stroke_set = key

    def _fill_use(self, state, points) -> str:
        if not points:
            return "small"
        xs, ys = [], []
        a, b, c, d, e, f = state.ctm
        for x, y in points:
            xs.append(a * x + c * y + e)
            ys.append(b * x + d * y + f)
        shorter = min(max(xs) - min(xs), max(ys) - min(ys)) * _PT_MM
        return "large" if shorter >= LARGE_FILL_MM else "small"

    def rewrite(self, owner, state: _State, resources) -> list:
        out, stack, path, points = [], [], [], []
        space = {"fill": "/DeviceGray", "stroke": "/DeviceGray"}
        for operands, operator in pikepdf.parse_content_stream(owner):
            op = str(operator)
            if op == "q":
                stack.append((replace(state), dict(space)))
            elif op == "Q":
                state, space = stack.pop()
            elif op == "cm":
                state.ctm = _times(tuple(float(v) for v in operands), state.ctm)
            elif op == "Tr":
                state.text_mode = int(operands[0])
            elif op in ("rg", "g", "k", "sc", "scn"):
                state.fill = self._requested(operands, space["fill"] if op in ("sc", "scn") else None)
                continue
            elif op in ("RG", "G", "K", "SC", "SCN"):
                state.stroke = self._requested(operands, space["stroke"] if op in ("SC", "SCN") else None)
                continue
            elif op in ("cs", "CS"):
                name = str(operands[0])
                if name not in ("/DeviceCMYK", "/DeviceGray", "/DeviceRGB"):
                    raise UserError(f"{self.what}: colour space {name} cannot be written as PDF/X-1a")
                space["fill" if op == "cs" else "stroke"] = name
                continue
            elif op in _PATH_OPS:
                path.append((operands, operator))
                numbers = [float(v) for v in operands]
                if op == "re":
                    x, y, w, h = numbers
                    points += [(x, y), (x + w, y + h)]
                else:
                    points += list(zip(numbers[0::2], numbers[1::2]))
                continue
            elif op in _FILLS or op in _STROKES or op in _BOTH or op == "n":
                if op in _FILLS or op in _BOTH:
                    self._set(state, out, "fill", self._fill_use(state, points))
                if op in _STROKES or op in _BOTH:
                    self._set(state, out, "stroke", "line")
                out += path
                path, points = [], []
            elif op in _TEXT_SHOWS:
                if state.text_mode in (0, 2, 4, 6):
                    self._set(state, out, "fill", "text")
                if state.text_mode in (1, 2, 5, 6):
                    self._set(state, out, "stroke", "text")
            elif op == "Do":
                self._draw_form(operands[0], state, out, resources)
            elif op == "BI":
                raise UserError(f"{self.what}: an inline image cannot be written as PDF/X-1a yet")
            elif op == "sh":
                raise UserError(f"{self.what}: a shading (colour gradient) cannot be written as PDF/X-1a yet")
            out.append((operands, operator))
        return out

    def _draw_form(self, name, state, out, resources):
        xobject = ((resources or {}).get("/XObject") or {}).get(str(name))
        if xobject is None or xobject.get("/Subtype") != "/Form":
            return
        if xobject.objgen not in self.seen:
            matrix = tuple(float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0]))
            form = _Rewriter(self.pdf, self.separation, self.what, self.seen)
            self.seen[xobject.objgen] = form        # drawn inside itself: no second rewrite
            own = xobject.get("/Resources")
            _check_resources(own, self.what)
            xobject.write(pikepdf.unparse_content_stream(
                form.rewrite(xobject, _State(None, None, ctm=_times(matrix, state.ctm)), own)))
        if self.seen[xobject.objgen].inherits:
            self._set(state, out, "fill", "small")
            self._set(state, out, "stroke", "line")


def _convert_page(pdf: Pdf, page, separation: Separation, what: str, seen: dict) -> None:
    """Rewrites a page's colours (and the forms it draws) as inks (DeviceCMYK)."""
    resources = page.obj.get("/Resources")
    _check_resources(resources, what)
    initial = ("rgb", 0, 0, 0)          # a page starts painting in black
    ops = _Rewriter(pdf, separation, what, seen).rewrite(page, _State(initial, initial), resources)
    page.obj.Contents = pdf.make_stream(pikepdf.unparse_content_stream(ops))


def _check_resources(resources, what: str) -> None:
    """Transparency, soft masks and images in other colour spaces than CMYK and grey are refused."""
    if resources is None:
        return
    for gs in (resources.get("/ExtGState") or {}).values():
        for key in ("/CA", "/ca"):
            if key in gs and float(gs[key]) < 1:
                raise UserError(f"{what}: transparency (opacity {float(gs[key]):g}) is not allowed in PDF/X-1a")
        if "/SMask" in gs and gs.SMask != Name("/None"):
            raise UserError(f"{what}: a soft mask is not allowed in PDF/X-1a")
    for xobject in (resources.get("/XObject") or {}).values():
        if xobject.get("/Subtype") == "/Image":
            space = xobject.get("/ColorSpace")
            if space not in (Name.DeviceCMYK, Name.DeviceGray):
                raise UserError(f"{what}: an image in {space} cannot be written as PDF/X-1a yet; "
                                f"give its pictures in CMYK, or as SVG without pictures inside")


class PdfxRefusal(UserError):
    """What PDF/X-1a cannot hold (``reason``) on page ``page`` (from 1) of the drawn PDF, so the caller can
    name what the page shows; its text names the file's title and the page."""

    def __init__(self, what: str, reason: str, page: int):
        super().__init__(f"{what}: {reason}")
        self.reason, self.page = reason, page


def to_pdfx1a(data: bytes, title: str, separation: Separation | None = None) -> bytes:
    """``data`` (a PDF pnp drew, pages with TrimBox and BleedBox) as PDF/X-1a:2003 bytes. ``separation``
    (for the output intent's profile; made when not given) records every colour it converted. What the
    format cannot hold (transparency, an RGB image, ...) is a :class:`PdfxRefusal` naming its page."""
    profile = cmyk_profile()
    icc_bytes = profile.read_bytes()
    separation = separation or Separation(icc_bytes)
    with Pdf.open(io.BytesIO(data)) as pdf:
        seen = {}
        for number, page in enumerate(pdf.pages, 1):
            what = f"{title}, page {number}"
            if "/TrimBox" not in page.obj or "/BleedBox" not in page.obj:
                raise UserError(f"{what}: PDF/X needs a TrimBox and a BleedBox on every page")
            try:
                _convert_page(pdf, page, separation, what, seen)
            except UserError as exc:
                raise PdfxRefusal(what, str(exc).removeprefix(f"{what}: "), number) from None
        icc = pdf.make_stream(icc_bytes)
        icc.N = 4
        pdf.Root.OutputIntents = Array([Dictionary(
            Type=Name.OutputIntent, S=Name.GTS_PDFX, OutputConditionIdentifier=String(CONDITION),
            RegistryName=String("http://www.color.org"),
            Info=String(CONDITION_INFO.format(name=profile.name)), DestOutputProfile=icc)])
        date = pdf_date()
        pdf.docinfo["/Title"] = title
        pdf.docinfo["/GTS_PDFXVersion"] = PDFX_VERSION
        pdf.docinfo["/GTS_PDFXConformance"] = PDFX_VERSION
        pdf.docinfo["/Trapped"] = Name("/False")
        pdf.docinfo["/CreationDate"] = date
        pdf.docinfo["/ModDate"] = date
        pdf.docinfo["/Producer"] = "pnp (pikepdf)"
        buf = io.BytesIO()
        pdf.save(buf, deterministic_id=True, compress_streams=True, force_version="1.4",
                 object_stream_mode=pikepdf.ObjectStreamMode.disable)
        return buf.getvalue()


__all__ = ["INK_LIMIT", "PDFX_VERSION", "PdfxRefusal", "cmyk_profile", "to_pdfx1a"]
