"""``pnp build``: validate a game and write its kit's PDFs."""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

import click

from pnp.commands.params import FiniteFloatRange, within_cores
from pnp.commands.progress import progress_bar
from pnp.components import BuildOptions
from pnp.errors import UserError, display_path
from pnp.exports.presets import PDF_PRESETS
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
@click.option("--players", type=click.IntRange(1, 20), default=None, metavar="N",
              help="Build the deck for N players (games whose deck depends on the player count); "
                   "default: the full deck.")
@click.option("--lang", default=None, metavar="LANG",
              help="Build the kit in LANG (e.g. es); default: the language of the game's data. A printed "
                   "string the translation lacks stops the build (see pnp validate --lang).")
@click.option("--allow-missing", is_flag=True,
              help="With --lang: build even when strings are untranslated (a playtest kit); they print in "
                   "the game's own language and are listed as warnings.")
@click.option("--bleed", type=FiniteFloatRange(0, 10), default=0.0, show_default=True, metavar="MM",
              help="Extend card and token art this far past the trim line and add crop marks "
                   "(print services usually ask for 3).")
@click.option("--back-offset", default="0,0", show_default=True, metavar="X,Y",
              help="Shift card back pages by X,Y mm to correct a printer's duplex drift "
                   "(measure it with --calibration).")
@click.option("--cards", "card_sheets", type=click.Choice(["sheets", "gutterfold"]), default="sheets",
              show_default=True,
              help="How card sheets are printed: sheets = fronts and backs on separate pages (duplex, or a "
                   "second pass); gutterfold = each card's front and back on one side of one sheet, folded on "
                   "the gutter and glued (no duplex printer needed).")
@click.option("--cutter", type=click.Choice(["silhouette", "cricut", "scanncut"]), default=None,
              help="Print-and-cut on a cutting machine: pieces lie apart inside the area it cuts (art 1 mm past "
                   "every cut line) and a cut file of every outline (SVG and DXF) goes beside the PDF; silhouette: "
                   "its registration marks on the sheets; cricut: a PNG of each sheet to upload to Design Space; "
                   "scanncut: a keyline on every cut line, for its scan (docs/printing.md).")
@click.option("--changed-since", default=None, metavar="OLD_KIT_DIR|REF",
              help="Also write reprint.pdf: a changelog of the pieces (cards, tokens, standees, dice, boards, "
                   "tracks, the map, the box) added, removed and changed since the kit in OLD_KIT_DIR (its "
                   "pieces.json), or since the git commit REF of the game folder's repository (a tag, a branch, "
                   "HEAD~3), then sheets of only the pieces whose drawing changed (docs/printing.md).")
@click.option("--ink-saver", is_flag=True, help="Replace large colour fills with light tints and outlines.")
@click.option("--calibration", is_flag=True,
              help="Write only calibration.pdf: a one-sheet duplex test to measure --back-offset.")
@click.option("--preset", type=click.Choice(sorted(PDF_PRESETS)), default=None,
              help="Write only a print service's files: drivethrucards = one CMYK PDF/X-1a file per deck, "
                   "one card side per page at trim + 1/8 in bleed, each card's back then its face (needs "
                   "Ghostscript's CMYK profile or PNP_CMYK_PROFILE; see docs/printing.md).")
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None, metavar="N", callback=within_cores,
              help="Processes that check and draw the components side by side; the kit is the same byte "
                   "for byte with any N (more than the CPU cores pnp may use counts as those). Default: those "
                   "cores that are free now (the cores less the load average), at most 4.")
@click.option("--cache", "cache_dir", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="Keep what the build drew in DIR and draw again only what an edit changed (default: "
                   ".pnp-cache in the --out folder). The kit is the same byte for byte as without it. DIR "
                   "must be new, empty or a cache pnp made: pnp marks it and deletes only its own files there.")
@click.option("--no-cache", is_flag=True, help="Check and draw everything; read and write no build cache.")
def command(game, paper, out_dir, flip, booklet_flip, sleeved, players, lang, allow_missing, bleed, back_offset,
            card_sheets, cutter, changed_since, ink_saver, calibration, preset, jobs, cache_dir, no_cache):
    """Build GAME's print-and-play kit (a bundled game's name or a game folder; default: the project's
    default game, see pyproject.toml [tool.pnp]).

    Writes one PDF per component and kit.pdf with everything in print order. Nothing is written if
    the data has problems.
    """
    offset = parse_offset(back_offset)
    if cutter and card_sheets == "gutterfold":
        raise UserError("--cutter and --cards gutterfold cannot go together: a cutting machine cuts one "
                        "printed layer; print gutterfold sheets without --cutter")
    options = BuildOptions(paper=paper, flip=flip, sleeved=sleeved, booklet_flip=booklet_flip, bleed=bleed,
                           back_offset=offset, ink_saver=ink_saver, lang=lang, players=players,
                           allow_missing=allow_missing, cards=card_sheets, cutter=cutter,
                           changed_since=changed_since)
    if changed_since and not (preset or calibration):
        from pnp.reprint.changes import check_earlier
        check_earlier(changed_since, game)      # a wrong folder or reference: said before any work
    if preset:
        from pnp.draw.merge import page_count
        from pnp.exports.presets import PDF_PRESETS as presets
        from pnp.exports.printshop import build_print_shop
        paths, warnings = build_print_shop(game, out_dir, options, presets[preset])
        for warning in warnings:
            click.echo(str(warning), err=True)
        for path in paths:
            click.echo(f"{display_path(path)}  ({page_count(path.read_bytes())} pages, PDF/X-1a, CMYK)")
        return
    if calibration:
        from pnp.build.kit import build_calibration

        path = build_calibration(game, out_dir, options)
        click.echo(f"{display_path(path)}  (2 pages: print them on one sheet, double-sided)")
        return
    cache = build_cache(out_dir, cache_dir, no_cache)
    # the kit in --out is the one this build would write: nothing to do (pnp.cache.uptodate)
    from pnp.cache import uptodate

    key = uptodate.kit_key(game, out_dir, options, cache)
    held = uptodate.held(cache, key, out_dir, game)
    if held is not None:
        _list_kit(held, f"{held.title}: the kit for {paper} paper is up to date.")
        click.echo(f"Nothing changed since {display_path(Path(out_dir))} was built: the kit there is up to date "
                   f"(--no-cache builds it again).", err=True)
        return
    from pnp.build.kit import build_kit
    from pnp.build.workers import default_jobs

    with progress_bar(_component_count(game), "Building") as step:
        result = build_kit(game, out_dir, options, progress=step, jobs=jobs or default_jobs(), cache=cache,
                           kit_key=key)
    _list_kit(result, f"{result.game.title}: kit built for {paper} paper.")


def _list_kit(result, done: str) -> None:
    """The build's warnings, then every file written, with its pages (a :class:`pnp.build.kit.BuildResult`, or the
    :class:`pnp.cache.uptodate.HeldKit` found up to date)."""
    for warning in result.warnings:
        click.echo(str(warning), err=True)
    quiet = not sys.stdout.isatty()
    for path in result.files:
        n = result.pages.get(path.name)
        if path.suffix in (".svg", ".dxf"):     # --cutter: cut files beside their PDF
            click.echo(f"{display_path(path)}  (cut lines)")
            continue
        if path.suffix == ".png" and not re.search(r"-p\d+\.png$", path.name):   # a pad's side, as a picture
            click.echo(f"{display_path(path)}  (picture, for a virtual table)")
            continue
        if path.suffix in (".png", ".txt"):     # --cutter cricut: the sheets' images to upload, their sizes
            click.echo(f"{display_path(path)}  ({'image to upload' if path.suffix == '.png' else 'image sizes'})")
            continue
        if path.name.endswith("-fillable.pdf") and n is not None:    # a pad to fill in on a screen
            click.echo(f"{display_path(path)}  (fillable form, {n} page{'s' if n != 1 else ''})")
            continue
        if path.name == "pieces.json":         # what --changed-since compares a later build with (pnp.reprint.changes)
            click.echo(f"{display_path(path)}  (every piece's drawing, for --changed-since)")
            continue
        if n is None:                 # manifest.json: the bill of materials
            click.echo(f"{display_path(path)}  ({result.sheets} sheets of paper in all)")
            continue
        click.echo(f"{display_path(path)}  ({n} page{'s' if n != 1 else ''})")
    if not quiet:
        click.echo(done)


def _component_count(game) -> int:
    """The progress bar's length (0, no bar, when stderr is not a terminal: nothing to load then)."""
    from pnp.components import game_components
    from pnp.errors import DataError
    from pnp.loading.gamedata import load_game

    if not sys.stderr.isatty():
        return 0
    try:
        return len(game_components(load_game(game)))
    except (DataError, UserError):
        return 0   # build_kit reports it


def build_cache(out_dir, cache_dir=None, off: bool = False):
    """The build cache of ``--cache``/``--no-cache``: ``.pnp-cache`` in the output folder by default, so
    nothing is written outside ``--out`` unless the user names a folder. A folder that is not pnp's (one
    holding the user's files) is refused before anything is done (:mod:`pnp.cache.cachedir`)."""
    from pnp.cache.buildcache import FOLDER, BuildCache

    if off:
        if cache_dir is not None:
            raise UserError("--cache and --no-cache: give one of them")
        return BuildCache(None)
    if cache_dir is not None:
        return BuildCache(cache_dir).claim("--cache")
    from pnp.build.output import real_out

    real_out(Path(out_dir))          # "--out is not a folder" before its cache folder is looked at
    return BuildCache(Path(out_dir) / FOLDER).claim(None)


def parse_offset(text: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise UserError(f"--back-offset {text[:40]!r}: expected two numbers in mm, like 1.5,-0.5") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise UserError(f"--back-offset {text[:40]!r}: expected two finite numbers in mm, like 1.5,-0.5")
    if max(abs(x), abs(y)) > 20:
        raise UserError(f"--back-offset {text!r}: more than 20 mm is not a printer's drift")
    return x, y
