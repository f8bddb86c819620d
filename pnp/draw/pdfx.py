"""PDF/X-1a:2003 from pnp's own PDFs: every colour CMYK, total ink at most 240 %, an output intent.

pnp draws in RGB (``#rrggbb`` in the data). For a print service's CMYK files the drawn PDF is rewritten
with pikepdf: every colour operator of every page and form becomes its CMYK equivalent
(:func:`pnp.layout.colour.to_cmyk`: neutral colours, such as text and hairlines meant to print black,
go on the black plate alone; other colours get full grey-component replacement, and their cyan, magenta
and yellow are scaled down when the four together would pass the ink limit). Then the output intent
(a CMYK ICC profile), the PDF/X keys and PDF 1.4 file structure are added. Transparency and RGB images
are refused rather than printed wrongly.

The output intent's profile is a CMYK ICC profile on the machine: ``PNP_CMYK_PROFILE`` names one, else
Ghostscript's SWOP profile (Debian package ``libgs-common``, installed with ``ghostscript``).
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pikepdf
from pikepdf import Array, Dictionary, Name, Pdf, String

from pnp.draw.merge import pdf_date
from pnp.errors import UserError
from pnp.layout.colour import INK_LIMIT, to_cmyk

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

_RGB_OPS = {"rg": "k", "RG": "K"}
_GRAY_OPS = {"g": "k", "G": "K"}


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


def _cmyk_operands(values) -> list:
    r, g, b = (float(v) for v in values)
    return [round(v, 4) for v in to_cmyk(r, g, b)]


def _convert_stream(pdf: Pdf, owner, what: str) -> None:
    """Rewrite the colour operators of a page or form (``owner``) to DeviceCMYK."""
    ops = pikepdf.parse_content_stream(owner)
    out = []
    fill_cs = stroke_cs = "/DeviceGray"
    for operands, operator in ops:
        op = str(operator)
        if op in _RGB_OPS:
            out.append((_cmyk_operands(operands), pikepdf.Operator(_RGB_OPS[op])))
            continue
        if op in _GRAY_OPS:
            (g,) = (float(v) for v in operands)
            out.append(([0, 0, 0, round(1 - g, 4)], pikepdf.Operator(_GRAY_OPS[op])))
            continue
        if op in ("cs", "CS"):
            name = str(operands[0])
            if name not in ("/DeviceCMYK", "/DeviceGray", "/DeviceRGB"):
                raise UserError(f"{what}: colour space {name} cannot be written as PDF/X-1a")
            if op == "cs":
                fill_cs = name
            else:
                stroke_cs = name
            if name == "/DeviceRGB":
                operands = [Name.DeviceCMYK]
        elif op in ("sc", "scn", "SC", "SCN"):
            space = fill_cs if op in ("sc", "scn") else stroke_cs
            if space == "/DeviceRGB":
                operands = _cmyk_operands(operands)
        elif op == "BI":
            raise UserError(f"{what}: an inline image cannot be written as PDF/X-1a yet")
        out.append((operands, operator))
    data = pikepdf.unparse_content_stream(out)
    if isinstance(owner, pikepdf.Page):
        owner.obj.Contents = pdf.make_stream(data)
    else:
        owner.write(data)


def _check_resources(pdf: Pdf, resources, what: str, seen: set) -> None:
    """Forms are converted too; RGB images and transparency are refused."""
    if resources is None:
        return
    for gs in (resources.get("/ExtGState") or {}).values():
        for key in ("/CA", "/ca"):
            if key in gs and float(gs[key]) < 1:
                raise UserError(f"{what}: transparency (opacity {float(gs[key]):g}) is not allowed in PDF/X-1a")
        if "/SMask" in gs and gs.SMask != Name("/None"):
            raise UserError(f"{what}: a soft mask is not allowed in PDF/X-1a")
    for xobject in (resources.get("/XObject") or {}).values():
        if xobject.objgen in seen:
            continue
        seen.add(xobject.objgen)
        if xobject.get("/Subtype") == "/Form":
            _convert_stream(pdf, xobject, what)
            _check_resources(pdf, xobject.get("/Resources"), what, seen)
        elif xobject.get("/Subtype") == "/Image":
            space = xobject.get("/ColorSpace")
            if space not in (Name.DeviceCMYK, Name.DeviceGray):
                raise UserError(f"{what}: an image in {space} cannot be written as PDF/X-1a yet; "
                                f"give the card's art as CMYK or as a vector (SVG)")


def to_pdfx1a(data: bytes, title: str) -> bytes:
    """``data`` (a PDF pnp drew, pages with TrimBox and BleedBox) as PDF/X-1a:2003 bytes."""
    profile = cmyk_profile()
    with Pdf.open(io.BytesIO(data)) as pdf:
        seen = set()
        for number, page in enumerate(pdf.pages, 1):
            what = f"{title}, page {number}"
            if "/TrimBox" not in page.obj or "/BleedBox" not in page.obj:
                raise UserError(f"{what}: PDF/X needs a TrimBox and a BleedBox on every page")
            _convert_stream(pdf, page, what)
            _check_resources(pdf, page.obj.get("/Resources"), what, seen)
        icc = pdf.make_stream(profile.read_bytes())
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


__all__ = ["INK_LIMIT", "PDFX_VERSION", "cmyk_profile", "to_pdfx1a"]
