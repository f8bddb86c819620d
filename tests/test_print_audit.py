"""The defects a print audit measured in the kit's PDFs (issue 13), each measured again here."""

import pytest

from pnp.components import BuildOptions
from pnp.components.cards import build as build_cards
from pnp.gamedata import load_game
from pnp.layout.geometry import Rect
from pnp.units import PAPERS
from rasterize import px


@pytest.fixture(scope="module")
def game():
    return load_game("shadow_throne")


def _line_rect(line) -> Rect:
    """The area a straight, butt-capped line paints."""
    gx = line.width / 2 if line.x1 == line.x2 else 0.0
    gy = line.width / 2 if line.y1 == line.y2 else 0.0
    return Rect(min(line.x1, line.x2) - gx, min(line.y1, line.y2) - gy, abs(line.x2 - line.x1) + 2 * gx,
                abs(line.y2 - line.y1) + 2 * gy)


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("flip", ["long", "short"])
def test_no_cut_line_crosses_a_card_back_or_its_spill(paper, flip, game):
    """A light cut line over the dark backs shows as a hairline inside every back when the duplex print
    drifts; the back pages keep their cut lines in the margins, clear of the backs' colour."""
    _, backs, _ = build_cards(game, BuildOptions(paper=paper, flip=flip))
    for page in backs.pages:
        colour = [b.rect for b in page.find("back-bleed")]
        cuts = page.find("cut")
        assert colour and cuts
        for line in cuts:
            for area in colour:
                assert not area.overlaps(_line_rect(line)), (page.label, line)
        # the lines still mark every card edge, in the margins at both ends
        xs = {round(r.x, 2) for r in colour} | {round(r.right, 2) for r in colour}
        edges = {round(x + d, 2) for x in xs for d in (2.0, -2.0)} & {round(line.x1, 2) for line in cuts}
        assert len(edges) == 4       # 3 columns: 4 vertical card edges


def _white_margin(image, dpi: float, margin_mm: float) -> bool:
    """No ink within ``margin_mm`` of any edge of a rasterized sheet."""
    m = px(margin_mm, dpi)
    w, h = image.size
    for box in ((0, 0, w, m), (0, h - m, w, h), (0, 0, m, h), (w - m, 0, w, h)):
        lo, _ = image.crop(box).convert("L").getextrema()
        if lo < 250:
            return False
    return True


@pytest.mark.parametrize("lang,label", [("en", "sheet 2 back"), ("es", "hoja 2, reverso")])
def test_booklet_sheet_marks_stay_printable_and_are_translated(game, lang, label):
    """Every fold mark and sheet label lies at least 6 mm inside the sheet (home printers clip closer), the
    label is at least 6 pt, and it speaks the kit's language."""
    import io

    import pypdf
    import pypdfium2 as pdfium

    from pnp.components.rulebook import build as build_rulebook
    from pnp.layout.imposition import side_marks
    from pnp.units import PRINTER_MARGIN, half_sheet

    w, h = half_sheet("letter")
    marks = side_marks(w, h, label)
    printable = Rect(PRINTER_MARGIN, PRINTER_MARGIN, 2 * w - 2 * PRINTER_MARGIN, h - 2 * PRINTER_MARGIN)
    assert len(marks.find("fold")) == 2
    for el in marks.find("fold") + marks.find("sheet-label"):
        assert printable.contains(el.rect if hasattr(el, "rect") else _line_rect(el))
    assert marks.find("sheet-label")[0].style.size >= 6.0
    _, imposed = build_rulebook(game, BuildOptions(lang=lang))
    text = pypdf.PdfReader(io.BytesIO(imposed.pdf)).pages[3].extract_text()
    assert label in text
    doc = pdfium.PdfDocument(imposed.pdf)
    try:
        for i in range(len(doc)):
            image = doc[i].render(scale=100 / 72).to_pil().convert("RGB")
            assert _white_margin(image, 100, PRINTER_MARGIN - 0.3), f"sheet side {i + 1}"
    finally:
        doc.close()
