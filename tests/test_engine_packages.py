"""Engines are found by name among the installed ones (entry-point group ``pnp.engines``): the bundled
engines register in pnp's pyproject.toml, an engine of one's own is a package installed beside pnp. A
game folder can only name one; a name nobody installed is a validation error with the closest name."""

import os
import re
import shutil
import subprocess
import sys
import tomllib
import types
from pathlib import Path

import pytest
from click.testing import CliRunner

import rules_engine
from pnp import PROJECT_ROOT
from pnp.commands.cli import main
from rules_engine import UnknownEngine, engine_module
from rules_engine.protocol import missing_names

HERE = Path(__file__).resolve().parent
PACKAGE = HERE / "engines" / "high_card"
GAME = HERE / "engines" / "high_card_game"
DOC = PROJECT_ROOT / "docs" / "engine.md"
BUNDLED = ["behind_the_throne", "shadow_queen", "shadow_throne", "valeria"]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_the_bundled_engines_register_as_entry_points():
    with open(PROJECT_ROOT / "pyproject.toml", "rb") as f:
        table = tomllib.load(f)["project"]["entry-points"]["pnp.engines"]
    packages = sorted(p.name for p in (PROJECT_ROOT / "rules_engine").iterdir() if (p / "__init__.py").is_file()
                      and p.name not in ("core", "model"))
    assert sorted(table) == packages == BUNDLED
    assert table == {name: f"rules_engine.{name}" for name in BUNDLED}
    assert rules_engine.bundled_engines() == table
    for name in BUNDLED:
        module = engine_module(name)
        assert module.__name__ == f"rules_engine.{name}" and missing_names(module) == []
        assert module.ENGINE.name == name          # simulations look the engine up again by this name


def test_an_unknown_engine_is_a_validation_error_naming_the_installed_ones(game_copy):
    game = game_copy / "game.yaml"
    game.write_text(game.read_text().replace("engine: shadow_throne", "engine: shadow_thorne"))
    line = game.read_text().splitlines().index("engine: shadow_thorne") + 1
    result = run("validate", game_copy)
    assert result.exit_code == 2
    installed = ", ".join(sorted(rules_engine.installed_engines()))
    assert set(BUNDLED) <= set(rules_engine.installed_engines())
    # one problem: the cards' abilities are not reported as unknown kinds (only the engine knows them)
    assert result.output.splitlines() == [
        f"{game}:{line}: engine: no installed rules engine is named 'shadow_thorne' (did you mean 'shadow_throne'?); "
        f"installed engines: {installed} (an engine is a Python package registered in the entry-point group "
        f"'pnp.engines', see docs/engine.md)",
        "1 problem found; nothing was written."]


def test_a_game_folder_cannot_bring_its_own_engine(game_copy):
    # a module beside game.yaml, and one in a folder named like pnp's engines: neither is an installed engine
    (game_copy / "folder_engine.py").write_text("raise SystemExit('game folder code ran')\n")
    game = game_copy / "game.yaml"
    game.write_text(game.read_text().replace("engine: shadow_throne", "engine: folder_engine"))
    result = run("validate", game_copy)
    assert result.exit_code == 2
    assert "engine: no installed rules engine is named 'folder_engine'" in result.output
    assert "game folder code ran" not in result.output


@pytest.fixture
def fake_engine(monkeypatch):
    """An installed engine 'fake' (module ``fake_engine``) whose module the test shapes."""
    module = types.ModuleType("fake_engine")
    monkeypatch.setitem(sys.modules, "fake_engine", module)
    real = rules_engine.installed_engines()
    monkeypatch.setattr(rules_engine, "installed_engines", lambda: {**real, "fake": "fake_engine"})
    return module


def _errors(result) -> list[str]:
    """The output's lines but its warnings (a copy of Shadow Throne ships Spanish, whose engine phrases the
    fake engine's name does not find: a warning of plain validate's check of every translation)."""
    return [line for line in result.output.splitlines() if ": warning: " not in line]


def _engine_game(game_copy, name="fake"):
    game = game_copy / "game.yaml"
    game.write_text(game.read_text().replace("engine: shadow_throne", f"engine: {name}"))
    return game, game.read_text().splitlines().index(f"engine: {name}") + 1


def test_an_engine_missing_contract_names_is_reported(game_copy, fake_engine):
    import rules_engine.shadow_throne as st

    # everything but the rules: the two names the contract requires (the rest has defaults)
    for name in ("FACTS", "EFFECTS", "CARD_KEYS", "BOTS", "DEFAULT_BOTS", "PLAYERS", "OPTIONS", "simulate"):
        setattr(fake_engine, name, getattr(st, name))
    game, line = _engine_game(game_copy)
    result = run("validate", game_copy)
    assert result.exit_code == 2
    assert _errors(result)[0] == (
        f"{game}:{line}: engine: the rules engine 'fake' (fake_engine) does not export ENGINE, rules_for (the engine "
        f"contract, docs/engine.md)")


def test_an_engine_whose_name_differs_from_its_entry_point_is_reported(game_copy, fake_engine):
    import rules_engine.shadow_throne as st

    for name in rules_engine.protocol.REQUIRED:
        setattr(fake_engine, name, getattr(st, name))
    game, line = _engine_game(game_copy)
    result = run("validate", game_copy)
    assert result.exit_code == 2
    assert _errors(result)[0] == (
        f"{game}:{line}: engine: the rules engine 'fake' (fake_engine) calls itself 'shadow_throne' in ENGINE.name; "
        f"it must be its entry point's name, 'fake' (simulations look it up by that name)")


def test_an_engine_that_fails_to_import_is_reported_without_a_traceback(game_copy, monkeypatch):
    real = rules_engine.installed_engines()
    monkeypatch.setattr(rules_engine, "installed_engines", lambda: {**real, "gone": "no_such_engine_module"})
    game, line = _engine_game(game_copy, "gone")
    result = run("validate", game_copy)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.output.splitlines()[0] == (
        f"{game}:{line}: engine: the rules engine 'gone' (no_such_engine_module) cannot be imported: "
        f"ModuleNotFoundError: No module named 'no_such_engine_module'")


def test_engine_lookup_names_the_installed_engines():
    with pytest.raises(UnknownEngine) as caught:
        engine_module("no_such_engine")
    assert caught.value.name == "no_such_engine" and set(BUNDLED) <= set(caught.value.known)


# ---------------------------------------------------------------- a separately installed engine package

@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict:
    """docs/engine.md's tiny engine package, built and installed with pip into a folder of its own; the
    environment that puts that folder on Python's path (as a venv's site-packages would be)."""
    work = tmp_path_factory.mktemp("engine")
    source = work / "high_card"
    shutil.copytree(PACKAGE, source)
    site = work / "site"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                           "--no-index", "--target", str(site), str(source)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (site / "high_card.py").is_file()
    paths = [str(PROJECT_ROOT), str(site)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return dict(os.environ, PYTHONPATH=os.pathsep.join(paths), PNP_GAME="")


def pnp(env, cwd, *args):
    """``pnp ARGS`` in a process of its own, run in ``cwd`` (a test's own folder: pnp validate keeps its
    cache in output/ of the working directory)."""
    return subprocess.run([sys.executable, "-m", "pnp", *map(str, args)], capture_output=True, text=True, env=env,
                          timeout=300, cwd=cwd)


def test_an_installed_engine_package_validates_and_simulates_its_game(installed, tmp_path):
    done = pnp(installed, tmp_path, "validate", GAME)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("High Card: 14 cards (5 different), components cards: valid")
    done = pnp(installed, tmp_path, "simulate", GAME, "--games", "200", "--players", "3", "--seed", "4", "--check")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "High Card: 200 games, 3 players, seed 4"
    wins = [float(w) for w in re.findall(r"seat \d: ([\d.]+)", lines[1])]
    assert len(wins) == 3 and sum(wins) == 200       # every game has its winners (a tie shares the win)
    assert lines[2] == "Invariants: none broken"
    # the same report from two worker processes: they look the engine up by its installed name too
    again = pnp(installed, tmp_path, "simulate", GAME, "--games", "200", "--players", "3", "--seed", "4", "--check",
                "--jobs", "2")
    assert again.returncode == 0 and again.stdout == done.stdout


def test_an_installed_engine_plays_a_game_told_round_by_round(installed, tmp_path):
    done = pnp(installed, tmp_path, "simulate", GAME, "--games", "1", "--players", "2", "--transcript", "--seed", "7")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "High Card, seed 7. Seats: Ana (random bot), Ben (random bot)."
    assert [line.split(":")[0] for line in lines[1:]] == ["Round 1", "Round 2", "Round 3"]
    names = {"Spark", "Candle", "Lantern", "Beacon", "Sun"}
    for line in lines[1:]:
        played = re.fullmatch(r"Round \d: Ana plays (\w+), Ben plays (\w+); (Ana|Ben|nobody) takes it\.", line)
        assert played and {played[1].title(), played[2].title()} <= names


def test_without_the_package_the_game_names_an_engine_nobody_installed(installed, tmp_path):
    env = dict(installed, PYTHONPATH=str(PROJECT_ROOT))
    done = pnp(env, tmp_path, "validate", GAME)
    assert done.returncode == 2
    assert done.stderr.splitlines()[0].endswith(
        "game.yaml:3: engine: no installed rules engine is named 'high_card'; installed engines: behind_the_throne, "
        "shadow_queen, shadow_throne, valeria (an engine is a Python package registered in the entry-point group "
        "'pnp.engines', see docs/engine.md)")


def _doc_blocks() -> dict:
    """The files docs/engine.md shows under "An engine in its own package", by the name above each block."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## An engine in its own package", 1)[1].split("\n## ", 1)[0]
    return {name: body for name, body in re.findall(r"`([\w./-]+)`:\n\n(?:<!--[^\n]*-->\n)?```\w*\n(.*?)```",
                                                     section, re.S)}


def test_the_docs_show_the_package_the_test_installs():
    blocks = _doc_blocks()
    files = {"high_card/pyproject.toml": PACKAGE / "pyproject.toml", "high_card/high_card.py": PACKAGE / "high_card.py",
             "high_card_game/game.yaml": GAME / "game.yaml", "high_card_game/cards.csv": GAME / "cards.csv"}
    assert sorted(blocks) == sorted(files)
    for name, path in files.items():
        assert blocks[name] == path.read_text(), name
