"""Valeria's events as sentences (a phrase table per language, :data:`ENGLISH`) and actions in words.

Events carry ids and numbers only (seats, card ids, die codes, shrine and area numbers); the words for
shrines, troop types, areas, circles and bonuses are the table's, card names come from the card objects
(a translated game gives a translated transcript). :func:`action_words` gives an action in the words of
a scenario file (``{move: camp}``, ``{take: orc 5}``), which :func:`describe_action` prints.
"""

from __future__ import annotations

from typing import Sequence

from rules_engine.core import transcript as core_transcript
from rules_engine.core.transcript import Namer, join
from rules_engine.valeria.effects import TROOPS
from rules_engine.valeria.facts import SHRINES
from rules_engine.valeria.phases import TAKE

SHRINE_WORDS = ("gem", "magic", "champions", "gold", "tactics", "camp")
AREA_WORDS = ("top-left", "top", "top-right", "left", "centre", "right", "bottom-left", "bottom", "bottom-right")
CHAMPION_ROWS = ("instant", "ongoing", "endgame")

ENGLISH = {
    "_list_sep": ", ", "_and": "and", "_none": "nothing",
    "_shrine": {"gem": "the Gem shrine", "magic": "the Magic shrine", "champions": "the Champions shrine",
                "gold": "the Gold shrine", "tactics": "the Tactics shrine", "camp": "the Camp"},
    "_troop": {"goblin": "Goblin", "orc": "Orc", "skeleton": "Skeleton", "gargoyle": "Gargoyle", "gnoll": "Gnoll"},
    "_area": {"top-left": "top-left", "top": "top", "top-right": "top-right", "left": "left", "centre": "centre",
              "right": "right", "bottom-left": "bottom-left", "bottom": "bottom", "bottom-right": "bottom-right"},
    "_area_bonus": {"strength": "Strength 15+", "ambush": "Ambush", "siege": "Siege", "clash": "Clash"},
    "_unlock": {"champion_limit": "a higher champion limit", "wild": "the board's Wild ability",
                "gem_storage": "more gem storage", "reserve_slot": "a reserve slot",
                "strength": "the +1 strength bonus", "track": "the track's 14 space", "troop_space": "a troop space"},
    "_chain": {"champion": "a free Champion", "influence": "Influence", "magic": "Magic", "gold": "Gold",
               "gem": "a Gem", "die": "a die of their choice"},
    "_what": {"gold": "Gold", "magic": "Magic", "influence": "Influence"},
    "_source": {"shrine": "the shrine", "chain": "the chain bonus", "bonus": "the reserve bonus",
                "unlock": "the uncovered circle"},
    "_spend": {"wild": "to make a die Wild", "flip": "to flip a die"},
    "_reason": {"plans": "a seventh Battle Plan was completed", "adversary_plans": "the Adversary completed its "
                "seventh Battle Plan", "turn_limit": "the turn limit was reached"},
    "setup": "Setup for {players}: {gems} gems in the Gem shrine, {dice_per_type} dice of each type in the bag{adv}.",
    "award_revealed": "Award: {card}.",
    "colour": "{player} chooses the {board} board, whose Wild type is {troop}.",
    "map": "{player} plays the {board} board on map side {side}.",
    "first_player": "{player} goes first.",
    "turn": "{player}'s turn.",
    "refill": "The shrines are refilled: {returned} dice go back to the bag and {per_shrine} are rolled into "
              "each shrine; the Champion rows are replaced.",
    "no_move": "{player} has nowhere to go and passes.",
    "move": "{player} moves to {to}.",
    "take_die": "{player} takes {die} from {shrine}{why}.",
    "return_die": "{player} sends {die} back to the bag{new}.",
    "gain": "{player} gains {amount} {what}{from_source}{capped}.",
    "gem": "{player} {verb} a Gem{from_source}.",
    "gem_spent": "{player} spends a Gem {why}.",
    "award": "{player} claims the {card} award: {vp} VP.",
    "cycle_champion": "{player} pays 1 Magic to send {card} under its deck.",
    "champion": "{player} {how} {card}{price}.",
    "cycle_plan": "{player} pays 1 Magic to send {card} under the Battle Plans deck.",
    "plan_enters": "{card} enters the {cost}-Gold space of the Battle Plans line.",
    "reserve": "{player} reserves {card} in the {slot} slot for {price} Gold.",
    "reserve_bonus": "{player} pays {price} Gold for the slot's bonus ({bonus}).",
    "battle_plan": "{player} fights {card}{price}.",
    "battle_dice": "{player} sends {dice} into battle{wilds}.",
    "change_die": "{player} {how} {die}{where} to {to}.",
    "battle": "Strength {dice_strength}{bonuses}{cap}: {strength} is worth {vp} VP.",
    "unlock": "{player} lifts a conquest marker, unlocking {unlocks}.",
    "skirmish": "{player} places it on the {area} area ({bonus}): {vp} VP.",
    "chain": "Chain bonus between the {a} and {b} areas: {bonus}.",
    "no_free_champion": "{player} cannot take the free Champion.",
    "battle_end": "{player} has completed {plans} Battle Plan{s}; the dice go back to the bag.",
    "end_triggered": "{player}'s seventh Battle Plan: the round is played to its end.",
    "end_triggered_solo": "{player}'s seventh Battle Plan: the Adversary moves once more, then the game ends.",
    "adversary_move": "The Adversary moves to {shrine}.",
    "adversary_meets": "The Adversary meets {player}'s Warden there: {vp} VP (now {score}).",
    "adversary_plan": "The Adversary completes {card} ({icons} troop icons): {vp} VP (now {score}, {plans} plan{s}).",
    "final": "{player} scores {champions}{dice} VP for dice left: {score} in all.",
    "adversary_final": "The Adversary scores {empty} empty award{se} and {claimed} claimed award{sc}: {score} in all.",
    "game_over": "The game ends ({reason}). {result}",
    "_winner": "{player} wins.",
    "_shared": "{players} share the victory.",
    "_solo_win": "{player} beats the Adversary.",
    "_solo_loss": "The Adversary wins.",
}


def die_words(d: int, phrases=ENGLISH) -> str:
    """A die in the phrase table's words: ``Orc 5``."""
    return f"{phrases['_troop'][TROOPS[d // 6]]} {d % 6 + 1}"


def die_id(d: int) -> str:
    """A die as data files and scenario results write it: ``orc 5``."""
    return f"{TROOPS[d // 6]} {d % 6 + 1}"


def format_event(event, namer: Namer, phrases: dict) -> str | None:
    kind = event.type
    template = phrases.get(kind)
    if template is None:
        return None
    d = event.data
    f = {k: v for k, v in d.items()}
    if "player" in d:
        f["player"] = namer.player(d["player"])
    if kind in ("award_revealed", "award", "plan_enters", "champion", "cycle_champion", "cycle_plan", "reserve", "battle_plan",
                "battle", "battle_end", "adversary_plan"):
        f["card"] = namer.card(d["card"])
    if kind == "setup":
        f["players"] = "the solo game" if d["players"] == 1 else f"{d['players']} players"
        f["adv"] = f"; the Adversary starts with {d['adversary']} VP" if d.get("adversary") is not None else ""
    elif kind == "colour":
        f["troop"] = phrases["_troop"][d["troop"]]
    elif kind in ("move",):
        f["to"] = phrases["_shrine"][SHRINE_WORDS[d["to"]]]
    elif kind == "take_die":
        f["die"] = die_words(d["die"], phrases)
        f["shrine"] = phrases["_shrine"][SHRINES[d["shrine"]]]
        f["why"] = f" (discount {d['discount']})" if d.get("discount") is not None else ""
    elif kind == "return_die":
        f["die"] = die_words(d["die"], phrases)
        f["new"] = " (no room for it)" if d["new"] else " to make room"
    elif kind == "gain":
        f["what"] = phrases["_what"][d["what"]]
        f["from_source"] = _source(d.get("source"), namer, phrases)
        f["capped"] = ""
        if d.get("vp"):
            f["capped"] = f"; what goes past the top of the track scores {d['vp']} VP"
        elif d["got"] != d["amount"]:
            f["capped"] = f" ({d['got']} fit{'s' if d['got'] == 1 else ''} on the track)"
    elif kind == "gem":
        if not d["gained"]:
            return phrases["gem_spent"].format(player=f["player"], why=phrases["_spend"].get(d["source"], ""))
        f["verb"] = "gains"
        f["from_source"] = _source(d.get("source"), namer, phrases)
    elif kind == "champion":
        f["how"] = {"shrine": "buys", "bonus": "buys", "chain": "takes"}[d["how"]]
        f["price"] = f" for {d['price']} Gold" if d["how"] != "chain" else " for free"
    elif kind == "battle_plan":
        f["price"] = f", bought from the line for {d['price']} Gold" if d["from_line"] else ", from reserve"
    elif kind == "battle_dice":
        f["dice"] = join([die_words(x, phrases) for x in d["dice"]], phrases)
        extras = []
        if d.get("board_wild"):
            extras.append("the board's Wild ability")
        if d.get("wild_gems"):
            extras.append(f"{d['wild_gems']} Gem{'s' if d['wild_gems'] > 1 else ''} as Wild")
        f["wilds"] = f", using {join(extras, phrases)}" if extras else ""
    elif kind == "change_die":
        f["how"] = {"flip": "flips", "up": "raises", "down": "lowers", "up_kept": "raises",
                    "down_kept": "lowers"}[d["how"]]
        f["where"] = " in the troop spaces" if d["how"].endswith("_kept") else ""
        f["die"] = die_words(d["die"], phrases)
        f["to"] = str(d["to"] % 6 + 1)
    elif kind == "battle":
        f["bonuses"] = "".join(f" + {a} ({namer.card(src) if src != 'board' else 'board'})"
                               for src, a in d["bonuses"])
        if d["bonuses"]:
            f["bonuses"] += f" = {d['total']}"
        f["cap"] = f", held to the influence of {d['influence']}" if d["strength"] < d["total"] else ""
    elif kind == "unlock":
        f["unlocks"] = phrases["_unlock"].get(d.get("unlocks"), d["circle"])
    elif kind == "skirmish":
        f["area"] = phrases["_area"][AREA_WORDS[d["area"]]]
        f["bonus"] = phrases["_area_bonus"].get(d["bonus"]) or phrases["_troop"].get(d["bonus"], d["bonus"])
    elif kind == "chain":
        a, b = d["between"]
        f["a"], f["b"] = phrases["_area"][AREA_WORDS[a]], phrases["_area"][AREA_WORDS[b]]
        f["bonus"] = phrases["_chain"].get(d["bonus"], d["bonus"])
    elif kind == "end_triggered" and d.get("solo"):
        return phrases["end_triggered_solo"].format(player=f["player"])
    elif kind in ("battle_end", "adversary_plan"):
        f["s"] = "" if d["plans"] == 1 else "s"
    elif kind in ("adversary_move",):
        f["shrine"] = phrases["_shrine"][SHRINES[d["shrine"]]]
    elif kind == "adversary_meets":
        f["player"] = namer.player(0)
    elif kind == "final":
        f["champions"] = "".join(f"{namer.card(c)} {vp} VP, " for c, vp in d["champions"])
    elif kind == "adversary_final":
        f["se"] = "" if d["empty"] == 1 else "s"
        f["sc"] = "" if d["claimed"] == 1 else "s"
    elif kind == "game_over":
        f["reason"] = phrases["_reason"][d["reason"]]
        winners = d["winners"]
        if d.get("adversary") is not None:
            f["result"] = (phrases["_solo_win"].format(player=namer.player(0)) if winners
                           else phrases["_solo_loss"])
        elif len(winners) == 1:
            f["result"] = phrases["_winner"].format(player=namer.player(winners[0]))
        else:
            f["result"] = phrases["_shared"].format(players=join([namer.player(p) for p in winners], phrases))
    return template.format(**f)


def _source(source, namer, phrases) -> str:
    if not source:
        return ""
    words = phrases["_source"].get(source)
    return f" from {words}" if words else f" from {namer.card(source)}"


def transcript_lines(events, cards, factions=None, players: Sequence[str] = (), phrases: dict = ENGLISH) -> list[str]:
    """The events as lines of text. ``factions`` is accepted for the protocol's common signature."""
    return core_transcript.lines(events, format_event, Namer(cards, (), players), phrases)


# ----------------------------------------------------------------------------------- actions in words

def action_words(state, action) -> dict | str:
    """An action as a scenario file writes it: a word (``pass``, ``done``, ``gain_magic``) or a one-key
    mapping with its details (``{move: camp}``, ``{take: orc 5}``, ``{take: orc 5, from: gold}``)."""
    r = state.rules
    verb = action[0]
    if verb in ("pass", "done", "gain_magic"):
        return verb
    if verb == "side":
        return {"side": action[1]}
    if verb == "move":
        return {"move": SHRINE_WORDS[action[1]]}
    if verb == "take":
        words = {"take": die_id(action[2])}
        if state.phase == TAKE:                   # a die from any shrine
            words["from"] = SHRINES[action[1]]
        return words
    if verb == "room":
        return {"room": "new" if action[1] < 0 else die_id(action[1])}
    if verb == "award":
        return {"award": r.award_id(state.awards[action[1]]), "circle": r.circles[action[2]].id}
    if verb in ("buy", "cycle", "free"):
        return {verb: r.champion_id(state.rows[action[1]][action[2]])}
    if verb == "reserve":
        return {"reserve": r.plan_id(state.line[action[1]]), "slot": r.slots[action[2]].id}
    if verb == "cycle_plan":
        return {"cycle_plan": r.plan_id(state.line[action[1]])}
    if verb == "bonus":
        return {"bonus": "influence"}
    if verb == "bonus_die":
        return {"bonus": "die", "take": die_id(action[2]), "from": SHRINES[action[1]]}
    if verb == "bonus_champion":
        return {"bonus": "champion", "buy": r.champion_id(state.rows[action[1]][action[2]])}
    if verb == "plan_reserved":
        return {"plan": r.plan_id(state.players[state.cur].reserved[action[1]])}
    if verb == "plan_line":
        return {"plan": r.plan_id(state.line[action[1]])}
    if verb == "dice":
        return {"dice": [die_id(d) for d in action[1]]}
    if verb in ("flip", "up", "down", "up_kept", "down_kept"):
        return {verb: die_id(action[1])}
    if verb == "circle":
        return {"circle": r.circles[action[1]].id}
    if verb == "area":
        return {"area": AREA_WORDS[action[1]]}
    return " ".join(map(str, action))


def describe_action(state, action) -> str:
    words = action_words(state, action)
    if isinstance(words, str):
        return words
    return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in words.items()) + "}"


def _flow(value) -> str:
    return "[" + ", ".join(map(str, value)) + "]" if isinstance(value, list) else str(value)
