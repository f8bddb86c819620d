"""``pnp check-engine NAME [--game DIR]``: hold an installed rules engine to its contract (the conformance
kit, :mod:`pnp.lab.conformance`): seeded random games at every player count, each node checked, the
engine's determinism, hidden information, declared bound, events in every language of the game, scenario
files and data. Exit status 0 when every check passes, 2 when one fails (each problem on its own line)."""

from __future__ import annotations

import sys

import click

from pnp.commands.params import limit_options


@click.command("check-engine")
@click.argument("name")
@click.option("--game", "game_dir", type=click.Path(file_okay=False), default=None,
              help="The game folder to play it on. [default: the bundled game that names the engine]")
@click.option("--games", type=click.IntRange(min=1, max=100), default=2, show_default=True,
              help="Seeded random games per player count.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Seed of the first game.")
@click.option("--scenario", "scenarios", multiple=True, type=click.Path(dir_okay=False, exists=True),
              help="A scenario file to check besides the rulebook's examples and the game's scenarios/*.yaml "
                   "(repeatable).")
@limit_options
def command(name, game_dir, games, seed, scenarios):
    """Hold the installed rules engine NAME to its contract: seeded random games at every player count
    (determinism, legal actions, hidden information, the declared bound), events in every language of the
    game, scenario files and the data's ranges."""
    from pnp.lab.conformance import check

    report = check(name, game_dir, games=games, seed=seed, scenarios=scenarios)
    for line in report.lines():
        click.echo(line)
    if report.failures:
        sys.exit(2)
