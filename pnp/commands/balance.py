"""``pnp balance``: play seeded bot games of a game and write a balance report (report.json and an
offline report.html with charts), then name the outliers in the terminal. The figures come from
``rules_engine.core.balance``; the games run here (``--jobs``) or on a Dask cluster (``--executor dask``)."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import click

from pnp import default_game
from pnp.commands.simulate import executor_options, make_executor
from pnp.lab.table import bot_list, game_options, player_counts
from pnp.errors import UserError
from pnp.loading.gamedata import load_game
from rules_engine.core.contract import engine_named
from rules_engine.core.balance import balance_report, summary_lines
from rules_engine.core.runs import run_games


def _write(path: Path, data: bytes) -> None:
    """Write next to the target, then rename: a report is never half written."""
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def report_json(report: dict) -> bytes:
    """report.json's bytes: sorted keys, so the same report gives the same file."""
    return (json.dumps(report, indent=2, sort_keys=True) + "\n").encode()


@click.command("balance")
@click.argument("game", required=False)
@click.option("--players", "players_text", default=None, metavar="N",
              help="Players per game. [default: 4, within the game's player range]")
@click.option("--games", type=click.IntRange(min=1), default=2000, show_default=True, help="Games to play.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed: the same seed gives the same report.")
@click.option("--bots", default=None,
              help="Comma-separated bots, rotated around the table (e.g. random,greedy,search:200); a win rate per "
                   "bot makes the skill ladder. [default: the engine's default bots]")
@click.option("--option", "-o", "option_pairs", multiple=True, metavar="NAME=VALUE",
              help="A game option of the engine (repeatable).")
@click.option("--variant", "variant_file", type=click.Path(dir_okay=False), default=None,
              help="A variant file: a YAML overlay of card changes and engine parameters to play instead of "
                   "the game as its data says (docs/engine.md, \"Balance lab\").")
@executor_options
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="output/balance", show_default=True,
              help="Folder report.json and report.html are written to.")
def command(game, players_text, games, seed, bots, option_pairs, variant_file, jobs, executor, scheduler, workers,
            out_dir):
    """Play seeded games of GAME with bots and write a balance report: win rates by seat, side, bot and
    card with 95% confidence intervals and the games behind each, game length, how games end and the
    game's component demand. Outliers (a seat or card whose interval excludes the average) are named
    here.

    The same seed and options give a byte-identical report.json, whether the games run here (--jobs N)
    or on a Dask cluster (--executor dask, optionally --scheduler ADDRESS; see docs/engine.md).
    """
    try:
        from pnp.lab.balance import render_html
    except ImportError:
        raise UserError("pnp balance draws its charts with matplotlib: pip install 'pnp[balance]'") from None
    game = load_game(game or default_game())
    if not game.engine:
        raise UserError(f"{game.title} has no rules engine to play")
    engine = engine_named(game.engine)
    bot_names = bot_list(bots, engine.BOTS) if bots is not None else list(engine.DEFAULT_BOTS)
    counts = player_counts(players_text, game.players, engine.PLAYERS, game.title)
    if len(counts) != 1:
        raise UserError("--players: a balance report is for one player count")
    players = counts[0]
    variant = None
    if variant_file:                   # checked as the lab checks it, at this player count
        from pnp.loading.variants import apply, load_variant

        variant = load_variant(variant_file, game, engine, players)
        game = apply(game, variant, engine)
    options = {**(variant.parameters if variant else {}), **game_options(option_pairs, None, engine, game.title)}
    runner = make_executor(executor, scheduler, workers, jobs)
    rules = engine.rules_for(game)
    out = Path(out_dir)
    show_bar = sys.stderr.isatty()
    try:
        with click.progressbar(length=games, label="Playing", file=sys.stderr) if show_bar else _NoBar() as bar:
            played = run_games(engine.ENGINE, rules, games=games, seed=seed, players=players, bots=bot_names,
                               progress=bar.update if show_bar else None, executor=runner, options=options,
                               experience=True)
    except KeyboardInterrupt:
        click.echo("pnp balance: interrupted; no report", err=True)
        sys.exit(130)
    except RuntimeError as exc:
        from rules_engine.core.executors import DaskError

        if not isinstance(exc, DaskError):
            raise
        raise UserError(f"--executor dask: {exc}") from None
    results = [r for r, _ in played]
    report = balance_report(engine.ENGINE, results, game=game.id, seed=seed, players=players, bots=bot_names,
                            rules=rules, options=options, card_names={c.id: c.name for c in game.cards},
                            experiences=[x for _, x in played])
    if variant is not None:
        report["variant"] = {"name": variant.name, "file": variant_file, "changes": variant.describe(),
                             **variant.content()}
    page = render_html(report, game.title, {f.id: f.name for f in game.factions}).encode()
    try:
        out.mkdir(parents=True, exist_ok=True)
        _write(out / "report.json", report_json(report))
        _write(out / "report.html", page)
    except OSError as exc:
        raise UserError(f"--out {out}: cannot write the report: {exc.strerror or exc}") from None
    for line in summary_lines(report, game.title):
        click.echo(line)
    click.echo(f"Wrote {out / 'report.json'} and {out / 'report.html'}")


class _NoBar:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
