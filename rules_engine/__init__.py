"""Rules engines for the games pnp builds. Pure Python: no drawing code, nothing from ``pnp``.

An engine is a Python module that exports the engine protocol listed in :mod:`rules_engine.protocol`
(its effect kinds ``EFFECTS``, the validate hook, scenarios, bots, simulation and transcripts). A game
names it by ``engine:`` in its game.yaml, and the name is looked up among the **installed** engines:
the entry points of the group ``pnp.engines`` (``NAME = "package.module"``). The bundled engines
(``rules_engine.<name>``) register the same way in pnp's pyproject.toml; an engine of one's own is a
separately installed package with such an entry point. A game folder therefore cannot bring code:
it can only name an engine the user installed.

``pnp`` reaches an engine only through :func:`engine_module` and the protocol's names, so no command
names a game.
"""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path

#: The entry-point group engines register in.
GROUP = "pnp.engines"

#: pnp's own pyproject.toml, when running from a source checkout (not installed).
_CHECKOUT_PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


class UnknownEngine(LookupError):
    """No installed engine has that name; ``known`` lists the names that are installed."""

    def __init__(self, name: str, known: list[str]):
        super().__init__(name)
        self.name = name
        self.known = known


@cache
def bundled_engines() -> dict[str, str]:
    """Engines registered by pnp's own pyproject.toml: name -> module (read from the checkout, so the
    bundled games play from a source tree whose package metadata is missing or out of date)."""
    try:
        import tomllib      # only here: most games' engines are found without it on an installed pnp

        with open(_CHECKOUT_PYPROJECT, "rb") as f:
            project = tomllib.load(f).get("project", {})
    except (OSError, ValueError):
        return {}
    if project.get("name") != "pnp":
        return {}
    table = project.get("entry-points", {}).get(GROUP, {})
    return {name: str(value) for name, value in table.items()}


@cache
def installed_engines() -> dict[str, str]:
    """Every engine that can be named: name -> module, the bundled ones first, then those of the
    ``pnp.engines`` entry points of installed distributions (a name already taken is skipped)."""
    from importlib.metadata import entry_points

    found = dict(bundled_engines())
    for point in sorted(entry_points(group=GROUP), key=lambda p: (p.name, p.value)):
        found.setdefault(point.name, point.value)
    return found


def engine_target(name: str) -> str:
    """What an engine name stands for, ``package.module`` (or ``package.module:object``); the bundled
    table answers for the bundled games without reading every installed package's metadata."""
    target = bundled_engines().get(name) or installed_engines().get(name)
    if target is None:
        raise UnknownEngine(name, sorted(installed_engines()))
    return target


def engine_module(name: str):
    """The engine a game names (``engine_module(game.engine)``): the module its entry point names (or
    the object, for ``module:object``). :class:`UnknownEngine` when no installed engine has that name;
    an engine that fails to import raises what its import raised."""
    module, _, attr = engine_target(name).partition(":")
    found = importlib.import_module(module.strip())
    for part in filter(None, attr.strip().split(".")):
        found = getattr(found, part)
    return found
