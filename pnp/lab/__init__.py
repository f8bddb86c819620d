"""The balance lab (``pnp lab``): sweeps of rule variants on common random numbers (:mod:`pnp.lab.sweep`),
paired comparisons and verdicts (:mod:`pnp.lab.analysis`) and their report pages (:mod:`pnp.lab.report`)."""
