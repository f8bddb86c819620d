"""The rulebook's engine plays (each example's scenario and the battle) are kept from one build to the
next in one process (pnp.rulebook.component._played) under what the play read of the game and of its
cards. Proved both ways: every attribute of the game and of a card that a play did not record is
replaced by a value that fails on any use, and the play gives the same events; a card's name edited
finds the plays kept, a card's number edited plays them again, and either way the examples read as
they do when played afresh."""

from __future__ import annotations

import copy
import dataclasses
import shutil
from contextlib import ExitStack

import pytest

from pnp import DATA_DIR
from pnp.cache import buildcache
from pnp.cache import memo as file_caches
from pnp.cache.buildcache import BuildCache
from pnp.rulebook import component
from pnp.loading.gamedata import load_game
from pnp.rulebook.chapters import load_config

from test_recorded_reads import Poison


def _recorded(game, play):
    """(result, names read of the game and of its cards) of ``play()``."""
    reads: set = set()
    with ExitStack() as stack:
        stack.enter_context(buildcache.recording(game, reads))
        for card in list(game.cards):
            stack.enter_context(buildcache.recording(card, reads))
        result = play()
    return result, reads


def _poisoned(game, reads):
    """A copy of ``game`` whose attributes and whose cards' attributes not in ``reads`` fail on any use."""
    cards = []
    for card in game.cards:
        bad = copy.copy(card)
        for f in dataclasses.fields(card):
            if f.name not in reads:
                object.__setattr__(bad, f.name, Poison(f"cards[{card.id}].{f.name}"))
        cards.append(bad)
    poisoned = copy.copy(game)
    for f in dataclasses.fields(game):
        if f.name not in reads:
            object.__setattr__(poisoned, f.name, Poison(f.name))
    object.__setattr__(poisoned, "cards", type(game.cards)(cards))
    return poisoned


@pytest.mark.parametrize("name", ["shadow_throne", "shadow_queen", "shadow_kingdoms_of_valeria"])
def test_a_play_reads_only_what_it_records(name):
    file_caches.clear()
    game = load_game(name)
    cfg = load_config(game)
    plays = [lambda g, ex=ex: component._play_example(g, ex["_file"]) for ex in cfg.get("examples") or []]
    if cfg.get("battle"):
        plays.append(lambda g: component._play_battle(g, cfg))
    assert plays
    for play in plays:
        expected, reads = _recorded(game, lambda: play(game))
        assert "name" not in reads or name != "shadow_throne", "Shadow Throne's engine prints no names"
        assert play(_poisoned(game, reads)) == expected
        with pytest.raises(AssertionError, match="read game"):      # the poison does bite
            play(_poisoned(game, reads - {"stats", "copies"}))


def _examples(game, cache):
    """The examples and the battle as the rulebook prints them, with ``cache`` on."""
    cfg = load_config(game)
    with buildcache.using(cache):
        return (component.engine_examples(game, cfg, game.language),
                component.engine_battle(game, cfg, game.language, prose=True))


def test_a_name_edit_keeps_the_plays_and_a_number_edit_plays_again(tmp_path, monkeypatch):
    folder = tmp_path / "shadow_throne"
    shutil.copytree(DATA_DIR / "shadow_throne", folder)
    played = []
    for func in ("_play_example", "_play_battle"):
        real = getattr(component, func)
        monkeypatch.setattr(component, func, lambda *a, real=real, func=func: played.append(func) or real(*a))
    cards = folder / "cards.yaml"
    steps = [(None, None, True),            # the first build plays everything
             ("name: Dutiful Peasant", "name: Dutiful Farmer", False),
             ("consolation: 3", "consolation: 2", True),
             (None, None, False)]           # nothing changed
    for step, (old, new, plays) in enumerate(steps):
        if old is not None:
            cards.write_text(cards.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
        file_caches.clear()
        game = load_game(folder)
        played.clear()
        kept = _examples(game, BuildCache(tmp_path / "cache"))
        assert bool(played) is plays, (old, new, played)
        if plays:
            assert sorted(set(played)) == ["_play_battle", "_play_example"]
        file_caches.clear()
        assert kept == _examples(load_game(folder), BuildCache(None)), f"step {step}: as played afresh"
    printed = " ".join(str(e.markup) for e in kept[0].values()) + str(kept[1].markup)
    assert "Dutiful Farmer" in printed and "Dutiful Peasant" not in printed
