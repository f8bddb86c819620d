"""Time ``pnp build`` for the bundled game: in-process (layout + render + write) and as a command.

Usage: python benchmarks/bench_build.py [GAME] [--runs N]
Prints the median and spread; this is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time

from pnp.components import BuildOptions
from pnp.kit import build_kit


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("game", nargs="?", default="shadow_throne")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as out:
        build_kit(args.game, out, BuildOptions())  # warm caches (fonts, templates) as a long run would
        inproc = []
        for _ in range(args.runs):
            t = time.perf_counter()
            build_kit(args.game, out, BuildOptions())
            inproc.append(time.perf_counter() - t)
        cli = []
        for _ in range(args.runs):
            t = time.perf_counter()
            subprocess.run(["pnp", "build", args.game, "--out", out], check=True, capture_output=True)
            cli.append(time.perf_counter() - t)
    for name, times in (("build_kit, warm process", inproc), ("pnp build (fresh process)", cli)):
        print(f"{name:28s} median {statistics.median(times):.3f} s  "
              f"min {min(times):.3f}  max {max(times):.3f}  ({args.runs} runs)")


if __name__ == "__main__":
    sys.exit(main())
