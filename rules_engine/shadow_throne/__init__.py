"""Shadow Throne: three factions fight battles in four waves; players draft and play their characters."""

from rules_engine.shadow_throne.effects import EFFECTS

__all__ = ["EFFECTS"]
