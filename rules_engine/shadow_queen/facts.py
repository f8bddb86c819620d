"""The rule facts Shadow Queen reads as data (``facts:`` in game.yaml): their shape, checked by pnp with
file and line. Only the dice so far: the draft names no die (docs/engine.md, Shadow Queen ruling 2)."""

from __future__ import annotations

from rules_engine.protocol import Spec

FACTS_SCHEMA = {
    "dice": Spec("map", schema={
        "count": Spec("int", required=True, min=1, max=50, doc="dice the kit asks for"),
        "sides": Spec("int", required=True, min=2, max=20, doc="sides of the die rolled in fights"),
    }, doc="the dice fights are rolled with (dice.yaml)"),
}
