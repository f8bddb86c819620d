"""Saddle-stitch imposition as a pure function of the page count, checked for every count."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pnp.layout.imposition import padded, print_order, saddle_stitch


def sides(n, flip="short"):
    return [(s.left, s.right) for s in print_order(n, flip)]


def test_sixteen_pages_match_the_printed_plan():
    assert sides(16)[:4] == [(16, 1), (2, 15), (14, 3), (4, 13)]
    assert sides(16) == [(16, 1), (2, 15), (14, 3), (4, 13), (12, 5), (6, 11), (10, 7), (8, 9)]


def test_eight_pages():
    assert sides(8) == [(8, 1), (2, 7), (6, 3), (4, 5)]


def test_padding_pages_are_blank():
    assert padded(13) == 16
    assert sides(13)[:2] == [(None, 1), (2, None)]


def test_long_edge_duplex_turns_only_the_backs():
    order = print_order(8, "long")
    assert [s.rotated for s in order] == [False, True, False, True]
    assert not any(s.rotated for s in print_order(8, "short"))


def test_bad_arguments():
    with pytest.raises(ValueError):
        saddle_stitch(0)
    with pytest.raises(ValueError):
        saddle_stitch(8, "diagonal")


@given(st.integers(min_value=1, max_value=400), st.sampled_from(["short", "long"]))
def test_every_page_is_printed_once_and_folds_into_reading_order(n, flip):
    total = padded(n)
    assert total % 4 == 0 and 0 <= total - n < 4
    full = saddle_stitch(total, flip)
    sheets = saddle_stitch(n, flip)
    assert len(sheets) == len(full) == total // 4
    # the padded booklet is the full one with the pages past the end left blank
    blank = lambda p: p if p <= n else None  # noqa: E731
    for got, want in zip(sheets, full):
        for g, w in ((got.front, want.front), (got.back, want.back)):
            assert (g.left, g.right, g.rotated) == (blank(w.left), blank(w.right), w.rotated)
    seen = [p for s in sheets for side in (s.front, s.back) for p in (side.left, side.right) if p is not None]
    assert sorted(seen) == list(range(1, n + 1))
    for k, sheet in enumerate(full):
        # the halves of a side face each other across the fold: their numbers add up to total + 1
        for side in (sheet.front, sheet.back):
            assert side.left + side.right == total + 1
        # the back is the front turned over: the page after the front's right page is the back's left
        assert sheet.back.left == sheet.front.right + 1
        # nested sheets: the outermost sheet carries the first and last pages
        assert sheet.front.right == 2 * k + 1
    # unfolding the nested stack gives pages 1..total in order
    reading = [None] * total
    for k, sheet in enumerate(full):
        for number, pos in ((sheet.front.right, 2 * k), (sheet.back.left, 2 * k + 1),
                            (sheet.back.right, total - 2 * k - 2), (sheet.front.left, total - 2 * k - 1)):
            reading[pos] = number
    assert reading == list(range(1, total + 1))
