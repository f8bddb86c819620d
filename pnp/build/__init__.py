"""Building a kit (:mod:`pnp.build.kit`): validate, build every component (side by side in worker processes:
:mod:`pnp.build.workers`), take what the build cache holds, put small pieces of several components on shared
sheets (:mod:`pnp.build.sharing`), merge kit.pdf, add manifest.json and pieces.json
(and reprint.pdf), and write the whole set at once (:mod:`pnp.build.output`). It may import validation,
reprint, the rulebook, the components and everything below them.
"""
