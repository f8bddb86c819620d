"""The worked example of docs/data-format.md ("A new game, from an empty folder to a kit") is followed
as a designer would: its files are taken from the page itself, so the page cannot drift from what pnp
accepts."""

import re
import textwrap
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from pnp.cli import main

DOC = Path(__file__).resolve().parents[1] / "docs" / "data-format.md"
SECTION = "## A new game, from an empty folder to a kit"


def example_blocks() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    assert SECTION in text, "the worked example is gone from docs/data-format.md"
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    return [textwrap.dedent(body) for body in re.findall(r"```\w*\n(.*?)```", section, re.S)]


def page_texts(pdf: Path) -> list[str]:
    doc = pdfium.PdfDocument(str(pdf))
    return [page.get_textpage().get_text_range() for page in doc]


@pytest.fixture
def lantern_fair(tmp_path):
    game_yaml, cards_csv, layout_yaml = example_blocks()
    root = tmp_path / "lantern_fair"
    root.mkdir()
    (root / "game.yaml").write_text(game_yaml)
    (root / "lanterns.csv").write_text(cards_csv)
    return root, layout_yaml


def test_steps_1_to_3_validate_and_build_the_cards(lantern_fair, tmp_path):
    root, _ = lantern_fair
    result = CliRunner().invoke(main, ["validate", str(root)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Lantern Fair: 4 cards (2 different), components cards: valid")
    out = tmp_path / "kit"
    result = CliRunner().invoke(main, ["build", str(root), "--out", str(out)])
    assert result.exit_code == 0, result.output
    # step 3 names these files
    assert {"cards-fronts.pdf", "cards-backs.pdf", "cards-duplex.pdf", "kit.pdf"} <= {p.name for p in out.iterdir()}
    (fronts,) = page_texts(out / "cards-fronts.pdf")
    assert fronts.count("Paper Moon") == 3 and fronts.count("Dragon Eye") == 1
    assert fronts.count("Folded by the river.") == 3
    assert fronts.count("\u22121") == 3 and fronts.count("\u22123") == 1      # price, signed by its field


def test_step_2s_typo_is_reported_with_row_and_column(lantern_fair):
    root, _ = lantern_fair
    csv = root / "lanterns.csv"
    csv.write_text(csv.read_text().replace("paper-moon,Paper Moon,3,2,1,", "paper-moon,Paper Moon,3,2,lots,"))
    result = CliRunner().invoke(main, ["validate", str(root)])
    assert result.exit_code == 2
    assert "lanterns.csv:2:5: card 'paper-moon': price:" in result.output, result.output


def test_step_6s_layout_prints_the_price_tag(lantern_fair, tmp_path):
    root, layout_yaml = lantern_fair
    (root / "templates" / "layouts").mkdir(parents=True)
    (root / "templates" / "layouts" / "fair.yaml").write_text(layout_yaml)
    game = root / "game.yaml"
    game.write_text(game.read_text().replace("    size: poker\n", "    size: poker\n    layout: fair\n"))
    out = tmp_path / "kit"
    result = CliRunner().invoke(main, ["build", str(root), "--out", str(out)])
    assert result.exit_code == 0, result.output
    (fronts,) = page_texts(out / "cards-fronts.pdf")
    # the new price-tag region prints the signed price once more on every card, below the flavour
    assert fronts.count("\u22121") == 6 and fronts.count("\u22123") == 2
