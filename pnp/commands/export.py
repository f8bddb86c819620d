"""``pnp export``: card images for print services and Tabletop Simulator deck sheets."""

from __future__ import annotations

import contextlib
import sys

import click

from pnp.errors import display_path


@contextlib.contextmanager
def progress_bar(length: int, label: str):
    """A click progress bar on a terminal (stderr), nothing otherwise; yields an update(step) callable."""
    if length and sys.stderr.isatty():
        with click.progressbar(length=length, label=label, file=sys.stderr) as bar:
            yield lambda *_: bar.update(1)
    else:
        yield lambda *_: None


@click.group("export")
def command():
    """Export images: card faces as PNG, Tabletop Simulator deck sheets."""


@command.command("cards")
@click.argument("game", required=False)
@click.option("--format", "fmt", type=click.Choice(["png"]), default="png", show_default=True,
              help="Image format.")
@click.option("--dpi", type=click.IntRange(30, 1200), default=300, show_default=True, help="Resolution.")
@click.option("--bleed", type=click.FloatRange(0, 10), default=0.0, show_default=True, metavar="MM",
              help="Art past the trim line on every side (print services usually ask for 3).")
@click.option("--lang", default=None, metavar="LANG", help="Language of the card text.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="output/cards", show_default=True,
              help="Folder the images are written to.")
def cards(game, fmt, dpi, bleed, lang, out_dir):
    """One PNG per physical card (ID-COPY.png, aid-N.png) and back.png, at the pixel size print services
    expect: (card size + 2 x bleed) in mm at DPI, rounded to the nearest pixel."""
    from pnp.exports.cards import checked_game, deck_cards, distinct_faces, export_cards

    g = checked_game(game, lang)
    with progress_bar(len(distinct_faces(deck_cards(g, lang))), "Rendering cards") as step:
        result = export_cards(game, out_dir, dpi=dpi, bleed=bleed, lang=lang, progress=step, game=g)
    w, h = result.size
    click.echo(f"{len(result.files)} images of {w} x {h} px ({dpi} dpi, bleed {bleed:g} mm) in "
               f"{display_path(out_dir)}")


@command.command("tts")
@click.argument("game", required=False)
@click.option("--lang", default=None, metavar="LANG", help="Language of the card text.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="output/tts", show_default=True,
              help="Folder the sheets are written to.")
def tts(game, lang, out_dir):
    """Tabletop Simulator deck sheets (10 x 7 cells, at most 4096 px wide, the last cell the hidden-card
    face), back.png and tts.json saying which cell holds which card."""
    from pnp.exports.cards import checked_game, deck_cards, distinct_faces
    from pnp.exports.tts import export_tts

    g = checked_game(game, lang)
    with progress_bar(len(distinct_faces(deck_cards(g, lang))), "Rendering cards") as step:
        result = export_tts(game, out_dir, lang=lang, progress=step, game=g)
    click.echo(f"{result.sheets} sheet{'s' if result.sheets != 1 else ''} of {result.cell[0]} x {result.cell[1]} px "
               f"cards, back.png and tts.json in {display_path(out_dir)}")
