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
from pathlib import Path

from pnp import TEMPLATES_DIR
from pnp.errors import DataError, Problem, Problems
from pnp.markup import markup_problems, placeholder_problems
from pnp.paths import excerpt
from pnp.yamlsrc import LineDict, line_of, load_yaml, load_yaml_or_report

#: Printed words that are filled in (:func:`pnp.markup.fill`), and the only placeholders each may use.
#: Validation reports any other placeholder with its file and line.
PLACEHOLDERS = {
    "players_range": {"min", "max"},
    "players_one": {"min"},
    "minutes_range": {"min", "max"},
    "ages": {"age"},
    "box_players": {"min", "max"},
    "box_players_one": {"min"},
    "box_minutes": {"min", "max"},
    "box_minutes_one": {"min"},
    "box_ages": {"ages"},
    "box_sheet": {"n", "total"},
    "box_elsewhere": {"letter", "n"},
    "box_tab_edge": {"letter", "edge", "part", "face"},
    "booklet_sheet_front": {"n"},
    "booklet_sheet_back": {"n"},
}


def strings_path(lang: str) -> Path:
    return TEMPLATES_DIR / "strings" / f"{lang}.yaml"


def translation_path(game, lang: str) -> Path:
    return game.root / "i18n" / f"{lang}.yaml"


def _mapping(path: Path, within) -> dict:
    """A words file as a mapping; {} when it is missing, broken or not a mapping (validation says why)."""
    if not path.is_file():
        return {}
    try:
        data = load_yaml(path, within=within)
    except DataError:
        return {}
    return data if isinstance(data, dict) else {}


def _pnp_words(lang: str) -> dict:
    return _mapping(strings_path(lang), None)        # pnp's own file


def _game_file(game, lang: str) -> dict:
    return _mapping(translation_path(game, lang), game.root)


def _game_words(game, lang: str) -> dict:
    words = _game_file(game, lang).get("strings")
    return words if isinstance(words, dict) else {}


def strings(game, lang: str | None = None) -> dict:
    """pnp's printed words for ``lang``, overlaid with the game's own (``strings:`` of its i18n file).

    They are markup (bold, icons) and some are filled in with numbers (:data:`PLACEHOLDERS`).
    """
    lang = lang or game.language
    merged = {k: v for k, v in _pnp_words(lang).items() if isinstance(k, str) and isinstance(v, str)}
    merged.update({k: v for k, v in _game_words(game, lang).items() if isinstance(k, str) and isinstance(v, str)})
    return merged


def translation(game, lang: str) -> dict:
    """The game's translation file for ``lang`` ({} for the game's own language)."""
    if lang == game.source_language:
        return {}
    return _game_file(game, lang)


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
    by_id = {c.id: c for c in cards}
    decks = tuple(replace(d, name=_get(tr, "decks", d.id, "name") or d.name,
                          cards=tuple(by_id[c.id] for c in d.cards)) for d in game.decks)
    return replace(game, title=_get(tr, "title") or game.title, factions=factions, ranks=ranks, cards=cards,
                   decks=decks, categories=categories, language=lang)


def _get(tr, *keys):
    """The text at ``keys`` in a translation, or None (missing, or not text: validation reports it)."""
    node = tr
    for k in keys:
        if not isinstance(node, dict):
            return None
        node = node.get(k)
    return node if isinstance(node, str) and node.strip() else None


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
    for d in game.decks:
        if game.several_decks:
            keys[f"decks.{d.id}.name"] = "game.yaml"
        for c in d.cards:
            origin = d.cards_file.name if d.cards_file else "cards.yaml"
            keys[f"cards.{c.id}.name"] = origin
            if c.flavour:
                keys[f"cards.{c.id}.flavour"] = origin
    kinds = {s.kind for s in getattr(game, "component_specs", ())} or set(game.components)
    if "box" in kinds:
        raw = _mapping(game.root / "box.yaml", game.root)
        if raw.get("pitch"):
            keys["box.pitch"] = "box.yaml"
        contents = raw.get("contents")
        for item in contents if isinstance(contents, list) else []:
            if isinstance(item, dict) and isinstance(item.get("item"), str):
                keys[f"box.items.{item['item']}"] = "box.yaml"
    if "rulebook" in kinds:
        examples = _mapping(game.root / "rulebook.yaml", game.root).get("examples")
        for ex in examples if isinstance(examples, list) else []:
            if isinstance(ex, dict) and isinstance(ex.get("id"), str):
                keys[f"examples.{ex['id']}"] = "rulebook.yaml"
    for k in _game_words(game, game.source_language):
        keys[f"strings.{k}"] = f"i18n/{game.source_language}.yaml"
    return keys


def check_language(game, lang: str, problems: Problems) -> None:
    """Missing and unused keys of ``lang`` (game translation and pnp's strings), with file and line."""
    base_strings = _pnp_words(game.source_language)
    path = strings_path(lang)
    if not path.is_file():
        problems.error(path, None, f"language '{lang}'", "no such file: pnp's printed words for this language")
    else:
        theirs = load_yaml_or_report(path, problems)
        theirs = theirs if isinstance(theirs, dict) else {}
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
    before = len(problems)
    raw = load_yaml_or_report(tpath, problems, within=game.root)
    if len(problems) > before:
        return
    if not isinstance(raw, LineDict) or not raw:
        what = "is empty" if raw is None or raw == {} else f"is {_what(raw)}"
        problems.error(tpath, getattr(raw, "line", None), f"language '{lang}'",
                       f"the translation {what}; expected a mapping of translated words (title, cards, ...)")
        return
    expected = expected_keys(game)
    found = dict(_leaves(raw))
    for key, origin in expected.items():
        if key not in found:
            problems.error(tpath, _parent_line(raw, key), f"language '{lang}'",
                           f"missing key '{key}' (the original is in {origin})")
        elif not isinstance(found[key][0], str) or not found[key][0].strip():
            problems.error(tpath, found[key][1], f"language '{lang}'", f"'{key}' must be non-empty text")
    # unknown keys: reported by check_translation_keys for every translation file, on every validate


def check_translation_keys(game, problems: Problems) -> None:
    """Every translation file of the game (i18n/<lang>.yaml): readable, a mapping, and no key that
    matches nothing in the data (a misspelt card id would otherwise silently keep the original words).
    Missing keys are reported when building or validating that language (``--lang``).

    A card left out for its own problems (or a whole cards file with a syntax error) is not a reason to
    call its translated words unused: that would be one follow-on message per word."""
    folder = game.root / "i18n"
    if not folder.is_dir():
        return
    expected = expected_keys(game)
    unsure = _unsure_prefixes(game)
    for tpath in sorted(folder.glob("*.yaml")):
        lang = tpath.stem
        before = len(problems)
        raw = load_yaml_or_report(tpath, problems, within=game.root)
        if len(problems) > before or raw is None:
            continue
        if not isinstance(raw, LineDict):
            problems.error(tpath, getattr(raw, "line", None), f"language '{lang}'",
                           f"the translation is {_what(raw)}; expected a mapping of translated words")
            continue
        for key, (_, line) in _leaves(raw):
            if key not in expected and not key.startswith(unsure):
                problems.error(tpath, line, f"language '{lang}'", f"unused key {excerpt(key)}")


def _unsure_prefixes(game) -> tuple:
    """Key prefixes a translation may use although the loaded game lacks them: the raw ids of every
    deck's card entries left out for their own problems, and all of ``cards.`` when a cards file cannot
    be read at all."""
    from pnp.decks import read_cards

    loaded = {c.id for c in game.cards}
    prefixes = []
    for deck in game.decks:
        raw_list, top = read_cards(deck, game.root, Problems())      # parsed once per run: cached
        if top is None and deck.cards_file is not None:
            return ("cards.",)
        prefixes += [f"cards.{item['id']}." for item in raw_list
                     if isinstance(item, dict) and isinstance(item.get("id"), str) and item["id"] not in loaded]
    return tuple(prefixes)


def _what(value) -> str:
    return "a list" if isinstance(value, list) else f"{excerpt(value)}, not a mapping"


def check_strings(game, lang: str, problems: Problems) -> None:
    """The printed words a build in ``lang`` uses: text, valid markup, only the placeholders each may use.

    Problems name the file and line the words come from (pnp's templates/strings or the game's i18n).
    """
    sources = [(strings_path(lang), None, None), (translation_path(game, lang), game.root, "strings")]
    for path, within, section in sources:
        if not path.is_file():
            continue
        raw = load_yaml_or_report(path, problems, within=within)
        if raw is None:
            continue
        words = raw.get(section) if section and isinstance(raw, dict) else raw
        if words is None and section:
            continue
        if not isinstance(words, dict):
            problems.error(path, line_of(raw, section) if section else getattr(raw, "line", None), "strings",
                           f"{section or 'the file'}: expected a mapping of words, got {_what(words)}")
            continue
        for key, text in words.items():
            where = f"{section}.{key}" if section else str(key)
            line = line_of(words, key)
            if not isinstance(text, str):
                problems.error(path, line, "strings", f"{excerpt(where)}: expected text, got {_what(text)}")
                continue
            for message in placeholder_problems(text, PLACEHOLDERS.get(key, set())) if key in PLACEHOLDERS \
                    else []:
                problems.error(path, line, "strings", f"{where}: {message}")
            for message in markup_problems(text, game.icons.names):
                problems.error(path, line, "strings", f"{where}: {message}")


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
