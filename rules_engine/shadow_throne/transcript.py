"""Turn structured events into sentences: a readable, deterministic account of a game or scenario.

All English wording lives in :data:`ENGLISH` (event type -> format string); another language is a
second table with the same keys, passed as ``phrases``. Card and faction names come from the objects
given to :class:`Namer` (so translated names can be passed in), player names from a list.

Format fields are filled by name: ``player``/``players``/``next`` are seats, ``card``/``cards`` card
ids, ``faction``/``factions`` faction ids, ``source``/``character``/``targets`` characters in play,
``power`` a power-track mapping; lists are joined with the table's ``_and`` word.
"""

from __future__ import annotations

from typing import Sequence

from rules_engine.core import transcript as core_transcript

ENGLISH = {
    "_and": "and",
    "_list_sep": ", ",
    "_character": "{card} ({player})",
    "_track_item": "{faction} {power}",
    "_pick": "{player} takes {card}",
    "_reward_item": "{card} {amount}",
    "_dead": " (dead: half)",
    "_the_faction": "the {faction}",
    "_to_faction": "to the {faction}",
    "_none": "nothing",
    "_step_list_word": "step",
    "game_start": "A game for {players} players begins. Each player has {gold} gold; "
                  "the first to reach {goal} influence ends the game.",
    "scenario_start": "Before the battle: {holdings}.",
    "_holding": "{player} has {gold} gold and {influence} influence",
    "battle_start": "== Battle {battle} ==",
    "kept_card": "{player} starts with {card} in hand, kept from the last battle.",
    "carried": "{character} is still on the field from the last battle and counts as played before wave 1.",
    "deal": "The deck is shuffled and every player gets a pool of {size} cards. "
            "Each player takes one card and passes the rest to the left until the pools run out.",
    "draft_round": "Pick {round}: {picks}.",
    "hand": "{player}'s hand: {cards}.",
    "wave_start": "-- Wave {wave} --",
    "wave_empty": "-- Wave {wave} -- No one plays a character.",
    "pay": "{player} reveals {card} and pays {amount} gold ({gold} left).",
    "pay_hush": "{player} reveals {card} and pays {amount} gold, 1 of it hush money ({gold} left).",
    "collect": "{player} reveals {card} and collects {amount} gold ({gold} now).",
    "collect_hush": "{player} reveals {card}; hush money lowers its income to {amount} gold ({gold} now).",
    "play_free": "{player} reveals {card}, which costs nothing ({gold} gold).",
    "poor": "{player} reveals {card} but cannot pay {need} gold with only {had}: "
            "the card is turned face down and stays out of the battle, and {player} collects 1 gold ({gold} now).",
    "extra_pay": "{player} adds {card} to the wave as the extra card of {source} and pays {amount} gold, "
                 "with no hush money ({gold} left).",
    "extra_collect": "{player} adds {card} to the wave as the extra card of {source} and collects "
                     "{amount} gold ({gold} now).",
    "extra_play_free": "{player} adds {card} to the wave as the extra card of {source}, at no cost "
                       "({gold} gold).",
    "extra_none": "{player} adds no extra card for {source}.",
    "extra_refused": "{player} cannot add {card} for {source}: {reason}.",
    "_extra_refused_blocked": "its ability does not happen",
    "_extra_refused_dead": "it was killed before its step",
    "_extra_refused_unaffordable": "the card is not affordable",
    "_extra_refused_not_allowed": "the card is not of the right faction",
    "blocked": "{character} does not use its step {step} ability: {reason}.",
    "_blocked_dead": "it was killed at an earlier step",
    "_blocked_suppressed": "it is suppressed",
    "kill": "{source} kills {targets}.",
    "kill_none": "{source} finds no one to kill.",
    "convert": "{source} converts {targets} to the {faction}.",
    "convert_bonus": "{source} converts {targets} to the {faction}, each with +{amount} power.",
    "convert_none": "{source} finds no one to convert.",
    "embolden": "{source} gives +{amount} power to {targets}.",
    "embolden_none": "{source} finds no one to embolden.",
    "boost": "{source} gets +{amount} power: its owner had {gold} gold left after paying for it.",
    "nothing_condition": "{source} gets no extra power: its owner had {gold} gold left after paying for it.",
    "nothing_no_next_wave": "{source} was played in the last wave, so its ability has no wave to affect.",
    "schedule": "{source} will give +{amount} power to every {faction_adjective} character of the next wave.",
    "suppress": "{source} suppresses the {steps} abilities of {targets}.",
    "suppress_none": "{source} finds no ability to suppress.",
    "stay": "{source} will stay on the field for the next battle unless the {faction} win this one.",
    "death_influence": "{character} dies and {player} gains {amount} influence at once ({influence} now).",
    "power_track": "Power track: {power}.",
    "battle_won": "Final power: {power}. Victory goes to {factions}.",
    "battle_tied": "Final power: {power}. Victory is shared by {factions}, tied for the most power.",
    "rewards": "{player}: {parts}; now {total_influence} influence and {total_gold} gold.",
    "_rewards_influence": "+{amount} influence ({items})",
    "_rewards_gold": "+{amount} consolation gold ({items})",
    "_rewards_nothing": "no reward",
    "stays": "{character} stays on the field for the next battle.",
    "game_over": "{players} reached {goal} influence: the game is over.",
    "winner": "{player} wins with {influence} influence.",
    "winner_gold": "{player} wins: tied on {influence} influence, but with the most gold ({gold}).",
    "no_winner": "{players} tie on influence ({influence}) and on gold: the kingdom lies in ruins and no one wins.",
    "keep": "{player} keeps {card} for the next battle.",
}


Namer = core_transcript.Namer


def join(items: Sequence[str], phrases: dict = ENGLISH) -> str:
    return core_transcript.join(items, phrases)


def faction_form(phrases: dict, key: str, faction: str, namer: Namer) -> str:
    """A faction's name as the table's ``key`` form wants it: one pattern for every faction (``"the
    {faction}"``), or one per grammatical form of the name where a language's article or contraction
    depends on it (Spanish: ``el Imperio``, ``los Rebeldes``, ``al Imperio``: the faction's ``grammar``, as
    the data gives it), or one per faction id."""
    form = phrases.get(key, "{faction}")
    if isinstance(form, dict) and faction in form:
        return form[faction].format(faction=namer.faction(faction))
    return core_transcript.shaped(phrases, key, namer.form("faction", faction), faction=namer.faction(faction))


def format_event(event, namer: Namer, phrases: dict = ENGLISH) -> str | None:
    """One event as a sentence, or None when the table has no phrase for it."""
    template = phrases.get(event.type)
    if template is None:
        return None
    data = event.data

    def character(c):
        return phrases["_character"].format(card=namer.card(c["card"]), player=namer.player(c["player"]))

    def character_as(key: str, c) -> str:
        """A character with the table's ``key`` form of its name's article (Spanish "al Forajido (Ana)")."""
        return core_transcript.shaped(phrases, key, namer.form("card", c["card"]), character=character(c))

    fields = {"wave": event.wave, "battle": event.battle}
    for key, value in data.items():
        if key in ("player", "next"):
            fields[key] = namer.player(value)
        elif key == "players" and isinstance(value, list):
            fields[key] = join([namer.player(p) for p in value], phrases)
        elif key == "card":
            fields[key] = namer.card(value)
        elif key == "cards":
            fields[key] = join([namer.card(c) for c in value], phrases)
        elif key == "faction":
            fields[key] = namer.faction(value)
            fields["faction_adjective"] = namer.adjective(value)
            fields["the_faction"] = faction_form(phrases, "_the_faction", value, namer)
            fields["to_faction"] = faction_form(phrases, "_to_faction", value, namer)
        elif key == "factions":
            fields[key] = join([faction_form(phrases, "_the_faction", f, namer) for f in value], phrases)
        elif key in ("source", "character"):
            fields[key] = character(value)
            fields[f"The_{key}"] = character_as("_The_character", value)
            fields[f"to_{key}"] = character_as("_to_character", value)
        elif key == "targets":
            fields[key] = join([character(t) for t in value], phrases)
            fields["to_targets"] = join([character_as("_to_character", t) for t in value], phrases)
        elif key == "power":
            fields[key] = phrases["_list_sep"].join(
                phrases["_track_item"].format(faction=namer.faction(f), power=p) for f, p in value.items())
        elif key == "picks":
            fields[key] = "; ".join(phrases["_pick"].format(player=namer.player(p), card=namer.card(c))
                                    for p, c in value)
        elif key == "steps":
            fields[key] = join([f"{phrases['_step_list_word']} {s}" for s in value], phrases)
        elif key == "reason":
            fields[key] = phrases.get(f"_{event.type}_{value}", value)
        else:
            fields[key] = value
    if event.type == "scenario_start":
        fields["holdings"] = join([phrases["_holding"].format(player=namer.player(p), gold=g, influence=i)
                                   for p, (g, i) in enumerate(zip(data["gold"], data["influence"]))], phrases)
    if event.type == "rewards":
        parts = []
        for key in ("influence", "gold"):
            if data[key]:
                items = "; ".join(phrases["_reward_item"].format(card=namer.card(d["character"]["card"]),
                                                                 amount=d[key])
                                  + (phrases["_dead"] if d["dead"] and key == "influence" else "")
                                  for d in data["detail"] if d.get(key))
                parts.append(phrases[f"_rewards_{key}"].format(amount=data[key], items=items))
        fields["parts"] = join(parts, phrases) if parts else phrases["_rewards_nothing"]
    return template.format(**fields)


def transcript_lines(events, cards, factions=None, players: Sequence[str] = (), phrases: dict = ENGLISH) -> list[str]:
    """The events of a game or scenario as lines of text (deterministic for the same events)."""
    return core_transcript.lines(events, format_event, Namer(cards, factions, players), phrases)
