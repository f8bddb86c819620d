"""Experience metrics: what a game felt like, beyond who won (``pnp balance``, ``pnp lab``).

Every engine reports them through the core the same way:

* the play loops (the core's :func:`~rules_engine.core.play.play` and an engine's ``fast_play``) count
  each seat's **decisions** in ``state.decisions``;
* the engine appends its **progress measure** per seat (``State.progress()``: Shadow Throne's influence,
  a score, pieces taken) to ``state.trace`` at the end of every unit of length (a battle, a turn, a
  round) through ``State.mark_progress()``; a clone keeps no trace, so searches do not write into it;
* ``Engine.timeouts`` names the endings that are safety stops (a turn limit), not the rules' own end.

:func:`experience` turns a finished game into an :class:`Experience`: its length and ending, whether it
was stopped, how often the lead changed hands, whether the winner trailed at the half (a comeback),
the decisions per seat and the stalls (units in which nobody's progress moved).
"""

from __future__ import annotations

from typing import NamedTuple, Sequence


class Experience(NamedTuple):
    """One game's experience metrics (see the module docstring)."""

    length: int
    ending: str
    timeout: bool
    lead_changes: int
    comeback: bool
    decisions: tuple
    stalls: int
    trace_units: int


def leader(values: Sequence[float]) -> int | None:
    """The seat strictly ahead of every other, or None (a tie at the top, or no seats)."""
    if not values:
        return None
    best = max(values)
    top = [s for s, v in enumerate(values) if v == best]
    return top[0] if len(top) == 1 else None


def lead_changes(trace: Sequence[Sequence[float]]) -> int:
    """How often the lead passed from one seat to another (a tie in between does not count as a change
    by itself: A leads, A and B tie, B leads is one change)."""
    changes, last = 0, None
    for values in trace:
        now = leader(values)
        if now is None:
            continue
        if last is not None and now != last:
            changes += 1
        last = now
    return changes


def comeback(trace: Sequence[Sequence[float]], winners: Sequence[int]) -> bool:
    """The single winner was behind someone at the half of the game (by the progress measure)."""
    if len(winners) != 1 or len(trace) < 2:
        return False
    half = trace[(len(trace) - 1) // 2]
    winner = winners[0]
    return any(v > half[winner] for s, v in enumerate(half) if s != winner)


def stalls(trace: Sequence[Sequence[float]]) -> int:
    """Units (after the first) in which no seat's progress changed."""
    return sum(1 for before, after in zip(trace, trace[1:]) if tuple(before) == tuple(after))


def experience(engine, state, result) -> Experience:
    """The experience metrics of a finished game (``state`` as the play loop left it, ``result`` what
    ``engine.result`` made of it)."""
    trace = getattr(state, "trace", None) or []
    n = len(result.bots)
    decisions = getattr(state, "decisions", None) or [0] * n
    winners = tuple(result.winners)
    return Experience(length=result.length, ending=result.reason or "", timeout=result.reason in engine.timeouts,
                      lead_changes=lead_changes(trace), comeback=comeback(trace, winners),
                      decisions=tuple(decisions), stalls=stalls(trace), trace_units=len(trace))
