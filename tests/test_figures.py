"""Rulebook figures (pnp/rulebook/figures.py): each is laid out by the printed piece's own code, at the size asked;
a designer's own game can use them; a figure naming something the game lacks is a validation error at
the template's line with the closest name; pages to spare hold the spare content (!spare), not blanks."""


import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.components.cards import laid_out_face, printed_mark
from pnp.rulebook.component import booklet, without_spare
from pnp.draw.icons import using
from pnp.rulebook.figures import Figures
from pnp.loading.gamedata import load_game
from pnp.layout.geometry import Rect, Text, Transform, flatten
from rasterize import booklet_text, page_texts




def figures_of(game_id, lang="en"):
    game = load_game(game_id)
    return game, Figures(game, lang)


def test_a_card_figure_is_the_printed_face_of_its_first_copy():
    game, figures = figures_of("shadow_throne")
    assert str(figures.card("outlaw", scale=0.4)) == "!figure 0"
    drawing = figures.drawings[0]
    deck = game.deck_of(game.card("outlaw"))
    assert (drawing.width, drawing.height, drawing.scale) == (deck.width, deck.height, 0.4)
    printed = laid_out_face(game, deck, game.card("outlaw"), "en", printed_mark(game, game.card("outlaw"), 1),
                            (deck.width, deck.height), 0.0)
    assert list(drawing.elements[:-1]) == list(printed)             # the same elements, and an edge round them
    assert drawing.elements[-1].rect == Rect(0, 0, deck.width, deck.height)


def test_a_token_lies_on_the_cards_a_figure_names_as_the_kit_prints_it():
    game, figures = figures_of("shadow_throne")
    figures.hand(["outlaw", "mutinous-soldier"], overlap=-0.05, tokens={"outlaw": "converted"})
    outlaw, soldier = figures.drawings[0].elements
    w, h = game.deck_of(game.card("outlaw")).width, game.deck_of(game.card("outlaw")).height
    on = [e for e in outlaw.elements if getattr(e, "role", "") == "token:converted"]
    assert [e for e in soldier.elements if getattr(e, "role", "").startswith("token:")] == []
    # the token's front, 16 mm across (its size, under a third of the card), centred at (0.74 w, 0.58 h)
    size = 16.0
    assert len(on) == 1 and on[0].matrix == (1.0, 0, 0, 1.0, w * 0.74 - size / 2, h * 0.58 - size / 2)
    token_els, extent = figures.token_face(*figures._tokens()["converted"])
    assert on[0].elements == token_els and extent == size
    figures.card("outlaw", token="converted")
    assert figures.drawings[1].elements[-1].role == "token:converted"


def test_a_track_figure_shows_the_spaces_asked_and_nothing_of_the_next_row():
    game, figures = figures_of("shadow_throne")
    figures.track(markers={"empire": 1, "rebels": 1, "church": 3}, spaces=[1, 5])
    drawing = figures.drawings[0]
    # five 38 mm spaces and half a millimetre round them for their outline
    assert (round(drawing.width, 2), round(drawing.height, 2)) == (191.0, 39.0)
    (group,) = drawing.elements
    window = group.clip
    numbers = [e for e in flatten(group.elements) if isinstance(e, Text) and e.role == "number"
               and window.overlaps(e.rect)]
    assert sorted(int(str(e.markup)) for e in numbers) == [1, 2, 3, 4, 5]
    markers = {e.role for e in group.elements if getattr(e, "role", "").startswith("marker:")}
    assert markers == {"marker:1", "marker:3"}


def test_a_track_figure_sets_the_faction_tokens_on_their_spots_in_the_start_area():
    """A setup figure (Shadow Throne's back cover): markers at 'start' are the factions' own tokens
    (tokens.yaml's on_track), each centred on its spot; the figure is the start area, whose words (8 pt on
    the track, 3 pt at the figure's scale) are left out and whose box loses their band."""
    game, figures = figures_of("shadow_throne")
    figures.track(markers={"empire": "start", "rebels": "start", "church": "start"}, scale=0.4)
    drawing = figures.drawings[0]
    (group,) = drawing.elements
    spots = {e.role[len("start:"):]: e for e in group.elements if getattr(e, "role", "").startswith("start:")}
    tokens = {e.role: e for e in group.elements if getattr(e, "role", "").startswith("token:")}
    assert set(spots) == {"empire", "rebels", "church"}
    assert set(tokens) == {"token:faction-empire", "token:faction-rebels", "token:faction-church"}
    for faction, spot in spots.items():
        matrix = tokens[f"token:faction-{faction}"].matrix
        size = spot.r * 2 - 3.0
        assert matrix[0] * 25.0 == pytest.approx(size)                  # the 25 mm token, inside its spot
        assert (matrix[4] + size / 2, matrix[5] + size / 2) == pytest.approx((spot.cx, spot.cy), abs=0.01)
    # no words but the tokens' own; the window is the start area's box, centred on the spots
    inside = [e for e in group.elements if not getattr(e, "role", "").startswith("token:")]
    assert not [e for e in flatten(inside) if isinstance(e, Text) and group.clip.overlaps(e.rect)]
    (area,) = [e for e in group.elements if getattr(e, "role", "") == "start-area"]
    assert (drawing.width, drawing.height) == pytest.approx((area.rect.w + 1.0, area.rect.h + 1.0))
    assert area.rect.y + area.rect.h / 2 == pytest.approx(next(iter(spots.values())).cy, abs=0.01)
    # with spaces: the start area above the first row
    figures.track(markers={"empire": "start"}, spaces=[1, 5])
    assert figures.drawings[1].height > area.rect.h + 38.0


@pytest.mark.parametrize("game_id,call", [
    ("shadow_throne", lambda f: f.track(markers={"empire": 1}, spaces=[1, 5])),
    ("shadow_throne", lambda f: f.track(markers={"empire": "start"})),
    ("shadow_kingdoms_of_valeria", lambda f: f.board("board", around=["shrine[0]"], margin=2, scale=0.72)),
])
def test_a_figure_keeps_no_words_outside_its_window(game_id, call):
    """A figure's window clipped the track's title and its other spaces' numbers, the game board's other
    shrine names ("AWARDS MAGIC ... CHAMPIONS SHRINE" under Valeria's Gem shrine): hidden, yet in the PDF's
    text, copied with the page and found by a search. Words wholly outside the window are left out."""
    game, figures = figures_of(game_id)
    call(figures)
    (group, *_) = figures.drawings[0].elements
    texts = [e for e in flatten(group.elements) if isinstance(e, Text)]
    assert all(group.clip.overlaps(e.rect) for e in texts), [
        str(e.markup) for e in texts if not group.clip.overlaps(e.rect)]


def test_a_map_figure_shows_whole_pieces_and_tokens_and_cuts_no_words():
    game, figures = figures_of("shadow_queen")
    figures.map(around="0705", radius=1.0, pieces={"0705": "shadow", "0706": "bridge", "0806": "peasant",
                                                   "0805": "priest"})
    (group, edge) = figures.drawings[0].elements
    window = group.clip
    discs = [e for e in group.elements if getattr(e, "role", "").startswith("piece:")
             and window.contains(Rect(e.cx, e.cy, 0, 0))]
    assert {e.role for e in discs} >= {"piece:shadow", "piece:priest"}
    for disc in discs:                                       # the window grew to hold each piece it reached
        assert window.contains(Rect(disc.cx - disc.r, disc.cy - disc.r, 2 * disc.r, 2 * disc.r))
    (bridge,) = [e for e in group.elements if isinstance(e, Transform) and e.role == "token:bridge"]
    texts = [e for e in group.elements if isinstance(e, Text)]
    assert texts and all(window.contains(e.rect, 0.3) for e in texts)
    assert edge.rect == Rect(0, 0, window.w, window.h)


def _cut(drawing):
    """The rings and icons of a map, board or track figure that its window cuts (partly inside, partly
    outside), by role."""
    from pnp.layout.geometry import Circle, Group, Icon

    group = drawing.elements[0]
    window, out = group.clip, []

    def walk(elements, dx, dy):
        for e in elements:
            if isinstance(e, Group):
                walk(e.elements, dx + e.dx, dy + e.dy)
                continue
            if isinstance(e, Circle):
                r = e.r + (e.width / 2 if e.stroke else 0.0)
                box = Rect(e.cx - r + dx, e.cy - r + dy, 2 * r, 2 * r)
            elif isinstance(e, Icon):
                box = Rect(e.cx - e.size / 2 + dx, e.cy - e.size / 2 + dy, e.size, e.size)
            else:
                continue
            if window.overlaps(box) and not window.contains(box, 0.01):
                out.append(e.role)

    walk(group.elements, 0.0, 0.0)
    return out


def test_the_river_figure_shows_the_holding_at_its_edge_whole_with_its_name():
    """Shadow Queen's river figure (the movement chapter: a Shadow crossing at the bridge) cut the ring of
    Ford Pen in half at its right edge, and the Millford ring's top at its foot, with a forest's and a
    cave's marks: on main its window cut four. A ring or an icon the window would cut is now shown whole,
    the window grown round it (Ford Pen, more than half inside, with its name), or left out (Millford's
    ring, a sliver inside)."""
    game, figures = figures_of("shadow_queen")
    figures.map(around=["0705", "0707"], radius=1.05, pieces={"0705": "shadow", "0706": "bridge"},
                arrows=[["0705", "0706"], ["0706", "0707"]], scale=0.85)
    drawing = figures.drawings[0]
    assert _cut(drawing) == []
    group = drawing.elements[0]
    roles = {getattr(e, "role", "") for e in group.elements}
    assert "holding:pen-ford" in roles and "holding:village-mill" not in roles
    names = [str(e.markup) for e in group.elements if isinstance(e, Text) and e.role == "holding-name"]
    assert names == ["Ford Pen"]
    assert drawing.elements[1].rect == Rect(0, 0, group.clip.w, group.clip.h)


@pytest.mark.parametrize("game_id,kinds", [("shadow_queen", ("map",)),
                                            ("shadow_kingdoms_of_valeria", ("board",)),
                                            ("shadow_throne", ("track",))])
def test_no_figure_window_of_a_booklet_cuts_a_ring_or_an_icon(game_id, kinds):
    """Every map, board and track figure a booklet draws: no ring or icon cut by the figure's edge. On
    main, Shadow Queen's river figure cut two holdings and two terrain marks, the Lure figure a bridge
    site; Valeria's campaign-map corner showed slivers of the chain bonuses round it, and its shrine
    figure cut the Gem shrine's disc at both sides. Every holding ring a map figure shows keeps its name
    (the examples' figures, at 0.6, showed empty rings: their names, set larger to stay legible, were
    wider than the window)."""
    from pnp.draw.icons import for_game
    from pnp.rulebook.component import _prepared

    game = load_game(game_id)
    with for_game(game, "en"):
        figures = _prepared(game, "letter", "en")[1]
    shown = [d for d in figures.drawings if d.kind in kinds]
    assert shown
    for d in shown:
        assert _cut(d) == [], d.caption
        group = d.elements[0]
        rings = [e for e in group.elements if getattr(e, "role", "").startswith("holding:")
                 and group.clip.overlaps(Rect(e.cx - e.r, e.cy - e.r, 2 * e.r, 2 * e.r))]
        named = [e for e in group.elements if isinstance(e, Text) and e.role == "holding-name"
                 and group.clip.contains(e.rect, 0.3)]
        assert len(named) == len(rings), d.caption


def test_a_die_figure_is_its_sticker_face():
    game, figures = figures_of("shadow_kingdoms_of_valeria")
    figures.die("orc", 5, scale=0.8)
    drawing = figures.drawings[0]
    assert drawing.width == drawing.height and drawing.scale == 0.8
    assert any(getattr(e, "markup", "") == "5" for e in flatten(drawing.elements))


@pytest.mark.parametrize("call, message", [
    ("figure.card('lanturn')", "figure.card: no card 'lanturn' in the game (did you mean 'lantern'?)"),
    ("figure.hand(['lantern', 'tidewach'])", "figure.hand: no card 'tidewach' in the game (did you mean 'tidewatch'?)"),
    ("figure.token('light-6')", "figure.token: no token 'light-6' (did you mean 'light-5'?)"),
    ("figure.token('light-5', side='top')", "figure.token: side 'top': front or back"),
    ("figure.board('observatori')", "figure.board: no board component 'observatori' (did you mean 'observatory'?)"),
    ("figure.track(component='scor')", "figure.track: the game has no track component 'scor'"),
    ("figure.track(component='score', markers={'dawm': 3})",
     "figure.track: markers: no faction 'dawm' (did you mean 'dawn'?)"),
    ("figure.map(around='0101')", "figure.map: the game has no map"),
    ("figure.die('orc', 5)", "figure.die: the game has no dice component"),
    ("figure.grid([0, 9])", "figure.grid: cells [0, 9]: numbers from 0 to 8"),
    ("figure.card('lantern', token='light-6')", "figure.card: no token 'light-6' (did you mean 'light-5'?)"),
    ("figure.hand(['lantern'], tokens={'lantern': 'ligth-5'})", "figure.hand: no token 'ligth-5' (did you mean 'light-5'?)"),
    ("figure.hand(['lantern'], tokens={'tidewatch': 'light-5'})",
     "figure.hand: tokens: 'tidewatch' is not one of the figure's cards"),
])
def test_a_figure_naming_what_the_game_lacks_is_an_error_at_its_template_line(starfall, call, message):
    rules = starfall / "templates" / "rulebook" / "en" / "rules.md.j2"
    text = rules.read_text()
    rules.write_text(text + f"\nA figure:\n\n{{{{ {call} }}}}\n")
    line = len((text + "\nA figure:\n\n").splitlines()) + 1
    result = CliRunner().invoke(main, ["validate", str(starfall)])
    assert result.exit_code == 2, result.output
    assert f"templates/rulebook/en/rules.md.j2:{line}: {message}" in result.output, result.output


def test_a_designers_game_prints_its_own_pieces_as_figures(starfall):
    rules = starfall / "templates" / "rulebook" / "en" / "rules.md.j2"
    rules.write_text(rules.read_text() + """
## What they look like

{{ figure.card('lantern', scale=0.4, caption="A bright star") }}
{{ figure.hand(['tidewatch', 'pale-moon'], scale=0.3, caption="A hand of dim stars") }}
{{ figure.token('comet-token', caption="The comet") }}

{{ figure.track(component='score', markers={'dawn': 3, 'dusk': 5}, spaces=[0, 6], scale=0.4,
                caption="Dawn on 3, Dusk on 5") }}
""")
    game = load_game(starfall)
    with using(game.icons, "en"):
        figures = Figures(game, "en")
        from pnp.rulebook.component import context
        from pnp.rulebook.chapters import chapter_markup, load_config

        cfg = load_config(game)
        chapters = chapter_markup(game, cfg, context(game, cfg, "en", figures), "en")
    assert [d.kind for d in figures.drawings] == ["card", "hand", "token", "track"]
    assert not list(figures.problems)
    pdf, pages, _ = booklet(game, "letter", "en")
    text = booklet_text(pdf)
    assert pages == 4
    for caption in ("A bright star", "A hand of dim stars", "The comet", "Dawn on 3, Dusk on 5"):
        assert caption in text
    assert "!figure" not in text and chapters


def test_spare_content_fills_pages_the_booklet_would_pad_and_only_those(built_kit):
    chapters = [("a", "# A\n\ntext\n!spare\n## More\n\nmore"), ("b", "# B\n\nend")]
    short, full = without_spare(chapters)
    assert short == [("a", "# A\n\ntext\n\n\n\n"), ("b", "# B\n\nend")]               # same line numbers,
    assert full == [("a", "# A\n\ntext\n\n## More\n\nmore"), ("b", "# B\n\nend")]   # with or without it
    # Shadow Throne on A4 has a page to spare: the tokens at actual size take it, not a blank page (the
    # rulebooks of kits other modules share: conftest.built_kit)
    a4 = booklet_text(built_kit("shadow_throne", "en", "a4") / "rulebook.pdf")
    assert "The tokens, actual size" in a4                 # a kind's tokens share one caption ("Gold tokens")
    assert "Gold tokens" in a4[a4.index("The tokens, actual size"):]
    # on Letter they take the room the card index leaves on its last page, and add no page (before issue
    # 37's figure of the battle's end moved the card index on, the cards filled that page: no tokens)
    pages = page_texts(built_kit("shadow_throne", "en", "letter") / "rulebook.pdf")
    assert len(pages) == 16 and "The tokens, actual size" in "".join(pages)
