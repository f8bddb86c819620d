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

from pnp.commands.cli import main

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


def test_each_card_is_its_back_then_its_face(dtc):
    """DriveThruCards' card specification (its partners' help centre, article 12780748203543, "Specifications
    for Print Cards"): page 1 of a card PDF is the back of card 1, page 2 its front, and so on. Shadow Throne's
    back is one picture for every card; each face prints its card's name, in the deck's order, the player
    aids last."""
    import pypdfium2

    from pnp.loading.gamedata import load_game

    pdf = pypdfium2.PdfDocument(str(dtc))
    text = [" ".join(pdf[i].get_textpage().get_text_range().split()).replace("\u2019", "'").upper()
            for i in range(len(pdf))]
    game = load_game("shadow_throne")
    names = [c.name.upper() for c in game.decks[0].physical()]
    backs, faces = text[0::2], text[1::2]
    assert len(faces) == len(names) + game.aid_count == 59
    for name, face in zip(names, faces):
        assert name in face, (name, face[:80])
    assert all(back == backs[0] for back in backs) and not any(name in backs[0] for name in names)


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


def _starter_with_art(folder):
    """`pnp new`'s starter with card art in a column of its CSV: a CMYK JPEG, a grey PNG and an RGB PNG."""
    assert CliRunner().invoke(main, ["new", str(folder)]).exit_code == 0
    Image.new("CMYK", (300, 250), (40, 10, 0, 5)).save(folder / "cmyk.jpg")
    Image.new("L", (300, 250), 128).save(folder / "grey.png")
    Image.new("RGB", (300, 250), (200, 30, 30)).save(folder / "red.png")
    cards = folder / "cards.csv"
    rows = cards.read_text().splitlines()
    art = {"spark": "cmyk.jpg", "ember": "grey.png", "flare": "red.png"}
    cards.write_text("\n".join([rows[0] + ",art"] + [f"{row},{art.get(row.split(',')[0], '')}" for row in rows[1:]])
                     + "\n")
    return folder


def _line_of(path, needle) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def test_what_the_cmyk_file_cannot_take_is_refused_at_its_file_and_line(tmp_path):
    """RGB card art, an RGB back picture and a card size DriveThruCards does not print: exit 2 before
    anything is written, each at the line that asks for it (the card's art cell, the deck's back, the
    deck); CMYK and grey art pass."""
    game = _starter_with_art(tmp_path / "g")
    Image.new("RGB", (250, 350), (20, 20, 60)).save(game / "back.png")
    (game / "minis.csv").write_text("id,name,copies,points\ndrop,Drop,1,1\n")
    yaml = game / "game.yaml"
    yaml.write_text(yaml.read_text().replace("back: {emblem: spark}", "back: {image: back.png}")
                    .replace("# the kit, printed in this order",
                             "  - {id: minis, name: Minis, cards: minis.csv, size: mini,\n"
                             "     fields: {points: {type: int}}}\n\n# the kit, printed in this order"))
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(game), "--preset", "drivethrucards", "--out", str(out)])
    assert result.exit_code == 2, result.output
    csv, row = game / "cards.csv", _line_of(game / "cards.csv", "flare,")
    rgb = ("is an RGB picture; --preset drivethrucards writes CMYK PDF/X-1a and pnp does not convert pictures' "
           "colours yet: save it as a CMYK JPEG (or in grey), or draw it as SVG")
    assert result.output.splitlines() == [
        f"{yaml}:{_line_of(yaml, 'back.png')}: deck 'cards' back: back picture back.png {rgb}",
        f"{csv}:{row}:7: card 'flare': art red.png {rgb}",
        f"{yaml}:{_line_of(yaml, 'id: minis')}: deck 'minis': --preset drivethrucards: none of DriveThruCards' card "
        f"templates pnp knows fits 44 x 63 mm cards (within 1.5 mm; the closest is poker, 63.5 x 88.9 mm; "
        f"docs/printing.md lists them)",
        "3 problems found; nothing was written."]
    assert not out.exists()


def test_cmyk_and_grey_art_print_and_a_picture_inside_an_svg_is_named_at_its_card(tmp_path):
    """CMYK and grey art go into the file as they are; an RGB picture inside an SVG (seen only once drawn)
    is refused at the card whose page holds it."""
    import base64
    import io

    game = _starter_with_art(tmp_path / "g")
    cards = game / "cards.csv"
    cards.write_text(cards.read_text().replace("red.png", "cmyk.jpg"))
    result = CliRunner().invoke(main, ["build", str(game), "--preset", "drivethrucards", "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output
    with pikepdf.open(tmp_path / "o" / "drivethrucards.pdf") as pdf:
        spaces = {str(x.get("/ColorSpace")) for page in pdf.pages
                  for x in (page.obj.Resources.get("/XObject") or {}).values() if x.get("/Subtype") == "/Image"}
    assert spaces == {"/DeviceCMYK", "/DeviceGray"}

    png = io.BytesIO()
    Image.new("RGB", (30, 20), (200, 30, 30)).save(png, "PNG")
    data = base64.b64encode(png.getvalue()).decode()
    (game / "inside.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="30" height="20">'
        f'<image width="30" height="20" xlink:href="data:image/png;base64,{data}"/></svg>')
    cards.write_text(cards.read_text().replace("grey.png", "inside.svg"))
    result = CliRunner().invoke(main, ["build", str(game), "--preset", "drivethrucards", "--out", str(tmp_path / "p")])
    assert result.exit_code == 2, result.output
    assert result.output.splitlines() == [
        f"{cards}:{_line_of(cards, 'ember,')}:1: card 'ember' (face): --preset drivethrucards: an image in /DeviceRGB "
        f"cannot be written as PDF/X-1a yet; give its pictures in CMYK, or as SVG without pictures inside",
        "1 problem found; nothing was written."]
    assert not (tmp_path / "p").exists()
