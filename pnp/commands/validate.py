"""``pnp validate``: check a game's data and report every problem with its file and line."""

from __future__ import annotations

from pathlib import Path

import click

from pnp.components import BuildOptions
from pnp.errors import DataError, Problems, UserError
from pnp.validation.checks import validate_game, validate_languages

#: The subfolder of the user's cache folder (:func:`pnp.cache.cachedir.user_cache_dir`) validate keeps its checks in.
CACHE_NAME = "validate"


def default_cache() -> Path | None:
    """Where ``pnp validate`` keeps its checks without ``--cache``: ``validate`` in the user's cache folder
    (``~/.cache/pnp/validate``, or ``$XDG_CACHE_HOME/pnp/validate``), never the folder it runs in; None
    (no cache) when the user has none."""
    from pnp.cache.cachedir import user_cache_dir

    folder = user_cache_dir()
    return folder / CACHE_NAME if folder is not None else None


@click.command("validate")
@click.argument("game", required=False)
@click.option("--lang", default=None, metavar="LANG",
              help="Check the game in LANG only (e.g. es; default: in its own language and in every translation "
                   "it ships): every printed string LANG lacks (at the file and line of the original), every "
                   "unused key, and that the translated text fits.")
@click.option("--allow-missing", is_flag=True,
              help="With --lang: report untranslated strings as warnings (exit 0); a build prints them in "
                   "the game's own language.")
@click.option("--cache", "cache_dir", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="Keep each check's problems in DIR and check again only what an edit concerns (default: "
                   "pnp's folder in the user's cache folder, ~/.cache/pnp/validate or $XDG_CACHE_HOME/pnp/"
                   "validate; nothing is written in the current folder). The problems are the same as "
                   "without it. DIR must be new, empty or a cache pnp made.")
@click.option("--no-cache", is_flag=True, help="Run every check; read and write no cache.")
def command(game, lang, allow_missing, cache_dir, no_cache):
    """Check GAME's data (a bundled game's name or a game folder; default: the project's default game), in
    its own language and in every translation it ships (--lang narrows it to one).

    Reports every problem as FILE:LINE: SUBJECT: MESSAGE and exits with status 2 when any is an error;
    a valid game prints a one-line summary.
    """
    from pnp.cache.buildcache import BuildCache

    if no_cache and cache_dir is not None:
        raise UserError("--cache and --no-cache: give one of them")
    problems = Problems()
    cache = BuildCache(None if no_cache else cache_dir if cache_dir is not None else default_cache())
    cache.claim("--cache" if cache_dir is not None else None)     # a folder of the user's files is refused
    if lang:
        result = validate_game(game, problems, BuildOptions(lang=lang, allow_missing=allow_missing), cache=cache)
    else:                                   # every language the game ships
        result = validate_languages(game, problems, lambda each: BuildOptions(lang=each, allow_missing=True),
                                    cache=cache)
    cache.store()
    for warning in problems.warnings:
        click.echo(str(warning), err=True)
    if problems.errors:
        raise DataError(problems.errors)
    click.echo(result.summary)
