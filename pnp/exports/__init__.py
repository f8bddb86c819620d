"""Exports made with the kit's own drawing code: card images for print services (:mod:`pnp.exports.cards`, their
templates :mod:`pnp.exports.presets`), a print service's CMYK PDF/X-1a files (:mod:`pnp.exports.printshop`),
Tabletop Simulator deck sheets and saved objects (:mod:`pnp.exports.tts`, :mod:`pnp.exports.ttstable`) and
``pnp preview``'s pictures (:mod:`pnp.exports.preview`). It may import the build and everything below it.
"""
