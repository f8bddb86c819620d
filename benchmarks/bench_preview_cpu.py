"""CPU time of the studio's preview work per edit, in one process, without a browser: what a loaded
machine's wall clock hides.

The studio's preview process (``pnp.serve.previews.Previews``) is driven directly on a copy of a game:
after each edit (the first card's name, or a number in the first paragraph of the first own chapter
template, as ``bench_serve.py --browser`` edits them), the data step runs on this thread and the check
step on the preview worker; the CPU time of the whole process (``time.process_time``) is read when the
page would learn of the edited card's new face (the data step's view kept) and when it would learn of
the rulebook page that shows the chapter (the first view kept whose rulebook pages differ from the
previous ones), then when the check is over. Medians and p95 (nearest rank) over ``--edits`` edits after
one that warms up.

Usage: python benchmarks/bench_preview_cpu.py [GAME] [--edits 20] [--kind card,chapter]
A measurement, not a test. It runs with whichever pnp is first on the path (PYTHONPATH=TREE).
"""

from __future__ import annotations

import argparse
import math
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from pnp import DATA_DIR
from pnp.serve.options import Options
from pnp.serve.previews import Previews

try:                            # as the preview process does (pnp.serve.previews.serve), on trees that have it
    from pnp.loading.yamlsrc import keep_parsed
except ImportError:
    keep_parsed = None


def percentile(values: list, p: float) -> float:
    ranked = sorted(values)
    return ranked[max(0, math.ceil(p / 100 * len(ranked)) - 1)]


def rulebook_pages(data: dict) -> list:
    return [page["image"] for c in data["components"] if c["name"] == "rulebook"
            for f in c["files"] for page in f["pages"]]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("game", nargs="?", default="shadow_throne")
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--kind", default="card,chapter")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / args.game
        shutil.copytree(DATA_DIR / args.game, root)
        kept: list = []
        lock = threading.Condition()

        def tell(message):
            if message[0] == "kept":
                with lock:
                    kept.append((time.process_time(), message[3], message[4]))
                    lock.notify_all()

        options = Options()
        if keep_parsed is not None:
            keep_parsed()
        previews = Previews(root, options, tell=tell)

        def wait(predicate):
            with lock:
                while not any(predicate(v, d) for _, v, d in kept):
                    lock.wait(600)

        def edit(version, path, text):
            with lock:
                kept.clear()
            path.write_text(text)
            start = time.process_time()
            previews.files_changed(version, [str(path.relative_to(root))], options, refresh=False)
            previews._refresh(options)
            return start

        previews._refresh(options)
        wait(lambda v, d: d["checked"])
        first = next(d for _, v, d in kept if d["checked"])
        version = 1
        for kind in args.kind.split(","):
            if kind == "card":
                card = first["cards"][0]
                path = next(root.glob(card["source"]["file"]))
                text = path.read_text()
                line_start = sum(len(line) for line in text.splitlines(keepends=True)[:card["source"]["line"] - 1])
                at = text.index(card["name"], line_start)
                texts = [text[:at] + f"{card['name']} {n}" + text[at + len(card["name"]):] for n in range(2, args.edits + 3)]
            else:
                import yaml

                chapters = (yaml.safe_load((root / "rulebook.yaml").read_text()) or {}).get("chapters", [])
                folder = root / "templates" / "rulebook" / "en"
                path = next(folder / f"{c}.md.j2" for c in chapters if (folder / f"{c}.md.j2").is_file())
                text = path.read_text()
                at = re.search(r"^[A-Z].*[a-z]\.$", text, re.M).end() - 1
                texts = [text[:at] + f" {n}" + text[at:] for n in range(2, args.edits + 3)]
            shown, checked = [], []
            before_pages = rulebook_pages(first)
            for n, edited in enumerate(texts):
                version += 1
                start = edit(version, path, edited)
                if kind == "card":
                    wait(lambda v, d: v == version)
                    at_shown = next(t for t, v, d in kept if v == version)
                else:
                    wait(lambda v, d: v == version and rulebook_pages(d) and rulebook_pages(d) != before_pages)
                    at_shown = next(t for t, v, d in kept if v == version and rulebook_pages(d)
                                    and rulebook_pages(d) != before_pages)
                wait(lambda v, d: v == version and d["checked"])
                at_checked, last = next((t, d) for t, v, d in kept if v == version and d["checked"])
                time.sleep(0.3)         # the next edit from a quiet studio, as the browser benchmark's
                before_pages = rulebook_pages(last)
                if n:
                    shown.append(at_shown - start)
                    checked.append(at_checked - start)
            ms = lambda xs: f"p50 {percentile(xs, 50) * 1000:.0f} ms, p95 {percentile(xs, 95) * 1000:.0f} ms"  # noqa: E731
            print(f"{args.game} {kind} edit, CPU of the preview work (n={len(shown)}): until shown {ms(shown)} "
                  f"(mean {statistics.mean(shown) * 1000:.0f}); until checked {ms(checked)}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
