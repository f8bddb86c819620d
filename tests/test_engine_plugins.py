"""Engine plugins are imported at arm's length: an installed engine whose import raises, exits
(``SystemExit``, even with status 0) or takes longer than the import limit (``PNP_ENGINE_IMPORT_SECONDS``)
ends every command that plays or checks its game with exit status 2 and one line naming the entry point
and its module, in bounded time: never a false success, a hang or an internal error."""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import rules_engine
from pnp import PROJECT_ROOT
from pnp.commands.cli import main
from rules_engine import EngineImportError, engine_module

HERE = Path(__file__).resolve().parent
GAME = HERE / "engines" / "high_card_game"
#: What a hostile plugin's module does on import, and the end of the line that names it.
IMPORTS = {
    "exits": ("raise SystemExit(0)\n", "its import tried to end the program (SystemExit(0))"),
    "exits-with-words": ("import sys\nsys.exit('bye')\n", "its import tried to end the program (SystemExit('bye'))"),
    "raises": ("raise RuntimeError('broken\\nplugin')\n", "RuntimeError: broken plugin"),
    "sleeps": ("import time\ntime.sleep(60)\n",
               "its import took longer than 1 s and was given up (PNP_ENGINE_IMPORT_SECONDS=SECONDS allows more)"),
}
#: A command of each kind that loads an engine (the lab's and balance's outputs go to the test's folder).
COMMANDS = {
    "validate": ["validate", "{game}"],
    "simulate": ["simulate", "{game}", "--games", "2", "--players", "2"],
    "replay": ["replay", "{game}", "--seed", "1", "--players", "2"],
    "lab": ["lab", "{game}", "compare", "base", "base", "--games", "2", "--players", "2", "--out", "{out}"],
    "balance": ["balance", "{game}", "--games", "2", "--players", "2", "--out", "{out}"],
}


def plugin_site(folder: Path, module: str, body: str, entry: str = "high_card") -> Path:
    """A folder that, on Python's path, installs the engine ``entry`` as the module ``module`` whose
    import runs ``body`` (a distribution's metadata and entry points, as pip would leave them)."""
    site = folder / "site"
    info = site / "hostile_engine-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hostile-engine\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[pnp.engines]\n{entry} = {module}\n")
    (site / f"{module}.py").write_text(body)
    return site


def pnp(site: Path, *args, limit: str = "1", cwd=None):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(PROJECT_ROOT), str(site)]), PNP_GAME="",
               PNP_ENGINE_IMPORT_SECONDS=limit)
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pnp", *map(str, args)], capture_output=True, text=True, env=env,
                          timeout=60, cwd=cwd)
    return done, time.monotonic() - started


def _every_command(tmp_path, behaviour, commands):
    body, why = IMPORTS[behaviour]
    site = plugin_site(tmp_path, "hostile_engine", body)
    game = tmp_path / "game"
    shutil.copytree(GAME, game)
    expected = (f"game/game.yaml:3: engine: the rules engine 'high_card' (hostile_engine) cannot be "
                f"imported: {why}")
    for name in commands:
        command = COMMANDS[name]
        args = [a.format(game=game, out=tmp_path / f"out-{name}") for a in command]
        done, seconds = pnp(site, *args, cwd=tmp_path)
        assert done.returncode == 2, (name, done.stdout, done.stderr)
        assert done.stderr.splitlines() == [expected, "1 problem found; nothing was written."], name
        assert done.stdout == "" and seconds < 20, name
        assert not (tmp_path / f"out-{name}").exists(), name


@pytest.mark.parametrize("behaviour", ["exits", "sleeps"])
def test_a_plugin_whose_import_exits_or_sleeps_is_exit_2_naming_it(tmp_path, behaviour):
    _every_command(tmp_path, behaviour, ["validate", "simulate"])


@pytest.mark.slow
@pytest.mark.parametrize("behaviour", sorted(IMPORTS))
def test_a_hostile_engine_import_is_exit_2_naming_the_plugin_in_every_command(tmp_path, behaviour):
    _every_command(tmp_path, behaviour, COMMANDS)


@pytest.mark.parametrize("behaviour", sorted(IMPORTS))
def test_every_command_refuses_a_hostile_plugin_in_process(tmp_path, plugin, behaviour):
    # the same refusal through the command line's own code (no interpreter to start: cheap for every command)
    body, why = IMPORTS[behaviour]
    name = plugin(body.replace("time.sleep(60)", "time.sleep(20)"), limit="1")
    game = tmp_path / "game"
    shutil.copytree(GAME, game)
    (game / "game.yaml").write_text((game / "game.yaml").read_text().replace("engine: high_card", f"engine: {name}"))
    expected = f"{game / 'game.yaml'}:3: engine: the rules engine '{name}' ({name}) cannot be imported: {why}"
    for command, args in COMMANDS.items():
        started = time.monotonic()
        result = CliRunner().invoke(main, [a.format(game=game, out=tmp_path / f"out-{command}") for a in args])
        assert result.exit_code == 2, (command, result.output)
        assert result.output.splitlines() == [expected, "1 problem found; nothing was written."], command
        assert time.monotonic() - started < 10 and not (tmp_path / f"out-{command}").exists(), command


def test_the_import_limit_is_checked_before_anything_runs(tmp_path):
    for value in ("soon", "0", "-5", "nan", "1e9"):
        done, _ = pnp(tmp_path, "validate", GAME, limit=value)
        assert done.returncode == 2
        assert done.stderr.splitlines() == [
            f"error: PNP_ENGINE_IMPORT_SECONDS={value!r}: expected the seconds an engine's import may take, a "
            f"number from 0.1 to 3600 (default 30)"]


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """``make(body) -> engine name``: an installed engine, in this process, whose import runs ``body``."""
    real = rules_engine.installed_engines()
    monkeypatch.syspath_prepend(str(tmp_path))
    made = {}

    def make(body, limit="0.5"):
        name = f"hostile_{len(made)}_{os.getpid()}_{tmp_path.name}".replace("-", "_")
        (tmp_path / f"{name}.py").write_text(body)
        made[name] = name
        monkeypatch.setattr(rules_engine, "installed_engines", lambda: {**real, **made})
        monkeypatch.setenv("PNP_ENGINE_IMPORT_SECONDS", limit)
        return name

    yield make
    for name in made:
        rules_engine._failed.pop(name, None)


def test_an_import_that_exits_or_sleeps_is_refused_at_once_each_time_it_is_asked_for_again(plugin):
    name = plugin("import time\ntime.sleep(30)\n")
    started = time.monotonic()
    with pytest.raises(EngineImportError) as caught:
        engine_module(name)
    assert 0.5 <= time.monotonic() - started < 5
    assert str(caught.value) == (f"the rules engine '{name}' ({name}) cannot be imported: its import took longer "
                                 f"than 0.5 s and was given up (PNP_ENGINE_IMPORT_SECONDS=SECONDS allows more)")
    started = time.monotonic()
    with pytest.raises(EngineImportError) as again:       # not a second wait on the same import
        engine_module(name)
    assert again.value is caught.value and time.monotonic() - started < 0.1
    exits = plugin("raise SystemExit(0)\n")
    with pytest.raises(EngineImportError, match=r"its import tried to end the program \(SystemExit\(0\)\)$"):
        engine_module(exits)


def test_a_plugin_that_imports_well_is_the_module_itself(plugin):
    name = plugin("import time\ntime.sleep(0.1)\nANSWER = 42\n", limit="5")
    assert engine_module(name).ANSWER == 42
    assert engine_module(name) is sys.modules[name]


def test_the_engine_figures_of_the_studio_say_why_the_plugin_cannot_play(plugin):
    from types import SimpleNamespace

    from pnp.serve.tasks import engine_status

    name = plugin("raise SystemExit(3)\n")
    status = engine_status(SimpleNamespace(engine=name, title="Hostile"))
    assert status == {"available": False, "reason": f"The rules engine '{name}' ({name}) cannot be imported: its "
                                                    f"import tried to end the program (SystemExit(3))."}


def test_an_engine_error_outside_loading_is_one_line_and_exit_2(tmp_path, plugin, monkeypatch):
    # a worker (or any code) that looks the engine up after loading: the CLI names the plugin, no exit 70
    # (the game names no engine, so loading it needs none installed: high_card is installed by one test only)
    name = plugin("raise SystemExit(0)\n")
    import pnp.commands.validate as validate

    def boom(*args, **kwargs):
        engine_module(name)

    game = tmp_path / "game"
    shutil.copytree(GAME, game)
    (game / "game.yaml").write_text((game / "game.yaml").read_text().replace("engine: high_card\n", ""))
    monkeypatch.setattr(validate, "validate_game", boom)
    monkeypatch.setattr(validate, "validate_languages", boom)
    result = CliRunner().invoke(main, ["validate", str(game)])
    assert result.exit_code == 2
    assert result.output.splitlines() == [f"error: the rules engine '{name}' ({name}) cannot be imported: its import "
                                          f"tried to end the program (SystemExit(0))"]


def test_the_engine_guide_shows_the_lines_pnp_prints(tmp_path, plugin, monkeypatch):
    text = (PROJECT_ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    block = text.split("stops every command that needs the engine", 1)[1].split("```\n", 2)[1]
    shown = block.splitlines()
    printed = []
    for body in ("raise SystemExit(0)\n", "import time\ntime.sleep(20)\n"):
        name = plugin(body, limit="0.5")
        game = tmp_path / name
        shutil.copytree(GAME, game)
        (game / "game.yaml").write_text((game / "game.yaml").read_text().replace("high_card", name))
        monkeypatch.chdir(game)
        result = CliRunner().invoke(main, ["validate", "."])
        assert result.exit_code == 2
        printed.append(result.output.splitlines()[0].replace(name, "high_card").replace("0.5 s", "30 s")
                       .replace("./game.yaml", "game.yaml"))
    assert shown == printed
