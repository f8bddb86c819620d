from pnp.program import run

run()
