"""Shadow Throne: three factions fight battles in four waves; players draft and play their characters.

Entry points (see ``docs/engine.md``):

* :class:`Rules` compiles :class:`~rules_engine.model.cards.Card` objects once;
* :class:`GameState` is one game: ``to_move``, ``legal_actions``, ``apply``, ``events``;
* :func:`play_game` plays a game with bots; :func:`simulate` / :func:`run_games` many;
  :func:`token_demand` the peak tokens in use;
* :func:`run_scenario` plays a fixed battle (:class:`Scenario`);
* :func:`transcript_lines` turns events into English (or another phrase table);
* :func:`validate_game` is the ``pnp validate`` hook.

It also exports the engine protocol of :mod:`rules_engine.protocol` (``rules_for``, ``OPTIONS``,
``SCENARIO_SCHEMA``, ``scenario_from_data``, ``scenario_lines``, ``recorded_game``, ``report_lines``, ...),
which ``pnp`` uses without naming the game.
"""

from rules_engine.shadow_throne.bots import BOTS, GreedyBot, RandomBot, make_bot
from rules_engine.shadow_throne.effects import EFFECTS, HANDLERS, Effect
from rules_engine.shadow_throne.protocol import (CARD_KEYS, DEFAULT_BOTS, OPTIONS, SCENARIO_SCHEMA, recorded_game, report_lines,
                                                 rules_for, scenario_from_data, scenario_lines)
from rules_engine.shadow_throne.events import Event
from rules_engine.shadow_throne.rules import GOAL, POOL_SIZE, START_GOLD, STEPS, WAVES, Rules
from rules_engine.shadow_throne.scenario import (Play, Scenario, ScenarioError, ScenarioOutcome, ScenarioPlayer,
                                                 check_scenario, run_scenario, scenario_result,
                                                 scenario_transcript)
from rules_engine.shadow_throne.simulate import (ENGINE, PLAYERS, GameResult, derive_seed, play_game, run_games,
                                                 seat_bots, simulate, summarize, token_demand)
from rules_engine.shadow_throne.state import Character, GameState, IllegalAction
from rules_engine.shadow_throne.transcript import ENGLISH, Namer, format_event, transcript_lines
from rules_engine.shadow_throne.validate import validate_game
from rules_engine.shadow_throne.view import table_view

#: The numbers the rules play with, for printed material (rulebook, quick reference) to quote.
FACTS = {"goal": GOAL, "waves": WAVES, "pool": POOL_SIZE, "start_gold": START_GOLD, "steps": STEPS,
         "variant_goals": (20, 25)}

__all__ = [
    "CARD_KEYS", "ENGINE", "PLAYERS", "FACTS", "DEFAULT_BOTS", "OPTIONS", "SCENARIO_SCHEMA", "recorded_game",
    "report_lines", "rules_for",
    "scenario_from_data", "scenario_lines",
    "BOTS", "Character", "EFFECTS", "ENGLISH", "Effect", "Event", "GOAL", "GameResult", "GameState",
    "GreedyBot", "HANDLERS", "IllegalAction", "Namer", "Play", "RandomBot", "Rules", "STEPS", "Scenario",
    "ScenarioError", "ScenarioOutcome", "ScenarioPlayer", "WAVES", "check_scenario", "derive_seed",
    "format_event", "make_bot", "play_game", "run_games", "run_scenario", "scenario_result",
    "scenario_transcript", "seat_bots", "simulate", "summarize", "token_demand", "transcript_lines", "validate_game",
    "table_view",
]
