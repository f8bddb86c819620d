"""The ``pnp validate`` hook: can the engine play these cards, and do seeded games keep every invariant?"""

from __future__ import annotations

from rules_engine.core import runs
from rules_engine.shadow_throne.effects import EFFECTS, HANDLERS
from rules_engine.shadow_throne.rules import Rules
from rules_engine.shadow_throne.simulate import run_games

VALIDATION_GAMES = 200
VALIDATION_SEED = 20150


def validate_game(game, games: int = VALIDATION_GAMES, seed: int = VALIDATION_SEED) -> list:
    """Problems as ``(subject, message, warning)``; ``game`` needs ``.cards`` and ``.factions``.

    Every effect kind a card names must have a handler; then ``games`` seeded games (3, 4 and 5
    players, random and greedy bots) are played with invariant checks on.
    """
    problems = []
    for card in game.cards:
        if card.ability is not None and (card.ability.kind not in HANDLERS or card.ability.kind not in EFFECTS):
            problems.append((f"card '{card.id}'", f"the engine has no handler for effect kind "
                                                 f"'{card.ability.kind}'", False))
    if problems:
        return problems
    try:
        rules = Rules(game.cards, game.factions)
    except ValueError as exc:
        return [("rules engine", str(exc), False)]
    low, high = getattr(game, "players", (3, 5))
    counts = [n for n in range(max(low, 1), high + 1) if n <= rules.max_players()] or [rules.max_players()]
    found, _ = runs.checked_games(
        lambda players, n, s: run_games(rules, games=n, seed=s, players=players, bots=("random", "greedy"),
                                        check=True),
        counts, games, seed)
    return problems + found
