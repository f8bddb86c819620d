"""A game is its folder: templates, art, backs and rulebooks come from it, never from pnp by the folder's
name; a rulebook needs no engine."""

import shutil

import pytest
from click.testing import CliRunner
from PIL import Image

from pnp import DATA_DIR
from pnp.commands.cli import main
from pnp.components import BuildOptions
from pnp.components import cards as cards_component
from pnp.components.cards import effective_dpi
from pnp.draw.pictures import placement
from pnp.loading.gamedata import load_game
from pnp.layout.geometry import Picture, Transform, flatten

GAME = """\
title: Lanterns
players: {min: 2, max: 4}
decks:
  - id: lights
    name: Lights
    cards: lights.yaml
    fields:
      colour: {type: choice, choices: [red, blue], required: true}
    back: {by: colour, images: {red: art/red.png}, labels: {blue: Blue lights}}
    aids: {copies: 1}
components: [cards, rulebook]
"""

CARDS = """\
cards:
  - {id: ember, name: Ember, copies: 1, colour: red, art: art/wide.png, art_fit: cover, art_focus: [0.2, 0.5]}
  - {id: glow, name: Glow, copies: 1, colour: red, art: art/wide.png, art_fit: contain}
  - {id: haze, name: Haze, copies: 1, colour: blue, art: art/wide.png, art_fit: fill}
  - {id: spark, name: Spark, copies: 1, colour: blue, art: art/moon.svg}
  - {id: dusk, name: Dusk, copies: 1, colour: blue}
"""

RULEBOOK = """\
pages: 4
chapters: [cover, rules]
"""

RULES = """\
# How to play
Light a [moon] lantern each turn. The deck has {{ game.cards | length }} cards.
"""

MOON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 20"><circle cx="10" cy="10" r="9" fill="#e0c040"/></svg>'


def write_game(root, game=GAME, cards=CARDS, rules=RULES, rulebook=RULEBOOK):
    (root / "art").mkdir(parents=True, exist_ok=True)
    (root / "icons").mkdir(exist_ok=True)
    (root / "game.yaml").write_text(game)
    (root / "lights.yaml").write_text(cards)
    (root / "rulebook.yaml").write_text(rulebook)
    Image.new("RGB", (400, 100), (30, 90, 160)).save(root / "art" / "wide.png")
    Image.new("RGB", (60, 60), (200, 40, 40)).save(root / "art" / "red.png")
    (root / "art" / "moon.svg").write_text(MOON)
    (root / "icons" / "moon.svg").write_text(MOON)
    chapters = root / "templates" / "rulebook" / "en"
    chapters.mkdir(parents=True, exist_ok=True)
    (chapters / "rules.md.j2").write_text(rules)
    aids = root / "templates" / "aids" / "en"
    aids.mkdir(parents=True, exist_ok=True)
    (aids / "quick_reference.md.j2").write_text("# Turn\nLight one [moon], pass.\n")
    return root


@pytest.fixture
def lanterns(tmp_path):
    return write_game(tmp_path / "lanterns")


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def line_in(path, needle):
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


# ----------------------------------------------------------------------------- art

def test_art_fit_modes_place_the_picture():
    box = (0.0, 0.0, 50.0, 50.0)
    assert placement(400, 100, box, "fill") == box
    x, y, w, h = placement(400, 100, box, "contain")
    assert (round(w, 6), round(h, 6), round(y, 6)) == (50, 12.5, 18.75)
    x, y, w, h = placement(400, 100, box, "cover")
    assert (round(w, 6), round(h, 6), round(x, 6)) == (200, 50, -75)           # centred crop
    x, *_ = placement(400, 100, box, "cover", (0.0, 0.5))
    assert x == 0                                                              # the left edge kept in view
    x, *_ = placement(400, 100, box, "cover", (0.2, 0.5))
    assert round(x, 6) == -15                                                  # 20 % across, in the middle


def test_each_card_draws_its_art_as_the_data_says(lanterns):
    game = load_game(lanterns)
    faces = {c.id: list(flatten(cards_component.card_face(cards_component.face_content(game, c), 63, 88)))
             for c in game.cards}
    arts = {cid: [e for e in els if isinstance(e, Picture) and e.role == "art"] for cid, els in faces.items()}
    assert (arts["ember"][0].fit, arts["ember"][0].focus) == ("cover", (0.2, 0.5))
    assert arts["glow"][0].fit == "contain" and arts["haze"][0].fit == "fill"
    assert arts["spark"][0].path.endswith("moon.svg") and arts["dusk"] == []
    assert not [e for e in faces["ember"] if e.role == "emblem"]          # art replaces the placeholder


def test_low_resolution_art_is_a_warning_naming_card_file_and_dpi(lanterns):
    result = run("validate", lanterns)
    assert result.exit_code == 0, result.output
    line = line_in(lanterns / "lights.yaml", "id: ember")
    # the art area its layout gives it: classic's tall window on a card without rules text (49.6 mm)
    # cover: the 100 px height fills the 49.6 mm area (51 dpi); contain: the 400 px width spans 53 mm
    assert (f"lights.yaml:{line}: warning: card 'ember': art wide.png prints at 51 dpi (400 x 100 px on "
            f"53.0 x 49.6 mm); print shops ask for 300") in result.output
    assert "card 'glow': art wide.png prints at 192 dpi" in result.output
    assert "card 'spark'" not in result.output                     # vectors have no resolution to lose
    assert round(effective_dpi((400, 100), (53.0, 34.6), "contain")) == 192


@pytest.mark.parametrize("art,message", [
    ("art/missing.png", "art: no file 'art/missing.png' in the game folder"),
    ("../outside.png", "art: '../outside.png' leaves the game folder"),
    ("art/notes.txt", "art: 'art/notes.txt' is not a PNG, JPEG or SVG file"),
])
def test_bad_art_is_an_error_with_the_cards_line(tmp_path, art, message):
    root = write_game(tmp_path / "g", cards=CARDS.replace("art: art/moon.svg", f"art: {art}"))
    result = run("validate", root)
    assert result.exit_code == 2
    assert f"lights.yaml:{line_in(root / 'lights.yaml', 'id: spark')}: card 'spark': {message}" in result.output


# ----------------------------------------------------------------------------- backs

def test_backs_vary_by_a_card_key(lanterns):
    game = load_game(lanterns)
    _, backs, _ = cards_component.build(game, BuildOptions(paper="a4"))
    page = backs.pages[0]
    groups = {g.role: g for g in page.groups("back:")}
    assert [e.path.split("/")[-1] for e in groups["back:ember#1"].elements] == ["red.png"]
    blue = [e.markup for e in flatten(groups["back:dusk#1"].elements) if e.role == "back-title"]
    assert blue == ["LANTERNS", "BLUE LIGHTS"]
    aid = [e.markup for e in flatten(groups["back:aid#1"].elements) if e.role == "back-title"]
    assert aid == ["LANTERNS"]                                   # the deck's own back: the designed one
    # picture backs run 2 mm past their card (no bleed): the picture, not the plain colour
    margins = [g for g in page.groups("back-bleed")]
    assert len(margins) == 2                                      # ember, glow


def test_every_back_is_exported(lanterns, tmp_path):
    out = tmp_path / "cards"
    result = run("export", "cards", lanterns, "--dpi", "30", "--out", out)
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
    assert {"back.png", "back-red.png", "back-blue.png", "aid-1.png"} <= set(names)
    with Image.open(out / "back-red.png") as im:
        assert im.convert("RGB").getpixel((im.width // 2, im.height // 2)) == (200, 40, 40)


def test_one_picture_back_for_every_card(tmp_path):
    root = write_game(tmp_path / "g", game=GAME.replace(
        "back: {by: colour, images: {red: art/red.png}, labels: {blue: Blue lights}}", "back: {image: art/red.png}"))
    game = load_game(root)
    _, backs, *_ = cards_component.build(game, BuildOptions(bleed=3))   # (+ cards-one-per-page.pdf)

    def inside(elements):          # cards with a bleed lie turned: their backs sit inside a Transform
        for e in flatten(elements):
            yield from inside(e.elements) if isinstance(e, Transform) else (e,)
    pictures = [e for p in backs.pages for e in inside(p.elements) if isinstance(e, Picture)]
    assert len(pictures) == 6 and {e.rect.w for e in pictures} == {63 + 6}


@pytest.mark.parametrize("back,message", [
    ("{by: colour, images: {red: art/nope.png}}", "deck 'lights': back: no PNG, JPEG or SVG file 'art/nope.png'"),
    ("{by: hue, labels: {red: Red}}", "deck 'lights': back.by: 'hue' is not a card key of the deck"),
    ("{labels: {red: Red}}", "deck 'lights': back: images, labels or emblems by value need 'by: <card key>'"),
    ("{emblem: lantern}", "back.emblem: unknown icon 'lantern'"),
])
def test_bad_backs_are_errors(tmp_path, back, message):
    root = write_game(tmp_path / "g", game=GAME.replace(
        "{by: colour, images: {red: art/red.png}, labels: {blue: Blue lights}}", back))
    result = run("validate", root)
    assert result.exit_code == 2 and message in result.output, result.output


# ----------------------------------------------------------------------------- templates and rulebook

def test_a_rulebook_without_an_engine_builds_from_the_folders_chapters(lanterns, tmp_path):
    out = tmp_path / "out"
    result = run("build", lanterns, "--out", out)
    assert result.exit_code == 0, result.output
    from rasterize import page_texts
    text = " ".join(page_texts(out / "rulebook.pdf"))
    assert "How to play" in text and "The deck has 5 cards." in text


def test_engine_examples_without_an_engine_are_a_validation_error(tmp_path):
    root = write_game(tmp_path / "g", rulebook=RULEBOOK + "examples:\n  - {id: first, scenario: x.yaml}\n")
    result = run("validate", root)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert (f"rulebook.yaml:{line_in(root / 'rulebook.yaml', 'examples')}: rulebook: examples: played by the rules "
            f"engine, but game.yaml names no engine") in result.output


def test_an_unknown_icon_in_a_chapters_output_is_a_validation_error(tmp_path):
    root = write_game(tmp_path / "g", rules=RULES.replace("[moon]", "[mon]"))
    result = run("validate", root)
    assert result.exit_code == 2
    assert "rules.md.j2:2: chapter 'rules': unknown icon [mon]" in result.output


def test_an_unknown_icon_in_an_aid_is_a_validation_error(tmp_path):
    root = write_game(tmp_path / "g")
    (root / "templates" / "aids" / "en" / "quick_reference.md.j2").write_text("# Turn\nLight one [mon].\n")
    result = run("validate", root)
    assert result.exit_code == 2 and "player aid: aid-body text: unknown icon [mon]" in result.output


def test_a_copied_bundled_game_builds_the_same_kit(tmp_path, built_kit):
    """The bundled game's kit is the run's shared one (``pnp build shadow_throne --lang en --paper letter``:
    the game's language and pnp's default paper: the same command as without them)."""
    copy = tmp_path / "my_copy"
    shutil.copytree(DATA_DIR / "shadow_throne", copy)
    a, b = built_kit("shadow_throne"), tmp_path / "b"
    assert run("build", copy, "--out", b).exit_code == 0
    for name in ("cards-fronts.pdf", "rulebook.pdf", "tokens.pdf", "box.pdf", "instructions.pdf"):
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_no_bundled_game_keeps_templates_in_pnp():
    from pnp import TEMPLATES_DIR

    assert sorted(p.name for p in (TEMPLATES_DIR / "rulebook").iterdir()) == ["common"]
    assert not (TEMPLATES_DIR / "abilities").exists() and not (TEMPLATES_DIR / "aids").exists()


def test_card_art_with_a_typo_names_the_closest_picture(tmp_path):
    """A card's art that is not there names the game folder's closest picture, as look.art does."""
    root = write_game(tmp_path / "g", cards=CARDS.replace("art: art/moon.svg", "art: art/mon.svg"))
    result = run("validate", root)
    assert result.exit_code == 2
    line = line_in(root / "lights.yaml", "id: spark")
    assert (f"lights.yaml:{line}: card 'spark': art: no file 'art/mon.svg' in the game folder; "
            f"did you mean 'art/moon.svg'?") in result.output
