"""The engine protocol: every engine exports it, engines stand alone, and pnp never names a game."""

import subprocess
import sys
from pathlib import Path

import pytest

import rules_engine.behind_the_throne as btt
import rules_engine.shadow_throne as st
import rules_engine.valeria as valeria
from pnp import PROJECT_ROOT
from rules_engine import engine_module
from rules_engine.protocol import OPTIONAL, REQUIRED, Spec, missing_names

GAME_NAMES = ("shadow_throne", "behind_the_throne", "valeria", "shadow_kingdoms", "shadow_queen")
NOT_YET_NEUTRAL = set()   # modules under pnp/ allowed to name a game: none


@pytest.mark.parametrize("engine", [st, btt, valeria])
def test_every_engine_exports_the_protocol(engine):
    assert missing_names(engine) == []
    assert [name for name in OPTIONAL if name not in ("table_view", "token_demand", "FACTS_SCHEMA", "check_facts",
                                                      "PIECE_TRAITS", "STEPS") and not hasattr(engine, name)] == []
    assert all(isinstance(spec, Spec) for spec in engine.SCENARIO_SCHEMA.values())
    assert set(engine.DEFAULT_BOTS) <= set(engine.BOTS)
    assert isinstance(engine.FACTS, dict) and isinstance(engine.OPTIONS, dict)


def test_engine_module_finds_both_games():
    assert engine_module("behind_the_throne") is btt and engine_module("shadow_throne") is st
    assert sorted(REQUIRED) == ["ENGINE", "rules_for"] and "scenario_from_data" in OPTIONAL


@pytest.mark.parametrize("name", ["behind_the_throne", "valeria"])
def test_engines_import_without_pnp_or_reportlab(name):
    code = (f"import sys, rules_engine.{name} as e; "
            "e.Rules; e.run_scenario; e.simulate; e.transcript_lines; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('pnp', 'reportlab', 'yaml', 'click')]; "
            "print(bad); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_no_pnp_module_names_a_game():
    offenders = []
    for path in sorted((Path(PROJECT_ROOT) / "pnp").rglob("*.py")):
        rel = path.relative_to(PROJECT_ROOT).as_posix()
        if rel in NOT_YET_NEUTRAL:
            continue
        text = path.read_text()
        offenders.extend(f"{rel}: {name}" for name in GAME_NAMES if name in text)
    assert offenders == []
