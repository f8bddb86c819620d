"""``pnp serve`` in a real browser: Debian's headless chromium, driven by selenium through chromedriver.

The page loads, the filter box narrows the cards, a click shows a card large with its data and its
file:line, an edit of the card's data on disk changes the open page without a reload, a broken value
shows its problem in place of the picture, the trim and bleed toggles change what is drawn, and the
language and paper choices change the cards' words and the component pages' size.
Screenshots go to $PNP_SCREENSHOTS when set (else the test's temporary folder) to be looked at.

Skipped, saying why, where the browser cannot run (no chromium or chromedriver, no selenium).
"""

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from serve_helpers import running, write_game

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1400,1000"]


@pytest.fixture
def browser(tmp_path):
    try:
        from selenium import webdriver
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("selenium is not installed (pip install -e '.[test]')")
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        pytest.skip("Debian's chromium and chromium-driver are not installed (apt-get install chromium "
                    "chromium-driver; .ci/run does)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="pnp-chromium-")
    for flag in FLAGS + [f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    except WebDriverException as exc:
        pytest.skip(f"headless chromium cannot start here: {(exc.msg or str(exc)).splitlines()[0]}")
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("PNP_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_load_filter_open_edit_and_see_the_page_change(browser, tmp_path):
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    from pnp.draw.raster import size_px

    game = write_game(tmp_path / "studio_test")
    folder = shots(tmp_path)
    wait = WebDriverWait(browser, 30, poll_frequency=0.1,
                         ignored_exceptions=[StaleElementReferenceException, NoSuchElementException])

    def visible_ids():
        return [t.get_attribute("data-id") for t in browser.find_elements(By.CSS_SELECTOR, "#decks .tile[data-id]")
                if t.is_displayed()]

    def fields():
        return browser.execute_script(
            "return Object.fromEntries([...document.querySelectorAll('#card-fields tr')]"
            ".map(r => [r.cells[0].textContent, r.cells[1].textContent]))")

    def loaded(img):
        return browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", img)

    with running(game, tmp_path / "out") as (server, client):
        browser.get(server.url)
        wait.until(lambda d: len(visible_ids()) == 5 and d.find_element(By.ID, "status").text.startswith("Up to date"))
        assert browser.find_element(By.ID, "title").text == "Studio Test"
        decks = [" ".join(h.text.split()) for h in browser.find_elements(By.CSS_SELECTOR, ".deck > h3")]
        assert decks[0].startswith("Heroes 3 cards, 6 copies") and decks[1].startswith("Quests 2 cards, 3 copies")
        groups = [" ".join(h.text.split()) for h in browser.find_elements(By.CSS_SELECTOR, "#deck-heroes .group > h4")]
        assert groups == ["Sun 2 cards, 4 copies", "Moon 1 card, 2 copies"]
        wait.until(lambda d: all(loaded(i) for i in d.find_elements(By.CSS_SELECTOR, "#decks .tile img")))
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".component .pages img"))
        browser.save_screenshot(str(folder / "1-loaded.png"))

        # the filter box: any field, several words
        box = browser.find_element(By.ID, "filter")
        box.send_keys("moon")
        wait.until(lambda d: sorted(visible_ids()) == ["caravan", "rogue"])
        assert browser.find_element(By.ID, "count").text == "2 of 5 cards"
        box.clear()
        box.send_keys("might 4")
        wait.until(lambda d: visible_ids() == ["knight"])
        browser.save_screenshot(str(folder / "2-filtered.png"))
        box.clear()
        box.send_keys(" ")       # clear() sends no input event: type something the filter ignores
        wait.until(lambda d: len(visible_ids()) == 5)

        # a card, large, with its data and where it comes from
        browser.find_element(By.CSS_SELECTOR, '.tile[data-id="knight"]').click()
        dialog = browser.find_element(By.ID, "card-dialog")
        wait.until(lambda d: dialog.is_displayed())
        assert browser.find_element(By.ID, "card-title").text == "Knight"
        assert browser.find_element(By.ID, "card-source").text == "From heroes.yaml:2"
        rows = fields()
        assert (rows["might"], rows["faction"], rows["copies"]) == ("4", "Sun", "3")
        large = browser.find_element(By.CSS_SELECTOR, "#card-large img")
        wait.until(lambda d: loaded(large))
        assert browser.execute_script("return arguments[0].naturalWidth", large) == 620     # 63 mm at 250 dpi
        browser.save_screenshot(str(folder / "3-card.png"))

        # edit the card's data on disk: the open page changes by itself
        before = browser.find_element(By.CSS_SELECTOR, '.tile[data-id="knight"] img').get_attribute("src")
        heroes = game / "heroes.yaml"
        heroes.write_text(heroes.read_text().replace("name: Knight", "name: Paladin").replace("might: 4", "might: 7"))
        wait.until(lambda d: d.find_element(By.ID, "card-title").text == "Paladin")
        wait.until(lambda d: fields().get("might") == "7")
        # the tile is drawn again after the dialog: wait for it, reading each in one script (no stale element)
        wait.until(lambda d: d.execute_script(
            "return document.querySelector('.tile[data-id=\"knight\"] .name').textContent") == "Paladin")
        wait.until(lambda d: d.execute_script(
            "return document.querySelector('.tile[data-id=\"knight\"] img').src") != before)
        wait.until(lambda d: loaded(d.find_element(By.CSS_SELECTOR, '.tile[data-id="knight"] img'))
                   and loaded(d.find_element(By.CSS_SELECTOR, "#card-large img")))
        browser.save_screenshot(str(folder / "4-edited.png"))
        browser.find_element(By.CSS_SELECTOR, "#card-dialog [data-close]").click()

        # a broken value: its problem at the top, and in place of the card's picture
        heroes.write_text(heroes.read_text().replace("might: 2", "might: lots"))
        problems = browser.find_element(By.ID, "problems")
        wait.until(lambda d: problems.is_displayed())
        assert "card 'rogue': might: expected an integer, got 'lots'" in problems.text
        assert "heroes.yaml:" in problems.text
        wait.until(lambda d: "might: expected an integer" in d.find_element(
            By.CSS_SELECTOR, '.tile[data-id="rogue"] .face.broken').text)
        browser.save_screenshot(str(folder / "5-problem.png"))

        # the toggles: trim line and safe zone drawn over the faces, bleed drawn round them
        browser.find_element(By.ID, "show-trim").click()
        browser.find_element(By.ID, "show-safe").click()
        trim = browser.find_element(By.CSS_SELECTOR, '.tile[data-id="knight"] .trim')
        assert trim.is_displayed() and "trim=1" in browser.current_url
        knight = browser.find_element(By.CSS_SELECTOR, '.tile[data-id="knight"] img')
        narrow = browser.execute_script("return arguments[0].naturalWidth", knight)
        browser.find_element(By.ID, "show-bleed").click()
        wait.until(lambda d: "bleed=3" in d.current_url)
        wait.until(lambda d: (lambda img: loaded(img) and d.execute_script(
            "return arguments[0].naturalWidth", img) > narrow)(
            d.find_element(By.CSS_SELECTOR, '.tile[data-id="knight"] img')))
        browser.save_screenshot(str(folder / "6-bleed-trim-safe.png"))

        # language and paper: the cards in Spanish, the component pages on A4
        Select(browser.find_element(By.ID, "lang")).select_by_value("es")
        wait.until(lambda d: d.find_element(By.CSS_SELECTOR, '.tile[data-id="squire"] .name').text == "Escudero")
        assert "lang=es" in browser.current_url
        # the decks are drawn again for the new language: read the heading once it is the new one
        wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#deck-heroes > h3").text.startswith("Héroes"))
        score = 'img[alt="score.pdf page 1"]'

        def score_page(d):            # in Spanish, another image (its title translated): it loads when in view
            img = d.find_element(By.CSS_SELECTOR, score)
            d.execute_script("arguments[0].scrollIntoView()", img)
            return loaded(img)
        wait.until(score_page)
        letter = browser.execute_script("return arguments[0].naturalWidth", browser.find_element(By.CSS_SELECTOR, score))
        Select(browser.find_element(By.ID, "paper")).select_by_value("a4")

        def a4_page(d):
            img = d.find_element(By.CSS_SELECTOR, score)
            d.execute_script("arguments[0].scrollIntoView()", img)          # pages load lazily
            return loaded(img) and d.execute_script("return arguments[0].naturalWidth", img) == size_px(210, 297, 50)[0]

        wait.until(a4_page)
        assert letter == size_px(215.9, 279.4, 50)[0] and "paper=a4" in browser.current_url
        browser.save_screenshot(str(folder / "7-spanish-a4.png"))
        severe = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
        assert severe == []

        # a build button's POST carries the session's token from the page: the studio takes the request
        # (and answers that the data has a problem to fix), where a POST without it is refused
        build_status = browser.find_element(By.ID, "build-status")
        browser.find_element(By.CSS_SELECTOR, '[data-build="kit"]').click()
        wait.until(lambda d: "problem" in build_status.text)
        assert "token" not in build_status.text


def test_a_double_sided_card_turns_over_in_the_large_view(browser, tmp_path):
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    game = tmp_path / "dusk_orchard"
    shutil.copytree(Path(__file__).parent / "games" / "dusk_orchard", game)
    folder = shots(tmp_path)
    wait = WebDriverWait(browser, 60, poll_frequency=0.1, ignored_exceptions=[StaleElementReferenceException])

    def large():
        # read in one script: the studio may swap the <img> between a find and a read (a stale element)
        return browser.execute_script("const i = document.querySelector('#card-large img'); return i && i.src")

    with running(game, tmp_path / "out", draw=False) as (server, _):
        browser.get(server.url)
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, '#decks .tile[data-id="plum"] img'))
        tile = browser.find_element(By.CSS_SELECTOR, '#decks .tile[data-id="plum"]')
        assert tile.find_element(By.CSS_SELECTOR, ".sides").text == "2 sides"
        assert not browser.find_elements(By.CSS_SELECTOR, '#decks .tile[data-id="drizzle"] .sides')
        tile.click()
        flip = browser.find_element(By.ID, "card-flip")
        wait.until(lambda d: flip.is_displayed() and d.find_element(By.ID, "card-title").text == "Plum Sapling")
        front = large()
        flip.click()
        wait.until(lambda d: d.find_element(By.ID, "card-title").text == "Plum Sapling · side B: Plum Harvest")
        wait.until(lambda d: large() != front)
        assert flip.text == "Turn to side A"
        assert "score" in browser.find_element(By.ID, "card-fields").text
        assert "plum%40b.png" in browser.find_element(By.ID, "card-png").get_attribute("href")
        wait.until(lambda d: d.execute_script(
            "const i = document.querySelector('#card-large img'); return i && i.complete && i.naturalWidth > 0"))
        browser.save_screenshot(str(folder / "double-sided-turned.png"))
        browser.find_element(By.ID, "card-dialog").send_keys("f")        # F turns it back
        wait.until(lambda d: d.find_element(By.ID, "card-title").text == "Plum Sapling")
        wait.until(lambda d: large() == front)
        browser.find_element(By.ID, "card-dialog").send_keys("f")
        wait.until(lambda d: d.find_element(By.ID, "card-title").text.endswith("side B: Plum Harvest"))
        browser.find_element(By.ID, "card-dialog").send_keys(Keys.ARROW_RIGHT)     # the next card opens on side A
        wait.until(lambda d: d.find_element(By.ID, "card-title").text == "Pear Row")
        assert flip.text == "Turn over"


def test_the_replay_page_keeps_a_64_bit_seed_whole(browser, tmp_path):
    # issue 36: the page showed a report's seed as a browser's number (53 bits: ...667000 for ...666038), and
    # its number field could not take the seed back; the seed is text both ways, and the link replays it
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from pnp.commands.replay import replayed
    from pnp.lab.table import SEAT_NAMES

    seed = 18_342_017_295_113_666_038
    game, engine, seats, state = replayed("behind_the_throne", seed, "2", "random,random", None, ())
    lines = engine.transcript_lines(state.events, game.cards, game.factions, list(SEAT_NAMES[:2]))
    wait = WebDriverWait(browser, 60, poll_frequency=0.1, ignored_exceptions=[StaleElementReferenceException])
    with running("behind_the_throne", tmp_path / "out", draw=False) as (server, _):
        browser.get(f"{server.url.rstrip('/')}/replay")
        wait.until(lambda d: d.find_element(By.ID, "status").text == "No report given")
        field = browser.find_element(By.ID, "seed")
        field.clear()
        field.send_keys(str(seed))
        browser.find_element(By.ID, "players").send_keys("2")
        browser.find_element(By.ID, "bots").send_keys("random,random")
        browser.find_element(By.CSS_SELECTOR, "#seed-form button, #seed-form [type=submit]").click()
        wait.until(lambda d: d.find_element(By.ID, "game-title").text == f"Behind the Throne, seed {seed}")
        link = browser.current_url
        assert f"seed={seed}&" in link
        browser.get(link)                                  # the link, opened again, replays the same game
        wait.until(lambda d: d.find_element(By.ID, "game-title").text == f"Behind the Throne, seed {seed}")
        wait.until(lambda d: d.find_element(By.ID, "step-count").text.startswith("step 1 of "))
        browser.find_element(By.ID, "last").click()
        total = int(browser.find_element(By.ID, "step-count").text.rsplit(" ", 1)[1])
        wait.until(lambda d: d.find_element(By.ID, "step-count").text == f"step {total} of {total}")
        shown = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#lines li")]
        assert shown and shown == lines[-len(shown):]
