"""``pnp scenario``: play a scenario file of any game and print its transcript or its outcome as JSON."""

from __future__ import annotations

import json

import click

from pnp.loading.scenario import run_scenario_file, scenario_lines


@click.command("scenario")
@click.argument("file", type=click.Path(dir_okay=False, path_type=str))
@click.option("--json", "as_json", is_flag=True, help="Print the outcome as JSON instead of a transcript.")
def command(file, as_json):
    """Play the scenario in FILE (a YAML file naming its game with `game:`) and print what happens.

    The formats are described in docs/scenarios.md. Mistakes in FILE are reported as FILE:LINE: MESSAGE,
    all at once, with exit status 2.
    """
    game, outcome = run_scenario_file(file)
    if as_json:
        click.echo(json.dumps(outcome.result, indent=2))
    else:
        for line in scenario_lines(game, outcome):
            click.echo(line)
