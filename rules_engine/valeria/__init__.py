"""Shadow Kingdoms of Valeria: a dice placement game for 1 to 5 players (the solo game against the
Adversary). See ``docs/engine.md``, "Shadow Kingdoms of Valeria".

Its rule facts are data: the cards (``CARD_KEYS``) and the facts files game.yaml lists
(``FACTS_SCHEMA``, checked by :func:`check_facts`); champion effects and award conditions are effect
kinds (``EFFECTS``) checked by ``pnp validate`` and worded by ``templates/abilities/valeria/<lang>.j2``.
"""

from rules_engine.model import Param
from rules_engine.valeria.effects import EFFECTS
from rules_engine.valeria.facts import FACTS_SCHEMA, check_facts
from rules_engine.valeria.validate import validate_game

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

__all__ = ["CARD_KEYS", "EFFECTS", "FACTS_SCHEMA", "check_facts", "validate_game"]
