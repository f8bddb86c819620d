"""Behind the Throne's table for the studio's replays (:mod:`rules_engine.core.view`)."""

from __future__ import annotations

from rules_engine.core.view import seat


def table_view(state) -> dict:
    r = state.rules
    seats = []
    for p in range(state.n):
        stacks = sorted(state.stacks[p].items())
        seats.append(seat(state.score(p), {"score": state.score(p), "stacks": len(stacks)}, (),
                          [r.kind_id(k) for k, cards in stacks for _ in cards]))
    return {"seats": seats, "middle": {"row": [r.card_id(c) for c in state.row]},
            "note": f"turn {state.turn}; {len(state.deck)} cards in the deck, {len(state.discard)} discarded"}
