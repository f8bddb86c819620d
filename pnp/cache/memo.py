"""In-process caches whose results depend on files the user edits (game data, templates).

A one-shot command never notices: it reads every file once. ``pnp watch`` builds again and again in
one process, so before each rebuild it calls :func:`clear`, which empties every cache registered here
with :func:`reads_files`. Caches of pure functions of their arguments (text fitting, font registration)
stay warm: the files they read (the bundled fonts) are not watched.

Usage, above the ``functools.lru_cache`` decorator::

    @reads_files
    @lru_cache(maxsize=None)
    def environment(): ...
"""

from __future__ import annotations

_REGISTRY: list = []


def reads_files(func):
    """Register an ``lru_cache``-wrapped function whose results depend on file contents."""
    if not hasattr(func, "cache_clear"):
        raise TypeError(f"{func!r} is not a cached function: put @reads_files above @lru_cache")
    if func not in _REGISTRY:
        _REGISTRY.append(func)
    return func


def registered() -> list:
    """The registered functions (for tests and diagnostics)."""
    return list(_REGISTRY)


def clear() -> None:
    """Forget every cached result that depends on files, so the next build reads them again."""
    for func in _REGISTRY:
        func.cache_clear()


def file_stamp(path) -> tuple | None:
    """What says a file is unchanged for a cache keyed by it (modification time, size, inode), or None
    when it cannot be read (then the check runs and reports that)."""
    try:
        st = path.stat()
    except (OSError, ValueError):
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)
