"""The ``pnp validate`` hook: can the engine play these cards, and do seeded games keep every invariant?"""

from __future__ import annotations

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
    share = max(1, games // len(counts))
    for i, players in enumerate(counts):
        try:
            results = run_games(rules, games=share, seed=seed + i, players=players, bots=("random", "greedy"),
                                check=True)
        except Exception as exc:  # an engine crash on real data is a problem to report, not a traceback
            problems.append(("rules engine", f"{players}-player games crashed: {type(exc).__name__}: {exc}", False))
            continue
        broken = [(index, v) for index, r in enumerate(results) for v in r.violations]
        for index, violation in broken[:5]:
            problems.append(("rules engine", f"{players}-player game {index} (seed {seed + i}): "
                                             f"invariant broken: {violation}", False))
        if len(broken) > 5:
            problems.append(("rules engine", f"{len(broken) - 5} more broken invariants in {players}-player games",
                             False))
    return problems
