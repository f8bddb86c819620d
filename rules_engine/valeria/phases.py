"""Valeria's decision phases (what the seat to move is deciding) and the fixed actions, as numbers and
names: below the state (:mod:`rules_engine.valeria.state`), its invariants, its transcript and its bots,
which all name them."""

NONE, SIDE, MOVE, DIE, ROOM, MAGIC_P, CHAMP, TACT, BONUS, PLAN, DICE, BOOST, CIRCLE, AREA, FREE, TAKE, SENTRY, \
    OVER, COLOUR = range(19)
PHASE_NAMES = ("none", "side", "move", "die", "room", "magic", "champion", "tactics", "bonus", "plan", "dice",
               "boost", "circle", "area", "free_champion", "take_die", "sentry", "over", "colour")
PASS = ("pass",)
DONE = ("done",)
GAIN_MAGIC = ("gain_magic",)
