"""``pnp replay GAME --seed S``: play again one game of a report, from its seed, and print its transcript.

Every game ``pnp balance`` and ``pnp lab`` report has a seed (report.json lists it with the bots of its
seats, in seat order); the same seed, seats and variant play the same game, move for move."""

from __future__ import annotations


import click

from pnp.commands.params import limit_options
from pnp.commands.simulate import print_game
from pnp.lab.table import SEAT_NAMES, table


def replayed(game_name, seed, players_text, bots, variant_file, option_pairs, check=False):
    """``(game, engine, seat bots, final state)`` of the game with that seed, seats and variant."""
    game, engine, seats, rules, options = table(game_name, players_text, bots, variant_file, option_pairs)
    state = engine.play_game(rules, seats, seed, players=len(seats), record=True, check=check, **options)
    return game, engine, seats, state


@click.command("replay")
@click.argument("game")
@click.option("--seed", type=int, required=True, help="The game's seed, as a report lists it.")
@click.option("--players", "players_text", default=None, metavar="N",
              help="Players. [default: 4, within the game's player range]")
@click.option("--bots", default=None, help="The bot of each seat, in seat order, comma-separated (a shorter list "
                                           "repeats), as the report lists them. [default: the engine's default bots]")
@click.option("--variant", "variant_file", type=click.Path(dir_okay=False), default=None,
              help="The variant file the game was played with.")
@click.option("--option", "-o", "option_pairs", multiple=True, metavar="NAME=VALUE",
              help="A game option of the engine (repeatable).")
@click.option("--check", is_flag=True, help="Check the invariants at every step.")
@limit_options
@click.option("--json", "as_json", is_flag=True, help="Print the seats and the structured events as JSON.")
def command(game, seed, players_text, bots, variant_file, option_pairs, check, as_json):
    """Play again the game of GAME with seed SEED (a game of a balance or lab report) and print what
    happened, event by event."""
    game, engine, seats, state = replayed(game, seed, players_text, bots, variant_file, option_pairs, check)
    print_game(engine, game, list(SEAT_NAMES[:len(seats)]), seats, state, as_json, f"game seed {seed}", seed=seed)
