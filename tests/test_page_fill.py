"""Pages that earn their space (issue 37, defect 6, "Page fill"): the booklet lays out to the fewest pages
that hold its chapters, sets the blocks of rulebook.yaml's ``fill`` templates (the tokens at actual size,
a setup figure) in room a page would leave empty, and ``pnp validate`` reports each page still more than a
third empty on every paper, in every language the game has, measured as the layout places its content
and as the PDF prints it."""

import ctypes
import re
import shutil

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.draw.document import EMPTY_SHARE, MARGIN
from pnp.draw.icons import for_game
from pnp.loading.gamedata import load_game
from pnp.loading.i18n import translate
from pnp.rulebook.component import laid_booklet, spare_blocks, with_spare
from pnp.units import half_sheet, pt

from rasterize import page_texts

DATA = __import__("pathlib").Path(__file__).resolve().parent.parent / "data"

#: Every bundled booklet, each paper, each language: its pages (a multiple of 4, saddle-stitched). Before
#: the fill blocks (main at 4b223ff) they were the same, with a page more than a third empty in six of
#: them: Shadow Throne p12 (Letter, 59%), p15 (A4, 52%), Spanish p12 (A4, 43%); Behind the Throne p7
#: (48%, 46%); Valeria p11 (47%, 45%).
BOOKLETS = [("shadow_throne", "en", "letter", 16), ("shadow_throne", "en", "a4", 16),
            ("shadow_throne", "es", "letter", 16), ("shadow_throne", "es", "a4", 16),
            ("behind_the_throne", "en", "letter", 8), ("behind_the_throne", "en", "a4", 8),
            ("shadow_kingdoms_of_valeria", "en", "letter", 12), ("shadow_kingdoms_of_valeria", "en", "a4", 12),
            ("shadow_queen", "en", "letter", 12), ("shadow_queen", "en", "a4", 12)]


def _lowest_text(pdf: bytes, page: int) -> float:
    """The lowest character bottom (points) on a page of the PDF above the page number's line (the frame's
    bottom when the page prints no text there)."""
    doc = pdfium.PdfDocument(pdf)
    try:
        text = doc[page - 1].get_textpage()
        bottoms = []
        for i in range(text.count_chars()):
            if chr(raw.FPDFText_GetUnicode(text, i)).isspace():
                continue
            x, y = ctypes.c_double(), ctypes.c_double()
            raw.FPDFText_GetCharOrigin(text, i, x, y)
            if y.value > pt(MARGIN["bottom"]):            # not the page number under the frame
                bottoms.append(text.get_charbox(i)[1])
        return min(bottoms)
    finally:
        doc.close()


def _printed_share(pdf: bytes, page: int, paper: str) -> float:
    """The share of a page's text frame left empty under its lowest text, as the PDF prints it."""
    bottom, top = pt(MARGIN["bottom"]), pt(half_sheet(paper)[1] - MARGIN["top"])
    return (_lowest_text(pdf, page) - bottom) / (top - bottom)


def _booklet(game_id, lang, paper):
    game = load_game(game_id)
    game = translate(game, lang) if lang != game.language else game
    with for_game(game, lang):
        return laid_booklet(game, paper, lang)


def _without_fill(tmp_path, game_id: str):
    """A copy of a bundled game whose rulebook.yaml asks for no fill blocks (``fill: []``)."""
    folder = tmp_path / game_id
    shutil.copytree(DATA / game_id, folder)
    cfg = folder / "rulebook.yaml"
    text = "\n".join(line for line in cfg.read_text().splitlines() if not line.startswith("fill:"))
    cfg.write_text(text + "\nfill: []\n")
    return folder


def _text_lines(pdf: bytes, page: int) -> list[tuple[float, float]]:
    """(bottom, top) in points of each text line of a page, from its characters' boxes (spaces aside),
    the lowest first."""
    doc = pdfium.PdfDocument(pdf)
    try:
        text = doc[page - 1].get_textpage()
        boxes = [text.get_charbox(i) for i in range(text.count_chars())
                 if not chr(raw.FPDFText_GetUnicode(text, i)).isspace()]
    finally:
        doc.close()
    lines: list[list[float]] = []
    for _, bottom, _, top in sorted(boxes, key=lambda b: b[1]):
        if lines and bottom <= lines[-1][1]:
            lines[-1][1] = max(lines[-1][1], top)
        else:
            lines.append([bottom, top])
    return [(b, t) for b, t in lines]


def _largest_gap(pdf: bytes, page: int, paper: str) -> float:
    """The tallest band of a page's text frame with no text in it (between two lines of text, or between
    the frame's edges and the text), as a share of the frame: what a page leaves empty wherever the
    room is (a back cover's text above and its foot below), as printed."""
    bottom, top = pt(MARGIN["bottom"]), pt(half_sheet(paper)[1] - MARGIN["top"])
    edges = [bottom] + [y for b, t in _text_lines(pdf, page) if bottom <= b and t <= top for y in (b, t)] + [top]
    return max(edges[k + 1] - edges[k] for k in range(0, len(edges) - 1, 2)) / (top - bottom)


@pytest.mark.parametrize("game_id,lang,paper,pages", BOOKLETS)
def test_no_page_of_a_bundled_booklet_is_more_than_a_third_empty(game_id, lang, paper, pages):
    """Every page but the cover, the back page too (it was not measured: Behind the Throne's was 43-46 %
    empty under a running head): at most a third of it empty, as laid out and as printed."""
    pdf, count, content, empty = _booklet(game_id, lang, paper)
    assert (count, content, empty) == (pages, pages, ())         # the fewest pages; none padded, none empty
    assert len(pdfium.PdfDocument(pdf)) == pages
    # as printed: every page but the cover holds text below its top two thirds; the back cover, whose
    # foot sits at the foot of the page, leaves no band of a third of its frame empty
    for page in range(2, pages):
        assert _printed_share(pdf, page, paper) <= EMPTY_SHARE + 0.03, (game_id, lang, paper, page)
    assert _largest_gap(pdf, pages, paper) <= EMPTY_SHARE + 0.03, (game_id, lang, paper)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_behind_the_thrones_back_page_is_a_back_cover(paper):
    """The quick reference on the back page is a back cover: no running head nor page number, the turn
    summary with a figure, and at its foot the title, the players and what the box holds."""
    pdf, pages, _, _ = _booklet("behind_the_throne", "en", paper)
    back = " ".join(page_texts(pdf)[pages - 1].split())
    assert "RULES OF PLAY" not in back and not back.rstrip().endswith(str(pages))
    assert "Quick reference Setup:" in back and "Your turn:" in back
    assert "BEHIND THE THRONE 2–5 players In this box: 82 cards Beside the box: 1 rulebook" in back
    assert "STACKS IN FRONT OF A PLAYER" in back.upper() or "A ROW, CARD BY CARD" in back.upper()


def test_a_back_cover_is_measured_above_its_foot(tmp_path):
    """``!back`` starts the back cover: no running head, and at its foot the title, the players and what
    the box holds."""
    long_text = " ".join(["Ana plays a card and Ben answers it."] * 30)
    chapters = {"cover": None, "rules": f"# Rules\n\n{long_text}\n\n{long_text}\n",
                "back": "!back\n# Reference\n\nScore at the end.\n"}
    aside = "!fill\n### A short aside\nKeep your cards hidden.\n"
    pages = _pages(tmp_path, _game(tmp_path, chapters, {"aside": aside}))
    back = " ".join(pages[-1].split())
    assert "Reference Score at the end." in back
    assert "In this box:" in back and "RULES OF PLAY" not in back.upper()


def test_no_fill_block_parts_the_battle_from_its_outcome():
    """Shadow Throne on Letter: the battle's page 12 was 59% empty and its fill blocks sat between the
    fourth wave and the outcome. A fill block now goes only where a section ends (a heading, a page
    break or the chapter's end follows): the battle runs on unbroken from its hands to its outcome, and
    the room goes to blocks elsewhere, each once in the booklet."""
    pdf, pages, _, empty = _booklet("shadow_throne", "en", "letter")
    texts = [" ".join(page.split()) for page in page_texts(pdf)]
    text = " ".join(texts)
    start = text.index("Here is one whole battle")
    battle = text[start:text.index("The cards at a glance", start)]
    assert battle.index("Wave 4:") < battle.index("Outcome")
    for heading in ("AT THE START", "ACTUAL SIZE", "WHERE THE FACTION TOKENS START"):
        assert heading not in battle.upper()
        assert text.upper().count(heading) <= 1               # each block once in the booklet
    assert "AT THE START" in text.upper() or "ACTUAL SIZE" in text.upper()      # the room went to a block
    assert empty == ()
    # the battle's pages, as printed, none more than a third empty
    first = next(n for n, page in enumerate(texts, 1) if "Here is one whole battle" in page)
    last = next(n for n, page in enumerate(texts, 1) if "The cards at a glance" in page and n > first)
    for number in range(first, last):
        assert _printed_share(pdf, number, "letter") < EMPTY_SHARE, number


@pytest.mark.parametrize("game_id,lang,paper,pages", BOOKLETS)
def test_the_blocks_of_a_fill_template_read_in_its_order(game_id, lang, paper, pages):
    """A fill template's blocks print in the order it writes them, wherever the booklet sets them: the
    block that says what a figure shows comes before the block that draws it. On main, Shadow Throne's
    Letter booklet set the start area of the power track (the glance template's third block) on p15 and
    "At the start", which says the faction tokens wait there, on p16; Behind the Throne's "A row, card
    by card" came before "Stacks in front of a player" on both papers."""
    from pnp.rulebook.component import DEFAULT_FILL, _laid, _prepared, context, fill_markup
    from pnp.rulebook.figures import Figures

    def plain(block):                   # a block's text whichever render numbered its figures
        return re.sub(r"!figure \d+", "!figure", block)

    game = load_game(game_id)
    game = translate(game, lang) if lang != game.language else game
    with for_game(game, lang):
        cfg, figures, chapters, fills, words, size, key, _ = _prepared(game, paper, lang)
        laid, count, _ = _laid(game, cfg, chapters, fills, figures, paper, lang, words, size, key)
        where = {}                      # a block's text: (its template in rulebook.yaml's fill, its place there)
        for t, name in enumerate(DEFAULT_FILL if cfg.get("fill") is None else cfg["fill"]):
            alone = fill_markup(game, {**cfg, "fill": [name]}, context(game, cfg, lang, Figures(game, lang)), lang)
            where.update({plain(block): (t, k) for k, block in enumerate(alone)})
    assert count == pages
    text = "\n".join(markup for _, markup in laid.args[2])          # the chapters as set, fill blocks in
    templates: dict = {}
    for block in fills:
        at = text.find("\n!rule\n" + block + "\n")
        if at >= 0:
            t, k = where[plain(block)]
            templates.setdefault(t, []).append((at, k))
    for placed in templates.values():
        assert [k for _, k in sorted(placed)] == sorted(k for _, k in placed), placed


def test_shadow_thrones_start_area_comes_after_the_text_that_explains_it():
    """Shadow Throne's Letter booklet: "At the start" (the faction tokens wait on the start area of the power
    track) on p15, the start area drawn with the tokens on it on p16, as on A4; in English and Spanish,
    as printed."""
    for lang, said, drawn in (("en", "AT THE START", "WHERE THE FACTION TOKENS START"),
                              ("es", "AL EMPEZAR", "DÓNDE EMPIEZAN LAS FICHAS DE FACCIÓN")):
        for paper in ("letter", "a4"):
            text = " ".join(" ".join(page.split()) for page in page_texts(_booklet("shadow_throne", lang, paper)[0]))
            if drawn in text.upper():
                assert said in text.upper() and text.upper().index(said) < text.upper().index(drawn), (lang, paper)


def test_no_fill_block_shows_a_piece_the_booklet_already_shows():
    """Behind the Throne's page 7 showed the End of Game card twice (the card index's, then the fill's
    table at the start); Shadow Throne's A4 page 15 the 1-gold token twice (the tokens, then what a player
    starts with). A fill block that draws a piece the booklet already draws alone is not set."""
    pdf, _, _, _ = _booklet("behind_the_throne", "en", "letter")
    seven = page_texts(pdf)[6]
    assert seven.count("When this card is revealed, the game") == 1           # the End of Game card's face
    assert "THE TABLE AT THE START" not in seven.upper()
    pdf, _, _, _ = _booklet("shadow_throne", "en", "a4")
    fifteen = " ".join(page_texts(pdf)[14].split())
    assert "The tokens, actual size" in fifteen and "Your 3 gold" not in fifteen


@pytest.mark.parametrize("game_id", ["shadow_queen", "shadow_kingdoms_of_valeria"])
def test_a_kinds_pieces_share_one_caption(game_id):
    """The pieces at actual size printed their kind's name under every piece ("influence markers" five
    times, "Piece counters (double-sided) (Shadows)" under each counter) in rows of 4 + 1 or 3 + 3 + 1,
    and then (Shadow Queen's eleven markers) "46 in the box" under each line: now the kind is the block's
    heading, one caption under its pieces says how many the box holds, and the rows are balanced.
    Measured on every block the booklet sets on either paper, wherever it sets it."""
    blocks = 0
    for number, text in ((n, t) for paper in ("letter", "a4")
                         for n, t in enumerate(page_texts(_booklet(game_id, "en", paper)[0]), 1)):
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        for k, line in enumerate(lines):
            if not line.upper().startswith("AT ACTUAL SIZE:"):
                continue
            blocks += 1
            name = line.split(":", 1)[1].strip().lower()
            below = []                  # the page under the heading, to the next block's heading
            for after in lines[k + 1:]:
                if after.upper().startswith("AT ACTUAL SIZE:"):
                    break
                below.append(after)
            captions = [n for n, b in enumerate(below) if b.endswith(" in the box")]
            assert len(captions) == 1 and below[captions[0]].split()[0].isdigit(), (number, line, below)
            pieces = below[:captions[0]]
            assert not any(name in b.lower() for b in pieces), (number, name, pieces)      # the heading only
    assert blocks, "neither booklet sets pieces at actual size"


def test_figure_rows_are_balanced():
    """A row of figures that goes on over more lines holds them as evenly as it can: five that fit four
    to a line go 3 + 2 (it was 4 + 1), ten that fit three go 3 + 3 + 2 + 2 (3 + 3 + 3 + 1)."""
    from pnp.draw.document import CAPTION
    from pnp.draw.flowables import FigureRow
    from pnp.rulebook.figures import Drawing

    def counts(n, width):
        row = FigureRow([Drawing((), width, 20.0, 1.0, "", "token") for _ in range(n)], CAPTION)
        return [len(line) for line in row.layout(100.0)]

    assert counts(5, 20.0) == [3, 2]                # 4 fit: 20 * 4 + 5 * 3 = 95
    assert counts(10, 28.0) == [3, 3, 2, 2]         # 3 fit: 28 * 3 + 5 * 2 = 94
    assert counts(9, 20.0) == [3, 3, 3]
    assert counts(4, 20.0) == [4]


def test_figures_with_one_caption_share_it():
    """Neighbours with the same caption print it once, centred under them all."""
    from pnp.draw.document import CAPTION
    from pnp.draw.flowables import FigureRow
    from pnp.rulebook.figures import Drawing

    row = FigureRow([Drawing((), 20.0, 20.0, 1.0, "3 in the box", "token") for _ in range(3)]
                    + [Drawing((), 20.0, 20.0, 1.0, "Dead tokens", "token")], CAPTION)
    row.wrap(pt(100), pt(200))
    (line, captions, _, _), = row._lines
    assert [(first, last) for first, last, _ in captions] == [(0, 2), (3, 3)]


def test_a_kinds_figures_stay_on_one_line_under_their_caption():
    """Shadow Throne's A4 tokens went 4 + 3 + 3 with the influence tokens parted (the 1 at the end of the
    first line, the 5 starting the second, each under "Influence tokens"): lines now break between the
    runs of a shared caption where they can, as evenly as they can: 3 + 4 + 3."""
    from pnp.draw.document import CAPTION
    from pnp.draw.flowables import FigureRow
    from pnp.rulebook.figures import Drawing

    kinds = ["Faction"] * 3 + ["Influence"] * 2 + ["Power", "Dead", "Convert"] + ["Gold"] * 2
    row = FigureRow([Drawing((), 20.0, 20.0, 1.0, kind, "token") for kind in kinds], CAPTION)
    lines = row.layout(100.0)                       # 4 fit a line: 20 * 4 + 5 * 3 = 95
    assert [[d.caption for d, _, _ in line] for line in lines] == [
        ["Faction"] * 3, ["Influence", "Influence", "Power", "Dead"], ["Convert", "Gold", "Gold"]]
    # a run longer than a line still goes on over lines (by count, balanced)
    row = FigureRow([Drawing((), 20.0, 20.0, 1.0, "Markers", "token") for _ in range(9)], CAPTION)
    assert [len(line) for line in row.layout(100.0)] == [3, 3, 3]


def test_a_shared_caption_over_several_lines_is_set_once_under_the_last():
    """Shadow Queen's eleven markers went 4 + 4 + 3 with "46 in the box" under each line: a caption
    shared by a run that goes on over lines is set once, under the run's last line."""
    from pnp.draw.document import CAPTION
    from pnp.draw.flowables import FigureRow
    from pnp.rulebook.figures import Drawing

    row = FigureRow([Drawing((), 20.0, 20.0, 1.0, "46 in the box", "token") for _ in range(11)]
                    + [Drawing((), 20.0, 20.0, 1.0, "Dead tokens", "token")], CAPTION)
    row.wrap(pt(100), pt(400))
    assert [len(line) for line, *_ in row._lines] == [4, 4, 4]                  # 4 fit: 20 * 4 + 5 * 3
    shared = [[(first, last) for first, last, _ in captions] for _, captions, _, _ in row._lines]
    assert shared == [[], [], [(0, 2), (3, 3)]]
    # the lines with no caption under them are as tall as their figures
    assert [caption_h for *_, caption_h in row._lines[:2]] == [0.0, 0.0] and row._lines[2][3] > 0


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_no_caption_leaves_a_number_alone_on_its_line(paper):
    """Behind the Throne's page 2: "A character: the King, value" above a "9" alone; a caption avoids a
    last line of one word as paragraphs do."""
    pdf, pages, _, _ = _booklet("behind_the_throne", "en", paper)
    for number, text in enumerate(page_texts(pdf), 1):
        lines = [line.strip() for line in text.splitlines()]
        for k, line in enumerate(lines[1:], 1):
            if lines[k - 1].startswith("A character:"):
                assert line != "9" and "value 9" in " ".join(lines[k - 1:k + 1]), (number, lines[k - 1:k + 1])


def test_the_booklets_empty_pages_are_measured_as_printed(tmp_path):
    game = load_game(_without_fill(tmp_path, "shadow_kingdoms_of_valeria"))
    with for_game(game):
        pdf, pages, _, empty = laid_booklet(game, "letter", "en")
    # the solo example, half empty without fill, and the back page (measured too)
    assert [n for n, _ in empty] == [11, 12]
    (number, share), _ = empty
    printed = _printed_share(pdf, number, "letter")
    assert share > EMPTY_SHARE and abs(printed - share) < 0.03


def test_validate_names_the_paper_and_the_language_of_each_page_more_than_a_third_empty(tmp_path):
    """Shadow Throne without its fill blocks: Letter's pages 12 and 16 in English, A4's 15 and 16 in
    English and A4's 16 in Spanish (the Spanish edition and A4 paper were never laid out by validate
    before)."""
    result = CliRunner().invoke(main, ["validate", str(_without_fill(tmp_path, "shadow_throne")), "--no-cache"])
    assert result.exit_code == 0, result.output
    warnings = sorted(line.split(": warning: rulebook: ", 1)[1].split(";")[0]
                      for line in result.output.splitlines() if "more than a third empty" in line)
    # the back page is measured too (in its back cover's frame): without fill, each back cover but Spanish
    # Letter's is more than a third empty (English A4's tokens page and Letter's battle outcome too: 52 %
    # and 41 % when written; pages named by number, each share as laid out, which move with the content)
    found = {}
    for warning in warnings:
        head, listed = warning.split(" more than a third empty: ")
        paper, lang = re.search(r"on (\w+) paper in '(\w+)'", head).groups()
        pages = [(int(n), int(p)) for n, p in re.findall(r"page (\d+) \((\d+)% empty\)", listed)]
        assert head.startswith(f"{len(pages)} page{'s' if len(pages) > 1 else ''} of the booklet")
        assert all(share > 33 for _, share in pages)
        found[paper, lang] = pages
    assert set(found) == {("a4", "es"), ("a4", "en"), ("letter", "en")}
    assert all(pages[-1][0] == 16 for pages in found.values())              # the back cover, each
    assert all(line.startswith(f"{tmp_path / 'shadow_throne' / 'rulebook.yaml'}: warning: rulebook: ")
               for line in result.output.splitlines() if "more than a third empty" in line)


@pytest.mark.parametrize("game_id", ["shadow_throne", "behind_the_throne", "shadow_kingdoms_of_valeria", "shadow_queen"])
def test_validate_finds_no_page_more_than_a_third_empty_in_a_bundled_game(game_id, validated):
    """Every paper, every language the game has (Shadow Throne's A4 back cover was 42 % empty in English
    and 34 % in Spanish: its quick reference alone, the tokens having taken the page before)."""
    result = validated("validate", game_id, "--no-cache")      # run once a test run (conftest.validated)
    assert result.exit_code == 0, result.output
    assert "more than a third empty" not in result.output


def _game(tmp_path, chapters: dict, fill: dict, extra: str = ""):
    game = tmp_path / "g"
    assert CliRunner().invoke(main, ["new", str(game)]).exit_code == 0
    folder = game / "templates" / "rulebook" / "en"
    for name, text in {**chapters, **fill}.items():
        if text is not None:            # None: pnp's shared chapter
            (folder / f"{name}.md.j2").write_text(text)
    (game / "rulebook.yaml").write_text(f"chapters: [{', '.join(chapters)}]\nfill: [{', '.join(fill)}]\n{extra}")
    return game


def _pages(tmp_path, game):
    result = CliRunner().invoke(main, ["build", str(game), "--out", str(tmp_path / "kit"), "--no-cache"])
    assert result.exit_code == 0, result.output
    return page_texts(tmp_path / "kit" / "rulebook.pdf")


def test_a_fill_block_goes_at_the_foot_of_a_page_with_room_whole_and_once(tmp_path):
    long_text = " ".join(["Ana plays a card and Ben answers it."] * 30)
    chapters = {"cover": None,
                "rules": f"# Rules\n\n{long_text}\n\n!pagebreak\n\n# Scoring\n\n{long_text}\n\n{long_text}\n",
                "back": "!pagebreak\n# Reference\n\nScore at the end.\n"}
    aside = "!fill\n### A short aside\nKeep your cards hidden.\n"
    huge = "!fill\n### A long aside\n" + "\n\n".join([long_text] * 8) + "\n"
    pages = _pages(tmp_path, _game(tmp_path, chapters, {"aside": aside, "huge": huge}))
    assert len(pages) == 4                                       # no page added for a block
    # page 2: the first chapter with the short aside under it (the page break follows it)
    assert "Rules" in pages[1] and "A SHORT ASIDE" in pages[1].upper() and "Keep your cards hidden." in pages[1]
    assert pages[1].index("Ana plays") < pages[1].upper().index("A SHORT ASIDE")
    assert "Scoring" in pages[2] and "Reference" in pages[3]
    # the block too tall for any room is not set, nor split over pages
    assert not any("LONG ASIDE" in page.upper() for page in pages)
    assert sum(page.upper().count("A SHORT ASIDE") for page in pages) == 1


def test_fill_blocks_are_the_designers_choice(tmp_path):
    """``fill: []`` sets none; a fill template the game does not have is an error at its line."""
    chapters = {"rules": "# Rules\n\nAna plays.\n\n!pagebreak\n\n# More\n\nBen plays.\n",
                "back": "!pagebreak\n# Reference\n\nScore at the end.\n"}
    game = _game(tmp_path, chapters, {})
    pages = _pages(tmp_path, game)
    assert len(pages) == 4 and not any("ASIDE" in page.upper() for page in pages)
    (game / "rulebook.yaml").write_text("chapters: [rules, back]\nfill:\n  - asides\n")
    result = CliRunner().invoke(main, ["validate", str(game), "--no-cache"])
    assert result.exit_code == 2
    problem, = [line for line in result.output.splitlines() if "asides" in line]
    assert problem.startswith(f"{game / 'rulebook.yaml'}:3: fill 'asides': ") and "asides.md.j2" in problem


def test_each_spare_block_is_taken_where_it_fits():
    chapters = [("a", "# A\n\ntext\n!spare\n## More\n\nmore\n!spare\n## Most\n\nmost"), ("b", "# B\n\nend")]
    assert spare_blocks(chapters) == [(0, 10, 31), (0, 31, 51)]
    # the chapter keeps its lines whichever blocks print: a problem is at its line
    assert with_spare(chapters) == [("a", "# A\n\ntext\n\n\n\n\n\n\n\n"), ("b", "# B\n\nend")]
    assert with_spare(chapters, {1}) == [("a", "# A\n\ntext\n\n\n\n\n\n## Most\n\nmost"), ("b", "# B\n\nend")]
    assert with_spare(chapters, {0}) == [("a", "# A\n\ntext\n\n## More\n\nmore\n\n\n\n"), ("b", "# B\n\nend")]
    for taken in (set(), {0}, {1}, {0, 1}):
        assert with_spare(chapters, taken)[0][1].count("\n") == chapters[0][1].count("\n")


def test_a_fill_block_never_parts_an_example_from_its_figure(tmp_path):
    """An example's paragraph and its figure, together taller than the page: main could not lay it out
    ("cannot be laid out: Flowable <KeepWithNext ...> too large on page 3"); the paragraph now keeps its
    last two lines with the figure, the rest on the page before, and the room that page leaves, inside the
    example, takes no fill block (it went only where a section ends)."""
    text = " ".join(["Ana plays a card and Ben answers it."] * 12)
    chapters = {"cover": None,
                "rules": f"# Rules\n\n## An example\n\n{text}\n\n"
                         "{{ figure.card('star', scale=1.7, caption='The star Ana plays') }}\n\n"
                         "After the figure, Ben passes.\n\n## Scoring\n\nCount your points.\n"}
    aside = "!fill\n### A short aside\nKeep your cards hidden.\n"
    pages = [" ".join(page.split()) for page in _pages(tmp_path, _game(tmp_path, chapters, {"aside": aside}))]
    figure = next(n for n, page in enumerate(pages) if "The star Ana plays" in page)
    assert "Ana plays a card" in pages[figure - 1]                                  # the paragraph begins
    assert pages[figure].index("Ben answers it.") < pages[figure].index("The star Ana plays")  # and ends
    joined = " ".join(pages).upper()
    assert "A SHORT ASIDE" not in joined or joined.index("A SHORT ASIDE") > joined.index("AFTER THE FIGURE")
