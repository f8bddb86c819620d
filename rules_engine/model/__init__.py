"""The game model: language-neutral frozen facts that pnp's loaders build from a game folder and every engine
reads: cards, factions, ranks, abilities and the effect kinds and parameters they name
(:mod:`rules_engine.model.cards`), and hex maps with their terrain, holdings and the pieces that move on them
(:mod:`rules_engine.model.board`). It imports nothing: no YAML, no drawing, nothing of pnp.
"""
