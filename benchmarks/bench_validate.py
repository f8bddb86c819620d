"""Time ``pnp validate`` as fresh processes: without a cache, with nothing changed, and after one card edit.

Usage: python benchmarks/bench_validate.py [GAME ...] [--big CARDS] [--runs N] [--src TREE ...]

For each game (a bundled game copied to a temporary folder; ``--big CARDS``: tests/games/starfall with a
CARDS-card deck, as bench_cache.py makes it) and each source tree (``--src``: a checkout of pnp, e.g. main
before a change; default: this one), each round runs, one after the other (so the machine's load falls on
all alike):

* ``pnp validate --no-cache`` (the reference);
* ``pnp validate`` with a cache after nothing changed (a tree whose validate has no ``--cache`` runs as
  the reference does, and says so);
* ``pnp validate`` with that cache after one card edit (the first occurrence of the edit's text replaced by
  a name the cache has not seen).

The trees take turns within each round. Prints the median CPU time (user + system of the child) and wall
time of each, and the largest resident set of any run. Python's bytecode cache is on (as for a user), and
one run of each tree warms it first. This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(HERE, "benchmarks"))

from bench_cache import EDITS, big_deck  # noqa: E402

#: The big deck's card edit (its CSV).
BIG_EDIT = ("omens.csv", "omen-7,Omen 7,", "omen-7,Omen {i},")


def _children() -> tuple[float, int]:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def run(tree: str, game: str, *extra) -> tuple[float, float, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = tree
    before, _ = _children()
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pnp", "validate", game, *extra], capture_output=True, text=True,
                          env=env, cwd=tree)
    wall = time.perf_counter() - start
    cpu = _children()[0] - before
    if done.returncode not in (0, 2) or "Usage:" in done.stderr:
        raise SystemExit(f"{tree}: pnp validate failed:\n{done.stderr[-2000:]}")
    return cpu, wall, done.stdout + done.stderr


def has_cache(tree: str) -> bool:
    return "--no-cache" in subprocess.run([sys.executable, "-m", "pnp", "validate", "--help"], capture_output=True,
                                          text=True, env={**os.environ, "PYTHONPATH": tree}, cwd=tree).stdout


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("games", nargs="*", default=["shadow_throne"])
    parser.add_argument("--big", type=int, default=0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--src", action="append", default=None)
    args = parser.parse_args()
    trees = [os.path.abspath(t) for t in (args.src or [HERE])]
    cached = {t: has_cache(t) for t in trees}
    with tempfile.TemporaryDirectory() as tmp:
        games = []
        for name in args.games:
            games.append((name, shutil.copytree(os.path.join(HERE, "data", name), os.path.join(tmp, name)), EDITS[name]))
        if args.big:
            games.append((f"{args.big} cards", big_deck(tmp, args.big), BIG_EDIT))
        for label, folder, (file, old, new) in games:
            path = os.path.join(folder, file)
            original = open(path, encoding="utf-8").read()
            times = {(t, k): [] for t in trees for k in ("no cache", "nothing changed", "one card edit")}
            outputs = {}
            plain = {t: ["--no-cache"] if cached[t] else [] for t in trees}
            for t in trees:                                    # bytecode written, the cache filled
                run(t, folder, *plain[t])
                if cached[t]:
                    run(t, folder, "--cache", os.path.join(tmp, "cache-" + str(trees.index(t))))
            rss = 0
            for i in range(args.runs):
                for t in trees:
                    cache = ["--cache", os.path.join(tmp, "cache-" + str(trees.index(t)))] if cached[t] else []
                    with open(path, "w", encoding="utf-8") as f:
                        f.write(original)
                    for key, extra in (("no cache", plain[t]), ("nothing changed", cache)):
                        cpu, wall, out = run(t, folder, *extra)
                        times[(t, key)].append((cpu, wall))
                        outputs.setdefault((t, "same"), out)
                    with open(path, "w", encoding="utf-8") as f:
                        f.write(original.replace(old, new.format(i=f"{i}x{trees.index(t)}"), 1))
                    cpu, wall, out = run(t, folder, *cache)
                    times[(t, "one card edit")].append((cpu, wall))
                    rss = max(rss, _children()[1])
            with open(path, "w", encoding="utf-8") as f:
                f.write(original)
            print(f"{label} (load average {os.getloadavg()[0]:.1f}; medians of {args.runs}; CPU s (wall s))")
            for t in trees:
                note = "" if cached[t] else " [no --cache: runs as without one]"
                print(f"  {t}{note}")
                for key in ("no cache", "nothing changed", "one card edit"):
                    cpus, walls = zip(*times[(t, key)])
                    print(f"    {key:16s} {statistics.median(cpus):7.2f} ({statistics.median(walls):.2f})")
            print(f"  largest resident set of a run: {rss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
