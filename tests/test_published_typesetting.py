"""Typesetting as a published rulebook sets it (issue 37, defect 7), measured on the printed kits and on
the layout: no proper name hyphenated, in any language; no paragraph ending in a line of one word;
columns of numbers as wide as their content; a table split across pages starts with three rows at a page's
foot and leaves two or more for the next; no list
item alone at the head or foot of a page; en dashes in ranges; words broken at the points of the
game's own spelling (British English for the bundled games)."""

import pyphen
import pytest
from reportlab.lib.pagesizes import A4

from pdflines import hyphenated_words, one_word_last_lines
from pnp.text import typography
from pnp.draw.icons import for_game
from pnp.draw.text import natural_widths
from pnp.loading.gamedata import load_game
from pnp.loading.i18n import translate
from pnp.text.markup import parse
from pnp.draw.document import BODY, CELL, CELL_HEAD, CELL_PADDING, RulesTable, _column_widths, _table, flowables
from pnp.units import pt
from test_typesetting import GAMES, laid, parts, placements

KITS = [(game, "en") for game in GAMES] + [("shadow_throne", "es")]


def _game(game_id, lang):
    game = load_game(game_id)
    return translate(game, lang) if lang != "en" else game


# ------------------------------------------------------------------------------------------- names

@pytest.mark.parametrize("game_id,lang", KITS)
def test_no_name_is_hyphenated_anywhere_in_the_kit(built_kit, game_id, lang):
    """No word of a card's, faction's, piece's or place's name is broken at a line's end, on any page of
    the kit (rulebook, cards, aids, tables, captions), in English and in Spanish."""
    kit = built_kit(game_id, lang)
    names = typography.name_words(_game(game_id, lang).printed_names)
    assert names
    broken = [(page, f"{head}-{tail}") for page, head, tail in hyphenated_words(kit / "kit.pdf")
              if head + tail in names]
    assert broken == []


def test_the_games_names_are_its_printed_names_in_the_kits_language():
    english, spanish = load_game("shadow_throne"), _game("shadow_throne", "es")
    assert {"Beatrice", "Eletheria", "Mutinous", "Empire"} <= typography.name_words(english.printed_names)
    assert {"Piadoso", "Iglesia"} <= typography.name_words(spanish.printed_names)
    assert "Millford" in typography.name_words(load_game("shadow_queen").printed_names)


def test_a_name_word_never_breaks_where_another_word_would():
    with typography.language("en", names=["Queen Eletheria"]):
        assert typography.hyphen_points("Eletheria") == ()
        assert typography.hyphen_points("Eletheria,") == ()
        assert typography.hyphen_points("characters") != ()
    assert typography.hyphen_points("Eletheria", "en") != ()


# ------------------------------------------------------------------------------------ spelling

@pytest.mark.parametrize("game_id", GAMES)
def test_english_words_break_at_british_points(built_kit, game_id):
    """The bundled games are written in British English (game.yaml's spelling: en-GB): every word their
    kits break at a line's end breaks at a hyphenation point of pyphen's en_GB dictionary."""
    gb = pyphen.Pyphen(lang="en_GB", left=typography.HYPHEN_LEFT, right=typography.HYPHEN_RIGHT)
    breaks = hyphenated_words(built_kit(game_id) / "kit.pdf")
    wrong = [(page, f"{head}-{tail}") for page, head, tail in breaks if len(head) not in gb.positions(head + tail)]
    assert wrong == []


def test_the_spelling_picks_the_dictionary_and_only_for_its_own_language():
    game = load_game("shadow_throne")
    assert game.spelling == "en-GB" and game.hyphenation == "en-GB"
    with for_game(game):
        assert typography.breaking()[0] == "en_GB"
        assert typography.hyphen_points("colour") == (3,)            # en_GB: col-our
        assert typography.hyphen_points("manipulative") == typography.hyphen_points("manipulative", "en-GB")
    assert typography.hyphen_points("colour", "en") == ()            # en_US: colo-ur, too near the end
    assert typography.hyphen_points("manipulative", "en") != typography.hyphen_points("manipulative", "en-GB")
    spanish = _game("shadow_throne", "es")
    assert spanish.hyphenation is None
    with for_game(spanish):
        assert typography.breaking()[0] is None                      # Spanish by its own code
    with typography.language("es", spelling="en-GB"):                # a spelling of another language: unused
        assert typography.breaking()[0] is None


# ------------------------------------------------------------------------------- one-word lines

@pytest.mark.parametrize("game_id,lang", KITS)
def test_no_paragraph_of_the_rulebook_ends_with_a_line_of_one_word(built_kit, game_id, lang):
    assert one_word_last_lines(built_kit(game_id, lang) / "rulebook.pdf", BODY.size, BODY.leading) == []


# ------------------------------------------------------------------------------------- en dashes

@pytest.mark.parametrize("text,expected", [
    ("3-5 PLAYERS · 30-45 MINUTES", "3\u20135 PLAYERS · 30\u201345 MINUTES"),
    ("(91.5-94.6 %)", "(91.5\u201394.6 %)"), ("**2-4** players", "**2\u20134** players"),
    ("2026-11-30", "2026-11-30"), ("A-3", "A-3"), ("seed-7", "seed-7"), ("1-2-3", "1-2-3"),
    ("[pips:2]-3", "[pips:2]-3"),
])
def test_a_range_of_numbers_takes_an_en_dash(text, expected):
    assert typography.quotes(text, "en") == expected


@pytest.mark.parametrize("game_id,lang", KITS)
def test_the_rulebook_cover_prints_ranges_with_en_dashes(built_kit, game_id, lang):
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(built_kit(game_id, lang) / "rulebook.pdf")
    try:
        cover = doc[0].get_textpage().get_text_range()
    finally:
        doc.close()
    game = load_game(game_id)
    if game.players.min != game.players.max:
        assert f"{game.players.min}\u2013{game.players.max}" in cover
    assert not __import__("re").search(r"\d-\d", cover)


# ------------------------------------------------------------------------------------------ tables

def test_a_column_of_numbers_is_as_wide_as_its_content():
    """A table narrower than the column spans it, the room to spare going to its column of words: the
    column of numbers is its header's width and no more (it was stretched in proportion)."""
    node = parse("| Component | Count |\n|---|---|\n| Character cards (18 for each faction) | 54 |\n"
                 "| Faction tokens | 3 |")[0]
    width = pt(120)
    widths = _column_widths(node, width)
    count = max(natural_widths("Count", CELL_HEAD)[1], natural_widths("54", CELL)[1]) + CELL_PADDING + 0.5
    assert widths[1] == pytest.approx(count, abs=0.01)
    assert sum(widths) == pytest.approx(width, abs=0.01)


def _table_of(n):
    node = parse("| A | B |\n|---|---|\n" + "".join(f"| row {k} | {k} |\n" for k in range(1, n + 1)))[0]
    table = _table(node, pt(100))
    assert isinstance(table, RulesTable)
    table.wrap(pt(100), 10 ** 6)
    return table, table._rowHeights


def _rows(part) -> int:
    return len(part._cellvalues) - part.repeatRows


def test_a_table_of_four_rows_moves_on_whole():
    """A table of four rows cannot keep three on the page it starts on and two on the next: it moves on
    whole, whatever room the page leaves it (it split 2 + 2 before)."""
    table, rows = _table_of(4)
    header = rows[0]
    for n in range(1, 4):
        assert table.split(pt(100), header + sum(rows[1:n + 1]) + 1) == [], n


def test_a_table_starts_at_a_pages_foot_with_three_rows_and_leaves_two_or_more():
    """Shadow Throne's Spanish Letter booklet started the Rebels' and the Church's tables at the foot of
    pages 9 and 10 with two rows under their header, the other seven over the page. A table now starts
    at a page's foot only with three rows (else it moves on whole), and leaves two or more for the next
    page (a table of seven rows in room for six splits 5 + 2)."""
    table, rows = _table_of(7)
    header = rows[0]
    assert table.split(pt(100), header + sum(rows[1:3]) + 1) == []          # two rows: it moves on
    head, tail = table.split(pt(100), header + sum(rows[1:4]) + 1)
    assert (_rows(head), _rows(tail)) == (3, 4)
    head, tail = table.split(pt(100), header + sum(rows[1:7]) + 1)          # not six and one
    assert (_rows(head), _rows(tail)) == (5, 2)


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("game_id,lang", KITS)
def test_no_table_of_a_booklet_starts_a_page_with_fewer_than_three_rows(game_id, lang, paper):
    """Each table part a booklet sets (as built: with its fill blocks): a table set whole, or its first
    part with three rows or more, its last part with two or more."""
    from reportlab.platypus import Table

    from pnp.text.markup import TableBlock

    booklet = laid(game_id, lang, paper)
    chapters = booklet.args[2]          # as set, with the fill blocks
    tables = [tuple(tuple(row) for row in node.rows[node.header_rows:]) for _, markup in chapters
              for node in parse(markup) if isinstance(node, TableBlock)]
    checked = 0
    for number, page in enumerate(booklet.pages, 1):
        for event in page.events:
            for part in (parts(event[1]) if event[0] == "place" else ()):
                if not isinstance(part, Table):
                    continue
                rows = tuple(tuple(_cell(c) for c in row) for row in part._cellvalues[part.repeatRows:])
                table, at = next((t, k) for t in tables for k in range(len(t) - len(rows) + 1)
                                 if t[k:k + len(rows)] == rows)
                checked += 1
                if len(rows) == len(table):
                    continue            # set whole
                if at == 0:
                    assert len(rows) >= 3, f"page {number}: a table starts at its foot with {len(rows)} rows"
                if at + len(rows) == len(table):
                    assert len(rows) >= 2, f"page {number}: a table's last row goes on alone"
    assert checked >= len(tables) > 0


def _cell(value) -> str:
    """A table cell's markup (platypus holds a cell's flowables in a list)."""
    cells = value if isinstance(value, (list, tuple)) else [value]
    return "".join(getattr(c, "markup", str(c)) for c in cells)


# ------------------------------------------------------------------------------------------- lists

def test_the_last_and_first_items_of_a_list_keep_with_their_neighbours():
    flows = flowables(parse("- one\n- two\n- three\n- four"), pt(100), {})
    assert len(flows) == 2                      # (one, two) and the rest, whose last two are one group
    first, rest = flows
    assert first.first.markup == "one" and first.second.markup == "two"
    assert rest.first.markup == "three" and rest.second.markup == "four"


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("game_id,lang", KITS)
def test_no_list_item_stands_alone_at_the_head_or_foot_of_a_page(game_id, lang, paper):
    _, placed = placements(game_id, paper, lang)
    content = [p for p in placed if p[1] in ("heading", "body", "item", "text", "figure", "Table", "FigureRow")]
    lone = []
    for before, item, after in zip(content, content[1:], content[2:]):
        if item[1] != "item":
            continue
        first_on_page, last_on_page = before[0] != item[0], after[0] != item[0]
        whole = before[3] != item[3] and after[3] != item[3]          # not part of a split item
        if whole and first_on_page and before[1] == "item" and after[1] != "item":
            lone.append(("head", item[0], item[3][:40]))
        if whole and last_on_page and before[1] != "item" and after[1] == "item":
            lone.append(("foot", item[0], item[3][:40]))
    assert lone == []
