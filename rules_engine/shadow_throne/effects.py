"""The effect kinds Shadow Throne cards can name, with their parameters.

A card's ``ability`` in ``cards.yaml`` names one of these kinds and gives its parameters; ``pnp validate``
checks them against this registry, the card text comes from the template of the same name
(``templates/abilities/shadow_throne/<lang>.j2``) and the engine executes the kind's handler. A new card
that combines known kinds and parameters needs no new code.
"""

from rules_engine.model import EffectKind, Param

RANKS = ("commoner", "elite", "noble")

EFFECTS = {
    "kill": EffectKind(
        "kill",
        {
            "rank": Param("str", required=True, choices=RANKS, doc="rank of the characters killed"),
        },
        "Kill every living character of the given rank and of another faction in this wave.",
    ),
    "convert": EffectKind(
        "convert",
        {
            "rank": Param("str", required=True, choices=RANKS, doc="rank of the characters converted"),
            "power_bonus": Param("int", default=0, min=0, max=5,
                                 doc="+power for each character converted from another faction"),
        },
        "Every living character of the given rank and another faction in this wave joins the owner's faction.",
    ),
    "embolden": EffectKind(
        "embolden",
        {
            "amount": Param("int", default=1, min=1, max=5, doc="+power per character"),
            "waves": Param("str", default="this", choices=("this", "next", "this_and_earlier"),
                           doc="which waves' characters are affected"),
            "rank": Param("str", default=None, choices=RANKS, doc="only characters of this rank"),
            "others_only": Param("bool", default=False, doc="the card does not embolden itself"),
        },
        "Each living character of the owner's faction in the given waves gets +power.",
    ),
    "extra_play": EffectKind(
        "extra_play",
        {
            "count": Param("int", default=1, min=1, max=1, doc="extra cards that may be played"),
        },
        "The owner may play one more character of this card's faction into this wave; no hush money.",
    ),
    "suppress": EffectKind(
        "suppress",
        {
            "steps": Param("list", required=True, doc="ability steps that are blocked, e.g. [2, 3]"),
        },
        "Characters of other factions in this wave do not use their abilities of the given steps.",
    ),
    "conditional_power": EffectKind(
        "conditional_power",
        {
            "amount": Param("int", required=True, min=1, max=10, doc="+power when the condition holds"),
            "gold_at_most": Param("int", required=True, min=0, max=10,
                                  doc="the owner's gold after paying for this card is at most this"),
        },
        "The card gets +power if its owner has little gold left after paying for it.",
    ),
    "on_death_influence": EffectKind(
        "on_death_influence",
        {"amount": Param("int", required=True, min=1, max=10, doc="influence gained at once")},
        "When this character dies (in its wave or later), its owner gains influence at once.",
        needs_step=False,
    ),
    "stays_after_loss": EffectKind(
        "stays_after_loss",
        {"battles": Param("int", default=1, min=1, max=1, doc="lost battles it stays for")},
        "If this card's faction loses the battle and it is alive, it stays in play for the next battle.",
    ),
}
