"""``pnp new FOLDER``: write a small starter game that validates and builds at once.

The starter is pnp's own folder ``templates/starter/`` (a CSV deck with a text field using the game's
SVG icon, a card layout extending ``classic``, a rulebook chapter, tokens and a box), copied with the
game's title and player count filled in. ``--double-sided`` lays ``templates/starter_double_sided/`` over
it: the deck's cards get a side B (``side_b`` in game.yaml, ``side_b.*`` columns in cards.csv, a look of
its own) and the chapter shows both sides. ``--roll-and-write`` adds ``templates/starter_pad/`` (a score
pad's layout: boxes, check boxes, a track and write-in lines) and its entry in game.yaml's components.
The folder is made whole or not at all: the files are written
to a temporary folder beside it, which is then renamed into place, and a folder that already holds
anything is never written into.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from pathlib import Path

import click

from pnp import TEMPLATES_DIR
from pnp.errors import UserError, display_path
from pnp.loading.paths import SAFE_NAME, SAFE_NAME_TEXT, excerpt

STARTER = TEMPLATES_DIR / "starter"
#: What ``pnp new --double-sided`` writes over the starter: files replaced or added.
DOUBLE_SIDED = TEMPLATES_DIR / "starter_double_sided"
#: What ``--roll-and-write`` adds: a pad's layout (sheets players write on), and its entry in components.
STARTER_PAD = TEMPLATES_DIR / "starter_pad"
PAD_AFTER = "  - {kind: track, id: score, from: 0, to: 30, title: Score}\n"
PAD_ENTRY = ("  - {kind: pad, id: score_pad, layout: score_pad, title: Score pad}   # sheets to write on "
             "(templates/layouts/score_pad.yaml)\n")
#: The most players game.yaml allows.
MAX_PLAYERS = 20
#: Files of the starter whose text names the game's title or player counts.
FILLED = ("game.yaml", "tokens.yaml")


def parse_players(text: str) -> tuple[int, int]:
    """``"2-4"`` -> ``(2, 4)``, ``"3"`` -> ``(3, 3)``; UserError for anything else."""
    m = re.fullmatch(r"\s*(\d{1,2})\s*(?:(?:-|\.\.)\s*(\d{1,2})\s*)?", text or "")
    lo, hi = (int(m[1]), int(m[2] or m[1])) if m else (0, 0)
    if not m or not 1 <= lo <= hi <= MAX_PLAYERS:
        raise UserError(f"--players {excerpt(text)}: give a player count or a range such as 2-4 (from 1 to "
                        f"{MAX_PLAYERS}, the smaller first)")
    return lo, hi


def title_from(name: str) -> str:
    """A title from a folder's name: ``lantern_fair`` -> ``Lantern Fair``."""
    words = [w for w in re.split(r"[-_]+", name) if w]
    return " ".join(w[:1].upper() + w[1:] for w in words) or name


def starter_files(title: str, players: tuple[int, int], double_sided: bool = False,
                  pad: bool = False) -> dict[str, bytes]:
    """The starter game's files by relative path, with ``title`` and ``players`` filled in (``double_sided``:
    its cards with a side B; ``pad``: a score pad too, listed in game.yaml's components)."""
    found = {path.relative_to(STARTER).as_posix(): path for path in STARTER.rglob("*") if path.is_file()}
    if double_sided:
        found.update({path.relative_to(DOUBLE_SIDED).as_posix(): path for path in DOUBLE_SIDED.rglob("*")
                      if path.is_file()})
    if pad:
        found.update({path.relative_to(STARTER_PAD).as_posix(): path for path in STARTER_PAD.rglob("*")
                      if path.is_file()})
    files = {}
    for rel, path in sorted(found.items()):
        data = path.read_bytes()
        if rel in FILLED:
            text = data.decode("utf-8")
            # the title as a YAML string in double quotes (JSON's escapes are YAML's), and as plain words
            # in the comment on the first line
            text = text.replace("title: __TITLE__", f"title: {json.dumps(title, ensure_ascii=False)}")
            text = text.replace("__TITLE__", title.replace("\n", " "))
            text = text.replace("__MIN__", str(players[0])).replace("__MAX__", str(players[1]))
            if pad and rel == "game.yaml":
                text = text.replace(PAD_AFTER, PAD_AFTER + PAD_ENTRY)
            data = text.encode("utf-8")
        files[rel] = data
    return files


def write_new_game(folder: Path, title: str, players: tuple[int, int], double_sided: bool = False,
                   pad: bool = False) -> list[str]:
    """Write the starter game (see :func:`starter_files`) into ``folder`` (new, or an empty folder); the
    relative paths written."""
    name = folder.name if folder.name not in ("", ".", "..") else folder.resolve().name
    if not SAFE_NAME.fullmatch(name):
        raise UserError(f"{excerpt(name)}: a game folder's name is its id: use {SAFE_NAME_TEXT} (for example "
                        f"lantern_fair)")
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise UserError(f"{display_path(folder)} is not a folder; give the path of a new folder")
    if folder.is_dir() and any(folder.iterdir()):
        raise UserError(f"{display_path(folder)} is not empty; pnp new writes only into a new or empty folder")
    parent = folder.absolute().parent
    if not parent.is_dir():
        raise UserError(f"{display_path(parent)} does not exist; make it first, or give another place")
    if not title.strip() or len(title) > 120 or any(not ch.isprintable() for ch in title):
        raise UserError(f"--title {excerpt(title)}: give a title of printable characters, at most 120")
    from pnp.draw.fonts import unprintable       # (reportlab) only once the arguments are known good

    missing = unprintable(title)
    if missing:
        raise UserError(f"--title {excerpt(title)}: the bundled fonts cannot print {missing}")
    files = starter_files(title, players, double_sided, pad)
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{name}.pnp-new-", dir=parent))
    except OSError as exc:
        raise UserError(f"cannot write in {display_path(parent)}: {exc.strerror or exc}") from None
    try:
        for rel, data in files.items():
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        os.chmod(staging, 0o777 & ~_umask())
        if folder.is_dir():
            folder.rmdir()            # empty (checked above); a file appearing meanwhile makes this fail
        os.rename(staging, folder)
    except BaseException as exc:     # a full disk, Ctrl-C: the half-written copy goes, FOLDER stays as it was
        shutil.rmtree(staging, ignore_errors=True)
        if isinstance(exc, OSError):
            raise UserError(f"cannot write {display_path(folder)}: {exc.strerror or exc}") from None
        raise
    return list(files)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@click.command("new")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--players", "players_text", default="2-4", show_default=True, metavar="MIN-MAX",
              help="The player counts the game is for (a range such as 2-4, or one count).")
@click.option("--title", default=None, help="The game's title. [default: from the folder's name]")
@click.option("--double-sided", is_flag=True,
              help="Its cards have two playable faces: a side B for every card, with a look of its own.")
@click.option("--roll-and-write", "pad", is_flag=True,
              help="Add a score pad: a sheet to write on, with boxes, check boxes, a track and lines, printed "
                   "several to a page and written as a fillable PDF and a picture too.")
def command(folder: Path, players_text: str, title: str | None, double_sided: bool, pad: bool):
    """Write a small starter game into FOLDER (new or empty): game.yaml with a CSV deck whose card text
    uses the game's own SVG icon, a card layout extending pnp's classic one, a rulebook chapter, tokens
    and a box (with --double-sided, every card has a side B; with --roll-and-write, a score pad to write on
    too). It validates and builds as it is; change any
    file from there (docs/data-format.md).
    """
    players = parse_players(players_text)
    written = write_new_game(folder, title if title is not None else title_from(folder.absolute().name), players,
                             double_sided, pad)
    shown = display_path(folder)
    click.echo(f"Wrote a starter game in {shown}/: " + ", ".join(written))
    click.echo(f"Next: pnp validate {shown}, then pnp build {shown} --out {shown}-kit, and change any file "
               f"(docs/data-format.md, \"A new game, from an empty folder to a kit\").")
