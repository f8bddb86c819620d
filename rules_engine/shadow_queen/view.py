"""Shadow Queen's table for the studio's replays (:mod:`rules_engine.core.view`): the map's pieces,
holdings, bridges, paths and altars by hex id, and each side's hand."""

from __future__ import annotations

from rules_engine.core.view import seat


def table_view(state) -> dict:
    r = state.rules
    progress = state.progress()
    seats = [{**seat(progress[s], {"holdings": state.controlled(s), "pieces": len(state.pieces_of(s)),
                                   "deck": len(state.deck[s]), "used": len(state.used[s])},
                     [r.card_id(c) for c in sorted(state.hand[s])]), "name": r.side_names[s]} for s in (0, 1)]
    pieces = [{"kind": r.kinds[r.piece_kind[p]].id, "side": r.sides[r.piece_side[p]], "at": r.hex_id[s],
               "possessed": bool(state.possessed[p])} for p, s in enumerate(state.pos) if s >= 0]
    holdings = [{"id": r.holding_ids[h], "at": r.hex_id[r.holding_space[h]], "side": r.sides[state.control[h]],
                 "altar": bool(state.altar[h])} for h in range(len(r.holdings))]
    items = [{"kind": "path", "at": r.hex_id[s]} for s, built in enumerate(state.path) if built]
    items += [{"kind": "bridge", "at": state._site_name(b)} for b, built in enumerate(state.bridge) if built]
    side = r.side_names[state.active]
    return {"seats": seats, "middle": {}, "board": {"pieces": pieces, "holdings": holdings, "items": items},
            "note": f"turn {state.turn}: {side}, {state.phase}"}
