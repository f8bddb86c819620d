"""``pnp preview``: one card face, or one page of a component's PDF, as a PNG.

A target is looked up in this order: a card id (or ``back``, ``aid``), a component name from game.yaml
(its first file: ``cards`` -> cards-fronts.pdf, ``rulebook`` -> rulebook.pdf), an output file name
(``cards-backs.pdf``), or ``kit`` / ``kit.pdf``. Only the component asked for is built, except for
components that describe the whole kit (instructions) and for the kit itself.
"""

from __future__ import annotations

import difflib
import tempfile
from dataclasses import dataclass
from pathlib import Path

from pnp.components import BuildOptions, game_components
from pnp.draw.icons import using
from pnp.draw.merge import page_count
from pnp.errors import UserError
from pnp.exports.cards import aid_key, back_key, deck_of_key, face_images
from pnp.exports.raster import Rasterizer, png_bytes, size_px
from pnp.kit import KIT_FILE, build_kit, describe_kit, finished


@dataclass
class Preview:
    """One card face or page as a PNG, with its pixel size, a default file name stem and what it shows."""

    png: bytes
    size: tuple          # (width, height) px
    stem: str            # default file name stem, e.g. "outlaw" or "cards-fronts-p2"
    what: str            # e.g. "card 'outlaw'" or "cards-fronts.pdf page 2 of 7"


def face_keys(game) -> list[str]:
    """Card ids, then each deck's back (``back``, or ``<deck>:back`` with several decks) and aid."""
    keys = [c.id for c in game.cards]
    for deck in game.decks:
        keys.append(back_key(game, deck))
        if deck.aid_copies:
            keys.append(aid_key(game, deck))
    return keys


def preview(game, target: str, page: int | None = None, dpi: int = 150, options: BuildOptions | None = None,
            bleed: float = 0.0) -> Preview:
    with using(game.icons):
        return _preview(game, target, page, dpi, options or BuildOptions(), bleed)


def _preview(game, target: str, page: int | None, dpi: int, options: BuildOptions, bleed: float) -> Preview:
    if target in face_keys(game):
        if page is not None:
            raise UserError(f"--page applies to components and files, not to the card {target!r}")
        deck = deck_of_key(game, target)
        size = size_px(deck.width + 2 * bleed, deck.height + 2 * bleed, dpi)
        image = face_images(game, [target], size, bleed, options.lang)[target]
        return Preview(png_bytes(image, dpi), size, target.replace(":", "-"), f"card {target!r}")
    filename, pdf = component_pdf(game, target, options)
    n = page_count(pdf)
    page = 1 if page is None else page
    if not 1 <= page <= n:
        raise UserError(f"--page {page}: {target!r} ({filename}) has {n} page{'s' if n != 1 else ''}")
    with Rasterizer(pdf) as pages:
        image = pages.render_at(page - 1, dpi)
    stem = f"{Path(filename).stem}-p{page}"
    return Preview(png_bytes(image, dpi), image.size, stem, f"{filename} page {page} of {n}")


def component_pdf(game, target: str, options: BuildOptions) -> tuple[str, bytes]:
    """(file name, PDF bytes) for a component name, an output file name, or the kit."""
    components = game_components(game)
    by_name = {c.name: c for c in components}
    if target in by_name:
        out = _outputs(game, by_name[target], components, options)[0]
        return out.filename, out.pdf
    if target in ("kit", KIT_FILE):
        with tempfile.TemporaryDirectory(prefix="pnp-preview-") as tmp:
            build_kit(game.root, tmp, options)
            return KIT_FILE, (Path(tmp) / KIT_FILE).read_bytes()
    if target.endswith(".pdf"):
        # components that describe the kit go last: they need every other file built first
        for component in sorted(components, key=lambda c: c.needs_kit):
            for out in _outputs(game, component, components, options):
                if out.filename == target:
                    return out.filename, out.pdf
    raise UserError(_unknown(game, target, components))


def _outputs(game, component, components, options) -> list:
    """The component's outputs with their PDFs rendered (kit-describing ones built as pnp build does)."""
    if not component.needs_kit:
        return finished(game, component.build(game, options), options)
    built = {c.name: finished(game, c.build(game, options), options) for c in components if not c.needs_kit}
    return describe_kit(game, component, components, built, options)


def _unknown(game, target: str, components) -> str:
    names = [c.name for c in components]
    close = difflib.get_close_matches(target, face_keys(game) + names + ["kit"], n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return (f"no card or component {target!r} in {game.title}{hint}; components: {', '.join(names)}, kit "
            f"(or a file name like cards-backs.pdf); cards: {', '.join(face_keys(game))}")
