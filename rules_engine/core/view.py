"""The table as plain data, for the studio's replays: what a player sitting at the table would see after
each step of a game (and, for a replay, also the hands: a replay shows everything).

An engine's ``table_view(state) -> dict`` (optional protocol name) gives, JSON-ready:

* ``seats``: per seat ``{"score": number, "figures": {name: value}, "hand": [card ids],
  "table": [card ids]}``: the progress measure, the tracks and counters shown beside it, the cards in
  hand and the cards in front of the player (played, stacked, owned); and ``name`` when the seat plays a
  side of its own (Shadow Queen's Shadows and Kingdom);
* ``middle``: ``{label: [card ids]}``, cards on the table that belong to nobody (a battle's waves, a
  row being revealed, a line of plans); a card in any list may be ``{"card": id, "note": word}`` for a
  card shown with a word on it (``dead``);
* ``board`` (a game with a hex map): ``{"pieces": [{"kind", "side", "at", "possessed"}], "holdings":
  [{"id", "at", "side"}], "items": [{"kind", "at"}]}`` with hexes by their printed ids;
* ``note``: one line on where the game stands (a phase, a turn).
"""

from __future__ import annotations


def seat(score, figures=None, hand=(), table=()) -> dict:
    return {"score": score, "figures": dict(figures or {}), "hand": list(hand), "table": list(table)}


def card(card_id: str, note: str) -> dict:
    return {"card": card_id, "note": note}
