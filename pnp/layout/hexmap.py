"""A hex map drawn from its data: every hex filled with its terrain, the river's edges, bridge sites,
holdings, each side's half, starting hexes and the small hex ids, as plain layout elements in mm.

The map is the board of any hex-map game (``map:`` in game.yaml, read by :mod:`pnp.loading.mapdata` into a
:class:`rules_engine.model.board.HexMap`). This module only reads that object's attributes, so it draws any
map without knowing the game. Its result is a flat piece in its own frame (origin bottom-left):
:func:`pnp.layout.tiling.plan_hex_tiles` cuts it across sheets, and the holdings are listed as
rectangles seams should not cut.

Drawing order (later on top): the board's paper, hex fills, terrain icons, each side's coloured rim
along the map's outer edge, river edges, bridge sites, holdings, start marks, ids, outlines last so
every hex keeps a crisp edge.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pnp.layout.geometry import Box, Circle, Icon, Line, Polygon, Rect, Style, Text
from pnp.layout.hexgrid import Hex, HexGrid

OUTLINE_INK = "#3b3631"
ID_INK = "#3b3631"
PAPER = "#f4efe2"
SITE_INK = "#5b3a1e"
HOLDING_FILL = "#ffffff"

# pnp prints no text under 6 pt (pnp.units.MIN_TEXT_PT): the smallest words here are set at that size
ID_STYLE = Style(font="sans", size=6.0, max_lines=1, colour=ID_INK)
HOLDING_STYLE = Style(font="sans-black", size=7.0, min_size=6.0, max_lines=2, leading=1.0, colour="#1f1a17")
KIND_STYLE = Style(font="sans", size=6.0, max_lines=1, colour="#1f1a17")
START_STYLE = Style(font="sans-bold", size=6.0, max_lines=1, colour="#1f1a17")
SITE_STYLE = Style(font="sans-bold", size=6.0, max_lines=1, colour=SITE_INK)
#: Where (a share of the hex size above its centre) the box of a holding hex's id ends: its id printed
#: inside the ring (radius 0.46, stroke 1.2 mm), between the ring and the holding's name (whose box ends
#: at 0.22), where the hex's top edge, under the ring, has no room.
HOLDING_ID_TOP = 0.46


@dataclass(frozen=True)
class MapWords:
    """Words printed on the map (English defaults; the component passes translations)."""

    bridge_site: str = "bridge site"
    legend: str = "Legend"
    edge_bridge_site: str = "edge bridge site"     # a bridge site on a river edge (the legend's name)
    river_edge: str = "river edge"
    side_half: str = "{side} half"                 # a side's rim, {side} its adjective ("Shadow half")


@dataclass(frozen=True)
class MapStyle:
    """How the map is drawn. ``size`` / ``orientation`` override the map file's grid (None: keep)."""

    size: float | None = None
    orientation: str | None = None
    margin: float = 4.0              # paper round the outermost hexes, mm
    ids: bool = True                 # print each hex's id small
    starts: bool = True              # print which piece starts on each starting hex
    outline: float = 0.3             # hex outline width, mm
    river_width: float = 1.6         # a river edge's stroke, mm
    rim_width: float = 1.4           # each side's rim along the map's outer edge, mm
    icon_scale: float = 0.42         # a terrain icon's size as a fraction of the hex size
    legend: bool = True              # a band along the top naming the terrains, bridge sites, river edges, sides


@dataclass(frozen=True)
class MapLayout:
    """A drawn map: its size, the grid placed in the map's frame, every element, and the rectangles
    (map frame) a seam should not cut: one per holding."""

    width: float
    height: float
    grid: HexGrid
    hexes: tuple
    elements: tuple
    keep: tuple = ()
    where: dict = field(default_factory=dict, hash=False, compare=False)   # hex id -> centre (map frame)


def map_grid(hexmap, style: MapStyle = MapStyle()) -> tuple[HexGrid, tuple]:
    """The grid of ``hexmap`` fitted into its own frame with ``style.margin`` all round, and its hexes."""
    grid = HexGrid(style.orientation or hexmap.orientation, style.size or hexmap.size)
    hexes = tuple(Hex(h.q, h.r) for h in hexmap.hexes)
    return grid.fitted(hexes, style.margin), hexes


def hexmap_layout(hexmap, colours: dict | None = None, names: dict | None = None, style: MapStyle = MapStyle(),
                  words: MapWords = MapWords(), sides: dict | None = None) -> MapLayout:
    """Lay out ``hexmap`` (a :class:`rules_engine.model.board.HexMap`).

    ``colours``: side (faction id) -> colour for the side rims and holding rings; ``names``: printed
    names of holding kinds and piece kinds, by id (default: the ids); ``sides``: side -> the adjective
    the legend names its half with (default: the id). Text is data and must arrive escaped (the
    component escapes it)."""
    colours, names = colours or {}, names or {}
    grid, hexes = map_grid(hexmap, style)
    bounds = grid.bounds(hexes)
    width, height = bounds.right + style.margin, bounds.top + style.margin
    legend, band = ([], 0.0) if not style.legend else _legend(hexmap, grid, words, width, height, style, colours,
                                                               sides or {})
    height += band
    s = grid.size
    terrains = {t.id: t for t in hexmap.terrains}
    els: list = [Box(Rect(0, 0, width, height), fill=PAPER, role="map-paper")]
    where = {}
    for h in hexmap.hexes:
        terrain = terrains[h.terrain]
        els.append(grid.polygon((h.q, h.r), fill=terrain.colour, role=f"hex:{h.id}"))
        where[h.id] = grid.centre((h.q, h.r))
    for h in hexmap.hexes:
        icon = getattr(terrains[h.terrain], "icon", None)
        if icon and hexmap.holding_at(h.at) is None:
            cx, cy = grid.centre(h.at)
            els.append(Icon(icon, cx, cy - 0.06 * s, style.icon_scale * s, opacity=0.55, role=f"terrain:{h.id}"))
    els += _rims(hexmap, grid, colours, style)
    barrier = next((t.colour for t in hexmap.terrains if t.barrier), "#4a7fb8")
    keep = []
    for holding in hexmap.holdings:
        parts, rect = _holding(holding, grid, colours.get(holding.side, OUTLINE_INK), names)
        els += parts
        keep.append(rect)
    if style.starts:
        for kind, spots in hexmap.start:
            label = names.get(kind, kind)
            for at in spots:
                if hexmap.holding_at(at) is None:
                    cx, cy = grid.centre(at)
                    els.append(Text(Rect(cx - 0.45 * s, cy - 0.42 * s, 0.9 * s, 0.2 * s), label, START_STYLE,
                                    role=f"start:{kind}"))
    if style.ids:
        for h in hexmap.hexes:
            cx, cy = grid.centre(h.at)
            top = cy + s / 2
            if hexmap.holding_at(h.at) is not None:
                # a holding's ring fills its hex: the id goes inside the ring, above the holding's name,
                # not across the ring's edge at the hex's top
                top = cy + HOLDING_ID_TOP * s
            els.append(Text(Rect(cx - 0.3 * s, top - 0.21 * s, 0.6 * s, 0.17 * s), h.id, ID_STYLE,
                            role=f"id:{h.id}"))
    for h in hexmap.hexes:
        els.append(grid.polygon(h.at, stroke=OUTLINE_INK, width=style.outline, role="hex-outline"))
    for a, b in hexmap.river_edges:     # over the outlines: a river edge reads as water, not a border
        (x1, y1), (x2, y2) = grid.edge_segment(a, b)
        els.append(Line(x1, y1, x2, y2, barrier, style.river_width, role="river-edge"))
    els += _bridge_sites(hexmap, grid, words, style.ids)
    for part in legend:
        if isinstance(part, Rect):
            keep.append(part)
        else:
            els.append(part)
    return MapLayout(width, height, grid, hexes, tuple(els), tuple(keep), where)


#: The legend above the hexes: a row's height (mm), an entry's width, and how its words are set.
LEGEND_ROW = 7.0
LEGEND_PITCH = 34.0
LEGEND_STYLE = Style(font="sans-bold", size=7.0, min_size=6.0, max_lines=1, align="left", colour="#1f1a17")
LEGEND_HEAD = Style(font="sans-black", size=7.0, min_size=6.0, max_lines=1, align="left", upper=True,
                    tracking=0.8, colour="#1f1a17")


def legend_height(rows: int) -> float:
    """The band the legend adds above the hexes for ``rows`` rows of entries (mm)."""
    return 2.0 + LEGEND_ROW * rows


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _legend(hexmap, grid: HexGrid, words: MapWords, width: float, top: float, style: MapStyle,
            colours: dict, sides: dict) -> tuple[list, float]:
    """A compact block at the top left of the map, above the hexes, naming everything the map draws
    that its own words do not: a small hex of each terrain (with its icon), the bridge-site marks (on a
    hex, on an edge), a river edge and each side's rim; two rows, or three when there are more than six
    entries. Returns its parts with the block's rectangle (a :class:`Rect`, which seams keep off like a
    holding's), and the height of the band it adds."""
    from pnp.layout.tokens import hexagon_points

    edge_sites = [s for s in hexmap.bridge_sites if len(s) == 2 and isinstance(s[0], (tuple, list))]
    entries = [(t.name, "terrain", t) for t in hexmap.terrains]
    if len(edge_sites) < len(hexmap.bridge_sites):
        entries.append((_capital(words.bridge_site), "site", None))
    if edge_sites:
        entries.append((_capital(words.edge_bridge_site), "edge-site", None))
    if hexmap.river_edges:
        entries.append((_capital(words.river_edge), "river", None))
    for side in getattr(hexmap, "sides", ()) or ():
        if colours.get(side) and any(h.side == side for h in hexmap.hexes):
            entries.append((_capital(words.side_half.format(side=sides.get(side, side))), "side", colours[side]))
    if not entries:
        return [], 0.0
    rows = 2 if len(entries) <= 6 else 3
    band = legend_height(rows)
    swatch = 5.5
    head_w = 20.0
    columns = -(-len(entries) // rows)
    block = Rect(style.margin, top + 1.0, min(width - 2 * style.margin, head_w + columns * LEGEND_PITCH), band - 2.0)
    out = [Text(Rect(block.x, block.top - LEGEND_ROW, head_w - 2.0, LEGEND_ROW), words.legend, LEGEND_HEAD,
                role="legend-head")]
    barrier = next((t.colour for t in hexmap.terrains if t.barrier), "#4a7fb8")
    for i, (name, kind, what) in enumerate(entries):
        x = block.x + head_w + (i // rows) * LEGEND_PITCH
        cy = block.top - 3.5 - (i % rows) * LEGEND_ROW
        cx = x + swatch / 2
        half = swatch / 2
        if kind == "terrain":
            points = tuple(hexagon_points(cx, cy, swatch * 0.87))
            if grid.orientation == "flat":     # the map's own hexes: flat-topped
                points = tuple((cx + (py - cy), cy - (px - cx)) for px, py in points)
            out.append(Polygon(points, fill=what.colour, stroke=OUTLINE_INK, width=0.25, role="legend-swatch"))
            if getattr(what, "icon", None):
                out.append(Icon(what.icon, cx, cy, swatch * 0.6, opacity=0.55, role="legend-icon"))
        elif kind == "site":
            out.append(Circle(cx, cy, swatch * 0.42, stroke=SITE_INK, width=0.45, dash=(1.0, 0.7),
                              role="legend-swatch"))
        elif kind == "edge-site":                 # as on the map: a dashed bar with a dot across a river edge
            out.append(Line(cx - half, cy, cx + half, cy, barrier, style.river_width, role="legend-swatch"))
            out.append(Line(cx, cy - half * 0.8, cx, cy + half * 0.8, SITE_INK, 1.2, dash=(1.2, 0.8),
                            role="legend-swatch"))
            out.append(Circle(cx, cy, 1.0, fill=SITE_INK, role="legend-swatch"))
        elif kind == "river":
            out.append(Line(cx - half, cy, cx + half, cy, barrier, style.river_width, role="legend-swatch"))
        else:                                     # a side's rim, as along the map's edge
            out.append(Line(cx - half, cy, cx + half, cy, what, style.rim_width, role="legend-swatch"))
        out.append(Text(Rect(x + swatch + 1.5, cy - 2.5, LEGEND_PITCH - swatch - 3.0, 5.0), name, LEGEND_STYLE,
                        role="legend-label"))
    out.append(block)
    return out, band


def _rims(hexmap, grid: HexGrid, colours: dict, style: MapStyle) -> list:
    """A coloured stroke along every outer edge of a side's hexes: where each half lies, at a glance."""
    out = []
    on_map = {h.at for h in hexmap.hexes}
    for h in hexmap.hexes:
        colour = colours.get(h.side) if h.side else None
        if not colour:
            continue
        for k, n in enumerate(grid.neighbours(h.at)):
            if tuple(n) in on_map:
                continue
            (x1, y1), (x2, y2) = grid.edge_segment(h.at, n)
            # moved half the stroke inwards, so the rim stays inside the hex
            cx, cy = grid.centre(h.at)
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            d = ((cx - mx) ** 2 + (cy - my) ** 2) ** 0.5
            ox, oy = (cx - mx) / d * style.rim_width / 2, (cy - my) / d * style.rim_width / 2
            out.append(Line(x1 + ox, y1 + oy, x2 + ox, y2 + oy, colour, style.rim_width, role=f"rim:{h.side}"))
    return out


def _bridge_sites(hexmap, grid: HexGrid, words: MapWords, ids: bool = True) -> list:
    """A dashed ring on a hex bridge site (the bridge stands on the hex), a dashed bar across an edge
    site (a short span), each labelled."""
    out = []
    s = grid.size
    for site in hexmap.bridge_sites:
        if len(site) == 2 and isinstance(site[0], (tuple, list)):
            (x1, y1), (x2, y2) = grid.edge_segment(*site)
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            # a bar across the edge: perpendicular to it, a sixth of a hex into each hex, but only a stub
            # into a hex whose id is printed just inside this edge (its top edge): the bar would cross it
            dx, dy = x2 - x1, y2 - y1
            length = (dx * dx + dy * dy) ** 0.5
            ux, uy = -dy / length, dx / length
            reach = []
            for sign in (1, -1):
                into = next(h for h in site
                            if sign * ((grid.centre(h)[0] - mx) * ux + (grid.centre(h)[1] - my) * uy) > 0)
                top_edge = abs(my - (grid.centre(into)[1] + s / 2)) < 1e-6
                reach.append(0.0 if ids and top_edge else s / 6)
            out.append(Line(mx - ux * reach[1], my - uy * reach[1], mx + ux * reach[0], my + uy * reach[0], SITE_INK,
                            1.2, dash=(1.2, 0.8), role="bridge-site"))
            out.append(Circle(mx, my, 1.0, fill=SITE_INK, role="bridge-site"))
        else:
            cx, cy = grid.centre(site)
            out.append(Circle(cx, cy, 0.28 * s, stroke=SITE_INK, width=0.6, dash=(1.5, 1.0), role="bridge-site"))
            out.append(Text(Rect(cx - 0.4 * s, cy - 0.09 * s, 0.8 * s, 0.18 * s), words.bridge_site, SITE_STYLE,
                            role="bridge-site-label"))
    return out


def _holding(holding, grid: HexGrid, colour: str, names: dict) -> tuple[list, Rect]:
    """A holding: a white disc ringed in its side's colour (where its tile goes), its name and kind."""
    cx, cy = grid.centre(holding.at)
    s = grid.size
    r = 0.46 * s
    els = [Circle(cx, cy, r, fill=HOLDING_FILL, stroke=colour, width=1.2, role=f"holding:{holding.id}"),
           Text(Rect(cx - r + 0.8, cy - 0.02 * s, 2 * r - 1.6, 0.24 * s), holding.name, HOLDING_STYLE,
                role="holding-name"),
           Text(Rect(cx - r + 1.2, cy - 0.2 * s, 2 * r - 2.4, 0.15 * s), names.get(holding.kind, holding.kind),
                KIND_STYLE, role="holding-kind")]
    return els, Rect(cx - r - 0.6, cy - r - 0.6, 2 * r + 1.2, 2 * r + 1.2)
