"""Everything ``pnp validate`` checks beyond what loading the data checks: each component's checks, the rules
engine's, fonts and the game's words (:mod:`pnp.validation.checks`), text, icons and figures inside every cut
line (:mod:`pnp.validation.piececheck`), colours for colour-blind players and greyscale prints
(:mod:`pnp.validation.colourvision`), a key for every icon a board or map prints (:mod:`pnp.validation.iconkeys`)
and every translation the game ships (:mod:`pnp.validation.translations`).
It asks the components and the rulebook, so it sits above them and may import them and everything below; the
build, the exports and the commands call it.
"""
