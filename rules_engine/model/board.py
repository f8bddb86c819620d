"""Boards as language-neutral frozen facts: a hex map, its terrain, rivers, bridge sites and holdings,
and the pieces that move on it.

``pnp`` reads and checks a game's ``map:`` file and its ``pieces:`` and ``holdings:`` (see
``docs/data-format.md``, "Hex maps and pieces") and builds these objects; a rules engine only ever sees
them, so it needs no YAML or drawing code. Coordinates are axial ``(q, r)`` whatever the file used
(``q`` grows to the right, ``r`` down the page), as in :mod:`pnp.layout.hexgrid`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: The six axial steps to a hex's neighbours (the same set for flat-top and pointy-top grids).
STEPS = ((1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1), (1, 0))


def hex_distance(a, b) -> int:
    """Steps between two hexes, ignoring what lies between them (what a ruler on the map counts)."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def edge_key(a, b) -> tuple:
    """An edge between two hexes, the same value whichever hex is named first."""
    a, b = tuple(a), tuple(b)
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True)
class PieceKind:
    """A kind of piece: ``count`` of them belong to ``faction``; ``move`` is how many hexes one moves;
    ``traits`` are words the rules engine reads (its ``PIECE_TRAITS``); ``note`` a printed remark."""

    id: str
    name: str
    plural: str
    faction: str
    count: int
    move: int
    traits: tuple = ()
    note: str = ""


@dataclass(frozen=True)
class HoldingKind:
    """A kind of holding (a place a side holds: a castle, a village): ``count`` of them on the map."""

    id: str
    name: str
    plural: str
    faction: str
    count: int


@dataclass(frozen=True)
class Terrain:
    """A terrain kind. ``barrier``: pieces cross it only at a bridge site where a bridge stands (a
    river); ``holdings``: whether a holding may stand on it."""

    id: str
    name: str
    colour: str
    barrier: bool = False
    holdings: bool = True
    icon: str | None = None          # printed on its hexes (the engine ignores it)


@dataclass(frozen=True)
class MapHex:
    """One hex of the map: its axial coordinates, printed id, terrain, and the side whose half it is in."""

    q: int
    r: int
    id: str                          # printed small on the hex
    terrain: str
    side: str | None                 # the faction whose half it is in; None on barrier terrain

    @property
    def at(self) -> tuple:
        return (self.q, self.r)


@dataclass(frozen=True)
class MapHolding:
    """One holding on the map: its id, kind, the side it belongs to (its kind's faction), its hex and its name."""

    id: str
    kind: str
    side: str
    at: tuple                        # (q, r)
    name: str


@dataclass(frozen=True)
class HexMap:
    """A checked hex map. ``river_edges`` and edge bridge sites are :func:`edge_key` pairs; a hex bridge
    site is a ``(q, r)`` of barrier terrain. ``start`` gives each piece kind its starting hexes."""

    orientation: str
    size: float                      # mm across the flats
    shape: str                       # rectangle, hexagon or free
    columns: int | None
    rows: int | None
    radius: int | None
    parity: str
    coordinates: str                 # how the file named hexes: axial or offset
    sides: tuple                     # faction ids, in the file's order
    terrains: tuple                  # Terrain
    hexes: tuple                     # MapHex, in the file's order
    river_edges: tuple = ()
    bridge_sites: tuple = ()
    holdings: tuple = ()             # MapHolding
    start: tuple = ()                # ((piece kind id, ((q, r), ...)), ...)
    placeholder: bool = False        # the whole map is invented (the source has none)
    source: str = ""                 # the map file, for messages
    _index: dict = field(default_factory=dict, hash=False, compare=False, repr=False)

    def __post_init__(self):
        self._index.update({h.at: h for h in self.hexes})

    def hex(self, at) -> MapHex | None:
        return self._index.get(tuple(at))

    def terrain(self, terrain_id: str) -> Terrain:
        return next(t for t in self.terrains if t.id == terrain_id)

    def holding_at(self, at) -> MapHolding | None:
        at = tuple(at)
        return next((h for h in self.holdings if tuple(h.at) == at), None)

    def start_of(self, piece_kind: str) -> tuple:
        return next((hexes for kind, hexes in self.start if kind == piece_kind), ())

    def neighbours(self, at) -> list:
        """The map's hexes next to ``at`` (whatever their terrain)."""
        q, r = at
        return [(q + dq, r + dr) for dq, dr in STEPS if (q + dq, r + dr) in self._index]
