"""What Shadow Queen's action cards may do, and the words its pieces may carry.

A card's ``ability`` in its deck file is ``{kind: ..., params}``: the kind says what the card does,
the parameters its condition (how near the target must be, which holdings count); the card's
``played_by`` field says which kinds of piece may play it. ``pnp validate`` checks kinds and
parameters against :data:`EFFECTS`, the pieces' ``traits`` against :data:`PIECE_TRAITS`, and
``templates/abilities/shadow_queen/<lang>.j2`` words each kind, so a card's printed text comes from
the same data the engine plays. No rule looks at a card's id.

Distances are counted in hexes as a ruler would ("within 3 hexes"), ignoring terrain; ``reach: 1``
means adjacent, and pieces sharing a holding are adjacent to each other (distance 0).
"""

from __future__ import annotations

from rules_engine.model.cards import EffectKind, Param

#: Which holdings a condition accepts: under the player's side's control, or under the other side's.
CONTROLLED, ENEMY = "controlled", "enemy"
ITEMS = ("bridge", "path", "altar")
ORDERS = ("patrol", "marching", "special")


def _reach(default: int, doc: str) -> Param:
    return Param("int", default=default, min=0, max=12, doc=doc)


EFFECTS = {
    "possess": EffectKind(
        "possess",
        {"reach": _reach(1, "hexes from the playing piece to the target"),
         "holding": Param("str", default=CONTROLLED, choices=(CONTROLLED, ENEMY),
                          doc="a target standing in a holding: whose control that holding must be under")},
        "An enemy piece within reach comes under the player's control; a target in a holding only if that "
        "holding is under the player's control. The player may move it this turn already.",
        needs_step=False),
    "taint": EffectKind(
        "taint", {},
        "The holding the playing piece stands in, held by the other side, passes under the player's control.",
        needs_step=False),
    "attack": EffectKind(
        "attack", {"reach": _reach(1, "hexes from the attacking piece to the target")},
        "Attack an enemy piece within reach (never one in a cave): each side rolls a die for each of its "
        "fighters next to the target (the defender only with a defend card). Higher attack: the target "
        "is removed; lower: the attacking piece is; equal: nothing happens.",
        needs_step=False),
    "defend": EffectKind(
        "defend", {"reach": _reach(1, "hexes from the defending piece to the attacked piece")},
        "Played when a piece of the player's is attacked (or rescued), by a piece within reach of it: "
        "the player rolls a die for each fighter of theirs next to the target.",
        needs_step=False),
    "restore": EffectKind(
        "restore", {"altar": Param("bool", default=True, doc="the holding must have an altar")},
        "In a holding under the player's control (with an altar): one used card of the player's own "
        "deck goes back into the deck.",
        needs_step=False),
    "lure": EffectKind(
        "lure", {"reach": _reach(3, "hexes from the luring piece to the target")},
        "An enemy piece within reach (in a holding too) is moved towards the luring piece: hex by hex, "
        "each hex nearer to it, as far as it can go. Soldiers under orders that make them immune resist.",
        needs_step=False),
    "steal": EffectKind(
        "steal", {},
        "Take any card from the other player's hand. A stolen card may be played by a possessed piece or "
        "discarded.",
        needs_step=False),
    "construct": EffectKind(
        "construct",
        {"item": Param("str", required=True, choices=ITEMS, doc="what is built"),
         "turns": Param("int", default=2, min=2, max=2, doc="the card is played on one turn and the item "
                                                            "added by the same piece on the next"),
         "holding": Param("str", default=CONTROLLED, choices=(CONTROLLED, ENEMY),
                          doc="altars: whose control the holding must be under")},
        "Bridge: next to a bridge site; path: in a forest; altar: in a holding under the given control. "
        "Play the card on one turn; the same piece adds the item on its side's next turn.",
        needs_step=False),
    "sabotage": EffectKind(
        "sabotage", {"reach": _reach(1, "hexes from the playing piece to the bridge, path or altar")},
        "Remove a bridge, path or altar within reach; a piece standing on a removed bridge drowns.",
        needs_step=False),
    "banish": EffectKind(
        "banish", {"reach": _reach(1, "hexes from the playing piece to the pieces sent away")},
        "Every enemy or possessed piece within reach is moved to the nearest holding under the other "
        "side's control.",
        needs_step=False),
    "bless": EffectKind(
        "bless", {"reach": _reach(1, "hexes from the playing piece to a possessed piece")},
        "Remove the taint from the holding the playing piece stands in, or end the possession of a piece "
        "within reach.",
        needs_step=False),
    "rescue": EffectKind(
        "rescue",
        {"reach": _reach(1, "hexes from the rescuing piece to the target"),
         "trait": Param("str", default="rescuable", doc="the pieces that can be rescued carry this trait")},
        "Roll as for an attack against an enemy or possessed piece with the trait; if the rescue wins, a "
        "possessed piece is freed of the possession, and the rescued piece goes to the nearest holding of "
        "the player's when the player said so as the card was played.",
        needs_step=False),
    "orders": EffectKind(
        "orders",
        {"order": Param("str", required=True, choices=ORDERS, doc="patrol, marching or special orders"),
         "reach": _reach(1, "hexes from the messenger to the soldier"),
         "range": _reach(3, "patrol: hexes from the messenger to the destination"),
         "bonus": Param("int", default=0, min=0, max=3, doc="extra hexes the soldier moves under these orders"),
         "lure_immune": Param("bool", default=False, doc="the soldier cannot be lured while under them")},
        "Give orders to a piece that moves only under orders, within reach. Patrol: it moves towards a "
        "holding or enemy piece within range until it gets there; marching: it moves in one straight "
        "line; special: it moves freely and cannot be lured. Orders end when it enters a holding, plays a "
        "card, or spends a turn without moving.",
        needs_step=False),
}

#: Words the pieces' ``traits`` may use (``pnp validate`` reports any other).
PIECE_TRAITS = {
    "fighter": "rolls a die in attacks and defences next to the target (Shadows, Soldiers)",
    "needs_orders": "moves only under orders (Soldiers)",
    "essential": "the Kingdom's goal: every essential Shadow piece must be gone from the board",
    "rescuable": "may be rescued (Thralls, and possessed Peasants)",
}
