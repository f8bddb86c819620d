"""The studio's preview limits, continued (the first cases are in test_studio_previews.py): a stopped
card's picture answers with the reason, and the page shows it (Chromium); the limit is ``pnp serve
--preview-limit`` and its message says so; a preview process that dies at start-up is started again
later and later, says why once, and starts at once when a file changes; the replay page's piece
pictures are drawn in the preview process, under its limits.

The hangs are test-only hooks run in the preview process (tests/studio_hooks.py)."""

import functools
import json
import os
import time

from click.testing import CliRunner

import studio_hooks
from test_serve_browser import browser, shots  # noqa: F401 - the browser fixture
from serve_helpers import running, studio_children
from test_studio_previews import card, game  # noqa: F401 - game: the fixture (a game with a card 'sleeper')

#: Seconds a piece of preview work may take in these tests: above what the small game's real pieces
#: take on a loaded machine, small enough for a quick test.
LIMIT = 4
LONGER = "pnp serve --preview-limit SECONDS allows more"


def once(client, predicate, timeout=60):
    """/api/game once ``predicate(data)`` holds; a 503 (a stop, the previews restarting) is asked again."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status, _, body = client.get("/api/game")
        if status == 200 and predicate(json.loads(body)):
            return json.loads(body)
        assert status in (200, 503), (status, body[:300])
        time.sleep(0.05)
    raise AssertionError(f"timed out; last answer: {status} {body[:300]!r}")


def test_a_stopped_cards_picture_answers_the_reason(game, tmp_path):
    stopped = f"the preview of card 'sleeper' took longer than {LIMIT} s and was stopped ({LONGER})"
    hook = functools.partial(studio_hooks.hang_on_card, "sleeper")
    with running(game, tmp_path / "out", preview_seconds=LIMIT, preview_setup=hook) as (srv, client):
        data = once(client, lambda d: d["checked"] and card(d, "sleeper")["error"])
        assert card(data, "sleeper")["error"] == stopped
        status, headers, body = client.get("/api/cards/sleeper.png?dpi=250")
        assert (status, body.decode()) == (503, stopped) and headers["cache-control"] == "no-store"
        assert client.get("/api/cards/knight.png")[0] == 200
        status, _, body = client.get("/api/cards/nobody.png")
        assert (status, body.decode()) == (404, "no card or face 'nobody' in this game")
        assert srv.studio.previews.restarts == 1, srv.studio.previews.stopped

        # a card that problems name: not found, and why
        heroes = game / "heroes.yaml"
        heroes.write_text(heroes.read_text().replace("might: 3", "might: lots"))
        line = heroes.read_text().splitlines().index("    might: lots") + 1
        once(client, lambda d: d["errors"] and card(d, "sleeper")["problems"])
        status, _, body = client.get("/api/cards/sleeper.png")
        assert (status, body.decode()) == (404, f"card 'sleeper' cannot be drawn: heroes.yaml:{line}: card 'sleeper': "
                                                f"might: expected an integer, got 'lots'")
    assert studio_children(os.getpid()) == []


def test_the_preview_limit_is_an_option_of_pnp_serve(game, monkeypatch):
    from pnp.commands.cli import main
    from pnp.serve import app, studio

    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0 and "--preview-limit SECONDS" in result.output
    seen = {}
    monkeypatch.setattr(studio.Studio, "start", lambda self: seen.update(seconds=self.previews.seconds))
    monkeypatch.setattr(app.StudioServer, "run", lambda self: None)
    result = CliRunner().invoke(main, ["serve", str(game), "--port", "0", "--preview-limit", "150"])
    assert result.exit_code == 0 and seen == {"seconds": 150}, result.output
    result = CliRunner().invoke(main, ["serve", str(game), "--port", "0", "--preview-limit", "0"])
    assert result.exit_code == 2 and "--preview-limit" in result.output


def test_the_page_shows_a_stopped_cards_reason_in_place_of_its_picture(browser, game, tmp_path):
    """In Chromium: the large view of a card whose large picture never comes shows, once the studio
    stopped it, the reason in the picture's place; so does the card's tile after the restart."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    stopped = f"the preview of card 'sleeper' took longer than {LIMIT} s and was stopped ({LONGER})"
    folder = shots(tmp_path)
    wait = WebDriverWait(browser, 60, poll_frequency=0.1, ignored_exceptions=[StaleElementReferenceException])
    hook = functools.partial(studio_hooks.hang_on_large_card, "sleeper")
    with running(game, tmp_path / "out", preview_seconds=LIMIT, preview_setup=hook) as (srv, _):
        browser.get(srv.url)
        tile = '.tile[data-id="sleeper"]'
        wait.until(lambda d: d.find_element(By.ID, "status").text.startswith("Up to date")
                   and d.find_elements(By.CSS_SELECTOR, f"{tile} img"))
        browser.find_element(By.CSS_SELECTOR, tile).click()
        large = "#card-large .face.broken"
        # read in the wait: the page may draw the large view again between two reads (a stale element)
        wait.until(lambda d: any(stopped in e.text and e.is_displayed()
                                 for e in d.find_elements(By.CSS_SELECTOR, large)))
        assert not browser.find_elements(By.CSS_SELECTOR, "#card-large img")
        browser.save_screenshot(str(folder / "stopped-large.png"))
        browser.find_element(By.CSS_SELECTOR, "#card-dialog [data-close]").click()
        wait.until(lambda d: stopped in d.find_element(By.CSS_SELECTOR, f"{tile} .face.broken").text)
        assert browser.find_elements(By.CSS_SELECTOR, '.tile[data-id="knight"] img')
        browser.save_screenshot(str(folder / "stopped-tile.png"))
        assert srv.studio.previews.restarts == 1, srv.studio.previews.stopped
    assert studio_children(os.getpid()) == []


def test_a_preview_process_that_dies_at_start_up_is_started_later_and_later(game, tmp_path, monkeypatch, capfd):
    """A broken start-up (a test hook's ImportError while a flag file exists): started again after 0.5,
    1, 2 ... s, not every second; every question is answered at once with the cause, which the console
    gets once with the process's last lines; a file change starts it at once, and it recovers."""
    from pnp.serve import supervisor

    monkeypatch.setattr(supervisor, "RESTART_FIRST", 0.5)
    flag = tmp_path / "broken"
    flag.write_text("")
    hook = functools.partial(studio_hooks.fail_start_while, str(flag))
    cause = "ImportError: No module named 'pnp.broken_part' (a test's start-up failure)"
    with running(game, tmp_path / "out", preview_setup=hook) as (srv, client):
        previews = srv.studio.previews
        deadline = time.monotonic() + 60
        while previews.failures < 3:
            assert time.monotonic() < deadline, "timed out"
            time.sleep(0.01)
        failed = time.monotonic()
        assert previews.retry_in == 2.0 and previews.restarts == 3
        asked = time.monotonic()
        status, _, body = client.get("/api/game")
        assert time.monotonic() - asked < 1.0
        message = json.loads(body)["error"]
        assert status == 503 and message.startswith(f"the preview process could not start (exit status 1): {cause}; "
                                                    f"pnp tries again after 0.5 s, then less and less often")
        err = capfd.readouterr().err
        assert err.count("could not start") == 1 and f"    {cause}" in err and "in fail_start_while" in err, err
        assert "start again" not in err

        flag.unlink()
        heroes = game / "heroes.yaml"
        heroes.write_text(heroes.read_text() + "# edited\n")
        data = once(client, lambda d: d["checked"])
        assert previews.started_at - failed < 1.5 and previews.failures == 0 and previews.failing is None
        assert data["problems"] == [] and previews.restarts == 3
        err = capfd.readouterr().err
        assert "pnp serve: the preview process started" in err and "could not start" not in err, err
    assert studio_children(os.getpid()) == []


def test_the_replays_piece_pictures_are_drawn_in_the_preview_process_under_its_limits(tmp_path):
    """The replay page's standee pictures come from the preview process (a studio that does not show
    the game starts it for them, without drawing the game's view): past the limit they are stopped,
    the replay comes without them and says why, and the studio answers meanwhile."""
    stopped = f"the pictures of the replay's pieces took longer than {LIMIT} s and was stopped ({LONGER})"
    with running("shadow_queen", tmp_path / "out", draw=False, preview_seconds=LIMIT,
                 preview_setup=studio_hooks.hang_in_piece_pictures) as (srv, client):
        first = client.json("/api/replay?seed=11&bots=greedy&count=1")
        assert first["map"] and first["steps"] and first["total"] > 1
        assert (first["pieces"], first["pieces_error"]) == ({}, stopped)
        assert srv.studio.previews.restarts == 1 and srv.studio.previews.stopped == {
            "the pictures of the replay's pieces": stopped}
        assert client.json("/api/replay?seed=11&bots=greedy&from=1&count=1")["steps"]    # kept: not played again
        assert client.get("/api/replays")[0] == 200
    assert studio_children(os.getpid()) == []
