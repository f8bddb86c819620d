"""The ``pnp`` command line. Wiring only: each subcommand lives in ``pnp/commands/<name>.py``.

Bad input never produces a traceback: :class:`~pnp.errors.DataError` prints every problem as
``file:line: subject: message`` and exits with status 2; :class:`~pnp.errors.UserError` prints one line.
"""

from __future__ import annotations

import importlib
import sys

import click

from pnp import __version__
from pnp.errors import DataError, UserError

#: Subcommand modules, in the order ``pnp --help`` lists them.
COMMAND_MODULES = ["validate", "build", "scenario", "simulate", "balance", "export", "preview", "watch", "serve"]


class PnpGroup(click.Group):
    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except DataError as exc:
            for problem in exc.problems:
                click.echo(str(problem), err=True)
            n = len(exc.problems)
            click.echo(f"{n} problem{'s' if n != 1 else ''} found; nothing was written.", err=True)
            sys.exit(2)
        except UserError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)


@click.group(cls=PnpGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pnp")
def main():
    """Build print-and-play kits from YAML game data, check the data, and play the games."""


for _name in COMMAND_MODULES:
    try:
        _module = importlib.import_module(f"pnp.commands.{_name}")
    except ModuleNotFoundError as exc:  # a command still being written
        if exc.name != f"pnp.commands.{_name}":
            raise
        continue
    main.add_command(_module.command)
