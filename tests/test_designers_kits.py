"""Defects found reading designers' kits page by page (issue 37: "no defect of the kinds above in any game's
kit, ours or a designer's"): a player aid with its lower half blank, and a box whose contents leave out
pieces the kit makes. Each is made by pnp's own drawing (fixed in pnp) or is the designer's data, which
``pnp validate`` now names at its line."""

import shutil
from pathlib import Path

from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.components.cards import aid_elements
from pnp.components.emptiness import face_empty
from pnp.draw.icons import using
from pnp.draw.text import fit
from pnp.layout.space import MAX_EMPTY_SHARE
from pnp.loading.gamedata import load_game

GAMES = Path(__file__).resolve().parent / "games"

#: A quick reference of four short rules, as Lantern Ferry's (in our words): at 9 pt it left 31 % of the
#: card empty below it.
FOUR_RULES = """# Quick reference
**Lead** any star; the others **follow** its colour if they can.
**Toll:** pay one light to play a star of another colour as if it followed.
The highest star of the colour led takes the round. A **1** beats a **9** of its colour.
Score 1 for each round you take, and 1 for each [wish] on the stars you took. First to **30** wins.
"""


def _starfall(tmp_path, aid: str | None = None) -> Path:
    folder = tmp_path / "starfall"
    shutil.copytree(GAMES / "starfall", folder)
    if aid is not None:
        (folder / "templates" / "aids" / "en" / "quick_reference.md.j2").write_text(aid)
    return folder


def _aid(folder):
    game = load_game(folder)
    deck = next(d for d in game.decks if d.aid_copies)
    with using(game.icons):
        elements = aid_elements(game, deck)
        body = next(e for e in elements if e.role == "aid-body")
        return fit(body.markup, body.style, body.rect.w, body.rect.h).size, face_empty(elements, (deck.width, deck.height))


def test_a_short_player_aid_prints_larger_and_fills_its_card(tmp_path):
    size, empty = _aid(_starfall(tmp_path, FOUR_RULES))
    assert size > 9.0                   # was set at 9 pt whatever room it had
    assert empty.share <= MAX_EMPTY_SHARE, empty
    result = CliRunner().invoke(main, ["validate", str(tmp_path / "starfall"), "--no-cache"])
    assert result.exit_code == 0 and "player aid" not in result.output, result.output


def test_a_dense_player_aid_is_set_as_before():
    """Shadow Throne's quick reference fills its card at 8.25 pt: the larger size it may now take changes
    nothing there."""
    game = load_game("shadow_throne")
    deck = next(d for d in game.decks if d.aid_copies)
    with using(game.icons):
        body = next(e for e in aid_elements(game, deck) if e.role == "aid-body")
        assert fit(body.markup, body.style, body.rect.w, body.rect.h).size == 8.25


def test_a_player_aid_too_short_for_its_card_is_a_warning_at_its_template(tmp_path):
    """Starfall's four one-line rules leave 42 % of the card blank even at the largest size."""
    folder = _starfall(tmp_path)
    result = CliRunner().invoke(main, ["validate", str(folder), "--no-cache"])
    assert result.exit_code == 0, result.output
    found = [line for line in result.output.splitlines() if "player aid" in line]
    template = folder / "templates" / "aids" / "en" / "quick_reference.md.j2"
    assert len(found) == 1 and found[0].startswith(f"{template}:1: warning: deck 'stars': player aid: its text, "
                                                   f"at 10.5 pt, the largest a player aid prints, leaves "), found
    assert "% of the card empty in one area (" in found[0] and "at the bottom" in found[0]


def _contents_warning(folder) -> list[str]:
    result = CliRunner().invoke(main, ["validate", str(folder), "--no-cache"])
    assert result.exit_code == 0, result.output
    return [line for line in result.output.splitlines() if ": warning: contents: " in line]


def test_box_contents_that_leave_out_a_component_are_a_warning_at_their_line(tmp_path):
    """Starfall's box lists its cards, aids and tokens, not its two tracks, its board or its rulebook
    (Tide Clock's left out its track, both boards and its standees)."""
    folder = _starfall(tmp_path)
    found = _contents_warning(folder)
    assert found == [f"{folder / 'box.yaml'}:5: warning: contents: no line lists Score (track 'score'), Tide "
                     f"(track 'tide'), Observatory (board 'observatory'), rulebook (rulebook 'rulebook'), which "
                     f"the kit makes: the box and the rulebook's back cover print these lines as what is in the box "
                     f"and beside it; add a line for each (a count and its name, in_box: false for what travels "
                     f"beside the box)"]
    # a line naming each by a word of its title, id or kind; the cards by each deck; no aids line
    box = folder / "box.yaml"
    text = box.read_text().replace("  - {count: aids, item: reference cards}\n", "")
    box.write_text(text + "  - {count: 1, item: score track}\n  - {count: 1, item: tide track}\n"
                          "  - {count: 4, item: Observatory tiles}\n  - {count: 1, item: rules booklet}\n")
    found = _contents_warning(folder)
    assert len(found) == 1 and "no line lists the 2 player aids (count: aids), which" in found[0], found


def test_our_games_and_the_starter_list_everything_they_make(tmp_path):
    for game in ("shadow_throne", "behind_the_throne", "shadow_kingdoms_of_valeria", "shadow_queen"):
        assert _contents_warning(game) == [], game
    starter = tmp_path / "new"
    assert CliRunner().invoke(main, ["new", str(starter)]).exit_code == 0
    assert _contents_warning(starter) == []


def _widths(markup: str, width: float = 300.0):
    from pnp.draw.document import _column_widths
    from pnp.text.markup import TableBlock, parse

    (table,) = [n for n in parse(markup) if isinstance(n, TableBlock)]
    return _column_widths(table, width)


def test_a_table_of_numbers_is_as_wide_as_its_content():
    """Lantern Ferry's "Players / Cards each / Set aside" and Starfall's "Deck / Cards" were spread over the
    whole column, the numbers under headers twice their width and far from their names (issue 37,
    "columns much wider than content"); such a table is now set at its content's width."""
    numbers = _widths("| Players | Cards each | Set aside |\n|---|---|---|\n| 2 | 12 | 12 |\n| 3 | 10 | 6 |\n")
    assert sum(numbers) < 2 / 3 * 300.0
    assert _widths("| Deck | Cards |\n|---|---|\n| Stars | 7 |\n| Omens | 5 |\n")[1] < 45.0
    # a column of words still takes the room to spare, the numbers beside it as wide as their content
    words = _widths("| Suit | Effect |\n|---|---|\n| 2 | Lower the tide |\n| 3 | Hold a boat |\n")
    assert abs(sum(words) - 300.0) < 0.01 and words[0] < 45.0


def test_a_short_word_of_the_cover_title_goes_on_a_line_with_the_next():
    """Tidewardens' Spanish cover read GUARDIANES / DE / LA / MAREA, Les Gardiens du port's LES / GARDIENS /
    DU / PORT: a title a word a line left articles and prepositions alone on their lines."""
    from pnp.draw.icons import for_game
    from pnp.loading.i18n import translate
    from pnp.rulebook.component import laid_booklet

    from rasterize import page_texts

    covers = {}
    for game_id, lang in (("tidewardens", "es"), ("gardiens", "fr")):
        game = load_game(GAMES / game_id)
        game = translate(game, lang) if lang != game.language else game
        with for_game(game, lang):
            pdf = laid_booklet(game, "letter", lang)[0]
        covers[game_id] = page_texts(pdf)[0].splitlines()
    assert covers["tidewardens"][:2] == ["GUARDIANES", "DE LA MAREA"]
    assert covers["gardiens"][:2] == ["LES GARDIENS", "DU PORT"]
