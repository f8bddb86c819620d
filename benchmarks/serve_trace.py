"""Timestamps of the studio's path from a saved file to a new picture, for ``bench_serve.py --trace``.

:func:`trace_studio` wraps, in the benchmark's own process (where the studio runs), the watcher's
first sight of an edit, the studio's word to the preview process after the debounce, and each event
it sends the open pages. :func:`trace_previews` is the studio's ``preview_setup`` hook (it pickles: a
module-level function and a path): in the preview process it wraps the steps between the edit and
the pictures (loading, laying out and fingerprinting the faces, drawing them to PDF, rasterizing,
PNG encoding, the full check, each component's pages, the rulebook's steps, the page's data). Every record is one line of
JSON in the log file: ``{"t": wall-clock start, "d": seconds, "what": name, "pid": process}``.
A measurement aid, not part of pnp.
"""

from __future__ import annotations

import functools
import json
import os
import threading
import time

_lock = threading.Lock()


def _record(log: str, what: str, start: float, seconds: float) -> None:
    line = json.dumps({"t": start, "d": seconds, "what": what, "pid": os.getpid()})
    with _lock, open(log, "a") as out:
        out.write(line + "\n")


def _wrap(log: str, owner, name: str, label: str) -> None:
    original = getattr(owner, name)
    if getattr(original, "_traced", False):
        return

    @functools.wraps(original)
    def traced(*args, **kwargs):
        start, t = time.time(), time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            _record(log, label, start, time.perf_counter() - t)

    traced._traced = True
    setattr(owner, name, traced)


def trace_previews(log: str) -> None:
    """In the preview process: time the steps an edit goes through (each call one record)."""
    import pnp.draw.raster as raster
    import pnp.exports.cards as exports_cards
    import pnp.serve.faces as faces
    import pnp.serve.pages as pages
    import pnp.serve.previews as previews
    import pnp.rulebook.component as rulebook
    import pnp.validation.checks as checks

    _wrap(log, previews.Previews, "files_changed", "preview: told of the edit")
    _wrap(log, previews.Previews, "_data_step", "data step (load, faces, draw)")
    _wrap(log, previews, "load_game", "  load the game")
    _wrap(log, faces, "fingerprint_faces", "  lay out and fingerprint every face")
    _wrap(log, faces, "draw_faces", "  draw changed faces")
    _wrap(log, faces, "faces_pdf", "    faces to PDF")
    _wrap(log, raster.Rasterizer, "render", "    rasterize (PDFium)")
    _wrap(log, faces, "png_bytes", "    PNG encode (faces)")
    _wrap(log, pages, "png_bytes", "    PNG encode (pages)")
    _wrap(log, previews.Previews, "_fill_cards", "  the cards' JSON and faces")
    _wrap(log, checks, "validate_game", "check: full validation")
    _wrap(log, pages.PageMaker, "_build", "check: a component's pages")
    _wrap(log, pages.PageMaker, "_render", "    render a file to PDF")
    _wrap(log, pages, "pdf_page_prints", "    fingerprint the PDF's pages")
    _wrap(log, pages.PageMaker, "_pages_json", "    rasterize changed pages")
    _wrap(log, previews.Previews, "_json", "page data (/api/game)")
    # the rulebook's own steps (called through the module's names, so wrapped there)
    _wrap(log, rulebook, "context", "    rulebook: examples and context")
    _wrap(log, rulebook, "chapter_markup", "    rulebook: chapters rendered")
    _wrap(log, rulebook, "fitted", "    rulebook: laid out and fitted")
    _wrap(log, rulebook, "lay_out", "      rulebook: one layout pass")
    _wrap(log, rulebook, "draw_laid_out", "    rulebook: drawn")
    _wrap(log, rulebook, "impose", "    rulebook: imposed")
    del exports_cards


def trace_studio(log: str) -> None:
    """In the studio's process: the watcher's first sight of an edit, the debounced report, events."""
    from pnp.serve.studio import Studio
    from pnp.serve.watcher import Changes

    original_add = Changes.add

    def add(self, path, *args, **kwargs):
        if not self._paths:                    # the first path of a batch: when the watcher saw the edit
            _record(log, "watcher: first event", time.time(), 0.0)
        return original_add(self, path, *args, **kwargs)

    Changes.add = add
    original_changed = Studio.files_changed

    def files_changed(self, paths):
        _record(log, "watcher: debounced, studio told", time.time(), 0.0)
        return original_changed(self, paths)

    Studio.files_changed = files_changed
    original_publish = Studio.publish

    def publish(self, event):
        if event.get("type") == "update":
            _record(log, f"event: update{' (checked)' if event.get('checked') else ''}", time.time(), 0.0)
        return original_publish(self, event)

    Studio.publish = publish


def read(log: str) -> list[dict]:
    try:
        with open(log) as lines:
            return [json.loads(line) for line in lines if line.strip()]
    except FileNotFoundError:
        return []
