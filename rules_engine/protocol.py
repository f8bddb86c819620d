"""The engine protocol: what every game's engine package exports, so ``pnp`` can drive any game.

``pnp`` never names a game. It loads ``rules_engine.<game.yaml's engine>`` and uses only the names
listed in :data:`REQUIRED` (and :data:`OPTIONAL` when present); ``docs/engine.md`` describes each one.
:class:`Spec` describes the keys of a scenario file in plain data, so an engine can declare its file
format without importing the YAML checker that enforces it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: Names every engine module exports: the rules (docs/engine.md, "The engine contract";
#: :data:`rules_engine.core.contract.HOOKS` says each name's arguments, return and when it is called).
REQUIRED = {
    "ENGINE": "rules_engine.core.play.Engine: how a game starts (new_state), who plays it (players), and "
              "optionally its result, bots, fast loop, bound on decisions and lab metrics",
    "rules_for": "(game) -> rules: compiled static facts; rules.max_players() is the largest table",
}

#: Names an engine may export; pnp supplies a default for those it leaves out (the contract's
#: ``DEFAULTS``) or does without (table_view, token_demand, ...).
OPTIONAL = {
    "PLAYERS": "(fewest, most): the player counts the engine's rules are written for (default ENGINE.players)",
    "FACTS": "dict of the numbers the rules play with, for printed material",
    "EFFECTS": "dict effect kind -> rules_engine.model.cards.EffectKind (checked by pnp validate)",
    "CARD_KEYS": "dict deck id -> dict card key -> rules_engine.model.cards.Param: the card fields the rules read, "
                 "with their ranges (pnp validate checks the data declares them and every value is in range)",
    "BOTS": "mapping bot name -> bot factory taking the optional NAME:ARG argument (rules_engine.core.bots.registry)",
    "DEFAULT_BOTS": "tuple of bot names used when none are given",
    "OPTIONS": "dict option name -> rules_engine.model.cards.Param: game options of play_game/simulate",
    "SCENARIO_SCHEMA": "dict key -> Spec: the keys of a scenario file (besides 'game')",
    "validate_game": "(game) -> [Problem | (subject, message, warning)]",
    "scenario_from_data": "(rules, data, players=(lo, hi)) -> (scenario | None, [(where, message[, at])])",
    "run_scenario": "(rules, scenario) -> outcome with .scenario, .state, .events, .result",
    "scenario_lines": "(outcome, cards, factions=None) -> [str]",
    "transcript_lines": "(events, cards, factions, names) -> [str]",
    "play_game": "(rules, bots, seed, *, players=None, record=False, check=False, **options) -> state",
    "recorded_game": "(rules, *, seed, players, bots, check=False, **options) -> (seat bots, state)",
    "simulate": "(rules, *, games, seed, players, bots, jobs=1, check=False, progress=None, **options) -> dict",
    "report_lines": "(report, *, title, cards=(), factions=()) -> [str]",
    "table_view": "(state) -> dict: the table after a step, for the studio's replays",
    "token_demand": "(cards, *, games, seed, players, ..., factions=None) -> dict of peak tokens in use",
    "FACTS_SCHEMA": "dict top-level key -> Spec: the rule facts the engine reads from the files game.yaml's "
                    "'facts' lists (pnp checks their shape)",
    "check_facts": "(facts, cards) -> [(where, message)]: what only the engine can check in the facts "
                   "(ids that must match, tables that must be complete)",
    "PIECE_TRAITS": "dict trait -> description: the words a board game's pieces may list in 'traits' (pnp "
                    "validate reports any other)",
    "STEPS": "tuple of the steps an ability may resolve at (default (1, 2, 3))",
}


def missing_names(module) -> list[str]:
    """Protocol names ``module`` does not export (empty for a complete engine)."""
    return [name for name in REQUIRED if not hasattr(module, name)]


@dataclass(frozen=True)
class Spec:
    """One value of a scenario file, in the terms of ``pnp.loading.schema.Field`` (which ``pnp`` builds from it).

    ``type`` is ``int``, ``str``, ``bool``, ``list`` (of ``items``), ``map`` (keys in ``schema``),
    ``dict`` (any keys, values ``items``) or ``any``. A ``map`` with ``shorthand`` also accepts a bare
    scalar, read as ``{shorthand: value}`` (a player given by name only); ``doc`` then names both forms
    in the error for a value of neither form.
    """

    type: str
    required: bool = False
    default: Any = None
    nullable: bool = False
    choices: tuple | None = None
    min: int | None = None
    max: int | None = None
    items: "Spec | None" = None
    schema: dict | None = None
    shorthand: str | None = None
    doc: str = ""
