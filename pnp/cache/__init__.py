"""Caches, on disk and in memory, and the folders they live in: the build cache (:mod:`pnp.cache.buildcache`:
what a build drew, keyed by everything it depends on, and the recorded reads that key it), ``pnp validate``'s
kept checks (:mod:`pnp.cache.checked`), the record of a kit that lets ``pnp build`` write nothing when nothing
changed (:mod:`pnp.cache.uptodate`), in-process caches of results that depend on files, which ``pnp watch``
clears (:mod:`pnp.cache.memo`), the rules engine's seeded games kept in the process by the data they read
and the engine's code (:mod:`pnp.cache.played`), and cache folders that are pnp's alone
(:mod:`pnp.cache.cachedir`). It sits
below everything that caches: it imports only pnp's leaves (:mod:`pnp.errors`), never the code whose results
it keeps.
"""
