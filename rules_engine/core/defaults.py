"""What pnp derives for an engine that writes only its rules (the defaults of :mod:`rules_engine.core.contract`):
seeded runs and their report, a plain transcript, and a validate hook that plays a few checked games.

Everything here reads an engine through the contract alone (``Engine``, the state API, ``Result``), so
it is the same for every engine; the bundled engines give richer reports of their own.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Sequence

from rules_engine.core import runs
from rules_engine.core.stats import wilson


def simulate(engine, rules, *, games: int, seed: int, players: int, bots: Sequence[str], jobs: int = 1,
             check: bool = False, progress=None, executor=None, **options) -> dict:
    """``games`` seeded games (:func:`rules_engine.core.runs.run_games`) summed up: wins by seat and by bot
    (a win shared by k seats counts 1/k), game length, endings and the invariants broken."""
    results = runs.run_games(engine, rules, games=games, seed=seed, players=players, bots=bots, jobs=jobs,
                             check=check, progress=progress, executor=executor, options=options)
    return summarize(engine, results, games=games, seed=seed, players=players, bots=bots, check=check,
                     options=options)


def summarize(engine, results, *, games, seed, players, bots, check, options) -> dict:
    wins = [0.0] * players
    by_bot: dict = {}
    seats_of: Counter = Counter()
    for r in results:
        share = 1 / len(r.winners) if r.winners else 0.0
        for s in r.winners:
            wins[s] += share
            by_bot[r.bots[s]] = by_bot.get(r.bots[s], 0.0) + share
        seats_of.update(r.bots)
    lengths = [r.length for r in results]
    broken = [v for r in results for v in r.violations]
    return {
        "games": games, "players": players, "seed": seed, "bots": list(bots), "options": dict(options),
        "length_unit": engine.length_unit,
        "wins_by_seat": [_rate(w, games) for w in wins],
        "wins_by_bot": {b: _rate(by_bot.get(b, 0.0), seats_of[b]) for b in dict.fromkeys(bots)},
        "decided": sum(1 for r in results if r.winners),
        "length": {"mean": runs.mean(lengths), "min": min(lengths, default=0), "median": runs.percentile(lengths, 0.5),
                   "max": max(lengths, default=0)},
        "endings": dict(sorted(Counter(r.reason for r in results).items())),
        "invariants": {"checked": check, "broken": len(broken), "examples": [str(v) for v in broken[:5]]},
    }


def _rate(wins: float, games: int) -> dict:
    low, high = wilson(wins, games) if games else (0.0, 0.0)
    return {"wins": round(wins, 4), "games": games, "rate": runs.share(wins, games), "ci_low": round(low, 4),
            "ci_high": round(high, 4)}


def _percent(rate: dict) -> str:
    return f"{100 * rate['rate']:.1f}% [{100 * rate['ci_low']:.1f}, {100 * rate['ci_high']:.1f}]"


def report_lines(report: dict, *, title: str, cards=(), factions=()) -> list[str]:
    """The default report in English lines."""
    lines = [f"{title}: {report['games']} games, {report['players']} players, seed {report['seed']}, bots "
             f"{', '.join(report['bots'])}"]
    lines.append("Wins by seat: " + ", ".join(f"seat {s + 1} {_percent(r)}"
                                              for s, r in enumerate(report["wins_by_seat"])))
    if len(report["wins_by_bot"]) > 1:
        lines.append("Wins by bot (per seat): " + ", ".join(f"{b} {_percent(r)}"
                                                            for b, r in report["wins_by_bot"].items()))
    length = report["length"]
    lines.append(f"Game length ({report['length_unit']}): mean {length['mean']:g}, median {length['median']}, "
                 f"min {length['min']}, max {length['max']}; games with a winner: {report['decided']}")
    lines.append("Endings: " + ", ".join(f"{reason} {n}" for reason, n in report["endings"].items()))
    lines.append(runs.invariant_line(report["invariants"]))
    return lines


def transcript_lines(events, cards, factions, names) -> list[str]:
    """A line per event when neither the engine nor the game words them: its type, then its data with
    seats and cards named (``card_played: player Ana, card Lantern``)."""
    card_names = {c.id: c.name for c in cards}
    out = []
    for e in events:
        data = dict(getattr(e, "data", None) or {})
        parts = []
        for key, value in data.items():
            if key in ("player", "seat") and isinstance(value, int) and 0 <= value < len(names):
                value = names[value]
            elif key == "card" and isinstance(value, str):
                value = card_names.get(value, value)
            elif key == "cards" and isinstance(value, (list, tuple)):
                value = ", ".join(card_names.get(c, str(c)) for c in value)
            elif not isinstance(value, str):
                value = json.dumps(value, sort_keys=True, default=str)
            parts.append(f"{key.replace('_', ' ')} {value}")
        out.append(f"{getattr(e, 'type', type(e).__name__)}" + (f": {', '.join(parts)}" if parts else ""))
    return out


#: Games per player count the default validate hook plays.
VALIDATE_GAMES = 2


def validate_game(module, game) -> list:
    """The default ``validate_game``: ``VALIDATE_GAMES`` seeded games with random bots at each player
    count the game and the engine share, invariants checked, within the run's limits; the invariants
    broken are its problems."""
    engine = module.ENGINE
    low, high = tuple(getattr(module, "PLAYERS", None) or engine.players)
    rules = module.rules_for(game)
    counts = [n for n in range(max(low, game.players[0]), min(high, game.players[1]) + 1)]

    def run(players, games, seed):
        return runs.run_games(engine, rules, games=games, seed=seed, players=players, bots=("random",), check=True)

    problems, _ = runs.checked_games(run, counts, VALIDATE_GAMES * len(counts), 0)
    return problems
