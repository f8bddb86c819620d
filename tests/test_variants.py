"""Variants as data: a variant file is checked like the game's data (every problem at once, file:line,
the closest name), applied to the loaded game (cards removed, changed, added; parameters passed to the
engine), and played by ``pnp balance --variant``. Engines declare their tunable parameters in one place
(``OPTIONS`` with the rule each changes), and docs/engine.md lists them."""

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.errors import DataError
from pnp.loading.gamedata import load_game
from pnp.loading.variants import BASE, Variant, apply, load_variant
from rules_engine import engine_module

ST = load_game("shadow_throne")
ST_ENGINE = engine_module("shadow_throne")
DOCS = Path(__file__).resolve().parent.parent / "docs" / "engine.md"


def write(tmp_path, text, name="v.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def problems(tmp_path, text, game=ST, engine=ST_ENGINE):
    path = write(tmp_path, text)
    with pytest.raises(DataError) as info:
        load_variant(path, game, engine)
    return [str(p).replace(str(path), "v.yaml") for p in info.value.problems]


def test_every_problem_of_a_variant_file_with_its_line(tmp_path):
    found = problems(tmp_path, """\
name: Broken
parameters:
  gaol: 12
  start_gold: -1
cards:
  outlw: {cost: 2}
  langman: {cost: six, colour: red}
  thamna: {id: other}
  kings-guard: 7
add:
  - {id: spy, name: Spy, copies: 1, faction: empir, rank: commoner, power: 1, influence: 1}
  - {id: outlaw, name: Outlaw, copies: 1, faction: rebels, rank: commoner, power: 1, influence: 1, income: 1}
game: behind_the_throne
""")
    assert found == [
        "v.yaml:13: game: the variant is written for 'behind_the_throne', not for 'shadow_throne'",
        "v.yaml:3: parameters.gaol: unknown parameter (did you mean 'goal'?); the engine's parameters: goal, "
        "start_gold, battle_limit",
        "v.yaml:4: parameters.start_gold: -1 is below the minimum 0",
        "v.yaml:6: cards.outlw: no card has the id 'outlw' (did you mean 'outlaw'?)",
        "v.yaml:7: cards.langman.colour: unknown key (did you mean 'flavour'?); accepted keys: name, copies, "
        "flavour, ability, gender, article, faction, rank, power, influence, cost, income, consolation",
        "v.yaml:7: cards.langman.cost: expected an integer, got 'six'",
        "v.yaml:8: cards.thamna.id: a variant cannot change a card's id (remove the card and add another)",
        "v.yaml:9: cards.kings-guard: expected 'remove' or a mapping of the keys to change, got 7",
        "v.yaml:11: add[0].faction: 'empir' is not one of: empire, rebels, church; did you mean 'empire'?",
        "v.yaml:11: add[0]: give exactly one of cost, income (found neither cost nor income)",
        "v.yaml:12: add[1].id: the game already has a card 'outlaw'",
    ]


def test_a_change_that_breaks_a_rule_of_the_deck_is_reported(tmp_path):
    # Loyal Soldier earns income; giving it a cost as well breaks "exactly one of cost, income"
    assert problems(tmp_path, "cards:\n  loyal-soldier: {cost: 1}\n") == [
        "v.yaml:1: cards.loyal-soldier: give exactly one of cost, income (found both cost and income)"]


def test_an_unknown_ability_kind_is_reported_at_its_line(tmp_path):
    found = problems(tmp_path, "cards:\n  outlaw:\n    ability: {kind: kil, rank: noble, step: 1}\n")
    assert len(found) == 1 and found[0].startswith("v.yaml:3: cards.outlaw: ability.kind: unknown effect kind 'kil'")


def test_a_variant_applied_to_the_game(tmp_path):
    path = write(tmp_path, """\
name: Cheaper knights
parameters: {goal: 12}
cards:
  king-kyros: remove
  kings-guard: {cost: 1, copies: 1}
add:
  - {id: spy, name: Spy, copies: 2, faction: empire, rank: commoner, power: 1, influence: 1, income: 1}
""")
    variant = load_variant(path, ST, ST_ENGINE)
    assert variant.name == "Cheaper knights" and variant.parameters == {"goal": 12}
    assert variant.describe() == "goal=12; kings-guard copies=1, cost=1; king-kyros removed; spy added"
    varied = apply(ST, variant, ST_ENGINE)
    ids = [c.id for c in varied.cards]
    assert "king-kyros" not in ids and ids[-1] == "spy" and len(ids) == len(ST.cards)
    guard = varied.card("kings-guard")
    assert guard.stat("cost") == 1 and guard.copies == 1 and ST.card("kings-guard").copies == 2
    assert sum(c.copies for c in varied.cards) == 54 - 1 - 1 + 2
    assert [c.id for d in varied.decks for c in d.cards] == ids
    rules = ST_ENGINE.rules_for(varied)
    assert rules.ncards == 54 and "spy" in [rules.card_id(n) for n in range(rules.ncards)]
    # the content names the variant's cache, whatever its name or file
    assert Variant(name="other", **{k: getattr(variant, k) for k in ("parameters", "remove", "changes", "add")}).key() \
        == variant.key() != BASE.key()


def test_balance_plays_a_variant(tmp_path):
    path = write(tmp_path, "name: Goal 8\nparameters: {goal: 8}\ncards:\n  king-kyros: remove\n")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["balance", "shadow_throne", "--games", 40, "--variant", str(path),
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads((out / "report.json").read_text())
    assert report["options"] == {"goal": 8} and report["variant"]["remove"] == ["king-kyros"]
    assert "king-kyros" not in {c["card"] for c in report["cards"]}
    plain = json.loads(CliRunner().invoke(main, ["balance", "shadow_throne", "--games", 40, "--out",
                                                 str(tmp_path / "plain")]).exit_code == 0 and
                       (tmp_path / "plain" / "report.json").read_text())
    assert report["length"]["mean"] < plain["length"]["mean"]          # a lower goal ends games sooner


def test_balance_refuses_a_bad_variant_with_status_2(tmp_path):
    path = write(tmp_path, "cards:\n  outlw: remove\n")
    result = CliRunner().invoke(main, ["balance", "shadow_throne", "--games", 5, "--variant", str(path),
                                       "--out", str(tmp_path / "out")])
    assert result.exit_code == 2 and "cards.outlw: no card has the id 'outlw' (did you mean 'outlaw'?)" in result.output
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("name", ["shadow_throne", "behind_the_throne", "valeria", "shadow_queen"])
def test_every_parameter_is_declared_once_and_listed_in_the_docs(name):
    engine = engine_module(name)
    text = DOCS.read_text()
    table = text[text.index(f"(`{name}`):"):]
    table = table[:table.index("\n\n", table.index("| ---"))]
    listed = re.findall(r"^\| `([a-z_]+)` \| (\w+) \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$", table, re.M)
    assert [row[0] for row in listed] == list(engine.OPTIONS)
    for (key, kind, span, default, rule), spec in zip(listed, engine.OPTIONS.values()):
        assert spec.rule and spec.doc and kind == spec.type
        assert span.strip() == (" / ".join(spec.choices) if spec.choices else f"{spec.min}..{spec.max}")
        assert default.strip() == ("(data)" if spec.default is None else str(spec.default))
        assert rule.strip() == spec.rule


def test_parameters_change_the_games():
    sq = engine_module("shadow_queen")
    rules = sq.rules_for(load_game("shadow_queen"))
    held = sq.play_game(rules, ["greedy", "greedy"], 3, holdings_to_win=6)
    assert held.over_reason == "held" and held.winner == 0 and held.turn < 200
    drawn = sq.ENGINE.new_state(rules, 2, draws_per_holding=2)
    drawn.settle()
    assert drawn.draws_left == 2 * drawn.controlled(0)
    with pytest.raises(TypeError, match="unknown Shadow Queen option"):
        sq.ENGINE.new_state(rules, 2, draw_per_holding=2)
    btt = engine_module("behind_the_throne")
    state = btt.play_game(btt.rules_for(load_game("behind_the_throne")), ["cautious"] * 3, 1, max_stacks=2, check=True)
    assert state.violations == [] and max(len(s) for s in state.stacks) <= 2
