"""Figures a reader can read (issue 37, defect 4): a figure's own words (a map's or a board's labels, not
a card's drawn at scale) never print below 6 pt, which ``pnp validate`` checks for any game at the
template's line; a map figure of a position names the pieces it shows, not the map's start, and no
piece hides the name of the holding it stands on."""

import shutil

import pytest
from click.testing import CliRunner

from pnp import DATA_DIR
from pnp.rulebook.chapters import chapter_markup, load_config
from pnp.commands.cli import main
from pnp.rulebook.component import context, small_labels
from pnp.draw.icons import for_game
from pnp.rulebook.figures import MIN_LABEL_PT, Figures, labels
from pnp.layout.geometry import Circle, Text, Transform
from pnp.loading.gamedata import load_game

GAMES = ["shadow_throne", "behind_the_throne", "shadow_queen", "shadow_kingdoms_of_valeria"]


def _figures(game):
    cfg = load_config(game)
    with for_game(game):
        figures = Figures(game, game.language)
        chapter_markup(game, cfg, context(game, cfg, game.language, figures), game.language)
    return figures


@pytest.mark.parametrize("game_id", GAMES)
def test_every_figure_of_the_bundled_rulebooks_prints_its_words_at_6_pt_or_more(game_id):
    game = load_game(game_id)
    figures = _figures(game)
    with for_game(game):
        for paper in ("letter", "a4"):
            assert [str(p) for p in small_labels(figures, paper)] == []
    if game_id in ("shadow_queen", "shadow_kingdoms_of_valeria"):      # maps and boards: words to check
        assert sum(len(labels(d)) for d in figures.drawings) > 10


def test_validate_names_the_line_of_a_figure_whose_words_are_too_small(tmp_path):
    game = tmp_path / "valeria"
    shutil.copytree(DATA_DIR / "shadow_kingdoms_of_valeria", game)
    chapter = game / "templates" / "rulebook" / "en" / "battle.md.j2"
    lines = chapter.read_text("utf-8").split("\n")
    line = next(k for k, text in enumerate(lines) if "figure.board(" in text)
    lines[line] = lines[line].replace("scale=0.8,", "scale=0.4,")
    chapter.write_text("\n".join(lines), "utf-8")
    result = CliRunner().invoke(main, ["validate", str(game), "--no-cache"])
    assert result.exit_code == 2, result.output
    assert (f"battle.md.j2:{line + 1}: figure.board: its words print at 3.2 pt on letter paper ('4')"
            in result.output), result.output
    assert "smaller than 6 pt: draw it at scale=0.75 or more" in result.output


def _texts(elements, out=None):
    out = [] if out is None else out
    for e in elements:
        if isinstance(e, Transform):
            _texts(e.elements, out)
        elif isinstance(e, (Text, Circle)):
            out.append(e)
    return out


def test_a_map_figure_names_its_pieces_and_shows_the_holdings_name_above_a_piece():
    """The attack example: a Peasant in Millford (0808), a Shadow on 0708 (a Thrall's start: the map
    prints "Thrall" there), a Soldier on 0809 (a Peasant's start)."""
    game = load_game("shadow_queen")
    figures = Figures(game)
    with for_game(game):
        figures.map(around=["0708", "0808", "0809"], radius=1.1, pieces={"0808": "peasant", "0708": "shadow",
                                                                 "0809": "soldier"}, scale=0.6)
    els = _texts(figures.drawings[-1].elements)
    texts = [e for e in els if isinstance(e, Text)]
    assert not [t.markup for t in texts if t.role.startswith("start:")]         # no start label of the map
    named = {t.role.split(":")[1]: t.markup for t in texts if t.role.startswith("piece-label:")}
    assert named == {"shadow": "Shadow", "soldier": "Soldier"}                 # the holding's piece: its name shows
    millford = next(t for t in texts if t.role == "holding-name" and t.markup == "Millford")
    pieces = [e for e in els if isinstance(e, Circle) and e.role.startswith("piece:")]
    for p in pieces:
        r = millford.rect
        nearest_x = min(max(p.cx, r.x), r.right)
        nearest_y = min(max(p.cy, r.y), r.top)
        assert (nearest_x - p.cx) ** 2 + (nearest_y - p.cy) ** 2 > p.r ** 2, f"{p.role} hides Millford"
    # the words are set large enough to read at the figure's scale
    assert min(t.style.size for t in texts) * 0.6 >= MIN_LABEL_PT - 0.01


@pytest.mark.parametrize("game_id", GAMES)
def test_a_hand_figure_leaves_every_cards_name_in_sight(game_id):
    """A fan of cards shows each card's printed name whole: the next card starts right of its ink."""
    from pnp.draw.text import ink_rect
    from pnp.text.markup import plain_text

    game = load_game(game_id)
    names = {c.name.lower() for c in game.cards} | {c.side_b.name.lower() for c in game.cards if c.side_b}
    figures = _figures(game)
    hands = [d for d in figures.drawings if d.kind == "hand" and len(d.elements) > 1]
    assert hands or game_id == "shadow_queen"
    checked = 0
    with for_game(game):
        for d in hands:
            cards = [e for e in d.elements if isinstance(e, Transform) and e.role == "figure-card"]
            for card, after in zip(cards, cards[1:]):
                shown = [t for t in card.elements if isinstance(t, Text) and plain_text(t.markup).strip().lower() in names]
                for t in shown:
                    ink = ink_rect(t.rect, t.markup, t.style)
                    assert card.matrix[4] + ink.right < after.matrix[4], (d.caption, t.markup)
                    checked += 1
    assert checked or not hands


@pytest.mark.parametrize("lang,example,caption", [
    ("en", "EXAMPLE: HUSH MONEY", "The power track: Empire 1, Rebels 1, Church 3"),
    ("es", "EJEMPLO: ORO POR SILENCIO", "El Marcador de Poder: Imperio 1, Rebeldes 1, Iglesia 3")])
def test_the_hush_money_table_follows_its_example(built_kit, lang, example, caption):
    """The figure of the hush money example's table comes with or after the example that explains it (it
    was a chapter earlier, a page before)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(built_kit("shadow_throne", lang) / "rulebook.pdf")
    try:
        text = " ".join(" ".join(doc[i].get_textpage().get_text_range().split()) for i in range(len(doc)))
    finally:
        doc.close()
    assert text.upper().count(example) == 1 and text.count(caption) == 1
    assert text.upper().index(example) < text.index(caption)
