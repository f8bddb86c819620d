"""The booklet is laid out once (pnp.draw.document.lay_out) and drawn from that layout with its padding and the
contents' page numbers (draw_laid_out): byte for byte what platypus's own passes make, which lay the
booklet out to learn its length and then again, drawn, with the contents seeded."""

import shutil
from pathlib import Path

import pytest

import pnp.draw.document as R
from pnp.rulebook.chapters import chapter_markup
from pnp.rulebook import component
from pnp.draw.icons import using
from pnp.rulebook.figures import Figures
from pnp.layout.imposition import padded
from pnp.loading.gamedata import load_game
from pnp.loading.i18n import strings
from pnp.units import half_sheet

GAMES = Path(__file__).parent / "games"
RENDER = R.render_booklet


def two_passes(game, paper):
    """The booklet as pnp made it before it had one layout pass: a measuring pass, then platypus's
    passes seeded with the measured contents, of the chapters the booklet sets (with the spare and fill
    blocks it takes: pnp.rulebook.component.fitted)."""
    cfg, figures, chapters, words, size = _fitted(game, paper)
    lang = game.language
    _, pages, entries = RENDER(game, cfg, chapters, size, lang, 0, words, measure=True, figures=figures)
    target = cfg.get("pages") or padded(pages)
    notes = target - pages
    headed = notes if cfg.get("notes") else 0
    guess = R.contents_entries([n for _, m in R.with_notes_point(chapters) for n in R.parse(m)], headed)
    seed = R.shifted_entries(entries, guess, notes, headed)
    return RENDER(game, cfg, chapters, size, lang, notes, words, seed, figures=figures)


def _fitted(game, paper):
    """(rulebook.yaml, figures, the chapters the booklet sets, printed words, page size)."""
    cfg = component.load_config(game)
    lang = game.language
    figures = Figures(game, lang)
    seen = component.context(game, cfg, lang, figures)
    chapters = chapter_markup(game, cfg, seen, lang)
    words, size = strings(game, lang), half_sheet(paper)
    with using(game.icons, game.language):
        _, _, chapters = component.fitted(game, cfg, chapters, component.fill_markup(game, cfg, seen, lang),
                                          figures, size, lang, words, paper)
    return cfg, figures, chapters, words, size


def one_pass(game, paper):
    with using(game.icons, game.language):
        return component.booklet(game, paper, game.language)


def _variant(tmp_path, name, pages=None, notes=None, chapters=None, rules=None) -> Path:
    folder = tmp_path / name
    shutil.copytree(GAMES / "starfall", folder)
    cfg = folder / "rulebook.yaml"
    lines = [f"pages: {pages}" if pages else "", f"notes: {str(notes).lower()}" if notes is not None else "",
             f"chapters: [{', '.join(chapters or ['cover', 'contents', 'rules'])}]"]
    cfg.write_text("\n".join(line for line in lines if line) + "\n")
    if rules is not None:
        path = folder / "templates" / "rulebook" / "en" / "rules.md.j2"
        path.write_text(rules(path.read_text()))
    return folder


def _no_pagebreak(text):
    return text.replace("!pagebreak\n", "", 1)


# (name, pages, notes, chapters, rules): where the padding point falls and what pads it
VARIANTS = [
    # the padding point after a last chapter that is not the back cover (this one starts with a page
    # break): ruled, blank, and more of them
    ("ruled", 4, True, None, None),
    ("blank", 4, False, None, None),
    ("blank8", 8, False, None, None),
    ("ruled8", 8, True, None, None),
    # a booklet of the cover and one chapter
    ("after_cover", 4, True, ["cover", "rules"], _no_pagebreak),
    ("after_cover_blank", 8, False, ["cover", "rules"], _no_pagebreak),
    # the padding point right after the cover's page break (the break there is dropped unseen)
    ("notes_after_cover", 8, False, ["cover", "rules"], lambda t: "!notes\n" + _no_pagebreak(t)),
    # !notes written at the chapter's end (padding at the booklet's end) and in its middle
    ("at_end", 8, False, ["cover", "contents", "rules"], lambda t: t + "\n!notes\n"),
    ("at_end_ruled", 8, True, ["cover", "contents", "rules"], lambda t: t + "\n!notes\n"),
    ("middle", 8, False, ["cover", "contents", "rules"], lambda t: t.replace("## The decks", "!notes\n\n## The decks")),
    # no page count: the smallest booklet that holds the chapters
    ("smallest", None, None, None, _no_pagebreak),
]


@pytest.mark.parametrize("name,pages,notes,chapters,rules", VARIANTS, ids=[v[0] for v in VARIANTS])
def test_one_layout_pass_makes_the_same_booklet(tmp_path, monkeypatch, name, pages, notes, chapters, rules):
    folder = _variant(tmp_path, name, pages, notes, chapters, rules)
    for paper in ("letter", "a4"):
        game = load_game(folder)
        with using(game.icons, game.language):
            expected = two_passes(game, paper)
        # the booklet never falls back to platypus's passes here
        monkeypatch.setattr(R, "render_booklet", lambda *a, **k: pytest.fail("laid out again"))
        pdf, count, content = one_pass(load_game(folder), paper)
        monkeypatch.setattr(R, "render_booklet", RENDER)
        assert (pdf, count) == expected[:2], (name, paper)
        assert count == (pages or count) and content <= count


def test_the_layout_is_passed_once(monkeypatch):
    """Shadow Throne's booklet: platypus lays it out on the measuring canvas once for each booklet pnp
    weighs (the chapters alone, then each with a spare or fill block tried: pnp.rulebook.component.fitted)
    and draws it once; the layout passes draw nothing."""
    game = load_game("shadow_throne")
    builds, layouts = [], []
    real, real_lay_out = R.RulebookDoc.build, component.lay_out

    def counted(self, story, *args, **kwargs):
        builds.append(kwargs.get("canvasmaker", "drawn"))
        return real(self, story, *args, **kwargs)

    monkeypatch.setattr(R.RulebookDoc, "build", counted)
    monkeypatch.setattr(component, "lay_out", lambda *a, **k: layouts.append(1) or real_lay_out(*a, **k))
    monkeypatch.setattr(R, "render_booklet", lambda *a, **k: pytest.fail("laid out again"))
    _, pages, _ = one_pass(game, "letter")
    assert pages == 16
    assert builds == [R.MeasuringCanvas] * len(layouts) + ["drawn"]
    assert 2 < len(layouts) <= 30       # 24 today: the chapters alone, the tokens' !spare block, fill blocks tried


def test_a_drawing_that_cannot_follow_its_layout_falls_back_to_platypus(tmp_path, monkeypatch):
    """When the drawn pages would not follow the layout (here: the page after the padding laid out on
    another page template than the padding leads to), the booklet is made by platypus's passes, the
    same bytes as ever."""
    # the padding in the middle of the rules, so that a page follows it
    folder = _variant(tmp_path, "fallback", 8, False,
                      rules=lambda t: t.replace("## The decks", "!notes\n\n## The decks"))
    game = load_game(folder)
    with using(game.icons, game.language):
        expected = two_passes(game, "letter")
        cfg, figures, chapters, _, _ = _fitted(game, "letter")
        laid = R.lay_out(game, cfg, chapters, half_sheet("letter"), game.language, strings(game, game.language),
                         figures)
        assert laid.notes_at is not None
        laid.pages[laid.notes_at].template = "cover"
        fell_back = []
        monkeypatch.setattr(R, "render_booklet", lambda *a, **k: fell_back.append(1) or RENDER(*a, **k))
        pdf, count, _ = R.draw_laid_out(laid, 8 - len(laid.pages))
    assert fell_back == [1]
    assert (pdf, count) == expected[:2]


@pytest.mark.parametrize("cache, built", [
    ([], ["draw_laid_out"]),            # the layout validate made, found by its key in the build cache
    # without the cache folder, the layouts the validate before made in this process are still found by
    # their key (kept in memory, keyed by content): the build's check lays nothing out again either
    (["--no-cache"], ["draw_laid_out"]),
])
def test_validate_lays_the_booklet_out_without_drawing_it_and_a_build_draws_that_layout(tmp_path, monkeypatch,
                                                                                          cache, built):
    """The rulebook's check needs the booklet's length and its emptiest pages, which laying it out gives
    (:func:`component.fitted`): ``pnp validate`` draws no page (drawing was a third of the check's time),
    on Letter and A4; ``pnp build`` draws it once, from a layout of the same key when one was made in this
    process (before: validate laid out and drew on each paper; a build without the cache laid out and drew
    on each paper in its check and again in its build: three drawings, now one). The same warnings and the same kit as ever: the tests of the
    build cache and of reproducible kits compare them."""
    from click.testing import CliRunner

    from pnp.commands.cli import main

    folder = tmp_path / "starfall"
    shutil.copytree(GAMES / "starfall", folder)
    monkeypatch.setattr(component, "_LAID", {})         # no layout an earlier test left in this process
    calls = []
    for name in ("fitted", "draw_laid_out"):
        real = getattr(component, name)
        monkeypatch.setattr(component, name, lambda *a, _n=name, _r=real, **k: calls.append(_n) or _r(*a, **k))
    result = CliRunner().invoke(main, ["validate", str(folder), *cache])
    assert result.exit_code == 0, result.output
    assert calls == ["fitted", "fitted"]                # Letter and A4, laid out, not drawn
    calls.clear()
    result = CliRunner().invoke(main, ["build", str(folder), "--out", str(tmp_path / "kit"), "--jobs", "1", *cache])
    assert result.exit_code == 0, result.output
    assert calls == built
