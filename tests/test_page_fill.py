"""Pages that earn their space (issue 37, defect 6): ``pnp validate`` reports each page of the booklet more
than a third empty, for any game, measured as the layout places its content and as the PDF prints it."""

import ctypes

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.rulebook.component import laid_booklet
from pnp.draw.icons import for_game
from pnp.loading.gamedata import load_game
from pnp.draw.document import EMPTY_SHARE, MARGIN
from pnp.units import half_sheet, pt


def _lowest_text(pdf: bytes, page: int) -> float:
    """The lowest character bottom (points) on a page of the PDF above the page number's line."""
    doc = pdfium.PdfDocument(pdf)
    try:
        text = doc[page - 1].get_textpage()
        bottoms = []
        for i in range(text.count_chars()):
            if chr(raw.FPDFText_GetUnicode(text, i)).isspace():
                continue
            x, y = ctypes.c_double(), ctypes.c_double()
            raw.FPDFText_GetCharOrigin(text, i, x, y)
            if y.value > pt(MARGIN["bottom"]):            # not the page number under the frame
                bottoms.append(text.get_charbox(i)[1])
        return min(bottoms)
    finally:
        doc.close()


def test_the_booklets_empty_pages_are_measured_as_printed():
    game = load_game("shadow_kingdoms_of_valeria")
    with for_game(game):
        pdf, pages, _, empty = laid_booklet(game, "letter", "en")
    assert [n for n, _ in empty] == [11]                      # the solo example, half empty
    (number, share), = empty
    bottom, top = pt(MARGIN["bottom"]), pt(half_sheet("letter")[1] - MARGIN["top"])
    printed = (_lowest_text(pdf, number) - bottom) / (top - bottom)
    assert share > EMPTY_SHARE and abs(printed - share) < 0.03


@pytest.mark.parametrize("game_id,page", [("behind_the_throne", 7), ("shadow_kingdoms_of_valeria", 11)])
def test_validate_warns_of_a_page_more_than_a_third_empty(game_id, page):
    result = CliRunner().invoke(main, ["validate", game_id, "--no-cache"])
    assert result.exit_code == 0, result.output
    warning = next(line for line in result.output.splitlines() if "more than a third empty" in line)
    assert warning.startswith(f"data/{game_id}/rulebook.yaml: warning: rulebook: ")
    assert f"page {page} (" in warning and "% empty)" in warning
