"""Seeded simulation of many games: statistics, component demand, invariant checks.

Every game's seed is derived from ``(seed, game index)`` alone, and the per-game results are combined
in game order, so a run gives the same report whatever the number of worker processes.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Callable, NamedTuple, Sequence

from rules_engine.core import play as core_play
from rules_engine.core import runs
from rules_engine.core.play import Engine
from rules_engine.shadow_throne.bots import BOTS
from rules_engine.shadow_throne.rules import GOAL, MAX_BATTLES, Rules
from rules_engine.shadow_throne.state import DRAFT, EXTRA, KEEP, PLAY, REASONS, GameState

#: Token kinds counted by :func:`token_demand`, as named in reports.
TOKEN_KINDS = ("gold", "influence", "dead", "converted", "plus_one")
_PEAK_KEYS = ("gold", "influence", "dead", "converted", "plus")
#: Seats the engine plays: the rules' 3 to 5 players.
PLAYERS = (3, 5)


def derive_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded with ``seed`` (independent of worker count)."""
    return runs.derive_seed("shadow_throne", seed, index)


seat_bots = runs.seat_bots


def new_state(rules: Rules, players: int, *, record: bool = False, check: bool = False, goal: int = GOAL,
              max_battles: int = MAX_BATTLES, battle_limit: int | None = None,
              start_gold: int | None = None) -> GameState:
    """A new game waiting for its first deal (the core play loop resolves it); ``battle_limit`` and
    ``start_gold`` are the options of ``OPTIONS`` (``max_battles`` the older name of the first)."""
    state = GameState(rules, players, None, goal=goal, record=record, check=check,
                      max_battles=battle_limit if battle_limit is not None else max_battles)
    if start_gold is not None:
        state.gold = [start_gold] * players
    return state


def fast_play(state: GameState, bots, rng) -> GameState:
    """The play loop with the bots' phase methods and the state's list-based moves: the same game as
    the core loop (``tests/test_core.py`` compares them), about a third faster."""
    seats = range(state.n)
    decisions = core_play.start_record(state, state.n)
    while True:
        phase = state.phase
        if phase == PLAY or phase == DRAFT:
            for p in seats:
                decisions[p] += 1
            if phase == PLAY:
                state.apply_play([bots[p].play(state, p, rng) for p in seats])
            else:
                state.apply_draft([bots[p].draft(state, p, rng) for p in seats])
        elif phase == EXTRA:
            for p in state.extra_pending:
                decisions[p] += 1
            state.apply_extra({p: bots[p].extra(state, p, state.extra_options(source), rng)
                               for p, source in sorted(state.extra_pending.items())})
        elif phase == KEEP:
            for p in seats:
                decisions[p] += bool(state.hands[p])
            state.apply_keep([bots[p].keep(state, p, rng) if state.hands[p] else None for p in seats])
        elif state.is_chance():
            state.sample_chance(rng)
        else:
            return state


def play_game(rules: Rules, bots, seed, *, players: int | None = None, goal: int = GOAL,
              record: bool = False, check: bool = False, max_battles: int = MAX_BATTLES, generic: bool = False,
              **options) -> GameState:
    """Play one whole game with the given bots (one per seat, objects or names); return the final state."""
    return core_play.play_game(ENGINE, rules, bots, seed, players=players, record=record, check=check,
                               generic=generic, goal=goal, max_battles=max_battles, **options)


class GameResult(NamedTuple):
    """The numbers a report needs from one game (small, so workers can send them back cheaply)."""

    winner: int | None
    reason: str
    battles: int
    faction_wins: tuple
    tied_battles: int
    gold: tuple
    influence: tuple
    peaks: tuple
    violations: tuple
    bots: tuple
    played: tuple = ()      # per seat: the card ids it played (as characters, in any battle)

    @property
    def winners(self) -> tuple:
        return () if self.winner is None else (self.winner,)

    @property
    def length(self) -> int:
        return self.battles

    @property
    def cards(self) -> tuple:
        return self.played


def _result(state: GameState, bots) -> GameResult:
    peak = state.peak
    return GameResult(state.winner, state.over_reason, state.battle, tuple(state.faction_wins),
                      sum(1 for w in state.battle_winners if len(w) > 1), tuple(state.gold),
                      tuple(state.influence), tuple(peak[k] for k in _PEAK_KEYS), tuple(state.violations),
                      tuple(bots), tuple(tuple(sorted(ids)) for ids in state.played_ids()))


def balance_figures(results, rules=None) -> dict:
    """Shadow Throne's own figures for ``pnp balance``: battle wins by faction, and the tokens in use
    at once (99th percentile) that a kit must hold."""
    from rules_engine.core.stats import wilson

    battles = sum(r.battles for r in results)
    names = rules.factions if rules is not None else _FACTIONS
    sides = []
    for i, faction in enumerate(names):
        wins = sum(r.faction_wins[i] for r in results)
        low, high = wilson(wins, battles)
        sides.append({"side": faction, "wins": wins, "games": battles, "unit": "battles",
                      "win_rate": round(wins / battles, 4) if battles else 0.0, "ci_low": low, "ci_high": high})
    components = {f"peak {kind} (99th percentile)": percentile([r.peaks[i] for r in results], 0.99)
                  for i, kind in enumerate(TOKEN_KINDS)}
    components["tied battles per game"] = runs.mean([r.tied_battles for r in results])
    return {"sides": sides, "components": components}


_FACTIONS = ("empire", "rebels", "church")

def game_metrics(result: GameResult, rules=None) -> dict:
    """Shadow Throne's own per-game metrics (``pnp lab``): each faction's share of the battles won."""
    names = rules.factions if rules is not None else _FACTIONS
    battles = result.battles or 1
    return {f"share_{f}": round(result.faction_wins[i] / battles, 6) for i, f in enumerate(names)}


def metric_labels(rules=None) -> dict:
    names = rules.factions if rules is not None else _FACTIONS
    return {f"share_{f}": (f"{f.capitalize()} battle share", "rate") for f in names}


def headline(rules=None) -> tuple:
    return tuple(metric_labels(rules))


#: What the core needs to play Shadow Throne with bots.
ENGINE = Engine("shadow_throne", new_state, _result, BOTS, PLAYERS, fast_play=fast_play, options={"goal": GOAL},
                card_usage="played", length_unit="battles", figures=balance_figures, timeouts=("battle_limit",),
                progress="influence", metrics=game_metrics, metric_labels=metric_labels, headline=headline)


def run_games(cards, *, games: int, seed: int = 0, players: int = 4, bots: Sequence[str] = ("random",),
              goal: int = GOAL, jobs: int = 1, check: bool = False, factions=None,
              progress: Callable[[int], None] | None = None, chunk: int = 250, executor=None,
              **options) -> list[GameResult]:
    """Play ``games`` games and return one :class:`GameResult` per game, in game order.

    ``cards`` are :class:`~rules_engine.model.cards.Card` objects (or a compiled :class:`Rules`); ``jobs``
    worker processes (or an ``executor``) share the games; ``progress(n)`` is called as each batch of
    n games finishes.
    """
    rules = cards if isinstance(cards, Rules) else Rules(cards, factions)
    return runs.run_games(ENGINE, rules, games=games, seed=seed, players=players, bots=bots, jobs=jobs, check=check,
                          progress=progress, chunk=chunk, executor=executor, options={"goal": goal, **options})


percentile = runs.percentile


def summarize(results: Sequence[GameResult], *, factions: Sequence[str], players: int, seed: int,
              bots: Sequence[str], goal: int = GOAL, checked: bool = False, quantile: float = 0.99) -> dict:
    """The simulation report as plain data (what ``pnp simulate --json`` prints)."""
    games = len(results)
    seat_wins = Counter(r.winner for r in results if r.winner is not None)
    bot_seats, bot_wins = Counter(), Counter()
    for r in results:
        bot_seats.update(r.bots)
        if r.winner is not None:
            bot_wins[r.bots[r.winner]] += 1
    battles = Counter(r.battles for r in results)
    faction_wins = [sum(r.faction_wins[i] for r in results) for i in range(len(factions))]
    total_battles = sum(r.battles for r in results)
    tied = sum(r.tied_battles for r in results)
    reasons = Counter(r.reason for r in results)
    all_gold = [g for r in results for g in r.gold]
    all_influence = [i for r in results for i in r.influence]
    winner_influence = [r.influence[r.winner] for r in results if r.winner is not None]
    broken = [f"game {i}: {v}" for i, r in enumerate(results) for v in r.violations]

    mean, share = runs.mean, runs.share
    return {
        "games": games,
        "players": players,
        "seed": seed,
        "goal": goal,
        "bots": list(bots),
        "wins_by_seat": {str(s + 1): seat_wins.get(s, 0) for s in range(players)},
        "no_winner": games - sum(seat_wins.values()),
        "wins_by_bot": {name: {"wins": bot_wins.get(name, 0), "seats": bot_seats[name],
                               "win_rate": share(bot_wins.get(name, 0), bot_seats[name])}
                        for name in dict.fromkeys(bots)},
        "battles": {"mean": mean([r.battles for r in results]),
                    "distribution": {str(k): battles[k] for k in sorted(battles)}},
        "battle_wins_by_faction": {f: {"wins": faction_wins[i], "share": share(faction_wins[i], total_battles)}
                                   for i, f in enumerate(factions)},
        "battles_total": total_battles,
        "tied_battles": tied,
        "end": {
            "gold": {"mean": mean(all_gold), "min": min(all_gold, default=0), "max": max(all_gold, default=0)},
            "influence": {"mean": mean(all_influence), "min": min(all_influence, default=0),
                          "max": max(all_influence, default=0), "winner_mean": mean(winner_influence)},
        },
        "game_over": {reason: reasons.get(reason, 0) for reason in REASONS},
        "peak_tokens": {"quantile": quantile,
                        **{kind: percentile([r.peaks[i] for r in results], quantile)
                           for i, kind in enumerate(TOKEN_KINDS)}},
        "invariants": {"checked": checked, "broken": len(broken), "examples": broken[:10]},
    }


def simulate(cards, *, games: int, seed: int = 0, players: int = 4, bots: Sequence[str] = ("random",),
             goal: int = GOAL, jobs: int = 1, check: bool = False, factions=None, progress=None,
             executor=None, **options) -> dict:
    """Run games and summarize them (see :func:`run_games` and :func:`summarize`)."""
    rules = cards if isinstance(cards, Rules) else Rules(cards, factions)
    results = run_games(rules, games=games, seed=seed, players=players, bots=bots, goal=goal, jobs=jobs,
                        check=check, progress=progress, executor=executor, **options)
    return summarize(results, factions=rules.factions, players=players, seed=seed, bots=bots, goal=goal,
                     checked=check)


def token_demand(cards, *, games: int = 1000, seed: int = 0, players: int = 5,
                 bots: Sequence[str] = ("random", "greedy"), quantile: float = 0.99, factions=None) -> dict:
    """Peak tokens in use at once, at the given quantile over seeded games.

    Returns ``{"gold": n, "influence": n, "dead": n, "converted": n, "plus_one": n}``: gold and
    influence held by all players together, and dead, converted and +1 tokens on the characters of
    one battle. The default (5 players, the largest table) is what a kit's token counts must cover.
    """
    results = run_games(cards, games=games, seed=seed, players=players, bots=bots, factions=factions)
    return {kind: percentile([r.peaks[i] for r in results], quantile) for i, kind in enumerate(TOKEN_KINDS)}


def random_seed() -> int:
    return random.SystemRandom().randrange(2 ** 31)
