"""Pure geometry in millimetres: cards, sheets, tokens, boards and their tiles, dice, box nets, standees,
tracks, hex maps and the rulebook's imposition laid out as pages of plain elements (:mod:`pnp.layout.geometry`),
knowing no file and no PDF. It may import text (to measure and escape words) and pnp's leaves
(:mod:`pnp.units`), nothing else of pnp, and never reportlab.
"""
