"""Sheet geometry from layout data, exact to 0.01 mm."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.layout.geometry import Rect
from pnp.layout.sheet import back_slots, cut_lines, fit_grid, mirror
from pnp.units import PAPERS, PRINTER_MARGIN


def test_a4_holds_3_by_3_poker_cards_at_the_documented_positions():
    grid = fit_grid(*PAPERS["a4"], 63, 88)
    assert (grid.cols, grid.rows) == (3, 3)
    xs = sorted({round(s.x, 2) for s in grid.slots})
    assert xs == [10.5, 73.5, 136.5]
    # centred vertically: (297 - 264) / 2 = 16.5 mm above and below
    ys = sorted({round(s.y, 2) for s in grid.slots})
    assert ys == [16.5, 104.5, 192.5]


def test_letter_holds_3_by_3_centred():
    w, h = PAPERS["letter"]
    grid = fit_grid(w, h, 63, 88)
    assert (grid.cols, grid.rows) == (3, 3)
    block = grid.block
    assert round(block.x, 2) == round((215.9 - 189) / 2, 2) == 13.45
    assert round(block.y, 2) == round((279.4 - 264) / 2, 2) == 7.7
    assert round(w - block.right, 2) == 13.45 and round(h - block.top, 2) == 7.7


def test_slots_run_in_reading_order_from_the_top_left():
    grid = fit_grid(*PAPERS["letter"], 63, 88)
    first, second, fourth = grid.slot(0), grid.slot(1), grid.slot(3)
    assert first.top == pytest.approx(grid.block.top)
    assert second.x == pytest.approx(first.right)
    assert fourth.top == pytest.approx(first.y)


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_every_back_sits_behind_its_front_when_flipped_on_the_long_edge(paper):
    w, h = PAPERS[paper]
    grid = fit_grid(w, h, 63, 88)
    backs = back_slots(grid, grid.per_sheet, "long")
    for i, (front, back) in enumerate(zip(grid.slots, backs)):
        # mirror across the vertical centre line: same row, column mirrored
        assert round(back.x, 2) == round(w - front.right, 2)
        assert round(back.y, 2) == round(front.y, 2)
        row, col = divmod(i, grid.cols)
        assert back.rounded() == grid.slot(row * grid.cols + (grid.cols - 1 - col)).rounded()


def test_short_edge_flip_mirrors_rows():
    w, h = PAPERS["letter"]
    grid = fit_grid(w, h, 63, 88)
    backs = back_slots(grid, grid.per_sheet, "short")
    for front, back in zip(grid.slots, backs):
        assert round(back.x, 2) == round(front.x, 2)
        assert round(back.y, 2) == round(h - front.top, 2)


def test_cut_lines_run_to_the_sheet_edges_along_every_card_edge():
    w, h = PAPERS["letter"]
    grid = fit_grid(w, h, 63, 88)
    lines = cut_lines(grid.slots, w, h)
    vertical = sorted(round(l.x1, 2) for l in lines if l.x1 == l.x2)
    horizontal = sorted(round(l.y1, 2) for l in lines if l.y1 == l.y2)
    assert vertical == [13.45, 76.45, 139.45, 202.45]
    assert horizontal == [7.7, 95.7, 183.7, 271.7]
    assert all((l.y1, l.y2) == (0, h) for l in lines if l.x1 == l.x2)
    assert all((l.x1, l.x2) == (0, w) for l in lines if l.y1 == l.y2)


def test_margins_leave_room_for_home_printers():
    for paper in PAPERS:
        grid = fit_grid(*PAPERS[paper], 63, 88)
        b = grid.block
        assert min(b.x, b.y, grid.page_w - b.right, grid.page_h - b.top) >= PRINTER_MARGIN


def test_an_item_larger_than_the_sheet_is_refused():
    with pytest.raises(ValueError, match="does not fit"):
        fit_grid(*PAPERS["a4"], 250, 88)


sizes = st.floats(min_value=25, max_value=150, allow_nan=False)


@settings(deadline=None)
@given(w=st.floats(100, 500), h=st.floats(100, 500), iw=sizes, ih=sizes, flip=st.sampled_from(["long", "short"]))
def test_mirroring_is_an_involution_and_keeps_backs_on_the_sheet(w, h, iw, ih, flip):
    try:
        grid = fit_grid(w, h, iw, ih)
    except ValueError:
        return
    page = Rect(0, 0, w, h)
    for slot in grid.slots:
        back = mirror(slot, w, h, flip)
        assert page.contains(back, tol=1e-6)
        assert mirror(back, w, h, flip).rounded(6) == slot.rounded(6)
    backs = back_slots(grid, grid.per_sheet, flip)
    for i, a in enumerate(backs):
        for b in backs[i + 1:]:
            assert not a.overlaps(b)
