"""The studio's previews (card faces, component pages, the check) run in a process of their own (issue
23): a render that never returns is stopped at the preview limit, the request waiting for it is told
what was stopped, the studio answers everything else meanwhile, the next preview works, the stopped
render shows its reason until a file changes, and no process is left once the studio stops.

The hangs are made with test-only hooks run in the preview process (tests/studio_hooks.py): a call
that never returns, as a library call that never returns would be, which no render limit sees."""

import functools
import json
import os
import threading
import time

import pytest

import studio_hooks
from serve_helpers import running, studio_children, write_game

SLEEPER = "  - id: sleeper\n    name: Sleeper\n    copies: 1\n    faction: moon\n    might: 3\n"


@pytest.fixture
def game(tmp_path):
    root = write_game(tmp_path / "studio_test")
    (root / "heroes.yaml").write_text((root / "heroes.yaml").read_text() + SLEEPER)
    return root


def card(data, cid):
    return next(c for c in data["cards"] if c["id"] == cid)


def wait(predicate, timeout=60):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_a_preview_that_never_returns_is_stopped_and_the_studio_goes_on(game, tmp_path):
    stopped = "the preview of card 'sleeper' took longer than 6 s and was stopped (pnp serve --preview-limit SECONDS allows more)"
    hook = functools.partial(studio_hooks.hang_on_card, "sleeper")
    with running(game, tmp_path / "out", preview_seconds=6, preview_setup=hook) as (srv, client):
        previews = srv.studio.previews
        answer = {}
        asking = threading.Thread(target=lambda: answer.update(first=client.get("/api/game")))
        asking.start()                      # waits for the first view, whose data step hangs
        wait(lambda: previews.busy == "the preview of card 'sleeper'")
        hung = previews.pid
        # the studio answers meanwhile (before the stop: the same process is still hanging)
        assert client.get("/")[0] == 200 and client.get("/game/heroes.yaml")[0] == 200
        assert previews.busy == "the preview of card 'sleeper'" and previews.pid == hung, previews.stopped
        asking.join(60)
        status, _, body = answer["first"]
        assert (status, json.loads(body)) == (503, {"error": stopped})
        assert not os.path.exists(f"/proc/{hung}") or "zombie" in open(f"/proc/{hung}/status").read().lower()

        # the next preview works, and the stopped card says why instead of trying again
        data = client.wait_for(lambda d: d["checked"])
        assert previews.restarts == 1 and previews.pid != hung, previews.stopped
        assert card(data, "sleeper")["error"] == stopped and card(data, "sleeper")["image"] is None
        assert stopped in [p["text"] for p in data["problems"]]
        assert all(card(data, cid)["image"] for cid in ("knight", "rogue", "squire", "dragon"))
        status, headers, body = client.get("/api/cards/knight.png?dpi=250")
        assert status == 200 and body[:8] == b"\x89PNG\r\n\x1a\n"
        assert all(client.get(f"/img/{page['image'].split('/')[-1]}")[0] == 200
                   for c in data["components"] for f in c["files"] for page in f["pages"][:1])

        # an edit is seen (the watcher goes on) and the card is laid out again
        heroes = game / "heroes.yaml"
        heroes.write_text(heroes.read_text().replace(SLEEPER, ""))
        data = client.wait_for(lambda d: d["checked"] and "sleeper" not in [c["id"] for c in d["cards"]])
        assert data["problems"] == [] and previews.restarts == 1, previews.stopped
    assert studio_children(os.getpid()) == []


def test_a_component_that_never_returns_is_stopped_and_the_rest_is_checked(tmp_path):
    game = write_game(tmp_path / "studio_test")
    stopped = "the pages of component 'score' took longer than 6 s and was stopped (pnp serve --preview-limit SECONDS allows more)"
    hook = functools.partial(studio_hooks.hang_in_component, "score")
    with running(game, tmp_path / "out", preview_seconds=6, preview_setup=hook) as (srv, client):
        previews = srv.studio.previews
        wait(lambda: previews.busy == "the pages of component 'score'")
        started = time.monotonic()
        data = client.json()                # the cards' view is ready: answered while the check hangs
        assert time.monotonic() - started < 6 and data["cards"] and previews.restarts == 0, previews.stopped
        data = client.wait_for(lambda d: d["checked"])
        score = next(c for c in data["components"] if c["name"] == "score")
        cards = next(c for c in data["components"] if c["name"] == "cards")
        assert score["error"] == stopped and score["files"] == []
        assert cards["error"] is None and cards["files"][0]["pages"]
        assert stopped in [p["text"] for p in data["problems"]] and previews.restarts == 1, previews.stopped
    assert studio_children(os.getpid()) == []


def test_a_preview_past_the_memory_limit_is_stopped(tmp_path):
    """3 GB asked for by one card's layout, in a process limited to 2 GB (the machine has the room: only
    the limit refuses it)."""
    game = write_game(tmp_path / "studio_test")
    hook = functools.partial(studio_hooks.greedy_card, "rogue", 3 * 1024 ** 3)
    with running(game, tmp_path / "out", preview_memory=2 * 1024 ** 3, preview_setup=hook) as (srv, client):
        stopped = "the preview of card 'rogue' needed more than 2 GB of memory and was stopped"
        status, _, body = client.get("/api/game")          # (asked before the stop, it is told of it)
        assert status == 200 or (status, json.loads(body)) == (503, {"error": stopped})
        data = client.wait_for(lambda d: d["checked"], timeout=120)
        assert card(data, "rogue")["error"] == stopped and stopped in [p["text"] for p in data["problems"]]
        assert card(data, "knight")["image"] and srv.studio.previews.restarts == 1, srv.studio.previews.stopped
    assert studio_children(os.getpid()) == []
