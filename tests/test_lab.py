"""``pnp lab``: variants compared on common random numbers with paired intervals (narrower than unpaired
ones on the same games), an ablation that finds the cards behind a faction's strength, tuning towards a
target band, the skill ladder, and sweeps that resume from their cache and give the same bytes on any
executor."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.loading.gamedata import load_game
from pnp.lab.sweep import Sweep
from pnp.loading.variants import BASE, load_variant
from rules_engine import engine_module
from rules_engine.core.executors import LocalExecutor


def lab(*args):
    return CliRunner().invoke(main, ["lab", *map(str, args)])


def variant(tmp_path, name, text):
    path = tmp_path / f"{name}.yaml"
    path.write_text(text)
    return path


def report(folder):
    return json.loads((Path(folder) / "report.json").read_text())


def test_removing_a_strong_card_moves_its_faction_share_down(tmp_path):
    """King's Guard is one of the Empire's strongest cards: without it the Empire wins clearly fewer
    battles, and the paired interval says so; every paired interval is narrower than the unpaired one
    of the same games."""
    no_guard = variant(tmp_path, "no-guard", "name: No King's Guard\ncards:\n  kings-guard: remove\n")
    goal = variant(tmp_path, "goal-12", "name: Goal 12\nparameters: {goal: 12}\n")
    result = lab("shadow_throne", "compare", "base", no_guard, goal, "--games", 200, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    r = report(tmp_path / "out")
    assert r["kind"] == "compare" and r["games"] == 200 and [v["name"] for v in r["variants"]] == ["No King's Guard",
                                                                                                   "Goal 12"]
    empire = r["variants"][0]["effects"]["share_empire"]["paired"]
    assert empire["ci_high"] < 0 and empire["clear"] and empire["holm_p"] < 0.05
    assert r["variants"][0]["verdicts"][0].startswith("Empire battle share -")
    assert r["variants"][0]["verdicts"][0].endswith(": clearly lower")
    assert "No King's Guard (kings-guard removed):\n  Empire battle share -" in result.output
    shorter = r["variants"][1]["effects"]["length"]["paired"]
    assert shorter["ci_high"] < 0                                  # a lower goal: shorter games
    # the goal change leaves the first battles of every game alike, so the paired intervals are narrower
    # than the unpaired ones of the same games (a card removed re-deals every shuffle: about equal there)
    width = lambda e: e["ci_high"] - e["ci_low"]                              # noqa: E731
    effects = r["variants"][1]["effects"]
    for m in ["share_empire", "share_rebels", "share_church", "length", "lead_changes", "comeback", "win_seat_1",
              "win_seat_2", "win_seat_3", "win_seat_4"]:
        assert width(effects[m]["paired"]) < 0.9 * width(effects[m]["unpaired"]), m
    assert width(shorter) < 0.7 * width(effects["length"]["unpaired"])
    # a typical and an extreme game, each with the command that replays it
    games = r["variants"][0]["games"]
    assert set(games) == {"typical", "extreme"}
    assert games["extreme"]["replay"].startswith(f"pnp replay shadow_throne --seed {games['extreme']['seed']} "
                                                 f"--players 4 --bots random,random,random,random --variant ")
    page = (tmp_path / "out" / "report.html").read_text()
    assert page.count("data:image/png;base64,") == len(r["shown"]) and "No King&#x27;s Guard" in page


def test_an_ablation_is_one_sweep_sorted_and_corrected(tmp_path):
    out = tmp_path / "out"
    result = lab("behind_the_throne", "ablate", "--change", "value=+1", "--games", 40, "--players", 3,
                 "--bots", "cautious", "--metric", "top_score", "--metric", "length", "--out", out)
    assert result.exit_code == 0, result.output
    r = report(out)
    assert r["kind"] == "ablate" and r["shown"] == ["top_score", "length"] and r["comparisons"] == 16
    assert r["skipped"] == ["king", "end-of-game"]        # values stop at 9; the End of Game card has none
    diffs = [row["effects"]["top_score"]["paired"]["diff"] for row in r["rows"]]
    assert diffs == sorted(diffs, reverse=True) and len(diffs) == 8
    for row in r["rows"]:
        p = row["effects"]["top_score"]["paired"]
        assert p["holm_p"] >= p["p"] and row["changes"].endswith("value=" + str(
            load_game("behind_the_throne").card(row["card"]).stat("value") + 1))
        made = load_variant(row["file"], load_game("behind_the_throne"), engine_module("behind_the_throne"))
        assert made.changes == {row["card"]: {"value": load_game("behind_the_throne").card(row["card"]).stat("value") + 1}}
        assert row["games"]["typical"]["replay"].endswith(f"--variant {row['file']}")
    assert "Not changed (no such value, or it would leave its range): king, end-of-game" in result.output
    assert (out / "report.html").read_text().count("data:image/png;base64,") == 2


def test_tuning_finds_the_goal_for_a_game_length(tmp_path):
    result = lab("shadow_throne", "tune", "--param", "goal=5..30", "--target", "length=3..3.5", "--games", 60,
                 "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    r = report(tmp_path / "out")
    tried = [p["values"]["goal"] for p in r["points"]]
    assert tried[:1] == [5] and 30 in tried and len(tried) > 5           # the grid, then refinements
    meeting = [p for p in r["points"] if p["meets"] != "no"]
    assert meeting and all(3 <= p["means"]["length"]["mean"] <= 3.5 for p in meeting)
    assert all(8 <= p["values"]["goal"] <= 11 for p in meeting)
    assert "Meets the target" in result.output and "goal=" in result.output
    none = lab("shadow_throne", "tune", "--param", "goal=20..25", "--target", "length=2..3", "--games", 30, "--out",
               tmp_path / "none")
    assert none.exit_code == 0 and "No value tried meets the target; the closest: goal=20" in none.output


def test_the_skill_ladder(tmp_path):
    result = lab("shadow_throne", "ladder", "--rungs", "random,greedy", "--games", 30, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    r = report(tmp_path / "out")
    pair = r["pairs"][0]
    assert (pair["stronger"], pair["weaker"]) == ("greedy", "random") and pair["luck"] > 0.45
    assert pair["stronger_wins"]["ci_low"] > pair["luck"] and pair["stronger_rate"]["mean"] > 0.4
    assert "greedy against random: its seats win" in result.output and "skill shows" in result.output
    assert "seconds" not in (tmp_path / "out" / "report.json").read_text()        # timings only on the terminal


class Interrupted(LocalExecutor):
    """Stops the sweep (as Ctrl-C would) after ``after`` batches."""

    def __init__(self, after):
        super().__init__(1)
        self.after = after

    def run(self, engine_name, rules, batches, job, progress=None, batch_function=None, done=None):
        def stop(i, part):
            done(i, part)
            if i + 1 == self.after:
                raise KeyboardInterrupt
        return super().run(engine_name, rules, batches, job, progress, batch_function, stop)


def test_an_interrupted_sweep_resumes_and_a_longer_one_plays_only_new_games(tmp_path):
    game, engine = load_game("shadow_throne"), engine_module("shadow_throne")
    cache = tmp_path / "out" / "cache"
    goal = variant(tmp_path, "goal", "parameters: {goal: 10}\n")
    arms_of = lambda s: [s.arm(BASE), s.arm(load_variant(goal, game, engine))]     # noqa: E731
    sweep = Sweep(engine, game, players=4, bots=["random"], seed=4, executor=Interrupted(3), cache=cache)
    with pytest.raises(KeyboardInterrupt):
        sweep.run_arms(arms_of(sweep), 120)
    assert len(list(cache.rglob("*.json"))) == 3
    args = ["shadow_throne", "compare", "base", goal, "--games", 120, "--seed", 4]
    resumed = lab(*args, "--out", tmp_path / "out")
    fresh = lab(*args, "--out", tmp_path / "fresh", "--no-cache")
    assert resumed.exit_code == fresh.exit_code == 0
    for name in ("report.json", "report.html"):
        assert (tmp_path / "out" / name).read_bytes() == (tmp_path / "fresh" / name).read_bytes()
    assert not (tmp_path / "fresh" / "cache").exists()
    again = Sweep(engine, game, players=4, bots=["random"], seed=4, executor=LocalExecutor(1), cache=cache)
    rows = again.run_arms(arms_of(again), 170)
    assert again.played == 2 * 50 and [r["game"] for r in rows[0]] == list(range(170))
    assert again.todo(arms_of(again), 170) == []


def test_jobs_and_dask_give_the_same_bytes(tmp_path):
    pytest.importorskip("dask.distributed")
    fewer = variant(tmp_path, "fewer", "cards:\n  general: {copies: 3}\n")
    args = ["behind_the_throne", "compare", "base", fewer, "--games", 60, "--no-cache"]
    outs = []
    for name, extra in (("one", ()), ("jobs", ("--jobs", 2)), ("dask", ("--executor", "dask", "--workers", 2))):
        result = lab(*args, *extra, "--out", tmp_path / name)
        assert result.exit_code == 0, result.output
        outs.append((tmp_path / name / "report.json").read_bytes() + (tmp_path / name / "report.html").read_bytes())
    assert outs[0] == outs[1] == outs[2]


@pytest.mark.parametrize("args, message", [
    (("compare", "base", "base", "--metric", "lenght"), "--metric: no metric 'lenght' (did you mean 'length'?)"),
    (("compare", "base"), "compare: give a base and at least one variant"),
    (("ablate", "--change", "cost+1"), "--change: expected remove, copies=-1 or FIELD=+N (e.g. cost=+1), got 'cost+1'"),
    (("ablate", "--change", "colour=+1"), "--change: no card field 'colour'; numeric fields: consolation, cost, "
                                          "income, influence, power"),
    (("tune", "--param", "gaol=1..5", "--target", "length=3..4"), "--param: Shadow Throne has no parameter 'gaol' "
                                                                  "(did you mean 'goal'?)"),
    (("tune", "--param", "goal=0..5", "--target", "length=3..4"), "--param.goal: 0 is below the minimum 1"),
    (("tune", "--param", "goal=5..6", "--target", "lenght=3..4", "--games", 2), "--target: no metric 'lenght'"),
    (("ladder", "--rungs", "random,clever"), "unknown bot 'clever'"),
])
def test_bad_questions_are_refused_with_status_2(tmp_path, args, message):
    result = lab("shadow_throne", *args, "--out", tmp_path / "out")
    assert result.exit_code == 2 and message in result.output, result.output


def test_a_reported_game_replays_move_for_move(tmp_path):
    """The games a report links replay from their seed: the same winner and length as the report says."""
    no_guard = variant(tmp_path, "no-guard", "cards:\n  kings-guard: remove\n")
    assert lab("shadow_throne", "compare", "base", no_guard, "--games", 30, "--bots", "random,greedy", "--out",
               tmp_path / "out").exit_code == 0
    linked = report(tmp_path / "out")["variants"][0]["games"]["extreme"]
    args = linked["replay"].split()[1:]
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    events = json.loads(result.output)["events"]
    assert [s["bot"] for s in json.loads(result.output)["seats"]] == linked["bots"]
    over = [e for e in events if e["type"] == "game_over"]
    assert len(over) == 1 and over[0]["battle"] >= 3
    text = CliRunner().invoke(main, args)
    assert text.exit_code == 0 and text.output.startswith(f"Shadow Throne, game seed {linked['seed']}. Seats: Ana (")
    assert "King's Guard" not in text.output                         # removed by the variant
    # a game of a balance report: the same winner and length
    out = tmp_path / "balance"
    assert CliRunner().invoke(main, ["balance", "behind_the_throne", "--games", 12, "--bots", "random,cautious",
                                     "--out", str(out)]).exit_code == 0
    game = report(out)["replay"]["games"][7]
    played = CliRunner().invoke(main, ["replay", "behind_the_throne", "--seed", str(game["seed"]), "--bots",
                                       ",".join(game["bots"]), "--json"])
    events = json.loads(played.output)["events"]
    winners = [e for e in events if e["type"] == "winner"][0]["players"]
    assert [w + 1 for w in winners] == game["winners"]
    assert max(e["turn"] for e in events) == game["length"]
