"""The inside-the-cut-line check of ``pnp validate``: every text, icon and figure of every piece keeps at
least 1 mm inside the piece's cut line, and no frame sits where cutting drift shows.

Each component kind that makes pieces to cut out lists them (``Component.pieces``: cards' faces, aids
and backs, tokens' fronts and backs, standees, dice faces, boards and maps, the box's printed panels) as
:class:`pnp.layout.outline.CutPiece` in their own frame, from the same layout code the build draws with.
Their ink is measured by :mod:`pnp.draw.ink`; the geometry is :mod:`pnp.layout.outline`'s. Ink that
crosses the cut line is an error (it is cut off); ink inside it but nearer than 1 mm is a warning (a
cut that drifts reaches it). A frame (a stroked rectangle or line along a trimmed edge) 1 to 6 mm
inside the trim is a warning. Each problem names the component, the piece and what comes too close.
Kinds whose pages are not cut out (the rulebook, sheets, the instructions, a track page) list no pieces.
``pnp validate`` runs it (``pnp build`` leaves it out, as it leaves out the other thorough checks).
"""

from __future__ import annotations

import math
from pathlib import Path

from pnp.draw.icons import using
from pnp.errors import DataError, Problems
from pnp.layout.geometry import Icon, Picture, Text
from pnp.layout.outline import FRAME_FAR, INSIDE_CUT, clearances, frames_near_trim
from pnp.text.markup import plain_text
from pnp.loading.paths import excerpt

#: How far a guillotine or a trimmer drifts either way (mm), as print services state it.
CUTTING_DRIFT = 1.5


def region(element) -> str:
    """How a problem names what comes too close: its role and its words, icon or file."""
    role = (element.role or "").replace(":", " ")
    if isinstance(element, Text):
        return f"{role or 'text'} {excerpt(plain_text(element.markup), 40)}"
    if isinstance(element, Icon):
        return f"{role or 'icon'} '{element.name}'" if role != "icon" else f"icon '{element.name}'"
    if isinstance(element, Picture):
        return f"{role or 'picture'} {Path(element.path).name}"
    return role or type(element).__name__.lower()


def where(piece, element) -> tuple:
    """(path, line) of what ``element`` of ``piece`` prints: the place of the longest of the piece's
    ``places`` whose words its text prints, else the piece's own."""
    if not piece.places or not isinstance(element, Text):
        return piece.where
    from pnp.loading.i18n import words_of

    shown = words_of(element.markup)
    best = max(((len(words), at) for words, at in piece.places if words and words in shown),
               key=lambda found: found[0], default=None)
    return best[1] if best else piece.where


def check_piece(piece, problems: Problems, memo: dict | None = None) -> None:
    """``memo``: kept over the pieces of one check (:func:`pnp.layout.outline.clearances`)."""
    from pnp.draw.ink import ink

    subject = f"{piece.component}: {piece.name}"
    outline = piece.outline
    for found in clearances(piece, ink, memo):
        if found.distance >= INSIDE_CUT - 1e-6:
            continue
        what = region(found.element)
        if found.distance < 0:
            past = math.ceil(-found.distance * 10) / 10
            problems.error(*where(piece, found.element), subject,
                           f"{what} reaches {past:.1f} mm past the {outline.name}; "
                           f"keep text, icons and figures {INSIDE_CUT:g} mm inside it")
        else:
            near = math.floor(found.distance * 10) / 10
            problems.warn(*where(piece, found.element), subject,
                          f"{what} comes within {near:.1f} mm of the {outline.name}; "
                          f"keep text, icons and figures {INSIDE_CUT:g} mm inside it")
    frames = frames_near_trim(piece)
    if frames:
        element, distance = min(frames, key=lambda f: f[1])
        problems.warn(*piece.where, subject,
                      f"{element.role or 'a frame'} runs {distance:.1f} mm inside the trim, where cutting drift "
                      f"(about {CUTTING_DRIFT:g} mm either way) makes it visibly uneven: run it into the bleed or "
                      f"keep it at least {FRAME_FAR:g} mm inside")


def _icons(elements):
    from pnp.layout.geometry import Group, Transform

    for e in elements:
        if isinstance(e, (Group, Transform)):
            yield from _icons(e.elements)
        elif isinstance(e, Icon):
            yield e


def check_pieces(game, problems: Problems, options=None) -> None:
    """Every piece of every component of ``game`` (see the module's docstring)."""
    from pnp.components import game_components
    from pnp.draw.icons import drawable
    from pnp.draw.ink import icon_hulls

    with using(game.icons):
        pieces = []
        for component in game_components(game):
            if component.pieces is None:
                continue
            try:
                pieces += list(component.pieces(game, options))
            except (DataError, ValueError):       # the component's own check reports why
                continue
        # every icon the pieces show, drawn and measured at once
        icon_hulls({e.name for piece in pieces for e in _icons(piece.elements) if drawable(e.name)})
        memo: dict = {}                 # each element's distance to its cut line, once for all pieces
        for piece in pieces:
            check_piece(piece, problems, memo)


__all__ = ["check_piece", "check_pieces", "region", "where"]
