"""Rules engines for the games pnp builds. Pure Python: no drawing code, nothing from ``pnp``.

Each game with rules has a subpackage (``rules_engine.<name>``, named by ``engine:`` in its game.yaml)
that exports the engine protocol listed in :mod:`rules_engine.protocol`: its effect kinds
(``EFFECTS``), the validate hook, scenarios, bots, simulation and transcripts. ``pnp`` reaches an engine
only through :func:`engine_module` and those names, so no command names a game.
"""

import importlib


def engine_module(name: str):
    """The engine subpackage for a game, e.g. ``engine_module(game.engine)``."""
    return importlib.import_module(f"rules_engine.{name}")
