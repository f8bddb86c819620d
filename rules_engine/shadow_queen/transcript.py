"""Turn Shadow Queen's structured events into sentences.

All English wording is in :data:`ENGLISH` (event type -> ``str.format`` template, plus ``_``-prefixed
helper phrases); another language is a table with the same keys. Card names come from the card
objects given and side names from the factions (translated objects give a translated transcript);
piece kinds and holdings are named from the names table the game's first event carries, which
:func:`names_table` builds from the rules.
"""

from __future__ import annotations

from typing import Sequence

from rules_engine.core import transcript as core_transcript

ENGLISH = {
    "_and": "and",
    "_list_sep": ", ",
    "_none": "nothing",
    "_hexes": "{n} hexes",
    "_hex": "1 hex",
    "_target_piece": " on the {target} at {target_at}",
    "_target_holding": " on {holding}",
    "_target_card": " ({target_card})",
    "_target_item": " at {place}",
    "_target_orders": " to the {target} at {target_at}",
    "_toward_holding": ", heading for {holding}",
    "_toward_piece": ", heading for the {kind} at {at}",
    "_lured_to": ", which comes to {to}",
    "_rescue_home": ", to bring it to {home}",
    "_fate_killed": "killed",
    "_fate_drowned": "drowned",
    "_fate_eaten": "eaten by a bear",
    "_result_win": "the attack wins",
    "_result_tie": "a tie: every piece stays",
    "_result_loss": "the attack fails",
    "_orders_holding": "it entered a holding",
    "_orders_action": "it took an action",
    "_orders_still": "it did not move",
    "_orders_arrived": "it arrived",
    "_orders_possessed": "it was possessed",
    "_orders_removed": "it left the board",
    "_reason_enthralled": "every piece of the other side is possessed or gone",
    "_reason_banished": "no Shadow and no taint is left",
    "_reason_held": "they control the holdings they needed as their turn ends",
    "game_start": "{first} against {second}; {first} move first.",
    "scenario_start": "The position is set; {side} move first.",
    "turn_start": "-- Turn {turn}: {side} ({holdings} holdings) --",
    "draw": "{side} draw {card}.",
    "move": "{side}: the {kind} moves {hexes_text} from {start} to {to}.",
    "play": "{side}: the {kind} at {at} plays {card}{target_text}.",
    "defend": "{side}: the {kind} defends with {card}.",
    "roll": "{side} roll {dice} {dice_word} for the {role}: {total}.",
    "fight": "Attack {attack} against defence {defence}: {result_text}.",
    "removed": "The {kind} at {at} ({side}) is {fate_text}.",
    "rescued": "The {kind} is rescued{freed_text}{where_text}.",
    "_rescued_freed": ", freed from possession,",
    "_rescued_moved": " and goes to {at}",
    "_rescued_stays": " and stays at {at}",
    "banished": "The {kind} is sent to {holding}.",
    "built": "The {kind} finishes the {item} at {place}.",
    "build_abandoned": "The {item} begun by the {kind} is left unfinished.",
    "orders_end": "The {kind}'s {card} end: {reason_text}.",
    "discard": "{side} discard {card}.",
    "game_over": "{side} win: {reason_text}.",
    "game_over_none": "The game stops at the turn limit with no winner.",
}


def names_table(rules) -> dict:
    """What events need to be named in words: piece kinds (name), holdings (name), hexes stay ids."""
    return {"pieces": {k.id: k.name for k in rules.kinds},
            "holdings": {h.id: h.name for h in rules.holdings},
            "sides": [f.id for f in rules.factions]}


class Namer(core_transcript.Namer):
    """Cards and sides from their objects; pieces and holdings from the game's names table."""

    def __init__(self, cards, factions=None, players: Sequence[str] = ()):
        super().__init__(cards, factions, players)
        self.table = {"pieces": {}, "holdings": {}, "sides": [f.id for f in (factions or ())]}

    def side(self, seat: int) -> str:
        sides = self.table.get("sides") or []
        if 0 <= seat < len(sides):
            return self.faction(sides[seat])
        return self.player(seat)

    def adjective(self, seat_or_id) -> str:
        sides = self.table.get("sides") or []
        fid = sides[seat_or_id] if isinstance(seat_or_id, int) and 0 <= seat_or_id < len(sides) else seat_or_id
        return super().adjective(fid)

    def piece(self, kind: str) -> str:
        return self.table["pieces"].get(kind, kind.replace("_", " ").capitalize())

    def holding(self, holding: str) -> str:
        return self.table["holdings"].get(holding, holding)


def format_event(event, namer: Namer, phrases: dict = ENGLISH) -> str | None:
    """One event as a sentence, or None when the table has no phrase for it."""
    kind = event.type
    data = dict(event.data)
    if kind in ("game_start", "scenario_start") and "names" in data:
        namer.table = data["names"]
    if kind == "game_over" and data.get("winner") is None:
        kind = "game_over_none"
    if kind == "move" and data.get("hexes") == 0:
        return None
    template = phrases.get(kind)
    if template is None:
        return None
    fields = {"turn": event.turn}
    for key, value in data.items():
        if key == "side":
            fields["side"] = namer.side(value)
            fields["side_adj"] = namer.adjective(value)
        elif key in ("card", "target_card"):
            fields[key] = namer.card(value)
        elif key in ("kind", "target_kind"):
            fields["kind" if key == "kind" else "target"] = namer.piece(value)
        elif key == "holding":
            fields[key] = namer.holding(value)
        elif key == "winner":
            fields["side"] = namer.side(value) if value is not None else ""
        else:
            fields[key] = value
    if kind == "game_start" or kind == "scenario_start":
        fields["first"], fields["second"] = namer.side(0), namer.side(1)
        fields["side"] = namer.side(data.get("first", 0))
    if kind == "move":
        n = data.get("hexes", 0)
        fields["hexes_text"] = phrases["_hex"] if n == 1 else phrases["_hexes"].format(n=n)
    if kind == "roll":
        fields["dice_word"] = "die" if data["dice"] == 1 else "dice"
    if kind == "fight":
        fields["result_text"] = phrases[f"_result_{data['result']}"]
    if kind == "removed":
        fields["fate_text"] = phrases[f"_fate_{data['fate']}"]
    if kind == "rescued":
        fields["freed_text"] = phrases["_rescued_freed"] if data.get("freed") else ""
        fields["where_text"] = phrases["_rescued_moved" if data.get("moved") else "_rescued_stays"].format(at=data["at"])
    if kind == "orders_end":
        fields["reason_text"] = phrases[f"_orders_{data['reason']}"]
    if kind == "game_over":
        fields["reason_text"] = phrases[f"_reason_{data['reason']}"]
    if kind == "play":
        fields["target_text"] = _target_text(data, namer, phrases)
    if kind == "built" and "place" in data:
        fields["place"] = namer.holding(data["place"])
    return template.format(**fields)


def _target_text(data, namer, phrases) -> str:
    if "target_kind" in data:
        key = "_target_orders" if data.get("orders") else "_target_piece"
        text = phrases[key].format(target=namer.piece(data["target_kind"]), target_at=data.get("target_at", ""))
        if "to" in data:
            text += phrases["_lured_to"].format(to=data["to"])
        if "home" in data:
            text += phrases["_rescue_home"].format(home=data["home"])
        if "toward_holding" in data:
            text += phrases["_toward_holding"].format(holding=namer.holding(data["toward_holding"]))
        if "toward_kind" in data:
            text += phrases["_toward_piece"].format(kind=namer.piece(data["toward_kind"]), at=data["toward_at"])
        return text
    if "holding" in data:
        return phrases["_target_holding"].format(holding=namer.holding(data["holding"]))
    if "target_card" in data:
        return phrases["_target_card"].format(target_card=namer.card(data["target_card"]))
    if "place" in data:
        return phrases["_target_item"].format(place=namer.holding(data["place"]))
    return ""


def transcript_lines(events, cards, factions=None, players: Sequence[str] = (), phrases: dict = ENGLISH) -> list[str]:
    """The events of a game or scenario as lines of text (deterministic for the same events)."""
    return core_transcript.lines(events, format_event, Namer(cards, factions, players), phrases)
