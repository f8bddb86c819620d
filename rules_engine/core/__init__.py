"""The engine core: what every game's engine shares (``docs/engine.md``, "The engine core").

* :mod:`~rules_engine.core.state`: the state API (:class:`State`): seats to move (simultaneous moves
  allowed), legal actions, apply, explicit chance, clone, returns, information states and
  determinization; :class:`IllegalAction`; the shuffle every engine uses.
* :mod:`~rules_engine.core.contract`: the engine contract, typed (what an engine exports, its events,
  results, bots, problems) and the defaults pnp supplies for what an engine leaves out.
* :mod:`~rules_engine.core.play`: :class:`Engine` (an engine's entry points) and the play loop, which
  checks every bot's action.
* :mod:`~rules_engine.core.faults`: the faults of a game (an illegal action, a bot or an engine that
  raises) and its limits (decisions per game, seconds per decision).
* :mod:`~rules_engine.core.bot`: the bot interface (:class:`Bot`).
* :mod:`~rules_engine.core.bots`: the random bot and the registry of bots by name (``search:400``).
* :mod:`~rules_engine.core.search`: the search bot (determinized Monte Carlo search around the heuristic).
* :mod:`~rules_engine.core.seeds`: each game's seed and each seat's bot in a run.
* :mod:`~rules_engine.core.runs`: seeded runs of many games, quantiles, invariant runs.
* :mod:`~rules_engine.core.executors`: local processes or a Dask cluster.
* :mod:`~rules_engine.core.stats`: confidence intervals.
* :mod:`~rules_engine.core.balance`: the balance report (``pnp balance``).
* :mod:`~rules_engine.core.transcript`: events to sentences with a phrase table.
* :mod:`~rules_engine.core.scenario`: replaying a scenario's scripted decisions with line-exact errors.
"""

from rules_engine.core.bot import Bot
from rules_engine.core.bots import RandomBot, registry
from rules_engine.core.contract import GameEvent, Problem
from rules_engine.core.play import Engine, play_game, recorded_game
from rules_engine.core.state import IllegalAction, State, shuffle, weighted_kinds

__all__ = ["Bot", "Engine", "GameEvent", "IllegalAction", "Problem", "RandomBot", "State", "play_game",
           "recorded_game", "registry", "shuffle", "weighted_kinds"]
