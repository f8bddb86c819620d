"""Invariants every Shadow Throne state must keep; checked at each step when ``check=True``.

* every physical card is in exactly one place (deck, pools, hands, battle, face down, carried over,
  discard);
* no player's gold is negative;
* no player's influence ever goes down;
* every card played was in its owner's hand (checked where the card leaves the hand, see
  ``GameState.apply_play``, which records a violation before refusing the action).
"""

from __future__ import annotations


def check_state(state) -> list[str]:
    """Problems with ``state`` now, as sentences (empty when all is well)."""
    problems = []
    cards = state.all_cards()
    if len(cards) != state.rules.ncards or set(cards) != set(range(state.rules.ncards)):
        seen, doubled = set(), set()
        for c in cards:
            (doubled if c in seen else seen).add(c)
        missing = set(range(state.rules.ncards)) - seen
        problems.append(f"{len(cards)} cards accounted for instead of {state.rules.ncards}"
                        + (f"; twice: {sorted(doubled)}" if doubled else "")
                        + (f"; missing: {sorted(missing)}" if missing else ""))
    for p, gold in enumerate(state.gold):
        if gold < 0:
            problems.append(f"seat {p} has {gold} gold")
    seen = state._influence_seen
    for p, influence in enumerate(state.influence):
        if influence < seen[p]:
            problems.append(f"seat {p}'s influence went down from {seen[p]} to {influence}")
        seen[p] = influence
    return problems
