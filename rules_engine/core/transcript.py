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
        cards = tuple(cards)
        self.cards = {c.id: c.name for c in cards}
        factions = tuple(factions or ())
        self.factions = {f.id: f.name for f in factions}
        self.grammars = {**{("card", c.id): getattr(c, "grammar", None) for c in cards},
                         **{("faction", f.id): getattr(f, "grammar", None) for f in factions}}
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

    def form(self, kind: str, ident: str) -> str:
        """Which form of a phrase a name takes by its grammar (a phrase table's per-form patterns, such as
        Spanish ``{"masculine": "al {character}", "feminine": "a la {character}", ...}``): ``proper`` for a
        name said without an article, else its gender (``feminine``, ``masculine plural``), else ``other``."""
        return grammar_form(self.grammars.get((kind, ident)))


def grammar_form(grammar) -> str:
    """The phrase form of a :class:`rules_engine.model.cards.Grammar` (see :meth:`Namer.form`)."""
    if grammar is None:
        return "other"
    if not grammar.article:
        return "proper"
    if grammar.gender is None:
        return "other"
    return f"{grammar.gender} plural" if grammar.plural else grammar.gender


def shaped(phrases: dict, key: str, form: str, **names) -> str:
    """The table's ``key`` pattern for a name of that ``form`` (one pattern for every name, or one per form
    with ``other`` for the rest), filled with ``names``."""
    pattern = phrases.get(key, "{" + next(iter(names)) + "}")
    if isinstance(pattern, dict):
        pattern = pattern.get(form, pattern.get("other", "{" + next(iter(names)) + "}"))
    return pattern.format(**names)


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
