"""The rules engine's seeded games kept in this process: played once for the same data and the same code.

``pnp validate`` (and ``pnp build``, which runs its checks) plays an engine's seeded games twice over: the
invariant-checked games of its ``validate_game`` hook and the games that measure the token sheet's demand.
Their results are a function of what they read of the game (the cards, the factions, the player counts),
the games' numbers and seeds, and the engine's code. A process that validates the same cards again (the
studio after an edit elsewhere, a test suite validating copies of one game) gets them from here.

The key can never be stale. The data is keyed by the values read: the values of the game's attributes
the hook read when it ran (recorded, :func:`pnp.cache.buildcache.recording`), or the arguments of the
call. The code is keyed twice: by the bytes of every file of the engine's package and of
``rules_engine`` (the data files an engine reads with them), and by the objects the code runs: every
module of those packages loaded in this process and each name bound in it (and in its classes), by
identity, the objects themselves kept alive with the entry so that no identity can stand for a newer
object. A function replaced at run time (a test's monkeypatch, a fault injected) is another object, so
another key; the play limits (``rules_engine.core.faults``) are module state, so they are part of it too.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import threading
from contextlib import ExitStack

from pnp.cache import buildcache

#: (what, data key) -> [(the code it ran with (:func:`code_now`), result, the names it read, the objects
#: the code names by identity), ...].
_KEPT: dict = {}
#: what -> the game's attribute names the hook read last (its data key is their values).
_READS: dict = {}
_LOCK = threading.Lock()
_FILES = buildcache.FileDigests()
#: Entries kept at most (each is a few hundred problems or a dict of counts).
MAX_KEPT = 64


def _packages(module) -> set:
    names = {"rules_engine"}
    name = getattr(module, "__name__", None) or getattr(type(module), "__module__", "")
    names.add(str(name).split(".")[0])
    return names


#: Module names that hold no part of a result: the game a fault's replay command names (a fault raises,
#: and what raises is never kept).
_UNKEYED = {("rules_engine.core.faults", "REPLAY_GAME")}
_PLAIN = (str, int, float, bool, type(None), bytes)


def _plain(value) -> bool:
    """A value described by its repr: numbers, texts, None, and tuples, named tuples and dataclasses of them
    (the play limits, ``rules_engine.core.faults``)."""
    if type(value) in _PLAIN:
        return True
    if isinstance(value, (tuple, frozenset)) and (type(value) in (tuple, frozenset) or hasattr(value, "_fields")):
        return all(_plain(v) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return all(_plain(getattr(value, f.name)) for f in dataclasses.fields(value))
    return False


def _named(name: str, value, parts: list, kept: list) -> None:
    """What a name bound in the engine's code stands for in the key: code (a function, a class, any
    callable) and a public object by identity (kept alive with the entry), a plain value by its repr;
    a private object that is not code (a module's memo of its last tables) is its own business."""
    if _plain(value):
        parts.append((name, repr(value)))
    elif callable(value) or isinstance(value, type) or not name.split(".")[-1].startswith("_"):
        parts.append((name, id(value)))
        kept.append(value)


def _module_parts(name: str, loaded, kept: list) -> tuple:
    """What one loaded module of the engine's code is, for the key: itself (by identity), its file's bytes
    and every name bound in it and in its classes (:func:`_named`)."""
    parts = [id(loaded)]
    kept.append(loaded)
    path = getattr(loaded, "__file__", None)
    if path:
        parts.append(_FILES(path))
    for attr, value in sorted(vars(loaded).items(), key=lambda item: str(item[0])):
        attr = str(attr)
        if attr.startswith("__") or (name, attr) in _UNKEYED or type(value) is type(sys):
            continue
        _named(attr, value, parts, kept)
        if isinstance(value, type) and getattr(value, "__module__", None) == name:
            for inner, held in vars(value).items():
                if not str(inner).startswith("__") or callable(held):
                    _named(f"{attr}.{inner}", held, parts, kept)
    return tuple(parts)


def _data_files(folders) -> tuple:
    """The bytes of the files beside the engine's modules (data it may read), by path."""
    files = []
    for folder in sorted(folders):
        for entry in sorted(os.listdir(folder)):
            full = os.path.join(folder, entry)
            if os.path.isfile(full) and not entry.endswith((".py", ".pyc", ".pyo")):
                files.append((full, _FILES(full)))
    return tuple(files)


def code_now(module) -> tuple[dict, list]:
    """The engine's code as loaded now: ({module name: its parts} for every loaded module of the engine's
    package and of ``rules_engine``, with the data files of their folders under ``None``; the objects
    the parts name by identity)."""
    packages = _packages(module)
    code, kept, folders = {}, [], set()
    for name, loaded in sorted(list(sys.modules.items()), key=lambda item: item[0]):
        if loaded is None or name.split(".")[0] not in packages:
            continue
        code[name] = _module_parts(name, loaded, kept)
        path = getattr(loaded, "__file__", None)
        if path:
            folders.add(os.path.dirname(os.path.abspath(path)))
    code[None] = _data_files(folders)
    return code, kept


def _same_code(stored: dict) -> bool:
    """Whether every module the stored games ran with (loaded before them or by them) is loaded now and the
    same (:func:`_module_parts`), and so are the data files beside them. A module loaded since that they
    did not load is one they did not run: the same code takes the same path, so it would not run now."""
    folders = set()
    for name, parts in stored.items():
        if name is None:
            continue
        loaded = sys.modules.get(name)
        if loaded is None or _module_parts(name, loaded, []) != parts:
            return False
        path = getattr(loaded, "__file__", None)
        if path:
            folders.add(os.path.dirname(os.path.abspath(path)))
    return _data_files(folders) == stored.get(None)


def _played(game, play) -> tuple:
    """(``play()``'s result, every attribute name of ``game`` and of its cards it read): recorded as a
    validation unit records them (:mod:`pnp.cache.checked`), so a unit around this call records the same
    names when the result comes from here. (A name read of a card counts for the game too, where it has
    one: a card's ``id`` read keys the result by the game's ``id``, the folder's name, as well; more
    than it needs, never less.)"""
    with ExitStack() as stack:
        reads = stack.enter_context(buildcache.recording(game))
        for card in game.cards:
            stack.enter_context(buildcache.recording(card, reads))
        result = play()
    return result, frozenset(reads)


def _find(key):
    for entry in _KEPT.get(key, ()):
        if _same_code(entry[0]):
            return entry
    return None


def _remember(key, module, result, reads) -> None:
    code, kept = code_now(module)       # as it stands after the games: the modules they imported too
    with _LOCK:
        if key not in _KEPT and len(_KEPT) >= MAX_KEPT:
            _KEPT.pop(next(iter(_KEPT)))
        entries = _KEPT.setdefault(key, [])
        entries.append((code, result, reads, kept))
        del entries[:-4]                # a few versions of the code (a test's patch and the real one)


def call(what: str, module, game, arguments, play):
    """``play()``'s result, kept by ``what``, the engine ``module``'s code and ``arguments()`` (a description
    of everything the games read: the cards, factions, counts and seeds, parts of ``game``; made without
    counting as read what describing them reads). Not kept when the description names an object by its
    address. What the games read of ``game`` and its cards is counted as read again when the result comes
    from here (:func:`pnp.cache.buildcache.note_reads`)."""
    with buildcache.unrecorded():       # a card's name in the description is not a read of the games
        arguments = arguments()
    if " at 0x" in arguments:
        return play()
    key = (what, buildcache.digest(arguments))
    found = _find(key)
    if found is not None:
        buildcache.note_reads(found[2])
        return found[1]
    result, reads = _played(game, play)
    _remember(key, module, result, reads)
    return result


def hook(what: str, module, game, play):
    """``play()``'s result (an engine's hook called with ``game``), kept by ``what``, the code and the values
    of the game's attributes the hook read when it ran (recorded; counted as read again when the result
    comes from here)."""
    names = _READS.get(what)
    if names is not None:
        with buildcache.unrecorded():   # the values' descriptions read every field: not the hook's reads
            values = buildcache.reads_digest(game, names)
        found = _find((what, names, values)) if values is not None else None
        if found is not None:
            buildcache.note_reads(found[2])
            return found[1]
    result, reads = _played(game, play)
    names = tuple(sorted(reads))
    with buildcache.unrecorded():
        values = buildcache.reads_digest(game, names)
    if values is not None:
        with _LOCK:
            _READS[what] = names
        _remember((what, names, values), module, result, reads)
    return result


def clear() -> None:
    """Forget every kept result (tests)."""
    with _LOCK:
        _KEPT.clear()
        _READS.clear()
