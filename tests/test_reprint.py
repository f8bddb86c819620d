"""Reprints for playtests (``pnp build --changed-since OLD_KIT_DIR|REF``): every build records each piece copy's
drawing in pieces.json (cards, tokens, standees, dice, boards, tracks, the map, the box); a later build prints
only the copies whose drawing changed, after a changelog of the pieces added, removed and changed, kind by kind,
with the values that changed. A new version alone reprints nothing. A git reference stands for the game folder
as it was at that commit."""

import json
import shutil
import subprocess
import tempfile

import pytest
from click.testing import CliRunner

from pnp import DATA_DIR
from pnp.cache import memo
from pnp.commands.cli import main
from pnp.components import BuildOptions, game_components
from pnp.components.cards import build as build_cards
from pnp.draw import fonts
from pnp.draw.icons import using
from pnp.layout.changelog import MARGIN
from pnp.layout.geometry import Group, Picture, Rect, Text, flatten
from pnp.layout.tokens import front_area
from pnp.loading.gamedata import load_game
from pnp.loading.i18n import strings
from pnp.loading.tokendata import load_tokens
from pnp.text.markup import plain_text
from pnp.components.record import RECORD_FILE, fingerprint
from pnp.reprint.changes import CARDS_RECORD_FILE, REPRINT_FILE, Change, compare, game_record, reprint_pages


def _game_copy(tmp_path, name="behind_the_throne"):
    dest = tmp_path / name
    shutil.copytree(DATA_DIR / name, dest)
    return dest


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _record(root, **options) -> dict:
    """The record a build of ``root`` writes (the same hooks, without drawing a kit)."""
    return game_record(load_game(root), BuildOptions(**options))


def _kit(tmp_path, root, name, **options):
    """A kit folder holding the record a build writes."""
    folder = tmp_path / name
    folder.mkdir()
    (folder / RECORD_FILE).write_text(json.dumps(_record(root, **options)), encoding="utf-8")
    memo.clear()                      # the files change next, as between two runs of pnp
    return folder


def _reprint(root, old, **options):
    """(changelog pages, sheets of pieces, files beside) of reprint.pdf for ``root`` since the kit folder
    (or git reference) ``old``."""
    game = load_game(root)
    opts = BuildOptions(changed_since=str(old), **options)
    record = json.dumps(game_record(game, opts)).encode("utf-8")
    with using(game.icons, game.language):
        pages, beside, _ = reprint_pages(game, opts, game_components(game), record, strings(game, opts.lang))
    n = next((i for i, p in enumerate(pages) if not p.label.startswith("Changelog")), len(pages))
    return pages[:n], pages[n:], beside


def _labels(page, prefix):
    return [g.role.split(":", 1)[1] for g in page.elements if isinstance(g, Group) and g.role.startswith(prefix)]


def _texts(page, role):
    return [e.markup for e in flatten(page.elements) if isinstance(e, Text) and e.role == role]


def _rows(changelog):
    return [(e.role.split("-")[1], e.markup) for page in changelog for e in flatten(page.elements)
            if isinstance(e, Text) and e.role in ("changelog-heading", "changelog-line")]


GENERAL = ("  - id: general\n    name: General\n", "  - id: general\n    name: General\n    flavour: Orders first.\n")


def test_only_the_changed_cards_are_printed_again_after_a_changelog(tmp_path):
    root = _game_copy(tmp_path)
    old = _kit(tmp_path, root, "kit-1")
    _edit(root / "cards.yaml", *GENERAL)
    _edit(root / "game.yaml", "title:", 'version: "0.2"\ntitle:')
    changelog, sheets, _ = _reprint(root, old)
    assert _texts(changelog[0], "changelog-title") == ["Reprint"]
    assert _rows(changelog) == [("line", "9 pieces to print again, on the pages after this one."),
                                ("heading", "Cards"), ("line", "**Changed**: General — flavour")]
    assert len(changelog) == 2 and not changelog[1].elements    # the changelog takes both sides of its sheet
    # one sheet: the 9 copies of the General, front page then back page, backs behind their fronts
    assert len(sheets) == 2
    assert _labels(sheets[0], "card:") == [f"general#{i}" for i in range(1, 10)]
    assert sorted(_labels(sheets[1], "back:")) == sorted(f"general#{i}" for i in range(1, 10))


def test_on_a_cutting_machine_each_reprinted_front_page_has_its_cut_file(tmp_path):
    root = _game_copy(tmp_path)
    old = _kit(tmp_path, root, "kit-1")
    _edit(root / "cards.yaml", *GENERAL)
    changelog, sheets, beside = _reprint(root, old, cutter="silhouette")
    # 9 cards, 6 to a sheet: fronts on pages 3 and 5 (after the changelog's two), backs on 4 and 6
    assert sorted(beside) == ["reprint-cut-p3.dxf", "reprint-cut-p3.svg", "reprint-cut-p5.dxf", "reprint-cut-p5.svg"]
    assert [len(page.find("registration")) for page in sheets] == [5, 0, 5, 0]
    assert beside["reprint-cut-p5.svg"].count(b"<path ") == 3


def test_a_new_version_alone_prints_nothing_again(tmp_path):
    root = _game_copy(tmp_path)
    old = _kit(tmp_path, root, "kit-1")
    _edit(root / "game.yaml", "title:", 'version: "0.2"\ntitle:')
    changelog, sheets, _ = _reprint(root, old)
    assert len(changelog) == 2 and sheets == []
    assert _rows(changelog) == [("line", "No piece's drawing changed: nothing to print again.")]


def test_a_piece_whose_drawing_alone_changed_says_so_in_the_kits_words(tmp_path):
    """A category's frame colour is no value of a card: the changelog names the drawing, in the printed
    word ``reprint_drawing`` (a game's translation gives it like any of pnp's words)."""
    root = _game_copy(tmp_path)
    old = _kit(tmp_path, root, "kit-1")
    _edit(root / "game.yaml", 'name: Protective, colour: "#3f7a4a"', 'name: Protective, colour: "#2f7a4a"')
    changelog, _, _ = _reprint(root, old)
    lines = [markup for kind, markup in _rows(changelog) if kind == "line"][1:]
    assert lines and all(line.startswith("**Changed**: ") and line.endswith(" — drawing") for line in lines)


def test_the_old_version_and_the_new_one_title_the_changelog_in_glyphs_its_fonts_have(tmp_path):
    root = _game_copy(tmp_path)
    _edit(root / "game.yaml", "title:", 'version: "0.1"\ntitle:')
    old = _kit(tmp_path, root, "kit-1")
    _edit(root / "game.yaml", 'version: "0.1"', 'version: "0.2"')
    _edit(root / "cards.yaml", "    name: Assassin\n", "    name: Assassin\n    flavour: Quiet steps.\n")
    changelog, _, _ = _reprint(root, old)
    assert _texts(changelog[0], "changelog-title") == ["Reprint: 0\\.1 to 0\\.2"]
    assert _rows(changelog)[2] == ("line", "**Changed**: Assassin — flavour")
    # every character of the changelog prints (an arrow the fonts lack once left a gap in the title)
    for e in flatten(changelog[0].elements):
        if isinstance(e, Text):
            assert not fonts.missing_glyphs(plain_text(e.markup), fonts.font_name(e.style.font)), e.markup
    title = next(e for e in changelog[0].elements if isinstance(e, Text) and e.role == "changelog-title")
    assert title.style.valign == "bottom"                      # set on the rule under it, no gap between
    assert title.rect.x == pytest.approx(MARGIN, abs=0.01)


def test_a_token_whose_colour_changed_is_alone_on_its_fold_sheet(tmp_path):
    root = _game_copy(tmp_path, "shadow_throne")
    old = _kit(tmp_path, root, "kit-1")
    _edit(root / "tokens.yaml", 'front: {background: faction, icon: crown, icon_colour: "#ffffff"',
          'front: {background: faction, icon: crown, icon_colour: "#ffd700"')
    changelog, sheets, _ = _reprint(root, old)
    assert _rows(changelog) == [("line", "1 piece to print again, on the pages after this one."),
                                ("heading", "Tokens"), ("line", "**Changed**: faction-empire — front.icon_colour")]
    # one fold-and-glue sheet, then the blank back of that sheet (reprint.pdf prints double-sided)
    assert len(sheets) == 2 and not sheets[1].elements
    page = sheets[0]
    assert _labels(page, "front:") == ["faction-empire#1"] and _labels(page, "back:") == ["faction-empire#1"]
    token = next(t for t in load_tokens(load_game(root)).tokens if t.id == "faction-empire")
    front = next(g for g in page.elements if isinstance(g, Group) and g.role.startswith("front:"))
    back = next(g for g in page.elements if isinstance(g, Group) and g.role.startswith("back:"))
    area = front_area(page.width, page.height, 4.0)
    fold = page.height / 2
    size = token.size
    # alone in the first row of the front half, centred across the sheet; the back mirrored across the fold
    assert (front.dx, front.dy) == (pytest.approx((page.width - size) / 2, abs=0.01),
                                    pytest.approx(area.top - size, abs=0.01))
    assert (back.dx, back.dy) == (pytest.approx(front.dx, abs=0.01), pytest.approx(2 * fold - front.dy - size, abs=0.01))


def test_a_renamed_standee_and_a_recoloured_player_board_print_again_alone(tmp_path):
    root = _game_copy(tmp_path, "shadow_kingdoms_of_valeria")
    old = _kit(tmp_path, root, "kit-1")
    _edit(root / "game.yaml", "' Warden'", "' Keeper'")
    _edit(root / "player_board.yaml", '{id: green, name: Green, colour: "#3d7a3a"', '{id: green, name: Green, colour: "#2e8b57"')
    changelog, sheets, _ = _reprint(root, old)
    colours = ["Red", "Blue", "Green", "Purple", "Yellow"]
    assert _rows(changelog) == [
        ("line", "6 pieces to print again, on the pages after this one."),
        ("heading", "Player boards"), ("line", "**Changed**: Green player board — colour"),
        ("heading", "Wardens")] + [
        ("line", f"**Changed**: {c} Keeper — " + ("back.background, back.label, front.background, front.label"
                                                  if c == "Green" else "back.label, front.label")) for c in colours]
    # the Green board alone on a sheet, whole (clipped to the layout's 250 x 180 mm), then the sheet's blank back
    board, blank, strips, blank_too = sheets
    assert not blank.elements and not blank_too.elements
    tiles = [g for g in board.elements if isinstance(g, Group)]
    assert [g.role for g in tiles] == ["tile:A1"] and (tiles[0].clip.w, tiles[0].clip.h) == (250.0, 180.0)
    assert board.label == "Green player board A1" and board.width > board.height     # on a landscape sheet
    # the five wardens' strips on one sheet, as the build packs them
    assert _labels(strips, "strip:") == [f"warden_{c.lower()}" for c in colours]


def _record_v1(record: dict) -> dict:
    """A record as pnp wrote it when it compared cards only (cards.json, format 1)."""
    decks = {}
    for key, piece in record["components"]["cards"]["pieces"].items():
        deck = decks.setdefault(piece["group"], {"name": piece["group"], "cards": {}})
        deck["cards"]["aid" if key.endswith("aid") else key] = {"name": piece["name"], "values": piece["values"],
                                                                "copies": piece["copies"]}
    return {"format": 1, "game": record["game"], "version": record["version"], "decks": decks}


def test_a_kit_with_the_older_cards_record_compares_its_cards_only(tmp_path):
    root = _game_copy(tmp_path, "shadow_throne")
    folder = tmp_path / "kit-1"
    folder.mkdir()
    (folder / CARDS_RECORD_FILE).write_text(json.dumps(_record_v1(_record(root))), encoding="utf-8")
    memo.clear()
    _edit(root / "tokens.yaml", 'icon: crown, icon_colour: "#ffffff"', 'icon: crown, icon_colour: "#ffd700"')
    _edit(root / "cards.yaml", "    name: Dutiful Peasant\n", "    name: Dutiful Farmer\n")
    changelog, sheets, _ = _reprint(root, folder)
    rows = _rows(changelog)
    assert rows[1:3] == [("heading", "Cards"), ("line", "**Changed**: Dutiful Farmer — name")]
    assert rows[-1] == ("line", "The earlier kit was built by a pnp that recorded cards only: its other pieces "
                                "are not compared.")
    assert all(not _labels(p, "front:") for p in sheets)       # no token sheet
    assert len(sheets) == 2


def _record_of(cards):
    return {"format": 2, "components": {"c": {"kind": "cards", "title": "Cards", "pieces": {
        cid: {"name": cid.title(), "group": "d", "values": values,
              "copies": {f"{cid}#{i + 1}": {"face": face, "back": "b"} for i in range(copies)}}
        for cid, (values, copies, face) in cards.items()}}}}


def test_added_removed_changed_and_more_copies():
    old = _record_of({"a": ({"name": "A", "copies": 1}, 1, "f1"), "b": ({"name": "B", "copies": 2}, 2, "f2"),
                      "c": ({"name": "C", "copies": 1}, 1, "f3"), "gone": ({"name": "Gone"}, 1, "f4")})
    new = _record_of({"a": ({"name": "A", "copies": 1}, 1, "f1"), "b": ({"name": "B", "copies": 3}, 3, "f2"),
                      "c": ({"name": "C", "copies": 1}, 1, "f3-redrawn"), "fresh": ({"name": "Fresh"}, 1, "f5")})
    changes, reprint = compare(old, new)
    assert changes == [Change("changed", "c", "b", "B", ("copies",), "d"), Change("changed", "c", "c", "C", (), "d"),
                       Change("added", "c", "fresh", "Fresh", (), "d"), Change("removed", "c", "gone", "Gone", (), "d")]
    # the third copy of b (the first two are as printed), the redrawn c and the new card
    assert reprint == {"c": {"b#3", "c#1", "fresh#1"}}


def test_a_component_the_new_kit_lacks_lists_its_pieces_as_removed():
    old = _record_of({"a": ({}, 1, "f1")})
    old["components"]["t"] = {"kind": "tokens", "title": "Tokens", "pieces": {"coin": {
        "name": "coin", "group": "", "values": {}, "copies": {"coin#1": {"face": "x", "back": "y"}}}}}
    changes, reprint = compare(old, _record_of({"a": ({}, 1, "f1")}))
    assert changes == [Change("removed", "t", "coin", "coin")] and reprint == {}


def test_a_picture_counts_by_its_bytes_not_its_path(tmp_path):
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "art.png").write_bytes(b"first")
    a = fingerprint([Picture(str(tmp_path / "one" / "art.png"), Rect(0, 0, 10, 10))], tmp_path / "one")
    b = fingerprint([Picture(str(tmp_path / "two" / "art.png"), Rect(0, 0, 10, 10))], tmp_path / "two")
    assert a == b                      # the same game in another folder
    (tmp_path / "two" / "art.png").write_bytes(b"second")
    assert fingerprint([Picture(str(tmp_path / "two" / "art.png"), Rect(0, 0, 10, 10))], tmp_path / "two") != a


def test_the_build_records_every_copy_of_every_piece_as_the_hooks_do():
    game = load_game("shadow_throne")
    out = build_cards(game, BuildOptions())[0]
    cards = json.loads(out.record)["pieces"]
    assert sum(len(c["copies"]) for c in cards.values()) == len(game.decks[0].physical()) + game.decks[0].aid_copies
    assert cards["aid"]["name"] == "player aid"
    record = _record("shadow_throne")
    assert record["components"]["cards"]["pieces"] == cards          # the build's record is the hooks'
    assert list(record["components"]) == ["power_track", "cards", "tokens", "box"]
    tokens = record["components"]["tokens"]["pieces"]
    assert sum(len(t["copies"]) for t in tokens.values()) == sum(t.count for t in load_tokens(game).tokens)
    assert record["game"] == "Shadow Throne" and record["version"] == ""


def test_an_old_kit_without_a_record_is_a_clear_error(tmp_path):
    result = CliRunner().invoke(main, ["build", "behind_the_throne", "--changed-since", str(tmp_path),
                                       "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert (f"--changed-since {tmp_path}: no pieces.json there; it is written by every pnp build from this "
            f"version on, so build the old kit again (or give a git reference of the game folder's repository, "
            f"such as a tag)") in result.output
    assert not (tmp_path / "out").exists()


# ------------------------------------------------------------------------------------------ git references

def _git(folder, *args):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false",
                    *args], cwd=folder, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path):
    """A git repository holding a game folder (behind_the_throne) one level down: tag v1, then a commit
    that gives the General a flavour line."""
    top = tmp_path / "repo"
    top.mkdir()
    root = _game_copy(top, "behind_the_throne")
    _git(top, "init", "-q")
    _git(top, "add", "-A")
    _git(top, "commit", "-qm", "first")
    _git(top, "tag", "v1")
    _edit(root / "cards.yaml", *GENERAL)
    _git(top, "commit", "-qam", "the General's flavour")
    return root


def test_a_git_reference_stands_for_the_game_folder_at_that_commit(repo, tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "temp"))
    (tmp_path / "temp").mkdir()
    status = subprocess.run(["git", "status", "--porcelain", "--ignored"], cwd=repo.parent, capture_output=True,
                            text=True).stdout
    changelog, sheets, _ = _reprint(repo, "v1")
    commit = subprocess.run(["git", "rev-parse", "--short=7", "v1"], cwd=repo, capture_output=True,
                            text=True).stdout.strip()
    assert _texts(changelog[0], "changelog-title") == [f"Reprint: changes since v1 ({commit})"]
    assert _rows(changelog)[1:] == [("heading", "Cards"), ("line", "**Changed**: General — flavour")]
    assert _labels(sheets[0], "card:") == [f"general#{i}" for i in range(1, 10)]
    # HEAD~1 is the same commit; HEAD has nothing to reprint
    assert _rows(_reprint(repo, "HEAD~1")[0])[1:] == [("heading", "Cards"), ("line", "**Changed**: General — flavour")]
    assert _reprint(repo, "HEAD")[1] == []
    # nothing written into the repository, and the temporary folders are gone
    assert subprocess.run(["git", "status", "--porcelain", "--ignored"], cwd=repo.parent, capture_output=True,
                          text=True).stdout == status
    assert list((tmp_path / "temp").iterdir()) == []


def test_the_build_command_takes_a_git_reference(repo, tmp_path):
    out = tmp_path / "kit"
    result = CliRunner().invoke(main, ["build", str(repo), "--changed-since", "v1", "--out", str(out), "--jobs", "1",
                                       "--no-cache"])
    assert result.exit_code == 0, result.output
    assert (out / REPRINT_FILE).is_file() and (out / RECORD_FILE).is_file()
    from pypdf import PdfReader

    reader = PdfReader(out / REPRINT_FILE)
    assert len(reader.pages) == 4                         # the changelog's sheet, then the General's sheet
    assert "General" in reader.pages[0].extract_text()


@pytest.mark.parametrize("value, message", [
    ("v9", "--changed-since v9: there is no folder v9, and the git repository at {top} has no commit, branch or "
           "tag v9"),
    ("HEAD~5", "--changed-since HEAD~5: there is no folder HEAD~5, and the git repository at {top} has no commit, "
               "branch or tag HEAD~5"),
])
def test_a_reference_the_repository_does_not_know_is_one_clear_message(repo, tmp_path, value, message, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["build", str(repo), "--changed-since", value, "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert message.format(top="repo") in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "o").exists()


def test_a_game_folder_outside_git_with_a_value_that_is_no_folder(tmp_path, monkeypatch):
    root = _game_copy(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["build", str(root), "--changed-since", "v0.2", "--out", "o"])
    assert result.exit_code == 2
    assert ("--changed-since v0.2: there is no folder v0.2, and the game folder behind_the_throne is not in a git "
            "repository, so v0.2 cannot be a git reference either; give the folder of the earlier kit") in result.output
    (tmp_path / "file").write_text("x")
    result = CliRunner().invoke(main, ["build", str(root), "--changed-since", "file", "--out", "o"])
    assert result.exit_code == 2
    assert "--changed-since file: a file, not a kit folder" in result.output
    assert not (tmp_path / "o").exists()


def test_without_dulwich_a_git_reference_says_what_to_install(repo, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "dulwich", None)          # not installed: its import fails
    result = CliRunner().invoke(main, ["build", str(repo), "--changed-since", "v1", "--out", str(repo / "o")])
    assert result.exit_code == 2
    assert ("--changed-since with a git reference reads the repository with dulwich, which is not installed: "
            "pip install 'pnp[git]' (or give the folder of the earlier kit)") in result.output


def test_names_from_an_earlier_record_print_as_data_never_as_markup(tmp_path):
    """A removed piece and a removed component are named by the earlier kit's pieces.json, a file anyone may
    have written: its names print exactly as written (stars, brackets, tags), while a name pnp escaped when
    it wrote the record prints as the name it was."""
    root = _game_copy(tmp_path)
    record = _record(root)
    cards = record["components"]["cards"]["pieces"]
    cards["ghost"] = {**cards["general"], "name": "**Big** [crown] <font size=40>x</font>"}
    cards["star"] = {**cards["general"], "name": "Five \\*\\* Stars \\[crown\\]"}         # as pnp escapes it
    record["components"]["extra"] = {"kind": "tokens", "title": "*Tokens* [crown]", "pieces": {
        "coin": {"name": "# Coin", "group": "", "values": {}, "copies": {"coin#1": {"face": "f", "back": "b"}}}}}
    old = tmp_path / "kit-1"
    old.mkdir()
    (old / RECORD_FILE).write_text(json.dumps(record), encoding="utf-8")
    memo.clear()
    changelog, _, _ = _reprint(root, old)
    rows = _rows(changelog)
    assert ("line", "**Removed**: \\*\\*Big\\*\\* \\[crown\\] <font size=40>x</font>") in rows
    assert ("line", "**Removed**: Five \\*\\* Stars \\[crown\\]") in rows
    assert rows[-2:] == [("heading", "\\*Tokens\\* \\[crown\\]"), ("line", "**Removed**: \\# Coin")]
    assert [plain_text(m) for _, m in rows[-2:]] == ["*Tokens* [crown]", "Removed: # Coin"]
    assert "Removed: **Big** [crown] <font size=40>x</font>" in [plain_text(m) for _, m in rows]
