"""Behind the Throne: reveal cards one by one, stop before a higher card busts the row, collect sets.

Entry points (see ``docs/engine.md``), the engine protocol of :mod:`rules_engine.protocol`:

* :func:`rules_for` / :class:`Rules` compile the cards (and the smaller decks of small tables) once;
* :class:`GameState` is one game: ``to_move``, ``legal_actions``, ``apply``, ``action_to_string``, ``events``;
* :func:`play_game` plays a game with bots; :func:`simulate` / :func:`run_games` many;
* :func:`scenario_from_data` and :func:`run_scenario` play a fixed deck order and fixed decisions;
* :func:`transcript_lines` turns events into English (or another phrase table);
* :func:`validate_game` is the ``pnp validate`` hook.
"""

from rules_engine.behind_the_throne.bots import BOTS, CautiousBot, RandomBot, make_bot
from rules_engine.behind_the_throne.effects import CATEGORIES, EFFECTS
from rules_engine.behind_the_throne.events import Event
from rules_engine.behind_the_throne.rules import (MAX_STACKS, ROW_LIMIT, SCORING_SIZE, STACK_LIMIT, TURN_LIMIT, Rules,
                                                  rules_for)
from rules_engine.behind_the_throne.scenario import (SCENARIO_SCHEMA, Decision, Scenario, ScenarioError,
                                                     ScenarioOutcome, ScenarioPlayer, describe, run_scenario,
                                                     scenario_from_data, scenario_lines, scenario_result)
from rules_engine.behind_the_throne.simulate import (ENGINE, PLAYERS, GameResult, derive_seed, play_game, recorded_game,
                                                     report_lines, run_games, seat_bots, simulate, summarize)
from rules_engine.behind_the_throne.state import Action, GameState, IllegalAction
from rules_engine.behind_the_throne.transcript import ENGLISH, Namer, format_event, transcript_lines
from rules_engine.behind_the_throne.validate import validate_game
from rules_engine.behind_the_throne.view import table_view
from rules_engine.model.cards import Param

#: The numbers the rules play with, for printed material (rulebook, quick reference) to quote.
FACTS = {"row_limit": ROW_LIMIT, "max_stacks": MAX_STACKS, "stack_limit": STACK_LIMIT,
         "scoring_size": SCORING_SIZE}
#: Bots used when none are named.
DEFAULT_BOTS = ("random",)
#: Game options of play_game / simulate (``pnp simulate -o max_stacks=4``): the tunable parameters.
OPTIONS = {
    "max_stacks": Param("int", default=MAX_STACKS, min=1, max=9, doc="stacks a player may keep",
                        rule="Collecting: a player holding more stacks than this discards whole stacks down to it"),
    "turn_limit": Param("int", default=TURN_LIMIT, min=1, max=100000,
                        doc="turns after which a game stops (a safety net)",
                        rule="Interpretation 13: a game still running after this many turns is scored at once"),
}

#: The card keys the rules read, per deck (checked by ``pnp validate``).
CARD_KEYS = {"cards": {"value": Param("int", doc="a character's value; the End of Game card has none")}}

__all__ = [
    "CARD_KEYS", "ENGINE", "PLAYERS", "FACTS", "EFFECTS", "BOTS", "DEFAULT_BOTS", "OPTIONS", "SCENARIO_SCHEMA",
    "rules_for", "validate_game",
    "scenario_from_data", "run_scenario", "scenario_lines", "transcript_lines", "play_game", "recorded_game",
    "table_view",
    "simulate", "report_lines",
    "Action", "CATEGORIES", "CautiousBot", "Decision", "ENGLISH", "Event", "GameResult", "GameState",
    "IllegalAction", "Namer", "RandomBot", "Rules", "Scenario", "ScenarioError", "ScenarioOutcome",
    "ScenarioPlayer", "TURN_LIMIT", "derive_seed", "describe", "format_event", "make_bot", "run_games",
    "scenario_result", "seat_bots", "summarize",
]
