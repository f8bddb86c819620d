"""Structured events: what happened in a game, in order, as plain data.

The engine appends an :class:`Event` for everything a reader of a transcript would want to know
(only when recording is switched on, so simulations pay nothing for it). ``data`` holds JSON-friendly
values that name things by id: ``player`` is a seat number, ``card`` a card id, ``faction`` a faction
id, and a character is ``{"card": id, "player": seat}``. :mod:`rules_engine.shadow_throne.transcript`
turns events into sentences in a given language.
"""

from __future__ import annotations

from typing import NamedTuple


class Event(NamedTuple):
    type: str
    battle: int
    wave: int
    data: dict

    def as_dict(self) -> dict:
        return {"type": self.type, "battle": self.battle, "wave": self.wave, **self.data}


def ref(rules, character) -> dict:
    """How events name a character in play: its card id and its owner's seat."""
    return {"card": rules.card_id(character.card), "player": character.owner}
