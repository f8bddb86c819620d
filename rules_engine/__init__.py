"""Rules engines for the games pnp builds. Pure Python: no drawing code, nothing from ``pnp``.

Each game with rules has a subpackage (``rules_engine.shadow_throne``) exposing ``EFFECTS`` (the
effect kinds its cards may name, with their parameters) and the functions that play it.
"""

import importlib


def engine_module(name: str):
    """The engine subpackage for a game, e.g. ``engine_module('shadow_throne')``."""
    return importlib.import_module(f"rules_engine.{name}")
