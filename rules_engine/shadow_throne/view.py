"""Shadow Throne's table for the studio's replays (:mod:`rules_engine.core.view`)."""

from __future__ import annotations

from rules_engine.core.view import card, seat


def table_view(state) -> dict:
    r = state.rules
    cid = r.card_id
    seats = []
    for p in range(state.n):
        own = [c for c in state.chars if c.owner == p]
        seats.append(seat(state.influence[p], {"influence": state.influence[p], "gold": state.gold[p]},
                          [cid(c) for c in sorted(state.hands[p]) + sorted(state.pools[p])],
                          [cid(c.card) for c in own]))
    middle = {}
    for wave in range(0, 5):
        here = [c for c in state.chars if c.wave == wave]
        if here:
            label = "carried over" if wave == 0 else f"wave {wave}"
            middle[label] = [card(cid(c.card), "dead") if c.dead else cid(c.card) for c in here]
    power = ", ".join(f"{f} {v}" for f, v in zip(r.factions, state.power))
    return {"seats": seats, "middle": middle,
            "note": f"battle {state.battle}, wave {state.wave}, {state.phase}; power: {power}"}
