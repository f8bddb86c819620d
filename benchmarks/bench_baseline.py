"""Time a fresh ``pnp build`` against a bare reportlab script that draws the same amount of cards.

Usage: python benchmarks/bench_baseline.py [GAME ...] [--runs N] [--cards 54] [--src OLD_TREE ...]
       python benchmarks/bench_baseline.py --draw OUT.pdf [--cards 54]

The baseline is the least a print-and-play tool can do: one fresh Python process that registers the
two font families pnp uses, draws ``--cards`` poker cards (63 x 88 mm, nine to a Letter page, each a
frame, a title and a wrapped paragraph of rules text) and as many back pages, and writes one PDF.
The issue that asked for this figure (issue 25) measured a fresh ``pnp build`` at 5.4x (Shadow
Throne), 9.8x (Valeria) and 8.1x (Shadow Queen) of it on a quiet machine.

Each round runs, one after the other (so the machine's load falls on all alike), the baseline and a
fresh ``pnp build GAME --no-cache --jobs 1`` for every game; it prints the median wall and CPU time
of each (the process and its children) and the CPU ratio to the baseline's. ``--src`` (repeatable) also
times ``pnp build GAME --jobs 1`` from another source tree (an export of an earlier commit) in the same
rounds, with ``--no-cache`` when that tree has the build cache (``pnp/cache/buildcache.py``; a tree from
before it has no such option). This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def draw(path: str, cards: int) -> None:
    """The bare baseline: ``cards`` faces and their back pages drawn with reportlab alone."""
    from reportlab.lib.pagesizes import letter
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import Paragraph

    fonts = os.path.join(HERE, "fonts")
    pdfmetrics.registerFont(TTFont("Garamond", os.path.join(fonts, "EBGaramond-Regular.ttf")))
    pdfmetrics.registerFont(TTFont("Lato", os.path.join(fonts, "Lato-Regular.ttf")))
    text = ParagraphStyle("text", fontName="Lato", fontSize=8, leading=10)
    width, height = 63 * mm, 88 * mm
    left = (letter[0] - 3 * width) / 2
    bottom = (letter[1] - 3 * height) / 2
    canvas = Canvas(path, pagesize=letter, invariant=1)
    pages = (cards + 8) // 9
    for page in range(pages):
        for slot in range(min(9, cards - page * 9)):
            n = page * 9 + slot
            x, y = left + (slot % 3) * width, bottom + (2 - slot // 3) * height
            canvas.setLineWidth(0.5)
            canvas.roundRect(x + 3 * mm, y + 3 * mm, width - 6 * mm, height - 6 * mm, 3 * mm)
            canvas.setFont("Garamond", 12)
            canvas.drawCentredString(x + width / 2, y + height - 12 * mm, f"Card number {n + 1}")
            body = Paragraph(f"When you play this card, draw {n % 3 + 1} cards, then discard one card "
                             f"of your choice. Each other player loses {n % 2 + 1} influence.", text)
            _, used = body.wrap(width - 12 * mm, height / 2)
            body.drawOn(canvas, x + 6 * mm, y + height / 2 - used)
        canvas.showPage()
    for _ in range(pages):
        canvas.setFont("Garamond", 20)
        for slot in range(9):
            x, y = left + (slot % 3) * width, bottom + (2 - slot // 3) * height
            canvas.roundRect(x + 3 * mm, y + 3 * mm, width - 6 * mm, height - 6 * mm, 3 * mm)
            canvas.drawCentredString(x + width / 2, y + height / 2, "Back")
        canvas.showPage()
    canvas.save()


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(command: list, env: dict) -> tuple[float, float]:
    cpu, wall = _children_cpu(), time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, env=env, cwd=env.get("PYTHONPATH", HERE))
    return time.perf_counter() - wall, _children_cpu() - cpu


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("games", nargs="*", default=["shadow_throne", "shadow_kingdoms_of_valeria", "shadow_queen"])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cards", type=int, default=54)
    parser.add_argument("--draw", metavar="OUT.pdf", default=None)
    parser.add_argument("--src", action="append", default=[], help="also time `pnp build` from this source tree "
                                                                     "(repeatable)")
    args = parser.parse_args()
    if args.draw:
        draw(args.draw, args.cards)
        return 0
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
    envs = {}
    with tempfile.TemporaryDirectory() as out:
        commands = {"baseline": [sys.executable, os.path.abspath(__file__), "--draw",
                                 os.path.join(out, "baseline.pdf"), "--cards", str(args.cards)]}
        for game in args.games:
            commands[game] = [sys.executable, "-m", "pnp", "build", game, "--out", os.path.join(out, game),
                              "--no-cache", "--jobs", "1"]
            envs[game] = dict(env, PYTHONPATH=HERE)
            for src in map(os.path.abspath, args.src):
                name = f"{game} ({os.path.basename(src)})"
                cached = any(os.path.exists(os.path.join(src, "pnp", *where, "buildcache.py")) for where in ((), ("cache",)))
                commands[name] = [sys.executable, "-m", "pnp", "build", game, "--out",
                                  os.path.join(out, name), "--jobs", "1"] + (["--no-cache"] if cached else [])
                envs[name] = dict(env, PYTHONPATH=src)
        for name, command in commands.items():     # compiled-module caches written before the clock runs
            subprocess.run(command, check=True, capture_output=True, env=envs.get(name, env),
                           cwd=envs.get(name, env).get("PYTHONPATH", HERE))
        times = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, command in commands.items():
                times[name].append(_timed(command, envs.get(name, env)))
        base = statistics.median(cpu for _, cpu in times["baseline"])
        print(f"{args.runs} rounds, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
        for name, pairs in times.items():
            wall = statistics.median(w for w, _ in pairs)
            cpu = statistics.median(c for _, c in pairs)
            print(f"{name:40s} wall median {wall:.3f} s; CPU median {cpu:.3f} s, {cpu / base:.1f}x the baseline")
    return 0


if __name__ == "__main__":
    sys.exit(main())
