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
#: The other groups that are a game: built too by the slow pass (their examples change what is drawn, but
#: validating them checks it as well: every region evaluated, every text fitted, every tile laid out).
UNBUILT = [name for name, members in GROUPS.items() if name not in BUILT and members[0].spec.get("game") != "none"
           and members[0].spec.get("run") != "python"]


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


def test_an_example_meant_to_fail_shows_its_message():
    for example in RUN:
        if example.spec.get("fails") == "":
            after = [e for e in EXAMPLES if e.doc == example.doc and e.line > example.line]
            assert after and after[0].kind == "output", \
                f"docs/{example.id}: fails without a message: the next block must be its output"


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.kind == "tested-by"], ids=lambda e: e.id)
def test_the_named_test_exists_and_reads_the_page(example):
    target = example.marker.split(None, 1)[1].strip()
    path, _, name = target.partition("::")
    source = (PROJECT_ROOT / path).read_text(encoding="utf-8")
    assert re.search(rf"^def {re.escape(name)}\(", source, re.M), f"docs/{example.id}: no test {target}"
    assert f"docs/{example.doc}" in source or f'"{example.doc}"' in source, \
        f"{path} does not read docs/{example.doc}"


@pytest.mark.parametrize("example", [e for e in RUN if e.spec.get("run") != "python"], ids=lambda e: e.id)
def test_the_example_works(example, work):
    _, _, runs = run_example(example, work)
    for run in runs:
        harness.check(run, example.spec, example)


@pytest.mark.parametrize("group", [name for name, members in GROUPS.items() if members[0].spec.get("run") == "python"])
def test_the_python_examples_run(group, monkeypatch):
    monkeypatch.chdir(PROJECT_ROOT)
    harness.run_python(GROUPS[group])


def _source_of(output):
    """The example an output block shows the output of: the block just before it when that runs, else the
    nearest example before it meant to work (an example meant to fail has its output right after it)."""
    before = [e for e in EXAMPLES if e.doc == output.doc and e.line < output.line]
    if before[-1].kind == "run":
        return before[-1]
    return [e for e in before if e.kind == "run" and "fails" not in e.spec][-1]


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


def build_group(group, work):
    last = GROUPS[group][-1]
    game, _ = made(last, work)
    lang = re.search(r"--lang \w+", last.spec.get("run", ""))
    run = harness.pnp("pnp build {game} --out kit --no-cache " + (lang[0] if lang else ""), work, game, None)
    assert run.exit_code == 0, f"{group}: {run.command}:\n{run.output}"
    assert (work / "kit" / "kit.pdf").is_file()


@pytest.mark.parametrize("group", BUILT)
def test_the_group_builds(group, work):
    build_group(group, work)


@pytest.mark.slow
@pytest.mark.parametrize("group", UNBUILT)
def test_every_other_example_builds_too(group, work):
    build_group(group, work)


# ------------------------------------------------------------------------ the harness itself can fail

PAGE = '''# A page

<!-- example: file=tokens.yaml mode=merge -->
```yaml
tokens:
  - {id: spark, count: 20}
```

```csv
id,name,copies
a,A,1
```

<!-- example: skip: a message shown for its wording -->
```
my_game/game.yaml:3: a message
```
'''


def test_a_page_s_fences_are_found_with_their_comments(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(PAGE)
    merged, csv, message = harness.examples(page)
    assert (merged.line, merged.lang, merged.kind, merged.spec) == (4, "yaml", "run", {"file": "tokens.yaml",
                                                                                      "mode": "merge"})
    assert merged.body == "tokens:\n  - {id: spark, count: 20}\n"
    # a fence without a comment is found, and counted as CSV by its look
    assert (csv.kind, csv.lang) == ("unmarked", "csv")
    assert (message.kind, message.reason) == ("skip", "a message shown for its wording")


def test_a_merge_lays_entries_over_the_file_s_by_id_and_keeps_the_rest(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(PAGE)
    example = harness.examples(page)[0]
    game = harness.base_game({}, tmp_path)
    harness.apply(example, game, tmp_path)
    tokens = harness.yaml.safe_load((game / "tokens.yaml").read_text())["tokens"]
    assert [t["id"] for t in tokens] == ["score-marker", "spark"]
    assert tokens[1]["count"] == 20 and tokens[1]["shape"] == "circle"      # the starter's other keys stay


def test_an_excerpt_that_is_not_what_the_game_says_fails(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(PAGE.replace("mode=merge", "mode=excerpt"))
    example = harness.examples(page)[0]
    game = harness.base_game({}, tmp_path)
    with pytest.raises(AssertionError, match="the block is not what tokens.yaml says"):
        harness.apply(example, game, tmp_path)
    page.write_text(PAGE.replace("mode=merge", "mode=excerpt").replace("count: 20", "count: 18"))
    harness.apply(harness.examples(page)[0], game, tmp_path)           # the starter's spark tokens: 18


def test_a_failing_example_must_print_the_page_s_message():
    example = harness.Example("page.md", 3, "yaml", "", "fails='a: b'", {"fails": "a: b"})
    harness.check(harness.Run("pnp validate g", 2, "x\na: b\n1 problem found\n"), example.spec, example)
    with pytest.raises(AssertionError, match="does not print the page's message"):
        harness.check(harness.Run("pnp validate g", 2, "a: c\n"), example.spec, example)
    with pytest.raises(AssertionError, match="should fail"):
        harness.check(harness.Run("pnp validate g", 0, "a: b\n"), example.spec, example)


def test_an_output_block_is_found_line_by_line_in_order():
    printed = "one\ntwo\nthree\n"
    assert harness.output_matches("one\n...\nthree\n", printed, False) is None
    assert harness.output_matches("three\none\n", printed, False) == "one"
    assert harness.output_matches('{"a": 1, "b": [{"c": 2}, {"c": 4}], ...}',
                                  '{"a": 1, "z": 0, "b": [{"c": 2, "d": 3}, {"c": 3}, {"c": 4}]}', True) is None
    assert "on the page" in harness.output_matches('{"a": 2}', '{"a": 1}', True)


def test_a_validate_of_the_same_bytes_is_run_once_and_any_change_runs_it_again(tmp_path, monkeypatch):
    """The harness reuses a ``pnp validate`` result only for the same command on a folder with the same
    files, byte for byte; any other command runs every time."""
    calls = []

    class Counting:
        def invoke(self, cli, args):
            calls.append(args)
            return type("Result", (), {"output": f"run {len(calls)}\n", "exit_code": 0, "exception": None})()

    monkeypatch.setattr(harness, "CliRunner", Counting)
    monkeypatch.setattr(harness, "VALIDATED", {})
    first, second = tmp_path / "one", tmp_path / "two"
    for work in (first, second):
        (work / "g" / "icons").mkdir(parents=True)
        (work / "g" / "game.yaml").write_text("name: G\n")
        (work / "g" / "icons" / "a.svg").write_text("<svg/>")

    def validate(work, command="pnp validate {game} --no-cache"):
        return harness.pnp(command, work, work / "g", None).output

    assert validate(first) == "run 1\n"
    assert validate(second) == "run 1\n"                 # another folder, the same files
    (second / "g" / "icons" / "a.svg").write_text("<svg />")
    assert validate(second) == "run 2\n"                 # a byte changed
    (second / "g" / "icons" / "a.svg").rename(second / "g" / "icons" / "b.svg")
    assert validate(second) == "run 3\n"                 # a file renamed
    assert validate(second, "pnp validate {game} --no-cache --lang es") == "run 4\n"
    assert validate(second, "pnp build {game} --out kit --no-cache") == "run 5\n"
    assert validate(second, "pnp build {game} --out kit --no-cache") == "run 6\n"    # only validate is kept
    assert len(calls) == 6
