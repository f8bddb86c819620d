"""``pnp simulate``: play many seeded games of any game with bots and report what happened (or one
game's transcript). Everything game-specific comes from the game's engine (the engine protocol,
``docs/engine.md``): its bots, its options, its report and its transcript."""

from __future__ import annotations

import json
import sys

import click

from pnp import default_game
from pnp.commands.params import limit_options, within_cores
from pnp.errors import UserError
from pnp.lab.table import SEAT_NAMES, bot_list, game_options, player_counts
from pnp.loading.paths import excerpt
from pnp.loading.gamedata import load_game
from rules_engine.core.contract import engine_named

def executor_options(command):
    """The options that say where games run: ``--jobs``, ``--executor``, ``--scheduler``, ``--workers``; and
    the limits of every game (``--max-decisions``, ``--decision-seconds``: :func:`pnp.commands.params.limit_options`)."""
    options = [
        click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, callback=within_cores,
                     help="Local worker processes (the local executor); more than the CPU cores pnp may use "
                          "counts as those."),
        click.option("--executor", type=click.Choice(["local", "dask"]), default=None,
                     help="Where the games run: 'local' (this machine, --jobs processes) or 'dask' (a Dask cluster: "
                          "the one at --scheduler, else a local cluster of --workers processes). "
                          "[default: local, or dask with --scheduler]"),
        click.option("--scheduler", metavar="ADDRESS", default=None,
                     help="Address of a running Dask scheduler, e.g. tcp://10.0.0.5:8786 (implies --executor dask)."),
        click.option("--workers", type=click.IntRange(min=1), default=2, show_default=True, callback=within_cores,
                     help="Worker processes of the local Dask cluster started when no --scheduler is given "
                          "(at most the CPU cores pnp may use)."),
    ]
    for option in reversed(options):
        command = option(command)
    return limit_options(command)


def make_executor(kind: str | None, scheduler: str | None, workers: int, jobs: int):
    """The executor for the options (``None``: the engine's default, ``jobs`` local processes)."""
    if kind == "local" and scheduler is not None:
        raise UserError("--scheduler names a Dask scheduler: use it with --executor dask (or alone)")
    if kind == "dask" or scheduler is not None:
        import importlib.util

        # found, not imported: the executor imports it while Ctrl-C is held back from the threads it starts
        if importlib.util.find_spec("distributed") is None:
            raise UserError("--executor dask needs Dask: pip install 'pnp[dask]'")
        from rules_engine.core.executors import DaskExecutor

        try:
            return DaskExecutor(scheduler, workers=workers)
        except ValueError as exc:
            raise UserError(f"--scheduler {excerpt(scheduler)}: {exc}") from None
    from rules_engine.core.executors import LocalExecutor

    return LocalExecutor(jobs)


@click.command("simulate")
@click.argument("game", required=False)
@click.option("--game", "game_option", default=None, help="Same as GAME (kept for older scripts).")
@click.option("--players", "players_text", default=None, metavar="N|A..B",
              help="Players per game, or a range like 2..5 for one report per count. [default: 4, within "
                   "the game's player range]")
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True, help="Games to play.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed: the same seed gives the same report.")
@click.option("--bots", default=None,
              help="Comma-separated bots, repeated around the table and rotated one seat per game. "
                   "[default: the engine's default bots]")
@executor_options
@click.option("--option", "-o", "option_pairs", multiple=True, metavar="NAME=VALUE",
              help="A game option of the engine (repeatable); an unknown name lists the options.")
@click.option("--goal", type=click.IntRange(min=1), default=None, hidden=True, help="Same as -o goal=N.")
@click.option("--check", is_flag=True, help="Check the invariants at every step (slower).")
@click.option("--json", "as_json", is_flag=True, help="Print the report (or the transcript's events) as JSON.")
@click.option("--transcript", is_flag=True, help="Print a readable account of the game (needs --games 1).")
def command(game, game_option, players_text, games, seed, bots, option_pairs, jobs, executor, scheduler, workers, goal,
            check, as_json, transcript):
    """Play seeded games of GAME (a bundled game or a game folder; default: the project's default game)
    with bots and report wins, game length and the game's own statistics.

    The same seed gives the same report for any --jobs; with --transcript, the one game shown is game 0
    of a longer run with the same seed.
    """
    if game and game_option and game != game_option:
        raise UserError(f"GAME is {game!r} but --game is {game_option!r}: give the game once")
    game = load_game(game or game_option or default_game())
    if not game.engine:
        raise UserError(f"{game.title} has no rules engine to simulate")
    engine = engine_named(game.engine)
    bot_names = bot_list(bots, engine.BOTS) if bots is not None else list(engine.DEFAULT_BOTS)
    options = game_options(option_pairs, goal, engine, game.title)
    rules = engine.rules_for(game)
    counts = player_counts(players_text, game.players, engine.PLAYERS, game.title)
    lo, hi = game.players
    if any(not lo <= n <= hi for n in counts):
        click.echo(f"warning: {game.title} is played by {lo} to {hi} players", err=True)
    runner = make_executor(executor, scheduler, workers, jobs)
    try:
        _run(engine, game, rules, counts, games, seed, bot_names, runner, check, options, as_json, transcript)
    except KeyboardInterrupt:
        click.echo("pnp simulate: interrupted; no report", err=True)
        sys.exit(130)
    except RuntimeError as exc:
        from rules_engine.core.executors import DaskError

        if not isinstance(exc, DaskError):
            raise
        raise UserError(f"--executor dask: {exc}") from None


def _run(engine, game, rules, counts, games, seed, bot_names, runner, check, options, as_json, transcript):
    """The transcript of game 0, or the reports of every player count."""
    if transcript:
        if games != 1:
            raise UserError("--transcript shows one game: use it with --games 1")
        if len(counts) != 1:
            raise UserError("--transcript shows one game: give one player count")
        players = counts[0]
        seats, state = engine.recorded_game(rules, seed=seed, players=players, bots=bot_names, check=check,
                                            **options)
        print_game(engine, game, list(SEAT_NAMES[:players]), seats, state, as_json, f"seed {seed}")
        return

    reports = []
    show_bar = sys.stderr.isatty() and not as_json
    with click.progressbar(length=games * len(counts), label="Simulating", file=sys.stderr) if show_bar \
            else _NoBar() as bar:
        for players in counts:
            reports.append(engine.simulate(rules, games=games, seed=seed, players=players, bots=bot_names,
                                           check=check, progress=bar.update if show_bar else None,
                                           executor=runner, **options))
    if as_json:
        click.echo(json.dumps(reports[0] if len(reports) == 1 else reports, indent=2))
    else:
        for i, report in enumerate(reports):
            if i:
                click.echo("")
            for line in engine.report_lines(report, title=game.title, cards=game.cards, factions=game.factions):
                click.echo(line)
    if any(report["invariants"]["broken"] for report in reports):
        raise SystemExit(1)


class _NoBar:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def print_game(engine, game, names, seats, state, as_json, heading, **fields):
    """A played game on standard output: its seats and its transcript in the game's words (invariants
    broken on standard error), or with ``as_json`` the seats and structured events (``fields`` first)."""
    from pnp.loading.events import event_dict

    if as_json:
        click.echo(json.dumps({**fields, "seats": [{"name": n, "bot": b} for n, b in zip(names, seats)],
                               "events": [event_dict(e) for e in state.events], "violations": state.violations},
                              indent=2))
        return
    click.echo(f"{game.title}, {heading}. Seats: " + ", ".join(f"{n} ({b} bot)" for n, b in zip(names, seats)) + ".")
    from pnp.loading.events import transcript_lines

    for line in transcript_lines(game, engine, state.events, names):
        click.echo(line)
    for violation in state.violations:
        click.echo(f"INVARIANT BROKEN: {violation}", err=True)
