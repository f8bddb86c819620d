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


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_whole_battle_is_told_in_paragraphs_with_its_start_and_end_drawn(lang):
    """Shadow Throne's battle from start to finish: no numbered list of engine events (it was 32 items),
    but paragraphs (one for the draft, one per wave), a figure of the four hands after the draft and one
    of each player's characters at the end, as the short examples are told."""
    from pnp.rulebook.chapters import chapter_markup, load_config
    from pnp.rulebook.component import context
    from pnp.draw.icons import for_game
    from pnp.rulebook.figures import Figures
    from pnp.loading.gamedata import load_game
    from pnp.loading.i18n import translate
    from pnp.text.markup import Directive, ListBlock, Paragraph, parse

    game = load_game("shadow_throne")
    game = translate(game, lang) if lang != "en" else game
    cfg = load_config(game)
    with for_game(game):
        figures = Figures(game, lang)
        chapters = dict(chapter_markup(game, cfg, context(game, cfg, lang, figures), lang))
    nodes = parse(next(text for path, text in chapters.items() if path.endswith("full_battle.md.j2")))
    assert not [n for n in nodes if isinstance(n, ListBlock)]
    drawn = [figures.drawings[int(n.arg)] for n in nodes if isinstance(n, Directive) and n.name == "figure"]
    # the hands after the draft; at the end, each player's characters as played
    assert [d.kind for d in drawn] == ["hand"] * 8
    assert all(re.search(r": \d+ (influence|de influencia), \d+ (gold|de oro)$", d.caption) for d in drawn[4:])
    assert all(d.caption.count(",") >= 5 for d in drawn[:4])          # each hand's seven names
    waves = [n for n in nodes if isinstance(n, Paragraph) and n.text.startswith("**")]
    assert len(waves) >= 5                                            # the draft and the four waves
