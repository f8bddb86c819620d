"""Turn structured events into sentences: a readable, deterministic account of a game or scenario.

All English wording lives in :data:`ENGLISH` (event type -> format string, plus ``_``-prefixed helper
phrases); another language is a table with the same keys passed as ``phrases``. Card names come from
the card objects given (so translated cards give a translated transcript), player names from a list.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from rules_engine.core import transcript as core_transcript

ENGLISH = {
    "_and": "and",
    "_list_sep": ", ",
    "_none": "nothing",
    "_stack": "{card} x{count}",
    "_no_stacks": "no cards",
    "_holding": "{player} holds {stacks}",
    "_holding_sep": "; ",
    "_via": " (through the {via})",
    "_own": "their own",
    "_one_card": "1 card",
    "_cards": "{count} cards",
    "_score_item": "{player} {score}",
    "game_start": "A game for {players} players begins with {cards} cards; "
                  "the End of Game card starts the discard pile.",
    "scenario_start": "Before the first turn: {holdings}. The deck holds {deck} cards, the discard pile {discard}.",
    "turn_start": "-- Turn {turn}: {player} --",
    "rebuild": "The deck is empty: the discard pile ({cards} cards, the End of Game card among them) "
               "is shuffled into a new deck.",
    "reveal": "{player} reveals {card} ({value}).",
    "peek": "{player} uses the {card}{via} and secretly sees the card on top of the deck: {seen}.",
    "ability": "{player} uses the {card}{via}: {row_card} now counts {after} instead of {before}.",
    "destroy": "Equal values: {player} destroys {owner}'s {card}.",
    "destroy_own": "Equal values: {player} destroys one of {own} {card} cards.",
    "bust": "{card} ({value}) is higher than the {previous_card} before it ({previous}): "
            "{player} busts and discards {cards}.",
    "collect": "{player} stops and collects {cards}.",
    "swap": "{player} hands {cards} to {target} and takes {target}'s {card} in exchange.",
    "overflow": "{player} cannot hold more than five cards of a character and discards {cards}.",
    "discard_stack": "{player} may keep only five stacks and discards the {card} stack ({count_text}).",
    "stacks": "{player}'s stacks: {stacks}.",
    "end_card": "{player} reveals the End of Game card: the game ends at once.",
    "turn_limit": "The game stops after {turns} turns (the safety limit).",
    "scores": "Scores: {scores}.",
    "winner": "{players} wins with {score} points.",
    "winners": "{players} share the victory with {score} points.",
}


class Namer(core_transcript.Namer):
    """Display names for ids: cards from their objects, players from a list (no factions here)."""

    def __init__(self, cards: Iterable, players: Sequence[str] = ()):
        super().__init__(cards, (), players)


def join(items: Sequence[str], phrases: dict = ENGLISH) -> str:
    return core_transcript.join(items, phrases)


def _stacks(stacks: dict, namer: Namer, phrases: dict) -> str:
    if not stacks:
        return phrases["_no_stacks"]
    return phrases["_list_sep"].join(phrases["_stack"].format(card=namer.card(c), count=n)
                                     for c, n in stacks.items())


def format_event(event, namer: Namer, phrases: dict = ENGLISH) -> str | None:
    """One event as a sentence, or None when the table has no phrase for it."""
    kind = event.type
    data = event.data
    if kind == "destroy" and data["target"] == data["player"]:
        kind = "destroy_own"
    if kind == "winner" and len(data["players"]) > 1:
        kind = "winners"
    template = phrases.get(kind)
    if template is None:
        return None
    fields = {"turn": event.turn}
    for key, value in data.items():
        if key in ("player", "target"):
            fields[key] = namer.player(value)
        elif key in ("card", "seen", "row_card", "previous_card"):
            fields[key] = namer.card(value)
        elif key == "cards" and isinstance(value, list):
            fields[key] = join([namer.card(c) for c in value], phrases)
        elif key == "players" and isinstance(value, list):
            fields[key] = join([namer.player(p) for p in value], phrases)
        elif key == "via":
            fields[key] = phrases["_via"].format(via=namer.card(value)) if value else ""
        elif key == "stacks" and isinstance(value, dict):
            fields[key] = _stacks(value, namer, phrases)
        else:
            fields[key] = value
    if kind == "destroy":
        fields["owner"] = namer.player(data["target"])
    if kind == "destroy_own":
        fields["own"] = phrases["_own"]
    if kind == "scenario_start":
        fields["holdings"] = phrases["_holding_sep"].join(
            phrases["_holding"].format(player=namer.player(p), stacks=_stacks(s, namer, phrases))
            for p, s in enumerate(data["stacks"]))
    if "count" in data:
        fields["count_text"] = (phrases["_one_card"] if data["count"] == 1
                                else phrases["_cards"].format(count=data["count"]))
    if kind == "scores":
        fields["scores"] = phrases["_list_sep"].join(
            phrases["_score_item"].format(player=namer.player(p), score=s) for p, s in enumerate(data["scores"]))
    return template.format(**fields)


def transcript_lines(events, cards, factions=None, players: Sequence[str] = (), phrases: dict = ENGLISH) -> list[str]:
    """The events of a game or scenario as lines of text (deterministic for the same events).

    ``factions`` is accepted for the engine protocol's common signature; this game has none.
    """
    return core_transcript.lines(events, format_event, Namer(cards, players), phrases)
