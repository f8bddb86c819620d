"""Structured events: what happened in a game, in order, as plain data.

The state appends an :class:`Event` for everything a transcript reader wants to know, only when
recording is switched on. ``data`` holds JSON-friendly values naming things by id: ``player`` and
``target`` are seats, ``card`` and ``cards`` card ids, ``stacks`` a mapping card id -> count.
:mod:`rules_engine.behind_the_throne.transcript` turns events into sentences.
"""

from __future__ import annotations

from typing import NamedTuple


class Event(NamedTuple):
    type: str
    turn: int
    data: dict

    def as_dict(self) -> dict:
        return {"type": self.type, "turn": self.turn, **self.data}
