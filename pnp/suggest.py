"""The "did you mean" of every message: the known name nearest a name that was written wrong.

Every message of pnp that suggests a name takes it from :func:`closest`, which keeps one rule: **the
game's own names come before pnp's built-in ones.** A designer who writes ``[acron]`` in a game with
an icon ``acorn`` meant their acorn, not pnp's built-in ``crown``, however alike the spellings are. A
built-in name is suggested only when it is clearly closer than every one of the game's own names
(by more than :data:`OWN_FIRST` of difflib's ratio: ``[crwn]`` is the built-in ``crown``, not the
game's ``acorn``), or when none of the game's own names is close enough.

Closeness is :mod:`difflib`'s ratio, with its usual cutoff (:data:`CUTOFF`): the same spelling
distance in every message. Between names equally close, the game's own comes first.
"""

from __future__ import annotations

import difflib

#: How alike two names must be to be suggested (difflib's ratio, 0 to 1).
CUTOFF = 0.6
#: How much closer (in difflib's ratio) a built-in name must be than the game's own nearest name to be
#: suggested instead of it: about one letter in ten.
OWN_FIRST = 0.1


def closest(word, names, builtin=(), cutoff: float = CUTOFF) -> str | None:
    """The name of ``names`` nearest ``word``, or None when none is close enough (``cutoff``).

    ``builtin``: the names that are pnp's own (built-in icons, pnp's printed words, bundled layouts...);
    the others are the game's own, which come first (see the module's rule). Names are compared as
    text; among names exactly as close, the one that sorts last wins, as in
    :func:`difflib.get_close_matches`."""
    word = str(word)
    builtin = {str(name) for name in builtin}
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(word)
    best = None
    for name in dict.fromkeys(str(name) for name in names):
        matcher.set_seq1(name)
        if matcher.real_quick_ratio() < cutoff or matcher.quick_ratio() < cutoff:
            continue
        score = matcher.ratio()
        if score < cutoff:
            continue
        own = name not in builtin
        rank = (score + (OWN_FIRST if own else 0.0), own, name)
        if best is None or rank > best:
            best = rank
    return best[2] if best is not None else None
