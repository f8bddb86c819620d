"""Exports: card PNGs at print-service sizes, Tabletop Simulator sheets and their JSON."""

import json

import pytest
from click.testing import CliRunner
from PIL import Image

from pnp.commands.cli import main
from pnp.draw.raster import pixels
from pnp.exports.tts import cell_size


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_pixel_rounding_rule():
    assert (pixels(63, 300), pixels(88, 300)) == (744, 1039)        # 744.09, 1039.37
    assert (pixels(69, 300), pixels(94, 300)) == (815, 1110)        # with 3 mm bleed
    assert pixels(25.4, 300) == 300 and pixels(0.127, 100) == 1     # 0.5 px rounds up


@pytest.fixture(scope="module")
def cards(tmp_path_factory):
    out = tmp_path_factory.mktemp("cards")
    result = run("export", "cards", "--dpi", "150", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


def test_one_png_per_physical_card_and_the_back(cards):
    names = sorted(p.name for p in cards.iterdir() if not p.name.startswith("."))
    assert len(names) == 54 + 5 + 1
    assert "outlaw-1.png" in names and "outlaw-3.png" in names and "outlaw-4.png" not in names
    assert "aid-5.png" in names and "back.png" in names
    for name in ("outlaw-1.png", "back.png", "aid-1.png"):
        with Image.open(cards / name) as im:
            assert im.size == (pixels(63, 150), pixels(88, 150))
            assert round(im.info["dpi"][0]) == 150
    # copies are the same image; the face is not blank
    assert (cards / "outlaw-1.png").read_bytes() == (cards / "outlaw-2.png").read_bytes()
    with Image.open(cards / "outlaw-1.png") as im:
        assert len(im.convert("RGB").getcolors(maxcolors=100000) or []) > 50


def test_exports_are_reproducible(tmp_path, cards):
    again = tmp_path / "again"
    assert run("export", "cards", "--dpi", "150", "--out", str(again)).exit_code == 0
    for p in cards.iterdir():
        assert p.read_bytes() == (again / p.name).read_bytes(), p.name


def test_tts_cell_size_fits_4096_px_both_ways():
    assert cell_size(63, 88) == (409, 571)               # 4090 x 3997 px sheets
    assert cell_size(70, 120) == (341, 585)              # tarot: the height decides (4095 px)
    for w, h in [(63, 88), (57, 89), (44, 63), (70, 120), (88, 63), (63.5, 88.9)]:
        cw, ch = cell_size(w, h)
        assert cw * 10 <= 4096 and ch * 7 <= 4096
        assert abs(ch / cw - h / w) < 1 / cw


@pytest.fixture(scope="module")
def tts(tmp_path_factory):
    out = tmp_path_factory.mktemp("tts")
    result = run("export", "tts", "behind_the_throne", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert result.output == (f"2 sheets of 409 x 571 px cards, back.png, tts.json and the saved object "
                             f"behind_the_throne.json in {out}\n")
    return out


def test_tts_sheets_and_index(tts):
    tmp_path = tts
    assert sorted(p.name for p in tmp_path.iterdir()) == [".pnp-export-tts.json", "back.png",
                                                          "behind_the_throne.json", "deck-1.png", "deck-2.png",
                                                          "tts.json"]
    index = json.loads((tmp_path / "tts.json").read_text())
    assert index["grid"] == {"columns": 10, "rows": 7}
    w, h = index["card_px"]["width"], index["card_px"]["height"]
    assert w * 10 <= 4096 and w == 409 and h == round(409 * 88 / 63)
    assert [s["cards"] for s in index["sheets"]] == [69, 13]           # 82 cards, 69 per sheet
    assert index["hidden_cell"] == {"row": 6, "column": 9, "index": 69}
    assert len(index["cards"]) == 82
    first = index["cards"][0]
    assert (first["sheet"], first["row"], first["column"], first["card"], first["copy"]) == (
        "deck-1.png", 0, 0, "general", 1)
    assert index["cards"][69]["sheet"] == "deck-2.png" and index["cards"][69]["index"] == 0
    assert index["cards"][69]["tts_card_id"] == 200 and index["cards"][68]["tts_card_id"] == 168
    for card in index["cards"]:
        assert card["index"] == card["row"] * 10 + card["column"] < 69
    # every copy of every card is listed once, with its name
    from pnp.loading.gamedata import load_game
    game = load_game("behind_the_throne")
    listed = [(c["card"], c["copy"]) for c in index["cards"]]
    assert len(set(listed)) == len(listed) == len(game.deck_for())
    assert {c["card"]: c["name"] for c in index["cards"]} == {c.id: c.name for c in game.cards}
    for sheet in index["sheets"]:
        with Image.open(tmp_path / sheet["file"]) as im:
            assert im.size == (w * 10, h * 7) and im.width <= 4096
            hidden = im.crop((9 * w, 6 * h, 10 * w, 7 * h))
            with Image.open(tmp_path / "back.png") as back:
                assert hidden.tobytes() == back.convert("RGB").tobytes()


def test_tts_cells_hold_the_cards_and_empty_cells_stay_white(tts):
    index = json.loads((tts / "tts.json").read_text())
    w, h = index["card_px"]["width"], index["card_px"]["height"]
    with Image.open(tts / "deck-2.png") as im:
        sheet = im.convert("RGB")
    used = {(c["row"], c["column"]) for c in index["cards"] if c["sheet"] == "deck-2.png"}
    for row in range(7):
        for col in range(10):
            cell = sheet.crop((col * w, row * h, (col + 1) * w, (row + 1) * h))
            colours = cell.getcolors(maxcolors=1 << 20)
            if (row, col) in used or (row, col) == (6, 9):
                assert len(colours) > 20, (row, col)
            else:
                assert colours == [(w * h, (255, 255, 255))], (row, col)


def test_tts_export_is_reproducible(tts, tmp_path):
    assert run("export", "tts", "behind_the_throne", "--out", str(tmp_path)).exit_code == 0
    for p in tts.iterdir():
        assert p.read_bytes() == (tmp_path / p.name).read_bytes(), p.name


def test_player_aids_come_after_the_deck():
    from pnp.exports.cards import deck_cards
    from pnp.loading.gamedata import load_game

    cards = deck_cards(load_game("shadow_throne"))
    assert [c.stem for c in cards[-5:]] == [f"aid-{k}" for k in range(1, 6)]
    assert {c.kind for c in cards[:-5]} == {"card"} and len(cards) == 59


def test_bleed_is_frame_colour_on_every_edge(tmp_path):
    assert run("export", "cards", "--dpi", "100", "--bleed", "3", "--out", str(tmp_path)).exit_code == 0
    with Image.open(tmp_path / "king-kyros-1.png") as im:
        face = im.convert("RGB")
    band = pixels(3, 100)                         # the 3 mm of bleed, in pixels
    frame = face.getpixel((0, 0))
    assert frame != (255, 255, 255)
    w, h = face.size
    for box in [(0, 0, w, band), (0, h - band, w, h), (0, 0, band, h), (w - band, 0, w, h)]:
        assert face.crop(box).getcolors() == [((box[2] - box[0]) * (box[3] - box[1]), frame)], box


def test_export_cards_reports_what_it_wrote(tmp_path):
    result = run("export", "cards", "--dpi", "72", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert result.output == f"60 images of 179 x 249 px (72 dpi, bleed 0 mm) in {tmp_path}\n"


@pytest.mark.parametrize("args,message", [
    (["export", "cards", "no_game"], "error: no game 'no_game'"),
    (["export", "tts", "no_game"], "error: no game 'no_game'"),
    (["export", "cards", "--dpi", "10"], "Invalid value for '--dpi'"),
    (["export", "cards", "--format", "jpg"], "Invalid value for '--format'"),
])
def test_bad_arguments_exit_2_with_one_message(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_invalid_data_exports_nothing(tmp_path, game_copy):
    cards = game_copy / "cards.yaml"
    cards.write_text(cards.read_text().replace("    power: 10\n", "    power: ten\n"))
    result = run("export", "cards", str(game_copy), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert "card 'king-kyros': power: expected an integer, got 'ten'" in result.output
    assert not (tmp_path / "out").exists()


def test_every_command_option_and_argument_is_described():
    """`pnp --help` and every subcommand's help are complete: a description, help for every option, and
    every argument named in the description."""
    import click

    def walk(command, path):
        yield command, path
        if isinstance(command, click.Group):       # (pnp's commands are loaded as they are looked up)
            ctx = click.Context(command)
            for name in command.list_commands(ctx):
                yield from walk(command.get_command(ctx, name), [*path, name])

    seen = []
    for command, path in walk(main, ["pnp"]):
        seen.append(" ".join(path))
        assert (command.help or "").strip(), path
        for param in command.params:
            if isinstance(param, click.Option):
                assert param.help, (path, param.opts)
            else:
                name = (param.metavar or param.name.upper()).split("|")[0]
                assert name in command.help, (path, name)
        result = CliRunner().invoke(main, [*path[1:], "--help"], prog_name="pnp")
        assert result.exit_code == 0 and "Usage: pnp" in result.output, path
    assert {"pnp export cards", "pnp export tts", "pnp preview", "pnp watch"} <= set(seen)
    assert CliRunner().invoke(main, ["--version"]).output.startswith("pnp, version ")
