"""The worked example of docs/data-format.md ("A new game, from an empty folder to a kit") is followed
as a designer would: the commands and files are taken from the page itself, so the page cannot drift
from what pnp accepts."""

import re
import shlex
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from pnp.commands.cli import main

DOC = Path(__file__).resolve().parents[1] / "docs" / "data-format.md"
SECTION = "## A new game, from an empty folder to a kit"


def example_blocks() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    assert SECTION in text, "the worked example is gone from docs/data-format.md"
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    # each block without the indentation of its list item (its fence's), keeping its own
    return ["".join(line[len(indent):] + "\n" for line in body.splitlines())
            for indent, body in re.findall(r"^( *)```\w*\n(.*?)^ *```", section, re.S | re.M)]


def page_texts(pdf: Path) -> list[str]:
    doc = pdfium.PdfDocument(str(pdf))
    return [page.get_textpage().get_text_range() for page in doc]


def run_commands(block: str) -> list:
    """Each ``pnp ...`` line of a block, run as the designer would type it (in the current folder)."""
    results = []
    for line in block.splitlines():
        args = shlex.split(line)
        assert args[0] == "pnp", line
        results.append(CliRunner().invoke(main, args[1:]))
    return results


@pytest.fixture
def tutorial(tmp_path, monkeypatch):
    """The steps' blocks, in a fresh working folder holding step 1's starter game."""
    monkeypatch.chdir(tmp_path)
    new, build, fields, cards, region = example_blocks()
    (made,) = run_commands(new)
    assert made.exit_code == 0, made.output
    return tmp_path / "lantern_fair", build, fields, cards, region


def _write_cards(root, fields, cards):
    game = root / "game.yaml"
    text = game.read_text()
    assert text.count("    fields:\n") == 1
    game.write_text(text.replace("    fields:\n", "    fields:\n" + fields))
    (root / "cards.csv").write_text(cards)


def test_steps_1_and_2_the_starter_validates_and_builds(tutorial):
    root, build, _, _, _ = tutorial
    assert {p.name for p in root.iterdir()} == {"game.yaml", "cards.csv", "icons", "i18n", "templates", "rulebook.yaml",
                                              "tokens.yaml", "box.yaml"}
    validated, built = run_commands(build)
    assert validated.exit_code == 0, validated.output
    # step 2 quotes this summary
    assert validated.output == ("Lantern Fair: 9 cards (4 different), components instructions, score, cards, "
                                "tokens, rulebook, box: valid\n")
    assert built.exit_code == 0, built.output
    out = root.parent / "lantern_kit"
    assert {"cards-fronts.pdf", "cards-backs.pdf", "tokens.pdf", "rulebook.pdf", "kit.pdf"} <= \
        {p.name for p in out.iterdir()}


def test_step_3s_cards_validate_and_print_every_field(tutorial):
    root, build, fields, cards, _ = tutorial
    _write_cards(root, fields, cards)
    validated, built = run_commands(build)
    assert validated.exit_code == 0, validated.output
    # step 3 says the new price icon is warned of until the game gives it a key, and how to give one
    warning, summary = validated.output.splitlines()
    assert warning.startswith("lantern_fair/game.yaml:") and "icon 'coin'" in warning and "icon_key" in warning
    assert summary.startswith("Lantern Fair: 4 cards (2 different), components instructions, score, cards")
    game = root / "game.yaml"
    game.write_text(game.read_text() + "icon_key:\n  coin: the price you pay for the lantern\n")
    keyed, _ = run_commands(build)
    assert keyed.exit_code == 0 and keyed.output.startswith("Lantern Fair: 4 cards"), keyed.output
    assert built.exit_code == 0, built.output
    (fronts,) = page_texts(root.parent / "lantern_kit" / "cards-fronts.pdf")
    assert fronts.count("Paper Moon") == 3 and fronts.count("Dragon Eye") == 1
    assert fronts.count("Folded by the river.") == 3
    assert fronts.count("\u22121") == 3 and fronts.count("\u22123") == 1      # price, signed by its field
    assert fronts.count("Bright:") == 1 and "**" not in fronts and "[spark]" not in fronts


def test_step_3s_mistakes_are_reported_with_row_and_column(tutorial):
    root, _, fields, cards, _ = tutorial
    _write_cards(root, fields, cards.replace("paper-moon,Paper Moon,3,2,1,", "paper-moon,Paper Moon,3,2,lots,")
                 .replace("returns 1 [spark]", "returns 1 [sprak]"))
    result = CliRunner().invoke(main, ["validate", "lantern_fair"])
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        "lantern_fair/cards.csv:2:5: card 'paper-moon': price: expected an integer, got 'lots'",
        # step 4 quotes this one
        "lantern_fair/cards.csv:3:7: card 'dragon-eye': text: unknown icon [sprak]; did you mean [spark]?",
        "2 problems found; nothing was written."]


def test_step_6s_region_prints_the_price_tag(tutorial):
    root, build, fields, cards, region = tutorial
    _write_cards(root, fields, cards)
    layout = root / "templates" / "layouts" / "starter.yaml"
    assert layout.read_text().startswith("# ") and "extends: classic\n" in layout.read_text()
    layout.write_text(layout.read_text() + region)
    validated, built = run_commands(build)
    assert validated.exit_code == 0 and built.exit_code == 0, validated.output + built.output
    (fronts,) = page_texts(root.parent / "lantern_kit" / "cards-fronts.pdf")
    # the new price-tag region prints the signed price once more on every card
    assert fronts.count("\u22121") == 6 and fronts.count("\u22123") == 2
