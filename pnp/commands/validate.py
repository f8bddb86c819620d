"""``pnp validate``: check a game's data and report every problem with its file and line."""

from __future__ import annotations

import click

from pnp.components import BuildOptions
from pnp.errors import DataError, Problems
from pnp.validation import validate_game


@click.command("validate")
@click.argument("game", required=False)
@click.option("--lang", default=None, metavar="LANG",
              help="Also check the translation into LANG (e.g. es): every missing or unused key, and "
                   "that the translated text fits.")
def command(game, lang):
    """Check GAME's data (a bundled game's name or a game folder; default: the project's default game).

    Reports every problem as FILE:LINE: SUBJECT: MESSAGE and exits with status 2 when any is an error;
    a valid game prints a one-line summary.
    """
    problems = Problems()
    result = validate_game(game, problems, BuildOptions(lang=lang) if lang else None)
    for warning in problems.warnings:
        click.echo(str(warning), err=True)
    if problems.errors:
        raise DataError(problems.errors)
    click.echo(result.summary)
