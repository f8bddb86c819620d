"""The engine's seeded games kept in the process (pnp.cache.played): the same cards and the same code play
them once; any change to either plays them again, and what they read is recorded as if they were played."""

from __future__ import annotations

from contextlib import ExitStack

import pytest

from pnp.cache import buildcache, played
from pnp.errors import Problems
from pnp.validation.checks import validate_game


@pytest.fixture
def plays(monkeypatch):
    """The games played (not taken from the memo), by what: 'validate_game', 'token_demand'."""
    played.clear()
    seen = []
    real = played._played

    def counting(game, play):
        seen.append(1)
        return real(game, play)

    monkeypatch.setattr(played, "_played", counting)
    yield seen
    played.clear()


def validated(folder) -> list:
    problems = Problems()
    validate_game(str(folder), problems)
    return [str(p) for p in problems]


def test_a_copy_of_the_same_cards_plays_no_games_again_and_says_the_same(tmp_path, plays):
    import shutil

    from pnp import DATA_DIR

    # (two folders of the same name, as the tests' game_copy makes them: the game's id is the folder's name)
    first = validated(shutil.copytree(DATA_DIR / "shadow_throne", tmp_path / "a" / "shadow_throne"))
    assert len(plays) == 2                      # the invariant-checked games, the token demand
    second = validated(shutil.copytree(DATA_DIR / "shadow_throne", tmp_path / "b" / "shadow_throne"))
    assert len(plays) == 2
    assert [p.replace("/b/", "/a/") for p in second] == first


def test_changed_cards_play_the_games_again(game_copy, plays):
    validated(game_copy)
    cards = game_copy / "cards.yaml"
    text = cards.read_text()
    assert "    power: 1\n" in text
    cards.write_text(text.replace("    power: 1\n", "    power: 2\n", 1))    # the Dutiful Peasant
    assert not [p for p in validated(game_copy) if ": error:" in p]
    assert len(plays) == 4


def test_changed_engine_code_plays_the_games_again(game_copy, plays, monkeypatch):
    import rules_engine.shadow_throne as engine

    validated(game_copy)
    monkeypatch.setattr(engine, "validate_game", lambda game: [("card 'dutiful-peasant'", "a patched engine", False)])
    assert any("a patched engine" in p for p in validated(game_copy))
    assert len(plays) == 4          # the patched hook, and the demand's games (the engine's code changed)
    monkeypatch.undo()
    assert not any("a patched engine" in p for p in validated(game_copy))
    assert len(plays) == 4          # the real code's games were kept


def test_changed_play_limits_play_the_games_again(game_copy, plays):
    from rules_engine.core import faults

    validated(game_copy)
    before = faults.current()
    try:
        faults.configure(decisions=before.decisions + 1 if before.decisions else 10 ** 6)
        validated(game_copy)
    finally:
        faults.configure(before.decisions, before.seconds)
    assert len(plays) == 4


def test_games_taken_from_the_memo_are_recorded_as_read(game_copy, plays):
    from pnp.loading.gamedata import load_game
    from rules_engine import engine_module

    module = engine_module("shadow_throne")
    sets = []
    for _ in range(2):
        game = load_game(str(game_copy), Problems())
        with ExitStack() as stack:           # as a validation unit records (pnp.cache.checked)
            reads = stack.enter_context(buildcache.recording(game))
            for card in game.cards:
                stack.enter_context(buildcache.recording(card, reads))
            played.hook("validate_game", module, game, lambda: tuple(module.validate_game(game)))
        sets.append(reads)
    assert len(plays) == 1 and sets[0] == sets[1] and {"cards", "ability"} <= sets[0]
    assert not {"name", "flavour"} & sets[0]            # describing the cards for the key is not a read


def test_a_card_name_edit_plays_no_games_with_the_validation_cache(game_copy, tmp_path, plays):
    """The validation cache keeps the engine's units by what their games read of each card, which is not
    its name: the memo's key must not count a card's name as read."""
    from pnp.cache.buildcache import BuildCache

    cache = BuildCache(tmp_path / "cache")
    validate_game(str(game_copy), Problems(), cache=cache)
    cache.store()
    cards = game_copy / "cards.yaml"
    cards.write_text(cards.read_text().replace("name: Dutiful Peasant", "name: Peasant 7", 1))
    cache = BuildCache(tmp_path / "cache")
    validate_game(str(game_copy), Problems(), cache=cache)
    assert len(plays) == 2                  # the first validation's games only
