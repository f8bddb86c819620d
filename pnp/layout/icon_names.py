"""Names of the vector icons :mod:`pnp.draw.icons` can draw, for checking data without reportlab."""

ICON_NAMES = frozenset({
    "gold", "coin", "cost", "income", "influence", "power", "consolation", "purse", "skull", "kill", "dead",
    "convert", "plus_one", "pip", "step", "crown", "star", "sun", "gem", "value",
})
