"""Languages: printed words and translated game facts.

Facts stay language-neutral in the game's YAML (names there are in the game's own ``language``); each
other language has ``data/<game>/i18n/<lang>.yaml`` keyed by the same ids (as domdiv does):

    title: ...
    factions: {empire: {name: ..., adjective: ...}}
    ranks: {commoner: {name: ..., plural: ...}}
    cards: {outlaw: {name: ..., flavour: ...}}
    box: {pitch: ..., items: {<English item>: ...}}
    examples: {<example id>: <title>}
    strings: {<key>: ...}        # game-specific printed words (override templates/strings/<lang>.yaml)

pnp's own labels live in ``templates/strings/<lang>.yaml``; templates (card text, rulebook, player
aids, instructions) have a file per language. :func:`check_language` reports every missing or unused
key with its file and line, so a translation cannot silently lag behind the data.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from pnp import TEMPLATES_DIR
from pnp.errors import DataError, Problem, Problems
from pnp.yamlsrc import LineDict, line_of, load_yaml, load_yaml_or_report


def strings_path(lang: str) -> Path:
    return TEMPLATES_DIR / "strings" / f"{lang}.yaml"


def translation_path(game, lang: str) -> Path:
    return game.root / "i18n" / f"{lang}.yaml"


@lru_cache(maxsize=32)
def _load(path: Path, stamp: float):
    return load_yaml(path) or {}


def _cached(path: Path):
    return _load(path, path.stat().st_mtime) if path.is_file() else {}


def strings(game, lang: str | None = None) -> dict:
    """pnp's printed words for ``lang``, overlaid with the game's own (``strings:`` of its i18n file)."""
    lang = lang or game.language
    merged = {k: v for k, v in _cached(strings_path(lang)).items() if isinstance(v, str)}
    game_words = _cached(translation_path(game, lang)).get("strings") or {}
    merged.update({k: v for k, v in game_words.items() if isinstance(v, str)})
    return merged


def translation(game, lang: str) -> dict:
    """The game's translation file for ``lang`` ({} for the game's own language)."""
    if lang == game.source_language:
        return {}
    return _cached(translation_path(game, lang))


def translate(game, lang: str | None):
    """The game with every printed name in ``lang`` (the same game for its own language).

    Missing entries keep the original words; ``pnp validate --lang`` reports them.
    """
    if not lang or lang == game.language:
        return game
    tr = translation(game, lang)
    if not tr:
        return replace(game, language=lang)
    factions = tuple(replace(f, name=_get(tr, "factions", f.id, "name") or f.name,
                             adjective=_get(tr, "factions", f.id, "adjective") or f.adjective)
                     for f in game.factions)
    ranks = tuple(replace(r, name=_get(tr, "ranks", r.id, "name") or r.name,
                          plural=_get(tr, "ranks", r.id, "plural") or r.plural)
                  for r in game.ranks)
    cards = tuple(replace(c, name=_get(tr, "cards", c.id, "name") or c.name,
                          flavour=_get(tr, "cards", c.id, "flavour") or c.flavour)
                  for c in game.cards)
    categories = tuple(replace(c, name=_get(tr, "categories", c.id, "name") or c.name) for c in game.categories)
    return replace(game, title=tr.get("title") or game.title, factions=factions, ranks=ranks, cards=cards,
                   categories=categories, language=lang)


def _get(tr, *keys):
    node = tr
    for k in keys:
        if not isinstance(node, dict):
            return None
        node = node.get(k)
    return node


def languages(game) -> list[str]:
    """Languages the game can be built in: its own, and every i18n/<lang>.yaml."""
    found = {game.source_language}
    folder = game.root / "i18n"
    if folder.is_dir():
        found |= {p.stem for p in folder.glob("*.yaml")}
    return sorted(found)


# ----------------------------------------------------------------------------- checks

def expected_keys(game) -> dict:
    """Every key a translation of the game must give: dotted key -> where the original words are."""
    keys = {"title": "game.yaml title"}
    for f in game.factions:
        keys[f"factions.{f.id}.name"] = "game.yaml"
        keys[f"factions.{f.id}.adjective"] = "game.yaml"
    for r in game.ranks:
        keys[f"ranks.{r.id}.name"] = "game.yaml"
        keys[f"ranks.{r.id}.plural"] = "game.yaml"
    for c in game.categories:
        keys[f"categories.{c.id}.name"] = "game.yaml"
    for c in game.cards:
        keys[f"cards.{c.id}.name"] = "cards.yaml"
        if c.flavour:
            keys[f"cards.{c.id}.flavour"] = "cards.yaml"
    box = game.root / "box.yaml"
    if "box" in game.components and box.is_file():
        raw = _cached(box)
        if raw.get("pitch"):
            keys["box.pitch"] = "box.yaml"
        for item in raw.get("contents") or []:
            if isinstance(item, dict) and item.get("item"):
                keys[f"box.items.{item['item']}"] = "box.yaml"
    book = game.root / "rulebook.yaml"
    if "rulebook" in game.components and book.is_file():
        for ex in _cached(book).get("examples") or []:
            if isinstance(ex, dict) and ex.get("id"):
                keys[f"examples.{ex['id']}"] = "rulebook.yaml"
    own = _cached(translation_path(game, game.source_language)).get("strings") or {}
    for k in own:
        keys[f"strings.{k}"] = f"i18n/{game.source_language}.yaml"
    return keys


def check_language(game, lang: str, problems: Problems) -> None:
    """Missing and unused keys of ``lang`` (game translation and pnp's strings), with file and line."""
    base_strings = _cached(strings_path(game.source_language))
    path = strings_path(lang)
    if not path.is_file():
        problems.error(path, None, f"language '{lang}'", "no such file: pnp's printed words for this language")
    else:
        theirs = load_yaml_or_report(path, problems) or {}
        for key in base_strings:
            if key not in theirs:
                problems.error(path, getattr(theirs, "line", None), f"language '{lang}'",
                               f"missing key '{key}' (in {strings_path(game.source_language).name})")
        for key in theirs:
            if key not in base_strings:
                problems.error(path, line_of(theirs, key), f"language '{lang}'", f"unused key '{key}'")
    if lang == game.source_language:
        return
    tpath = translation_path(game, lang)
    if not tpath.is_file():
        problems.error(tpath, None, f"language '{lang}'", f"no translation of {game.title} ({tpath.name})")
        return
    raw = load_yaml_or_report(tpath, problems)
    if raw is None:
        return
    if not isinstance(raw, LineDict):
        problems.error(tpath, None, f"language '{lang}'", "expected a mapping")
        return
    expected = expected_keys(game)
    found = dict(_leaves(raw))
    for key, origin in expected.items():
        if key not in found:
            problems.error(tpath, _parent_line(raw, key), f"language '{lang}'",
                           f"missing key '{key}' (the original is in {origin})")
        elif not isinstance(found[key][0], str) or not found[key][0].strip():
            problems.error(tpath, found[key][1], f"language '{lang}'", f"'{key}' must be non-empty text")
    for key, (_, line) in found.items():
        if key not in expected:
            problems.error(tpath, line, f"language '{lang}'", f"unused key '{key}'")


def _leaves(node, prefix=""):
    for k, v in node.items():
        key = f"{prefix}{k}"
        free_keys = prefix in ("box.items.", "strings.")   # keys there are words, not structure
        if isinstance(v, dict) and not free_keys:
            yield from _leaves(v, key + ".")
        else:
            yield key, (v, line_of(node, k))


def _parent_line(raw, dotted: str):
    """Line of the deepest existing mapping on the key's path (where the missing key belongs)."""
    node, line = raw, getattr(raw, "line", None)
    for part in dotted.split(".")[:-1]:
        if isinstance(node, dict) and part in node:
            line = line_of(node, part)
            node = node[part]
        else:
            break
    return line


def require_language(game, lang: str | None) -> None:
    """Refuse a build language that has no translation at all (one clear problem)."""
    if lang and lang not in languages(game):
        raise DataError([Problem(str(translation_path(game, lang)), None, f"language '{lang}'",
                                 f"{game.title} has no translation into '{lang}' "
                                 f"(available: {', '.join(languages(game))})")])
