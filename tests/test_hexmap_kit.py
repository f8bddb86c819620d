"""Hex maps drawn from data (pnp.layout.hexmap) and tiled by the hexmap component: every hex at its grid
place, rivers, bridge sites and holdings drawn, seams between hex columns and off holdings, and tile
rasters put together reproducing the map."""

from dataclasses import replace

import pytest

from pnp.components import BuildOptions, ComponentSpec
from pnp.components import hexmap as component
from pnp.draw.icons import using
from pnp.loading.gamedata import load_game
from pnp.layout.geometry import Circle, Group, Line, Page, Polygon, Text
from pnp.layout.hexgrid import seam_keepouts
from pnp.layout.hexmap import MapStyle, hexmap_layout, legend_height
from pnp.text.markup import escape, plain_text
from rasterize import raster
from test_tiling_raster import compose, mismatch

GAME = load_game("shadow_queen")
HEXMAP = GAME.map


def _by_role(elements, prefix):
    return [e for e in elements if getattr(e, "role", "").startswith(prefix)]


def test_every_hex_is_filled_with_its_terrain_at_its_grid_place():
    lay = hexmap_layout(HEXMAP)
    colours = {t.id: t.colour for t in HEXMAP.terrains}
    fills = {e.role[4:]: e for e in _by_role(lay.elements, "hex:")}
    assert len(fills) == len(HEXMAP.hexes) == 13 * 11
    for h in HEXMAP.hexes:
        poly = fills[h.id]
        assert poly.fill == colours[h.terrain]
        for (x, y), (gx, gy) in zip(poly.points, lay.grid.corners(h.at)):
            assert (round(x, 2), round(y, 2)) == (round(gx, 2), round(gy, 2))
    # the map's frame: 4 mm of paper round the outermost corners, origin bottom-left
    b = lay.grid.bounds(lay.hexes)
    assert (round(b.x, 2), round(b.y, 2)) == (4.0, 4.0)
    # (and the legend's band above the hexes: three rows for four terrains, two bridge-site marks and the
    # river edge; no side rims without colours)
    assert (round(lay.width, 2), round(lay.height, 2)) == (round(b.right + 4, 2), round(b.top + 4 + legend_height(3), 2))
    # 25 mm flat-top hexes: 13 columns 1.5 radii apart plus one hex, 11 rows plus half a row
    r = 25 / 3 ** 0.5
    assert round(b.w, 2) == round(12 * 1.5 * r + 2 * r, 2)
    assert round(b.h, 2) == round(11.5 * 25, 2)


def test_size_and_orientation_come_from_the_map_or_the_settings():
    lay = hexmap_layout(HEXMAP, style=MapStyle(size=20, orientation="pointy"))
    assert lay.grid.orientation == "pointy" and lay.grid.size == 20
    first = next(e for e in _by_role(lay.elements, "hex:"))
    xs = [p[0] for p in first.points]
    assert round(max(xs) - min(xs), 2) == 20.0          # pointy-top: across the flats is the width


def test_river_edges_bridge_sites_holdings_ids_and_starts_are_drawn():
    names = {k.id: k.name for k in (*GAME.pieces, *GAME.holdings)}
    lay = hexmap_layout(HEXMAP, {f.id: f.colour for f in GAME.factions}, names)
    rivers = _by_role(lay.elements, "river-edge")
    assert len(rivers) == len(HEXMAP.river_edges)
    for line, (a, b) in zip(rivers, HEXMAP.river_edges):
        (x1, y1), (x2, y2) = lay.grid.edge_segment(a, b)
        assert (round(line.x1, 2), round(line.y2, 2)) == (round(x1, 2), round(y2, 2))
    hex_sites = [s for s in HEXMAP.bridge_sites if not isinstance(s[0], (tuple, list))]
    rings = [e for e in _by_role(lay.elements, "bridge-site") if isinstance(e, Circle) and e.dash]
    assert sorted((round(c.cx, 2), round(c.cy, 2)) for c in rings) == \
        sorted((round(x, 2), round(y, 2)) for x, y in (lay.grid.centre(s) for s in hex_sites))
    bars = [e for e in _by_role(lay.elements, "bridge-site") if isinstance(e, Line)]
    assert len(bars) == len(HEXMAP.bridge_sites) - len(hex_sites) == 1
    for holding in HEXMAP.holdings:
        disc, = _by_role(lay.elements, f"holding:{holding.id}")
        assert (round(disc.cx, 2), round(disc.cy, 2)) == tuple(round(v, 2) for v in lay.grid.centre(holding.at))
        assert disc.stroke == GAME.faction(holding.side).colour
    names_drawn = {e.markup for e in _by_role(lay.elements, "holding-name")}
    assert names_drawn == {h.name for h in HEXMAP.holdings}
    ids = {e.markup for e in _by_role(lay.elements, "id:")}
    assert ids == {h.id for h in HEXMAP.hexes}
    assert len(_by_role(lay.elements, "start:")) == sum(
        1 for _, spots in HEXMAP.start for at in spots if HEXMAP.holding_at(at) is None)
    # each side's rim runs only along the map's outer edge, in the side's colour
    rims = _by_role(lay.elements, "rim:")
    assert {e.colour for e in rims} == {f.colour for f in GAME.factions}
    assert len(rims) == sum(1 for h in HEXMAP.hexes if h.side for n in lay.grid.neighbours(h.at)
                            if HEXMAP.hex(n) is None)


def test_a_terrain_icon_is_printed_on_its_hexes_but_not_under_a_holding():
    lay = hexmap_layout(HEXMAP)
    icons = {e.role[8:]: e for e in _by_role(lay.elements, "terrain:")}
    for h in HEXMAP.hexes:
        icon = HEXMAP.terrain(h.terrain).icon
        assert (h.id in icons) == bool(icon and HEXMAP.holding_at(h.at) is None)
        if h.id in icons:
            assert icons[h.id].name == icon


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_seams_run_between_hex_columns_and_rows_and_never_through_a_holding(paper):
    config = component.config_of(None)
    lay = component.map_layout(GAME, config)
    plan = component.plan(lay, paper, config)
    assert plan.sheets == 4 and plan.cut == ()
    for axis, seams in (("x", plan.xs[1:-1]), ("y", plan.ys[1:-1])):
        keepouts = seam_keepouts(lay.grid, lay.hexes, axis)
        assert seams and not any(a < s < b for s in seams for a, b in keepouts)
    for rect in lay.keep:
        assert not any(rect.x < x < rect.right for x in plan.xs[1:-1])
        assert not any(rect.y < y < rect.top for y in plan.ys[1:-1])


def test_pages_are_an_assembly_map_and_one_page_per_tile_in_reading_order():
    pages, plan = component.pages(GAME, BuildOptions(paper="a4"), ComponentSpec("hexmap", "map"))
    assert [p.label for p in pages] == ["Map assembly", "Map A1", "Map A2", "Map B1", "Map B2"]
    assert plan.tiles[0].label == "A1"


@pytest.mark.parametrize("lang, heading", [("en", "Assembly map"), ("es", "Mapa: plano de montaje")])
def test_the_assembly_map_heading_never_says_the_kind_twice(lang, heading):
    """Issue 37: Shadow Queen's map (titled by pnp's word "Map") printed "MAP: ASSEMBLY MAP"; a title
    whose words the phrase already says prints the phrase alone, any other title stays in front of it."""
    from pnp.layout.tiling import assembly_title

    pages, _ = component.pages(GAME, BuildOptions(paper="a4", lang=lang), ComponentSpec("hexmap", "map"))
    titles = [e.markup for e in pages[0].elements if isinstance(e, Text) and e.role == "map-title"]
    assert titles == [heading]
    assert assembly_title("{title}: assembly map", "Game board") == "Game board: assembly map"
    assert assembly_title("{title}: assembly map", "MAP") == "Assembly map"
    assert assembly_title("{title} : plan d'assemblage", "Plan") == "Plan d'assemblage"
    assert assembly_title("{title}: Montageplan", "Karte") == "Karte: Montageplan"


def test_a_map_that_fits_one_sheet_has_no_assembly_page():
    spec = ComponentSpec("hexmap", "map", {"size": 10})
    pages, plan = component.pages(GAME, BuildOptions(paper="letter"), spec)
    assert plan.sheets == 1 and [p.label for p in pages] == ["Map A1"]


def test_assembled_tile_rasters_reproduce_the_map():
    """Each tile's region cut out of its rasterized page and laid at its place gives the map's own raster
    (the map's outermost pixels are left out: there the tiles' cut lines run, which the map has not)."""
    dpi = 40
    config = component.config_of(None)
    with using(GAME.icons):
        lay = component.map_layout(GAME, config)
        plan = component.plan(lay, "letter", config)
        pages, _ = component.pages(GAME, BuildOptions(paper="letter"), ComponentSpec("hexmap", "map"))
        images = raster(pages[1:], dpi)
        whole, = raster([Page(lay.width, lay.height, list(lay.elements))], dpi)

    def inner(image):
        return image.crop((2, 2, image.width - 2, image.height - 2))

    assembled = compose(plan, images, dpi, whole.size)
    assert mismatch(inner(assembled), inner(whole)) < 0.006
    # the check can fail: a tile laid 4 mm off, or two tiles swapped, is seen
    shifted = compose(plan, images, dpi, whole.size, shift={plan.tiles[3].label: (4, 0)})
    assert mismatch(inner(shifted), inner(whole)) > 0.02
    swapped = compose(plan, [images[1], images[0], *images[2:]], dpi, whole.size)
    assert mismatch(inner(swapped), inner(whole)) > 0.05


def test_data_text_on_the_map_is_escaped():
    hexmap = replace(HEXMAP, holdings=(replace(HEXMAP.holdings[0], name="[coin] Keep *co*"),)
                     + HEXMAP.holdings[1:])
    game = replace(GAME, map=hexmap)
    lay = component.map_layout(game, component.config_of(None))
    name = next(e for e in _by_role(lay.elements, "holding-name") if isinstance(e, Text) and "Keep" in e.markup)
    assert name.markup == escape("[coin] Keep *co*") != "[coin] Keep *co*"
    assert plain_text(name.markup) == "[coin] Keep *co*"


def test_layout_is_plain_data_and_groups_nothing():
    lay = hexmap_layout(HEXMAP)
    assert not any(isinstance(e, Group) for e in lay.elements)
    assert all(isinstance(e, (Polygon, Line, Circle, Text)) or e.role.startswith(("terrain:", "map-paper", "legend-"))
               for e in lay.elements)


def test_a_hexmap_entry_in_a_game_without_a_map_is_an_error(tmp_path):
    import shutil
    from click.testing import CliRunner

    from pnp import DATA_DIR
    from pnp.commands.cli import main

    root = tmp_path / "g"
    shutil.copytree(DATA_DIR / "behind_the_throne", root)
    game_yaml = root / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("components: [instructions, cards, rulebook, box]",
                                                       "components: [instructions, hexmap, cards, rulebook, box]"))
    result = CliRunner().invoke(main, ["validate", str(root)])
    assert result.exit_code == 2
    line = next(i for i, text in enumerate(game_yaml.read_text().splitlines(), 1) if text.startswith("components:"))
    assert (f"{game_yaml}:{line}: hexmap 'hexmap': the game has no map: (game.yaml's map: names the map file)"
            in result.output)


def test_an_unknown_terrain_icon_is_an_error(tmp_path):
    import shutil
    from click.testing import CliRunner

    from pnp import DATA_DIR
    from pnp.commands.cli import main

    root = tmp_path / "shadow_queen"
    shutil.copytree(DATA_DIR / "shadow_queen", root)
    path = root / "map.yaml"
    path.write_text(path.read_text().replace("icon: forest}", "icon: trees}"))
    result = CliRunner().invoke(main, ["validate", str(root)])
    assert result.exit_code == 2
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if "icon: trees" in text)
    assert f"{path}:{line}: hexmap 'hexmap': terrain 'forest': icon: unknown icon 'trees'" in result.output
