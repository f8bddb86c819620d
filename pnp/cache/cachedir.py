"""Cache folders are pnp's alone: pnp marks the folders it keeps a cache in and touches no other.

A cache folder (the build cache, ``.pnp-cache`` in the output folder or ``--cache DIR``; the lab's games,
``OUT/cache`` or ``pnp lab ... --cache DIR``) holds two marks beside what pnp keeps in it:

* ``CACHEDIR.TAG``, the tag of the Cache Directory Tagging Specification (https://bford.info/cachedir/):
  backup and archiving tools that honour it leave the folder out;
* ``PNP-CACHE.TAG``, pnp's own: a line of JSON saying the folder is pnp's and the format of the mark.

Before a command reads or writes a cache folder it checks that the folder is pnp's (:func:`claim`): a
folder that does not exist yet or is empty becomes pnp's when pnp first writes into it (:func:`make_ours`,
which writes the marks first); one with pnp's mark is pnp's; one laid out as an earlier version of pnp
laid out its cache, before folders were marked (each cache says how to recognise its own: the
``earlier`` argument), is taken over. Anything else (a folder of the user's files, another program's
cache, a file, a symbolic link) is refused with one line, exit status 2: pnp reads nothing from it,
writes nothing into it and deletes nothing in it. Inside a folder of its own, pnp deletes only files
whose names it gives itself, in subfolders of its own.

Files are written whole or not at all (:func:`write_file`: a temporary file beside the target, locked
while it is written, then renamed), and the temporary files a killed process left are removed by the
next one (:func:`remove_stale_temporaries`: only names pnp gives its temporary files, only when no
process holds them). Files are read with :func:`read_regular`: never through a symbolic link, never
waiting on a FIFO or a device, never more than a stated size.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import stat
import time
from pathlib import Path

from pnp.errors import UserError, display_path

try:                    # advisory locks on the temporary files being written (not on Windows)
    import fcntl
except ImportError:     # pragma: no cover
    fcntl = None

#: The Cache Directory Tagging Specification's tag file and the signature its first line starts with.
TAG = "CACHEDIR.TAG"
TAG_SIGNATURE = b"Signature: 8a477f597d28d172789f06886806bc55"
TAG_TEXT = TAG_SIGNATURE + (b"\n# This file is a cache directory tag created by pnp (print-and-play kits).\n"
                            b"# For information about cache directory tags, see https://bford.info/cachedir/\n")
#: pnp's own mark, and what it says.
MARKER = "PNP-CACHE.TAG"
MARK = "pnp cache folder"
MARK_FORMAT = 1
MAX_MARKER_BYTES = 4096
#: A temporary file of :func:`write_file`: ``.NAME.TOKEN.tmp`` beside the file NAME it becomes.
TEMPORARY = re.compile(r"\.(?P<name>[^/]+)\.[0-9a-f]{16}\.tmp\Z")
_MARKS = re.compile(rf"{re.escape(TAG)}|{re.escape(MARKER)}")
#: A temporary file no process holds is removed at once; without advisory locks, when it is this old (s).
STALE_WITHOUT_LOCKS = 3600


class CacheFolderError(UserError):
    """A cache folder pnp may not use: not pnp's (see the module)."""


def marks_or_their_temporaries(name: str) -> bool:
    """Whether ``name`` is one of the two marks or a temporary file of one (a process killed as it marked)."""
    found = TEMPORARY.fullmatch(name)
    return bool(_MARKS.fullmatch(found["name"] if found else name))


def marker_bytes() -> bytes:
    return json.dumps({"mark": MARK, "format": MARK_FORMAT,
                       "about": "a cache folder of pnp: it may be deleted at any time"}).encode() + b"\n"


# ---------------------------------------------------------------------- reading

def read_regular(path, limit: int, size: int | None = None) -> bytes | None:
    """The bytes of ``path`` when it is a regular file (not a symbolic link, FIFO, device or folder) of at
    most ``limit`` bytes (and of exactly ``size`` when given), checked before it is read; else None.
    Opening never waits (a FIFO) and never follows a link in the last part of the path."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit or (size is not None and st.st_size != size):
            return None
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb") as f:
            fd = None
            data = f.read(st.st_size + 1)
        if len(data) != st.st_size:         # it changed while being read
            return None
        return data
    except (OSError, MemoryError, ValueError):
        return None
    finally:
        if fd is not None:
            os.close(fd)


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a file"


def is_marked(folder) -> bool:
    """Whether ``folder`` holds pnp's mark (:data:`MARKER`, of any format: a later pnp's folder is pnp's too)."""
    data = read_regular(Path(folder) / MARKER, MAX_MARKER_BYTES)
    if data is None:
        return False
    try:
        mark = json.loads(data)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return False
    return isinstance(mark, dict) and mark.get("mark") == MARK and type(mark.get("format")) is int


def real_folder(path) -> bool:
    """Whether ``path`` is a folder itself (not a symbolic link to one)."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


# ---------------------------------------------------------------------- whose folder

def state(folder, earlier=None) -> str:
    """``"absent"``, ``"empty"``, ``"ours"`` (marked), ``"earlier"`` (``earlier(folder, names)`` recognises
    an earlier pnp's cache in it), or why the folder is not pnp's (a phrase: "holds files pnp did not put
    there", "is a file", ...)."""
    folder = Path(folder)
    try:
        st = os.lstat(folder)
    except FileNotFoundError:
        return "absent"
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if not stat.S_ISDIR(st.st_mode):
        return f"is {_kind(st.st_mode)}, not a folder"
    try:
        names = os.listdir(folder)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if not names:
        return "empty"
    if is_marked(folder):
        return "ours"
    if earlier is not None and earlier(folder, names):
        return "earlier"
    return "holds files pnp did not put there"


def refusal(folder, why: str, option: str | None) -> str:
    """The one line that refuses a cache folder."""
    shown = display_path(Path(folder))
    told = f"{option} {shown}" if option else shown
    return (f"{told}: this folder {why}; pnp keeps a cache only in an empty folder or one it made "
            f"(marked with {MARKER}). Name a new or empty folder with --cache DIR, or use --no-cache")


def claim(folder, option: str | None = "--cache", earlier=None, subfolders=()) -> None:
    """Refuse (:class:`CacheFolderError`, one line) a cache folder that is not pnp's (see the module), or
    whose ``subfolders`` (pnp's own, inside it) are not plain folders. Nothing is written: the folder is
    made and marked only when pnp first writes into it (:func:`make_ours`)."""
    found = state(folder, earlier)
    if found not in ("absent", "empty", "ours", "earlier"):
        raise CacheFolderError(refusal(folder, found, option))
    if found in ("ours", "earlier"):
        for sub in subfolders:
            path = Path(folder) / sub
            if os.path.lexists(path) and not real_folder(path):
                raise CacheFolderError(refusal(folder, f"holds {sub}, which is not a folder pnp made", option))


def make_ours(folder, earlier=None, forget_earlier=None) -> bool:
    """Make ``folder`` ready to be written into: made and marked when absent or empty, taken over when it
    is an earlier pnp's cache (``forget_earlier(folder)`` removes what that pnp kept; then it is marked),
    kept when marked. False (nothing done) when it is not pnp's: it may have changed since :func:`claim`."""
    folder = Path(folder)
    found = state(folder, earlier)
    if found == "ours":
        _put(folder / TAG, TAG_TEXT)
        remove_stale_temporaries(folder, _MARKS)
        return True
    if found not in ("absent", "empty", "earlier"):
        return False
    if found == "absent":
        folder.mkdir(parents=True, exist_ok=True)
        if not real_folder(folder):
            return False
    if found == "earlier" and forget_earlier is not None:
        forget_earlier(folder)          # first: killed meanwhile, the folder is still recognised next time
    _put(folder / TAG, TAG_TEXT)
    _put(folder / MARKER, marker_bytes())
    remove_stale_temporaries(folder, _MARKS)
    return True


def subfolder(folder, *parts) -> Path | None:
    """``folder/parts...``, each part made when missing; None when one is not a plain folder (a link, a file)."""
    path = Path(folder)
    for part in parts:
        path = path / part
        try:
            os.mkdir(path)
        except FileExistsError:
            pass
        except OSError:
            return None
        if not real_folder(path):
            return None
    return path


# ---------------------------------------------------------------------- writing and removing

def _put(path: Path, data: bytes) -> None:
    if read_regular(path, len(data)) != data:
        write_file(path, data)


def write_file(target, data: bytes) -> None:
    """Write ``target`` whole or not at all: a temporary file beside it (``.NAME.TOKEN.tmp``, locked while
    it is written so that :func:`remove_stale_temporaries` leaves it alone), renamed over it. Whatever
    ``target`` was (a damaged file, a link, a FIFO) its name then holds ``data``; nothing it led to is touched."""
    target = Path(target)
    tmp = target.with_name(f".{target.name}.{secrets.token_hex(8)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    try:
        with os.fdopen(fd, "wb") as f:
            if fcntl is not None:
                fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            f.write(data)
            f.flush()
            os.replace(tmp, target)         # before the lock is let go
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def remove_stale_temporaries(folder, names=None) -> int:
    """Remove the temporary files of :func:`write_file` in ``folder`` that no process is writing (one killed
    while it wrote them): only names of that form (whose file name ``names``, a pattern, matches when
    given), only regular files. Returns how many were removed."""
    removed = 0
    try:
        with os.scandir(folder) as it:
            found = [e for e in it if TEMPORARY.match(e.name)
                     and (names is None or names.fullmatch(TEMPORARY.match(e.name)["name"]))]
    except OSError:
        return 0
    for entry in found:
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            if _abandoned(entry.path):
                os.unlink(entry.path)
                removed += 1
        except OSError:
            continue
    return removed


def _abandoned(path: str) -> bool:
    if fcntl is None:
        try:
            return time.time() - os.lstat(path).st_mtime > STALE_WITHOUT_LOCKS
        except OSError:
            return False
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True             # no writer holds it: its process is gone (a lock goes with its holder)
    except OSError:             # held (EWOULDBLOCK): a running process is writing it
        return False
    finally:
        os.close(fd)


def remove_file(path) -> int:
    """Remove ``path`` when it is a regular file (never a link's target, never a folder); its size, or 0."""
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode):
            return 0
        os.unlink(path)
        return st.st_size
    except OSError:
        return 0


# ---------------------------------------------------------------------- the user's cache folder

def user_cache_dir() -> Path | None:
    """The folder of pnp's files that belong to no output folder (``pnp validate``'s kept checks, ``pnp
    preview``'s pictures), so those commands write nothing into the folder they run in unless asked:
    ``$XDG_CACHE_HOME/pnp`` when that is set (an absolute path, as the XDG Base Directory Specification
    says), else the system's: ``~/.cache/pnp`` (Linux and others), ``~/Library/Caches/pnp`` (macOS),
    ``%LOCALAPPDATA%\\pnp\\Cache`` (Windows). None when there is no home folder to put it in."""
    import sys

    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "pnp"
    if sys.platform == "win32" and os.path.isabs(os.environ.get("LOCALAPPDATA", "")):
        return Path(os.environ["LOCALAPPDATA"]) / "pnp" / "Cache"
    try:
        home = Path.home()
    except (RuntimeError, KeyError, OSError):
        return None
    if not home.is_absolute():
        return None
    return home / ("Library/Caches" if sys.platform == "darwin" else ".cache") / "pnp"
