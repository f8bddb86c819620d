"""Pure geometry in millimetres: each component's ``layout`` returns pages of plain elements.

Nothing here imports reportlab; :mod:`pnp.draw` paints the elements. Origin is the bottom-left corner
of the page, y grows upwards (the PDF convention), so tests compare numbers directly with the PDF.
"""
