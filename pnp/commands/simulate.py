"""``pnp simulate``: play many seeded games of any game with bots and report what happened (or one
game's transcript). Everything game-specific comes from the game's engine (the engine protocol,
``docs/engine.md``): its bots, its options, its report and its transcript."""

from __future__ import annotations

import json
import re
import sys

import click

from pnp import default_game
from pnp.commands.params import within_cores
from pnp.errors import UserError
from pnp.paths import excerpt
from pnp.loading.gamedata import load_game
from rules_engine import engine_module
from rules_engine.core.bots import make_bot

SEAT_NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana", "Ivo")
DEFAULT_PLAYERS = 4


def bot_list(text: str, registry) -> list[str]:
    """``--bots``: comma-separated bot specs (``random,greedy,search:400``), each checked by the engine."""
    names = [b.strip() for b in text.split(",") if b.strip()]
    if not names:
        raise UserError("--bots: give at least one bot name")
    for name in names:
        try:
            make_bot(registry, name)
        except ValueError as exc:
            raise UserError(f"--bots: {exc}") from None
    return names


def player_counts(text: str | None, game_range: tuple, engine_range: tuple, title: str) -> list[int]:
    """``--players``: one count (``4``) or an inclusive range (``2..5``); default 4, kept in the game's
    range. Counts outside the engine's range (the seats its rules are written for) are refused."""
    if text is None:
        lo, hi = game_range
        lo, hi = max(lo, engine_range[0]), min(hi, engine_range[1])
        return [min(max(DEFAULT_PLAYERS, lo), hi)]
    text = text.strip()
    ranged = re.fullmatch(r"(\d+)\s*\.\.\s*(\d+)", text)
    if ranged:
        first, last = ranged.groups()
    elif re.fullmatch(r"\d+", text):
        first = last = text
    else:
        raise UserError(f"--players: expected a number or a range like 2..5, got {excerpt(text)}")
    low, high = engine_range
    # checked before a list of counts is made: 1..1000000000000 is refused, not counted
    digits = [n.lstrip("0") or "0" for n in (first, last)]
    numbers = [int(d) if len(d) <= 6 else None for d in digits]
    if None not in numbers and numbers[0] > numbers[1]:
        raise UserError(f"--players: the range {excerpt(text)[1:-1]} is empty; write the smaller count first")
    for d, n in zip(digits, numbers):
        if n is None or not low <= n <= high:
            shown = d if len(d) <= 20 else f"a number of {len(d):,} digits"
            raise UserError(f"--players: {shown} is not between {low} and {high} (the players {title}'s rules "
                            f"engine plays)")
    return list(range(numbers[0], numbers[1] + 1))


def executor_options(command):
    """The options that say where games run: ``--jobs``, ``--executor``, ``--scheduler``, ``--workers``."""
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
    return command


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


def game_options(pairs, goal, engine, title: str) -> dict:
    """``-o NAME=VALUE`` pairs (and the ``--goal`` shorthand) checked against the engine's OPTIONS."""
    known = getattr(engine, "OPTIONS", {})
    listed = ", ".join(f"{name} ({p.doc})" if p.doc else name for name, p in known.items()) or "none"
    if goal is not None:
        pairs = list(pairs) + [f"goal={goal}"]
    options = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        name = name.strip()
        if not sep or not name:
            raise UserError(f"--option: expected NAME=VALUE, got {pair!r}")
        spec = known.get(name)
        if spec is None:
            raise UserError(f"--option: {title} has no option {name!r}; options: {listed}")
        value = text.strip()
        if spec.type == "int":
            try:
                value = int(value)
            except ValueError:
                raise UserError(f"--option {name}: expected an integer, got {text!r}") from None
            if spec.min is not None and value < spec.min or spec.max is not None and value > spec.max:
                raise UserError(f"--option {name}: {value} is not between {spec.min} and {spec.max}")
        elif spec.type == "bool":
            if value.lower() not in ("true", "false", "yes", "no", "1", "0"):
                raise UserError(f"--option {name}: expected true or false, got {text!r}")
            value = value.lower() in ("true", "yes", "1")
        if spec.choices and value not in spec.choices:
            raise UserError(f"--option {name}: {value!r} is not one of {', '.join(map(str, spec.choices))}")
        options[name] = value
    return options


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
    engine = engine_module(game.engine)
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
    if as_json:
        click.echo(json.dumps({**fields, "seats": [{"name": n, "bot": b} for n, b in zip(names, seats)],
                               "events": [e.as_dict() for e in state.events], "violations": state.violations},
                              indent=2))
        return
    click.echo(f"{game.title}, {heading}. Seats: " + ", ".join(f"{n} ({b} bot)" for n, b in zip(names, seats)) + ".")
    for line in engine.transcript_lines(state.events, game.cards, game.factions, names):
        click.echo(line)
    for violation in state.violations:
        click.echo(f"INVARIANT BROKEN: {violation}", err=True)
