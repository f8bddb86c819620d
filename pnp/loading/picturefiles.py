"""The picture files a game's data names (card art, backs, covers, a standee's figures): inside the game
folder, a PNG, JPEG or SVG file that exists and can be drawn, or a problem at the line that names it.

A PNG's or JPEG's problems are :mod:`pnp.loading.rasters`'s, an SVG's :mod:`pnp.loading.svg`'s (at the
SVG's own lines); a name that matches no file gets the closest picture of the folder as its "did you
mean" (:func:`pictures_in`: a bounded walk that follows no link).
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from pnp.cache.memo import reads_files
from pnp.loading.rasters import check_picture
from pnp.loading.svg import check_svg
from pnp.loading.paths import data_path, excerpt
from pnp.suggest import closest


def picture_problems(target: Path) -> list[tuple]:
    """What is wrong with a picture file of the game folder (PNG, JPEG or SVG, by its suffix), as
    ``(file, line, message)``: an SVG's own problems are at its own lines, a PNG's or JPEG's at the
    file (line None). Empty when it can be drawn."""
    if target.suffix.lower() == ".svg":
        return [(target, line, message) for line, message in check_svg(target).problems]
    why, _ = check_picture(target)
    return [(target, None, why)] if why else []


#: The suffixes of the pictures a game folder may name (art, covers).
PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")


def picture_file(root: Path, value: str, problems, path, line, subject, where: str) -> Path | None:
    """The picture ``value`` names (``where``: its key, e.g. ``art``), checked: inside the game folder, a PNG,
    JPEG or SVG file that exists (else the closest picture of the folder is named) and is a usable one; or
    None, each problem reported at ``path:line``."""
    target = data_path(root, value, problems, path, line, subject, where)
    if target is None:
        return None
    if target.suffix.lower() not in PICTURE_SUFFIXES:
        problems.error(path, line, subject, f"{where}: {excerpt(value)} is not a PNG, JPEG or SVG file")
        return None
    if not target.is_file():
        known = pictures_in(Path(root).resolve())
        close = closest(value, known)
        hint = (f"; did you mean '{close}'?" if close
                else f"; pictures in the game folder: {', '.join(known[:8])}" if known else "")
        problems.error(path, line, subject, f"{where}: no file {excerpt(value)} in the game folder{hint}")
        return None
    for file, at, message in picture_problems(target):
        if at is None:                      # a PNG or JPEG: at the line naming it
            problems.error(path, line, subject, f"{where}: {excerpt(value)} {message}")
            return None
        problems.error(file, at, subject, f"{where}: {message}")
    return target


def pictures_in(root: Path, most: int = 5000) -> list[str]:
    """The picture files of the game folder (paths relative to it), for a "did you mean"."""
    return files_in(root, PICTURE_SUFFIXES, most)


@reads_files
@lru_cache(maxsize=8)
def files_in(root: Path, suffixes: tuple, most: int = 5000) -> list[str]:
    """The files of the game folder whose names end with one of ``suffixes`` (paths relative to it), for a
    "did you mean": links are not followed, and the walk stops after ``most`` entries (a game folder is
    untrusted input)."""
    found, seen = [], 0
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            seen += 1
            if seen > most:
                return sorted(found)
            if Path(name).suffix.lower() in suffixes:
                found.append((Path(folder) / name).relative_to(root).as_posix())
    return sorted(found)
