"""The booklet's chapters, examples and figures are rendered once a build (pnp.rulebook.component._rendered):
they do not depend on the paper, and the rulebook's check on Letter and A4 and its build share the render
of one loaded game; what it read of the game is counted as read by each of them."""

from contextlib import ExitStack

from pnp import DATA_DIR
from pnp.build.kit import build_kit
from pnp.cache import buildcache, memo
from pnp.components import BuildOptions
from pnp.draw.icons import using
from pnp.loading.gamedata import load_game
from pnp.rulebook import component


def _counted(monkeypatch) -> list:
    calls = []
    context = component.context

    def counted(*args, **kwargs):
        calls.append(args[0])
        return context(*args, **kwargs)

    monkeypatch.setattr(component, "context", counted)
    return calls


def test_a_build_renders_the_booklet_once(tmp_path, monkeypatch):
    calls = _counted(monkeypatch)
    memo.clear()
    build_kit(str(DATA_DIR / "shadow_throne"), tmp_path / "out", BuildOptions(), jobs=1)
    # the booklet's check on Letter and A4 and its build: one render; the icon keys' check renders its own
    # (main rendered four times: each paper's check, the build, the icon keys)
    assert len(calls) == 2


def test_a_render_given_back_counts_what_it_read():
    game = load_game(DATA_DIR / "shadow_throne")
    memo.clear()
    with using(game.icons, game.language):
        with buildcache.recording(game) as first:
            made = component._rendered(game, "en")
        with buildcache.recording(game) as again:
            kept = component._rendered(game, "en")
    assert kept is made
    assert first and again == first
    assert {"cards", "title", "factions"} <= again


def test_a_unit_recording_the_cards_renders_for_itself(monkeypatch):
    """A validation unit records the cards' reads; a render handed back notes the game's only, so such a
    unit gets a render of its own (its cards' reads recorded as it makes it)."""
    calls = _counted(monkeypatch)
    game = load_game(DATA_DIR / "shadow_throne")
    memo.clear()
    with using(game.icons, game.language):
        component._rendered(game, "en")
        assert len(calls) == 1
        with ExitStack() as stack:
            reads = stack.enter_context(buildcache.recording(game))
            for card in game.cards:
                stack.enter_context(buildcache.recording(card, reads))
            component._rendered(game, "en")
        assert len(calls) == 2
        assert "name" in reads             # a card's name, read as the chapters print it
        component._rendered(game, "en")
        assert len(calls) == 2
