"""``pnp export``: card images for print services and Tabletop Simulator deck sheets."""

from __future__ import annotations


import click

from pnp.commands.params import FiniteFloatRange
from pnp.commands.progress import progress_bar
from pnp.errors import UserError, display_path
from pnp.exports.presets import PRESETS as _PRESETS

PRESET_NAMES = tuple(_PRESETS)


@click.group("export")
def command():
    """Export images: card faces as PNG for print services, Tabletop Simulator deck sheets.

    Images are rasterized (pypdfium2) from the same drawing as the printed kit, and the same input gives
    byte-identical files. Nothing is written if the game's data has problems.
    """


@command.command("cards")
@click.argument("game", required=False)
@click.option("--format", "fmt", type=click.Choice(["png"]), default="png", show_default=True,
              help="Image format.")
@click.option("--dpi", type=click.IntRange(30, 1200), default=None,
              help="Resolution (default 300); print services usually ask for 300.")
@click.option("--bleed", type=FiniteFloatRange(0, 10), default=None, metavar="MM",
              help="Art past the trim line on every side (default 0; print services usually ask for 3).")
@click.option("--preset", type=click.Choice(sorted(PRESET_NAMES)), default=None,
              help="A print service's card images: its pixel size, bleed and safe zone, and the files its "
                   "upload page takes (fronts/NNN-<card>-<copy>.png and back.png per deck).")
@click.option("--lang", default=None, metavar="LANG",
              help="Language of the card text (e.g. es); default: the game's.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Folder the images are written to (default output/cards, or output/<preset>).")
def cards(game, fmt, dpi, bleed, preset, lang, out_dir):
    """One PNG per physical card of GAME and back.png, at the pixel size print services expect.

    Files are named by card id and copy (outlaw-1.png, outlaw-2.png, ...), player-aid cards aid-1.png,
    aid-2.png, ..., and the shared back back.png; a game with several decks gets one folder of these per
    deck, named by the deck's id. Each image is (card size + 2 x bleed) in mm at DPI,
    each side rounded to the nearest pixel, halves up: a 63 x 88 mm card is 744 x 1039 px at 300 dpi,
    815 x 1110 px with --bleed 3. The dpi is recorded in the PNG.

    With --preset NAME, the images follow that print service's template instead (thegamecrafter: 825 x 1125
    px; makeplayingcards, printerstudio: 822 x 1122 px, for poker cards), named as its upload page takes
    them, and every face is checked against the service's safe zone (a warning per card). See
    docs/printing.md for each service's upload steps.
    """
    from pnp.exports.cards import checked_game, export_cards, face_count

    if preset:
        if dpi is not None or bleed is not None:
            raise UserError(f"--preset {preset} sets the pixel size and bleed: leave out --dpi and --bleed")
        return _preset(game, preset, lang, out_dir or f"output/{preset}")
    dpi = 300 if dpi is None else dpi
    bleed = 0.0 if bleed is None else bleed
    out_dir = out_dir or "output/cards"
    g = checked_game(game, lang)
    with progress_bar(face_count(g, lang), "Rendering cards") as step:
        result = export_cards(game, out_dir, dpi=dpi, bleed=bleed, lang=lang, progress=step, game=g)
    w, h = result.size
    click.echo(f"{len(result.files)} images of {w} x {h} px ({dpi} dpi, bleed {bleed:g} mm) in "
               f"{display_path(out_dir)}")


def _preset(game, name, lang, out_dir):
    from pnp.exports.cards import checked_game, export_preset, face_count
    from pnp.exports.presets import PRESETS

    preset = PRESETS[name]
    g = checked_game(game, lang)
    with progress_bar(face_count(g, lang), "Rendering cards") as step:
        result = export_preset(game, out_dir, preset, lang=lang, progress=step, game=g)
    for warning in result.warnings:
        click.echo(str(warning), err=True)
    sizes = ", ".join(sorted({f"{w} x {h} px" for w, h in result.sizes.values()}))
    click.echo(f"{len(result.files)} images of {sizes} for {preset.service} (300 dpi, RGB) in "
               f"{display_path(out_dir)}")


@command.command("tts")
@click.argument("game", required=False)
@click.option("--lang", default=None, metavar="LANG",
              help="Language of the card text (e.g. es); default: the game's.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="output/tts", show_default=True,
              help="Folder the sheets are written to.")
def tts(game, lang, out_dir):
    """Tabletop Simulator deck sheets for GAME, back.png, and tts.json.

    Each sheet deck-N.png is a 10 x 7 grid at most 4096 px wide (409 x 571 px cells for 63 x 88 mm
    cards): 69 cards in reading order and, in the last cell, the back as the hidden-card face.
    tts.json lists every card's sheet, row, column and index in TTS order (see docs/printing.md). A game
    with several decks gets one set of sheets and its own back per deck, in a folder named by the deck's id.
    """
    from pnp.exports.cards import checked_game, face_count
    from pnp.exports.tts import export_tts

    g = checked_game(game, lang)
    with progress_bar(face_count(g, lang), "Rendering cards") as step:
        result = export_tts(game, out_dir, lang=lang, progress=step, game=g)
    click.echo(f"{result.sheets} sheet{'s' if result.sheets != 1 else ''} of {result.cell[0]} x {result.cell[1]} px "
               f"cards, back.png and tts.json in {display_path(out_dir)}")
