import contextlib
import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

from pnp import DATA_DIR


def pytest_configure(config):
    """The collector of reference cycles runs as it does in ``pnp`` (:data:`pnp.program.GC_THRESHOLD`: a pass
    after every 100,000 new objects, not Python's 700), in this process and in each pytest-xdist worker.
    A worker keeps hundreds of thousands of objects alive (the collected tests, loaded games, fonts), and
    with Python's default the collector walked them over and over: 5-15 % of the tests' CPU (issue 38). What
    the tests run is pnp's code under the collector pnp sets for itself; nothing a test checks depends on
    when a cycle is freed (test_startup checks the program's own setting in a fresh interpreter)."""
    import gc

    from pnp.program import GC_THRESHOLD

    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])


@pytest.fixture
def game_copy(tmp_path) -> Path:
    """A writable copy of the bundled Shadow Throne data, to break in tests."""
    dest = tmp_path / "shadow_throne"
    shutil.copytree(DATA_DIR / "shadow_throne", dest)
    return dest


@pytest.fixture
def starfall(tmp_path) -> Path:
    """A writable copy of tests/games/starfall (a designer's game without an engine), to break in tests."""
    dest = tmp_path / "starfall"
    shutil.copytree(Path(__file__).parent / "games" / "starfall", dest)
    return dest


@pytest.fixture(autouse=True)
def _validate_cache(tmp_path_factory, monkeypatch):
    """``pnp validate`` keeps its checks (and ``pnp preview`` its pictures) in the user's cache folder by
    default: in the tests, a folder of each test's own ($XDG_CACHE_HOME), so a check a test changes (a
    monkeypatched function) is never read back by another test, and no test writes into the user's."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("user-cache")))


@pytest.fixture(autouse=True, scope="module")
def _fresh_process_state():
    """Each test module starts as a fresh ``pnp`` process would, as far as pnp's in-process memos go:
    the results kept while files are unchanged (:func:`pnp.cache.memo.clear`), the booklet layouts and
    fits kept for the next build in the process, the build cache a build made current, and the memos
    keyed by generation. Twice in about ten whole runs under pytest-xdist (on the CI machine and under a
    load of 6 here), a module's first Shadow Throne booklet came out as the booklet of another game an
    earlier module had built in the same worker (the padded `pnp new` game of test_rulebook, the Spanish
    Lantern Night of test_i18n_kinds); it never happened with those modules run in one process in either
    order, nor in two instrumented runs, and the memo that carried it was not found (the closing note of
    the session of 2026-12-07 20:54 UTC says what was ruled out). A module of tests is a run of its own."""
    from pnp.cache import buildcache, memo
    from pnp.components import cards
    from pnp.rulebook import component
    from pnp.text import templating

    memo.clear()
    templating._CONVERTED.update(game=None, memo={})
    cards._FACES.update(game=None, faces={})
    component._LAID.clear()
    component._FITS.clear()
    buildcache.forget_generations()
    buildcache._CURRENT = None
    yield


@pytest.fixture(autouse=True)
def _fixed_examples(request):
    """A derandomized hypothesis test (``settings(derandomize=True)``) draws the same examples in every run,
    whatever ran before it in the process (tests/fixed_examples.py says why it did not)."""
    function = getattr(request, "function", None)
    chosen = getattr(function, "_hypothesis_internal_use_settings", None)
    if chosen is None or not chosen.derandomize:
        yield
        return
    from fixed_examples import no_local_constants

    with no_local_constants():
        yield


def _run_wide(tmp_path_factory, folder: str):
    """(a folder of this test run shared by every pytest-xdist worker, ``locked(name)``: a context that
    holds that name's filelock while one worker makes what the others then read). Without filelock (an
    environment installed before it joined the test extra) each worker has a folder of its own."""
    try:
        from filelock import FileLock
    except ModuleNotFoundError:
        FileLock = None
    shared_by_workers = os.environ.get("PYTEST_XDIST_WORKER") and FileLock is not None
    run_folder = tmp_path_factory.getbasetemp().parent if shared_by_workers else tmp_path_factory.getbasetemp()
    shared = run_folder / folder
    shared.mkdir(exist_ok=True)

    def locked(name: str):
        return FileLock(shared / f"{name}.lock") if FileLock is not None else contextlib.nullcontext()

    return shared, locked


@pytest.fixture(scope="session")
def built_kit(tmp_path_factory):
    """``built_kit(game="shadow_throne", lang="en", paper="letter", *options)``: the folder of that kit,
    built by ``pnp build`` once per test run and shared by every test that asks for the same one (a
    Shadow Throne build is seconds of CPU; several modules read the same kit). Under pytest-xdist the
    workers share them too: the first to ask builds the kit into the run's temporary folder while holding
    its lock (filelock, as pytest-xdist's documentation shows), the others wait and read it (in an
    environment installed before filelock joined the test extra, each worker builds its own). READ-ONLY: a
    test that changes, adds or removes files builds its own kit into ``tmp_path`` instead."""
    from click.testing import CliRunner

    from pnp.commands.cli import main

    shared, locked = _run_wide(tmp_path_factory, "shared-kits")
    kits = {}

    def build(game: str = "shadow_throne", lang: str = "en", paper: str = "letter", *options: str) -> Path:
        key = (game, lang, paper, *options)
        if key not in kits:
            name = hashlib.sha256(json.dumps(key).encode()).hexdigest()[:16]
            out, done = shared / name, shared / f"{name}.built"
            with locked(name):
                if not done.exists():
                    shutil.rmtree(out, ignore_errors=True)       # a build that failed half-way
                    result = CliRunner().invoke(main, ["build", game, "--lang", lang, "--paper", paper, *options,
                                                       "--out", str(out)])
                    assert result.exit_code == 0, result.output
                    done.write_text(json.dumps(key))
            kits[key] = out
        return kits[key]

    return build


@pytest.fixture(scope="session")
def validated(tmp_path_factory):
    """``validated("validate", game, *options)``: the exit code and the output (``.exit_code``, ``.output``)
    of that ``pnp`` command on a bundled game, run once per test run (in-process, as ``CliRunner`` runs it)
    and shared by every test that runs the same command line to read what it says, as :func:`built_kit`
    shares kits: under pytest-xdist the first worker to ask runs it under a filelock, the others read its
    result. Only for a command that reads a game it does not change and whose output names no path of the
    test's own (a bundled game by its id): a `pnp validate` of an unchanged bundled game costs 1-3 s of
    CPU, and several modules ran the same ones."""
    from types import SimpleNamespace

    from click.testing import CliRunner

    from pnp.commands.cli import main

    shared, locked = _run_wide(tmp_path_factory, "shared-commands")
    results = {}

    def run(*args: str) -> SimpleNamespace:
        args = tuple(map(str, args))
        if args not in results:
            name = hashlib.sha256(json.dumps(args).encode()).hexdigest()[:16]
            done = shared / f"{name}.json"
            with locked(name):
                if not done.exists():
                    result = CliRunner().invoke(main, list(args))
                    if result.exception is not None and not isinstance(result.exception, SystemExit):
                        raise result.exception
                    done.write_text(json.dumps({"args": args, "exit_code": result.exit_code,
                                                "output": result.output}))
            kept = json.loads(done.read_text())
            results[args] = SimpleNamespace(exit_code=kept["exit_code"], output=kept["output"])
        return results[args]

    return run
