"""The engine contract (docs/engine.md, "The engine contract"): its table is rules_engine.core.contract's,
pnp supplies what an engine leaves out, and the conformance kit (``pnp check-engine``) passes the four
bundled engines, High Card and Kindling (an outside engine written from the docs alone, installed with
pip) and names what a broken engine breaks. pnp validate holds an engine's card-field ranges and
max_players() to the data and places its problems at their lines."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import rules_engine
from pnp import PROJECT_ROOT
from pnp.commands.cli import main
from pnp.lab.conformance import check
from rules_engine.core.contract import DEFAULTS, HOOKS, Problem
from rules_engine.protocol import OPTIONAL, REQUIRED

HERE = Path(__file__).resolve().parent
KINDLING = HERE / "engines" / "kindling"
KINDLING_GAME = HERE / "engines" / "kindling_game"
HIGH_CARD = HERE / "engines" / "high_card"
HIGH_CARD_GAME = HERE / "engines" / "high_card_game"
DOC = PROJECT_ROOT / "docs" / "engine.md"


def test_the_docs_table_is_the_contracts():
    section = DOC.read_text().split("### Every name", 1)[1].split("\n### ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    assert rows == [f"| `{h.name}` | `{h.signature}` | {h.returns} | {h.when} | "
                    f"{'required' if h.required else h.default} |" for h in HOOKS.values()]
    assert sorted(REQUIRED) == sorted(h.name for h in HOOKS.values() if h.required)
    assert sorted(OPTIONAL) == sorted(h.name for h in HOOKS.values() if not h.required)
    assert set(DEFAULTS) <= set(OPTIONAL)


@pytest.fixture
def installed(monkeypatch):
    """``install(name, folder)``: the outside engine module ``name`` (from ``folder``) installed in this
    process under its name."""
    real = rules_engine.installed_engines()
    added = {}

    def install(name, folder):
        monkeypatch.syspath_prepend(str(folder))
        added[name] = name
        monkeypatch.setattr(rules_engine, "installed_engines", lambda: {**real, **added})
        import importlib

        return importlib.import_module(name)
    yield install
    for name in added:
        sys.modules.pop(name, None)


@pytest.mark.parametrize("name", ["shadow_throne", "behind_the_throne",
                                  pytest.param("valeria", marks=pytest.mark.slow),         # 7 s
                                  pytest.param("shadow_queen", marks=pytest.mark.slow)])   # 10 s
def test_the_bundled_engines_pass_the_conformance_kit(name):
    report = check(name, games=1)
    assert report.failures == [], "\n".join(report.lines())
    assert report.lines()[-1] == "Every check passed."
    for looked in ("contract", "play", "bound", "hidden", "determinism", "events", "languages", "scenarios",
                   "views", "data"):
        assert report.looked.get(looked), looked


def test_high_card_passes_the_conformance_kit(installed):
    installed("high_card", HIGH_CARD)
    report = check("high_card", HIGH_CARD_GAME)
    assert report.failures == [] and report.players == [2, 3, 4]
    assert "  scenarios: nothing to check" in report.lines()


# ---------------------------------------------------------------- Kindling, installed with pip

@pytest.fixture(scope="module")
def kindling_site(tmp_path_factory) -> dict:
    """tests/engines/kindling built and installed with pip into a folder of its own; the environment that
    puts it on Python's path."""
    work = tmp_path_factory.mktemp("kindling")
    shutil.copytree(KINDLING, work / "kindling")
    site = work / "site"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                           "--no-index", "--target", str(site), str(work / "kindling")], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    paths = [str(PROJECT_ROOT), str(site)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return dict(os.environ, PYTHONPATH=os.pathsep.join(paths), PNP_GAME="")


def pnp(env, cwd, *args):
    return subprocess.run([sys.executable, "-m", "pnp", *map(str, args)], capture_output=True, text=True, env=env,
                          timeout=300, cwd=cwd)


def test_kindling_written_from_the_contract_passes_the_kit(kindling_site, tmp_path):
    done = pnp(kindling_site, tmp_path, "check-engine", "kindling", "--game", KINDLING_GAME)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == (f"Rules engine 'kindling' on Kindling ({KINDLING_GAME}): 2 seeded random games per player "
                        f"count (2, 3, 4)")
    assert [line.split(":")[0].strip() for line in lines[1:-1]] == [
        "contract", "play", "bound", "hidden", "determinism", "events", "languages", "scenarios", "views", "data"]
    assert lines[-1] == "Every check passed." and "  views: nothing to check" in lines


def test_kindling_plays_with_pnps_defaults(kindling_site, tmp_path):
    # no simulate, report, transcript or replay hooks: pnp's own, the transcript from the game's templates
    done = pnp(kindling_site, tmp_path, "simulate", KINDLING_GAME, "--games", "200", "--players", "3", "--check")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Kindling: 200 games, 3 players, seed 0, bots greedy, random"
    assert re.fullmatch(r"Wins by seat: seat 1 [\d.]+% \[[\d.]+, [\d.]+\], seat 2 .*, seat 3 .*", lines[1])
    assert lines[3] == "Game length (turns): mean 14, median 14, min 14, max 14; games with a winner: 200"
    assert lines[-1] == "Invariants: none broken"
    done = pnp(kindling_site, tmp_path, "simulate", KINDLING_GAME, "--games", "1", "--players", "2", "--transcript")
    lines = done.stdout.splitlines()
    assert lines[0] == "Kindling, seed 0. Seats: Ana (greedy bot), Ben (random bot)."
    assert all(re.fullmatch(r"(Ana|Ben) lays \w+ on the fire: \d+ heat\.|The fire flares: (Ana|Ben) banks \d+ "
                            r"and has \d+\.", line) for line in lines[1:-1])
    assert lines[-1] in ("Ana wins.", "Ben wins.", "Ana and Ben share the win.")
    done = pnp(kindling_site, tmp_path, "scenario", KINDLING_GAME / "scenarios" / "flare.yaml")
    assert done.stdout.splitlines() == ["A flare", "The fire holds 4 heat.", "Ana lays Twig on the fire: 5 heat.",
                                        "Ben lays Coal on the fire: 10 heat.", "Ana lays Log on the fire: 17 heat.",
                                        "The fire flares: Ana banks 17 and has 17."]


# ---------------------------------------------------------------- what the kit finds in a broken engine

@pytest.fixture
def kindling(installed, tmp_path):
    """Kindling installed in this process, and a copy of its game to break."""
    module = installed("kindling", KINDLING)
    game = tmp_path / "game"
    shutil.copytree(KINDLING_GAME, game)
    return module, game


def failures(game, **kwargs):
    return check("kindling", game, games=1, **kwargs).failures


def test_a_leaking_information_state_is_found(kindling, monkeypatch):
    module, game = kindling
    monkeypatch.setattr(module.GameState, "information_state", lambda self, seat: (seat, repr(self.hands)))
    assert ("hidden", "2 players, seed 0: a determinization for seat 1 changes what the seat knows "
                      "(information_state): the seat's view holds something it cannot see, or determinize changes "
                      "what it saw") in failures(game)


def test_a_bot_that_peeks_is_found(kindling, monkeypatch):
    module, game = kindling

    def peeking(self, state, seat, rng):         # plays the card the next seat holds most of, if it has one
        other = state.hands[(seat + 1) % state.n]
        mine = state.legal_actions(seat)
        return next((c for c in mine if state.rules.ids[c] in {state.rules.ids[o] for o in other}), mine[0])
    monkeypatch.setattr(module.GreedyBot, "act", peeking)
    found = [m for c, m in failures(game) if c == "hidden"]
    assert found and all(re.fullmatch(r"\d players, seed 0: bot 'greedy' chooses otherwise on a determinization "
                                      r"for seat \d \(\d+, then \d+\): it reads what the seat cannot see", m)
                         for m in found if not m.startswith("..."))


def test_an_illegal_random_action_and_a_game_past_its_bound_are_found(kindling, monkeypatch):
    module, game = kindling
    monkeypatch.setattr(module.GameState, "random_action", lambda self, seat, rng: -1)
    object.__setattr__(module.ENGINE, "max_decisions", lambda rules, players, options: 5)     # a frozen Engine
    try:
        found = failures(game)
    finally:
        object.__setattr__(module.ENGINE, "max_decisions", module.max_decisions)
    assert ("play", "2 players, seed 0: random_action chose -1 for seat 1, which is not among its legal actions") \
        in found
    assert ("bound", "2 players, seed 0: the game did not end within 5 decisions (the engine's max_decisions, else "
                     "pnp's limit)") in found


def test_a_game_that_depends_on_more_than_its_seed_is_found(kindling, monkeypatch):
    module, game = kindling
    import itertools

    counter = itertools.count()
    monkeypatch.setattr(module.GreedyBot, "act", lambda self, state, seat, rng: state.legal_actions(seat)[
        next(counter) % len(state.legal_actions(seat))])
    found = [m for c, m in failures(game) if c == "determinism"]
    assert not any(m.startswith("2 players, seed 0: the same seed") for m in found)     # random bots: fine
    monkeypatch.setattr(module.GameState, "sample_chance",
                        lambda self, rng: self.apply_chance(self.pile[next(counter) % len(self.pile)]), raising=False)
    found = [m for c, m in failures(game) if c == "determinism"]
    assert ("2 players, seed 0: the same seed played two different games (the second with the rules pickled, as a "
            "worker process gets them)") in found


def test_an_event_without_a_macro_and_a_wider_field_are_found(kindling):
    module, game = kindling
    template = game / "templates" / "events" / "en.j2"
    template.write_text(template.read_text().replace("{%- macro bank(", "{%- macro banked("))
    (game / "game.yaml").write_text((game / "game.yaml").read_text().replace("min: 1, max: 9", "min: 0, max: 9"))
    found = failures(game)
    assert ("languages", f"en: {template}: events: no macro for the engine's event 'bank' (add one, or list it in "
                         f"quiet)") in found
    assert ("data", "deck 'cards' declares heat 0..9, wider than the engine reads it (1..9)") in found


# ---------------------------------------------------------------- validate: ranges, max_players, problem lines

def validate(game):
    return CliRunner().invoke(main, ["validate", str(game)])


def test_a_card_value_outside_the_engines_range_is_an_error_at_its_line(kindling):
    _, game = kindling
    (game / "game.yaml").write_text((game / "game.yaml").read_text().replace("min: 1, max: 9", "min: 1, max: 20"))
    cards = game / "cards.csv"
    cards.write_text(cards.read_text().replace("log,Log,2,7", "log,Log,2,12"))
    result = validate(game)
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        f"{cards}:6:4: card 'log': heat: 12 is outside what the rules engine 'kindling' plays (1..9)",
        "1 problem found; nothing was written."]


def test_a_table_larger_than_max_players_is_an_error_at_players(kindling):
    _, game = kindling
    cards = game / "cards.csv"
    cards.write_text("id,name,copies,heat\ntwig,Twig,4,1\nspark,Spark,3,2\nember,Ember,2,3\n")
    result = validate(game)
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        f"{game / 'game.yaml'}:2: players: up to 4, but the rules engine 'kindling' seats at most 3 with these "
        f"cards (its max_players()); lower max or add cards",
        "1 problem found; nothing was written."]


def test_the_engines_problems_are_placed_at_what_they_name(kindling, monkeypatch):
    module, game = kindling
    monkeypatch.setattr(module, "validate_game", lambda g: [
        Problem("too hot", card="log", field="heat"), Problem("too few", deck="cards"),
        Problem("too many", key="players", warning=True), Problem("plainly wrong"),
        ("card 'coal'", "too dark", False), ("rules engine", "an invariant broke", False)])
    result = validate(game)
    yaml, cards = game / "game.yaml", game / "cards.csv"
    # (the layout's warning of a face left empty and the icon-key warning for the test game's field icon
    # are pnp's, not the engine's)
    assert [line for line in result.output.splitlines()
            if "of the face empty" not in line and "has no key anywhere in the kit" not in line] == [
        f"{yaml}:2: warning: players: too many",
        f"{cards}:6:4: card 'log': heat: too hot",
        f"{yaml}:5: deck 'cards': too few",
        f"{yaml}:3: engine 'kindling': plainly wrong",
        f"{cards}:5:1: card 'coal': too dark",
        f"{yaml}:3: engine 'kindling': rules engine: an invariant broke",
        "5 problems found; nothing was written."]


def test_an_outside_engine_hook_that_raises_is_one_line_naming_it(kindling, monkeypatch):
    module, game = kindling
    monkeypatch.setattr(module, "rules_for", lambda g: 1 / 0)
    from rules_engine.core.contract import _api_of

    _api_of.cache_clear()
    result = validate(game)
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        "error: the rules engine 'kindling' raised ZeroDivisionError: division by zero (at "
        "test_engine_contract.py:" + str(_line("lambda g: 1 / 0")) + ") in rules_for"]


def _line(text):
    return next(i for i, line in enumerate(Path(__file__).read_text().splitlines(), 1) if text in line
                and "_line(" not in line)


def test_an_is_legal_that_differs_from_the_legal_actions_is_found(kindling, monkeypatch):
    module, game = kindling
    monkeypatch.setattr(module.GameState, "is_legal", lambda self, seat, action: True, raising=False)
    found = [m for c, m in failures(game) if c == "play"]
    assert any(re.fullmatch(r"2 players, seed 0: is_legal says yes to .+ for seat \d, which is not among its legal "
                            r"actions", m) for m in found), found
    monkeypatch.setattr(module.GameState, "is_legal", lambda self, seat, action: False, raising=False)
    found = [m for c, m in failures(game) if c == "play"]
    assert any(re.fullmatch(r"2 players, seed 0: is_legal says no to .+ for seat \d, one of its legal actions", m)
               for m in found), found
