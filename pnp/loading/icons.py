"""A game's icons: its own SVG files (``icons/<name>.svg``), the names game.yaml gives icons
(``icons: {power: {icon: heater, colour: "#34495e"}}``), then pnp's built-in vector icons.

Every place that names an icon (a faction's emblem, a field's badge, a token face, ``[name]`` in any
printed text, backs) resolves the name here, game first. :meth:`IconSet.problems_for` says what is
wrong with a name, so validation reports an unknown icon with its file and line instead of a build
failing. Pure data: no reportlab (drawing is :mod:`pnp.draw.icons`).
"""

from __future__ import annotations

import functools

import re
from dataclasses import dataclass
from pathlib import Path

from pnp.errors import Problems
from pnp.suggest import closest
from pnp.text.icon_names import ICON_NAMES
from pnp.loading.paths import check_inside, excerpt
from pnp.renames import icon_hint
from pnp.loading.schema import Field, check
from pnp.loading.svg import check_svg
from pnp.loading.yamlsrc import line_of

#: An icon's name: what ``[name]`` in text can write (lower case letters, digits, '_' and '-').
ICON_NAME = re.compile(r"[a-z][a-z0-9_-]{0,39}")
ALIAS_SCHEMA = {
    "icon": Field("str", required=True, doc="the icon it draws: one of the game's or a built-in one"),
    "colour": Field("colour", nullable=True, doc="its colour (built-in icons); an SVG keeps its own unless given"),
}


@dataclass(frozen=True)
class IconRef:
    """What a name draws: a built-in icon or an SVG file, and the colour the data gives it (or None)."""

    kind: str                # "builtin" or "svg"
    target: str              # built-in icon name, or the SVG file's path
    colour: str | None = None
    aspect: float = 1.0      # width / height


@dataclass(frozen=True)
class IconSet:
    """The icons a game can name: its own SVG files and game.yaml's aliases, on top of pnp's built-in ones."""

    files: tuple = ()        # (name, path, aspect) of the game's icons/*.svg
    aliases: tuple = ()      # (name, target name, colour or None)

    @functools.cached_property
    def own_names(self) -> frozenset:
        """The game's own icons: its SVG files and game.yaml's names (a "did you mean" names them first).
        (Made once per set, as :attr:`names`: ``name in icons`` made both at each look-up, per text of
        every card.)"""
        return frozenset({n for n, _, _ in self.files} | {n for n, _, _ in self.aliases})

    @functools.cached_property
    def names(self) -> frozenset:
        return ICON_NAMES | self.own_names

    def __contains__(self, name) -> bool:
        return name in self.names

    def resolve(self, name: str, _depth: int = 0) -> IconRef | None:
        """The icon ``name`` draws (game icons first), or None for an unknown name."""
        for alias, target, colour in self.aliases:
            if alias == name and _depth < 4:
                ref = self.resolve(target, _depth + 1) if target != name else self._own(name)
                if ref is None:
                    return None
                return IconRef(ref.kind, ref.target, colour or ref.colour, ref.aspect)
        return self._own(name)

    def _own(self, name: str) -> IconRef | None:
        for own, path, aspect in self.files:
            if own == name:
                return IconRef("svg", path, None, aspect)
        if name in ICON_NAMES:
            return IconRef("builtin", name)
        return None

    def aspect(self, name: str) -> float:
        ref = self.resolve(name)
        return ref.aspect if ref else 1.0

    def problem(self, name) -> str | None:
        """Why ``name`` is not a usable icon, or None."""
        if isinstance(name, str) and self.resolve(name) is not None:
            return None
        renamed = icon_hint(name, self.names)
        if renamed:
            return f"unknown icon {excerpt(name)}: {renamed}"
        close = closest(name, self.names, builtin=ICON_NAMES - self.own_names) if isinstance(name, str) else None
        if close:
            return f"unknown icon {excerpt(name)}; did you mean '{close}'?"
        return f"unknown icon {excerpt(name)}; known icons: {', '.join(sorted(self.names))}"


#: The built-in icons alone (a game without icons/ and without icons: in game.yaml).
BUILTIN = IconSet()


def load_icons(root: Path, raw_aliases, problems: Problems, game_path) -> IconSet:
    """The game's icon set: ``icons/*.svg`` (each checked) and game.yaml's ``icons:`` names."""
    files = []
    folder = root / "icons"
    if folder.is_dir() and not check_inside(root, folder):
        for path in sorted(folder.glob("*.svg")):
            name = path.stem
            if not ICON_NAME.fullmatch(name):
                problems.error(path, None, "icon", f"the file name {excerpt(name)} is not an icon name (lower case "
                                                   f"letters, digits, '_' and '-', starting with a letter)")
                continue
            why = check_inside(root, path)
            if why:
                problems.error(path, None, f"icon '{name}'", why)
                continue
            info = check_svg(path)
            for line, message in info.problems:
                problems.error(path, line, f"icon '{name}'", message)
            if not info.problems:
                files.append((name, str(path), info.aspect))
    aliases = []
    if isinstance(raw_aliases, dict):
        for name, value in raw_aliases.items():
            line = line_of(raw_aliases, name)
            if not isinstance(name, str) or not ICON_NAME.fullmatch(name):
                problems.error(game_path, line, None, f"icons: {excerpt(name)} is not an icon name (lower case "
                                                      f"letters, digits, '_' and '-')")
                continue
            if isinstance(value, str):
                value = {"icon": value}
            clean = check(value, ALIAS_SCHEMA, problems, game_path, prefix=f"icons.{name}")
            if "icon" in clean:
                aliases.append((name, clean["icon"], clean.get("colour")))
    elif raw_aliases is not None:
        problems.error(game_path, getattr(raw_aliases, "line", None), None,
                       "icons: expected a mapping of names to icons")
    icon_set = IconSet(tuple(files), tuple(aliases))
    for name, target, _ in aliases:
        if icon_set.resolve(name) is None:
            problems.error(game_path, line_of(raw_aliases, name), None, f"icons.{name}: {icon_set.problem(target)}")
    return icon_set
