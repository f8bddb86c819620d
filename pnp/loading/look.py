"""The game's look: game.yaml's ``look:``, the emblem, cover art and colours of the rulebook's cover, the
designed card backs and the box.

Without it those show the factions' emblems in the factions' colours (a crown when the game has no
factions) on pnp's dark-and-gold palette. ``look:`` gives a game without factions an emblem of its own,
or replaces the factions' emblems where a game wants one sign for itself::

    look:
      emblem: lantern          # an icon: the game's own (icons/lantern.svg) or a built-in one
      art: art/cover.png       # a picture (PNG, JPEG or SVG in the game folder): the cover and the box lid
      palette: {back: "#1d3557", accent: "#e9c46a", paper: "#f1faee", ink: "#1d1d1b"}

Every key is checked where it is written: an unknown icon or a missing picture is an error naming the
closest icon or file.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path

from pnp.paths import data_path, excerpt
from pnp.loading.schema import Field
from pnp.loading.yamlsrc import line_of

#: The colours ``look.palette`` may set, and what each paints.
PALETTE = {
    "back": "the designed card backs' ground and the box lid's",
    "accent": "frames, titles and emblems on the backs and the box; the cover's title and emblem discs",
    "paper": "the box base's parchment and the discs behind the lid's emblems",
    "ink": "text on light grounds: the box base, the cover's subtitle and facts",
}

SCHEMA = {
    "emblem": Field("str", blank=False, doc="an icon: the game's sign on the cover, the designed backs and the box"),
    "art": Field("str", blank=False, doc="a picture in the game folder: the rulebook cover and the box lid"),
    "palette": Field("map", default={}, schema={k: Field("colour", doc=v) for k, v in PALETTE.items()}),
}

PICTURES = (".png", ".jpg", ".jpeg", ".svg")


@dataclass(frozen=True)
class Look:
    """A game's ``look:`` as checked: its emblem (an icon name), cover art (a file in the game folder) and
    the colours it sets (``palette``: (name, colour) pairs, only those given)."""

    emblem: str | None = None
    art: Path | None = None
    palette: tuple = ()

    def colour(self, name: str, default: str) -> str:
        return dict(self.palette).get(name, default)

    def emblems(self, factions, default: str = "crown") -> tuple:
        """The icon names to show: the look's emblem, else every faction's, else ``default``."""
        if self.emblem:
            return (self.emblem,)
        return tuple(f.emblem for f in factions) or (default,)


#: A game without ``look:``.
PLAIN = Look()


def load_look(root: Path, clean: dict | None, raw, icon_set, problems, path) -> Look:
    """``look:`` checked (``clean``: as the schema left it; ``raw``: the mapping with its lines)."""
    if not clean:
        return PLAIN
    emblem = clean.get("emblem")
    if emblem is not None:
        why = icon_set.problem(emblem)
        if why:
            problems.error(path, line_of(raw, "emblem"), None, f"look.emblem: {why}")
            emblem = None
    art = None
    if clean.get("art") is not None:
        art = _picture(root, clean["art"], problems, path, line_of(raw, "art"))
    palette = tuple((k, v) for k, v in (clean.get("palette") or {}).items() if v is not None)
    return Look(emblem, art, palette)


def _picture(root: Path, value: str, problems, path, line) -> Path | None:
    target = data_path(root, value, problems, path, line, None, "look.art")
    if target is None:
        return None
    if target.suffix.lower() not in PICTURES:
        problems.error(path, line, None, f"look.art: {excerpt(value)} is not a PNG, JPEG or SVG file")
        return None
    if not target.is_file():
        known = _pictures_in(root)
        close = difflib.get_close_matches(str(value), known, n=1)
        hint = f"; did you mean '{close[0]}'?" if close else (f"; pictures in the game folder: {', '.join(known[:8])}"
                                                               if known else "")
        problems.error(path, line, None, f"look.art: no file {excerpt(value)} in the game folder{hint}")
        return None
    from pnp.loading.rasters import picture_problems

    for file, at, message in picture_problems(target):
        if at is None:
            problems.error(path, line, None, f"look.art: {excerpt(value)} {message}")
            return None
        problems.error(file, at, None, f"look.art: {message}")
    return target


def _pictures_in(root: Path, most: int = 5000) -> list[str]:
    """The picture files of the game folder (paths relative to it), for a "did you mean": links are not
    followed, and the walk stops after ``most`` entries (a game folder is untrusted input)."""
    found, seen = [], 0
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            seen += 1
            if seen > most:
                return sorted(found)
            if Path(name).suffix.lower() in PICTURES:
                found.append((Path(folder) / name).relative_to(root).as_posix())
    return sorted(found)
