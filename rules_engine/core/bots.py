"""Bots and the bot registry shared by every engine.

A bot is an object with ``act(state, player, rng) -> action``: one of ``state.legal_actions(player)``,
chosen from what that seat may know (bots read the state the way a player reads the table; the
search bot only ever looks at determinized copies). ``rng`` is the game's generator, passed by the
play loop, so a game is reproducible from its seed.

Bots are named in ``--bots`` as ``NAME`` or ``NAME:ARG`` (``search:400``: a search bot with a budget of
400 simulations per decision). Every engine gets the core bots (``random``, ``search``) and adds its
own (``greedy``, ``cautious``) in its ``BOTS`` mapping: name -> factory taking the optional argument.
The search bot plays the engine's heuristic bot around its search (the first of the engine's own bots
that is not ``random``, unless ``registry(own, heuristic=...)`` names another) and, when the engine has
a faster form of it for rollouts, ``registry(own, rollout=...)``: the state modules never import their
bots. The base class :class:`Bot`
is :mod:`rules_engine.core.bot`'s (the search bot derives from it too); it is importable from here.
"""

from __future__ import annotations

from typing import Callable, Mapping

from rules_engine.core.bot import Bot
from rules_engine.core.search import SearchBot


class RandomBot(Bot):
    """A random legal move, as the engine defines one (``State.random_action``: uniform over the legal
    actions by default; an engine may weigh them, e.g. prefer affordable cards)."""

    name = "random"

    def act(self, state, player, rng):
        return state.random_action(player, rng)


def split_spec(spec: str) -> tuple[str, str | None]:
    """``"search:400"`` -> ``("search", "400")``; ``"random"`` -> ``("random", None)``."""
    name, sep, arg = spec.strip().partition(":")
    return name.strip(), (arg.strip() if sep else None)


def search_factory(arg=None, rollout=None, heuristic=None):
    """``search`` / ``search:N`` with the engine's ``heuristic`` bot (a factory: a new bot for each search
    bot) and ``rollout`` policy (None: the heuristic; neither: the state's random moves)."""
    return SearchBot.from_spec(arg, rollout=rollout, heuristic=heuristic() if heuristic is not None else None)


def _no_arg(cls, name, arg):
    if arg is not None:
        raise ValueError(f"bot {name!r} takes no argument (got {name}:{arg})")
    return cls()


def bot_names(registry: Mapping[str, Callable]) -> list[str]:
    return list(registry)


def make_bot(registry: Mapping[str, Callable], spec: str):
    """A bot from its spec; ``ValueError`` naming the known bots for an unknown name or a bad argument."""
    name, arg = split_spec(spec)
    factory = registry.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {spec!r}; known bots: {', '.join(registry)} (search takes a budget: "
                         f"search:400)")
    bot = factory(arg) if arg is not None else factory()
    bot.name = spec.strip()
    return bot


def registry(own: Mapping[str, Callable], rollout: Bot | None = None,
             heuristic: str | None = None) -> dict[str, Callable]:
    """An engine's bots: ``random`` (the core's unless the engine gives its own), the engine's own, and
    ``search``. The search bot's candidate moves start from the engine's heuristic bot (``heuristic``
    names one of ``own``; by default the first that is not ``random``) and its rollouts play ``rollout``
    (a bot: a faster form of the heuristic) or else the heuristic; an engine with neither gets rollouts
    of the state's random moves. A class in ``own`` takes no argument."""
    merged = {"random": lambda arg=None: _no_arg(RandomBot, "random", arg)}
    for name, factory in own.items():
        merged[name] = (lambda f, n: (lambda arg=None: _no_arg(f, n, arg)))(factory, name) \
            if isinstance(factory, type) else factory
    if heuristic is None:
        heuristic = next((name for name in own if name not in ("random", "search")), None)
    elif heuristic not in own:
        raise ValueError(f"the search bot's heuristic {heuristic!r} is not one of the engine's bots: {', '.join(own)}")
    made = merged[heuristic] if heuristic is not None else None
    merged.setdefault("search", lambda arg=None: search_factory(arg, rollout, made))
    return merged
