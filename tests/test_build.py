"""``pnp build``: the files, their pages, outlines, fonts, sizes, and byte-identical output."""

import json
import subprocess
import sys

import pypdf
import pytest
from click.testing import CliRunner

from pnp.commands.cli import main

LETTER = (612.0, 792.0)
A4 = (595.28, 841.89)


@pytest.fixture(scope="module")
def built(built_kit):
    return built_kit()          # the default game's kit, shared with other modules (read only)


def pages(path):
    return pypdf.PdfReader(str(path)).pages


KIT_FILES = ["instructions.pdf", "power-track.pdf", "cards-fronts.pdf", "cards-backs.pdf", "tokens.pdf", "rulebook-imposed.pdf",
             "box.pdf"]


def test_build_writes_every_component_and_the_kit(built):
    names = sorted(p.name for p in built.iterdir() if p.is_file())
    assert names == sorted(KIT_FILES + ["kit.pdf", "rulebook.pdf", "cards-duplex.pdf", "manifest.json",
                                           "pieces.json"])
    assert len(pages(built / "power-track.pdf")) == 1
    # 54 characters and 5 quick-reference cards, 9 to a sheet
    assert len(pages(built / "cards-fronts.pdf")) == 7
    assert len(pages(built / "cards-backs.pdf")) == 7
    assert len(pages(built / "tokens.pdf")) == 2
    assert len(pages(built / "rulebook.pdf")) == 16
    assert len(pages(built / "rulebook-imposed.pdf")) == 8
    # the kit is every component but the screen-reading rulebook, in print order
    assert len(pages(built / "kit.pdf")) == sum(len(pages(built / f)) for f in KIT_FILES)


def test_kit_has_an_outline_entry_per_component_in_print_order(built):
    reader = pypdf.PdfReader(str(built / "kit.pdf"))
    entries = [(item.title, reader.get_destination_page_number(item)) for item in reader.outline]
    assert entries[:6] == [("Instructions", 0), ("Power Track", 1), ("Card fronts", 2), ("Card backs", 9),
                           ("Tokens", 16), ("Rulebook", 18)]
    assert entries[6][1] == 26 and len(entries) == 7
    assert reader.metadata.title == "Shadow Throne"
    assert reader.metadata.author == "Teale Fristoe"


def test_every_font_is_embedded_as_a_subset(built):
    for pdf in built.glob("*.pdf"):
        for page in pages(pdf):
            fonts = page["/Resources"].get("/Font", {})
            for ref in fonts.values():
                font = ref.get_object()
                assert font["/Subtype"] == "/TrueType", (pdf.name, font["/BaseFont"])
                assert "+" in font["/BaseFont"]
                assert "/FontFile2" in font["/FontDescriptor"].get_object()


@pytest.mark.parametrize("paper,size", [("letter", LETTER), ("a4", A4)])
def test_page_sizes_follow_the_paper_option(tmp_path, paper, size):
    result = CliRunner().invoke(main, ["build", "--paper", paper, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    for page in pages(tmp_path / "kit.pdf"):
        got = (round(float(page.mediabox.width), 2), round(float(page.mediabox.height), 2))
        assert got in (size, size[::-1])   # portrait sheets, landscape booklet sheets
    half = pages(tmp_path / "rulebook.pdf")[0].mediabox
    assert (round(float(half.width), 2), round(float(half.height), 2)) == (round(size[1] / 2, 2), size[0])


def test_output_is_byte_identical_across_runs(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    for out in (first, second):
        assert CliRunner().invoke(main, ["build", "--out", str(out)]).exit_code == 0
    for pdf in first.glob("*.pdf"):
        assert pdf.read_bytes() == (second / pdf.name).read_bytes(), pdf.name


def test_source_date_epoch_sets_the_document_dates(tmp_path):
    env = {"SOURCE_DATE_EPOCH": "1700000000"}
    result = CliRunner(env=env).invoke(main, ["build", "--out", str(tmp_path)])
    assert result.exit_code == 0
    meta = pypdf.PdfReader(str(tmp_path / "kit.pdf")).metadata
    assert meta["/CreationDate"].startswith("D:20231114")


def test_invalid_data_writes_nothing(tmp_path, game_copy):
    cards = game_copy / "cards.yaml"
    cards.write_text(cards.read_text().replace("    power: 10\n", "    power: ten\n"))
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(game_copy), "--out", str(out)])
    assert result.exit_code == 2
    assert "card 'king-kyros': power: expected an integer, got 'ten'" in result.output
    assert not out.exists() or not any(out.iterdir())


def test_rendered_backs_are_dark_behind_every_front(built):
    """Rasterize the first sheet pair and compare pixels at each card centre (front vs mirrored back)."""
    pdfium = pytest.importorskip("pypdfium2")
    doc = pdfium.PdfDocument(str(built / "kit.pdf"))
    front = doc[2].render(scale=0.5).to_pil().convert("RGB")
    back = doc[9].render(scale=0.5).to_pil().convert("RGB")  # fronts are pages 3-9, backs 10-16
    w, h = front.size
    for col in range(3):
        for row in range(3):
            # card frame colour at the card's left edge, a back's dark background at the mirrored spot
            x_mm = 13.45 + col * 63 + 1.2
            y_mm = 7.7 + row * 88 + 44
            px, py = int(x_mm / 215.9 * w), int(y_mm / 279.4 * h)
            r, g, b = front.getpixel((px, py))
            assert max(r, g, b) < 200 and (r, g, b) != (255, 255, 255)
            mx = int((215.9 - x_mm) / 215.9 * w)
            assert sum(back.getpixel((mx, py))) < 200


def test_layout_and_engine_import_without_reportlab():
    code = ("import sys; import pnp.layout.cards, pnp.layout.sheet, pnp.layout.track, pnp.loading.gamedata, "
            "rules_engine.shadow_throne; "
            "bad = [m for m in sys.modules if m.startswith('reportlab')]; print(bad); assert not bad")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_manifest_lists_every_piece_and_sheet(built):
    """manifest.json: the source's component list (54 character cards, 132 tokens, the board (power
    track), the rulebook) plus the kit's own 5 quick-reference cards and box; sheets per component and
    in total, with how each prints."""
    bill = json.loads((built / "manifest.json").read_text())
    by_id = {c["id"]: c for c in bill["components"]}
    assert list(by_id) == ["instructions", "power_track", "cards", "tokens", "rulebook", "box"]
    assert [(p["kind"], p["item"], p["count"]) for p in by_id["cards"]["pieces"]] == \
        [("card", "cards", 54), ("card", "cards-aids", 5)]
    tokens = {p["item"]: p["count"] for p in by_id["tokens"]["pieces"]}
    assert tokens == {"faction": 3, "gold": 57, "influence": 36, "plus_one": 10, "dead": 13, "converted": 13}
    assert sum(tokens.values()) == 132
    assert bill["pieces"] == {"board": 1, "booklet": 1, "box": 1, "card": 59, "token": 132}
    # card fronts and backs share 7 sheets; tokens fold (2 sheets); the 16-page booklet takes 4 sheets
    assert {k: (c["sheets"], c["sides"]) for k, c in by_id.items()} == {
        "instructions": (1, ["single"]), "power_track": (1, ["single"]), "cards": (7, ["double"]),
        "tokens": (2, ["fold"]), "rulebook": (4, ["double"]), "box": (2, ["single"])}
    assert bill["sheets"] == {"total": 17, "single": 4, "double": 11, "fold": 2}
    # the instructions page prints the same table
    text = " ".join(pages(built / "instructions.pdf")[0].extract_text().split())
    assert "54 cards, 5 player aids" in text and "132" not in text.split("What the kit makes")[0]
    assert "3 Faction tokens, 57 Gold tokens" in text
