"""``pnp validate``: check a game's data and report every problem with its file and line."""

from __future__ import annotations

import click

from pnp.components import BuildOptions
from pnp.errors import DataError, Problems
from pnp.loading.validation import validate_game


@click.command("validate")
@click.argument("game", required=False)
@click.option("--lang", default=None, metavar="LANG",
              help="Also check the translation into LANG (e.g. es): every printed string it lacks (at the "
                   "file and line of the original), every unused key, and that the translated text fits.")
@click.option("--allow-missing", is_flag=True,
              help="With --lang: report untranslated strings as warnings (exit 0); a build prints them in "
                   "the game's own language.")
def command(game, lang, allow_missing):
    """Check GAME's data (a bundled game's name or a game folder; default: the project's default game).

    Reports every problem as FILE:LINE: SUBJECT: MESSAGE and exits with status 2 when any is an error;
    a valid game prints a one-line summary.
    """
    problems = Problems()
    result = validate_game(game, problems, BuildOptions(lang=lang, allow_missing=allow_missing) if lang else None)
    for warning in problems.warnings:
        click.echo(str(warning), err=True)
    if problems.errors:
        raise DataError(problems.errors)
    click.echo(result.summary)
