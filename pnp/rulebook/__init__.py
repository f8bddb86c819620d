"""The rulebook and the sheets set like it: rulebook.yaml and the chapters' templates rendered to markup
(:mod:`pnp.rulebook.chapters`), the figures that show the game's own pieces as their components draw them
(:mod:`pnp.rulebook.figures`), the rulebook component with its played examples (:mod:`pnp.rulebook.component`:
rulebook.pdf and the imposed booklet) and the sheet component (:mod:`pnp.rulebook.sheets`: player aids and
reference sheets from the game's templates). It sits above the components its figures draw and may import
them, draw (the typesetting: :mod:`pnp.draw.document`), loading, layout, text, the caches and pnp's leaves.
"""
