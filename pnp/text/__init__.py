"""Text: pnp's markup (the rulebook's blocks, inline icons, escaping: :mod:`pnp.text.markup`), templates
rendered in the sandbox (:mod:`pnp.text.templating`), typography by each language's rules (quotes, spacing,
hyphenation: :mod:`pnp.text.typography`, from CLDR through :mod:`pnp.text.locales`), articles before the data's
names by their language and grammar (:mod:`pnp.text.grammar`), the built-in icons'
names (:mod:`pnp.text.icon_names`) and the credits a kit prints (:mod:`pnp.text.credits`). Strings in,
strings out: it may import the caches and pnp's leaves, nothing that loads a game or draws.
"""
