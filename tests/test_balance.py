"""``pnp balance``: report.json's keys and figures, the HTML page, outliers, reproducibility for any --jobs,
and the Dask executor (a local cluster of two workers gives byte-identical reports; a worker that dies
has its batch retried and nothing is counted twice)."""

import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import rules_engine.behind_the_throne as btt
import rules_engine.shadow_throne as st
from pnp.commands.cli import main
from pnp.loading.gamedata import load_game
from rules_engine.core.balance import balance_report, outliers
from rules_engine.core.executors import DaskExecutor, LocalExecutor, play_batch_by_name
from rules_engine.core.runs import run_games
from rules_engine.core.stats import wilson

ST_RULES = st.rules_for(load_game("shadow_throne"))


def run(*args):
    return CliRunner().invoke(main, ["balance", *map(str, args)])


def test_wilson_interval():
    assert wilson(50, 100) == (0.4038, 0.5962)
    assert wilson(0, 20) == (0.0, 0.1611) and wilson(20, 20) == (0.8389, 1.0)
    assert wilson(0, 0) == (0.0, 0.0)


def test_report_json_keys_figures_and_outliers(tmp_path):
    result = run("shadow_throne", "--games", 120, "--seed", 3, "--bots", "random,greedy", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "report.json").read_text())
    assert {"games", "seed", "seats", "cards", "length", "bots_ladder", "sides", "components", "endings",
            "outliers"} <= set(report)
    assert report["games"] == 120 and report["seed"] == 3 and report["players"] == 4
    assert [s["seat"] for s in report["seats"]] == [1, 2, 3, 4]
    for s in report["seats"]:
        assert s["games"] == 120 and s["ci_low"] <= s["win_rate"] <= s["ci_high"]
    # a seat's wins, summed, are the games with a winner
    assert abs(sum(s["wins"] for s in report["seats"]) - (120 - report["endings"].get("tie", 0))) < 1e-6
    card = report["cards"][0]
    assert set(card) >= {"card", "games", "win_rate", "ci_low", "ci_high"}
    assert (card["ci_low"], card["ci_high"]) == wilson(card["wins"], card["games"])
    assert {c["card"] for c in report["cards"]} <= {c.id for c in load_game("shadow_throne").cards}
    assert sum(report["length"]["distribution"].values()) == 120 and report["length"]["unit"] == "battles"
    assert [b["bot"] for b in report["bots_ladder"]] == ["random", "greedy"]     # weakest first
    assert [s["side"] for s in report["sides"]] == ["empire", "rebels", "church"]
    assert "peak gold (99th percentile)" in report["components"]
    # the terminal names the outliers, as report.json lists them
    named = [o["name"] for o in report["outliers"] if o["kind"] == "card"]
    assert named and f"card {named[0]}" in result.output
    html = (tmp_path / "report.html").read_text()
    assert html.count("data:image/png;base64,") == 10 and "<script" not in html and "http" not in html
    assert "Empire" in html and "King Kyros" in html
    # experience metrics: means with intervals and distributions over the 120 games
    xp = report["experience"]
    assert xp["progress"] == "influence" and xp["games"] == 120
    for m in xp["metrics"].values():
        assert m["ci_low"] <= m["mean"] <= m["ci_high"] and sum(m["distribution"].values()) == 120
    assert xp["metrics"]["timeout"]["mean"] == 0 and xp["metrics"]["stalls"]["mean"] == 0   # influence every battle
    assert len(xp["decisions_by_seat"]) == 4 and sum(e["games"] for e in xp["endings"].values()) == 120
    assert "Experience (by influence): lead changes" in result.output
    # every game has a seed; an outlier links a typical and an extreme game
    games = report["replay"]["games"]
    assert [g["game"] for g in games] == list(range(120)) and len({g["seed"] for g in games}) == 120
    linked = report["outliers"][0]["links"]
    assert set(linked) == {"typical", "extreme"} and linked["extreme"] in games


def test_behind_the_throne_report(tmp_path):
    result = run("behind_the_throne", "--games", 60, "--players", 3, "--bots", "random,cautious", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["players"] == 3 and report["card_usage"] == "owned" and report["sides"] == []
    assert report["length"]["unit"] == "turns" and report["endings"] == {"end_card": 60}
    html = (tmp_path / "report.html").read_text()
    assert html.count("data:image/png;base64,") == 9                      # no sides chart


def test_outliers_are_intervals_that_exclude_the_average():
    report = {"average": 0.25,
              "seats": [{"seat": 1, "win_rate": 0.4, "ci_low": 0.3, "ci_high": 0.5, "games": 100},
                        {"seat": 2, "win_rate": 0.2, "ci_low": 0.1, "ci_high": 0.3, "games": 100}],
              "cards": [{"card": "a", "win_rate": 0.1, "ci_low": 0.05, "ci_high": 0.2, "games": 80}]}
    assert [(o["kind"], o["name"]) for o in outliers(report)] == [("seat", "seat 1"), ("card", "a")]


def test_same_seed_same_bytes_for_any_jobs(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    assert run("shadow_throne", "--games", 260, "--seed", 5, "--out", one).exit_code == 0
    assert run("shadow_throne", "--games", 260, "--seed", 5, "--jobs", 2, "--out", two).exit_code == 0
    assert (one / "report.json").read_bytes() == (two / "report.json").read_bytes()
    assert (one / "report.html").read_bytes() == (two / "report.html").read_bytes()


@pytest.mark.parametrize("args, message", [
    (("--players", 9), "--players: 9 is not between 3 and 5"),
    (("--players", "3..4"), "a balance report is for one player count"),
    (("--bots", "random,wise"), "unknown bot 'wise'"),
    (("--executor", "local", "--scheduler", "tcp://127.0.0.1:1"), "--scheduler names a Dask scheduler"),
])
def test_bad_options(args, message, tmp_path):
    result = run("shadow_throne", "--games", 5, "--out", tmp_path, *args)
    assert result.exit_code == 2 and message in result.output
    assert not (tmp_path / "report.json").exists()


# ------------------------------------------------------------------ Dask

@pytest.mark.slow
def test_a_local_dask_cluster_gives_the_same_report_as_jobs_2(tmp_path):
    local, dask = tmp_path / "local", tmp_path / "dask"
    common = ("shadow_throne", "--games", 600, "--seed", 9, "--bots", "random,greedy")
    assert run(*common, "--jobs", 2, "--out", local).exit_code == 0
    result = run(*common, "--executor", "dask", "--workers", 2, "--out", dask)
    assert result.exit_code == 0, result.output
    assert (local / "report.json").read_bytes() == (dask / "report.json").read_bytes()


def _dies_once(engine_name, rules, batch, job, marker=None):
    """A batch that kills its worker process the first time batch 1 runs (as a machine that dies)."""
    if batch.start == 250 and not os.path.exists(marker):
        Path(marker).write_text("died")
        os._exit(1)
    return play_batch_by_name(engine_name, rules, batch, job)


@pytest.mark.slow
def test_a_dead_workers_batch_is_retried_and_counted_once(tmp_path):
    import functools

    marker = tmp_path / "died"
    batches = [range(0, 250), range(250, 500), range(500, 600)]
    job = (4, 3, ("random",), False, {"goal": 15})
    expected = LocalExecutor(1).run("shadow_throne", ST_RULES, batches, job)
    got = DaskExecutor(workers=2).run("shadow_throne", ST_RULES, batches, job,
                                      batch_function=functools.partial(_dies_once, marker=str(marker)))
    assert marker.read_text() == "died"                      # a worker did die in the middle of the run
    assert got == expected and sum(map(len, got)) == 600


def test_run_games_through_an_executor_matches_the_engine():
    results = run_games(btt.ENGINE, btt.rules_for(load_game("behind_the_throne")), games=40, seed=2, players=3,
                        bots=("random",), executor=LocalExecutor(1))
    assert results == btt.run_games(btt.rules_for(load_game("behind_the_throne")), games=40, seed=2, players=3)
    report = balance_report(btt.ENGINE, results, game="behind_the_throne", seed=2, players=3, bots=("random",))
    assert report["games"] == 40 and re.fullmatch(r"\d+\.\d+", str(report["length"]["mean"]))
