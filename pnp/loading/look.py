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

from dataclasses import dataclass
from pathlib import Path

from pnp.loading.picturefiles import picture_file
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
        art = picture_file(root, clean["art"], problems, path, line_of(raw, "art"), None, "look.art")
    palette = tuple((k, v) for k, v in (clean.get("palette") or {}).items() if v is not None)
    return Look(emblem, art, palette)
