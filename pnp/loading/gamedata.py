"""Load a game folder (``game.yaml``, ``cards.yaml``, ...) into checked, frozen game facts.

Everything wrong is collected as :class:`~pnp.errors.Problem` objects with file and line; the caller
decides whether to stop (``load_game(..., strict=True)`` raises :class:`~pnp.errors.DataError`).
"""

from __future__ import annotations

import functools

import re
import weakref
from dataclasses import dataclass, field, replace
from typing import NamedTuple
from pathlib import Path

from pnp.suggest import closest
from pnp import DATA_DIR, default_game
from pnp.text.grammar import default_plural, grammar_of
from pnp.loading import placeholders
from pnp.errors import Problems, UserError, display_path
from pnp.loading.icons import BUILTIN, IconSet, load_icons
from pnp.loading.look import PLAIN as PLAIN_LOOK, SCHEMA as LOOK_SCHEMA, Look, load_look
from pnp.loading.datafiles import empty as empty_data, load_data
from pnp.loading.facts import load_facts
from pnp.loading.decks import (AIDS_SCHEMA, BUILTIN_KEYS, CARD_SCHEMA, GRAMMAR_SCHEMA, DECK_SCHEMA, DEFAULT_DECK, RULES_SCHEMA, CardField,
                       Deck, card_art, card_schema, check_deck_rules, exactly_one_problems, new_card, parse_decks,
                       read_cards, side_b_card, side_b_schema)
from pnp.text.markup import card_markup_problems
from pnp.loading.paths import case_twins, excerpt
from pnp.renames import Schema
from pnp.loading.schema import Field, check, entry, subkey
from pnp.loading.yamlsrc import line_of, load_yaml_or_report
from rules_engine import engine_module
from rules_engine.model.cards import WHOLE_PLACEHOLDER, Ability, Card, Faction, Rank

__all__ = ["CardField", "Deck", "Game", "load_game", "resolve_game_dir", "bundled_games"]

#: Component kinds a game may list (see pnp/components/); the kit follows the order of the list.
KNOWN_COMPONENTS = ("instructions", "power_track", "track", "cards", "tokens", "rulebook", "box")

def _icon_key(meta, raw_game, icon_set, problems, game_path) -> tuple:
    """game.yaml's ``icon_key`` as (icon, what it means, line): each name an icon of the game (or pnp's)."""
    raw = raw_game.get("icon_key")
    out = []
    for name, text in (meta.get("icon_key") or {}).items():
        line = line_of(raw, name) if isinstance(raw, dict) else None
        why = icon_set.problem(str(name))
        if why:
            problems.error(game_path, line or line_of(raw_game, "icon_key"), "icon_key", f"{excerpt(str(name))}: {why}")
            continue
        out.append((str(name), text, line or line_of(raw_game, "icon_key")))
    return tuple(out)


def _range(most: int) -> dict:
    return {"min": Field("int", required=True, min=0, max=most), "max": Field("int", required=True, min=1, max=most)}

#: The longest ``version:`` (it prints small in a corner of every card).
VERSION_LENGTH = 16

#: game.yaml's keys read by :func:`pnp.loading.mapdata.load_board`: a game without any has no board to read.
BOARD_KEYS = ("map", "pieces", "holdings")

GAME_SCHEMA = Schema("game", {
    "title": Field("str", required=True, blank=False),
    "author": Field("str", default="", doc="the game's designer (credits, the PDFs' author)"),
    "publisher": Field("str", default="", doc="its publisher (credits)"),
    "artist": Field("str", default="", doc="who made the kit's art (credits)"),
    "credits": Field("list", default=[], items=Field("map", schema={
        "role": Field("str", required=True, blank=False), "name": Field("str", required=True, blank=False),
        "box": Field("bool", default=True, doc="false: on the rulebook's cover only")}),
        doc="further credits printed on the rulebook and the box: {role, name, box}"),
    "version": Field("str", blank=False,
                     doc="printed small on every card (default: the commit of the game folder's git repository)"),
    "players": Field("map", required=True, schema=_range(20)),
    "minutes": Field("map", schema=_range(1440)),
    "ages": Field("int", min=0, max=99),
    "engine": Field("package", nullable=True, doc="the installed rules engine that plays the game (entry point "
                                                  "group pnp.engines)"),
    "language": Field("language", default="en"),
    "spelling": Field("language", nullable=True,
                      doc="the spelling of the game's language, a code with its region (en-GB): its texts break "
                          "words at that spelling's hyphenation points (default: the language's likely region's)"),
    "icons": Field("dict", nullable=True, doc="names for icons: {name: icon} or {name: {icon, colour}}"),
    "icon_key": Field("dict", default={}, items=Field("str", blank=False),
                      doc="the game's key of icons, printed on the instructions page: {icon: what it means}"),
    "palette": Field("dict", default={}, items=Field("colour"),
                     doc="colours that replace the layouts' palette entries of the same name"),
    "look": Field("map", default={}, schema=LOOK_SCHEMA,
                  doc="the emblem, cover art and colours of the rulebook cover, the designed backs and the box"),
    "decks": Field("list", items=Field("map", schema=DECK_SCHEMA), doc="the game's decks"),
    "facts": Field("list", default=[], items=Field("str", blank=False),
                   doc="files of rule facts the engine reads (tables, boards, maps), in the game folder"),
    "data": Field("list", default=[], items=Field("str", blank=False),
                  doc="plain data files (YAML, CSV, xlsx) templates and layouts read as data.<name>"),
    "card": Field("map", schema=CARD_SCHEMA, doc="the one-deck form: the cards of cards.yaml"),
    "ability_categories": Field("list", default=[], items=Field("map", schema={
        "id": Field("id", required=True),
        "name": Field("str", required=True, blank=False),
        "colour": Field("colour", required=True),
    })),
    "factions": Field("list", default=[], items=Field("map", schema={
        "id": Field("id", required=True),
        "name": Field("str", required=True, blank=False),
        "adjective": Field("str", blank=False),
        "colour": Field("colour", required=True),
        "emblem": Field("str", default="star", doc="an icon: the game's own or a built-in one"),
        **GRAMMAR_SCHEMA,
    })),
    "ranks": Field("list", default=[], items=Field("map", schema={
        "id": Field("id", required=True),
        "name": Field("str", required=True, blank=False),
        "plural": Field("str", blank=False),
        "pips": Field("int", required=True, min=0, max=5),
    })),
    "deck": Field("map", default={}, schema=RULES_SCHEMA, doc="the one-deck form: rules of cards.yaml"),
    "components": Field("list", required=True, items=Field("any"),
                        doc="kinds (cards, track, ...) or {kind, id, settings...} entries"),
    "player_aid": Field("map", default={}, schema=AIDS_SCHEMA, doc="the one-deck form: its player aids"),
    "map": Field("str", blank=False, doc="a hex map file in the game folder (docs/data-format.md, Hex maps)"),
    "pieces": Field("list", default=[], items=Field("any"), doc="the pieces on the board, checked by pnp.loading.mapdata"),
    "holdings": Field("list", default=[], items=Field("any"), doc="the holdings each side starts with"),
    "power_track": Field("map", default={}, schema={
        "spaces": Field("int", default=25, min=1, max=100),
        "columns": Field("int", default=5, min=1, max=10),
        "token_diameter": Field("length", default=20.0, min=5, max=60,
                                doc="diameter of the faction tokens that move on the track"),
    }),
})


@dataclass(frozen=True)
class Category:
    """A printed ability category (e.g. manipulative): its name and the frame colour of its cards."""

    id: str
    name: str
    colour: str


class Span(NamedTuple):
    """A range as game.yaml writes it (``players: {min: 2, max: 4}``): ``.min`` and ``.max`` (templates
    write ``game.players.min``), and a pair (``lo, hi = game.players``)."""

    min: int
    max: int


@dataclass(frozen=True)
class Game:
    """A loaded game. ``cards`` holds every distinct card of every deck; ``deck(id)`` gives one deck."""

    root: Path
    id: str
    title: str
    author: str
    publisher: str
    players: Span
    minutes: Span | None
    ages: int | None
    engine: str | None
    language: str
    factions: tuple
    ranks: tuple
    cards: tuple
    components: tuple                     # the component ids, in game.yaml's order
    decks: tuple = ()                     # Deck, in game.yaml's order, each with its cards
    source_language: str = "en"          # the language the YAML is written in
    categories: tuple = ()                # Category per printed ability category
    power_track: dict = field(default_factory=dict, hash=False)
    icons: IconSet = BUILTIN              # the game's icons, then the built-in ones
    pieces: tuple = ()                    # rules_engine.model.board.PieceKind, in game.yaml's order
    holdings: tuple = ()                  # rules_engine.model.board.HoldingKind
    map: object = None                    # rules_engine.model.board.HexMap of the file game.yaml's map names
    look: Look = PLAIN_LOOK               # look: the emblem, cover art and colours of the cover, backs and box
    version: str = ""                     # printed small on every card: game.yaml's version, else the git commit
    component_specs: tuple = field(default=(), hash=False, compare=False)   # ComponentSpec per entry
    # facts files' data by key, data files by name: compared (a game whose facts or data changed is another
    # game to every cache keyed by the game, an lru_cache's or a weak dictionary's), though not hashed (dicts)
    facts: dict = field(default_factory=dict, hash=False)
    data: dict = field(default_factory=empty_data, hash=False)
    artist: str = ""                      # who made the kit's art
    credits: tuple = ()                   # (role, name) per further credit, in game.yaml's order
    book_credits: tuple = ()              # (role, name) per further credit printed on the rulebook only
    placeholders: dict = field(default_factory=dict, hash=False, compare=False)  # file -> placeholder marks
    sources: dict = field(default_factory=dict, hash=False, compare=False)  # card id -> (path, line)
    field_lines: dict = field(default_factory=dict, hash=False, compare=False)  # (card id, key) -> line
    meta_lines: dict = field(default_factory=dict, hash=False, compare=False)  # game.yaml key -> line
    item_lines: dict = field(default_factory=dict, hash=False, compare=False)  # ("factions", id) -> line
    # translation key prefixes ("decks.lanterns.", "factions.") of what game.yaml writes with problems of its
    # own: left out or partly read, so a translation's words for it are not called unused (one mistake, one
    # message); see :func:`unsure_keys`
    unsure: tuple = field(default=(), hash=False, compare=False)
    spelling: str | None = None           # game.yaml's spelling (en-GB): the hyphenation of its own language
    icon_key: tuple = ()                  # (icon, what it means, game.yaml line) of game.yaml's icon_key

    @property
    def hyphenation(self) -> str | None:
        """The spelling whose hyphenation dictionary breaks the kit's words: game.yaml's ``spelling`` for
        texts in the game's own language (a translation's language code picks its own)."""
        return self.spelling if self.language == self.source_language else None

    @functools.cached_property
    def printed_names(self) -> tuple:
        """The game's proper names as printed in the kit's language: every card's (both sides), faction's,
        piece kind's, holding kind's and the map's holdings'. No word of them is ever hyphenated."""
        names = [c.name for c in self.cards]
        names += [getattr(getattr(c, "side_b", None), "name", None) for c in self.cards]
        for f in self.factions:
            names += [f.name, getattr(f, "adjective", None)]
        names += [p.name for p in self.pieces] + [h.name for h in self.holdings]
        names += [h.name for h in getattr(self.map, "holdings", ())]
        return tuple(n for n in names if isinstance(n, str) and n)

    def where(self, key: str, item: str | None = None) -> tuple:
        """(path, line) of a top-level key of game.yaml (or of its list entry with id ``item``)."""
        line = self.item_lines.get((key, item)) if item is not None else None
        return self.root / "game.yaml", line or self.meta_lines.get(key)

    def deck_where(self, deck: Deck) -> tuple:
        """(path, line) where game.yaml declares ``deck``."""
        return self.root / "game.yaml", deck.line or self.meta_lines.get("decks") or self.meta_lines.get("card")

    def category_of(self, card) -> Category | None:
        """The printed category of a card's ability, when the game declares categories."""
        if card.ability is None or not self.categories:
            return None
        kind = self.effects.get(card.ability.kind)
        return next((c for c in self.categories if kind and c.id == kind.category), None)

    def faction(self, faction_id) -> Faction:
        return next(f for f in self.factions if f.id == faction_id)

    def rank(self, rank_id) -> Rank:
        return next(r for r in self.ranks if r.id == rank_id)

    def card(self, card_id) -> Card:
        return next(c for c in self.cards if c.id == card_id)

    def deck(self, deck_id: str) -> Deck:
        """One deck by id (KeyError when the game has none of that id)."""
        for d in self.decks:
            if d.id == deck_id:
                return d
        raise KeyError(deck_id)

    def deck_of(self, card) -> Deck:
        """The deck ``card`` belongs to."""
        return self.deck(card.deck)

    @property
    def several_decks(self) -> bool:
        return len(self.decks) > 1

    def copies_for(self, card: Card, players: int | None = None) -> int:
        """Copies of ``card`` for ``players`` (its deck's max_copies_by_players caps them)."""
        return self.deck_of(card).copies_for(card, players)

    def deck_for(self, players: int | None = None) -> list[Card]:
        """Every physical card of every deck in data order, copies expanded (the full decks when None)."""
        return [c for d in self.decks for c in d.physical(players)]

    @property
    def aid_count(self) -> int:
        """Player-aid cards of every deck."""
        return sum(d.aid_copies for d in self.decks)

    def source(self, card, key: str | None = None) -> tuple:
        """(path, line) of a card's entry in its deck's file (of its ``key`` when the file gives one)."""
        deck = self.deck_of(card)
        path, line = self.sources.get(card.id, (deck.cards_file, None))
        return path, (self.field_lines.get((card.id, key)) if key else None) or line

    @property
    def effects(self) -> dict:
        from rules_engine.core.contract import engine_named

        return engine_named(self.engine).EFFECTS if self.engine else {}


_FIELDS_HASH = Game.__hash__
#: Each game's hash, by the game's id (with a weak reference to it, so an id a newer game took is not
#: mistaken for it).
_HASHES: dict = {}


def _kept_hash(game) -> int:
    """The game's hash as its dataclass makes it (its compared fields), worked out once per game object:
    it hashes every card of every deck, and every memo keyed by the game (``lru_cache``) hashed it again at
    each look-up, which a 20,000-card deck paid thousands of times. A game is frozen: its hash never changes."""
    found = _HASHES.get(id(game))
    if found is not None and found[0]() is game:
        return found[1]
    value = _FIELDS_HASH(game)
    if len(_HASHES) >= 64:
        _HASHES.clear()
    _HASHES[id(game)] = (weakref.ref(game), value)
    return value


Game.__hash__ = _kept_hash


def resolve_game_dir(game: str | Path | None) -> Path:
    """A bundled game's name (a folder under data/) or the path of a game folder; None = the default game."""
    if game is None:
        game = default_game()
    candidate = Path(game)
    if (candidate / "game.yaml").exists():       # a folder or unreadable game.yaml is reported by the loader
        return candidate
    bundled = DATA_DIR / str(game)
    if (bundled / "game.yaml").is_file():
        return bundled
    raise UserError(f"no game {excerpt(str(game))}: not a bundled game ({', '.join(bundled_games()) or 'none'}) "
                    f"nor a folder with a game.yaml")


def bundled_games() -> list[str]:
    """Names of the games under data/."""
    return sorted(p.name for p in DATA_DIR.iterdir() if (p / "game.yaml").is_file()) if DATA_DIR.is_dir() else []


def _effect_field(param) -> Field:
    listed = param.type in ("list", "steps")
    return Field("list" if listed else param.type, required=param.required,
                 default=param.default, choices=param.choices, min=param.min, max=param.max,
                 items=Field("int") if listed else None, nullable=not param.required)


def _check_ability(raw, effects, steps, problems, path, line, subject):
    if raw is None or effects is None:
        return None
    if not isinstance(raw, dict):
        problems.error(path, line, subject, "ability: expected a mapping with 'kind' and its parameters")
        return None
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in effects:
        known = ", ".join(effects) or "none (the game has no rules engine)"
        problems.error(path, line_of(raw, "kind") or line, subject,
                       f"ability.kind: unknown effect kind {excerpt(kind)}; known kinds: {known}")
        return None
    spec = effects[kind]
    schema = {"kind": Field("str", required=True), "step": Field("int", nullable=True)}
    schema.update({name: _effect_field(p) for name, p in spec.params.items()})
    clean = check(raw, schema, problems, path, subject, prefix="ability")
    step = clean.get("step")
    if spec.needs_step and step is None:
        problems.error(path, line_of(raw, "kind") or line, subject,
                       f"ability.step: '{kind}' resolves at a step; give step: one of {', '.join(map(str, steps))}")
    elif step is not None and step not in steps:
        problems.error(path, line_of(raw, "step"), subject,
                       f"ability.step: {step} is not one of {', '.join(map(str, steps))}")
    for name, param in spec.params.items():
        if param.type == "steps":       # a list of the engine's steps (e.g. the steps an ability blocks)
            for s in clean.get(name) or []:
                if s not in steps:
                    problems.error(path, line_of(raw, name), subject, f"ability.{name}: {s} is not a step")
    params = {k: v for k, v in clean.items() if k not in ("kind", "step")}
    return Ability(kind=kind, step=step, params=params)


def load_game(game: str | Path, problems: Problems | None = None, strict: bool = True) -> Game | None:
    """Load and check a game folder. With ``strict`` any error raises DataError (all errors at once).

    Without ``strict``, every problem of game.yaml and of every deck's cards file is added to
    ``problems`` and the game is returned as far as it could be read (None when game.yaml itself is
    unusable).
    """
    problems = Problems() if problems is None else problems
    root = resolve_game_dir(game)
    game_path = root / "game.yaml"
    before = len(problems.errors)
    raw_game = load_yaml_or_report(game_path, problems, within=root)
    if not isinstance(raw_game, dict):
        if len(problems.errors) == before:   # an empty file, or a list: nothing to build from
            what = "is empty" if raw_game is None else f"holds {_describe_top(raw_game)}"
            problems.error(game_path, getattr(raw_game, "line", None), None,
                           f"the file {what}; expected a mapping with title, players, decks, components, ...")
        if strict:
            problems.raise_if_errors()
        return None
    meta = check(raw_game, GAME_SCHEMA, problems, game_path)
    _check_meta(meta, raw_game, problems, game_path)
    decks = parse_decks(meta, raw_game, root, problems, game_path)
    decks = _deck_layouts(decks, meta.get("palette") or {}, root, problems, game_path, raw_game)
    specs = parse_components(raw_game, problems, game_path)
    icon_set = load_icons(root, raw_game.get("icons"), problems, game_path)
    _check_deck_icons(decks, icon_set, raw_game, problems, game_path)
    lines = {}
    factions = tuple(
        Faction(f["id"], f["name"], f.get("adjective") or f["name"], f["colour"], f.get("emblem") or "star",
                grammar_of(f.get("gender"), f.get("article")))
        for f in _unique(meta, raw_game, "factions", ("id", "name", "colour"), problems, game_path, lines)
    )
    ranks = tuple(
        Rank(r["id"], r["name"], r.get("plural") or _plural(r["name"].lower(), meta, problems, game_path,
                                                             lines.get(("ranks", r["id"])), f"rank '{r['id']}'"),
             r["pips"])
        for r in _unique(meta, raw_game, "ranks", ("id", "name", "pips"), problems, game_path, lines)
    )
    look = load_look(root, meta.get("look"), raw_game.get("look"), icon_set, problems, game_path)
    icon_key = _icon_key(meta, raw_game, icon_set, problems, game_path)
    for f in factions:
        why = icon_set.problem(f.emblem)
        if why:
            problems.error(game_path, lines.get(("factions", f.id)), f"faction '{f.id}'", f"emblem: {why}")
    categories = tuple(
        Category(c["id"], c["name"], c["colour"])
        for c in _unique(meta, raw_game, "ability_categories", ("id", "name", "colour"), problems, game_path, lines)
    )
    engine = meta.get("engine")
    effects, steps, mod = {}, (), None
    if engine:
        mod = load_engine(engine, problems, game_path, line_of(raw_game, "engine"))
        if mod is not None:
            effects, steps = mod.EFFECTS, tuple(getattr(mod, "STEPS", (1, 2, 3)))
        else:
            effects = None      # abilities cannot be checked without the engine: its own error says why
    sources, field_lines = {}, {}
    loaded = []
    for deck in decks:
        art, side_art, side_lines = {}, {}, {}
        cards = _load_cards(root, deck, factions, ranks, effects, steps, problems, sources, art, icon_set,
                            (side_art, side_lines), field_lines)
        side_b = replace(deck.side_b, art=side_art, lines=side_lines) if deck.side_b is not None else None
        loaded.append(replace(deck, name=deck.name or meta.get("title") or "", cards=tuple(cards), art=art,
                              side_b=side_b))
    decks = tuple(loaded)
    for cid, twin in case_twins(sources).items():      # card ids name exported images: <id>-<copy>.png
        (path, line), (first_path, first_line) = sources[cid], sources[twin]
        first = f"line {first_line}" if first_path == path else f"{Path(first_path).name}:{first_line}"
        problems.error(path, line, f"card {excerpt(cid)}", f"id: differs from card '{twin}' ({first}) only in "
                                                            f"case; their exported images would be one file on "
                                                            f"Windows and macOS")
    cards = tuple(c for d in decks for c in d.cards)
    _check_categories(cards, categories, effects, sources, problems)
    if mod is not None:
        engine_contract(mod, engine, decks, factions, ranks, problems, game_path, raw_game, sources, field_lines)
    facts, counts = load_facts(root, meta.get("facts") or [], mod, engine, cards, problems, game_path, raw_game)
    data = load_data(root, meta.get("data") or [], problems, game_path, raw_game)
    marks = {}
    for deck in decks:
        if deck.cards_file is not None:
            marks[deck.cards_file] = sum(1 if WHOLE_PLACEHOLDER in c.placeholder else len(c.placeholder)
                                         for c in deck.cards)
    marks.update(counts)
    pieces, holdings, hexmap = (), (), None
    if any(key in raw_game for key in BOARD_KEYS):
        from pnp.loading.mapdata import load_board     # (and the hex geometry): only for a game with a board
        pieces, holdings, hexmap = load_board(root, raw_game, factions, getattr(mod, "PIECE_TRAITS", None),
                                              problems, game_path)
    if hexmap is not None and hexmap.placeholder:
        marks[hexmap.source] = marks.get(hexmap.source, 0) + 1
    name = root.resolve().name
    players, minutes = meta.get("players") or {}, meta.get("minutes") or {}
    unsure = unsure_keys(raw_game, [p.line for p in problems.errors[before:] if p.path == str(game_path)], decks)
    if raw_game.get("map") is not None and hexmap is None:     # the map file has problems of its own
        unsure += ("map.",)
    result = Game(
        root=root, id=name, title=meta.get("title") or name, author=meta.get("author") or "",
        publisher=meta.get("publisher") or "", artist=meta.get("artist") or "",
        credits=tuple((c["role"], c["name"]) for c in meta.get("credits") or ()
                      if c.get("role") and c.get("name") and c.get("box", True) is not False),
        book_credits=tuple((c["role"], c["name"]) for c in meta.get("credits") or ()
                           if c.get("role") and c.get("name") and c.get("box", True) is False),
        players=Span(players.get("min", 1), players.get("max", 1)),
        minutes=Span(minutes["min"], minutes["max"]) if {"min", "max"} <= minutes.keys() else None,
        ages=meta.get("ages"), engine=engine, language=meta.get("language") or "en",
        source_language=meta.get("language") or "en",
        categories=categories, factions=factions, ranks=ranks, cards=cards, decks=decks,
        components=tuple(c.id for c in specs), component_specs=specs, sources=sources, icons=icon_set,
        power_track=meta.get("power_track") or {}, facts=facts, data=data, placeholders=marks, pieces=pieces,
        holdings=holdings, map=hexmap, look=look, version=meta.get("version") or git_commit(root),
        meta_lines=dict(getattr(raw_game, "key_lines", {})), item_lines=lines, unsure=unsure, field_lines=field_lines,
        spelling=meta.get("spelling"), icon_key=icon_key,
    )
    if engine:
        from rules_engine.core import faults

        faults.REPLAY_GAME = str(game) if game is not None else display_path(root)   # a fault's replay names it
    if engine and not problems.errors:
        _check_engine_accepts(result, problems)
    if strict:
        problems.raise_if_errors()
    return result


#: The translation sections whose words game.yaml's top-level keys write (see :func:`unsure_keys`); a
#: section keyed by the ids of the key's list entries when its prefix ends with a dot.
TRANSLATED_KEYS = {"title": "title", "decks": "decks.", "card": "decks.", "factions": "factions.",
                   "ranks": "ranks.", "ability_categories": "categories.", "components": "components.",
                   "pieces": "pieces.", "holdings": "holdings.", "credits": "credits.", "map": "map."}


def unsure_keys(raw, lines: list, decks) -> tuple:
    """The translation key prefixes of what game.yaml (``raw``) writes at the ``lines`` of its errors: the
    entry of a list of things with ids (``decks.lanterns.``, ``components.keepers.``), else the whole
    section (``factions.``); every section for an error without a line. A deck left out altogether takes
    its cards' words with it (``cards.``: its cards file was not read)."""
    if not lines:
        return ()
    if None in lines:
        return tuple(dict.fromkeys(TRANSLATED_KEYS.values())) + ("cards.",)
    tops = sorted((line, key) for key, line in getattr(raw, "key_lines", {}).items() if line is not None)
    out = []
    for line in lines:
        key = next((k for at, k in reversed(tops) if at <= line), None)
        prefix = TRANSLATED_KEYS.get(key)
        if prefix is None:
            continue
        items = raw.get(key)
        if prefix.endswith(".") and isinstance(items, list) and key != "card":
            at = [i for i in range(len(items)) if (line_of(items, i) or 0) <= line]
            item = items[at[-1]] if at else None
            ident = item.get("id", item.get("kind")) if isinstance(item, dict) else item
            prefix = f"{prefix}{ident}." if isinstance(ident, str) else prefix
        out.append(prefix)
    loaded = {d.id for d in decks}
    raw_decks = raw.get("decks") if isinstance(raw.get("decks"), list) else []
    if any(not (isinstance(d, dict) and d.get("id") in loaded) for d in raw_decks) or \
            ("card" in raw and not decks):
        out.append("cards.")
    return tuple(dict.fromkeys(out))


def git_commit(root: Path) -> str:
    """The short id (7 hex digits) of the commit checked out in ``root`` when it is a git repository's top
    folder, else "". Read from ``.git`` as files: running git in a stranger's repository could run what its
    configuration says (hooks, an fsmonitor command)."""
    git = root / ".git"
    try:
        if git.is_file():                    # a worktree or submodule: "gitdir: <path>"
            text = git.read_text(encoding="utf-8", errors="replace").strip()
            if not text.startswith("gitdir:"):
                return ""
            git = (root / text[len("gitdir:"):].strip()).resolve()
        head = (git / "HEAD").read_text(encoding="ascii", errors="replace").strip()
        if head.startswith("ref:"):
            ref = head[4:].strip()
            common = git
            if (git / "commondir").is_file():
                common = (git / (git / "commondir").read_text(encoding="ascii").strip()).resolve()
            path = common / ref
            if ref.startswith("refs/") and ".." not in ref and path.is_file():
                head = path.read_text(encoding="ascii", errors="replace").strip()
            else:
                packed = common / "packed-refs"
                lines = packed.read_text(encoding="ascii", errors="replace").splitlines() if packed.is_file() else []
                head = next((ln.split()[0] for ln in lines if ln.endswith(" " + ref)), "")
    except OSError:
        return ""
    return head[:7] if re.fullmatch(r"[0-9a-f]{40}([0-9a-f]{24})?", head) else ""


def _deck_layouts(decks, palette: dict, root, problems, path, raw) -> tuple:
    """Each deck with its layouts loaded (``layout:``; default: the bundled ``classic``), the game's
    ``palette`` laid over theirs."""
    from pnp.loading.cardlayout import load_choice

    def recolour(layout):
        return replace(layout, palette=tuple({**layout.palette_dict(), **palette}.items()))

    def loaded(written, line, where, keyed):
        choice = load_choice(written, root, problems, path, line, where)
        if choice is not None and choice.by is not None:
            _check_layout_key(choice, keyed, problems, path, where)
        if choice is not None and palette:
            choice = replace(choice, default=recolour(choice.default),
                             layouts=tuple((v, recolour(lay)) for v, lay in choice.layouts))
        return choice

    out = []
    for deck in decks:
        one = deck.id == DEFAULT_DECK and "card" in raw
        where = "card.layout" if one else f"deck '{deck.id}' layout"
        choice = loaded(deck.layout, _layout_line(raw, deck) or deck.line, where, deck)
        side_b = deck.side_b
        if side_b is not None:       # side B's layout (default: the bundled classic, as a deck's)
            side_b = replace(side_b, layout=loaded(side_b.layout, _layout_line(raw, deck, "side_b") or side_b.line,
                                                   "card.side_b.layout" if one else f"deck '{deck.id}' side_b.layout",
                                                   replace(deck, fields=side_b.fields)))
        out.append(replace(deck, layout=choice, side_b=side_b))
    return tuple(out)


def _check_layout_key(choice, deck, problems, path, where) -> None:
    """A deck's ``layout: {by: KEY}`` names a card key of the deck (one of its fields, or a key every card
    has): any other would quietly draw every card with the default layout."""
    keys = [f.name for f in deck.fields] + [k for k in BUILTIN_KEYS if k not in ("ability", "placeholder")]
    if choice.by in keys:
        return
    close = closest(choice.by, [f.name for f in deck.fields], builtin=BUILTIN_KEYS)
    hint = f"; did you mean '{close}'?" if close else f" (its keys: {', '.join(keys)})"
    problems.error(path, choice.line("by"), None, f"{where}.by: {excerpt(choice.by)} is not a card key of the "
                                                   f"deck{hint}")


def _layout_line(raw, deck, within: str | None = None) -> int | None:
    """The line of the deck's ``layout:`` in game.yaml (``raw``), where a problem naming it belongs
    (``within="side_b"``: its side B's ``layout:``)."""
    items = [raw["card"]] if deck.id == DEFAULT_DECK and isinstance(raw.get("card"), dict) else \
        [item for item in (raw.get("decks") if isinstance(raw.get("decks"), list) else ())
         if isinstance(item, dict) and item.get("id") == deck.id]
    if within is not None:
        items = [item[within] for item in items if isinstance(item.get(within), dict)]
    return next((line_of(item, "layout") for item in items if "layout" in item), None)


def _check_deck_icons(decks, icon_set, raw, problems, path) -> None:
    """Every badge field and back emblem names an icon the game has."""
    for deck in decks:
        where = "card" if deck.id == DEFAULT_DECK and "card" in raw else f"deck '{deck.id}'"
        back = deck.back
        if back is not None:
            for name in [back.emblem] + [e for _, e in back.emblems]:
                why = icon_set.problem(name) if name is not None else None
                if why:
                    problems.error(path, back.line, None, f"{subkey(where, 'back.emblem')}: {why}")
        own = deck.side_b.fields if deck.side_b is not None and deck.side_b.own_fields else ()
        for f, fields in [(f, "fields") for f in deck.fields] + [(f, "side_b.fields") for f in own]:
            if f.icon is None:
                continue
            why = icon_set.problem(f.icon)
            if why:
                problems.error(path, f.line or deck.line, None, f"{subkey(where, fields)}.{f.name}.icon: {why}")


def parse_components(raw, problems: Problems, path) -> tuple:
    """game.yaml's ``components``: each a kind's name, or ``{kind, id, <settings of the kind>}``; ids
    (default: the kind) are unique, settings are checked against the kind's ``SCHEMA``."""
    from pnp.components import ALIASES, KINDS, ComponentSpec, schema

    raw_list = raw.get("components") if isinstance(raw.get("components"), list) else []
    specs, seen = [], {}
    kinds = sorted(set(KINDS) | set(ALIASES))
    for i, item in enumerate(raw_list):
        line = line_of(raw_list, i)
        # an entry is named by its id (by default its kind) once its kind is known, else by its place
        known_kind = isinstance(item, dict) and item.get("kind") in kinds
        where = entry("components", {"id": item.get("id", item.get("kind"))} if known_kind else None, i)
        if isinstance(item, str):
            kind, cid, config = item, item, {}
            if kind not in kinds:
                close = closest(kind, kinds)
                hint = f" (did you mean '{close}'?)" if close else ""
                problems.error(path, line, None, f"{where}: unknown component {excerpt(kind)}{hint}; known: "
                                                 f"{', '.join(kinds)}")
                continue
        elif isinstance(item, dict):
            kind = item.get("kind")
            if kind not in kinds:
                problems.error(path, line_of(item, "kind") or line, None,
                               f"{subkey(where, 'kind')}: {excerpt(kind)} is not one of: {', '.join(kinds)}")
                continue
            fields = {"kind": Field("str", required=True), "id": Field("id", default=kind)}
            fields.update(schema(kind))
            config = check(item, fields, problems, path, prefix=where)
            cid = config.pop("id", kind) or kind
            config.pop("kind", None)
        else:
            problems.error(path, line, None, f"{where}: expected a component kind or {{kind: ..., id: ...}}, "
                                             f"got {excerpt(item)}")
            continue
        if cid in seen:
            problems.error(path, line, None, f"{entry('components', item, i, named=False)}: a second component "
                                             f"'{cid}' (first at line {seen[cid]}); "
                                             f"give each its own id")
            continue
        seen[cid] = line
        specs.append(ComponentSpec(ALIASES.get(kind, kind), cid, config, line))
    return tuple(specs)


#: Engine key types and the deck field types that satisfy them.
_CONTRACT_TYPES = {"int": ("int",), "str": ("text", "choice"), "bool": ("bool",), "list": ("list",)}


def load_engine(name: str, problems: Problems, path, line):
    """The installed engine ``name`` (entry point group ``pnp.engines``), or None after reporting why it
    cannot be used: no engine of that name is installed (the closest installed names), it fails to
    import, or it does not export the engine protocol."""
    from rules_engine import EngineImportError, UnknownEngine, engine_target
    from rules_engine.protocol import missing_names

    try:
        module = engine_module(name)
    except UnknownEngine as exc:
        close = closest(name, exc.known)
        hint = f" (did you mean '{close}'?)" if close else ""
        known = ", ".join(exc.known) or "none"
        problems.error(path, line, None, f"engine: no installed rules engine is named '{name}'{hint}; installed "
                                         f"engines: {known} (an engine is a Python package registered in the "
                                         f"entry-point group 'pnp.engines', see docs/engine.md)")
        return None
    except EngineImportError as exc:     # it raised, exited or took too long: say which, without a traceback
        problems.error(path, line, None, f"engine: {exc}")
        return None
    missing = missing_names(module)
    if missing:
        problems.error(path, line, None, f"engine: the rules engine '{name}' ({engine_target(name)}) does not "
                                         f"export {', '.join(missing)} (the engine contract, docs/engine.md)")
        return None
    declared = getattr(module.ENGINE, "name", None)
    if declared != name:
        problems.error(path, line, None, f"engine: the rules engine '{name}' ({engine_target(name)}) calls itself "
                                         f"{excerpt(declared)} in ENGINE.name; it must be its entry point's name, "
                                         f"'{name}' (simulations look it up by that name)")
        return None
    from rules_engine.core.contract import engine_api

    return engine_api(module)          # its own names, and the contract's defaults for those it leaves out


def engine_contract(module, engine: str, decks, factions, ranks, problems: Problems, path, raw, sources=None,
                    field_lines=None) -> None:
    """The card keys the engine reads (its ``CARD_KEYS``: deck id -> key -> Param) exist in the data with
    the right type, are present on every card when the engine needs them, and every card's value lies in
    the range the engine declares (``min``/``max``, ``choices``): an error at the card's line."""
    wanted = getattr(module, "CARD_KEYS", None)
    if not wanted:
        return
    by_id = {d.id: d for d in decks}
    for deck_id, keys in wanted.items():
        deck = by_id.get(deck_id)
        who = f"engine '{engine}'"
        if deck is None:
            problems.error(path, line_of(raw, "decks") or line_of(raw, "card"), who,
                           f"plays the deck '{deck_id}', which game.yaml does not declare "
                           f"(decks: {', '.join(by_id) or 'none'})")
            continue
        line = deck.line
        for key, param in keys.items():
            if key in ("faction", "rank"):
                if param.required and not (factions if key == "faction" else ranks):
                    problems.error(path, line, who, f"reads every card's {key}, but game.yaml declares no "
                                                    f"{key}s")
                continue
            if key in BUILTIN_KEYS:
                continue
            f = deck.field(key)
            where = "card.fields" if deck.id == DEFAULT_DECK and "card" in raw else f"deck '{deck.id}' fields"
            if f is None:
                problems.error(path, line, who,
                               f"reads the card field '{key}' ({param.type}) of deck '{deck.id}', which {where} "
                               f"does not declare")
            elif f.type not in _CONTRACT_TYPES.get(param.type, (param.type,)):
                problems.error(path, line, who, f"reads the card field '{key}' as {param.type}, but {where} "
                                                f"declares it {f.type}")
            elif param.required and not f.required and f.default is None:
                problems.error(path, line, who, f"needs the card field '{key}' on every card: make it "
                                                f"required or give it a default in {where}")
            else:
                _card_ranges(engine, deck, key, param, problems, sources or {}, field_lines or {})


def _card_ranges(engine: str, deck, key: str, param, problems: Problems, sources: dict, field_lines: dict) -> None:
    """Every card of ``deck`` whose value of ``key`` lies outside the engine's declared range."""
    for card in deck.cards:
        outside = outside_range(engine, key, card.stats.get(key), param)
        if outside:
            where, line = sources.get(card.id, (deck.cards_file, None))
            problems.error(where, field_lines.get((card.id, key)) or line, f"card '{card.id}'", outside)


def outside_range(engine: str, key: str, value, param) -> str | None:
    """Why a card's ``value`` of ``key`` lies outside the range the engine declares for it (its ``CARD_KEYS``
    Param: ``min``/``max``, ``choices``), or None when it lies inside or the Param declares none."""
    low, high, choices = param.min, param.max, param.choices
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, (int, float)) and (low is not None and value < low or high is not None and value > high):
        allowed = f"{low if low is not None else '…'}..{high if high is not None else '…'}"
    elif choices and value not in choices:
        allowed = ", ".join(map(str, choices))
    else:
        return None
    return f"{key}: {value} is outside what the rules engine '{engine}' plays ({allowed})"


def _check_engine_accepts(game, problems: Problems) -> None:
    """The rules engine compiles the cards (it refuses, with a ValueError, data it cannot play: a Behind
    the Throne character without a value, say); its reason becomes a problem at the card's line."""
    from rules_engine.core.contract import engine_named

    engine = engine_named(game.engine)
    try:
        rules = engine.rules_for(game)
    except ValueError as exc:
        message = str(exc)
        card_id = message.split("'")[1] if message.startswith("card '") and message.count("'") >= 2 else None
        card = next((c for c in game.cards if c.id == card_id), None)
        path, line = game.source(card) if card else game.where("engine")
        subject = f"card '{card_id}'" if card else None
        if subject:
            message = message.split(": ", 1)[-1]
        problems.error(path, line, subject, f"the rules engine cannot play this: {message[:200]}")
        return
    most = rules.max_players()          # the largest table these cards seat, by the engine's count
    if not isinstance(most, int) or isinstance(most, bool):
        problems.error(*game.where("engine"), None, f"engine: the rules engine '{game.engine}' gives "
                                                    f"{excerpt(most)} as max_players(), not a whole number")
    elif most < game.players.max:
        problems.error(*game.where("players"), None,
                       f"players: up to {game.players.max}, but the rules engine '{game.engine}' seats at most "
                       f"{most} with these cards (its max_players()); lower max or add cards")


def _describe_top(value) -> str:
    return "a list" if isinstance(value, list) else f"only {excerpt(value)}"


#: Sane bounds for the facts printed on the box and the rulebook's cover.
MAX_PLAYERS, MAX_MINUTES, MAX_AGE = 20, 1440, 99


def _check_meta(meta: dict, raw, problems: Problems, path) -> None:
    """Cross-field checks of game.yaml: ranges in order, fields that exist, at least one component."""
    for key in ("players", "minutes"):
        pair = meta.get(key) or {}
        if {"min", "max"} <= pair.keys() and pair["min"] > pair["max"]:
            problems.error(path, line_of(raw.get(key), "min") or line_of(raw, key), None,
                           f"{key}: min {pair['min']} is more than max {pair['max']}")
    version = meta.get("version")
    if version and (len(version) > VERSION_LENGTH or not version.isprintable()):
        problems.error(path, line_of(raw, "version"), None,
                       f"version: {excerpt(version)} is longer than {VERSION_LENGTH} characters or holds a line "
                       f"break; it prints small in a corner of every card")
    players = meta.get("players") or {}
    if players.get("min") == 0:
        problems.error(path, line_of(raw.get("players"), "min"), None, "players.min: a game needs at least 1 player")
    if "components" in meta and not meta["components"]:
        problems.error(path, line_of(raw, "components"), None,
                       f"components: the kit lists nothing to build; list some of {', '.join(KNOWN_COMPONENTS)}")
    rule_sets = [("deck", meta.get("deck") or {}, raw.get("deck"))]
    raw_decks = raw.get("decks") if isinstance(raw.get("decks"), list) else []
    for i, d in enumerate(meta.get("decks") or []):
        raw_deck = raw_decks[i] if i < len(raw_decks) and isinstance(raw_decks[i], dict) else None
        rule_sets.append((subkey(entry("decks", d, i), "copies"), d.get("copies") or {},
                          raw_deck.get("copies") if raw_deck else None))
    for where, rules, raw_rules in rule_sets:
        for count in rules.get("max_copies_by_players") or {}:
            if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_PLAYERS:
                problems.error(path, line_of(raw_rules, "max_copies_by_players"), None,
                               f"{where}.max_copies_by_players: {excerpt(count)} is not a player count")


def _plural(name: str, meta, problems, path, line, subject: str) -> str:
    """The plural of a name game.yaml gives none for (:func:`pnp.text.grammar.default_plural`): inflect's in
    English; in another language a warning at the entry's line asking for it, and the name itself."""
    plural, problem = default_plural(name, meta.get("language") or "en")
    if problem:
        problems.warn(path, line, subject, problem)
    return plural


def _unique(meta, raw, key, needed, problems, path, lines) -> list:
    """The complete entries of a game.yaml list with ids (factions, ranks, ...), duplicates reported.
    Records each entry's line in ``lines`` as (key, id) -> line."""
    raw_list = raw.get(key) if isinstance(raw.get(key), list) else None
    out, seen = [], {}
    checked = iter(meta.get(key) or [])     # one checked mapping per raw mapping, in order
    for i, item in enumerate(raw_list or []):
        line = line_of(raw_list, i)
        if not isinstance(item, dict):
            continue
        clean = next(checked, None)
        if clean is None or not set(needed) <= clean.keys():
            continue
        if clean["id"] in seen:
            problems.error(path, line, None, f"{entry(key, clean, i, named=False)}: id: duplicate id '{clean['id']}' "
                                             f"(first at line "
                                             f"{seen[clean['id']]})")
            continue
        seen[clean["id"]] = line
        lines[(key, clean["id"])] = line
        out.append(clean)
    return out


def _load_cards(root, deck, factions, ranks, effects, steps, problems, sources, art, icons=BUILTIN,
                side_b=None, field_lines=None) -> list:
    """A deck's cards file checked against its fields: [Card]; ``sources`` gets card id -> (path, line),
    ``field_lines`` (card id, key) -> the line that writes the key (a CSV row's line).
    The card markup of its texts (flavour, ``text`` fields) is checked at the cell or line that wrote it,
    a double-sided card's side B as its face (``side_b``: dicts of card id -> its side B's art, and -> the
    lines of what it writes under side_b)."""
    side_art, side_lines = side_b if side_b is not None else ({}, {})
    raw_list, top = read_cards(deck, root, problems)
    path = deck.cards_file
    schema = card_schema(deck, factions, ranks)
    markup_keys = ["flavour"] + [f.name for f in deck.fields if f.type == "text"]
    cards, dropped = [], False
    for i, raw in enumerate(raw_list):
        line = line_of(raw_list, i)
        cid = raw.get("id") if isinstance(raw, dict) else None
        cid = cid if isinstance(cid, str) else None
        subject = f"card {excerpt(cid)}" if cid else entry("cards", None, i)
        if cid is not None and cid in sources:
            first_path, first_line = sources[cid]
            first = f"line {first_line}" if first_path == str(path) else f"{Path(first_path).name}:{first_line}"
            problems.error(path, line_of(raw, "id"), subject, f"id: duplicate id (first at {first})")
        clean = check(raw, schema, problems, path, subject)
        for key in markup_keys:
            if isinstance(clean.get(key), str):
                for message in card_markup_problems(clean[key], icons.names):
                    problems.error(path, line_of(raw, key) or line, subject, f"{key}: {message}")
        for message in exactly_one_problems(deck, clean):
            problems.error(path, line, subject, message)
        ability = _check_ability(clean.get("ability"), effects, steps, problems, path,
                                 line_of(raw, "ability") or line, subject)
        mark = placeholders.check_mark(
            clean.get("placeholder"), list(raw) if isinstance(raw, dict) else [],
            lambda message: problems.error(path, placeholders.mark_line(raw) or line, subject, message))
        if not {"id", "name", "copies"} <= clean.keys():
            dropped = True
            continue
        side = _side_b_of(root, deck, raw, clean, problems, path, line, subject, icons, side_art, side_lines)
        picture = card_art(root, clean, raw, problems, path, subject, deck.bleed)
        cards.append(new_card(deck, clean, ability, mark, replace(side, placeholder=mark) if side else None))
        sources.setdefault(clean["id"], (str(path), line))
        if field_lines is not None and isinstance(raw, dict):
            for key in raw:
                field_lines.setdefault((clean["id"], key), line_of(raw, key) or line)
        if picture is not None:
            art[clean["id"]] = picture
    if not dropped and top is not None:   # a card left out for its own errors would only add count errors
        check_deck_rules(deck, cards, factions, problems, path, getattr(top, "line", None))
    return cards


def _side_b_of(root, deck, raw, clean, problems, path, line, subject, icons, side_art, side_lines):
    """The side B (a :class:`~rules_engine.model.cards.Card`) a card of ``deck`` gives under ``side_b``, checked
    as its face is (side B's fields, card markup at its cell or line, art), or None: a card of a deck of
    one-faced cards (``side_b`` there is an error), or without one in a mixed deck (in a deck whose side B
    is ``required``, an error)."""
    given = raw.get("side_b") if isinstance(raw, dict) else None
    where = line_of(raw, "side_b") or line
    if deck.side_b is None:
        if given is not None:
            problems.error(path, where, subject, f"side_b: the cards of deck '{deck.id}' have one face; give the "
                                                 f"deck side_b: in game.yaml (its layout, and fields when side B "
                                                 f"has others) to make them double-sided")
        return None
    if given is None:
        if deck.side_b.required:
            problems.error(path, line, subject, f"side_b: the cards of deck '{deck.id}' are double-sided (side_b in "
                                                f"game.yaml); give this card's side B (side_b: {{name: ...}}, "
                                                f"or side_b.name and its other columns in a spreadsheet), or "
                                                f"side_b: {{required: false}} for a deck whose other cards print "
                                                f"its back")
        return None
    side = check(given, side_b_schema(deck), problems, path, subject, prefix="side_b")
    for key in ["flavour"] + [f.name for f in deck.side_b.fields if f.type == "text"]:
        if isinstance(side.get(key), str):
            for message in card_markup_problems(side[key], icons.names):
                problems.error(path, line_of(given, key) or where, subject, f"side_b.{key}: {message}")
    view = deck.b if deck.b is not None else deck
    for message in exactly_one_problems(view, side):
        problems.error(path, where, subject, f"side_b: {message}")
    if "name" not in side or not isinstance(given, dict) or not {"id", "copies"} <= clean.keys():
        return None
    side_lines[clean["id"]] = {"side_b": where, **{key: line_of(given, key) for key in given
                                                   if line_of(given, key) is not None}}
    picture = card_art(root, side, given, problems, path, subject, deck.bleed, prefix="side_b.")
    if picture is not None:
        side_art[clean["id"]] = picture
    return side_b_card(deck, clean, side)


def _check_categories(cards, categories, effects, sources, problems) -> None:
    declared = {c.id for c in categories}
    if not declared or effects is None:
        return
    for card in cards:
        kind = effects.get(card.ability.kind) if card.ability else None
        if kind is not None and kind.category is not None and kind.category not in declared:
            path, line = sources.get(card.id, (None, None))
            problems.error(path, line, f"card '{card.id}'",
                           f"ability '{kind.name}' is {kind.category}, which "
                           f"game.yaml's ability_categories does not declare")
