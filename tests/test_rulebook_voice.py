"""Rulebooks speak to players (issue 37, defect 3): no page of the rules talks of the engine, its bots,
seeds, simulations or win rates (statistics live in ``pnp balance`` reports); the engine is credited
once, on the cover; Shadow Throne's whole battle is told in paragraphs, drawn at its start and at its
end, as its short examples are."""

import re

import pypdfium2 as pdfium
import pytest

from test_published_typesetting import KITS

#: What players never read in rules: the tool's machinery and its statistics.
MACHINERY = re.compile(r"\bbots?\b|\bseed\b|\bsemilla\b|simulat|simulac|rules engine|motor de reglas|\d\s?%"
                       r"|win rate|interval", re.IGNORECASE)
CREDIT = {"en": "Examples of play and playtesting bots: pnp", "es": "Ejemplos de juego y bots de prueba: pnp"}


def _pages(path) -> list[str]:
    doc = pdfium.PdfDocument(path)
    try:
        return [" ".join(doc[i].get_textpage().get_text_range().split()) for i in range(len(doc))]
    finally:
        doc.close()


@pytest.mark.parametrize("game_id,lang", KITS)
def test_the_rules_never_talk_of_the_engine_and_credit_it_once_on_the_cover(built_kit, game_id, lang):
    cover, *pages = _pages(built_kit(game_id, lang) / "rulebook.pdf")
    said = [(n, m.group(0)) for n, text in enumerate(pages, 2) for m in MACHINERY.finditer(text)]
    assert said == []
    assert cover.count(CREDIT[lang]) == 1
