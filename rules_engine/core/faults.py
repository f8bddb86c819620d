"""Faults and limits of games played by bots: whoever broke a game is named, and no game runs forever.

The play loop (:mod:`rules_engine.core.play`) checks every bot's action against the legal actions before
it applies it, and turns what goes wrong into one :class:`GameFault`: a bot that chose an illegal action
(``illegal``), a bot that raised (``bot``), the engine that raised (``engine``), a game that did not end
within the decisions allowed (``decisions``) or a decision that took longer than the seconds allowed
(``seconds``). The fault names the engine, the seat and its bot, the game's seed and the command that
replays the game (``pnp replay ...``): pnp prints it as one line and exits with status 2.

:class:`Limits` are per game: the decisions a game may take (the user's ``--max-decisions``, else the
engine's declared ``Engine.max_decisions``, else :data:`MAX_DECISIONS`) and the seconds one decision may
take (``--decision-seconds``, default :data:`DECISION_SECONDS`). The seconds are watched by a timer that
ticks on the main thread of the process playing the game (:class:`Watch`, SIGALRM): a bot or an engine
that loops in pure Python is interrupted there. A game played on another thread (a Dask worker's task, a
studio request) is bounded by its decisions and by the executor's own time limits.

Nothing here imports the rest of the core: the play loop, the runs and the executors import it.
"""

from __future__ import annotations

import os
import signal
import threading
import time
import traceback
from dataclasses import dataclass, replace
from typing import Mapping, Sequence

#: Decisions a game may take when neither the user nor the engine says otherwise.
MAX_DECISIONS = 1_000_000
#: Seconds one decision (a bot's choice and the engine applying it) may take by default.
DECISION_SECONDS = 60.0
#: The kinds of fault, as :attr:`GameFault.kind` names them.
KINDS = ("illegal", "bot", "engine", "decisions", "seconds")


@dataclass(frozen=True)
class Limits:
    """The limits of one game: ``decisions`` (None: the engine's declared bound, else :data:`MAX_DECISIONS`)
    and ``seconds`` per decision (0: not watched)."""

    decisions: int | None = None
    seconds: float = DECISION_SECONDS

    def decisions_for(self, engine, rules, players: int, options: Mapping) -> int:
        """The decisions a game of ``engine`` may take: the user's limit, else the engine's bound
        (``Engine.max_decisions``: a number, or ``(rules, players, options) -> number``), else the default."""
        if self.decisions is not None:
            return self.decisions
        bound = getattr(engine, "max_decisions", None)
        if callable(bound):
            bound = bound(rules, players, dict(options))
        return int(bound) if bound else MAX_DECISIONS

    def arguments(self) -> list[str]:
        """The command-line options that give these limits (none for the defaults)."""
        out = []
        if self.decisions is not None:
            out.append(f"--max-decisions {self.decisions}")
        if self.seconds != DECISION_SECONDS:
            out.append(f"--decision-seconds {self.seconds:g}")
        return out


_limits = Limits()


def current() -> Limits:
    """The limits games are played with in this process (:func:`configure`, :func:`using`)."""
    return _limits


def configure(decisions: int | None = None, seconds: float | None = None) -> Limits:
    """Set this process's limits (worker processes forked later inherit them; a run also hands them to
    its workers with the job). Returns the new limits."""
    global _limits
    _limits = Limits(decisions, DECISION_SECONDS if seconds is None else float(seconds))
    return _limits


class using:
    """``with using(limits):`` the games played inside obey ``limits`` (a worker's batch)."""

    def __init__(self, limits: Limits | None):
        self.limits = limits

    def __enter__(self):
        global _limits
        self.before = _limits
        if self.limits is not None:
            _limits = self.limits
        return _limits

    def __exit__(self, *exc):
        global _limits
        _limits = self.before
        return False


#: The game folder ``pnp replay`` is told to play in a fault's message (pnp sets it when it loads the
#: game it plays); None: the message says ``GAME``.
REPLAY_GAME: str | None = None


class GameFault(Exception):
    """A game stopped by a fault (see the module docstring). ``seat`` counts from 0 (messages say seat
    ``seat + 1``), ``bots`` are the seats' bot names, ``detail`` says what happened, ``blame`` whose doing it
    was (``bot``: the bot of ``seat``; ``engine``)."""

    def __init__(self, kind: str, engine: str, detail: str, *, seat: int | None = None, bot: str | None = None,
                 seed=None, players: int | None = None, bots: Sequence[str] = (), options: Mapping | None = None,
                 limits: Limits | None = None, variant: str | None = None, blame: str | None = None):
        self.kind, self.engine, self.detail = kind, engine, detail
        self.blame = blame or ("bot" if kind in ("illegal", "bot") else "engine")
        self.seat, self.bot, self.seed, self.players = seat, bot, seed, players
        self.bots, self.options = tuple(bots), dict(options or {})
        self.limits, self.variant = limits, variant
        super().__init__(self.message())

    def __reduce__(self):            # pickled with its fields (a worker process sends it back)
        return _rebuild, (self.kind, self.engine, self.detail, self.__dict__.copy())

    def __str__(self) -> str:
        return self.message()

    def culprit(self) -> str:
        """Who is at fault, in words: the bot of a seat, or the rules engine."""
        if self.blame == "bot":
            seat = f" at seat {self.seat + 1}" if self.seat is not None else ""
            return f"the bot '{self.bot}'{seat} (rules engine '{self.engine}')"
        seat = ""
        if self.seat is not None:
            seat = f" (seat {self.seat + 1}" + (f", bot '{self.bot}')" if self.bot else ")")
        return f"the rules engine '{self.engine}'{seat}"

    def replay(self, game: str | None = None) -> str:
        """The command that plays the game again."""
        game = game or REPLAY_GAME or "GAME"
        parts = ["pnp replay", _shell_word(game), f"--seed {self.seed}"]
        if self.players is not None:
            parts.append(f"--players {self.players}")
        if self.bots:
            parts.append(f"--bots {','.join(self.bots)}")
        if self.variant:
            parts.append(f"--variant {_shell_word(self.variant)}")
        parts += [f"-o {k}={v}" for k, v in sorted(self.options.items())]
        if self.limits is not None:
            parts += self.limits.arguments()
        return " ".join(parts)

    def message(self, game: str | None = None) -> str:
        return f"{self.culprit()} {self.detail}; game seed {self.seed}; replay it: {self.replay(game)}"


def _rebuild(kind, engine, detail, fields):
    fault = GameFault.__new__(GameFault)
    fault.__dict__.update(fields)
    Exception.__init__(fault, fault.message())
    return fault


def _shell_word(text: str) -> str:
    import shlex

    return shlex.quote(str(text))


def where_raised(exc: BaseException) -> str:
    """``file:line`` of the innermost frame of ``exc``'s traceback (the file's name only), or ''."""
    frames = traceback.extract_tb(exc.__traceback__) if exc.__traceback__ is not None else []
    if not frames:
        return ""
    last = frames[-1]
    return f"{os.path.basename(last.filename)}:{last.lineno}"


def raised(exc: BaseException) -> str:
    """An exception in a few words: ``KeyError: 5 (at state.py:40)``."""
    text = " ".join(str(exc).split())
    what = f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__
    at = where_raised(exc)
    return f"{what} (at {at})" if at else what


def blamed_bot(frames, bots: Sequence) -> int | None:
    """The seat whose bot was running in ``frames`` (frame objects, innermost last), or None: the
    innermost frame that is a method of one of ``bots`` or of a game state says whose doing it was."""
    ids = {id(b): s for s, b in enumerate(bots)}
    for frame in reversed(list(frames)):
        owner = frame.f_locals.get("self") if frame.f_code.co_argcount else None
        if owner is None:
            continue
        if id(owner) in ids:
            return ids[id(owner)]
        if hasattr(owner, "legal_actions") and hasattr(owner, "to_move"):
            return None             # inside a state's method: the engine's doing
    return None


def traceback_frames(exc: BaseException) -> list:
    frames, tb = [], exc.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    return frames


def stack_frames(frame) -> list:
    """The frames from the outermost to ``frame``."""
    frames = []
    while frame is not None:
        frames.append(frame)
        frame = frame.f_back
    return frames[::-1]


class EngineFault(Exception):
    """An outside engine's hook raised what it is not documented to raise (a KeyError in ``rules_for``,
    say): one line naming the engine, the hook and the error."""

    def __init__(self, engine: str, hook: str, error):
        self.engine, self.hook = engine, hook
        self.error = error if isinstance(error, str) else raised(error)
        super().__init__(f"the rules engine '{engine}' raised {self.error} in {hook}")

    def __reduce__(self):
        return type(self), (self.engine, self.hook, self.error)


class LimitReached(BaseException):
    """Raised inside a game by the watch when a limit is passed; the play loop turns it into a
    :class:`GameFault`. A BaseException, so that a bot's or an engine's ``except Exception`` does not
    swallow it."""

    def __init__(self, kind: str, frames=()):
        super().__init__(kind)
        self.kind, self.frames = kind, list(frames)


class Watch:
    """Watches one game on the main thread: a timer ticks every fraction of ``seconds`` and raises
    :class:`LimitReached` (``seconds``) when the state's count of decisions has not moved for longer than
    ``seconds``, or (``decisions``) when it passed ``decisions``. Elsewhere, or when the process's
    real-time timer is in use already, it does nothing. ``marker`` is the play loop's note of what runs
    now: ``[phase, seat]``."""

    def __init__(self, state_box: list, seconds: float, decisions: int):
        self.box, self.seconds, self.decisions = state_box, seconds, decisions
        self.armed = (bool(seconds) and hasattr(signal, "setitimer")
                      and threading.current_thread() is threading.main_thread()
                      and signal.getitimer(signal.ITIMER_REAL)[0] == 0)
        self.last, self.since = None, 0.0

    def _count(self) -> int:
        state = self.box[0] if self.box else None
        decisions = getattr(state, "decisions", None)
        return sum(decisions) if decisions else -1

    def _tick(self, signum, frame):
        now = time.monotonic()
        count = self._count()
        if count > self.decisions:
            raise LimitReached("decisions", stack_frames(frame))
        if count != self.last:
            self.last, self.since = count, now
        elif now - self.since > self.seconds:
            raise LimitReached("seconds", stack_frames(frame))

    def __enter__(self):
        if self.armed:
            self.previous = signal.signal(signal.SIGALRM, self._tick)
            self.since = time.monotonic()
            tick = min(1.0, max(0.01, self.seconds / 5))
            signal.setitimer(signal.ITIMER_REAL, tick, tick)
        return self

    def __exit__(self, *exc):
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)
        return False


def with_limits(fault: GameFault, limits: Limits) -> GameFault:
    """``fault`` naming the limits its game was played with (so that its replay command gives them)."""
    fault.limits = replace(limits)
    return fault
