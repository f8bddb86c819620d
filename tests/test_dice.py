"""Dice: sticker sheets (block shape, positions, counts per sheet) and cube nets (faces, which faces
are opposite once folded, corner handedness, tabs on the edges that meet), checked by rolling a cube."""

import itertools

import pytest

from pnp.layout.dice import (PIPS, cube_net, net_elements, net_grid, net_pages, pip_face, sticker_pages,
                             sticker_plan)
from pnp.layout.geometry import Group, Polygon, Rect, flatten
from pnp.units import PAPERS, PRINTER_MARGIN
from rasterize import pixel, raster

TOL = 0.01
LETTER, A4 = PAPERS["letter"], PAPERS["a4"]


# ---------------------------------------------------------------------------------------------- stickers

def test_letter_sticker_sheet_worked_by_hand():
    plan = sticker_plan(*LETTER)                 # 16 mm dice, 14 mm stickers, 3 mm between dice
    # 3x2 blocks (42 x 28): 4 x 8 = 32; 2x3 (28 x 42): 6 x 6 = 36; 6x1: 2 x 15 = 30; 1x6: 12 x 3 = 36
    assert (plan.block_cols, plan.block_rows, plan.per_sheet) == (2, 3, 36)
    assert (plan.grid.cols, plan.grid.rows) == (6, 6)
    # blocks 6 x 28 + 5 x 3 = 183 wide, 6 x 42 + 5 x 3 = 267 high, centred
    assert plan.face(0, 0).rounded() == (16.45, 259.2, 14.0, 14.0)
    assert plan.face(0, 1).rounded() == (30.45, 259.2, 14.0, 14.0)
    assert plan.face(0, 2).rounded() == (16.45, 245.2, 14.0, 14.0)
    assert plan.face(1, 0).rounded() == (47.45, 259.2, 14.0, 14.0)       # next block: 28 + 3 to the right
    assert plan.face(6, 0).rounded() == (16.45, 214.2, 14.0, 14.0)       # next row: 42 + 3 lower


def test_a4_sticker_sheet_and_other_sizes():
    plan = sticker_plan(*A4)
    # 3x2: (198 + 3) // 45 = 4 across, (285 + 3) // 31 = 9 down = 36; 2x3 gives 6 x 6 = 36 too (tie: 3x2)
    assert (plan.block_cols, plan.block_rows, plan.grid.cols, plan.grid.rows) == (3, 2, 4, 9)
    big = sticker_plan(*A4, die_size=25, sticker=22)
    assert big.sticker == 22 and big.per_sheet == max(
        (201 // (c * 22 + 3)) * (288 // (r * 22 + 3)) for c, r in ((3, 2), (2, 3), (6, 1), (1, 6)))
    with pytest.raises(ValueError, match="at most the die's 16 mm"):
        sticker_plan(*A4, sticker=17)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_45_dice_of_stickers_take_two_sheets_inside_the_margins(paper):
    plan = sticker_plan(*PAPERS[paper])
    dice = [[pip_face(v, plan.sticker, background="#c0392b") for v in range(1, 7)] for _ in range(45)]
    pages = sticker_pages(dice, plan)
    assert len(pages) == 2
    cuts = [e for e in pages[0].find("cut")]
    assert len(cuts) == 6 * 36 and len(pages[1].find("cut")) == 6 * 9
    for e in cuts:
        assert e.rect.x >= PRINTER_MARGIN - TOL and e.rect.right <= plan.grid.page_w - PRINTER_MARGIN + TOL
        assert e.rect.y >= PRINTER_MARGIN - TOL and e.rect.top <= plan.grid.page_h - PRINTER_MARGIN + TOL
    # a die's faces abut; its art bleeds only past the block's outer edges
    g = next(x for x in pages[0].elements if isinstance(x, Group) and x.role == "sticker:0:0")
    assert g.clip.rounded() == (-0.5, 0.0, 14.5 + (0.5 if plan.block_cols == 1 else 0.0), 14.5)


# ---------------------------------------------------------------------------------------------- nets

def roll(net):
    """Fold the net by rolling a cube over it, independently of the module's folding.

    Printed side out means the paper wraps the cube with its print away from it: turn the sheet over
    (print down, a half turn about the y axis, which mirrors x) and roll the cube over it from face 0.
    Returns, per face, the cube face (named by its starting direction) that face covers, and per face
    and printed side, the cube face across that edge."""
    def cell(k):
        r, r0 = net.faces[k], net.faces[0]
        return (round(-(r.x - r0.x) / net.edge), round((r.y - r0.y) / net.edge))        # mirrored x

    cells = {cell(k): k for k in range(6)}
    start = cell(0)
    state = {"down": "D", "up": "U", "n": "N", "s": "S", "e": "E", "w": "W"}
    result, across = {}, {}
    seen, stack = set(), [(start, state)]
    while stack:
        pos, st = stack.pop()
        if pos in seen:
            continue
        seen.add(pos)
        k = cells[pos]
        result[k] = st["down"]
        for printed_side, rolled in (("n", "n"), ("s", "s"), ("e", "w"), ("w", "e")):
            across[(k, printed_side)] = st[rolled]
        for d, (dx, dy) in (("e", (1, 0)), ("w", (-1, 0)), ("n", (0, 1)), ("s", (0, -1))):
            nxt = (pos[0] + dx, pos[1] + dy)
            if nxt in cells and nxt not in seen:
                opp = {"e": "w", "w": "e", "n": "s", "s": "n"}[d]
                new = dict(st)
                new["down"], new[d], new["up"], new[opp] = st[d], st["up"], st[opp], st["down"]
                stack.append((nxt, new))
    assert len(result) == 6
    return result, across


VEC = {"D": (0, 0, -1), "U": (0, 0, 1), "N": (0, 1, 0), "S": (0, -1, 0), "E": (1, 0, 0), "W": (-1, 0, 0)}


def det(a, b, c):
    return (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]))


@pytest.mark.parametrize("handed", ["right", "left"])
def test_opposite_faces_sum_to_seven_and_the_1_2_3_corner_has_its_handedness(handed):
    net = cube_net(16, 5, handed=handed)
    covered, _ = roll(net)
    assert sorted(covered.values()) == sorted(VEC)
    opposite = {("D", "U"), ("N", "S"), ("E", "W")}
    for a, b in ((0, 5), (1, 4), (2, 3)):                          # faces 1-6, 2-5, 3-4
        assert tuple(sorted((covered[a], covered[b]), key="DUNSEW".index)) in opposite
        assert a + 1 + b + 1 == 7
    # Western (right-handed) dice: 1, 2, 3 counterclockwise round their corner seen from outside
    d = det(*(VEC[covered[k]] for k in (0, 1, 2)))
    assert (d > 0) == (handed == "right")
    # the module's own folding agrees with the rolled cube, up to the half turn of the sheet
    for k in range(6):
        x, y, z = VEC[covered[k]]
        assert net.normals[k] == (-x, y, -z)


def test_custom_opposite_pairs_and_corner():
    net = cube_net(20, 6, opposite=((0, 1), (2, 3), (4, 5)), corner=(0, 2, 4), handed="left")
    covered, _ = roll(net)
    for a, b in ((0, 1), (2, 3), (4, 5)):
        assert [x + y for x, y in zip(VEC[covered[a]], VEC[covered[b]])] == [0, 0, 0]
    assert det(*(VEC[covered[k]] for k in (0, 2, 4))) < 0
    with pytest.raises(ValueError, match="must meet at a corner"):
        cube_net(opposite=((0, 1), (2, 3), (4, 5)), corner=(0, 1, 2))
    with pytest.raises(ValueError, match="opposite must pair the six faces"):
        cube_net(opposite=((0, 1), (0, 3), (4, 5)))


def test_net_face_positions_worked_by_hand():
    net = cube_net(16, 5)
    # the cross, 5 mm up for the tab under the bottom face: faces 1 and 6 (0, 5) in the column's
    # middle and bottom, 2 above 1, 5 below 1, 3 and 4 beside 1
    assert net.faces[0].rounded() == (16, 37, 16, 16)
    assert net.faces[1].rounded() == (16, 53, 16, 16)
    assert net.faces[4].rounded() == (16, 21, 16, 16)
    assert net.faces[5].rounded() == (16, 5, 16, 16)
    assert {net.faces[2].rounded(), net.faces[3].rounded()} == {(0, 37, 16, 16), (32, 37, 16, 16)}
    assert net.size == (48, 69)


@pytest.mark.parametrize("handed", ["right", "left"])
def test_tabs_sit_on_one_edge_of_each_pair_that_meets_and_cover_every_cube_edge_once(handed):
    net = cube_net(16, 5, handed=handed)
    covered, across = roll(net)
    edges = []
    for a, b in net.folds:
        edges.append(frozenset((covered[a], covered[b])))
    for t in net.tabs:
        here = frozenset((covered[t.face], across[(t.face, t.side)]))
        there = frozenset((covered[t.joins], across[(t.joins, t.joins_side)]))
        assert here == there                           # the tab's edge meets the edge it is glued under
        edges.append(here)
    assert len(net.tabs) == 7 and len(set(edges)) == 12
    # no edge carries two tabs, and no tab lies on a folded edge
    sides = [(t.face, t.side) for t in net.tabs] + [(t.joins, t.joins_side) for t in net.tabs]
    assert len(set(sides)) == 14


def test_tabs_stay_clear_of_faces_and_of_each_other():
    net = cube_net(16, 5)

    def box(points):
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))

    tabs = [box(t.outline) for t in net.tabs]
    for a, b in itertools.combinations(tabs + list(net.faces), 2):
        assert not a.overlaps(b, 1e-6)
    for t, b in zip(net.tabs, tabs):
        assert round(min(b.w, b.h), 2) == 5.0         # as deep as asked
        assert Rect(0, 0, *net.size).contains(b)


@pytest.mark.parametrize("paper,cols,rows", [("letter", 4, 3), ("a4", 3, 4)])
def test_nets_per_sheet(paper, cols, rows):
    # a 48 x 69 mm net, 2.5 mm apart, inside 6.5 mm (the margin plus the 0.5 mm bleed):
    # Letter (202.9 + 2.5) // 50.5 = 4 across, (266.4 + 2.5) // 71.5 = 3 down; A4 3 x 4
    grid = net_grid(cube_net(), *PAPERS[paper])
    assert (grid.cols, grid.rows) == (cols, rows)
    dice = [[pip_face(v, 16, background="#2e4d7a", colour="#ffffff") for v in range(1, 7)] for _ in range(45)]
    pages = net_pages(dice, cube_net(), *PAPERS[paper])
    assert len(pages) == 4                           # 12 a sheet: 12 + 12 + 12 + 9


def test_pip_faces():
    assert [len(PIPS[v]) for v in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    face = pip_face(5, 20, background="#ffffff")
    pips = [e for e in face if e.role == "pip"]
    assert sorted((round(p.cx, 2), round(p.cy, 2)) for p in pips) == [(5, 5), (5, 15), (10, 10), (15, 5), (15, 15)]
    with pytest.raises(ValueError, match="shows 1 to 6"):
        pip_face(7, 16)


def test_painted_net_puts_each_face_where_the_net_says():
    net = cube_net(16, 5)
    colours = ["#ff0000", "#00ff00", "#0000ff", "#ffff00", "#00ffff", "#ff00ff"]
    from pnp.layout.geometry import Box, Page
    faces = [[Box(Rect(-1, -1, 18, 18), fill=c)] for c in colours]
    page = Page(80, 90, [Group(tuple(net_elements(net, faces)), 10, 10)])
    image, = raster([page], 150)
    for k, c in enumerate(colours):
        r = net.faces[k]
        want = tuple(int(c[i:i + 2], 16) for i in (1, 3, 5))
        assert pixel(image, 10 + r.cx, 10 + r.cy, 150) == want
    # tabs are tinted, their outline cut
    t = net.tabs[0]
    xs, ys = [p[0] for p in t.outline], [p[1] for p in t.outline]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    assert pixel(image, 10 + cx, 10 + cy + 1.5, 150) == (228, 224, 216)
    assert any(isinstance(e, Polygon) and e.role == "cut" for e in flatten(page.elements))
