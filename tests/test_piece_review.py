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
