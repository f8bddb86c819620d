"""Loading a game folder: YAML and tables read with their lines (:mod:`pnp.loading.yamlsrc`,
:mod:`pnp.loading.tables`), then the schema, decks, tokens, maps, facts, icons, pictures, translations, card
layouts and scenarios, checked as they are read (every problem at its file and line, all at once) into frozen
game facts (:mod:`rules_engine.model`); a path or a name the data gives is kept inside the game folder
(:mod:`pnp.loading.paths`). It may import layout (pure geometry: a card layout's regions, a hex grid), text,
the caches, pnp's leaves and rules_engine; the checks that need the components are :mod:`pnp.validation`'s.
"""
