"""The studio's replays (``pnp serve --report``, page ``/replay``): the games a balance or lab report names,
played again step by step; the steps' sentences are exactly ``pnp replay``'s transcript of the same seed,
seats and variant, and the table after the last step is the final state's (scores, hands, the board's
pieces, drawn with the kit's own standee pictures)."""

import base64
import io
import json
from contextlib import contextmanager

import pytest
from click.testing import CliRunner
from PIL import Image

from pnp.commands.cli import main
from pnp.commands.replay import replayed
from pnp.lab.table import SEAT_NAMES
from pnp.loading.gamedata import load_game
from serve_helpers import running


@contextmanager
def studio_of(game, tmp_path, reports=()):
    """A studio server of a bundled game, not drawing its kit (the replay page needs none of it)."""
    with running(game, tmp_path / "out", reports=reports, draw=False) as (_, client):
        yield client


def all_steps(client, query):
    """Every step of a replay, fetched a page at a time as the page does; and the first page's data."""
    first = client.json(f"/api/replay?{query}")
    steps = list(first["steps"])
    while len(steps) < first["total"]:
        steps += client.json(f"/api/replay?{query}&from={len(steps)}")["steps"]
    return first, steps


def transcript(game_id, seed, players, bots, variant=None):
    game, engine, seats, state = replayed(game_id, seed, str(players), ",".join(bots), variant, ())
    return engine.transcript_lines(state.events, game.cards, game.factions, list(SEAT_NAMES[:len(seats)])), state


def test_a_balance_reports_games_replay_as_pnp_replay_plays_them(tmp_path):
    out = tmp_path / "balance"
    result = CliRunner().invoke(main, ["balance", "shadow_throne", "--games", "12", "--bots", "random,greedy",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads((out / "report.json").read_text())
    with studio_of("shadow_throne", tmp_path, [out / "report.json"]) as client:
        status, headers, page = client.get("/replay")
        assert status == 200 and b'<script src="/static/replay.js"' in page
        assert "script-src 'self'" in headers["content-security-policy"]
        listed = client.json("/api/replays")["games"]
        games = report["replay"]["games"]
        # the outliers' linked games first, then every game of the report with its seed and seats
        assert [(g["seed"], g["bots"]) for g in listed[-len(games):]] == [(str(g["seed"]), g["bots"]) for g in games]
        assert all(g["report"] == "report.json" and g["players"] == 4 for g in listed)
        k = len(listed) - len(games) + 7                          # game 7 of the report
        first, steps = all_steps(client, f"game={k}")
        lines, state = transcript("shadow_throne", games[7]["seed"], 4, games[7]["bots"])
        assert [line for s in steps for line in s["lines"]] == lines
        # the game's seed as the page shows it (a string of all its 64 bits) replays the same game
        assert listed[k]["seed"] == str(games[7]["seed"])
        by_seed = all_steps(client, f"seed={listed[k]['seed']}&players=4&bots={','.join(listed[k]['bots'])}")[1]
        assert by_seed == steps
        assert first["total"] == len(steps) and first["over"] and first["map"] is None
        assert [s["bot"] for s in first["seats"]] == games[7]["bots"]
        last = steps[-1]["view"]
        assert [s["score"] for s in last["seats"]] == list(state.influence)
        assert [s["figures"]["gold"] for s in last["seats"]] == list(state.gold)
        assert max(s["score"] for s in last["seats"]) >= 15                  # the goal ended it
        assert first["cards"]["king-kyros"] == "King Kyros"
        # a page of steps from the middle, without the game's fixed data again
        middle = client.json(f"/api/replay?game={k}&from=10&count=5")
        assert middle["from"] == 10 and middle["steps"] == steps[10:15] and "map" not in middle
        # the winners the list names are the replayed game's
        assert listed[k]["label"].startswith(f"game 7 (winner: seat {games[7]['winners'][0]}")


def test_a_lab_rows_games_replay_with_its_variant(tmp_path):
    variant = tmp_path / "goal-10.yaml"
    variant.write_text("name: Goal 10\nparameters: {goal: 10}\ncards:\n  king-kyros: {cost: 7}\n")
    out = tmp_path / "lab"
    result = CliRunner().invoke(main, ["lab", "shadow_throne", "compare", "base", str(variant), "--games", "8",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    row = json.loads((out / "report.json").read_text())["variants"][0]
    with studio_of("shadow_throne", tmp_path, [out / "report.json"]) as client:
        listed = client.json("/api/replays")["games"]
        labels = [g["label"] for g in listed]
        typical = row["games"]["typical"]
        k = labels.index(f"Goal 10: typical game {typical['game']}")
        assert listed[k]["variant"] == "goal-10.yaml" and listed[k]["seed"] == str(typical["seed"])   # by name only
        _, steps = all_steps(client, f"game={k}")
        lines, state = transcript("shadow_throne", typical["seed"], 4, typical["bots"], str(variant))
        assert [line for s in steps for line in s["lines"]] == lines
        assert [s["score"] for s in steps[-1]["view"]["seats"]] == list(state.influence)
        # the same seed in the base plays the base's game
        base = labels.index(f"Goal 10: game {typical['game']} in the base")
        _, base_steps = all_steps(client, f"game={base}")
        base_lines, _ = transcript("shadow_throne", typical["seed"], 4, typical["bots"])
        assert [line for s in base_steps for line in s["lines"]] == base_lines != lines


def test_a_64_bit_seed_travels_as_a_string_and_the_link_replays_the_same_game(tmp_path):
    # a report's seeds are 64-bit numbers (derive_seed); a browser's numbers keep 53 bits: a seed sent as a
    # number came back rounded (...667000 for ...666038) and its link replayed another game
    seed = 18_342_017_295_113_666_038
    assert int(float(seed)) != seed
    lines, _ = transcript("behind_the_throne", seed, 2, ["random", "random"])
    with studio_of("behind_the_throne", tmp_path) as client:
        first, steps = all_steps(client, f"seed={seed}&players=2&bots=random,random")      # the page's link
        assert first["seed"] == str(seed)
        assert [line for s in steps for line in s["lines"]] == lines
        _, rounded = all_steps(client, f"seed={int(float(seed))}&players=2&bots=random,random")
        assert [line for s in rounded for line in s["lines"]] != lines          # the game the rounding played
    assert json.loads(json.dumps(first))["seed"] == str(seed)


def test_shadow_queen_replay_shows_the_board_with_the_kits_pieces(tmp_path):
    game = load_game("shadow_queen")
    with studio_of("shadow_queen", tmp_path) as client:
        assert client.json("/api/replays")["games"] == []
        first, steps = all_steps(client, "seed=11&bots=greedy")
        lines, state = transcript("shadow_queen", 11, 2, ["greedy"])
        assert [line for s in steps for line in s["lines"]] == lines
        board = first["map"]
        assert len(board["hexes"]) == len(game.map.hexes) and board["sides"]["shadows"]["name"] == "Shadows"
        # every piece kind drawn as the kit's standee front: a PNG of 16 mm at 150 dpi
        assert sorted(first["pieces"]) == sorted(k.id for k in game.pieces)
        picture = Image.open(io.BytesIO(base64.b64decode(first["pieces"]["shadow"].split(",", 1)[1])))
        assert picture.size == (94, 94)
        start = steps[0]["view"]["board"]
        assert len(start["pieces"]) == sum(k.count for k in game.pieces)
        assert {p["at"] for p in start["pieces"] if p["kind"] == "shadow"} == {
            game.map.hex(at).id for at in game.map.start_of("shadow")}
        end = steps[-1]["view"]
        r = state.rules
        assert sorted((p["kind"], p["at"]) for p in end["board"]["pieces"]) == sorted(
            (r.kinds[r.piece_kind[p]].id, r.hex_id[s]) for p, s in enumerate(state.pos) if s >= 0)
        assert [h["side"] for h in end["board"]["holdings"]] == [r.sides[c] for c in state.control]
        assert [len(s["hand"]) for s in end["seats"]] == [len(state.hand[0]), len(state.hand[1])]


def test_replay_requests_that_cannot_be_answered(tmp_path):
    with studio_of("shadow_throne", tmp_path) as client:
        for query, message in [("game=3", "game: no such reported game"),
                               ("seed=x", "seed and players: whole numbers"),
                               ("seed=1&bots=search:25", "bots: a game with a search bot is replayed from a report"),
                               ("seed=1&bots=nobody", "--bots: "),
                               ("seed=1&players=9", "--players: "),
                               ("seed=1&count=500", "count: 1 to 200")]:
            status, _, body = client.get(f"/api/replay?{query}")
            assert status == 400 and message in json.loads(body)["error"], (query, body)


def test_serve_refuses_a_file_that_is_no_report(tmp_path):
    bad = tmp_path / "notes.json"
    bad.write_text("[1, 2]")
    result = CliRunner().invoke(main, ["serve", "shadow_throne", "--report", str(bad), "--port", "0"])
    assert result.exit_code == 2
    assert result.output.strip().endswith(f"--report {bad}: not a report of pnp balance or pnp lab")


@pytest.mark.parametrize("name", ["replay.js"])
def test_the_replay_page_puts_data_in_as_text(name):
    from importlib import resources

    script = resources.files("pnp.serve").joinpath("static", name).read_text()
    assert "innerHTML" not in script and "insertAdjacentHTML" not in script and "eval(" not in script
