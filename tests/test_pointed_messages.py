"""Messages that point to the right place and name the right thing (issue 32): each test makes a
designer's mistake in a starter game (``pnp new``) or a test game and asserts the exact message, its file
and line: the game's own names suggested before pnp's built-ins, translation problems at the
translation's line, one message per mistake, a layout's mistake at the designer's file."""

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.suggest import closest

GAMES = Path(__file__).parent / "games"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def starter(tmp_path) -> Path:
    root = tmp_path / "g"
    assert run("new", root).exit_code == 0
    return root


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text()
    assert text.count(old) == count, (path, old)
    path.write_text(text.replace(old, new))


def problems(*args) -> list[str]:
    """The problem lines of a ``pnp`` command that must find problems (exit 2)."""
    result = run(*args)
    assert result.exit_code == 2, result.output
    return [line for line in result.output.splitlines() if not re.fullmatch(r"\d+ problems? found.*", line)]


# ----------------------------------------------------------------------------- did you mean

def test_closest_ranks_the_games_own_names_before_pnps_builtins():
    # 'acron' is as near the built-in 'crown' as the game's 'acorn' by spelling: the game's name wins
    assert closest("acron", ["acorn", "crown"], builtin={"crown"}) == "acorn"
    assert closest("acron", ["acorn", "crown"]) == "crown"           # without the rule: the later name
    assert closest("crwn", ["acorn", "crown"], builtin={"crown"}) == "crown"     # none of the game's is close
    assert closest("zzz", ["acorn", "crown"], builtin={"crown"}) is None
    assert closest(3, [1, 3]) == "3"


def test_no_message_makes_its_own_suggestion():
    """Every "did you mean" goes through pnp.suggest.closest, so the ranking rule holds everywhere."""
    root = Path(__file__).parent.parent / "pnp"
    offenders = [str(p.relative_to(root)) for p in root.rglob("*.py")
                 if p.name != "suggest.py" and "get_close_matches" in p.read_text()]
    assert offenders == []


def test_an_icon_misspelt_in_card_text_suggests_the_games_own_icon(starter):
    (starter / "icons" / "spark.svg").rename(starter / "icons" / "acorn.svg")
    for name in ("game.yaml", "tokens.yaml", "templates/layouts/starter.yaml"):
        path = starter / name
        path.write_text(path.read_text().replace("spark", "acorn"))
    edit(starter / "cards.csv", "Take 1 [spark].", "Take 1 [acron].")
    edit(starter / "cards.csv", "[spark]", "[acorn]", count=2)
    assert problems("validate", starter) == [
        f"{starter}/cards.csv:2:5: card 'spark': text: unknown icon [acron]; did you mean [acorn]?"]


def test_an_icon_name_misspelt_in_data_suggests_the_games_own_icon(starter):
    (starter / "icons" / "spark.svg").rename(starter / "icons" / "acorn.svg")
    edit(starter / "game.yaml", "emblem: spark", "emblem: acron")
    edit(starter / "tokens.yaml", "icon: spark", "icon: acorn", count=2)
    edit(starter / "templates/layouts/starter.yaml", "icon: \"'spark'\"", "icon: \"'acorn'\"")
    edit(starter / "cards.csv", "[spark]", "[acorn]", count=3)
    assert problems("validate", starter) == [
        f"{starter}/game.yaml:19: deck 'cards': back.emblem: unknown icon 'acron'; did you mean 'acorn'?"]


def test_a_misspelt_layout_name_suggests_the_games_own_layout(starter):
    edit(starter / "game.yaml", "layout: starter ", "layout: startr ")
    assert problems("validate", starter) == [
        f"{starter}/game.yaml:18: deck 'cards' layout: no layout 'startr' (templates/layouts/startr.yaml in the "
        f"game folder or pnp's); did you mean 'starter'?"]


@pytest.mark.parametrize("written, message", [
    ("points", "no value 'points' in a layout; deck 'cards' has a field 'points': write field('points')"),
    ("pionts", "no value 'pionts' in a layout; did you mean field('points')?"),
    ("tnit(colour, 0.5)", "no value 'tnit' in a layout; did you mean 'tint'?"),
])
def test_a_bare_name_in_a_layout_that_is_a_field_suggests_field(starter, written, message):
    edit(starter / "templates/layouts/starter.yaml", "before: badges}", f"before: badges}}\n"
         f"  - {{name: extra, kind: text, rect: [5, 5, 20, 5], text: \"{written}\"}}")
    assert problems("validate", starter) == [
        f"{starter}/templates/layouts/starter.yaml:11: layout 'starter', region 'extra': text: {message} "
        f"(4 cards, e.g. card 'spark')"]


# ----------------------------------------------------------------------------- layouts extending pnp's

def test_removing_a_region_other_regions_are_drawn_in_is_reported_at_the_removal(starter):
    """The starter's layout extends pnp's classic; removing classic's art window leaves classic's emblem
    and badges (in: art) nowhere to go: one problem, at the designer's line, not two in classic.yaml."""
    edit(starter / "templates/layouts/starter.yaml", "{name: rank, remove: true}", "{name: art, remove: true}")
    assert problems("validate", starter) == [
        f"{starter}/templates/layouts/starter.yaml:8: region 'art': remove: regions 'emblem' and 'badges' of "
        f"layout 'classic' are drawn in it (in: art): remove them too, or give them in: another region with a rect"]


def test_removing_the_regions_left_without_their_area_too_is_valid(starter):
    edit(starter / "templates/layouts/starter.yaml", "{name: rank, remove: true}",
         "{name: art, remove: true}\n  - {name: emblem, remove: true}\n  - {name: badges, in: art-tall}")
    edit(starter / "templates/layouts/starter.yaml", "before: badges}", "}")
    result = run("validate", starter)
    assert result.exit_code == 0, result.output


def test_a_style_name_the_layout_does_not_have_is_an_error_at_the_designers_line(starter):
    edit(starter / "templates/layouts/starter.yaml", "{name: rank, remove: true}",
         "{name: rank, remove: true}\n  - {name: name, style: nmae}")
    assert problems("validate", starter) == [
        f"{starter}/templates/layouts/starter.yaml:9: region 'name': style: no style 'nmae' in layout 'starter'; "
        f"did you mean 'name'?"]


# ----------------------------------------------------------------------------- one mistake, one message

@pytest.fixture
def lantern(tmp_path) -> Path:
    """A copy of tests/games/lantern_night (every printed word translated into Spanish)."""
    dest = tmp_path / "lantern_night"
    shutil.copytree(GAMES / "lantern_night", dest)
    return dest


def test_a_translation_key_for_a_misspelt_card_id_names_the_closest_card(lantern):
    es = lantern / "i18n" / "es.yaml"
    edit(es, "  red-dragon: {name:", "  red-dargon: {name:")
    message = (f"{es}:17: language 'es': unused key 'cards.red-dargon': the game has no card 'red-dargon'; did you "
               f"mean 'red-dragon'?")
    assert problems("validate", lantern) == [message]
    # the card it meant is not also reported untranslated, word by word (nor counted as such)
    assert problems("validate", lantern, "--lang", "es") == [message]


@pytest.mark.parametrize("old, new, message", [
    ("  oil: {front", "  oli: {front", "20: language 'es': unused key 'tokens.oli': the game has no token 'oli'; did "
                                       "you mean 'oil'?"),
    ("  moon: {name: Luna", "  mono: {name: Luna",
     "5: language 'es': unused key 'factions.mono': the game has no faction 'mono'; did you mean 'moon'?"),
    ("{label: Guardián, back", "{lable: Guardián, back",
     "28: language 'es': unused key 'components.keepers.pieces.keeper.lable'; did you mean "
     "'components.keepers.pieces.keeper.label'?"),
])
def test_other_unused_translation_keys_name_the_closest(lantern, old, new, message):
    es = lantern / "i18n" / "es.yaml"
    edit(es, old, new)
    assert problems("validate", lantern) == [f"{es}:{message}"]
    assert problems("validate", lantern, "--lang", "es") == [f"{es}:{message}"]


@pytest.mark.parametrize("file, old, new, message", [
    # a wrong token key: the token's problem, not also its translated caption called unused
    ("tokens.yaml", "count: 8, shape: rounded", "count: 8, shpe: rounded",
     "7: token 'oil': shpe: unknown key (did you mean 'shape'?); accepted keys: id, kind, faction, value, count, "
     "shape, outline, size, on_track, front, back, placeholder"),
    # a misspelt required key is not also a missing one
    ("game.yaml", "width: 25", "widht: 25",
     "37: component 'keepers': widht: unknown key (did you mean 'width'?); accepted keys: kind, id, width, height, "
     "base_depth, fold, base, slot_depth, slot_width, pieces, each, piece, title, part"),
    ("rulebook.yaml", "chapters:", "chapter:",
     "1: chapter: unknown key (did you mean 'chapters'?); accepted keys: pages, notes, chapters, fill, examples, battle"),
    # a deck key with a typo: its translated back label is not called unused
    ("game.yaml", "back: {label: Night market}", "back: {lable: Night market}",
     "26: deck 'lanterns': back.lable: unknown key (did you mean 'label'?); accepted keys: image, fit, by, images, "
     "labels, emblems, label, emblem, bleed"),
    # a deck left out: none of its translated words (deck, cards) are called unused
    ("game.yaml", "size: poker", "size: pokr",
     "19: deck 'lanterns': size: unknown size 'pokr'; give one of poker, bridge, mini, mini-euro, euro, square, "
     "tarot or {width, height} in mm"),
    # a field's type misspelt: its cards' values are not each reported against a type it does not have
    ("game.yaml", "colour: {type: choice", "colour: {type: choise",
     "22: deck 'lanterns': fields.colour.type: 'choise' is not one of: int, text, choice, list, bool; did you mean 'choice'?"),
    ("game.yaml", "first_light: {type: bool}", "first_light: {typ: bool}",
     "24: deck 'lanterns': fields.first_light.typ: unknown key (did you mean 'type'?); accepted keys: type, "
     "required, default, min, max, choices, icon, sign, format"),
])
def test_one_mistake_gives_one_message(lantern, file, old, new, message):
    edit(lantern / file, old, new)
    assert problems("validate", lantern) == [f"{lantern / file}:{message}"]


# ----------------------------------------------------------------------------- translations' own lines

def errors(*args) -> list[str]:
    """The errors of a ``pnp`` command that must find some (its warnings left out)."""
    return [line for line in problems(*args) if ": warning: " not in line]


def test_a_translated_card_name_too_long_is_reported_at_the_translations_line(lantern):
    es = lantern / "i18n" / "es.yaml"
    long = "Dragón Rojo Muy Largo De Verdad Que No Cabe En Ninguna Parte Del Naipe Jamás Nunca"
    edit(es, "  red-dragon: {name: Dragón Rojo, rules: ",
         f"  red-dragon:\n    name: {long}\n    rules: ")
    assert errors("validate", lantern, "--lang", "es") == [
        f"{es}:18: card 'red-dragon': name text does not fit its 52.0 x 9.4 mm box even at 8 pt (needs 3 lines, at "
        f"most 2 allowed): '{long}'"]
    # the same words in the game's own language are the cards file's
    cards = lantern / "lanterns.yaml"
    edit(cards, "name: Red Dragon", f"name: {long}")
    assert errors("validate", lantern, "--lang", "en") == [
        f"{cards}:4: card 'red-dragon': name text does not fit its 52.0 x 9.4 mm box even at 8 pt (needs 3 lines, "
        f"at most 2 allowed): '{long}'"]


def test_a_translated_token_caption_is_checked_and_reported_at_the_translations_line(lantern):
    es = lantern / "i18n" / "es.yaml"
    edit(es, "back: {caption: Gastado}", "back: {caption: Aceite gastado}")
    assert errors("validate", lantern, "--lang", "es") == [
        f"{es}:20: token 'oil': back.caption 'Aceite gastado' does not fit a 18 mm token"]


def test_a_translated_box_pitch_too_long_is_reported_at_the_translations_line(starter):
    (starter / "i18n").mkdir(exist_ok=True)
    es = starter / "i18n" / "es.yaml"
    es.write_text("box:\n  pitch: >-\n    " + "Una carrera por los puntos que no termina nunca. " * 40 + "\n")
    assert errors("validate", starter, "--lang", "es", "--allow-missing")[0].startswith(
        f"{es}:2: box: pitch text does not fit its ")


# ----------------------------------------------------------------------------- build tells what validate tells

def test_pnp_build_prints_the_warnings_pnp_validate_prints_once_each(starter, tmp_path):
    """A frame 3 mm inside the trim (a cut-line warning of the pieces check, which pnp build left out) is
    told by pnp build as by pnp validate: the same lines, once each, from a cold and from a warm cache."""
    edit(starter / "templates/layouts/starter.yaml", "{name: rank, remove: true}",
         "{name: rank, remove: true}\n  - {name: edge, kind: box, rect: [3, 3, 57, 82], stroke: \"#000000\", "
         "width: 0.3}")
    expected = [f"{starter}/cards.csv:{row}:1: warning: cards: card '{card}': edge runs 3.0 mm inside the trim, "
                f"where cutting drift (about 1.5 mm either way) makes it visibly uneven: run it into the bleed or "
                f"keep it at least 6 mm inside" for row, card in ((2, "spark"), (3, "ember"), (4, "flare"),
                                                                  (5, "star"))]
    validated = run("validate", starter, "--no-cache")
    assert validated.exit_code == 0 and validated.stderr.splitlines() == expected
    out = tmp_path / "kit"
    for _ in ("cold", "warm"):
        built = run("build", starter, "--out", out)
        assert built.exit_code == 0, built.output
        assert [line for line in built.stderr.splitlines() if not line.startswith("Nothing changed")] == expected
    (starter / "box.yaml").write_text((starter / "box.yaml").read_text() + "# an edit\n")     # rebuilt, from the cache
    built = run("build", starter, "--out", out)
    assert built.exit_code == 0 and built.stderr.splitlines() == expected


# ----------------------------------------------------------------------------- nothing written where pnp runs

def test_validate_and_preview_write_nothing_into_the_folder_they_run_in(starter, tmp_path, monkeypatch):
    here = tmp_path / "here"
    here.mkdir()
    cache_home = tmp_path / "cache-home"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache_home))
    monkeypatch.chdir(here)
    assert run("validate", starter).exit_code == 0
    previewed = run("preview", "spark", starter)
    assert previewed.exit_code == 0, previewed.output
    assert previewed.output == f"{cache_home}/pnp/preview/g/spark.png\n"
    assert list(here.iterdir()) == []
    # the checks are kept in pnp's marked folder of the user's cache: a second run reads them back
    kept = cache_home / "pnp" / "validate"
    assert (kept / "CACHEDIR.TAG").is_file() and (kept / "PNP-CACHE.TAG").is_file()
    assert sorted(p.name for p in (cache_home / "pnp").iterdir()) == ["preview", "validate"]
    # asked, they write where they are told
    assert run("validate", starter, "--cache", "mine").exit_code == 0
    assert run("preview", "spark", starter, "--out", "spark.png").exit_code == 0
    assert sorted(p.name for p in here.iterdir()) == ["mine", "spark.png"]


def test_the_user_cache_folder_follows_xdg_else_the_home_folder(tmp_path, monkeypatch):
    from pnp.cache.cachedir import user_cache_dir

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert user_cache_dir() == tmp_path / "xdg" / "pnp"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")        # the spec: only an absolute path counts
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert user_cache_dir() == tmp_path / "home" / ".cache" / "pnp"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert user_cache_dir() == tmp_path / "home" / ".cache" / "pnp"
