"""Writing a set of output files: afterwards the output folder holds the whole old set or the whole new
one, whatever happens (a full disk, Ctrl-C, ``kill -9``), and no file pnp did not write is touched.

:func:`write_atomically` is the one place pnp writes its results (kit PDFs, exported images,
previews):

1. every name is checked to be a plain file name (:func:`pnp.loading.paths.output_path`), so no data value can
   make pnp write elsewhere, and every place a file goes is checked (a folder in the way, say) before
   anything is written;
2. the new files are written to a temporary folder ``.OUT.pnp-new-TOKEN`` beside the output folder
   (on the same file system); a failure here leaves the output folder untouched;
3. everything else the output folder holds (files pnp did not write, a deck's images exported into a
   kit folder, ...) is hard-linked into the new folder: the same files, not copies;
4. the two folders are exchanged in one step (Linux's ``renameat2(RENAME_EXCHANGE)``), and the old one
   is deleted.

So at every instant, even under ``kill -9``, the output folder is the old one or the new one. Where
step 4 is not available (another system, a file system without it) the output folder is renamed
aside and the new one renamed into place: two steps, with a moment between them when the folder is
missing. Where the folder cannot be replaced at all (its parent is not writable or is another file
system, a mount point, files that cannot be hard-linked, more than :data:`MAX_CARRIED` other entries),
the files are moved in one by one; a single file is always moved in with one rename, which is atomic
too. Every write keeps a journal (``.OUT.pnp-journal-TOKEN``, locked while the write runs): the next
write to the same folder reads the journal of one that was killed and finishes it (or, if the new set
was not complete yet, drops it), and removes its temporary folders. docs/security.md states the
guarantee.

With ``record``, the files written and the SHA-256 of each are kept in that (hidden) file of the
output folder; the next write of the same set removes the files of the previous one it no longer
makes, each only if its bytes are still those pnp wrote. A record pnp did not write, or one that names
a path outside the folder, is ignored with a warning.
"""

from __future__ import annotations

import ctypes
import errno
import hashlib
import json
import os
import secrets
import shutil
import stat
import sys
from pathlib import Path

from pnp.errors import Problem, UserError, display_path
from pnp.loading.paths import output_path
from rules_engine.processes import sigint_deferred

STAGING_PREFIX = ".pnp-"
#: The kinds of pnp's temporary entries: the new set, the old one moved aside, the journal.
KINDS = ("new", "old", "journal")
#: Entries of the output folder (other than pnp's files) carried into the new folder at most; a
#: folder holding more is updated file by file (see the module).
MAX_CARRIED = 10_000
#: What a record of pnp's says it is.
RECORD_MARK = "pnp output record"
RECORD_FORMAT = 2
#: A record larger than this is not pnp's.
MAX_RECORD_BYTES = 16 << 20


class OutputError(UserError):
    """The output could not be written; the output folder is as it was."""


def _why(exc: OSError) -> str:
    if exc.errno == errno.ENOSPC:
        return "no space left on the device"
    if exc.errno == errno.EROFS:
        return "the file system is read-only"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if exc.errno == errno.ENAMETOOLONG:
        return "a file name is too long for the file system"
    if exc.errno == errno.ELOOP:
        return "a loop of symbolic links"
    return exc.strerror or str(exc)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# ----------------------------------------------------------------------------- the output folder

def real_out(out: Path) -> Path:
    """The folder the files go to: ``out`` itself, or the folder it links to."""
    try:
        st = os.stat(out)
    except FileNotFoundError:
        if out.is_symlink():
            raise OutputError(f"{display_path(out)} is a link to a folder that does not exist") from None
        return Path(os.path.abspath(out))
    except OSError as exc:
        raise OutputError(f"cannot write to {display_path(out)}: {_why(exc)}") from None
    if not stat.S_ISDIR(st.st_mode):
        raise OutputError(f"{display_path(out)} is not a folder; give --out a folder")
    return Path(os.path.realpath(out))


def _check_places(out: Path, names) -> None:
    """Refuse, before anything is written, a folder where a file goes or a file (or link) where a folder
    goes."""
    for name in names:
        parts = Path(name).parts
        folder = out
        for part in parts[:-1]:                  # a deck's folder (and a print service's fronts/)
            folder = folder / part
            if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
                raise OutputError(f"{display_path(folder)} is not a folder, where pnp must write one; move it away "
                                  f"(nothing was written)")
        path = out / name
        if path.is_dir() and not path.is_symlink():
            raise OutputError(f"{display_path(path)} is a folder, where pnp must write a file; move it away "
                              f"(nothing was written)")


# ----------------------------------------------------------------------------- records

def record_bytes(files: dict) -> bytes:
    """The record of ``files`` (name -> bytes): what pnp wrote, with each file's size and SHA-256."""
    listed = {name: {"size": len(data), "sha256": sha256(data)} for name, data in files.items()}
    return (json.dumps({"written_by": RECORD_MARK, "format": RECORD_FORMAT, "files": listed}, indent=1)
            + "\n").encode()


def read_record(out: Path, record: str, warnings: list) -> dict:
    """The files an earlier write recorded in ``out / record``: name -> (size, sha256). A record that is
    not pnp's, or that names a path outside the folder, counts as none (with a warning)."""
    path = out / record
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        warnings.append(_warning(path, f"cannot read it ({_why(exc)}); no earlier file is removed"))
        return {}
    ignored = "not a record pnp wrote; the files it lists are left as they are"
    if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_RECORD_BYTES:
        warnings.append(_warning(path, ignored))
        return {}
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        warnings.append(_warning(path, ignored))
        return {}
    files = data.get("files") if isinstance(data, dict) else None
    if not (isinstance(data, dict) and data.get("written_by") == RECORD_MARK
            and data.get("format") == RECORD_FORMAT and isinstance(files, dict)):
        warnings.append(_warning(path, ignored))
        return {}
    result = {}
    for name, entry in files.items():
        try:
            output_path(out, name)
        except (UserError, TypeError):
            warnings.append(_warning(path, "names a file outside the folder; the files it lists are left as "
                                           "they are"))
            return {}
        if not (isinstance(entry, dict) and type(entry.get("size")) is int and isinstance(entry.get("sha256"), str)
                and len(entry["sha256"]) == 64):
            warnings.append(_warning(path, ignored))
            return {}
        result[name] = (entry["size"], entry["sha256"])
    return result


def _warning(path: Path, message: str) -> Problem:
    return Problem(str(path), None, None, message, warning=True)


def _still_ours(out: Path, name: str, size: int, digest: str) -> bool:
    """Whether ``out / name`` is a plain file (no link on the way) whose bytes are those recorded."""
    folder = out
    for part in Path(name).parts[:-1]:
        folder = folder / part
        if folder.is_symlink() or not folder.is_dir():
            return False
    path = out / name
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size != size:
            return False
        with open(path, "rb") as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest() == digest
    except OSError:
        return False


def _stale(out: Path, previous: dict, files: dict, warnings: list, record: str) -> list:
    """The files of the previous write that this one no longer makes and that are still as pnp wrote them."""
    stale = []
    for name, (size, digest) in previous.items():
        if name in files or not os.path.lexists(out / name):
            continue
        if _still_ours(out, name, size, digest):
            stale.append(name)
        else:
            warnings.append(_warning(out / name, f"changed since pnp wrote it (listed in {record}); left in place"))
    return stale


# ----------------------------------------------------------------------------- exchanging two folders

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
_renameat2 = None


def _exchange_function():
    global _renameat2
    if _renameat2 is None:
        _renameat2 = False
        if sys.platform.startswith("linux"):
            try:
                libc = ctypes.CDLL(None, use_errno=True)
                function = libc.renameat2
            except (OSError, AttributeError):
                pass
            else:
                function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
                function.restype = ctypes.c_int
                _renameat2 = function
    return _renameat2


def exchange(a: os.PathLike, b: os.PathLike) -> bool:
    """Swap the paths ``a`` and ``b`` in one step. False when this system or file system cannot (then
    nothing changed); raises OSError for any other failure."""
    function = _exchange_function()
    if not function:
        return False
    if function(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), os.fspath(a))


# ----------------------------------------------------------------------------- the journal

try:
    import fcntl
except ImportError:          # pragma: no cover - Windows: a journal found is one of a write that ended
    fcntl = None


class _Journal:
    """The journal of one write: a locked file beside the temporary folders, holding what the next
    write needs to finish this one should it be killed."""

    def __init__(self, where: Path, stem: str):
        while True:
            self.token = secrets.token_hex(6)
            self.path = where / f"{stem}{STAGING_PREFIX}journal-{self.token}"
            try:
                self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                continue
            if fcntl is None:
                break
            fcntl.flock(self.fd, fcntl.LOCK_EX)
            try:        # a write that recovered between the open and the lock took it for a dead one's
                if os.stat(self.path).st_ino == os.fstat(self.fd).st_ino:
                    break
            except FileNotFoundError:
                pass
            os.close(self.fd)
        self.new = where / f"{stem}{STAGING_PREFIX}new-{self.token}"
        self.old = where / f"{stem}{STAGING_PREFIX}old-{self.token}"
        self.data: dict = {}

    def write(self, **data) -> None:
        self.data.update(data)
        text = json.dumps(self.data).encode()
        os.lseek(self.fd, 0, os.SEEK_SET)
        os.ftruncate(self.fd, 0)
        os.write(self.fd, text)

    def close(self) -> None:
        shutil.rmtree(self.new, ignore_errors=True)
        shutil.rmtree(self.old, ignore_errors=True)
        try:
            self.path.unlink()
        except OSError:
            pass
        os.close(self.fd)


def _leftovers(where: Path, stem: str) -> dict:
    """pnp's temporary entries of ``stem`` in ``where``, by token: {token: {kind: path}}."""
    found: dict = {}
    prefix = f"{stem}{STAGING_PREFIX}"
    try:
        entries = os.listdir(where)
    except OSError:
        return found
    for name in entries:
        if not name.startswith(prefix):
            continue
        kind, _, token = name[len(prefix):].partition("-")
        if kind in KINDS and token:
            found.setdefault(token, {})[kind] = where / name
    return found


def recover(out: Path) -> None:
    """Finish or undo what a killed write to ``out`` left behind, and remove its temporary folders.
    A write still running (its journal locked) is left alone."""
    out = Path(out)
    places = [(out.parent, f".{out.name}")] if out.name else []
    if out.is_dir():
        places.append((out, ""))
    for where, stem in places:
        for token, kinds in _leftovers(where, stem).items():
            journal = kinds.get("journal")
            if journal is None:                     # no journal: a write that never got going, or an older pnp's
                for path in kinds.values():
                    _remove(path)
                continue
            try:
                fd = os.open(journal, os.O_RDWR)
            except OSError:
                continue
            try:
                if fcntl is not None:
                    try:
                        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    except OSError:
                        continue                    # a write running now
                try:
                    data = json.loads(os.read(fd, 1 << 24) or b"null")
                except ValueError:
                    data = None
                if not isinstance(data, dict):      # killed before its first words
                    data = {}
                new = where / f"{stem}{STAGING_PREFIX}new-{token}"
                old = where / f"{stem}{STAGING_PREFIX}old-{token}"
                if data.get("state") == "ready":
                    _finish(out, data, new, old, out.parent / f"{out.name}.pnp-kept-{token}")
                _remove(new)
                _remove(old)
                journal.unlink(missing_ok=True)
            finally:
                os.close(fd)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        try:
            path.unlink()
        except OSError:
            pass


def _finish(out: Path, data: dict, new: Path, old: Path, kept_as: Path) -> None:
    """Complete a write the journal says was ready (the new set whole in ``new``) when it was killed."""
    mode, names = data.get("mode"), [n for n in data.get("names", []) if isinstance(n, str)]
    ours = set(names) | {n for n in data.get("stale", {}) if isinstance(n, str)}
    try:
        if mode in ("exchange", "rename"):
            if not os.path.lexists(out):            # between the two renames: the new set takes its place
                if new.is_dir():
                    os.rename(new, out)
                elif old.is_dir():
                    os.rename(old, out)
                    return
                else:
                    return
            inode = os.stat(out).st_ino
            if mode == "exchange" and inode == data.get("new_inode") and new.is_dir():
                _keep_rescued(new, out, ours, kept_as)      # exchanged: ``new`` holds the old folder now
            elif mode == "rename" and old.is_dir() and not new.is_dir():
                _keep_rescued(old, out, ours, kept_as)
        elif mode == "files":
            for name in names:
                if os.path.lexists(new / name):
                    _place(out, new, name)
            for name, entry in data.get("stale", {}).items():
                if isinstance(name, str) and isinstance(entry, list) and len(entry) == 2 \
                        and _still_ours(out, name, *entry):
                    (out / name).unlink()
    except OSError:
        pass                                        # as much as could be done; the folders are removed next


# ----------------------------------------------------------------------------- carrying the other files over

class _CannotCarry(Exception):
    """The other entries of the output folder cannot be carried into the new one."""


def _carry(out: Path, new: Path, skip: set, device: int) -> None:
    """Hard-link every entry of ``out`` but the ``skip`` names (pnp's own, replaced or stale) into ``new``,
    folders made anew with their permissions."""
    count = 0

    def walk(folder: Path, rel: str) -> None:
        nonlocal count
        with os.scandir(folder) as entries:
            items = list(entries)
        for entry in items:
            name = f"{rel}{entry.name}"
            if name in skip:
                continue
            count += 1
            if count > MAX_CARRIED:
                raise _CannotCarry(f"more than {MAX_CARRIED} other entries")
            st = entry.stat(follow_symlinks=False)
            if st.st_dev != device:
                raise _CannotCarry(f"{name} is on another file system")
            target = new / name
            if stat.S_ISDIR(st.st_mode):
                if not target.is_dir():
                    os.mkdir(target)
                os.chmod(target, stat.S_IMODE(st.st_mode))
                walk(Path(entry.path), name + "/")
            else:
                try:
                    os.link(entry.path, target, follow_symlinks=False)
                except OSError as exc:
                    raise _CannotCarry(f"{name} cannot be linked: {_why(exc)}") from None

    walk(out, "")


def _rescue(old: Path, out: Path, ours: set, rel: str = "") -> list:
    """After the swap: move into ``out`` whatever ``old`` holds that is neither pnp's (``ours``) nor the
    same file as the one now in ``out`` (something written into the folder while pnp was writing).
    Returns what could not be moved (its place taken)."""
    kept = []
    with os.scandir(old / rel if rel else old) as entries:
        items = list(entries)
    for entry in items:
        name = f"{rel}{entry.name}"
        target = out / name
        st = entry.stat(follow_symlinks=False)
        if stat.S_ISDIR(st.st_mode):
            if target.is_dir() and not target.is_symlink():
                kept += _rescue(old, out, ours, name + "/")
                continue
        elif name in ours:
            continue
        else:
            try:
                now = os.lstat(target)
                if (now.st_dev, now.st_ino) == (st.st_dev, st.st_ino):
                    continue
            except FileNotFoundError:
                pass
        if os.path.lexists(target):
            kept.append(name)
        else:
            os.rename(entry.path, target)
    return kept


def _keep_rescued(holding: Path, out: Path, ours: set, kept_as: Path) -> list:
    """:func:`_rescue`, then the folder set aside as ``kept_as`` when something in it could not be moved
    (or the moving failed), instead of being deleted with pnp's temporary folders."""
    try:
        kept = _rescue(holding, out, ours)
    except OSError as exc:
        kept = [f"({_why(exc)})"]
    if kept:
        os.rename(holding, kept_as)
    return kept


# ----------------------------------------------------------------------------- writing

def write_atomically(out_dir, files: dict, record: str | None = None, warnings: list | None = None) -> list[Path]:
    """Write every file of ``files`` (name -> bytes) into ``out_dir``, or none of them; see the module.

    Returns the written paths in the order given. Raises :class:`OutputError` when the set cannot be
    written; the output folder then holds what it held before. Warnings (a record pnp did not write, a
    recorded file changed since) are appended to ``warnings``.
    """
    warnings = [] if warnings is None else warnings
    out = Path(out_dir)
    targets = [output_path(out, name) for name in files]
    if record is not None:
        output_path(out, record.lstrip("."))       # the record's name is pnp's own, but check it all the same
    real = real_out(out)
    try:
        recover(real)
        previous = read_record(real, record, warnings) if record is not None and real.is_dir() else {}
        stale = _stale(real, previous, files, warnings, record) if previous else []
        _check_places(real, files)
    except OSError as exc:
        raise OutputError(f"cannot write to {display_path(out)}: {_why(exc)}") from None
    files = dict(files)
    if record is not None:
        files[record] = record_bytes(files)
    _Write(out, real, files, {n: previous[n] for n in stale}).run()
    return targets


#: Errors of a rename that mean "not here" (another file system, a mount point, not supported): then
#: the files are moved in one by one.
_CANNOT_RENAME = (errno.EXDEV, errno.EBUSY, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EINVAL)


class _Write:
    """One write of a set of files (see the module for the steps and modes)."""

    def __init__(self, shown: Path, out: Path, files: dict, stale: dict):
        self.shown, self.out, self.files, self.stale = shown, out, files, stale
        self.journal: _Journal | None = None

    def run(self) -> None:
        out = self.out
        exists = out.is_dir()
        single = len(self.files) == 1 and not self.stale and exists
        try:
            self.journal = journal = self._open_journal(beside=not single)
        except OSError as exc:
            raise OutputError(f"cannot write to {display_path(self.shown)}: {_why(exc)}") from None
        beside = journal.path.parent != out
        mode = "exchange" if beside else "files"
        done = False
        try:
            try:
                journal.write(mode=mode, state="writing", names=list(self.files))
                os.mkdir(journal.new, 0o777 if beside else 0o700)
                for name, data in self.files.items():
                    path = journal.new / name
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(data)
                if beside and exists:
                    os.chmod(journal.new, stat.S_IMODE(os.stat(out).st_mode))
                    try:
                        _carry(out, journal.new, set(self.files) | set(self.stale), os.stat(out).st_dev)
                    except _CannotCarry:
                        mode = "files"
                        self._drop_carried()
                journal.write(mode=mode, state="ready", stale=self.stale, new_inode=os.stat(journal.new).st_ino)
            except OSError as exc:
                raise OutputError(f"could not write the files: {_why(exc)}; {display_path(self.shown)} was not "
                                  f"changed") from None
            with sigint_deferred("after the new files were in place"):
                if mode == "exchange" and not self._swap(exists):
                    mode = "files"
                if mode == "files":
                    self._move_files()
                done = True
                journal.close()
        finally:
            if not done:
                with sigint_deferred():
                    journal.close()

    def _open_journal(self, beside: bool) -> _Journal:
        """The journal beside the output folder (so the folder can be replaced), or inside it when its
        parent is not writable or is another file system (a mount point), or for a single file."""
        out = self.out
        if beside and out.name:
            try:
                out.parent.mkdir(parents=True, exist_ok=True)
                journal = _Journal(out.parent, f".{out.name}")
            except OSError:
                journal = None
            if journal is not None:
                if not out.is_dir() or os.stat(out).st_dev == os.stat(out.parent).st_dev:
                    return journal
                journal.close()
        out.mkdir(parents=True, exist_ok=True)
        return _Journal(out, "")

    def _drop_carried(self) -> None:
        """Undo a carry that could not finish: the new folder holds only the new files again."""
        new = self.journal.new
        keep = set(self.files)
        for folder, dirs, names in os.walk(new, topdown=False):
            for name in names + dirs:
                path = Path(folder) / name
                if path.is_symlink() or not path.is_dir():
                    if path.relative_to(new).as_posix() not in keep:
                        path.unlink()
                elif not any(path.iterdir()):
                    path.rmdir()

    def _swap(self, exists: bool) -> bool:
        """Put the new folder in the output folder's place, the old one where the new one was. False when
        neither an exchange nor a rename of the folder works here (nothing changed then)."""
        out, new, old = self.out, self.journal.new, self.journal.old
        try:
            if not exists:
                try:
                    os.rename(new, out)
                    return True
                except OSError as exc:
                    if exc.errno not in (errno.EEXIST, errno.ENOTEMPTY):
                        raise
            if exchange(new, out):
                holding = new
            else:
                self.journal.write(mode="rename")
                try:
                    os.rename(out, old)
                except OSError as exc:
                    if exc.errno in _CANNOT_RENAME:
                        self.journal.write(mode="files")
                        return False
                    raise
                try:
                    os.rename(new, out)
                except OSError:
                    os.rename(old, out)
                    raise
                holding = old
        except OSError as exc:
            raise OutputError(f"could not put the files in place: {_why(exc)}; {display_path(self.shown)} was "
                              f"not changed") from None
        aside = out.parent / f"{out.name}.pnp-kept-{self.journal.token}"
        kept = _keep_rescued(holding, out, set(self.files) | set(self.stale), aside)
        if kept:    # written into the folder while pnp wrote, where pnp's new files now are
            raise OutputError(f"{display_path(self.shown)} changed while pnp wrote it ({', '.join(kept[:3])}): the "
                              f"new files are in place and the folder as it was is kept as {display_path(aside)}")
        return True

    def _move_files(self) -> None:
        """Put the new files in place one by one, each with one rename (the old one kept as a link until
        the set is in place); undo on failure."""
        out, new, old = self.out, self.journal.new, self.journal.old
        names = list(self.files)
        kept_old, placed = [], []
        try:
            os.mkdir(old, 0o700)
            for name in names + list(self.stale):
                current = out / name
                if os.path.lexists(current):
                    (old / name).parent.mkdir(parents=True, exist_ok=True)
                    if name in self.stale:
                        os.replace(current, old / name)
                    else:
                        _link_or_move(current, old / name)
                    kept_old.append(name)
            for name in names:
                _place(out, new, name)
                placed.append(name)
        except OSError as exc:
            for name in reversed(placed):
                try:
                    os.replace(out / name, new / name)
                except OSError:
                    pass
            for name in reversed(kept_old):
                try:
                    os.replace(old / name, out / name)
                except OSError:
                    pass
            self.journal.write(state="writing")      # rolled back: nothing for the next write to finish
            raise OutputError(f"could not put the files in place: {_why(exc)}; {display_path(self.shown)} was "
                              f"restored as it was") from None


def _link_or_move(current: Path, kept: Path) -> None:
    """Keep the old file at ``kept``: a second link to it (the name in the output folder stays in place
    until the new file replaces it), or moved there where links are not possible."""
    try:
        os.link(current, kept, follow_symlinks=False)
    except OSError:
        os.replace(current, kept)


def _place(out: Path, new: Path, name: str) -> None:
    folder = out
    for part in Path(name).parts[:-1]:
        folder = folder / part
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            raise OSError(errno.ENOTDIR, f"{folder.name} is not a folder")
        folder.mkdir(exist_ok=True)
    os.replace(new / name, out / name)
