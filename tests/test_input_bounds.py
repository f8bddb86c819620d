"""Every input parser has a type and a bound (issue 33): a player range, a tuned parameter's range, a
target band, a tuning grid, a variant file of the wrong shape and an earlier kit's pieces.json forged or
huge are each refused with one line and exit status 2, in bounded time and memory, never a traceback
(exit 70) or a MemoryError."""

import json
import os
import resource

import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.components.record import RECORD_FILE
from pnp.reprint.changes import MAX_RECORD_BYTES


def pnp(*args):
    return CliRunner().invoke(main, [*map(str, args)])


@pytest.fixture
def small_memory():
    """At most 3 GB of address space while the test runs (a bound that makes a MemoryError fail fast
    instead of swapping, and shows the command needs no more)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = 3 * 2**30
    resource.setrlimit(resource.RLIMIT_AS, (min(limit, hard) if hard != resource.RLIM_INFINITY else limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def refused(result, message):
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert message in result.output, result.output
    return result


# ---------------------------------------------------------------------------------------------- --players

@pytest.mark.parametrize("command", [("replay", "shadow_throne", "--seed", 1), ("simulate", "shadow_throne"),
                                     ("lab", "shadow_throne", "compare", "base", "base", "--bots", "random")])
@pytest.mark.parametrize("players, message", [
    ("3..1000000000000", "--players: 1000000000000 is not between 3 and 5 (the players Shadow Throne's rules "
                         "engine plays)"),
    ("1..1000000000000", "--players: 1 is not between 3 and 5"),
    ("9" * 5000, "--players: a number of 5,000 digits is not between 3 and 5"),
    ("0004", None),
    ("5..3", "--players: the range 5..3 is empty; write the smaller count first"),
])
def test_a_player_range_is_checked_before_it_is_counted(command, players, message, small_memory, tmp_path):
    result = pnp(*command, "--players", players, "--games", 2, "--out", tmp_path) if command[0] == "lab" else \
        pnp(*command, "--players", players, "--games", 2) if command[0] == "simulate" else \
        pnp(*command, "--players", players)
    if message is None:
        assert result.exit_code == 0, result.output
    else:
        refused(result, message)


# ---------------------------------------------------------------------------------------------- pnp lab tune

def tune(tmp_path, *args):
    return pnp("lab", "shadow_throne", "tune", *args, "--games", 2, "--out", tmp_path / "lab")


@pytest.mark.parametrize("args, message", [
    (("--param", "goal=1.2.3..5", "--target", "length=1..5"),
     "--param: expected NAME=LO..HI (e.g. goal=10..20), got 'goal=1.2.3..5'"),
    (("--param", "goal=1..5", "--target", "win_seat_1=1.2.3..5"),
     "--target: expected METRIC=LO..HI (e.g. win_seat_1=0.45..0.55), got 'win_seat_1=1.2.3..5'"),
    (("--param", "goal=1..5", "--target", "length=1..5..6"), "--target: expected METRIC=LO..HI"),
    (("--param", "goal=1..5", "--target", "length=" + "9" * 400 + "..5"), "--target: expected METRIC=LO..HI"),
    (("--param", "goal=" + "9" * 5000 + "..5", "--target", "length=1..5"), "--param: expected NAME=LO..HI"),
    (("--param", "goal=1.5..5", "--target", "length=1..5"), "--param goal: goal takes whole numbers, got 1.5..5"),
    (("--param", "goal=10%..50%", "--target", "length=1..5"), "--param goal: goal takes whole numbers"),
    (("--param", "goal=1..5", "--param", "goal=6..9", "--target", "length=1..5"),
     "--param goal: given twice; give each parameter once"),
    (("--param", "goal=1..99", "--param", "start_gold=0..30", "--param", "battle_limit=1..1000", "--grid", 50,
      "--target", "length=1..5"),
     "--param: a grid of 77,500 values (50 x 31 x 50) is more than a tuning run tries (1,000); tune fewer "
     "parameters at once or give a smaller --grid"),
])
def test_tuning_ranges_targets_and_grids_are_bounded(tmp_path, args, message, small_memory):
    refused(tune(tmp_path, *args), message)
    assert not (tmp_path / "lab" / "report.json").exists()


def test_an_eight_parameter_grid_of_50_is_refused_at_once(tmp_path, small_memory):
    """The audit's case: eight ranges at --grid 50 were 50**8 combinations made in memory."""
    refused(tune(tmp_path, *[a for _ in range(8) for a in ("--param", "goal=1..99")], "--grid", 50,
                 "--target", "length=1..5"), "--param goal: given twice")
    refused(tune(tmp_path, "--param", "goal=1..99", "--param", "start_gold=0..30", "--grid", 50,
                 "--target", "length=1..5"), "--param: a grid of 1,550 values (50 x 31)")


@pytest.mark.parametrize("question", [("compare", "base", "base"), ("ladder",), ("ablate",)])
def test_a_lab_question_asks_for_at_most_a_million_games(tmp_path, question, small_memory):
    result = pnp("lab", "shadow_throne", *question, "--games", 10**12, "--out", tmp_path)
    assert result.exit_code == 2 and "'--games': 1000000000000 is not in the range 2<=x<=1000000" in result.output


def test_a_change_of_a_thousand_digits_is_refused(tmp_path):
    refused(pnp("lab", "shadow_throne", "ablate", "--change", "cost=+" + "9" * 5000, "--out", tmp_path),
            "--change: expected remove, copies=-1 or FIELD=+N (e.g. cost=+1), got 'cost=+9999")


# ---------------------------------------------------------------------------------------------- variant files

@pytest.mark.parametrize("text, message", [
    ("- goal: 10\n", "v.yaml:1: expected a mapping, got a list"),
    ("just words\n", "v.yaml: expected a mapping, got 'just words'"),
    ("parameters: [1]\ncards: [x]\nadd: {a: 1}\n", "v.yaml:1: parameters: expected a mapping, got a list"),
    ("cards:\n  5: remove\n  general: [1]\nadd: [5, [1]]\n", "v.yaml:3: cards.general: expected 'remove' or a "
                                                             "mapping of the keys to change, got [1]"),
])
@pytest.mark.parametrize("command", ["replay", "balance", "compare"])
def test_a_variant_file_of_the_wrong_shape_is_a_problem_at_its_line(tmp_path, text, message, command, monkeypatch):
    (tmp_path / "v.yaml").write_text(text)
    monkeypatch.chdir(tmp_path)
    args = {"replay": ("replay", "behind_the_throne", "--seed", 1, "--variant", "v.yaml"),
            "balance": ("balance", "behind_the_throne", "--games", 2, "--variant", "v.yaml", "--out", "b"),
            "compare": ("lab", "behind_the_throne", "compare", "base", "v.yaml", "--games", 2, "--out", "l")}
    refused(pnp(*args[command]), message)


# ---------------------------------------------------------------------------------------------- pieces.json

def _record():
    return {"format": 2, "game": "G", "version": "1", "components": {"cards": {
        "kind": "cards", "title": "Cards", "pieces": {"general": {
            "name": "General", "group": "cards", "values": {"name": "General"},
            "copies": {"general#1": {"face": "f", "back": "b"}}}}}}}


def _forged(path):
    """(how the record is edited, the problem named)."""
    pieces = ("components", "cards", "pieces")
    return [
        (lambda r: r["components"].update(cards=[]), "components.cards: expected a mapping, got list"),
        (lambda r: r["components"]["cards"].update(kind=5), "components.cards.kind: expected text, got int"),
        (lambda r: r["components"]["cards"].update(pieces=None), "components.cards.pieces: expected a mapping, "
                                                                "got nothing"),
        (lambda r: _at(r, pieces)["general"].update(name=["x"]), "components.cards.pieces.general.name: expected "
                                                                 "text, got list"),
        (lambda r: _at(r, pieces)["general"].update(values=[1]), "components.cards.pieces.general.values: "
                                                                 "expected a mapping, got list"),
        (lambda r: _at(r, pieces)["general"].update(group=7), "components.cards.pieces.general.group: expected "
                                                              "text, got int"),
        (lambda r: _at(r, pieces)["general"].update(copies={"general#1": "f"}),
         "components.cards.pieces.general.copies.general#1: expected a mapping, got text"),
        (lambda r: _at(r, pieces)["general"]["copies"]["general#1"].update(face=3),
         "components.cards.pieces.general.copies.general#1.face: expected text, got int"),
        (lambda r: r.update(only=5), "only: expected a list of kinds"),
        (lambda r: r.update(version={"a": 1}), "version: expected text, got a mapping"),
        (lambda r: _at(r, pieces).update({"x" * 100: []}), "components.cards.pieces." + "x" * 39 + "\u2026: "
                                                           "expected a mapping, got list"),
    ]


def _at(record, keys):
    for k in keys:
        record = record[k]
    return record


@pytest.mark.parametrize("case", range(11))
def test_a_forged_pieces_json_names_its_first_wrong_value(tmp_path, case):
    edit, problem = _forged(tmp_path)[case]
    record = _record()
    edit(record)
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / RECORD_FILE).write_text(json.dumps(record))
    refused(pnp("build", "behind_the_throne", "--changed-since", tmp_path / "old", "--out", tmp_path / "out"),
            f"--changed-since {tmp_path / 'old'}: pieces.json is not a record of pieces pnp wrote ({problem})")
    assert not (tmp_path / "out").exists()


def test_a_forged_cards_json_of_an_older_pnp_names_its_first_wrong_value(tmp_path):
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "cards.json").write_text(json.dumps(
        {"format": 1, "decks": {"cards": {"cards": {"general": {"name": "G", "values": {}, "copies": []}}}}}))
    refused(pnp("build", "behind_the_throne", "--changed-since", tmp_path / "old", "--out", tmp_path / "out"),
            "cards.json is not a card record pnp wrote (decks.cards.cards.general.copies: expected a mapping, "
            "got list)")


def test_a_huge_deep_or_odd_pieces_json_is_refused_without_reading_it_all(tmp_path, small_memory):
    old = tmp_path / "old"
    old.mkdir()
    record = old / RECORD_FILE
    args = ("build", "behind_the_throne", "--changed-since", old, "--out", tmp_path / "out")
    with open(record, "wb") as f:                      # a sparse file: 4 GB that take no room on disk
        f.truncate(4 * 2**30)
    refused(pnp(*args), f"cannot read pieces.json: it holds 4,096 MB, more than a record pnp writes "
                        f"(at most {MAX_RECORD_BYTES // 2**20} MB)")
    record.write_text("[" * 200_000 + "]" * 200_000)
    refused(pnp(*args), "cannot read pieces.json: its values are nested too deeply")
    record.write_bytes(b'{"format": 2, "components": {"\xff": 1}}')
    refused(pnp(*args), "cannot read pieces.json: it is not UTF-8 text")
    record.unlink()
    os.mkfifo(record)
    refused(pnp(*args), "cannot read pieces.json: is a FIFO, not a regular file; pnp reads only regular files")
    assert not (tmp_path / "out").exists()
