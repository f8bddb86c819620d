"""A booklet's layout passes lay out only what changed (issue 38): a pass of the fit starts at the page where
its chapters first differ from an earlier pass's (pnp.draw.document.lay_out's ``after``, resume_point),
the pages before taken as that pass set them. What it makes must be what a pass from the first page makes,
and every file drawn from it the bytes of a fresh build."""

import os
import shutil
import subprocess
import sys

import pytest

import pnp.draw.document as D
from pnp import DATA_DIR, PROJECT_ROOT
from pnp.build.kit import build_kit
from pnp.cache import memo
from pnp.cache.buildcache import FOLDER, BuildCache
from pnp.components import BuildOptions
from pnp.errors import Problems
from pnp.loading.gamedata import load_game
from pnp.rulebook import component


def _laid(laid) -> tuple:
    """What a layout pass decided: every page's shape, the contents' entries, the padding point, and
    where each page starts."""
    return component._shape(laid), laid.entries, laid.notes_at, laid.starts


def _compared(monkeypatch) -> dict:
    """Lay every pass that resumes at a page out again from the first page and compare; counts."""
    lay_out = D.lay_out
    seen = {"resumed": 0, "pages": 0, "kept": 0}

    def checked(*args, after=None, **kwargs):
        laid = lay_out(*args, after=after, **kwargs)
        start = D.resume_point(after, laid.args)
        if start is not None:
            whole = lay_out(*args, **kwargs)
            assert _laid(laid) == _laid(whole)
            seen["resumed"] += 1
            seen["pages"] += len(laid.pages)
            seen["kept"] += start.page - 1
        return laid

    monkeypatch.setattr(component, "lay_out", checked)
    return seen


def _check(game, lang=None):
    problems = Problems()
    component.check(game, problems, BuildOptions(lang=lang) if lang else None)
    return problems


@pytest.mark.parametrize("name", ["shadow_throne", "shadow_kingdoms_of_valeria"])
def test_a_resumed_pass_is_the_pass_laid_out_from_the_first_page(name, monkeypatch):
    memo.clear()
    seen = _compared(monkeypatch)
    problems = _check(load_game(DATA_DIR / name))
    assert not problems.errors
    # the fit's trials take most of their pages from the layout they were tried on
    assert seen["resumed"] >= 4
    assert seen["kept"] > seen["pages"] / 2


def test_a_card_renamed_resumes_at_the_chapter_that_prints_it(tmp_path, monkeypatch):
    """A card's name in several chapters: each of the fit's passes after the first starts past the
    pages before the chapters it changes, and comes out as a whole pass would."""
    game = tmp_path / "shadow_throne"
    shutil.copytree(DATA_DIR / "shadow_throne", game)
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("name: Dutiful Peasant", "name: Peasant 7", 1),
                     encoding="utf-8")
    memo.clear()
    seen = _compared(monkeypatch)
    assert not _check(load_game(game)).errors
    assert seen["resumed"] >= 4 and seen["kept"] > 0


def test_resume_point_needs_the_same_booklet_and_a_whole_flowable():
    game = load_game(DATA_DIR / "shadow_throne")
    memo.clear()
    from pnp.draw.icons import using

    with using(game.icons, game.language):
        cfg, figures, chapters, fills, words, size, _, _ = component._prepared(game, "letter", "en")
        laid = D.lay_out(game, cfg, chapters, size, "en", words, figures)
        last = len(chapters) - 1
        changed = chapters[:last] + [(chapters[last][0], chapters[last][1] + "\n\nOne more paragraph.\n")]
        start = D.resume_point(laid, (game, cfg, changed, size, "en", words, figures))
        assert start is not None and start.page > 1
        # the page it starts at begins with a whole flowable from before the last chapter
        assert start.at is not None and start.at < laid.chapter_starts[last]
        assert laid.starts[start.page - 1] == start
        # another paper, other words or other figures: nothing is taken
        assert D.resume_point(laid, (game, cfg, changed, (size[0] + 1, size[1]), "en", words, figures)) is None
        assert D.resume_point(laid, (game, cfg, changed, size, "en", {**words, "notes": "x"}, figures)) is None
        other = component._rendered_kept.__wrapped__(component._Same(game, object()), "en", "en", ())[0][1]
        assert D.resume_point(laid, (game, cfg, changed, size, "en", words, other)) is None
        # the first chapter changed: the pass starts at the first page
        first = [(chapters[0][0], chapters[0][1] + "\n\nA word.\n")] + chapters[1:]
        assert D.resume_point(laid, (game, cfg, first, size, "en", words, figures)) is None
        resumed = D.lay_out(game, cfg, changed, size, "en", words, figures, after=laid)
        whole = D.lay_out(game, cfg, changed, size, "en", words, figures)
        assert _laid(resumed) == _laid(whole)
        assert D.draw_laid_out(resumed, 0)[0] == D.draw_laid_out(whole, 0)[0]


def test_the_booklet_is_the_same_bytes_without_resumed_passes(monkeypatch):
    game = load_game(DATA_DIR / "shadow_throne")
    memo.clear()
    component._FITS.clear()
    component._LAID.clear()
    from pnp.draw.icons import using

    with using(game.icons, game.language):
        resumed = component.laid_booklet(game, "letter", "en")[0]
    memo.clear()
    component._FITS.clear()
    component._LAID.clear()
    monkeypatch.setattr(D, "resume_point", lambda after, args: None)
    with using(game.icons, game.language):
        whole = component.laid_booklet(game, "letter", "en")[0]
    assert resumed == whole


def _files(out) -> dict:
    return {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.is_file()}


def test_a_warm_rebuild_after_a_card_edit_is_the_fresh_builds_bytes(tmp_path):
    """The rebuild pnp watch and the studio make (one process, its memos and the build cache warm: the
    chapters rendered once, the layout passes resumed) after a card renamed, against a fresh
    ``pnp build --no-cache`` in a new process."""
    game = tmp_path / "shadow_throne"
    shutil.copytree(DATA_DIR / "shadow_throne", game)
    out, fresh = tmp_path / "warm", tmp_path / "fresh"
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1700000000", "PYTHONPATH": str(PROJECT_ROOT)}
    os.environ["SOURCE_DATE_EPOCH"] = "1700000000"
    try:
        memo.clear()
        build_kit(str(game), out, BuildOptions(), jobs=1, cache=BuildCache(out / FOLDER))
        cards = game / "cards.yaml"
        cards.write_text(cards.read_text(encoding="utf-8").replace("name: Dutiful Peasant", "name: Peasant 7", 1),
                         encoding="utf-8")
        memo.clear()                    # as pnp watch does before each rebuild
        build_kit(str(game), out, BuildOptions(), jobs=1, cache=BuildCache(out / FOLDER))
    finally:
        del os.environ["SOURCE_DATE_EPOCH"]
    subprocess.run([sys.executable, "-m", "pnp", "build", str(game), "--out", str(fresh), "--no-cache",
                    "--jobs", "1"], check=True, capture_output=True, env=env, cwd=PROJECT_ROOT)
    warm, clean = _files(out), _files(fresh)
    assert sorted(warm) == sorted(clean)
    assert [name for name in warm if warm[name] != clean[name]] == []
