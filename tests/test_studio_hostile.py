"""The studio against unbounded work and hostile files (issue 33): a report's search-bot game is replayed
in the preview process under the preview limits, never in the studio's own; Ctrl-C stops the studio
within 5 s whatever it is doing; a `--report` file of the wrong shape is refused when the studio starts,
naming the file and the value, and a replay the engine cannot play is a 4xx answer with the reason; no
answer of the studio holds a path of the machine."""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp import DATA_DIR, PROJECT_ROOT
from pnp.commands.cli import main
from pnp.serve.supervisor import LONGER
from serve_helpers import Client, running, studio_children

ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(PROJECT_ROOT), os.environ.get("PYTHONPATH", "")]),
           PYTHONUNBUFFERED="1")


def report(path: Path, bots, seed=5, players=4, **extra) -> Path:
    """A report.json of ``pnp balance``'s shape naming one game (its seed and seats' bots)."""
    path.write_text(json.dumps({"players": players, "replay": {"games": [
        {"game": 0, "seed": seed, "bots": bots, "winners": [0]}]}, **extra}))
    return path


SEARCHING = ["search:400", "search:400", "search:400", "search:400"]


def test_a_search_bots_game_is_replayed_in_the_preview_process_under_its_limit(tmp_path):
    reported = report(tmp_path / "report.json", SEARCHING)
    with running("shadow_throne", tmp_path / "out", reports=[reported], draw=False, preview_seconds=2) as (srv, client):
        started = time.monotonic()
        status, _, body = client.get("/api/replay?game=0")
        assert time.monotonic() - started < 30
        stopped = f"the replay of seed 5 ({', '.join(SEARCHING)}) took longer than 2 s and was stopped ({LONGER})"
        assert (status, json.loads(body)) == (503, {"error": stopped})
        assert srv.studio.previews.restarts == 1
        # asked again, it is not played again until a file changes; the studio answers the rest meanwhile
        assert client.get("/api/replay?game=0")[0] == 503
        assert srv.studio.previews.restarts == 1         # not played again (it would outrun 2 s and restart)
        assert client.json("/api/replays")["games"][0]["bots"] == SEARCHING
        quick = client.json("/api/replay?seed=3&bots=greedy&count=1")
        assert quick["seed"] == "3" and quick["total"] > 1
    assert studio_children(os.getpid()) == []


def serve(*args):
    proc = subprocess.Popen([sys.executable, "-m", "pnp", "serve", *map(str, args), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV, cwd=PROJECT_ROOT)
    url = re.search(r"http://127\.0\.0\.1:\d+/", proc.stdout.readline()).group(0)
    return proc, Client(url)


def test_ctrl_c_stops_the_studio_within_5_s_while_it_replays_a_long_game(tmp_path):
    reported = report(tmp_path / "report.json", ["search:3000"] * 4)
    proc, client = serve("shadow_throne", "--report", reported, "--out", tmp_path / "out", "--preview-limit", "600")
    answers = []
    try:
        asking = threading.Thread(target=lambda: answers.append(client.get("/api/replay?game=0", timeout=120)),
                                  daemon=True)
        asking.start()
        deadline = time.monotonic() + 60
        while not [c for c in studio_children(proc.pid)] and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(2)                         # the replay is under way in the preview process
        assert not answers
        proc.send_signal(signal.SIGINT)
        started = time.monotonic()
        out, err = proc.communicate(timeout=60)
        took = time.monotonic() - started
    finally:
        if proc.poll() is None:
            proc.kill()
    assert took < 5, took
    assert (proc.returncode, out.strip(), err) == (0, "Stopped.", "")
    asking.join(10)
    assert answers and answers[0][0] == 503 and json.loads(answers[0][2]) == {"error": "the studio is stopping"}
    deadline = time.monotonic() + 5
    while studio_children(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert studio_children(proc.pid) == []


GAME = {"game": 0, "seed": 1, "bots": ["greedy"]}
HOSTILE = [
    ("a list", [GAME], "not a report of pnp balance or pnp lab"),
    ("players as text", {"players": "4"}, "players: expected a number of players, 1 to 16"),
    ("10^12 players", {"players": 10**12}, "players: expected a number of players, 1 to 16"),
    ("players true", {"players": True}, "players: expected a number of players, 1 to 16"),
    ("outliers of numbers", {"players": 4, "outliers": [1]}, "outliers[0]: expected an outlier (a mapping)"),
    ("an outlier without a name", {"players": 4, "outliers": [{"kind": "card", "links": {}}]},
     "outliers[0].name: expected a text of at most 200 characters"),
    ("a seed as text", {"players": 4, "outliers": [{"kind": "card", "name": "x", "links": {
        "best": {**GAME, "seed": "1"}}}]}, "outliers[0].links.best.seed: expected a whole number"),
    ("a huge seed", {"players": 4, "replay": {"games": [{**GAME, "seed": 2**200}]}},
     "replay.games[0].seed: expected a whole number below 2^128"),
    ("bots as text", {"players": 4, "replay": {"games": [{**GAME, "bots": "greedy"}]}},
     "replay.games[0].bots: expected a list of 1 to 16 bots' names"),
    ("no bots", {"players": 4, "replay": {"games": [{**GAME, "bots": []}]}},
     "replay.games[0].bots: expected a list of 1 to 16 bots' names"),
    ("winners of names", {"players": 4, "replay": {"games": [{**GAME, "winners": ["ana"]}]}},
     "replay.games[0].winners: expected a list of seats"),
    ("games as a mapping", {"players": 4, "replay": {"games": {"0": GAME}}}, "replay.games: expected a list of games"),
    ("a list of rows", {"players": 4, "variants": [["x"]]}, "variants[0]: expected a variant (a mapping)"),
    ("a variant file as a number", {"players": 4, "variants": [{"name": "v", "file": 7, "games": {}}]},
     "variants[0].file: expected a variant file's name (.yaml)"),
    ("a variant that is another file", {"players": 4, "variants": [{"name": "v", "file": "/etc/passwd", "games": {}}]},
     "variants[0].file: expected a variant file's name (.yaml), of at most 1,024 characters"),
    ("options of lists", {"players": 4, "options": {"goal": [1]}},
     "options: expected a mapping of game options' names to plain values"),
    ("nested 100,000 deep", "[" * 100_000 + "]" * 100_000, "cannot read it: nested too deep"),
    ("a number of 5,000 digits", '{"players": ' + "9" * 5000 + "}", "cannot read it: "),
]


@pytest.mark.parametrize("name, content, message", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_hostile_report_is_refused_when_the_studio_starts_naming_the_file(tmp_path, name, content, message):
    bad = tmp_path / "report.json"
    bad.write_text(content if isinstance(content, str) else json.dumps(content))
    started = time.monotonic()
    result = CliRunner().invoke(main, ["serve", "shadow_throne", "--report", str(bad), "--port", "0"])
    assert time.monotonic() - started < 10
    assert result.exit_code == 2, result.output
    (line,) = result.output.splitlines()
    assert line.startswith(f"error: --report {bad}: {message}"), line


def test_a_report_that_is_no_regular_file_is_refused_without_waiting(tmp_path):
    fifo = tmp_path / "report.json"
    os.mkfifo(fifo)
    result = CliRunner().invoke(main, ["serve", "shadow_throne", "--report", str(fifo), "--port", "0"])
    assert (result.exit_code, result.output) == (
        2, f"error: --report {fifo}: is a FIFO, not a regular file; pnp reads only regular files\n")


@pytest.mark.parametrize("values, status, message", [
    ({"players": 9}, 400, "--players: "),
    ({"players": 4, "bots": ["no-such-bot"]}, 400, "--bots: "),
    ({"players": 4, "options": {"nonsense": 3}}, 400, "nonsense"),
])
def test_a_reported_game_the_engine_cannot_play_is_a_4xx_answer_with_the_reason(tmp_path, values, status, message):
    game = {**GAME, "bots": values.get("bots", ["greedy"])}
    path = tmp_path / "report.json"
    path.write_text(json.dumps({"players": values["players"], "options": values.get("options", {}),
                                "replay": {"games": [game]}}))
    with running("shadow_throne", tmp_path / "out", reports=[path], draw=False) as (_, client):
        got, headers, body = client.get("/api/replay?game=0")
        assert got == status and headers["content-type"] == "application/json", body[:300]
        assert message in json.loads(body)["error"]
        assert client.get("/api/replay?seed=3&bots=greedy&count=1")[0] == 200      # and it goes on
        assert client.get("/api/replay?game=-1")[0] == 400


# ---------------------------------------------------------------- no path of the machine in any answer

def machine_paths(*folders) -> list[str]:
    """The absolute paths an answer must not hold: the folders the test made, the project, the home folder,
    the working folder (each as written and resolved)."""
    found = set()
    for folder in (*folders, PROJECT_ROOT, Path.home(), Path.cwd()):
        found |= {str(folder), str(Path(folder).resolve())}
    return sorted(p for p in found if len(p) > 1)


def no_paths(body: bytes, paths) -> None:
    text = body.decode("utf-8", "replace").replace("\\/", "/")
    for path in paths:
        assert path not in text, (path, text[:500])


def test_no_answer_of_the_studio_holds_a_path_of_the_machine(tmp_path):
    secret = tmp_path / "secret-place-4711"
    game = secret / "kingdom"
    shutil.copytree(DATA_DIR / "shadow_throne", game)
    lab = tmp_path / "elsewhere-0815"
    lab.mkdir()
    variant = lab / "goal-10.yaml"
    variant.write_text("name: Goal 10\nparameters: {goal: 10}\n")
    broken = lab / "broken.yaml"
    broken.write_text("name: Broken\nparameters: {goal: -3}\ncards: {nobody: {cost: 1}}\n")
    path = lab / "report.json"
    path.write_text(json.dumps({"players": 4, "base": {"file": "base"}, "variants": [
        {"name": "Goal 10", "file": str(variant), "games": {"typical": {**GAME, "bots": ["greedy"] * 4}}},
        {"name": "Broken", "file": str(broken), "games": {"typical": {**GAME, "bots": ["greedy"] * 4}}},
        {"name": "Gone", "file": str(lab / "gone.yaml"), "games": {"typical": {**GAME, "bots": ["greedy"] * 4}}}]}))
    paths = machine_paths(secret, lab, tmp_path)
    with running(game, tmp_path / "out", reports=[path], draw=False) as (_, client):
        answers = [client.get(p) for p in (
            "/", "/replay", "/api/replays", "/api/replay?game=0&count=2", "/api/replay?game=2", "/api/replay?game=4",
            "/api/replay?game=9", "/api/replay?seed=x", "/api/replay?seed=1&bots=search:5", "/game/game.yaml",
            "/game/../../etc/passwd", "/img/0000.png", "/download/kit.pdf", "/nothing")]
        listed = json.loads(answers[2][2])["games"]
        assert [g["variant"] for g in listed] == ["goal-10.yaml", None, "broken.yaml", None, "gone.yaml", None]
        assert answers[3][0] == 200 and [a[0] for a in answers[4:6]] == [400, 400]
        for status, _, body in answers:
            no_paths(body, paths)
    # the page's own data, its problems (with files outside the folder among them) and its builds
    (game / "game.yaml").write_text((game / "game.yaml").read_text().replace("engine: shadow_throne",
                                                                          "engine: shadow_thorne"))
    with running(game, tmp_path / "out", draw=True) as (_, client):
        data = client.wait_for(lambda d: d["checked"])
        assert data["problems"] and data["errors"]
        headers = client.post_headers()
        answers = [client.get("/api/game"), client.get("/api/cards/no-such-card.png"),
                   client.request("POST", "/api/engine", headers=headers),
                   client.request("POST", "/api/build?what=kit", headers=headers)]
        assert [a[0] for a in answers] == [200, 404, 409, 409]
        for status, _, body in answers:
            no_paths(body, paths)
