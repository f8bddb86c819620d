"""``pnp simulate``: play many seeded games with bots and report what happened (or one game's transcript)."""

from __future__ import annotations

import json
import sys

import click

from pnp.errors import UserError
from pnp.gamedata import load_game
from rules_engine import engine_module

SEAT_NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana", "Ivo")


def _bot_list(text: str, known) -> list[str]:
    names = [b.strip() for b in text.split(",") if b.strip()]
    if not names:
        raise UserError("--bots: give at least one bot name")
    unknown = [b for b in names if b not in known]
    if unknown:
        raise UserError(f"--bots: unknown bot {unknown[0]!r}; known bots: {', '.join(known)}")
    return names


def _percent(count, whole) -> str:
    return f"{100 * count / whole:.1f}%" if whole else "-"


def report_lines(summary: dict, game) -> list[str]:
    """The simulation summary as a short English report."""
    games = summary["games"]
    faction_name = {f.id: f.name for f in game.factions}
    lines = [f"{game.title}: {games} games, {summary['players']} players, goal {summary['goal']} influence, "
             f"seed {summary['seed']}, bots {', '.join(summary['bots'])}"]
    seats = ", ".join(f"seat {s} {n} ({_percent(n, games)})" for s, n in summary["wins_by_seat"].items())
    lines.append(f"Wins by seat: {seats}; no winner {summary['no_winner']} ({_percent(summary['no_winner'], games)})")
    bots = ", ".join(f"{name} {b['wins']} of {b['seats']} seats ({100 * b['win_rate']:.1f}% per seat)"
                     for name, b in summary["wins_by_bot"].items())
    lines.append(f"Wins by bot: {bots}")
    dist = ", ".join(f"{k}: {_percent(v, games)}" for k, v in summary["battles"]["distribution"].items())
    lines.append(f"Battles per game: mean {summary['battles']['mean']:.2f} ({dist})")
    total = summary["battles_total"]
    factions = ", ".join(f"{faction_name.get(f, f)} {v['wins']} ({100 * v['share']:.1f}%)"
                         for f, v in summary["battle_wins_by_faction"].items())
    lines.append(f"Battle wins by faction: {factions} of {total} battles; "
                 f"{summary['tied_battles']} battles tied ({_percent(summary['tied_battles'], total)})")
    end = summary["end"]
    lines.append(f"End of game, per player: gold mean {end['gold']['mean']:.1f} (max {end['gold']['max']}), "
                 f"influence mean {end['influence']['mean']:.1f} (max {end['influence']['max']}); "
                 f"winner's influence mean {end['influence']['winner_mean']:.1f}")
    reasons = {"goal": "one leader", "gold_tiebreak": "influence tie broken by gold",
               "tie": "tie, no winner", "battle_limit": "battle limit"}
    over = ", ".join(f"{reasons.get(k, k)} {v}" for k, v in summary["game_over"].items())
    lines.append(f"Game over: {over}")
    peak = summary["peak_tokens"]
    lines.append(f"Peak tokens in use at once ({100 * peak['quantile']:g}th percentile): gold {peak['gold']}, "
                 f"influence {peak['influence']}, dead {peak['dead']}, converted {peak['converted']}, "
                 f"+1 {peak['plus_one']}")
    inv = summary["invariants"]
    if inv["checked"]:
        lines.append("Invariants: none broken" if not inv["broken"]
                     else f"Invariants: {inv['broken']} broken, e.g. {inv['examples'][0]}")
    else:
        lines.append("Invariants: not checked (add --check)")
    return lines


@click.command("simulate")
@click.option("--game", "game_arg", default="shadow_throne", show_default=True, help="Bundled game or game folder.")
@click.option("--players", type=int, default=4, show_default=True, help="Players per game.")
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True, help="Games to play.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed: the same seed gives the same report.")
@click.option("--bots", default="random", show_default=True,
              help="Comma-separated bots, repeated around the table and rotated one seat per game.")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Worker processes.")
@click.option("--goal", type=click.IntRange(min=1), default=15, show_default=True, help="Influence that ends the game.")
@click.option("--check", is_flag=True, help="Check the invariants at every step (slower).")
@click.option("--json", "as_json", is_flag=True, help="Print the report (or the transcript's events) as JSON.")
@click.option("--transcript", is_flag=True, help="Print a readable account of the game (needs --games 1).")
def command(game_arg, players, games, seed, bots, jobs, goal, check, as_json, transcript):
    """Play seeded games of GAME with bots and report wins, battles, factions, gold, influence and token use."""
    game = load_game(game_arg)
    if not game.engine:
        raise UserError(f"{game.title} has no rules engine to simulate")
    engine = engine_module(game.engine)
    bot_names = _bot_list(bots, list(engine.BOTS))
    rules = engine.Rules(game.cards, game.factions)
    if not 1 <= players <= rules.max_players():
        raise UserError(f"--players: {players} is not between 1 and {rules.max_players()}")
    lo, hi = game.players
    if not lo <= players <= hi:
        click.echo(f"warning: {game.title} is played by {lo} to {hi} players", err=True)

    if transcript:
        if games != 1:
            raise UserError("--transcript shows one game: use it with --games 1")
        seats = engine.seat_bots(bot_names, players, 0)  # the seats of game 0 of a longer run
        state = engine.play_game(rules, seats, engine.derive_seed(seed, 0), players=players, goal=goal,
                                 record=True, check=check)
        names = list(SEAT_NAMES[:players])
        if as_json:
            click.echo(json.dumps({"seats": [{"name": n, "bot": b} for n, b in zip(names, seats)],
                                   "events": [e.as_dict() for e in state.events],
                                   "violations": state.violations}, indent=2))
            return
        click.echo(f"{game.title}, seed {seed}. Seats: "
                   + ", ".join(f"{n} ({b} bot)" for n, b in zip(names, seats)) + ".")
        for line in engine.transcript_lines(state.events, game.cards, game.factions, names):
            click.echo(line)
        for violation in state.violations:
            click.echo(f"INVARIANT BROKEN: {violation}", err=True)
        return

    show_bar = sys.stderr.isatty() and not as_json
    if show_bar:
        with click.progressbar(length=games, label="Simulating", file=sys.stderr) as bar:
            summary = engine.simulate(rules, games=games, seed=seed, players=players, bots=bot_names, goal=goal,
                                      jobs=jobs, check=check, progress=bar.update)
    else:
        summary = engine.simulate(rules, games=games, seed=seed, players=players, bots=bot_names, goal=goal,
                                  jobs=jobs, check=check)
    if as_json:
        click.echo(json.dumps(summary, indent=2))
    else:
        for line in report_lines(summary, game):
            click.echo(line)
    if summary["invariants"]["broken"]:
        raise SystemExit(1)
