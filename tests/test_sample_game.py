"""tests/games/starfall: a game folder using every feature of the data format (its own templates and
layout, SVG icons as emblem, badge, inline and on tokens, art in each fit mode, backs varying by a card
key, two decks of different sizes, one from CSV, a 0-based track and one round the page's edge,
hexagon and SVG-outline tokens, a rulebook without an engine, card text with bold and icons in both
decks, a tiled board whose seams keep off its words, small boards sharing a sheet) validates and builds on
Letter and A4."""

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.components import BuildOptions, game_components
from pnp.components.board import config_of, pieces, tiling
from pnp.loading.gamedata import load_game
from pnp.layout.geometry import Icon, Picture, Polygon, flatten
from pnp.layout.tiling import crossings

STARFALL = Path(__file__).parent / "games" / "starfall"
PAGES = {"instructions.pdf": 1, "score.pdf": 1, "tide.pdf": 1, "cards-fronts.pdf": 2, "cards-backs.pdf": 2,
         "cards-duplex.pdf": 4, "charts.pdf": 1, "tokens.pdf": 1, "rulebook.pdf": 4, "rulebook-imposed.pdf": 2,
         "box.pdf": 1}
#: the observatory's assembly map and tiles (2 x 2 landscape on Letter, 3 x 1 portrait on A4), and the kit
TILED = {"letter": {"observatory.pdf": 5, "kit.pdf": 17}, "a4": {"observatory.pdf": 4, "kit.pdf": 16}}


def test_starfall_validates():
    result = CliRunner().invoke(main, ["validate", str(STARFALL)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == (
        "Starfall: 2 decks, 12 cards (8 different), 2 factions, components instructions, score, tide, cards, "
        "observatory, charts, tokens, rulebook, box: valid")


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_starfall_builds_every_page(tmp_path, paper):
    out = tmp_path / paper
    result = CliRunner().invoke(main, ["build", str(STARFALL), "--paper", paper, "--out", str(out)])
    assert result.exit_code == 0, result.output
    for name, pages in {**PAGES, **TILED[paper]}.items():
        doc = pdfium.PdfDocument(str(out / name))
        assert len(doc) == pages, name
        for i in range(len(doc)):           # no blank page: every page carries drawing in several colours
            image = doc[i].render(scale=0.3).to_pil().convert("RGB")
            assert len(image.getcolors(maxcolors=1 << 16) or []) > 8, (name, i + 1)


def test_starfall_uses_every_feature():
    game = load_game(STARFALL)
    stars, omens = game.decks
    assert (stars.width, stars.height, omens.width, omens.height) == (63, 88, 44, 63)
    assert omens.cards_file.suffix == ".csv" and game.card("long-night").stats == {"turns": 6, "effect": None}
    assert game.icons.resolve("comet").kind == "svg" and game.icons.resolve("light").kind == "svg"
    assert game.faction("dawn").emblem == "comet"
    assert {a.fit for a in stars.art.values()} == {"cover", "contain", "fill"}
    assert stars.back.by == "kind" and stars.layout.by == "kind" and not game.engine
    parts = {c.name: c for c in game_components(game)}
    score = parts["score"].build(game, BuildOptions())[0].pages[0]
    assert [e.markup for e in score.find("number")][0] == "0"
    tide = parts["tide"].build(game, BuildOptions())[0].pages[0]
    assert len(tide.find("space")) == 50
    tokens = [e for p in parts["tokens"].build(game, BuildOptions())[0].pages for e in flatten(p.elements)]
    assert any(isinstance(e, Polygon) and e.role == "cut" for e in tokens)
    assert any(isinstance(e, Picture) and e.role == "cut" for e in tokens)
    assert any(isinstance(e, Icon) and e.name == "comet" for e in tokens)
    fronts = [e for p in parts["cards"].build(game, BuildOptions())[0].pages for e in flatten(p.elements)]
    assert {e.fit for e in fronts if isinstance(e, Picture) and e.role == "art"} == {"cover", "contain", "fill"}
    assert any(e.role == "band" for e in fronts) and any(e.role == "tags" for e in fronts)
    # card text in a YAML deck and a CSV deck: bold and the game's own icons, in the classic rules box
    rules = [e.markup for e in fronts if e.role == "ability"]
    assert "**Kindle:** gain 1 [light] and 1 [wish]." in rules
    assert "**Dark:** no one gains [light] this turn.\n**Then** each player gains 1 [wish]." in rules


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_starfall_boards_keep_every_word_whole_and_share_sheets(paper):
    """The observatory's seams run on the lines between hours, clear of every text, icon, lookout and the
    table; the four star charts print on one sheet."""
    game = load_game(STARFALL)
    spec = next(s for s in game.component_specs if s.id == "observatory")
    [board] = pieces(game, spec)
    plan = tiling(board, config_of(spec), paper)
    assert plan.cut == () and crossings(plan, board.keep) == []
    assert {k.region.split("[")[0] for k in board.keep} == {"hours", "title", "lookout", "lantern", "lantern-name",
                                                            "wishes"}
    assert 180.0 in plan.xs and (paper == "a4" or 130.0 in plan.ys)
    charts = next(c for c in game_components(game) if c.name == "charts").build(game, BuildOptions(paper=paper))[0]
    assert len(charts.pages) == 1 and [p.count for p in charts.parts] == [4]
    assert [e.markup for e in charts.pages[0].elements if e.role == "piece-label"] == \
        ["Dawn star chart", "Dawn star chart", "Dusk star chart", "Dusk star chart"]
