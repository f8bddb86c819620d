"""The ``pnp validate`` hook: the cards fit the rules (each champion's effect fits its deck, awards have
conditions, plans have 2 to 4 troop icons), and seeded games keep every invariant."""

from __future__ import annotations

from rules_engine.core import runs
from rules_engine.valeria.effects import AWARD, CATEGORY_NAMES, EFFECTS, ability_problems

VALIDATION_GAMES = 15
VALIDATION_SEED = 2020

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


def validate_game(game, games: int = VALIDATION_GAMES, seed: int = VALIDATION_SEED) -> list:
    """Problems as ``(subject, message, warning)``: the cards (see :func:`card_problems`), then ``games``
    seeded games spread over the player counts (planner and random bots) with every invariant checked."""
    from rules_engine.valeria.rules import rules_for
    from rules_engine.valeria.simulate import run_games

    problems = card_problems(game.cards)
    if problems:
        return problems
    try:
        rules = rules_for(game)
    except (ValueError, KeyError) as exc:
        return [("rules engine", str(exc), False)]
    low, high = getattr(game, "players", (1, 5))
    counts = list(range(max(low, 1), min(high, rules.max_players()) + 1)) or [1]
    found, by_count = runs.checked_games(
        lambda players, n, s: run_games(rules, games=n, seed=s, players=players, bots=("planner", "random"),
                                        check=True),
        counts, games, seed)
    problems += found
    for players, results in by_count.items():
        endless = sum(1 for r in results if r.reason == "turn_limit")
        if endless:
            problems.append(("rules engine", f"{endless} of {len(results)} {players}-player games reached the "
                                             f"turn limit", True))
    return problems
