"""Counting what a player has (one vocabulary for end-game champions and award conditions), award
conditions, end-game victory points and the final scores. Pure functions of a player and the rules."""

from __future__ import annotations

from rules_engine.valeria.effects import ANY, BATTLES, CHAMPION_TYPES, TROOPS


def count(rules, pl, what: str, of: str = ANY) -> int:
    """How many ``what`` (``effects.COUNTS``) the player has, of ``of`` when given."""
    if what == "plans":
        if of == ANY:
            return len(pl.completed)
        b = BATTLES.index(of)
        return sum(1 for n in pl.completed if rules.plans[rules.plan_kind[n]].battle == b)
    if what == "troop_icons":
        plans, kinds = rules.plans, rules.plan_kind
        if of == ANY:
            return sum(sum(plans[kinds[n]].need) for n in pl.completed)
        t = TROOPS.index(of)
        return sum(plans[kinds[n]].need[t] for n in pl.completed)
    if what == "champions":
        return len(pl.champions) if of == ANY else pl.by_type[CHAMPION_TYPES.index(of)]
    if what == "gold":
        return pl.gold
    if what == "magic":
        return pl.magic
    if what == "influence":
        return pl.influence
    if what == "gems":
        return pl.gems
    if what == "dice":
        return len(pl.dice)
    if what == "reserved":
        return sum(1 for r in pl.reserved if r >= 0)
    if what == "award_markers":
        return bin(pl.award_marks).count("1")
    if what == "battle_types":
        return len({rules.plans[rules.plan_kind[n]].battle for n in pl.completed})
    if what == "map_markers":
        return bin(pl.areas).count("1")
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
    p = champion.params
    if champion.kind == "end_set":
        have = [0] * len(BATTLES)
        for n in pl.completed:
            have[rules.plans[rules.plan_kind[n]].battle] += 1
        return p["vp"] if min(have) >= p["each"] else 0
    if champion.kind != "end_vp":
        return 0
    n = count(rules, pl, p["count"], p.get("of", ANY))
    n = max(0, n - p.get("above", 0))
    every = p.get("every", 1)
    if every > 1:
        n = -(-n // every) if p.get("round") == "up" else n // every
    vp = n * p["vp"]
    return min(vp, p["max"]) if p.get("max") else vp


def final_bonus(rules, pl) -> list[tuple[int, int]]:
    """``[(champion number, vp)]`` of the player's end-game champions that score."""
    out = []
    for number in pl.champions:
        champion = rules.champions[rules.champion_kind[number]]
        vp = end_vp(rules, pl, champion)
        if vp:
            out.append((number, vp))
    return out
