"""`pnp build --preset drivethrucards`: a preflight of the CMYK PDF/X-1a:2003 file, as a print service's
checks would read it: colour operators and images, total ink on a CMYK rasterization (Ghostscript), page
boxes, the PDF/X keys and output intent, fonts and transparency. How each colour prints (ΔE against the
embedded profile, solid black text): tests/test_colour_management.py."""

import shutil
import subprocess

import pikepdf
import pytest
from click.testing import CliRunner
from PIL import Image

from pnp.cli import main

MM = 25.4 / 72
RGB_OPERATORS = {"rg", "RG"}


@pytest.fixture(scope="module")
def dtc(tmp_path_factory):
    out = tmp_path_factory.mktemp("dtc")
    result = CliRunner().invoke(main, ["build", "--preset", "drivethrucards", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert [p.name for p in out.iterdir() if not p.name.startswith(".")] == ["drivethrucards.pdf"]
    return out / "drivethrucards.pdf"


def _streams(pdf):
    """(what, content stream owner) of every page and form XObject."""
    for number, page in enumerate(pdf.pages, 1):
        yield f"page {number}", page
        for name, xobject in (page.obj.get("/Resources", {}).get("/XObject") or {}).items():
            if xobject.get("/Subtype") == "/Form":
                yield f"page {number} {name}", xobject


def test_no_rgb_colour_operators_or_images(dtc):
    with pikepdf.open(dtc) as pdf:
        operators = set()
        for what, owner in _streams(pdf):
            for operands, operator in pikepdf.parse_content_stream(owner):
                op = str(operator)
                operators.add(op)
                assert op not in RGB_OPERATORS, what
                if op in ("cs", "CS"):
                    assert str(operands[0]) in ("/DeviceCMYK", "/DeviceGray"), what
        assert {"k", "K"} & operators
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image":
                assert obj.get("/ColorSpace") in (pikepdf.Name.DeviceCMYK, pikepdf.Name.DeviceGray)


def test_pdfx_keys_output_intent_and_file_structure(dtc):
    with pikepdf.open(dtc) as pdf:
        assert pdf.pdf_version == "1.4"
        assert str(pdf.docinfo["/GTS_PDFXVersion"]) == "PDF/X-1a:2003"
        assert pdf.docinfo["/Trapped"] == pikepdf.Name("/False")
        assert str(pdf.docinfo["/Title"]) == "Shadow Throne"
        assert "/CreationDate" in pdf.docinfo and "/ModDate" in pdf.docinfo
        (intent,) = pdf.Root.OutputIntents
        assert intent.S == pikepdf.Name.GTS_PDFX and str(intent.OutputConditionIdentifier)
        profile = intent.DestOutputProfile
        assert int(profile.N) == 4 and profile.read_bytes()[16:20] == b"CMYK"
        for obj in pdf.objects:          # no transparency anywhere
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/ExtGState":
                assert float(obj.get("/CA", 1)) == 1 and float(obj.get("/ca", 1)) == 1
    # every font embedded
    fonts = subprocess.run(["pdffonts", str(dtc)], capture_output=True, text=True, check=True).stdout
    rows = fonts.splitlines()[2:]
    assert rows and all(" yes yes " in row for row in rows)


def test_every_page_is_one_card_side_with_consistent_boxes(dtc):
    """Trim 2.5 x 3.5 in, bleed 1/8 in on every side, the BleedBox the whole page; face, back, face ..."""
    with pikepdf.open(dtc) as pdf:
        assert len(pdf.pages) == 2 * 59
        for page in pdf.pages:
            media = [float(v) for v in page.MediaBox]
            bleed = [float(v) for v in page.BleedBox]
            trim = [float(v) for v in page.TrimBox]
            assert [round(v, 2) for v in media] == [0, 0, 198.0, 270.0]        # 2.75 x 3.75 in
            assert bleed == media
            assert [round(v, 2) for v in trim] == [9.0, 9.0, 189.0, 261.0]     # 1/8 in inside
            assert [round((t - b) * MM, 3) for t, b in zip(trim[:2], bleed[:2])] == [3.175, 3.175]


@pytest.mark.skipif(shutil.which("gs") is None, reason="needs Ghostscript (.ci/run installs it)")
def test_total_ink_stays_within_240_percent_on_a_cmyk_rasterization(dtc, tmp_path):
    """Ghostscript renders the first card, its back and the last card to CMYK (tiff32nc); no pixel sums to
    more than 240 % of ink (a dark back made of four inks would reach 300 % or more)."""
    import numpy as np
    worst = 0.0
    for page in (1, 2, 117):
        target = tmp_path / f"p{page}.tif"
        subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiff32nc", "-r100",
                        f"-dFirstPage={page}", f"-dLastPage={page}", f"-sOutputFile={target}", str(dtc)],
                       check=True)
        with Image.open(target) as im:
            assert im.mode == "CMYK"
            ink = np.asarray(im).astype(float).sum(axis=2) / 255 * 100
        worst = max(worst, float(ink.max()))
        assert ink.max() <= 240.5, (page, float(ink.max()))
    assert worst > 150          # the dark back and faction frames do use plenty of ink


def test_a_missing_cmyk_profile_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_CMYK_PROFILE", str(tmp_path / "none.icc"))
    result = CliRunner().invoke(main, ["build", "--preset", "drivethrucards", "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert "PNP_CMYK_PROFILE=" in result.output and "no such file" in result.output
    assert not (tmp_path / "o").exists()


def test_faces_outside_the_safe_zone_are_warned_about_per_card(tmp_path, monkeypatch):
    """DriveThruCards asks for text and art 1/8 in inside the trim; a stricter (made-up) safe line shows
    the build checks every face and names each card with its file and line, and still writes the PDF."""
    from pnp.exports import presets

    strict = presets.CardProduct("poker", (825, 1125), (750, 1050), 144)
    monkeypatch.setitem(presets.PDF_PRESETS, "drivethrucards",
                        presets.Preset("drivethrucards", "DriveThruCards", (strict,), colour="CMYK"))
    result = CliRunner().invoke(main, ["build", "--preset", "drivethrucards", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    warnings = result.stderr.splitlines()
    assert len(warnings) == 29                    # the 27 characters, the player aid and the back
    peasant = [w for w in warnings if "card 'dutiful-peasant'" in w]
    assert len(peasant) == 1 and "cards.yaml:" in peasant[0]
    assert "asks for art and text at least 9.0 mm inside it (--preset drivethrucards)" in peasant[0]
    assert (tmp_path / "drivethrucards.pdf").exists()


def test_the_bundled_cards_keep_to_drivethrucards_safe_zone(dtc):
    from pnp.exports.cards import safe_zone_warnings
    from pnp.exports.presets import PDF_PRESETS
    from pnp.loading.gamedata import load_game

    assert safe_zone_warnings(load_game("shadow_throne"), PDF_PRESETS["drivethrucards"]) == []
