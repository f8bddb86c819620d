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

An engine's import is kept at arm's length: it runs on a thread of its own, and one that raises, exits
(``SystemExit``) or takes longer than :data:`IMPORT_SECONDS` (``PNP_ENGINE_IMPORT_SECONDS``) raises
:class:`EngineImportError` naming the entry point and its module, at once and every time it is asked
for again in the same process.
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
from functools import cache
from pathlib import Path

#: The entry-point group engines register in.
GROUP = "pnp.engines"
#: Seconds an engine's import may take, unless the environment variable :data:`IMPORT_SECONDS_VARIABLE`
#: gives another number.
IMPORT_SECONDS = 30.0
IMPORT_SECONDS_VARIABLE = "PNP_ENGINE_IMPORT_SECONDS"

#: pnp's own pyproject.toml, when running from a source checkout (not installed).
_CHECKOUT_PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


class EngineImportError(Exception):
    """An installed engine that could not be imported: its import raised, exited or took too long. The
    message names the entry point and its module: ``the rules engine 'x' (package.module) cannot be
    imported: ...``; ``why`` is the part after the colon."""

    def __init__(self, name: str, target: str, why: str):
        super().__init__(f"the rules engine '{name}' ({target}) cannot be imported: {why}")
        self.name, self.target, self.why = name, target, why


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


def import_seconds() -> float:
    """The seconds an engine's import may take: ``PNP_ENGINE_IMPORT_SECONDS`` when set (a number from
    0.1 to 3600; ValueError saying so otherwise), else :data:`IMPORT_SECONDS`."""
    value = os.environ.get(IMPORT_SECONDS_VARIABLE, "").strip()
    if not value:
        return IMPORT_SECONDS
    try:
        seconds = float(value)
    except ValueError:
        seconds = float("nan")
    if not 0.1 <= seconds <= 3600:
        raise ValueError(f"{IMPORT_SECONDS_VARIABLE}={value[:30]!r}: expected the seconds an engine's import may "
                         f"take, a number from 0.1 to 3600 (default {IMPORT_SECONDS:g})")
    return seconds


#: Engines whose import failed in this process: name -> the error (raised again at once when asked for).
_failed: dict[str, EngineImportError] = {}
_failed_lock = threading.Lock()


def engine_module(name: str):
    """The engine a game names (``engine_module(game.engine)``): the module its entry point names (or
    the object, for ``module:object``). :class:`UnknownEngine` when no installed engine has that name;
    :class:`EngineImportError` when its import raises, exits or takes longer than :func:`import_seconds`
    (then again at once each time it is asked for)."""
    target = engine_target(name)
    module, _, attr = target.partition(":")
    module, path = module.strip(), list(filter(None, attr.strip().split(".")))
    loaded = sys.modules.get(module)
    if loaded is not None and not getattr(getattr(loaded, "__spec__", None), "_initializing", False):
        return _attribute(loaded, path)        # imported already: no thread (the common case)
    with _failed_lock:
        failed = _failed.get(name)
    if failed is not None:
        raise failed
    try:
        return _import_at_arms_length(name, target, module, path)
    except EngineImportError as exc:
        with _failed_lock:
            _failed[name] = exc
        raise


def _attribute(found, path):
    for part in path:
        found = getattr(found, part)
    return found


def _import_at_arms_length(name: str, target: str, module: str, path: list):
    """Import ``module`` (and get ``path`` from it) on a thread of its own, waiting at most
    :func:`import_seconds`: what it raises, a ``SystemExit`` included, becomes :class:`EngineImportError`;
    so does an import still running then (its thread is left behind, a daemon: the process can end)."""
    seconds = import_seconds()
    outcome: dict = {}

    def run():
        try:
            outcome["module"] = _attribute(importlib.import_module(module), path)
        except BaseException as exc:  # noqa: BLE001 - whatever the import does is reported, SystemExit too
            outcome["error"] = exc

    thread = threading.Thread(target=run, name=f"pnp-engine-import-{name}", daemon=True)
    thread.start()
    thread.join(seconds)            # Ctrl-C interrupts the wait (KeyboardInterrupt here, as anywhere)
    if thread.is_alive():
        raise EngineImportError(name, target, f"its import took longer than {seconds:g} s and was given up "
                                              f"({IMPORT_SECONDS_VARIABLE}=SECONDS allows more)")
    if "module" in outcome:
        return outcome["module"]
    exc = outcome["error"]
    if isinstance(exc, SystemExit):
        raise EngineImportError(name, target, f"its import tried to end the program (SystemExit({exc.code!r}))")
    text = str(exc).replace("\n", " ")
    raise EngineImportError(name, target, f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__)
