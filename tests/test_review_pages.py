"""Defects found by reading every page of the four bundled games' kits (issue 37's second review round,
/work/team/REVIEW.md), each measured on the built kit's text: a piece that names itself otherwise than
the rulebook does, table columns that break short words, a card sentence without its full stop, a game
printed without any credit."""

import re
import subprocess

import pytest

VALERIA = "shadow_kingdoms_of_valeria"
GAMES = ("shadow_throne", "behind_the_throne", VALERIA, "shadow_queen")


def pdf_text(path) -> str:
    """A PDF's text with its whitespace folded to single spaces."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(path))
    return " ".join(" ".join(doc[i].get_textpage().get_text_range() for i in range(len(doc))).split())


def broken_words(path) -> list[str]:
    """The lines of a PDF that end inside a word broken with a hyphen ("fol-" of "folded"), as the
    PDF's text in reading order gives them (``pdftotext -raw`` keeps the break; the default joins it)."""
    raw = subprocess.run(["pdftotext", "-raw", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return [line for line in raw.splitlines() if re.search(r"[^\W\d_]-$", line)]


def test_valerias_starting_player_token_has_the_rulebooks_name(built_kit):
    """The rulebook (after the source) says "Starting Player token"; the token printed FIRST PLAYER and the
    instructions' bill of the kit "starting-player token": three names for one piece."""
    kit = built_kit(VALERIA)
    rulebook, tokens, instructions = (pdf_text(kit / f"{name}.pdf") for name in ("rulebook", "tokens", "instructions"))
    assert "Starting Player token" in rulebook
    assert tokens.count("STARTING PLAYER") == 2            # its two sides
    assert "FIRST PLAYER" not in tokens
    assert "1 Starting Player token" in instructions
    assert "starting-player" not in instructions


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("game", GAMES)
def test_the_instructions_tables_break_no_word(built_kit, game, paper):
    """A short column (how a piece is printed, a component's name) keeps its words whole beside a column
    of long lists: Valeria's "one side, fol-ded" and "Troop dice: stick-ers", Shadow Queen's
    "Shadows refer-ence" (A4) were set in columns narrower than their few words."""
    assert broken_words(built_kit(game, "en", paper) / "instructions.pdf") == []


def test_the_spanish_instructions_tables_break_no_word(built_kit):
    assert broken_words(built_kit("shadow_throne", "es", "a4") / "instructions.pdf") == []


def test_valerias_battle_plans_say_how_they_score_in_a_whole_sentence(built_kit):
    text = pdf_text(built_kit(VALERIA) / "cards-fronts.pdf")
    assert text.count("score it on your board’s chart.") == 48
    assert text.count("score it on your board’s chart") == 48


def test_shadow_queen_credits_its_design_on_the_cover_and_the_box(built_kit):
    """Shadow Queen's kit credited nobody but pnp's examples; its draft names no designer, and the credit
    says so."""
    import pypdfium2 as pdfium

    kit = built_kit("shadow_queen")
    cover = pdfium.PdfDocument(str(kit / "rulebook.pdf"))[0].get_textpage().get_text_range()
    assert "Design: an unsigned designer’s draft published online" in " ".join(cover.split())
    assert "Design: an unsigned designer’s draft published online" in pdf_text(kit / "box.pdf")


@pytest.mark.parametrize("sheet, pieces", [
    ("shadows-reference", ["SHADOW 2", "FAMILIAR 3", "THRALL 1", "STRONGHOLD", "SLAVE PEN"]),
    ("kingdom-reference", ["PRIEST 1", "SOLDIER 2", "MESSENGER 3", "PEASANT 1", "CHURCH", "VILLAGE"]),
])
def test_shadow_queens_reference_sheets_show_each_sides_pieces(built_kit, sheet, pieces):
    """A reference sheet was a page of plain text: it now draws the side's counters and holding tiles as
    printed (a sheet's template may call figure.* as a chapter does), their counts beneath them."""
    text = pdf_text(built_kit("shadow_queen") / f"{sheet}.pdf")
    assert [p for p in pieces if p not in text] == []
    counts = {"shadows-reference": ["6 Shadows", "6 Familiars", "6 Thralls", "1 Stronghold", "3 Slave Pens"],
              "kingdom-reference": ["5 Priests", "4 Soldiers", "3 Messengers", "6 Peasants", "1 Church",
                                    "3 Villages"]}[sheet]
    assert [c for c in counts if c not in text] == []


def test_the_spanish_edition_gives_the_age_as_spanish_boxes_do(built_kit):
    """"EDAD 14+" on the Spanish cover and lid read as a word-for-word translation of "Ages 14+"; Spanish
    boxes print "+14 años"."""
    import pypdfium2 as pdfium

    kit = built_kit("shadow_throne", "es")
    cover = " ".join(pdfium.PdfDocument(str(kit / "rulebook.pdf"))[0].get_textpage().get_text_range().split())
    assert "30–45 MINUTOS · +14 AÑOS" in cover
    box = pdf_text(kit / "box.pdf")
    assert "+14 AÑOS" in box.upper() and "EDAD" not in box.upper() and "EDAD" not in cover


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_a_tuck_boxs_side_walls_carry_the_title_along_the_spine(paper):
    """Behind the Throne's tuck box had two bare dark side walls: a box standing side-on on a shelf showed
    nothing. Each side wall now carries the title turned a quarter, running up the wall inside its safe
    margin, on one line (measured on the layout: the turned text's corners against the wall's face)."""
    from pnp.components import BuildOptions
    from pnp.components import box as box_component
    from pnp.layout.box import SAFE
    from pnp.layout.geometry import Text, Transform, apply
    from pnp.loading.gamedata import load_game

    game = load_game("behind_the_throne")
    result = box_component.layout(game, BuildOptions(paper=paper))
    spines = [e for page in result.pages for e in page.elements if isinstance(e, Transform) and e.role == "spine"]
    assert len(spines) == 2
    walls = [pl.rect(name) for pl in result.placements for name in ("tuck-left", "tuck-right")]
    for spine in spines:
        (title,) = [e for e in spine.elements if isinstance(e, Text)]
        assert title.markup == game.title and title.role == "spine-title" and title.style.max_lines == 1
        corners = [apply(spine.matrix, x, y) for x in (title.rect.x, title.rect.right)
                   for y in (title.rect.y, title.rect.top)]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        wall = next(w for w in walls if w.x <= min(xs) and max(xs) <= w.right)
        assert wall.x + SAFE - 0.01 <= min(xs) and max(xs) <= wall.right - SAFE + 0.01
        assert wall.y + SAFE - 0.01 <= min(ys) and max(ys) <= wall.top - SAFE + 0.01
        assert max(ys) - min(ys) > 0.8 * (wall.h - 2 * SAFE)           # it runs along the wall's height


def test_card_sizes_on_the_instructions_page_use_the_multiplication_sign(built_kit):
    """"63 x 88 mm" with a letter x, on Valeria's instructions page (its three decks)."""
    text = pdf_text(built_kit(VALERIA) / "instructions.pdf")
    assert "Battle Plans (48 cards, 63 × 88 mm)" in text
    assert " x 88 mm" not in text
