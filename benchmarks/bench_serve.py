"""Time the studio (``pnp serve``) on a copy of a bundled game: the first view, the full check, and an
edit of one card until the page's cards are updated and until everything is checked again,
with how many pictures each edit drew.

With ``--browser`` the same is measured as a user sees it, in Debian's headless chromium (selenium):
from starting the server to the first screen's card pictures loaded (the others load as
the page scrolls), and, for each kind of edit (``--kind card,chapter``), from writing the edited file
to the new picture loaded in the open page (no reload): the first card's picture after its YAML is
saved, and the rulebook page that shows a chapter after the chapter's template is saved (the page
scrolled to it, as a designer looks at it). The time of the load is the page's own (an ``load``
listener, wall clock), so the benchmark's polling adds nothing to it. Each edit starts from a quiet
studio (the previous one checked and shown); the first edit of each kind warms up and is not counted;
p50 and p95 are nearest-rank percentiles. ``--trace`` adds where the time goes: each step of the path
(watcher, preview process, event, the page's requests) as the time from the write it ended at, and
its own time (benchmarks/serve_trace.py).

Usage: python benchmarks/bench_serve.py [GAME] [--field FIELD] [--edits N] [--browser [--kind card,chapter]
       [--chapter NAME] [--debounce S] [--trace]]
(the card edit: the first card's name, or with --field an integer field of it written on its own line;
the chapter edit: a number put before the last full stop of the chapter's first paragraph)
A measurement, not a test: run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import math
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


def edits(game: Path, first: dict, field: str | None, count: int):
    """The first card's file and ``count`` edited texts of it: its ``field`` (an integer) set to other
    values, or without ``field`` its name with a number added."""
    card = first["cards"][0]
    cards_file = next(game.glob(card["source"]["file"]))
    text = cards_file.read_text()
    if field is None:
        line_start = sum(len(line) for line in text.splitlines(keepends=True)[:card["source"]["line"] - 1])
        at = text.index(card["name"], line_start)         # in the card's entry, not a comment above it
        return cards_file, [text[:at] + f"{card['name']} {n}" + text[at + len(card["name"]):]
                            for n in range(2, count + 2)]
    match = re.search(rf"^\s+{field}:\s*(\d+)$", text, re.M)
    if match is None:
        sys.exit(f"{cards_file.name}: no integer field {field!r} on its own line (choose another --field)")
    values = [v for v in range(10) if v != int(match.group(1))][:count]
    return cards_file, [text[:match.start(1)] + str(v) + text[match.end(1):] for v in values]


def summary(times: list) -> str:
    return f"median {statistics.median(times):.2f} s (min {min(times):.2f}, max {max(times):.2f})"


def warm_latency(client, data: dict, count: int) -> str:
    """Median time of ``count`` requests of a drawn card face (``/api/cards/<id>.png``, the 10 first
    cards in turn), of a picture by hash and of the page's data, on one kept-alive connection."""
    import http.client

    conn = http.client.HTTPConnection(client.host, client.port, timeout=60)

    def get(path):
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        assert response.status == 200, (path, response.status)

    drawn = [c for c in data["cards"] if c["image"]][:10]
    asked = {"card face": [f"/api/cards/{c['id']}.png" for c in drawn], "picture": [c["image"] for c in drawn],
             "page data": ["/api/game"]}
    for path in asked["card face"]:
        get(path)
    figures = []
    for what, paths in asked.items():
        times = []
        for i in range(count):
            t = time.perf_counter()
            get(paths[i % len(paths)])
            times.append(time.perf_counter() - t)
        figures.append(f"{what} {statistics.median(times) * 1000:.2f} ms")
    conn.close()
    return f"warm requests (median of {count}): " + ", ".join(figures)


def through_the_api(game: Path, out: Path, args) -> None:
    started = time.perf_counter()
    with running(game, out) as (server, client):
        studio = server.studio

        def pictures() -> int:          # pictures the preview process keeps
            return studio.previews.ask("stats").result()["pictures"]

        first = client.wait_for(lambda d: d["cards"], timeout=300)
        t_first = time.perf_counter() - started
        checked = client.wait_for(lambda d: d["checked"], timeout=300)
        t_checked = time.perf_counter() - started
        print(f"{first['title']}: {len(first['cards'])} cards; first view {t_first:.2f} s, "
              f"checked with every component's pages {t_checked:.2f} s")
        print(warm_latency(client, checked, args.requests))
        cards_file, texts = edits(game, first, args.field, args.edits)
        data_times, check_times, drawn = [], [], []
        events = Events(client)
        for edited in texts:
            before = pictures()
            t = time.perf_counter()
            cards_file.write_text(edited)
            events.next("changed")
            while not events.next("update")["version"] == studio.version:
                pass
            data_times.append(time.perf_counter() - t)
            while not events.next("update", timeout=300)["checked"]:
                pass
            check_times.append(time.perf_counter() - t)
            drawn.append(pictures() - before)
        events.close()
    print(f"edit of one card -> cards updated: {summary(data_times)}; -> checked: {summary(check_times)}; "
          f"pictures drawn per edit: {drawn}")


# In the page: every picture's load, with the wall-clock time it ended (the benchmark's clock is the
# wall clock too: both run on this machine), and room for every request's timing.
RECORD_LOADS = """
window.__loads = window.__loads || [];
if (!window.__recording) {
  window.__recording = true;
  document.addEventListener("load", (e) => {
    if (e.target.tagName === "IMG") window.__loads.push([e.target.getAttribute("src"), performance.timeOrigin + performance.now()]);
  }, true);
  performance.setResourceTimingBufferSize(100000);
}
"""
# The picture at ``index`` of those matching a selector: [src, loaded] (null when there is none).
PICTURE = """
const imgs = document.querySelectorAll(arguments[0]);
const i = imgs[arguments[1]];
return i ? [i.getAttribute("src"), i.complete && i.naturalWidth > 0] : null;
"""
# When a picture (src) finished loading (wall clock, seconds), and the requests since the last call.
LOADED_AT = """
const hit = window.__loads.filter((l) => l[0] === arguments[0]);
const requests = performance.getEntriesByType("resource").map((r) => [r.name, (performance.timeOrigin + r.startTime) / 1000,
  (performance.timeOrigin + r.responseEnd) / 1000]);
performance.clearResourceTimings();
return [hit.length ? hit[0][1] / 1000 : null, requests];
"""


def percentile(values: list, p: float) -> float:
    """The nearest-rank percentile ``p`` (0-100) of ``values``: the value at rank ceil(p/100 * n)."""
    ranked = sorted(values)
    return ranked[max(0, math.ceil(p / 100 * len(ranked)) - 1)]


def spread(times: list) -> str:
    ms = [t * 1000 for t in times]
    return (f"p50 {percentile(ms, 50):.0f} ms, p95 {percentile(ms, 95):.0f} ms (n={len(ms)}, min {min(ms):.0f}, "
            f"max {max(ms):.0f}, mean {statistics.mean(ms):.0f})")


def chapter_edits(game: Path, chapter: str | None, count: int):
    """A rulebook chapter's file (the game's own template, in English) and ``count`` edited texts of it:
    a number put before the full stop of its first paragraph's last sentence (so the text of one page
    changes)."""
    import yaml

    chapters = (yaml.safe_load((game / "rulebook.yaml").read_text()) or {}).get("chapters", [])
    folder = game / "templates" / "rulebook" / "en"
    names = [chapter] if chapter else [c for c in chapters if (folder / f"{c}.md.j2").is_file()]
    if not names or not (folder / f"{names[0]}.md.j2").is_file():
        sys.exit(f"{game.name}: no chapter template {folder / f'{chapter}.md.j2'} (choose another --chapter)")
    path = folder / f"{names[0]}.md.j2"
    text = path.read_text()
    match = re.search(r"^[A-Z].*[a-z]\.$", text, re.M)
    if match is None:
        sys.exit(f"{path.name}: no plain sentence ending a line to edit (choose another --chapter)")
    at = match.end() - 1
    return path, [text[:at] + f" {n}" + text[at:] for n in range(2, count + 2)]


def in_the_browser(game: Path, out: Path, args) -> None:
    from functools import partial

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait

    import serve_trace

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"))
    wait = WebDriverWait(driver, 300, poll_frequency=0.02)
    # pictures load lazily: the first screen is what a user waits for
    all_loaded = ("const imgs = [...document.querySelectorAll('#decks .tile img')]"
                  ".filter(i => i.getBoundingClientRect().top < window.innerHeight);"
                  "return imgs.length > 0 && imgs.every(i => i.complete && i.naturalWidth > 0)")
    log = str(out.parent / "trace.jsonl") if args.trace else None
    studio_options = {}
    if log:
        serve_trace.trace_studio(log)
        studio_options["preview_setup"] = partial(serve_trace.trace_previews, log)
    results = {}
    try:
        started = time.perf_counter()
        with running(game, out, debounce=args.debounce, **studio_options) as (server, client):
            driver.get(server.url)
            wait.until(lambda d: d.execute_script(all_loaded))
            t_first = time.perf_counter() - started
            first = client.json()
            print(f"{first['title']} in chromium: the first screen of cards loaded {t_first:.2f} s after the "
                  f"server started ({len(first['cards'])} cards); the watcher's debounce {args.debounce:g} s")
            client.wait_for(lambda d: d["checked"], timeout=300)
            driver.execute_script(RECORD_LOADS)

            def quiet(since: int = 0):
                """The studio has seen an edit after version ``since``, checked it, and the page shows that view."""
                deadline = time.monotonic() + 60
                while server.studio.version <= since and time.monotonic() < deadline:
                    time.sleep(0.02)
                version = server.studio.version
                client.wait_for(lambda d: d["checked"] and d["version"] == version, timeout=600)
                wait.until(lambda d: d.execute_script(
                    "return document.body.dataset.version === arguments[0] && document.body.dataset.checked === '1'",
                    str(version)))

            for kind in args.kind.split(","):
                if kind == "card":
                    path, texts = edits(game, first, args.field, args.edits + 1)
                    selector, index = f'.tile[data-id="{first["cards"][0]["id"]}"] img', 0
                    what = f"card {first['cards'][0]['id']!r} ({path.name})"
                    driver.execute_script("window.scrollTo(0, 0)")
                else:
                    path, texts = chapter_edits(game, args.chapter, args.edits + 2)
                    selector = '.component[data-component="rulebook"] .pages img'
                    before = [s for s, _ in driver.execute_script(
                        "return [...document.querySelectorAll(arguments[0])].map(i => [i.getAttribute('src'), 0])",
                        selector)]
                    if not before:
                        sys.exit(f"{game.name}: the page shows no rulebook pages")
                    version = server.studio.version
                    path.write_text(texts.pop(0))          # the first edit finds the page that shows the chapter
                    quiet(version)
                    after = driver.execute_script(
                        "return [...document.querySelectorAll(arguments[0])].map(i => i.getAttribute('src'))", selector)
                    index = next((i for i, (a, b) in enumerate(zip(before, after)) if a != b), None)
                    if index is None:
                        sys.exit(f"{path.name}: the edit changed no rulebook page")
                    what = f"rulebook chapter {path.stem.removesuffix('.md')!r}, page {index + 1}"
                    driver.execute_script("document.querySelectorAll(arguments[0])[arguments[1]]"
                                          ".scrollIntoView({block: 'center'})", selector, index)
                    wait.until(lambda d: d.execute_script(PICTURE, selector, index)[1])
                times, traces, skipped = [], [], 0
                for n, edited in enumerate(texts):
                    old = driver.execute_script(PICTURE, selector, index)[0]
                    driver.execute_script(LOADED_AT, "")            # forget earlier requests
                    version = server.studio.version
                    t0 = time.time()
                    path.write_text(edited)
                    deadline = time.monotonic() + 600
                    while time.monotonic() < deadline:
                        src, loaded = driver.execute_script(PICTURE, selector, index) or (None, False)
                        if src != old and loaded:
                            break
                        if src == old and server.studio.version > version and time.monotonic() > deadline - 590:
                            data = client.json()
                            if data["checked"] and data["version"] == server.studio.version and driver.execute_script(
                                    "return document.body.dataset.version === arguments[0] && "
                                    "document.body.dataset.checked === '1'", str(data["version"])):
                                src = None        # checked and shown, and the picture did not change: not counted
                                break
                        time.sleep(0.03)
                    if src is None:
                        skipped += 1
                        quiet(version)
                        continue
                    loaded_at, requests = driver.execute_script(LOADED_AT, src)
                    if loaded_at is None:
                        loaded_at = time.time()
                    if n > 0:                      # the first edit warms the studio up
                        times.append(loaded_at - t0)
                        traces.append((t0, loaded_at, src, requests))
                    quiet(version)
                results[kind] = times
                print(f"{what}: saved -> the new picture loaded in the open page: {spread(times)}"
                      + (f"; {skipped} edits left the picture unchanged" if skipped else ""))
                if log:
                    breakdown(serve_trace.read(log), traces)
    finally:
        driver.quit()
    return results


def breakdown(records: list, traces: list) -> None:
    """Median (and p95) time from the write to each step of the path, and each step's own time."""
    marks: dict = {}
    costs: dict = {}
    for t0, t_end, src, requests in traces:
        seen_marks, seen_costs = {}, {}
        for r in records:
            if t0 <= r["t"] <= t_end + 0.001:
                what = r["what"]
                seen_marks.setdefault(what, r["t"] + r["d"] - t0)             # the first end after the write
                seen_costs[what] = seen_costs.get(what, 0.0) + r["d"]
        for name, start, end in requests:
            if start < t0:
                continue
            label = ("fetch /api/game" if "/api/game" in name else
                     "fetch the new picture" if name.endswith(src) else None)
            if label:
                seen_marks[label] = end - t0
                seen_costs[label] = end - start
        seen_marks["picture loaded"] = t_end - t0
        for k, v in seen_marks.items():
            marks.setdefault(k, []).append(v)
        for k, v in seen_costs.items():
            costs.setdefault(k, []).append(v)
    print("    step (ended, from the write: p50 / p95 ms; its own time: p50 ms; edits it was seen in)")
    for name in sorted(marks, key=lambda k: percentile(marks[k], 50)):
        print(f"    {name:42s} {percentile(marks[name], 50) * 1000:7.0f} / {percentile(marks[name], 95) * 1000:7.0f}"
              f"   {percentile(costs.get(name, [0]), 50) * 1000:7.1f}   {len(marks[name])}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("game", nargs="?", default="shadow_throne")
    parser.add_argument("--requests", type=int, default=200, help="warm requests timed of each kind")
    parser.add_argument("--field", help="an integer field of the first card to change (default: its name)")
    parser.add_argument("--edits", type=int, default=5)
    parser.add_argument("--browser", action="store_true", help="measure in headless chromium (selenium)")
    parser.add_argument("--kind", default="card,chapter",
                        help="with --browser: what is edited, card and/or chapter (comma-separated)")
    parser.add_argument("--chapter", help="with --browser: the rulebook chapter edited (default: the first of "
                                          "the game's own chapter templates)")
    parser.add_argument("--debounce", type=float, default=0.2,
                        help="the watcher's debounce, seconds (pnp serve's own by default)")
    parser.add_argument("--trace", action="store_true",
                        help="with --browser: time each step of the path from the write to the picture")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        game = Path(tmp) / Path(args.game).name
        shutil.copytree(DATA_DIR / args.game if (DATA_DIR / args.game).is_dir() else Path(args.game), game)
        (in_the_browser if args.browser else through_the_api)(game, Path(tmp) / "out", args)


if __name__ == "__main__":
    main()
