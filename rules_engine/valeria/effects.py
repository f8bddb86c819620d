"""The effect kinds Valeria's cards name: champion effects (instant, ongoing, end-game) and award
conditions, with their parameters and category.

A card's ``ability`` in ``champions.yaml`` or ``awards.yaml`` names one of these kinds; ``pnp validate``
checks its parameters against :data:`EFFECTS`, the card text comes from the macro of the same name in
``templates/abilities/valeria/<lang>.j2``, and :mod:`rules_engine.valeria.rules` compiles it into the
tables the game reads. No rule looks at a card id: a champion could change effect by editing data.

The category of a kind says when it acts, and must be the champion's deck (``type``): ``instant``
(once, when the card is taken), ``ongoing`` (a lasting ability, often a trigger: "whenever ..."),
``endgame`` (victory points at the end). Award conditions are ``award``.

Counting (``end_vp``, ``have``) uses one vocabulary, :data:`COUNTS`, so an end-game champion and an
award can ask for the same things.
"""

from __future__ import annotations

from rules_engine.model.cards import EffectKind, Param

INSTANT, ONGOING, ENDGAME, AWARD = "instant", "ongoing", "endgame", "award"
CHAMPION_TYPES = (INSTANT, ONGOING, ENDGAME)

#: The rules' vocabularies (the data's ids must be these: ``check_facts`` compares them).
TROOPS = ("goblin", "orc", "skeleton", "gargoyle", "gnoll")
BATTLES = ("ambush", "siege", "clash")
RESOURCES = ("gold", "magic")
ANY = "any"

#: Events ongoing champions react to (``whenever``).
EVENTS = {
    "complete_plan": "you complete a Battle Plan (of `battle`, when given)",
    "gain_champion": "you gain a champion card (bought or free)",
    "chain_bonus": "you gain a chain bonus (once per bonus)",
    "gem": "you gain or spend a gem (once per gem)",
    "plan_from_line": "a Battle Plan of the line becomes yours",
}

#: What ``end_vp`` and ``have`` count, and which ``of`` values each accepts.
COUNTS = {
    "plans": BATTLES,              # completed plans (of a battle type)
    "troop_icons": TROOPS,         # troop icons on completed plans (of a troop type)
    "champions": CHAMPION_TYPES,   # champion cards held (of a type)
    "gold": (), "magic": (), "influence": (), "gems": (),
    "dice": (),                    # troop dice on the player board
    "reserved": (),                # plans waiting in reserve slots
    "award_markers": (),           # the player's conquest markers on award cards
    "battle_types": (),            # different battle types among completed plans
    "map_markers": (),             # conquest markers on the campaign map
}

_OF = (ANY,) + BATTLES + TROOPS + CHAMPION_TYPES


def _gains(doc: str) -> dict:
    return {"gold": Param("int", default=0, min=0, max=10, doc=f"gold {doc}"),
            "magic": Param("int", default=0, min=0, max=10, doc=f"magic {doc}")}


EFFECTS = {
    # ------------------------------------------------------------------ instant
    "gain": EffectKind(
        "gain",
        {"influence": Param("int", default=0, min=0, max=10, doc="influence gained"),
         "magic": Param("int", default=0, min=0, max=10, doc="magic gained"),
         "gold": Param("int", default=0, min=0, max=10, doc="gold gained"),
         "gems": Param("int", default=0, min=0, max=3, doc="gems taken from the Gem shrine")},
        "Gain these at once (each limited by the player board).", needs_step=False, category=INSTANT),
    "take_die": EffectKind(
        "take_die", {},
        "Take a die of your choice from any shrine, without its shrine action (replacing one of yours "
        "when your troop spaces are full).", needs_step=False, category=INSTANT),
    "reserve_plan": EffectKind(
        "reserve_plan", {},
        "Reserve a Battle Plan from the line into an open reserve slot without paying its cost.",
        needs_step=False, category=INSTANT),
    # ------------------------------------------------------------------ ongoing
    "strength": EffectKind(
        "strength",
        {"amount": Param("int", required=True, min=1, max=5, doc="strength added"),
         "battle": Param("str", default=ANY, choices=(ANY,) + BATTLES, doc="only in battles of this type")},
        "Every battle (of the type) gets this much more strength.", needs_step=False, category=ONGOING),
    "whenever": EffectKind(
        "whenever",
        {"event": Param("str", required=True, choices=tuple(EVENTS), doc="what triggers it"),
         "battle": Param("str", default=ANY, choices=(ANY,) + BATTLES,
                         doc="complete_plan: only plans of this type"),
         **_gains("gained each time")},
        "Each time the event happens to its owner, the owner gains the gold and magic.",
        needs_step=False, category=ONGOING),
    "echo": EffectKind(
        "echo",
        {"resource": Param("str", required=True, choices=RESOURCES, doc="gold or magic"),
         "amount": Param("int", required=True, min=1, max=5, doc="extra gained per gain")},
        "Each time its owner gains the resource from another source, they gain this much more.",
        needs_step=False, category=ONGOING),
    "match_influence": EffectKind(
        "match_influence",
        {"resource": Param("str", required=True, choices=RESOURCES, doc="gold or magic")},
        "Each time its owner gains influence, they gain as much of the resource.",
        needs_step=False, category=ONGOING),
    "discount": EffectKind(
        "discount",
        {"purchase": Param("str", required=True, choices=("champion", "plan", "reserve_bonus"),
                     doc="what becomes cheaper: champions paid for, plans paid for from the line, reserve bonuses"),
         "amount": Param("int", required=True, min=1, max=5, doc="gold less to pay (never below 0)")},
        "Pay this much less gold for the given purchases.", needs_step=False, category=ONGOING),
    # ------------------------------------------------------------------ end-game
    "end_vp": EffectKind(
        "end_vp",
        {"count": Param("str", required=True, choices=tuple(COUNTS), doc="what is counted at the end"),
         "of": Param("str", default=ANY, choices=_OF, doc="only of this battle type, troop type or champion type"),
         "vp": Param("int", required=True, min=1, max=10, doc="victory points per unit counted"),
         "every": Param("int", default=1, min=1, max=10, doc="units that make one unit of vp"),
         "round": Param("str", default="down", choices=("down", "up"), doc="with every > 1: a part counts or not"),
         "above": Param("int", default=0, min=0, max=20, doc="only what is above this counts"),
         "max": Param("int", default=0, min=0, max=50, doc="at most this many victory points (0: no limit)")},
        "Victory points at the end for what the player has.", needs_step=False, category=ENDGAME),
    "end_set": EffectKind(
        "end_set",
        {"each": Param("int", required=True, min=1, max=7, doc="completed plans needed of every battle type"),
         "vp": Param("int", required=True, min=1, max=30, doc="victory points when the set is complete")},
        "Victory points at the end for having completed plans of every battle type.",
        needs_step=False, category=ENDGAME),
    # ------------------------------------------------------------------ awards
    "have": EffectKind(
        "have",
        {"count": Param("str", required=True, choices=tuple(COUNTS), doc="what is counted when claiming"),
         "of": Param("str", default=ANY, choices=_OF, doc="only of this battle type, troop type or champion type"),
         "at_least": Param("int", required=True, min=1, max=20, doc="how many the player needs")},
        "The player has at least this many of what is counted.", needs_step=False, category=AWARD),
    "pattern": EffectKind(
        "pattern",
        {"cells": Param("list", required=True,
                        doc="cells of the 3 x 3 map (0-8, rows from the top) that need conquest markers; "
                            "the shape may be turned, flipped and moved")},
        "The player's conquest markers on their campaign map form this shape.", needs_step=False,
        category=AWARD),
}

#: The kinds of the cards of each champion type and of awards (``check_card_kinds``).
CATEGORY_NAMES = {INSTANT: "Instant", ONGOING: "Ongoing", ENDGAME: "End-game", AWARD: "Award"}


def ability_problems(card) -> list[str]:
    """What is wrong with a card's ability beyond its parameters' types (messages, no card name)."""
    a = card.ability
    if a is None:
        return []
    p = a.params
    out = []
    if a.kind in ("end_vp", "have"):
        allowed = COUNTS[p["count"]]
        of = p.get("of", ANY)
        if of != ANY and of not in allowed:
            out.append(f"ability.of: {of!r} does not go with count {p['count']!r}"
                       + (f" (one of: {', '.join(allowed)})" if allowed else " (it takes no 'of')"))
    if a.kind == "pattern":
        cells = p.get("cells") or []
        bad = [c for c in cells if not 0 <= c <= 8]
        if bad:
            out.append(f"ability.cells: {bad[0]} is not a cell of the 3 x 3 map (0 to 8)")
        if len(set(cells)) != len(cells) or not cells:
            out.append("ability.cells: give each cell once, at least one")
    if a.kind == "gain" and not any(p.get(k) for k in ("influence", "magic", "gold", "gems")):
        out.append("ability: 'gain' needs something to gain (influence, magic, gold or gems)")
    if a.kind == "whenever" and not (p.get("gold") or p.get("magic")):
        out.append("ability: 'whenever' needs gold or magic to give")
    if a.kind == "whenever" and p.get("battle", ANY) != ANY and p["event"] != "complete_plan":
        out.append("ability.battle: only a 'complete_plan' event has a battle type")
    return out
