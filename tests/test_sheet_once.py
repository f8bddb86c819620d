"""A sheet entry is set once per paper and language in a process: its check sets it on Letter and A4
(from one rendering of its template), and the build on the same paper finds it set, with the same
reads of the game recorded (so the build cache keys it as before) and the same bytes."""

from dataclasses import replace

from pnp.cache import memo
from pnp.cache.buildcache import recording
from pnp.components import BuildOptions
from pnp.rulebook import sheets
from pnp.errors import Problems
from pnp.loading.gamedata import load_game


def _spec(game, id_):
    return next(s for s in game.component_specs if s.id == id_)


def test_the_build_finds_the_sheet_its_check_set(monkeypatch):
    memo.clear()
    game = load_game("shadow_queen")
    spec = _spec(game, "shadows_reference")
    set_, rendered = [], []
    real_set, real_render = sheets.flowables, sheets.templating.render

    def counted_set(*args, **kwargs):
        set_.append(1)
        return real_set(*args, **kwargs)

    def counted_render(*args, **kwargs):
        rendered.append(1)
        return real_render(*args, **kwargs)
    monkeypatch.setattr(sheets, "flowables", counted_set)
    monkeypatch.setattr(sheets.templating, "render", counted_render)
    options = replace(BuildOptions(), flip="short", bleed=0.0)         # options the sheet does not read
    checked, built = set(), set()
    problems = Problems()
    with recording(game, checked):
        sheets.check(game, problems, options, spec=spec)
    assert not problems.errors and len(set_) == 2 and len(rendered) == 1    # Letter and A4, one template render
    with recording(game, built):
        out = sheets.build(game, options, spec=spec)
    assert len(set_) == 2 and len(rendered) == 1                             # found, not set again
    assert built and built <= checked                                        # its reads noted again
    memo.clear()                                                            # a process of its own
    fresh = set()
    with recording(game, fresh):
        again = sheets.build(game, options, spec=spec)
    assert len(set_) == 3 and again[0].pdf == out[0].pdf and fresh == built
    memo.clear()
