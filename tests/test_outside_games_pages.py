"""The outside games' kits read page by page (issue 37: "no defect of the kinds above in any game's kit,
ours or a designer's"): what was wrong on their pages, measured on copies of ``../shared/games``
(``PNP_OUTSIDE_GAMES`` names another folder; the tests skip where there is none, as
tests/test_outside_games.py's do).

- Tide Clock's booklet printed a blank page 3 between its rules and "The end of the game", whose page
  stayed 81 % empty with four token blocks unused; the page-fill warning called that page 3.
- Tide Clock's harbour board took 9 Letter sheets, three of them 23 mm strips (A3, B3, C3), where a board
  23 mm narrower takes 6; nothing said so (now the strips share sheets with other small pieces, and only
  a build that shares none warns).
- Tide Clock's and Lantern Ferry's boxes left out pieces their kits make; Lantern Ferry's ``pages: 8``
  printed 5 blank pages; its quick reference left a third of its card blank at 9 pt.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.commands.cli import main

from rasterize import page_texts
from test_outside_games import CORPUS, GAMES, SKIP

pytestmark = pytest.mark.skipif(not {"tide_clock", "lantern_ferry"} <= set(GAMES), reason=SKIP)


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> dict[str, Path]:
    out = {}
    for name in ("tide_clock", "lantern_ferry"):
        dest = tmp_path_factory.mktemp(f"pages-{name}") / name
        shutil.copytree(CORPUS / name, dest)
        out[name] = dest
    return out


@pytest.fixture(scope="module")
def validated(games) -> dict[str, list[str]]:
    out = {}
    for name, folder in games.items():
        result = CliRunner().invoke(main, ["validate", str(folder), "--no-cache"])
        assert result.exit_code == 0, result.output
        out[name] = result.output.splitlines()
    return out


def _line(path: Path, needle: str) -> int:
    return next(i for i, text in enumerate(path.read_text().splitlines(), 1) if needle in text)


def test_tide_clocks_rules_run_on_without_a_blank_page(games, tmp_path):
    out = tmp_path / "kit"
    result = CliRunner().invoke(main, ["build", str(games["tide_clock"]), "--out", str(out), "--no-cache"])
    assert result.exit_code == 0, result.output
    pages = page_texts(out / "rulebook.pdf")
    assert len(pages) == 4
    assert "Playing a round" in pages[1] and "The end of the game" in pages[2]
    assert "AT ACTUAL SIZE" in pages[2].upper()            # a token block fills the last page of the rules
    assert not pages[3].strip()                            # the padding is the back page
    assert "third empty" not in result.output


def test_tide_clocks_thin_tiles_share_sheets_and_warn_no_more(games, validated):
    """The strips now go onto the kit's shared sheets (tests/test_shared_sheets.py): nothing is wasted, so
    nothing is said; with --bleed, where they print alone, the warning stays (tested there)."""
    assert not any("are strips" in line for line in validated["tide_clock"])


def test_the_outside_boxes_name_what_they_leave_out(games, validated):
    tide = [line for line in validated["tide_clock"] if ": warning: contents: " in line]
    assert len(tide) == 1 and tide[0].startswith(
        f"{games['tide_clock'] / 'box.yaml'}:{_line(games['tide_clock'] / 'box.yaml', 'contents:')}: warning: "
        f"contents: no line lists Tide Clock (track 'tide'), Harbour board (board 'harbour_board'), player boards "
        f"(board 'player_boards'), standees (standee 'standees'), which the kit makes")
    ferry = [line for line in validated["lantern_ferry"] if ": warning: contents: " in line]
    assert len(ferry) == 1 and "power track (track 'power_track'), the 4 player aids (count: aids)" in ferry[0]


def test_lantern_ferrys_blank_pages_are_a_warning_at_its_length(games, validated):
    rulebook = games["lantern_ferry"] / "rulebook.yaml"
    found = [line for line in validated["lantern_ferry"] if "pages blank" in line]
    assert found == [f"{rulebook}:{_line(rulebook, 'pages: 8')}: warning: rulebook: pages: 8 leaves 5 pages blank: "
                     f"the chapters take 3 pages on {paper} paper in 'en', and a booklet of 4 holds them; ask for "
                     f"pages: 4 (or leave pages out), write more, or say notes: true for ruled Notes pages"
                     for paper in ("letter", "a4")]


def test_lantern_ferrys_quick_reference_fills_its_card(games, validated):
    from pnp.components.cards import aid_elements
    from pnp.components.emptiness import face_empty
    from pnp.draw.icons import using
    from pnp.layout.space import MAX_EMPTY_SHARE
    from pnp.loading.gamedata import load_game

    game = load_game(games["lantern_ferry"])
    deck = game.decks[0]
    with using(game.icons):
        empty = face_empty(aid_elements(game, deck), (deck.width, deck.height))
    assert empty.share <= MAX_EMPTY_SHARE, empty                # 31 % at 9 pt
    assert not any(": player aid: " in line for line in validated["lantern_ferry"])
