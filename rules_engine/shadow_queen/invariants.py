"""Invariants every Shadow Queen state keeps; checked after every action when ``check=True``.

* **pieces are conserved**: every piece is on the board or has left it once, for a reason (killed,
  drowned, eaten); a piece on the board has no fate and one that left has no space;
* **one piece a hex** outside holdings (a holding takes any number), and the occupancy table agrees
  with the pieces' places; no piece stands on a river hex without a bridge;
* **cards are conserved**: every card of both decks is in exactly one place (a deck, a hand, out of
  the game, under orders, or on a build in progress);
* orders are held only by pieces that need them, and only while not possessed; the hand of the side
  that has ended its turn holds no more than one card per holding it controls.
"""

from __future__ import annotations

from collections import Counter


def check_state(state) -> list[str]:
    """Problems with ``state`` now, as sentences (empty when all is well)."""
    r = state.rules
    problems = []
    npieces = len(r.piece_kind)
    for p in range(npieces):
        if (state.pos[p] >= 0) == (state.fate[p] is not None):
            problems.append(f"piece {p} ({r.piece_name(p)}) is both on the board and gone, or neither")
    gone = sum(1 for f in state.fate if f is not None)
    on_board = sum(1 for s in state.pos if s >= 0)
    if gone + on_board != npieces:
        problems.append(f"{on_board} pieces on the board and {gone} gone, of {npieces}")
    where = Counter(s for s in state.pos if s >= 0 and r.holding_at[s] < 0)
    crowded = [r.hex_id[s] for s, n in where.items() if n > 1]
    if crowded:
        problems.append(f"more than one piece on hex {', '.join(sorted(crowded))}")
    for s, p in enumerate(state.occ):
        if p >= 0 and state.pos[p] != s:
            problems.append(f"hex {r.hex_id[s]} is marked as holding piece {p}, which is elsewhere")
        elif p >= 0 and r.holding_at[s] >= 0:      # (moves read a marked hex as standing in the way)
            problems.append(f"hex {r.hex_id[s]} is a holding but marked as taken by piece {p}")
    for p, s in enumerate(state.pos):
        if s >= 0 and r.holding_at[s] < 0 and state.occ[s] != p:
            problems.append(f"piece {p} stands on hex {r.hex_id[s]}, which is not marked as taken")
        if s >= 0 and r.bridge_at[s] >= 0 and not state.bridge[r.bridge_at[s]]:
            problems.append(f"piece {p} stands on river hex {r.hex_id[s]} with no bridge")
    cards = state.all_cards()
    total = len(r.card_of)
    if sorted(cards) != list(range(total)):
        counts = Counter(cards)
        twice = sorted(c for c, n in counts.items() if n > 1)
        missing = sorted(set(range(total)) - set(counts))
        problems.append(f"{len(cards)} cards accounted for instead of {total}"
                        + (f"; twice: {twice}" if twice else "") + (f"; missing: {missing}" if missing else ""))
    for p, o in enumerate(state.orders):
        if o is not None and (not r.needs_orders[p] or state.possessed[p] or state.pos[p] < 0):
            problems.append(f"piece {p} ({r.piece_name(p)}) holds orders it cannot be under")
    return problems
