"""Docs that run: every fenced example of docs/*.md is put into a game where it belongs and checked with
the command the page pairs it with (tests/docs_harness.py says how a page marks its examples).

A YAML, CSV or template block is always run (here, or by the test the page names); every other block
(shell commands, messages, Python) says why it is not, or is checked as the output of the example before
it. Validating is the default check; an example that changes what is drawn is also built, once per
group of examples sharing a game (``run=build``)."""

from __future__ import annotations

import dataclasses
import re

import pytest

import docs_harness as harness
from pnp import PROJECT_ROOT

EXAMPLES = harness.all_examples()
RUN = [e for e in EXAMPLES if e.kind == "run"]
OUTPUTS = [e for e in EXAMPLES if e.kind == "output"]
GROUPS = {}
for _e in RUN:
    GROUPS.setdefault(_e.spec.get("group", _e.id), []).append(_e)
BUILT = [name for name, members in GROUPS.items() if any(m.spec.get("run") == "build" for m in members)]


def _group(example):
    return GROUPS[example.spec.get("group", example.id)]


def made(example, work, edit=None):
    """The game with the example's group applied up to it, ``edit`` made to the example's block:
    (game, the example's file)."""
    members = _group(example)
    upto = members[: members.index(example) + 1]
    if edit:
        upto[-1] = dataclasses.replace(example, spec=dict(example.spec, edit=edit))
    game = harness.base_game(members[0].spec, work)
    file = None
    for member in upto:
        file = harness.apply(member, game, work)
    return game, file


def run_example(example, work, command=None, edit=None):
    game, file = made(example, work, edit)
    runs = [harness.pnp(c, work, game, file) for c in ([command] if command else harness.commands(example.spec))]
    return game, file, runs


def output_spec(example) -> dict:
    """An output block's words: ``json``, ``cmd``, ``edit``."""
    spec = {}
    for word in harness.shlex.split(example.marker)[1:]:
        key, sep, value = word.partition("=")
        assert key in ("json", "cmd", "edit") and bool(sep) == (key != "json"), \
            f"docs/{example.id}: output takes json, cmd=CMD and edit=OLD=>NEW, not {word!r}"
        spec[key] = value
    return spec


@pytest.fixture
def work(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_every_fence_is_run_or_says_why():
    unmarked = [f"docs/{e.id} ({e.lang or 'no language'})" for e in EXAMPLES if e.kind == "unmarked"]
    assert not unmarked, ("these fenced blocks say nothing about how they are checked; put "
                          "<!-- example: ... --> before each (tests/docs_harness.py):\n  " + "\n  ".join(unmarked))
    reasonless = [e.id for e in EXAMPLES if e.kind == "skip" and not e.reason]
    assert not reasonless, f"skip without a reason (skip: REASON): {reasonless}"


def test_no_data_example_is_left_out():
    skipped = [e.id for e in EXAMPLES if e.lang in harness.DATA_LANGUAGES and e.kind not in ("run", "tested-by")]
    assert not skipped, f"YAML, CSV and template examples must run: {skipped}"


def test_an_output_block_follows_an_example_that_runs():
    for example in OUTPUTS:
        before = [e for e in RUN if e.doc == example.doc and e.line < example.line]
        assert before, f"docs/{example.id}: output of what? No example runs before it on the page"


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.kind == "tested-by"], ids=lambda e: e.id)
def test_the_named_test_exists_and_reads_the_page(example):
    target = example.marker.split(None, 1)[1].strip()
    path, _, name = target.partition("::")
    source = (PROJECT_ROOT / path).read_text(encoding="utf-8")
    assert re.search(rf"^def {re.escape(name)}\(", source, re.M), f"docs/{example.id}: no test {target}"
    assert f"docs/{example.doc}" in source or f'"{example.doc}"' in source, \
        f"{path} does not read docs/{example.doc}"


@pytest.mark.parametrize("example", RUN, ids=lambda e: e.id)
def test_the_example_works(example, work):
    _, _, runs = run_example(example, work)
    for run in runs:
        harness.check(run, example.spec, example)


def _source_of(output):
    return [e for e in RUN if e.doc == output.doc and e.line < output.line][-1]


@pytest.mark.parametrize("example", OUTPUTS, ids=lambda e: e.id)
def test_the_output_is_what_the_command_prints(example, work):
    spec, source, expected = output_spec(example), _source_of(example), example.body
    command = spec.get("cmd")
    if expected.startswith("$ "):
        shown, expected = expected.split("\n", 1)
        command = shown[2:]
    *_, runs = run_example(source, work, command, spec.get("edit"))
    missing = harness.output_matches(expected, runs[-1].output, "json" in spec)
    assert missing is None, (f"docs/{example.id}: not printed by {runs[-1].command}: {missing}\n"
                             f"it printed:\n{runs[-1].output}")


@pytest.mark.parametrize("group", BUILT)
def test_the_group_builds(group, work):
    last = GROUPS[group][-1]
    game, _ = made(last, work)
    run = harness.pnp("pnp build {game} --out kit --no-cache", work, game, None)
    assert run.exit_code == 0, f"{group}: {run.command}:\n{run.output}"
    assert (work / "kit" / "kit.pdf").is_file()
