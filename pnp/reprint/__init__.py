"""Reprints for playtests: which pieces changed since an earlier kit or a git reference of the game folder, and
reprint.pdf of only those (:mod:`pnp.reprint.changes`); the game folder as it was at a commit
(:mod:`pnp.reprint.gitref`), read from its repository with limits (:mod:`pnp.reprint.gitstore`). It compares
the records every component writes (:mod:`pnp.components.record`) and asks the components to lay out the
changed pieces, so it may import them and everything below; the build calls it.
"""
