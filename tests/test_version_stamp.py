"""The game's version on every card (``version:`` in game.yaml, else the commit of the game folder's git
repository): printed small in the bottom-left corner of every face and player aid of every bundled game's
decks, inside the safe zone (3 mm from the trim); absent, the cards are as before."""

import shutil
import subprocess

import pytest
from click.testing import CliRunner

from pnp import DATA_DIR
from pnp.commands.cli import main
from pnp.components.cards import aid_elements, laid_out_face, printed_mark
from pnp.loading.gamedata import git_commit, load_game
from pnp.layout.geometry import Text, flatten
from pnp.text.markup import escape

GAMES = ["shadow_throne", "behind_the_throne", "shadow_kingdoms_of_valeria", "shadow_queen"]
SAFE = 3.0


def _versioned(tmp_path, name, line):
    dest = tmp_path / name
    shutil.copytree(DATA_DIR / name, dest)
    game_yaml = dest / "game.yaml"
    game_yaml.write_text(line + "\n" + game_yaml.read_text(encoding="utf-8"), encoding="utf-8")
    return dest


def _stamps(elements):
    return [e for e in flatten(tuple(elements)) if isinstance(e, Text) and e.role == "version"]


@pytest.mark.parametrize("name", GAMES)
def test_every_face_and_aid_carries_the_version_inside_the_safe_zone(tmp_path, name):
    game = load_game(_versioned(tmp_path, name, 'version: "0.3-playtest"'))
    assert game.version == "0.3-playtest"
    for deck in game.decks:
        faces = [laid_out_face(game, deck, c, None, printed_mark(game, c, 1), (deck.width, deck.height), 0.0)
                 for c in deck.cards]
        if deck.aid_copies:
            faces.append(aid_elements(game, deck))
        for face in faces:
            (stamp,) = _stamps(face)
            assert stamp.markup == escape("0.3-playtest")
            r = stamp.rect
            assert r.x >= SAFE and r.y >= SAFE and r.right <= deck.width - SAFE and r.top <= deck.height - SAFE, r


@pytest.mark.parametrize("name", GAMES)
def test_without_a_version_no_card_carries_one(name):
    game = load_game(name)
    assert game.version == ""
    for deck in game.decks:
        for card in deck.cards:
            face = laid_out_face(game, deck, card, None, printed_mark(game, card, 1), (deck.width, deck.height), 0.0)
            assert not _stamps(face)
        assert not _stamps(aid_elements(game, deck))


def test_a_game_folder_that_is_a_git_repository_prints_its_commit(tmp_path):
    root = _versioned(tmp_path, "behind_the_throne", "# no version: the commit stands in")
    git = ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "first"], check=True)
    commit = subprocess.run(git + ["rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()
    assert git_commit(root) == commit[:7]
    game = load_game(root)
    assert game.version == commit[:7]
    card = game.decks[0].cards[0]
    (stamp,) = _stamps(laid_out_face(game, game.decks[0], card, None, "", (63.0, 88.0), 0.0))
    assert stamp.markup == escape(commit[:7])
    # the branch packed away (git gc): read from packed-refs
    subprocess.run(git + ["pack-refs", "--all"], check=True)
    assert git_commit(root) == commit[:7]
    # a version in game.yaml wins over the commit
    text = (root / "game.yaml").read_text(encoding="utf-8")
    (root / "game.yaml").write_text('version: "1.0"\n' + text, encoding="utf-8")
    assert load_game(root).version == "1.0"


def test_a_folder_that_is_no_repository_has_no_commit(tmp_path):
    assert git_commit(tmp_path) == ""
    (tmp_path / ".git").write_text("not a pointer", encoding="utf-8")
    assert git_commit(tmp_path) == ""


def test_a_version_too_long_for_the_corner_is_an_error_at_its_line(tmp_path):
    root = _versioned(tmp_path, "behind_the_throne", 'version: "0.3-playtest-round-two"')
    result = CliRunner().invoke(main, ["validate", str(root)])
    assert result.exit_code == 2
    assert (f"{root / 'game.yaml'}:1: version: '0.3-playtest-round-two' is longer than 16 characters or holds a "
            f"line break; it prints small in a corner of every card") in result.output


def _starter(tmp_path, size: str, version: str | None):
    """``pnp new``'s game with its deck at ``size`` (and ``version:`` when given)."""
    root = tmp_path / "g"
    assert CliRunner().invoke(main, ["new", str(root)]).exit_code == 0
    text = (root / "game.yaml").read_text(encoding="utf-8").replace("size: poker", f"size: {size}")
    if version:
        text = f'version: "{version}"\n' + text
    (root / "game.yaml").write_text(text, encoding="utf-8")
    return root


@pytest.mark.parametrize("size", ["mini", "square", "mini-euro"])
def test_every_named_card_size_has_room_for_the_longest_version(tmp_path, size):
    """Found by the generated games (issue 32): classic's version corner, 2.4 mm tall on a poker card, scaled
    to 1.7 mm on mini cards and 1.9 mm on square ones, and a stamp needs 2.1 mm at 6 pt: every card of a
    game with ``version:`` (or in a git repository: the commit stands in) was an error at its own line."""
    root = _starter(tmp_path, size, "0.3-playtest-rou")
    result = CliRunner().invoke(main, ["validate", str(root), "--no-cache"])
    assert result.exit_code == 0, result.output
    game = load_game(root)
    deck = game.decks[0]
    for card in deck.cards:     # (validate's piece check keeps it 1 mm inside the cut; it scales with the card)
        (stamp,) = _stamps(laid_out_face(game, deck, card, None, "", (deck.width, deck.height), 0.0))
        assert stamp.markup == escape("0.3-playtest-rou")


def test_a_version_the_layout_has_no_room_for_is_one_error_at_its_line(tmp_path):
    """On cards smaller than any named size the stamp can still lack room: one error for the deck, at
    game.yaml's version line, saying what to change (it was an error at every card's line, as if the cards
    were wrong)."""
    root = _starter(tmp_path, "{width: 50, height: 60}", "0.3")
    result = CliRunner().invoke(main, ["validate", str(root), "--no-cache"])
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        f"{root / 'game.yaml'}:1: deck 'cards': the version stamp '0.3' (game.yaml's version) does not fit the "
        f"21.4 x 2.0 mm corner its layout gives it on 50 x 60 mm cards, even at 6 pt (needs 1 lines (2.1 mm), box "
        f"is 2.0 mm tall): give the layout's 'version' region more room, or leave it out with {{name: version, "
        f"remove: true}}",
        "1 problem found; nothing was written."]
    # the commit of a git repository stands in for a version: the deck's line
    (tmp_path / "git").mkdir()
    root = _starter(tmp_path / "git", "{width: 50, height: 60}", None)
    git = ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "first"], check=True)
    result = CliRunner().invoke(main, ["validate", str(root), "--no-cache"])
    deck_line = next(i for i, line in enumerate((root / "game.yaml").read_text().splitlines(), 1)
                     if "- id: cards" in line)
    assert result.exit_code == 2
    assert f"{root / 'game.yaml'}:{deck_line}: deck 'cards': the version stamp '{git_commit(root)}' (the commit of " \
           f"the game folder's git repository) does not fit the 21.4 x 2.0 mm corner" in result.output
    # leaving it out of the deck's layout is one way out
    layout = root / "templates" / "layouts" / "starter.yaml"
    layout.write_text(layout.read_text() + "  - {name: version, remove: true}\n")
    assert CliRunner().invoke(main, ["validate", str(root), "--no-cache"]).exit_code == 0
