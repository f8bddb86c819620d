"""Tiling a board across sheets: seam choice, regions and strips, marks inside the margin, labels,
feature and hex avoidance (exact cases and Hypothesis properties)."""

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pnp.draw.text import fit
from pnp.layout.geometry import Box, Circle, Group, Line, Polygon, Rect, Text, Transform, extent, flatten
from pnp.layout.hexgrid import HexGrid, rectangle
from pnp.layout.tiling import (Keep, TileLabels, choose_seams, crossings, plan_hex_tiles, plan_tiles, row_name,
                               tile_pages, tiles_needed)
from pnp.units import PAPERS, PRINTER_MARGIN

from geometry_samples import sample_board

TOL = 0.01
LETTER, A4 = PAPERS["letter"], PAPERS["a4"]


def rounded(values, digits=2):
    return tuple(round(v, digits) for v in values)


def bounds(e) -> Rect:
    """Page-frame extent of a drawn element (strokes included)."""
    if isinstance(e, (Box, Text)):
        grow = e.width / 2 if isinstance(e, Box) and e.stroke else 0
        return e.rect.inset(-grow)
    if isinstance(e, Line):        # butt caps: a stroke widens a line sideways only
        gx = e.width / 2 if e.x1 == e.x2 else (0 if e.y1 == e.y2 else e.width / 2)
        gy = e.width / 2 if e.y1 == e.y2 else (0 if e.x1 == e.x2 else e.width / 2)
        return Rect(min(e.x1, e.x2) - gx, min(e.y1, e.y2) - gy, abs(e.x2 - e.x1) + 2 * gx, abs(e.y2 - e.y1) + 2 * gy)
    if isinstance(e, Circle):
        r = e.r + (e.width / 2 if e.stroke else 0)
        return Rect(e.cx - r, e.cy - r, 2 * r, 2 * r)
    if isinstance(e, Polygon):
        xs, ys = [p[0] for p in e.points], [p[1] for p in e.points]
        return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
    raise TypeError(e)


def marks(page):
    """Everything on a page except the clipped board content and clipped hatching, groups expanded."""
    out = []
    for e in page.elements:
        if isinstance(e, Group) and e.clip is not None:
            out.append(("clipped", e.clip.moved(e.dx, e.dy)))
        elif isinstance(e, Transform):
            continue
        else:
            out.extend(("drawn", x) for x in flatten([e]))
    return out


# ---------------------------------------------------------------------------------------------- exact cases

def test_seams_split_a_board_into_equal_tiles_worked_by_hand():
    # Letter portrait, 6 mm margin + 7 mm band each side: 189.9 x 253.4 mm per tile
    plan = plan_tiles(480, 420, "letter")
    assert not plan.landscape and (plan.cols, plan.rows) == (3, 2)
    # 3 columns: room 189.9 + 2 x 179.9 = 549.7, slack 69.7 shared: every region 166.67 wide
    assert rounded(plan.xs) == (0.0, 166.67, 323.33, 480.0)
    # 2 rows: room 253.4 + 243.4 = 496.8, slack 76.8: regions 215 high, the top row's core 215
    assert rounded(plan.ys) == (420.0, 205.0, 0.0)
    a1, a2, b2 = plan.by_label("A1"), plan.by_label("A2"), plan.by_label("B2")
    assert a1.region.rounded() == (0.0, 205.0, 166.67, 215.0) and a1.glue == () and a1.trim == ("s", "e")
    assert a2.region.rounded() == (156.67, 205.0, 166.67, 215.0) and a2.glue == ("w",)
    assert b2.core.rounded() == (166.67, 0.0, 156.67, 205.0)
    assert b2.region.rounded() == (156.67, 0.0, 166.67, 215.0) and b2.glue == ("n", "w")
    # regions are centred on the sheet
    r = a1.page_region
    assert round(r.x, 2) == round(LETTER[0] - r.right, 2) and round(r.y, 2) == round(LETTER[1] - r.top, 2)


def test_labels_run_in_reading_order_rows_lettered_from_the_top():
    plan = plan_tiles(700, 700, "a4")
    labels = [t.label for t in plan.tiles]
    assert labels[: plan.cols] == [f"A{j + 1}" for j in range(plan.cols)]
    assert labels[plan.cols] == "B1"
    assert plan.tile(0, 0).core.top == pytest.approx(700) and plan.tile(plan.rows - 1, 0).core.y == pytest.approx(0)
    assert [row_name(i) for i in (0, 1, 25, 26, 27, 51, 52)] == ["A", "B", "Z", "AA", "AB", "AZ", "BA"]


def test_a_board_that_fits_is_one_tile_without_strips_or_marks():
    plan = plan_tiles(150, 200, "letter")
    assert plan.sheets == 1 and plan.xs == (0.0, 150) and plan.ys == (200, 0.0)
    tile = plan.tiles[0]
    assert tile.glue == () and tile.trim == () and tile.marks == ()


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_orientation_gives_the_fewest_sheets(paper):
    pw, ph = PAPERS[paper]
    for w, h in ((500, 180), (180, 500), (600, 400), (400, 600), (260, 190)):
        plan = plan_tiles(w, h, paper)
        counts = []
        for a, b in ((pw, ph), (ph, pw)):
            uw, uh = a - 26, b - 26
            counts.append(tiles_needed(w, uw, 10) * tiles_needed(h, uh, 10))
        assert plan.sheets == min(counts)
        assert (plan.page_w, plan.page_h) == ((ph, pw) if plan.landscape else (pw, ph))
    assert plan_tiles(480, 180, paper).landscape and plan_tiles(480, 180, paper).sheets == 2
    assert not plan_tiles(180, 480, paper).landscape


def test_seams_move_off_a_feature_keeping_the_clearance():
    feature = Rect(160, 50, 15, 15)          # the equal-tiles seam at 166.67 would cut it
    plan = plan_tiles(480, 420, "letter", avoid=[feature])
    # nearest allowed with 2 mm clearance: 158 (8.67 mm away) rather than 177; the next seam stays
    assert rounded(plan.xs) == (0.0, 158.0, 323.33, 480.0)
    assert plan.cut == ()


def test_without_room_for_the_clearance_a_seam_may_touch_a_feature():
    # two features leave only x = 163 free near the first seam (and 177 beyond the reach of tile A1)
    fs = [Rect(100, 10, 63, 10), Rect(163, 30, 100, 10)]
    plan = plan_tiles(480, 420, "letter", avoid=fs)
    assert round(plan.xs[1], 2) == 163.0 and plan.cut == ()


def test_a_feature_no_seam_can_miss_is_reported():
    wide = Rect(100, 100, 200, 20)           # wider than any tile: some vertical seam must cut it
    plan = plan_tiles(480, 420, "letter", avoid=[wide])
    assert plan.sheets == 6 and plan.cut == (wide,)


def test_more_tiles_keep_a_feature_whole_that_the_fewest_would_cut():
    label = Keep(Rect(200, 50, 80, 20), "label")
    # 2 landscape sheets: the only seam positions (236.6 to 253.4) all run through the label
    fewest = plan_tiles(480, 180, "letter", avoid=[label])
    assert fewest.sheets == 2 and fewest.landscape and fewest.cut == (label,) and fewest.whole_sheets == 3
    [crossing] = crossings(fewest, [label])
    assert (crossing.feature, crossing.axis, round(crossing.at, 2), crossing.tiles) == (label, "x", 245.0, ("A1", "A2"))
    # allowed more sheets, a third tile: the seams nearest equal tiles, both clear of it
    plan = plan_tiles(480, 180, "letter", avoid=[label], max_sheets=math.inf)
    assert plan.sheets == 3 and plan.cut == () and crossings(plan, [label]) == []
    assert rounded(plan.xs) == (0.0, 166.67, 323.33, 480.0) and plan.whole_sheets == 3
    landscape = plan_tiles(480, 180, "letter", avoid=[label], max_sheets=math.inf, orientation="landscape")
    assert landscape.landscape and rounded(landscape.xs) == (0.0, 166.67, 323.33, 480.0)
    # a cap below what it takes: the fewest sheets, the cut named, and how many sheets would keep it whole
    capped = plan_tiles(480, 180, "letter", avoid=[label], max_sheets=2)
    assert capped.sheets == 2 and capped.cut == (label,) and capped.whole_sheets == 3


def test_a_feature_no_tile_can_hold_is_the_only_one_cut():
    """The long one is given up; the small ones beside it are still kept whole."""
    wide = Keep(Rect(20, 100, 440, 10), "banner")
    small = [Keep(Rect(x, 20, 12, 12), f"coin{i}") for i, x in enumerate(range(150, 330, 20))]
    plan = plan_tiles(480, 180, "letter", avoid=[wide, *small], max_sheets=math.inf)
    assert plan.cut == (wide,) and plan.whole_sheets is None
    assert {c.feature for c in crossings(plan, [wide, *small])} == {wide}


@st.composite
def scattered(draw):
    paper = draw(papers)
    w, h = draw(st.floats(150, 900)), draw(st.floats(150, 700))
    features = [Keep(Rect(draw(st.floats(0, w - 5)), draw(st.floats(0, h - 5)), draw(st.floats(1, 60)),
                          draw(st.floats(1, 60))), f"f{i}") for i in range(draw(st.integers(0, 12)))]
    return paper, w, h, features, draw(st.sampled_from([None, 4, 9, math.inf]))


@settings(max_examples=80, deadline=None)
@given(scattered())
def test_the_plan_names_exactly_the_features_its_seams_cross(case):
    paper, w, h, features, most = case
    plan = plan_tiles(w, h, paper, avoid=features, max_sheets=most)
    cut = crossings(plan, features)
    assert {c.feature for c in cut} == set(plan.cut)
    for c in cut:
        r = c.feature.rect
        if c.axis == "x":
            assert r.x + 1e-6 < c.at < r.right - 1e-6 and c.at in plan.xs[1:-1]
        else:
            assert r.y + 1e-6 < c.at < r.top - 1e-6 and c.at in plan.ys[1:-1]
    if most is not None and plan.whole_sheets is not None and plan.whole_sheets <= most:
        assert plan.cut == ()                     # a plan that keeps them all whole fits the cap: it is the one
    if most is not None and plan.cut:
        fewest = plan_tiles(w, h, paper, avoid=features)
        assert plan.sheets <= max(most, fewest.sheets)


def test_choose_seams_reports_no_solution_and_respects_limits():
    assert choose_seams(300, 190, 10, 2, [(0, 300)]) is None
    b = choose_seams(300, 190, 10, 2)
    assert rounded(b) == (0.0, 155.0, 300.0)
    # every printed extent within the sheet: first tile b1, the next b2 - b1 + overlap
    assert b[1] <= 190 + TOL and b[2] - b[1] + 10 <= 190 + TOL
    with pytest.raises(ValueError, match="leaves no room"):
        plan_tiles(900, 900, "letter", overlap=95)


def test_hex_map_seams_run_where_flat_columns_interlock():
    g = HexGrid("flat", 30.0)
    hexes = rectangle(16, 12, "flat")
    g = g.fitted(hexes)
    b = g.bounds(hexes)
    plain = plan_tiles(b.w, b.h, "letter")
    plan = plan_hex_tiles(b.w, b.h, g, hexes, "letter")
    assert plan.sheets == plain.sheets and plan.hex_cuts == 0
    R = g.radius
    centres_x = sorted({g.centre(h)[0] for h in hexes})
    centres_y = sorted({g.centre(h)[1] for h in hexes})
    for x in plan.xs[1:-1]:
        assert min(abs(x - c) for c in centres_x) >= R / 2 - TOL          # only corners are clipped
    for y in plan.ys[1:-1]:
        assert min(abs(y - c) for c in centres_y) >= 30 / 6 - TOL
    # the plain plan's seams do cut some hexes through their middles
    assert any(min(abs(x - c) for c in centres_x) < R / 2 for x in plain.xs[1:-1])


def test_tile_page_marks_are_shared_by_both_tiles_of_each_seam():
    plan = plan_tiles(480, 420, "letter")
    for tile in plan.tiles:
        for m in tile.marks:
            sharing = [t for t in plan.tiles if m in t.marks]
            assert len(sharing) == 2
            a, b = sharing
            assert abs(a.row - b.row) + abs(a.col - b.col) == 1
            if m.seam == "v":
                assert m.x in plan.xs[1:-1]
            else:
                assert m.y in plan.ys[1:-1]
    pages = tile_pages(plan, sample_board(480, 420), "Board")
    for tile, page in zip(plan.tiles, pages[1:]):
        circles = [e for e in page.find("align") if isinstance(e, Circle)]
        expected = sorted(rounded(tile.to_page(m.x, m.y)) for m in tile.marks)
        assert sorted(rounded((c.cx, c.cy)) for c in circles) == expected
        # every vertical-seam mark sits on the trimmed edge of the left tile / the seam on the right one
        for m in tile.marks:
            if m.seam == "v":
                assert m.x in (tile.core.x, tile.core.right)


def test_glue_strips_say_which_tile_covers_them_and_hints_name_the_neighbours():
    plan = plan_tiles(480, 420, "letter")
    pages = {t.label: p for t, p in zip(plan.tiles, tile_pages(plan, [], "Board")[1:])}
    b2 = pages["B2"]
    assert sorted(e.markup for e in b2.find("glue-note")) == ["glue under A2", "glue under B1"]
    assert [e.markup for e in pages["A1"].find("hint:e")] == ["A2"]
    assert [e.markup for e in pages["A1"].find("hint:s")] == ["B1"]
    assert [e.markup for e in pages["A1"].find("tile-label")] == ["Board \u00b7 tile A1 \u00b7 1 of 6"]
    cuts = {e.role for e in flatten(pages["B2"].elements) if e.role.startswith("cut:")}
    assert cuts == {"cut:glue", "cut:trim", "cut:edge"}
    t = plan.by_label("A1")
    trims = [e for e in pages["A1"].find("cut:trim")]
    # the east trim line lies just outside the region: its inner edge on the seam
    east = next(e for e in trims if e.x1 == e.x2)
    assert round(east.x1 - east.width / 2, 4) == round(t.page_region.right, 4)
    labels = TileLabels(glue="unter {label} kleben")
    page = tile_pages(plan, [], "Brett", labels)[5]
    assert "unter A2 kleben" in [e.markup for e in page.find("glue-note")]


def test_every_text_on_the_tile_pages_and_the_map_fits():
    plan = plan_tiles(480, 420, "a4")
    for page in tile_pages(plan, [], "Shadow Kingdoms game board"):
        for e in flatten(page.elements):
            if isinstance(e, Text):
                assert fit(e.markup, e.style, e.rect.w, e.rect.h).ok, (page.label, e.role, e.markup)


def test_assembly_map_shows_every_tile_on_its_core():
    plan = plan_tiles(480, 420, "letter")
    page = tile_pages(plan, sample_board(480, 420), "Board")[0]
    board = page.find("map-board")[0]
    s, _, _, _, ox, oy = board.matrix
    assert s * 480 <= plan.page_w - 2 * PRINTER_MARGIN
    for tile in plan.tiles:
        label = page.find(f"map-label:{tile.label}")[0]
        assert abs(label.rect.cx - (ox + tile.core.cx * s)) < TOL
        assert abs(label.rect.cy - (oy + tile.core.cy * s)) < TOL
    seams = page.find("map-seam")
    assert len(seams) == (plan.cols - 1) + (plan.rows - 1)


# ---------------------------------------------------------------------------------------------- properties

boards = st.tuples(st.floats(40, 1100), st.floats(40, 1100))
papers = st.sampled_from(["letter", "a4"])
overlaps = st.sampled_from([0.0, 5.0, 10.0, 15.0])


@settings(max_examples=60, deadline=None)
@given(boards, papers, overlaps)
def test_cores_tile_the_board_and_regions_add_only_the_strips(size, paper, overlap):
    w, h = size
    plan = plan_tiles(w, h, paper, overlap=overlap)
    assert sum(t.core.w * t.core.h for t in plan.tiles) == pytest.approx(w * h)
    for t in plan.tiles:
        # a region is its core plus a strip `overlap` wide on each glue side, nothing else
        assert t.region.x == pytest.approx(t.core.x - (overlap if "w" in t.glue else 0))
        assert t.region.right == pytest.approx(t.core.right)
        assert t.region.y == pytest.approx(t.core.y)
        assert t.region.top == pytest.approx(t.core.top + (overlap if "n" in t.glue else 0))
        # every point of a strip lies on the core of an earlier tile (laid over it once assembled)
        index = plan.tiles.index(t)
        for side in t.glue:
            strip = t.strip(side, overlap)
            for fx in (0.01, 0.5, 0.99):
                for fy in (0.01, 0.5, 0.99):
                    x, y = strip.x + fx * strip.w, strip.y + fy * strip.h
                    owners = [i for i, u in enumerate(plan.tiles) if u.core.inset(-1e-6).contains(Rect(x, y, 0, 0))]
                    assert owners and min(owners) < index
        # the region fits the sheet inside the margin and the mark band
        pr, inner = t.page_region, plan.margin + plan.band
        assert pr.x >= inner - TOL and pr.y >= inner - TOL
        assert pr.right <= plan.page_w - inner + TOL and pr.top <= plan.page_h - inner + TOL
    # no two cores overlap
    for i, a in enumerate(plan.tiles):
        for b in plan.tiles[i + 1:]:
            assert not a.core.overlaps(b.core)


@settings(max_examples=60, deadline=None)
@given(boards, papers, overlaps, st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=5, max_size=5))
def test_every_board_point_is_printed_and_the_top_layer_is_its_own_core(size, paper, overlap, points):
    w, h = size
    plan = plan_tiles(w, h, paper, overlap=overlap)
    for fx, fy in points + [(0, 0), (1, 1), (0, 1), (1, 0)]:
        x, y = fx * w, fy * h
        holding = [i for i, t in enumerate(plan.tiles) if t.region.inset(-1e-6).contains(Rect(x, y, 0, 0))]
        assert holding, (x, y)
        # assembled with earlier tiles on top of later ones' strips, the topmost tile is the core's owner
        top = plan.tiles[min(holding)]
        assert top.core.inset(-1e-6).contains(Rect(x, y, 0, 0))
        # points covered twice or more lie in a glue strip of every tile but the top one
        for i in holding:
            t = plan.tiles[i]
            if i != min(holding):
                assert any(t.strip(s, overlap).inset(-1e-6).contains(Rect(x, y, 0, 0)) for s in t.glue)


@settings(max_examples=25, deadline=None)
@given(boards, papers)
def test_every_mark_lies_inside_the_printer_margin(size, paper):
    w, h = size
    plan = plan_tiles(w, h, paper)
    for page in tile_pages(plan, [], "Board"):
        for kind, e in marks(page):
            r = e if kind == "clipped" else bounds(e)
            assert r.x >= PRINTER_MARGIN - TOL and r.y >= PRINTER_MARGIN - TOL, (page.label, e)
            assert r.right <= plan.page_w - PRINTER_MARGIN + TOL and r.top <= plan.page_h - PRINTER_MARGIN + TOL


@st.composite
def avoidable(draw):
    """A board, a feasible set of seams along x, and features placed off those seams."""
    paper = draw(papers)
    pw, ph = PAPERS[paper]
    usable = pw - 26
    n = draw(st.integers(2, 5))
    w = draw(st.floats(usable + 1, usable + (n - 1) * (usable - 10) - 1))
    n = tiles_needed(w, usable, 10)
    # random feasible cores: first <= usable, others <= usable - 10, all >= 10, summing to w
    cores = []
    left = w
    for k in range(n):
        hi = usable if k == 0 else usable - 10
        rest = n - k - 1
        lo_k = max(10, left - rest * (usable - 10))
        hi_k = min(hi, left - rest * 10)
        assume(lo_k <= hi_k)
        c = left if rest == 0 else draw(st.floats(lo_k, hi_k))
        cores.append(c)
        left -= c
    seams = [sum(cores[:k]) for k in range(1, n)]
    features = []
    for _ in range(draw(st.integers(1, 6))):
        k = draw(st.integers(0, n - 1))
        x0 = sum(cores[:k])
        fw = draw(st.floats(1, max(1.0, cores[k] - 1)))
        fx = draw(st.floats(x0, x0 + cores[k] - fw))
        features.append(Rect(fx, draw(st.floats(0, 150)), fw, draw(st.floats(1, 40))))
    return paper, w, features, seams


@settings(max_examples=80, deadline=None)
@given(avoidable())
def test_seams_avoid_every_feature_whenever_some_seams_could(case):
    paper, w, features, _ = case
    plan = plan_tiles(w, 200, paper, avoid=features, orientation="portrait")
    assert plan.cut == ()
    for x in plan.xs[1:-1]:
        assert all(not (f.x + 1e-6 < x < f.right - 1e-6) for f in features)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["flat", "pointy"]), st.floats(15, 40), st.integers(6, 22), st.integers(6, 22), papers)
def test_hex_seams_keep_off_hex_middles_when_the_sheet_allows(orientation, size, cols, rows, paper):
    g = HexGrid(orientation, size)
    hexes = rectangle(cols, rows, orientation)
    g = g.fitted(hexes)
    b = g.bounds(hexes)
    plan = plan_hex_tiles(b.w, b.h, g, hexes, paper)
    step_x = 1.5 * g.radius if orientation == "flat" else size / 2
    step_y = size / 2 if orientation == "flat" else 1.5 * g.radius
    xs = sorted({g.centre(h)[0] for h in hexes})
    ys = sorted({g.centre(h)[1] for h in hexes})
    bad_x = sum(1 for x in plan.xs[1:-1] if min(abs(x - c) for c in xs) < step_x / 3 - 1e-6)
    bad_y = sum(1 for y in plan.ys[1:-1] if min(abs(y - c) for c in ys) < step_y / 3 - 1e-6)
    assert bad_x + bad_y == plan.hex_cuts
    # an axis whose tiles could stretch by two hex steps or more in total always has clean seams
    for length, step, bad, usable in ((b.w, step_x, bad_x, plan.page_w - 26), (b.h, step_y, bad_y, plan.page_h - 26)):
        n = tiles_needed(length, usable, 10)
        slack = usable + (n - 1) * (usable - 10) - length
        if slack >= 2 * step:
            assert bad == 0
    assert plan.sheets == plan_tiles(b.w, b.h, paper).sheets


def test_each_tile_page_carries_only_the_board_elements_near_it():
    board = sample_board(480, 420)
    plan = plan_tiles(480, 420, "letter")
    pages = tile_pages(plan, board, "Board")
    for tile, page in zip(plan.tiles, pages[1:]):
        content = page.groups("tile:")[0]
        kept = set(map(id, content.elements))
        for e in board:
            r = extent(e)
            assert (id(e) in kept) == tile.region.inset(-1.0).overlaps(r)
        assert len(content.elements) < len(board)


# ------------------------------------------------------------------------- a thin strip's glue note

def _thin_plan(overlap: float = 10.0):
    """Tide Clock's harbour board as its kit tiles it on landscape Letter, its last column a 23 mm strip
    (seams at 240 and 477 mm of 500; two rows of 170 mm)."""
    from pnp.layout.tiling import TilePlan, _tiles

    xs, ys = (0.0, 240.0, 477.0, 500.0), (340.0, 170.0, 0.0)
    page_w, page_h = LETTER[1], LETTER[0]
    return TilePlan(500.0, 340.0, page_w, page_h, True, overlap, PRINTER_MARGIN, 7.0, xs, ys,
                    _tiles(xs, ys, overlap, page_w, page_h, 7.0))


def _notes(page) -> list:
    return [e for e in page.elements if getattr(e, "role", "").startswith("glue-note")]


@pytest.mark.parametrize("overlap", [10.0, 4.0, 2.5])
def test_every_glue_note_lies_on_its_strip_and_its_words_fit_it(overlap):
    """On main the top strip's note was 60 mm wide whatever the strip: on a 23 mm strip (tile B3) its
    white box ran 18.5 mm past the tile on the right, over its crosshair, and covered the side strip's
    corner on the left. Every note (its box, its words' box, turned or not) now lies on its strip, and
    its words fit their box."""
    from pnp.draw.text import fit, text_fits
    from pnp.layout.tiling import glue_room

    plan = _thin_plan(overlap)
    pages = tile_pages(plan, [], "Harbour board", None, text_fits)[1:]
    for tile, page in zip(plan.tiles, pages):
        strips = {side: tile.strip(side, overlap).moved(tile.dx, tile.dy) for side in tile.glue}
        for e in _notes(page):
            box = extent(e)
            assert any(room.contains(box, TOL) for room in strips.values()), (tile.label, e.role, box)
            assert any(glue_room(tile, side, overlap).contains(box, TOL) for side in tile.glue)
            texts = [e] if isinstance(e, Text) else [x for x in flatten(getattr(e, "elements", ())) if isinstance(x, Text)]
            for t in texts:
                assert fit(t.markup, t.style, t.rect.w, t.rect.h).ok, (tile.label, t.markup)


def test_a_thin_strips_note_is_as_wide_as_its_strip_and_wide_strips_keep_theirs():
    """B3's top strip: 23 mm of core less 2 mm at each end, 19 mm, beside the 10 mm side strip (page
    frame: the tile's region 33 x 180 mm centred on the 279.4 x 215.9 mm sheet); "glue under A3" on one
    line at 6.5 pt. B2's top strip (237 mm) keeps its 60 mm note centred on the strip."""
    from pnp.draw.text import fit, text_fits

    plan = _thin_plan()
    pages = dict(zip((t.label for t in plan.tiles), tile_pages(plan, [], "Harbour board", None, text_fits)[1:]))
    (top,) = [e for e in pages["B3"].find("glue-note") if e.markup == "glue under A3"]
    assert top.rect.rounded(2) == (135.2, 188.45, 19.0, 9.0)
    (bg,) = [e for e in pages["B3"].find("glue-note-bg") if e.rect.y > 150]
    assert bg.rect.rounded(2) == (135.4, 188.65, 18.6, 8.6)
    fitted = fit(top.markup, top.style, top.rect.w, top.rect.h)
    assert fitted.size == 6.5 and len(fitted.lines) == 1
    (wide,) = [e for e in pages["B2"].find("glue-note") if e.markup == "glue under A2"]
    region = plan.by_label("B2").page_region
    assert wide.rect.rounded(2) == (round(region.x + 10 + 2 + (region.w - 14) / 2 - 30, 2), 188.45, 60.0, 9.0)


def test_a_side_strip_too_narrow_for_its_words_across_turns_them_to_run_up_the_strip():
    """With 4 mm strips the side note's 3 mm are too narrow for "under" at 6 pt (pnp's least): the words
    run up the strip on one line, in a 3 x 16 mm box centred on the tile's middle (a quarter turn:
    they read from the bottom). The top strip's 3 mm hold them on one line, across."""
    from pnp.draw.text import text_fits

    plan = _thin_plan(4.0)
    pages = dict(zip((t.label for t in plan.tiles), tile_pages(plan, [], "Harbour board", None, text_fits)[1:]))
    (turned,) = pages["B3"].find("glue-note-turned")
    assert turned.matrix[:4] == (0.0, 1.0, -1.0, 0.0)
    (words,) = turned.elements
    assert words.markup == "glue under B2" and words.style.max_lines == 1
    tile = plan.by_label("B3")
    region = tile.page_region
    assert extent(turned).rounded(2) == Rect(region.x + 0.5, region.cy - 8, 3.0, 16.0).rounded(2)
    assert [e.markup for e in pages["B3"].find("glue-note")] == ["glue under A3"]      # across, on the top strip


def test_a_glue_note_with_no_room_for_its_words_shortens_them_or_is_left_out():
    from pnp.draw.text import text_fits
    from pnp.layout.tiling import glue_note

    (bg, note) = glue_note(Rect(0, 0, 5.0, 9.0), "n", "glue under A3", "A3", text_fits)
    assert note.markup == "A3" and note.rect.rounded(2) == (0, 0, 5.0, 9.0)
    assert glue_note(Rect(0, 0, 5.0, 1.5), "n", "glue under A3", "A3", text_fits) == []
    assert glue_note(Rect(0, 0, 1.5, 40.0), "w", "glue under A3", "A3", text_fits) == []
