"""Names of pnp's built-in vector icons (:mod:`pnp.draw.icons` draws them), for checking data without
reportlab. A game gives its own meanings to them (``icons: {power: heater}`` in game.yaml) and adds its
own SVG icons (:mod:`pnp.loading.icons`)."""

ICON_NAMES = frozenset({
    "coin", "seal", "heater", "purse", "skull", "gem", "cycle", "plus", "pip", "step", "crown", "star", "sun",
    "circle", "square", "diamond", "triangle", "hexagon", "heart", "tick_box",
})
