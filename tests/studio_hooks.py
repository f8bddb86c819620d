"""Test-only hooks run in the studio's preview process (``Studio(..., preview_setup=partial(hook, ...))``):
the preview process is a fresh interpreter, so a test's monkeypatch does not reach it; these change
pnp there, before it draws anything.

``hang_on_card`` makes one card's preview layout block in a call that never returns (as a library call
that never returns would: no render limit sees it); ``hang_in_component`` does the same in one
component's build; ``greedy_card`` makes one card's layout ask for more memory than the process may
have; ``render_limits`` lowers the template limits; ``hang_on_large_card`` blocks one card's picture
at the large view's resolution only; ``fail_start_while`` makes the preview process die at start-up
while a file exists; ``hang_in_piece_pictures`` blocks the replay page's piece pictures;
``log_face_layouts`` writes down each card face laid out."""

from __future__ import annotations

import dataclasses
import threading


def _never_returns():
    threading.Event().wait()


def hang_on_card(card_id: str) -> None:
    from pnp.serve import faces

    original = faces.face_elements

    def face_elements(game, key, *args, **kwargs):
        if key == card_id:
            _never_returns()
        return original(game, key, *args, **kwargs)

    faces.face_elements = face_elements


def greedy_card(card_id: str, size: int) -> None:
    from pnp.serve import faces

    original = faces.face_elements

    def face_elements(game, key, *args, **kwargs):
        if key == card_id:
            bytearray(size)
        return original(game, key, *args, **kwargs)

    faces.face_elements = face_elements


def hang_in_component(name: str) -> None:
    from pnp.serve import pages

    original = pages.game_components

    def hanging(game, options):
        _never_returns()

    def game_components(game):
        return [dataclasses.replace(c, build=hanging) if c.name == name else c for c in original(game)]

    pages.game_components = game_components


def render_limits(seconds: float, steps: int) -> None:
    from pnp.text import templating

    templating.RENDER_SECONDS = seconds
    templating.MAX_STEPS = steps


def hang_on_large_card(card_id: str) -> None:
    """One card's picture at the large view's resolution never comes (its thumbnail does)."""
    from pnp.serve import faces

    original = faces._draw

    def _draw(game, keys, options, dpi):
        if card_id in keys and dpi == faces.LARGE_CARD_DPI:
            _never_returns()
        return original(game, keys, options, dpi)

    faces._draw = _draw


def fail_start_while(flag: str) -> None:
    """The preview process dies at start-up, as with a broken import, while the file ``flag`` exists."""
    import os

    if os.path.exists(flag):
        raise ImportError("No module named 'pnp.broken_part' (a test's start-up failure)")


def hang_in_piece_pictures() -> None:
    """The replay's piece pictures never come."""
    from pnp.serve import replay

    def piece_pictures(game):
        _never_returns()

    replay.piece_pictures = piece_pictures


def log_face_layouts(path: str) -> None:
    """Each card face laid out in the preview process writes its card's printed name, a line, to ``path``
    (what a card edit makes the studio lay out again)."""
    from pnp.components import cards

    original = cards.card_face

    def card_face(content, *args, **kwargs):
        with open(path, "a", encoding="utf-8") as log:
            log.write(f"{content.name}\n")
        return original(content, *args, **kwargs)

    cards.card_face = card_face
