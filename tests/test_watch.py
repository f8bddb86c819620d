"""``pnp watch``: rebuilds that report problems and recover, caches cleared between rebuilds, which file
events count as edits, debouncing, and one real watchdog run."""

import shutil
import threading
import time
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from pnp import TEMPLATES_DIR
from pnp.cache import memo
from pnp.cache.buildcache import ENTRIES, LAYOUT
from pnp.commands.cli import main
from pnp.commands.watch import rebuild, watch_loop
from pnp.serve.watcher import Changes
from pnp.components import BuildOptions


class Echo(list):
    def __call__(self, text, err=False):
        self.append(text)


def test_rebuild_reports_problems_as_build_does_then_recovers(tmp_path, game_copy):
    echo, out = Echo(), tmp_path / "out"
    cards = game_copy / "cards.yaml"
    good = cards.read_text()
    cards.write_text(good.replace("    power: 10\n", "    power: ten\n"))
    assert rebuild(str(game_copy), out, BuildOptions(), echo) is False
    build = CliRunner().invoke(main, ["build", str(game_copy), "--out", str(tmp_path / "other")])
    problem_lines = build.output.splitlines()[:-1]
    assert problem_lines and echo[:-1] == problem_lines            # the same lines as pnp build prints
    assert echo[-1] == "1 problem found; nothing was written. Waiting for changes."
    assert not (out / "kit.pdf").exists()

    cards.write_text(good)
    assert rebuild(str(game_copy), out, BuildOptions(), echo, changed=[str(cards)]) is True
    assert "built Shadow Throne after cards.yaml changed: 12 files, 28 pages in kit.pdf" in echo[-1]
    assert (out / "kit.pdf").is_file()


def test_rebuild_reads_files_again_that_a_cache_holds(tmp_path, game_copy):
    """The rulebook booklet is cached per game: without clearing it a changed rulebook.yaml goes unseen."""
    echo = Echo()
    assert rebuild(str(game_copy), tmp_path / "a", BuildOptions(), echo) is True
    config = game_copy / "rulebook.yaml"
    config.write_text(config.read_text() + "pages: 20\n")
    assert rebuild(str(game_copy), tmp_path / "b", BuildOptions(), echo) is True
    assert "28 pages in kit.pdf" in echo[0] and "30 pages in kit.pdf" in echo[1]   # a 20-page booklet


def test_registered_caches_are_the_file_dependent_ones():
    import pnp.loading.cardtext
    import pnp.components.instructions
    import pnp.rulebook.component
    import pnp.draw.labels
    import pnp.draw.document  # noqa: F401  (registers on import)

    names = {f"{f.__module__}.{f.__name__}" for f in memo.registered()}
    # every template environment (pnp.text.templating.environment), the parsed YAML files, and the results
    # built from templates
    assert {"pnp.text.templating.environment", "pnp.loading.yamlsrc._load_cached", "pnp.loading.cardtext._module",
            "pnp.rulebook.component.booklet"} <= names
    # label inks are keyed by their icon's content (an SVG's bytes), so they stay warm
    # (tests/test_badge_labels.py: an icon changed in place is measured again)
    assert "pnp.draw.text.fit" not in names       # pure function of its arguments: stays warm
    with pytest.raises(TypeError):
        memo.reads_files(lambda: None)


def test_changed_ability_template_is_read_again_after_clear(game_copy, monkeypatch):
    from pnp.loading.cardtext import ability_text
    from pnp.loading.gamedata import load_game

    memo.clear()
    try:
        game = load_game(game_copy)
        card = next(c for c in game.cards if c.ability)
        before = ability_text(game, card)
        source = game_copy / "templates" / "abilities" / "en.j2"
        word = before.split()[0].strip("*")
        source.write_text(source.read_text().replace(word, "Zzyzx"))
        assert ability_text(game, card) == before                  # still cached
        memo.clear()
        assert "Zzyzx" in ability_text(game, card)
    finally:
        monkeypatch.undo()
        memo.clear()


def event(kind, path, directory=False, dest=""):
    return SimpleNamespace(event_type=kind, src_path=str(path), dest_path=str(dest), is_directory=directory)


def test_only_edits_count_not_the_builds_own_reads(tmp_path):
    out = tmp_path / "output"
    changes = Changes(ignore_under=[out])
    data = tmp_path / "cards.yaml"
    assert changes.relevant(event("modified", data))
    assert changes.relevant(event("created", data)) and changes.relevant(event("deleted", data))
    assert changes.relevant(event("moved", tmp_path / "sedX1b2", dest=data))
    assert not changes.relevant(event("opened", data))             # the build reading its data
    assert not changes.relevant(event("closed_no_write", data))
    assert not changes.relevant(event("modified", tmp_path, directory=True))
    for name in (".cards.yaml.swp", "cards.yaml~", "4913", ".#cards.yaml"):
        assert not changes.relevant(event("modified", tmp_path / name)), name
    assert not changes.relevant(event("modified", out / "kit.pdf"))


def test_a_burst_of_edits_settles_into_one_change():
    changes = Changes()
    changes.add("a.yaml", now=10.0)
    changes.add("b.yaml", now=10.2)
    assert changes.take_settled(0.3, now=10.4) == set()             # still saving
    assert changes.take_settled(0.3, now=10.5) == {"a.yaml", "b.yaml"}
    assert changes.take_settled(0.3, now=20.0) == set()             # taken once


def test_watchdog_sees_an_edit_and_the_handler_runs_once(tmp_path):
    """A real observer: a burst of saves gives one call, and the handler reading the files (as a build
    does) triggers no further call."""
    (tmp_path / "cards.yaml").write_text("v0\n")
    calls, stop = [], threading.Event()

    def on_change(paths):
        calls.append(paths)
        for f in tmp_path.iterdir():
            f.read_bytes()

    ready = threading.Event()

    def observed():
        # said only once the observer runs: its threads are there (pnp watch prints "Watching" here)
        assert any(type(t).__module__.startswith("watchdog.observers") and t.is_alive() for t in threading.enumerate())
        ready.set()

    thread = threading.Thread(target=watch_loop, args=([tmp_path], on_change),
                              kwargs={"debounce": 0.15, "stop": stop, "poll": 0.02, "ready": observed}, daemon=True)
    thread.start()
    try:
        assert ready.wait(30)                 # the observer is running
        for k in range(3):
            (tmp_path / "cards.yaml").write_text(f"v{k + 1}\n")
            time.sleep(0.02)
        deadline = time.monotonic() + 5
        while not calls and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.5)                       # long enough for a loop to show
    finally:
        stop.set()
        thread.join(5)
    assert len(calls) == 1, calls
    assert str(tmp_path / "cards.yaml") in calls[0]


def test_watch_help_is_complete():
    result = CliRunner().invoke(main, ["watch", "--help"])
    assert result.exit_code == 0
    for option in ("--paper", "--lang", "--out", "--debounce", "--cache", "--no-cache"):
        assert option in result.output


def test_rebuild_with_the_build_cache_draws_only_what_changed(tmp_path, starfall):
    """pnp watch's rebuilds use the build cache: the kit after an edit is the clean build's, and the
    files the edit does not touch come from the cache. (On tests/games/starfall: the rebuild is pnp's;
    three builds of Shadow Throne were 8 s of CPU.)"""
    from pnp.cache.buildcache import BuildCache
    from pnp.build.kit import build_kit

    echo, out = Echo(), tmp_path / "out"
    kept = BuildCache(out / ".pnp-cache")
    assert rebuild(str(starfall), out, BuildOptions(), echo, build_cache=kept) is True
    cards = starfall / "stars.yaml"
    assert "copies: 2, light: 3," in cards.read_text()
    cards.write_text(cards.read_text().replace("copies: 2, light: 3,", "copies: 2, light: 2,", 1))
    assert rebuild(str(starfall), out, BuildOptions(), echo, changed=[str(cards)], build_cache=kept) is True
    memo.clear()
    build_kit(str(starfall), tmp_path / "clean", BuildOptions())
    for path in (tmp_path / "clean").iterdir():
        if path.is_file():
            assert (out / path.name).read_bytes() == path.read_bytes(), path.name
    assert sorted(p.name for p in (out / ".pnp-cache" / LAYOUT / ENTRIES).glob("*.json"))
