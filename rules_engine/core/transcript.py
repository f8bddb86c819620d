"""The transcript loop every engine shares: events (plain data) to sentences with a phrase table.

An engine keeps its phrase table (event type -> ``str.format`` template, plus ``_``-prefixed helper
phrases such as ``_and``) and a ``format_event(event, namer, phrases)`` that fills one template; this
module names things (:class:`Namer`), joins lists in the table's words (:func:`join`) and runs the loop
(:func:`lines`). Another language is another phrase table; translated card objects give translated
names.
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence


class Namer:
    """Display names for ids in transcripts: cards (and factions) from their objects, players from a list.

    The objects may be translated (pnp passes a game in another language), so transcripts follow."""

    def __init__(self, cards, factions=None, players: Sequence[str] = ()):
        self.cards = {c.id: c.name for c in cards}
        factions = tuple(factions or ())
        self.factions = {f.id: f.name for f in factions}
        self.adjectives = {f.id: getattr(f, "adjective", None) or f.name for f in factions}
        self.players = list(players)

    def card(self, card_id: str) -> str:
        return self.cards.get(card_id, card_id)

    def faction(self, faction_id: str) -> str:
        return self.factions.get(faction_id, faction_id.capitalize())

    def adjective(self, faction_id: str) -> str:
        return self.adjectives.get(faction_id, self.faction(faction_id))

    def player(self, seat: int) -> str:
        return self.players[seat] if 0 <= seat < len(self.players) else f"Player {seat + 1}"


def join(items: Sequence[str], phrases: dict) -> str:
    """"a, b and c" in the phrase table's words; semicolons when an item holds a comma ("Anna Lys, ...")."""
    items = list(items)
    if not items:
        return phrases["_none"]
    if len(items) == 1:
        return items[0]
    sep = "; " if any("," in item for item in items) else phrases["_list_sep"]
    return sep.join(items[:-1]) + f" {phrases['_and']} " + items[-1]


def lines(events: Iterable, format_event: Callable, namer: Namer, phrases: dict) -> list[str]:
    """Every event that the table has a phrase for, as a sentence, in order."""
    out = []
    for event in events:
        line = format_event(event, namer, phrases)
        if line is not None:
            out.append(line)
    return out
