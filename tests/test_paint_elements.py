"""Polygons and transforms: their geometry (translate, apply, compose) and what the painter draws."""

import math
import subprocess
import sys

import pytest

from pnp.layout.geometry import (Box, Group, Page, Polygon, Rect, Transform, apply, compose, flatten, half_turn, scaling,
                                 translate)
from pnp.layout.inksaver import polygon_area, save_ink
from rasterize import pixel, raster

DPI = 100
RED, BLUE = (255, 0, 0), (0, 0, 255)


def close(a, b, tol=0.01):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def test_translate_moves_every_polygon_point_and_a_transform_s_offset():
    tri = Polygon(((0, 0), (10, 0), (5, 8)), fill="#ff0000")
    moved = translate(tri, 3, -2)
    assert moved.points == ((3, -2), (13, -2), (8, 6))
    t = Transform((tri,), scaling(0.5, 1, 1))
    assert translate(t, 4, 5).matrix == (0.5, 0, 0, 0.5, 5, 6)


def test_flatten_moves_polygons_out_of_groups_and_keeps_transforms_whole():
    tri = Polygon(((0, 0), (10, 0), (5, 8)), role="tri")
    t = Transform((tri,), half_turn(5, 5), role="turned")
    out = list(flatten([Group((tri, t), 10, 20)]))
    assert out[0].points == ((10, 20), (20, 20), (15, 28))
    assert out[1].role == "turned" and out[1].matrix[4:] == (20, 30)


def test_apply_compose_half_turn_and_scaling():
    assert close(apply(half_turn(10, 20), 12, 25), (8, 15))
    assert close(apply(scaling(0.25, 5, 6), 40, 80), (15, 26))
    m = compose(scaling(2), half_turn(1, 1))           # turn first, then scale
    assert close(apply(m, 0, 0), (4, 4))
    turned_twice = compose(half_turn(3, 4), half_turn(3, 4))
    assert close(turned_twice, (1, 0, 0, 1, 0, 0))


def test_polygon_area_whatever_the_winding():
    square = ((0, 0), (10, 0), (10, 10), (0, 10))
    assert polygon_area(square) == 100
    assert polygon_area(tuple(reversed(square))) == 100
    r = 10
    hexagon = tuple((r * math.cos(math.radians(60 * k)), r * math.sin(math.radians(60 * k))) for k in range(6))
    assert polygon_area(hexagon) == pytest.approx(3 * math.sqrt(3) / 2 * r * r)


def test_ink_saver_tints_large_polygons_and_reaches_into_transforms():
    big = Polygon(((0, 0), (50, 0), (50, 50), (0, 50)), fill="#202020")
    small = Polygon(((0, 0), (5, 0), (0, 5)), fill="#202020")
    out = save_ink([Transform((big, small), scaling(1))])
    new_big, new_small = out[0].elements
    assert new_big.fill != "#202020" and new_big.stroke == "#202020"
    assert new_small == small


def test_painted_polygon_fills_inside_and_leaves_outside_white():
    page_elements = [Polygon(((20, 20), (80, 20), (50, 80)), fill="#ff0000", stroke="#0000ff", width=1.0)]
    image, = raster([Page(100, 100, page_elements)], DPI)
    assert pixel(image, 50, 40, DPI) == RED
    assert pixel(image, 25, 70, DPI) == (255, 255, 255)          # beside the apex: outside
    # the stroke runs along the base edge y = 20
    assert pixel(image, 50, 20, DPI)[2] > 200 and pixel(image, 50, 20, DPI)[0] < 60


def test_open_polyline_is_not_filled():
    line = Polygon(((10, 10), (90, 10), (90, 90)), fill="#ff0000", stroke="#0000ff", width=1.0, closed=False)
    image, = raster([Page(100, 100, [line])], DPI)
    assert pixel(image, 70, 30, DPI) == (255, 255, 255)
    assert pixel(image, 90, 50, DPI)[2] > 200
    # no closing edge from (90, 90) back to (10, 10)
    assert pixel(image, 50, 50, DPI) == (255, 255, 255)


def test_painted_transform_lands_where_apply_says_and_clips_in_its_own_frame():
    art = (Box(Rect(0, 0, 40, 20), fill="#ff0000"), Box(Rect(0, 0, 10, 10), fill="#0000ff"))
    turned = Transform(art, half_turn(50, 50))          # the blue corner goes to the top right
    image, = raster([Page(100, 100, [turned])], DPI)
    x, y = apply(turned.matrix, 5, 5)
    assert close((x, y), (95, 95))
    assert pixel(image, x, y, DPI) == BLUE
    assert pixel(image, 70, 85, DPI) == RED
    assert pixel(image, 5, 5, DPI) == (255, 255, 255)
    small = Transform(art, scaling(0.5, 10, 10), clip=Rect(0, 0, 20, 20))   # only the left half survives
    image, = raster([Page(100, 100, [small])], DPI)
    assert pixel(image, 12.5, 12.5, DPI) == BLUE
    assert pixel(image, 17, 17, DPI) == RED
    assert pixel(image, 25, 15, DPI) == (255, 255, 255)           # clipped away (was red at x 20..30)


def test_new_layout_modules_import_without_reportlab():
    code = ("import sys; import pnp.layout.tiling, pnp.layout.hexgrid, pnp.layout.standee, pnp.layout.dice, "
            "pnp.layout.doublesided, pnp.layout.packing, pnp.layout.hexmap; "
            "bad = [m for m in sys.modules if m.startswith('reportlab')]; assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_extent_of_every_element_kind():
    from pnp.layout.geometry import Circle, Icon, Line, Text, extent
    assert extent(Box(Rect(1, 2, 3, 4), stroke="#000000", width=0.5)).rounded() == (0.75, 1.75, 3.5, 4.5)
    assert extent(Box(Rect(1, 2, 3, 4), fill="#000000")).rounded() == (1, 2, 3, 4)
    assert extent(Text(Rect(1, 2, 3, 4), "x")).rounded() == (1, 2, 3, 4)
    assert extent(Line(0, 0, 10, 0, width=0.4)).rounded() == (-0.2, -0.2, 10.4, 0.4)
    assert extent(Circle(5, 5, 2, stroke="#000000", width=1)).rounded() == (2.5, 2.5, 5, 5)
    assert extent(Icon("gem", 10, 10, 6)).rounded() == (7, 7, 6, 6)
    assert extent(Polygon(((0, 0), (10, 0), (5, 8)))).rounded() == (0, 0, 10, 8)
    g = Group((Box(Rect(0, 0, 5, 5), fill="#000000"), Box(Rect(10, 10, 5, 5), fill="#000000")), 100, 200)
    assert extent(g).rounded() == (100, 200, 15, 15)
    assert extent(Group((), 1, 1)) is None
    assert extent(Group(g.elements, 0, 0, clip=Rect(0, 0, 3, 3))).rounded() == (0, 0, 3, 3)
    t = Transform(g.elements, half_turn(0, 0))
    assert extent(t).rounded() == (-15, -15, 15, 15)
    assert extent(Transform(g.elements, scaling(0.5, 1, 1))).rounded() == (1, 1, 7.5, 7.5)


def _page_pixels(data: bytes, dpi: float):
    import numpy as np
    pdfium = __import__("pypdfium2")
    doc = pdfium.PdfDocument(data)
    try:
        return [np.asarray(doc[i].render(scale=dpi / 72).to_pil().convert("RGB")).astype(int) for i in range(len(doc))]
    finally:
        doc.close()


def test_a_built_in_icon_is_written_once_and_prints_as_if_drawn_in_place():
    import io

    import pikepdf

    from pnp.draw import icons
    from pnp.draw.pdf import new_canvas

    buf = io.BytesIO()
    c = new_canvas(buf, "icons")
    c.setPageSize((400, 400))
    spots = [(40 + 60 * (k % 6), 40 + 60 * (k // 6)) for k in range(len(icons.ICONS))]
    # placed by name, a label is measured against its icon (tests/test_badge_labels.py): at this size the
    # skull's, the cycle's and the tick box's get an outline and the diamond's is set smaller, which the
    # icons as such do not do, so those four are compared without one
    labels = {name: None if name in ("skull", "cycle", "diamond", "tick_box") else "7" for name in icons.ICONS}
    for (name, draw), (x, y) in zip(icons.ICONS.items(), spots):       # page 1: the icons as such
        draw(c, x, y, 36, None, labels[name])
    c.showPage()
    for _ in range(2):                   # pages 2 and 3: each placed by name
        for name, (x, y) in zip(icons.ICONS, spots):
            icons.draw(c, name, x, y, 36, None, labels[name])
        c.showPage()
    c.save()
    direct, *placed = _page_pixels(buf.getvalue(), 150)
    for page in placed:
        # the same shapes: at most a level of antialiasing apart where an edge falls on a pixel's border
        assert abs(direct - page).max() <= 2
    with pikepdf.open(io.BytesIO(buf.getvalue())) as pdf:
        forms = [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Form"]
        assert len(forms) == len(icons.ICONS)             # one form per icon, however often it is placed
