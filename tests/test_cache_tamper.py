"""A property of the build cache (issue 33): whatever is done to the files of a cache folder (bits flipped in
an entry, a blob, the kit's record or a mark; files truncated, emptied, grown, deleted, swapped or copied over
one another; replaced by FIFOs or links; stale temporary files planted), the kit a build writes with it is byte
for byte the kit of a --no-cache build, and pnp says "up to date" only of the kit that is.

The default run tries a few tamperings on a `pnp new` starter (a build from its cache takes about 0.1 s);
the slow run (`pytest -m slow tests/test_cache_tamper.py`) tries many more, on a game of several decks."""

from __future__ import annotations

import json
import os
import shutil
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from pnp.cache import memo as file_caches
from pnp.cache import cachedir, uptodate
from pnp.cache.buildcache import BLOBS, ENTRIES, LAYOUT, BuildCache, Generations
from pnp.commands.cli import main
from pnp.components import BuildOptions
from pnp.build.kit import build_kit

#: No shrinking: each example is a build or two, and the draws printed for a failure say what was done.
TAMPER = dict(deadline=None, suppress_health_check=list(HealthCheck), database=None,
              phases=(Phase.explicit, Phase.reuse, Phase.generate))
KINDS = ("entry", "record", "blob", "mark", "tag")
#: Entries are drawn more often than other files, and in JSON files a changed value more often than
#: other changes (most of those are refused at once: the file is no JSON any more).
WEIGHTS = {"entry": 4, "record": 2, "blob": 2, "edit": 6, "flip": 2}
OPERATIONS = ("flip", "edit", "truncate", "empty", "grow", "append", "delete", "swap", "copy", "fifo", "link",
              "link outside", "temporary")


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def kit_files(out: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.is_file()}


def prepare(base: Path, game: Path):
    """(the cache folder and kit a build with the cache left, the --no-cache kit's files and what the build
    says of them: pages, sheets, warnings)."""
    file_caches.clear()
    built = build_kit(str(game), base / "reference", BuildOptions())
    result = run("build", game, "--out", base / "kit", "--cache", base / "cache", "--jobs", "1")
    assert result.exit_code == 0, result.output
    said = (built.pages, built.sheets, [str(w) for w in built.warnings], str(built.game.title))
    return Prepared(game, base / "cache", base / "kit", kit_files(base / "reference"), said)


class Prepared(tuple):
    """(game, cache folder, kit folder, the --no-cache kit's files, what its build said), shown short."""

    def __new__(cls, *items):
        return super().__new__(cls, items)

    def __repr__(self) -> str:
        return f"Prepared({self[0].name})"


@pytest.fixture(scope="module")
def starter(tmp_path_factory):
    base = tmp_path_factory.mktemp("tamper")
    assert run("new", base / "game").exit_code == 0
    return prepare(base, base / "game")


@pytest.fixture(scope="module")
def several_decks(tmp_path_factory):
    base = tmp_path_factory.mktemp("tamper-decks")
    shutil.copytree(Path(__file__).parent / "games" / "starfall", base / "game")
    return prepare(base, base / "game")


def files_of(cache: Path) -> dict:
    """Kind -> the cache's files of that kind (whatever they are now: files, links, FIFOs)."""
    entries = sorted((cache / LAYOUT / ENTRIES).glob("*.json"))
    record = [p for p in entries if b'"kind":"kit"' in read(p)]
    marks = {"mark": [cache / cachedir.MARKER], "tag": [cache / cachedir.TAG]}
    return {"entry": [p for p in entries if p not in record], "record": record,
            "blob": sorted((cache / LAYOUT / BLOBS).glob("*.blob")),
            **{kind: [p for p in paths if os.path.lexists(p)] for kind, paths in marks.items()}}


def regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def read(path: Path) -> bytes:
    """The bytes of a regular file of the cache (not a FIFO, which would wait; not a grown one)."""
    return path.read_bytes() if regular(path) and path.stat().st_size <= 16 << 20 else b""


def write(path: Path, data: bytes) -> None:
    if os.path.lexists(path) and not regular(path):
        path.unlink()
    path.write_bytes(data)


def edited(data, content: bytes) -> bytes:
    """``content`` with one number or text of its JSON changed (the file stays JSON); as it was when it is
    not JSON."""
    try:
        held = json.loads(content)
    except ValueError:
        return content
    places = []

    def walk(value, path):
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, path + [k])
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, path + [i])
        elif isinstance(value, (int, float, str)) and not isinstance(value, bool):
            places.append(path)

    walk(held, [])
    if not places:
        return content
    path = data.draw(st.sampled_from(places), label="value")
    parent = held
    for step in path[:-1]:
        parent = parent[step]
    value = parent[path[-1]]
    parent[path[-1]] = value + data.draw(st.sampled_from([-1, 1]), label="by") if not isinstance(value, str) \
        else data.draw(st.sampled_from([value[:-1], value + "x", value.upper(), ""]), label="text")
    return json.dumps(held).encode()


def tamper(data, cache: Path, outside: Path) -> list:
    """One random change to a file of ``cache`` (drawn from ``data``); what was done, for the report."""
    found = files_of(cache)
    kind = data.draw(st.sampled_from([k for k in KINDS for _ in range(WEIGHTS.get(k, 1)) if found[k]]), label="kind")
    path = data.draw(st.sampled_from(found[kind]), label="file")
    json_file = kind in ("entry", "record", "mark")
    operation = data.draw(st.sampled_from([o for o in OPERATIONS
                                           for _ in range(WEIGHTS.get(o, 1) if json_file else 1)]), label="operation")
    everything = [p for paths in found.values() for p in paths if p != path]
    content = read(path)
    if operation == "flip" and content:
        bit = data.draw(st.integers(0, len(content) * 8 - 1), label="bit")
        flipped = bytearray(content)
        flipped[bit // 8] ^= 1 << (bit % 8)
        write(path, bytes(flipped))
    elif operation == "edit" and content:       # one value of the JSON changed, still valid JSON (as a
        write(path, edited(data, content))     # flipped bit can leave it: a digit, a letter)
    elif operation == "truncate" and content:
        write(path, content[:data.draw(st.integers(0, len(content) - 1), label="length")])
    elif operation == "empty":
        write(path, b"")
    elif operation == "grow":                 # sparse: larger than pnp would read, taking no room
        write(path, content)
        with open(path, "ab") as f:
            f.truncate(len(content) + data.draw(st.sampled_from([1, 4096, 300 << 20]), label="grown by"))
    elif operation == "append":
        write(path, content + data.draw(st.binary(min_size=1, max_size=64), label="appended"))
    elif operation == "delete":
        path.unlink()
    elif operation in ("swap", "copy") and everything:
        other = data.draw(st.sampled_from(everything), label="other")
        write(path, read(other))
        if operation == "swap":
            write(other, content)
    elif operation == "fifo":
        path.unlink()
        os.mkfifo(path)
    elif operation == "link" and everything:
        path.unlink()
        path.symlink_to(data.draw(st.sampled_from(everything), label="to"))
    elif operation == "link outside":      # a link to a copy outside, of the very same bytes
        copy = outside / f"{len(list(outside.iterdir()))}-{path.name}"
        copy.write_bytes(content)
        path.unlink()
        path.symlink_to(copy)
    elif operation == "temporary":           # what a build killed while it wrote this file leaves
        (path.parent / f".{path.name}.{os.urandom(8).hex()}.tmp").write_bytes(content[: len(content) // 2])
    return [kind, path.name, operation]


@contextmanager
def nothing_in_memory():
    """Builds in this process keep some results in memory from one build to the next (as `pnp watch`
    does): dropped, so that every build here reads the cache folder."""
    from pnp.components import cards
    from pnp.rulebook import component

    kept = cards._LAID_OUT, cards._CHECKED, component._PLAYS
    cards._LAID_OUT, cards._CHECKED, component._PLAYS = Generations(), Generations(), Generations()
    file_caches.clear()
    try:
        yield
    finally:
        cards._LAID_OUT, cards._CHECKED, component._PLAYS = kept


def check_tampered(prepared, data) -> None:
    game, pristine, kit, reference, said = prepared
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        cache, out, outside = tmp / "cache", tmp / "kit", tmp / "outside"
        shutil.copytree(pristine, cache)
        shutil.copytree(kit, out, ignore=shutil.ignore_patterns(".pnp-cache"))
        outside.mkdir()
        done = [tamper(data, cache, outside) for _ in range(data.draw(st.integers(1, 4), label="changes"))]
        outside_before = {p.name: p.read_bytes() for p in outside.iterdir()}
        options = BuildOptions()
        for attempt in ("tampered", "after the build put it right"):
            with nothing_in_memory():
                held = BuildCache(cache).claim()             # never refused: these are pnp's files, damaged
                key = uptodate.kit_key(game, out, options, held)
                found = uptodate.held(held, key, out, game)
                if found is not None:                         # up to date: only when the kit in out is whole
                    assert sorted(p.name for p in found.files) == sorted(reference), (attempt, done)
                    assert (found.pages, found.sheets, [str(w) for w in found.warnings], found.title) == said, done
                    assert kit_files(out) == reference, (attempt, done)
                cache_now = BuildCache(cache)
                built = build_kit(str(game), tmp / attempt, options, cache=cache_now, kit_key=key)
            assert kit_files(tmp / attempt) == reference, (attempt, done)
            assert (built.pages, built.sheets, [str(w) for w in built.warnings], str(built.game.title)) == said, done
        assert {p.name: p.read_bytes() for p in outside.iterdir()} == outside_before, done


@settings(max_examples=6, derandomize=True, **TAMPER)
@given(data=st.data())
def test_a_tampered_cache_gives_the_no_cache_kit(starter, data):
    check_tampered(starter, data)


@pytest.mark.slow
@settings(max_examples=int(os.environ.get("PNP_TAMPER_N", 300)), **TAMPER)
@given(data=st.data())
def test_a_tampered_cache_gives_the_no_cache_kit_many_times(several_decks, data):
    check_tampered(several_decks, data)
