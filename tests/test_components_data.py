"""Components from data: the explicit registry, several tracks (any range; grid, strip, round the edge),
token shapes and kinds, and the game's own SVG icons everywhere an icon is named."""

import json
from pathlib import Path

import pikepdf
import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.components import KINDS, BuildOptions, component, game_components
from pnp.components import tokens as tokens_component
from pnp.components import track as track_component
from pnp.loading.gamedata import load_game
from pnp.layout.geometry import Box, Picture, Polygon, Rect, Text, flatten
from pnp.layout.track import TrackSpec, around_positions, around_problem, track_spaces
from pnp.units import PAPERS, PRINTER_MARGIN

GAME = """\
title: Tiny Realm
players: {min: 2, max: 4}
factions:
  - {id: north, name: North, colour: "#2f5d8a", emblem: tower}
  - {id: south, name: South, colour: "#8a2f3a", emblem: crown}
icons:
  might: {icon: heater, colour: "#34495e"}
  gem_alias: tower
card:
  width: 63
  height: 88
  fields:
    might: {required: true, icon: might}
    worth: {icon: tower}
components:
  - cards
  - {kind: track, id: score, from: 0, to: 30}
  - {kind: track, id: rounds, from: 1, to: 8, shape: strip, columns: 4, start_area: false, title: Rounds}
  - {kind: track, id: edge, from: 0, to: 69, shape: around, token_diameter: 7}
  - tokens
"""

CARDS = """\
cards:
  - {id: scout, name: Scout, faction: north, copies: 2, might: 1, worth: 2, flavour: Eyes on the hills.}
  - {id: guard, name: Guard, faction: south, copies: 1, might: 3}
"""

TOKENS = """\
kinds: [score, marker]
tokens:
  - {id: hex, kind: marker, count: 3, shape: hexagon, size: 20,
     front: {background: "#dddddd", icon: tower}, back: {background: "#dddddd", icon: might, label: "2"}}
  - {id: round, kind: marker, count: 2, shape: rounded, size: 18,
     front: {background: "#ffffff", icon: gem_alias}, back: {background: "#ffffff"}}
  - {id: shield-token, kind: score, count: 2, shape: outline, outline: icons/tower.svg, size: 20, faction: north,
     on_track: true, front: {background: faction}, back: {background: faction}}
"""

TOWER = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 20" width="10" height="20">
  <rect x="1" y="4" width="8" height="16" fill="#5a5a5a"/><polygon points="0,4 10,4 5,0" fill="#aa3333"/>
</svg>
"""


def write_game(root, game=GAME, cards=CARDS, tokens=TOKENS, tower=TOWER):
    root.mkdir(parents=True, exist_ok=True)
    (root / "game.yaml").write_text(game)
    (root / "cards.yaml").write_text(cards)
    (root / "tokens.yaml").write_text(tokens)
    (root / "icons").mkdir(exist_ok=True)
    (root / "icons" / "tower.svg").write_text(tower)
    return root


@pytest.fixture
def realm(tmp_path):
    return write_game(tmp_path / "realm")


def validate(path):
    return CliRunner().invoke(main, ["validate", str(path)])


def line_in(path, needle):
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


# ----------------------------------------------------------------------------- the registry

def test_the_registry_is_an_explicit_table_of_modules():
    assert set(KINDS) == {"instructions", "track", "hexmap", "cards", "tokens", "sheet", "rulebook", "box", "board",
                          "standee", "dice", "pad"}
    for kind in KINDS:
        assert component(kind).name == kind
    assert component("power_track") is component("track")


def test_components_keep_their_ids_and_settings(realm):
    game = load_game(realm)
    assert game.components == ("cards", "score", "rounds", "edge", "tokens")
    specs = {s.id: s for s in game.component_specs}
    assert specs["score"].kind == "track" and specs["score"].config["from"] == 0 and specs["score"].config["to"] == 30
    # the kit follows the list: cards first here, though a kind's usual place is after the tracks
    assert [c.name for c in game_components(game)] == ["cards", "score", "rounds", "edge", "tokens"]


@pytest.mark.parametrize("entry,message", [
    ("crads", "1st component: unknown component 'crads' (did you mean 'cards'?)"),
    ("{kind: track, id: score, form: 0}", "component 'score': form: unknown key (did you mean 'from'?)"),
    ("{kind: boardgame}", "1st component: kind: 'boardgame' is not one of:"),
    ("{kind: board}", "component 'board': layout: required key is missing"),
    ("{kind: track, id: 'bad id'}", "1st component: id: expected an id"),
    ("{kind: track, shape: spiral}", "component 'track': shape: 'spiral' is not one of: grid, strip, around"),
])
def test_component_entries_are_checked_with_their_line(tmp_path, entry, message):
    game = GAME.replace("  - cards\n", f"  - {entry}\n  - cards\n")
    root = write_game(tmp_path / "g", game=game)
    out = validate(root).output
    assert f"game.yaml:{line_in(root / 'game.yaml', entry[:10])}: {message}" in out, out


def test_two_components_with_one_id_is_an_error(tmp_path):
    root = write_game(tmp_path / "g", game=GAME.replace("id: rounds", "id: score"))
    assert "game.yaml:18: 3rd component: a second component 'score' (first at line 17); give each its own id" \
        in validate(root).output


# ----------------------------------------------------------------------------- tracks

def test_tracks_start_where_the_data_says(realm):
    game = load_game(realm)
    outs = {c.name: c.build(game, BuildOptions(paper="a4")) for c in game_components(game)}
    assert [o.filename for o in outs["score"]] == ["score.pdf"]
    page = outs["score"][0].pages[0]
    numbers = [e.markup for e in page.find("number")]
    assert numbers[0] == "0" and numbers[-1] == "30" and len(numbers) == 31
    assert len(page.find("start-area")) == 1 and {e.role for e in flatten(page.elements)} >= {"start:north"}
    rounds = outs["rounds"][0].pages[0]
    assert [e.markup for e in rounds.find("number")] == [str(n) for n in range(1, 9)]
    assert not rounds.find("start-area") and rounds.find("title")[0].markup == "Rounds"


def test_a_strip_track_is_cut_into_strips_of_its_columns():
    spec = TrackSpec(spaces=10, columns=4, shape="strip", token_diameter=10)
    size, rects = track_spaces(spec, Rect(0, 0, 200, 150))
    rows = sorted({round(r.y, 2) for r in rects}, reverse=True)
    assert len(rows) == 3 and [len([r for r in rects if round(r.y, 2) == y]) for y in rows] == [4, 4, 2]
    assert round(rows[0] - rows[1], 2) == round(size + 5.0, 2)      # a 5 mm gap to cut the strips apart


def test_a_track_round_the_edge_runs_clockwise_from_the_top_left():
    assert around_positions(3, 3) == [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1)]
    area = Rect(10, 10, 190, 270)
    spec = TrackSpec(spaces=70, first=0, shape="around")
    size, rects = track_spaces(spec, area)
    assert len(rects) == 70 and size > 12
    for a, b in zip(rects, rects[1:]):          # each space touches the next one
        assert round(abs(a.x - b.x) + abs(a.y - b.y), 6) == round(size, 6)
    for r in rects:                              # all on the frame's edge, inside the area
        assert area.contains(r)
        on_edge = (abs(r.x - min(q.x for q in rects)) < 1e-6 or abs(r.right - max(q.right for q in rects)) < 1e-6
                   or abs(r.y - min(q.y for q in rects)) < 1e-6 or abs(r.top - max(q.top for q in rects)) < 1e-6)
        assert on_edge


@pytest.mark.parametrize("spaces", [4, 6, 50])
def test_a_ring_too_small_inside_for_its_title_prints_it_above(spaces):
    """Found by the generated games (issue 32): a ring of 4 spaces (a 2 x 2 square) has no inside, and its
    title and start area were laid out in a rectangle of negative size: nothing printed them. They go above
    the ring when its inside cannot hold them; a ring with room keeps them inside."""
    from types import SimpleNamespace

    from pnp.layout.geometry import Text
    from pnp.layout.track import track_page

    sides = [SimpleNamespace(id="dusk", name="Dusk", colour="#7a4a2a")]
    spec = TrackSpec(spaces=spaces, first=0, shape="around", token_diameter=8)
    laid = track_page(spec, sides, "Orchard", "Signal Forest", 215.9, 279.4)
    (title,) = [e for e in laid.page.elements if isinstance(e, Text) and e.role == "title"]
    ring = Rect(min(r.x for r in laid.spaces), min(r.y for r in laid.spaces),
                max(r.right for r in laid.spaces) - min(r.x for r in laid.spaces),
                max(r.top for r in laid.spaces) - min(r.y for r in laid.spaces))
    assert title.rect.w > 30 and title.rect.h >= 8
    ((side, spot),) = laid.start_spots
    inside = ring.contains(Rect(spot.cx - spot.r, spot.cy - spot.r, 2 * spot.r, 2 * spot.r))
    assert side == "dusk" and spot.r > 0 and inside == (spaces >= 50)
    if spaces < 50:
        assert title.rect.y >= ring.top
    else:
        assert ring.contains(title.rect)


def ring_closes(rects, size):
    """Every space touches the next one along a side, the last touches the first, none repeats."""
    assert len({r.rounded() for r in rects}) == len(rects)
    for a, b in zip(rects, rects[1:] + rects[:1]):
        assert round(abs(a.x - b.x) + abs(a.y - b.y), 6) == round(size, 6), (a, b)


@pytest.mark.parametrize("spaces", [4, 6, 8, 12, 14, 50, 70, 100])
@pytest.mark.parametrize("area", [Rect(12, 12, 191.9, 255.4), Rect(12, 12, 186, 273), Rect(0, 0, 300, 120)])
def test_a_track_round_the_edge_closes_for_every_even_count(spaces, area):
    size, rects = track_spaces(TrackSpec(spaces=spaces, first=0, shape="around", max_space=38.0), area)
    assert len(rects) == spaces
    ring_closes(rects, size)
    assert all(area.inset(-1e-6).contains(r) for r in rects)
    # as large as any closed ring of square spaces allows (each column count tried by hand)
    half = (spaces + 4) // 2
    assert round(size, 6) == round(max(min(area.w / c, area.h / (half - c), 38.0) for c in range(2, half - 1)), 6)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_the_50_space_tide_track_closes_on_letter_and_a4(paper):
    """On Letter the 50 spaces used to stop two short of the first (a 12 x 16 frame holds 52)."""
    game = load_game(Path(__file__).parent / "games" / "starfall")
    spec = next(s for s in game.component_specs if s.id == "tide")
    result = track_component.layout(game, BuildOptions(paper=paper), spec)
    assert len(result.spaces) == 50
    ring_closes(list(result.spaces), result.space_size)
    assert round(result.space_size, 2) == {"letter": 15.99, "a4": 16.91}[paper]


@pytest.mark.parametrize("to,message", [
    (12, "track 'edge': shape: around: 13 spaces cannot close round the page's edge: a ring takes an even "
         "number of spaces, 4 or more; 12 (to: 11) or 14 (to: 13) would close"),
    (2, "track 'edge': shape: around: 3 spaces cannot close round the page's edge: a ring takes an even number "
        "of spaces, 4 or more; 4 (to: 3) would close"),
])
def test_a_track_round_the_page_that_cannot_close_is_an_error(tmp_path, to, message):
    root = write_game(tmp_path / "g", game=GAME.replace("from: 0, to: 69, shape: around", f"from: 0, to: {to}, shape: around"))
    result = validate(root)
    assert result.exit_code == 2
    assert f"game.yaml:{line_in(root / 'game.yaml', 'id: edge')}: {message}\n" in result.output, result.output
    assert "Traceback" not in result.output


def test_around_problem_names_the_counts_that_close():
    assert around_problem(70) is None and around_problem(4) is None
    assert around_problem(13, edge="rect's edge").endswith("; 12 or 14 would close")
    assert around_problem(70, columns=35) is None
    assert around_problem(70, columns=36, edge="rect's edge") == (
        "columns: 36 along the top and the bottom cannot close a ring of 70 spaces round the rect's edge: give "
        "columns from 2 to 35, or 72 spaces or more")
    with pytest.raises(ValueError, match="13 spaces cannot close"):
        track_spaces(TrackSpec(spaces=13, shape="around"), Rect(0, 0, 200, 200))


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_the_edge_track_page_keeps_inside_the_printer_margin(realm, paper):
    game = load_game(realm)
    spec = next(s for s in game.component_specs if s.id == "edge")
    page = track_component.layout(game, BuildOptions(paper=paper), spec).page
    w, h = PAPERS[paper]
    inside = Rect(PRINTER_MARGIN, PRINTER_MARGIN, w - 2 * PRINTER_MARGIN, h - 2 * PRINTER_MARGIN)
    spaces = page.find("space")
    assert len(spaces) == 70 and [e.markup for e in page.find("number")][:2] == ["0", "1"]
    assert all(inside.contains(e.rect) for e in spaces)


def test_shadow_throne_power_track_is_one_track_configuration():
    game = load_game("shadow_throne")
    (spec,) = [s for s in game.component_specs if s.id == "power_track"]
    assert spec.kind == "track"
    page = track_component.layout(game, BuildOptions(), spec).page
    assert [e.markup for e in page.find("number")] == [str(n) for n in range(1, 26)]


# ----------------------------------------------------------------------------- tokens

def test_token_shapes_cut_lines(realm):
    game = load_game(realm)
    pages = tokens_component.build(game, BuildOptions(paper="a4"))[0].pages
    cuts = [e for p in pages for e in flatten(p.elements) if e.role == "cut"]
    hexes = [e for e in cuts if isinstance(e, Polygon)]
    assert len(hexes) == 2 * 3
    xs = [x for x, _ in hexes[0].points]
    assert round(max(xs) - min(xs), 2) == 20.0                        # 20 mm across the flats
    rounded = [e for e in cuts if isinstance(e, Box)]
    assert len(rounded) == 2 * 2 and all(round(e.radius, 2) == round(18 * 0.18, 2) for e in rounded)
    outlines = [e for e in cuts if isinstance(e, Picture)]
    assert len(outlines) == 2 * 2 and all(e.outline and e.path.endswith("tower.svg") for e in outlines)


def test_token_kinds_come_from_the_data(tmp_path):
    root = write_game(tmp_path / "g", tokens=TOKENS.replace("kind: marker, count: 3", "kind: chip, count: 3"))
    out = validate(root).output
    assert f"tokens.yaml:{line_in(root / 'tokens.yaml', 'kind: chip')}: token 'hex': kind: 'chip' is not one of " \
           f"kinds: score, marker" in out


def test_a_hexagon_too_tall_for_the_half_sheet_is_an_error(tmp_path):
    root = write_game(tmp_path / "g", tokens=TOKENS.replace("shape: hexagon, size: 20", "shape: hexagon, size: 120"))
    assert "token 'hex': size: 120 mm is larger than the half sheet" in validate(root).output


# ----------------------------------------------------------------------------- icons

def test_the_game_icons_resolve_first(realm):
    game = load_game(realm)
    assert game.icons.resolve("tower").kind == "svg" and round(game.icons.resolve("tower").aspect, 2) == 0.5
    assert game.icons.resolve("might").target == "heater" and game.icons.resolve("might").colour == "#34495e"
    assert game.icons.resolve("gem_alias").kind == "svg"
    assert game.icons.resolve("nothing") is None


def test_the_realm_validates_and_builds(realm, tmp_path):
    result = validate(realm)
    assert result.exit_code == 0, result.output
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(realm), "--out", str(out), "--paper", "a4"])
    assert result.exit_code == 0, result.output
    assert {"score.pdf", "rounds.pdf", "edge.pdf", "tokens.pdf", "cards-fronts.pdf"} <= {p.name for p in out.iterdir()}
    # the kit's page order is the order of game.yaml's components: the manifest, and kit.pdf's bookmarks
    bill = json.loads((out / "manifest.json").read_text())
    assert [c["id"] for c in bill["components"]] == ["cards", "score", "rounds", "edge", "tokens"]
    with pikepdf.open(out / "kit.pdf") as pdf, pdf.open_outline() as outline:
        pages = {p.objgen: i for i, p in enumerate(pdf.pages)}
        marks = [(pages[item.destination[0].objgen], item.title) for item in outline.root]
    assert [t for _, t in marks] == ["Card fronts", "Card backs", "Score", "Rounds", "Edge", "Tokens"], marks
    assert [i for i, _ in marks] == sorted(i for i, _ in marks) and marks[0][0] == 0


@pytest.mark.parametrize("old,new,message", [
    ("emblem: tower", "emblem: towr", "faction 'north': emblem: unknown icon 'towr'; did you mean 'tower'?"),
    ("emblem: tower", "emblem: zzz", "faction 'north': emblem: unknown icon 'zzz'; known icons: circle"),
    ("worth: {icon: tower}", "worth: {icon: towr}", "card.fields.worth.icon: unknown icon 'towr'"),
    ("gem_alias: tower", "gem_alias: towr", "icons.gem_alias: unknown icon 'towr'"),
])
def test_unknown_icons_in_game_yaml_are_errors(tmp_path, old, new, message):
    root = write_game(tmp_path / "g", game=GAME.replace(old, new))
    result = validate(root)
    assert result.exit_code == 2 and message in result.output, result.output


def test_unknown_icon_on_a_token_face(tmp_path):
    root = write_game(tmp_path / "g", tokens=TOKENS.replace("icon: tower}, back", "icon: towr}, back"))
    assert "token 'hex': front.icon: unknown icon 'towr'" in validate(root).output


@pytest.mark.parametrize("svg,message", [
    ('<svg xmlns="http://www.w3.org/2000/svg"><image href="/etc/passwd" width="1" height="1"/></svg>',
     "<image> refers to '/etc/passwd'; an SVG may refer only to its own parts"),
    ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg>&x;</svg>',
     "declares a DOCTYPE or entities"),
    ("<svg><rect", "not readable SVG"),
    ("<html/>", "not an SVG file"),
])
def test_unsafe_or_broken_svg_icons_are_refused(tmp_path, svg, message):
    root = write_game(tmp_path / "g", tower=svg)
    out = validate(root).output
    assert f"{root / 'icons' / 'tower.svg'}" in out and message in out, out


def test_svg_icons_print_as_vectors(realm, tmp_path):
    import pypdfium2 as pdfium

    out = tmp_path / "out"
    assert CliRunner().invoke(main, ["build", str(realm), "--out", str(out)]).exit_code == 0
    doc = pdfium.PdfDocument(str(out / "tokens.pdf"))
    image = doc[0].render(scale=1).to_pil().convert("RGB")
    colours = {c for _, c in image.getcolors(maxcolors=1 << 20)}
    assert (0xaa, 0x33, 0x33) in colours        # the tower's red roof, drawn in its own colour
    page_text = doc[0].get_textpage().get_text_range()
    assert page_text.count("2") >= 3            # the back's label on the 'might' badges
