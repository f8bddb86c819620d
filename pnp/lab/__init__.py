"""The balance lab (``pnp lab``): sweeps of rule variants on common random numbers (:mod:`pnp.lab.sweep`),
paired comparisons and verdicts (:mod:`pnp.lab.analysis`) and their report pages (:mod:`pnp.lab.report`); a game's
table (seats, bots, player counts, options) as every command that plays the engine sets it (:mod:`pnp.lab.table`)."""
