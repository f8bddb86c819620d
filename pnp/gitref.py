"""A game folder as it was at a git commit, for ``pnp build --changed-since REF`` (:mod:`pnp.reprint`).

The repository holding the game folder is read with dulwich, a git implementation in Python: no git
program runs, so nothing the repository's configuration names (hooks, filters, an fsmonitor) runs
either. The folder's files at the commit are written into a temporary folder (never into the
repository, never next to it, :func:`folder_at`), removed when the caller is done with it. Symbolic
links and submodules in the folder are not written (a path of the data that needs one is then reported
missing). This module only reads git: what is made of the folder is :mod:`pnp.reprint`'s.
"""

from __future__ import annotations

import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path

from pnp.errors import UserError, display_path

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


@contextmanager
def folder_at(value: str, root: Path):
    """The game folder ``root`` as it was at the git commit ``value`` names, written into a temporary folder
    (of the same name) for the ``with`` block: yields (that folder, the commit's short id)."""
    repo, commit, inside = commit_of(value, root)
    short = commit.id.decode("ascii")[:7]
    with tempfile.TemporaryDirectory(prefix="pnp-changed-since-") as tmp:
        folder = Path(tmp) / (root.name or "game")
        extract(repo, commit, inside, folder, value)
        yield folder, short
