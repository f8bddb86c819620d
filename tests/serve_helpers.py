"""Helpers for the studio's tests: a small two-deck game, a studio server on a free port in a thread,
plain HTTP requests (raw paths, so no client tidies a ``..`` away) and a reader of server-sent events."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

from pnp.serve.app import StudioServer, bind
from pnp.serve.studio import Options, Studio

GAME = """\
title: Studio Test
players: {min: 2, max: 4}
factions:
  - {id: sun, name: Sun, colour: "#c08a1e", emblem: crown}
  - {id: moon, name: Moon, colour: "#2d4f7c", emblem: star}
decks:
  - id: heroes
    name: Heroes
    cards: heroes.yaml
    fields:
      might: {type: int, required: true, min: 0, max: 9, icon: heater}
  - id: quests
    name: Quests
    cards: quests.csv
    size: {width: 70, height: 120}
    fields:
      reward: {type: int, min: 0, max: 20, icon: coin, format: "{value} gold"}
components:
  - cards
  - {kind: track, id: score, from: 0, to: 20, start_area: false}
"""

HEROES = """\
cards:
  - id: knight
    name: Knight
    copies: 3
    faction: sun
    might: 4
  - id: rogue
    name: Rogue
    copies: 2
    faction: moon
    might: 2
  - id: squire
    name: Squire
    copies: 1
    faction: sun
    might: 1
"""

QUESTS = """\
id,name,copies,faction,reward,flavour
dragon,Slay the Dragon,1,sun,12,Bring a bucket.
caravan,Guard the Caravan,2,moon,3,Mind the mules.
"""


SPANISH = """\
title: Prueba del estudio
factions:
  sun: {name: Sol, adjective: solar}
  moon: {name: Luna, adjective: lunar}
decks:
  heroes: {name: Héroes}
  quests: {name: Misiones, formats: {reward: "{value} de oro"}}
components:
  score: {title: Puntos}
cards:
  knight: {name: Caballero}
  rogue: {name: Pícaro}
  squire: {name: Escudero}
  dragon: {name: Matar al dragón, flavour: Trae un cubo.}
  caravan: {name: Guardar la caravana, flavour: Cuidado con las mulas.}
"""


def write_game(root):
    root.mkdir(parents=True, exist_ok=True)
    (root / "game.yaml").write_text(GAME)
    (root / "heroes.yaml").write_text(HEROES)
    (root / "quests.csv").write_text(QUESTS)
    (root / "i18n").mkdir(exist_ok=True)
    (root / "i18n" / "es.yaml").write_text(SPANISH, encoding="utf-8")
    return root


def studio_children(studio_pid: int) -> list[int]:
    """Processes a studio (pid) started for its builds and previews that still run (they carry the
    studio's pid on their command line), also once reparented."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if any(b"from pnp.serve.child import main" in a for a in args) and str(studio_pid).encode() in args:
            found.append(int(entry.name))
    return found


class Client:
    """Requests to one server, sending paths exactly as given."""

    def __init__(self, url: str):
        parts = urlsplit(url)
        self.host, self.port = parts.hostname, parts.port

    def request(self, method: str, path: str, headers=None, timeout: float = 60):
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            conn.request(method, path, headers=headers or {})
            response = conn.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            conn.close()

    def get(self, path: str, **kw):
        return self.request("GET", path, **kw)

    def post_headers(self) -> dict:
        """The headers a POST from the studio's page sends: the session's token, read from the page."""
        status, _, body = self.get("/")
        assert status == 200
        token = body.split(b'<meta name="pnp-token" content="', 1)[1].split(b'"', 1)[0].decode()
        return {"X-Pnp-Token": token}

    def json(self, path: str = "/api/game", method: str = "GET", headers=None):
        status, _, body = self.request(method, path, headers=headers)
        assert status == 200, (status, body[:300])
        return json.loads(body)

    def wait_for(self, predicate, path: str = "/api/game", timeout: float = 60):
        """/api/game (or ``path``) once ``predicate(data)`` holds (AssertionError after ``timeout``)."""
        deadline = time.monotonic() + timeout
        data = None
        while time.monotonic() < deadline:
            data = self.json(path)
            if predicate(data):
                return data
            time.sleep(0.1)
        raise AssertionError(f"timed out; last answer: {json.dumps(data)[:500]}")


class Events:
    """A reader of /api/events: ``next(kind)`` waits for the next event of that kind. It returns once
    the stream is open (its "hello" received, and kept for ``next``): every event from then on reaches
    it (the studio reports a saved file within tens of milliseconds)."""

    def __init__(self, client: Client):
        self.sock = socket.create_connection((client.host, client.port), timeout=30)
        self.sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        self.buffer = b""
        while b"event: hello" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                break
            self.buffer += chunk

    def next(self, kind: str, timeout: float = 60) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            while b"\n\n" in self.buffer:
                block, self.buffer = self.buffer.split(b"\n\n", 1)
                lines = block.decode().splitlines()
                event = next((line[7:] for line in lines if line.startswith("event: ")), None)
                data = next((line[6:] for line in lines if line.startswith("data: ")), None)
                if event == kind:
                    return json.loads(data)
            self.sock.settimeout(max(0.1, deadline - time.monotonic()))
            chunk = self.sock.recv(65536)
            if not chunk:
                break
            self.buffer += chunk
        raise AssertionError(f"no {kind!r} event")

    def close(self):
        self.sock.close()


@contextmanager
def running(game_dir, out_dir, options: Options = Options(), reports=(), draw=True, debounce: float = 0.1,
            **studio_options):
    """A studio of ``game_dir`` served on a free port of 127.0.0.1 in a thread; yields (server, client).
    ``reports``: the reports its replay page serves; ``draw`` False: the studio does not draw the kit;
    ``debounce``: its watcher's (seconds)."""
    studio = Studio(game_dir, options, out_dir, **studio_options)
    sock = bind("127.0.0.1", 0)
    server = StudioServer(studio, sock, "127.0.0.1", reports)
    if draw:
        studio.start(debounce=debounce)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield server, Client(server.url)
    finally:
        server.stop()
        thread.join(15)
        studio.close()
        sock.close()
