"""Where a booklet's padding pages go, and what ``pnp validate`` says of them (issue 37, "Pages that do not
earn their space", found reading designers' kits page by page).

A saddle-stitched booklet has a multiple of 4 pages. Before, pnp put the padding before the last chapter
whatever it was, so a designer's short rulebook read: contents, a blank page, then the rules (Dusk
Orchard, Lantern Night), or the rules, a blank page, then "The end of the game" (Tide Clock); the fill
blocks never reached a last page after the padding; the page-fill warning named pages as if the padding
were not there; and rulebook.yaml's ``pages: 8`` printed 5 blank pages of 8 without a word (Lantern
Ferry)."""

from pathlib import Path

from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.draw.document import MARGIN
from pnp.units import half_sheet, pt

from rasterize import page_texts

GAMES = Path(__file__).resolve().parent / "games"
SHORT = "Each player draws two cards and plays one of them face up."


def _game(tmp_path, chapters: dict, fill: dict | None = None, extra: str = "") -> Path:
    """The starter game of ``pnp new`` with these chapters (None: pnp's shared one) and fill templates."""
    game = tmp_path / "g"
    if not game.exists():
        assert CliRunner().invoke(main, ["new", str(game)]).exit_code == 0
    folder = game / "templates" / "rulebook" / "en"
    for name, text in {**chapters, **(fill or {})}.items():
        if text is not None:
            (folder / f"{name}.md.j2").write_text(text)
    (game / "rulebook.yaml").write_text(f"chapters: [{', '.join(chapters)}]\nfill: [{', '.join(fill or {})}]\n"
                                        f"{extra}")
    return game


def _pages(tmp_path, game, *args) -> list[str]:
    out = tmp_path / "kit"
    result = CliRunner().invoke(main, ["build", str(game), "--out", str(out), "--no-cache", *args])
    assert result.exit_code == 0, result.output
    return page_texts(out / "rulebook.pdf")


def _blank(text: str) -> bool:
    return not text.strip()


def test_padding_follows_the_last_chapter_unless_it_is_the_back_cover(tmp_path):
    """Three pages of content padded to four: the blank page is the last one (before, "The end" was set
    on page 4 after a blank page 3)."""
    chapters = {"cover": None, "rules": f"# Rules\n\n{SHORT}\n", "end": f"# The end\n\n{SHORT}\n"}
    pages = _pages(tmp_path, _game(tmp_path, chapters))
    assert len(pages) == 4
    assert "Rules" in pages[1] and "The end" in pages[1]
    assert _blank(pages[2]) and _blank(pages[3])


def test_a_back_cover_keeps_the_back_page(tmp_path):
    chapters = {"cover": None, "rules": f"# Rules\n\n{SHORT}\n",
                "reference": f"!back\n# Quick reference\n\n{SHORT}\n"}
    pages = _pages(tmp_path, _game(tmp_path, chapters))
    assert len(pages) == 4
    assert "Rules" in pages[1] and _blank(pages[2]) and "Quick reference" in pages[3]


def test_a_test_games_rules_follow_its_contents_without_a_blank_page():
    """Dusk Orchard (contents, then one chapter): its rules on page 2 under the contents, the padding
    after them (was: contents alone on page 2, 92 % empty, a blank page 3, the rules on page 4)."""
    from pnp.draw.icons import for_game
    from pnp.loading.gamedata import load_game
    from pnp.rulebook.component import laid_booklet

    game = load_game(GAMES / "dusk_orchard")
    with for_game(game):
        pdf, pages, content, empty = laid_booklet(game, "letter", "en")
    texts = page_texts(pdf)
    assert (pages, content, empty) == (4, 2, ())
    assert "Contents" in texts[1] and "How to play" in texts[1].split("Contents", 1)[1].split("\n", 2)[-1]
    assert _blank(texts[2]) and _blank(texts[3])


def _full_page_then_notes(tmp_path, fill: dict) -> Path:
    """A booklet whose rules fill page 2 but for a few lines, then an explicit padding point (``!notes``)
    and a short last chapter: 3 pages of content, padded to 4 before the last."""
    frame = pt(half_sheet("letter")[1] - MARGIN["top"] - MARGIN["bottom"])
    chapters = {"cover": None, "rules": f"# Rules\n\n{SHORT}\n\n!space {{{{ gap }}}}\n\n{SHORT}\n\n!space {{{{ gap }}}}\n\n{SHORT}\n",
                "end": f"!notes\n# The end\n\n{SHORT}\n"}
    game = _game(tmp_path, chapters, fill)
    rules = game / "templates" / "rulebook" / "en" / "rules.md.j2"
    template = rules.read_text()
    # the room page 2 leaves without the space, then a space that leaves about 40 pt of it
    from pnp.draw.document import empty_pages
    from pnp.loading.gamedata import load_game
    from pnp.rulebook import component

    def room(gap: float) -> tuple:
        rules.write_text(template.replace("{{ gap }}", f"{gap / 2:g}"))     # !space takes 300 pt at most
        g = load_game(game)
        cfg, figures, chs, fills, words, size, _, _ = component._prepared(g, "letter", "en")
        laid = component.lay_out(g, cfg, component.with_spare(chs), size, "en", words, figures)
        return len(laid.pages), dict(empty_pages(laid, size, 0.0)).get(2, 0.0)

    pages, share = room(0)
    assert pages == 3
    gap = share * frame - 40
    pages, share = room(gap)
    assert pages == 3 and 0.02 < share < 0.12, share        # page 2 full but for about 40 pt
    return game


ASIDE = ("!fill\n### While you wait\nKeep your hand hidden. Count the cards left in the deck. Plan the next "
         "round. Watch what the others keep.\n\nA player who passes draws one card.\n")


def test_a_fill_block_too_tall_for_the_page_before_the_padding_still_fills_the_last_page(tmp_path):
    """The page before the padding is offered to the fill blocks first, as a whole page; a block that did
    not fit its real room was then taken as too tall for every page, and the last page (Tide Clock's
    "The end of the game", 81 % empty) got nothing."""
    game = _full_page_then_notes(tmp_path, {"aside": ASIDE})
    pages = _pages(tmp_path, game)
    assert len(pages) == 4 and _blank(pages[2])
    assert "The end" in pages[3] and "WHILE YOU WAIT" in pages[3].upper()


def test_validate_names_a_page_after_the_padding_by_its_printed_number(tmp_path):
    game = _full_page_then_notes(tmp_path, {})
    pages = _pages(tmp_path, game)
    assert "The end" in pages[3]
    result = CliRunner().invoke(main, ["validate", str(game), "--no-cache"])
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if "on letter paper" in line and "third empty" in line)
    assert "1 page of the booklet on letter paper in 'en' is more than a third empty: page 4 (" in line


def test_a_length_that_leaves_pages_blank_is_a_warning_at_its_line(tmp_path):
    """Lantern Ferry asks for ``pages: 8``: 3 pages of rules and 5 blank ones."""
    chapters = {"cover": None, "rules": f"# Rules\n\n{SHORT}\n", "end": f"# The end\n\n{SHORT}\n"}
    game = _game(tmp_path, chapters, extra="pages: 8\n")
    result = CliRunner().invoke(main, ["validate", str(game), "--no-cache"])
    assert result.exit_code == 0, result.output
    found = [line for line in result.output.splitlines() if "pages: 8 leaves" in line]
    assert found == [
        f"{game / 'rulebook.yaml'}:3: warning: rulebook: pages: 8 leaves 6 pages blank: the chapters take 2 pages "
        f"on {paper} paper in 'en', and a booklet of 4 holds them; ask for pages: 4 (or leave pages out), write "
        f"more, or say notes: true for ruled Notes pages" for paper in ("letter", "a4")]
    # ruled Notes pages are a choice; the least length is no surplus
    for extra in ("pages: 8\nnotes: true\n", "pages: 4\n"):
        game = _game(tmp_path, chapters, extra=extra)
        result = CliRunner().invoke(main, ["validate", str(game), "--no-cache"])
        assert result.exit_code == 0 and "pages blank" not in result.output, result.output
