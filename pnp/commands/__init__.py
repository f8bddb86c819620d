"""The command line: the ``pnp`` group and its wiring (:mod:`pnp.commands.cli`, run by :mod:`pnp.program`) and one
module per command (build, validate, export, preview, simulate, balance, lab, replay, scenario, new, watch,
serve), each turning its options into calls of the packages below. A command may import any package of pnp;
nothing imports a command.
"""
