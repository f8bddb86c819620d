"""Recorded reads (pnp.cache.buildcache.recording): a component's cache key is made of the values of the game's
attributes it read, so every attribute its work depends on must be recorded. Proved by poisoning: each
attribute a component's check and files did not record is replaced by a value that fails on any use, and
the component must still check and build the same bytes; and every file of the folder but the card files
changes the component's identity."""

from __future__ import annotations

import copy
import dataclasses

from pathlib import Path

import pytest

from pnp.cache import buildcache
from pnp.cache import memo as file_caches
from pnp.components import BuildOptions, game_components
from pnp.draw.icons import using
from pnp.errors import Problems
from pnp.build.kit import _Kept, finished
from pnp.validation.checks import validate_game


TIDEWARDENS = str(Path(__file__).parent / "games" / "tidewardens")


class Poison:
    """A value any use of which fails (a component that reads an attribute it did not record)."""

    def __init__(self, name):
        object.__setattr__(self, "_name", name)

    def _fail(self, *args, **kwargs):
        raise AssertionError(f"read game.{object.__getattribute__(self, '_name')} without recording it")

    def __getattr__(self, name):
        if name.startswith("__"):           # introspection (hasattr(value, "__name__")), not a use
            raise AttributeError(name)
        self._fail()

    __iter__ = __len__ = __bool__ = __getitem__ = __contains__ = __call__ = _fail
    __lt__ = __str__ = __repr__ = __truediv__ = __format__ = _fail
    # no __fspath__: it would make the poison a path (os.PathLike) to the conversion templates see, which
    # copies the whole game unrecorded by design (the copy records what templates read of it)
    # hashed and compared as itself: a memo keyed by the game tells it from the real value (and computes
    # afresh, where any use of it fails)
    __hash__, __eq__ = object.__hash__, object.__eq__


def _run(game, component, options):
    problems = Problems()
    with using(game.icons, game.language):
        if component.check:
            component.check(game, problems, dataclasses.replace(options, thorough=False))
        outs = [] if component.needs_kit else finished(game, component.build(game, options), options)
    return [(p.path, p.line, p.message) for p in problems], [(o.filename, o.pdf, sorted(o.beside)) for o in outs]


def _game(name):
    file_caches.clear()
    problems = Problems()
    game = validate_game(name, problems, BuildOptions(thorough=False), component_checks=lambda g, p: None).game
    assert not problems.errors
    return game


def check_every_unrecorded_attribute_is_unused(name, only=None):
    game = _game(name)
    options = BuildOptions()
    fields = [f.name for f in dataclasses.fields(game)]
    checked = 0
    for component in game_components(game):
        if component.needs_kit or (only and component.name not in only):
            continue
        file_caches.clear()
        with buildcache.recording(game) as reads:
            expected = _run(game, component, options)
        unread = [f for f in fields if f not in reads]
        for field in unread:
            poisoned = copy.copy(game)
            object.__setattr__(poisoned, field, Poison(field))
            file_caches.clear()
            assert _run(poisoned, component, options) == expected, (component.name, field)
            checked += 1
    assert checked > 0


def test_tokens_and_boards_read_only_what_they_record():
    check_every_unrecorded_attribute_is_unused(TIDEWARDENS, only={"harbour", "dice", "wardens"})


@pytest.mark.slow
@pytest.mark.parametrize("name", ["shadow_throne", "shadow_kingdoms_of_valeria", TIDEWARDENS])
def test_every_component_reads_only_what_it_records(name):
    check_every_unrecorded_attribute_is_unused(name)


def test_a_card_edit_changes_only_what_reads_the_cards(game_copy, tmp_path):
    """Every file of the folder but the card files is part of a component's identity; the card files
    reach it through the attributes it reads (cards, decks, sources)."""
    from pnp.cache.buildcache import BuildCache

    game = _game(str(game_copy))
    kept = _Kept(BuildCache(tmp_path / "cache"), tmp_path / "out", BuildOptions(), BuildOptions(thorough=False))
    component = game_components(game)[1]
    ident = kept.ident(game, component)
    files = sorted(p for p in game_copy.rglob("*") if p.is_file())
    card_files = buildcache.card_files(game)
    assert card_files and card_files < {p.resolve() for p in files}
    for path in files:
        before = path.read_bytes()
        path.write_bytes(before + b"\n")
        again = _Kept(BuildCache(tmp_path / "cache"), tmp_path / "out", BuildOptions(), BuildOptions(thorough=False))
        changed = again.ident(game, component) != ident
        assert changed == (path.resolve() not in card_files), path
        path.write_bytes(before)
    edited = _game(str(game_copy))
    names = {"cards", "decks", "sources", "title"}
    assert buildcache.reads_digest(edited, names) == buildcache.reads_digest(game, names)
    card_file = sorted(card_files)[0]
    text = card_file.read_text(encoding="utf-8")
    card_file.write_text(text.replace("name: ", "name: X", 1), encoding="utf-8")
    edited = _game(str(game_copy))
    assert buildcache.reads_digest(edited, {"cards"}) != buildcache.reads_digest(game, {"cards"})
    assert buildcache.reads_digest(edited, {"title", "tokens"}) == buildcache.reads_digest(game, {"title", "tokens"})


def test_what_a_template_reads_of_the_game_is_recorded():
    """Templates see a converted copy of the game (made once per game object, whoever renders first): its
    reads count as reads of the game, in the component that renders, not in the one that converted."""
    from pnp.text import templating

    game = _game("shadow_throne")
    template = templating.environment(()).from_string("{{ game.title }}: {{ game.decks | length }} deck")
    templating.renderer(game=game)(template)            # converted outside any recording
    with buildcache.recording(game) as reads:
        assert templating.renderer(game=game)(template) == "Shadow Throne: 1 deck"
    assert {"title", "decks"} <= reads and not reads & {"factions", "cards", "tokens", "look"}


def test_a_set_recorded_into_through_the_game_and_every_card_is_updated_once_a_read(monkeypatch):
    """A validation unit records the game and each of its cards into one set (pnp.cache.checked): a read
    updates that set once, not once for every object recorded into it (55 times for Shadow Throne, most
    of what the recording cost), and the names recorded are the same; nested sets get the read too, and
    each stops being recorded into when its last block ends."""
    from contextlib import ExitStack

    from pnp.loading.gamedata import load_game

    game = load_game("shadow_throne")
    reads, inner = set(), set()
    with ExitStack() as stack:
        stack.enter_context(buildcache.recording(game, reads))
        for card in game.cards:
            stack.enter_context(buildcache.recording(card, reads))
        assert buildcache._TARGETS == [reads]
        game.title
        with buildcache.recording(game.cards[0], inner):
            assert buildcache._TARGETS == [reads, inner]
            game.cards[1].name
        assert buildcache._TARGETS == [reads]
    assert buildcache._TARGETS == [] and buildcache._RECORDING == []
    assert {"title", "cards", "name"} <= reads and inner == {"cards", "name"}



@dataclasses.dataclass(frozen=True)
class _Card:
    name: str
    ability: str


@dataclasses.dataclass(frozen=True)
class _Game:
    title: str
    cards: tuple


def test_a_memo_hands_back_the_same_reads_whoever_asked_first():
    """A memo that replays its reads (buildcache.replays_reads) hands a component the same names whether a
    validation unit, which records the game and every card into one set (pnp.cache.checked), or a
    component, which records the game alone, asked for the result first: Valeria's rulebook, given back
    a board's layouts made first by one or the other as the checks before it ran or came from the build
    cache, was kept under one list of names and looked up under the other after an edit undone (3
    misses). The unit records what the work reads of the cards, and only that: a card's ability edited
    finds a unit that read only the names kept."""
    from contextlib import ExitStack
    from functools import lru_cache

    @buildcache.replays_reads
    @lru_cache(maxsize=4)
    def first_name(game):
        return game.cards[0].name

    def in_unit(game):
        with ExitStack() as stack:
            reads = stack.enter_context(buildcache.recording(game))
            for card in game.cards:
                stack.enter_context(buildcache.recording(card, reads))
            assert first_name(game) == "Elite Guard"
        return reads

    def in_component(game):
        with buildcache.recording(game) as reads:
            assert first_name(game) == "Elite Guard"
        return reads

    game = _Game("Valeria", (_Card("Elite Guard", "guard"), _Card("Scout", "look")))
    unit = in_unit(game)
    after_a_unit = in_component(game)
    first_name.cache_clear()
    in_component(game)
    after_a_component = in_component(game)
    assert after_a_unit == after_a_component == {"cards"}
    assert unit == in_unit(game) == {"cards", "name"}       # the second time the memo holds it
