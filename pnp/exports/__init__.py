"""Images made from the kit's own drawing code: card PNGs for print services, Tabletop Simulator deck
sheets, and previews. Rasterizing is done in-process by pypdfium2 (see :mod:`pnp.exports.raster`)."""
