"""Double-sided pieces: every back point lies behind its front point, for duplex (long and short flips,
portrait and landscape pages, a back offset) and fold (side by side, stacked, with a gutter); rasterized
pages checked the same way."""

import pytest
from PIL import ImageOps

from pnp.layout.doublesided import behind, double_sided_pages, duplex, flip_axis, fold, turn_matrix
from pnp.layout.geometry import Box, Rect, apply, flatten
from pnp.layout.sheet import mirror
from pnp.units import PAPERS
from rasterize import pixel, raster

TOL = 0.01
POINTS = [(0, 0), (3, 4), (40, 10), (75.5, 60), (120, 90)]


def close(a, b, tol=TOL):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def back_point_of(ds, u, v):
    """The back frame point lying behind the front's (u, v): (w - u, v) turned on the side, (u, h - v) on top."""
    return apply(turn_matrix(ds.turn, ds.piece_w, ds.piece_h), u, v)   # the turn is its own inverse


CASES = [
    ("duplex", dict(flip="long", turn="side")), ("duplex", dict(flip="short", turn="side")),
    ("duplex", dict(flip="long", turn="top")), ("duplex", dict(flip="short", turn="top")),
    ("fold", dict(turn="side")), ("fold", dict(turn="top")), ("fold", dict(turn="side", gutter=8)),
]


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("mode,kw", CASES)
@pytest.mark.parametrize("size", [(120, 90), (90, 120), (180, 250), (250, 180)])
def test_every_back_point_lies_behind_its_front_point(paper, mode, kw, size):
    w, h = size
    try:
        ds = (duplex if mode == "duplex" else fold)(w, h, paper, **kw)
    except ValueError as e:
        assert mode == "fold" and "print it duplex" in str(e)     # large pieces cannot be folded
        return
    for u, v in POINTS:
        u, v = u * w / 120, v * h / 90
        front = apply(ds.front_matrix, u, v)
        back = apply(ds.back_matrix, *back_point_of(ds, u, v))
        assert close(behind(ds, *back), front)
    # the back's outline is the front's, reflected
    corners = [behind(ds, x, y) for x, y in ((ds.back.x, ds.back.y), (ds.back.right, ds.back.top))]
    xs, ys = sorted(c[0] for c in corners), sorted(c[1] for c in corners)
    assert close((xs[0], ys[0], xs[1] - xs[0], ys[1] - ys[0]), (ds.front.x, ds.front.y, w, h))
    for r in (ds.front, ds.back):   # inside the printer margin
        assert r.x >= 6 - TOL and r.y >= 6 - TOL and r.right <= ds.page_w - 6 + TOL and r.top <= ds.page_h - 6 + TOL


def test_duplex_backs_follow_the_card_sheets_convention():
    for flip in ("long", "short"):
        ds = duplex(150, 100, "letter", flip=flip)
        assert (ds.page_w, ds.page_h) == PAPERS["letter"]
        assert ds.back.rounded() == mirror(ds.front, ds.page_w, ds.page_h, flip).rounded()
    # a long-edge flip with the piece turned like a book page: the back is printed upright
    assert duplex(150, 100, "letter", "long", "side").back_matrix[:4] == (1.0, 0.0, 0.0, 1.0)
    # a short-edge flip turned like a book page: the back must be printed upside down
    assert duplex(150, 100, "letter", "short", "side").back_matrix[:4] == (-1.0, 0.0, 0.0, -1.0)
    assert duplex(150, 100, "letter", "short", "top").back_matrix[:4] == (1.0, 0.0, 0.0, 1.0)


def test_landscape_pages_swap_the_flip_axes():
    ds = duplex(250, 180, "a4", "long")
    assert (ds.page_w, ds.page_h) == (297, 210)
    assert flip_axis("long", 297, 210) == "y" and flip_axis("long", 210, 297) == "x"
    assert ds.back.rounded() == ds.front.rounded()          # centred: the mirror is itself
    assert ds.back_matrix[:4] == (-1.0, 0.0, 0.0, -1.0)     # long flip on a landscape page, turned sideways


def test_back_offset_moves_only_the_back():
    plain = duplex(120, 90, "a4")
    moved = duplex(120, 90, "a4", back_offset=(1.5, -2.0))
    assert moved.front == plain.front
    assert moved.back.rounded() == plain.back.moved(1.5, -2.0).rounded()


def test_fold_layouts_worked_by_hand():
    ds = fold(90, 120, "letter")                    # side by side on a portrait Letter page
    assert ds.fold[0] == ds.fold[2] == 215.9 / 2
    assert ds.front.rounded() == (17.95, 79.7, 90, 120) and ds.back.rounded() == (107.95, 79.7, 90, 120)
    stacked = fold(150, 100, "a4")                  # too wide side by side: one above the other
    assert stacked.fold[1] == stacked.fold[3] == 148.5
    assert stacked.front.rounded() == (30.0, 148.5, 150, 100) and stacked.back.rounded() == (30.0, 48.5, 150, 100)
    gap = fold(90, 120, "letter", gutter=8)
    assert round(gap.back.x - gap.front.right, 2) == 8
    with pytest.raises(ValueError, match="do not fit side by side .* print it duplex"):
        fold(200, 150, "letter")
    with pytest.raises(ValueError, match="does not fit a 215.9 x 279.4 mm sheet"):
        duplex(300, 300, "letter")
    with pytest.raises(ValueError, match="flip must be 'long' or 'short'"):
        duplex(100, 100, "letter", flip="edge")


def test_one_piece_fold_is_cut_round_both_halves_and_bleeds_off_the_fold_only():
    ds = fold(90, 120, "letter")
    page, = double_sided_pages(ds, [], [])
    cut, = page.find("cut")
    assert cut.rect.rounded() == (17.95, 79.7, 180, 120)
    fold_line, = page.find("fold")
    assert tuple(round(v, 2) for v in (fold_line.x1, fold_line.y1, fold_line.y2)) == (107.95, 79.7, 199.7)
    front = next(e for e in page.elements if e.role == "front")
    back = next(e for e in page.elements if e.role == "back")
    assert front.clip.rounded() == (-1.0, -1.0, 91.0, 122.0)      # no bleed over the fold (its east side)
    # the back is printed upright beside the front (turned like a page): its west side is on the fold
    assert back.matrix[:4] == (1.0, 0.0, 0.0, 1.0)
    assert back.clip.rounded() == (0.0, -2.0, 92.0, 124.0)


def _art(colours):
    """Four quadrants of distinct colours: (left-bottom, right-bottom, left-top, right-top)."""
    lb, rb, lt, rt = colours
    return [Box(Rect(-3, -3, 63, 48), fill=lb), Box(Rect(60, -3, 63, 48), fill=rb),
            Box(Rect(-3, 45, 63, 48), fill=lt), Box(Rect(60, 45, 63, 48), fill=rt)]


FRONT = ("#ff0000", "#00ff00", "#0000ff", "#ffff00")
BACK = ("#00ffff", "#ff00ff", "#000000", "#ff8000")


def _rgb(c):
    return tuple(int(c[i:i + 2], 16) for i in (1, 3, 5))


def _quadrant_colour(colours, u, v, w=120, h=90):
    return _rgb(colours[(1 if u >= w / 2 else 0) + (2 if v >= h / 2 else 0)])


@pytest.mark.parametrize("mode,kw", CASES[:2] + CASES[4:6])
def test_rasterized_back_registers_behind_the_front(mode, kw):
    ds = (duplex if mode == "duplex" else fold)(120, 90, "a4", **kw)
    pages = double_sided_pages(ds, _art(FRONT), _art(BACK))
    images = raster(pages, 72)
    front_img = images[0]
    back_img = images[-1]
    for u, v in ((10, 10), (110, 10), (10, 80), (110, 80), (50, 50), (70, 40)):
        fx, fy = apply(ds.front_matrix, u, v)
        assert pixel(front_img, fx, fy, 72) == _quadrant_colour(FRONT, u, v)
        # the back point behind (fx, fy): reflect the page (the sheet turned over, or the fold)
        bx, by = apply(ds.reflection, fx, fy)
        bu, bv = back_point_of(ds, u, v)
        assert pixel(back_img, bx, by, 72) == _quadrant_colour(BACK, bu, bv)
    if mode == "duplex":
        # turned over as the printer does, the back page's picture lies behind the front page's
        turned = ImageOps.mirror(back_img) if flip_axis(kw["flip"], ds.page_w, ds.page_h) == "x" else ImageOps.flip(back_img)
        u, v = 10, 80
        fx, fy = apply(ds.front_matrix, u, v)
        assert pixel(turned, fx, fy, 72) == _quadrant_colour(BACK, *back_point_of(ds, u, v))
    assert not [e for e in flatten(pages[0].elements) if e.role == "cut" and e.rect.x < 6]
