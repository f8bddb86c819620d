"""Seeded simulation of many Shadow Queen games: who wins, how long games last, how they end, which
cards are played, and the invariant checks.

Game ``i`` of a run is seeded from ``(seed, i)`` alone and results are combined in game order, so a
report is the same whatever runs the games. Games that reach the turn limit have no winner: the
report counts them as a finding about the draft (its goals may be out of reach), not as an error.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable, NamedTuple, Sequence

from rules_engine.core import play as core_play
from rules_engine.core import runs
from rules_engine.core.play import Engine
from rules_engine.core.stats import rate, wilson
from rules_engine.shadow_queen.bots import BOTS
from rules_engine.shadow_queen.rules import TURN_LIMIT, Rules
from rules_engine.shadow_queen.state import DEFEND, DRAW, FATES, OVER, REASONS, ROLL, TURN_LIMIT_REACHED, GameState

#: Seats: the two sides.
PLAYERS = (2, 2)


def new_state(rules: Rules, players: int = 2, *, record: bool = False, check: bool = False,
              turn_limit: int = TURN_LIMIT, die: int | None = None, **variant) -> GameState:
    """A new game at its first chance event (the first side's draw); ``variant``: the other options of
    ``OPTIONS`` (the draft's open points)."""
    return GameState(rules, players, None, record=record, check=check, turn_limit=turn_limit, die=die, **variant)


def fast_play(state: GameState, bots, rng) -> GameState:
    """The play loop without the core's generality (one seat decides at a time, chance by phase): the
    same game as the core loop (``tests/test_sq_speed.py`` compares them)."""
    acts = [bot.act for bot in bots]      # bound once per game
    step = state.step
    decisions = core_play.start_record(state, 2)
    while True:
        phase = state.phase
        if phase == DRAW or phase == ROLL:
            state.sample_chance(rng)
            continue
        if phase == OVER:
            return state
        p = 1 - state.active if phase == DEFEND else state.active
        decisions[p] += 1
        step(acts[p](state, p, rng))


class GameResult(NamedTuple):
    """What a report needs from one game (small, so workers send it back cheaply)."""

    winners: tuple
    reason: str
    turns: int
    violations: tuple
    bots: tuple
    played: tuple            # per seat: ((card id, times played), ...)
    removed: tuple           # pieces off the board by fate, in FATES order
    holdings: tuple          # holdings each side controls at the end

    @property
    def length(self) -> int:
        return self.turns

    @property
    def cards(self) -> tuple:
        """Per seat, the card ids it played (``pnp balance``'s card usage)."""
        return tuple(tuple(c for c, _ in seat) for seat in self.played)


def _result(state: GameState, bots) -> GameResult:
    r = state.rules
    played = [Counter(), Counter()]
    for k, n in state.plays.items():
        played[r.card_deck[k]][r.cards[k].id] += n
    return GameResult(state.winners, state.over_reason or "", state.turn, tuple(state.violations), tuple(bots),
                      tuple(tuple(sorted(c.items())) for c in played), tuple(state.removed[f] for f in FATES),
                      (state.controlled(0), state.controlled(1)))


def balance_figures(results, rules=None) -> dict:
    """Win rates by side (seat 0 moves first) and what a game uses, for ``pnp balance``."""
    games = len(results)
    sides = []
    names = rules.side_names if rules is not None else ("first side", "second side")
    for side in (0, 1):
        wins = sum(1 for r in results if side in r.winners)
        low, high = wilson(wins, games)
        sides.append({"side": names[side], "wins": wins, "games": games, "unit": "games",
                      "win_rate": rate(wins, games), "ci_low": low, "ci_high": high})
    components = {f"pieces {fate} per game": runs.mean([r.removed[i] for r in results])
                  for i, fate in enumerate(FATES)}
    components["games stopped at the turn limit"] = runs.share(
        sum(1 for r in results if r.reason == TURN_LIMIT_REACHED), games)
    return {"sides": sides, "components": components}


#: What the core needs to play Shadow Queen with bots.
def game_metrics(result: GameResult, rules=None) -> dict:
    """Shadow Queen's own per-game metrics (``pnp lab``): wins by side, and victories before the limit."""
    names = rules.sides if rules is not None else ("shadows", "kingdom")
    out = {f"win_{side}": 1.0 if s in result.winners else 0.0 for s, side in enumerate(names)}
    out["victory"] = 1.0 if result.winners and result.reason != TURN_LIMIT_REACHED else 0.0
    return out


def metric_labels(rules=None) -> dict:
    sides = rules.sides if rules is not None else ("shadows", "kingdom")
    names = rules.side_names if rules is not None else ("Shadows", "Kingdom")
    labels = {f"win_{side}": (f"{name} win rate", "rate") for side, name in zip(sides, names)}
    labels["victory"] = ("games won before the turn limit", "rate")
    return labels


def headline(rules=None) -> tuple:
    return ("victory",) + tuple(k for k in metric_labels(rules) if k != "victory")


ENGINE = Engine("shadow_queen", new_state, _result, BOTS, PLAYERS, fast_play=fast_play, card_usage="played",
                length_unit="turns",
                figures=balance_figures, timeouts=(TURN_LIMIT_REACHED,), progress="pieces taken and holdings held",
                metrics=game_metrics, metric_labels=metric_labels, headline=headline)


def derive_seed(seed: int, index: int) -> int:
    return runs.derive_seed("shadow_queen", seed, index)


seat_bots = runs.seat_bots


def play_game(rules: Rules, bots, seed, *, players: int | None = None, record: bool = False, check: bool = False,
              turn_limit: int = TURN_LIMIT, die: int | None = None, generic: bool = False, **variant) -> GameState:
    """One whole game with a bot per seat (objects or names); returns the final state."""
    return core_play.play_game(ENGINE, rules, bots, seed, players=players or 2, record=record, check=check,
                               generic=generic, turn_limit=turn_limit, die=die, **variant)


def recorded_game(rules: Rules, *, seed: int, players: int = 2, bots: Sequence[str], check: bool = False,
                  turn_limit: int = TURN_LIMIT, die: int | None = None, **variant):
    """Game 0 of a run seeded with ``seed``, with events: ``(seat bot names, final state)``."""
    return core_play.recorded_game(ENGINE, rules, seed=seed, players=players, bots=bots, check=check,
                                   turn_limit=turn_limit, die=die, **variant)


def run_games(rules: Rules, *, games: int, seed: int = 0, players: int = 2, bots: Sequence[str] = ("random",),
              jobs: int = 1, check: bool = False, progress: Callable[[int], None] | None = None, chunk: int = 250,
              executor=None, turn_limit: int = TURN_LIMIT, die: int | None = None, **variant) -> list[GameResult]:
    """Play ``games`` games; one :class:`GameResult` each, in game order."""
    return runs.run_games(ENGINE, rules, games=games, seed=seed, players=players, bots=bots, jobs=jobs,
                          check=check, progress=progress, chunk=chunk, executor=executor,
                          options={"turn_limit": turn_limit, "die": die, **variant})


def summarize(results: Sequence[GameResult], *, rules: Rules, seed: int, bots: Sequence[str], checked: bool = False,
              turn_limit: int = TURN_LIMIT) -> dict:
    """The report as plain data (what ``pnp simulate --json`` prints)."""
    games = len(results)
    names = rules.side_names
    turns = [r.turns for r in results]
    finished = [r.turns for r in results if r.reason != TURN_LIMIT_REACHED]
    reasons = Counter(r.reason for r in results)
    bot_sides = Counter()
    bot_wins = Counter()
    for r in results:
        for side, bot in enumerate(r.bots):
            bot_sides[(bot, side)] += 1
            if side in r.winners:
                bot_wins[(bot, side)] += 1
    usage = []
    for side in (0, 1):
        totals = Counter()
        games_with = Counter()
        for r in results:
            for card, n in r.played[side]:
                totals[card] += n
                games_with[card] += 1
        for card in rules.cards:
            if rules.card_deck[rules.card_index[card.id]] != side:
                continue
            usage.append({"card": card.id, "name": card.name, "side": names[side],
                          "played": totals[card.id], "per_game": runs.mean([dict(r.played[side]).get(card.id, 0)
                                                                           for r in results]),
                          "games": games_with[card.id]})
    broken = [f"game {i}: {v}" for i, r in enumerate(results) for v in r.violations]
    mean, share, pct = runs.mean, runs.share, runs.percentile
    wins = {names[s]: sum(1 for r in results if s in r.winners) for s in (0, 1)}
    return {
        "games": games,
        "players": 2,
        "seed": seed,
        "bots": list(bots),
        "turn_limit": turn_limit,
        "wins": {side: {"wins": n, "win_rate": share(n, games)} for side, n in wins.items()},
        "undecided": {"games": reasons.get(TURN_LIMIT_REACHED, 0), "share": share(reasons.get(TURN_LIMIT_REACHED, 0),
                                                                                  games)},
        "wins_by_bot": [{"bot": bot, "side": names[side], "games": n, "wins": bot_wins[(bot, side)],
                         "win_rate": share(bot_wins[(bot, side)], n)} for (bot, side), n in sorted(bot_sides.items())],
        "turns": {"mean": mean(turns), "min": min(turns, default=0), "median": pct(turns, 0.5),
                  "p90": pct(turns, 0.9), "max": max(turns, default=0),
                  "finished_mean": mean(finished), "finished_median": pct(finished, 0.5)},
        "endings": {reason: reasons.get(reason, 0) for reason in REASONS},
        "removed_per_game": {fate: mean([r.removed[i] for r in results]) for i, fate in enumerate(FATES)},
        "holdings_at_end": {names[s]: mean([r.holdings[s] for r in results]) for s in (0, 1)},
        "cards": usage,
        "invariants": {"checked": checked, "broken": len(broken), "examples": broken[:10]},
    }


def simulate(rules: Rules, *, games: int, seed: int = 0, players: int = 2, bots: Sequence[str] = ("random",),
             jobs: int = 1, check: bool = False, progress=None, executor=None, turn_limit: int = TURN_LIMIT,
             die: int | None = None, **variant) -> dict:
    """Run games and summarize them (see :func:`run_games` and :func:`summarize`)."""
    results = run_games(rules, games=games, seed=seed, players=players, bots=bots, jobs=jobs, check=check,
                        progress=progress, executor=executor, turn_limit=turn_limit, die=die, **variant)
    return summarize(results, rules=rules, seed=seed, bots=bots, checked=check, turn_limit=turn_limit)


ENDING_WORDS = {"enthralled": "every Kingdom piece possessed or gone", "banished": "the Shadows and their taint gone",
                "held": "a side held the holdings it needed",
                "turn_limit": "stopped at the turn limit"}


def report_lines(report: dict, *, title: str, cards=(), factions=()) -> list[str]:
    """The report as English lines."""
    games = report["games"]
    lines = [f"{title}: {games} games, seed {report['seed']}, bots {', '.join(report['bots'])}, "
             f"turn limit {report['turn_limit']}"]
    lines.append("Wins by side: " + ", ".join(f"{side} {w['wins']} ({100 * w['win_rate']:.1f}%)"
                                              for side, w in report["wins"].items())
                 + f"; no winner {report['undecided']['games']} ({100 * report['undecided']['share']:.1f}%)")
    lines.append("Wins by bot and side: " + ", ".join(
        f"{b['bot']} as {b['side']} {b['wins']}/{b['games']} ({100 * b['win_rate']:.1f}%)" for b in report["wins_by_bot"]))
    t = report["turns"]
    lines.append(f"Length in turns (each side's turn counts one): mean {t['mean']:.1f}, median {t['median']}, "
                 f"90th percentile {t['p90']}, max {t['max']}; games that ended: mean {t['finished_mean']:.1f}, "
                 f"median {t['finished_median']}")
    lines.append("How games end: " + ", ".join(f"{ENDING_WORDS.get(k, k)} {v}" for k, v in report["endings"].items()))
    undecided = report["undecided"]
    if undecided["games"]:
        lines.append(f"Design finding: {undecided['games']} of {games} games ({100 * undecided['share']:.1f}%) reached "
                     f"the limit of {report['turn_limit']} turns without a winner: with these bots neither goal "
                     f"was reached; the draft may need a way for games to end.")
    gone = report["removed_per_game"]
    lines.append("Pieces leaving the board per game: " + ", ".join(f"{fate} {n:.2f}" for fate, n in gone.items()))
    lines.append("Holdings held at the end (mean): " + ", ".join(f"{s} {n:.2f}"
                                                                for s, n in report["holdings_at_end"].items()))
    for side in dict.fromkeys(c["side"] for c in report["cards"]):
        used = [c for c in report["cards"] if c["side"] == side]
        lines.append(f"Cards played per game ({side}): " + ", ".join(f"{c['name']} {c['per_game']:.2f}" for c in used))
    lines.append(runs.invariant_line(report["invariants"]))
    return lines
