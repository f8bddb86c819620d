"""Every bad input the audit of issue 16 found: a clear problem with file and line, exit 2, never a
traceback (exit 70 would mean an internal error), and no silent nonsense in print."""

import errno
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp import DATA_DIR
from pnp.commands.cli import main
from pnp.errors import DataError, UserError
from pnp.build.output import OutputError, write_atomically
from pnp.loading.yamlsrc import read_text


def run(*args, env=None):
    return CliRunner().invoke(main, list(args), env=env)


def edit(path, old, new):
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def line_of(path, needle):
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


@pytest.fixture
def btt_copy(tmp_path) -> Path:
    dest = tmp_path / "behind_the_throne"
    shutil.copytree(DATA_DIR / "behind_the_throne", dest)
    return dest


def validate(folder, *extra):
    result = run("validate", str(folder), *extra)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    return result.output


# (file, old, new, expected "file:LINE: message" where LINE is the line holding `anchor`)
CASES = [
    # YAML keys that are lists or mappings
    ("cards.yaml", "    power: 1\n", "    ? [power]\n    : 1\n", "a key is a list; keys must be text or numbers", "? [power]"),
    ("game.yaml", "ages: 14\n", "{ages: 1}: 14\n", "a key is a mapping; keys must be text or numbers", "{ages: 1}"),
    # a NUL byte, and a control character
    ("cards.yaml", "    flavour: Bread", "    flavour: \0Bread", "contains a NUL character, which YAML does not allow",
     "Bread"),
    ("box.yaml", "card_thickness: 0.3", "card_thickness: 0.3\x07", "contains the control character U+0007",
     "card_thickness"),
    # deep nesting
    ("tokens.yaml", "sheet:\n", "deep: " + "[" * 5000 + "]" * 5000 + "\nsheet:\n",
     "nests lists and mappings more than 64 deep", "deep:"),
    # null sections
    ("game.yaml", "factions:\n", "factions: null\nx_factions:\n", "factions: expected a list, got nothing", "factions: null"),
    ("game.yaml", "components: [instructions", "components: null\nx: [instructions",
     "components: expected a list, got nothing", "components: null"),
    ("cards.yaml", "cards:\n", "cards: ~\nx_cards:\n", "cards: expected a list, got nothing", "cards: ~"),
    ("tokens.yaml", "tokens:\n", "tokens: null\nx_tokens:\n", "tokens: expected a list, got nothing", "tokens: null"),
    ("box.yaml", "style:\n", "style: null\nx_style:\n", "style: expected a mapping", "style: null"),
    # a faction without id, unknown emblems and field icons
    ("game.yaml", "- {id: church, name: Church", "- {name: Church", "3rd faction: id: required key is missing",
     "- {name: Church"),
    ("game.yaml", "emblem: sun}", "emblem: moon}", "faction 'church': emblem: unknown icon 'moon'; known icons: "
     "circle, coin", "emblem: moon"),
    ("game.yaml", "icon: influence}", "icon: zzz}", "card.fields.influence.icon: unknown icon 'zzz'; known "
     "icons: circle", "icon: zzz"),
    ("game.yaml", "icon: influence}", "icon: sael}", "card.fields.influence.icon: unknown icon 'sael'; did you mean "
     "'seal'?", "icon: sael"),
    # ranges
    ("game.yaml", "minutes: {min: 30, max: 45}", "minutes: {min: 45, max: -30}",
     "minutes.max: -30 is below the minimum 1", "minutes:"),
    ("game.yaml", "players: {min: 3, max: 5}", "players: {min: 5, max: 3}", "players: min 5 is more than max 3",
     "players:"),
    ("game.yaml", "players: {min: 3, max: 5}", "players: {min: 3, max: 5000}", "players.max: 5000 is above the maximum 20",
     "players:"),
    ("game.yaml", "ages: 14", "ages: 1400", "ages: 1400 is above the maximum 99", "ages:"),
    # list-shaped ids and kinds, empty names
    ("cards.yaml", "  - id: outlaw\n", "  - id: [outlaw]\n", "11th card: id: expected an id", "id: [outlaw]"),
    ("cards.yaml", "ability: {step: 1, kind: kill, rank: commoner}", "ability: {step: 1, kind: [kill], rank: commoner}",
     "card 'benthon-knights': ability.kind: unknown effect kind ['kill']", "kind: [kill]"),
    ("tokens.yaml", "  - id: faction-empire\n", "  - id: [faction-empire]\n", "token #1: id: expected an id",
     "[faction-empire]"),
    ("tokens.yaml", "    kind: faction\n", "    kind: {a: 1}\n", "token 'faction-empire': kind: expected an id (letters, "
     "digits, '-' and '_', starting with a letter or digit, at most 64), got a mapping", "kind: {a: 1}"),
    ("cards.yaml", "    name: Outlaw\n", "    name: '  '\n", "card 'outlaw': name: must not be empty", "name: '  '"),
    ("game.yaml", "title: Shadow Throne", "title: ''", "title: must not be empty", "title:"),
    ("game.yaml", "{id: empire, name: Empire,", "{id: empire, name: '',", "faction 'empire': name: must not be empty",
     "{id: empire, name: '',"),
    # text the fonts cannot print
    ("game.yaml", "{id: empire, name: Empire,", "{id: empire, name: \"\\U0001F451 Empire\",",
     "faction 'empire': name '\U0001f451 Empire' uses characters the fonts cannot print: \U0001f451",
     "{id: empire, name:"),
    ("cards.yaml", "    flavour: Bread on the table is worth a bent knee.",
     "    flavour: \"\\x01Bread on the table is worth a bent knee.\"",
     "card 'dutiful-peasant': flavour '\\x01Bread on the table is worth a bent\u2026' uses characters the fonts "
     "cannot print: U+0001", "- id: dutiful-peasant"),
    # a mapping where a count goes (found by the long fuzz)
    ("box.yaml", "{count: cards, item: character cards}", "{count: {x: cards}, item: character cards}",
     "contents #1: count: expected a number, one of", "{count: {x: cards}"),
    # an empty kit, numbers that are not
    ("game.yaml", "components: [instructions, power_track, cards, tokens, rulebook, box]", "components: []",
     "components: the kit lists nothing to build", "components:"),
    ("tokens.yaml", "  gap: 2 ", "  gap: .nan ", "sheet.gap: expected a length in mm", "gap:"),
    ("box.yaml", "card_thickness: 0.3", "card_thickness: .inf", "card_thickness: expected a length in mm",
     "card_thickness"),
    ("game.yaml", "  width: 63", "  width: 1" + "0" * 400, "card.width: expected a length in mm", "width:"),
]


@pytest.mark.parametrize("file, old, new, message, anchor", CASES, ids=[c[3][:40] for c in CASES])
def test_bad_data_is_a_problem_with_its_line(game_copy, file, old, new, message, anchor):
    path = game_copy / file
    edit(path, old, new)
    out = validate(game_copy)
    expected = f"{path}:{line_of(path, anchor)}: {message}"
    assert any(line.startswith(expected) or (": " + message) in line and line.startswith(f"{path}:")
               for line in out.splitlines()), out
    assert any(line.startswith(f"{path}:{line_of(path, anchor)}:") for line in out.splitlines()), out


@pytest.mark.parametrize("content, message", [
    ("", "the file is empty; expected a mapping with title, players, decks, components, ..."),
    ("- title: x\n", "the file holds a list; expected a mapping"),
    ("just text\n", "the file holds only 'just text'; expected a mapping"),
])
def test_empty_or_list_shaped_game_yaml(game_copy, content, message):
    (game_copy / "game.yaml").write_text(content)
    out = validate(game_copy)
    assert f"{game_copy / 'game.yaml'}:" in out and message in out
    result = run("build", str(game_copy), "--out", str(game_copy / "out"))
    assert result.exit_code == 2 and message in result.output


@pytest.mark.parametrize("name", ["tokens.yaml", "box.yaml", "rulebook.yaml", "cards.yaml"])
def test_empty_data_files(game_copy, name):
    (game_copy / name).write_text("# nothing yet\n")
    out = validate(game_copy)
    assert f"{game_copy / name}" in out and "empty" in out


@pytest.mark.parametrize("name", ["game.yaml", "cards.yaml", "tokens.yaml", "box.yaml", "rulebook.yaml"])
def test_data_file_that_is_a_folder(game_copy, name):
    (game_copy / name).unlink()
    (game_copy / name).mkdir()
    out = validate(game_copy)
    assert f"{game_copy / name}: is a folder, not a file" in out


def test_unreadable_file(tmp_path, monkeypatch):
    path = tmp_path / "cards.yaml"
    path.write_text("cards: []\n")

    def refuse(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")
    monkeypatch.setattr("os.open", refuse)
    with pytest.raises(DataError) as info:
        read_text(path)
    assert str(info.value.problems[0]) == f"{path}: cannot be read (permission denied)"


@pytest.mark.parametrize("content, message", [
    ("- a\n- b\n", "the translation is a list; expected a mapping of translated words"),
    ("", "the translation is empty"),
    ("# only a comment\n", "the translation is empty"),
])
def test_translation_file_that_is_a_list_or_empty(game_copy, content, message):
    path = game_copy / "i18n" / "es.yaml"
    path.write_text(content)
    out = validate(game_copy, "--lang", "es")
    assert f"{path}" in out and message in out
    assert run("build", str(game_copy), "--lang", "es", "--out", str(game_copy / "o")).exit_code == 2


def test_one_yaml_syntax_error_gives_one_message(game_copy):
    path = game_copy / "cards.yaml"
    edit(path, "    power: 1\n", "    power: [1\n")
    out = validate(game_copy)
    problems = [line for line in out.splitlines() if not line.endswith("nothing was written.")]
    assert len(problems) == 1, out
    assert problems[0].startswith(f"{path}:") and "malformed YAML" in problems[0]


def test_a_card_with_an_error_gives_no_follow_on_deck_counts(game_copy):
    path = game_copy / "cards.yaml"
    edit(path, "    copies: 3\n", "    copies: three\n")
    out = validate(game_copy)
    assert "copies: expected an integer" in out
    assert "deck.total" not in out and "per_faction" not in out and "copies_per_rank" not in out


@pytest.mark.parametrize("text, message", [
    ("[pips:abc]", "[pips:abc]: give a number of pips from 1 to 9"),
    ("[nosuchicon]", "unknown icon [nosuchicon]"),
])
def test_bad_icons_in_templates_are_reported_with_the_template(starfall, text, message):
    """In a small game's chapter (tests/games/starfall: the check is pnp's, not a game's)."""
    chapter = starfall / "templates" / "rulebook" / "en" / "rules.md.j2"
    chapter.write_text(chapter.read_text() + f"\nGold {text} here.\n")
    out = validate(starfall)
    assert f"{chapter}:{len(chapter.read_text().splitlines())}: chapter 'rules': {message}" in out


@pytest.mark.parametrize("text", ["**Bold** [crown] *italic*", "a literal \\[crown] and \\* star", "[pips:2] [seal:3]"])
def test_card_markup_in_flavour_is_valid(starfall, text):
    """On a small game's card (tests/games/starfall: card markup is pnp's, not a game's)."""
    edit(starfall / "stars.yaml", "flavour: It rose before the sun did.", f"flavour: '{text}'")
    result = run("validate", str(starfall))
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("text, message", [
    ("Bring a [crwon].", "flavour: unknown icon [crwon]; did you mean [crown]?"),
    ("[pips:abc] more", "flavour: [pips:abc]: give a number of pips from 1 to 9"),
    ("The [Crown] falls.", "flavour: '[Crown]' is not an icon: icons are written [name] or [name:label] in lower case "
                           "(did you mean [crown]?); write '\\[' for a literal '['"),
    ("**Bold and never closed", "flavour: '**' at '**Bold and never' starts bold that never ends"),
    ("Five * three", "flavour: '*' at '* three' starts italics that never end; close them with '*', or write '\\*' "
                     "for a literal star"),
])
def test_card_markup_mistakes_in_flavour_name_the_line(game_copy, text, message):
    path = game_copy / "cards.yaml"
    edit(path, "    flavour: Bread on the table is worth a bent knee.", f"    flavour: '{text}'")
    result = run("validate", str(game_copy))
    assert result.exit_code == 2
    line = line_of(path, f"    flavour: '{text}'")
    assert f"{path}:{line}: card 'dutiful-peasant': {message}" in result.output


def test_rulebook_example_of_the_other_game(game_copy):
    shutil.copy(DATA_DIR / "behind_the_throne" / "examples" / "three-turns.yaml", game_copy / "examples")
    path = game_copy / "rulebook.yaml"
    edit(path, "scenario: examples/killing.yaml", "scenario: examples/three-turns.yaml")
    out = validate(game_copy)
    scenario = game_copy / "examples" / "three-turns.yaml"
    assert (f"{scenario}:{line_of(scenario, 'game:')}: game: this example is played with Shadow Throne (rules "
            f"engine shadow_throne), but the file names the bundled game 'behind_the_throne'") in out


def test_an_example_naming_its_own_game_is_played_without_loading_the_game_again(monkeypatch, game_copy):
    from pnp.loading import scenario
    from pnp.loading.gamedata import load_game

    game, loaded = load_game("shadow_throne"), []
    monkeypatch.setattr(scenario, "load_game", lambda folder, *a, **k: loaded.append(folder) or load_game(folder))
    played, _ = scenario.load_scenario(DATA_DIR / "shadow_throne" / "examples" / "killing.yaml", game=game)
    assert played is game and loaded == []
    # another game is read, to name it
    shutil.copy(DATA_DIR / "behind_the_throne" / "examples" / "three-turns.yaml", game_copy / "examples")
    with pytest.raises(DataError, match="this example is played with Shadow Throne"):
        scenario.load_scenario(game_copy / "examples" / "three-turns.yaml", game=load_game(game_copy))
    assert loaded == [DATA_DIR / "behind_the_throne"]


def test_a_copy_of_a_game_plays_its_own_examples(tmp_path):
    copy = tmp_path / "my_throne"
    shutil.copytree(DATA_DIR / "behind_the_throne", copy)
    edit(copy / "game.yaml", "templates", "templates") if "templates" in (copy / "game.yaml").read_text() else \
        edit(copy / "game.yaml", "language: en\n", "language: en\ntemplates: behind_the_throne\n")
    result = run("validate", str(copy))
    assert result.exit_code == 0, result.output


def test_empty_scenario_player_name(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("game: shadow_throne\nplayers:\n  - {name: ''}\n  - Ben\n")
    result = run("scenario", str(path))
    assert result.exit_code == 2
    assert f"{path}:3: players[1].name: must not be empty" in result.output


# ----------------------------------------------------------------------------- scenario game:

def test_scenario_game_is_relative_to_the_scenario_file(tmp_path, monkeypatch):
    games = tmp_path / "games"
    shutil.copytree(DATA_DIR / "behind_the_throne", games / "mine")
    (tmp_path / "s").mkdir()
    path = tmp_path / "s" / "turns.yaml"
    path.write_text((DATA_DIR / "behind_the_throne" / "examples" / "three-turns.yaml").read_text()
                    .replace("game: behind_the_throne", "game: ../games/mine"))
    monkeypatch.chdir(tmp_path)          # a working directory where ../games/mine does not exist
    result = run("scenario", str(path))
    assert result.exit_code == 0, result.output
    (games / "mine" / "game.yaml").unlink()
    result = run("scenario", str(path))
    assert result.exit_code == 2
    assert (f"game: '../games/mine' is read as a game folder relative to this file (games/mine), which has no "
            f"game.yaml") in result.output


def test_bundled_name_means_the_bundled_game_even_beside_a_folder_of_that_name(tmp_path, monkeypatch):
    fake = tmp_path / "behind_the_throne"
    shutil.copytree(DATA_DIR / "behind_the_throne", fake)
    edit(fake / "game.yaml", "title: Behind the Throne", "title: A Fake Throne")
    path = tmp_path / "turns.yaml"
    path.write_text((DATA_DIR / "behind_the_throne" / "examples" / "three-turns.yaml").read_text())
    monkeypatch.chdir(tmp_path)
    result = run("scenario", str(path))
    assert result.exit_code == 0, result.output
    assert "Fake" not in result.output
    path.write_text(path.read_text().replace("game: behind_the_throne", "game: ./behind_the_throne"))
    result = run("scenario", str(path), "--json")
    assert result.exit_code == 0, result.output


def test_unknown_bundled_game_says_how_to_name_a_folder(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("game: my_game\nplayers: [Ana]\n")
    result = run("scenario", str(path))
    assert result.exit_code == 2
    assert f"{path}:1: game: no bundled game 'my_game' (bundled games: behind_the_throne, shadow_kingdoms_of_valeria, " \
           "shadow_queen, shadow_throne); a game folder is written as a path, like ./my_game" in result.output


# ----------------------------------------------------------------------------- options and environment

@pytest.mark.parametrize("args, message", [
    (["build", "--bleed", "nan"], "Invalid value for '--bleed': 'nan' is not a finite number."),
    (["build", "--bleed", "inf"], "Invalid value for '--bleed': 'inf' is not a finite number."),
    (["build", "--back-offset", "nan,nan"], "--back-offset 'nan,nan': expected two finite numbers in mm"),
    (["build", "--back-offset", "nan,0"], "--back-offset 'nan,0': expected two finite numbers in mm"),
    (["build", "--back-offset", "0,-inf"], "--back-offset '0,-inf': expected two finite numbers in mm"),
    (["export", "cards", "--bleed", "nan"], "Invalid value for '--bleed': 'nan' is not a finite number."),
    (["preview", "outlaw", "--bleed", "-inf"], "Invalid value for '--bleed': '-inf' is not a finite number."),
    (["watch", "--debounce", "nan"], "Invalid value for '--debounce': 'nan' is not a finite number."),
    (["validate", "--lang", "../../etc"], "--lang: '../../etc' is not a language code"),
    (["build", "--lang", "es/../x"], "--lang: 'es/../x' is not a language code"),
])
def test_options_refuse_non_finite_numbers_and_odd_languages(tmp_path, args, message):
    result = run(*args, "--out", str(tmp_path / "o")) if args[0] in ("build", "export") else run(*args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("value", ["garbage", "-5", "1e9", "99999999999999999999"])
def test_source_date_epoch_garbage(tmp_path, value):
    result = run("build", "--out", str(tmp_path / "o"), env={"SOURCE_DATE_EPOCH": value})
    assert result.exit_code == 2
    assert f"error: SOURCE_DATE_EPOCH='{value}': expected a whole number of seconds since 1970-01-01" \
        in result.output
    assert not (tmp_path / "o").exists()


# ----------------------------------------------------------------------------- output

def test_out_is_dev_null():
    result = run("build", "--out", "/dev/null")
    assert result.exit_code == 2
    assert "error: /dev/null is not a folder; give --out a folder" in result.output


def test_a_folder_in_the_way_leaves_the_previous_kit_intact(starfall, tmp_path):
    """(A kit of tests/games/starfall: writing a kit is pnp's, not a game's.)"""
    out = tmp_path / "kits" / "out"
    assert run("build", str(starfall), "--out", str(out)).exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    (out / "box.pdf").unlink()
    (out / "box.pdf").mkdir()
    del before["box.pdf"]
    result = run("build", str(starfall), "--paper", "a4", "--out", str(out))
    assert result.exit_code == 2
    assert f"box.pdf is a folder, where pnp must write a file; move it away (nothing was written)" in result.output
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before
    assert sorted(p.name for p in out.parent.iterdir()) == ["out"]       # no temporary folder left behind


@pytest.mark.parametrize("code, message", [
    (errno.ENOSPC, "no space left on the device"),
    (errno.EROFS, "the file system is read-only"),
])
def test_a_full_or_read_only_disk_changes_nothing(tmp_path, monkeypatch, code, message):
    out = tmp_path / "out"
    write_atomically(out, {"a.pdf": b"old a", "b.pdf": b"old b"})
    real = Path.write_bytes
    calls = []

    def failing(self, data):
        calls.append(self.name)
        if len(calls) == 2:
            raise OSError(code, os.strerror(code))
        return real(self, data)
    monkeypatch.setattr(Path, "write_bytes", failing)
    with pytest.raises(OutputError, match=message):
        write_atomically(out, {"a.pdf": b"new a", "b.pdf": b"new b"})
    assert (out / "a.pdf").read_bytes() == b"old a" and (out / "b.pdf").read_bytes() == b"old b"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


# (a failed move rolled back: tests/test_output.py)


def test_unwritable_out(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(UserError):
        write_atomically(blocker / "out", {"a.pdf": b"a"})


def test_export_removes_its_own_stale_images_only(game_copy, tmp_path):
    out = tmp_path / "cards"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    assert run("export", "cards", str(game_copy), "--dpi", "30", "--out", str(out)).exit_code == 0
    assert (out / "datura-1.png").exists()
    cards = game_copy / "cards.yaml"
    edit(cards, "  - id: datura\n", "  - id: nightshade\n")
    edit(game_copy / "i18n" / "es.yaml", "  datura:", "  nightshade:")
    result = run("export", "cards", str(game_copy), "--dpi", "30", "--out", str(out))
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
    assert "datura-1.png" not in names and "nightshade-1.png" in names and "notes.txt" in names
    assert len(names) == 54 + 5 + 1 + 1


# ----------------------------------------------------------------------------- internal errors

def test_internal_error_is_one_line_and_exit_70(monkeypatch):
    import pnp.commands.validate as validate_command

    def broken(*args, **kwargs):
        raise ZeroDivisionError("division by zero")
    monkeypatch.setattr(validate_command, "validate_game", broken)
    monkeypatch.setattr(validate_command, "validate_languages", broken)
    result = run("validate")
    assert result.exit_code == 70
    assert result.output == ("pnp: internal error (ZeroDivisionError: division by zero). This is a bug in pnp: "
                             "please report it with the command you ran; 'pnp --debug ...' shows the details.\n")
    result = run("--debug", "validate")
    assert result.exit_code == 70
    assert "Traceback (most recent call last)" in result.output and "in broken" in result.output


def test_a_build_parses_each_data_file_once(tmp_path, monkeypatch):
    import collections

    import pnp.loading.yamlsrc as yamlsrc
    from pnp.cache import memo

    memo.clear()
    counts = collections.Counter()
    real = yamlsrc.parse_yaml

    def counting(text, path="<input>", *args, **kwargs):
        counts[str(path)] += 1
        return real(text, path, *args, **kwargs)
    monkeypatch.setattr(yamlsrc, "parse_yaml", counting)
    assert run("build", "--out", str(tmp_path / "o")).exit_code == 0
    root = DATA_DIR / "shadow_throne"
    assert counts[str(root / "cards.yaml")] == 1 and counts[str(root / "tokens.yaml")] == 1
    assert set(counts.values()) == {1}, counts


# ----------------------------------------------------------------------------- glyphs in any printed text

CROWN = "\U0001F451"


def test_a_glyph_the_fonts_lack_in_a_token_caption_or_label(game_copy):
    path = game_copy / "tokens.yaml"
    edit(path, 'icon: influence, label: "1"}', f'icon: influence, label: "1{CROWN}"}}')
    out = validate(game_copy)
    line = line_of(path, f"label: \"1{CROWN}\"")
    token_line = max(i for i, text in enumerate(path.read_text().splitlines()[:line], 1) if "- id:" in text)
    assert (f"{path}:{token_line}: token 'influence-1': front.label '1{CROWN}' uses characters the fonts cannot "
            f"print: {CROWN}") in out


def test_a_glyph_the_fonts_lack_in_a_track_title(game_copy):
    path = game_copy / "game.yaml"
    edit(path, "components: [instructions, power_track,",
         f"components: [instructions, {{kind: track, id: power_track, spaces: 25, title: '{CROWN} Power'}},")
    out = validate(game_copy)
    assert (f"{path}:{line_of(path, 'components:')}: track 'power_track': title '{CROWN} Power' uses characters "
            f"the fonts cannot print: {CROWN}") in out


TWO_DECKS = """\
title: Two Decks
players: {min: 2, max: 4}
decks:
  - id: heroes
    name: Heroes
    cards: heroes.yaml
    fields:
      might: {type: int, min: 0, max: 9, icon: heater}
  - id: quests
    name: Quests
    cards: quests.csv
    size: {width: 70, height: 120}
components: [cards]
"""


def two_decks(root, game=TWO_DECKS, heroes=None, quests=None):
    root.mkdir(parents=True)
    (root / "game.yaml").write_text(game)
    (root / "heroes.yaml").write_text(heroes or "cards:\n  - {id: knight, name: Knight, copies: 2, might: 4}\n")
    (root / "quests.csv").write_text(quests or "id,name,copies,flavour\ndragon,Slay the Dragon,1,Bring a bucket.\n")
    return root


def test_a_glyph_the_fonts_lack_in_a_deck_name(tmp_path):
    root = two_decks(tmp_path / "g", TWO_DECKS.replace("name: Quests", f"name: {CROWN} Quests"))
    out = validate(root)
    assert (f"{root / 'game.yaml'}:{line_of(root / 'game.yaml', '- id: quests')}: deck 'quests': name "
            f"'{CROWN} Quests' uses characters the fonts cannot print: {CROWN}") in out


def test_a_problem_of_the_data_is_blamed_on_the_data_not_the_template_that_prints_it(game_copy):
    # the faction's name is printed by rulebook chapters, the cover, tokens and cards: one message, at
    # the line of game.yaml that wrote it
    path = game_copy / "game.yaml"
    edit(path, "{id: empire, name: Empire,", f"{{id: empire, name: \"{CROWN} Empire\",")
    out = validate(game_copy)
    problems = [line for line in out.splitlines() if not line.endswith("nothing was written.")]
    assert problems == [f"{path}:{line_of(path, '{id: empire')}: faction 'empire': name '{CROWN} Empire' uses "
                        f"characters the fonts cannot print: {CROWN}"], out
    assert ".j2" not in out


# ----------------------------------------------------------------------------- found by the long fuzz

CHAPTERS = "chapters: [cover, contents, overview, setup, turn, stacks, abilities, ending, example, card_index, reference]"


@pytest.mark.parametrize("chapters, message", [
    ("chapters: []", "rulebook: chapters: the list is empty; a rulebook needs at least one chapter"),
    ("chapters: [cover, contents, contents, overview, reference]",
     "rulebook: 3rd chapter: 'contents' is listed twice (first at line {line})"),
])
def test_rulebook_chapters_empty_or_twice(btt_copy, chapters, message):
    path = btt_copy / "rulebook.yaml"
    edit(path, CHAPTERS, chapters)
    out = validate(btt_copy)
    line = line_of(path, "chapters:")
    assert f"{path}:{line}: {message.format(line=line)}" in out


def test_a_rulebook_without_contents_or_chapter_headings_builds(btt_copy):
    edit(btt_copy / "rulebook.yaml", CHAPTERS, CHAPTERS.replace("contents, overview, ", ""))
    result = run("validate", str(btt_copy))
    assert result.exit_code == 0, result.output


def test_the_contents_twice_in_a_chapter(btt_copy):
    chapter = btt_copy / "templates" / "rulebook" / "en" / "reference.md.j2"
    chapter.write_text(chapter.read_text() + "\n!toc\n")
    edit(btt_copy / "rulebook.yaml", CHAPTERS, CHAPTERS.replace("contents, ", ""))
    shutil.copy(chapter, chapter.with_name("again.md.j2"))
    edit(btt_copy / "rulebook.yaml", "reference]", "reference, again]")
    out = validate(btt_copy)
    again = chapter.with_name("again.md.j2")
    assert (f"{again}:{len(again.read_text().splitlines())}: rulebook: !toc: the contents are already in the "
            f"booklet; they can appear once") in out


@pytest.mark.parametrize("game, example, old, new, message", [
    ("shadow_queen", "attack.yaml", "dice: [5, 4, 3]", "dice: [5, ~, 3]", "dice[2]: expected an integer, got nothing"),
    ("shadow_kingdoms_of_valeria", "adversary_turn.yaml", None, "turns: [null]\n",
     "turns[1]: expected a list, got nothing"),
])
def test_a_scenario_value_the_shape_check_rejects_never_reaches_the_engine_as_a_crash(tmp_path, game, example, old,
                                                                                       new, message):
    # found by the long fuzz: the engines stumbled on the None left where the value was rejected
    text = (DATA_DIR / game / "examples" / example).read_text()
    text = text.replace(old, new) if old else text[:text.index("\nturns:")] + "\n" + new
    path = tmp_path / example
    path.write_text(text)
    result = run("scenario", str(path))
    assert result.exit_code == 2, result.output
    assert f"{path}:{line_of(path, new.split(':')[0] + ':')}: {message}" in result.output
