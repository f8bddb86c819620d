"""The play loop, and :class:`Engine`: what an engine tells the core so that bots can play it.

:func:`play` drives any :class:`~rules_engine.core.state.State` with one bot per seat and one seeded
generator: chance nodes are resolved with it, and bots draw their random choices from it. An engine
may give a faster loop of its own (``Engine.fast_play``); it must play exactly the same game for the
same seed (each engine has a test comparing the two), and is used only when every bot allows it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, NamedTuple, Sequence

from rules_engine.core import bots as core_bots
from rules_engine.core import faults
from rules_engine.core.faults import MAX_DECISIONS, raised
from rules_engine.core.seeds import derive_seed, seat_bots
from rules_engine.core.state import State


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

    Only ``name``, ``new_state`` and ``players`` are required: without ``result`` a game's result is
    :func:`default_result` (the winners by ``returns()``), without ``bots`` the engine has the core's
    (``random``, ``search``).

    ``max_decisions`` (optional) is the most decisions a game can take (a number, or ``(rules, players,
    options) -> number``): the engine's own bound, which replaces pnp's default limit and which ``pnp check-engine``
    holds it to.
    """

    name: str
    new_state: Callable
    result: Callable | None = None
    bots: Mapping[str, Callable] | None = None
    players: tuple = ()
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
    max_decisions: int | Callable | None = None

    def __post_init__(self):
        if self.result is None:                 # frozen: the defaults are set as the dataclass would
            object.__setattr__(self, "result", default_result)
        if self.bots is None:
            object.__setattr__(self, "bots", core_bots.registry({}))
        if len(tuple(self.players)) != 2:
            raise ValueError(f"Engine {self.name!r}: give players=(fewest, most), the seats the rules are written "
                             f"for")

    def make_bot(self, spec: str):
        return core_bots.make_bot(self.bots, spec)

    def check_bots(self, specs: Sequence[str]) -> None:
        """Raise ValueError for an unknown bot or a bad argument (before any worker starts)."""
        for spec in specs:
            self.make_bot(spec)

    def game_seed(self, seed: int, index: int) -> int:
        return derive_seed(self.name, seed, index)


class DefaultResult(NamedTuple):
    """The result of a game of an engine that gives no ``Engine.result`` (see :func:`default_result`)."""

    winners: tuple
    bots: tuple
    length: int
    reason: str
    violations: tuple
    cards: tuple


def default_result(state, bots) -> DefaultResult:
    """A finished game's result from the state API alone: the winners are the seats with the highest
    return (none when every return is 0); the length is ``state.length`` when the state has one, else the
    game's decisions; the reason ``state.reason`` (else ``end``); the state's ``violations``; no cards."""
    returns = list(state.returns())
    best = max(returns) if returns else 0
    winners = tuple(s for s, r in enumerate(returns) if r == best and best > 0)
    length = getattr(state, "length", None)
    if not isinstance(length, int) or isinstance(length, bool):
        length = sum(getattr(state, "decisions", None) or ())
    return DefaultResult(winners, tuple(bots), length, str(getattr(state, "reason", "") or "end"),
                         tuple(getattr(state, "violations", ()) or ()), tuple(() for _ in returns))


def start_record(state, players: int):
    """Give a state the play loop's record: decisions per seat and the progress trace (see
    :mod:`rules_engine.core.experience`); returns the decisions list to count in."""
    state.decisions = [0] * players
    state.trace = []
    return state.decisions


class SeatFault(Exception):
    """A fault inside :func:`play`, before :func:`play_game` names the game: ``kind`` (as
    :class:`~rules_engine.core.faults.GameFault` has it), the ``seat`` (or None) and what happened."""

    def __init__(self, kind: str, seat: int | None, detail: str):
        super().__init__(f"seat {seat + 1 if seat is not None else '?'}: {detail}")
        self.kind, self.seat, self.detail = kind, seat, detail


def _shown(action) -> str:
    text = repr(action)
    return text if len(text) <= 80 else text[:79] + "\u2026"


def _legal_list(legal) -> str:
    shown = ", ".join(_shown(a) for a in list(legal)[:12])
    return shown + (", ..." if len(legal) > 12 else "") if legal else "none"


def legal_by_construction(bot, state) -> bool:
    """Whether ``bot``'s actions are legal without looking: the core's random bot on a state that keeps the
    core's ``random_action`` picks one of ``legal_actions`` itself (looking again would list them twice
    per decision, which doubles the cost of a random game whose legal actions are costly to list)."""
    return type(bot) is core_bots.RandomBot and type(state).random_action is State.random_action


def chosen_action(bot, state, seat: int, rng, check: bool = True):
    """The bot's action for ``seat``, checked against the seat's legal actions (SeatFault otherwise;
    ``check=False``: not looked up, for a bot :func:`legal_by_construction`)."""
    try:
        action = bot.act(state, seat, rng)
    except Exception as exc:  # noqa: BLE001 - a bot's own fault, named with its seat
        raise SeatFault("bot", seat, f"raised {raised(exc)}") from exc
    if not check:
        return action
    try:
        # the state's own check where it has one (``State.is_legal``: the same answer, without listing every
        # legal action); the list is made only to name them when the action is not among them
        is_legal = getattr(state, "is_legal", None)
        legal = None
        if is_legal is not None:
            ok = bool(is_legal(seat, action))
        else:
            legal = state.legal_actions(seat)
            ok = action in legal
        if not ok and legal is None:
            legal = state.legal_actions(seat)
    except Exception as exc:  # noqa: BLE001 - the engine's fault
        raise SeatFault("engine", seat, f"raised {raised(exc)} listing the legal actions") from exc
    if not ok:
        raise SeatFault("illegal", seat, f"chose {_shown(action)}, which is not a legal action there "
                                         f"(legal: {_legal_list(legal)})")
    return action


def play(state, bots: Sequence, rng: random.Random, *, limit: int | None = None):
    """Play ``state`` to the end: chance with ``rng``, each seat's decisions by ``bots[seat]``, each action
    checked against the seat's legal actions before it is applied. A bot that raises or chooses an
    illegal action, an engine that raises, and more than ``limit`` decisions (default
    :data:`~rules_engine.core.faults.MAX_DECISIONS`) raise :class:`SeatFault`."""
    decisions = start_record(state, len(bots))
    limit = MAX_DECISIONS if limit is None else limit
    checked = [not legal_by_construction(bot, state) for bot in bots]
    made, doing, seat = 0, "choosing who moves", None
    try:
        while True:
            doing, seat = "choosing who moves", None
            movers = state.to_move()
            if movers:
                made += len(movers)
                if made > limit:
                    raise SeatFault("decisions", movers[0], f"did not end the game within {limit} decisions")
                if len(movers) == 1:
                    p = movers[0]
                    decisions[p] += 1
                    action = chosen_action(bots[p], state, p, rng, checked[p])
                    doing, seat = "applying the action", p
                    state.step_action(action)
                else:
                    for p in movers:
                        decisions[p] += 1
                    joint = {p: chosen_action(bots[p], state, p, rng, checked[p]) for p in movers}
                    doing, seat = "applying the seats' joint action", None
                    state.step_actions(joint)
            else:
                doing = "resolving chance"
                if state.is_chance():
                    state.sample_chance(rng)
                else:
                    return state
    except SeatFault:
        raise
    except Exception as exc:  # noqa: BLE001 - the engine's fault, named with what it was doing
        raise SeatFault("engine", seat, f"raised {raised(exc)} {doing}") from exc


def play_game(engine: Engine, rules, bots: Sequence, seed, *, players: int | None = None, record: bool = False,
              check: bool = False, generic: bool = False, **options):
    """One whole game with one bot per seat (bot objects or specs, repeated around a larger table);
    returns the final state. ``generic=True`` forces the core loop (tests compare it with the fast one).

    The game is played within this process's limits (:mod:`rules_engine.core.faults`); a bot's or the
    engine's fault, or a limit passed, raises :class:`~rules_engine.core.faults.GameFault` naming the
    engine, the seat, its bot and the seed. ``new_state`` refusing the table (a ValueError) is raised as
    it is."""
    bots = [engine.make_bot(b) if isinstance(b, str) else b for b in bots]
    n = players or len(bots)
    if len(bots) < n:
        bots = [bots[i % len(bots)] for i in range(n)]
    limits = faults.current()
    try:
        most = limits.decisions_for(engine, rules, n, options)
    except Exception as exc:  # noqa: BLE001 - the engine's bound
        raise faults.GameFault("engine", engine.name, f"raised {raised(exc)} in max_decisions", seed=seed,
                               players=n) from None
    box: list = []

    def fault(kind, seat, detail, blame=None):
        names = [getattr(b, "name", "") or type(b).__name__ for b in bots]
        return faults.GameFault(kind, engine.name, detail, blame=blame, seat=seat,
                                bot=names[seat] if seat is not None else None,
                                seed=seed, players=n, bots=names, options=replay_options(engine, options),
                                limits=limits)

    try:
        with faults.Watch(box, limits.seconds, most):
            try:
                state = engine.new_state(rules, n, record=record, check=check, **options)
            except ValueError:
                raise
            except Exception as exc:  # noqa: BLE001 - the engine's fault
                raise fault("engine", None, f"raised {raised(exc)} making a new game") from None
            box.append(state)
            rng = random.Random(seed)
            if engine.fast_play is not None and not generic and all(getattr(b, "fast", False) for b in bots):
                try:
                    state = engine.fast_play(state, bots, rng)
                except Exception as exc:  # noqa: BLE001 - the engine's loop, or a bot inside it
                    seat = faults.blamed_bot(faults.traceback_frames(exc), bots)
                    kind = "bot" if seat is not None else "engine"
                    raise fault(kind, seat if seat is not None else _mover(state), f"raised {raised(exc)}") from None
                made = sum(state.decisions or ())
                if made > most:
                    raise fault("decisions", _mover(state), f"did not end the game within {most} decisions")
                return state
            try:
                return play(state, bots, rng, limit=most)
            except SeatFault as exc:
                raise fault(exc.kind, exc.seat, exc.detail) from None
    except faults.LimitReached as hit:
        state = box[0] if box else None
        if hit.kind == "decisions":
            raise fault("decisions", _mover(state), f"did not end the game within {most} decisions") from None
        seat = faults.blamed_bot(hit.frames, bots)
        if seat is not None:
            raise fault("seconds", seat, f"took more than {limits.seconds:g} s for one decision", "bot") from None
        raise fault("seconds", _mover(state), f"took more than {limits.seconds:g} s without reaching the next "
                                              f"decision", "engine") from None


def replay_options(engine: Engine, options: Mapping) -> dict:
    """The options of a game that ``pnp replay -o`` must be given: those the engine declares (its
    ``OPTIONS``) and that differ from their defaults."""
    from rules_engine import engine_module

    try:
        declared = getattr(engine_module(engine.name), "OPTIONS", None)
    except Exception:  # noqa: BLE001 - not an installed engine (a test's): every option given
        declared = None
    if not isinstance(declared, Mapping):
        return {k: v for k, v in options.items() if v is not None}
    return {k: v for k, v in options.items()
            if k in declared and v is not None and v != getattr(declared[k], "default", None)}


def _mover(state) -> int | None:
    """The seat to move in ``state``, if the engine can still say (None otherwise)."""
    try:
        movers = state.to_move() if state is not None else []
        return movers[0] if movers else None
    except Exception:  # noqa: BLE001 - a broken state: no seat to name
        return None


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
        game_seed = engine.game_seed(seed, index)
        state = play_game(engine, rules, [cache[n] for n in names], game_seed, players=players, check=check, **options)
        result = game_result(engine, state, names, game_seed, options)
        out.append((result, experience_of(engine, state, result)) if experience else result)
    return out


def game_result(engine: Engine, state, names: Sequence[str], seed, options: Mapping):
    """``engine.result(state, names)``; what it raises is the engine's fault (GameFault)."""
    try:
        return engine.result(state, names)
    except Exception as exc:  # noqa: BLE001 - the engine's fault, with the game it could not sum up
        raise faults.GameFault("engine", engine.name, f"raised {raised(exc)} making the result of a finished game",
                               seed=seed, players=len(names), bots=names, options=replay_options(engine, options),
                               limits=faults.current()) from None


def recorded_game(engine: Engine, rules, *, seed: int, players: int, bots: Sequence[str], check: bool = False,
                  **options):
    """Game 0 of a run seeded with ``seed``, with events: ``(seat bot names, final state)``."""
    seats = seat_bots(list(bots), players, 0)
    state = play_game(engine, rules, seats, engine.game_seed(seed, 0), players=players, record=True, check=check,
                      **options)
    return seats, state
