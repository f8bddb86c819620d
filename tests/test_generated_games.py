"""Generated games (issue 32): random but valid game folders made by :mod:`gamegen` from the documented
features, run through ``pnp validate`` and ``pnp build`` in this process (click's runner).

Properties of every generated game:

* validate and build never end in exit 70 (a bug in pnp); a non-zero exit names each problem's
  ``file:line``; and the game, valid by construction, validates and builds;
* a build with the build cache writes the same bytes as a ``--no-cache`` build;
* a second build says the kit is up to date;
* after one edit a designer makes (a name, a count, a colour, a chapter's heading...), a rebuild with the
  cache writes the same bytes as a ``--no-cache`` build of the edited game.

And its mistakes: one mistake made at one of its sites (a typo in a name, a wrong type, a misspelt key, a
missing file, broken markup...) is exit 2 with a problem at the file and line of the mistake, or exit 0
with a new warning naming it; never silent.

The default run tries a few small games (derandomized: the same ones every run); the slow run
(``pytest -m slow tests/test_generated_games.py``, which ``.ci/run`` runs) tries ``PNP_GENERATED_N`` (40)
larger ones for each property, the same every run unless ``PNP_GENERATED_RANDOM=1`` asks for new ones.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, Phase, assume, given, note, settings
from hypothesis import strategies as st

from fixed_examples import no_local_constants
from gamegen import apply_edit, games, mutate
from pnp.cache import memo as file_caches
from pnp.commands.cli import main

EXIT_INTERNAL = 70
#: ``path:line[:column]: `` at the start of a problem pnp prints.
AT_LINE = re.compile(r"^(?P<file>[^:\s][^:]*):(?P<line>\d+)(?::\d+)?: ")
SUMMARY = re.compile(r"^\d+ problems? found; nothing was written\.$")
CACHE = ".pnp-cache"

QUICK = dict(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck),
             phases=(Phase.explicit, Phase.generate))
#: The slow run: derandomized too (CI sees the same games every run) unless PNP_GENERATED_RANDOM is set.
LONG = dict(QUICK, derandomize=not os.environ.get("PNP_GENERATED_RANDOM"),
            max_examples=int(os.environ.get("PNP_GENERATED_N", 40)))


def run(*args):
    file_caches.clear()          # as a new process would: nothing read before is remembered
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code != EXIT_INTERNAL, f"pnp {' '.join(map(str, args))}: a bug in pnp\n{result.output}"
    if result.exit_code != 0:
        assert result.exit_code == 2, f"pnp {' '.join(map(str, args))}: exit {result.exit_code}\n{result.output}"
        for line in problem_lines(result.output):
            assert AT_LINE.match(line) or " warning: " in line, f"a problem without its file and line: {line}"
    return result


def problem_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line and not SUMMARY.match(line)]


def kit_files(out: Path) -> dict:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and CACHE not in p.relative_to(out).parts}


def write_over(game, folder: Path) -> None:
    """The folder made the game's: its files written, files it no longer has deleted."""
    keep = set(game.files)
    for path in sorted(folder.rglob("*"), reverse=True):
        rel = path.relative_to(folder).as_posix()
        if path.is_file() and rel not in keep:
            path.unlink()
    game.write(folder)


def check_builds(game, base: Path, data, lang: bool = False) -> None:
    """The properties of a valid game (see the module)."""
    folder = game.write(base / "game")
    note(f"game folder: {folder}")
    result = run("validate", folder, "--cache", base / "validate-cache")
    assert result.exit_code == 0, f"a generated game is valid:\n{result.output}"
    options = ["--jobs", "1"]
    if lang and game.info["translated"] and game.info["complete"]:
        options += ["--lang", "es"]
    options += data.draw(st.sampled_from([[], [], ["--paper", "a4"], ["--bleed", "3"], ["--cards", "gutterfold"]]),
                         label="build options")
    result = run("build", folder, "--out", base / "kit", *options)
    assert result.exit_code == 0, f"a generated game builds:\n{result.output}"
    if options == ["--jobs", "1"]:             # what validate warns of (in the kit's language), build says too
        checked = run("validate", folder, "--cache", base / "validate-cache", "--lang", game.info["language"])
        said = set(problem_lines(result.output))
        assert [w for w in problem_lines(checked.output) if " warning: " in w and w not in said] == [], \
            f"pnp build did not print every warning pnp validate prints:\n{checked.output}\n---\n{result.output}"
    fresh = run("build", folder, "--out", base / "fresh", "--no-cache", *options)
    assert fresh.exit_code == 0, fresh.output
    built = kit_files(base / "kit")
    assert built == kit_files(base / "fresh"), "the cache changed the kit's bytes"
    again = run("build", folder, "--out", base / "kit", *options)
    assert again.exit_code == 0 and "up to date" in again.output, again.output
    assert kit_files(base / "kit") == built
    # one edit, rebuilt with the cache, is the kit a fresh build of the edited game writes
    assume(game.edits)
    change = apply_edit(game, data.draw)
    note(f"edit: {change.what}")
    write_over(change.game, folder)
    result = run("build", folder, "--out", base / "kit", *options)
    assert result.exit_code == 0, f"{change.what}\n{result.output}"
    assert "up to date" not in result.output or not change.where, change.what
    fresh = run("build", folder, "--out", base / "fresh-edited", "--no-cache", *options)
    assert fresh.exit_code == 0, fresh.output
    assert kit_files(base / "kit") == kit_files(base / "fresh-edited"), \
        f"after the edit {change.what}, the rebuild with the cache differs from a fresh build"


def problems_of(output: str) -> list[tuple]:
    """(file, line or None, is a warning, the line) of every problem printed."""
    out = []
    for line in problem_lines(output):
        m = AT_LINE.match(line)
        if m:
            out.append((m["file"], int(m["line"]), line[m.end():].startswith("warning: "), line))
        else:
            out.append((line.split(":", 1)[0], None, " warning: " in line, line))
    return out


def points_at(problem, folder: Path, where: dict) -> bool:
    """Whether a problem names one of the files (and one of the lines) the change landed on."""
    file, line, _, _ = problem
    for name, lines in where.items():
        if file == str(folder / name) or file.endswith("/" + name):
            if not lines or line in lines:
                return True
    return False


def check_mistake(game, base: Path, data) -> None:
    """The mistake is exit 2 at its file and line, or a new warning naming it; never silent."""
    change = mutate(game, data.draw)
    assume(change is not None and change.where)
    note(f"mistake: {change.what}; expected at {change.where}")
    folder = game.write(base / "game")
    before = run("validate", folder, "--cache", base / "validate-cache")
    assert before.exit_code == 0, f"a generated game is valid:\n{before.output}"
    write_over(change.game, folder)
    after = run("validate", folder, "--cache", base / "validate-cache")
    problems = problems_of(after.output)
    if after.exit_code == 2:
        errors = [p for p in problems if not p[2]]
        assert any(points_at(p, folder, change.where) for p in errors), \
            f"{change.what}: no error at {change.where}:\n{after.output}"
        return
    known = set(problem_lines(before.output))
    new = [p for p in problems if p[2] and p[3] not in known]
    assert any(points_at(p, folder, change.where) or (change.token and change.token in p[3]) for p in new), \
        f"a silent mistake: {change.what} (exit 0, no warning names it):\n{after.output}"


# ----------------------------------------------------------------------------- the default run: a few small games

@settings(max_examples=3, **QUICK)
@given(data=st.data())
def test_a_generated_game_validates_builds_and_rebuilds_the_same(tmp_path, data):
    game = data.draw(games(), label="game")
    with tempfile.TemporaryDirectory(dir=tmp_path) as base:
        check_builds(game, Path(base), data)


@settings(max_examples=6, **QUICK)
@given(data=st.data())
def test_a_mistake_in_a_generated_game_is_never_silent(tmp_path, data):
    game = data.draw(games(), label="game")
    with tempfile.TemporaryDirectory(dir=tmp_path) as base:
        check_mistake(game, Path(base), data)


def drawn_games(count: int = 6) -> list[dict]:
    """The files of the first ``count`` games a derandomized test of the default run's settings draws."""
    seen = []

    @settings(max_examples=count, **QUICK)
    @given(data=st.data())
    def draw(data):
        seen.append(data.draw(games(), label="game").rendered())

    with no_local_constants():         # as tests/conftest.py runs every derandomized test
        draw()
    return seen


def test_the_same_games_are_drawn_whatever_ran_before(tmp_path, monkeypatch):
    """A module of the project's own loaded in between (its numbers and words are what Hypothesis draws
    from now and then) leaves the games drawn as they were (tests/fixed_examples.py)."""
    before = drawn_games()
    path = tmp_path / "pnp_constants_loaded_in_between.py"
    path.write_text("NUMBERS = [101, 150, 199, 250, 333, 404, 450, 500, 512, 640, 777, 800, 901, 998, 999]\n"
                    "WORDS = ['zq', 'red', 'x y', 'qq-1', 'Shadow', '{{', '*']\n")
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setitem(sys.modules, path.stem, module)
    assert drawn_games() == before


# ----------------------------------------------------------------------------- the slow run: many larger games

@pytest.mark.slow
@settings(**LONG)
@given(data=st.data())
def test_many_generated_games_validate_build_and_rebuild_the_same(tmp_path, data):
    game = data.draw(games(large=data.draw(st.booleans(), label="large")), label="game")
    with tempfile.TemporaryDirectory(dir=tmp_path) as base:
        check_builds(game, Path(base), data, lang=data.draw(st.booleans(), label="in Spanish"))


@pytest.mark.slow
@settings(**LONG)
@given(data=st.data())
def test_many_mistakes_in_generated_games_are_never_silent(tmp_path, data):
    game = data.draw(games(large=data.draw(st.booleans(), label="large")), label="game")
    with tempfile.TemporaryDirectory(dir=tmp_path) as base:
        check_mistake(game, Path(base), data)
