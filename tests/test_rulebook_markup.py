"""Every form of docs/rulebook.md's markup in a game pnp did not write: the ``>`` example box that crashed
every validation and build (issue 32), and the flowables a booklet is made of, which platypus copies."""

import copy

from click.testing import CliRunner

from pnp.cli import main
from rasterize import page_words


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_an_example_box_in_a_starter_game_validates_builds_and_exports(tmp_path):
    """The issue's repro: two ``>`` lines appended to ``pnp new``'s chapter. A box of up to 12 lines is a
    platypus KeepTogether, which deep-copies the frame to measure it; the frame held the document (its
    canvas's hash object cannot be copied), so every command that lays out the rulebook ended in exit 70."""
    game = tmp_path / "g"
    assert run("new", game).exit_code == 0
    chapter = game / "templates" / "rulebook" / "en" / "rules.md.j2"
    chapter.write_text(chapter.read_text() + "\n> Ana plays.\n> Ben follows.\n")
    result = run("validate", "--no-cache", game)
    assert result.exit_code == 0, result.output
    assert result.output.endswith(": valid\n")
    result = run("build", "--no-cache", game, "--out", tmp_path / "kit")
    assert result.exit_code == 0, result.output
    words = page_words(tmp_path / "kit" / "rulebook.pdf")
    assert sum("Ana plays. Ben follows." in page for page in words) == 1
    # every export starts by validating, and previews lay out the booklet
    for args in (["export", "tts", game, "--out", tmp_path / "tts"],
                 ["export", "cards", game, "--preset", "thegamecrafter", "--out", tmp_path / "tgc"],
                 ["preview", "rulebook", game, "--out", tmp_path / "rulebook.png"]):
        result = run(*args)
        assert result.exit_code == 0, (args, result.output)
    assert (tmp_path / "tts" / "tts.json").is_file() and (tmp_path / "rulebook.png").stat().st_size > 1000
