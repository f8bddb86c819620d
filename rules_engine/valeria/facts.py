"""The rule facts Valeria reads as data (``facts:`` in game.yaml): their shape (:data:`FACTS_SCHEMA`, checked
by pnp with file and line) and what only the engine can check (:func:`check_facts`).

The files and what they hold are described in ``docs/engine.md`` ("Shadow Kingdoms of Valeria") and in
the comments of ``data/shadow_kingdoms_of_valeria/*.yaml``. Every number the rules play with comes from
here or from the cards, so replacing a placeholder is a data edit.
"""

from __future__ import annotations

from rules_engine.protocol import Spec
from rules_engine.valeria.effects import BATTLES, CHAMPION_TYPES, TROOPS

SHRINES = ("gem", "magic", "champions", "gold", "tactics")
CHAIN_KINDS = ("champion", "influence", "magic", "gold", "gem", "die")
GAINS = ("champions", "influence", "magic", "gold", "gems", "dice")
UNLOCKS = ("champion_limit", "wild", "gem_storage", "reserve_slot", "strength", "track", "troop_space")
BONUSES = ("influence", "die", "champion")
AREA_KINDS = TROOPS + BATTLES + ("strength",)


def _int(lo=0, hi=99, **kw) -> Spec:
    return Spec("int", min=lo, max=hi, **kw)


def _ints(lo=0, hi=99, **kw) -> Spec:
    return Spec("list", items=Spec("int", min=lo, max=hi), **kw)


def _row(item: Spec) -> Spec:
    return Spec("list", required=True, items=Spec("list", items=item))


PLAYER_COUNT = Spec("map", schema={
    "gems": _int(0, 10, required=True), "dice_per_type": _int(1, 20, required=True),
    "dice_per_shrine": _int(1, 20, required=True), "refill_at": _int(0, 50, required=True),
    "refill_per_shrine": _int(1, 20, required=True)})

FACTS_SCHEMA = {
    # setup.yaml
    "players": Spec("dict", required=True, items=PLAYER_COUNT,
                    doc="player count -> gems, dice per type in the bag, dice per shrine, refill threshold and size"),
    "start": Spec("map", required=True, schema={
        "influence": _int(0, 20, required=True), "gold": _int(0, 20, required=True),
        "magic": _int(0, 20, required=True), "score": _int(0, 200, default=0)}),
    "end_plans": _int(1, 20, required=True, doc="completed plans that trigger the end"),
    "solo": Spec("map", required=True, schema={
        "start_shrine": Spec("str", required=True, choices=SHRINES),
        "start_score": _int(0, 200, required=True),
        "meeting_vp": _int(0, 20, required=True),
        "plan_vp": Spec("dict", required=True, items=_int(0, 50), doc="troop icons -> victory points"),
        "plans_to_end": _int(1, 20, required=True),
        "empty_award_vp": _int(0, 50, required=True),
        "claimed_award_vp": _int(0, 50, required=True),
        "remove_awards": Spec("list", default=[], items=Spec("str"))}),
    # board.yaml
    "shrines": Spec("list", required=True, items=Spec("str", choices=SHRINES)),
    "magic_shrine_magic": _int(0, 10, required=True),
    "cycle_magic": _int(0, 10, required=True),
    "battle_plan_line": Spec("map", required=True, schema={"costs": _ints(0, 20, required=True)}),
    "champion_rows": Spec("list", required=True, items=Spec("map", schema={
        "type": Spec("str", required=True, choices=CHAMPION_TYPES),
        "cost": _int(0, 20, required=True), "slots": _int(1, 10, required=True)})),
    "award_slots": Spec("list", required=True, items=Spec("str")),
    "shared_last_circle_from": _int(1, 10, required=True),
    "gems": _int(0, 50, required=True),
    "score_track": _int(10, 200, required=True),
    # player_board.yaml
    "track": Spec("map", required=True, schema={
        "max": _int(1, 99, required=True), "locked_max": _int(1, 99, required=True),
        "influence_overflow_vp": _int(0, 10, required=True)}),
    "troop_spaces": _int(1, 10, required=True),
    "gem_storage": _int(0, 10, required=True),
    "champion_limits": _ints(0, 50, required=True),
    "strength_bonus": _int(0, 10, required=True),
    "reserve_slots": Spec("list", required=True, items=Spec("map", schema={
        "id": Spec("str", required=True), "bonus": Spec("str", required=True, choices=BONUSES),
        "price": _int(0, 20, default=0), "price_is_base_cost": Spec("bool", default=False),
        "amount": _int(1, 5, default=1), "open": Spec("bool", default=False)})),
    "circles": Spec("list", required=True, items=Spec("map", schema={
        "id": Spec("str", required=True), "unlocks": Spec("str", required=True, choices=UNLOCKS),
        "value": _int(0, 20, default=0), "gain_gems": _int(0, 5, default=0), "slot": Spec("str", default="")})),
    "vp_chart": Spec("list", required=True, items=Spec("map", schema={
        "from": _int(0, 99, required=True), "to": _int(0, 99, required=True), "vp": _int(0, 99, required=True)})),
    "boards": Spec("list", required=True, items=Spec("map", schema={
        "id": Spec("str", required=True), "name": Spec("str", required=True),
        "colour": Spec("str", required=True), "wild": Spec("str", required=True, choices=TROOPS)})),
    # dice.yaml
    "troops": Spec("list", required=True, items=Spec("map", schema={
        "id": Spec("str", required=True), "name": Spec("str", required=True), "colour": Spec("str", required=True)})),
    "dice_per_type": _int(1, 20, required=True),
    "faces": _ints(1, 20, required=True),
    "discount_from": _int(0, 20, required=True),
    "battle_types": Spec("list", required=True, items=Spec("map", schema={
        "id": Spec("str", required=True), "name": Spec("str", required=True)})),
    "skirmish": Spec("map", required=True, schema={
        "troop_vp": _int(0, 10, required=True), "strength_at_least": _int(0, 99, required=True),
        "strength_vp": _int(0, 10, required=True), "battle_vp": _int(0, 10, required=True)}),
    # maps.yaml
    "chain_bonuses": Spec("dict", required=True, items=Spec("map", schema={
        k: _int(0, 10, default=0) for k in GAINS})),
    "maps": Spec("list", required=True, items=Spec("map", schema={
        "id": Spec("str", required=True),
        "sides": Spec("list", required=True, items=Spec("map", schema={
            "id": Spec("str", required=True),
            "areas": _row(Spec("str", choices=AREA_KINDS)),
            "across": _row(Spec("str")),
            "down": _row(Spec("str"))}))})),
}


def check_facts(facts: dict, cards=()) -> list[tuple[str, str]]:
    """What the shapes do not say: ids the rules know, complete tables, grids of the right size."""
    out = []
    add = lambda where, message: out.append((where, message))  # noqa: E731

    def same_ids(key, got, wanted, what):
        if list(got) != list(wanted):
            add(key, f"the {what} must be {', '.join(wanted)} in that order (got {', '.join(map(str, got))})")

    same_ids("troops", [t.get("id") for t in facts.get("troops", [])], TROOPS, "troop types")
    same_ids("battle_types", [b.get("id") for b in facts.get("battle_types", [])], BATTLES, "battle types")
    if sorted(facts.get("shrines", [])) != sorted(SHRINES) or len(facts.get("shrines", [])) != len(SHRINES):
        add("shrines", f"give each of the five shrines once, in clockwise order ({', '.join(SHRINES)})")
    faces = facts.get("faces", [])
    if faces and (sorted(faces) != list(range(1, len(faces) + 1))):
        add("faces", "the faces must be the strengths 1, 2, ... without gaps")
    if faces and facts.get("discount_from", 0) < max(faces):
        add("discount_from", "a face's discount (discount_from minus its strength) would be negative")
    players = facts.get("players", {})
    for n, row in players.items():
        if not isinstance(n, int) or not 1 <= n <= 5:
            add(f"players.{n}", "the key is a player count (1 to 5)")
            continue
        per_type = row.get("dice_per_type", 0)
        if per_type > facts.get("dice_per_type", 99):
            add(f"players.{n}.dice_per_type", f"more than the {facts.get('dice_per_type')} dice of each type")
        if row.get("gems", 0) > facts.get("gems", 99):
            add(f"players.{n}.gems", f"more than the {facts.get('gems')} gems of the game")
        if row.get("dice_per_shrine", 0) * len(SHRINES) > per_type * len(TROOPS):
            add(f"players.{n}.dice_per_shrine", "the bag holds too few dice to fill the shrines")
    for n in range(1, 6):
        if players and n not in players:
            add("players", f"no row for {n} player{'s' if n > 1 else ''}")
    types = [r.get("type") for r in facts.get("champion_rows", [])]
    if sorted(types) != sorted(CHAMPION_TYPES) or len(types) != 3:
        add("champion_rows", "give one row for each champion type: instant, ongoing, endgame")
    if not facts.get("battle_plan_line", {}).get("costs"):
        add("battle_plan_line.costs", "the line needs at least one face-up space")
    slots = facts.get("award_slots", [])
    if slots and len(set(slots)) != len(slots):
        add("award_slots", "each award slot once")
    out += _check_board(facts)
    out += _check_maps(facts)
    out += _check_cards(facts, cards)
    return out


def _check_board(facts) -> list:
    out = []
    track = facts.get("track", {})
    if track and track.get("locked_max", 0) > track.get("max", 0):
        out.append(("track.locked_max", "the locked maximum is above the maximum"))
    limits = facts.get("champion_limits", [])
    circles = facts.get("circles", [])
    ids = [c.get("id") for c in circles]
    if len(set(ids)) != len(ids):
        out.append(("circles", "each circle id once"))
    if limits and sorted(limits) != limits:
        out.append(("champion_limits", "the limits must rise"))
    n_limit = sum(1 for c in circles if c.get("unlocks") == "champion_limit")
    if limits and n_limit != len(limits) - 1:
        out.append(("champion_limits", f"{len(limits)} limits need {len(limits) - 1} champion_limit circles "
                                       f"(found {n_limit})"))
    slots = [s.get("id") for s in facts.get("reserve_slots", [])]
    if len(set(slots)) != len(slots):
        out.append(("reserve_slots", "each slot id once"))
    for i, c in enumerate(circles, start=1):
        if c.get("unlocks") == "reserve_slot" and c.get("slot") not in slots:
            out.append((f"circles[{i}].slot", f"{c.get('slot')!r} is not a reserve slot ({', '.join(slots)})"))
        if c.get("unlocks") == "gem_storage" and not c.get("value"):
            out.append((f"circles[{i}].value", "a gem_storage circle says how many gems may be stored"))
    for i, s in enumerate(facts.get("reserve_slots", []), start=1):
        locked = [c for c in circles if c.get("unlocks") == "reserve_slot" and c.get("slot") == s.get("id")]
        if s.get("open") and locked:
            out.append((f"reserve_slots[{i}].open", "an open slot has no circle to uncover"))
        if not s.get("open") and not locked:
            out.append((f"reserve_slots[{i}]", "a closed slot needs a reserve_slot circle that opens it"))
    chart = facts.get("vp_chart", [])
    expect = 0
    for i, row in enumerate(chart, start=1):
        if row.get("from") != expect or row.get("to", -1) < row.get("from", 0):
            out.append((f"vp_chart[{i}]", f"the ranges must follow each other from 0 (this one should start at "
                                          f"{expect})"))
            break
        expect = row["to"] + 1
    else:
        if chart and expect <= track.get("max", 0):
            out.append(("vp_chart", f"the chart stops at {expect - 1}, below the highest strength "
                                    f"({track.get('max')})"))
    vps = [row.get("vp", 0) for row in chart]
    if vps != sorted(vps):
        out.append(("vp_chart", "victory points must not fall as strength rises"))
    wild = [b.get("wild") for b in facts.get("boards", [])]
    if len(set(wild)) != len(wild):
        out.append(("boards", "each board masters its own troop type (a Wild type appears twice)"))
    if len(wild) < 5:
        out.append(("boards", "five boards are needed, one per player"))
    return out


def _check_maps(facts) -> list:
    out = []
    kinds = facts.get("chain_bonuses", {})
    for k in kinds:
        if k not in CHAIN_KINDS:
            out.append((f"chain_bonuses.{k}", f"unknown chain bonus; the rules know {', '.join(CHAIN_KINDS)}"))
    for k, gains in kinds.items():
        if not any(gains.values()):
            out.append((f"chain_bonuses.{k}", "the bonus gives nothing"))
    maps = facts.get("maps", [])
    sides = [s.get("id") for m in maps for s in m.get("sides", [])]
    if len(set(sides)) != len(sides):
        out.append(("maps", "each side id once"))
    for i, m in enumerate(maps, start=1):
        if len(m.get("sides", [])) != 2:
            out.append((f"maps[{i}].sides", "a campaign map has two sides"))
        for j, side in enumerate(m.get("sides", []), start=1):
            where = f"maps[{i}].sides[{j}]"
            for key, rows, cols in (("areas", 3, 3), ("across", 3, 2), ("down", 2, 3)):
                grid = side.get(key, [])
                if len(grid) != rows or any(len(r or []) != cols for r in grid):
                    out.append((f"{where}.{key}", f"expected {rows} rows of {cols}"))
                    continue
                if key != "areas":
                    for r, row in enumerate(grid, start=1):
                        for c, value in enumerate(row, start=1):
                            if value not in kinds:
                                out.append((f"{where}.{key}[{r}][{c}]",
                                            f"{value!r} is not a chain bonus ({', '.join(kinds)})"))
    return out


def _check_cards(facts, cards) -> list:
    out = []
    ids = {c.id for c in cards}
    for i, award in enumerate(facts.get("solo", {}).get("remove_awards", []), start=1):
        if cards and award not in ids:
            out.append((f"solo.remove_awards[{i}]", f"no award card {award!r}"))
    plan_vp = facts.get("solo", {}).get("plan_vp", {})
    for c in cards:
        if c.deck == "battle_plans":
            icons = len(c.value("troops", ()))
            if plan_vp and icons not in plan_vp:
                out.append(("solo.plan_vp", f"no victory points for a plan of {icons} troop icons ({c.id})"))
                break
    return out
