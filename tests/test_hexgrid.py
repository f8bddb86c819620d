"""Hex grid geometry to 0.01 mm: sizes, centres, corners, neighbours, shared edges, pixel -> hex, maps."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.layout.hexgrid import (Edge, Hex, HexGrid, axial_to_offset, distance, edge, offset_to_axial, rectangle,
                                round_hex, seam_keepouts)

TOL = 0.01
SQRT3 = math.sqrt(3)


def close(a, b, tol=TOL):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def dist(p, q):
    return math.hypot(p[0] - q[0], p[1] - q[1])


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_size_is_the_width_across_the_flats(orientation):
    g = HexGrid(orientation, 30.0)
    assert g.radius == pytest.approx(17.3205, abs=1e-4)
    corners = g.corners((0, 0))
    # opposite edges' midpoints are `size` apart
    mids = [((corners[k][0] + corners[(k + 1) % 6][0]) / 2, (corners[k][1] + corners[(k + 1) % 6][1]) / 2)
            for k in range(6)]
    for k in range(3):
        assert dist(mids[k], mids[k + 3]) == pytest.approx(30.0, abs=TOL)
    assert dist(corners[0], corners[3]) == pytest.approx(2 * g.radius, abs=TOL)
    w, h = (34.64, 30.0) if orientation == "flat" else (30.0, 34.64)
    assert (round(g.width, 2), round(g.height, 2)) == (w, h)


def test_flat_top_centres_and_corners():
    g = HexGrid("flat", 30.0, origin=(100.0, 200.0))
    R = 30 / SQRT3
    assert close(g.centre((0, 0)), (100, 200))
    assert close(g.centre((1, 0)), (100 + 1.5 * R, 200 - 15))         # down-right: 25.98, 185
    assert close(g.centre((1, 0)), (125.98, 185.0))
    assert close(g.centre((0, 1)), (100, 170))                        # r grows down the page
    assert close(g.centre((2, -1)), (151.96, 200.0))
    c = g.corners((0, 0))
    assert close(c[0], (100 + R, 200)) and close(c[0], (117.32, 200.0))
    assert close(c[1], (108.66, 215.0)) and close(c[2], (91.34, 215.0))
    assert close(c[3], (82.68, 200.0)) and close(c[4], (91.34, 185.0)) and close(c[5], (108.66, 185.0))


def test_pointy_top_centres_and_corners():
    g = HexGrid("pointy", 20.0)
    R = 20 / SQRT3
    assert close(g.centre((1, 0)), (20.0, 0.0))
    assert close(g.centre((0, 1)), (10.0, -1.5 * R)) and close(g.centre((0, 1)), (10.0, -17.32))
    c = g.corners((0, 0))
    assert close(c[0], (10.0, -R / 2)) and close(c[0], (10.0, -5.77))   # lower right, at -30 degrees
    assert close(c[1], (10.0, 5.77)) and close(c[2], (0.0, 11.55))


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_every_neighbour_lies_one_size_away_in_its_direction(orientation):
    g = HexGrid(orientation, 24.0)
    h = Hex(3, -2)
    cx, cy = g.centre(h)
    start = 30.0 if orientation == "flat" else 0.0
    for k, n in enumerate(g.neighbours(h)):
        nx, ny = g.centre(n)
        assert dist((cx, cy), (nx, ny)) == pytest.approx(24.0, abs=TOL)
        angle = math.degrees(math.atan2(ny - cy, nx - cx)) % 360
        assert angle == pytest.approx((start + 60 * k) % 360, abs=0.01)
        assert distance(h, n) == 1 and g.direction(h, n) == k
    assert len(set(g.neighbours(h))) == 6


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_shared_edge_is_the_common_side_of_both_hexes(orientation):
    g = HexGrid(orientation, 24.0, origin=(50, 50))
    a = Hex(0, 0)
    for b in g.neighbours(a):
        p1, p2 = g.edge_segment(a, b)
        assert dist(p1, p2) == pytest.approx(g.radius, abs=TOL)
        for p in (p1, p2):
            assert any(close(p, c) for c in g.corners(a)) and any(close(p, c) for c in g.corners(b))
        mid = g.edge_midpoint(a, b)
        ca, cb = g.centre(a), g.centre(b)
        assert close(mid, ((ca[0] + cb[0]) / 2, (ca[1] + cb[1]) / 2))
        q1, q2 = g.edge_segment(b, a)                 # the same segment, from b's side: reversed
        assert close(q1, p2) and close(q2, p1)


def test_edges_are_canonical_whichever_side_names_them():
    assert edge((1, 0), (0, 0)) == edge((0, 0), (1, 0)) == Edge(Hex(0, 0), Hex(1, 0))
    assert len({edge((0, 0), (0, 1)), edge((0, 1), (0, 0))}) == 1
    with pytest.raises(ValueError, match=r"hexes \(0, 0\) and \(2, 0\) are not neighbours"):
        edge((0, 0), (2, 0))
    g = HexGrid("flat", 20)
    # a hex's six edges, each also one of its neighbour's six
    for k, e in enumerate(g.edges_of(Hex(0, 0))):
        n = g.neighbour(Hex(0, 0), k)
        assert e in g.edges_of(n)


def test_distance_and_rounding():
    assert distance((0, 0), (3, -1)) == 3
    assert distance((-2, 1), (2, -1)) == 4
    assert round_hex(0.4, 0.4) == Hex(0, 1)          # s = -0.8 rounds furthest: r takes the remainder
    assert round_hex(0.1, -0.2) == Hex(0, 0)
    assert round_hex(1.6, -0.7) == Hex(2, -1)


def _inside(point, corners) -> bool:
    """Point in convex polygon (counterclockwise corners), with a small tolerance."""
    x, y = point
    for (x1, y1), (x2, y2) in zip(corners, corners[1:] + corners[:1]):
        if (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1) < -1e-6:
            return False
    return True


@settings(deadline=None)
@given(st.sampled_from(["flat", "pointy"]), st.floats(5, 60), st.floats(-300, 300), st.floats(-300, 300))
def test_hex_at_finds_the_hex_whose_outline_holds_the_point(orientation, size, x, y):
    g = HexGrid(orientation, size, origin=(12.5, -7.0))
    h = g.hex_at(x, y)
    assert _inside((x, y), list(g.corners(h)))
    # no neighbour's centre is nearer (within rounding)
    d = dist((x, y), g.centre(h))
    assert all(dist((x, y), g.centre(n)) >= d - 1e-6 for n in g.neighbours(h))


@settings(deadline=None)
@given(st.sampled_from(["flat", "pointy"]), st.integers(-20, 20), st.integers(-20, 20))
def test_hex_at_centre_and_near_corners_round_trips(orientation, q, r):
    g = HexGrid(orientation, 19.0, origin=(3, 4))
    h = Hex(q, r)
    assert g.hex_at(*g.centre(h)) == h
    cx, cy = g.centre(h)
    for x, y in g.corners(h):   # 0.1 mm inside each corner
        assert g.hex_at(cx + (x - cx) * 0.99, cy + (y - cy) * 0.99) == h


@pytest.mark.parametrize("orientation,parity", [("flat", "odd"), ("flat", "even"), ("pointy", "odd"),
                                                ("pointy", "even")])
def test_offset_coordinates_round_trip_and_stagger(orientation, parity):
    for col in range(-4, 6):
        for row in range(-4, 6):
            h = offset_to_axial(col, row, orientation, parity)
            assert axial_to_offset(h, orientation, parity) == (col, row)
    g = HexGrid(orientation, 20.0)
    a, b = offset_to_axial(0, 0, orientation, parity), offset_to_axial(1, 0, orientation, parity)
    c = offset_to_axial(0, 1, orientation, parity)
    if orientation == "flat":   # column 1 sits half a hex lower (odd) or higher (even) than column 0
        assert g.centre(b)[1] - g.centre(a)[1] == pytest.approx(-10.0 if parity == "odd" else 10.0)
    else:                       # row 1 sits half a hex right (odd) or left (even) of row 0
        assert g.centre(c)[0] - g.centre(a)[0] == pytest.approx(10.0 if parity == "odd" else -10.0)


def test_rectangular_map_bounds_and_fitted_frame():
    g = HexGrid("flat", 30.0)
    R = 30 / SQRT3
    hexes = rectangle(4, 3, "flat", "odd")
    assert len(hexes) == 12 and len(set(hexes)) == 12
    b = g.bounds(hexes)
    # 4 columns: 2R + 3 * 1.5R wide; 3 rows plus the odd columns' half hex: 3.5 * size high
    assert round(b.w, 2) == round(2 * R + 4.5 * R, 2) == 112.58
    assert round(b.h, 2) == 105.0
    fitted = g.fitted(hexes, margin=5)
    fb = fitted.bounds(hexes)
    assert fb.rounded() == (5.0, 5.0, 112.58, 105.0)
    # hex (0, 0) is the top-left hex: its top edge on the map's top edge
    assert round(max(y for _, y in fitted.corners((0, 0))), 2) == 110.0


def test_seam_keepouts_leave_the_interlocking_bands_of_flat_columns():
    g = HexGrid("flat", 30.0)
    R = 30 / SQRT3
    hexes = rectangle(3, 2, "flat")
    xs = seam_keepouts(g, hexes, "x")
    assert [(round(a, 2), round(b, 2)) for a, b in xs] == [
        (round(-R / 2, 2), round(R / 2, 2)), (round(R, 2), round(2 * R, 2)), (round(2.5 * R, 2), round(3.5 * R, 2))]
    # allowed between columns 0 and 1: [R/2, R] = where the columns interlock (only corners are cut)
    ys = seam_keepouts(g, hexes, "y")
    assert all(round(b - a, 2) == 10.0 for a, b in ys)          # 2 x (size / 2) / 3
    with pytest.raises(ValueError, match="orientation must be 'flat' or 'pointy'"):
        HexGrid("round", 10)
