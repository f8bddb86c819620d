"""A game folder as it was at a git commit, for ``pnp build --changed-since REF`` (:mod:`pnp.reprint`).

The repository holding the game folder is read with dulwich, a git implementation in Python: no git
program runs, so nothing the repository's configuration names (hooks, filters, an fsmonitor) runs
either. The folder's files at the commit are written into a temporary folder (never into the
repository, never next to it), the game is loaded from there and its record made by the same hooks a
build records its pieces with; the temporary folder is removed when that is done. Symbolic links and
submodules in the folder are not written (a path of the data that needs one is then reported missing).
"""

from __future__ import annotations

import stat
import tempfile
from pathlib import Path

from pnp.errors import DataError, UserError, display_path

#: Characters no file or folder name written from a commit may hold.
_BAD_NAME = frozenset("/\\\0")


def _dulwich():
    try:
        from dulwich import objectspec
        from dulwich.errors import NotGitRepository
        from dulwich.repo import Repo
    except ImportError:
        raise UserError("--changed-since with a git reference reads the repository with dulwich, which is not "
                        "installed: pip install 'pnp[git]' (or give the folder of the earlier kit)") from None
    return Repo, NotGitRepository, objectspec


def commit_of(value: str, root: Path):
    """(repository, commit, the game folder's path inside the repository's tree as a list of names) for the
    git reference ``value`` (a tag, a branch, a commit id, ``HEAD~3``); a clear UserError otherwise."""
    Repo, NotGitRepository, objectspec = _dulwich()
    try:
        repo = Repo.discover(str(root))
    except NotGitRepository:
        raise UserError(f"--changed-since {value}: there is no folder {value}, and the game folder "
                        f"{display_path(root)} is not in a git repository, so {value} cannot be a git reference "
                        f"either; give the folder of the earlier kit") from None
    top = Path(repo.path).resolve()
    unknown = (f"--changed-since {value}: there is no folder {value}, and the git repository at "
               f"{display_path(top)} has no commit, branch or tag {value}")
    if not value or value.startswith("-") or ":" in value:
        raise UserError(unknown)
    try:
        commit = objectspec.parse_commit(repo, objectspec.parse_object(repo, value.encode("utf-8")))
    except (KeyError, ValueError, IndexError, NotImplementedError):
        raise UserError(unknown) from None
    try:
        inside = Path(root).resolve().relative_to(top).parts
    except ValueError:
        raise UserError(f"--changed-since {value}: the game folder {display_path(root)} is not inside the work "
                        f"tree of the git repository at {display_path(top)}") from None
    return repo, commit, list(inside)


def extract(repo, commit, inside: list, dest: Path, value: str) -> None:
    """Write the tree of ``commit`` at the path ``inside`` into ``dest`` (a new folder)."""
    tree = repo[commit.tree]
    for name in inside:
        try:
            mode, sha = tree[name.encode("utf-8")]
        except KeyError:
            raise UserError(f"--changed-since {value}: the game folder did not exist at that commit "
                            f"({commit.id.decode()[:7]}): no {'/'.join(inside)} in its tree") from None
        if not stat.S_ISDIR(mode):
            raise UserError(f"--changed-since {value}: at that commit ({commit.id.decode()[:7]}) "
                            f"{'/'.join(inside)} is not a folder")
        tree = repo[sha]
    _write_tree(repo, tree, dest)


def _write_tree(repo, tree, dest: Path) -> None:
    dest.mkdir()
    for entry in tree.items():
        name = entry.path.decode("utf-8", errors="replace")
        if name in ("", ".", "..", ".git") or _BAD_NAME & set(name):
            continue                                  # not a name a checkout writes
        if stat.S_ISDIR(entry.mode):
            _write_tree(repo, repo[entry.sha], dest / name)
        elif stat.S_ISREG(entry.mode):
            (dest / name).write_bytes(repo[entry.sha].as_raw_string())
        # symbolic links and submodules are left out (see the module)


def record_at(value: str, game, options) -> dict:
    """The record (:func:`pnp.reprint.game_record`) of ``game``'s folder as it was at the git commit
    ``value``; its version, when its game.yaml gives none, is the reference and the commit's short id."""
    from pnp.loading.gamedata import load_game
    from pnp.reprint import game_record

    repo, commit, inside = commit_of(value, game.root)
    short = commit.id.decode("ascii")[:7]
    with tempfile.TemporaryDirectory(prefix="pnp-changed-since-") as tmp:
        folder = Path(tmp) / (game.root.name or "game")
        extract(repo, commit, inside, folder, value)
        try:
            old = load_game(folder)
            if options.lang:
                from pnp.loading.i18n import translate

                old = translate(old, options.lang)
            record = game_record(old, options)
        except DataError as exc:
            shown = [str(p).replace(str(folder), display_path(game.root)) for p in exc.problems][:5]
            more = len(exc.problems) - len(shown)
            raise UserError(f"--changed-since {value}: the game folder as it was at {short} does not build:\n  "
                            + "\n  ".join(shown) + (f"\n  ... and {more} more" if more > 0 else "")) from None
    if not record.get("version"):
        record["version"] = short if value.lower().startswith(short.lower()) else f"{value} ({short})"
    return record
