"""The Shadow Queen study (docs/engine.md, "The Shadow Queen study"; the rulebook's designer's note): the
draft as written stalls at the turn limit, and the suggested variant shipped with the game ends its games
by a victory with both sides winning, played by the engine with the greedy bots on the lab's seeds."""

from pnp import DATA_DIR
from pnp.loading.gamedata import load_game
from pnp.lab.sweep import Sweep
from pnp.loading.variants import BASE, load_variant
from rules_engine import engine_module
from rules_engine.core.executors import LocalExecutor
from rules_engine.core.metrics import value

SUGGESTED = DATA_DIR / "shadow_queen" / "variants" / "suggested.yaml"


def rows_of(variant, games):
    game = load_game("shadow_queen")
    engine = engine_module(game.engine)
    if variant is not BASE:
        variant = load_variant(variant, game, engine)
    sweep = Sweep(engine, game, players=2, bots=["greedy"], seed=0, executor=LocalExecutor(1), cache=None)
    return sweep.run([variant], games)[0], variant


def share(rows, metric):
    return sum(value(r["metrics"], metric) for r in rows) / len(rows)


def test_the_draft_stalls_and_the_suggested_variant_ends_with_both_sides_winning():
    base, _ = rows_of(BASE, 20)
    assert share(base, "victory") == 0 and share(base, "timeout") == 1          # every game at the limit
    rows, variant = rows_of(SUGGESTED, 200)
    assert variant.parameters == {"enthral_to_win": 7, "banish_to_win": 1, "holdings_to_win": 7,
                                  "draws_per_holding": 2, "hand_per_holding": 2, "turn_limit": 400}
    won, shadows, kingdom = share(rows, "victory"), share(rows, "win_shadows"), share(rows, "win_kingdom")
    assert won >= 0.9 and abs(won - (shadows + kingdom)) < 1e-9
    assert 0.4 <= shadows / won <= 0.6 and 0.4 <= kingdom / won <= 0.6                 # each side's victories
    assert max(value(r["metrics"], "length") for r in rows if value(r["metrics"], "victory")) < 400
