"""Validation's checks kept in the build cache, so ``pnp validate`` does again only the checks an edit concerns.

Each check of :func:`pnp.validation.checks.validate_game` (the files' own checks, a component's check, the
printed pieces' checks, the engine's seeded games) is a unit. A unit's problems are kept the way
:mod:`pnp.build.kit` keeps a component (see :mod:`pnp.cache.buildcache`): its *identity* (pnp's code, the bytes of
every file of the game folder but the card files, the options, the unit's name) names the list of the
loaded game's attributes it read last time, and the values of those attributes now complete the key of
its entry; the cards count each by the attributes of a card the unit read (as the rulebook's plays do).
The same values read, the same problems: a card edit runs again only the units that read what it
changed (a card's name edited does not play the engine's seeded games again, which read no name; the
units that read it find each unchanged card's own check in the cache), a translation edit only the
units that read it. What is kept is the problems as they were found, errors and warnings, file, line and
message, in their order, so a run from the cache prints the same bytes as a run without it.

A unit that raises (a broken installation, an interrupted run) keeps nothing; nor does one whose problem
names a file outside the game folder and pnp's own (:func:`pnp.cache.buildcache.problems_to_json`).
"""

from __future__ import annotations

import os
from contextlib import ExitStack
from pathlib import Path

from pnp.cache import buildcache
from pnp.errors import Problems


class KeptChecks:
    """The units of one validation in the build cache ``cache`` (off: every unit runs)."""

    def __init__(self, cache, options, skip=()):
        self.cache, self.options = cache, options
        self.skip = tuple(skip)
        self._files = self._engine = None
        self.hits = self.runs = 0

    def _files_key(self, game) -> str:
        if self._files is None:
            skip = (self.cache.folder,) + self.skip
            self._files = buildcache.folder_digest(game.root, self.cache.files, skip=skip,
                                                   leave_out=buildcache.card_files(game))
            if self.cache.game_files is None:       # what a card's own check reads of the folder
                self.cache.game_files = self._files
        return self._files

    def ident(self, game, name: str, more=()) -> str | None:
        if not self.cache:
            return None
        if self._engine is None:        # any check may play the engine (the token sheet's demand, say)
            from rules_engine import engine_module

            try:
                self._engine = engine_stamp(engine_module(game.engine)) if game.engine else ()
            except Exception:           # not installed, or broken: loading reported it
                self._engine = ("not loaded", game.engine)
        return buildcache.digest("validation", buildcache.code_digest(), self._files_key(game), str(Path(game.root)),
                                 name, repr(self.options), self._engine, *more)

    def _entry_key(self, game, ident, names) -> str | None:
        memo = self.cache.memo.setdefault("values", {})
        if "cards" in names:    # the cards each by the attributes of a card read: a name no check read is no key
            values = buildcache.reads_digest(game, [n for n in names if n != "cards"], memo)
            cards = [buildcache.reads_digest(card, names, memo) for card in game.cards]
            if values is None or None in cards:
                return None
            values = buildcache.digest("cards read", values, cards)
        else:
            values = buildcache.reads_digest(game, names, memo)
        return None if values is None else buildcache.digest("checked", ident, buildcache.data_names(game, names),
                                                                 values)

    def run(self, game, name: str, problems: Problems, check, more=()) -> None:
        """``check(found)`` adds the unit ``name``'s problems to ``found``; they are added to ``problems``,
        from the cache when it holds them for what the unit reads of ``game`` now (and ``more``: what else
        it depends on). The game's engine's code is part of every unit's key (:func:`engine_stamp`)."""
        ident = self.ident(game, name, more)
        if ident is not None:
            held = self._held(game, ident)
            if held is not None:
                self.hits += 1
                problems.extend(held)
                return
        self.runs += 1
        found = Problems()
        if ident is None:               # nothing is kept: what the unit reads is not needed (recording it costs)
            try:
                check(found)
            finally:
                problems.extend(found)
            return
        try:
            with ExitStack() as stack:
                reads = stack.enter_context(buildcache.recording(game))
                for card in game.cards:         # what of each card it reads (see _entry_key)
                    stack.enter_context(buildcache.recording(card, reads))
                check(found)
        finally:
            problems.extend(found)
        try:
            written = buildcache.problems_to_json(found, game.root)
        except (OSError, RuntimeError):         # a path that cannot be followed: not kept
            written = None
        key = self._entry_key(game, ident, reads) if written is not None else None
        if key is None:
            return
        self.cache.put(buildcache.digest("reads of", ident),
                       {"kind": "reads", "reads": sorted(reads)}, [])     # a card's too (see _entry_key)
        self.cache.put(key, {"kind": "checked", "problems": written}, [])

    def _held(self, game, ident):
        found = self.cache.get(buildcache.digest("reads of", ident))
        names = found[0].get("reads") if found is not None else None
        if not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
            return None
        entry = self.cache.get(self._entry_key(game, ident, names))
        if entry is None or entry[0].get("kind") != "checked":
            return None
        return buildcache.problems_from_json(entry[0].get("problems"), game.root)


def engine_stamp(module) -> tuple:
    """What says an engine's code is unchanged: the size and modification time of every file of its package
    (an engine installed apart from pnp is not part of :func:`pnp.cache.buildcache.code_digest`)."""
    path = Path(getattr(module, "__file__", "") or "")
    root = path.parent if path.name == "__init__.py" else path
    out = []
    for folder, dirs, files in os.walk(root) if root.is_dir() else ():
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            try:
                st = os.stat(os.path.join(folder, name))
            except OSError:
                continue
            out.append((os.path.relpath(os.path.join(folder, name), root), st.st_size, st.st_mtime_ns))
    if not root.is_dir():
        try:
            st = os.stat(root)
            out.append((root.name, st.st_size, st.st_mtime_ns))
        except OSError:
            pass
    return (getattr(module, "__name__", ""), str(root), tuple(out))
