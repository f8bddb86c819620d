"""The rulebook's share of a build and of a one-card-edit rebuild, in CPU time.

Usage: python benchmarks/bench_rulebook.py [GAME] [--runs N]

* ``booklet``: the CPU time of the booklet (``pnp.rulebook.component.booklet``, Letter) in this fresh
  process (first call: imports, fonts and caches warming) and the median of the calls after it, with the
  caches that depend on files cleared before each (what ``pnp watch`` pays);
* ``edit``: in one warm process (``--jobs 1``, so every component's work is in this process), a rebuild
  with the build cache after one card edit (the name changed to a value the cache has not seen; the edits of
  ``bench_cache.py``) and a fresh build without the cache, in turn: the rulebook component's CPU time
  (check and build) in each, and its share of the fresh build.

Run it for the trees to compare in turn (``PYTHONPATH=<tree> python benchmarks/bench_rulebook.py``) so the
machine's load falls on both alike. This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time

from bench_cache import EDITS


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("game", nargs="?", default="shadow_throne")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    os.environ.setdefault("SOURCE_DATE_EPOCH", "1700000000")
    from pnp import DATA_DIR
    from pnp.cache import memo
    from pnp.cache.buildcache import FOLDER, BuildCache, FileDigests
    from pnp.components import BuildOptions
    from pnp.rulebook import component as rulebook
    from pnp.draw.icons import using
    from pnp.build.kit import build_kit
    from pnp.loading.gamedata import load_game

    game = load_game(args.game)
    calls = []
    for _ in range(args.runs + 1):
        memo.clear()
        with using(game.icons, game.language):
            t = time.process_time()
            rulebook.booklet(game, "letter", game.language)
            calls.append(time.process_time() - t)

    spent = [0.0]

    def timed(func):
        def run(*a, **k):
            t = time.process_time()
            try:
                return func(*a, **k)
            finally:
                spent[0] += time.process_time() - t
        return run

    component = rulebook.COMPONENT
    object.__setattr__(component, "check", timed(component.check))
    object.__setattr__(component, "build", timed(component.build))
    file, old, new = EDITS[args.game]
    rounds = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = os.path.join(tmp, args.game)
        shutil.copytree(DATA_DIR / args.game, folder)
        path = os.path.join(folder, file)
        text = open(path, encoding="utf-8").read()
        warm = os.path.join(tmp, "warm")
        files = FileDigests()           # kept from one build to the next, as pnp watch keeps them
        build_kit(folder, warm, BuildOptions(), jobs=1, cache=BuildCache(os.path.join(warm, FOLDER), files))
        for i in range(args.runs):
            with open(path, "w", encoding="utf-8") as f:
                f.write(text.replace(old, new.format(i=i + 1), 1))
            row = []
            for cached in (True, False):
                memo.clear()
                spent[0] = 0.0
                t = time.process_time()
                build_kit(folder, warm if cached else os.path.join(tmp, "fresh"), BuildOptions(), jobs=1,
                          cache=BuildCache(os.path.join(warm, FOLDER), files) if cached else None)
                row += [time.process_time() - t, spent[0]]
            rounds.append(row)
    load = os.getloadavg()
    med = [statistics.median(r[k] for r in rounds) for k in range(4)]
    print(f"{args.game}, {args.runs} rounds, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    print(f"booklet (Letter): first call {calls[0]:.3f} s CPU, then median {statistics.median(calls[1:]):.3f} s")
    print(f"one card edit, warm, --jobs 1: rebuild {med[0]:.3f} s (rulebook {med[1]:.3f} s); fresh build "
          f"{med[2]:.3f} s (rulebook {med[3]:.3f} s); rebuild / fresh {med[0] / med[2]:.2f}, rulebook in the "
          f"rebuild / fresh build {med[1] / med[2]:.2f}")


if __name__ == "__main__":
    sys.exit(main())
