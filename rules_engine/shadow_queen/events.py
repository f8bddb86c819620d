"""Structured events: what happened in a Shadow Queen game, in order, as plain data.

The state appends an :class:`Event` for everything a transcript reader wants to know, only when
recording is switched on. ``data`` holds JSON-friendly values naming things by id: ``side`` is a seat
(0 moves first), ``piece`` a piece's number with ``kind`` its kind's id, ``at``/``to``/``start`` hex
ids, ``card`` a card id, ``holding`` a holding id. :mod:`rules_engine.shadow_queen.transcript` turns
events into sentences.
"""

from __future__ import annotations

from typing import NamedTuple


class Event(NamedTuple):
    type: str
    turn: int
    data: dict

    def as_dict(self) -> dict:
        return {"type": self.type, "turn": self.turn, **self.data}
