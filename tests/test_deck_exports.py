"""Exports for every deck of a designer's game (Starfall: poker stars whose back varies by kind, mini
omens): each print service's template for each card size, decks it cannot print left out with a warning,
``--deck``, per-value backs in print-service exports, Tabletop Simulator sheets and previews."""

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image, ImageChops

from pnp.commands.cli import main
from pnp.loading.decks import NAMED_SIZES
from pnp.exports.presets import PRESETS, match_product
from pnp.draw.raster import pixels, size_px
from pnp.exports.tts import COLUMNS, ROWS, cell_size

STARFALL = Path(__file__).parent / "games" / "starfall"
STARS = ["lantern-1", "lantern-2", "ember-star-1", "tidewatch-1", "tidewatch-2", "pale-moon-1", "wanderer-1",
         "aid-1", "aid-2"]
STAR_BACKS = ["bright", "bright", "bright", "dim", "dim", "dim", "dim", None, None]   # aids: the deck's back
OMENS = ["eclipse-1", "eclipse-2", "comet-tail-1", "long-night-1", "long-night-2"]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))


def same_image(a: Path, b: Path) -> bool:
    with Image.open(a) as x, Image.open(b) as y:
        return x.size == y.size and ImageChops.difference(x.convert("RGB"), y.convert("RGB")).getbbox() is None


def game_yaml_line(root: Path, needle: str) -> int:
    return next(i for i, t in enumerate((root / "game.yaml").read_text().splitlines(), 1) if needle in t)


# ----------------------------------------------------------------------------- templates per card size

#: (pnp's named size) -> pixel size of the service's template for it, None where it sells no such card.
EXPECTED = {
    "thegamecrafter": {"poker": (825, 1125), "bridge": (750, 1125), "mini": (600, 825), "tarot": (900, 1500),
                       "square": (900, 900), "mini-euro": None, "euro": None},
    "makeplayingcards": {"poker": (822, 1122), "bridge": (747, 1122), "mini": (597, 822), "tarot": (897, 1497),
                         "square": None, "mini-euro": None, "euro": None},
}
EXPECTED["printerstudio"] = EXPECTED["makeplayingcards"]


@pytest.mark.parametrize("service", sorted(EXPECTED))
@pytest.mark.parametrize("size", sorted(NAMED_SIZES))
def test_each_service_has_its_template_for_each_card_size(service, size):
    product = match_product(PRESETS[service], *NAMED_SIZES[size])
    expected = EXPECTED[service][size]
    if expected is None:
        assert product is None
        return
    assert product.image_px == expected
    # the trim plus the bleed on each side is exactly the image, at 300 dpi
    (w, h), (bx, by) = product.trim_mm, product.bleeds_mm
    assert size_px(w + 2 * bx, h + 2 * by, 300) == expected
    # the safe zone: 1/8 in inside the trim at The Game Crafter, 36 px (3.05 mm) at MakePlayingCards'
    assert round(product.safe_inside_trim_mm, 3) == (3.175 if service == "thegamecrafter" else 3.048)
    # the product's trim is within 1.5 mm of the deck's card on each side
    assert all(abs(a - b) <= 1.5 for a, b in zip((w, h), NAMED_SIZES[size]))


def test_the_game_crafters_catalogue_sizes():
    got = {p.name: (p.image_px, tuple(round(v, 2) for v in p.trim_mm), tuple(round(b, 3) for b in p.bleeds_mm))
           for p in PRESETS["thegamecrafter"].products}
    assert got["mini"] == ((600, 825), (44.45, 63.5), (3.175, 3.175))
    assert got["bridge"] == ((750, 1125), (57.15, 88.9), (3.175, 3.175))
    assert got["tarot"] == ((900, 1500), (69.85, 120.65), (3.175, 3.175))
    assert got["euro-square"] == ((900, 900), (70.0, 70.0), (3.1, 3.1))
    assert got["us-game"] == ((750, 1125), (56.0, 87.0), (3.75, 4.125))      # metric: bleeds differ


# ----------------------------------------------------------------------------- print-service exports

@pytest.fixture(scope="module")
def tgc(tmp_path_factory):
    out = tmp_path_factory.mktemp("tgc")
    result = run("export", "cards", STARFALL, "--preset", "thegamecrafter", "--out", out)
    assert result.exit_code == 0, result.output
    return out, result


def test_every_deck_gets_the_template_of_its_size(tgc):
    out, result = tgc
    assert names(out) == ["omens", "stars"]
    assert names(out / "stars") == ["back-bright.png", "back-dim.png", "back.png", "backs", "fronts"]
    assert names(out / "stars" / "fronts") == [f"{n:03d}-{s}.png" for n, s in enumerate(STARS, 1)]
    assert names(out / "omens") == ["back.png", "fronts"]               # one back: no backs/ folder
    assert names(out / "omens" / "fronts") == [f"{n:03d}-{s}.png" for n, s in enumerate(OMENS, 1)]
    for folder, size in (("stars", (825, 1125)), ("omens", (600, 825))):
        for path in sorted((out / folder).rglob("*.png")):
            with Image.open(path) as im:
                assert im.size == size and im.mode == "RGB", path
                assert [round(v) for v in im.info["dpi"]] == [300, 300]
    assert ("images of 600 x 825 px, 825 x 1125 px for The Game Crafter (deck 'stars': Poker Deck, 825 x 1125 px; "
            "deck 'omens': Mini Deck, 600 x 825 px; 300 dpi, RGB)") in result.output
    # every face keeps the safe zone; the one warning: the stars' back picture is made to the trim and the
    # template's bleed cuts into it (starfall gives it no bleed: extend)
    assert [line.split(": warning: ", 1)[1] for line in result.stderr.splitlines() if ": warning: " in line] == [
        "deck 'stars' back: back-bright.png (300 x 420 px) has the proportions of the 63 x 88 mm card, so it ends at "
        "the trim: drawn over the 3.2 mm bleed that --preset thegamecrafter (The Game Crafter) adds, it loses about "
        "3.2 mm at every edge; give it bleed: extend (or mirror) to make the bleed from its edges"]


def test_each_card_gets_its_own_back_numbered_as_its_front(tgc):
    out, _ = tgc
    stars = out / "stars"
    assert names(stars / "backs") == names(stars / "fronts")
    for n, (stem, value) in enumerate(zip(STARS, STAR_BACKS), 1):
        back = stars / "backs" / f"{n:03d}-{stem}.png"
        expected = stars / (f"back-{value}.png" if value else "back.png")
        assert back.read_bytes() == expected.read_bytes(), back.name
    assert not same_image(stars / "back-bright.png", stars / "back-dim.png")
    assert not same_image(stars / "back-dim.png", stars / "back.png")
    # the picture back (art/back-bright.png) fills the image, bleed included: no white edge
    with Image.open(stars / "back-bright.png") as im:
        assert all(im.getpixel(p) != (255, 255, 255) for p in [(0, 0), (824, 0), (0, 1124), (824, 1124)])


def test_makeplayingcards_sizes_per_deck(tmp_path):
    result = run("export", "cards", STARFALL, "--preset", "makeplayingcards", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    for folder, size in (("stars", (822, 1122)), ("omens", (597, 822))):
        for path in [tmp_path / folder / "back.png", *sorted((tmp_path / folder / "fronts").iterdir())[:1]]:
            with Image.open(path) as im:
                assert im.size == size, path


@pytest.fixture
def euro_omens(tmp_path):
    """Starfall with its omens on 44 x 68 mm cards, a size no service here sells."""
    root = tmp_path / "starfall"
    shutil.copytree(STARFALL, root)
    text = (root / "game.yaml").read_text()
    (root / "game.yaml").write_text(text.replace("    size: mini\n", "    size: mini-euro\n", 1))
    return root


def test_a_deck_the_service_cannot_print_is_left_out_with_a_warning(euro_omens, tmp_path):
    out = tmp_path / "out"
    result = run("export", "cards", euro_omens, "--preset", "thegamecrafter", "--out", out)
    assert result.exit_code == 0, result.output
    line = game_yaml_line(euro_omens, "- id: omens")
    assert result.stderr.splitlines() == [
        f"{euro_omens / 'game.yaml'}:{line}: warning: deck 'omens': none of The Game Crafter's card templates pnp "
        "knows fits 44 x 68 mm cards (within 1.5 mm; the closest is mini, 44.5 x 63.5 mm; docs/printing.md lists "
        "them); the deck is left out of the export",
        f"{euro_omens / 'game.yaml'}:{game_yaml_line(euro_omens, 'back: {by: kind')}: warning: deck 'stars' back: "
        "back-bright.png (300 x 420 px) has the proportions of the 63 x 88 mm card, so it ends at the trim: drawn over "
        "the 3.2 mm bleed that --preset thegamecrafter (The Game Crafter) adds, it loses about 3.2 mm at every edge; "
        "give it bleed: extend (or mirror) to make the bleed from its edges"]
    assert names(out) == ["stars"]                       # the rest of the game is exported
    assert len(names(out / "stars" / "fronts")) == 9


def test_when_no_deck_can_be_printed_nothing_is_written(euro_omens, tmp_path):
    out = tmp_path / "out"
    result = run("export", "cards", euro_omens, "--preset", "makeplayingcards", "--deck", "omens", "--out", out)
    assert result.exit_code == 2
    line = game_yaml_line(euro_omens, "- id: omens")
    assert (f"game.yaml:{line}: deck 'omens': none of MakePlayingCards' card templates pnp knows fits 44 x 68 mm "
            "cards") in result.output
    assert "warning" not in result.output and not out.exists()


def test_deck_selects_decks(tmp_path):
    result = run("export", "cards", STARFALL, "--preset", "printerstudio", "--deck", "omens", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert names(tmp_path) == ["omens"]
    result = run("export", "cards", STARFALL, "--dpi", "40", "--deck", "stars", "--deck", "omens",
                 "--out", tmp_path / "plain")
    assert result.exit_code == 0, result.output
    assert names(tmp_path / "plain") == ["omens", "stars"]
    assert names(tmp_path / "plain" / "stars")[:3] == ["aid-1.png", "aid-2.png", "back-bright.png"]


@pytest.mark.parametrize("command", [["cards", "--preset", "thegamecrafter"], ["cards"], ["tts"]])
def test_an_unknown_deck_is_an_error_with_the_closest_id(command, tmp_path):
    result = run("export", *command, STARFALL, "--deck", "omen", "--out", tmp_path / "x")
    assert result.exit_code == 2
    assert result.output == ("error: --deck 'omen': Starfall has no deck of that id; did you mean 'omens'? "
                             "(decks: stars, omens)\n")
    assert not (tmp_path / "x").exists()


# ----------------------------------------------------------------------------- Tabletop Simulator

@pytest.fixture(scope="module")
def tts(tmp_path_factory):
    out = tmp_path_factory.mktemp("tts")
    result = run("export", "tts", STARFALL, "--out", out)
    assert result.exit_code == 0, result.output
    return out, json.loads((out / "tts.json").read_text())


def cell(sheet: Path, index: int, size) -> Image.Image:
    row, col = divmod(index, COLUMNS)
    with Image.open(sheet) as im:
        return im.crop((col * size[0], row * size[1], (col + 1) * size[0], (row + 1) * size[1])).convert("RGB")


def equal(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a, b.convert("RGB")).getbbox() is None


def test_tts_keeps_each_cards_back_in_a_back_sheet(tts):
    out, index = tts
    size = cell_size(63, 88)
    assert names(out / "stars") == ["back-bright.png", "back-dim.png", "back.png", "backs-1.png", "deck-1.png"]
    assert names(out / "omens") == ["back.png", "deck-1.png"]
    with Image.open(out / "stars" / "backs-1.png") as im:
        assert im.size == (size[0] * COLUMNS, size[1] * ROWS)
    backs = {v: Image.open(out / "stars" / (f"back-{v}.png" if v else "back.png")).convert("RGB")
             for v in ("bright", "dim", None)}
    for i, value in enumerate(STAR_BACKS):
        assert equal(cell(out / "stars" / "backs-1.png", i, size), backs[value]), i
    # the hidden-card cell of both sheets is the deck's own back; cells without a card stay white
    assert equal(cell(out / "stars" / "backs-1.png", COLUMNS * ROWS - 1, size), backs[None])
    assert equal(cell(out / "stars" / "deck-1.png", COLUMNS * ROWS - 1, size), backs[None])
    assert cell(out / "stars" / "backs-1.png", 20, size).getcolors() == [(size[0] * size[1], (255, 255, 255))]
    # the face sheet holds the faces, not the backs
    assert not equal(cell(out / "stars" / "deck-1.png", 0, size), backs["bright"])


def test_tts_json_says_which_back_each_card_shows(tts):
    _, index = tts
    stars, omens = index["decks"]
    assert stars["unique_backs"] is True
    assert stars["backs"] == {"bright": "stars/back-bright.png", "dim": "stars/back-dim.png"}
    assert "unique_backs" not in omens and "backs" not in omens
    sheet = next(s for s in index["sheets"] if s["file"] == "stars/deck-1.png")
    assert sheet["backs"] == "stars/backs-1.png" and sheet["cards"] == 9
    assert "backs" not in next(s for s in index["sheets"] if s["file"] == "omens/deck-1.png")
    cards = [e for e in index["cards"] if e["deck"] == "stars"]
    assert [(e["card"], e["copy"], e["back_value"], e["back"]) for e in cards] == [
        (s.rsplit("-", 1)[0], int(s.rsplit("-", 1)[1]), v, f"stars/back-{v}.png" if v else "stars/back.png")
        for s, v in zip(STARS, STAR_BACKS)]
    assert all("back" not in e for e in index["cards"] if e["deck"] == "omens")


def test_tts_deck_option(tmp_path):
    result = run("export", "tts", STARFALL, "--deck", "omens", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    index = json.loads((tmp_path / "tts.json").read_text())
    assert [d["id"] for d in index["decks"]] == ["omens"] and names(tmp_path) == ["omens", "starfall.json", "tts.json"]
    assert {e["tts_card_id"] for e in index["cards"]} == {100, 101, 102, 103, 104}


# ----------------------------------------------------------------------------- previews

def test_preview_shows_a_back_by_value(tmp_path):
    out = tmp_path / "p.png"
    result = run("preview", "stars:back-bright", STARFALL, "--dpi", "50", "--out", out)
    assert result.exit_code == 0, result.output
    with Image.open(out) as im:
        assert im.size == (pixels(63, 50), pixels(88, 50))
    exported = tmp_path / "cards"
    assert run("export", "cards", STARFALL, "--dpi", "50", "--out", exported).exit_code == 0
    assert same_image(out, exported / "stars" / "back-bright.png")
    assert not same_image(out, exported / "stars" / "back-dim.png")


def test_preview_back_with_several_decks_writes_each_decks_back(tmp_path):
    runner = CliRunner()
    folder = Path(os.environ["XDG_CACHE_HOME"]) / "pnp" / "preview" / "starfall"      # tests/conftest.py
    result = runner.invoke(main, ["preview", "back", str(STARFALL), "--dpi", "30"])
    assert result.exit_code == 0, result.output
    assert result.output == f"{folder}/stars-back.png\n{folder}/omens-back.png\n"
    with Image.open(folder / "omens-back.png") as im:
        assert im.size == (pixels(44, 30), pixels(63, 30))          # the omens are mini cards
    result = runner.invoke(main, ["preview", "back-dim", str(STARFALL), "--dpi", "30"])
    assert result.exit_code == 0 and result.output == f"{folder}/stars-back-dim.png\n", result.output


def test_preview_back_into_one_file_names_the_decks(tmp_path):
    result = run("preview", "back", STARFALL, "--out", tmp_path / "b.png")
    assert result.exit_code == 2
    assert result.output == (f"error: 'back': Starfall has 2 decks with one; name a deck to write "
                             f"{tmp_path / 'b.png'}: stars:back, omens:back\n")
