"""Hypothesis fuzz of the loaders and validation: both bundled games' files, mutated (keys and items
deleted, values of the wrong type, odd strings, markup, paths, broken YAML text), never raise anything
but pnp's own problem reports (DataError, UserError).

The default run tries a dozen folders per game (a valid one renders the whole rulebook: about 2 s);
``PNP_LONG_FUZZ=1 pytest -m slow tests/test_fuzz.py`` runs the long fuzz (400 random folders per game;
``PNP_LONG_FUZZ_N`` sets another count, ``PNP_FUZZ_GAMES`` other bundled games). A small
two-deck game (a CSV deck, a layout of its own with expressions, extends and a choice by card type) is
fuzzed the same way; ``PNP_DECKS_FUZZ=300`` runs it with that many random examples.
"""

import math
import os
import shutil
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp import DATA_DIR
from pnp.components import BuildOptions
from pnp.errors import DataError, Problems, UserError
from pnp.loading.scenario import load_scenario
from pnp.validation.checks import validate_game

GAMES = ("shadow_throne", "behind_the_throne")
#: The long fuzz's games: PNP_FUZZ_GAMES=shadow_queen,shadow_kingdoms_of_valeria for others.
LONG_GAMES = tuple(filter(None, os.environ.get("PNP_FUZZ_GAMES", ",".join(GAMES)).split(",")))
FILES = {game: sorted(str(p.relative_to(DATA_DIR / game)) for p in (DATA_DIR / game).rglob("*.yaml"))
         for game in set(GAMES + LONG_GAMES)}

ODD_STRINGS = [
    "", " ", "\t\n", "x" * 3000, "\U0001F451 Crown", "\x07bell", "\u202eevil", "**[nosuchicon]** [pips:abc] [pips:0]",
    "<font size=40 color=red>Empire</font>", "Empire <b", "{bogus} {age.__class__.__mro__}", "{", "}",
    "../../../etc/passwd", "/etc/passwd", "a/b", "C:\\x", "~/x", ".", "..", "null", "1e400", "-0", "NaN",
    "é" * 10, "# heading", "- item", "| a | b |", "!toc", "> q", "\\", "*", "[", "crown", "shadow_throne",
    "behind_the_throne", "./x", "examples/killing.yaml", "examples/three-turns.yaml",
    # layout expressions and file names of the newer data paths
    "card.__class__.__mro__", "name.__class__", "range(10**9) | list", "'a' * 10**9", "lipsum(10**6)",
    "field('nosuch')", "tint(1, 2)", "palette.nosuch", "{{ 7*7 }}", "quests.csv", "../quests.csv", "plain",
    "art/none.png", "icons/x.svg",
]
ODD_VALUES = [None, 0, -1, 1, 2, 99, 10 ** 30, -10 ** 30, 0.5, float("nan"), float("inf"), -float("inf"), True,
              False, [], {}, [1, "x"], {"a": 1}, [[[]]], {"id": "x"}]


def plain(value):
    """LineDict / LineList -> plain dicts and lists (yaml.safe_dump writes only those)."""
    if isinstance(value, dict):
        return {plain(k) if not isinstance(k, (list, dict)) else str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


@st.composite
def mutation(draw, data):
    """``data`` with one random change somewhere in it."""
    path = []
    node = data
    while isinstance(node, (dict, list)) and node and draw(st.integers(0, 3)):
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        key = draw(st.sampled_from(keys))
        path.append(key)
        node = node[key]
    kind = draw(st.sampled_from(["delete", "string", "value", "wrap", "duplicate", "rename"]))
    if not path:
        return draw(st.sampled_from(ODD_VALUES + ODD_STRINGS)) if kind != "delete" else None
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if kind == "delete":
        del parent[last]
    elif kind == "string":
        parent[last] = draw(st.sampled_from(ODD_STRINGS) | st.text(max_size=30))
    elif kind == "value":
        parent[last] = draw(st.sampled_from(ODD_VALUES))
    elif kind == "wrap":
        parent[last] = [parent[last]] if draw(st.booleans()) else {"x": parent[last]}
    elif kind == "duplicate" and isinstance(parent, list):
        parent.insert(last, parent[last])
    elif kind == "rename" and isinstance(parent, dict):
        parent[draw(st.sampled_from(ODD_STRINGS))] = parent.pop(last)
    return data


TEXT_EDITS = ["delete line", "duplicate line", "insert", "truncate"]
INSERTS = ["&a ", "*a", "<<: *a\n", ": :", "- -", "\t", "'", '"', "{", "[", "%YAML 1.1\n", "---\n", "!!python/object:os.system x",
           "\x00", "\ufeff", "key: &b [*b]\n", "? [a]\n: b\n"]


@st.composite
def text_edit(draw, text):
    lines = text.splitlines(keepends=True) or [""]
    i = draw(st.integers(0, len(lines) - 1))
    kind = draw(st.sampled_from(TEXT_EDITS))
    if kind == "delete line":
        del lines[i]
    elif kind == "duplicate line":
        lines.insert(i, lines[i])
    elif kind == "insert":
        j = draw(st.integers(0, len(lines[i])))
        lines[i] = lines[i][:j] + draw(st.sampled_from(INSERTS) | st.text(max_size=5)) + lines[i][j:]
    else:
        return text[: draw(st.integers(0, len(text)))]
    return "".join(lines)


def mutated_folder(data, game: str, tmp: Path, source: Path | None = None) -> Path:
    folder = tmp / game
    shutil.copytree(source or DATA_DIR / game, folder)
    files = FILES.get(game) or sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
    for _ in range(data.draw(st.integers(1, 3), label="changes")):
        name = data.draw(st.sampled_from(files), label="file")
        path = folder / name
        text = path.read_text(encoding="utf-8")
        try:
            parsed = plain(yaml.safe_load(text)) if path.suffix == ".yaml" else None
        except yaml.YAMLError:           # broken by an earlier text edit: edit the text again
            parsed = None
        if parsed is None or data.draw(st.booleans(), label="as text"):
            text = data.draw(text_edit(text), label="text edit")
        else:
            text = yaml.safe_dump(data.draw(mutation(parsed), label="mutation"), allow_unicode=True,
                                  sort_keys=False)
        path.write_text(text, encoding="utf-8")
    return folder


def check_folder(folder: Path, lang: str | None) -> None:
    """Validation as build runs it (and with a language), then every example scenario on its own."""
    problems = Problems()
    try:
        validate_game(folder, problems, BuildOptions(lang=lang, thorough=False))
    except (DataError, UserError):
        pass
    for problem in problems:
        assert problem.message and "Traceback" not in problem.message
        assert len(str(problem)) < 600, str(problem)
    for scenario in sorted((folder / "examples").glob("*.yaml")) if (folder / "examples").is_dir() else ():
        try:
            load_scenario(scenario)
        except (DataError, UserError):
            pass


FUZZ = dict(deadline=None, suppress_health_check=list(HealthCheck), database=None)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=12, derandomize=True, **FUZZ)
@given(data=st.data())
def test_mutated_games_give_only_problem_reports(game, data):
    with tempfile.TemporaryDirectory() as tmp:
        folder = mutated_folder(data, game, Path(tmp))
        lang = data.draw(st.sampled_from([None, "es"]) if game == "shadow_throne" else st.just(None), label="lang")
        check_folder(folder, lang)


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("PNP_LONG_FUZZ"), reason="the long fuzz (20 min): PNP_LONG_FUZZ=1 pytest -m slow "
                                                                "tests/test_fuzz.py")
@pytest.mark.parametrize("game", LONG_GAMES)
@settings(max_examples=int(os.environ.get("PNP_LONG_FUZZ_N", 400)), **FUZZ)
@given(data=st.data())
def test_mutated_games_long_fuzz(game, data):
    with tempfile.TemporaryDirectory() as tmp:
        folder = mutated_folder(data, game, Path(tmp))
        check_folder(folder, data.draw(st.sampled_from([None, "es"]), label="lang"))


# A small game of the newer data paths: two decks, one of them a CSV file, a layout of the game's own
# (with expressions, extends and a per-type choice) and an inline one.
DECKS_GAME = {
    "game.yaml": """\
title: Two Decks
players: {min: 2, max: 4}
palette: {back: "#203040"}
decks:
  - id: heroes
    name: Heroes
    cards: heroes.yaml
    size: poker
    fields:
      might: {type: int, required: true, min: 0, max: 9, icon: heater}
      kind: {type: choice, choices: [hero, rogue], required: true}
      motto: {type: text}
    layout:
      by: kind
      default: plain
      layouts:
        rogue:
          extends: plain
          regions:
            - {name: title, rect: [4, 70, 49, 14], colour: palette.ink}
            - {name: tag, kind: text, rect: [4, 4, 49, 6], text: "'ROGUE ' ~ field('might')", style: small}
  - id: quests
    name: Quests
    cards: quests.csv
    size: {width: 70, height: 120}
    fields:
      reward: {type: int, min: 0, max: 20, icon: coin, format: "{value} gold"}
components: [cards]
""",
    "heroes.yaml": """\
cards:
  - {id: knight, name: Knight, copies: 2, might: 4, kind: hero, motto: Onwards}
  - {id: thief, name: Thief, copies: 1, might: 2, kind: rogue}
""",
    "quests.csv": "id,name,copies,reward,flavour\ndragon,Slay the Dragon,1,12,Bring a bucket.\n"
                  "caravan,Guard the Caravan,2,3,\n",
    "templates/layouts/plain.yaml": """\
size: [63, 88]
palette: {paper: "#fbf8ef", ink: "#222222", back: "#444444", accent: "#d0b060", neutral: "#777777"}
styles:
  title: {font: serif-semibold, size: 14, min_size: 8, max_lines: 1}
  small: {font: sans-bold, size: 6, min_size: 6, max_lines: 1}
regions:
  - {name: frame, kind: box, rect: [0, 0, 63, 88], bleed: true, fill: palette.paper}
  - {name: title, kind: text, rect: [4, 72, 55, 12], text: name, style: title}
  - {name: badges, kind: badges, in: title, x: 8, size: 6, top: 0, step: 7}
  - {name: rule, kind: line, from: [4, 70], to: [59, 70], colour: palette.ink, width: 0.3}
  - {name: dot, kind: icon, icon: "'circle'", at: [31.5, 20], size: 8, colour: palette.accent, when: "field('might')"}
""",
}


@pytest.fixture(scope="module")
def decks_game(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("decks") / "two_decks"
    for name, text in DECKS_GAME.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_the_decks_game_is_valid(decks_game):
    problems = Problems()
    result = validate_game(decks_game, problems, BuildOptions())
    assert not problems.errors, [str(p) for p in problems]
    assert result.game is not None and [d.id for d in result.game.decks] == ["heroes", "quests"]


@settings(max_examples=int(os.environ.get("PNP_DECKS_FUZZ", 15)), derandomize=not os.environ.get("PNP_DECKS_FUZZ"),
          **FUZZ)
@given(data=st.data())
def test_mutated_decks_csv_and_layouts_give_only_problem_reports(decks_game, data):
    with tempfile.TemporaryDirectory() as tmp:
        folder = mutated_folder(data, "two_decks", Path(tmp), decks_game)
        check_folder(folder, None)


def test_odd_values_are_all_dumpable():
    # the fuzz writes its mutations with yaml.safe_dump: every odd value must survive the round trip
    for value in ODD_VALUES + ODD_STRINGS:
        back = yaml.safe_load(yaml.safe_dump({"v": value}, allow_unicode=True))["v"]
        assert back == value or (isinstance(value, float) and math.isnan(value))
