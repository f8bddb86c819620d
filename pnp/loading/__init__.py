"""Loading and checking a game folder: YAML and tables with their lines, the schema, decks, tokens,
maps, facts, icons, translations, card layouts and card text, and everything ``pnp validate``
checks. Nothing here draws: the layout/, draw/ and components/ packages take what it loads."""
