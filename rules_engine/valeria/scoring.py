"""Counting what a player has (one vocabulary for end-game champions and award conditions), award
conditions, end-game victory points and the final scores. Pure functions of a player and the rules."""

from __future__ import annotations

from operator import attrgetter

from rules_engine.valeria.effects import ANY, BATTLES, CHAMPION_TYPES, TROOPS


def count(rules, pl, what: str, of: str = ANY) -> int:
    """How many ``what`` (``effects.COUNTS``) the player has, of ``of`` when given."""
    return counter(rules, what, of)(pl)


def counter(rules, what: str, of: str = ANY):
    """``count`` for one ``what`` and ``of``, as a function of the player: the names are looked up once
    (the bots value end-game champions before most purchases, see :func:`end_vp_rule`)."""
    if what == "plans":
        if of == ANY:
            return lambda pl: len(pl.completed)
        b = BATTLES.index(of)
        plans, kinds = rules.plans, rules.plan_kind
        return lambda pl: sum(1 for n in pl.completed if plans[kinds[n]].battle == b)
    if what == "troop_icons":
        plans, kinds = rules.plans, rules.plan_kind
        if of == ANY:
            return lambda pl: sum(sum(plans[kinds[n]].need) for n in pl.completed)
        t = TROOPS.index(of)
        return lambda pl: sum(plans[kinds[n]].need[t] for n in pl.completed)
    if what == "champions":
        if of == ANY:
            return lambda pl: len(pl.champions)
        c = CHAMPION_TYPES.index(of)
        return lambda pl: pl.by_type[c]
    if what in ("gold", "magic", "influence", "gems"):
        return attrgetter(what)
    if what == "dice":
        return lambda pl: len(pl.dice)
    if what == "reserved":
        return lambda pl: sum(1 for r in pl.reserved if r >= 0)
    if what == "award_markers":
        return lambda pl: bin(pl.award_marks).count("1")
    if what == "battle_types":
        plans, kinds = rules.plans, rules.plan_kind
        return lambda pl: len({plans[kinds[n]].battle for n in pl.completed})
    if what == "map_markers":
        return lambda pl: bin(pl.areas).count("1")
    raise ValueError(f"unknown count {what!r}")


def award_met(rules, pl, award) -> bool:
    """Whether the player meets the award's condition now."""
    if award.kind == "pattern":
        areas = pl.areas
        return any(areas & m == m for m in award.masks)
    p = award.params
    return count(rules, pl, p["count"], p.get("of", ANY)) >= p["at_least"]


def end_vp(rules, pl, champion) -> int:
    """Victory points an end-game champion gives the player at the end (0 for other champions)."""
    return end_vp_rule(rules, champion)(pl)


def end_vp_rule(rules, champion):
    """``end_vp`` for one champion, as a function of the player (its parameters read once; kept per
    champion, as the same champion object always belongs to the same rules)."""
    entry = _END_VP_RULES.get(id(champion))
    if entry is None or entry[0] is not champion:
        entry = _END_VP_RULES[id(champion)] = (champion, _end_vp_rule(rules, champion))
    return entry[1]


_END_VP_RULES = {}


def _end_vp_rule(rules, champion):
    p = champion.params
    if champion.kind == "end_set":
        plans, kinds = rules.plans, rules.plan_kind
        vp, each = p["vp"], p["each"]

        def end_set(pl) -> int:
            have = [0] * len(BATTLES)
            for n in pl.completed:
                have[plans[kinds[n]].battle] += 1
            return vp if min(have) >= each else 0
        return end_set
    if champion.kind != "end_vp":
        return lambda pl: 0
    how_many = counter(rules, p["count"], p.get("of", ANY))
    above, every, up, vp, most = p.get("above", 0), p.get("every", 1), p.get("round") == "up", p["vp"], p.get("max")

    def end_vp_of(pl) -> int:
        n = how_many(pl) - above
        if n < 0:
            n = 0
        if every > 1:
            n = -(-n // every) if up else n // every
        points = n * vp
        return min(points, most) if most else points
    return end_vp_of


def final_bonus(rules, pl) -> list[tuple[int, int]]:
    """``[(champion number, vp)]`` of the player's end-game champions that score."""
    out = []
    for number in pl.champions:
        champion = rules.champions[rules.champion_kind[number]]
        vp = end_vp(rules, pl, champion)
        if vp:
            out.append((number, vp))
    return out
