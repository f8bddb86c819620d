"""Names that work on every system (issue 23): ids that name exported files or folders and differ only
in case (one file on Windows and macOS), deck ids Windows keeps for devices (``CON``), and paths in the
data with such a name or a trailing dot or space are validation errors at their line, exit 2."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.loading.paths import case_twins, portability_problem




def edit(path: Path, old: str, new: str) -> int:
    """Replace ``old`` once; the line number where it was."""
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))
    return text[:text.index(old)].count("\n") + 1


def problems(folder: Path) -> list:
    result = CliRunner().invoke(main, ["validate", str(folder)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    return result.output.splitlines()


@pytest.mark.parametrize("name, reserved", [
    ("CON", True), ("con", True), ("Nul", True), ("aux.png", True), ("com1.tar.gz", True), ("LPT9", True),
    ("prn .txt", True), ("console", False), ("com10", False), ("con-1.png", False), ("lantern", False),
])
def test_windows_device_names(name, reserved):
    assert (portability_problem(name) is not None) == reserved
    if reserved:
        assert portability_problem(name).endswith("is a device name on Windows (CON, PRN, AUX, NUL, COM1-9, "
                                                  "LPT1-9): no file or folder can have it there")


def test_trailing_dots_and_spaces():
    assert portability_problem("moon.svg.") == "'moon.svg.' ends in a dot, which Windows drops from file names"
    assert portability_problem("art ") == "'art ' ends in a space, which Windows drops from file names"
    assert portability_problem(".hidden") is None and portability_problem("..") is None


def test_case_twins_in_linear_order():
    assert case_twins(["lantern", "ember", "Lantern", "EMBER", "lantern", "x"]) == {"Lantern": "lantern",
                                                                                   "EMBER": "ember"}
    names = [f"card-{i}" for i in range(50_000)] + ["CARD-7"]
    assert case_twins(names) == {"CARD-7": "card-7"}


def test_card_ids_that_differ_only_in_case(starfall):
    line = edit(starfall / "stars.yaml", "{id: ember-star,", "{id: Lantern,")
    assert f"{starfall / 'stars.yaml'}:{line}: card 'Lantern': id: differs from card 'lantern' (line 2) only in " \
           f"case; their exported images would be one file on Windows and macOS" in problems(starfall)


def test_card_ids_that_differ_only_in_case_across_decks(starfall):
    line = edit(starfall / "stars.yaml", "{id: ember-star,", "{id: ECLIPSE,")     # omens.csv has 'eclipse'
    assert f"{starfall / 'omens.csv'}:2:1: card 'eclipse': id: differs from card 'ECLIPSE' (stars.yaml:{line}) only " \
           f"in case; their exported images would be one file on Windows and macOS" in problems(starfall)


@pytest.mark.parametrize("deck_id", ["CON", "nul", "Com3"])
def test_a_deck_id_windows_keeps_for_a_device(starfall, deck_id):
    line = edit(starfall / "game.yaml", "  - id: stars\n", f"  - id: {deck_id}\n")
    assert f"{starfall / 'game.yaml'}:{line}: deck '{deck_id}': id: '{deck_id}' is a device name on Windows (CON, " \
           f"PRN, AUX, NUL, COM1-9, LPT1-9): no file or folder can have it there; it names the deck's folder of " \
           f"exported images" in problems(starfall)


def test_deck_ids_that_differ_only_in_case(starfall):
    first = edit(starfall / "game.yaml", "  - id: stars\n", "  - id: stars\n")
    line = edit(starfall / "game.yaml", "  - id: omens\n", "  - id: Stars\n")
    assert f"{starfall / 'game.yaml'}:{line}: deck 'Stars': id: differs from deck 'stars' (line {first}) only in " \
           f"case; their folders of exported images would be one on Windows and macOS" in problems(starfall)


def test_back_values_that_differ_only_in_case(starfall):
    line = edit(starfall / "game.yaml", "labels: {dim: Dim stars}", "labels: {dim: Dim stars, Bright: Bright}")
    assert f"{starfall / 'game.yaml'}:{line}: deck 'stars': back: the values 'bright' and 'Bright' differ only in " \
           f"case; their exported back images would be one file on Windows and macOS" in problems(starfall)


@pytest.mark.parametrize("path, why", [
    ("art/moon.svg.", "'moon.svg.' ends in a dot, which Windows drops from file names"),
    ("art /moon.svg", "'art ' ends in a space, which Windows drops from file names"),
    ("art/aux.svg", "'aux.svg' is a device name on Windows"),
])
def test_a_data_path_windows_cannot_hold(starfall, path, why):
    line = edit(starfall / "stars.yaml", "art: art/moon.svg,", f"art: '{path}',")
    found = [p for p in problems(starfall) if p.startswith(f"{starfall / 'stars.yaml'}:{line}: card 'pale-moon': art:")]
    assert len(found) == 1 and f"art: '{path}': {why}" in found[0], found
