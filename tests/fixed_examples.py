"""The same examples in every run for a derandomized hypothesis test, whatever ran before it.

``settings(derandomize=True)`` seeds a test's random choices from the test itself, but Hypothesis also
draws now and then (one integer or text in twenty) from the *local constants*: the numbers and strings
written in the source of every module of the project loaded so far (not the tests', not installed
packages'). Which modules are loaded depends on what ran before in the process (a test that imported
the studio, the cutter, the lab...), and which files count as the project's on the checkout's path (a
folder named ``tests`` above pnp/ hides them all), so a derandomized test drew other examples from run to
run: the default run's generated games (tests/test_generated_games.py) were not the same games each time.
:func:`no_local_constants` makes Hypothesis see none while such a test runs (tests/conftest.py applies
it to every derandomized test): its examples follow from its seed alone.

It replaces a function of Hypothesis' internals (``providers._get_local_constants``, Hypothesis 6.131 to
at least 6.170); where that is missing the guard test in tests/test_generated_games.py says so.
"""

from __future__ import annotations

import contextlib


@contextlib.contextmanager
def no_local_constants():
    from hypothesis.internal.conjecture import providers

    if not all(hasattr(providers, name) for name in ("_get_local_constants", "Constants", "CONSTANTS_CACHE")):
        yield           # a Hypothesis without local constants: nothing to turn off
        return
    found = providers._get_local_constants
    empty = providers.Constants()
    providers._get_local_constants = lambda: empty
    providers.CONSTANTS_CACHE.cache.clear()         # the constants allowed per kind of draw, made with them
    try:
        yield
    finally:
        providers._get_local_constants = found
        providers.CONSTANTS_CACHE.cache.clear()
