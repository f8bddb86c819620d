"""Writing a set of output files: all of them or none, and nothing outside the output folder.

:func:`write_atomically` is the one place pnp writes its results (kit PDFs, exported images,
previews):

1. every name is checked to be a plain file name (:func:`pnp.paths.output_path`), so no data value can
   make pnp write elsewhere;
2. the files are written to a temporary folder next to the output folder (on the same file system, so
   moving is instant and cannot half-fail for lack of space); a failure here (disk full, read-only
   file system) leaves the output folder untouched;
3. every place a file goes is checked (a folder in the way, say) before anything moves;
4. the old files are moved aside, the new ones into place, and the old ones deleted. Should a move fail
   anyway, everything moved so far is moved back: the previous set is what the folder holds.

With ``record``, the names written are kept in that (hidden) file of the output folder, and the next
write of the same set removes the files it made before that it no longer makes (an export after a
card was removed leaves no stale image behind). Files pnp did not write are never touched.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import tempfile
from pathlib import Path

from pnp.errors import UserError, display_path
from pnp.paths import output_path

STAGING_PREFIX = ".pnp-"


class OutputError(UserError):
    """The output could not be written; the output folder is as it was."""


def _why(exc: OSError) -> str:
    if exc.errno == errno.ENOSPC:
        return "no space left on the device"
    if exc.errno in (errno.EROFS,):
        return "the file system is read-only"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    return exc.strerror or str(exc)


def _staging_dir(out: Path, kind: str) -> Path:
    """A new temporary folder beside ``out`` (inside it when the parent is not writable or is on another
    file system), so files move into place with a rename."""
    parent = out.absolute().parent
    try:
        path = Path(tempfile.mkdtemp(prefix=f".{out.name or 'out'}{STAGING_PREFIX}{kind}-", dir=parent))
    except OSError:
        path = None
    if path is not None and out.is_dir() and os.stat(path).st_dev != os.stat(out).st_dev:
        path.rmdir()
        path = None
    if path is None:
        out.mkdir(parents=True, exist_ok=True)
        path = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{kind}-", dir=out))
    return path


def _previous(out: Path, record: str | None) -> list[str]:
    """The names listed in the record of an earlier write (plain names only; a broken record is ignored)."""
    if record is None:
        return []
    try:
        names = json.loads((out / record).read_text(encoding="utf-8")).get("files", [])
    except (OSError, ValueError, AttributeError):
        return []
    result = []
    for name in names if isinstance(names, list) else []:
        try:
            output_path(out, name)
        except (UserError, TypeError):
            continue
        result.append(name)
    return result


def write_atomically(out_dir, files: dict, record: str | None = None) -> list[Path]:
    """Write every file of ``files`` (name -> bytes) into ``out_dir``, or none of them; see the module.

    Returns the written paths in the order given. Raises :class:`OutputError` when the set cannot be
    written; the output folder then holds what it held before.
    """
    out = Path(out_dir)
    targets = [output_path(out, name) for name in files]
    if record is not None:
        output_path(out, record.lstrip("."))       # the record's name is pnp's own, but check it all the same
    if out.exists() and not out.is_dir():
        raise OutputError(f"{display_path(out)} is not a folder; give --out a folder")
    try:
        staging = _staging_dir(out, "new")
    except OSError as exc:
        raise OutputError(f"cannot write to {display_path(out)}: {_why(exc)}") from None
    backup = None
    try:
        try:
            for name, data in files.items():
                (staging / name).parent.mkdir(parents=True, exist_ok=True)
                (staging / name).write_bytes(data)
            if record is not None:
                (staging / record).write_text(json.dumps({"files": list(files)}, indent=1) + "\n", encoding="utf-8")
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"could not write the files: {_why(exc)}; {display_path(out)} was not changed") \
                from None
        stale = [n for n in _previous(out, record) if n not in files and (out / n).is_file()]
        for path in targets:
            if path.is_dir() and not path.is_symlink():
                raise OutputError(f"{display_path(path)} is a folder, where pnp must write a file; move it away "
                                  f"(nothing was written)")
        names = list(files) + ([record] if record is not None else [])
        backup = _staging_dir(out, "old")
        _swap(out, staging, backup, names, stale)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        if backup is not None:
            shutil.rmtree(backup, ignore_errors=True)
    return targets


def _swap(out: Path, staging: Path, backup: Path, names: list, stale: list) -> None:
    """Move the old files to ``backup`` and the new ones from ``staging`` into ``out``; undo on failure."""
    moved_aside, placed = [], []
    try:
        for name in names + stale:
            current = out / name
            if current.exists() or current.is_symlink():
                (backup / name).parent.mkdir(parents=True, exist_ok=True)
                os.replace(current, backup / name)
                moved_aside.append(name)
        for name in names:
            folder = out
            for part in Path(name).parts[:-1]:      # a deck's folder (and a print service's fronts/)
                folder = folder / part
                if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
                    raise OSError(errno.ENOTDIR, f"{folder.name} is not a folder")
                folder.mkdir(exist_ok=True)
            os.replace(staging / name, out / name)
            placed.append(name)
    except OSError as exc:
        for name in reversed(placed):
            try:
                os.replace(out / name, staging / name)
            except OSError:
                pass
        for name in reversed(moved_aside):
            try:
                os.replace(backup / name, out / name)
            except OSError:
                pass
        raise OutputError(f"could not put the files in place: {_why(exc)}; {display_path(out)} was restored "
                          f"as it was") from None
