"""Time rebuilds with the build cache against a fresh build, for a bundled game copied to a temporary folder.

Usage: python benchmarks/bench_cache.py [GAME] [--runs N] [--jobs N] [--edit FILE OLD NEW]
       python benchmarks/bench_cache.py --big CARDS [--runs N]

Each round times, one after the other (so the machine's load falls on all alike):

* a fresh ``pnp build`` (``--no-cache``), the reference;
* ``pnp build`` with the cache after nothing changed (as a fresh process: the kit-level fast path of
  :mod:`pnp.cache.uptodate`, which finds the kit up to date and writes nothing);
* ``pnp build`` with the cache after one card edit (``--edit``: the first occurrence of OLD in FILE
  replaced by NEW, whose ``{i}`` is the round's number: a value the cache has not seen);

as fresh processes (what ``pnp build`` costs, start-up included) and in one warm process (what
``pnp watch`` and ``pnp serve`` pay: the caches that depend on files cleared, as watch clears them). Prints
the median wall and CPU time (this process's and its children's: the forked workers) of each and its
ratio to the fresh build's. This is a measurement, not a test.

``--big CARDS``: a deck of CARDS cards (tests/games/starfall with its omens deck grown to that many, the
kit its card sheets only), built fresh (``--no-cache``) with ``--jobs 1`` and ``--jobs 2`` in turn, and a
rebuild with the cache after one card edit.
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

def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


#: One card edit per game: the first occurrence of the text replaced, each round with a new number (a
#: value the cache has never seen).
EDITS = {
    "shadow_throne": ("cards.yaml", "name: Dutiful Peasant", "name: Peasant {i}"),
    "shadow_kingdoms_of_valeria": ("champions.yaml", "name: Elite Guard", "name: Guard {i}"),
    "shadow_queen": ("shadow_cards.yaml", "name: Possess,", "name: Possess {i},"),
    "behind_the_throne": ("cards.yaml", "name: General", "name: General {i}"),
}


def big_deck(folder: str, count: int) -> str:
    """tests/games/starfall with only its card sheets in the kit and ``count`` omen cards (mini size)."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    game = os.path.join(folder, "big")
    shutil.copytree(os.path.join(here, "tests", "games", "starfall"), game)
    path = os.path.join(game, "game.yaml")
    text = open(path, encoding="utf-8").read()
    start = text.index("\ncomponents:")
    end = text.index("\n\n", start + 1) if "\n\n" in text[start + 1:] else len(text)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text[:start] + "\ncomponents: [cards]" + text[end:])
    rows = ["id,name,copies,turns,flavour,effect"]
    rows += [f"omen-{i},Omen {i},1,{1 + i % 6},Sign number {i}.,\"**Dark:** each player gains {i % 5} [wish].\""
             for i in range(count)]
    with open(os.path.join(game, "omens.csv"), "w", encoding="utf-8") as f:
        f.write("\n".join(rows) + "\n")
    return game


def big(count: int, runs: int) -> None:
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {**os.environ, "PYTHONPATH": here}
    times = {k: [] for k in ("jobs 1", "jobs 2", "edit, jobs 2")}
    cpus = {k: [] for k in times}
    with tempfile.TemporaryDirectory() as tmp:
        game = big_deck(tmp, count)
        csv = os.path.join(game, "omens.csv")
        text = open(csv, encoding="utf-8").read()

        def timed(key, *extra):
            t, c = time.perf_counter(), _children_cpu()
            subprocess.run([sys.executable, "-m", "pnp", "build", game, *extra], check=True, capture_output=True,
                           env=env, cwd=here)
            times[key].append(time.perf_counter() - t)
            cpus[key].append(_children_cpu() - c)

        cached = os.path.join(tmp, "cached")
        timed("edit, jobs 2", "--out", cached, "--jobs", "2")          # fill the cache
        times["edit, jobs 2"].clear()
        cpus["edit, jobs 2"].clear()
        for i in range(runs):
            timed("jobs 1", "--out", os.path.join(tmp, "one"), "--jobs", "1", "--no-cache")
            timed("jobs 2", "--out", os.path.join(tmp, "two"), "--jobs", "2", "--no-cache")
            with open(csv, "w", encoding="utf-8") as f:
                f.write(text.replace("Omen 2500,", f"Omen {i}x,", 1))
            timed("edit, jobs 2", "--out", cached, "--jobs", "2")
        sizes = {name: os.path.getsize(os.path.join(tmp, "two", name)) for name in ("cards-fronts.pdf", "cards-backs.pdf")}
    load = os.getloadavg()
    print(f"{count} cards, {runs} rounds, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; sizes {sizes}")
    for key in times:
        print(f"{key:14s} wall median {statistics.median(times[key]):.2f} s (min {min(times[key]):.2f}); "
              f"CPU median {statistics.median(cpus[key]):.2f} s")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("game", nargs="?", default="shadow_throne")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--edit", nargs=3, default=None, metavar=("FILE", "OLD", "NEW"))
    parser.add_argument("--big", type=int, default=None, metavar="CARDS")
    args = parser.parse_args()
    if args.big:
        return big(args.big, args.runs)
    from pnp import DATA_DIR
    from pnp.cache import memo
    from pnp.cache.buildcache import FOLDER, BuildCache
    from pnp.components import BuildOptions
    from pnp.build.kit import build_kit
    from pnp.build.workers import default_jobs

    jobs = args.jobs or default_jobs()
    file, old, new = args.edit or EDITS[args.game]
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {**os.environ, "PYTHONPATH": here}
    keys = ("fresh", "nothing", "edit", "warm fresh", "warm nothing", "warm edit")
    times = {k: [] for k in keys}
    cpus = {k: [] for k in keys}
    with tempfile.TemporaryDirectory() as tmp:
        game = os.path.join(tmp, args.game)
        shutil.copytree(DATA_DIR / args.game, game)
        path = os.path.join(game, file)
        text = open(path, encoding="utf-8").read()
        assert old in text, f"{old!r} is not in {file}"
        out, warm = os.path.join(tmp, "out"), os.path.join(tmp, "warm")

        def command(*extra):
            return [sys.executable, "-m", "pnp", "build", game, "--jobs", str(jobs), *extra]

        def timed(key, args_):
            t, c = time.perf_counter(), _children_cpu()
            subprocess.run(args_, check=True, capture_output=True, env=env, cwd=here)
            times[key].append(time.perf_counter() - t)
            cpus[key].append(_children_cpu() - c)

        def warm_build(key, cached: bool):
            memo.clear()
            t, c = time.perf_counter(), time.process_time() + _children_cpu()
            build_kit(game, warm, BuildOptions(), jobs=jobs,
                      cache=BuildCache(os.path.join(warm, FOLDER)) if cached else None)
            times[key].append(time.perf_counter() - t)
            cpus[key].append(time.process_time() + _children_cpu() - c)

        subprocess.run(command("--out", out), check=True, capture_output=True, env=env, cwd=here)   # fill
        warm_build("warm fresh", True)
        times["warm fresh"].clear()
        cpus["warm fresh"].clear()
        for i in range(args.runs):
            with open(path, "w", encoding="utf-8") as f:
                f.write(text.replace(old, new.format(i=i + 1), 1))
            timed("edit", command("--out", out))
            warm_build("warm edit", True)
            timed("nothing", command("--out", out))
            warm_build("warm nothing", True)
            timed("fresh", command("--out", os.path.join(tmp, "fresh"), "--no-cache"))
            warm_build("warm fresh", False)
    load = os.getloadavg()
    print(f"{args.game}, --jobs {jobs}, {args.runs} rounds, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    for prefix in ("", "warm "):
        base = statistics.median(times[prefix + "fresh"])
        cpu_base = statistics.median(cpus[prefix + "fresh"])
        for key in ("fresh", "nothing", "edit"):
            t, c = times[prefix + key], cpus[prefix + key]
            print(f"{prefix + key:14s} wall median {statistics.median(t):.3f} s (min {min(t):.3f}), ratio "
                  f"{statistics.median(t) / base:.2f}; CPU median {statistics.median(c):.3f} s, ratio "
                  f"{statistics.median(c) / cpu_base:.2f}")


if __name__ == "__main__":
    sys.exit(main())
