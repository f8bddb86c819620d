"""What makes `pnp` quick to start, checked as it behaves, not timed (benchmarks/ times it): the command
line loads a command's modules only when it runs, a command loads only the libraries it uses, and the
process ends as any Python program does (so profilers and coverage see the whole command)."""

import importlib
import re
import subprocess
import sys

import click

from pnp import __version__
from pnp.commands.cli import COMMANDS, main
from pnp.program import GC_THRESHOLD

#: Libraries and modules that only some commands need.
HEAVY = ("pikepdf", "matplotlib", "dask", "distributed", "starlette", "uvicorn", "pnp.loading.mapdata", "pnp.layout.hexmap")


def _run(code: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=cwd)


def test_pnp_exits_with_the_command_status_and_its_output_whole():
    # the status and every line written come out, through a pipe too
    ok = subprocess.run([sys.executable, "-m", "pnp", "--help"], capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0 and ok.stderr == ""
    assert "Commands:" in ok.stdout and ok.stdout.rstrip().splitlines()[-1].split()[0] == "watch"
    bad = subprocess.run([sys.executable, "-m", "pnp", "validate", "no_such_game_here"], capture_output=True,
                         text=True, timeout=120)
    assert bad.returncode == 2
    assert bad.stderr.startswith("error: no game 'no_such_game_here'") and bad.stdout == ""
    usage = subprocess.run([sys.executable, "-m", "pnp", "build", "--jobs", "x"], capture_output=True, text=True,
                           timeout=120)
    assert usage.returncode == 2 and "Invalid value for '--jobs'" in usage.stderr


def test_the_collector_is_tuned_before_pnp_is_imported():
    # the program entry sets the threshold, then imports the command line (and with it reportlab, the
    # game loaders...), so the imports run with it
    run = _run("import gc, sys, pnp.program\n"
               "assert 'pnp.commands.cli' not in sys.modules and gc.get_threshold()[0] == 700\n"
               "import builtins\n"
               "real = builtins.__import__\n"
               "def spy(name, *a, **k):\n"
               "    if name == 'pnp.commands.cli' and 'pnp.commands.cli' not in sys.modules: print('import at', gc.get_threshold()[0])\n"
               "    return real(name, *a, **k)\n"
               "builtins.__import__ = spy\n"
               "sys.argv = ['pnp', '--version']\n"
               "pnp.program.run()")
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [f"import at {GC_THRESHOLD}", f"pnp, version {__version__}"]


def _loaded(code: str, names=HEAVY, cwd=None) -> list:
    """The modules of ``names`` loaded after running ``code`` in a fresh interpreter (in ``cwd``)."""
    run = _run(code + f"\nimport sys\nprint(sorted(n for n in {names!r} if n in sys.modules))", cwd)
    assert run.returncode == 0, run.stderr
    return eval(run.stdout.strip().splitlines()[-1])


def test_importing_the_command_line_loads_no_command():
    assert _loaded("import pnp.commands.cli", HEAVY + ("reportlab", "PIL", "yaml", "jinja2", "rules_engine")) == []
    assert _loaded("import pnp.commands.cli", tuple(f"pnp.commands.{name}" for name in COMMANDS)) == []


def test_a_command_loads_what_it_needs_only(tmp_path):
    # pnp --help lists the commands from the registry; validating a game without a board loads no PDF
    # merging, plotting, cluster or web library and no hex-map module
    args = "['pnp', '--help']"
    assert _loaded(f"import sys; sys.argv = {args}\nfrom pnp.commands.cli import main\ntry: main()\nexcept SystemExit: pass",
                   HEAVY + ("reportlab",)) == []
    args = "['pnp', 'validate', 'behind_the_throne']"          # in tmp_path, where its cache is new (output/)
    assert _loaded(f"import sys; sys.argv = {args}\nfrom pnp.commands.cli import main\ntry: main()\nexcept SystemExit as e: "
                   f"assert not e.code, e.code", cwd=tmp_path) == []


def test_the_help_lists_each_command_with_its_own_words():
    """The registry's line for each command is the first paragraph of the command's own help, shortened
    as click shortens it: `pnp --help` reads as if every command had been imported."""
    ctx = click.Context(main, info_name="pnp")
    lazy = click.HelpFormatter(width=100)
    main.format_commands(ctx, lazy)
    for name in COMMANDS:
        command = importlib.import_module(f"pnp.commands.{name.replace('-', '_')}").command   # check-engine
        assert command.name == name and COMMANDS[name] == command.get_short_help_str(10_000)
    eager = click.HelpFormatter(width=100)
    click.Group.format_commands(main, ctx, eager)          # click's own, with every command loaded
    assert lazy.getvalue() == eager.getvalue() and re.search(r"\n  validate +Check GAME's data", lazy.getvalue())


def test_the_process_ends_normally_for_profilers(tmp_path):
    # `python -m cProfile -m pnp ...` writes its profile when the program ends: no exit skips that
    out = tmp_path / "validate.prof"
    command = [sys.executable, "-m", "cProfile", "-o", str(out), "-m", "pnp", "validate", "behind_the_throne"]
    run = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=tmp_path)     # its output/ there
    assert run.returncode == 0, run.stderr
    import pstats

    functions = pstats.Stats(str(out)).stats
    assert any(path.endswith("pnp/validation/checks.py") and name == "validate_game" for path, _, name in functions)


def test_every_command_module_is_registered():
    # a new pnp/commands/<name>.py with a `command` needs its line in pnp.commands.cli.COMMANDS to be reachable
    from pathlib import Path

    import pnp.commands

    folder = Path(pnp.commands.__file__).parent
    modules = {p.stem for p in folder.glob("*.py") if "\n@click." in p.read_text(encoding="utf-8")
               and "\ndef command(" in p.read_text(encoding="utf-8")}
    assert modules == {name.replace("-", "_") for name in COMMANDS}
