"""Building a game's kit: validate, lay out every component, render, write atomically.

Nothing is written unless the whole build succeeds: files are rendered into a temporary folder next to
the output folder and moved into place at the end.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from pnp.components import BuildOptions, game_components
from pnp.draw.merge import merge
from pnp.draw.pdf import render
from pnp.errors import DataError, Problems
from pnp.validation import validate_game

KIT_FILE = "kit.pdf"


@dataclass
class BuildResult:
    game: object
    files: list           # Paths written, in kit order, kit.pdf last
    pages: dict           # filename -> page count


def build_kit(game_arg, out_dir: str | os.PathLike, options: BuildOptions, progress=None) -> BuildResult:
    problems = Problems()
    result = validate_game(game_arg, problems, options)
    if problems.errors:
        raise DataError(problems.errors)
    game = result.game
    outputs = []
    for component in game_components(game):
        outputs.extend(component.build(game, options))
        if progress:
            progress(component.name)
    rendered, pages = {}, {}
    for out in outputs:
        if out.pdf is None:
            out.pdf = render(out.pages, f"{game.title}: {out.title}", game.author, outline=out.title)
        rendered[out.filename] = out.pdf
        pages[out.filename] = page_count(out.pdf)
    rendered[KIT_FILE] = merge([(o.title, o.pdf) for o in outputs if o.in_kit], game.title, game.author)
    pages[KIT_FILE] = sum(pages[o.filename] for o in outputs if o.in_kit)
    return BuildResult(game, write_atomically(out_dir, rendered), pages)


def page_count(pdf: bytes) -> int:
    import io

    from pypdf import PdfReader
    return len(PdfReader(io.BytesIO(pdf)).pages)


def write_atomically(out_dir, files: dict) -> list[Path]:
    """Write every file or none: render to a temporary folder first, then move each into place."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".pnp-build-", dir=out))
    try:
        for name, data in files.items():
            (tmp / name).write_bytes(data)
        written = []
        for name in files:
            os.replace(tmp / name, out / name)
            written.append(out / name)
        return written
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
