"""The variants pnp lab makes pass the checks of a variant file (issue 36): on Kindling (an outside engine)
with a deck that exactly fits four players, an ablation that leaves too few cards or a value outside the
engine's declared range, and tuning values the engine's new_state refuses, are reported and skipped, never
played (it was an internal error, exit 70, or a game outside the engine's range); every variant refused is
exit 2 with one line. A variant file is held to the same checks at the player count of pnp lab, replay and
balance."""

import json
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import rules_engine
from pnp.commands.cli import main

HERE = Path(__file__).resolve().parent
KINDLING = HERE / "engines" / "kindling"
#: 12 cards: Kindling deals 3 to each player, so the deck seats exactly 4 (its max_players()).
CARDS = "id,name,copies,heat\ntwig,Twig,3,1\nspark,Spark,3,2\nember,Ember,3,3\ncoal,Coal,2,5\nblaze,Blaze,1,9\n"


@pytest.fixture
def game(tmp_path, monkeypatch):
    """Kindling installed in this process, and its game with the 12-card deck (the deck's heat allowed up
    to 20, wider than the engine's 1..9) in the test's folder."""
    monkeypatch.syspath_prepend(str(KINDLING))
    real = rules_engine.installed_engines()
    monkeypatch.setattr(rules_engine, "installed_engines", lambda: {**real, "kindling": "kindling"})
    folder = tmp_path / "game"
    shutil.copytree(HERE / "engines" / "kindling_game", folder)
    (folder / "cards.csv").write_text(CARDS)
    yaml = folder / "game.yaml"
    yaml.write_text(yaml.read_text().replace("min: 1, max: 9", "min: 1, max: 20"))
    monkeypatch.chdir(tmp_path)
    yield "game"
    sys.modules.pop("kindling", None)


def lab(*args):
    return CliRunner().invoke(main, ["lab", "game", *args, "--games", "2", "--no-cache", "--out", "out"])


def test_an_ablation_at_four_players_skips_the_variants_the_engine_refuses(game):
    result = lab("ablate", "--players", "4", "--change", "heat=+1")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("Kindling: 4 cards, heat=+1 each, 2 games per variant on the same seeds")
    assert sorted(line.split(":")[0].strip() for line in lines[1:5]) == ["Coal", "Ember", "Spark", "Twig"]
    assert lines[5:] == [
        "Refused by the rules engine, not played: blaze heat+1: card 'blaze': heat: 10 is outside what the rules "
        "engine 'kindling' plays (1..9)",
        "Wrote out/report.json and out/report.html"]
    report = json.loads(Path("out/report.json").read_text())
    assert [r["card"] for r in report["refused"]] == ["blaze"] and len(report["rows"]) == 4
    assert "Refused by the rules engine, not played:" in Path("out/report.html").read_text()


def test_removing_a_card_from_a_deck_that_exactly_fits_is_refused_not_a_crash(game):
    result = lab("ablate", "--players", "4", "--change", "remove")
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        "error: --change remove: the rules engine refuses every variant at 4 players (5), e.g. twig removed: the "
        "rules engine 'kindling' seats at most 3 with the varied cards (its max_players()), not 4"]
    assert not Path("out/report.json").exists()
    result = lab("ablate", "--players", "3", "--change", "remove")          # 9 or more cards seat three
    assert result.exit_code == 0 and "Refused" not in result.output


def test_tuning_values_the_engine_refuses_are_reported_and_skipped(game, monkeypatch):
    import kindling

    made = kindling.GameState.__init__

    def refusing(self, rules, players, *, flare=kindling.FLARE, **kwargs):
        if flare > 30:
            raise ValueError(f"a flare of {flare} never comes with these cards")
        made(self, rules, players, flare=flare, **kwargs)
    monkeypatch.setattr(kindling.GameState, "__init__", refusing)
    result = lab("tune", "--players", "3", "--param", "flare=5..40", "--target", "length=10..14", "--rounds", "0")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-3:] == [
        "Refused by the rules engine, not played: flare=31: the rules engine 'kindling' refuses the varied game at 3 "
        "players: a flare of 31 never comes with these cards",
        "Refused by the rules engine, not played: flare=40: the rules engine 'kindling' refuses the varied game at 3 "
        "players: a flare of 40 never comes with these cards",
        "Wrote out/report.json and out/report.html"]
    report = json.loads(Path("out/report.json").read_text())
    assert [p["values"]["flare"] for p in report["points"]] == [5, 14, 22]
    assert [r["values"]["flare"] for r in report["refused"]] == [31, 40]
    result = lab("tune", "--players", "3", "--param", "flare=31..40", "--target", "length=10..14")
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        "error: --param: the rules engine refuses every value tried at 3 players, e.g. flare=31: the rules engine "
        "'kindling' refuses the varied game at 3 players: a flare of 31 never comes with these cards"]


def test_a_variant_file_is_held_to_the_same_checks_at_the_labs_player_count(game):
    Path("hot.yaml").write_text("name: Hot blaze\ncards:\n  blaze: {heat: 12}\n")
    Path("less.yaml").write_text("name: No coal\ncards:\n  coal: remove\n")
    result = lab("compare", "base", "hot.yaml", "--players", "3")
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        "hot.yaml:2: card 'blaze': heat: 12 is outside what the rules engine 'kindling' plays (1..9)",
        "1 problem found; nothing was written."]
    result = lab("compare", "base", "less.yaml", "--players", "4")
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        "less.yaml:2: the rules engine 'kindling' seats at most 3 with the varied cards (its max_players()), not 4",
        "1 problem found; nothing was written."]
    assert lab("compare", "base", "less.yaml", "--players", "3").exit_code == 0


@pytest.mark.parametrize("command", [["replay", "game", "--seed", "1"],
                                     ["balance", "game", "--games", "2", "--out", "balance"]])
def test_replay_and_balance_hold_a_variant_file_to_their_player_count(game, command):
    Path("less.yaml").write_text("name: No coal\ncards:\n  coal: remove\n")
    result = CliRunner().invoke(main, [*command, "--variant", "less.yaml", "--players", "4"])
    assert result.exit_code == 2                  # it was an internal error (Kindling's new_state refused it)
    assert result.output.splitlines() == [
        "less.yaml:2: the rules engine 'kindling' seats at most 3 with the varied cards (its max_players()), not 4",
        "1 problem found; nothing was written."]
    assert not Path("balance").exists()
    assert CliRunner().invoke(main, [*command, "--variant", "less.yaml", "--players", "3"]).exit_code == 0
