"""The bot interface: what every bot is, below every bot (the core's, the search bot, each engine's).

A bot has ``act(state, player, rng) -> action``, one of ``state.legal_actions(player)`` (see
:mod:`rules_engine.core.bots`, which makes bots from their names). Nothing here imports a bot.
"""

from __future__ import annotations


class Bot:
    """Base class: ``name`` is the spec it was made from (``search:400``), as reports show it."""

    name = ""

    def act(self, state, player: int, rng):
        raise NotImplementedError
