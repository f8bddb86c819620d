"""A game folder as it was at a git commit, for ``pnp build --changed-since REF`` (:mod:`pnp.reprint.changes`).

The repository holding the game folder is read with dulwich, a git implementation in Python: no git
program runs, so nothing the repository's configuration names (hooks, filters, an fsmonitor) runs
either. Only the game folder's own repository is read, and its objects are read within limits
(:mod:`pnp.reprint.gitstore`): a repository that keeps its data elsewhere, one that is damaged or one that
goes past a limit is refused with one line naming the reference (a UserError, exit status 2). The
folder's files at the commit are written into a temporary folder (never into the repository, never
next to it, :func:`folder_at`), within the limits of what a game folder may hold there (files,
folders, depth, bytes), and removed when the caller is done with it. Symbolic links and submodules in
the folder are not written (a path of the data that needs one is then reported missing). This module
only reads git: what is made of the folder is :mod:`pnp.reprint.changes`'s.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path

from pnp.reprint import gitstore
from pnp.errors import UserError, display_path
from pnp.reprint.gitstore import RepositoryRefused, megabytes

#: Characters no file or folder name written from a commit may hold.
_BAD_NAME = frozenset("/\\\0")


def _dulwich():
    try:
        from dulwich import objectspec
        from dulwich.repo import Repo
    except ImportError:
        raise UserError("--changed-since with a git reference reads the repository with dulwich, which is not "
                        "installed: pip install 'pnp[git]' (or give the folder of the earlier kit)") from None
    return Repo, objectspec


def _top(root: Path) -> str | None:
    """The real path of the folder holding the ``.git`` nearest above the game folder (or the game folder's
    own), as git finds it; None outside any repository."""
    folder = os.path.realpath(root)
    while True:
        if os.path.lexists(os.path.join(folder, ".git")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


@contextmanager
def _reading(value: str, top: str):
    """Any failure of reading the repository as one line naming the reference: a limit or a refusal says
    which; anything dulwich raises on a damaged repository (a missing object, a corrupt pack, a loop of
    symbolic references, a malformed tree) says so."""
    try:
        yield
    except (UserError, KeyboardInterrupt):
        raise
    except RepositoryRefused as exc:
        raise UserError(f"--changed-since {value}: the git repository at {display_path(top)} {exc}") from None
    except MemoryError:
        raise UserError(f"--changed-since {value}: the git repository at {display_path(top)} needs more memory "
                        f"than there is to read") from None
    except Exception as exc:      # noqa: BLE001 (dulwich's errors have no common base: each is a damaged repository)
        reason = " ".join(str(exc).split())[:120] or type(exc).__name__
        raise UserError(f"--changed-since {value}: the git repository at {display_path(top)} cannot be read, it "
                        f"is damaged ({type(exc).__name__}: {reason}); 'git fsck' says more, or give the folder "
                        f"of the earlier kit") from None


class Repository:
    """The game folder's own repository, open for reading within the limits (:func:`open_repository`)."""

    def __init__(self, repo, top: str):
        self.repo, self.top = repo, top
        self.store = repo.object_store

    def close(self) -> None:
        self.store.reader.close()
        self.repo.close()


def open_repository(root: Path, value: str) -> Repository:
    """The repository of the game folder ``root``: the folder holding the nearest ``.git``, whose git
    data lies inside it (:func:`pnp.reprint.gitstore.git_folder`), without borrowed objects, its own files
    regular and bounded; its objects read by :class:`pnp.reprint.gitstore.Reader`."""
    Repo, _ = _dulwich()
    top = _top(root)
    if top is None:
        raise UserError(f"--changed-since {value}: there is no folder {value}, and the game folder "
                        f"{display_path(root)} is not in a git repository, so {value} cannot be a git reference "
                        f"either; give the folder of the earlier kit")
    with _reading(value, top):
        gitdir = gitstore.git_folder(top)
        gitstore.check_control_files(gitdir, top)
        plain = Repo(top)
        try:
            objects = plain.object_store.path
            for name, path in (("git folder", plain.controldir()), ("common git folder", plain.commondir()),
                               ("objects", objects)):
                if not gitstore._inside(path, top):
                    raise RepositoryRefused(f"keeps its {name} outside the folder it belongs to; pnp reads only "
                                            f"a repository kept inside that folder")
            if os.path.realpath(plain.path) != top:
                raise RepositoryRefused("names another folder as its work tree (core.worktree); pnp reads only "
                                        "the repository of the folder it is in")
            alternates = os.path.join(objects, "info", "alternates")
            if os.path.exists(alternates) and os.path.getsize(alternates):
                raise RepositoryRefused("borrows objects from another repository (objects/info/alternates); pnp "
                                        "reads only a repository's own objects")
        finally:
            plain.close()
        gitstore.check_control_files(gitstore.git_folder(top), top)      # the common folder, when it is apart
        store = gitstore.bounded_store(objects, top)
        try:
            return Repository(Repo(top, object_store=store), top)
        except BaseException:
            store.reader.close()
            raise


def commit_of(value: str, root: Path):
    """(repository, commit, the game folder's path inside the repository's tree as a list of names) for the
    git reference ``value`` (a tag, a branch, a commit id, ``HEAD~3``); a clear UserError otherwise."""
    _, objectspec = _dulwich()
    from dulwich.objects import Commit, Tag

    repository = open_repository(root, value)
    top = repository.top
    unknown = (f"--changed-since {value}: there is no folder {value}, and the git repository at "
               f"{display_path(top)} has no commit, branch or tag {value}")
    try:
        if not value or value.startswith("-") or ":" in value or len(value) > 1000:
            raise UserError(unknown)
        with _reading(value, top):
            try:
                named = objectspec.parse_object(repository.repo, value.encode("utf-8"))
            except (KeyError, ValueError, IndexError, NotImplementedError):
                _missing(repository, value)
                raise UserError(unknown) from None
            try:
                commit = objectspec.parse_commit(repository.repo, named)
            except (KeyError, ValueError, IndexError, NotImplementedError):
                _missing(repository, value)
                commit = None
            if not isinstance(commit, Commit):
                for _ in range(100):                      # a tag of a tag ...: what it leads to in the end
                    if not isinstance(named, Tag):
                        break
                    named = repository.store[named.object[1]]
                raise RepositoryRefused(f"is damaged: {value} leads to a {named.type_name.decode()}, not a commit")
    except BaseException:
        repository.close()
        raise
    inside = Path(os.path.realpath(root)).relative_to(top).parts
    return repository, commit, list(inside)


def _missing(repository: Repository, value: str) -> None:
    """A reference that leads to an object the repository lacks is a damaged repository, not an unknown
    reference."""
    missing = repository.store.reader.missing
    if missing:
        raise RepositoryRefused(f"is damaged: object {missing[-1][:7]}, which {value} leads to, is missing") from None


class _Budget:
    """What writing the game folder as it was has used: files and folders, bytes, and the files written
    by object (a file named again is a hard link to the first)."""

    def __init__(self):
        self.entries = 0
        self.bytes = 0
        self.written: dict = {}


def extract(repository: Repository, commit, inside: list, dest: Path, value: str) -> None:
    """Write the tree of ``commit`` at the path ``inside`` into ``dest`` (a new folder), within the limits
    of :mod:`pnp.reprint.gitstore`."""
    from dulwich.objects import Tree

    short = commit.id.decode("ascii")[:7]
    store = repository.store
    with _reading(value, repository.top):
        tree = _listing(store, commit.tree, dest, dest, short)
        for depth, name in enumerate(inside):
            if not isinstance(tree, Tree):
                raise RepositoryRefused(f"is damaged: at {short}, {'/'.join(inside[:depth]) or 'the top'} is not a "
                                        f"folder's listing")
            try:
                mode, sha = tree[name.encode("utf-8")]
            except KeyError:
                raise UserError(f"--changed-since {value}: the game folder did not exist at that commit "
                                f"({short}): no {'/'.join(inside)} in its tree") from None
            if not stat.S_ISDIR(mode):
                raise UserError(f"--changed-since {value}: at that commit ({short}) "
                                f"{'/'.join(inside)} is not a folder")
            tree = _listing(store, sha, dest, dest, short)
        _write_tree(store, tree, dest, value, short)


def _write_tree(store, top_tree, dest: Path, value: str, short: str) -> None:
    """The folders of ``top_tree`` one after another (no recursion: a tree thousands deep is refused at
    :data:`~pnp.reprint.gitstore.MAX_DEPTH`, not a RecursionError)."""
    from dulwich.objects import Tree

    budget = _Budget()
    stack = [(top_tree, dest, 0)]
    dest.mkdir()
    while stack:
        tree, folder, depth = stack.pop()
        if not isinstance(tree, Tree):
            raise RepositoryRefused(f"is damaged: at {short}, {_shown(folder, dest)} is listed as a folder but is "
                                    f"not a folder's listing")
        entries = tree.items()
        budget.entries += len(entries)              # counted before any of them is written
        if budget.entries > gitstore.MAX_ENTRIES:
            raise RepositoryRefused(f"holds more than {gitstore.MAX_ENTRIES:,} files and folders in the game "
                                    f"folder at {short}, more than pnp reads from a repository")
        for entry in entries:
            store.reader.tick()
            name = entry.path.decode("utf-8", errors="replace")
            if name in ("", ".", "..", ".git") or _BAD_NAME & set(name):
                continue                                  # not a name a checkout writes
            path = folder / name
            if stat.S_ISDIR(entry.mode):
                if depth + 1 > gitstore.MAX_DEPTH:
                    raise RepositoryRefused(f"has folders more than {gitstore.MAX_DEPTH} deep in the game folder "
                                            f"at {short} ({_shown(path, dest)})")
                _made(path.mkdir, path, dest)
                stack.append((_listing(store, entry.sha, path, dest, short), path, depth + 1))
            elif stat.S_ISREG(entry.mode):
                _write_file(store, entry.sha, path, dest, budget, short)
            # symbolic links and submodules are left out (see the module)


def _write_file(store, sha: bytes, path: Path, dest: Path, budget: _Budget, short: str) -> None:
    hexsha = sha.decode("ascii")
    if hexsha in budget.written:
        first, size = budget.written[hexsha]
        _count(budget, size, short)
        try:
            os.link(first, path)
        except OSError:
            _made(lambda: shutil.copyfile(first, path), path, dest)
        return
    try:
        kind, data = store.reader.raw(hexsha)
    except KeyError:
        raise RepositoryRefused(f"is damaged: at {short}, the content of {_shown(path, dest)} (object {hexsha[:7]}) "
                                f"is missing") from None
    except gitstore.ObjectTooLarge as exc:
        raise RepositoryRefused(f"holds {_shown(path, dest)} of {megabytes(exc.size)} at {short}, more than pnp "
                                f"reads from a repository (files of at most {megabytes(exc.limit)})") from None
    if kind != 3:
        raise RepositoryRefused(f"is damaged: at {short}, {_shown(path, dest)} is listed as a file but is a "
                                f"{gitstore.TYPE_NAMES[kind].decode()}")
    _count(budget, len(data), short)
    _made(lambda: path.write_bytes(data), path, dest)
    budget.written[hexsha] = (path, len(data))


def _listing(store, sha: bytes, path: Path, dest: Path, short: str):
    try:
        return store[sha]
    except KeyError:
        raise RepositoryRefused(f"is damaged: at {short}, the listing of {_shown(path, dest)} (object "
                                f"{sha.decode('ascii')[:7]}) is missing") from None


def _count(budget: _Budget, size: int, short: str) -> None:
    budget.bytes += size
    if budget.bytes > gitstore.MAX_TOTAL:
        raise RepositoryRefused(f"holds more than {megabytes(gitstore.MAX_TOTAL)} of files in the game folder at "
                                f"{short}, more than pnp writes from a repository")


def _shown(path: Path, dest: Path) -> str:
    relative = path.relative_to(dest).as_posix() if path != dest else "."
    return relative if len(relative) <= 80 else relative[:79] + "\u2026"


def _made(write, path: Path, dest: Path) -> None:
    """Write a file or folder of the game folder as it was; a name the file system refuses (too long,
    say) is a refusal naming it, not a crash."""
    try:
        write()
    except OSError as exc:
        raise RepositoryRefused(f"holds {_shown(path, dest)}, which cannot be written here "
                                f"({exc.strerror or exc})") from None


@contextmanager
def folder_at(value: str, root: Path):
    """The game folder ``root`` as it was at the git commit ``value`` names, written into a temporary folder
    (of the same name) for the ``with`` block: yields (that folder, the commit's short id)."""
    repository, commit, inside = commit_of(value, root)
    short = commit.id.decode("ascii")[:7]
    with tempfile.TemporaryDirectory(prefix="pnp-changed-since-") as tmp:
        folder = Path(tmp) / (root.name or "game")
        try:
            extract(repository, commit, inside, folder, value)
        finally:
            repository.close()
        yield folder, short
