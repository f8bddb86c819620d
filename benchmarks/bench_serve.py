"""Time the studio (``pnp serve``) on a copy of a bundled game: the first view, the full check, and an
edit of one card's value until the page's cards are updated and until everything is checked again,
with how many pictures each edit drew.

Usage: python benchmarks/bench_serve.py [GAME] [--field power] [--edits N]
A measurement, not a test: run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from pnp import DATA_DIR  # noqa: E402
from serve_helpers import Events, running  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("game", nargs="?", default="shadow_throne")
    parser.add_argument("--field", default="power", help="an int field of the first card to change")
    parser.add_argument("--edits", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        game = Path(tmp) / args.game
        shutil.copytree(DATA_DIR / args.game, game)
        started = time.perf_counter()
        with running(game, Path(tmp) / "out") as (server, client):
            studio = server.studio
            first = client.wait_for(lambda d: d["cards"], timeout=300)
            t_first = time.perf_counter() - started
            client.wait_for(lambda d: d["checked"], timeout=300)
            t_checked = time.perf_counter() - started
            print(f"{first['title']}: {len(first['cards'])} cards; first view {t_first:.2f} s, "
                  f"checked with every component's pages {t_checked:.2f} s")
            cards_file = next(game.glob(first["cards"][0]["source"]["file"]))
            text = cards_file.read_text()
            match = re.search(rf"^\s+{args.field}:\s*(\d+)$", text, re.M)
            values = [v for v in range(10) if v != int(match.group(1))][:args.edits]
            data_times, check_times, drawn = [], [], []
            events = Events(client)
            for value in values:
                before = len(studio.images)
                edited = text[:match.start(1)] + str(value) + text[match.end(1):]
                t = time.perf_counter()
                cards_file.write_text(edited)
                events.next("changed")
                while not events.next("update")["version"] == studio.version:
                    pass
                data_times.append(time.perf_counter() - t)
                while not (u := events.next("update", timeout=300))["checked"]:
                    pass
                check_times.append(time.perf_counter() - t)
                drawn.append(len(studio.images) - before)
            events.close()
    print(f"edit of one value -> cards updated: median {statistics.median(data_times):.2f} s "
          f"(min {min(data_times):.2f}, max {max(data_times):.2f}); -> checked: median "
          f"{statistics.median(check_times):.2f} s; pictures drawn per edit: {drawn}")


if __name__ == "__main__":
    main()
