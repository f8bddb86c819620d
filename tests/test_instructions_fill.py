"""The kit's instructions page earns its page: what to buy (sheets of card stock and of paper, from the
kit's own bill), a print checklist with each file's sides, its text set as large as fills the page, and a
`pnp validate` warning when it still leaves more than a third of its paper empty (issue 37)."""

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from pnp.commands.cli import main
from pnp.components import BuildOptions
from pnp.components import instructions
from pnp.draw.icons import for_game
from pnp.loading.gamedata import load_game
from rasterize import page_texts

GAMES = Path(__file__).parent / "games"
DPI = 60


def empty_share(pdf: bytes) -> list[float]:
    """The share of each page's text frame (15 mm margins) below its lowest ink, from its pixels."""
    pdfium = __import__("pypdfium2")
    doc = pdfium.PdfDocument(pdf)
    out = []
    try:
        for i in range(len(doc)):
            image = doc[i].render(scale=DPI / 72).to_pil().convert("L")
            w, h = image.size
            m = round(instructions.MARGIN / 25.4 * DPI)
            px = image.load()
            low = next((y for y in range(h - m - 1, m - 1, -1) if any(px[x, y] < 235 for x in range(m, w - m))), None)
            out.append(1.0 if low is None else (h - m - 1 - low) / (h - 2 * m))
    finally:
        doc.close()
    return out


def test_shadow_thrones_instructions_page_is_full_and_says_what_to_print_on(built_kit):
    """The page was 30 % empty at its foot on Letter (text at the rulebook's 9.4 pt on a whole page): it
    is set larger now, and opens with the paper the kit takes and a box to tick per print."""
    pdf = (built_kit() / "instructions.pdf").read_bytes()
    (share,) = empty_share(pdf)
    assert share < 0.12
    text = " ".join(page_texts(pdf)[0].split())
    assert "11 sheets of card stock: Cards, Tokens and Box." in text
    assert "6 sheets of paper: Instructions, Power Track and Rulebook." in text
    assert "3–9 Card fronts both sides Print each page once" in text


@pytest.mark.parametrize("game", ["shadow_throne", "behind_the_throne", "shadow_kingdoms_of_valeria",
                                  "shadow_queen", str(GAMES / "lantern_night"), str(GAMES / "dice_garden"),
                                  str(GAMES / "gardiens")])
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_every_kits_instructions_page_fills_its_paper(game, paper):
    """Measured in pixels, on the page as its check lays it out: no kit's page is more than an eighth empty
    (Behind the Throne's A4 page was 40 % empty, Lantern Night's 31 %), and none takes a second page."""
    g = load_game(game)
    options = BuildOptions(paper=paper)
    with for_game(g):
        pdf, shares = instructions._page(g, options, instructions.kit_entries(g, options))
    assert len(shares) == 1
    (share,) = empty_share(pdf)
    assert share < 0.125, (game, paper, share)
    assert abs(share - shares[0]) < 0.03         # the frame's own measure agrees with the pixels


def test_the_estimated_kit_is_the_built_one(built_kit):
    """The check lists the kit from its data (no card laid out): the same components, pieces and sheets as
    the build (Shadow Throne, Letter), but for the booklet's, which it counts as two (laying the booklet
    out again would double the check's time; the number is a digit of the page)."""
    import json

    built = json.loads((built_kit() / "manifest.json").read_text())
    g = load_game("shadow_throne")
    with for_game(g):
        entries = instructions.kit_entries(g, BuildOptions(paper="letter"))
    from pnp.components.manifest import rows

    def listed(component, sheets, pieces):
        return component, 2 if component == "rulebook" else sheets, [(p["count"], p["name"]) for p in pieces]

    assert [listed(r["component"], r["sheets"], r["pieces"]) for r in rows(entries)] == \
        [listed(c["id"], c["sheets"], c["pieces"]) for c in built["components"]]


def test_a_page_still_a_third_empty_is_a_warning_at_components(tmp_path, monkeypatch):
    """A kit of a deck alone, its text held at the rulebook's sizes: the page is about half empty, a
    warning at game.yaml's components line naming paper and share."""
    result = CliRunner().invoke(main, ["new", str(tmp_path / "tiny")])
    assert result.exit_code == 0, result.output
    path = tmp_path / "tiny" / "game.yaml"
    text = path.read_text()
    start = text.index("components:\n")
    end = text.index("\n", text.index("  - box", start)) + 1
    path.write_text(text[:start] + "components:\n  - instructions\n  - cards\n" + text[end:])
    line = path.read_text().splitlines().index("components:") + 1
    checked = CliRunner().invoke(main, ["validate", str(tmp_path / "tiny"), "--no-cache"])
    assert checked.exit_code == 0 and ": warning: instructions: " not in checked.output
    monkeypatch.setattr(instructions, "MOST_SCALE", 1.0)
    checked = CliRunner().invoke(main, ["validate", str(tmp_path / "tiny"), "--no-cache"])
    found = [l for l in checked.output.splitlines() if ": warning: instructions: " in l]
    assert len(found) == 1, checked.output
    assert found[0].startswith(f"{path}:{line}: warning: instructions: the instructions page leaves more than a "
                               "third of its paper empty with its text at its largest: page 1 on letter (")
    assert "page 1 on a4 (" in found[0]


def test_a_deck_of_one_sheet_is_named_by_its_page_not_a_range(tmp_path):
    """The starter game's cards take one front page and one back page: the instructions say "print pages
    3" and "pages 4" (the page, as the table lists it), never a range from a page to itself ("3-3")."""
    from rasterize import page_words

    game = tmp_path / "g"
    assert CliRunner().invoke(main, ["new", str(game)]).exit_code == 0
    result = CliRunner().invoke(main, ["build", str(game), "--out", str(tmp_path / "kit"), "--no-cache"])
    assert result.exit_code == 0, result.output
    text = page_words(tmp_path / "kit" / "instructions.pdf")[0]
    assert "Without one, print pages 3, put the sheets back in the tray and print pages 4 on their reverse" in text
    assert "3-3" not in text and "3\u20133" not in text
