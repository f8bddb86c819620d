"""The play loop, and :class:`Engine`: what an engine tells the core so that bots can play it.

:func:`play` drives any :class:`~rules_engine.core.state.State` with one bot per seat and one seeded
generator: chance nodes are resolved with it, and bots draw their random choices from it. An engine
may give a faster loop of its own (``Engine.fast_play``); it must play exactly the same game for the
same seed (each engine has a test comparing the two), and is used only when every bot allows it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from rules_engine.core import bots as core_bots
from rules_engine.core.seeds import derive_seed, seat_bots


@dataclass(frozen=True)
class Engine:
    """An engine's entry points for the core (``rules_engine.<name>.ENGINE``).

    ``new_state(rules, players, *, record, check, **options)`` makes the state of a new game, at its
    first chance node (no generator inside); ``result(state, seat_bot_names)`` is the small picklable
    record of a finished game that reports are made from; ``bots`` maps a bot name to a factory taking
    the optional ``NAME:ARG`` argument; ``fast_play(state, bots, rng)`` (optional) plays a whole game
    with bots that have ``fast = True``; ``players`` is the range of seats the engine plays.

    For ``pnp balance``: each result has ``cards`` (per seat, the card ids it ``card_usage``: "played" or
    "owned") and ``length`` (in ``length_unit``); ``figures(results, rules)`` (optional) gives the game's own
    figures: ``sides`` (win rates of factions or sides, as ``[{side, wins, games, win_rate, ci_low,
    ci_high}]``) and ``components`` (component demand, name -> value).

    For experience metrics and ``pnp lab`` (:mod:`rules_engine.core.experience`, :mod:`rules_engine.core.metrics`):
    ``timeouts`` are the endings that are safety stops (a turn limit); ``progress`` names the measure
    ``State.progress()`` reports (``influence``); ``metrics(result, rules)`` (optional) gives the
    engine's own per-game metrics, id -> number, described by ``metric_labels`` (id -> ``(label, kind)``,
    kind ``rate`` or ``count``); ``headline`` names the metrics ``pnp lab`` looks at by default.
    """

    name: str
    new_state: Callable
    result: Callable
    bots: Mapping[str, Callable]
    players: tuple[int, int]
    fast_play: Callable | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    card_usage: str = "played"
    length_unit: str = "turns"
    figures: Callable | None = None
    timeouts: tuple = ()
    progress: str = ""
    metrics: Callable | None = None
    metric_labels: Mapping[str, tuple] = field(default_factory=dict)
    headline: tuple = ()

    def make_bot(self, spec: str):
        return core_bots.make_bot(self.bots, spec)

    def check_bots(self, specs: Sequence[str]) -> None:
        """Raise ValueError for an unknown bot or a bad argument (before any worker starts)."""
        for spec in specs:
            self.make_bot(spec)

    def game_seed(self, seed: int, index: int) -> int:
        return derive_seed(self.name, seed, index)


def start_record(state, players: int):
    """Give a state the play loop's record: decisions per seat and the progress trace (see
    :mod:`rules_engine.core.experience`); returns the decisions list to count in."""
    state.decisions = [0] * players
    state.trace = []
    return state.decisions


def play(state, bots: Sequence, rng: random.Random):
    """Play ``state`` to the end: chance with ``rng``, each seat's decisions by ``bots[seat]``."""
    decisions = start_record(state, len(bots))
    while True:
        movers = state.to_move()
        if movers:
            if len(movers) == 1:
                p = movers[0]
                decisions[p] += 1
                state.step_action(bots[p].act(state, p, rng))
            else:
                for p in movers:
                    decisions[p] += 1
                state.step_actions({p: bots[p].act(state, p, rng) for p in movers})
        elif state.is_chance():
            state.sample_chance(rng)
        else:
            return state


def play_game(engine: Engine, rules, bots: Sequence, seed, *, players: int | None = None, record: bool = False,
              check: bool = False, generic: bool = False, **options):
    """One whole game with one bot per seat (bot objects or specs, repeated around a larger table);
    returns the final state. ``generic=True`` forces the core loop (tests compare it with the fast one)."""
    bots = [engine.make_bot(b) if isinstance(b, str) else b for b in bots]
    n = players or len(bots)
    if len(bots) < n:
        bots = [bots[i % len(bots)] for i in range(n)]
    state = engine.new_state(rules, n, record=record, check=check, **options)
    rng = random.Random(seed)
    if engine.fast_play is not None and not generic and all(getattr(b, "fast", False) for b in bots):
        return engine.fast_play(state, bots, rng)
    return play(state, bots, rng)


def play_batch(engine: Engine, rules, indexes, seed: int, players: int, bot_specs: Sequence[str], check: bool,
               options: Mapping, experience: bool = False) -> list:
    """Play the games with the given indexes of a run (the unit of work of a worker): game ``i`` is
    seeded from ``(seed, i)`` alone and its seats get ``seat_bots(bot_specs, players, i)``. With
    ``experience`` each game gives ``(result, Experience)``."""
    from rules_engine.core.experience import experience as experience_of

    cache = {spec: engine.make_bot(spec) for spec in set(bot_specs)}
    out = []
    for index in indexes:
        names = seat_bots(bot_specs, players, index)
        state = play_game(engine, rules, [cache[n] for n in names], engine.game_seed(seed, index), players=players,
                          check=check, **options)
        result = engine.result(state, names)
        out.append((result, experience_of(engine, state, result)) if experience else result)
    return out


def recorded_game(engine: Engine, rules, *, seed: int, players: int, bots: Sequence[str], check: bool = False,
                  **options):
    """Game 0 of a run seeded with ``seed``, with events: ``(seat bot names, final state)``."""
    seats = seat_bots(list(bots), players, 0)
    state = play_game(engine, rules, seats, engine.game_seed(seed, 0), players=players, record=True, check=check,
                      **options)
    return seats, state
