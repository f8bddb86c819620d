"""A game folder is untrusted input: each attack of issue 16's audit, reproduced, and shown to fail.

1. templates cannot run code or be fetched from outside pnp's template folders;
2. nothing is written outside --out, whatever the ids;
3. data strings never act as markup (reportlab's or pnp's);
4. data paths stay inside the game folder, links included, and messages quote short excerpts;
5. translation strings only fill their own placeholders;
6. YAML alias bombs, deep nesting and huge files are refused quickly.
"""

import io
import os
import shutil
import time
from dataclasses import replace

import jinja2
import pypdf
import pytest
from click.testing import CliRunner

from pnp import TEMPLATES_DIR
from pnp.text import templating
from pnp.commands.cli import main
from pnp.rulebook.component import booklet
from pnp.draw.text import parse as inline
from pnp.errors import DataError, Problems, UserError
from pnp.loading.gamedata import load_game
from pnp.text.markup import Safe, escape, fill, parse, plain_text
from pnp.build.output import write_atomically
from pnp.loading.paths import OutsidePath, excerpt, resolve_in
from pnp.loading.yamlsrc import parse_yaml


def run(*args):
    return CliRunner().invoke(main, list(args))


def edit(path, old, new):
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def line_of(path, needle):
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


# ----------------------------------------------------------------------------- 1. templates

PAYLOADS = [
    "{{ cycler.__init__.__globals__.os.system('touch MARKER') }}",
    "{{ joiner.__init__.__globals__['os'].system('touch MARKER') }}",
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "{% for c in [].__class__.__base__.__subclasses__() %}{{ c }}{% endfor %}",
    "{{ game.__class__.__init__.__globals__ }}",
    "{{ '{0.__class__.__mro__}'.format(game) }}",
    "{{ game.root.joinpath('MARKER').write_text('x') }}",
    "{{ lipsum.__globals__['os'].system('touch MARKER') }}",
    "{% set x = game.cards.append(1) %}",
]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_template_cannot_run_code_or_touch_files(tmp_path, payload):
    game = load_game("shadow_throne")
    marker = tmp_path / "MARKER"
    env = templating.environment((tmp_path,))
    template = env.from_string(payload.replace("MARKER", str(marker)))
    with pytest.raises(templating.TEMPLATE_ERRORS):
        templating.render(template, game=game)
    assert not marker.exists()


def test_malicious_chapter_is_reported_by_validate_and_runs_nothing(game_copy, tmp_path):
    """The audit's attack, in the game folder's own chapters: validate reports the chapter's file and
    line instead of running it."""
    marker = tmp_path / "pwned"
    chapter = game_copy / "templates" / "rulebook" / "en" / "overview.md.j2"
    chapter.write_text("# Overview\n\nText.\n{{ cycler.__init__.__globals__.os.system('touch %s') }}\n" % marker)
    result = run("validate", str(game_copy))
    assert result.exit_code == 2, result.output
    assert f"{chapter}:4: chapter 'overview': not allowed in a template: access to attribute '__init__'" \
        in result.output
    assert not marker.exists()
    assert "Traceback" not in result.output


def test_a_game_template_linking_out_of_the_folder_is_refused(game_copy, tmp_path):
    """Templates come from the game folder's templates/ (no setting names another folder); a link in it
    that leads outside is not read."""
    secret = tmp_path / "secret.md.j2"
    secret.write_text("# Secret\n\nSECRET WORDS\n")
    chapter = game_copy / "templates" / "rulebook" / "en" / "overview.md.j2"
    chapter.unlink()
    chapter.symlink_to(secret)
    result = run("validate", str(game_copy))
    assert result.exit_code == 2
    assert "chapter 'overview'" in result.output and "link that leads outside the template folder" in result.output


def test_the_templates_setting_is_gone(game_copy):
    path = game_copy / "game.yaml"
    edit(path, "language: en\n", "language: en\ntemplates: ../../tmp/x\n")
    result = run("validate", str(game_copy))
    assert result.exit_code == 2
    assert f"{path}:{line_of(path, 'templates:')}: templates: the setting is gone: a game's templates live in its " \
           f"own folder's templates/" in result.output


@pytest.mark.parametrize("chapter", ["../../../etc/passwd", "/etc/passwd", "x/y"])
def test_chapter_names_are_plain_names(game_copy, chapter):
    path = game_copy / "rulebook.yaml"
    edit(path, "chapters: [cover,", f"chapters: [{chapter!r}, cover,")
    result = run("validate", str(game_copy))
    assert result.exit_code == 2
    assert f"{path}:{line_of(path, 'chapters:')}: 1st chapter: expected an id" in result.output


def test_template_loader_refuses_climbing_and_links_out(tmp_path):
    inside, outside = tmp_path / "in", tmp_path / "out"
    inside.mkdir()
    outside.mkdir()
    (outside / "secret.j2").write_text("SECRET")
    (inside / "link.j2").symlink_to(outside / "secret.j2")
    (inside / "ok.j2").write_text("fine")
    env = templating.environment((inside,))
    assert env.get_template("ok.j2").render() == "fine"
    for name in ("../out/secret.j2", str(outside / "secret.j2"), "link.j2"):
        with pytest.raises(jinja2.TemplateNotFound):
            env.get_template(name)


def test_templates_cannot_run_forever_or_eat_memory(tmp_path, monkeypatch):
    monkeypatch.setattr(templating, "RENDER_SECONDS", 0.5)
    env = templating.environment((tmp_path,))
    started = time.perf_counter()
    with pytest.raises(templating.TemplateTimeout):
        templating.render(env.from_string("{% for i in range(99999) %}{% for j in range(99999) %}"
                                          "{% endfor %}{% endfor %}"))
    assert time.perf_counter() - started < 5
    for source in ("{{ 'x' * 10**9 }}", "{{ (10 ** 9) ** (10 ** 9) }}", "{{ 'x'|center(10**9) }}", "{{ '%9999999d' % 1 }}",
                   "{{ '{:>999999999}'.format(1) }}", "{{ range(10**9)|list }}"):
        with pytest.raises(templating.TEMPLATE_ERRORS):
            templating.render(env.from_string(source))


# ----------------------------------------------------------------------------- 2. writes outside --out

@pytest.mark.parametrize("card_id", ["../../../escaped", "/tmp/escaped", "a/b", ".hidden", "x" * 65, "con tab"])
def test_card_ids_that_cannot_be_file_names_are_refused_at_load(game_copy, card_id):
    path = game_copy / "cards.yaml"
    edit(path, "  - id: outlaw\n", f"  - id: {card_id!r}\n")
    problems = Problems()
    load_game(game_copy, problems, strict=False)
    line = line_of(path, repr(card_id))
    assert any(str(p).startswith(f"{path}:{line}: card ") and "id: expected an id" in str(p) for p in problems), \
        [str(p) for p in problems]


def test_export_writes_nothing_outside_out(game_copy, tmp_path):
    edit(game_copy / "cards.yaml", "  - id: outlaw\n", "  - id: '../../../escaped'\n")
    out = tmp_path / "a" / "b" / "c"
    result = run("export", "cards", str(game_copy), "--dpi", "30", "--out", str(out))
    assert result.exit_code == 2
    assert not any(tmp_path.rglob("escaped*"))


# (two plain folder levels are allowed: a deck's folder and a print service's fronts/, see test_presets.py)
@pytest.mark.parametrize("name", ["../x.png", "/tmp/x.png", "a/b/c/d.png", "a/../x.png", ".hidden/x.png", "a/..",
                                  "..", "", ".pnp-new", "a/.pnp-new"])
def test_every_output_name_stays_inside_out(tmp_path, name):
    out = tmp_path / "out"
    with pytest.raises(UserError):
        write_atomically(out, {"good.png": b"1", name: b"2"})
    assert list(tmp_path.iterdir()) == []          # checked before anything is created


def test_one_plain_folder_per_deck_is_allowed(tmp_path):
    out = tmp_path / "out"
    written = write_atomically(out, {"good.png": b"1", "plans/back.png": b"2"}, record=".pnp-test.json")
    assert written == [out / "good.png", out / "plans" / "back.png"]
    assert (out / "plans" / "back.png").read_bytes() == b"2"
    write_atomically(out, {"good.png": b"3"}, record=".pnp-test.json")     # the deck's file is stale now
    assert not (out / "plans" / "back.png").exists() and (out / "good.png").read_bytes() == b"3"


# ----------------------------------------------------------------------------- 3. markup injection

def _contents_text(pdf: bytes) -> str:
    return pypdf.PdfReader(io.BytesIO(pdf)).pages[1].extract_text()


@pytest.mark.parametrize("name", ["<font size=40 color=red>Empire</font>", "Empire <b", "Empire & <i>Co</i>"])
def test_faction_names_are_not_reportlab_markup_in_the_contents(name):
    game = load_game("shadow_throne")
    factions = tuple(replace(f, name=name) if f.id == "empire" else f for f in game.factions)
    pdf, _, _ = booklet(replace(game, factions=factions), "letter", "en")
    contents = " ".join(_contents_text(pdf).split())
    assert name in contents


@pytest.mark.parametrize("text", ["**Bold** *it*", "[crown] [pips:abc] [nosuchicon]", "a \\ b | c {-}", "# x",
                                  "- y", "1. z", "> q", "!toc"])
def test_data_strings_are_not_pnp_markup(text):
    markup = escape(text)
    atoms = [a for word in inline(markup) if word for a in word]
    assert all(a.kind == "text" and not a.bold and not a.italic for a in atoms)
    assert plain_text(markup) == " ".join(text.split())
    blocks = parse(f"{markup}\n")
    assert len(blocks) == 1 and type(blocks[0]).__name__ == "Paragraph"


def test_card_name_with_markup_prints_as_written_on_the_face():
    from pnp.components.cards import face_content

    game = load_game("shadow_throne")
    card = replace(game.card("outlaw"), name="**Out** [crown] law", flavour="*in italics* <b>x</b> \\[crown]")
    content = face_content(replace(game, cards=game.cards), card)
    assert plain_text(content.name) == "**Out** [crown] law"
    # flavour is card markup: pnp's own small language, never reportlab's tags
    atoms = [a for word in inline(content.flavour) if word for a in word]
    assert [a.text for a in atoms if a.italic] == ["in", "italics"]
    assert plain_text(content.flavour) == "in italics <b>x</b> [crown]"
    assert all(a.kind == "text" for a in atoms)
    assert "**Convert**" not in content.ability       # pnp's own markup in the ability stays markup


def test_template_output_escapes_data_but_keeps_template_markup(tmp_path):
    env = templating.environment((tmp_path,))
    source = ("{% macro m(x) %}[pips:2] {{ x }}{% endmacro %}{% set how = {'a': '*Cards*'} %}"
              "**{{ name }}** {{ m(name) }} {{ how.a }} {{ words.w }} {{ items|join(',') }}")
    out = templating.render(env.from_string(source), name="[crown]*", words={"w": Safe("**W**")},
                            items=["a*", Safe("*b*")])
    assert out == "**\\[crown\\]\\*** [pips:2] \\[crown\\]\\* *Cards* **W** a\\*,*b*"


# ----------------------------------------------------------------------------- 4. reads outside the folder

@pytest.mark.parametrize("scenario", ["/etc/passwd", "../secret.yaml", "examples/../../secret.yaml"])
def test_rulebook_example_scenarios_stay_in_the_game_folder(game_copy, scenario):
    (game_copy.parent / "secret.yaml").write_text("password: hunter2\n")
    path = game_copy / "rulebook.yaml"
    edit(path, "scenario: examples/killing.yaml", f"scenario: {scenario}")
    result = run("validate", str(game_copy))
    assert result.exit_code == 2
    line = line_of(path, scenario)
    assert f"{path}:{line}: example 'killing': scenario: " in result.output
    assert "hunter2" not in result.output


def test_scenario_link_leaving_the_folder_is_refused(game_copy):
    secret = game_copy.parent / "outside.yaml"
    secret.write_text("players: [{name: 'hunter2'}]\n")
    (game_copy / "examples" / "killing.yaml").unlink()
    (game_copy / "examples" / "killing.yaml").symlink_to(secret)
    result = run("validate", str(game_copy))
    assert result.exit_code == 2
    assert "scenario: 'examples/killing.yaml' is a link that leads outside the game folder" in result.output
    assert "hunter2" not in result.output


@pytest.mark.parametrize("name", ["box.yaml", "tokens.yaml", "cards.yaml", "rulebook.yaml"])
def test_data_file_linked_outside_the_folder_is_not_read(game_copy, name):
    secret = game_copy.parent / "passwd"
    secret.write_text("root:x:0:0:hunter2:/root:/bin/bash\n" * 50)
    (game_copy / name).unlink()
    (game_copy / name).symlink_to(secret)
    result = run("validate", str(game_copy))
    assert result.exit_code == 2
    assert f"{game_copy / name}: is a link that leads outside the game folder" in result.output
    assert "hunter2" not in result.output


def test_links_inside_the_folder_are_fine(game_copy):
    (game_copy / "box-real.yaml").write_text((game_copy / "box.yaml").read_text())
    (game_copy / "box.yaml").unlink()
    (game_copy / "box.yaml").symlink_to(game_copy / "box-real.yaml")
    assert run("validate", str(game_copy)).exit_code == 0


def test_quoted_values_are_cut_to_an_excerpt(game_copy):
    secret = "s3cr3t" * 200
    edit(game_copy / "cards.yaml", "    power: 1\n", f"    power: '{secret}'\n")
    result = run("validate", str(game_copy))
    assert result.exit_code == 2
    assert "power: expected an integer, got 's3cr3ts3cr3t" in result.output
    # each line measured without the game folder's path, whose length depends on where the test runs
    lines = result.output.replace(str(game_copy), "GAME").splitlines()
    assert secret[:60] not in result.output and max(len(line) for line in lines) < 160


def test_resolve_in_rejects_every_way_out(tmp_path):
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "up").symlink_to(tmp_path.parent)
    assert resolve_in(tmp_path, "art/x.png") == tmp_path / "art" / "x.png"
    for value in ("/etc/passwd", "../x", "art/../../x", "art/up/x", "C:/x", "a\\b", "", None, "a\0b"):
        with pytest.raises(OutsidePath):
            resolve_in(tmp_path, value)
    assert excerpt("x" * 1000).endswith("\u2026'") and len(excerpt("x" * 1000)) <= 42


# ----------------------------------------------------------------------------- 5. translation strings

@pytest.mark.parametrize("text, message", [
    ("'{age.__class__.__mro__}+'", "strings.ages: unknown placeholder {age.__class__.__mro__}; this text may use: {age}"),
    ("'{bogus}+'", "strings.ages: unknown placeholder {bogus}; this text may use: {age}"),
    ("'{age!r}+'", "strings.ages: placeholder {age} must be written plainly"),
    ("'Edad {age'", "strings.ages: malformed placeholder"),
    ("'Edad [nosuchicon] {age}+'", "strings.ages: unknown icon [nosuchicon]"),
])
def test_translation_strings_may_use_only_their_placeholders(game_copy, text, message):
    """The game's own words (i18n/<its language>.yaml, strings:) override pnp's: the audit's cover showed
    a class name. Now validate (and so build) refuses them, naming the file and line."""
    path = game_copy / "i18n" / "en.yaml"
    path.write_text(f"# the game's own words\nstrings:\n  ages: {text}\n")
    result = run("validate", str(game_copy))
    assert result.exit_code == 2, result.output
    assert f"{path}:3: strings: {message}" in result.output
    result = run("build", str(game_copy), "--out", str(game_copy / "out"))
    assert result.exit_code == 2 and not (game_copy / "out").exists()


def test_fill_never_reaches_attributes():
    assert fill("{age.__class__}", age=3) == "{age.__class__}"      # refused: printed as written
    assert fill("Ages {age}+", age=14) == "Ages 14+"
    assert fill("{bogus}", age=1) == "{bogus}"
    assert fill("{name} wins", name="*x*") == "\\*x\\* wins"          # a text value is data


# ----------------------------------------------------------------------------- 6. resource exhaustion

BOMB = "\n".join(["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
                 + [f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]" for i in range(8)]) + "\n"


def test_alias_bomb_in_a_translation_is_refused_quickly(game_copy):
    path = game_copy / "i18n" / "es.yaml"
    path.write_text(BOMB)
    started = time.perf_counter()
    result = run("validate", str(game_copy), "--lang", "es")
    assert time.perf_counter() - started < 20
    assert result.exit_code == 2
    assert f"{path}:7: holds more than 1,000,000 values once its aliases are expanded; pnp refuses it" \
        in result.output


@pytest.mark.parametrize("text, message", [
    ("[" * 100_000 + "]" * 100_000, "x.yaml:1: nests lists and mappings more than 64 deep; pnp refuses it"),
    ("a: &a [1, *a]\n", "x.yaml:1: the alias *a refers to a list or mapping that contains it"),
    ("a: 1\n" + "#" * (5 * 1024 * 1024), "x.yaml: too large: 5.2 MB; a data file may hold at most 4 MB"),
])
def test_yaml_limits(text, message):
    started = time.perf_counter()
    with pytest.raises(DataError) as info:
        parse_yaml(text, "x.yaml")
    assert time.perf_counter() - started < 2
    assert str(info.value.problems[0]).startswith(message)


def test_huge_data_file_is_refused_without_reading_it_all(game_copy):
    path = game_copy / "cards.yaml"
    with open(path, "a") as f:
        f.write("# " + "x" * (50 * 1024 * 1024) + "\n")
    started = time.perf_counter()
    result = run("validate", str(game_copy))
    assert time.perf_counter() - started < 20
    assert result.exit_code == 2
    assert f"{path}: too large: more than 4 MB; a data file may hold at most that" in result.output


def test_bundled_files_are_far_below_the_limits():
    from pnp import DATA_DIR
    from pnp.loading.yamlsrc import LIMITS, compose

    for path in sorted(DATA_DIR.rglob("*.yaml")) + sorted(TEMPLATES_DIR.rglob("*.yaml")):
        text = path.read_text()
        assert len(text) < LIMITS.max_bytes / 50, path
        assert compose(text) is not None, path
    assert os.path.getsize(DATA_DIR / "shadow_throne" / "cards.yaml") < 20_000


def test_a_game_converted_for_templates_once_is_never_mistaken_for_another(game_copy):
    """The conversion of a game for templates is kept for the game object (each deck's aid, the
    rulebook and the instructions render with it); a game loaded again after an edit is converted anew,
    and its text is escaped all the same."""
    template = jinja2.Environment().from_string("{{ game.title }} / {{ game.cards[0].name }}")
    first = load_game(game_copy)
    assert templating.render(template, game=first) == "Shadow Throne / " + escape(first.cards[0].name)
    yaml = game_copy / "game.yaml"
    yaml.write_text(yaml.read_text(encoding="utf-8").replace("title: Shadow Throne", "title: Shadow *Throne*", 1),
                    encoding="utf-8")
    second = load_game(game_copy)
    assert templating.render(template, game=second).startswith(r"Shadow \*Throne\* / ")
    assert templating.render(template, game=first).startswith("Shadow Throne / ")
