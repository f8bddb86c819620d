"""What makes `pnp` quick to start and to stop, checked as it behaves, not timed (benchmarks/ times it)."""

import re
import subprocess
import sys

import pytest
from hypothesis import given, strategies as st

from pnp.draw import URI_PATTERN, CompiledOnFirstUse
from pnp import __version__
from pnp.program import GC_THRESHOLD

ADDRESSES = ["https://example.com/a?b=1#c", "ftp://1.2.3.4:8080/x", "HTTP://EXAMPLE.ORG", "http://bücher.de/",
             "mailto:someone", "http://localhost:80", "http://-bad-.com", "http://[::1]/", "no address", ""]


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_reportlab_address_pattern_is_compiled_on_first_use():
    # a fresh interpreter, as `pnp` starts: pnp.draw is imported before reportlab.platypus. Should a
    # reportlab upgrade change the pattern, this fails: update URI_PATTERN from paragraph.py's uri_pat
    run = _run("import pnp.draw, reportlab.platypus.paragraph as p; print(type(p.uri_pat).__name__)")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "CompiledOnFirstUse"


@pytest.mark.parametrize("text", ADDRESSES)
def test_deferred_pattern_matches_as_the_compiled_one(text):
    deferred, compiled = CompiledOnFirstUse(URI_PATTERN, re.IGNORECASE), re.compile(URI_PATTERN, re.IGNORECASE)
    got, expected = deferred.match(text), compiled.match(text)
    assert (got and (got.span(), got.groups())) == (expected and (expected.span(), expected.groups()))


@given(st.text(max_size=40), st.sampled_from(["match", "search", "fullmatch"]))
def test_deferred_pattern_answers_every_method_as_compiled(text, method):
    deferred, compiled = CompiledOnFirstUse(r"(a+)(b?)\d", re.IGNORECASE), re.compile(r"(a+)(b?)\d", re.IGNORECASE)
    got, expected = getattr(deferred, method)(text), getattr(compiled, method)(text)
    assert (got and got.span()) == (expected and expected.span())
    assert deferred.pattern == compiled.pattern and deferred.flags == compiled.flags


def test_pnp_exits_with_the_command_status_and_its_output_whole():
    # `pnp` ends the process as soon as the command is done (pnp.cli.run): the status and every line
    # written must still come out, through a pipe too
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
               "assert 'pnp.cli' not in sys.modules and gc.get_threshold()[0] == 700\n"
               "import builtins\n"
               "real = builtins.__import__\n"
               "def spy(name, *a, **k):\n"
               "    if name == 'pnp.cli' and 'pnp.cli' not in sys.modules: print('import at', gc.get_threshold()[0])\n"
               "    return real(name, *a, **k)\n"
               "builtins.__import__ = spy\n"
               "sys.argv = ['pnp', '--version']\n"
               "pnp.program.run()")
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [f"import at {GC_THRESHOLD}", f"pnp, version {__version__}"]
