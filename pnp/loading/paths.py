"""Paths and names that come from untrusted data, kept where they belong.

A game folder is untrusted input. Everything here turns a value from its data into a path or a file
name only after checking it, and says what is wrong as a short message (callers add file and line):

* :func:`resolve_in` / :func:`data_path`: a path written in the data (a scenario, later art, icons,
  templates) resolves inside the game folder: no absolute path, no ``..``, no link that leads out;
* :func:`check_inside`: a file pnp opens itself (``box.yaml``...) is not a link that leads out of the
  game folder;
* :data:`SAFE_NAME` / :func:`name_problem`: an id or name that becomes part of a file name (card ids in
  exported images, template and chapter names, languages) is a plain word;
* :func:`portability_problem` / :func:`case_twins`: names that Windows cannot make (``CON``, a trailing
  dot) and names that differ only in case (one file on Windows and macOS);
* :func:`output_path`: every file written stays directly inside the output folder;
* :func:`excerpt`: a value quoted in a message is cut short, so a message never prints a whole file.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path, PurePosixPath, PureWindowsPath

from pnp.errors import UserError

#: Ids and names used in file names: a letter or digit, then letters, digits, '-' or '_' (64 at most).
SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
SAFE_NAME_TEXT = "letters, digits, '-' and '_', starting with a letter or digit, at most 64"
#: Language codes (``en``, ``es``, ``pt-BR``, ``zh_Hant``): they name files and folders too.
LANGUAGE = re.compile(r"[a-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})?")
#: Python package names (rules engines are imported by name).
PACKAGE = re.compile(r"[a-z_][a-z0-9_]{0,63}")

#: Names Windows keeps for devices, whatever the case and whatever follows a dot (``con.png``, ``Nul.txt``):
#: no file or folder can be called so there.
WINDOWS_RESERVED = frozenset(["con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)),
                              *(f"lpt{i}" for i in range(1, 10))])

EXCERPT = 40
#: Longest path the data may write (characters), and longest name of one folder or file in it (bytes,
#: the limit of most file systems).
MAX_PATH = 1024
MAX_NAME_BYTES = 255


def excerpt(value, limit: int = EXCERPT) -> str:
    """``repr(value)`` cut to about ``limit`` characters: enough to recognise, never a whole file."""
    text = repr(value) if not isinstance(value, str) else repr(value)
    if len(text) <= limit:
        return text
    return text[: limit - 1] + "\u2026" + (text[0] if text[0] in "'\"" else "")


def name_problem(value, what: str = "id", pattern: re.Pattern = SAFE_NAME, rule: str = SAFE_NAME_TEXT) -> str | None:
    """Why ``value`` cannot be used as a ``what`` that names files, or None when it can."""
    if isinstance(value, str) and pattern.fullmatch(value):
        return None
    return f"{excerpt(value)} is not a usable {what} ({rule})"


def portability_problem(name: str) -> str | None:
    """Why a file or folder called ``name`` cannot be made on Windows (a device name such as ``CON``; a
    name that ends in a dot or a space, which Windows drops), or None."""
    if name.split(".", 1)[0].rstrip(" ").lower() in WINDOWS_RESERVED:
        return f"{excerpt(name)} is a device name on Windows (CON, PRN, AUX, NUL, COM1-9, LPT1-9): no file or folder " \
               f"can have it there"
    if name not in (".", "..") and name.endswith((".", " ")):
        return f"{excerpt(name)} ends in {'a dot' if name.endswith('.') else 'a space'}, which Windows drops from " \
               f"file names"
    return None


def case_twins(names) -> dict:
    """Of ``names`` (in order), each one that differs from an earlier one only in case -> that earlier one:
    their files would be one file on Windows and macOS, whose file systems ignore case."""
    first, twins = {}, {}
    for name in names:
        other = first.setdefault(name.casefold(), name)
        if other != name:
            twins[name] = other
    return twins


def check_language(lang: str | None) -> None:
    """Refuse a language code that is not one (``--lang``): it names files."""
    if lang is not None and not LANGUAGE.fullmatch(lang):
        raise UserError(f"--lang {excerpt(lang)}: expected a language code such as en, es or pt-BR")


class OutsidePath(ValueError):
    """A path from data that does not stay inside its folder; the message says why."""


def resolve_in(root: str | os.PathLike, value: str) -> Path:
    """The file or folder ``value`` (a relative path written in data, ``/`` separated) inside ``root``.

    Raises :class:`OutsidePath` for an absolute path, a drive, ``..``, a backslash, or a symbolic link
    anywhere on the way that leads out of ``root``. The path need not exist.
    """
    if not isinstance(value, str) or not value.strip():
        raise OutsidePath(f"expected a path relative to the game folder, got {excerpt(value)}")
    if "\0" in value:
        raise OutsidePath(f"{excerpt(value)} contains a NUL character")
    if "\\" in value or PureWindowsPath(value).drive:
        raise OutsidePath(f"{excerpt(value)}: write paths with '/', relative to the game folder")
    pure = PurePosixPath(value)
    if len(value) > MAX_PATH:
        raise OutsidePath(f"{excerpt(value)} is longer than {MAX_PATH} characters")
    if any(len(part.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES for part in pure.parts):
        raise OutsidePath(f"{excerpt(value)} has a folder or file name longer than {MAX_NAME_BYTES} bytes")
    if pure.is_absolute():
        raise OutsidePath(f"{excerpt(value)} is an absolute path; give a path inside the game folder")
    if ".." in pure.parts:
        raise OutsidePath(f"{excerpt(value)} leaves the game folder ('..'); give a path inside it")
    for part in pure.parts:
        why = portability_problem(part)
        if why:                 # a game folder shared from Linux must open on Windows too
            raise OutsidePath(f"{excerpt(value)}: {why}")
    base = Path(root)
    target = base.joinpath(*pure.parts)
    real_root = Path(os.path.realpath(base))
    if not Path(os.path.realpath(target)).is_relative_to(real_root):
        raise OutsidePath(f"{excerpt(value)} is a link that leads outside the game folder")
    return target


def check_inside(root: str | os.PathLike, path: str | os.PathLike) -> str | None:
    """Why ``path`` (a file pnp opens in the game folder ``root``) must not be read, or None.

    A symbolic link is fine as long as it stays inside the folder.
    """
    real_root = Path(os.path.realpath(root))
    if not Path(os.path.realpath(path)).is_relative_to(real_root):
        return "is a link that leads outside the game folder; pnp reads only files inside it"
    return None


class NotRegularFile(OSError):
    """A path that names a FIFO, a device or a socket: reading it could wait forever or never end."""


def open_regular(path: str | os.PathLike):
    """``path`` opened for reading in binary, after checking (on the open file) that it is a regular
    file; :class:`NotRegularFile` otherwise. Opening does not wait for a FIFO's writer."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "is a folder, not a file")
        if not stat.S_ISREG(mode):
            kind = "a FIFO" if stat.S_ISFIFO(mode) else \
                "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) \
                else "not a file"
            raise NotRegularFile(f"is {kind}, not a regular file; pnp reads only regular files")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def data_path(root, value, problems, path, line, subject, where: str) -> Path | None:
    """:func:`resolve_in` reporting a problem (``where: why``) at ``path:line`` instead of raising."""
    try:
        return resolve_in(root, value)
    except OutsidePath as exc:
        problems.error(path, line, subject, f"{where}: {exc}")
        return None


def output_path(out_dir: str | os.PathLike, name: str) -> Path:
    """``out_dir / name`` after checking that ``name`` is a plain file name, or ``folder/file`` or
    ``folder/folder/file`` with plain folder names (one folder per deck in exports, and a print service's
    ``<deck>/fronts/``): the file stays in ``out_dir``. Names starting with ``.pnp-`` are pnp's own
    (temporary folders, records).

    Raises UserError otherwise (names come from checked ids, so this is a last line of defence).
    """
    pure = PurePosixPath(name)
    folder_ok = 2 <= len(pure.parts) <= 3 and all(SAFE_NAME.fullmatch(p) is not None for p in pure.parts[:-1])
    if (not name or "\0" in name or "\\" in name or not (len(pure.parts) == 1 or folder_ok)
            or any(p in (".", "..") for p in pure.parts) or pure.is_absolute() or pure.parts[-1].startswith(".pnp-")
            or name.startswith(".pnp-")):
        raise UserError(f"refusing to write {excerpt(name)}: not a plain file name inside the output folder")
    return Path(out_dir) / name
