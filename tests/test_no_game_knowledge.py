"""pnp knows no game: no module under pnp/ names a bundled game's card field, effect kind, token kind or
colour (they belong in the game's folder: its game.yaml, layouts, icons and templates)."""

import ast
import re
from pathlib import Path

import yaml

from pnp import DATA_DIR, PROJECT_ROOT
from pnp.loading.gamedata import bundled_games
from rules_engine import engine_module

def _schema_keys(schema: dict) -> set[str]:
    keys = set(schema)
    for spec in schema.values():
        for inner in (spec.schema, getattr(spec.items, "schema", None)):
            if inner:
                keys |= _schema_keys(inner)
    return keys


def vocabulary() -> set[str]:
    """pnp's own words: every key of its data format (a field has a ``type``, rulebook.yaml a ``battle``,
    a token a ``value``), the keys every card has, and the built-in icons' names. A game may use them
    too (a field named ``type``) without pnp knowing the game."""
    from pnp.rulebook import chapters
    from pnp.loading import decks, gamedata, tokendata
    from pnp.text.icon_names import ICON_NAMES

    words = set(ICON_NAMES) | set(decks.BUILTIN_KEYS) | {"value"}
    for schema in (gamedata.GAME_SCHEMA, decks.DECK_SCHEMA, decks.FIELD_SCHEMA, decks.BACK_SCHEMA,
                   chapters.CONFIG_SCHEMA, tokendata.SCHEMA, tokendata.TOKEN_SCHEMA):
        words |= _schema_keys(schema)
    return words
#: Colours too plain to belong to a game.
NEUTRAL = {"#ffffff", "#000000"}


def _yaml(path):
    return yaml.safe_load(path.read_text()) if path.is_file() else None


def game_names() -> set[str]:
    """Every bundled game's card fields, effect kinds and token kinds, and what its engine reads."""
    names = set()
    for game in bundled_games():
        root = DATA_DIR / game
        meta = _yaml(root / "game.yaml") or {}
        decks = meta.get("decks") or [meta.get("card") or {}]
        for deck in decks:
            names |= set(deck.get("fields") or {})
        tokens = _yaml(root / "tokens.yaml") or {}
        names |= {t.get("kind") for t in tokens.get("tokens") or [] if isinstance(t, dict)}
        if meta.get("engine"):
            engine = engine_module(meta["engine"])
            names |= set(engine.EFFECTS)
            for keys in getattr(engine, "CARD_KEYS", {}).values():
                names |= set(keys)
    return {n for n in names if isinstance(n, str)} - vocabulary()


def game_colours() -> set[str]:
    found = set()
    for path in DATA_DIR.rglob("*.yaml"):
        found |= {c.lower() for c in re.findall(r"#[0-9a-fA-F]{6}\b", path.read_text())}
    return found - NEUTRAL


def test_the_scan_knows_the_bundled_games():
    names, colours = game_names(), game_colours()
    assert {"power", "influence", "cost", "income", "consolation", "suppress", "kill", "gold", "plus_one"} <= names
    assert {"#8c1c24", "#2e6a3f", "#a8761a"} <= colours


def test_no_pnp_module_names_a_games_fields_effects_tokens_or_colours():
    names, colours = game_names(), game_colours()
    offenders = []
    for path in sorted((Path(PROJECT_ROOT) / "pnp").rglob("*.py")):
        rel = path.relative_to(PROJECT_ROOT).as_posix()
        source = path.read_text()
        offenders += [f"{rel}: colour {c}" for c in sorted(colours) if c in source.lower()]
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
                offenders.append(f"{rel}:{node.lineno}: {node.value!r}")
    assert offenders == []
