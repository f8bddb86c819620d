"""Exports: card PNGs at print-service sizes, Tabletop Simulator sheets and their JSON, previews, watch."""

import json
import threading
import time

import pytest
from click.testing import CliRunner
from PIL import Image

from pnp.cli import main
from pnp.components import BuildOptions
from pnp.exports.raster import pixels


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
    names = sorted(p.name for p in cards.iterdir())
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


def test_bleed_adds_to_every_side(tmp_path):
    result = run("export", "cards", "--dpi", "100", "--bleed", "3", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    with Image.open(tmp_path / "king-kyros-1.png") as im:
        assert im.size == (pixels(69, 100), pixels(94, 100))
        # the faction colour reaches the very edge of the bleed
        r, g, b = im.convert("RGB").getpixel((1, im.height // 2))
        assert (r, g, b) != (255, 255, 255) and r > g


def test_exports_are_reproducible(tmp_path, cards):
    again = tmp_path / "again"
    assert run("export", "cards", "--dpi", "150", "--out", str(again)).exit_code == 0
    for p in cards.iterdir():
        assert p.read_bytes() == (again / p.name).read_bytes(), p.name


def test_tts_sheets_and_index(tmp_path):
    result = run("export", "tts", "behind_the_throne", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
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
    for sheet in index["sheets"]:
        with Image.open(tmp_path / sheet["file"]) as im:
            assert im.size == (w * 10, h * 7) and im.width <= 4096
            hidden = im.crop((9 * w, 6 * h, 10 * w, 7 * h))
            with Image.open(tmp_path / "back.png") as back:
                assert hidden.tobytes() == back.convert("RGB").tobytes()


def test_preview_card_and_component_pages(tmp_path):
    out = tmp_path / "p.png"
    result = run("preview", "outlaw", "--dpi", "50", "--out", str(out))
    assert result.exit_code == 0 and result.output.strip().endswith("p.png")
    with Image.open(out) as im:
        assert im.size == (pixels(63, 50), pixels(88, 50))
    result = run("preview", "rulebook", "--page", "2", "--dpi", "40", "--out", str(out))
    assert result.exit_code == 0, result.output
    with Image.open(out) as im:
        assert im.size == (pixels(139.7, 40), pixels(215.9, 40))


@pytest.mark.parametrize("args,message", [
    (["preview", "nobody"], "no card or component 'nobody' in Shadow Throne"),
    (["preview", "rulebook", "--page", "99"], "--page 99: 'rulebook' has 16 pages"),
    (["export", "cards", "no_game"], "no game 'no_game'"),
])
def test_bad_targets_are_one_line_errors(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_watch_rebuild_reports_problems_then_recovers(tmp_path, game_copy):
    from pnp.commands.watch import rebuild

    lines = []
    echo = lambda text, err=False: lines.append(text)  # noqa: E731
    out = tmp_path / "out"
    cards = game_copy / "cards.yaml"
    good = cards.read_text()
    cards.write_text(good.replace("    power: 10\n", "    power: ten\n"))
    assert rebuild(str(game_copy), out, BuildOptions(), echo) is False
    assert any("card 'king-kyros': power: expected an integer, got 'ten'" in line for line in lines)
    cards.write_text(good)
    assert rebuild(str(game_copy), out, BuildOptions(), echo) is True
    assert "built Shadow Throne" in lines[-1] and (out / "kit.pdf").is_file()


def test_watch_sees_a_change_and_rebuilds_once(tmp_path):
    from pnp.commands.watch import Debouncer, watch

    calls = []
    stop = threading.Event()
    debouncer = Debouncer(lambda: calls.append(time.time()), delay=0.2)
    t = threading.Thread(target=watch, args=([tmp_path], debouncer.trigger, stop), daemon=True)
    t.start()
    time.sleep(0.5)
    for k in range(3):                       # a burst of saves
        (tmp_path / "cards.yaml").write_text(f"v{k}\n")
        time.sleep(0.02)
    deadline = time.time() + 5
    while not calls and time.time() < deadline:
        time.sleep(0.05)
    time.sleep(0.4)
    stop.set()
    t.join(5)
    assert len(calls) == 1


def test_watch_clears_file_caches():
    from pnp import cache
    from pnp.cardtext import environment

    environment()
    assert environment in cache.registered() and environment.cache_info().currsize == 1
    cache.clear()
    assert environment.cache_info().currsize == 0
