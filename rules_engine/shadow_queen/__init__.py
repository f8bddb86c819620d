"""Shadow Queen (a designer's draft): the Shadows against the Kingdom on a hex map.

Entry points (see ``docs/engine.md``, "Shadow Queen"), the engine protocol of :mod:`rules_engine.protocol`:

* :func:`rules_for` / :class:`Rules` compile the map, pieces, holdings and both decks once;
* :class:`GameState` is one game: ``to_move``, ``legal_actions``, ``apply_action``, chance (draws, dice);
* :func:`play_game` plays a game with bots; :func:`simulate` / :func:`run_games` many;
* :func:`scenario_from_data` and :func:`run_scenario` play a set position with fixed decisions;
* :func:`transcript_lines` turns events into English;
* :func:`validate_game` is the ``pnp validate`` hook.
"""

from rules_engine.model.cards import Param
from rules_engine.shadow_queen.bots import BOTS, GreedyBot
from rules_engine.shadow_queen.effects import EFFECTS, PIECE_TRAITS
from rules_engine.shadow_queen.events import Event
from rules_engine.shadow_queen.facts import FACTS_SCHEMA
from rules_engine.shadow_queen.rules import CAVE_TURNS, DIE_SIDES, TURN_LIMIT, Rules, rules_for
from rules_engine.shadow_queen.scenario import (SCENARIO_SCHEMA, Scenario, ScenarioError, ScenarioOutcome,
                                                ScenarioPlayer, describe, run_scenario, scenario_from_data,
                                                scenario_lines, scenario_result)
from rules_engine.shadow_queen.simulate import (ENGINE, PLAYERS, GameResult, derive_seed, play_game, recorded_game,
                                                report_lines, run_games, seat_bots, simulate, summarize)
from rules_engine.shadow_queen.state import Action, GameState, IllegalAction
from rules_engine.shadow_queen.transcript import ENGLISH, format_event, transcript_lines
from rules_engine.shadow_queen.validate import validate_game
from rules_engine.shadow_queen.view import table_view

#: The numbers the rules play with, for printed material (rulebook, reference sheets) to quote.
FACTS = {"die_sides": DIE_SIDES, "cave_turns": CAVE_TURNS, "build_turns": 2, "turn_limit": TURN_LIMIT,
         "cards_per_holding": 1}
#: Bots used when none are named.
DEFAULT_BOTS = ("greedy",)
#: Game options of play_game / simulate (``pnp simulate -o turn_limit=300``).
OPTIONS = {
    "turn_limit": Param("int", default=TURN_LIMIT, min=1, max=10000,
                        doc="turns (each side's counts one) after which a game stops without a winner",
                        rule="Ruling 23: a game still running after this many turns stops without a winner"),
    "die": Param("int", default=None, min=2, max=20, doc="sides of the die rolled in fights (default: dice.yaml's, else 6)",
                 rule="Ruling 2: the die rolled for attacks, defences and rescues"),
    "draws_per_holding": Param("int", default=1, min=0, max=5, doc="cards drawn per holding at the start of a turn",
                               rule="Turn: a side draws this many cards for every holding it controls"),
    "hand_per_holding": Param("int", default=1, min=0, max=5, doc="cards kept per holding at the end of a turn",
                              rule="End of turn: a side discards down to this many cards for every holding it controls"),
    "cave_limit": Param("int", default=CAVE_TURNS, min=1, max=50, doc="turns a piece may stay in a cave",
                        rule="Ruling 11: a piece still in a cave after this many of its side's turns is eaten"),
    "enthral_to_win": Param("int", default=0, min=0, max=18,
                            doc="Kingdom pieces possessed or gone that win for the Shadows (0: all of them)",
                            rule="Ruling 23, the Shadows' goal: enough Kingdom pieces possessed or gone"),
    "banish_to_win": Param("int", default=0, min=0, max=18,
                           doc="Shadows gone that win for the Kingdom, with no taint left (0: all of them)",
                           rule="Ruling 23, the Kingdom's goal: enough Shadows gone and no holding tainted"),
    "kingdom_goal": Param("str", default="shadows", choices=("shadows", "all"),
                          doc="what the Kingdom must clear: the Shadows, or every piece of the Shadow side",
                          rule="Ruling 23: 'shadows' reads the Goal line; 'all' reads \"all traces ... gone\""),
    "holdings_to_win": Param("int", default=0, min=0, max=8,
                             doc="holdings a side must control as its turn ends to win (0: no such victory)",
                             rule="A victory the draft does not have: control this many holdings at the end of "
                                  "your turn"),
}
#: The card keys the rules read, per deck (checked by ``pnp validate``).
CARD_KEYS = {deck: {"played_by": Param("list", required=True, doc="the kinds of piece that may play the card"),
                    "faction": Param("str", required=True, doc="the side whose deck holds the card")}
             for deck in ("shadows", "kingdom")}

__all__ = [
    "CARD_KEYS", "FACTS_SCHEMA", "ENGINE", "PLAYERS", "FACTS", "EFFECTS", "BOTS", "DEFAULT_BOTS", "OPTIONS", "SCENARIO_SCHEMA",
    "PIECE_TRAITS", "rules_for", "validate_game", "scenario_from_data", "run_scenario", "scenario_lines",
    "transcript_lines", "table_view", "play_game", "recorded_game", "simulate", "report_lines",
    "Action", "CAVE_TURNS", "DIE_SIDES", "ENGLISH", "Event", "GameResult", "GameState", "GreedyBot",
    "IllegalAction", "Rules", "Scenario", "ScenarioError", "ScenarioOutcome", "ScenarioPlayer", "TURN_LIMIT",
    "derive_seed", "describe", "format_event", "run_games", "scenario_result", "seat_bots", "summarize",
]
