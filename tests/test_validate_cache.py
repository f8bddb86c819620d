"""``pnp validate`` keeps each check's problems in the build cache (:mod:`pnp.cache.checked`): a run from the
cache reports the same problems, byte for byte and in the same order, as a run without it, after any edit."""

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp import DATA_DIR
from pnp.cache.buildcache import BuildCache
from pnp.commands.cli import main
from pnp.errors import Problems
from pnp.validation.checks import validate_game


def edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def checked(root, cache=None, options=None):
    """(the problems as printed, the summary, the cache's hits) of one validation."""
    problems = Problems()
    result = validate_game(root, problems, options, cache=cache)
    if cache is not None:
        cache.store()
    return [str(p) for p in problems], result.summary, cache.hits if cache is not None else 0


def test_an_edit_sequence_reports_the_same_with_and_without_the_cache(game_copy, tmp_path):
    folder = tmp_path / "cache"
    cards, i18n = game_copy / "cards.yaml", game_copy / "i18n" / "es.yaml"
    steps = [
        ("nothing changed", lambda: None),
        ("a card renamed", lambda: edit(cards, "name: Dutiful Peasant", "name: Dutiful Farmer")),
        ("an unknown faction", lambda: edit(cards, "faction: ", "faction: nowhere_")),
        ("the same, again", lambda: None),
        ("fixed", lambda: edit(cards, "faction: nowhere_", "faction: ")),
        ("an unused translation key", lambda: edit(i18n, "dutiful-peasant:", "dutiful-peasent:")),
        ("the key fixed, a flavour too long for its card",
         lambda: (edit(i18n, "dutiful-peasent:", "dutiful-peasant:"),
                  edit(cards, "flavour: Bread on the table", "flavour: " + "Bread on the long table " * 30))),
        ("a token sheet edit", lambda: edit(game_copy / "tokens.yaml", "\n", "\n# a comment\n")),
    ]
    assert i18n.is_file()
    seen = []
    for name, step in steps:
        step()
        fresh, fresh_summary, _ = checked(game_copy)
        cold, cold_summary, _ = checked(game_copy, BuildCache(folder))
        warm, warm_summary, hits = checked(game_copy, BuildCache(folder))
        assert cold == fresh and warm == fresh, name
        assert cold_summary == warm_summary == fresh_summary, name
        assert hits > 0, name                     # the second run read its checks back
        seen.append(fresh)
    assert not seen[0] and any("nowhere_" in p for p in seen[2]) and not seen[4]
    assert any("unused key" in p for p in seen[5]) and any("does not fit" in p for p in seen[6])


def test_a_card_edit_runs_only_the_checks_that_read_the_cards(game_copy, tmp_path, monkeypatch):
    from pnp.components import tokens
    from rules_engine import shadow_throne

    folder = tmp_path / "cache"
    checked(game_copy, BuildCache(folder))
    ran = []
    real_hook, real_tokens = shadow_throne.validate_game, tokens.check
    monkeypatch.setattr(shadow_throne, "validate_game", lambda game: ran.append("engine") or real_hook(game))
    monkeypatch.setattr(tokens, "check", lambda *a, **k: ran.append("tokens") or real_tokens(*a, **k))
    _, _, hits = checked(game_copy, BuildCache(folder))
    assert ran == [] and hits > 0                 # nothing changed: every check from the cache
    edit(game_copy / "cards.yaml", "name: Dutiful Peasant", "name: Dutiful Farmer")
    checked(game_copy, BuildCache(folder))
    assert "engine" not in ran                    # it plays the cards, but reads no card's name
    assert "tokens" not in ran                    # the token sheet does not read them
    edit(game_copy / "cards.yaml", "    cost: 0\n    consolation: 3\n    flavour: Bread",
         "    cost: 1\n    consolation: 3\n    flavour: Bread")
    checked(game_copy, BuildCache(folder))
    assert "engine" in ran                        # a value the games play with
    assert "tokens" not in ran


@pytest.mark.parametrize("lang", [None, "es"])
def test_the_cli_prints_the_same_bytes_from_the_cache(game_copy, tmp_path, lang):
    edit(game_copy / "cards.yaml", "faction: ", "faction: nowhere_")
    extra = ["--lang", lang] if lang else []
    runs = [CliRunner().invoke(main, ["validate", str(game_copy), *extra, *cache])
            for cache in (["--no-cache"], ["--cache", str(tmp_path / "c")], ["--cache", str(tmp_path / "c")])]
    assert [r.exit_code for r in runs] == [2, 2, 2]
    assert runs[0].output == runs[1].output == runs[2].output
    assert "nowhere_" in runs[0].output and "Traceback" not in runs[0].output


def test_cache_and_no_cache_together_is_an_error(tmp_path):
    result = CliRunner().invoke(main, ["validate", "shadow_throne", "--cache", str(tmp_path), "--no-cache"])
    assert result.exit_code != 0 and "--cache and --no-cache" in result.output


@pytest.mark.slow
@pytest.mark.parametrize("name", ["shadow_throne", "shadow_kingdoms_of_valeria", "shadow_queen", "behind_the_throne"])
def test_every_bundled_game_validates_the_same_from_the_cache(name, tmp_path):
    root = shutil.copytree(DATA_DIR / name, tmp_path / name)
    fresh = checked(root)[:2]
    assert checked(root, BuildCache(tmp_path / "c"))[:2] == fresh
    again = checked(root, BuildCache(tmp_path / "c"))
    assert again[:2] == fresh and again[2] > 0


def test_a_fifo_the_data_does_not_name_does_not_hang_the_cache(starfall, tmp_path):
    """The cache hashes every file of the game folder: a FIFO (which would block a reader) is never opened."""
    import os
    import time

    os.mkfifo(starfall / "notes.fifo")
    started = time.perf_counter()
    result = CliRunner().invoke(main, ["validate", str(starfall), "--cache", str(tmp_path / "c")])
    assert time.perf_counter() - started < 60
    assert result.exit_code == 0, result.output
