"""``pnp build``: validate a game and write its kit's PDFs."""

from __future__ import annotations

import sys

import click

from pnp.components import BuildOptions
from pnp.errors import display_path
from pnp.kit import build_kit
from pnp.units import PAPERS


@click.command("build")
@click.argument("game", required=False)
@click.option("--paper", type=click.Choice(sorted(PAPERS)), default="letter", show_default=True,
              help="Sheet size the kit is laid out for.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="output", show_default=True,
              help="Folder the PDFs are written to.")
@click.option("--flip", type=click.Choice(["long", "short"]), default="long", show_default=True,
              help="Edge your duplex printer flips on; card backs are mirrored to match.")
@click.option("--booklet-flip", type=click.Choice(["short", "long"]), default="short", show_default=True,
              help="Edge your duplex printer flips landscape sheets on, for the imposed rulebook; "
                   "with 'long' every back side is printed upside down so it reads the right way up.")
@click.option("--sleeved", metavar="KIND", default=None,
              help="Size the box for sleeved cards: a sleeve kind from the game's box.yaml "
                   "(e.g. thin, thick). Default: bare cards.")
def command(game, paper, out_dir, flip, booklet_flip, sleeved):
    """Build GAME's print-and-play kit (a bundled game's name or a game folder; default: the project's
    default game, see pyproject.toml [tool.pnp]).

    Writes one PDF per component and kit.pdf with everything in print order. Nothing is written if
    the data has problems.
    """
    result = build_kit(game, out_dir, BuildOptions(paper=paper, flip=flip, sleeved=sleeved,
                                                    booklet_flip=booklet_flip))
    quiet = not sys.stdout.isatty()
    for path in result.files:
        n = result.pages[path.name]
        click.echo(f"{display_path(path)}  ({n} page{'s' if n != 1 else ''})")
    if not quiet:
        click.echo(f"{result.game.title}: kit built for {paper} paper.")
