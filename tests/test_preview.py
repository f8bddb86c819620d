"""``pnp preview``: card faces and component pages as PNGs, their sizes and paths, and one-line errors."""

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from pnp.commands.cli import main
from pnp.draw.raster import pixels

LETTER = (215.9, 279.4)
A4 = (210.0, 297.0)


def run(*args):
    return CliRunner().invoke(main, list(args))


def preview_size(tmp_path, *args):
    out = tmp_path / "p.png"
    result = run("preview", *args, "--out", str(out))
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith("p.png")
    with Image.open(out) as im:
        return im.size


@pytest.mark.parametrize("args,mm", [
    (["outlaw", "--dpi", "50"], (63, 88)),
    (["back", "--dpi", "50"], (63, 88)),
    (["aid", "--dpi", "50"], (63, 88)),
    (["king-kyros", "--dpi", "50", "--bleed", "3"], (69, 94)),
    (["rulebook", "--page", "2", "--dpi", "40"], (LETTER[1] / 2, LETTER[0])),        # reading order, half-Letter
    (["rulebook-imposed.pdf", "--page", "3", "--dpi", "30"], (LETTER[1], LETTER[0])),  # landscape sheet
    (["cards-backs.pdf", "--dpi", "30", "--paper", "a4"], A4),
    (["power_track", "--dpi", "30"], LETTER),
    (["instructions", "--dpi", "30"], LETTER),                                        # needs the whole kit
    (["kit", "--page", "28", "--dpi", "30"], LETTER),
])
def test_preview_sizes(tmp_path, args, mm):
    dpi = int(args[args.index("--dpi") + 1])
    assert preview_size(tmp_path, *args) == (pixels(mm[0], dpi), pixels(mm[1], dpi))


def test_card_preview_is_the_exported_face(tmp_path):
    """The preview and the export draw the same face: same pixels at the same dpi."""
    assert run("export", "cards", "--dpi", "40", "--out", str(tmp_path / "cards")).exit_code == 0
    assert run("preview", "outlaw", "--dpi", "40", "--out", str(tmp_path / "p.png")).exit_code == 0
    with Image.open(tmp_path / "p.png") as a, Image.open(tmp_path / "cards" / "outlaw-1.png") as b:
        assert a.tobytes() == b.tobytes()


def test_default_path_is_printed(tmp_path, monkeypatch):
    """Without --out, pnp's preview folder of the game in the user's cache folder (the tests' own
    $XDG_CACHE_HOME, tests/conftest.py), nothing in the folder it runs in."""
    monkeypatch.chdir(tmp_path)
    folder = Path(os.environ["XDG_CACHE_HOME"]) / "pnp" / "preview" / "shadow_throne"
    result = CliRunner().invoke(main, ["preview", "tokens", "--page", "2", "--dpi", "20"])
    assert result.exit_code == 0, result.output
    assert result.output == f"{folder}/tokens-p2.png\n"
    result = CliRunner().invoke(main, ["preview", "outlaw", "--dpi", "20"])
    assert result.output == f"{folder}/outlaw.png\n"
    assert (folder / "outlaw.png").is_file() and list(tmp_path.iterdir()) == []


def test_preview_shows_the_page_asked_for(tmp_path):
    first, second = tmp_path / "1.png", tmp_path / "2.png"
    assert run("preview", "cards", "--dpi", "20", "--out", str(first)).exit_code == 0
    assert run("preview", "cards", "--page", "2", "--dpi", "20", "--out", str(second)).exit_code == 0
    assert first.read_bytes() != second.read_bytes()


@pytest.mark.parametrize("args,message", [
    (["preview", "outlw"], "error: no card or component 'outlw' in Shadow Throne (did you mean 'outlaw'?); "
                           "components: instructions, power_track, cards, tokens, rulebook, box, kit"),
    (["preview", "nothing.pdf"], "error: no card or component 'nothing.pdf' in Shadow Throne; components:"),
    (["preview", "rulebook", "--page", "99"], "error: --page 99: 'rulebook' (rulebook.pdf) has 16 pages"),
    (["preview", "outlaw", "--page", "2"], "error: --page applies to components and files, not to the card"),
    (["preview", "outlaw", "no_game"], "error: no game 'no_game'"),
])
def test_bad_targets_are_one_line_errors(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert result.output.startswith(message) and result.output.count("\n") == 1, result.output
