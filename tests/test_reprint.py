"""Reprints for playtests (``pnp build --changed-since OLD_KIT_DIR``): every build records each card copy's
drawing in cards.json; a later build prints only the copies whose drawing changed, after a changelog of the
cards added, removed and changed with the values that changed. A new version alone reprints nothing."""

import json
import shutil

from click.testing import CliRunner

from pnp import DATA_DIR
from pnp.cli import main
from pnp.components import BuildOptions
from pnp.components.cards import REPRINT_FILE, build as build_cards
from pnp.loading.gamedata import load_game
from pnp.layout.geometry import Group, Picture, Rect, Text, flatten
from pnp.reprint import RECORD_FILE, Change, compare, fingerprint


def _game_copy(tmp_path, name="behind_the_throne"):
    dest = tmp_path / name
    shutil.copytree(DATA_DIR / name, dest)
    return dest


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _build(root, **options):
    return {o.filename: o for o in build_cards(load_game(root), BuildOptions(**options))}


def _kit(tmp_path, root, name):
    """The record a build writes, in a kit folder of its own."""
    folder = tmp_path / name
    folder.mkdir()
    (folder / RECORD_FILE).write_bytes(_build(root)["cards-fronts.pdf"].beside[RECORD_FILE])
    return folder


def _labels(page, prefix):
    return [g.role.split(":", 1)[1] for g in page.elements if isinstance(g, Group) and g.role.startswith(prefix)]


def _texts(page, role):
    return [e.markup for e in flatten(page.elements) if isinstance(e, Text) and e.role == role]


def test_only_the_changed_cards_are_printed_again_after_a_changelog(tmp_path):
    root = _game_copy(tmp_path)
    old = _kit(tmp_path, root, "kit-1")
    _edit(root / "cards.yaml", "  - id: general\n    name: General\n", "  - id: general\n    name: General\n"
                                                                       "    flavour: Orders first.\n")
    _edit(root / "game.yaml", "title:", 'version: "0.2"\ntitle:')
    out = _build(root, changed_since=str(old))[REPRINT_FILE]
    assert not out.in_kit
    changelog, sheets = out.pages[:2], out.pages[2:]
    assert _texts(changelog[0], "changelog-title") == ["Reprint"]
    assert _texts(changelog[0], "changelog-line") == ["9 card(s) to print again, on the pages after this one.",
                                                      "**Changed**: General — flavour"]
    assert not changelog[1].elements          # the changelog takes both sides of its sheet
    # one sheet: the 9 copies of the General, front page then back page, backs behind their fronts
    assert len(sheets) == 2
    assert _labels(sheets[0], "card:") == [f"general#{i}" for i in range(1, 10)]
    assert sorted(_labels(sheets[1], "back:")) == sorted(f"general#{i}" for i in range(1, 10))


def test_on_a_cutting_machine_each_reprinted_front_page_has_its_cut_file(tmp_path):
    root = _game_copy(tmp_path)
    old = _kit(tmp_path, root, "kit-1")
    _edit(root / "cards.yaml", "  - id: general\n    name: General\n", "  - id: general\n    name: General\n"
                                                                       "    flavour: Orders first.\n")
    out = _build(root, changed_since=str(old), cutter="silhouette")[REPRINT_FILE]
    # 9 cards, 6 to a sheet: fronts on pages 3 and 5 (after the changelog's two), backs on 4 and 6
    assert sorted(out.beside) == ["reprint-cut-p3.dxf", "reprint-cut-p3.svg", "reprint-cut-p5.dxf",
                                  "reprint-cut-p5.svg"]
    assert [len(out.pages[n - 1].find("registration")) for n in (3, 4, 5, 6)] == [5, 0, 5, 0]
    assert out.beside["reprint-cut-p5.svg"].count(b"<path ") == 3


def test_a_new_version_alone_prints_nothing_again(tmp_path):
    root = _game_copy(tmp_path)
    old = _kit(tmp_path, root, "kit-1")
    _edit(root / "game.yaml", "title:", 'version: "0.2"\ntitle:')
    out = _build(root, changed_since=str(old))[REPRINT_FILE]
    assert len(out.pages) == 2
    assert _texts(out.pages[0], "changelog-line") == ["No card changed: nothing to print again."]


def test_the_old_version_and_the_new_one_title_the_changelog(tmp_path):
    root = _game_copy(tmp_path)
    _edit(root / "game.yaml", "title:", 'version: "0.1"\ntitle:')
    old = _kit(tmp_path, root, "kit-1")
    _edit(root / "game.yaml", 'version: "0.1"', 'version: "0.2"')
    _edit(root / "cards.yaml", "    name: Assassin\n", "    name: Assassin\n    flavour: Quiet steps.\n")
    out = _build(root, changed_since=str(old))[REPRINT_FILE]
    assert _texts(out.pages[0], "changelog-title") == ["Reprint: 0\\.1 → 0\\.2"]
    assert _texts(out.pages[0], "changelog-line")[1] == "**Changed**: Assassin — flavour"


def _record(cards):
    return {"format": 1, "decks": {"d": {"cards": {
        cid: {"name": cid.title(), "values": values, "copies": {f"{cid}#{i + 1}": {"face": face, "back": "b"}
                                                              for i in range(copies)}}
        for cid, (values, copies, face) in cards.items()}}}}


def test_added_removed_changed_and_more_copies():
    old = _record({"a": ({"name": "A", "copies": 1}, 1, "f1"), "b": ({"name": "B", "copies": 2}, 2, "f2"),
                   "c": ({"name": "C", "copies": 1}, 1, "f3"), "gone": ({"name": "Gone"}, 1, "f4")})
    new = _record({"a": ({"name": "A", "copies": 1}, 1, "f1"), "b": ({"name": "B", "copies": 3}, 3, "f2"),
                   "c": ({"name": "C", "copies": 1}, 1, "f3-redrawn"), "fresh": ({"name": "Fresh"}, 1, "f5")})
    changes, reprint = compare(old, new)
    assert changes == [Change("changed", "d", "b", "B", ("copies",)), Change("changed", "d", "c", "C", ("drawing",)),
                       Change("added", "d", "fresh", "Fresh"), Change("removed", "d", "gone", "Gone")]
    # the third copy of b (the first two are as printed), the redrawn c and the new card
    assert reprint == {"b#3", "c#1", "fresh#1"}


def test_a_picture_counts_by_its_bytes_not_its_path(tmp_path):
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "art.png").write_bytes(b"first")
    a = fingerprint([Picture(str(tmp_path / "one" / "art.png"), Rect(0, 0, 10, 10))], tmp_path / "one")
    b = fingerprint([Picture(str(tmp_path / "two" / "art.png"), Rect(0, 0, 10, 10))], tmp_path / "two")
    assert a == b                      # the same game in another folder
    (tmp_path / "two" / "art.png").write_bytes(b"second")
    assert fingerprint([Picture(str(tmp_path / "two" / "art.png"), Rect(0, 0, 10, 10))], tmp_path / "two") != a


def test_the_record_lists_every_copy_of_every_card(tmp_path):
    record = json.loads(_build(DATA_DIR / "shadow_throne")["cards-fronts.pdf"].beside[RECORD_FILE])
    cards = record["decks"]["cards"]["cards"]
    game = load_game("shadow_throne")
    assert sum(len(c["copies"]) for c in cards.values()) == len(game.decks[0].physical()) + game.decks[0].aid_copies
    assert cards["aid"]["name"] == "player aid"
    assert record["game"] == "Shadow Throne" and record["version"] == ""


def test_an_old_kit_without_a_record_is_a_clear_error(tmp_path):
    result = CliRunner().invoke(main, ["build", "behind_the_throne", "--changed-since", str(tmp_path),
                                       "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert (f"--changed-since {tmp_path}: no cards.json there; it is written by every pnp build from this "
            f"version on, so build the old kit again (or give the folder of one)") in result.output
    assert not (tmp_path / "out").exists()
