"""Time the studio (``pnp serve``) on a copy of a bundled game: the first view, the full check, and an
edit of one card until the page's cards are updated and until everything is checked again,
with how many pictures each edit drew.

With ``--browser`` the same is measured as a user sees it, in Debian's headless chromium (selenium):
from starting the server to the first screen's card pictures loaded (the others load as
the page scrolls), and from writing the edited file
to the card's new picture loaded in the open page (no reload).

Usage: python benchmarks/bench_serve.py [GAME] [--field FIELD] [--edits N] [--browser]
(the edit: the first card's name, or with --field an integer field of it written on its own line)
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


def in_the_browser(game: Path, out: Path, args) -> None:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

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
    try:
        started = time.perf_counter()
        with running(game, out) as (server, client):
            driver.get(server.url)
            wait.until(lambda d: d.execute_script(all_loaded))
            t_first = time.perf_counter() - started
            first = client.json()
            print(f"{first['title']} in chromium: the first screen of cards loaded {t_first:.2f} s after the "
                  f"server started ({len(first['cards'])} cards)")
            cards_file, texts = edits(game, first, args.field, args.edits)
            cid = first["cards"][0]["id"]
            tile_img = f'.tile[data-id="{cid}"] img'
            times = []
            for edited in texts:
                src = driver.find_element(By.CSS_SELECTOR, tile_img).get_attribute("src")
                t = time.perf_counter()
                cards_file.write_text(edited)
                wait.until(lambda d: d.execute_script(
                    "const i = document.querySelector(arguments[0]);"
                    "return i && i.src !== arguments[1] && i.complete && i.naturalWidth > 0", tile_img, src))
                times.append(time.perf_counter() - t)
                client.wait_for(lambda d: d["checked"], timeout=300)      # start each edit from a quiet studio
    finally:
        driver.quit()
    print(f"edit of one card -> the card's new picture in the open page: {summary(times)}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("game", nargs="?", default="shadow_throne")
    parser.add_argument("--requests", type=int, default=200, help="warm requests timed of each kind")
    parser.add_argument("--field", help="an integer field of the first card to change (default: its name)")
    parser.add_argument("--edits", type=int, default=5)
    parser.add_argument("--browser", action="store_true", help="measure in headless chromium (selenium)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        game = Path(tmp) / Path(args.game).name
        shutil.copytree(DATA_DIR / args.game if (DATA_DIR / args.game).is_dir() else Path(args.game), game)
        (in_the_browser if args.browser else through_the_api)(game, Path(tmp) / "out", args)


if __name__ == "__main__":
    main()
