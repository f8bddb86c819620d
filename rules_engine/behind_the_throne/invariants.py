"""Invariants every Behind the Throne state keeps; checked after every action when ``check=True``.

* every card of the game's deck (82 cards, or the smaller deck of a 2- or 3-player game) is in exactly
  one place: the deck, the discard pile, the row or a stack;
* the deck's per-character counts (what bots may know of it) match the deck;
* no stack is empty, mixes characters, or holds more than five cards;
* nobody holds more than five stacks, except players still to choose which to discard;
* the row holds at most five cards, and the End of Game card is never in a stack.
"""

from __future__ import annotations

from rules_engine.behind_the_throne.rules import MAX_STACKS, ROW_LIMIT, STACK_LIMIT


def check_state(state) -> list[str]:
    """Problems with ``state`` now, as sentences (empty when all is well)."""
    problems = []
    rules = state.rules
    cards = state.all_cards()
    if sorted(cards) != list(state.cards):
        seen, doubled = set(), set()
        for c in cards:
            (doubled if c in seen else seen).add(c)
        missing = set(state.cards) - seen
        strangers = seen - set(state.cards)
        problems.append(f"{len(cards)} cards accounted for instead of {len(state.cards)}"
                        + (f"; twice: {sorted(doubled)}" if doubled else "")
                        + (f"; missing: {sorted(missing)}" if missing else "")
                        + (f"; not in this game: {sorted(strangers)}" if strangers else ""))
    counts = [0] * len(rules.cards)
    for c in state.deck:
        counts[rules.kind_of[c]] += 1
    if counts != state.deck_count:
        problems.append("the deck's card counts are out of step with the deck")
    choosing = {p for p, _ in state.placements} if state.phase == "discard" else set()
    for p, stacks in enumerate(state.stacks):
        if len(stacks) > state.max_stacks and p not in choosing:
            problems.append(f"seat {p} holds {len(stacks)} stacks")
        for kind, stack in stacks.items():
            if not stack or len(stack) > STACK_LIMIT:
                problems.append(f"seat {p}'s {rules.kind_id(kind)} stack holds {len(stack)} cards")
            if any(rules.kind_of[c] != kind for c in stack):
                problems.append(f"seat {p}'s {rules.kind_id(kind)} stack mixes characters")
            if kind == rules.end_kind:
                problems.append(f"seat {p} has the End of Game card in a stack")
    if len(state.row) > ROW_LIMIT:
        problems.append(f"the row holds {len(state.row)} cards")
    return problems
