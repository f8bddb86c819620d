"""The ``pnp validate`` hook: can the engine play these cards, and do seeded games keep every invariant?"""

from __future__ import annotations

from rules_engine.core import runs
from rules_engine.behind_the_throne.effects import EFFECTS
from rules_engine.behind_the_throne.rules import rules_for
from rules_engine.behind_the_throne.simulate import run_games

VALIDATION_GAMES = 60
VALIDATION_SEED = 2016


def validate_game(game, games: int = VALIDATION_GAMES, seed: int = VALIDATION_SEED) -> list:
    """Problems as ``(subject, message, warning)``; ``game`` needs ``.cards`` (and ``.players``).

    Every effect kind a card names must be known; the cards must make a deck (one End of Game card,
    a value on every character); then ``games`` seeded games spread over the game's player counts
    (random and cautious bots) are played with invariant checks on.
    """
    problems = []
    for card in game.cards:
        if card.ability is not None and card.ability.kind not in EFFECTS:
            problems.append((f"card '{card.id}'", f"the engine has no handler for effect kind "
                                                 f"'{card.ability.kind}'", False))
    if problems:
        return problems
    try:
        rules = rules_for(game)
    except ValueError as exc:
        return [("rules engine", str(exc), False)]
    low, high = getattr(game, "players", (2, 5))
    counts = list(range(max(low, 1), min(high, rules.max_players()) + 1)) or [2]
    found, by_count = runs.checked_games(
        lambda players, n, s: run_games(rules, games=n, seed=s, players=players, bots=("random", "cautious"),
                                        check=True),
        counts, games, seed)
    problems += found
    for players, results in by_count.items():
        endless = sum(1 for r in results if r.reason != "end_card")
        if endless:
            problems.append(("rules engine", f"{endless} of {len(results)} {players}-player games reached the "
                                             f"turn limit without revealing the End of Game card", True))
    return problems
