"""The balance report of ``pnp balance``: what seeded bot games say about a game's balance, with 95 %
confidence intervals (Wilson) and the number of games behind every figure.

Made from the per-game results of any engine (``Engine.result``): each result has ``winners`` (seats),
``bots`` (the bot of each seat), ``length``, ``reason`` (how the game ended), ``violations`` and
``cards`` (per seat, the card ids it played or owned, as ``Engine.card_usage`` says). A win shared by
``k`` seats counts ``1/k`` for each, so seat win rates add up to the share of games with a winner, and
the *average* a seat or card is compared with is that share divided by the number of seats.

The report is plain JSON-ready data, the same for the same seed and options whatever ran the games.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Sequence

from rules_engine.core.runs import mean, percentile
from rules_engine.core.stats import rate, wilson

#: Report format version (bump when keys change meaning).
VERSION = 1


def _interval(wins: float, trials: int) -> dict:
    low, high = wilson(wins, trials)
    return {"win_rate": rate(wins, trials), "ci_low": low, "ci_high": high}


def balance_report(engine, results: Sequence, *, game: str, seed: int, players: int, bots: Sequence[str],
                   rules=None, options: dict | None = None, card_names: dict | None = None) -> dict:
    """The report of a run (see the module docstring for what each figure means)."""
    games = len(results)
    seat_wins = [0.0] * players
    bot_wins, bot_seats = defaultdict(float), Counter()
    card_wins, card_seats = defaultdict(float), Counter()
    decided = 0
    for r in results:
        credit = 1.0 / len(r.winners) if r.winners else 0.0
        decided += bool(r.winners)
        for seat in range(players):
            won = credit if seat in r.winners else 0.0
            seat_wins[seat] += won
            bot_wins[r.bots[seat]] += won
            bot_seats[r.bots[seat]] += 1
            for card in set(r.cards[seat]) if r.cards else ():
                card_wins[card] += won
                card_seats[card] += 1
    average = round(decided / games / players, 4) if games else 0.0
    total_wins = sum(seat_wins)
    seats = [{"seat": s + 1, "games": games, "wins": round(seat_wins[s], 3), **_interval(seat_wins[s], games)}
             for s in range(players)]
    ladder = sorted(({"bot": b, "seats": bot_seats[b], "wins": round(bot_wins[b], 3),
                      **_interval(bot_wins[b], bot_seats[b])} for b in dict.fromkeys(bots)),
                    key=lambda e: (e["win_rate"], e["bot"]))
    names = card_names or {}
    cards = []
    seat_games = games * players
    for card in sorted(card_seats, key=lambda c: (list(names).index(c) if c in names else len(names), c)):
        n, wins = card_seats[card], card_wins[card]
        other_n, other_wins = seat_games - n, total_wins - wins
        cards.append({"card": card, "name": names.get(card, card), "games": n, "wins": round(wins, 3),
                      **_interval(wins, n),
                      "without": {"games": other_n, "win_rate": rate(other_wins, other_n)}})
    lengths = [r.length for r in results]
    distribution = Counter(lengths)
    report = {
        "version": VERSION,
        "game": game,
        "engine": engine.name,
        "games": games,
        "seed": seed,
        "players": players,
        "bots": list(bots),
        "options": dict(sorted((options or {}).items())),
        "average": average,
        "seats": seats,
        "bots_ladder": ladder,
        "cards": cards,
        "card_usage": engine.card_usage,
        "length": {"unit": engine.length_unit, "mean": mean(lengths), "min": min(lengths, default=0),
                   "median": percentile(lengths, 0.5), "p90": percentile(lengths, 0.9),
                   "max": max(lengths, default=0),
                   "distribution": {str(k): distribution[k] for k in sorted(distribution)}},
        "endings": dict(sorted(Counter(r.reason for r in results).items())),
        "invariants_broken": sum(len(r.violations) for r in results),
    }
    figures = engine.figures(results, rules) if engine.figures else {}
    report["sides"] = figures.get("sides", [])
    report["components"] = figures.get("components", {})
    report["outliers"] = outliers(report)
    return report


def outliers(report: dict) -> list[dict]:
    """Seats and cards whose 95 % interval excludes the average win rate of a seat."""
    average = report["average"]
    found = []
    for seat in report["seats"]:
        if seat["ci_low"] > average or seat["ci_high"] < average:
            found.append({"kind": "seat", "name": f"seat {seat['seat']}", "win_rate": seat["win_rate"],
                          "ci_low": seat["ci_low"], "ci_high": seat["ci_high"], "games": seat["games"]})
    for card in report["cards"]:
        if card["ci_low"] > average or card["ci_high"] < average:
            found.append({"kind": "card", "name": card["card"], "win_rate": card["win_rate"],
                          "ci_low": card["ci_low"], "ci_high": card["ci_high"], "games": card["games"]})
    found.sort(key=lambda o: (o["kind"] != "seat", -abs(o["win_rate"] - average), o["name"]))
    return found


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def summary_lines(report: dict, title: str, limit: int = 8) -> list[str]:
    """The terminal summary: the run, seats, the bot ladder, length, and the outliers by name."""
    average = report["average"]
    lines = [f"{title}: {report['games']} games, {report['players']} players, seed {report['seed']}, "
             f"bots {', '.join(report['bots'])}; average win rate of a seat {_pct(average)}"]
    lines.append("Seats: " + ", ".join(f"{s['seat']} {_pct(s['win_rate'])} [{_pct(s['ci_low'])}-{_pct(s['ci_high'])}]"
                                       for s in report["seats"]))
    lines.append("Bots (weakest first): " + ", ".join(
        f"{b['bot']} {_pct(b['win_rate'])} [{_pct(b['ci_low'])}-{_pct(b['ci_high'])}]" for b in report["bots_ladder"]))
    length = report["length"]
    lines.append(f"Length: mean {length['mean']:.1f} {length['unit']} (median {length['median']}, "
                 f"90th percentile {length['p90']}, max {length['max']})")
    lines.append("Endings: " + ", ".join(f"{k} {v}" for k, v in report["endings"].items()))
    found = report["outliers"]
    if not found:
        lines.append("Outliers: none (every seat's and card's 95% interval contains the average)")
    else:
        shown = ", ".join(f"{o['kind']} {o['name']} {_pct(o['win_rate'])} [{_pct(o['ci_low'])}-{_pct(o['ci_high'])}, "
                          f"{o['games']} games]" for o in found[:limit])
        more = f"; {len(found) - limit} more in report.json" if len(found) > limit else ""
        lines.append(f"Outliers (95% interval excludes {_pct(average)}): {shown}{more}")
    if report["invariants_broken"]:
        lines.append(f"Invariants broken: {report['invariants_broken']}")
    return lines
