"""Templates and layout expressions run within limits (issue 23): each case of the audit that hung or
filled the memory is refused within its bound, with its message, at the template's file and line (or
the layout's region), on any thread; and nothing a template prints names the builder's machine."""

import os
import shutil
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp import DATA_DIR
from pnp.text import templating
from pnp.commands.cli import main
from pnp.loading.gamedata import load_game

#: (template, the message it stops with). Each ran for minutes or ended in a MemoryError before.
HOSTILE = [
    ("{{ 'x' * 10**9 }}", "not allowed in a template: repeating to 1000000000 items is too long"),
    ("{{ ('x' * 100000).replace('x', 'y' * 100000) }}",
     "replace() would make a text of more than 1,000,000 characters"),
    ("{{ ('x' * 100000)|replace('', 'y' * 100) }}", "replace() would make a text of more than 1,000,000 characters"),
    ("{{ range(100000)|join('y' * 100000) }}", "join() would make a text of more than 1,000,000 characters"),
    ("{{ ('y' * 100000).join(range(100000)|map('string')) }}",
     "join() would make a text of more than 1,000,000 characters"),
    ("{{ [[0] * 100000] * 100000 }}", "a list of more than 100,000 items"),
    ("{% set ns = namespace(s='x') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
     "a text of more than 1,000,000 characters"),
    ("{% set ns = namespace(s='x') %}{% for i in range(40) %}{% set ns.s = ns.s + ns.s %}{% endfor %}",
     "a text of more than 1,000,000 characters"),
    ("{% set ns = namespace(l=[1]) %}{% for i in range(60) %}{% set ns.l = [ns.l, ns.l] %}{% endfor %}",
     "a list of more than 100,000 items"),
    ("{% set ns = namespace(n=3) %}{% for i in range(40) %}{% set ns.n = ns.n * ns.n %}{% endfor %}",
     "a number of more than 4096 bits"),
    ("{% set l = [0] * 90000 %}{{ (l, l, l, l, l, l, l, l, l, l, l, l)|string }}", "a list of more than 100,000 items"),
    ("{% set l = range(99999)|list %}{{ l|select('in', l)|list|length }}",
     "this template took more than 5,000,000 steps"),
    ("{{ range(99999)|batch(1)|sum(start=[])|length }} {{ range(99999)|batch(1)|sum(start=[1, 2]) }}",
     "sum() would make a list of more than 100,000 items"),
    ("{% for i in range(99999) %}{% for j in range(99999) %}{% endfor %}{% endfor %}",
     "this template took more than 5,000,000 steps"),
    ("{% for i in range(100000) %}0123456789abcdefghij{% endfor %}", "this template printed more than 1 MB"),
    ("{% for i in range(10000) %}{{ 'x' * 1000 }}{% endfor %}", "this template printed more than 1 MB"),
    ("{% macro m() %}{% for i in range(100000) %}0123456789abcdefghij{% endfor %}{% endmacro %}{{ m()|length }}",
     "this template printed more than 1 MB"),
    ("{{ 'abc'.translate({97: 'x' * 100000}) }}", "not allowed in a template: a template may not call translate()"),
    ("{{ '{}'.format(['x' * 10000] * 200) }}", "a text of more than 1,000,000 characters"),
    ("{{ '{a}'.format_map({'a': ['x' * 10000] * 200}) }}", "a text of more than 1,000,000 characters"),
    ("{{ '%s' % (['x' * 10000] * 200,) }}", "a text of more than 1,000,000 characters"),
    # texts made by filters and methods that grow them (issue 33): bounded before they are made, and the
    # texts of one render bounded in all (what a filter mapped over a long list makes)
    ("{{ ('x\\n' * 50000)|indent(99999) }}", "indent() would make a text of more than 1,000,000 characters"),
    ("{{ ('x\\n' * 50000)|indent('y' * 99999, first=true, blank=true) }}",
     "indent() would make a text of more than 1,000,000 characters"),
    ("{{ ('x ' * 50000)|wordwrap(1, wrapstring='y' * 99999) }}",
     "wordwrap() would make a text of more than 1,000,000 characters"),
    ("{{ ('\\t' * 99999).expandtabs(99999) }}", "expandtabs() would make a text of more than 1,000,000 characters"),
    ("{{ (('x' * 99999)|list)|map('center', 99999)|join }}", "this template made more than 50 MB of text"),
    ("{{ ([('&' * 99999)] * 100000)|map('forceescape')|list|length }}", "this template made more than 50 MB of text"),
    ("{% for i in range(100000) %}{% set x = 'y' * 99999 %}{% endfor %}", "this template made more than 50 MB"),
    ("{{ ('x' * 99999)|truncate(5, end='y' * 99999) }}", "AssertionError: expected length >= 99999, got 5"),
    # no machine paths and no Python object reprs
    ("{{ game.root }}", "printing a path (where a file lies on this computer)"),
    ("{{ game.icons }}", "printing an IconSet object"),
    ("{{ game.decks[0].cards_file }} {{ game.sources|dictsort|first }}", "printing a path (where a file lies on this computer)"),
    ("{{ [cycler(1, 2)]|groupby('x') }}", "printing a Cycler object"),
    ("{{ game.decks[0] ~ '' }}", "printing a Deck object"),
    ("{{ game|pprint }}", "printing a Game object"),
    ("{{ '%s' % game.root }}", "printing a path (where a file lies on this computer)"),
    ("{{ namespace(a=1) }}", "printing a Namespace object"),
]


@pytest.fixture(scope="module")
def game():
    return load_game("shadow_throne")


@pytest.mark.parametrize("source, message", HOSTILE)
def test_hostile_templates_stop_quickly_with_their_message(tmp_path, game, source, message):
    env = templating.environment((tmp_path,))
    started = time.process_time()        # the work done, not the wall clock (a loaded machine stretches that)
    with pytest.raises(templating.TEMPLATE_ERRORS) as info:
        templating.render(env.from_string(source), game=game)
    assert time.process_time() - started < 5
    assert message in templating.template_problem(info.value).message


def test_what_templates_do_every_day_still_works(tmp_path, game):
    env = templating.environment((tmp_path,))
    source = ("{{ [1, 2, 3]|sum }} {{ ['a', 'b']|join(', ') }} {{ 'a' ~ 1 }} {{ [[1], [2]]|sum(start=[]) }} "
              "{{ game.title }} {{ game.root.name }} {{ {'k': [1, None, true]} }} {{ 'x' * 3 }} {{ (1, 2) + (3,) }} "
              "{% for c in game.cards[:2] %}{{ loop.index }}{{ c.name }}{% endfor %} {{ 'a-b'.replace('-', '+') }}")
    out = templating.render(env.from_string(source), game=game)
    first, second = game.cards[0].name, game.cards[1].name
    assert out == (f"6 a, b a1 [1, 2] Shadow Throne shadow_throne {{'k': [1, None, True]}} xxx (1, 2, 3) "
                   f"1{first}2{second} a+b")


def test_a_looping_template_stops_on_any_thread(tmp_path, monkeypatch):
    """The clock is read between steps, not only by a signal (which reaches the main thread only): the
    studio renders off the main thread."""
    monkeypatch.setattr(templating, "RENDER_SECONDS", 0.5)
    monkeypatch.setattr(templating, "MAX_STEPS", 10**12)
    template = templating.environment((tmp_path,)).from_string(
        "{% for i in range(99999) %}{% for j in range(99999) %}{{ '' }}{% endfor %}{% endfor %}")
    outcome = {}

    def work():
        started = time.perf_counter()
        try:
            templating.render(template)
        except templating.TemplateLimit as exc:
            outcome["error"] = exc.message
        outcome["seconds"] = time.perf_counter() - started

    thread = threading.Thread(target=work)
    thread.start()
    thread.join(10)
    assert not thread.is_alive()
    assert outcome["error"] == "the template ran for more than 0.5 s (a loop without end?)"
    assert outcome["seconds"] < 2


def test_limits_are_per_render_and_nest(tmp_path):
    template = templating.environment((tmp_path,)).from_string(
        "{% for i in range(100000) %}0123456789{% endfor %}")        # 1,000,000 characters: just allowed
    for _ in range(3):
        assert len(templating.render(template)) == 1_000_000
    with templating.limits() as outer:
        with templating.limits() as inner:
            assert inner is outer
        templating.render(template)
        with pytest.raises(templating.TemplateLimit, match="printed more than 1 MB"):
            templating.render(template)         # inside one render's limits, the two count together


def test_product_and_region_repeats_are_bounded():
    assert templating.product([1, 2], "ab") == [(1, "a"), (1, "b"), (2, "a"), (2, "b")]
    with pytest.raises(templating.TemplateLimit, match=r"product\(\) of more than 100,000 combinations"):
        templating.product(range(1000), range(1000))
    assert templating.loop_items(range(3)) == [0, 1, 2]
    with pytest.raises(templating.TemplateLimit, match="a region may repeat at most 10,000 times"):
        templating.loop_items(range(10**9))


# ----------------------------------------------------------------------------- in a game folder

def run(*args):
    return CliRunner().invoke(main, list(args))


def cpu_seconds() -> float:
    """CPU time of this process (every thread) and of the child processes it waited for: the work done,
    which a loaded machine does not stretch as it stretches the wall clock."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def line_of(path, needle):
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


@pytest.mark.parametrize("body, message", [
    ("{% for i in range(100000) %}0123456789abcdefghij{% endfor %}", "this template printed more than 1 MB"),
    ("{{ ('x\\n' * 50000)|indent(99999) }}", "indent() would make a text of more than 1,000,000 characters"),
    ("{{ range(99999)|map('string')|map('center', 99999)|list|length }}",
     "this template made more than 50 MB of text (a filter over a long list, or texts made in a loop?)"),
    ("Made in {{ game.root }}.", "not allowed in a template: printing a path (where a file lies on this computer); "
                                 "a template prints text, numbers and lists of them"),
    ("{{ game.icons }}", "not allowed in a template: printing an IconSet object; a template prints text, numbers "
                         "and lists of them"),
])
def test_a_chapter_past_a_limit_is_a_validation_error_at_its_line(starfall, body, message):
    """In a small game's chapter (tests/games/starfall: the limits are pnp's, not a game's)."""
    chapter = starfall / "templates" / "rulebook" / "en" / "rules.md.j2"
    chapter.write_text("# Rules\n\nText.\n" + body + "\n")
    started = cpu_seconds()
    result = run("validate", str(starfall))
    assert cpu_seconds() - started < 30
    assert result.exit_code == 2, result.output
    assert f"{chapter}:4: chapter 'rules': {message}" in result.output
    assert "Traceback" not in result.output


@pytest.fixture
def valeria(tmp_path) -> Path:
    dest = tmp_path / "valeria"
    shutil.copytree(DATA_DIR / "shadow_kingdoms_of_valeria", dest)
    return dest


def test_a_board_region_over_a_product_of_ranges_is_refused(valeria):
    layout = valeria / "templates" / "layouts" / "campaign_map.yaml"
    text = layout.read_text()
    old = "for: \"piece.sides[0 if side == 'front' else 1].down | sum(start=[])\", at: [25, 83],"
    assert old in text
    layout.write_text(text.replace(old, 'for: "product(range(1000), range(1000))", at: [25, 83],', 1))
    started = cpu_seconds()
    result = run("validate", str(valeria))
    assert cpu_seconds() - started < 30
    assert result.exit_code == 2, result.output
    assert (f"{layout}:{line_of(layout, 'product(range(1000), range(1000))')}: layout 'campaign_map', region "
            f"'down': product() of more than 100,000 combinations (board 'campaign_maps')") in result.output


def test_a_card_region_making_a_huge_text_is_refused(valeria):
    layout = valeria / "templates" / "layouts" / "valeria.yaml"
    text = layout.read_text()
    old = "text: \"'victory points, left circle first'\""
    assert old in text
    layout.write_text(text.replace(old, "text: \"range(100000)|join('y' * 100000)\"", 1))
    started = cpu_seconds()
    result = run("validate", str(valeria))
    assert cpu_seconds() - started < 30
    assert result.exit_code == 2, result.output
    # once for the region, at its line, for the 15 award cards it is drawn on
    assert (f"{layout}:{line_of(layout, 'award-note')}: layout 'valeria', region 'award-note': text: join() would "
            f"make a text of more than 1,000,000 characters (15 cards, e.g. card ") in result.output


# ----------------------------------------------------------------------------- no machine paths in a kit

def machine_text(folder: Path) -> bytes:
    """Every byte pnp wrote under ``folder`` that a reader could see: the files as written, and every
    PDF's streams decoded (text on a page is compressed) and its document information."""
    import pikepdf

    out = []
    for path in sorted(folder.rglob("*")):
        if not path.is_file():
            continue
        data = path.read_bytes()
        out.append(data)
        if path.suffix == ".pdf":
            with pikepdf.open(path) as pdf:
                out.append(repr(pdf.docinfo).encode())
                for obj in pdf.objects:
                    if isinstance(obj, pikepdf.Stream):
                        try:
                            out.append(obj.read_bytes())
                        except pikepdf.PdfError:
                            out.append(obj.read_raw_bytes())
    return b"\n".join(out)


@pytest.mark.parametrize("game", ["shadow_throne", "behind_the_throne", "shadow_queen", "shadow_kingdoms_of_valeria"])
def test_no_bundled_kit_names_the_folder_it_was_built_in(tmp_path, game):
    """The game is built from a folder with a distinctive name; nothing written mentions it (nor the
    output folder)."""
    place = tmp_path / "builder-home-7f3a9c"
    shutil.copytree(DATA_DIR / game, place / game)
    out = place / "kit-out-5e1d"
    result = run("build", str(place / game), "--out", str(out))
    assert result.exit_code == 0, result.output
    seen = machine_text(out)
    for needle in ("builder-home-7f3a9c", "kit-out-5e1d"):
        assert needle.encode() not in seen, needle


# ----------------------------------------------------------------------------- template folders really inside

@pytest.mark.parametrize("linked", ["templates", "templates/rulebook", "templates/rulebook/en"])
def test_a_template_folder_that_is_a_link_out_of_the_game_is_refused(starfall, tmp_path, linked):
    """The audit's case: a chapter found in an outside folder was printed into rulebook.pdf (in a small
    game, tests/games/starfall: the check is pnp's, not a game's)."""
    outside = tmp_path / "elsewhere"
    shutil.copytree(starfall / linked, outside)
    chapter = outside.joinpath(*Path("templates/rulebook/en").relative_to(linked).parts) / "rules.md.j2"
    chapter.write_text("# Rules\n\nSECRET WORDS FROM OUTSIDE\n")
    shutil.rmtree(starfall / linked)
    (starfall / linked).symlink_to(outside, target_is_directory=True)
    for command in ("validate", "build"):
        args = [command, str(starfall)] + (["--out", str(tmp_path / "out")] if command == "build" else [])
        result = run(*args)
        assert result.exit_code == 2, result.output
        assert "is a link that leads outside the game folder" in result.output
    assert not (tmp_path / "out").exists()


def test_a_template_folder_linked_inside_the_game_is_fine(starfall):
    en = starfall / "templates" / "rulebook" / "en"
    shutil.move(en, starfall / "chapters-en")
    en.symlink_to(starfall / "chapters-en", target_is_directory=True)
    result = run("validate", str(starfall))
    assert result.exit_code == 0, result.output
