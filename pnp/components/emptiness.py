"""Pieces that leave their space empty: the warning ``pnp validate`` gives for a face drawn by a layout
(a card, a board) that leaves more than :data:`pnp.layout.space.MAX_EMPTY_SHARE` of its area empty in one
rectangle. Each is told once per layout region (at the region's line: the region whose box lies over the
empty space, a text far shorter than its box) with how many pieces and one of them, else once per layout
at the line that names it (the deck's or the component's entry in game.yaml)."""

from __future__ import annotations

from pnp.draw.text import ink_rect
from pnp.layout.space import MAX_EMPTY_SHARE, Empty, blamed_region, empty_space


def face_empty(elements, size: tuple) -> Empty:
    """The largest empty rectangle of a face of ``size`` (mm), its texts measured as they are set (the
    game's icons active, :func:`pnp.draw.icons.using`)."""
    return empty_space(elements, size, lambda t: ink_rect(t.rect, t.markup, t.style))


def where_on(rect, height: float) -> str:
    """Where ``rect`` lies on a face ``height`` mm high: at the bottom, in the middle, at the top."""
    third = height / 3
    return "at the bottom" if rect.cy < third else "at the top" if rect.cy > 2 * third else "in the middle"


class EmptySpace:
    """The faces of one component that leave their space empty, gathered, then told as warnings."""

    def __init__(self, subject: str, what: str = "card"):
        self.subject = subject          # "deck 'plans'", "board 'maps'"
        self.what = what                # how one piece is named: card, piece
        self.found: dict = {}           # (path, line, layout, region) -> [count, first piece, largest Empty, h]

    def add(self, layout, elements, size: tuple, piece: str, entry: tuple) -> None:
        """One face: ``layout`` drew ``elements`` on ``size``; ``entry`` is (path, line) of what names the
        layout, for a space no region of the game's own lies over (pnp's ``classic``)."""
        empty = face_empty(elements, size)
        if empty.share <= MAX_EMPTY_SHARE:
            return
        region = blamed_region(elements, size, empty.rect)
        path, line, name = layout.written(region) if region else (None, None, layout.name)
        if path is None or line is None or name == "classic":
            path, line = entry
        kept = self.found.setdefault((str(path), line, name, region), [0, piece, empty, size[1]])
        kept[0] += 1
        if empty.share > kept[2].share:
            kept[2] = empty

    def report(self, problems) -> None:
        for (path, line, name, region), (n, first, empty, height) in self.found.items():
            pieces = f"{self.what} '{first}'" if n == 1 else f"{n} {self.what}s, e.g. {self.what} '{first}',"
            r = empty.rect
            subject = f"{self.subject}: layout '{name}'" + (f", region '{region}'" if region else "")
            problems.warn(path, line, subject,
                          f"{pieces} leaves {empty.share:.0%} of the face empty in one area ({r.w:.0f} x "
                          f"{r.h:.0f} mm {where_on(r, height)}; more than {MAX_EMPTY_SHARE:.0%}): give the piece "
                          f"content there (a region showing its data, a picture) or let a region fill it")
