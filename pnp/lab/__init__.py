"""Playing the rules engine from pnp and reporting what it played: a game's table (seats, bots, player counts,
options: :mod:`pnp.lab.table`), the balance report's HTML page (:mod:`pnp.lab.balance`), and the balance lab:
sweeps of rule variants on common random numbers (:mod:`pnp.lab.sweep`), paired comparisons and verdicts
(:mod:`pnp.lab.analysis`) and their report pages (:mod:`pnp.lab.report`). It may import loading, the caches,
pnp's leaves and rules_engine, nothing that draws a kit.
"""
