"""Shadow Kingdoms of Valeria: a dice placement game for 1 to 5 players (the solo game against the
Adversary). See ``docs/engine.md``, "Shadow Kingdoms of Valeria".

Its rule facts are data: the cards (``CARD_KEYS``) and the facts files game.yaml lists
(``FACTS_SCHEMA``, checked by :func:`check_facts`); champion effects and award conditions are effect
kinds (``EFFECTS``) checked by ``pnp validate`` and worded by ``templates/abilities/valeria/<lang>.j2``.

* :func:`rules_for` / :class:`Rules` compile the cards and facts once;
* :class:`GameState` is one game (``to_move``, ``legal_actions``, ``apply``, chance events, ``events``);
* :func:`play_game`, :func:`simulate`, :func:`run_games` play with bots (``random``, ``planner``, ``quick``, ``search``);
* :func:`scenario_from_data` / :func:`run_scenario` play a position and fixed decisions;
* :func:`transcript_lines` words events; :func:`validate_game` is the ``pnp validate`` hook.
"""

from rules_engine.model.cards import Param
from rules_engine.valeria.bots import BOTS, PlannerBot, plan_bot_action
from rules_engine.valeria.effects import EFFECTS
from rules_engine.valeria.facts import FACTS_SCHEMA, SHRINES, check_facts
from rules_engine.valeria.rules import TURN_LIMIT, Rules, rules_for
from rules_engine.valeria.scenario import (SCENARIO_SCHEMA, Scenario, ScenarioError, ScenarioOutcome, parse_die,
                                           run_scenario, scenario_from_data, scenario_lines, scenario_result)
from rules_engine.valeria.simulate import (DIFFICULTIES, ENGINE, PLAYERS, GameResult, derive_seed, play_game,
                                           recorded_game, report_lines, run_games, seat_bots, simulate, summarize)
from rules_engine.valeria.state import ENDINGS, Event, GameState, IllegalAction
from rules_engine.valeria.transcript import ENGLISH, action_words, describe_action, transcript_lines
from rules_engine.valeria.validate import validate_game
from rules_engine.valeria.view import table_view

#: The card keys the rules read, per deck (checked by ``pnp validate``).
CARD_KEYS = {
    "battle_plans": {"battle": Param("str", required=True, doc="ambush, siege or clash"),
                     "troops": Param("list", required=True, doc="one troop type per icon")},
    "champions": {"type": Param("str", required=True, doc="instant, ongoing or endgame: its deck")},
    "awards": {"diamond": Param("str", required=True, doc="the award deck: left, middle or right"),
               "vp_1": Param("int", required=True, doc="points of the first circle"),
               "vp_2": Param("int", required=True, doc="points of the second circle"),
               "vp_3": Param("int", required=True, doc="points of the last circle")},
}

#: Fixed facts of the rules for printed material (the numbers are in the game's facts files).
FACTS = {"shrines": SHRINES, "locations": len(SHRINES) + 1, "difficulties": DIFFICULTIES}
#: Bots used when none are named.
DEFAULT_BOTS = ("planner",)
#: Game options of play_game / simulate (``pnp simulate -o adversary_vp=30``).
OPTIONS = {
    "adversary_vp": Param("int", min=0, max=200, doc="solo: the Adversary's starting score (the difficulty; default 10)",
                          rule="Solo setup: the Adversary's score tracker starts here (setup.yaml's solo start when "
                               "not given)"),
    "end_plans": Param("int", min=1, max=20, doc="completed plans that trigger the end (default: setup.yaml's, 7)",
                       rule="Game end: the round in which a player completes this many Battle Plans is the last"),
    "turn_limit": Param("int", default=TURN_LIMIT, min=1, max=100000, doc="turns after which a game stops (a safety net)",
                        rule="Interpretation 22: a game still running after this many turns is scored at once"),
}

__all__ = [
    "CARD_KEYS", "ENGINE", "PLAYERS", "FACTS", "EFFECTS", "BOTS", "DEFAULT_BOTS", "OPTIONS", "SCENARIO_SCHEMA",
    "FACTS_SCHEMA", "check_facts", "rules_for", "validate_game", "scenario_from_data", "run_scenario",
    "scenario_lines", "transcript_lines", "table_view", "play_game", "recorded_game", "simulate", "report_lines",
    "DIFFICULTIES", "ENDINGS", "ENGLISH", "Event", "GameResult", "GameState", "IllegalAction", "PlannerBot",
    "Rules", "Scenario", "ScenarioError", "ScenarioOutcome", "TURN_LIMIT", "action_words", "derive_seed",
    "describe_action", "parse_die", "plan_bot_action", "run_games", "scenario_result", "seat_bots", "summarize",
]
