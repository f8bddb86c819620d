"""Everything ``pnp validate`` checks, beyond what loading the data already checks.

Each check appends problems; checks are independent so one run reports everything.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.errors import Problems
from pnp.gamedata import Game, load_game
from pnp.i18n import check_language, require_language, translate
from rules_engine import engine_module


@dataclass
class ValidationResult:
    game: Game | None
    summary: str


#: Extra checks: functions (game, problems) -> None, registered by the modules that own them.
CHECKS = []


def register_check(func):
    CHECKS.append(func)
    return func


def validate_game(game_arg, problems: Problems, options=None) -> ValidationResult:
    from pnp.components import game_components

    game = load_game(game_arg, problems, strict=False)
    if game is None:
        return ValidationResult(None, "")
    lang = options.lang if options else None
    players = options.players if options else None
    if players is not None and not game.players[0] <= players <= game.players[1]:
        problems.error(*game.where("players"), "players",
                       f"--players {players}: {game.title} is for {game.players[0]} to {game.players[1]} players")
    if lang and not problems.errors:
        require_language(game, lang)
        check_language(game, lang, problems)
        game = translate(game, lang)
    if not problems.errors:
        for check in CHECKS:
            check(game, problems)
        for component in game_components(game):
            if component.check:
                component.check(game, problems, options)
        if game.engine and (options is None or options.thorough):
            engine = engine_module(game.engine)
            hook = getattr(engine, "validate_game", None)
            if hook is not None:
                for subject, message, warning in hook(game):
                    (problems.warn if warning else problems.error)(game.root / "cards.yaml", None, subject, message)
    summary = (f"{game.title}: {len(game.cards)} characters, {len(game.deck)} cards, "
               f"{len(game.factions)} factions, components {', '.join(game.components)}"
               f"{f', language {lang}' if lang else ''}: valid")
    return ValidationResult(game, summary)
