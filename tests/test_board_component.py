"""The generic ``board`` and ``standee`` components on a test game: a board drawn from a layout's
regions (track round the edge, repeated spaces, a table), tiled across sheets with its seams off the
track spaces; a single-sheet board; a double-sided piece folded or duplex; standees from data; their
tiles put together reproduce the board; problems name game.yaml's entry."""

import math
from collections import Counter
import shutil
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.components import BuildOptions, game_components
from pnp.components.board import piece_pages, pieces, config_of, tiling
from pnp.errors import DataError, Problems
from pnp.loading.gamedata import load_game
from pnp.layout.geometry import Page, Rect, apply, extent, flatten
from pnp.layout.tiling import plan_tiles, tile_pages
from rasterize import raster
from test_tiling_raster import compose, mismatch

BOARD = textwrap.dedent("""\
    size: [420, 300]
    palette: {ground: "#e8dcc0", ink: "#1f1a17"}
    styles:
      big: {font: serif-semibold, size: 20, min_size: 8, max_lines: 1}
      small: {font: sans-bold, size: 7, min_size: 6, max_lines: 1}
    regions:
      - {name: ground, kind: box, rect: [0, 0, 420, 300], fill: palette.ground}
      - {name: score, kind: track, rect: [0, 0, 420, 300], numbers: "range(0, 50)", path: around,
         style: small, highlight_every: 5, stroke: palette.ink}
      - {name: title, kind: text, rect: [100, 240, 100, 20], text: title, style: big}
      - {name: slot, kind: box, for: "range(4)", rect: [60, 40, 63, 88], offset: [80, 0], stroke: palette.ink,
         keep_whole: true}
      - {name: slot-cost, kind: circle, for: "[5, 4, 3, 2]", at: [91.5, 140], offset: [80, 0], r: 5,
         fill: "#c9a54a", text: "item", style: small}
      - {name: table, kind: table, rect: [340, 60, 40, 40], rows: "[['p', 'n'], [2, 6], [3, 7]]", header: true,
         style: small}
    """)

MAP = textwrap.dedent("""\
    size: [120, 100]
    regions:
      - {name: ground, kind: box, rect: [0, 0, 120, 100], fill: "item.colour"}
      - {name: name, kind: text, rect: [10, 40, 100, 20], text: "item.name ~ ' A'", style: {font: sans-bold, size: 14}}
    """)

MAP_BACK = MAP.replace("' A'", "' B'").replace('fill: "item.colour"', 'fill: "tint(item.colour, 0.5)"')


def write_game(root, components: str):
    (root / "templates" / "layouts").mkdir(parents=True, exist_ok=True)
    (root / "templates" / "layouts" / "testboard.yaml").write_text(BOARD)
    (root / "templates" / "layouts" / "testmap.yaml").write_text(MAP)
    (root / "templates" / "layouts" / "testmap_back.yaml").write_text(MAP_BACK)
    game = (root / "game.yaml").read_text()
    start = game.index("components:")
    end = game.index("\n", start)
    (root / "game.yaml").write_text(game[:start] + "components:\n" + textwrap.indent(components, "  ") + game[end:])


COMPONENTS = textwrap.dedent("""\
    - {kind: board, id: main_board, layout: testboard, title: Main board}
    - {kind: board, id: maps, layout: testmap, back: testmap_back, part: map,
       each: "[{'name': 'North', 'colour': '#4f8a3a'}, {'name': 'South', 'colour': '#2d5a9b'}]",
       name: "item.name"}
    - kind: standee
      id: wardens
      width: 30
      height: 45
      each: "['#9b2d2d', '#2d5a9b']"
      piece: {id: "'warden_' ~ index", background: item, icon: "'crown'", label: "'Warden'"}
    - kind: standee
      id: heroes
      width: 25
      height: 40
      base: slot
      pieces:
        - {id: hero, count: 2, label: Hero, icon: star, background: "#6b3d8c", back: {label: Hero (back)}}
    """)


@pytest.fixture
def game(game_copy):
    write_game(game_copy, COMPONENTS)
    return load_game(game_copy)


def deep(elements):
    """Every element, inside groups and transforms too."""
    for e in elements:
        yield e
        if hasattr(e, "elements"):
            yield from deep(e.elements)


def entry(game, name):
    return next(s for s in game.component_specs if s.id == name)


def test_board_regions_from_the_layout(game):
    [piece] = pieces(game, entry(game, "main_board"))
    assert piece.size == (420, 300)
    els = list(flatten(piece.front))
    spaces = [e for e in els if e.role == "score:space"]
    numbers = [e.markup for e in els if e.role == "score:number"]
    assert len(spaces) == 50 and numbers[:3] == ["0", "1", "2"]
    # around the edge clockwise from the top-left: the first space in the corner, the spaces tile the ring
    assert spaces[0].rect.rounded() == (0, spaces[0].rect.y.__round__(2), spaces[0].rect.w.__round__(2),
                                         spaces[0].rect.h.__round__(2))
    assert math.isclose(spaces[0].rect.top, 300) and math.isclose(spaces[0].rect.x, 0)
    ring = sum(s.rect.w * s.rect.h for s in spaces)
    cw, ch = spaces[0].rect.w, spaces[0].rect.h
    assert math.isclose(ring, 420 * 300 - (420 - 2 * cw) * (300 - 2 * ch))
    assert [s.fill != "#ffffff" for s in spaces[:6]] == [True, False, False, False, False, True]
    # repeated regions: four slots 80 mm apart, their cost circles labelled from the list
    slots = [e for e in els if e.role == "slot"]
    assert [round(s.rect.x, 2) for s in slots] == [60, 140, 220, 300]
    costs = [e.markup for e in els if e.role == "slot-cost:text"]
    assert costs == ["5", "4", "3", "2"]
    cells = [e.markup for e in els if e.role == "table:cell"]
    assert cells == ["p", "n", "2", "6", "3", "7"]
    # what seams must keep off: every track space, the keep_whole slots, and every text (the title, the
    # circles' numbers, the table's cells); the circles, the ground and the table's rules may be crossed
    kept = Counter(k.region.split("[")[0] for k in piece.keep)
    assert kept == {"score": 50, "slot": 4, "slot-cost": 4, "title": 1, "table": 6}
    assert [k.part for k in piece.keep if k.region == "score"] == [f"space {n}" for n in range(50)]
    assert [k.rect for k in piece.keep if k.region == "score"] == [s.rect for s in spaces]
    assert {type(e).__name__ for e in els if any(e.role.startswith(r) for r in ("slot-cost", "table"))
            and extent(e) in {k.rect for k in piece.keep}} == {"Text"}


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_large_board_tiles_with_seams_off_kept_features(game, paper):
    spec = entry(game, "main_board")
    [piece] = pieces(game, spec)
    pages, sides, tiles = piece_pages(piece, config_of(spec), BuildOptions(paper=paper), {})
    assert sides == "single" and tiles == len(pages) - 1 >= 4
    plan = tiling(piece, config_of(spec), paper)
    assert plan.cut == () and plan.hex_cuts == 0          # no kept region and no track space cut
    for x in plan.xs[1:-1]:
        assert not any(k.rect.x + 0.01 < x < k.rect.right - 0.01 for k in piece.keep)
    for y in plan.ys[1:-1]:
        assert not any(k.rect.y + 0.01 < y < k.rect.top - 0.01 for k in piece.keep)
    assert pages[0].label == "Main board assembly"
    assert [p.label for p in pages[1:]] == [f"Main board {t.label}" for t in plan.tiles]


def test_tiles_of_the_board_component_reassemble_the_board(game):
    """Tile rasters laid at their offsets reproduce the board's own raster: no gap, nothing doubled."""
    [piece] = pieces(game, entry(game, "main_board"))
    plan = tiling(piece, config_of(entry(game, "main_board")), "letter")
    pages = tile_pages(plan, piece.front, "Main board")[1:]
    dpi = 30
    images = raster(pages, dpi)
    k = dpi / 25.4
    reference, = raster([Page(420, 300, list(piece.front))], dpi)
    board = compose(plan, images, dpi, reference.size)
    # the outermost pixels hold the cut lines drawn just outside the board: compare inside them
    inner = (2, 2, reference.width - 2, reference.height - 2)
    shifted = plan.__class__(**{**plan.__dict__, "xs": tuple(x - 2 / k for x in plan.xs),
                                "ys": tuple(y - 2 / k for y in plan.ys)})
    assert mismatch(board.crop(inner), reference.crop(inner), shifted, dpi) < 0.002
    # a tile laid 3 mm off is seen
    off = compose(plan, images, dpi, reference.size, shift={plan.tiles[1].label: (3, 0)})
    assert mismatch(off.crop(inner), reference.crop(inner), shifted, dpi) > 0.005


def test_double_sided_pieces_fold_when_they_fit(game):
    spec = entry(game, "maps")
    ps = pieces(game, spec)
    assert [p.name for p in ps] == ["North", "South"]
    pages, sides, _ = piece_pages(ps[0], config_of(spec), BuildOptions(), {})
    assert sides == "fold" and len(pages) == 1
    back = next(e for e in pages[0].elements if e.role == "back")
    front = next(e for e in pages[0].elements if e.role == "front")
    assert [e.markup for e in back.elements if e.role == "name"] == ["North B"]
    assert [e.markup for e in front.elements if e.role == "name"] == ["North A"]
    # folded on the dashed line between them, each back point lies behind the front point it should
    # (the piece turned over like a book page: left and right swap)
    fold_line = next(e for e in pages[0].elements if e.role == "fold")
    for u, v in ((0, 0), (30, 70), (120, 100)):
        bx, by = apply(back.matrix, 120 - u, v)
        fx, fy = apply(front.matrix, u, v)
        if fold_line.x1 == fold_line.x2:
            assert abs(by - fy) < 0.01 and abs((bx + fx) / 2 - fold_line.x1) < 0.01
        else:
            assert abs(bx - fx) < 0.01 and abs((by + fy) / 2 - fold_line.y1) < 0.01
    duplex_spec = spec.__class__(spec.kind, spec.id, {**spec.config, "print": "duplex"}, spec.line)
    pages, sides, _ = piece_pages(ps[0], config_of(duplex_spec), BuildOptions(), {})
    assert sides == "double" and len(pages) == 2


def test_build_outputs_and_bill_of_materials(game):
    built = {c.name: c.build(game, BuildOptions()) for c in game_components(game)}
    [board] = built["main_board"]
    assert board.filename == "main-board.pdf" and board.sheets == len(board.pages)
    assert [(p.kind, p.count) for p in board.parts] == [("board", 1), ("tile", len(board.pages) - 1)]
    [maps] = built["maps"]
    assert maps.sides == "fold" and [(p.kind, p.count) for p in maps.parts] == [("map", 2)]
    [wardens] = built["wardens"]
    assert [(p.kind, p.count) for p in wardens.parts] == [("standee", 2)]
    labels = [e.markup for e in deep(wardens.pages[0].elements) if getattr(e, "role", "") == "label"]
    assert labels == ["Warden"] * 4                          # two figures, front and back
    [heroes] = built["heroes"]
    els = list(deep(heroes.pages[0].elements))
    assert [e.markup for e in els if getattr(e, "role", "") == "label"] == ["Hero", "Hero (back)"] * 2
    assert len([e for e in els if getattr(e, "role", "") == "slit"]) == 2


def test_problems_name_the_entry(game_copy):
    (game_copy / "templates" / "layouts").mkdir(parents=True, exist_ok=True)
    (game_copy / "templates" / "layouts" / "badicon.yaml").write_text(
        "size: [100, 100]\nregions:\n  - {name: i, kind: icon, at: [50, 50], icon: \"'nosuchicon'\"}\n")
    write_game(game_copy, textwrap.dedent("""\
        - {kind: board, id: d, layout: badicon}
        - {kind: board, id: b, layout: testboard, each: "nothing.here"}
        - {kind: standee, id: s, width: 30, height: 200, pieces: [{id: x, icon: nosuchicon}]}
        - {kind: board, id: c, layout: missing_layout}
        """))
    game = load_game(game_copy)
    problems = Problems()
    for c in game_components(game):
        c.check(game, problems, BuildOptions())
    text = sorted(str(p) for p in problems.errors)
    assert any("game.yaml:" in t and "board 'b'" in t and "nothing" in t for t in text), text
    assert any("standee 's'" in t and "unknown icon 'nosuchicon'" in t for t in text), text
    assert any("standee 's'" in t and "does not fit" in t for t in text), text
    assert any("no layout 'missing_layout'" in t for t in text), text
    # at the line of the layout's region that names it (it was the board's entry in game.yaml)
    assert any("badicon.yaml:3: layout 'badicon', region 'i': icon: gives 'nosuchicon', which is not an icon; "
               "known icons: " in t and t.endswith("(board 'd')") for t in text), text
    with pytest.raises(DataError):
        next(c for c in game_components(game) if c.name == "b").build(game, BuildOptions())


@pytest.mark.parametrize("track,message", [
    ('numbers: "range(0, 13)", path: around',
     "13 spaces cannot close round the rect's edge: a ring takes an even number of spaces, 4 or more; 12 or 14 "
     "would close (board 'ring')"),
    ('numbers: "range(0, 70)", path: around, columns: 36',
     "columns: 36 along the top and the bottom cannot close a ring of 70 spaces round the rect's edge: give "
     "columns from 2 to 35, or 72 spaces or more (board 'ring')"),
])
def test_a_board_track_round_an_edge_that_cannot_close_is_an_error_at_its_line(tmp_path, track, message):
    root = shutil.copytree(Path(__file__).parent / "games" / "starfall", tmp_path / "starfall")
    layout = root / "templates" / "layouts" / "ring.yaml"
    layout.write_text(textwrap.dedent(f"""\
        size: [200, 150]
        regions:
          - {{name: ground, kind: box, rect: [0, 0, 200, 150], fill: "'#eeeeee'"}}
          - {{name: score, kind: track, rect: [0, 0, 200, 150], {track}}}
        """))
    game_yaml = root / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("  - cards\n", "  - cards\n  - {kind: board, id: ring, layout: ring}\n", 1))
    result = CliRunner().invoke(main, ["validate", str(root)])
    assert result.exit_code == 2, result.output
    assert f"{layout}:4: layout 'ring', region 'score': {message}\n" in result.output, result.output
    assert "Traceback" not in result.output


HARBOUR = textwrap.dedent("""\
    size: [420, 300]
    regions:
      - {name: ground, kind: box, rect: [0, 0, 420, 300], fill: "'#e8dcc0'"}
      - {name: score, kind: track, rect: [0, 0, 420, 300], numbers: "range(0, 50)", path: around}
      - {name: title, kind: text, rect: TITLE, text: "'Harbour'", style: {font: serif-semibold, size: 20, min_size: 8}}
    """)


def harbour(tmp_path, title="[150, 240, 100, 20]", entry="{kind: board, id: harbour, layout: harbour}", extra=""):
    """The starfall test game with a 420 x 300 mm board: a 50-space track round its edge and a title."""
    root = shutil.copytree(Path(__file__).parent / "games" / "starfall", tmp_path / "starfall")
    layout = root / "templates" / "layouts" / "harbour.yaml"
    layout.write_text(HARBOUR.replace("TITLE", title) + extra)
    game_yaml = root / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("  - cards\n", f"  - cards\n  - {entry}\n", 1))
    return root, layout


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_seams_take_more_tiles_rather_than_cut_a_text(tmp_path, paper):
    """On Letter the fewest sheets (2 x 2 landscape) would put a seam through the title: every seam position
    a 2-column tiling allows lies on it. The tiler takes 3 x 2 sheets, its seams on the lines between spaces."""
    root, _ = harbour(tmp_path)
    game = load_game(root)
    spec = entry(game, "harbour")
    [piece] = pieces(game, spec)
    plan = tiling(piece, config_of(spec), paper)
    sheets = {"letter": 6, "a4": 4}[paper]        # A4's wider sheet lets a seam run right of the title
    assert plan.sheets == sheets and plan.cut == () and plan.whole_sheets == sheets
    title = next(k.rect for k in piece.keep if k.region == "title")
    assert all(x <= title.x - 0.01 or x >= title.right + 0.01 for x in plan.xs[1:-1])
    cw = 420 / 16                                   # 16 spaces along the top of a 50-space ring on 420 x 300
    assert all(abs(x / cw - round(x / cw)) < 1e-6 for x in plan.xs)
    if paper == "letter":                         # without more tiles: 4 sheets, the title cut
        cuts = plan_tiles(420, 300, paper, avoid=piece.keep)
        assert cuts.sheets == 4 and [k.region for k in cuts.cut] == ["title"]


def test_a_cap_on_the_tiles_that_forces_a_cut_is_an_error_at_the_region(tmp_path):
    root, layout = harbour(tmp_path, entry="{kind: board, id: harbour, layout: harbour, tiles: {max: 4}}")
    result = CliRunner().invoke(main, ["validate", str(root)])
    assert result.exit_code == 2, result.output
    assert (f"{layout}:5: layout 'harbour', region 'title': it (100.0 x 20.0 mm at [150.0, 240.0]) is cut by the "
            f"seam between tiles A1 and A2 (x = 210.0 mm) on Letter (board 'harbour', piece 'Harbour'); keeping every "
            f"text, icon, track space and keep_whole region whole takes 6 sheets on Letter, and tiles: {{max: 4}} "
            f"allows 4; move it off the seam, or let seams cross it with keep_whole: false\n") in result.output
    assert "A4" not in result.output and "Traceback" not in result.output      # 4 sheets do on A4
    root, _ = harbour(tmp_path / "six", entry="{kind: board, id: harbour, layout: harbour, tiles: {max: 6}}")
    assert CliRunner().invoke(main, ["validate", str(root)]).exit_code == 0


def test_a_text_wider_than_any_tile_is_an_error_unless_seams_may_cross_it(tmp_path):
    root, layout = harbour(tmp_path, title="[20, 240, 380, 20]")
    result = CliRunner().invoke(main, ["validate", str(root)])
    assert result.exit_code == 2, result.output
    assert (f"{layout}:5: layout 'harbour', region 'title': it (380.0 x 20.0 mm at [20.0, 240.0]) is cut by the "
            f"seam between tiles A1 and A2 (x = 210.0 mm) on Letter (board 'harbour', piece 'Harbour'); no tiling "
            f"on Letter keeps every text, icon, track space and keep_whole region whole (region 'title' is larger "
            f"than a tile can show); move it off the seam, or let seams cross it with keep_whole: false\n"
            ) in result.output
    # only the title is named: the seams still keep off every track space
    assert result.output.count("is cut by the seam") == 2 and "space" not in result.output.split("keeps every")[0]
    root, _ = harbour(tmp_path / "crossed", title="[20, 240, 380, 20], keep_whole: false")
    result = CliRunner().invoke(main, ["validate", str(root)])
    assert result.exit_code == 0, result.output
    game = load_game(root)
    [piece] = pieces(game, entry(game, "harbour"))
    assert [k.region for k in piece.keep] == ["score"] * 50


def test_track_spaces_are_never_left_to_the_seams(tmp_path):
    root, layout = harbour(tmp_path, extra="  - {name: rounds, kind: track, rect: [60, 60, 300, 30], "
                                           "numbers: 'range(1, 9)', keep_whole: false}\n")
    result = CliRunner().invoke(main, ["validate", str(root)])
    assert result.exit_code == 2, result.output
    assert (f"{layout}:6: layout 'harbour', region 'rounds': keep_whole: false: a track's spaces are never cut by "
            f"a tile seam (a marker must sit on a whole space) (board 'harbour')\n") in result.output


def test_small_boards_share_a_sheet(game_copy):
    """Four 100 x 80 mm player boards: one landscape Letter sheet, two by two, each with its cut line and
    its name above it; a board alone on its sheet stays centred with crop marks as before."""
    (game_copy / "templates" / "layouts").mkdir(parents=True, exist_ok=True)
    (game_copy / "templates" / "layouts" / "aid.yaml").write_text(textwrap.dedent("""\
        size: [100, 80]
        regions:
          - {name: ground, kind: box, rect: [0, 0, 100, 80], fill: "item.colour"}
          - {name: name, kind: text, rect: [10, 30, 80, 20], text: "item.name", style: {font: sans-bold, size: 14}}
        """))
    write_game(game_copy, textwrap.dedent("""\
        - kind: board
          id: aids
          layout: aid
          each: "[{'name': 'Red', 'colour': '#9b2d2d'}, {'name': 'Blue', 'colour': '#2d5a9b'},
                  {'name': 'Green', 'colour': '#3f7a4a'}, {'name': 'Gold', 'colour': '#a8832a'}]"
          name: "item.name ~ ' aid'"
        - {kind: board, id: one, layout: aid, each: "[{'name': 'Solo', 'colour': '#777777'}]", name: item.name}
        """))
    game = load_game(game_copy)
    built = {c.name: c.build(game, BuildOptions()) for c in game_components(game)}
    [aids] = built["aids"]
    assert len(aids.pages) == 1 and aids.sheets == 1 and [(p.kind, p.count) for p in aids.parts] == [("board", 4)]
    page = aids.pages[0]
    assert (round(page.width, 2), round(page.height, 2)) == (279.4, 215.9)            # landscape: 4 fit, portrait 2
    groups = [e for e in page.elements if e.role.startswith("piece:")]
    assert [(round(g.dx, 2), round(g.dy, 2)) for g in groups] == [(8, 121.9), (113, 121.9), (8, 30.9), (113, 30.9)]
    assert all(g.clip.rounded() == (0, 0, 100, 80) for g in groups)
    cuts = [e.rect.rounded() for e in page.elements if e.role == "cut"]
    assert cuts == [(7.88, 121.78, 100.25, 80.25), (112.88, 121.78, 100.25, 80.25), (7.88, 30.78, 100.25, 80.25),
                    (112.88, 30.78, 100.25, 80.25)]
    names = [(e.markup, e.rect.rounded()) for e in page.elements if e.role == "piece-label"]
    assert names == [("Red aid", (8, 202.9, 100, 4.5)), ("Blue aid", (113, 202.9, 100, 4.5)),
                     ("Green aid", (8, 111.9, 100, 4.5)), ("Gold aid", (113, 111.9, 100, 4.5))]
    # every piece keeps the printer margin, and pieces keep their gap
    rects = [Rect(g.dx, g.dy, 100, 80) for g in groups]
    assert all(r.x >= 6 and r.y >= 6 and r.right <= 279.4 - 6 and r.top + 6 <= 215.9 - 6 for r in rects)
    assert round(rects[1].x - rects[0].right, 2) == 5 and round(rects[0].y - (rects[2].top + 6), 2) == 5
    # one board alone: its one page, centred, as a one-sheet tiled piece is
    [one] = built["one"]
    assert len(one.pages) == 1 and any(e.role == "crop" for e in flatten(one.pages[0].elements))
    a4 = next(c for c in game_components(game) if c.name == "aids").build(game, BuildOptions(paper="a4"))[0]
    assert len(a4.pages) == 1 and len([e for e in a4.pages[0].elements if e.role == "cut"]) == 4


def test_a_misspelt_icon_of_a_board_die_or_standee_names_its_line_and_the_closest(tmp_path):
    """Found by the generated games (issue 32): a misspelt icon in a board layout's icon region was reported
    at game.yaml's board entry without the closest name, and one in a die's face layout was not reported at
    all (the die printed without it); a standee's named no closest icon either."""
    root = tmp_path / "g"
    assert CliRunner().invoke(main, ["new", str(root)]).exit_code == 0
    layouts = root / "templates" / "layouts"
    (layouts / "mat.yaml").write_text(
        "size: [100, 80]\nregions:\n  - {name: ground, kind: box, rect: [0, 0, 100, 80], fill: \"'#eeeeee'\"}\n"
        "  - {name: seal, kind: icon, at: [50, 40], size: 10, icon: \"'seall'\"}\n")
    (layouts / "face.yaml").write_text(
        "size: [16, 16]\nregions:\n  - {name: pip, kind: icon, at: [8, 8], size: 5, icon: \"'sparkk'\"}\n")
    text = (root / "game.yaml").read_text().replace(
        "  - rulebook\n", "  - {kind: board, id: mat, layout: mat}\n  - {kind: dice, id: die, face: face}\n"
                         "  - {kind: standee, id: fig, width: 25, height: 40, pieces: [{id: hero, icon: sparc}]}\n"
                         "  - rulebook\n")
    (root / "game.yaml").write_text(text)
    box = root / "box.yaml"             # the box lists what the kit makes (else a warning comes first)
    box.write_text(box.read_text() + "  - {count: 1, item: mat}\n  - {count: dice, item: die}\n"
                                     "  - {count: 1, item: fig}\n")
    result = CliRunner().invoke(main, ["validate", str(root), "--no-cache"])
    assert result.exit_code == 2
    line = next(i for i, x in enumerate(text.splitlines(), 1) if "kind: standee" in x)
    assert result.output.splitlines()[:-1] == [
        f"{layouts / 'mat.yaml'}:4: layout 'mat', region 'seal': icon: gives 'seall', which is not an icon; did you "
        f"mean 'seal'? (board 'mat')",
        f"{layouts / 'face.yaml'}:3: layout 'face', region 'pip': icon: gives 'sparkk', which is not an icon; did "
        f"you mean 'spark'? (dice 'die')",
        f"{root / 'game.yaml'}:{line}: standee 'fig': piece 'hero' front: unknown icon 'sparc'; did you mean 'spark'?",
        f"{root / 'game.yaml'}:{line}: standee 'fig': piece 'hero' back: unknown icon 'sparc'; did you mean 'spark'?"]
