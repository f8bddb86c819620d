"""game.yaml's ``look:``: the emblem, cover art and colours of the rulebook cover, the designed card backs
and the box, for a game without factions (pnp new's starter) or one that wants its own; every key
checked where it is written."""

import textwrap

import pypdfium2
import pytest
from click.testing import CliRunner
from PIL import Image

from pnp.commands.cli import main
from pnp.components import BuildOptions
from pnp.components import box as box_component
from pnp.components.cards import back_elements
from pnp.loading.gamedata import load_game
from pnp.layout.geometry import Box, Icon, Picture, flatten

NAVY, GOLD, PAPER, INK = "#1d3557", "#e9c46a", "#f1faee", "#1d1d1b"

LOOK = f"""\
look:
  emblem: spark
  palette: {{back: "{NAVY}", accent: "{GOLD}", paper: "{PAPER}", ink: "{INK}"}}
"""


def starter(tmp_path, look: str = "", back: str | None = None):
    """pnp new's starter game (no factions), its deck's back without an emblem of its own, and ``look``
    added after its palette line."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    root = tmp_path / "lantern"
    result = CliRunner().invoke(main, ["new", str(root), "--title", "Lantern Harbour"])
    assert result.exit_code == 0, result.output
    game_yaml = root / "game.yaml"
    text = game_yaml.read_text()
    lines = text.splitlines(keepends=True)
    lines = [line for line in lines if not line.lstrip().startswith("back: {emblem: spark}")]
    if back is not None:
        lines.insert(next(i for i, line in enumerate(lines) if "layout: starter" in line) + 1, back)
    at = next(i for i, line in enumerate(lines) if line.startswith("palette:")) + 1
    game_yaml.write_text("".join(lines[:at]) + look + "".join(lines[at:]))
    return root


def picture(path, size=(300, 200), colour=(200, 40, 40)):
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, colour).save(path)
    return path


def line_in(path, needle):
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


# ----------------------------------------------------------------------------- checks

@pytest.mark.parametrize("look,needle,message", [
    ("look: {emblem: sprak}", "look:", "look.emblem: unknown icon 'sprak'; did you mean 'spark'?"),
    ("look: {art: art/covr.png}", "look:",
     "look.art: no file 'art/covr.png' in the game folder; did you mean 'art/cover.png'?"),
    ("look: {art: art/notes.txt}", "look:", "look.art: 'art/notes.txt' is not a PNG, JPEG or SVG file"),
    ("look: {art: ../cover.png}", "look:", "look.art: '../cover.png' "),
    ("look: {emblen: spark}", "look:", "look.emblen: unknown key (did you mean 'emblem'?)"),
    ("look:\n  palette: {acent: '#ffffff'}\n", "palette: {acent", "look.palette.acent: unknown key (did you mean 'accent'?)"),
    ("look:\n  palette: {back: navy}\n", "palette: {back: navy", "look.palette.back: "),
])
def test_every_key_of_the_look_is_checked_at_its_line(tmp_path, look, needle, message):
    root = starter(tmp_path, look if look.endswith("\n") else look + "\n")
    picture(root / "art" / "cover.png")
    result = CliRunner().invoke(main, ["validate", str(root)])
    assert result.exit_code == 2, result.output
    line = line_in(root / "game.yaml", needle)
    assert f"game.yaml:{line}: {message}" in result.output, result.output
    assert "Traceback" not in result.output


def test_a_missing_picture_lists_the_pictures_there_are_when_none_is_close(tmp_path):
    root = starter(tmp_path, "look: {art: lighthouse.png}\n")
    picture(root / "art" / "cover.png")
    result = CliRunner().invoke(main, ["validate", str(root)])
    assert result.exit_code == 2
    assert ("look.art: no file 'lighthouse.png' in the game folder; pictures in the game folder: art/cover.png"
            in result.output), result.output


# ----------------------------------------------------------------------------- what prints

def test_without_factions_or_look_the_backs_show_a_crown(tmp_path):
    game = load_game(starter(tmp_path))
    assert game.factions == () and game.look.emblem is None
    icons = [e for e in back_elements(game, game.decks[0]) if isinstance(e, Icon)]
    assert [e.name for e in icons] == ["crown"]


def test_the_designed_backs_show_the_look(tmp_path):
    game = load_game(starter(tmp_path, LOOK))
    back = back_elements(game, game.decks[0])
    assert [(e.name, e.colour) for e in back if isinstance(e, Icon)] == [("spark", GOLD)]
    ground = next(e for e in back if e.role == "back")
    assert ground.fill == NAVY
    assert {e.stroke for e in back if isinstance(e, Box) and e.stroke} == {GOLD}
    # a deck's own back emblem still wins over the game's
    game = load_game(starter(tmp_path / "own", LOOK, back="    back: {emblem: point}\n"))
    assert [e.name for e in back_elements(game, game.decks[0]) if isinstance(e, Icon)] == ["point"]


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_the_box_shows_the_look(tmp_path, paper):
    root = starter(tmp_path, LOOK)
    game = load_game(root)
    pages = box_component.layout(game, BuildOptions(paper=paper)).pages
    els = [e for page in pages for e in flatten(page.elements)]
    panels = {e.role: e.fill for e in els if e.role.startswith("panel:")}
    assert panels["panel:tuck-front"] == NAVY and panels["panel:tuck-back"] == PAPER
    assert [(e.name, e.colour) for e in els if e.role == "emblem"] == [("spark", GOLD)]
    assert {e.style.colour for e in els if e.role == "lid-title"} == {GOLD}
    # with art, the picture takes the emblems' place
    picture(root / "art" / "cover.png")
    text = (root / "game.yaml").read_text().replace("  emblem: spark\n", "  emblem: spark\n  art: art/cover.png\n")
    (root / "game.yaml").write_text(text)
    game = load_game(root)
    els = [e for page in box_component.layout(game, BuildOptions(paper=paper)).pages for e in flatten(page.elements)]
    arts = [e for e in els if isinstance(e, Picture) and e.role == "lid-art"]
    assert len(arts) == 1 and arts[0].path.endswith("cover.png") and arts[0].fit == "contain"
    assert not [e for e in els if e.role == "emblem"]


def cover_pixels(pdf_path):
    pdf = pypdfium2.PdfDocument(str(pdf_path))
    image = pdf[0].render(scale=40 / 72).to_pil().convert("RGB")
    pdf.close()
    return image


def count(image, colour, tolerance=24) -> int:
    """Pixels of ``image`` within ``tolerance`` of ``colour`` on each channel."""
    return sum(n for n, pixel in image.getcolors(1 << 24) if close_to(pixel, colour, tolerance))


def close_to(pixel, colour, tolerance=24):
    rgb = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, rgb))


def test_the_rulebook_cover_shows_the_look(tmp_path):
    root = starter(tmp_path, LOOK)
    out = tmp_path / "kit"
    result = CliRunner().invoke(main, ["build", str(root), "--out", str(out)])
    assert result.exit_code == 0, result.output
    image = cover_pixels(out / "rulebook.pdf")
    assert count(image, NAVY) > 300                              # the emblem's disc in the back's colour
    # the cover art takes the emblem's place
    picture(root / "art" / "cover.png", colour=(200, 40, 40))
    text = (root / "game.yaml").read_text().replace("  emblem: spark\n", "  emblem: spark\n  art: art/cover.png\n")
    (root / "game.yaml").write_text(text)
    result = CliRunner().invoke(main, ["build", str(root), "--out", str(out)])
    assert result.exit_code == 0, result.output
    image = cover_pixels(out / "rulebook.pdf")
    assert count(image, "#c82828") > 2000
    assert count(image, NAVY) < 50
