"""Whether the kit in the output folder is the kit a build would write now: ``pnp build``'s fast path.

A build with the build cache (:mod:`pnp.cache.buildcache`) leaves, beside its entries, a record of the kit
it wrote: the SHA-256 of every file, their page counts, the build's warnings. The record is named by a
key of everything the build reads (:func:`kit_key`), taken *before* the build reads anything, so an
edit made while it runs makes the next key new:

* the bytes of every file of the game folder, with their paths (the output and cache folders left out
  when they lie inside it), and where the folder is;
* the build's options (paper, language, bleed, players, sheets, ...: :class:`pnp.components.BuildOptions`);
* what pnp draws with (:func:`pnp.cache.buildcache.code_digest`: pnp's version, the file stamps of its code,
  rules engines, bundled templates, layouts, fonts and strings, the versions of the libraries that
  write the bytes, ``SOURCE_DATE_EPOCH``), Python's version, the packages installed where Python
  looks for modules (the names of their ``*.dist-info`` folders, which carry their versions), and
  pnp's environment variables (``PNP_*``);
* and, in the record itself, the size and modification time of every module file the build had
  loaded from outside pnp's own folders (a library edited in place).

``pnp build`` with the cache computes the key first (start-up and hashing: it loads neither the game
nor the drawing code). When a record has that key, every module file it lists is as it was, and every
file it names in ``--out`` still holds the bytes the build wrote, the kit is the kit a build would write
byte for byte: nothing is written, the files and warnings are listed as a build lists them, and pnp
says so. Anything else (no record, a file changed, deleted or damaged in ``--out``, another key) is an
ordinary build. ``--changed-since`` (which reads an earlier kit) and ``--no-cache`` never take this path.

The record is a build cache entry, checked as every entry is (its own SHA-256, its key): an edited
record is no record. It must name every file of the kit, each once, and at least the files every kit
has (:data:`KIT_FILES`); each is read from ``--out`` only when it is a regular file of the recorded size
reached without a symbolic link below ``--out`` (a link there could lead to a file outside), and then
checked against its SHA-256.

This module imports nothing heavy: it runs before pnp's drawing code is loaded.
"""

from __future__ import annotations

import hashlib
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from pnp import DATA_DIR, FONTS_DIR, PROJECT_ROOT, TEMPLATES_DIR
from pnp.cache import buildcache, cachedir

#: The record's format; another is ignored.
FORMAT = 1
#: Environment variables that reach a build besides ``SOURCE_DATE_EPOCH`` (part of the code digest).
ENV_PREFIX = "PNP_"
#: Files every kit has (:data:`pnp.build.kit.KIT_FILE`, :data:`pnp.components.manifest.MANIFEST_FILE`,
#: :data:`pnp.components.record.RECORD_FILE`; this module does not import them: it runs before they are loaded).
KIT_FILES = ("kit.pdf", "manifest.json", "pieces.json")


@dataclass
class HeldKit:
    """A kit found up to date: its files as a build lists them (paths in ``--out``, in kit order), the page
    count of each PDF, the build's warnings, the sheets of paper it takes and the game's title."""

    files: list
    pages: dict
    warnings: list = field(default_factory=list)
    sheets: int = 0
    title: str = ""


def game_root(game_arg) -> Path | None:
    """The game folder ``game_arg`` names, as the loader finds it (a folder with a game.yaml, else a
    bundled game's name; None: the default game), or None when there is none (the build reports it).
    A build records its kit only when the folder it loaded is this one (:func:`remember`)."""
    if game_arg is None:
        from pnp import default_game

        game_arg = default_game()
    candidate = Path(game_arg)
    try:
        if (candidate / "game.yaml").exists():
            return candidate.resolve()
        bundled = DATA_DIR / str(game_arg)
        if (bundled / "game.yaml").is_file():
            return bundled.resolve()
    except (OSError, ValueError):
        return None
    return None


def installed() -> list:
    """The packages Python can import from: per folder of ``sys.path``, the names of the ``*.dist-info``,
    ``*.egg-info``, ``*.egg-link`` and ``*.pth`` entries in it (an upgrade renames its dist-info)."""
    out = []
    for entry in sys.path:
        try:
            with os.scandir(entry or ".") as it:
                names = sorted(e.name for e in it if e.name.endswith((".dist-info", ".egg-info", ".egg-link", ".pth")))
        except OSError:             # a zip file, a folder that is not there
            continue
        out.append((entry, names))
    return out


def environment() -> list:
    return sorted((k, v) for k, v in os.environ.items() if k.startswith(ENV_PREFIX))


def kit_key(game_arg, out_dir, options, cache) -> str | None:
    """The key of everything a build of ``game_arg`` with ``options`` reads (see the module), or None when
    the build takes no fast path (no cache, ``--changed-since``, no game folder found)."""
    if not cache or getattr(options, "changed_since", None):
        return None
    root = game_root(game_arg)
    if root is None:
        return None
    files = buildcache.folder_digest(root, cache.files, skip=(out_dir, cache.folder))
    return buildcache.digest("kit", FORMAT, buildcache.code_digest(), sys.version, installed(), environment(),
                             repr(options), str(root), files)


def _record_key(key: str) -> str:
    return buildcache.digest("kit record", key)


def _own_trees() -> list:
    """The folders :func:`pnp.cache.buildcache.code_digest` stamps already (their modules are not listed again)."""
    return [str(p) + os.sep for p in (PROJECT_ROOT / "pnp", PROJECT_ROOT / "rules_engine", TEMPLATES_DIR, FONTS_DIR)]


def loaded_modules() -> list:
    """[folder, path, size, modification time] of every module file loaded in this process from outside
    pnp's own folders (the standard library and the libraries a build ran): the folder of ``sys.path``
    it was found under, by a hash of its path (the cache names no folder of the machine), and its path
    inside it."""
    own = tuple(_own_trees())
    folders = sorted((os.path.join(os.path.abspath(e), "") for e in sys.path if e), key=len, reverse=True)
    out = set()
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if not isinstance(path, str) or path.startswith(own):
            continue
        path = os.path.abspath(path)
        folder = next((f for f in folders if path.startswith(f)), None)
        if folder is None:
            continue
        try:
            st = os.stat(path)
        except OSError:
            continue
        out.add((buildcache.digest("folder", folder), path[len(folder):], st.st_size, st.st_mtime_ns))
    return sorted(list(m) for m in out)


def _modules_unchanged(modules) -> bool:
    folders = {buildcache.digest("folder", f): f for f in (os.path.join(os.path.abspath(e), "") for e in sys.path if e)}
    for folder, rel, size, mtime in modules:
        if folder not in folders or not _plain_name(rel):
            return False
        try:
            st = os.stat(folders[folder] + rel)
        except OSError:
            return False
        if (st.st_size, st.st_mtime_ns) != (size, mtime):
            return False
    return True


def _plain_name(name) -> bool:
    """A file name a record may name in ``--out``: relative, without ``..``, without a backslash."""
    if not isinstance(name, str) or not name or "\\" in name or "\0" in name:
        return False
    parts = name.split("/")
    return not name.startswith("/") and all(p not in ("", ".", "..") for p in parts)


def _kit_file(out: Path, name: str, size: int) -> bytes | None:
    """The bytes of the kit file ``name`` in ``out`` when it is a regular file of ``size`` bytes reached
    without a symbolic link below ``out`` (a link there could lead anywhere: the file would not be the
    kit's), checked before it is read; else None."""
    folder = out
    for part in name.split("/")[:-1]:
        folder = folder / part
        if not cachedir.real_folder(folder):
            return None
    return cachedir.read_regular(out / name, size, size)


def held(cache, key: str | None, out_dir, game_arg) -> HeldKit | None:
    """The kit in ``out_dir`` when it is the one recorded under ``key`` (see the module), else None."""
    if key is None or not cache:
        return None
    found = cache.get(_record_key(key))
    if found is None:
        return None
    meta = found[0]
    try:
        if meta.get("kind") != "kit" or meta.get("record") != FORMAT:
            return None
        files, modules = meta["files"], meta["modules"]
        if not (isinstance(files, list) and isinstance(modules, list) and _modules_unchanged(modules)):
            return None
        out = Path(out_dir)
        names = [f[0] if isinstance(f, list) and f else None for f in files]
        if not (set(KIT_FILES) <= set(names) and len(set(names)) == len(names)):
            return None             # every kit has these; a record without them is not a whole kit's
        paths = []
        for name, sha, size in files:
            if not (_plain_name(name) and isinstance(sha, str) and type(size) is int and size >= 0):
                return None
            path = out / name
            data = _kit_file(out, name, size)
            if data is None or hashlib.sha256(data).hexdigest() != sha:
                return None
            paths.append(path)
        pages = {str(k): int(v) for k, v in meta["pages"].items()}
        if not set(pages) <= set(names):
            return None
        root = game_root(game_arg)
        warnings = buildcache.problems_from_json(meta["warnings"], root) if root is not None else None
        if warnings is None:
            return None
        return HeldKit(paths, pages, warnings, int(meta["sheets"]), str(meta["title"]))
    except (OSError, KeyError, TypeError, ValueError, AttributeError):
        return None


def remember(cache, key: str | None, game_arg, out_dir, options, game, files: dict, pages: dict, warnings,
             sheets: int) -> None:
    """Keep the record of a kit just built under ``key`` (:func:`kit_key` of the same arguments, taken
    before the build read anything): the SHA-256 and size of each of ``files`` (name -> bytes, as
    written), ``pages``, ``warnings``, ``sheets``. Nothing is kept when an input changed while the build
    ran (the key taken now differs), when the build loaded another folder than :func:`game_root` finds,
    or when a warning cannot be written down."""
    if key is None or not cache or game is None:
        return
    root = game_root(game_arg)
    if root is None or Path(game.root).resolve() != root or kit_key(game_arg, out_dir, options, cache) != key:
        return
    written = buildcache.problems_to_json(warnings, root)
    if written is None:
        return
    cache.put(_record_key(key), {
        "kind": "kit", "record": FORMAT, "title": str(game.title), "sheets": int(sheets),
        "files": [[name, hashlib.sha256(data).hexdigest(), len(data)] for name, data in files.items()],
        "pages": {str(k): int(v) for k, v in pages.items()}, "warnings": written, "modules": loaded_modules(),
    }, [])
