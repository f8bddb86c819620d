"""The registry of kit components. A game's ``components`` list in game.yaml names which it has.

A component turns a game into one or more output files (each a list of layout pages) and may add its
own checks to ``pnp validate`` (for instance: text that does not fit its box).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Callable

from pnp.units import PAPERS


@dataclass(frozen=True)
class BuildOptions:
    paper: str = "letter"
    flip: str = "long"
    lang: str | None = None
    sleeved: str | None = None       # None, or a sleeve thickness name from the game's box data
    booklet_flip: str = "short"      # duplex edge for the imposed rulebook (landscape sheets)
    thorough: bool = True            # checks that play simulated games (validate: yes; build: no)
    bleed: float = 0.0               # mm of art past the trim line, with crop marks (print shops)
    back_offset: tuple = (0.0, 0.0)  # mm shift of card back pages, to correct duplex drift
    ink_saver: bool = False          # large colour fills become light tints with outlines
    players: int | None = None       # build the deck for this many players (None: the full deck)

    @property
    def page_size(self) -> tuple[float, float]:
        return PAPERS[self.paper]


@dataclass
class Output:
    """One file of the kit: layout pages to paint, or a PDF already made (e.g. by platypus)."""

    filename: str
    title: str                       # outline entry in kit.pdf
    pages: list = field(default_factory=list)
    pdf: bytes | None = None
    in_kit: bool = True              # False for screen-only files (e.g. the rulebook in reading order)


@dataclass(frozen=True)
class KitEntry:
    """Where one file sits in kit.pdf (1-based pages), for pages that describe the kit."""

    filename: str
    title: str
    first: int
    last: int


@dataclass(frozen=True)
class Component:
    name: str
    build: Callable                  # (game, options) -> list[Output]; or, with needs_kit,
                                     # (game, options, entries: list[KitEntry]) -> list[Output]
    check: Callable | None = None    # (game, problems, options) -> None; runs when the data has no errors
    check_files: Callable | None = None  # (game, problems) -> None: its own files' problems, on every validate
    order: int = 50                  # position in the kit
    needs_kit: bool = False          # built last, knowing every other file's place in the kit


REGISTRY: dict[str, Component] = {}

_MODULES = ("instructions", "track", "cards", "tokens", "rulebook", "box")


def register(component: Component) -> Component:
    REGISTRY[component.name] = component
    return component


def load_all() -> dict[str, Component]:
    for name in _MODULES:
        try:
            importlib.import_module(f"pnp.components.{name}")
        except ModuleNotFoundError as exc:  # a component still being written
            if exc.name != f"pnp.components.{name}":
                raise
    return REGISTRY


def game_components(game) -> list[Component]:
    """The game's components in kit order."""
    registry = load_all()
    return sorted((registry[name] for name in game.components if name in registry), key=lambda c: c.order)
