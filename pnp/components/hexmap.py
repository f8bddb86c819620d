"""Hex maps: the game's ``map:`` drawn (:mod:`pnp.layout.hexmap`) and tiled across sheets
(:mod:`pnp.layout.tiling`): an assembly map, then one tile per sheet with glue strips, trimmed edges,
alignment crosshairs and labels. Seams run where hex columns or rows interlock, never through a
holding; a map that fits one sheet prints on one page.

A ``{kind: hexmap, ...}`` entry of game.yaml's ``components`` may override the map file's hex size and
orientation (to print larger or smaller hexes, or pointy-top) and choose what is printed.
"""

from __future__ import annotations

from pnp.components import record
from pnp.components import BuildOptions, Component, Output, Part
from pnp.draw.icons import with_game_icons
from pnp.errors import DataError, Problems
from pnp.loading.i18n import strings, word
from pnp.layout.geometry import Rect
from pnp.layout.hexmap import MapLayout, MapStyle, MapWords, hexmap_layout
from pnp.layout.outline import CutPiece, RectOutline
from pnp.draw.text import text_fits
from pnp.layout.tiling import DEFAULT_OVERLAP, TileLabels, TilePlan, plan_hex_tiles, tile_pages, tile_words
from pnp.text.markup import escape
from pnp.loading.schema import Field
from pnp.loading.yamlsrc import line_of, load_yaml

#: Settings of a ``{kind: hexmap, ...}`` entry of game.yaml's ``components``.
SCHEMA = {
    "title": Field("str", nullable=True, doc="printed title (default: the printed word 'map')"),
    "size": Field("length", nullable=True, min=8, max=120, doc="hex size across the flats (default: the map's)"),
    "orientation": Field("str", nullable=True, choices=("flat", "pointy"), doc="default: the map's"),
    "ids": Field("bool", default=True, doc="print each hex's id small"),
    "starts": Field("bool", default=True, doc="print which piece starts on each starting hex"),
    "legend": Field("bool", default=True, doc="a legend along the top: terrains, bridge sites, river edges, sides"),
    "overlap": Field("length", default=DEFAULT_OVERLAP, min=0, max=30, doc="glue strip width"),
    "paper_orientation": Field("str", default="auto", choices=("auto", "portrait", "landscape"),
                               doc="auto: whichever needs fewer sheets"),
}


def config_of(spec) -> dict:
    given = spec.config if spec is not None else {}
    return {k: (f.default if given.get(k) is None else given[k]) for k, f in SCHEMA.items()}


def map_layout(game, config: dict, lang=None) -> MapLayout:
    """The game's map laid out with the entry's settings and the game's names and colours."""
    words = strings(game, lang)
    colours = {f.id: f.colour for f in game.factions}
    names = {k.id: escape(k.name) for k in (*game.pieces, *game.holdings)}
    style = MapStyle(size=config["size"], orientation=config["orientation"], ids=config["ids"],
                     starts=config["starts"], legend=config["legend"])
    hexmap = _escaped(game.map, game, lang)
    defaults = MapWords()
    map_words = MapWords(**{k: words.get(f"map_{k}", getattr(defaults, k)) for k in
                            ("bridge_site", "legend", "edge_bridge_site", "river_edge", "side_half")})
    sides = {f.id: escape(word(game, f"factions.{f.id}.adjective", f.adjective, lang)) for f in game.factions}
    return hexmap_layout(hexmap, colours, names, style, map_words, sides)


def _escaped(hexmap, game, lang):
    """The map with its printed words (hex ids, holding names in the kit's language, ``map.holdings.<id>``)
    escaped for markup."""
    from dataclasses import replace

    return replace(hexmap, hexes=tuple(replace(h, id=escape(h.id)) for h in hexmap.hexes),
                   holdings=tuple(replace(h, name=escape(word(game, f"map.holdings.{h.id}", h.name, lang)))
                                  for h in hexmap.holdings),
                   terrains=tuple(replace(t, name=escape(word(game, f"map.terrains.{t.id}", t.name, lang)))
                                  for t in hexmap.terrains))


def plan(layout: MapLayout, paper: str, config: dict) -> TilePlan:
    return plan_hex_tiles(layout.width, layout.height, layout.grid, layout.hexes, paper, overlap=config["overlap"],
                          avoid=layout.keep, orientation=config["paper_orientation"])


def title_of(game, config, lang, spec=None) -> str:
    """The map's printed title: its ``title`` translated (``components.<id>.title``), else pnp's word."""
    if not config["title"]:
        return strings(game, lang)["map"]
    return escape(word(game, f"components.{spec.id}.title", config["title"], lang) if spec else config["title"])


def words(game, spec=None) -> list:
    """The map's title, when the entry gives one (else it is pnp's word ``map``), the names of the
    holdings its map file places and (with the legend) of its terrains."""
    from pnp.loading.i18n.catalogue import Source

    title = (spec.config or {}).get("title") if spec is not None else None
    out = [Source(f"components.{spec.id}.title", title, game.root / "game.yaml", spec.line,
                  f"hexmap '{spec.id}'", "title")] if title else []
    if game.map is not None:                  # the holdings' names the map file prints
        raw = _raw_holdings(game.map.source, game.root)
        for i, h in enumerate(game.map.holdings):
            line = line_of(raw, i) if isinstance(raw, list) and i < len(raw) else None
            out.append(Source(f"map.holdings.{h.id}", h.name, game.map.source, line, f"map holding '{h.id}'",
                              "name"))
        if config_of(spec).get("legend"):      # the legend prints the terrains' names
            for t in game.map.terrains:
                out.append(Source(f"map.terrains.{t.id}", t.name, game.map.source, terrain_line(game, t.id),
                                  f"map terrain '{t.id}'", "name"))
    return out


def _raw_holdings(path, root):
    try:
        raw = load_yaml(path, within=root)
    except DataError:                         # the map's own check reports it
        return None
    return raw.get("holdings") if isinstance(raw, dict) else None


def file_name(spec) -> str:
    return f"{(spec.id if spec else 'map').replace('_', '-')}.pdf"


def _labels(words: dict, sheets: int) -> TileLabels:
    if sheets == 1:
        return TileLabels(tile="{title}")
    return TileLabels(**tile_words(words))


def pages(game, options: BuildOptions, spec=None) -> tuple[list, TilePlan]:
    config = config_of(spec)
    layout = map_layout(game, config, options.lang)
    tiles = plan(layout, options.paper, config)
    title = title_of(game, config, options.lang, spec)
    out = tile_pages(tiles, layout.elements, title, _labels(strings(game, options.lang), tiles.sheets), text_fits)
    if tiles.sheets == 1:
        out = out[1:]                           # one sheet: no assembly map
    return out, tiles


@with_game_icons
def build(game, options: BuildOptions, spec=None) -> list[Output]:
    if game.map is None:
        raise DataError([_problem(game, spec, "the game has no map: (game.yaml's map: names the map file)")])
    config = config_of(spec)
    try:
        out, tiles = pages(game, options, spec)
    except ValueError as exc:
        raise DataError([_problem(game, spec, f"{exc} on {options.paper}")]) from None
    title = title_of(game, config, options.lang, spec)
    # the bill of materials: one map, and the tiles it is printed in when it takes several sheets
    parts = [Part("map", spec.id if spec else "map", 1, title)]
    if tiles.sheets > 1:
        parts.append(Part("tile", f"{spec.id if spec else 'map'}-tiles", tiles.sheets,
                          strings(game, options.lang).get("part_tiles", "tiles")))
    result = Output(file_name(spec), title, out, parts=tuple(parts))
    result.record = record.fragment(game, "hexmap", *printed(game, options, spec))
    return [result]


def printed(game, options: BuildOptions, spec=None) -> tuple[str, list]:
    """(title, the map as drawn before it is tiled), for :mod:`pnp.reprint.changes`."""
    config = config_of(spec)
    title = title_of(game, config, options.lang, spec)
    if game.map is None:
        return title, []
    key = spec.id if spec else "map"
    elements = tuple(map_layout(game, config, options.lang).elements)
    return title, [record.Printed(key, f"{key}#1", title, elements, (), {})]


@with_game_icons
def reprinted(game, options: BuildOptions, labels: set, first: int, spec=None) -> record.Reprinted:
    """The whole map again: its assembly map and every tile (or its one sheet)."""
    return record.Reprinted([(page, None) for page in pages(game, options, spec)[0]])


def _problem(game, spec, message):
    problems = Problems()
    problems.error(game.root / "game.yaml", spec.line if spec else None, f"hexmap '{spec.id if spec else 'map'}'",
                   message)
    return problems.errors[0]


@with_game_icons
def check(game, problems, options: BuildOptions | None = None, spec=None) -> None:
    """The game has a map, its terrain icons exist, and it tiles on Letter and A4; a seam that has to
    cut a holding is a warning."""
    where = (game.root / "game.yaml", spec.line if spec else None)
    subject = f"hexmap '{spec.id if spec else 'map'}'"
    if game.map is None:
        problems.error(*where, subject, "the game has no map: (game.yaml's map: names the map file)")
        return
    for t in game.map.terrains:
        why = game.icons.problem(t.icon) if t.icon else None
        if why:
            problems.error(game.map.source, terrain_line(game, t.id), subject, f"terrain '{t.id}': icon: {why}")
    config = config_of(spec)
    layout = map_layout(game, config, options.lang if options else None)
    _text_problems(game, layout, subject, where, problems)
    for paper in ("letter", "a4"):
        try:
            tiles = plan(layout, paper, config)
        except ValueError as exc:
            problems.error(*where, subject, f"{exc} on {paper}")
            continue
        if tiles.cut:
            problems.warn(*where, subject, f"on {paper} a seam cuts {len(tiles.cut)} holding(s)")


def _text_problems(game, layout: MapLayout, subject: str, where: tuple, problems: Problems) -> None:
    """Every word the map prints fits its place (a name too long for its holding's disc or its legend
    column would print nothing): an error at the holding's or terrain's line, else at the map's entry."""
    from pnp.draw.text import fit
    from pnp.layout.geometry import Text, flatten
    from pnp.text.markup import plain_text

    raw = _raw_holdings(game.map.source, game.root)
    holdings = {escape(h.name): line_of(raw, i) if isinstance(raw, list) and i < len(raw) else None
                for i, h in enumerate(game.map.holdings)}
    terrains = {escape(t.name): t.id for t in game.map.terrains}
    reported = set()
    for el in flatten(layout.elements):
        if not isinstance(el, Text) or (el.role, el.markup) in reported:
            continue
        fitted = fit(el.markup, el.style, el.rect.w, el.rect.h)
        if fitted.ok:
            continue
        reported.add((el.role, el.markup))
        at = where
        if el.role == "holding-name" and el.markup in holdings:
            at = (game.map.source, holdings[el.markup])
        elif el.role == "legend-label" and el.markup in terrains:
            at = (game.map.source, terrain_line(game, terrains[el.markup]))
        problems.error(*at, subject, f"{el.role} {plain_text(el.markup)!r} does not fit its {el.rect.w:.1f} x "
                                     f"{el.rect.h:.1f} mm place even at {el.style.min_size or el.style.size:g} pt "
                                     f"({fitted.reason})")


def terrain_line(game, terrain_id: str) -> int | None:
    """The line of a terrain's entry in the map file (the file is read once per run: cached)."""
    raw = load_yaml(game.map.source, game.root)
    terrains = raw.get("terrains") if isinstance(raw, dict) else None
    for i, item in enumerate(terrains or []):
        if isinstance(item, dict) and item.get("id") == terrain_id:
            return line_of(terrains, i)
    return None


@with_game_icons
def cut_pieces(game, options: BuildOptions | None = None, spec=None):
    """The map, inside its edge."""
    if game.map is None:
        return
    layout = map_layout(game, config_of(spec), options.lang if options else None)
    yield CutPiece(spec.id if spec else "map", "the map", RectOutline(Rect(0.0, 0.0, layout.width, layout.height)),
                   tuple(layout.elements), (game.map.source, None), trimmed=True)


COMPONENT = Component("hexmap", build, check, weight=2, pieces=cut_pieces, words=words, printed=printed,
                      reprint=reprinted)
