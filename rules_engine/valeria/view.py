"""Shadow Kingdoms of Valeria's table for the studio's replays (:mod:`rules_engine.core.view`)."""

from __future__ import annotations

from rules_engine.core.view import seat
from rules_engine.valeria.transcript import SHRINE_WORDS, die_id


def table_view(state) -> dict:
    r = state.rules
    seats = []
    for pl in state.players:
        figures = {"score": pl.score, "gold": pl.gold, "magic": pl.magic, "influence": pl.influence,
                   "gems": pl.gems, "dice": " ".join(die_id(d) for d in sorted(pl.dice)) or "none",
                   "plans": len(pl.completed)}
        reserved = [r.plan_id(c) for c in pl.reserved if c >= 0]
        seats.append(seat(pl.score, figures, reserved,
                          [r.champion_id(c) for c in pl.champions] + [r.plan_id(c) for c in pl.completed]))
    middle = {"battle plans": [r.plan_id(c) for c in state.line if c >= 0],
              "champions": [r.champion_id(c) for row in state.rows for c in row if c >= 0],
              "awards": [r.award_id(c) for c in state.awards if c >= 0]}
    shrines = "; ".join(f"{SHRINE_WORDS[s]}: {' '.join(die_id(d) for d in state.shrines[s]) or '-'}"
                        for s in r.clockwise)
    note = f"round {state.round}, turn {state.turns}; shrines: {shrines}; gems left {state.gem_supply}"
    if state.solo:
        note += f"; the Adversary has {state.adversary_score} VP"
    return {"seats": seats, "middle": middle, "note": note}
