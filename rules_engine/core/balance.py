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


#: Experience metrics that are shares of games.
RATES = ("comeback", "timeout")


def experience_section(engine, experiences: Sequence, results: Sequence) -> dict:
    """The experience metrics of a run (:mod:`rules_engine.core.experience`): per metric its mean with a
    95 % interval and its distribution (value -> games)."""
    from rules_engine.core.stats import mean_interval

    n = len(experiences)
    columns = {
        "lead_changes": ("lead changes per game", [x.lead_changes for x in experiences]),
        "comeback": ("games whose winner trailed at the half", [int(x.comeback) for x in experiences]),
        "stalls": (f"{engine.length_unit} without progress per game", [x.stalls for x in experiences]),
        "decisions": ("decisions per seat and game", [round(sum(x.decisions) / len(x.decisions), 1)
                                                      if x.decisions else 0 for x in experiences]),
        "timeout": ("games stopped by a safety limit", [int(x.timeout) for x in experiences]),
    }
    out = {"progress": engine.progress or "none declared", "games": n, "metrics": {}}
    for key, (label, values) in columns.items():
        dist = Counter(values)
        if key in RATES:            # a share of games: Wilson's interval, like every rate of the report
            low, high = wilson(sum(values), n)
            summary = {"mean": rate(sum(values), n), "ci_low": low, "ci_high": high, "n": n}
        else:
            summary = mean_interval(values)
        out["metrics"][key] = {"label": label, **summary, "distribution": {f"{k:g}": dist[k] for k in sorted(dist)}}
    seats = len(experiences[0].decisions) if experiences else 0
    out["decisions_by_seat"] = [mean_interval([x.decisions[s] for x in experiences]) for s in range(seats)]
    out["endings"] = {reason: {"games": c, "share": rate(c, n), "ci_low": wilson(c, n)[0], "ci_high": wilson(c, n)[1]}
                      for reason, c in sorted(Counter(x.ending for x in experiences).items())}
    return out


def balance_report(engine, results: Sequence, *, game: str, seed: int, players: int, bots: Sequence[str],
                   rules=None, options: dict | None = None, card_names: dict | None = None,
                   experiences: Sequence | None = None) -> dict:
    """The report of a run (see the module docstring for what each figure means); ``experiences`` (one
    per game, :mod:`rules_engine.core.experience`) add the experience metrics."""
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
    if experiences is not None:
        report["experience"] = experience_section(engine, experiences, results)
    report["replay"] = {"rule": f"game i of this run is played from seed derive_seed('{engine.name}', {seed}, i), "
                                f"its seats' bots rotated i seats (pnp replay GAME --seed SEED --bots BOTS)",
                        "listed": min(games, LISTED_GAMES),
                        "games": [_game_entry(engine, seed, i, r) for i, r in enumerate(results[:LISTED_GAMES])]}
    link_outliers(engine, seed, report, results)
    return report


#: Games listed with their seed in a report (a larger run states the rule that gives every game's seed).
LISTED_GAMES = 10_000


def _game_entry(engine, seed: int, index: int, r) -> dict:
    return {"game": index, "seed": engine.game_seed(seed, index), "bots": list(r.bots),
            "winners": [w + 1 for w in r.winners], "length": r.length, "ending": r.reason}


def link_outliers(engine, seed: int, report: dict, results: Sequence) -> None:
    """Give each outlier a typical and an extreme game to replay: for a seat or card above the average,
    games it won (typical: the length closest to the median of those games; extreme: the shortest);
    below the average, games it lost (extreme: the longest)."""
    for o in report["outliers"]:
        high = o["win_rate"] > report["average"]
        picked = []
        for i, r in enumerate(results):
            if o["kind"] == "seat":
                seats = [int(o["name"].split()[-1]) - 1]
            else:
                seats = [s for s in range(len(r.bots)) if r.cards and o["name"] in r.cards[s]]
            if not seats:
                continue
            won = any(s in r.winners for s in seats)
            if won == high:
                picked.append(i)
        if not picked:
            continue
        lengths = sorted(results[i].length for i in picked)
        median = lengths[(len(lengths) - 1) // 2]
        typical = min(picked, key=lambda i: (abs(results[i].length - median), i))
        extreme = min(picked, key=lambda i: ((results[i].length if high else -results[i].length), i))
        o["links"] = {"typical": _game_entry(engine, seed, typical, results[typical]),
                      "extreme": _game_entry(engine, seed, extreme, results[extreme])}


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
    xp = report.get("experience")
    if xp:
        m = xp["metrics"]

        def mi(key, pct=False):
            e = m[key]
            f = _pct if pct else (lambda x: f"{x:.2f}")
            return f"{f(e['mean'])} [{f(e['ci_low'])}-{f(e['ci_high'])}]"

        lines.append(f"Experience (by {xp['progress']}): lead changes {mi('lead_changes')} a game, comebacks "
                     f"{mi('comeback', True)}, stalls {mi('stalls')} {report['length']['unit']}, decisions per seat "
                     f"{mi('decisions')}, stopped by a limit {mi('timeout', True)}")
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
