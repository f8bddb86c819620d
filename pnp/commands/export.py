"""``pnp export``: card images for print services and Tabletop Simulator deck sheets."""

from __future__ import annotations


import click

from pnp.commands.params import FiniteFloatRange
from pnp.commands.progress import progress_bar
from pnp.errors import UserError, display_path
from pnp.exports.presets import PRESETS as _PRESETS

PRESET_NAMES = tuple(_PRESETS)

_DECK = click.option("--deck", "decks", multiple=True, metavar="ID",
                     help="Only this deck (repeat for several); default: every deck.")


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
              help="A print service's card images: for each deck, its template for that card size (pixel "
                   "size, bleed, safe zone) and the files its upload page takes (fronts/NNN-<card>-<copy>.png "
                   "and back.png). A deck of a size the service does not print is left out with a warning.")
@_DECK
@click.option("--lang", default=None, metavar="LANG",
              help="Language of the card text (e.g. es); default: the game's.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Folder the images are written to (default output/cards, or output/<preset>).")
def cards(game, fmt, dpi, bleed, preset, decks, lang, out_dir):
    """One PNG per physical card of GAME and back.png, at the pixel size print services expect.

    Files are named by card id and copy (outlaw-1.png, outlaw-2.png, ...), player-aid cards aid-1.png,
    aid-2.png, ..., and the shared back back.png; a game with several decks gets one folder of these per
    deck, named by the deck's id. Each image is (card size + 2 x bleed) in mm at DPI,
    each side rounded to the nearest pixel, halves up: a 63 x 88 mm card is 744 x 1039 px at 300 dpi,
    815 x 1110 px with --bleed 3. The dpi is recorded in the PNG.

    With --preset NAME, the images follow that print service's template for each deck's card size
    instead (poker cards: thegamecrafter 825 x 1125 px; makeplayingcards, printerstudio 822 x 1122 px; mini,
    bridge, tarot, square ... see docs/printing.md), named as its upload page takes them, and every face
    is checked against the service's safe zone (a warning per card). A deck the service prints no size of
    is left out with a warning naming it. A deck whose back varies by a card key also gets
    back-<value>.png and backs/NNN-<card>-<copy>.png (each card's own back). See docs/printing.md for each
    service's upload steps. --deck ID exports only that deck (repeat the option for several).
    """
    from pnp.exports.cards import checked_game, export_cards, face_count

    if preset:
        if dpi is not None or bleed is not None:
            raise UserError(f"--preset {preset} sets the pixel size and bleed: leave out --dpi and --bleed")
        return _preset(game, preset, decks, lang, out_dir or f"output/{preset}")
    dpi = 300 if dpi is None else dpi
    bleed = 0.0 if bleed is None else bleed
    out_dir = out_dir or "output/cards"
    g = checked_game(game, lang)
    with progress_bar(face_count(g, lang, decks), "Rendering cards") as step:
        result = export_cards(game, out_dir, dpi=dpi, bleed=bleed, lang=lang, progress=step, game=g, decks=decks)
    for warning in result.warnings:
        click.echo(str(warning), err=True)
    w, h = result.size
    click.echo(f"{len(result.files)} images of {w} x {h} px ({dpi} dpi, bleed {bleed:g} mm) in "
               f"{display_path(out_dir)}")


def _preset(game, name, decks, lang, out_dir):
    from pnp.exports.cards import checked_game, deck_products, export_preset, face_count
    from pnp.exports.presets import PRESETS

    preset = PRESETS[name]
    g = checked_game(game, lang)
    products, _ = deck_products(g, preset, decks)
    with progress_bar(face_count(g, lang, [d for d in products]) if products else 0, "Rendering cards") as step:
        result = export_preset(game, out_dir, preset, lang=lang, progress=step, game=g, decks=decks)
    for warning in result.skipped + result.warnings:
        click.echo(str(warning), err=True)
    sizes = ", ".join(sorted({f"{w} x {h} px" for w, h in result.sizes.values()}))
    made = "; ".join(f"deck {deck_id!r}: {p.title}, {p.image_px[0]} x {p.image_px[1]} px" if g.several_decks
                     else p.title for deck_id, p in result.products.items())
    click.echo(f"{len(result.files)} images of {sizes} for {preset.service} ({made}; 300 dpi, RGB) in "
               f"{display_path(out_dir)}")


@command.command("tts")
@click.argument("game", required=False)
@click.option("--lang", default=None, metavar="LANG",
              help="Language of the card text (e.g. es); default: the game's.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="output/tts", show_default=True,
              help="Folder the sheets are written to.")
@click.option("--base-url", default=None, metavar="URL",
              help="Where the saved object finds the images: a web address where you host the folder "
                   "(https://example.org/mygame/) or the folder on this computer (file:///home/me/mygame/); "
                   "each image is named by it and its file name. Default: file names relative to the folder.")
@_DECK
def tts(game, lang, out_dir, decks, base_url):
    """Tabletop Simulator deck sheets for GAME, back.png, and tts.json.

    Each sheet deck-N.png is a 10 x 7 grid at most 4096 px wide (409 x 571 px cells for 63 x 88 mm
    cards): 69 cards in reading order and, in the last cell, the back as the hidden-card face.
    tts.json lists every card's sheet, row, column and index in TTS order (see docs/printing.md). A game
    with several decks gets one set of sheets and its own back per deck, in a folder named by the deck's id.
    A deck whose back varies by a card key gets a back sheet backs-N.png beside each deck-N.png, each card's
    back in the same cell (Tabletop Simulator's "unique backs"), and tts.json says which back each card
    shows. --deck ID exports only that deck (repeat the option for several).

    <game>.json is a saved object for Tabletop Simulator's Saved Objects folder: every deck, board,
    token and die laid out on the table (their images in boards/, tokens/ and dice/); with --deck,
    only those decks.
    """
    from pnp.exports.cards import checked_game, face_count
    from pnp.exports.tts import export_tts, saved_object_file

    g = checked_game(game, lang)
    with progress_bar(face_count(g, lang, decks), "Rendering cards") as step:
        result = export_tts(game, out_dir, lang=lang, progress=step, game=g, decks=decks, base_url=base_url)
    for warning in result.warnings:
        click.echo(str(warning), err=True)
    backs = sum(1 for d in result.decks for s in d.sheets if s.back_file)
    also = f", {backs} back sheet{'s' if backs != 1 else ''} (unique backs)" if backs else ""
    click.echo(f"{result.sheets} sheet{'s' if result.sheets != 1 else ''} of {result.cell[0]} x {result.cell[1]} px "
               f"cards{also}, back.png, tts.json and the saved object {saved_object_file(g)} in "
               f"{display_path(out_dir)}")
