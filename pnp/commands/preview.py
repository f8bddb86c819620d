"""``pnp preview``: one card face or one page of a component as a PNG, for a quick look."""

from __future__ import annotations

from pathlib import Path

import click

from pnp.errors import UserError, display_path


def preview_png(target: str, game_arg=None, page: int = 1, dpi: int = 100, lang: str | None = None,
                out: str | None = None, paper: str = "letter") -> Path:
    """Write the PNG of card ``target`` (a card id) or of page ``page`` of a component or kit file."""
    from pnp.components import BuildOptions, game_components
    from pnp.draw.pdf import render
    from pnp.exports.cards import checked_game, faces_pdf
    from pnp.exports.raster import Rasterizer, png_bytes
    from pnp.kit import write_atomically

    game = checked_game(game_arg, lang)
    options = BuildOptions(paper=paper, lang=lang)
    if target in {c.id for c in game.cards}:
        pdf = faces_pdf(game, [target], lang=lang)
        page = 1
    else:
        components = game_components(game)
        matches = [c for c in components if c.name == target]
        if not matches:
            outputs = {o.filename: c for c in components if not c.needs_kit
                       for o in c.build(game, options)}
            if target in outputs:
                matches = [outputs[target]]
        if not matches:
            names = sorted({c.name for c in components})
            raise UserError(f"no card or component '{target}' in {game.title}; components: {', '.join(names)}; "
                            f"cards: {', '.join(c.id for c in game.cards)}")
        component = matches[0]
        if component.needs_kit:
            raise UserError(f"'{component.name}' describes the whole kit: build it with pnp build and open "
                            f"its PDF instead")
        outputs = component.build(game, options)
        chosen = next((o for o in outputs if o.filename == target), outputs[0])
        pdf = chosen.pdf or render(chosen.pages, chosen.title)
    with Rasterizer(pdf) as pages:
        if not 1 <= page <= len(pages):
            raise UserError(f"--page {page}: '{target}' has {len(pages)} page{'s' if len(pages) != 1 else ''}")
        image = pages.render_at(page - 1, dpi)
    path = Path(out) if out else Path("output") / "preview" / f"{target.replace('.pdf', '')}-{page}.png"
    return write_atomically(path.parent, {path.name: png_bytes(image, dpi)})[0]


@click.command("preview")
@click.argument("target")
@click.argument("game", required=False)
@click.option("--page", type=click.IntRange(1), default=1, show_default=True, help="Page of a component.")
@click.option("--dpi", type=click.IntRange(20, 600), default=100, show_default=True, help="Resolution.")
@click.option("--paper", type=click.Choice(["letter", "a4"]), default="letter", show_default=True)
@click.option("--lang", default=None, metavar="LANG", help="Language.")
@click.option("--out", default=None, metavar="FILE.png", help="Where to write (default output/preview/...).")
def command(target, game, page, dpi, paper, lang, out):
    """Write a PNG of TARGET and print its path: a card id (its face), a component (power_track, cards,
    tokens, rulebook, box; --page N) or one of its files (cards-backs.pdf)."""
    click.echo(display_path(preview_png(target, game, page, dpi, lang, out, paper)))
