"""The map validator's checks of a hex map as a whole, for any hex-map game.

* **Connected over bridges**: with a bridge on every bridge site, every hex a piece may enter can be
  reached from every other; a part cut off is reported with its hexes ("no unreachable hex").
* **Split by the river**: without bridges, the hexes fall into exactly one region per side: two hexes
  of different sides never touch except across a river (hexes of barrier terrain, or river edges), so
  the river is crossed only at bridge sites, and no side's half is itself cut in pieces.
* **Holdings**: each side has exactly its starting holdings (game.yaml's ``holdings`` counts); where
  each stands (its own half, not on river or cave) is checked as the file is read (:mod:`pnp.loading.mapdata`).
* **Room to deploy**: each side's half has at least one hex outside its holdings per piece it owns.

Neighbours come from :class:`pnp.layout.hexgrid.HexGrid` (the same geometry that prints the map).
Every check runs whatever the others found, so a broken map gets all its problems at once.
"""

from __future__ import annotations

from collections import Counter

from pnp.layout.hexgrid import HexGrid, edge
from pnp.loading.schema import entry
from pnp.loading.yamlsrc import line_of

#: Hexes named in a message about a region (the rest are counted).
SHOWN = 8


def _graph(hexmap, bridges: bool):
    """``(passable hexes, neighbours)``: the hexes a piece may stand on and who borders whom, with a
    bridge on every site (``bridges=True``) or with none."""
    grid = HexGrid(hexmap.orientation)
    sites = set(hexmap.bridge_sites)
    barrier = {t.id for t in hexmap.terrains if t.barrier}
    rivers = set(hexmap.river_edges)
    passable = [h.at for h in hexmap.hexes if h.terrain not in barrier or (bridges and h.at in sites)]
    inside = set(passable)
    links = {}
    for at in passable:
        near = []
        for n in grid.neighbours(at):
            n = (n.q, n.r)
            if n not in inside:
                continue
            e = tuple(map(tuple, edge(at, n)))
            if e in rivers and not (bridges and e in sites):
                continue
            near.append(n)
        links[at] = near
    return passable, links


def regions(hexes, links) -> list[list]:
    """Connected groups of ``hexes`` (each in the order first met), the group of the first hex first."""
    seen, out = set(), []
    for start in hexes:
        if start in seen:
            continue
        group, todo = [], [start]
        seen.add(start)
        while todo:
            at = todo.pop()
            group.append(at)
            for n in links[at]:
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        order = {h: i for i, h in enumerate(hexes)}
        out.append(sorted(group, key=order.__getitem__))
    return out


def _names(hexmap, group) -> str:
    shown = ", ".join(f"'{hexmap.hex(at).id}'" for at in group[:SHOWN])
    more = f" and {len(group) - SHOWN} more" if len(group) > SHOWN else ""
    return shown + more


def check_map(hexmap, reader, raw, pieces, holding_kinds) -> None:
    """Every whole-map problem of ``hexmap`` (read by ``reader``, which reports with lines)."""
    hexes_line = line_of(raw, "hexes")
    if not hexmap.hexes:
        reader.error(hexes_line, None, "hexes: the map has no hexes")
        return
    line = reader.lines.get
    # connected when bridges are counted; no hex cut off
    passable, links = _graph(hexmap, bridges=True)
    parts = regions(passable, links)
    if len(parts) > 1:
        main = max(parts, key=len)
        reader.error(hexes_line, None, f"hexes: the map falls into {len(parts)} parts even with a bridge on every "
                                       f"site; a piece can reach only the part it starts in")
        for part in parts:
            if part is not main:
                reader.error(line(part[0]), None, f"hex '{hexmap.hex(part[0]).id}': cut off from the rest of the map "
                                                  f"even with every bridge built (unreachable: {_names(hexmap, part)})")
    # without bridges: sides meet only across the river, each side in one piece
    passable, links = _graph(hexmap, bridges=False)
    _check_sites(hexmap, reader, raw, set(passable))
    reported = set()
    for at in passable:
        h = hexmap.hex(at)
        for n in links[at]:
            other = hexmap.hex(n)
            key = tuple(sorted((at, n)))
            if h.side != other.side and key not in reported:
                reported.add(key)
                reader.error(line(at), f"hex '{h.id}'", f"borders hex '{other.id}' ({other.side}) with no river "
                                                        f"between them: the {h.side} and {other.side} sides may meet "
                                                        f"only across the river, at bridge sites")
    for side in hexmap.sides:
        own = [at for at in passable if hexmap.hex(at).side == side]
        if not own:
            reader.error(hexes_line, None, f"hexes: no hex belongs to the {side} side")
            continue
        own_links = {at: [n for n in links[at] if hexmap.hex(n).side == side] for at in own}
        parts = regions(own, own_links)
        if len(parts) > 1:
            reader.error(line(parts[1][0]), None,
                         f"the {side} side's half falls into {len(parts)} parts without bridges; this part is cut off "
                         f"from hex '{hexmap.hex(parts[0][0]).id}': {_names(hexmap, parts[1])}")
    # starting holdings, and room to deploy
    holdings_line = line_of(raw, "holdings") or hexes_line
    placed = Counter(h.kind for h in hexmap.holdings)
    for kind in holding_kinds:
        if placed[kind.id] != kind.count:
            owner = f"the {kind.faction} side" if kind.faction else "the game"
            have = f"{placed[kind.id]} {kind.name if placed[kind.id] == 1 else kind.plural}"
            reader.error(holdings_line, None, f"holdings: the map places {have}; {owner} starts with {kind.count}")
    barrier = {t.id for t in hexmap.terrains if t.barrier}
    holding_hexes = {h.at for h in hexmap.holdings}
    for side in hexmap.sides:
        need = sum(p.count for p in pieces if p.faction == side)
        room = sum(1 for h in hexmap.hexes if h.side == side and h.terrain not in barrier
                   and h.at not in holding_hexes)
        if need > room:
            reader.error(hexes_line, None, f"hexes: the {side} side's half has room for {room} pieces outside its "
                                           f"holdings; the {side} side deploys {need}")


def _check_sites(hexmap, reader, raw, land) -> None:
    """Every bridge site leads somewhere: beside it lie hexes of two sides, or another bridge site (a
    river two hexes wide takes two bridges)."""
    grid = HexGrid(hexmap.orientation)
    sites = set(hexmap.bridge_sites)
    raw_list = raw.get("bridge_sites") if isinstance(raw.get("bridge_sites"), list) else []
    rivers = set(hexmap.river_edges)
    for i, site in enumerate(hexmap.bridge_sites):
        if isinstance(site[0], tuple):
            sides = {hexmap.hex(site[0]).side, hexmap.hex(site[1]).side}
            near_site = False
        else:
            around = [(n.q, n.r) for n in grid.neighbours(site)]
            around = [n for n in around if hexmap.hex(n) is not None
                      and tuple(map(tuple, edge(site, n))) not in rivers]
            sides = {hexmap.hex(n).side for n in around if n in land}
            near_site = any(n in sites for n in around)
        if len(sides - {None}) < 2 and not near_site:
            name = (f"'{hexmap.hex(site).id}'" if not isinstance(site[0], tuple)
                    else f"between '{hexmap.hex(site[0]).id}' and '{hexmap.hex(site[1]).id}'")
            only = ", ".join(sorted(s for s in sides if s)) or "no"
            reader.error(line_of(raw_list, i), None, f"{entry('bridge_sites', site, i)}: the site {name} crosses nothing: "
                                                     f"the land beside it is on the {only} side only")
