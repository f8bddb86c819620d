"""Seeded simulation of many Behind the Throne games: statistics and invariant checks.

Every game's seed is derived from ``(seed, game index)`` alone and results are combined in game order,
so a run gives the same report whatever the number of worker processes.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable, NamedTuple, Sequence

from rules_engine.behind_the_throne.bots import BOTS
from rules_engine.behind_the_throne.rules import MAX_STACKS, TURN_LIMIT, Rules
from rules_engine.behind_the_throne.state import ENDINGS, OVER, REASONS, GameState
from rules_engine.core import play as core_play
from rules_engine.core import runs
from rules_engine.core.play import Engine

#: Seats the engine plays: the rules' 2 to 5 players.
PLAYERS = (2, 5)


def derive_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded with ``seed`` (independent of worker count)."""
    return runs.derive_seed("behind_the_throne", seed, index)


seat_bots = runs.seat_bots


def new_state(rules: Rules, players: int, *, record: bool = False, check: bool = False,
              max_turns: int = TURN_LIMIT, turn_limit: int | None = None, max_stacks: int = MAX_STACKS) -> GameState:
    """A new game waiting for its first shuffle (the core play loop resolves it); ``turn_limit`` and
    ``max_stacks`` are the options of ``OPTIONS`` (``max_turns`` the older name of the first)."""
    return GameState(rules, players, None, record=record, check=check,
                     max_turns=turn_limit if turn_limit is not None else max_turns, max_stacks=max_stacks)


def fast_play(state: GameState, bots, rng) -> GameState:
    """The play loop without the core's generality (one seat decides at a time): the same game as the
    core loop (``tests/test_core.py`` compares them)."""
    decisions = core_play.start_record(state, state.n)
    while state.phase != OVER:
        if state._pending is not None:
            state.sample_chance(rng)
            continue
        p = state.chooser if state.chooser is not None else state.active
        decisions[p] += 1
        state.step(bots[p].act(state, p, rng))
    return state


def play_game(rules: Rules, bots, seed, *, players: int | None = None, record: bool = False,
              check: bool = False, max_turns: int = TURN_LIMIT, generic: bool = False, **options) -> GameState:
    """Play one whole game with the given bots (one per seat, objects or names); return the final state."""
    return core_play.play_game(ENGINE, rules, bots, seed, players=players, record=record, check=check,
                               generic=generic, max_turns=max_turns, **options)


def recorded_game(rules: Rules, *, seed: int, players: int, bots: Sequence[str], check: bool = False, **options):
    """Game 0 of a run seeded with ``seed``, with events: ``(seat bot names, final state)``."""
    return core_play.recorded_game(ENGINE, rules, seed=seed, players=players, bots=bots, check=check, **options)


class GameResult(NamedTuple):
    """The numbers a report needs from one game (small, so workers send them back cheaply)."""

    winners: tuple
    reason: str
    turns: int
    scores: tuple
    reveals: int
    endings: tuple          # turns ended by collecting, swapping, busting, the End of Game card
    destroys: int
    rebuilds: int
    violations: tuple
    bots: tuple
    owned: tuple = ()       # per seat: the card ids in its stacks at the end

    @property
    def length(self) -> int:
        return self.turns

    @property
    def cards(self) -> tuple:
        return self.owned


def _result(state: GameState, bots) -> GameResult:
    kind_id = state.rules.kind_id
    return GameResult(state.winners, state.over_reason, state.turn, tuple(state.scores), state.reveals,
                      tuple(state.endings[e] for e in ENDINGS), state.destroys, state.rebuilds,
                      tuple(state.violations), tuple(bots),
                      tuple(tuple(sorted(kind_id(k) for k in stacks)) for stacks in state.stacks))


def balance_figures(results, rules=None) -> dict:
    """Behind the Throne's own figures for ``pnp balance``: how turns end, and what a game uses."""
    mean = runs.mean
    turns = sum(r.turns for r in results)
    components = {f"turns ending in {e}": runs.share(sum(r.endings[i] for r in results), turns)
                  for i, e in enumerate(ENDINGS)}
    components.update({"cards revealed per game": mean([r.reveals for r in results]),
                       "cards destroyed per game": mean([r.destroys for r in results]),
                       "deck rebuilds per game": mean([r.rebuilds for r in results]),
                       "most cards revealed in a game": max((r.reveals for r in results), default=0)})
    return {"sides": [], "components": components}


#: What the core needs to play Behind the Throne with bots.
def game_metrics(result: GameResult, rules=None) -> dict:
    """Behind the Throne's own per-game metrics (``pnp lab``): the winning score, shared victories."""
    return {"top_score": max(result.scores, default=0), "shared": 1.0 if len(result.winners) > 1 else 0.0}


ENGINE = Engine("behind_the_throne", new_state, _result, BOTS, PLAYERS, fast_play=fast_play,
                card_usage="owned", length_unit="turns", figures=balance_figures, timeouts=("turn_limit",),
                progress="score", metrics=game_metrics,
                metric_labels={"top_score": ("winning score", "count"), "shared": ("shared victories", "rate")},
                headline=("win_seat_1", "top_score", "length"))


def run_games(rules: Rules, *, games: int, seed: int = 0, players: int = 4, bots: Sequence[str] = ("random",),
              jobs: int = 1, check: bool = False, progress: Callable[[int], None] | None = None,
              chunk: int = 250, executor=None, **options) -> list[GameResult]:
    """Play ``games`` games and return one :class:`GameResult` per game, in game order."""
    return runs.run_games(ENGINE, rules, games=games, seed=seed, players=players, bots=bots, jobs=jobs, check=check,
                          progress=progress, chunk=chunk, executor=executor, options=options)


percentile = runs.percentile


def summarize(results: Sequence[GameResult], *, players: int, seed: int, bots: Sequence[str],
              checked: bool = False) -> dict:
    """The simulation report as plain data (what ``pnp simulate --json`` prints)."""
    games = len(results)
    seat_wins = Counter(p for r in results for p in r.winners)
    bot_seats, bot_wins, bot_credit = Counter(), Counter(), Counter()
    for r in results:
        bot_seats.update(r.bots)
        for p in r.winners:
            bot_wins[r.bots[p]] += 1
            bot_credit[r.bots[p]] += 1 / len(r.winners)
    turns = [r.turns for r in results]
    endings = [sum(r.endings[i] for r in results) for i in range(len(ENDINGS))]
    total_turns = sum(turns)
    scores = [s for r in results for s in r.scores]
    winner_scores = [r.scores[r.winners[0]] for r in results if r.winners]
    reasons = Counter(r.reason for r in results)
    broken = [f"game {i}: {v}" for i, r in enumerate(results) for v in r.violations]

    mean, share = runs.mean, runs.share
    return {
        "games": games,
        "players": players,
        "seed": seed,
        "bots": list(bots),
        "wins_by_seat": {str(s + 1): seat_wins.get(s, 0) for s in range(players)},
        "shared_victories": sum(1 for r in results if len(r.winners) > 1),
        "wins_by_bot": {name: {"wins": bot_wins.get(name, 0), "seats": bot_seats[name],
                               "win_rate": share(bot_wins.get(name, 0), bot_seats[name]),
                               "share": share(bot_credit.get(name, 0), games)}
                        for name in dict.fromkeys(bots)},
        "turns": {"mean": mean(turns), "min": min(turns, default=0), "median": percentile(turns, 0.5),
                  "p90": percentile(turns, 0.9), "max": max(turns, default=0)},
        "turn_endings": {e: {"turns": endings[i], "share": share(endings[i], total_turns)}
                         for i, e in enumerate(ENDINGS)},
        "per_game": {"reveals": mean([r.reveals for r in results]),
                     "destroys": mean([r.destroys for r in results]),
                     "deck_rebuilds": mean([r.rebuilds for r in results])},
        "scores": {"mean": mean(scores), "max": max(scores, default=0), "winner_mean": mean(winner_scores)},
        "game_over": {reason: reasons.get(reason, 0) for reason in REASONS},
        "invariants": {"checked": checked, "broken": len(broken), "examples": broken[:10]},
    }


def simulate(rules: Rules, *, games: int, seed: int = 0, players: int = 4, bots: Sequence[str] = ("random",),
             jobs: int = 1, check: bool = False, progress=None, executor=None, **options) -> dict:
    """Run games and summarize them (see :func:`run_games` and :func:`summarize`)."""
    results = run_games(rules, games=games, seed=seed, players=players, bots=bots, jobs=jobs, check=check,
                        progress=progress, executor=executor, **options)
    return summarize(results, players=players, seed=seed, bots=bots, checked=check)


def report_lines(report: dict, *, title: str, cards=(), factions=()) -> list[str]:
    """The simulation report as a short English text."""
    games = report["games"]

    def pct(count, whole=games):
        return f"{100 * count / whole:.1f}%" if whole else "-"

    lines = [f"{title}: {games} games, {report['players']} players, seed {report['seed']}, "
             f"bots {', '.join(report['bots'])}"]
    seats = ", ".join(f"seat {s} {n} ({pct(n)})" for s, n in report["wins_by_seat"].items())
    lines.append(f"Wins by seat (a shared victory counts for each winner): {seats}; "
                 f"shared victories {report['shared_victories']} ({pct(report['shared_victories'])})")
    bots = ", ".join(f"{name} {b['wins']} of {b['seats']} seats ({100 * b['win_rate']:.1f}% per seat, "
                     f"{100 * b['share']:.1f}% of victories)" for name, b in report["wins_by_bot"].items())
    lines.append(f"Wins by bot: {bots}")
    t = report["turns"]
    lines.append(f"Turns per game: mean {t['mean']:.1f} (min {t['min']}, median {t['median']}, "
                 f"90th percentile {t['p90']}, max {t['max']})")
    ends = ", ".join(f"{e} {v['share'] * 100:.1f}%" for e, v in report["turn_endings"].items())
    lines.append(f"Turns ending in: {ends}")
    per = report["per_game"]
    lines.append(f"Per game: {per['reveals']:.1f} cards revealed, {per['destroys']:.2f} cards destroyed, "
                 f"{per['deck_rebuilds']:.2f} deck rebuilds")
    s = report["scores"]
    lines.append(f"Scores: mean {s['mean']:.1f} per player (max {s['max']}); winner's mean {s['winner_mean']:.1f}")
    reasons = {"end_card": "End of Game card", "turn_limit": "turn limit"}
    lines.append("Game over: " + ", ".join(f"{reasons.get(k, k)} {v}" for k, v in report["game_over"].items()))
    lines.append(runs.invariant_line(report["invariants"]))
    return lines
