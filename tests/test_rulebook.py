"""The rulebook: page count, imposition order in the real PDF, contents, and engine-made examples."""

import io
import re
from pathlib import Path

import pypdf
import pytest
from hypothesis import given, settings, strategies as st
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.components import BuildOptions
from pnp.rulebook.component import booklet, build, engine_examples
from pnp.draw.flowables import RichText
from pnp.loading.gamedata import load_game
from pnp.layout.geometry import Style
from pnp.layout.imposition import print_order
from pnp.text.markup import MarkupError, parse
from pnp.rulebook.chapters import load_config
from pnp.loading.scenario import run_scenario_file, scenario_lines  # noqa: F401
from rasterize import page_texts


@pytest.fixture(scope="module")
def game():
    return load_game("shadow_throne")


@pytest.fixture(scope="module")
def outputs(game):
    reading, imposed = build(game, BuildOptions())
    return reading, imposed


def texts(pdf: bytes) -> list[str]:
    return page_texts(pdf)


def flat(text: str) -> str:
    """Words as printed, typographic quotes read as typed ones and words broken at a hyphen joined."""
    text = text.replace("*", "").translate(str.maketrans("\u2019\u2018\u201c\u201d", "''\"\""))
    return re.sub(r"(\w)- (\w)", r"\1\2", " ".join(text.split()))


def test_sixteen_half_letter_pages_and_eight_imposed_sides(outputs):
    reading, imposed = outputs
    pages = pypdf.PdfReader(io.BytesIO(reading.pdf)).pages
    assert len(pages) == 16
    assert (round(float(pages[0].mediabox.width)), round(float(pages[0].mediabox.height))) == (396, 612)
    sheets = pypdf.PdfReader(io.BytesIO(imposed.pdf)).pages
    assert len(sheets) == 8
    assert (round(float(sheets[0].mediabox.width)), round(float(sheets[0].mediabox.height))) == (792, 612)
    assert reading.in_kit is False and imposed.in_kit is True


def test_a4_gives_an_a5_booklet(game):
    pdf, pages, _ = booklet(game, "a4", "en")
    first = pypdf.PdfReader(io.BytesIO(pdf)).pages[0]
    # half an A4 sheet: 148.5 x 210 mm
    assert (round(float(first.mediabox.width), 1), round(float(first.mediabox.height), 1)) == (420.9, 595.3)


def test_imposed_sides_carry_the_pages_of_the_saddle_stitch_plan(outputs):
    """Read the page numbers printed in the footers of each imposed side."""
    reading, imposed = outputs
    numbers_on = [set(map(int, re.findall(r"^(\d+)$", t, re.M))) for t in texts(imposed.pdf)]
    _, total, content = booklet(load_game("shadow_throne"), "letter", "en")
    blank = set(range(content, total))         # padding pages before the quick reference: no number
    for side, found in zip(print_order(total, "short"), numbers_on):
        # the cover (page 1) carries no number, nor the back cover (the last page, a !back quick reference)
        expected = {p for p in (side.left, side.right) if p and p not in (1, total) and p not in blank}
        assert expected <= found, (side, found)
        if total in (side.left, side.right):
            assert total not in found, (side, found)
    assert [(s.left, s.right) for s in print_order(16)][:2] == [(16, 1), (2, 15)]


def test_long_edge_booklets_turn_the_back_sides(game):
    _, imposed = build(game, BuildOptions(booklet_flip="long"))
    sheets = pypdf.PdfReader(io.BytesIO(imposed.pdf)).pages
    # a back side's content is drawn rotated: its transformation matrix starts with -1
    turned = re.compile(rb"-1 0(\.0)? 0(\.0)? -1 792 612 cm")
    assert turned.search(sheets[1].get_contents().get_data())
    assert not turned.search(sheets[0].get_contents().get_data())


def test_examples_are_told_from_the_engines_events(game, outputs):
    from rasterize import booklet_text
    reading, _ = outputs
    text = flat(booklet_text(reading.pdf))
    cfg = load_config(game)
    assert {e["id"] for e in cfg["examples"]} == {"convert_and_embolden", "killing", "hush_money", "poor_player"}
    for ex in engine_examples(game, cfg).values():
        for sentence in (ex.setup, *ex.steps, *ex.outcome):
            assert flat(sentence) in text, sentence


def test_the_outlaw_example_ends_in_the_church_with_one_extra_power(game):
    result = CliRunner().invoke(main, ["scenario", str(game.root / "examples" / "convert-and-embolden.yaml"),
                                       "--json"])
    import json
    data = json.loads(result.output)
    (outlaw,) = [c for c in data["characters"] if c["card"] == "outlaw"]
    assert (outlaw["faction"], outlaw["original_faction"], outlaw["power"], outlaw["converted"]) == (
        "church", "rebels", 2, True)
    example = engine_examples(game, load_config(game))["convert_and_embolden"]
    assert "Queen Eletheria (Cleo) gives +1 power to Outlaw (Ana)." in example       # the transcript
    assert "Cleo’s Queen Eletheria gives +1 power to Ana’s Outlaw." in example.steps


def test_a_whole_battle_is_printed_from_a_seeded_game(game, outputs):
    from rasterize import booklet_text
    reading, _ = outputs
    text = flat(booklet_text(reading.pdf))
    from pnp.rulebook.component import engine_battle
    lines = engine_battle(game, load_config(game))
    assert lines[0] == "== Battle 1 =="
    assert any(line.startswith("Final power:") for line in lines)
    battle = engine_battle(game, load_config(game), prose=True)
    # told in paragraphs; the draft's picks and the hands they make are drawn, each hand's cards named
    told = [sentence for paragraph in battle.paragraphs for kind, sentence in paragraph
            if kind not in ("draft_round", "hand")]
    assert len(told) > 12
    for sentence in (*told, *battle.outcome):
        assert flat(sentence) in text, sentence
    for e in battle.events:
        if e["type"] == "hand":
            assert flat(", ".join(game.card(c).name for c in e["cards"])) in text


def test_character_tables_use_the_card_data_and_card_text(game, outputs):
    reading, _ = outputs
    text = flat(" ".join(texts(reading.pdf)))
    from pnp.loading.cardtext import ability_text
    for card in game.cards:
        assert card.name in text
        if card.ability:
            plain = re.sub(r"\[[^\]]*\]\s*", "", ability_text(game, card)).replace("*", "")
            assert flat(plain)[:40] in text.replace(" ,", ","), card.id


def test_contents_list_chapters_with_their_pages(outputs):
    reading, _ = outputs
    pages = texts(reading.pdf)
    lines = pages[1].splitlines()
    # each entry a line: its title, the leader dots and its page number
    entries = {m.group(1): int(m.group(2)) for m in (re.fullmatch(r"(\S.*?)\s*(?:\.\s*){3,}(\d+)\s*", line)
                                                     for line in lines) if m}
    assert "Contents" not in entries  # the contents do not list themselves
    for title in ("Components", "Gold", "Resolving abilities", "Empire", "Winning", "Quick reference"):
        page = entries[title]
        assert title in pages[page - 1].splitlines(), (title, page)


def test_padding_pages_come_before_the_quick_reference(game, outputs):
    reading, _ = outputs
    pages = texts(reading.pdf)
    _, total, content = booklet(game, "letter", "en")
    assert total == 16 and 12 < content <= 16
    assert [i for i, t in enumerate(pages) if not t.strip()] == list(range(content - 1, total - 1))
    assert "Quick reference" in pages[total - 1]


def test_a_rulebook_longer_than_allowed_is_a_validation_error(game_copy):
    path = game_copy / "rulebook.yaml"
    path.write_text(path.read_text() + "pages: 8\n")
    result = CliRunner().invoke(main, ["validate", str(game_copy)])
    assert result.exit_code == 2
    assert re.search(r"rulebook\.yaml: rulebook: the rulebook needs \d+ pages on letter paper, more than the 8 "
                     r"rulebook.yaml allows", result.output)


def test_missing_example_scenario_is_reported(game_copy):
    path = game_copy / "rulebook.yaml"
    path.write_text(path.read_text().replace("examples/killing.yaml", "examples/nope.yaml"))
    out = CliRunner().invoke(main, ["validate", str(game_copy)]).output
    line = next(i for i, l in enumerate(path.read_text().splitlines(), 1) if "nope" in l)
    assert f"rulebook.yaml:{line}: example 'killing': scenario: no file 'examples/nope.yaml'" in out


def test_markup_blocks_and_errors():
    nodes = parse("# Title\n\nText *here*.\n\n- a\n  b\n- c\n\n| x | y |\n|---|---|\n| 1 | 2 |\n\n> ex\n!toc\n")
    kinds = [type(n).__name__ for n in nodes]
    assert kinds == ["Heading", "Paragraph", "ListBlock", "TableBlock", "Example", "Directive"]
    assert nodes[2].items == ("a b", "c")
    assert nodes[3].rows == (("x", "y"), ("1", "2")) and nodes[3].header_rows == 1
    with pytest.raises(MarkupError) as err:
        parse("text\n\n| a | b |\n| 1 |\n")
    assert err.value.line == 3


def test_paragraphs_never_leave_a_single_line_behind():
    para = RichText("word " * 200, Style(size=10, leading=1.2))
    para.wrap(200, 1000)
    n = len(para._lines)
    lead = para.lead
    for room in range(0, n + 1):
        parts = para.split(200, lead * room + 0.5)
        if room >= n:
            assert parts == [para]
        elif room < 2:
            assert parts == []
        else:
            head, tail = parts
            assert len(head._lines) >= 2 and len(tail._lines) >= 2
            assert len(head._lines) + len(tail._lines) == n


def test_every_number_of_a_long_numbered_list_is_printed_before_its_item():
    from reportlab.platypus import SimpleDocTemplate

    from pnp.draw.document import flowables

    markup = "\n".join(f"{n}. Step number {n} of the setup." for n in range(1, 13))
    buf = io.BytesIO()
    SimpleDocTemplate(buf, pagesize=(300, 900)).build(flowables(parse(markup), 228, {}))
    lines = [line.strip() for line in texts(buf.getvalue())[0].splitlines() if line.strip()]
    assert lines == [f"{n}. Step number {n} of the setup." for n in range(1, 13)], lines


@settings(max_examples=500)
@given(st.text(alphabet="ab[]:*\\ \n12-_xA", max_size=40))
def test_icons_used_are_the_icon_atoms_of_the_markup(markup):
    from pnp.text.markup import icons_used, inline_atoms

    atoms = [(a.text, a.arg) for word in inline_atoms(markup) if word for a in word if a.kind == "icon"]
    assert icons_used(markup) == atoms


def test_no_bundled_rulebook_runs_two_lead_ins_into_one_paragraph():
    """A line that starts with a bold lead-in ('**Poor player:** ...') right under another joins its
    paragraph (one line break is a space in pnp markup): the bundled rulebooks separate them."""
    root = Path(__file__).resolve().parent.parent / "data"
    joined = []
    for path in sorted(root.glob("*/templates/rulebook/*/*.j2")) + sorted(root.glob("*/rulebook/*.j2")):
        lines = path.read_text(encoding="utf-8").splitlines()
        joined += [f"{path.relative_to(root)}:{n + 2}" for n, (a, b) in enumerate(zip(lines, lines[1:]))
                   if a.startswith("**") and b.startswith("**")]
    assert joined == []


@pytest.mark.parametrize("notes", [False, True])
@pytest.mark.parametrize("chapter", ["# Rules\n\nAna plays first.\n", "# Rules\n\nAna plays.\n\n!pagebreak\n\nBen follows.\n",
                                     "# Rules\n\nAna plays.\n\n!spare\n\nBen follows.\n"])
def test_a_booklet_of_one_chapter_is_padded_after_it(tmp_path, chapter, notes):
    """Found by the generated games (issue 32): ``chapters: [rules]`` alone (no cover) of one or two pages
    had nowhere to put the padding (it goes before the last chapter, and the only one is the first) and
    failed with 'padding with 3 pages gave 1 pages, not 4'. The padding now follows the chapter."""
    game = tmp_path / "g"
    assert CliRunner().invoke(main, ["new", str(game)]).exit_code == 0
    (game / "rulebook.yaml").write_text("chapters: [rules]\n" + ("notes: true\n" if notes else ""))
    (game / "templates" / "rulebook" / "en" / "rules.md.j2").write_text(chapter)
    result = CliRunner().invoke(main, ["build", str(game), "--out", str(tmp_path / "kit"), "--no-cache"])
    assert result.exit_code == 0, result.output
    pages = page_texts(tmp_path / "kit" / "rulebook.pdf")
    assert len(pages) == 4
    assert "Ana plays" in pages[0]
    assert all("Ana" not in page for page in pages[1:])
