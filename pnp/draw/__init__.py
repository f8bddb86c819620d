"""Drawing: the only package that imports reportlab. It paints layout elements (mm) on PDF pages
(:mod:`pnp.draw.paint`, :mod:`pnp.draw.pdf`), sets flowing text with platypus (the rulebook, sheets and the
instructions page: :mod:`pnp.draw.document`, :mod:`pnp.draw.flowables`), draws icons, pictures and labels,
merges PDFs and makes PDF/X-1a files in CMYK (pikepdf), rasterizes PDFs (:mod:`pnp.draw.raster`) and writes
cut files (:mod:`pnp.draw.cutfile`). It may import loading (icons and pictures are checked before they are
drawn), layout, text, the caches and pnp's leaves.
"""

from reportlab import rl_config

# streams compressed only, not also spelt in ASCII85 (a quarter bigger, and time to encode): PDFs are
# binary files anyway (https://docs.reportlab.com/reportlab/userguide/ch2_graphics/, rl_settings)
rl_config.useA85 = 0
