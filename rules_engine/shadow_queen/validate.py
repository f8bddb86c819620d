"""The ``pnp validate`` hook: can the engine play this game's data, and do seeded games keep every
invariant?"""

from __future__ import annotations

from rules_engine.core import runs
from rules_engine.shadow_queen.effects import EFFECTS
from rules_engine.shadow_queen.rules import rules_for

#: Checked games per validate run (short ones: the hook stays well under a second).
VALIDATION_GAMES = 4
VALIDATION_TURNS = 40
VALIDATION_SEED = 2024


def validate_game(game, games: int = VALIDATION_GAMES, seed: int = VALIDATION_SEED) -> list:
    """Problems as ``(subject, message, warning)``.

    Every card's effect kind must be known and every card playable by some piece; the map must have
    the terrains the rules name (forest, cave) and starting hexes for every piece; then ``games``
    seeded games of ``VALIDATION_TURNS`` turns (random and greedy bots) are played with invariant checks.
    """
    from rules_engine.shadow_queen.simulate import run_games

    problems = []
    for card in game.cards:
        if card.ability is None or card.ability.kind not in EFFECTS:
            kind = card.ability.kind if card.ability else None
            problems.append((f"card '{card.id}'", f"the engine has no handler for effect kind {kind!r}", False))
    if problems:
        return problems
    try:
        rules = rules_for(game)
    except (ValueError, KeyError) as exc:
        return [("rules engine", str(exc), False)]
    for k, card in enumerate(rules.cards):
        if not rules.card_players[k]:
            problems.append((f"card '{card.id}'", "no piece of the game may play it (played_by)", False))
    terrains = {t.id for t in game.map.terrains}
    for needed in ("forest", "cave"):
        if needed not in terrains:
            problems.append(("map", f"the rules slow pieces in forests and shelter them in caves, but the map has "
                                    f"no '{needed}' terrain", True))
    if not game.map.start:
        problems.append(("map", "the map gives no starting hexes ('start'); every piece starts off the board",
                         False))
    if problems:
        return problems
    found, _ = runs.checked_games(
        lambda players, n, s: run_games(rules, games=n, seed=s, players=2, bots=("random", "greedy"), check=True,
                                        turn_limit=VALIDATION_TURNS),
        [2], games, seed)
    return problems + found
