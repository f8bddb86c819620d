"""``pnp serve``: the studio's server on a free port: the page and its JSON, pictures by content hash,
live updates after an edit (only the edited card drawn again), problems in place of the pictures they
break, traversal refused, builds and downloads, the engine's figures, and a clean Ctrl-C."""

import functools
import json
import multiprocessing
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image as PILImage

from pnp import DATA_DIR
from pnp.commands.cli import main
from pnp.draw.raster import size_px
from pnp.serve.app import static_files
from pnp.serve.faces import CARD_DPI, LARGE_CARD_DPI
from pnp.serve.studio import Options, Studio
from pnp.serve.tasks import ENGINE_GAMES
import studio_hooks
from serve_helpers import Client, Events, running, studio_children, write_game

@pytest.fixture
def game(tmp_path):
    return write_game(tmp_path / "studio_test")


@pytest.fixture
def server(game, tmp_path):
    with running(game, tmp_path / "out") as (srv, client):
        yield srv, client


def png_size(data: bytes) -> tuple:
    import io
    return PILImage.open(io.BytesIO(data)).size


def card(data, cid):
    return next(c for c in data["cards"] if c["id"] == cid)


def test_page_and_game_json(server):
    srv, client = server
    status, headers, body = client.get("/")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert b'<script src="/static/studio.js"' in body and b"http" not in body.replace(b"http-equiv", b"")
    assert "script-src 'self'" in headers["content-security-policy"]     # no CDN, no inline script
    for name in ("studio.js", "studio.css"):
        status, headers, body = client.get(f"/static/{name}")
        assert status == 200 and len(body) > 1000

    data = client.json()
    assert data["title"] == "Studio Test" and data["errors"] == 0 and data["problems"] == []
    heroes, quests = data["decks"]
    assert (heroes["id"], heroes["name"], heroes["width"], heroes["height"]) == ("heroes", "Heroes", 63.0, 88.0)
    assert (quests["width"], quests["height"], quests["distinct"], quests["copies"]) == (70, 120, 2, 3)
    # grouped by faction, copies counted per group
    assert [(g["name"], g["cards"], g["copies"]) for g in heroes["groups"]] == [
        ("Sun", ["knight", "squire"], 4), ("Moon", ["rogue"], 2)]
    assert [(g["name"], g["colour"]) for g in quests["groups"]] == [("Sun", "#c08a1e"), ("Moon", "#2d4f7c")]
    knight = card(data, "knight")
    assert (knight["name"], knight["deck"], knight["copies"]) == ("Knight", "heroes", 3)
    assert ["might", "4"] in knight["fields"] and ["faction", "Sun"] in knight["fields"]
    assert knight["source"] == {"file": "heroes.yaml", "line": 2, "column": None, "viewable": True}
    caravan = card(data, "caravan")
    assert caravan["source"]["file"] == "quests.csv" and caravan["source"]["line"] == 3   # its row
    assert ["reward", "3 gold"] in caravan["fields"]
    assert [e["name"] for e in heroes["extras"]] == ["Back"]


BUNDLED = sorted(p.name for p in DATA_DIR.iterdir() if (p / "game.yaml").is_file())


@pytest.mark.parametrize("name", BUNDLED)
def test_every_bundled_game_lists_its_cards_by_deck(name, tmp_path):
    """Every card of every deck once, under its own deck and in the data's order, with the loader's
    copies; one face per deck drawn at its deck's size."""
    from pnp.loading.gamedata import load_game

    game = load_game(DATA_DIR / name)
    with running(name, tmp_path / "out") as (srv, client):
        data = client.json()
        assert data["title"] == game.title and data["errors"] == 0
        assert [d["id"] for d in data["decks"]] == [d.id for d in game.decks]
        for deck, shown in zip(game.decks, data["decks"]):
            listed = [cid for group in shown["groups"] for cid in group["cards"]]
            assert sorted(listed) == sorted(c.id for c in deck.cards)
            assert (shown["distinct"], shown["copies"]) == (len(deck.cards), sum(c.copies for c in deck.cards))
            assert [g["name"] for g in shown["groups"]].count("Other") <= 1
            for group in shown["groups"]:
                assert group["copies"] == sum(card(data, cid)["copies"] for cid in group["cards"])
                assert all(card(data, cid)["deck"] == deck.id for cid in group["cards"])
            first = card(data, deck.cards[0].id)
            status, _, body = client.get(first["image"])
            assert status == 200 and png_size(body) == size_px(deck.width, deck.height, CARD_DPI)
        assert len(data["cards"]) == sum(len(d.cards) for d in game.decks)


def test_cards_without_a_faction_or_category_among_grouped_ones_are_other(game, tmp_path):
    heroes = game / "heroes.yaml"
    heroes.write_text(heroes.read_text().replace("    faction: sun\n    might: 4", "    might: 4"))
    with running(game, tmp_path / "out") as (srv, client):
        groups = client.json()["decks"][0]["groups"]
    assert [(g["name"], g["cards"]) for g in groups] == [("Moon", ["rogue"]), ("Sun", ["squire"]),
                                                        ("Other", ["knight"])]


def test_card_pictures_come_from_the_card_layout(server):
    srv, client = server
    data = client.json()
    knight = card(data, "knight")
    status, headers, body = client.get(knight["image"])
    assert status == 200 and "immutable" in headers["cache-control"]
    assert png_size(body) == size_px(63, 88, CARD_DPI)
    status, _, body = client.get("/api/cards/knight.png")
    assert status == 200 and png_size(body) == size_px(63, 88, CARD_DPI)
    status, _, body = client.get("/api/cards/dragon.png?dpi=100&bleed=3")
    assert status == 200 and png_size(body) == size_px(76, 126, 100)
    status, _, large = client.get(knight["large"])
    assert png_size(large) == size_px(63, 88, LARGE_CARD_DPI)
    assert client.get("/api/cards/nobody.png")[0] == 404
    assert client.get("/api/cards/knight.png?dpi=5000")[0] == 400
    assert client.get("/api/cards/knight.png?paper=../../x")[0] == 400
    assert client.get("/img/" + "0" * 32 + ".png")[0] == 404


def test_components_show_as_page_images(server):
    srv, client = server
    data = client.wait_for(lambda d: d["checked"])
    by_name = {c["name"]: c for c in data["components"]}
    assert list(by_name) == ["score", "cards"] or set(by_name) == {"score", "cards"}
    files = {f["filename"]: f for c in data["components"] for f in c["files"]}
    assert {"score.pdf", "cards-fronts.pdf", "cards-backs.pdf"} <= set(files)
    page = files["score.pdf"]["pages"][0]
    status, _, body = client.get(page["image"])
    assert status == 200 and png_size(body) == size_px(215.9, 279.4, 50) == (page["width"], page["height"])
    # the paper option: the same track on A4
    a4 = client.wait_for(lambda d: d["checked"], "/api/game?paper=a4")
    page = next(f for c in a4["components"] for f in c["files"] if f["filename"] == "score.pdf")["pages"][0]
    assert (page["width"], page["height"]) == size_px(210, 297, 50)


def test_an_edit_updates_the_page_and_draws_only_what_changed(server, game):
    srv, client = server
    before = client.wait_for(lambda d: d["checked"])
    events = Events(client)
    try:
        heroes = game / "heroes.yaml"
        heroes.write_text(heroes.read_text().replace("name: Rogue", "name: Cutpurse"))
        changed = events.next("changed")
        assert changed["files"] == ["heroes.yaml"] and changed["version"] == before["version"] + 1
        update = events.next("update")
        assert update["version"] == changed["version"]
    finally:
        events.close()
    after = client.json()
    assert after["version"] == before["version"] + 1 and card(after, "rogue")["name"] == "Cutpurse"
    assert card(after, "rogue")["image"] != card(before, "rogue")["image"]
    for cid in ("knight", "squire", "dragon", "caravan"):          # the same pictures: not drawn again
        assert card(after, cid)["image"] == card(before, cid)["image"]


def test_a_broken_file_shows_its_problem_instead_of_the_picture(server, game):
    srv, client = server
    client.wait_for(lambda d: d["checked"])
    heroes = game / "heroes.yaml"
    good = heroes.read_text()
    heroes.write_text(good.replace("might: 2", "might: lots"))
    line = next(i for i, text in enumerate(good.splitlines(), 1) if "might: 2" in text)
    data = client.wait_for(lambda d: d["errors"] and d["checked"])
    expected = f"heroes.yaml:{line}: card 'rogue': might: expected an integer, got 'lots'"
    assert [p["text"] for p in data["problems"]] == [expected]
    rogue = card(data, "rogue")
    assert rogue["image"] is None and [p["text"] for p in rogue["problems"]] == [expected]
    assert card(data, "knight")["image"] is not None                     # the others still show
    assert client.get("/api/cards/rogue.png")[0] == 404
    sheets = next(c for c in data["components"] if c["name"] == "cards")
    assert sheets["files"] == [] and "problems are fixed" in sheets["error"]
    assert next(c for c in data["components"] if c["name"] == "score")["files"]   # not broken by it

    quests = game / "quests.csv"
    quests.write_text(QUESTS_BROKEN)
    data = client.wait_for(lambda d: any(p["file"] == "quests.csv" for p in d["problems"]))
    problem = next(p for p in data["problems"] if p["file"] == "quests.csv")
    assert (problem["line"], problem["column"]) == (2, 5)
    assert problem["text"] == "quests.csv:2:5: card 'dragon': reward: expected an integer, got 'twelve'"

    heroes.write_text(good)
    quests.write_text(quests.read_text().replace("twelve", "12"))
    data = client.wait_for(lambda d: not d["problems"] and d["checked"])
    assert card(data, "rogue")["image"] is not None


QUESTS_BROKEN = """\
id,name,copies,faction,reward,flavour
dragon,Slay the Dragon,1,sun,twelve,Bring a bucket.
caravan,Guard the Caravan,2,moon,3,Mind the mules.
"""


def test_an_unreadable_game_yaml_is_a_problem_not_a_crash(server, game):
    srv, client = server
    client.wait_for(lambda d: d["checked"])
    (game / "game.yaml").write_text("title: [unclosed\n")
    data = client.wait_for(lambda d: d["errors"])
    assert data["problems"][0]["file"] == "game.yaml" and data["cards"] == []
    (game / "game.yaml").write_text(open(game / "game.yaml").read().replace("[unclosed", "Back"))


TRAVERSALS = [
    "/game/../pyproject.toml",
    "/game/%2e%2e/%2e%2e/pyproject.toml",
    "/game/%2E%2E%2Fpyproject.toml",
    "/game/..%2f..%2fpyproject.toml",
    "/game//etc/passwd",
    "/game/%2fetc%2fpasswd",
    "/game/heroes.yaml/../../pyproject.toml",
    "/game/.%2e/.%2e/pyproject.toml",
    "/game/..\\..\\pyproject.toml",
    "/static/../app.py",
    "/static/..%2fapp.py",
    "/static/%2e%2e%2fapp.py",
    "/download/..%2f..%2fpyproject.toml",
    "/download/%2fetc%2fpasswd",
    "/img/..%2f..%2fpyproject.toml.png",
    "/../../../etc/passwd",
    "/%2e%2e/%2e%2e/etc/passwd",
    "/api/cards/..%2f..%2fheroes.png",
]


def test_traversal_and_outside_files_are_404(server, game, tmp_path):
    srv, client = server
    secret = tmp_path / "secret.yaml"
    secret.write_text("password: hunter2\n")
    (game / "link.yaml").symlink_to(secret)
    (game / ".hidden.yaml").write_text("x: 1\n")
    status, headers, body = client.get("/game/heroes.yaml")
    assert status == 200 and body.decode() == (game / "heroes.yaml").read_text()
    assert "sandbox" in headers["content-security-policy"] and headers["content-type"].startswith("text/plain")
    for path in TRAVERSALS + [f"/game/{secret}", f"/game/{secret.as_posix().replace('/', '%2f')}",
                              "/game/link.yaml", "/game/.hidden.yaml", "/game/nothing.yaml", "/game/"]:
        status, _, body = client.get(path)
        assert status == 404, path
        assert b"hunter2" not in body and b"[project]" not in body


def test_only_this_host_and_only_posts_that_say_so(server):
    srv, client = server
    assert client.get("/api/game", headers={"Host": "evil.example"})[0] == 400    # DNS rebinding
    assert client.request("POST", "/api/build?what=kit")[0] == 403                # another site's form
    assert client.request("POST", "/api/build?what=kit", headers={"X-Pnp-Studio": "1"})[0] == 403
    assert client.request("POST", "/api/build?what=kit", headers={"X-Pnp-Token": "guessed"})[0] == 403
    token = client.post_headers()
    status, _, body = client.request("POST", "/api/engine", headers={**token, "Origin": "http://evil.example"})
    assert status == 403 and json.loads(body)["error"] == "a request from another site's page"
    status, _, _ = client.request("POST", "/api/engine",
                                  headers={**token, "Origin": f"http://127.0.0.1:{client.port}"})
    assert status == 409                     # accepted (the test game has no engine to play)
    assert client.request("GET", "/api/build?what=kit")[0] == 405


def test_on_every_address_only_this_machines_names_are_answered(game, tmp_path):
    """--host 0.0.0.0: the Host check stays on (it was off: a rebinding page could read the game and
    build); the machine's own names and addresses are answered, nothing else."""
    import socket as sockets
    import threading

    from pnp.serve.app import StudioServer, bind

    studio = Studio(game, Options(), tmp_path / "out")
    sock = bind("0.0.0.0", 0)
    server = StudioServer(studio, sock, "0.0.0.0")
    studio.start(watch=False)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        client = Client(f"http://127.0.0.1:{sock.getsockname()[1]}/")
        for host in ("attacker.example", "evil.example:80", "10.0.0.99"):
            assert client.get("/api/game", headers={"Host": host})[0] == 400, host
            assert client.get("/game/game.yaml", headers={"Host": host})[0] == 400, host
        for host in ("localhost", "127.0.0.1", sockets.gethostname()):
            assert client.get("/game/game.yaml", headers={"Host": host})[0] == 200, host
        assert "*" not in server.allowed_hosts
    finally:
        server.stop()
        thread.join(15)
        studio.close()
        sock.close()


def test_host_0000_warns_that_the_studio_is_reachable_from_the_network(game, tmp_path):
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "pnp", "serve", str(game), "--port", "0", "--host", "0.0.0.0",
                             "--out", str(tmp_path / "out")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    try:
        warning = proc.stderr.readline()
        assert warning.startswith("warning: listening on 0.0.0.0: the studio is reachable from the network; "
                                  "anyone who can reach this computer can open it"), warning
        assert "at http://0.0.0.0:" in proc.stdout.readline()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=20)


def test_a_build_past_its_limit_is_stopped_and_the_studio_answers(server, tmp_path, monkeypatch):
    """The build runs in a process of its own: past its time limit it is killed, the page hears why
    (409), and the studio answers at once, its previews too (the build no longer holds its worker)."""
    import pnp.serve.tasks

    # far below what a fresh process needs to start: on a quiet machine 0.3 s let the kit be written
    # before the build was stopped
    monkeypatch.setattr(pnp.serve.tasks, "BUILD_SECONDS", 0.01)
    srv, client = server
    started = time.monotonic()
    status, _, body = client.request("POST", "/api/build?what=kit", headers=client.post_headers())
    assert status == 409 and json.loads(body)["error"].startswith("the build took more than 0.01 s and was stopped")
    assert time.monotonic() - started < 20
    assert client.json()["title"] == "Studio Test" and not (tmp_path / "out" / "kit.pdf").exists()
    assert [c.name for c in multiprocessing.active_children() if c.name == "pnp-studio-build"] == []


def test_build_and_download(server, tmp_path):
    srv, client = server
    result = client.json("/api/build?what=kit", "POST", client.post_headers())
    names = [f["name"] for f in result["files"]]
    assert "kit.pdf" in names and "cards-fronts.pdf" in names and "score.pdf" in names
    status, headers, body = client.get("/download/kit.pdf")
    assert status == 200 and body[:5] == b"%PDF-" and body == (tmp_path / "out" / "kit.pdf").read_bytes()
    assert headers["content-disposition"] == 'attachment; filename="kit.pdf"'
    result = client.json("/api/build?what=cards", "POST", client.post_headers())
    assert [f["name"] for f in result["files"]] == ["cards.zip"]
    import io
    import zipfile
    status, _, body = client.get("/download/cards.zip")
    names = sorted(zipfile.ZipFile(io.BytesIO(body)).namelist())
    assert "heroes/knight-3.png" in names and "quests/back.png" in names and len(names) == 9 + 2
    listed = client.json()["downloads"]
    assert {d["name"] for d in listed} >= {"kit.pdf", "cards.zip"} and not any(d["stale"] for d in listed)
    assert client.get("/download/game.yaml")[0] == 404


def test_engine_figures_on_demand(tmp_path):
    """The studio's figures are pnp simulate's report for the same seed, players and bots (100 games
    here to keep the test short; the page plays 1,000)."""
    studio = Studio(DATA_DIR / "behind_the_throne")
    studio.close()
    assert ENGINE_GAMES == 1000 and studio.engine_games == 1000
    game = tmp_path / "behind_the_throne"
    shutil.copytree(DATA_DIR / "behind_the_throne", game)
    with running(game, tmp_path / "out", engine_games=100) as (srv, client):
        data = client.json()
        assert data["engine"]["available"] and data["engine"]["figures"] is None
        figures = client.json("/api/engine", "POST", client.post_headers())
        assert (figures["games"], figures["seed"]) == (100, 0)
        cli = CliRunner().invoke(main, ["simulate", str(game), "--games", "100", "--seed", "0", "--players",
                                        str(figures["players"]), "--bots", ",".join(figures["bots"])])
        assert cli.exit_code == 0 and figures["lines"] == cli.output.splitlines()
        shown = client.json()["engine"]["figures"]
        assert shown["lines"] == figures["lines"] and not shown["stale"]


def test_a_game_without_an_engine_says_so(server):
    srv, client = server
    engine = client.json()["engine"]
    assert engine == {"available": False, "reason": "Studio Test has no rules engine.", "figures": None}
    status, _, body = client.request("POST", "/api/engine", headers=client.post_headers())
    assert status == 409 and json.loads(body)["error"] == "Studio Test has no rules engine."


def test_languages_are_offered_and_checked(game, tmp_path):
    with running(game, tmp_path / "out", Options(lang="es")) as (srv, client):
        data = client.json()
        assert data["choices"]["languages"] == ["en", "es"] and data["options"]["lang"] == "es"
        assert data["title"] == "Prueba del estudio" and data["problems"] == []
        assert card(data, "knight")["name"] == "Caballero" and data["decks"][0]["name"] == "Héroes"
        english = client.json("/api/game?lang=")
        assert card(english, "knight")["name"] == "Knight"
        assert card(english, "knight")["image"] != card(data, "knight")["image"]
        data = client.json("/api/game?lang=fr")
        assert data["errors"] == 1 and "has no translation into 'fr'" in data["problems"][0]["text"]


def test_the_language_chosen_stays_while_a_card_has_a_problem(game, tmp_path):
    heroes = game / "heroes.yaml"
    heroes.write_text(heroes.read_text().replace("might: 2", "might: lots"))
    with running(game, tmp_path / "out", Options(lang="es")) as (srv, client):
        for data in (client.json(), client.wait_for(lambda d: d["checked"])):      # both steps
            assert [p["text"] for p in data["problems"]] == [
                "heroes.yaml:11: card 'rogue': might: expected an integer, got 'lots'"]
            assert [c["name"] for c in data["cards"]] == ["Caballero", "Pícaro", "Escudero", "Matar al dragón",
                                                          "Guardar la caravana"]
            assert [d["name"] for d in data["decks"]] == ["Héroes", "Misiones"]
        assert client.json("/api/game?lang=fr")["errors"] == 2


def test_static_files_ship_with_the_package():
    """Every file of pnp/serve/static is served, and pyproject's package data ships it in a wheel too."""
    import tomllib
    from fnmatch import fnmatch

    folder = Path(__file__).resolve().parent.parent / "pnp" / "serve" / "static"
    on_disk = sorted(p.name for p in folder.iterdir() if p.is_file())
    assert sorted(static_files()) == on_disk and {"index.html", "studio.js", "studio.css"} <= set(on_disk)
    config = tomllib.loads((folder.parent.parent.parent / "pyproject.toml").read_text())
    globs = config["tool"]["setuptools"]["package-data"]["pnp.serve"]
    assert all(any(fnmatch(f"static/{name}", g) for g in globs) for name in on_disk)
    # the pages' scripts put data into the page as text only
    scripts = sorted(folder.glob("*.js"))
    assert {"dom.js", "studio.js", "replay.js"} <= {p.name for p in scripts}
    for script in scripts:
        text = script.read_text()
        assert "innerHTML" not in text and "insertAdjacentHTML" not in text and "eval(" not in text, script.name


def test_serve_help_is_complete():
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--port", "--host", "--paper", "--lang", "--out", "--open"):
        assert option in result.output
    assert "127.0.0.1" in result.output and "Ctrl-C" in result.output


def test_port_in_use_is_one_line(tmp_path, game):
    from pnp.serve.app import bind

    taken = bind("127.0.0.1", 0)
    try:
        port = taken.getsockname()[1]
        taken.listen()
        result = CliRunner().invoke(main, ["serve", str(game), "--port", str(port)])
        assert result.exit_code == 2
        assert result.output.startswith(f"error: cannot listen on 127.0.0.1:{port}:")
    finally:
        taken.close()


def test_ctrl_c_stops_cleanly_with_a_page_open(game, tmp_path):
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "pnp", "serve", str(game), "--port", "0", "--out",
                             str(tmp_path / "out")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    try:
        first = proc.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/", first).group(0)
        client = Client(url)
        client.wait_for(lambda d: d["cards"])
        events = Events(client)            # an open page keeps an event stream open
        events.next("hello")
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
        events.close()
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert out.strip() == "Stopped." and "Traceback" not in err


@pytest.mark.parametrize("delay", [0.05, 0.15])
def test_ctrl_c_while_a_builds_process_starts_is_one_line_and_leaves_nothing(game, tmp_path, delay):
    """A terminal's Ctrl-C reaches the whole foreground process group. The build's process is in a group
    of its own: one started just before Ctrl-C printed a KeyboardInterrupt traceback of its own (at
    0.05-0.2 s after the request); now the studio alone hears it, stops the build and says one line."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "pnp", "serve", str(game), "--port", "0", "--out",
                             str(tmp_path / "out")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, start_new_session=True)             # a terminal's own process group
    try:
        client = Client(re.search(r"http://127\.0\.0\.1:\d+/", proc.stdout.readline()).group(0))
        client.wait_for(lambda d: d["cards"])
        headers = client.post_headers()
        import threading

        threading.Thread(target=lambda: client.request("POST", "/api/build?what=kit", headers=headers),
                         daemon=True).start()
        time.sleep(delay)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert (proc.returncode, out, err) == (0, "Stopped.\n", "")
    deadline = time.monotonic() + 5            # a child killed by the studio may take a moment to be reaped
    while studio_children(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert studio_children(proc.pid) == []


def _booklet(middle: str, picture_colour=(200, 30, 30)) -> bytes:
    """Three pages drawn with one font and one picture (on the last page), as a component's own PDF."""
    import io

    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(200, 200), invariant=1)
    for text in ("First page", middle, "Last page"):
        canvas.drawString(20, 100, text)
        if text == "Last page":
            canvas.drawImage(ImageReader(PILImage.new("RGB", (4, 4), picture_colour)), 20, 20, 40, 40)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_a_components_own_pdf_is_fingerprinted_page_by_page():
    """A page of a component's own PDF (the rulebook) keeps its fingerprint when another page changes,
    and the picture it keeps is the one the new PDF draws; a changed picture changes its page."""
    from pnp.draw.raster import Rasterizer
    from pnp.serve.pages import pdf_page_prints

    before, after = _booklet("Power 3"), _booklet("Power 4 and a longer line")
    prints_before, prints_after = pdf_page_prints(before), pdf_page_prints(after)
    assert before != after and len(set(prints_before)) == 3
    assert [a == b for a, b in zip(prints_before, prints_after)] == [True, False, True]
    with Rasterizer(before) as old, Rasterizer(after) as new:
        for i in (0, 2):
            assert old.render_at(i, 50).tobytes() == new.render_at(i, 50).tobytes()
        assert old.render_at(1, 50).tobytes() != new.render_at(1, 50).tobytes()
    recoloured = pdf_page_prints(_booklet("Power 3", picture_colour=(30, 30, 200)))
    assert [a == b for a, b in zip(prints_before, recoloured)] == [True, True, False]


def test_a_component_broken_by_a_reported_problem_says_so_without_a_traceback(tmp_path, capfd):
    """Behind the Throne's rulebook plays its examples with the engine, which refuses a card value the
    check already reports: the rulebook waits for that problem, and the console stays quiet."""
    game = tmp_path / "behind_the_throne"
    shutil.copytree(DATA_DIR / "behind_the_throne", game)
    cards = game / "cards.yaml"
    text = cards.read_text()
    match = re.search(r"^\s+value: (1)$", text, re.M)
    cards.write_text(text[:match.start(1)] + "0" + text[match.end(1):])
    line = text[:match.start(1)].count("\n") + 1
    with running(game, tmp_path / "out") as (srv, client):
        data = client.wait_for(lambda d: d["checked"], timeout=120)
    assert [p["text"] for p in data["problems"] if not p["warning"]] == [
        f"cards.yaml:{line}: card 'general': value: 0 is below the minimum 1"]
    rulebook = next(c for c in data["components"] if c["name"] == "rulebook")
    assert rulebook["files"] == [] and rulebook["error"] == (
        "rulebook cannot be drawn while the problems above remain (card 'general': a character needs a value).")
    assert "Traceback" not in capfd.readouterr().err


def test_an_edit_of_the_games_own_layout_redraws_its_decks_cards(game, tmp_path):
    """A layout in the game's templates/ (as a designer changes the look): the heroes' faces are drawn
    again with its paper colour, the quests (classic layout) are not."""
    layouts = game / "templates" / "layouts"
    layouts.mkdir(parents=True)
    layout = layouts / "bright.yaml"
    layout.write_text('extends: classic\npalette: {paper: "#fff8e8"}\n')
    (game / "game.yaml").write_text((game / "game.yaml").read_text().replace(
        "    cards: heroes.yaml\n", "    cards: heroes.yaml\n    layout: bright\n"))
    with running(game, tmp_path / "out") as (srv, client):
        before = client.json()
        assert before["problems"] == []
        events = Events(client)
        try:
            layout.write_text('extends: classic\npalette: {paper: "#d0f0ff"}\n')
            assert events.next("changed")["files"] == ["templates/layouts/bright.yaml"]
            events.next("update")
        finally:
            events.close()
        after = client.json()
        for cid in ("knight", "rogue", "squire"):
            assert card(after, cid)["image"] != card(before, cid)["image"]
        for cid in ("dragon", "caravan"):
            assert card(after, cid)["image"] == card(before, cid)["image"]
        status, _, body = client.get(card(after, "knight")["image"])
    import io
    middle = PILImage.open(io.BytesIO(body)).convert("RGB").getpixel((150, 380))    # paper, under the text box
    assert max(abs(a - b) for a, b in zip(middle, (0xd0, 0xf0, 0xff))) <= 2, middle


def test_a_looping_layout_does_not_hang_the_studio(game, tmp_path):
    """The preview process renders on its worker thread, where no signal reaches: the render's limits,
    read between steps, stop a looping expression there too; the page shows the problem and the studio
    goes on with the next edit."""
    yaml = game / "game.yaml"
    looping = ("    layout: {extends: classic, regions: [{name: slow, kind: text, rect: [5, 5, 20, 5], "
               "text: \"range(100000)|select('in', range(100000)|list)|list|length\"}]}\n")
    yaml.write_text(yaml.read_text().replace("    cards: heroes.yaml\n", "    cards: heroes.yaml\n" + looping, 1))
    limits = functools.partial(studio_hooks.render_limits, 0.3, 10**12)        # in the preview process
    with running(game, tmp_path / "out", preview_setup=limits) as (srv, client):
        started = time.monotonic()
        data = client.wait_for(lambda d: d["checked"], timeout=120)
        assert any("ran for more than 0.3 s" in p["text"] for p in data["problems"]), data["problems"]
        assert time.monotonic() - started < 100
        assert client.get("/")[0] == 200
        yaml.write_text(yaml.read_text().replace(looping, "", 1))
        data = client.wait_for(lambda d: d["checked"] and not d["errors"], timeout=60)
        assert {c["id"] for c in data["cards"]} >= {"knight", "rogue", "squire"}


def test_a_finished_save_is_reported_sooner_than_a_file_still_written():
    """The studio's debounce: once every edited file is finished (closed by its writer, renamed into
    place, deleted) the edits are reported after the short ``saved`` wait; a file with only "modified"
    so far holds the batch for the whole debounce."""
    from pnp.serve.watcher import Changes

    changes = Changes()
    changes.add("a.yaml", now=10.0)                                   # written, not closed yet
    assert changes.take_settled(0.2, now=10.1, saved=0.03) == set()
    assert changes.settles_in(0.2, saved=0.03, now=10.1) == pytest.approx(0.1)
    changes.add("a.yaml", now=10.1, finished=True)                    # its writer closed it
    assert changes.settles_in(0.2, saved=0.03, now=10.11) == pytest.approx(0.02)
    assert changes.take_settled(0.2, now=10.14, saved=0.03) == {"a.yaml"}
    assert changes.settles_in(0.2, saved=0.03, now=10.2) is None
    changes.add("a.yaml", now=20.0, finished=True)
    changes.add("b.yaml", now=20.0)                                   # another file of the save, still open
    assert changes.take_settled(0.2, now=20.1, saved=0.03) == set()
    assert changes.take_settled(0.2, now=20.25, saved=0.03) == {"a.yaml", "b.yaml"}
    changes.add("c.yaml", now=30.0, finished=True)                    # pnp watch: no saved wait given
    assert changes.take_settled(0.2, now=30.1) == set()


def test_the_watcher_reports_a_saved_file_without_waiting_the_whole_debounce(tmp_path):
    """A file written and closed (as an editor saves) reaches the studio in far less than the debounce
    (here 3 s, so a studio waiting for it would miss the mark); a file held open and written waits."""
    import threading

    from pnp.serve.watcher import Watcher

    reported = []
    arrived = threading.Event()

    def on_change(paths):
        reported.append((time.monotonic(), sorted(Path(p).name for p in paths)))
        arrived.set()

    watcher = Watcher([tmp_path], on_change, debounce=3.0, saved=0.03)
    watcher.start()
    try:
        started = time.monotonic()
        (tmp_path / "cards.yaml").write_text("cards: []\n")
        assert arrived.wait(10)
        assert reported[0][1] == ["cards.yaml"] and reported[0][0] - started < 1.5, reported
        arrived.clear()
        with open(tmp_path / "held.yaml", "w") as held:
            held.write("x: 1\n")
            held.flush()
            started = time.monotonic()
            assert not arrived.wait(1.5)                 # still open: the whole debounce
        assert arrived.wait(10) and reported[1][1] == ["held.yaml"]
    finally:
        watcher.stop()
