"""Fold-over standees: the back art lies behind the front art once folded (to 0.01 mm), fold and cut
lines, feet and slotted bases, sheet packing, and the painted strip."""

import pytest

from pnp.layout.geometry import Box, Rect
from pnp.layout.packing import shelf_pack
from pnp.layout.standee import (StandeeSpec, art_point, fold_point, standee_layout, standee_pages,
                                standee_sheets)
from pnp.units import PAPERS
from rasterize import pixel, raster

TOL = 0.01
SPECS = [StandeeSpec(30, 50), StandeeSpec(30, 50, fold="side"), StandeeSpec(42, 70, 18, base="slot"),
         StandeeSpec(25, 40, fold="side", base="slot", slot_depth=6)]


def close(a, b, tol=TOL):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: f"{s.fold}-{s.base}")
def test_folded_back_art_lies_exactly_behind_the_front_art(spec):
    """Fold the strip on its fold line: every back art point lands on the other layer directly behind the
    front. Seen from behind, the figure's point at front coordinates (u, v) has coordinates (W - u, v)
    (left and right swap, up stays up): the back art must be printed so that point lands there."""
    lay = standee_layout(spec)
    W, H = spec.width, spec.height
    # the art areas are mirror images across the fold
    fx0, fy0 = fold_point(lay, lay.back.x, lay.back.y)
    fx1, fy1 = fold_point(lay, lay.back.right, lay.back.top)
    folded = Rect(min(fx0, fx1), min(fy0, fy1), abs(fx1 - fx0), abs(fy1 - fy0))
    assert folded.rounded() == lay.front.rounded()
    for u in (0.0, 3.0, W / 2, W - 1.0, W):
        for v in (0.0, 7.5, H / 2, H):
            front = art_point(lay, "front", u, v)
            assert lay.front.inset(-1e-9).contains(Rect(*front, 0, 0))
            behind = fold_point(lay, *art_point(lay, "back", W - u, v))
            assert close(behind, front), (u, v, front, behind)
    # the feet (or slot tabs) fold onto each other too
    f0, f1 = lay.feet
    a = fold_point(lay, f1.x, f1.y)
    b = fold_point(lay, f1.right, f1.top)
    assert Rect(min(a[0], b[0]), min(a[1], b[1]), f1.w, f1.h).rounded() == f0.rounded()


def test_top_fold_strip_sizes_and_lines():
    lay = standee_layout(StandeeSpec(30, 50, 15))
    assert lay.size == (30, 130)
    assert lay.front.rounded() == (0, 15, 30, 50) and lay.back.rounded() == (0, 65, 30, 50)
    assert lay.fold == (0.0, 65, 30, 65)
    assert sorted(round(f[1], 2) for f in lay.folds) == [15, 65, 115]
    assert all(f[1] == f[3] and (f[0], f[2]) == (0, 30) for f in lay.folds)
    assert len(lay.cuts) == 4 and lay.base_piece is None
    # the back art is turned half round: its top-left corner (0, 50) prints at the strip's (30, 65)
    assert close(art_point(lay, "back", 0, 50), (30, 65))


def test_side_fold_cuts_the_feet_apart_below_the_fold():
    lay = standee_layout(StandeeSpec(30, 50, 15, fold="side"))
    assert lay.size == (60, 65)
    assert lay.fold == (30, 15, 30, 65)
    assert (30, 0.0, 30, 15) in lay.cuts                     # between the feet: cut, not folded
    assert [f.rounded() for f in lay.feet] == [(0, 0, 30, 15), (30, 0, 30, 15)]
    assert close(art_point(lay, "back", 0, 0), (30, 15))     # printed as seen


def test_slot_base_piece_and_slit():
    lay = standee_layout(StandeeSpec(42, 70, 18, base="slot", slot_depth=8, slot_width=1.2))
    assert lay.size == (42, 156)                              # 2 x 8 tab + 2 x 70 art
    assert lay.base_piece.rounded() == (0, 0, 52, 36)
    # the slit is centred in the base, a little longer than the figure is wide
    assert lay.slit.rounded() == (4.75, 17.4, 42.5, 1.2)
    assert round(lay.slit.cx, 2) == round(lay.base_piece.cx, 2) and round(lay.slit.cy, 2) == 18


def test_bad_specs_are_refused_with_the_field_named():
    with pytest.raises(ValueError, match="standee fold must be 'top' or 'side', not 'middle'"):
        StandeeSpec(30, 50, fold="middle")
    with pytest.raises(ValueError, match="standee height must be positive"):
        StandeeSpec(30, 0)


@pytest.mark.parametrize("paper,per_sheet", [("letter", 3), ("a4", 3)])
def test_standees_pack_onto_sheets_inside_the_margins(paper, per_sheet):
    pw, ph = PAPERS[paper]
    lay = standee_layout(StandeeSpec(50, 80, 15))           # a 50 x 190 mm strip
    # (page width - 2 x 8 mm + 4 mm gap) // 54 mm = 3 a shelf, and a second 190 mm shelf does not fit
    placed = standee_sheets([(k, lay) for k in range(7)], pw, ph)
    assert [p.sheet for p in placed] == [0] * per_sheet + [1] * per_sheet + [2]
    for p in placed:
        assert p.strip.x >= 8 - TOL and p.strip.y >= 8 - TOL
        assert p.strip.right <= pw - 8 + TOL and p.strip.top <= ph - 8 + TOL
    for a in placed:
        for b in placed:
            if a is not b and a.sheet == b.sheet:
                assert not a.strip.overlaps(b.strip)
    with pytest.raises(ValueError, match=r"standee 'huge': 100 x 330 mm does not fit .* \(fold: side lays the halves side by side: 200 x 165 mm\)"):
        standee_sheets([("huge", standee_layout(StandeeSpec(100, 150)))], pw, ph)


def test_slot_bases_sit_under_their_strips_on_the_same_sheet():
    lay = standee_layout(StandeeSpec(30, 50, 12, base="slot"))
    placed = standee_sheets([("a", lay), ("b", lay)], *PAPERS["a4"])
    for p in placed:
        assert p.base.top <= p.strip.y - 4 + TOL and p.base.x == p.strip.x


def test_shelf_pack_fills_shelves_then_sheets():
    area = Rect(0, 0, 100, 100)
    packed = shelf_pack([("a", 40, 60), ("b", 40, 60), ("c", 40, 30), ("d", 100, 30), ("e", 90, 90)], area, 5)
    where = {p.key: (p.sheet, p.rect.rounded()) for p in packed}
    assert where["e"] == (0, (0, 10, 90, 90))
    assert where["a"] == (1, (0, 40, 40, 60)) and where["b"] == (1, (45, 40, 40, 60))
    assert where["c"] == (1, (0, 5, 40, 30))      # a new shelf under a and b
    assert where["d"] == (2, (0, 70, 100, 30))


def test_painted_standee_registers_front_and_back():
    """Front art: red left half, blue right half. Back art (as seen from behind): its left half (the
    figure's right side, behind the blue) green, its right half yellow. On the strip, the back's green
    must lie mirrored behind the blue, the yellow behind the red."""
    spec = StandeeSpec(40, 60, 15)
    lay = standee_layout(spec)
    front = [Box(Rect(0, 0, 20, 60), fill="#ff0000"), Box(Rect(20, 0, 20, 60), fill="#0000ff")]
    back = [Box(Rect(0, 0, 20, 60), fill="#00ff00"), Box(Rect(20, 0, 20, 60), fill="#ffff00")]
    pages = standee_pages([("s", lay)], {"s": (front, back)}, *PAPERS["a4"])
    assert len(pages) == 1
    image, = raster(pages, 100)
    strip = pages[0].groups("strip:")[0]
    colours = {(255, 0, 0): "red", (0, 0, 255): "blue", (0, 255, 0): "green", (255, 255, 0): "yellow"}
    for u, v in ((5, 10), (35, 10), (12, 50), (28, 45)):
        fx, fy = art_point(lay, "front", u, v)
        bx, by = fold_point(lay, fx, fy)                     # the back layer's point behind it
        seen_front = colours[pixel(image, strip.dx + fx, strip.dy + fy, 100)]
        seen_back = colours[pixel(image, strip.dx + bx, strip.dy + by, 100)]
        assert (seen_front, seen_back) in (("red", "yellow"), ("blue", "green"))
    # the feet are printed in their own colour
    foot = lay.feet[0]
    assert pixel(image, strip.dx + foot.cx, strip.dy + foot.cy, 100) == (216, 210, 196)
    assert len(pages[0].find("cut")) == 4 and len(pages[0].find("fold")) == 3
