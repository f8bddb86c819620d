"""The ``pnp validate`` hook: the cards fit the rules (each champion's effect fits its deck, awards have
conditions, plans have 2 to 4 troop icons), and seeded games keep every invariant."""

from __future__ import annotations

from rules_engine.valeria.effects import AWARD, CATEGORY_NAMES, EFFECTS, ability_problems

#: Troop icons a Battle Plan may need (the source: 2, 3 or 4).
PLAN_ICONS = (2, 3, 4)


def card_problems(cards) -> list:
    """``(subject, message, warning)`` for cards that do not fit the rules, whatever the games say."""
    out = []
    for card in cards:
        subject = f"card '{card.id}'"
        kind = EFFECTS.get(card.ability.kind) if card.ability else None
        if card.ability is not None and kind is None:
            out.append((subject, f"the engine has no handler for effect kind '{card.ability.kind}'", False))
            continue
        if card.deck == "champions":
            if kind is None:
                out.append((subject, "a champion needs an ability", False))
            elif kind.category != card.value("type"):
                # the wording decides the deck: a one-time effect is Instant, a lasting one Ongoing,
                # victory points at the end End-game (see the note in champions.yaml)
                out.append((subject, f"its effect '{kind.name}' is {CATEGORY_NAMES[kind.category]} "
                                     f"(it acts {_when(kind.category)}) but the card is in the "
                                     f"{CATEGORY_NAMES.get(card.value('type'), card.value('type'))} deck", False))
        elif card.deck == "awards":
            if kind is None or kind.category != AWARD:
                out.append((subject, "an award needs a condition (ability kind 'have' or 'pattern')", False))
        elif card.deck == "battle_plans":
            if kind is not None:
                out.append((subject, "a Battle Plan has no ability", False))
            icons = len(card.value("troops", ()))
            if icons not in PLAN_ICONS:
                out.append((subject, f"troops: a plan needs 2, 3 or 4 troop icons, not {icons}", False))
        if kind is not None:
            out.extend((subject, message, False) for message in ability_problems(card))
    return out


def _when(category: str) -> str:
    return {"instant": "once, when the card is taken", "ongoing": "again and again, while the card is held",
            "endgame": "at the end of the game", "award": "when an award is claimed"}[category]


def validate_game(game, games: int | None = None, seed: int | None = None) -> list:
    """Problems as ``(subject, message, warning)`` (see the module docstring)."""
    return card_problems(game.cards)
