"""Colour for everyone: simulated colour-vision deficiencies and greyscale on the game's faction colours
(pnp validate warns when two come too close with nothing else telling them apart), and ``pnp preview
--vision`` showing a card as such a player sees it."""

import io
import shutil

import pytest
from click.testing import CliRunner
from PIL import Image

from pnp import DATA_DIR
from pnp.cli import main
from pnp.loading.colourvision import TOO_CLOSE, close_pairs, distance, simulate
from pnp.errors import Problems
from pnp.loading.gamedata import load_game
from pnp.loading.colourvision import vision_problems

EMPIRE, REBELS, CHURCH = "#8c1c24", "#2e6a3f", "#a8761a"


def test_the_empire_and_the_rebels_come_close_without_red_and_green():
    assert round(distance(EMPIRE, REBELS), 1) == 45.6
    assert round(distance(EMPIRE, REBELS, "deutan"), 1) == 8.2
    assert round(distance(EMPIRE, REBELS, "protan"), 1) == 18.1
    assert round(distance(EMPIRE, REBELS, "tritan"), 1) == 52.7
    assert round(distance(EMPIRE, REBELS, "grey"), 1) == 6.0
    # the worst of the simulations, for the one pair of the three that comes under the threshold
    assert close_pairs({"empire": EMPIRE, "rebels": REBELS, "church": CHURCH}) == [("empire", "rebels", "grey", 6.0)]
    assert TOO_CLOSE == 10.0


def test_greyscale_keeps_lightness_only():
    r, g, b = simulate((0.55, 0.11, 0.14), "grey")
    assert abs(r - g) < 0.01 and abs(g - b) < 0.01


def test_factions_with_the_same_emblem_and_colours_too_close_are_a_warning(tmp_path):
    root = tmp_path / "shadow_throne"
    shutil.copytree(DATA_DIR / "shadow_throne", root)
    text = (root / "game.yaml").read_text(encoding="utf-8")
    for emblem in ("crown", "sun"):
        text = text.replace(f"emblem: {emblem}}}", "emblem: star}")
    (root / "game.yaml").write_text(text, encoding="utf-8")
    problems = Problems()
    vision_problems(load_game(root), problems)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "id: rebels" in ln)
    assert [(p.path, p.line, p.subject, p.message) for p in problems] == [
        (str(root / "game.yaml"), line, "faction 'rebels'",
         "colour #2e6a3f and faction 'empire''s #8c1c24 come within ΔE 6 of each other for a greyscale print "
         "(under 10), and both show the emblem 'star': give one a colour further apart, or an emblem of its own")]
    assert all(p.warning for p in problems)


@pytest.mark.parametrize("name", ["shadow_throne", "shadow_queen"])
def test_factions_told_apart_by_their_emblems_are_fine(name):
    problems = Problems()
    vision_problems(load_game(name), problems)
    assert not problems


def _pixel(png: bytes, xy):
    return Image.open(io.BytesIO(png)).convert("RGB").getpixel(xy)


@pytest.mark.parametrize("vision", ["deutan", "protan", "tritan", "grey"])
def test_preview_shows_the_card_as_seen_with_that_vision(tmp_path, vision):
    plain, seen = tmp_path / "plain.png", tmp_path / "seen.png"
    runner = CliRunner()
    assert runner.invoke(main, ["preview", "dutiful-peasant", "--out", str(plain)]).exit_code == 0
    result = runner.invoke(main, ["preview", "dutiful-peasant", "--vision", vision, "--out", str(seen)])
    assert result.exit_code == 0, result.output
    a, b = plain.read_bytes(), seen.read_bytes()
    assert Image.open(io.BytesIO(b)).size == Image.open(io.BytesIO(a)).size
    # the Empire's frame, 1 mm inside the card's left edge at mid-height (100 dpi: 4 px)
    xy = (4, Image.open(io.BytesIO(a)).size[1] // 2)
    assert _pixel(a, xy) == (0x8c, 0x1c, 0x24)
    expected = [round(v * 255) for v in simulate([c / 255 for c in _pixel(a, xy)], vision)]
    assert all(abs(u - v) <= 1 for u, v in zip(_pixel(b, xy), expected)), (_pixel(b, xy), expected)


def test_preview_names_the_vision_in_its_default_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["preview", "dutiful-peasant", "--vision", "grey"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "output/preview/dutiful-peasant-grey.png"
