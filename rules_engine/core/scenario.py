"""What every engine's scenario files share: reading the ``players`` list, spelling suggestions, and the
error type that carries ``(where, message)`` problems (``pnp.loading.scenario`` gives each its file line).

An engine's ``scenario_from_data`` reads its own keys and replays its own decisions, but the players
come first in every file and are read here, with the same messages for every game.
"""

from __future__ import annotations

import difflib
from typing import Callable


class ScenarioError(ValueError):
    """A scenario that cannot be played; ``problems`` lists ``(where, message)`` pairs."""

    def __init__(self, problems):
        self.problems = list(problems)
        super().__init__("; ".join(f"{p[0]}: {p[1]}" if p[0] else p[1] for p in self.problems))


def suggest(word, known) -> str:
    """`` (did you mean 'x'?)`` for the closest known word, or nothing."""
    close = difflib.get_close_matches(str(word), [str(k) for k in known], n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


def read_players(data: dict, players: tuple | None, make: Callable[[str, dict], object], most: int) -> tuple:
    """``(players, names, problems)`` from a file's ``players`` list (bare names or mappings with
    ``name``): ``make(name, item)`` builds each; a repeated name and a count outside 1..most (the
    game's largest table, ``players[1]``, when given) are problems."""
    plist, names, problems = [], [], []
    for i, item in enumerate(data.get("players") or [], start=1):
        if isinstance(item, str):
            item = {"name": item}
        if not isinstance(item, dict) or item.get("name") is None:
            continue
        name = str(item["name"])
        if name in names:
            problems.append((f"players[{i}].name", f"'{name}' is already a player"))
            continue
        names.append(name)
        plist.append(make(name, item))
    hi = max(players[1], 1) if players else most
    if data.get("players") is not None and not 1 <= len(plist) <= hi:
        problems.append(("players", f"{len(plist)} players; a scenario has 1 to {hi}"))
    return plist, names, problems


class Refused(Exception):
    """A decision of a scenario file that cannot be played now: ``where`` (``turns[2][1]``) and why."""

    def __init__(self, where, message):
        super().__init__(message)
        self.where, self.message = where, message


def replay_turns(state, turns, *, turn: Callable, seat: Callable, play: Callable, possible: Callable):
    """Play a scenario's ``turns`` (a list of turns, each a list of decisions) on ``state``, with the same
    checks and messages for every engine: no decision after the game is over or once its turn has ended,
    and every listed turn finished by its decisions. ``turn(state)`` is the engine's turn counter,
    ``seat(state)`` the name of the player whose turn it is, ``play(state, decision, where, i)`` plays one
    decision (raising :class:`Refused` when it is not legal), ``possible(state)`` words the legal
    decisions for the message of an unfinished turn."""
    for i, decisions in enumerate(turns, start=1):
        if state.is_over:
            raise Refused(f"turns[{i}]", "the game is already over")
        start, who = turn(state), seat(state)
        for j, decision in enumerate(decisions, start=1):
            where = f"turns[{i}][{j}]"
            if state.is_over:
                raise Refused(where, "the game is already over")
            if turn(state) != start:
                raise Refused(where, f"{who}'s turn is already over")
            play(state, decision, where, i)
        if not state.is_over and turn(state) == start:
            raise Refused(f"turns[{i}]", f"{who}'s turn is not over after its decisions; possible next: "
                                         + possible(state))
    return state
