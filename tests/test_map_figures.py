"""Map and board figures (issue 37, "Figures"): a figure's window shows no sliver of a shape, and a map's
words keep clear of rings, pieces and each other.

- Figure windows kept rings and icons whole (grown round one half inside, else left out) but cut every
  other shape: Shadow Queen's figures showed halves and slivers of hexes at their edges (the river
  figure nine, the terrain figures the six neighbours of their hex), with hex numbers and rims cut with
  them. Every shape is now kept whole or left out, with the words set in it; a map figure closes in on
  the hexes it keeps.
- Shadow Queen's map printed each holding's hex number across the top of its ring ("0804" on Ford Pen's,
  "0808" on Millford's), in the kit's map and in every figure, with a piece's name ("Familiar") just
  above; the examples' start figure printed "bridge site" across its dashed ring. A holding's number is
  now printed inside its ring, and a figure moves a word that would touch a ring, a piece, an arrow or
  another word within its hex, or leaves it out (a site's name under the bridge built on it).
- A word is kept off the hex outlines too where its hex has room (the examples' start figures printed
  "Messenger" across its hex's lower edges), and a word that fits nowhere as set is set smaller or on
  two lines before it is moved or left out (at 0.6 "The Stronghold" was wider than its ring).

Measured on every map and board figure of every booklet: the bundled games', the test games' and the
outside games' (``../shared/games``, on copies); only Shadow Queen's has a map, but a designer's map
game put in either folder is measured the same way.
"""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest

from pnp.draw.icons import for_game
from pnp.draw.text import ink_rect
from pnp.layout.hexmap import MapStyle
from pnp.layout.geometry import Box, Circle, Picture, Polygon, Rect, Text, Transform, extent
from pnp.loading.gamedata import load_game
from pnp.rulebook.figures import Figures

from test_outside_games import CORPUS, GAMES

TESTS = Path(__file__).parent
BUNDLED = ("shadow_queen", "shadow_kingdoms_of_valeria", "shadow_throne", "behind_the_throne")
TEST_GAMES = tuple(sorted(p.name for p in (TESTS / "games").iterdir() if (p / "rulebook.yaml").is_file()))
TOL = 0.01                                  # mm


# ------------------------------------------------------------------------------------------ measuring

def _background(e, box: Rect, window: Rect) -> bool:
    """A rectangle or a picture holding the whole window, or larger than it: the map's paper, a board's
    ground, which a window cuts as it falls."""
    return isinstance(e, (Box, Picture)) and (box.contains(window, TOL) or box.w * box.h >= window.w * window.h)


def cut_shapes(drawing) -> list[str]:
    """The shapes of a map or board figure (every element but words, backgrounds and the pieces laid on
    it) that its window cuts: partly inside, partly outside by more than 0.01 mm."""
    group = drawing.elements[0]
    window, out = group.clip, []
    for e in group.elements:
        if isinstance(e, Text) or (isinstance(e, Transform) and e.role.startswith(("token:", "placed:"))):
            continue
        box = extent(e)
        if box is None or not window.overlaps(box, TOL) or _background(e, box, window):
            continue
        if not window.contains(box, TOL):
            out.append(f"{type(e).__name__} {e.role} {box.rounded(2)}")
    return out


def _near_far(cx, cy, r: Rect) -> tuple[float, float]:
    nx, ny = min(max(cx, r.x), r.right), min(max(cy, r.y), r.top)
    far = max(math.hypot(x - cx, y - cy) for x in (r.x, r.right) for y in (r.y, r.top))
    return math.hypot(nx - cx, ny - cy), far


def label_overlaps(drawing) -> list[tuple]:
    """Where a figure's words (the rectangles their lines take) touch what they must keep clear of: a
    ring's stroke (a word wholly inside a ring or wholly outside it is clear), a piece, a counter laid on
    the map, another word; each by more than 0.01 mm. A piece's own letter is part of the piece."""
    group = drawing.elements[0]
    window = group.clip
    words, rings, pieces, counters = [], [], [], []
    for e in group.elements:
        role = getattr(e, "role", "")
        if isinstance(e, Text) and e.markup and not role.startswith("piece-icon:"):
            ink = ink_rect(e.rect, e.markup, e.style)
            if ink is not None and window.overlaps(ink):
                words.append((str(e.markup), ink))
        elif isinstance(e, Circle) and role.startswith("piece:"):
            pieces.append((role, e.cx, e.cy, e.r + e.width / 2))
        elif isinstance(e, Circle) and e.stroke:
            rings.append((role, e.cx, e.cy, e.r - e.width / 2, e.r + e.width / 2))
        elif isinstance(e, Transform) and role.startswith("token:"):
            counters.append((role, extent(e)))
    out = []
    for i, (text, ink) in enumerate(words):
        for role, cx, cy, inner, outer in rings:
            near, far = _near_far(cx, cy, ink)
            if near < outer - TOL and far > inner + TOL:
                out.append((text, role))
        for role, cx, cy, r in pieces:
            if _near_far(cx, cy, ink)[0] < r - TOL:
                out.append((text, role))
        for role, box in counters:
            if ink.overlaps(box, TOL):
                out.append((text, role))
        for other, ink2 in words[i + 1:]:
            if ink.overlaps(ink2, TOL):
                out.append((text, other))
    return out


def outline_crossings(drawing) -> list[tuple]:
    """The words of a map figure (but its legend's) whose ink touches a hex's outline, a side's rim along
    the map's edge or a river edge (their strokes) by more than 0.01 mm: (role, word)."""
    from pnp.layout.geometry import Line
    from pnp.layout.labels import Segment, meets

    group = drawing.elements[0]
    edges = [Segment(*a, *b, e.width) for e in group.elements
             if isinstance(e, Polygon) and e.role == "hex-outline"
             for a, b in zip(e.points, (*e.points[1:], e.points[0]))]
    edges += [Segment(e.x1, e.y1, e.x2, e.y2, e.width) for e in group.elements
              if isinstance(e, Line) and e.role.startswith(("rim:", "river-edge"))]
    out = []
    for e in group.elements:
        role = getattr(e, "role", "")
        if isinstance(e, Text) and e.markup and not role.startswith(("piece-icon:", "legend")):
            ink = ink_rect(e.rect, e.markup, e.style)
            if ink is not None and group.clip.overlaps(ink) and any(meets(ink.inset(TOL), x) for x in edges):
                out.append((role, str(e.markup)))
    return out


def booklet_figures(game, lang="en") -> list:
    """The map and board figures a game's booklet draws."""
    from pnp.rulebook.component import _prepared

    with for_game(game, lang):
        figures = _prepared(game, "letter", lang)[1]
    return [d for d in figures.drawings if d.kind in ("map", "board")]


@pytest.fixture(scope="module")
def outside(tmp_path_factory) -> dict:
    out = {}
    for name in GAMES:
        dest = tmp_path_factory.mktemp(f"figures-{name}") / name
        shutil.copytree(CORPUS / name, dest)
        out[name] = dest
    return out


# ------------------------------------------------------------------------------------- whole shapes

def test_no_figure_of_shadow_queens_booklet_shows_a_sliver_of_a_hex_or_a_rim():
    """On main every one of its 8 map figures cut hexes (the river figure: 0603, 0803, 0604, 0704...; each
    terrain figure the six neighbours of its hex and the rims along the map's edge)."""
    shown = booklet_figures(load_game("shadow_queen"))
    assert len([d for d in shown if d.kind == "map"]) == 8
    for d in shown:
        assert cut_shapes(d) == [], d.caption


@pytest.mark.parametrize("game_id", BUNDLED[1:])
def test_no_board_figure_of_our_booklets_cuts_a_shape(game_id):
    for d in booklet_figures(load_game(game_id)):
        assert cut_shapes(d) == [], d.caption


def test_the_river_figure_is_its_whole_hexes_to_the_hundredth_of_a_millimetre():
    """The movement chapter's figure: the hexes at least half inside the window asked for (radius 0.95
    round 0705 and 0707), each whole with its number, and the window closed in on them with 0.6 mm round
    their outlines (main: 62.34 x 102.5 mm at radius 1.05, nine hexes cut)."""
    game = load_game("shadow_queen")
    figures = Figures(game, "en")
    figures.map(around=["0705", "0707"], radius=0.95, pieces={"0705": "shadow", "0706": "bridge"},
                arrows=[["0705", "0706"], ["0706", "0707"]], scale=0.85)
    drawing = figures.drawings[0]
    group = drawing.elements[0]
    hexes = {e.role[4:]: extent(e) for e in group.elements if getattr(e, "role", "").startswith("hex:")
             and group.clip.overlaps(extent(e))}
    assert sorted(hexes) == ["0604", "0605", "0606", "0607", "0705", "0706", "0707", "0804", "0805", "0806",
                             "0807"]
    room = MapStyle().outline / 2 + 0.6                     # each hex's outline, and 0.6 mm round it
    x0 = min(b.x for b in hexes.values()) - room
    y0 = min(b.y for b in hexes.values()) - room
    x1 = max(b.right for b in hexes.values()) + room
    y1 = max(b.top for b in hexes.values()) + room
    assert group.clip.rounded(2) == Rect(x0, y0, x1 - x0, y1 - y0).rounded(2)
    assert (round(drawing.width, 2), round(drawing.height, 2)) == (73.67, 101.5)
    assert cut_shapes(drawing) == []
    ids = [str(e.markup) for e in group.elements if isinstance(e, Text) and e.role.startswith("id:")]
    assert sorted(ids) == sorted(hexes)
    # the bridge built on 0706 hides its site: the site's name is left out, not moved aside (on main it
    # lay under the bridge counter, hidden, yet in the PDF's text)
    assert not [e for e in group.elements if isinstance(e, Text) and e.role == "bridge-site-label"]


def test_a_board_figure_leaves_out_the_spaces_its_margin_would_cut_and_takes_in_those_mostly_inside():
    """Tidewardens' harbour board round its Chapel (50 x 22 mm at 85, 215): with 20 mm round it the
    window reaches a fifth of the tide spaces 1 and 2 above, which are left out with their numbers (the
    window stays as asked); with 40 mm it reaches 63 % of them, and grows to hold both whole with 0.6 mm
    round them, while spaces 0, 3 and 23, a fifth to a third inside, are left out."""
    game = load_game(TESTS / "games" / "tidewardens")
    figures = Figures(game, "en")
    figures.board("harbour", around=["quarters[2]"], margin=20)
    figures.board("harbour", around=["quarters[2]"], margin=40)
    near, far = figures.drawings[0], figures.drawings[1]

    def numbers(d):
        group = d.elements[0]
        return sorted(str(e.markup) for e in group.elements if isinstance(e, Text) and e.role == "tide:number")

    assert near.elements[0].clip.rounded(2) == (65.0, 195.0, 90.0, 62.0)
    assert numbers(near) == []
    assert far.elements[0].clip.rounded(2) == (45.0, 175.0, 130.0, 120.75)
    assert numbers(far) == ["1", "2"]
    for d in (near, far):
        assert cut_shapes(d) == []
        assert d.elements[1].rect.rounded(2) == (0, 0, round(d.width, 2), round(d.height, 2))


# -------------------------------------------------------------------------------------- clear labels

def test_the_printed_map_sets_each_holdings_number_inside_its_ring():
    """The kit's map: on main the number of each of the 8 holdings' hexes crossed the top of its ring."""
    from pnp.components.hexmap import config_of, map_layout

    game = load_game("shadow_queen")
    with for_game(game, "en"):
        layout = map_layout(game, config_of(None), "en")
        rings = {e.role: e for e in layout.elements if isinstance(e, Circle) and e.role.startswith("holding:")}
        assert len(rings) == 8
        for h in game.map.holdings:
            ring = rings[f"holding:{h.id}"]
            hexagon = next(x for x in game.map.hexes if x.at == h.at)
            (number,) = [e for e in layout.elements if isinstance(e, Text) and e.role == f"id:{hexagon.id}"]
            ink = ink_rect(number.rect, number.markup, number.style)
            name = next(e for e in layout.elements if isinstance(e, Text) and e.role == "holding-name"
                        and math.hypot(e.rect.cx - ring.cx, e.rect.cy - ring.cy) < ring.r)
            assert _near_far(ring.cx, ring.cy, ink)[1] <= ring.r - ring.width / 2 - 0.3, hexagon.id
            assert ink.y >= ink_rect(name.rect, name.markup, name.style).top, hexagon.id


@pytest.mark.parametrize("game_id", BUNDLED)
def test_no_word_of_a_bundled_map_or_board_figure_touches_a_ring_a_piece_or_another_word(game_id):
    """On main Shadow Queen's figures printed "0804" across Ford Pen's ring (the river and Lure figures,
    the first example's), "0808" across Millford's (both examples) and "bridge site" across its ring."""
    for d in booklet_figures(load_game(game_id)):
        assert label_overlaps(d) == [], d.caption


@pytest.mark.parametrize("game_id", TEST_GAMES)
def test_no_word_of_a_test_games_map_or_board_figure_touches_a_ring_a_piece_or_another_word(game_id):
    for d in booklet_figures(load_game(TESTS / "games" / game_id)):
        assert label_overlaps(d) == [], d.caption


@pytest.mark.skipif(not GAMES, reason="no outside games")
def test_no_word_of_an_outside_games_map_or_board_figure_touches_a_ring_a_piece_or_another_word(outside):
    for name, folder in outside.items():
        game = load_game(folder)
        for d in booklet_figures(game):
            assert label_overlaps(d) == [], f"{name}: {d.caption}"


def _whole_map(scale, with_pieces=True):
    """Every hex of Shadow Queen's map at ``scale``, with a piece on each starting hex (or none)."""
    game = load_game("shadow_queen")
    pieces = {}
    for kind, spots in game.map.start:
        for at in spots:
            hexagon = next(x for x in game.map.hexes if x.at == tuple(at))
            pieces[hexagon.id] = kind
    figures = Figures(game, "en")
    with for_game(game, "en"):
        figures.map(around=[h.id for h in game.map.hexes], radius=0.5, pieces=pieces if with_pieces else None,
                    scale=scale)
    return game, pieces, figures.drawings[0]


@pytest.mark.parametrize("scale", [0.6, 0.8, 1.0])
def test_a_figure_of_the_whole_map_with_every_piece_at_its_start_keeps_its_words_clear(scale):
    """Every hex of Shadow Queen's map with a piece on each starting hex: no word touches a ring, a piece,
    a hex's outline, a rim or another word, every holding keeps its name and every piece off a holding has
    its name. On main, at 0.6 (the examples' scale: words set at 10 pt to print at 6) "The Stronghold" was
    wider than its ring and crossed it, the three Messengers' names crossed their hexes' outlines, and the
    top row's 13 numbers touched the Shadows' rim. The map without pieces keeps its words clear too."""
    game, pieces, drawing = _whole_map(scale)
    assert label_overlaps(drawing) == []
    assert outline_crossings(drawing) == []
    assert outline_crossings(_whole_map(scale, with_pieces=False)[2]) == []
    group = drawing.elements[0]
    named = [e for e in group.elements if isinstance(e, Text) and e.role.startswith("piece-label:")]
    off_holdings = [h for h in pieces if game.map.holding_at(next(x.at for x in game.map.hexes if x.id == h)) is None]
    assert len(named) == len(off_holdings)
    holdings = sorted(str(e.markup) for e in group.elements if isinstance(e, Text) and e.role == "holding-name")
    assert holdings == sorted(h.name for h in game.map.holdings)


def test_at_the_examples_scale_a_holdings_name_wider_than_its_ring_is_wrapped_inside_it():
    """At 0.6 "The Stronghold" is set at 10 pt (6 pt printed): 24.62 mm on one line, its ring 21.8 mm
    across inside its stroke (on main it crossed the ring by 1.9 mm each side). It is set on two lines,
    "The" over "Stronghold" (17.86 mm), kept inside the ring with 0.3 mm to spare, still at 10 pt."""
    from pnp.draw.text import fit

    game, _, drawing = _whole_map(0.6)
    group = drawing.elements[0]
    (name,) = [e for e in group.elements if isinstance(e, Text) and e.role == "holding-name"
               and str(e.markup) == "The Stronghold"]
    ring = next(e for e in group.elements if isinstance(e, Circle) and e.role == "holding:stronghold")
    fitted = fit(name.markup, name.style, name.rect.w, name.rect.h)
    assert fitted.size == 10.0 and [len(line) for line in fitted.lines] == [1, 1]
    ink = ink_rect(name.rect, name.markup, name.style)
    assert round(ink.w, 2) == 17.86
    assert _near_far(ring.cx, ring.cy, ink)[1] <= ring.r - ring.width / 2 - 0.3 + TOL
    # the same word in the kit's figures (0.8 and over) stays on one line where the map sets it
    for scale in (0.8, 1.0):
        group = _whole_map(scale)[2].elements[0]
        (name,) = [e for e in group.elements if isinstance(e, Text) and e.role == "holding-name"
                   and str(e.markup) == "The Stronghold"]
        assert len(fit(name.markup, name.style, name.rect.w, name.rect.h).lines) == 1


@pytest.mark.parametrize("game_id, lang", [(g, "en") for g in BUNDLED] + [("shadow_queen", "es")])
def test_no_word_of_a_bundled_map_figure_crosses_a_hex_outline(game_id, lang):
    """On main the examples' start figures (scale 0.6) printed "Messenger" across the lower edges of its
    hex 0709: 17.29 mm of word under its piece, whose lower corners lie where the hex is 17.0 mm wide. It is
    now set above its piece, under the hex's number, inside the hex. In Spanish the Lure figure printed
    "lugar de puente" across its hex's edges; it is now set on two lines inside its dashed ring."""
    for d in booklet_figures(load_game(game_id), lang):
        assert outline_crossings(d) == [], d.caption


def test_the_messengers_name_is_set_inside_its_hex_above_its_piece():
    game = load_game("shadow_queen")
    (start, *_) = [d for d in booklet_figures(game) if d.caption.startswith("The position at the start")]
    group = start.elements[0]
    (label,) = [e for e in group.elements if isinstance(e, Text) and e.role == "piece-label:messenger"]
    piece = min((e for e in group.elements if isinstance(e, Circle) and e.role == "piece:messenger"),
                key=lambda e: math.hypot(e.cx - label.rect.cx, e.cy - label.rect.cy))
    (number,) = [e for e in group.elements if isinstance(e, Text) and e.role == "id:0709"]
    ink, above = ink_rect(label.rect, label.markup, label.style), ink_rect(number.rect, number.markup, number.style)
    assert ink.y >= piece.cy + piece.r + piece.width / 2 + 0.3 - TOL       # above the piece
    assert ink.top <= above.y - 0.3 + TOL                                   # under the hex's number
    assert round(ink.w, 2) == 17.29 and label.style.size == 10.0           # as set, not smaller


# ------------------------------------------------------------------------------ placing, pure geometry

def test_a_label_across_a_ring_moves_to_the_nearest_clear_place_inside_it():
    """A 4 x 2 mm label centred 5 mm above the centre of a ring whose stroke paints 5 to 6 mm out: its
    nearest clear place keeps its far corners 0.3 mm inside the stroke, sqrt(2² + (y + 1)²) <= 4.7, so
    y <= 3.253: 1.75 mm down on the 0.25 mm grid (out of the ring, above it, would be 2.3 mm up)."""
    from pnp.layout.labels import Label, Ring, crosses, place

    ring = Ring(0.0, 0.0, 5.0, 6.0)
    label = Label(Rect(-2.0, 4.0, 4.0, 2.0), home=(0.0, 4.0), reach=4.0)
    assert crosses(label.rect, ring)
    (offset,) = place([label], rings=[ring])
    assert offset == (0.0, -1.75)
    assert not crosses(label.rect.moved(*offset), ring, 0.3)
    assert crosses(label.rect.moved(0.0, -1.5), ring, 0.3)
    # a label that may not move is left out; one that stays is kept where it is, and the next keeps
    # clear of it too: out of the ring above it (y >= 6 + 0.3 and above the first's top + 0.3)
    assert place([Label(label.rect)], rings=[ring]) == [None]
    assert place([Label(label.rect, stays=True), label], rings=[ring]) == [(0.0, 0.0), (0.0, 2.5)]


def test_a_label_keeps_clear_of_an_arrow_a_piece_and_the_labels_placed_before_it():
    from pnp.layout.labels import Disc, Label, Segment, covers, meets, place

    arrow = Segment(0.0, -10.0, 0.0, 10.0, 0.7)              # vertical, 0.35 mm each side
    label = Label(Rect(-1.0, 0.0, 4.0, 2.0), home=(1.0, 1.0), reach=5.0)
    assert meets(label.rect, arrow) and not meets(label.rect.moved(1.75, 0.0), arrow, 0.3)
    assert place([label], lines=[arrow]) == [(1.75, 0.0)]    # 1 + 0.35 + 0.3 = 1.65: 1.75 on the grid
    disc = Disc(6.0, 1.0, 1.0)                                # now a piece on its right too
    (offset,) = place([label], discs=[disc], lines=[arrow])
    moved = label.rect.moved(*offset)
    assert not meets(moved, arrow, 0.3) and not covers(moved, disc, 0.3)
    # right of the arrow, and up until its corner is 1.3 mm from the disc's centre (1.25 up: 1.27 mm);
    # 1.5 down is as near, and up comes first
    assert offset == (1.75, 1.5)
    first, second = place([label, label], lines=[arrow])
    assert first == (1.75, 0.0) and second is not None and not label.rect.moved(*first).overlaps(
        label.rect.moved(*second).inset(-0.3))


def test_a_label_clear_nowhere_as_set_takes_its_next_setting_and_prefers_to_keep_off_soft_lines():
    """A 6 x 1 mm label in a ring whose stroke paints 3 to 3.5 mm out fits nowhere inside it (half of it is
    3 mm, 2.7 with 0.3 to spare); its second setting, 2 x 2 mm, fits where it is. A soft line through the
    ring's centre (0.2 mm wide) is kept off where there is room: the 2 x 2 setting moves 1.5 mm left, the
    nearest step of the 0.25 grid that keeps its edge 0.1 + 0.3 mm from the line (its far corners 2.69 mm
    from the centre); in a ring whose stroke starts at 2 mm there is no such room and it crosses the line."""
    from pnp.layout.labels import Label, Ring, Segment, arrange, place

    ring = Ring(0.0, 0.0, 3.0, 3.5)
    label = Label(Rect(-3.0, -0.5, 6.0, 1.0), home=(0.0, 0.0), reach=2.0, settings=(Rect(-1.0, -1.0, 2.0, 2.0),))
    assert place([Label(label.rect, home=(0.0, 0.0), reach=2.0)], rings=[ring]) == [None]
    assert arrange([label], rings=[ring]) == [(1, 0.0, 0.0)]
    soft = Segment(0.0, -5.0, 0.0, 5.0, 0.2)
    assert arrange([label], rings=[ring], avoid=[soft]) == [(1, -1.5, 0.0)]
    assert place([label], rings=[ring], avoid=[soft]) == [(-1.5, 0.0)]
    assert arrange([label], rings=[Ring(0.0, 0.0, 2.0, 2.5)], avoid=[soft]) == [(1, 0.0, 0.0)]
    # where no setting is clear, one that stays is kept as set, one that does not is left out
    tiny = Ring(0.0, 0.0, 1.0, 1.5)
    assert arrange([label], rings=[tiny]) == [None]
    assert arrange([Label(label.rect, (0.0, 0.0), 2.0, stays=True, settings=label.settings)], rings=[tiny]) == \
        [(0, 0.0, 0.0)]


def test_a_word_too_wide_for_its_ring_is_set_smaller_where_it_has_no_second_line():
    """"Westmere" at 7 pt (the map's holding names; they may shrink to 6) takes 11.9 x 2.47 mm: centred in a
    ring whose stroke starts 6 mm out its corners reach 6.07 mm, inside the 0.3 mm it keeps. One word
    cannot wrap: it is set half a point smaller, 11.05 x 2.29 mm, corners 5.64 mm out, where it was."""
    from pnp.draw.text import fit
    from pnp.layout.hexmap import HOLDING_STYLE
    from pnp.rulebook.figures import _clear_words

    ring = Circle(0.0, 0.0, 6.5, stroke="#000000", width=1.0, role="holding:x")
    word = Text(Rect(-10.0, -2.0, 20.0, 4.0), "Westmere", HOLDING_STYLE, role="holding-name")
    assert _near_far(0.0, 0.0, ink_rect(word.rect, word.markup, word.style))[1] > 6.0 - 0.3
    (_, out) = _clear_words((ring, word), [], Rect(-20.0, -20.0, 40.0, 40.0), [(0.0, 0.0)], 25.0)
    assert out.style.size == 6.5 and out.style.max_lines == 1
    assert len(fit(out.markup, out.style, out.rect.w, out.rect.h).lines) == 1
    ink = ink_rect(out.rect, out.markup, out.style)
    assert (round(ink.w, 2), round(ink.h, 2), round(ink.cx, 2), round(ink.cy, 2)) == (11.05, 2.29, 0.0, 0.0)
    assert _near_far(0.0, 0.0, ink)[1] <= 6.0 - 0.3
