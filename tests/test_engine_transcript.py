"""Transcripts: structured events turned into deterministic English, with every phrase in one table."""

import re

import pytest

from pnp.loading.gamedata import load_game
from rules_engine.model.cards import Card, Faction
from rules_engine.shadow_throne import (ENGLISH, Event, Namer, Rules, format_event, play_game,
                                        transcript_lines)

GAME = load_game("shadow_throne")
RULES = Rules(GAME.cards, GAME.factions)
NAMES = ["Ana", "Ben", "Cleo", "Dev"]


def game_events(seed=3, bots=("random", "greedy", "random", "greedy")):
    return play_game(RULES, list(bots), seed, record=True).events


def test_same_seed_same_transcript():
    a = transcript_lines(game_events(), GAME.cards, GAME.factions, NAMES)
    b = transcript_lines(game_events(), GAME.cards, GAME.factions, NAMES)
    assert a == b and len(a) > 50


def test_transcript_tells_the_whole_game():
    events = game_events()
    lines = transcript_lines(events, GAME.cards, GAME.factions, NAMES)
    text = "\n".join(lines)
    assert lines[0].startswith("A game for 4 players")
    assert "== Battle 1 ==" in text and "Pick 1: Ana takes" in text
    assert "-- Wave 4 --" in text and "Power track: Empire" in text
    assert re.search(r"Final power: .*\. Victory", text)
    assert "keeps" in text
    assert lines[-1].startswith(tuple(NAMES)) or "no one wins" in lines[-1]
    # every event type the engine recorded has a phrase, and no placeholder is left unfilled
    assert {e.type for e in events} <= set(ENGLISH)
    assert not any("{" in line for line in lines)


def test_every_phrase_formats():
    """Each event type's template can be filled from the fields the engine records."""
    seen = {}
    for seed in range(60):
        for e in play_game(RULES, ["random", "greedy", "random"], seed, record=True).events:
            seen.setdefault(e.type, e)
    namer = Namer(GAME.cards, GAME.factions, NAMES)
    for event in seen.values():
        assert format_event(event, namer)
    assert {"draft_round", "pay", "collect", "kill", "convert", "embolden", "power_track", "rewards",
            "keep", "game_over"} <= set(seen)


def test_names_come_from_the_objects_passed_in():
    """Translated names (here invented) replace the English ones without touching the engine."""
    cards = [Card(c.id, f"<{c.id}>", c.copies, c.faction, c.rank, c.stats, c.ability) for c in GAME.cards]
    factions = [Faction(f.id, f"F-{f.id}", f"A-{f.id}", f.colour, f.emblem) for f in GAME.factions]
    lines = transcript_lines(game_events(), cards, factions, ["Uno", "Dos", "Tres", "Cuatro"])
    text = "\n".join(lines)
    assert "<king-kyros>" in text or "<outlaw>" in text
    assert "F-empire" in text and "Uno" in text
    assert "King Kyros" not in text


def test_another_phrase_table_can_replace_english():
    table = {key: value if key.startswith("_") else "» " + value for key, value in ENGLISH.items()}
    table["_and"] = "y"
    lines = transcript_lines(game_events(), GAME.cards, GAME.factions, NAMES, phrases=table)
    assert all(line.startswith("» ") for line in lines)
    assert any(" y " in line for line in lines)


def test_events_are_plain_data():
    import json
    events = game_events()
    json.dumps([e.as_dict() for e in events])
    assert isinstance(events[0], Event)
