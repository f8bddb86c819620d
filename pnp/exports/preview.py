"""``pnp preview``: one card face, or one page of a component's PDF, as a PNG.

A target is looked up in this order: a card id (with ``side="b"``, its side B; or ``back``,
``back-<value>`` for a deck whose back
varies by a card key, ``aid``; with several decks ``<deck>:back``, ``<deck>:back-<value>``,
``<deck>:aid``, and ``back`` / ``aid`` alone for every deck's), a component name from game.yaml
(its first file: ``cards`` -> cards-fronts.pdf, ``rulebook`` -> rulebook.pdf), an output file name
(``cards-backs.pdf``), or ``kit`` / ``kit.pdf``. Only the component asked for is built, except for
components that describe the whole kit (instructions) and for the kit itself.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from pnp.suggest import closest
from pnp.components import BuildOptions, game_components
from pnp.draw.icons import for_game
from pnp.draw.merge import page_count
from pnp.errors import UserError
from pnp.exports.cards import SIDE_B, aid_key, back_key, back_value, deck_of_key, face_images, variant_keys
from pnp.draw.raster import Rasterizer, png_bytes, size_px
from pnp.build.kit import KIT_FILE, build_kit, describe_kit, finished
from pnp.build.sharing import share_sheets


@dataclass
class Preview:
    """One card face or page as a PNG, with its pixel size, a default file name stem and what it shows."""

    png: bytes
    size: tuple          # (width, height) px
    stem: str            # default file name stem, e.g. "outlaw" or "cards-fronts-p2"
    what: str            # e.g. "card 'outlaw'" or "cards-fronts.pdf page 2 of 7"


def face_targets(game) -> dict:
    """{target as typed: face key}: card ids, then each deck's back (``back``, or ``<deck>:back`` with several
    decks), its backs by value (``back-<value>``, ``<deck>:back-<value>``) and its aid."""
    targets = {c.id: c.id for c in game.cards}
    for deck in game.decks:
        back = back_key(game, deck)
        targets.setdefault(back, back)
        for key in variant_keys(game, deck):
            targets.setdefault(f"{back}-{back_value(key)}", key)
        if deck.aid_copies:
            targets.setdefault(aid_key(game, deck), aid_key(game, deck))
    return targets


def face_keys(game) -> list[str]:
    """Every card face target: card ids, then each deck's back, backs by value and aid."""
    return list(face_targets(game))


def shared_targets(game) -> dict:
    """With several decks, {``back``, ``aid``, ``back-<value>``: the face targets of each deck that has
    one}: a target that names no deck means every deck's."""
    if not game.several_decks:
        return {}
    out: dict = {}
    for target in face_targets(game):
        deck, sep, plain = target.partition(":")
        if sep and game.several_decks and any(d.id == deck for d in game.decks):
            out.setdefault(plain, []).append(target)
    return {k: v for k, v in out.items() if k not in face_targets(game)}


def preview(game, target: str, page: int | None = None, dpi: int = 150, options: BuildOptions | None = None,
            bleed: float = 0.0, side: str = "a") -> Preview:
    """``side="b"``: a double-sided card's side B (``target`` a card id)."""
    with for_game(game):
        return _preview(game, target, page, dpi, options or BuildOptions(), bleed, side)


def previews(game, target: str, page: int | None = None, dpi: int = 150, options: BuildOptions | None = None,
             bleed: float = 0.0, side: str = "a") -> list[Preview]:
    """:func:`preview`, or with several decks and ``back``, ``aid`` or ``back-<value>`` (no deck named),
    one preview per deck that has that face, in game.yaml's order."""
    many = shared_targets(game).get(target) if side == "a" else None
    if not many:
        return [preview(game, target, page, dpi, options, bleed, side)]
    return [preview(game, one, page, dpi, options, bleed) for one in many]


def side_b_target(game, target: str) -> str:
    """The face key of the side B of the card ``target`` (UserError when it names no double-sided card)."""
    by_id = {c.id: c for c in game.cards}
    card = by_id.get(target)
    if card is None:
        double = [c.id for c in game.cards if c.side_b is not None]
        close = closest(target, double)
        hint = f" (did you mean {close!r}?)" if close else ""
        raise UserError(f"--side b: {target!r} is not a card of {game.title}{hint}; --side b shows a double-sided "
                        f"card's side B (cards with one: {', '.join(double[:12]) or 'none'})")
    if card.side_b is None:
        raise UserError(f"--side b: card {target!r} has one face (its back: pnp preview "
                        f"{back_key(game, game.deck_of(card))})")
    return f"{card.id}{SIDE_B}"


def _preview(game, target: str, page: int | None, dpi: int, options: BuildOptions, bleed: float,
             side: str = "a") -> Preview:
    targets = face_targets(game)
    if side == "b":
        if page is not None:
            raise UserError(f"--page applies to components and files, not to the card {target!r}")
        targets = {f"{target}-b": side_b_target(game, target)}
        target = f"{target}-b"
    if target in targets:
        if page is not None:
            raise UserError(f"--page applies to components and files, not to the card {target!r}")
        key = targets[target]
        deck = deck_of_key(game, key)
        size = size_px(deck.width + 2 * bleed, deck.height + 2 * bleed, dpi)
        image = face_images(game, [key], size, bleed, options.lang)[key]
        what = f"card {target[:-2]!r} side B" if side == "b" else f"card {target!r}"
        return Preview(png_bytes(image, dpi), size, target.replace(":", "-"), what)
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
    components, built = share_sheets(game, components, built, options)      # as the kit's files are
    return describe_kit(game, component, components, built, options)


def _unknown(game, target: str, components) -> str:
    names = [c.name for c in components]
    close = closest(target, face_keys(game) + names + ["kit"])
    hint = f" (did you mean {close!r}?)" if close else ""
    return (f"no card or component {target!r} in {game.title}{hint}; components: {', '.join(names)}, kit "
            f"(or a file name like cards-backs.pdf); cards: {', '.join(face_keys(game))}")
