"""Shadow Queen's static facts compiled once into flat tables: the map's spaces and links, the pieces,
the holdings and the two decks.

A *space* is a hex a piece may stand on (barrier hexes count only where a bridge may be built);
spaces are numbered in the map's order. *Links* join neighbouring spaces; a link across a river edge,
and every link into a bridge-site hex, needs a bridge (``bridge`` index) to be open. A holding stands
on one space and takes any number of pieces. Physical pieces and cards are numbered from 0; seat 0
is the side that moves first (the Shadows), seat 1 the other.
"""

from __future__ import annotations

from rules_engine.model.board import STEPS, edge_key, hex_distance
from rules_engine.shadow_queen.effects import EFFECTS

#: A game stops after this many turns (each side's turn counts one) as a safety net: long games are a
#: finding of the simulation report, not an error.
TURN_LIMIT = 200
#: The die rolled in attacks and defences (the draft names none).
DIE_SIDES = 6
#: A piece that stays in a cave more than this many of its side's turns is eaten by a bear.
CAVE_TURNS = 4


class Rules:
    """Compiled facts of one game; ``Rules.from_game(game)`` (or :func:`rules_for`)."""

    def __init__(self, cards, factions, pieces, holdings, hexmap, die_sides: int = DIE_SIDES):
        if hexmap is None:
            raise ValueError("Shadow Queen needs a map: game.yaml's 'map' names none")
        if len(factions) != 2:
            raise ValueError(f"Shadow Queen is played by two sides; game.yaml lists {len(factions)} factions")
        self.factions = tuple(factions)
        self.sides = tuple(f.id for f in factions)
        self.side_names = tuple(f.name for f in factions)
        self.hexmap = hexmap
        self.die_sides = die_sides                         # RULING 2: the die, from dice.yaml when given
        self._compile_map(hexmap)
        self._compile_pieces(pieces)
        self._compile_holdings(holdings, hexmap)
        self._compile_cards(cards)
        self.start = self._start_spaces(hexmap)

    @classmethod
    def from_game(cls, game) -> "Rules":
        dice = (getattr(game, "facts", None) or {}).get("dice") or {}
        return cls(game.cards, game.factions, game.pieces, game.holdings, game.map, dice.get("sides", DIE_SIDES))

    def max_players(self) -> int:
        return 2

    # ------------------------------------------------------------------ the map

    def _compile_map(self, m):
        barrier = {t.id for t in m.terrains if t.barrier}
        sites = list(m.bridge_sites)
        self.bridge_sites = tuple(sites)
        site_of = {s: i for i, s in enumerate(sites)}
        ats = [h.at for h in m.hexes if h.terrain not in barrier or h.at in site_of]
        self.at = tuple(ats)                               # space -> (q, r)
        self.space_of = {at: i for i, at in enumerate(ats)}
        hexes = [m.hex(at) for at in ats]
        self.hex_id = tuple(h.id for h in hexes)
        self.space_by_id = {h.id: i for i, h in enumerate(hexes)}
        sides = {s: i for i, s in enumerate(self.sides)}
        self.half = tuple(sides.get(h.side, -1) for h in hexes)    # side whose half it is in, -1: none
        self.forest = tuple(h.terrain == "forest" for h in hexes)
        self.cave = tuple(h.terrain == "cave" for h in hexes)
        self.site_space = tuple(self.space_of.get(s, -1) if not isinstance(s[0], tuple) else -1 for s in sites)
        self.bridge_at = tuple(site_of.get(at, -1) for at in ats)   # space -> bridge site on it, or -1
        rivers = set(m.river_edges)
        n = len(ats)
        links = []
        direction = []
        for i, (q, r) in enumerate(ats):
            out, dirs = [], []
            for d, (dq, dr) in enumerate(STEPS):
                j = self.space_of.get((q + dq, r + dr))
                if j is None:
                    continue
                e = edge_key((q, r), (q + dq, r + dr))
                need = -1
                if e in rivers:
                    if e not in site_of:
                        continue
                    need = site_of[e]
                if self.bridge_at[j] >= 0:
                    need = self.bridge_at[j]
                if self.bridge_at[i] >= 0 and need < 0:
                    need = self.bridge_at[i]
                out.append((j, need))
                dirs.append(d)
            links.append(tuple(out))
            direction.append(tuple(dirs))
        self.links = tuple(links)                          # space -> ((space, bridge needed or -1), ...)
        into = [[] for _ in range(n)]
        for i, out in enumerate(links):
            for j, need in out:
                into[j].append((i, need))
        self.links_in = tuple(map(tuple, into))            # space -> the links that lead into it
        self.link_dirs = tuple(direction)                   # the axial direction of each link
        self.dist = tuple(tuple(hex_distance(ats[a], ats[b]) for b in range(n)) for a in range(n))
        # the spaces next to each bridge site (builders stand there)
        near = []
        for s in sites:
            if isinstance(s[0], tuple):
                near.append(tuple(self.space_of[a] for a in s))
            else:
                near.append(tuple(j for j, _ in self.links[self.space_of[s]]))
        self.site_near = tuple(near)
        # per space, the bridge sites a builder standing there may build (it is next to them)
        self.sites_from = tuple(tuple(b for b, ns in enumerate(near) if i in ns) for i in range(n))
        self._open_links = {}
        self._balls = {}
        self._deep_links = {}
        self._rings = {}                                   # id(deep_links table) -> (table, rings)
        self._gates = {}                                   # (what, bridges or paths) -> spaces (GameState._gate_spaces)

    def open_links(self, bridge) -> tuple:
        """Per space, the spaces of its links that are open with the bridges ``bridge`` (a list of bools,
        one a site), in the order of :attr:`links`; kept for each set of bridges met."""
        key = tuple(bridge)
        table = self._open_links.get(key)
        if table is None:
            table = tuple(tuple(j for j, need in out if need < 0 or key[need]) for out in self.links)
            if len(self._open_links) > 256:
                self._open_links.clear()
            self._open_links[key] = table
        return table

    def deep_links(self, bridge, path) -> tuple:
        """:meth:`open_links` without the links into a forest without a path (``path``: a list of bools,
        one a space): the links a move may take after its first hex; kept for each set met."""
        key = (tuple(bridge), tuple(s for s, built in enumerate(path) if built))
        table = self._deep_links.get(key)
        if table is None:
            forest = self.forest
            table = tuple(tuple(j for j in row if not forest[j] or path[j]) for row in self.open_links(bridge))
            if len(self._deep_links) > 256:
                self._deep_links.clear()
                self._rings.clear()
            self._deep_links[key] = table
            self._rings[id(table)] = (table, {})
        return table

    def rings(self, table) -> dict:
        """The dict that :meth:`GameState._reach_free` keeps its rings in for a :meth:`deep_links` table
        (per start and the passable spaces of each earlier ring, the new spaces of the next ring in the
        order a breadth-first search meets them): the rings depend only on the table and those spaces."""
        kept = self._rings.get(id(table))
        if kept is None or kept[0] is not table:
            kept = self._rings[id(table)] = (table, {})
        return kept[1]

    def balls(self, reach: int) -> tuple:
        """Per space, the frozenset of spaces within ``reach`` hexes of it (itself included); kept."""
        table = self._balls.get(reach)
        if table is None:
            table = self._balls[reach] = tuple(frozenset(b for b, d in enumerate(row) if d <= reach)
                                               for row in self.dist)
        return table

    def step(self, space: int, direction: int) -> int:
        """The space one hex away in an axial direction, or -1."""
        q, r = self.at[space]
        dq, dr = STEPS[direction]
        return self.space_of.get((q + dq, r + dr), -1)

    # ------------------------------------------------------------------ pieces and holdings

    def _compile_pieces(self, kinds):
        sides = {s: i for i, s in enumerate(self.sides)}
        self.kinds = tuple(kinds)
        self.kind_index = {k.id: i for i, k in enumerate(kinds)}
        self.kind_side = tuple(sides[k.faction] for k in kinds)
        self.kind_move = tuple(k.move for k in kinds)
        self.kind_traits = tuple(frozenset(k.traits) for k in kinds)
        piece_kind, piece_side = [], []
        for i, k in enumerate(kinds):
            piece_kind += [i] * k.count
            piece_side += [sides[k.faction]] * k.count
        self.piece_kind = tuple(piece_kind)
        self.piece_side = tuple(piece_side)
        self.pieces_of = tuple(tuple(p for p, s in enumerate(piece_side) if s == side) for side in range(2))
        self.fighter = tuple("fighter" in self.kind_traits[k] for k in piece_kind)
        self.needs_orders = tuple("needs_orders" in self.kind_traits[k] for k in piece_kind)
        self.essential = tuple("essential" in self.kind_traits[k] for k in piece_kind)
        self.traits = tuple(self.kind_traits[k] for k in piece_kind)

    def _compile_holdings(self, kinds, m):
        sides = {s: i for i, s in enumerate(self.sides)}
        self.holding_kinds = tuple(kinds)
        self.holdings = tuple(m.holdings)
        self.holding_ids = tuple(h.id for h in m.holdings)
        self.holding_space = tuple(self.space_of[tuple(h.at)] for h in m.holdings)
        self.holding_side = tuple(sides[h.side] for h in m.holdings)   # who holds it at the start
        self.holding_at = [-1] * len(self.at)
        for h, s in enumerate(self.holding_space):
            self.holding_at[s] = h
        self.holding_at = tuple(self.holding_at)

    def _start_spaces(self, m) -> tuple:
        """Every piece's starting space (-1 for a piece the map does not place: it starts off the board)."""
        start = []
        for i, k in enumerate(self.kinds):
            hexes = m.start_of(k.id)
            start += [self.space_of[tuple(at)] for at in hexes][:k.count] + [-1] * max(0, k.count - len(hexes))
        return tuple(start)

    def piece_name(self, p: int) -> str:
        return self.kinds[self.piece_kind[p]].name

    # ------------------------------------------------------------------ cards

    def _compile_cards(self, cards):
        sides = {s: i for i, s in enumerate(self.sides)}
        self.cards = tuple(cards)                           # distinct cards
        self.card_index = {c.id: i for i, c in enumerate(cards)}
        self.card_deck = tuple(sides[c.faction] for c in cards)      # whose deck it is in
        self.card_kind = tuple(c.ability.kind if c.ability else "" for c in cards)
        self.card_params = tuple(self._params(c) for c in cards)
        self.card_players = tuple(frozenset(self.kind_index[k] for k in (c.value("played_by") or ())
                                            if k in self.kind_index) for c in cards)
        physical = []
        for i, c in enumerate(cards):
            physical += [i] * c.copies
        self.card_of = tuple(physical)                      # physical card -> distinct card
        self.deck_cards = tuple(tuple(n for n, i in enumerate(physical) if self.card_deck[i] == side)
                                for side in range(2))
        self.copies_of = {c.id: tuple(n for n, i in enumerate(physical) if i == k) for k, c in enumerate(cards)}
        # per kind of piece, the distinct cards it may play on its own go (its side's deck, no defence)
        self.kind_plays = tuple(frozenset(k for k in range(len(cards)) if kind in self.card_players[k]
                                          and self.card_deck[k] == self.kind_side[kind]
                                          and self.card_kind[k] != "defend")
                                for kind in range(len(self.kinds)))

    @staticmethod
    def _params(card) -> dict:
        if card.ability is None:
            return {}
        spec = EFFECTS[card.ability.kind].params
        params = {name: p.default for name, p in spec.items()}
        params.update({k: v for k, v in card.ability.params.items() if v is not None})
        return params

    def card_id(self, n: int) -> str:
        """The id of physical card ``n``."""
        return self.cards[self.card_of[n]].id


def rules_for(game) -> Rules:
    """The compiled rules of a loaded game (the engine protocol's entry)."""
    return Rules.from_game(game)
