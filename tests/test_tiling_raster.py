"""Tiles rendered to PDF, rasterized and put together at their offsets reproduce the board's own raster."""

import math

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFilter

from pnp.layout.geometry import Page, Rect
from pnp.layout.tiling import plan_tiles, tile_pages
from geometry_samples import sample_board
from rasterize import raster

DPI = 40
UNCOVERED = (1, 2, 3)     # the colour left where no tile lies (none of the board's colours)


def compose(plan, tile_images, dpi, size, shift=None):
    """Cut each tile page's region out and lay it on the board, later tiles first (earlier ones on top).

    Rows are counted from the top of the page (exact whatever pdfium rounds the page height to); a
    trimmed edge leaves out the pixel it runs through, which the tile beneath shows whole."""
    board = Image.new("RGB", size, UNCOVERED)
    k = dpi / 25.4
    for tile, image in reversed(list(zip(plan.tiles, tile_images))):
        r = tile.page_region
        right = math.floor(r.right * k) if "e" in tile.trim else math.ceil(r.right * k)
        lower = math.floor((plan.page_h - r.y) * k) if "s" in tile.trim else math.ceil((plan.page_h - r.y) * k)
        piece = image.crop((math.floor(r.x * k), math.floor((plan.page_h - r.top) * k), right, lower))
        dx, dy = (shift or {}).get(tile.label, (0, 0))
        board.paste(piece, (math.floor((tile.region.x + dx) * k), math.floor((plan.board_h - tile.region.top - dy) * k)))
    return board


def mismatch(image: Image.Image, reference: Image.Image, plan=None, dpi=DPI, tolerance: int = 40) -> float:
    """Share of pixels outside the range of colours the reference has within one pixel of them (plus a
    tolerance): tiles sit at fractions of a pixel, so antialiased edges may move by one pixel.

    The one pixel row or column a seam runs through is left out: on paper it is half one tile, half
    the other, which a raster of whole pixels cannot show (the seams' exact geometry is tested in
    test_tiling.py; here the seam pixels are only checked to be covered)."""
    low, high = reference.filter(ImageFilter.MinFilter(3)), reference.filter(ImageFilter.MaxFilter(3))
    off = ImageChops.lighter(ImageChops.subtract(low, image), ImageChops.subtract(image, high))
    bad = off.convert("L").point(lambda v: 255 if v > tolerance else 0)
    if plan is not None:
        k = dpi / 25.4
        draw = ImageDraw.Draw(bad)
        for x in plan.xs[1:-1]:
            draw.line([(math.floor(x * k), 0), (math.floor(x * k), bad.height)], fill=0)
        for y in plan.ys[1:-1]:
            row = math.floor((plan.board_h - y) * k)
            draw.line([(0, row), (bad.width, row)], fill=0)
    return bad.histogram()[255] / (image.width * image.height)


@pytest.mark.parametrize("paper,size", [("letter", (480, 420)), ("a4", (520, 300)), ("a4", (300, 600))])
def test_assembled_tile_rasters_reproduce_the_board(paper, size):
    w, h = size
    features = (Rect(w * 0.4, h * 0.3, 30, 25),)
    board = sample_board(w, h, features)
    plan = plan_tiles(w, h, paper, avoid=features)
    assert plan.sheets > 1
    pages = tile_pages(plan, board, "Sample")
    images = raster(pages[1:], DPI)
    whole, = raster([Page(w, h, board)], DPI)
    assembled = compose(plan, images, DPI, whole.size)
    assert mismatch(assembled, whole, plan) < 0.001
    # no gap along any seam: every pixel sampled on a seam line is covered by some tile
    k = DPI / 25.4
    gaps = 0
    for x in plan.xs[1:-1]:
        for n in range(1, 40):
            gaps += assembled.getpixel((math.floor(x * k), int(assembled.height * n / 40))) == UNCOVERED
    for y in plan.ys[1:-1]:
        for n in range(1, 40):
            gaps += assembled.getpixel((int(assembled.width * n / 40), math.floor((h - y) * k))) == UNCOVERED
    assert gaps == 0
    # the check can fail: a tile laid 3 mm off, or two tiles swapped, is seen
    off = compose(plan, images, DPI, whole.size, shift={plan.tiles[1].label: (3, 0)})
    assert mismatch(off, whole, plan) > 0.01
    swapped = images[:]
    swapped[0], swapped[1] = images[1], images[0]
    assert mismatch(compose(plan, swapped, DPI, whole.size), whole, plan) > 0.05
