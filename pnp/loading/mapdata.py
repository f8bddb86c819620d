"""A game's board from data: its pieces and holdings (game.yaml) and its hex map (the file ``map:`` names).

Everything is checked with file and line and every problem is reported at once; the result is the
frozen facts of :mod:`rules_engine.model.board` (axial coordinates whatever the file used). The map's shape
as a whole (connected over bridges, split into the sides by the river, room for the pieces) is checked
by :mod:`pnp.loading.mapcheck`. See ``docs/data-format.md``, "Hex maps and pieces".
"""

from __future__ import annotations

from pathlib import Path

from pnp.suggest import closest
from pnp.errors import Problems
from pnp.layout.hexgrid import axial_to_offset, distance, offset_to_axial
from pnp.loading.paths import data_path, excerpt
from pnp.loading.schema import Field, check, entry, ordinal, subkey
from pnp.loading.yamlsrc import line_of, load_yaml_or_report
from rules_engine.model.board import HexMap, HoldingKind, MapHex, MapHolding, PieceKind, Terrain, edge_key

PIECE_SCHEMA = {
    "id": Field("id", required=True),
    "name": Field("str", required=True, blank=False),
    "plural": Field("str", blank=False),
    "faction": Field("id"),
    "count": Field("int", required=True, min=1, max=99),
    "move": Field("int", required=True, min=0, max=20, doc="hexes a piece moves"),
    "traits": Field("list", default=[], items=Field("id"), doc="words the rules engine reads"),
    "note": Field("str", default="", doc="a printed remark, e.g. about movement"),
}

HOLDING_KIND_SCHEMA = {
    "id": Field("id", required=True),
    "name": Field("str", required=True, blank=False),
    "plural": Field("str", blank=False),
    "faction": Field("id"),
    "count": Field("int", required=True, min=1, max=50),
}

GRID_SCHEMA = {
    "orientation": Field("str", default="flat", choices=("flat", "pointy")),
    "size": Field("length", default=25.0, min=5, max=200, doc="mm across the flats"),
    "shape": Field("str", default="rectangle", choices=("rectangle", "hexagon", "free")),
    "columns": Field("int", min=1, max=200),
    "rows": Field("int", min=1, max=200),
    "radius": Field("int", min=0, max=100),
    "parity": Field("str", default="odd", choices=("odd", "even")),
    "coordinates": Field("str", default="axial", choices=("axial", "offset")),
}

TERRAIN_SCHEMA = {
    "id": Field("id", required=True),
    "name": Field("str", required=True, blank=False),
    "colour": Field("colour", required=True),
    "barrier": Field("bool", default=False, doc="crossed only at a bridge site with a bridge"),
    "holdings": Field("bool", default=True, doc="a holding may stand on it"),
    "icon": Field("str", nullable=True, doc="an icon printed on its hexes (the game's own or a built-in one)"),
}

MAP_SCHEMA = {
    "grid": Field("map", required=True, schema=GRID_SCHEMA),
    "terrains": Field("list", required=True, items=Field("any")),
    "terrain": Field("id", doc="the terrain of hexes that name none"),
    "sides": Field("list", items=Field("id"), doc="the factions whose halves the map is split into"),
    "hexes": Field("list", required=True, items=Field("any")),
    "river_edges": Field("list", default=[], items=Field("any")),
    "bridge_sites": Field("list", default=[], items=Field("any")),
    "holdings": Field("list", default=[], items=Field("any")),
    "start": Field("dict", default={}, items=Field("list", items=Field("any"))),
    "placeholder": Field("bool", default=False, doc="the whole map is invented where the source has none"),
}

HEX_SCHEMA = {
    "at": Field("any", required=True),
    "id": Field("str", blank=False),
    "terrain": Field("id"),
    "side": Field("id"),
}

HOLDING_SCHEMA = {
    "id": Field("id", required=True),
    "kind": Field("id", required=True),
    "at": Field("any", required=True),
    "name": Field("str", blank=False),
}


def _hint(word, known) -> str:
    close = closest(word, known)
    return f" (did you mean '{close}'?)" if close else ""


def _unique_entries(raw_list, checked, key, problems, path):
    """Entries of a game.yaml list with their lines, later duplicates of an id reported and left out."""
    out, seen = [], {}
    for i, clean in enumerate(checked):
        line = line_of(raw_list, i)
        if "id" not in clean:
            continue
        if clean["id"] in seen:
            problems.error(path, line, None, f"{entry(key, clean, i, named=False)}: id: duplicate id '{clean['id']}' "
                                             f"(first at line {seen[clean['id']]})")
            continue
        seen[clean["id"]] = line
        out.append((clean, line))
    return out


def _game_list(raw_game, key, schema, problems, path):
    raw_list = raw_game.get(key)
    if raw_list is None:
        return [], []
    if not isinstance(raw_list, list):
        problems.error(path, line_of(raw_game, key), None, f"{key}: expected a list")
        return [], []
    checked = [check(item, schema, problems, path, prefix=entry(key, item, i)) for i, item in enumerate(raw_list)]
    return raw_list, checked


def load_board(root: Path, raw_game, factions, traits, problems: Problems, path: Path):
    """``(pieces, holdings, hex map or None)`` of game.yaml's ``pieces``, ``holdings`` and ``map``.

    ``traits`` is the engine's ``PIECE_TRAITS`` (None when the engine declares none: any word goes).
    """
    faction_ids = [f.id for f in factions]

    def faction_of(clean, key, i, line):
        fid = clean.get("faction")
        where = subkey(entry(key, clean, i), "faction")
        if fid is None:
            if faction_ids:
                problems.error(path, line, None, f"{where}: required when the game has factions")
            return None
        if fid not in faction_ids:
            problems.error(path, line, None, f"{where}: unknown faction '{fid}'{_hint(fid, faction_ids)};"
                                             f" factions: {', '.join(faction_ids) or 'none'}")
            return None
        return fid

    def plural(clean, kind, line):
        """A name's plural game.yaml does not give: inflect's in English, else the name (and a warning)."""
        from pnp.text.grammar import default_plural

        said, problem = default_plural(clean["name"], raw_game.get("language") or "en")
        if problem:
            problems.warn(path, line, f"{kind} '{clean['id']}'", problem)
        return said

    pieces = []
    raw_list, checked = _game_list(raw_game, "pieces", PIECE_SCHEMA, problems, path)
    for i, (clean, line) in enumerate(_unique_entries(raw_list, checked, "pieces", problems, path), start=1):
        if not {"name", "count", "move"} <= clean.keys():
            continue
        faction = faction_of(clean, "pieces", i, line)
        for word in clean.get("traits") or []:
            if traits is not None and word not in traits:
                known = ", ".join(traits) or "none"
                problems.error(path, line, f"piece '{clean['id']}'",
                               f"traits: the rules engine knows no trait '{word}'{_hint(word, traits)}; known: {known}")
        pieces.append(PieceKind(clean["id"], clean["name"], clean.get("plural") or plural(clean, "piece", line), faction,
                                clean["count"], clean["move"], tuple(clean.get("traits") or ()),
                                clean.get("note") or ""))
    holdings = []
    raw_list, checked = _game_list(raw_game, "holdings", HOLDING_KIND_SCHEMA, problems, path)
    for i, (clean, line) in enumerate(_unique_entries(raw_list, checked, "holdings", problems, path), start=1):
        if not {"name", "count"} <= clean.keys():
            continue
        holdings.append(HoldingKind(clean["id"], clean["name"], clean.get("plural") or plural(clean, "holding", line),
                                    faction_of(clean, "holdings", i, line), clean["count"]))
    hexmap = None
    name = raw_game.get("map")
    if isinstance(name, str) and name.strip():   # anything else is reported by game.yaml's schema
        line = line_of(raw_game, "map")
        map_path = data_path(root, name, problems, path, line, None, "map")
        if map_path is not None:
            if map_path.suffix.lower() not in (".yaml", ".yml"):
                problems.error(path, line, None, f"map: {excerpt(name)} is not a .yaml file")
            elif not map_path.is_file():
                problems.error(path, line, None, f"map: no file {excerpt(name)} in the game folder")
            else:
                hexmap = load_map(map_path, factions, pieces, holdings, problems, root=root)
    return tuple(pieces), tuple(holdings), hexmap


# ----------------------------------------------------------------------------------------- the map file


class _MapReader:
    """Reads one map file; every problem goes to ``problems`` with the file's line."""

    def __init__(self, path, problems: Problems, grid: dict):
        self.path = path
        self.problems = problems
        self.grid = grid
        self.by_at = {}        # (q, r) -> MapHex
        self.by_id = {}        # id -> MapHex
        self.lines = {}        # (q, r) -> line

    def error(self, line, subject, message):
        self.problems.error(self.path, line, subject, message)

    # -- coordinates
    def axial(self, value):
        """(q, r) from a coordinate pair in the file's system, or None."""
        if (not isinstance(value, list) or len(value) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            return None
        if self.grid["coordinates"] == "offset":
            h = offset_to_axial(value[0], value[1], self.grid["orientation"], self.grid["parity"])
            return (h.q, h.r)
        return (value[0], value[1])

    def shown(self, at) -> str:
        """A position as the file writes it."""
        if self.grid["coordinates"] == "offset":
            return str(list(axial_to_offset(at, self.grid["orientation"], self.grid["parity"])))
        return str(list(at))

    def on_grid(self, at) -> str | None:
        """Why ``at`` is off the grid, or None."""
        g = self.grid
        if g["shape"] == "rectangle":
            col, row = axial_to_offset(at, g["orientation"], g["parity"])
            if not (0 <= col < g["columns"] and 0 <= row < g["rows"]):
                return (f"off the grid: column {col}, row {row} of a grid of {g['columns']} columns and {g['rows']} "
                        f"rows (counted from 0)")
        elif g["shape"] == "hexagon" and distance(at, (0, 0)) > g["radius"]:
            return f"off the grid: {distance(at, (0, 0))} steps from the centre hex; the radius is {g['radius']}"
        return None

    def default_id(self, at) -> str:
        if self.grid["shape"] == "rectangle":
            col, row = axial_to_offset(at, self.grid["orientation"], self.grid["parity"])
            return f"{col + 1:02d}{row + 1:02d}"
        return f"{at[0]:+d}{at[1]:+d}"

    def name(self, at) -> str:
        h = self.by_at.get(at)
        return f"'{h.id}'" if h else self.shown(at)

    def ref(self, value, line, where):
        """A hex named by id or by coordinates, or None after reporting the problem."""
        if isinstance(value, str):
            h = self.by_id.get(value)
            if h is None:
                self.error(line, None, f"{where}: no hex has the id {excerpt(value)}{_hint(value, self.by_id)}")
                return None
            return h.at
        at = self.axial(value)
        if at is None:
            self.error(line, None, f"{where}: expected a hex id or coordinates [{self._pair()}], got {excerpt(value)}")
            return None
        if at not in self.by_at:
            self.error(line, None, f"{where}: no hex at {excerpt(value)} on the map")
            return None
        return at

    def _pair(self) -> str:
        return "column, row" if self.grid["coordinates"] == "offset" else "q, r"

    def edge(self, value, line, where):
        """An edge named by two hexes, or None after reporting the problem."""
        if not isinstance(value, list) or len(value) != 2 or self.axial(value) is not None:
            self.error(line, None, f"{where}: expected an edge: the two hexes it separates, e.g. "
                                   f"[[3, 4], [3, 5]] or ['0405', '0406'], got {excerpt(value)}")
            return None
        a, b = self.ref(value[0], line, f"{where}: 1st hex"), self.ref(value[1], line, f"{where}: 2nd hex")
        if a is None or b is None:
            return None
        if distance(a, b) != 1:
            self.error(line, None, f"{where}: hexes {self.name(a)} and {self.name(b)} are not neighbours, so no "
                                   f"edge lies between them")
            return None
        return edge_key(a, b)


def _check_grid(grid, raw, problems, path):
    line = line_of(raw, "grid")
    if grid["shape"] == "rectangle":
        for key in ("columns", "rows"):
            if grid.get(key) is None:
                problems.error(path, line, None, f"grid.{key}: a rectangle grid needs columns and rows")
    elif grid["shape"] == "hexagon" and grid.get("radius") is None:
        problems.error(path, line, None, "grid.radius: a hexagon grid needs a radius")
    return all(grid.get(k) is not None for k in {"rectangle": ("columns", "rows"), "hexagon": ("radius",),
                                                  "free": ()}[grid["shape"]])


def load_map(path: Path, factions, pieces, holding_kinds, problems: Problems, root: Path | None = None) -> HexMap | None:
    """The checked map of ``path`` (None when it cannot be read at all); see the module docstring."""
    before = len(problems.errors)
    raw = load_yaml_or_report(path, problems, within=root or path.parent)
    if not isinstance(raw, dict):
        if len(problems.errors) == before:
            problems.error(path, getattr(raw, "line", None), None,
                           "expected a mapping with grid, terrains, hexes, holdings, ...")
        return None
    top = check(raw, MAP_SCHEMA, problems, path)
    grid = top.get("grid")
    if not grid or not _check_grid(grid, raw, problems, path):
        return None
    reader = _MapReader(path, problems, grid)
    terrains = _terrains(raw, problems, path)
    by_terrain = {t.id: t for t in terrains}
    default = top.get("terrain")
    if default is not None and default not in by_terrain:
        problems.error(path, line_of(raw, "terrain"), None,
                       f"terrain: unknown terrain '{default}'{_hint(default, by_terrain)}; terrains: "
                       f"{', '.join(by_terrain)}")
        default = None
    faction_ids = [f.id for f in factions]
    sides = top.get("sides")
    if sides is None:
        owning = {p.faction for p in pieces} | {h.faction for h in holding_kinds}
        sides = [f for f in faction_ids if f in owning] or faction_ids
    for s in sides:
        if s not in faction_ids:
            problems.error(path, line_of(raw, "sides"), None, f"sides: unknown faction '{s}'{_hint(s, faction_ids)}; "
                                                              f"factions: {', '.join(faction_ids) or 'none'}")
    sides = [s for s in dict.fromkeys(sides) if s in faction_ids]
    _hexes(raw, reader, by_terrain, default, sides)
    rivers = _edges(raw, reader)
    bridges = _bridge_sites(raw, reader, by_terrain, set(rivers))
    holdings = _holdings(raw, reader, holding_kinds, by_terrain)
    start = _start(raw, reader, pieces, by_terrain, holdings)
    hexmap = HexMap(orientation=grid["orientation"], size=grid["size"], shape=grid["shape"],
                    columns=grid.get("columns"), rows=grid.get("rows"), radius=grid.get("radius"),
                    parity=grid["parity"], coordinates=grid["coordinates"], sides=tuple(sides),
                    terrains=terrains, hexes=tuple(reader.by_at.values()), river_edges=tuple(rivers),
                    bridge_sites=tuple(bridges), holdings=tuple(holdings), start=tuple(start),
                    placeholder=bool(top.get("placeholder")), source=str(path))
    from pnp.loading.mapcheck import check_map

    check_map(hexmap, reader, raw, pieces, holding_kinds)
    return hexmap


def _terrains(raw, problems, path) -> tuple:
    out, seen = [], {}
    raw_list = raw.get("terrains") if isinstance(raw.get("terrains"), list) else []
    for i, item in enumerate(raw_list):
        line = line_of(raw_list, i)
        clean = check(item, TERRAIN_SCHEMA, problems, path, prefix=entry("terrains", item, i))
        if not {"id", "name", "colour"} <= clean.keys():
            continue
        if clean["id"] in seen:
            problems.error(path, line, None, f"{entry('terrains', item, i, named=False)}: id: duplicate id "
                                             f"'{clean['id']}' (first at line {seen[clean['id']]})")
            continue
        seen[clean["id"]] = line
        out.append(Terrain(clean["id"], clean["name"], clean["colour"], clean["barrier"], clean["holdings"],
                           clean.get("icon")))
    return tuple(out)


def _hexes(raw, reader: _MapReader, by_terrain, default, sides) -> None:
    raw_list = raw.get("hexes") if isinstance(raw.get("hexes"), list) else []
    ids = {}
    for i, item in enumerate(raw_list):
        line = line_of(raw_list, i)
        where = entry("hexes", item, i)
        clean = check(item, HEX_SCHEMA, reader.problems, reader.path, prefix=where)
        if "at" not in clean:
            continue
        at = reader.axial(clean["at"])
        if at is None:
            reader.error(line, None, f"{subkey(where, 'at')}: expected coordinates [{reader._pair()}], got "
                                     f"{excerpt(clean['at'])}")
            continue
        why = reader.on_grid(at)
        if why:
            reader.error(line, None, f"{subkey(where, 'at')}: {reader.shown(at)} is {why}")
            continue
        if at in reader.by_at:
            reader.error(line, None, f"{subkey(where, 'at')}: the hex {reader.shown(at)} is already listed at line "
                                     f"{reader.lines[at]}")
            continue
        hid = clean.get("id") or reader.default_id(at)
        if hid in ids:   # reported; the hex stays on the map (by its coordinates) for the other checks
            reader.error(line, None, f"{entry('hexes', item, i, named=False)}: id: '{hid}' is already the id of "
                                     f"the hex at line {ids[hid]}")
        terrain = clean.get("terrain") or default
        if terrain is None:
            reader.error(line, f"hex '{hid}'", "terrain: missing, and the map gives no default 'terrain'")
            continue
        if terrain not in by_terrain:
            reader.error(line, f"hex '{hid}'", f"terrain: unknown terrain '{terrain}'{_hint(terrain, by_terrain)}; "
                                               f"terrains: {', '.join(by_terrain)}")
            continue
        side = clean.get("side")
        barrier = by_terrain[terrain].barrier
        if side is not None and side not in sides:
            reader.error(line, f"hex '{hid}'", f"side: '{side}' is not one of the map's sides{_hint(side, sides)} "
                                               f"({', '.join(sides) or 'none'})")
            continue
        if barrier and side is not None:
            reader.error(line, f"hex '{hid}'", f"side: {by_terrain[terrain].name} lies between the halves and "
                                               f"belongs to no side; leave 'side' out")
            continue
        if not barrier and side is None and sides:
            reader.error(line, f"hex '{hid}'", f"side: missing; every hex off the {_barrier_names(by_terrain)} "
                                               f"belongs to a side ({', '.join(sides)})")
            continue
        hexagon = MapHex(at[0], at[1], hid, terrain, side)
        reader.by_at[at] = hexagon
        reader.lines[at] = line
        if hid not in ids:
            reader.by_id[hid] = hexagon
            ids[hid] = line


def _half(side) -> str:
    return f"on the {side} side" if side else "on no side's half"


def _barrier_names(by_terrain) -> str:
    names = [t.name.lower() for t in by_terrain.values() if t.barrier]
    return " or ".join(names) or "barrier terrain"


def _edges(raw, reader: _MapReader) -> list:
    raw_list = raw.get("river_edges") if isinstance(raw.get("river_edges"), list) else []
    out, seen = [], {}
    for i, item in enumerate(raw_list):
        line = line_of(raw_list, i)
        e = reader.edge(item, line, entry("river_edges", item, i))
        if e is None:
            continue
        if e in seen:
            reader.error(line, None, f"{entry('river_edges', item, i)}: the edge between {reader.name(e[0])} and "
                                     f"{reader.name(e[1])} is already listed at line {seen[e]}")
            continue
        seen[e] = line
        out.append(e)
    return out


def _is_edge(value) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(isinstance(v, (list, str)) for v in value)


def _bridge_sites(raw, reader: _MapReader, by_terrain, rivers) -> list:
    raw_list = raw.get("bridge_sites") if isinstance(raw.get("bridge_sites"), list) else []
    out, seen = [], {}
    for i, item in enumerate(raw_list):
        line = line_of(raw_list, i)
        where = entry("bridge_sites", item, i)
        if _is_edge(item):
            site = reader.edge(item, line, where)
            if site is None:
                continue
            if site not in rivers:
                reader.error(line, None, f"{where}: the edge between {reader.name(site[0])} and "
                                         f"{reader.name(site[1])} is not a river edge; a bridge site crosses the "
                                         f"river")
                continue
        else:
            site = reader.ref(item, line, where)
            if site is None:
                continue
            terrain = by_terrain[reader.by_at[site].terrain]
            if not terrain.barrier:
                reader.error(line, None, f"{where}: hex {reader.name(site)} is {terrain.name.lower()}, not "
                                         f"{_barrier_names(by_terrain)}; a bridge site crosses the river")
                continue
        if site in seen:
            reader.error(line, None, f"{where}: this bridge site is already listed at line {seen[site]}")
            continue
        seen[site] = line
        out.append(site)
    return out


def _holdings(raw, reader: _MapReader, kinds, by_terrain) -> list:
    raw_list = raw.get("holdings") if isinstance(raw.get("holdings"), list) else []
    by_kind = {k.id: k for k in kinds}
    out, ids, taken = [], {}, {}
    for i, item in enumerate(raw_list):
        line = line_of(raw_list, i)
        where = entry("holdings", item, i)
        clean = check(item, HOLDING_SCHEMA, reader.problems, reader.path, prefix=where)
        if not {"id", "kind", "at"} <= clean.keys():
            continue
        subject = f"holding '{clean['id']}'"
        if clean["id"] in ids:
            reader.error(line, None, f"{entry('holdings', item, i, named=False)}: id: duplicate id '{clean['id']}' "
                                     f"(first at line {ids[clean['id']]})")
            continue
        ids[clean["id"]] = line
        kind = by_kind.get(clean["kind"])
        if kind is None:
            known = ", ".join(by_kind) or "none (game.yaml lists no holdings)"
            reader.error(line, subject, f"kind: unknown holding kind '{clean['kind']}'{_hint(clean['kind'], by_kind)};"
                                        f" game.yaml's holdings: {known}")
            continue
        at = reader.ref(clean["at"], line, subkey(where, "at"))
        if at is None:
            continue
        h = reader.by_at[at]
        terrain = by_terrain[h.terrain]
        ok = True
        if not terrain.holdings:
            reader.error(line, subject, f"stands on hex '{h.id}' ({terrain.name.lower()}), where no holding may "
                                        f"stand")
            ok = False
        elif kind.faction is not None and h.side != kind.faction:
            reader.error(line, subject, f"stands on hex '{h.id}', {_half(h.side)}; a {kind.name} belongs on the "
                                        f"{kind.faction} side")
            ok = False
        if at in taken:
            reader.error(line, subject, f"stands on hex '{h.id}', where the holding at line {taken[at]} already "
                                        f"stands")
            ok = False
        if ok:
            taken[at] = line
            out.append(MapHolding(clean["id"], kind.id, kind.faction, at, clean.get("name") or kind.name))
    return out


def _start(raw, reader: _MapReader, pieces, by_terrain, holdings) -> list:
    start = raw.get("start") if isinstance(raw.get("start"), dict) else {}
    by_kind = {p.id: p for p in pieces}
    holding_hexes = {h.at for h in holdings}
    out, used = [], {}
    for kind_id, raw_list in start.items():
        line = line_of(start, kind_id)
        piece = by_kind.get(kind_id)
        if piece is None:
            reader.error(line, None, f"start.{kind_id}: unknown piece '{kind_id}'{_hint(kind_id, by_kind)}; pieces: "
                                     f"{', '.join(by_kind) or 'none (game.yaml lists no pieces)'}")
            continue
        if not isinstance(raw_list, list):
            continue
        hexes = []
        for j, item in enumerate(raw_list):
            item_line = line_of(raw_list, j) or line
            where = f"start.{kind_id}: {ordinal(j + 1)} hex"
            at = reader.ref(item, item_line, where)
            if at is None:
                continue
            h = reader.by_at[at]
            terrain = by_terrain[h.terrain]
            if terrain.barrier:
                reader.error(item_line, None, f"{where}: hex '{h.id}' ({terrain.name.lower()}): a piece cannot "
                                              f"start there")
                continue
            if piece.faction is not None and h.side != piece.faction:
                reader.error(item_line, None, f"{where}: hex '{h.id}' is {_half(h.side)}; {piece.plural} start on "
                                              f"the {piece.faction} side")
                continue
            if at in used and at not in holding_hexes:
                reader.error(item_line, None, f"{where}: hex '{h.id}' already holds a piece ({used[at]}); only a "
                                              f"holding takes several")
                continue
            used.setdefault(at, where)
            hexes.append(at)
        if len(raw_list) != piece.count:
            given = f"{len(raw_list)} starting hex{'es' if len(raw_list) != 1 else ''}"
            reader.error(line, None, f"start.{kind_id}: {given} for {piece.count} "
                                     f"{piece.plural if piece.count != 1 else piece.name}")
        out.append((kind_id, tuple(hexes)))
    if start:
        for piece in pieces:
            if piece.id not in start:
                reader.error(line_of(raw, "start"), None, f"start: no starting hexes for the {piece.count} "
                                                          f"{piece.plural}")
    return out
