"""``pnp preview``: one card face or one page of a component as a PNG, for a quick look."""

from __future__ import annotations

from pathlib import Path

import click

from pnp.commands.params import FiniteFloatRange
from pnp.components import BuildOptions
from pnp.errors import UserError, display_path
from pnp.units import PAPERS


def preview_png(target: str, game_arg=None, page: int | None = None, dpi: int = 100, lang: str | None = None,
                out: str | None = None, paper: str = "letter", bleed: float = 0.0,
                vision: str | None = None, side: str = "a") -> list[Path]:
    """Write the PNG of ``target`` (see :mod:`pnp.exports.preview`; ``back`` or ``aid`` of a game with
    several decks: one per deck) and return the paths. ``vision`` (a key of
    :data:`pnp.validation.colourvision.VISIONS`) shows it as a player with that colour vision sees it (or in grey),
    named ``<stem>-<vision>.png`` by default. ``side="b"``: a double-sided card's side B (``<card>-b.png``)."""
    from pnp.exports.cards import checked
    from pnp.exports.preview import previews, shared_targets
    from pnp.build.output import write_atomically

    # a preview is a look, not a kit: a translation's missing words print in the game's own language
    result = checked(game_arg, lang, allow_missing=True)
    game = result.game
    if result.untranslated:
        click.echo(f"warning: {result.untranslated} printed string{'s are' if result.untranslated != 1 else ' is'} "
                   f"not translated into '{lang or game.language}': the preview prints "
                   f"{'them' if result.untranslated != 1 else 'it'} in '{game.source_language}' (pnp validate"
                   f"{' --lang ' + lang if lang else ''} lists {'them' if result.untranslated != 1 else 'it'})",
                   err=True)
    many = shared_targets(game).get(target) if side == "a" else None
    if out and many:
        raise UserError(f"{target!r}: {game.title} has {len(many)} decks with one; name a deck to write "
                        f"{out}: {', '.join(many)}")
    results = previews(game, target, page, dpi, BuildOptions(paper=paper, lang=lang), bleed, side)
    if vision:
        from dataclasses import replace

        from pnp.validation.colourvision import simulate_png
        results = [replace(r, png=simulate_png(r.png, vision, dpi), stem=f"{r.stem}-{vision}") for r in results]
    if out:
        path = Path(out)
        return write_atomically(path.parent, {path.name: results[0].png})
    return write_atomically(default_folder(game), {f"{r.stem}.png": r.png for r in results})


def default_folder(game) -> Path:
    """Where a preview goes without ``--out``: ``preview/<game>`` in the user's cache folder
    (``~/.cache/pnp/preview/<game>``, or under ``$XDG_CACHE_HOME/pnp``), never the folder pnp runs in."""
    from pnp.cache.cachedir import user_cache_dir

    folder = user_cache_dir()
    if folder is None:
        raise UserError("no home folder to keep the preview in: give --out FILE.png")
    return folder / "preview" / game.id


@click.command("preview")
@click.argument("target", metavar="CARD_ID|COMPONENT")
@click.argument("game", required=False)
@click.option("--page", type=click.IntRange(1), default=None, metavar="N",
              help="Page of the component's PDF.  [default: 1]")
@click.option("--dpi", type=click.IntRange(20, 600), default=100, show_default=True, help="Resolution.")
@click.option("--paper", type=click.Choice(sorted(PAPERS)), default="letter", show_default=True,
              help="Sheet size components are laid out for.")
@click.option("--lang", default=None, metavar="LANG", help="Language (e.g. es); default: the game's.")
@click.option("--bleed", type=FiniteFloatRange(0, 10), default=0.0, show_default=True, metavar="MM",
              help="For a card: show this much art past the trim line.")
@click.option("--vision", type=click.Choice(["deutan", "protan", "tritan", "grey"]), default=None,
              help="Show it as a player sees it with deuteranopia, protanopia or tritanopia (simulated), or "
                   "printed in greyscale; the file name ends in -deutan, -protan, -tritan or -grey.")
@click.option("--side", type=click.Choice(["a", "b"]), default="a", show_default=True,
              help="For a double-sided card: b shows its side B (written as CARD_ID-b.png).")
@click.option("--out", default=None, metavar="FILE.png",
              help="Where to write. Default: CARD_ID.png or FILE-pN.png in pnp's preview folder of the game, in "
                   "the user's cache folder (~/.cache/pnp/preview/GAME/, or under $XDG_CACHE_HOME/pnp); "
                   "the path is printed.")
def command(target, game, page, dpi, paper, lang, bleed, vision, side, out):
    """Write a PNG of one card face or of one page of a component of GAME, and print its path.

    CARD_ID|COMPONENT is a card id from cards.yaml (or 'back', 'back-VALUE' for the back of the cards whose
    key has VALUE when a deck's back varies by a card key, or 'aid' for the player-aid card; with several
    decks 'DECK:back', 'DECK:back-VALUE', 'DECK:aid', and 'back' alone writes every deck's back); a
    component from game.yaml's list (power_track, cards, tokens, rulebook, box, instructions: its first
    file); one of the kit's files (cards-backs.pdf, rulebook-imposed.pdf, ...); or 'kit'. Only what is
    needed is built (instructions and the kit need the whole kit).
    """
    for path in preview_png(target, game, page, dpi, lang, out, paper, bleed, vision, side):
        click.echo(display_path(path))
