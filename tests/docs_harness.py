"""Run the fenced examples of docs/*.md: the harness of tests/test_docs_run.py.

Every fenced block of a page is an *example*. The page itself says what to do with it, in an HTML
comment on the line just before the fence (a Markdown reader does not see it):

    <!-- example: game=shadow_queen file=game.yaml mode=merge -->

Without such a comment a YAML, CSV or template fence is a mistake of the page (the test says which);
a fence of another language (a shell command, a message, Python) must carry one too, at least
``skip: REASON``. The comment's words (``key=value``, values quoted as in a shell):

``skip: REASON``
    Not run, for the reason given (a folder tree, shell commands, a message shown for its wording).
``tested-by PATH::TEST``
    Run by that test, which reads the block from the page (the harness checks the test exists).
``output [json] [cmd=CMD] [edit="OLD=>NEW"]``
    The output of the example just before it, else of the nearest before it meant to work: every line of the block must come out in that order
    (a line ``...`` stands for any lines), or with ``json`` every key and value of the block must be in
    the JSON the command prints (a mapping or a list of mappings may leave entries out, ``...`` saying so). The command is the
    block's own first line when it is ``$ pnp ...``, else ``cmd``, else the example's; ``edit`` changes
    the example first (to make the mistake whose message the block shows).
otherwise the example is run:

``game=NAME``
    Where it goes: ``new`` (the default: the starter game of ``pnp new``, in a folder named by ``name=``,
    default ``my_game``), a bundled game's name or ``tests/games/X`` (a copy of that game), or ``none``
    (a file on its own: a scenario, a variant of a bundled game).
``file=PATH``
    The file it is, in the game folder. Without it, a first line ``# PATH`` names it.
``mode=replace|merge|excerpt|append``
    ``replace`` (the default) writes the file; ``merge`` lays the YAML over the file's (mappings key by
    key, list entries by their ``id``, a hex's ``at`` or their value; ``...`` in the block stands for
    what the file already has); ``excerpt`` merges and checks the file already said all of it (the page
    quotes a bundled game); ``append`` adds the text at the end of the file.
``at=KEY``
    With ``merge``/``excerpt``: where in the file the block goes, as ``key/id/key`` (``decks/plans``),
    for a block that is a fragment of a mapping or a list.
``with=PATH,...``
    Files the example needs that the page does not show: from tests/docs_support/ when there, else a
    picture (``.png``) or an icon (``.svg``) made up for it.
``group=NAME``
    Examples of one group go into one game, in page order, each on top of those before it.
``run=validate|build|next|python|CMD``
    What runs: ``validate`` (the default) is ``pnp validate``; ``build`` also builds the kit (once per
    group, after its last example); ``next``: nothing yet, the group's next example completes it (a
    deck whose cards file comes later on the page); ``python``: the block is Python, run in the
    project's folder after the blocks of its group before it (one namespace); any other value is a pnp
    command line, ``{game}`` and ``{file}`` filled in (``run="scenario {file}"``).
``fails="MESSAGE"``, ``fails``
    The command exits with status 2 and prints MESSAGE as one of its lines; bare ``fails`` is followed
    on the page by an ``output`` block giving the messages.
``edit="OLD=>NEW"``
    Change the block's text before it is used (to make the mistake a message on the page shows, or a
    run of 10,000 games a run of a few); several edits are separated by ``;;``.
"""

from __future__ import annotations

import io
import json
import re
import shlex
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from click.testing import CliRunner

from pnp import DATA_DIR, PROJECT_ROOT
from pnp.commands.cli import main

DOCS = PROJECT_ROOT / "docs"
SUPPORT = Path(__file__).resolve().parent / "docs_support"
#: Fence languages whose blocks are data a game folder holds: each must be run, or say why not.
DATA_LANGUAGES = {"yaml", "csv", "jinja"}
MARKER = re.compile(r"^\s*<!--\s*example:\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^(\s*)```(\w*)\s*$")
RUN_KEYS = {"game", "name", "file", "mode", "at", "with", "group", "run", "fails", "edit"}


@dataclass
class Example:
    doc: str                       # the page's file name, docs/<doc>
    line: int                      # the line of the opening fence
    lang: str
    body: str                      # the block's text, without the fence's indentation
    marker: str | None             # the comment's words, or None
    spec: dict = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"

    @property
    def kind(self) -> str:
        """``skip``, ``tested-by``, ``output``, ``run`` or ``unmarked``."""
        if self.marker is None:
            return "unmarked"
        first = self.marker.split(None, 1)[0]
        if first.startswith("skip"):
            return "skip"
        return first if first in ("tested-by", "output") else "run"

    @property
    def reason(self) -> str:
        return self.marker.split(":", 1)[1].strip() if self.kind == "skip" and ":" in self.marker else ""


def fence_language(lang: str, body: str) -> str:
    """The block's language; a fence without one that holds a CSV table (a header of names, then rows as
    long) counts as CSV."""
    if lang:
        return lang
    rows = [r for r in body.splitlines() if r.strip()]
    if len(rows) >= 2 and re.fullmatch(r"[a-z_.]+(,[a-z_.]+)+", rows[0]) and \
            all(r.count(",") >= rows[0].count(",") for r in rows[1:]):
        return "csv"
    return ""


def examples(doc: Path) -> list[Example]:
    """Every fenced block of a page, with the comment before it."""
    lines = doc.read_text(encoding="utf-8").splitlines()
    found, i = [], 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        indent, end = opening[1], i + 1
        while not re.fullmatch(r"\s*```\s*", lines[end]):
            end += 1
        body = "".join(line[len(indent):] + "\n" for line in lines[i + 1:end])
        before = i - 1
        while before >= 0 and not lines[before].strip() and before >= i - 2:
            before -= 1
        marker = MARKER.match(lines[before]) if before >= 0 else None
        example = Example(doc.name, i + 1, fence_language(opening[2], body), body, marker[1] if marker else None)
        if example.kind == "run":
            example.spec = parse_spec(example)
        found.append(example)
        i = end + 1
    return found


def all_examples() -> list[Example]:
    return [e for doc in sorted(DOCS.glob("*.md")) for e in examples(doc)]


def parse_spec(example: Example) -> dict:
    spec = {}
    for word in shlex.split(example.marker):
        key, sep, value = word.partition("=")
        if word == "fails":
            spec["fails"] = ""
            continue
        if not sep or key not in RUN_KEYS:
            raise ValueError(f"docs/{example.id}: example comment: {word!r} is not one of "
                             f"{', '.join(sorted(RUN_KEYS))}=VALUE, skip: REASON, tested-by or output")
        spec[key] = value
    return spec


# ----------------------------------------------------------------------------------------------- making

def base_game(spec: dict, work: Path) -> Path | None:
    """The game folder the example goes into, made in ``work``."""
    game = spec.get("game", "new")
    if game == "none":
        return None
    if game == "new":
        folder = work / spec.get("name", "my_game")
        result = CliRunner().invoke(main, ["new", str(folder)])
        assert result.exit_code == 0, result.output
        return folder
    source = PROJECT_ROOT / game if "/" in game else DATA_DIR / game
    assert source.is_dir(), f"game={game}: no such game"
    folder = work / spec.get("name", source.name)
    shutil.copytree(source, folder)
    return folder


def target_file(example: Example) -> str:
    name = example.spec.get("file")
    if not name:
        first = re.fullmatch(r"#\s*([\w./-]+\.\w+)(\s.*)?", example.body.splitlines()[0])
        assert first, f"docs/{example.id}: say which file the example is (file=PATH, or a first line # PATH)"
        name = first[1]
    return name


def block_text(example: Example) -> str:
    text = example.body
    for edit in filter(None, (example.spec.get("edit") or "").split(";;")):
        old, new = edit.strip().split("=>", 1)
        assert old in text, f"docs/{example.id}: edit={edit!r}: the block has no {old!r}"
        text = text.replace(old, new)
    return text


def run_python(examples: list[Example]) -> None:
    """Python blocks run one after the other in one namespace, in the project's folder (the caller's
    working folder), as a reader pastes them into an interpreter."""
    namespace = {"__name__": "docs_example"}
    for example in examples:
        exec(compile(block_text(example), f"docs/{example.id}", "exec"), namespace)


def add_support(names: str, game: Path) -> None:
    for name in filter(None, names.split(",")):
        dest = game / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        if (SUPPORT / name).is_file():
            shutil.copyfile(SUPPORT / name, dest)
        elif name.endswith(".png"):
            from PIL import Image
            Image.new("RGB", (900, 1260), (96, 128, 160)).save(dest)
        elif name.endswith(".svg"):
            dest.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">'
                            '<circle cx="12" cy="12" r="10" fill="#333333"/></svg>\n')
        else:
            raise AssertionError(f"with={name}: no file tests/docs_support/{name}")


ELIDED = re.compile(r"^\s*(- )?\.\.\.\s*$|,\s*\.\.\.(?=\s*[\]}])")


def without_elisions(text: str) -> str:
    """The block without its ``...`` (a line, or a last entry of a flow collection)."""
    return "\n".join(ELIDED.sub("", line) for line in text.splitlines() if not re.fullmatch(r"\s*(- )?\.\.\.\s*",
                                                                                            line)) + "\n"


def identity(item):
    if isinstance(item, dict):
        key = item.get("id", item.get("at"))
        return ("id", json.dumps(key)) if key is not None else None
    if isinstance(item, list):
        return ("list", json.dumps(item))
    return ("value", json.dumps(item))


def same_entry(old, new) -> bool:
    """Whether list entry ``new`` stands for ``old``: the same id (a hex's ``at``, the same value), or for
    a mapping without one, a mapping holding every key and value it gives."""
    if identity(new) is not None:
        return identity(old) == identity(new)
    return isinstance(old, dict) and isinstance(new, dict) and all(old.get(k) == v for k, v in new.items())


def merged(base, new):
    """``new`` laid over ``base``: mappings key by key, lists entry by entry (by identity)."""
    if isinstance(base, dict) and isinstance(new, dict):
        out = dict(base)
        for key, value in new.items():
            out[key] = merged(base[key], value) if key in base else value
        return out
    if isinstance(base, list) and isinstance(new, list):
        out = list(base)
        for item in new:
            same = [i for i, old in enumerate(out) if same_entry(old, item)]
            if same:
                out[same[0]] = merged(out[same[0]], item)
            else:
                out.append(item)
        return out
    return new


def place(data, path: str, block):
    """``block`` as it sits at ``path`` (``decks/plans``: the deck with id plans) of a file's data."""
    if not path:
        return block
    key, _, rest = path.partition("/")
    if isinstance(data, list):
        matches = [item for item in data if isinstance(item, dict) and item.get("id") == key]
        assert matches, f"at=.../{key}: no entry with that id"
        return [dict(place(matches[0], rest, block), id=key)]
    return {key: place((data or {}).get(key), rest, block)}


def apply(example: Example, game: Path, work: Path) -> Path:
    """Write the example where it goes; the path of the file written."""
    spec = example.spec
    add_support(spec.get("with", ""), game if game else work)
    root = game if game else work
    path = root / target_file(example)
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = spec.get("mode", "replace")
    text = block_text(example)
    if mode == "replace":
        path.write_text(text, encoding="utf-8")
    elif mode == "append":
        old = path.read_text(encoding="utf-8")
        path.write_text(old + ("" if old.endswith("\n") else "\n") + text, encoding="utf-8")
    elif mode in ("merge", "excerpt"):
        old = yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else None
        block = yaml.safe_load(without_elisions(text))
        new = merged(old, place(old, spec.get("at", ""), block))
        if mode == "excerpt":
            assert new == old, (f"docs/{example.id}: the block is not what {path.relative_to(root)} says:\n"
                                + yaml.safe_dump(new, sort_keys=False, allow_unicode=True))
        else:
            path.write_text(yaml.safe_dump(new, sort_keys=False, allow_unicode=True, width=100), encoding="utf-8")
    else:
        raise AssertionError(f"docs/{example.id}: mode={mode}: use replace, merge, excerpt or append")
    return path


# ---------------------------------------------------------------------------------------------- running

@dataclass
class Run:
    command: str
    exit_code: int
    output: str


#: ``pnp validate`` runs of this process: (command, the work folder's files) -> Run. See :func:`pnp`.
VALIDATED: dict = {}


def folder_digest(work: Path) -> str:
    """Every file under ``work`` (its path from there, a link's target, a file's bytes) in one digest."""
    import hashlib

    digest = hashlib.sha256()
    for path in sorted(work.rglob("*")):
        digest.update(str(path.relative_to(work)).encode() + b"\0")
        if path.is_symlink():
            digest.update(b"link\0" + str(path.readlink()).encode() + b"\0")
        elif path.is_file():
            digest.update(b"file\0" + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def pnp(command: str, work: Path, game: Path | None, file: Path | None) -> Run:
    """A pnp command line run in ``work`` (paths in messages are then relative to it).

    A ``pnp validate`` (it writes nothing in ``work``) of a folder byte for byte the same as one this
    process validated with the same command line is that run's result again: many examples quote a
    bundled game as it is (``mode=excerpt``), and each validated an unchanged copy of it, Valeria's taking
    2-3 s of CPU (issue 38). An example that changes any byte of the game is validated afresh."""
    filled = command.format(game=game.relative_to(work) if game else "",
                            file=file.relative_to(work) if file else "")
    args = shlex.split(filled)
    if args[0] == "pnp":
        args = args[1:]
    key = None
    if args[:1] == ["validate"] and "--cache" not in args:
        key = (filled, folder_digest(work))
        if key in VALIDATED:
            return VALIDATED[key]
    result = CliRunner().invoke(main, args)
    output = result.output
    if result.exception and not isinstance(result.exception, SystemExit):
        import traceback
        output += "".join(traceback.format_exception(result.exception))
    run = Run(filled, result.exit_code, output)
    if key is not None:
        VALIDATED[key] = run
    return run


def commands(spec: dict) -> list[str]:
    run = spec.get("run", "validate")
    if run in ("next", "python"):
        return []
    if run in ("validate", "build"):
        return ["pnp validate {game} --no-cache"]
    return [run]


def check(run: Run, spec: dict, example: Example) -> None:
    expected = spec.get("fails")
    if expected is None:
        assert run.exit_code == 0, f"docs/{example.id}: {run.command} exited {run.exit_code}:\n{run.output}"
        return
    assert run.exit_code == 2, f"docs/{example.id}: {run.command} should fail (exit 2):\n{run.output}"
    assert not expected or expected in run.output.splitlines(), (f"docs/{example.id}: {run.command} does not print the page's "
                                                 f"message\n  {expected}\nbut:\n{run.output}")


def output_matches(expected: str, actual: str, as_json: bool) -> str | None:
    """None when the block is in the output; else what is missing."""
    if as_json:
        want, got = json.loads(without_elisions(expected)), json.loads(actual)
        return _json_missing(want, got, "")
    lines = actual.splitlines()
    at = 0
    for wanted in expected.splitlines():
        if wanted.strip() in ("...", ""):
            continue
        try:
            at = lines.index(wanted, at) + 1
        except ValueError:
            return wanted
    return None


def _json_missing(want, got, where):
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return f"{where or 'top'}: a mapping expected, got {got!r}"
        for key, value in want.items():
            if key not in got:
                return f"{where}.{key}: missing"
            missing = _json_missing(value, got[key], f"{where}.{key}")
            if missing:
                return missing
        return None
    if isinstance(want, list) and isinstance(got, list) and want and isinstance(want[0], dict):
        # a list of mappings on the page may leave entries out: the others come in the same order
        at = 0
        for i, value in enumerate(want):
            while at < len(got) and _json_missing(value, got[at], f"{where}[{at}]"):
                at += 1
            if at == len(got):
                return f"{where}[{i}]: {json.dumps(value)[:200]} is not printed (in that order)"
            at += 1
        return None
    return None if want == got else f"{where}: {want!r} on the page, {got!r} printed"
