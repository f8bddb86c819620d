"""``pnp new``: a starter game that validates and builds as written, in a new or empty folder only."""

import os

import pypdfium2 as pdfium
import pytest
import yaml
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.loading.gamedata import load_game

FILES = ["box.yaml", "cards.csv", "game.yaml", "i18n/en.yaml", "icons/spark.svg", "rulebook.yaml",
         "templates/layouts/starter.yaml",
         "templates/rulebook/en/rules.md.j2", "tokens.yaml"]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def tree(root):
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def page_texts(pdf) -> list[str]:
    return [page.get_textpage().get_text_range() for page in pdfium.PdfDocument(str(pdf))]


def test_new_writes_a_starter_that_validates_and_builds(tmp_path):
    root = tmp_path / "lantern_fair"
    result = run("new", root)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == f"Wrote a starter game in {root}/: " + ", ".join(FILES)
    assert tree(root) == FILES
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lantern_fair"]        # no staging folder left
    result = run("validate", root)
    assert result.exit_code == 0, result.output
    assert result.output == ("Lantern Fair: 9 cards (4 different), components instructions, score, cards, tokens, "
                             "rulebook, box: valid\n")
    out = tmp_path / "kit"
    result = run("build", root, "--out", out)
    assert result.exit_code == 0, result.output
    assert len(pdfium.PdfDocument(str(out / "kit.pdf"))) == 8
    (fronts,) = page_texts(out / "cards-fronts.pdf")
    # the CSV's card text prints as card text: bold without its asterisks, the spark icon drawn, not named
    assert fronts.count("Take 1") == 3 and fronts.count("Keep this card: at the start of your") == 3
    assert "[spark]" not in fronts and "**" not in fronts
    rules = "\n".join(page_texts(out / "rulebook.pdf"))
    assert "Lantern Fair is a race for points for 2 to 4 players." in rules


def test_the_starter_uses_what_a_designer_starts_from(tmp_path):
    root = tmp_path / "g"
    assert run("new", root).exit_code == 0
    game = load_game(root)
    (deck,) = game.decks
    assert deck.cards_file.name == "cards.csv" and deck.layout.default.name == "starter"
    assert {f.name: f.type for f in deck.fields} == {"points": "int", "text": "text"}
    assert any("[spark]" in str(c.stats.get("text")) for c in game.cards)        # the game's own SVG icon
    assert [name for name, _, _ in game.icons.files] == ["spark"]
    layout = yaml.safe_load((root / "templates" / "layouts" / "starter.yaml").read_text())
    assert layout["extends"] == "classic"
    assert [c for c in game.components] == ["instructions", "score", "cards", "tokens", "rulebook", "box"]


def test_players_fill_the_game_and_its_score_markers(tmp_path):
    root = tmp_path / "big_table"
    result = run("new", root, "--players", "3-6")
    assert result.exit_code == 0, result.output
    game = load_game(root)
    assert game.players == (3, 6) and game.title == "Big Table"
    markers = yaml.safe_load((root / "tokens.yaml").read_text())["tokens"][0]
    assert markers["id"] == "score-marker" and markers["count"] == 6
    assert run("validate", root).exit_code == 0
    assert load_game(run_new(tmp_path / "solo", "--players", "1")).players == (1, 1)


def run_new(root, *args):
    result = run("new", root, *args)
    assert result.exit_code == 0, result.output
    return root


@pytest.mark.parametrize("players", ["4-2", "0", "2-21", "two", "2-", "-3", "1,2"])
def test_a_bad_player_range_is_refused(tmp_path, players):
    result = run("new", tmp_path / "g", "--players", players)
    assert result.exit_code == 2
    assert result.output == (f"error: --players {players!r}: give a player count or a range such as 2-4 (from 1 "
                             f"to 20, the smaller first)\n")
    assert not (tmp_path / "g").exists()


def test_a_title_is_written_as_yaml_text(tmp_path):
    title = 'Fish: "the" game #2 \\ & more'
    root = run_new(tmp_path / "fish", "--title", title)
    assert load_game(root).title == title
    assert run("validate", root).exit_code == 0


@pytest.mark.parametrize("title,why", [("Moon \U0001F319", "the bundled fonts cannot print \U0001F319"),
                                       ("", "give a title of printable characters, at most 120"),
                                       ("a\nb", "give a title of printable characters, at most 120")])
def test_a_title_that_cannot_print_is_refused(tmp_path, title, why):
    result = run("new", tmp_path / "g", "--title", title)
    assert result.exit_code == 2 and result.output == f"error: --title {title!r}: {why}\n"
    assert list(tmp_path.iterdir()) == []


def test_a_folder_that_holds_anything_is_never_written_into(tmp_path):
    root = tmp_path / "mine"
    root.mkdir()
    (root / "notes.txt").write_text("keep me")
    result = run("new", root)
    assert result.exit_code == 2
    assert result.output == f"error: {root} is not empty; pnp new writes only into a new or empty folder\n"
    assert tree(root) == ["notes.txt"] and (root / "notes.txt").read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine"]


def test_an_empty_folder_is_used(tmp_path):
    root = tmp_path / "empty"
    root.mkdir()
    assert run("new", root).exit_code == 0 and tree(root) == FILES


def test_a_file_in_the_way_is_refused(tmp_path):
    (tmp_path / "game").write_text("x")
    result = run("new", tmp_path / "game")
    assert result.exit_code == 2
    assert result.output == f"error: {tmp_path / 'game'} is not a folder; give the path of a new folder\n"


@pytest.mark.parametrize("name", ["my game", "-game", "gäme", "a" * 65, "g.1"])
def test_the_folder_name_must_be_a_plain_name(tmp_path, name):
    result = run("new", tmp_path / name)
    assert result.exit_code == 2
    shown = repr(name) if len(name) < 40 else repr(name[:38]) [:-1] + "\u2026'"
    assert result.output == (f"error: {shown}: a game folder's name is its id: use letters, digits, '-' and '_', "
                             f"starting with a letter or digit, at most 64 (for example lantern_fair)\n")
    assert list(tmp_path.iterdir()) == []


def test_the_parent_folder_must_exist(tmp_path):
    result = run("new", tmp_path / "no" / "game")
    assert result.exit_code == 2
    assert result.output == f"error: {tmp_path / 'no'} does not exist; make it first, or give another place\n"


def test_the_new_folder_gets_ordinary_permissions(tmp_path):
    root = run_new(tmp_path / "g")
    mask = os.umask(0)
    os.umask(mask)
    assert (root.stat().st_mode & 0o777) == 0o777 & ~mask


def test_two_games_of_one_relative_name_in_two_working_folders(tmp_path, monkeypatch):
    # one process, the same relative path in two working folders (as tests and a long-lived studio may
    # do): the second game's templates are its own, not refused as a link out of the first's folder
    for place in ("a", "b"):
        (tmp_path / place).mkdir()
        monkeypatch.chdir(tmp_path / place)
        assert run("new", "game").exit_code == 0
        result = run("validate", "game")
        assert result.exit_code == 0, result.output


@pytest.mark.parametrize("failure", [OSError(28, "No space left on device"), KeyboardInterrupt()])
def test_a_failed_write_leaves_nothing_behind(tmp_path, monkeypatch, failure):
    from pathlib import Path

    real = Path.write_bytes
    calls = []

    def failing(self, data):
        calls.append(self)
        if len(calls) == 3:
            raise failure
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", failing)
    result = run("new", tmp_path / "g")
    assert len(calls) == 3 and list(tmp_path.iterdir()) == []
    if isinstance(failure, OSError):
        assert result.exit_code == 2
        assert result.output == f"error: cannot write {tmp_path / 'g'}: No space left on device\n"
    else:
        assert result.exit_code == 130 and result.output == "pnp new: interrupted\n"


def test_new_double_sided_writes_a_deck_whose_every_card_has_two_faces(tmp_path):
    root = tmp_path / "turncoat"
    result = run("new", root, "--double-sided", "--players", "2")
    assert result.exit_code == 0, result.output
    assert tree(root) == sorted(FILES + ["templates/layouts/starter_b.yaml"])
    game = load_game(root)
    (deck,) = game.decks
    assert deck.double_sided and deck.side_b.required and deck.b.layout.default.name == "starter_b"
    assert [(c.name, c.side_b.name, c.side_b.stats["points"]) for c in game.cards] == [
        ("Spark", "Blaze", 2), ("Ember", "Coal", 3), ("Flare", "Afterglow", 1), ("Star", "Nova", 8)]
    assert run("validate", root).exit_code == 0
    out = tmp_path / "kit"
    result = run("build", root, "--out", out)
    assert result.exit_code == 0, result.output
    (backs,) = page_texts(out / "cards-backs.pdf")
    assert backs.count("Blaze") == 3 and "Turned over: take 2" in backs and "Spark" not in backs
    rules = " ".join(" ".join(page_texts(out / "rulebook.pdf")).split())
    assert "The same card turned over: its side B" in rules and "Spark 3 1 Blaze 2" in rules
    (instructions,) = page_texts(out / "instructions.pdf")
    assert "Print both sides: every card has two faces." in " ".join(instructions.split())
    # the starter without the flag is the one-faced game it always was
    plain = tmp_path / "plain"
    assert run("new", plain).exit_code == 0
    assert (plain / "cards.csv").read_text() != (root / "cards.csv").read_text()
    assert "side_b" not in (plain / "game.yaml").read_text()
