"""A game's table as the commands and the studio set it up: its seats' bots (``--bots``), its player
counts (``--players``), the engine's game options (``-o NAME=VALUE``), a variant, and the seats' names in
transcripts. Every value is checked against what the game's engine declares; a wrong one is a UserError
naming the option, the value and what is accepted."""

from __future__ import annotations

import re

from pnp.errors import UserError
from pnp.loading.paths import excerpt
from rules_engine.core.bots import make_bot

SEAT_NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana", "Ivo")
DEFAULT_PLAYERS = 4


def bot_list(text: str, registry) -> list[str]:
    """``--bots``: comma-separated bot specs (``random,greedy,search:400``), each checked by the engine."""
    names = [b.strip() for b in text.split(",") if b.strip()]
    if not names:
        raise UserError("--bots: give at least one bot name")
    for name in names:
        try:
            make_bot(registry, name)
        except ValueError as exc:
            raise UserError(f"--bots: {exc}") from None
    return names


def player_counts(text: str | None, game_range: tuple, engine_range: tuple, title: str) -> list[int]:
    """``--players``: one count (``4``) or an inclusive range (``2..5``); default 4, kept in the game's
    range. Counts outside the engine's range (the seats its rules are written for) are refused."""
    if text is None:
        lo, hi = game_range
        lo, hi = max(lo, engine_range[0]), min(hi, engine_range[1])
        return [min(max(DEFAULT_PLAYERS, lo), hi)]
    text = text.strip()
    ranged = re.fullmatch(r"(\d+)\s*\.\.\s*(\d+)", text)
    if ranged:
        first, last = ranged.groups()
    elif re.fullmatch(r"\d+", text):
        first = last = text
    else:
        raise UserError(f"--players: expected a number or a range like 2..5, got {excerpt(text)}")
    low, high = engine_range
    # checked before a list of counts is made: 1..1000000000000 is refused, not counted
    digits = [n.lstrip("0") or "0" for n in (first, last)]
    numbers = [int(d) if len(d) <= 6 else None for d in digits]
    if None not in numbers and numbers[0] > numbers[1]:
        raise UserError(f"--players: the range {excerpt(text)[1:-1]} is empty; write the smaller count first")
    for d, n in zip(digits, numbers):
        if n is None or not low <= n <= high:
            shown = d if len(d) <= 20 else f"a number of {len(d):,} digits"
            raise UserError(f"--players: {shown} is not between {low} and {high} (the players {title}'s rules "
                            f"engine plays)")
    return list(range(numbers[0], numbers[1] + 1))


def game_options(pairs, goal, engine, title: str) -> dict:
    """``-o NAME=VALUE`` pairs (and the ``--goal`` shorthand) checked against the engine's OPTIONS."""
    known = getattr(engine, "OPTIONS", {})
    listed = ", ".join(f"{name} ({p.doc})" if p.doc else name for name, p in known.items()) or "none"
    if goal is not None:
        pairs = list(pairs) + [f"goal={goal}"]
    options = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        name = name.strip()
        if not sep or not name:
            raise UserError(f"--option: expected NAME=VALUE, got {pair!r}")
        spec = known.get(name)
        if spec is None:
            raise UserError(f"--option: {title} has no option {name!r}; options: {listed}")
        value = text.strip()
        if spec.type == "int":
            try:
                value = int(value)
            except ValueError:
                raise UserError(f"--option {name}: expected an integer, got {text!r}") from None
            if spec.min is not None and value < spec.min or spec.max is not None and value > spec.max:
                raise UserError(f"--option {name}: {value} is not between {spec.min} and {spec.max}")
        elif spec.type == "bool":
            if value.lower() not in ("true", "false", "yes", "no", "1", "0"):
                raise UserError(f"--option {name}: expected true or false, got {text!r}")
            value = value.lower() in ("true", "yes", "1")
        if spec.choices and value not in spec.choices:
            raise UserError(f"--option {name}: {value!r} is not one of {', '.join(map(str, spec.choices))}")
        options[name] = value
    return options


def table(game_name, players_text, bots, variant_file, option_pairs, options=None):
    """``(game, engine, seat bots, rules, options)``: a game's table as a report names it (UserError for a
    bad player count, bot, variant or option)."""
    from pnp.loading.gamedata import load_game
    from rules_engine.core.contract import engine_named

    game = load_game(game_name)
    if not game.engine:
        raise UserError(f"{game.title} has no rules engine to play")
    engine = engine_named(game.engine)
    counts = player_counts(players_text, game.players, engine.PLAYERS, game.title)
    if len(counts) != 1:
        raise UserError("--players: a game has one player count")
    players = counts[0]
    variant = None
    if variant_file:                   # checked as the lab checks it, at this player count
        from pnp.loading.variants import apply, load_variant

        variant = load_variant(variant_file, game, engine, players)
        game = apply(game, variant, engine)
    options = {**(variant.parameters if variant else {}), **(options or {}),
               **game_options(option_pairs, None, engine, game.title)}
    names = bot_list(bots, engine.BOTS) if bots is not None else list(engine.DEFAULT_BOTS)
    if len(names) > players:
        raise UserError(f"--bots: {len(names)} bots for {players} seats; give one per seat, in seat order")
    seats = [names[i % len(names)] for i in range(players)]
    return game, engine, seats, engine.rules_for(game), options
