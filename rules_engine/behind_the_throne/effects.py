"""The effect kinds Behind the Throne's cards may name, with their parameters and printed category.

A character's ``ability`` in ``cards.yaml`` is ``{kind: ..., params}``; ``pnp validate`` checks kinds
and parameters against :data:`EFFECTS`, ``templates/abilities/behind_the_throne/<lang>.j2`` words them,
and :class:`~rules_engine.behind_the_throne.rules.Rules` compiles them into the tables the game reads.
No rule looks at a card id, so a character could swap abilities by editing the data alone.

Categories (printed on the card face) decide who may use an ability:

* ``manipulative``: only the holder of the largest stack of that character (ties count), in their own
  turn, once per turn;
* ``protective``: only the holder of the largest stack, during other players' turns, any number of times;
* ``prohibitive``: always, for whoever holds the character, however few.
"""

from __future__ import annotations

from rules_engine.model.cards import EffectKind, Param

MANIPULATIVE, PROTECTIVE, PROHIBITIVE = "manipulative", "protective", "prohibitive"
CATEGORIES = (MANIPULATIVE, PROTECTIVE, PROHIBITIVE)

#: The two things another player can do to your cards, and that prohibitive abilities restrict.
SWAP, DESTROY = "swap", "destroy"

EFFECTS = {
    "peek": EffectKind(
        "peek", {},
        "Before revealing, see the card on top of the deck (the owner alone sees it).",
        needs_step=False, category=MANIPULATIVE),
    "lower_value": EffectKind(
        "lower_value",
        {"amount": Param("int", required=True, min=1, max=8, doc="how much lower the card's value becomes")},
        "The last card of the row counts `amount` lower until the next card is revealed.",
        needs_step=False, category=MANIPULATIVE),
    "shift_value": EffectKind(
        "shift_value",
        {"amount": Param("int", required=True, min=1, max=8, doc="how much higher or lower")},
        "The last card of the row counts `amount` higher or lower, as the player chooses.",
        needs_step=False, category=MANIPULATIVE),
    "reuse_ability": EffectKind(
        "reuse_ability", {},
        "Use the manipulative ability of another of your stacks that is turned sideways "
        "(already used this turn, or not the largest stack).",
        needs_step=False, category=MANIPULATIVE),
    "shield": EffectKind(
        "shield",
        {"against": Param("str", required=True, choices=(SWAP, DESTROY),
                          doc="the action of other players that must take this character")},
        "Another player who swaps with you (or destroys one of your cards) must take a card of this character.",
        needs_step=False, category=PROTECTIVE),
    "hindrance": EffectKind(
        "hindrance",
        {"blocks": Param("str", required=True, choices=(SWAP, DESTROY), doc="the action restricted"),
         "margin": Param("int", default=0, min=0, max=5,
                         doc="the row must hold at least this many cards more than your stack of this character")},
        "You may swap (or destroy) only when your row holds at least as many cards as your stack of "
        "this character, plus `margin`.",
        needs_step=False, category=PROHIBITIVE),
    "end_game": EffectKind(
        "end_game", {},
        "Revealing this card ends the game at once. It starts the game as the first card of the discard pile.",
        needs_step=False, category=None),
}

#: Kinds whose use changes the value of the last card of the row.
VALUE_KINDS = ("lower_value", "shift_value")
