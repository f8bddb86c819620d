"""Static facts of a Valeria game, compiled once from the cards and the facts files into flat tables.

Physical cards are numbered per deck (plans 0..47, champions 0..60, awards 0..14, copies expanded in
data order); ``*_kind`` maps a number to its distinct card (an index into ``plans`` / ``champions`` /
``awards``). Dice are small ints: ``troop * 6 + strength - 1`` (:func:`die`, :func:`troop_of`,
:func:`strength_of`). Shrines, troop types, battle types and champion types are indexes in the orders
of :mod:`rules_engine.valeria.effects` and the facts. Nothing here changes during a game.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from rules_engine.valeria.effects import BATTLES, CHAMPION_TYPES, EFFECTS, TROOPS
from rules_engine.valeria.facts import SHRINES, check_facts

NT, NB, NC = len(TROOPS), len(BATTLES), len(CHAMPION_TYPES)
GEM, MAGIC, CHAMPIONS, GOLD, TACTICS = range(5)
CAMP = 5
#: Safety net: a game stops after this many turns (never reached by the bots).
TURN_LIMIT = 1500


def die(troop: int, strength: int) -> int:
    return troop * 6 + strength - 1


def troop_of(d: int) -> int:
    return d // 6


def strength_of(d: int) -> int:
    return d % 6 + 1


class Plan(NamedTuple):
    id: str
    battle: int                 # index in BATTLES
    need: tuple                 # troop icons needed, per troop type
    icons: int
    pairs: tuple                # ((troop, icons), ...) for the troop types it needs


class Champion(NamedTuple):
    id: str
    type: int                   # index in CHAMPION_TYPES
    kind: str                   # effect kind
    params: dict


class Award(NamedTuple):
    id: str
    diamond: str
    vp: tuple                   # points of the circles, left to right
    kind: str                   # have / pattern
    params: dict
    masks: tuple                # pattern: every placement of the shape, as 9-bit masks


class Circle(NamedTuple):
    id: str
    unlocks: str
    value: int
    gain_gems: int
    slot: int                   # reserve slot index (unlocks reserve_slot), else -1


class Slot(NamedTuple):
    id: str
    bonus: str                  # influence, die, champion
    price: int
    base_cost: bool             # the price is the row's base cost
    amount: int
    open: bool


class Side(NamedTuple):
    id: str
    areas: tuple                # 9 area kinds, rows from the top (troop / battle id or 'strength')
    chains: tuple               # 12 (a, b, bonus kind): areas a < b and the bonus between them


# the 12 chain positions of a 3 x 3 map: across (per row: left-middle, middle-right), then down
CHAIN_CELLS = tuple([(r * 3 + c, r * 3 + c + 1) for r in range(3) for c in range(2)]
                    + [(r * 3 + c, (r + 1) * 3 + c) for r in range(2) for c in range(3)])


def pattern_masks(cells: Sequence[int]) -> tuple:
    """Every placement of a shape on the 3 x 3 map: the 8 turns and flips, moved to every position
    where it fits, as bit masks (bit i = cell i)."""
    points = [(c // 3, c % 3) for c in cells]
    shapes = set()
    for flip in (False, True):
        pts = [(r, -c) if flip else (r, c) for r, c in points]
        for _ in range(4):
            pts = [(c, -r) for r, c in pts]
            r0, c0 = min(r for r, _ in pts), min(c for _, c in pts)
            shapes.add(tuple(sorted((r - r0, c - c0) for r, c in pts)))
    masks = set()
    for shape in shapes:
        h, w = max(r for r, _ in shape) + 1, max(c for _, c in shape) + 1
        for dr in range(4 - h):
            for dc in range(4 - w):
                masks.add(sum(1 << ((r + dr) * 3 + c + dc) for r, c in shape))
    return tuple(sorted(masks))


class Rules:
    """Compiled tables from a game's cards and facts (``rules_for(game)``). Raises ``ValueError`` when
    they cannot make a game (the facts are checked first, as ``pnp validate`` does)."""

    def __init__(self, cards: Sequence, facts: dict):
        problems = check_facts(facts, tuple(cards))
        if problems:
            raise ValueError("; ".join(f"{w}: {m}" for w, m in problems[:3]))
        self.cards = tuple(cards)
        self.facts = facts
        self.card_by_id = {c.id: c for c in self.cards}
        plans = [c for c in self.cards if c.deck == "battle_plans"]
        champions = [c for c in self.cards if c.deck == "champions"]
        awards = [c for c in self.cards if c.deck == "awards"]
        self.plans = tuple(self._plan(c) for c in plans)
        self.champions = tuple(self._champion(c) for c in champions)
        self.awards = tuple(self._award(c) for c in awards)
        self.plan_kind = tuple(k for k, c in enumerate(plans) for _ in range(c.copies))
        self.champion_kind = tuple(k for k, c in enumerate(champions) for _ in range(c.copies))
        self.award_kind = tuple(k for k, c in enumerate(awards) for _ in range(c.copies))
        self.plan_index = {p.id: k for k, p in enumerate(self.plans)}
        self.champion_index = {c.id: k for k, c in enumerate(self.champions)}
        self.award_index = {a.id: k for k, a in enumerate(self.awards)}
        # champion cards by type (physical numbers), award cards by diamond
        self.champion_decks = tuple(tuple(n for n, k in enumerate(self.champion_kind) if self.champions[k].type == t)
                                    for t in range(NC))
        self._facts(facts)

    @staticmethod
    def _plan(card) -> Plan:
        troops = list(card.value("troops"))
        need = tuple(troops.count(t) for t in TROOPS)
        return Plan(card.id, BATTLES.index(card.value("battle")), need, len(troops),
                    tuple((t, k) for t, k in enumerate(need) if k))

    @staticmethod
    def _champion(card) -> Champion:
        spec = EFFECTS[card.ability.kind]
        params = {name: p.default for name, p in spec.params.items()}
        params.update(card.ability.params)
        return Champion(card.id, CHAMPION_TYPES.index(card.value("type")), card.ability.kind, params)

    @staticmethod
    def _award(card) -> Award:
        spec = EFFECTS[card.ability.kind]
        params = {name: p.default for name, p in spec.params.items()}
        params.update(card.ability.params)
        masks = pattern_masks(params["cells"]) if card.ability.kind == "pattern" else ()
        return Award(card.id, card.value("diamond"), (card.value("vp_1"), card.value("vp_2"), card.value("vp_3")),
                     card.ability.kind, params, masks)

    def _facts(self, f: dict) -> None:
        self.setup = {n: dict(row) for n, row in f["players"].items()}
        start = f["start"]
        self.start = (start["influence"], start["gold"], start["magic"], start.get("score", 0))
        self.end_plans = f["end_plans"]
        solo = f["solo"]
        self.solo_start_shrine = SHRINES.index(solo["start_shrine"])
        self.solo_start_score = solo["start_score"]
        self.solo_meeting_vp = solo["meeting_vp"]
        self.solo_plan_vp = {int(k): v for k, v in solo["plan_vp"].items()}
        self.solo_plans_to_end = solo["plans_to_end"]
        self.solo_empty_award_vp = solo["empty_award_vp"]
        self.solo_claimed_award_vp = solo["claimed_award_vp"]
        self.solo_removed = frozenset(self.award_index[a] for a in solo.get("remove_awards") or ())
        # the shrines in clockwise order (their indexes follow SHRINES: gem, magic, champions, gold, tactics)
        self.clockwise = tuple(SHRINES.index(s) for s in f["shrines"])
        self.magic_shrine_magic = f["magic_shrine_magic"]
        self.cycle_magic = f["cycle_magic"]
        self.line_costs = tuple(f["battle_plan_line"]["costs"])
        rows = {r["type"]: r for r in f["champion_rows"]}
        self.row_cost = tuple(rows[t]["cost"] for t in CHAMPION_TYPES)
        self.row_slots = tuple(rows[t]["slots"] for t in CHAMPION_TYPES)
        self.award_slots = tuple(f["award_slots"])
        self.shared_last_from = f["shared_last_circle_from"]
        self.total_gems = f["gems"]
        track = f["track"]
        self.track_max, self.track_locked = track["max"], track["locked_max"]
        self.overflow_vp = track["influence_overflow_vp"]
        self.troop_spaces = f["troop_spaces"]
        self.gem_storage = f["gem_storage"]
        self.champion_limits = tuple(f["champion_limits"])
        self.strength_bonus = f["strength_bonus"]
        ids = [s["id"] for s in f["reserve_slots"]]
        self.slots = tuple(Slot(s["id"], s["bonus"], s.get("price", 0), s.get("price_is_base_cost", False),
                                s.get("amount", 1), s.get("open", False)) for s in f["reserve_slots"])
        self.circles = tuple(Circle(c["id"], c["unlocks"], c.get("value", 0), c.get("gain_gems", 0),
                                    ids.index(c["slot"]) if c.get("unlocks") == "reserve_slot" else -1)
                             for c in f["circles"])
        chart = [0] * (max(r["to"] for r in f["vp_chart"]) + 1)
        for row in f["vp_chart"]:
            for s in range(row["from"], row["to"] + 1):
                chart[s] = row["vp"]
        self.vp_chart = tuple(chart)
        self.boards = tuple((b["id"], TROOPS.index(b["wild"])) for b in f["boards"])
        self.board_names = tuple(b["name"] for b in f["boards"])
        self.dice_per_type = f["dice_per_type"]
        self.discount_from = f["discount_from"]
        self.troop_names = tuple(t["name"] for t in f["troops"])
        self.battle_names = tuple(b["name"] for b in f["battle_types"])
        sk = f["skirmish"]
        self.skirmish = (sk["troop_vp"], sk["strength_at_least"], sk["strength_vp"], sk["battle_vp"])
        self.chain_gains = {k: tuple(f["chain_bonuses"][k].get(g, 0) for g in
                                     ("champions", "influence", "magic", "gold", "gems", "dice"))
                            for k in f["chain_bonuses"]}
        sides = []
        for m in f["maps"]:
            pair = []
            for s in m["sides"]:
                areas = tuple(a for row in s["areas"] for a in row)
                bonuses = [b for row in s["across"] for b in row] + [b for row in s["down"] for b in row]
                pair.append(Side(s["id"], areas, tuple((a, b, k) for (a, b), k in zip(CHAIN_CELLS, bonuses))))
            sides.append(tuple(pair))
        self.maps = tuple(sides)
        # per area kind: (kind of bonus, index): troop -> 0, battle -> 1, strength -> 2
        self.area_kind = {t: (0, i) for i, t in enumerate(TROOPS)}
        self.area_kind.update({b: (1, i) for i, b in enumerate(BATTLES)})
        self.area_kind["strength"] = (2, 0)

    # ------------------------------------------------------------------ lookups

    def vp_for(self, strength: int) -> int:
        chart = self.vp_chart
        if strength <= 0:
            return chart[0]
        top = len(chart) - 1
        return chart[strength if strength < top else top]

    def max_players(self) -> int:
        return 5

    def plan_id(self, number: int) -> str:
        return self.plans[self.plan_kind[number]].id

    def champion_id(self, number: int) -> str:
        return self.champions[self.champion_kind[number]].id

    def award_id(self, number: int) -> str:
        return self.awards[self.award_kind[number]].id


def rules_for(game) -> Rules:
    """Compile a loaded game (``.cards`` and ``.facts``) for the engine."""
    return Rules(game.cards, game.facts)


__all__ = ["CAMP", "CHAIN_CELLS", "Rules", "rules_for", "die", "troop_of", "strength_of", "pattern_masks"]
