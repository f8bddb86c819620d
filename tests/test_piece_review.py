"""The piece defects of the kit review of issue 37 (2: empty space on pieces, 5: marks nobody can read,
8: box and contents, 10: player-facing sheets that name the tool's internals), each measured on the built
kits (their text, their pixels) or on the laid-out pieces (geometry)."""

import pytest

GAMES = ("shadow_throne", "behind_the_throne", "shadow_kingdoms_of_valeria", "shadow_queen")


def pdf_text(path) -> str:
    """A PDF's text with its whitespace folded to single spaces."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(path))
    return " ".join(" ".join(doc[i].get_textpage().get_text_range() for i in range(len(doc))).split())


# 10 -----------------------------------------------------------------------------------------------------
INTERNALS = ("manifest.json", "pnp build", "--players", "docs/", "printing guide", "written beside")


@pytest.mark.parametrize("game", GAMES)
def test_10_the_instructions_page_names_none_of_the_tools_internals(built_kit, game):
    text = pdf_text(built_kit(game) / "instructions.pdf")
    assert [word for word in INTERNALS if word in text] == []


@pytest.mark.parametrize("cutter", ["silhouette", "cricut", "scanncut"])
def test_10_a_cutter_kit_carries_the_machine_settings_not_a_pointer_to_the_guide(built_kit, cutter):
    text = pdf_text(built_kit("behind_the_throne", "en", "letter", "--cutter", cutter) / "instructions.pdf")
    assert [word for word in INTERNALS if word in text] == []
    wanted = {"silhouette": ["type 1, length 20 mm, thickness 0.5 mm, inset 10 mm", "Silhouette Studio"],
              "cricut": ["Add bleed", "Make It"],
              "scanncut": ["CanvasWorkspace", "Direct Cut"]}[cutter]
    assert [w for w in wanted if w not in text] == []


def test_10_the_spanish_instructions_name_none_of_the_tools_internals(built_kit):
    text = pdf_text(built_kit("shadow_throne", "es") / "instructions.pdf")
    assert [word for word in INTERNALS if word in text] == []


# 8 ------------------------------------------------------------------------------------------------------
VALERIA = "shadow_kingdoms_of_valeria"


def test_8_valerias_troop_dice_are_in_the_box_contents_and_the_manifest(built_kit):
    import json

    kit = built_kit(VALERIA)
    manifest = json.loads((kit / "manifest.json").read_text())
    dice = manifest["pieces"]["die"]
    assert dice == 45
    listed = [line for line in manifest["box"]["holds"] + manifest["box"]["beside"] if "dice" in line["item"]]
    assert listed == [{"count": 45, "item": "troop dice in their bag"}]
    assert listed[0] in manifest["box"]["beside"]          # the box is sized for the cards and tokens only
    assert "45 troop dice in their bag" in pdf_text(kit / "box.pdf")


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_8_valerias_box_base_prints_whole_on_one_sheet(paper):
    from pnp.components import BuildOptions
    from pnp.components import box as box_component
    from pnp.loading.gamedata import load_game

    result = box_component.layout(load_game(VALERIA), BuildOptions(paper=paper))
    base = [pl for pl in result.placements if pl.piece.faces[0].part == "base"]
    assert len(base) == 1 and len(base[0].piece.faces) == 5          # not cut in two
    assert len(result.pages) == 2                                     # the lid's sheet, the base's
    assert not [t for t in base[0].piece.tabs if t.letter]            # no joint to glue across sheets
    bottom = base[0].rect("base-bottom")
    assert bottom.w < bottom.h                                        # turned a quarter to fit


def test_8_a_box_line_counting_dice_in_a_game_without_dice_is_an_error_at_its_line(game_copy):
    from click.testing import CliRunner

    from pnp.cli import main

    box = game_copy / "box.yaml"
    text = box.read_text()
    head, rest = text.split("\ncontents:", 1)
    first, rest = rest.split("\n", 1)
    box.write_text(f"{head}\ncontents:{first}\n  - {{count: dice, item: dice}}\n{rest}")
    line = box.read_text().splitlines().index("  - {count: dice, item: dice}") + 1
    result = CliRunner().invoke(main, ["validate", str(game_copy)])
    assert result.exit_code == 2
    assert (f"box.yaml:{line}: contents #1: count: 'dice' counts the dice of the kit's dice components "
            "(kind: dice), and the game has none") in result.output
