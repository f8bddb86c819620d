"""Load a game folder (``game.yaml``, ``cards.yaml``, ...) into checked, frozen game facts.

Everything wrong is collected as :class:`~pnp.errors.Problem` objects with file and line; the caller
decides whether to stop (``load_game(..., strict=True)`` raises :class:`~pnp.errors.DataError`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from pnp import DATA_DIR, default_game
from pnp.errors import Problems, UserError
from pnp.layout.icon_names import ICON_NAMES
from pnp.paths import excerpt
from pnp.schema import Field, check
from pnp.yamlsrc import line_of, load_yaml_or_report
from rules_engine import engine_module
from rules_engine.model import Ability, Card, Faction, Rank

#: Component kinds a game may list (see pnp/components/); kit order is each component's own.
KNOWN_COMPONENTS = ("instructions", "power_track", "cards", "tokens", "rulebook", "box")

def _range(most: int) -> dict:
    return {"min": Field("int", required=True, min=0, max=most), "max": Field("int", required=True, min=1, max=most)}

_FIELD_SCHEMA = {
    "required": Field("bool", default=False, doc="every card must give this value"),
    "default": Field("int", nullable=True, doc="value when a card leaves it out"),
    "min": Field("int", default=0),
    "max": Field("int", default=99),
    "icon": Field("str", required=True, choices=tuple(sorted(ICON_NAMES)), doc="icon drawn next to the value"),
}

GAME_SCHEMA = {
    "title": Field("str", required=True, blank=False),
    "author": Field("str", default=""),
    "publisher": Field("str", default=""),
    "players": Field("map", required=True, schema=_range(20)),
    "minutes": Field("map", schema=_range(1440)),
    "ages": Field("int", min=0, max=99),
    "engine": Field("package", nullable=True, doc="rules_engine subpackage that plays the game"),
    "language": Field("language", default="en"),
    "templates": Field("id", doc="template folder name under templates/*/ (default: the game folder's name)"),
    "card": Field("map", required=True, schema={
        "width": Field("length", required=True, min=20, max=200),
        "height": Field("length", required=True, min=20, max=300),
        "fields": Field("dict", default={}, items=Field("map", schema=_FIELD_SCHEMA)),
        "exactly_one_of": Field("list", default=[], items=Field("list", items=Field("str"))),
        "watermark": Field("str", nullable=True, doc="a field printed large, pale, in the art area"),
    }),
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
        "emblem": Field("str", default="star", choices=tuple(sorted(ICON_NAMES))),
    })),
    "ranks": Field("list", default=[], items=Field("map", schema={
        "id": Field("id", required=True),
        "name": Field("str", required=True, blank=False),
        "plural": Field("str", blank=False),
        "pips": Field("int", required=True, min=0, max=5),
    })),
    "deck": Field("map", default={}, schema={
        "total": Field("int", min=1),
        "per_faction": Field("int", min=1),
        "copies_per_rank": Field("dict", items=Field("list", items=Field("int", min=1))),
        "max_copies_by_players": Field("dict", items=Field("int", min=1),
                                       doc="player count -> at most this many copies of each card"),
    }),
    "components": Field("list", required=True, items=Field("str", choices=KNOWN_COMPONENTS)),
    "player_aid": Field("map", default={}, schema={
        "copies": Field("int", default=0, min=0, max=20, doc="aid cards printed after the deck"),
        "template": Field("id", default="quick_reference",
                          doc="templates/aids/<game>/<lang>/<template>.md.j2"),
    }),
    "power_track": Field("map", default={}, schema={
        "spaces": Field("int", default=25, min=1, max=100),
        "columns": Field("int", default=5, min=1, max=10),
        "token_diameter": Field("length", default=20.0, min=5, max=60,
                                doc="diameter of the faction tokens that move on the track"),
    }),
}


@dataclass(frozen=True)
class CardField:
    name: str
    required: bool
    default: int | None
    min: int
    max: int
    icon: str


@dataclass(frozen=True)
class Category:
    """A printed ability category (e.g. manipulative): its name and the frame colour of its cards."""

    id: str
    name: str
    colour: str


@dataclass(frozen=True)
class Game:
    """A loaded game. ``cards`` holds one entry per distinct character; ``deck`` expands copies."""

    root: Path
    id: str
    title: str
    author: str
    publisher: str
    players: tuple
    minutes: tuple | None
    ages: int | None
    engine: str | None
    language: str
    card_width: float
    card_height: float
    card_fields: tuple
    factions: tuple
    ranks: tuple
    cards: tuple
    components: tuple
    exactly_one_of: tuple = ()
    source_language: str = "en"          # the language the YAML is written in
    templates: str = ""                   # template set: templates/<kind>/<templates>/...
    categories: tuple = ()                # Category per printed ability category
    watermark: str | None = None          # card field printed large in the art area
    power_track: dict = field(default_factory=dict, hash=False)
    player_aid: dict = field(default_factory=dict, hash=False)
    deck_rules: dict = field(default_factory=dict, hash=False)
    sources: dict = field(default_factory=dict, hash=False, compare=False)  # card id -> (path, line)
    meta_lines: dict = field(default_factory=dict, hash=False, compare=False)  # game.yaml key -> line
    item_lines: dict = field(default_factory=dict, hash=False, compare=False)  # ("factions", id) -> line

    def where(self, key: str, item: str | None = None) -> tuple:
        """(path, line) of a top-level key of game.yaml (or of its list entry with id ``item``)."""
        line = self.item_lines.get((key, item)) if item is not None else None
        return self.root / "game.yaml", line or self.meta_lines.get(key)

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

    @property
    def deck(self) -> list[Card]:
        """Every physical card in data order, copies expanded."""
        return [c for c in self.cards for _ in range(c.copies)]

    def copies_for(self, card: Card, players: int | None = None) -> int:
        """Copies of ``card`` in the deck for ``players`` (deck.max_copies_by_players caps them)."""
        caps = {int(k): v for k, v in (self.deck_rules.get("max_copies_by_players") or {}).items()}
        if players is not None and players in caps:
            return min(card.copies, caps[players])
        return card.copies

    def deck_for(self, players: int | None = None) -> list[Card]:
        """The physical deck for a player count (the full deck when None)."""
        return [c for c in self.cards for _ in range(self.copies_for(c, players))]

    @property
    def effects(self) -> dict:
        return engine_module(self.engine).EFFECTS if self.engine else {}


def resolve_game_dir(game: str | Path | None) -> Path:
    """A bundled game's name (a folder under data/) or the path of a game folder; None = the default game."""
    if game is None:
        game = default_game()
    candidate = Path(game)
    if (candidate / "game.yaml").is_file():
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
    return Field(param.type if param.type != "list" else "list", required=param.required,
                 default=param.default, choices=param.choices, min=param.min, max=param.max,
                 items=Field("int") if param.type == "list" else None, nullable=not param.required)


def _card_schema(factions, ranks, card_fields) -> dict:
    schema = {
        "id": Field("id", required=True),
        "name": Field("str", required=True, blank=False),
        "copies": Field("int", required=True, min=1, max=99),
        "flavour": Field("str", default=""),
        "ability": Field("any", nullable=True),
    }
    if factions:
        schema["faction"] = Field("str", required=True, choices=tuple(f.id for f in factions))
    if ranks:
        schema["rank"] = Field("str", required=True, choices=tuple(r.id for r in ranks))
    for f in card_fields:
        schema[f.name] = Field("int", required=f.required, default=f.default, min=f.min, max=f.max,
                               nullable=not f.required)
    return schema


def _check_ability(raw, effects, steps, problems, path, line, subject):
    if raw is None:
        return None
    if not isinstance(raw, dict):
        problems.error(path, line, subject, "ability: expected a mapping with 'kind' and its parameters")
        return None
    kind = raw.get("kind")
    if kind not in effects:
        known = ", ".join(effects) or "none (the game has no rules engine)"
        problems.error(path, line_of(raw, "kind"), subject,
                       f"ability.kind: unknown effect kind {kind!r}; known kinds: {known}")
        return None
    spec = effects[kind]
    schema = {"kind": Field("str", required=True), "step": Field("int", nullable=True)}
    schema.update({name: _effect_field(p) for name, p in spec.params.items()})
    clean = check(raw, schema, problems, path, subject, prefix="ability")
    step = clean.get("step")
    if spec.needs_step and step is None:
        problems.error(path, line_of(raw, "kind"), subject,
                       f"ability.step: '{kind}' resolves at a step; give step: one of {', '.join(map(str, steps))}")
    elif step is not None and step not in steps:
        problems.error(path, line_of(raw, "step"), subject,
                       f"ability.step: {step} is not one of {', '.join(map(str, steps))}")
    if kind == "suppress":
        for s in clean.get("steps") or []:
            if s not in steps:
                problems.error(path, line_of(raw, "steps"), subject, f"ability.steps: {s} is not a step")
    params = {k: v for k, v in clean.items() if k not in ("kind", "step")}
    return Ability(kind=kind, step=step, params=params)


def load_game(game: str | Path, problems: Problems | None = None, strict: bool = True) -> Game | None:
    """Load and check a game folder. With ``strict`` any error raises DataError (all errors at once).

    Without ``strict``, every problem of game.yaml and cards.yaml is added to ``problems`` and the game is
    returned as far as it could be read (None when game.yaml itself is unusable).
    """
    own = problems is None
    problems = Problems() if own else problems
    root = resolve_game_dir(game)
    game_path = root / "game.yaml"
    before = len(problems.errors)
    raw_game = load_yaml_or_report(game_path, problems, within=root)
    if not isinstance(raw_game, dict):
        if len(problems.errors) == before:   # an empty file, or a list: nothing to build from
            what = "is empty" if raw_game is None else f"holds {_describe_top(raw_game)}"
            problems.error(game_path, getattr(raw_game, "line", None), None,
                           f"the file {what}; expected a mapping with title, players, card, components, ...")
        if strict:
            problems.raise_if_errors()
        return None
    meta = check(raw_game, GAME_SCHEMA, problems, game_path)
    _check_meta(meta, raw_game, problems, game_path)
    card_meta = meta.get("card") or {}
    card_fields = tuple(
        CardField(name, f["required"], f["default"], f["min"], f["max"], f["icon"])
        for name, f in (card_meta.get("fields") or {}).items() if "icon" in f
    )
    lines = {}
    factions = tuple(
        Faction(f["id"], f["name"], f.get("adjective") or f["name"], f["colour"], f["emblem"])
        for f in _unique(meta, raw_game, "factions", ("id", "name", "colour"), problems, game_path, lines)
    )
    ranks = tuple(
        Rank(r["id"], r["name"], r.get("plural") or r["name"].lower() + "s", r["pips"])
        for r in _unique(meta, raw_game, "ranks", ("id", "name", "pips"), problems, game_path, lines)
    )
    categories = tuple(
        Category(c["id"], c["name"], c["colour"])
        for c in _unique(meta, raw_game, "ability_categories", ("id", "name", "colour"), problems, game_path, lines)
    )
    engine = meta.get("engine")
    effects, steps = {}, ()
    if engine:
        try:
            mod = engine_module(engine)
            effects, steps = mod.EFFECTS, tuple(getattr(mod, "STEPS", (1, 2, 3)))
        except ImportError:
            problems.error(game_path, line_of(raw_game, "engine"), None,
                           f"engine: no rules engine named '{engine}' (expected rules_engine/{engine}/)")
    cards, sources = _load_cards(root, meta, card_fields, factions, ranks, categories, effects, steps, problems)
    name = root.resolve().name
    players, minutes = meta.get("players") or {}, meta.get("minutes") or {}
    result = Game(
        root=root, id=name, title=meta.get("title") or name, author=meta.get("author") or "",
        publisher=meta.get("publisher") or "",
        players=(players.get("min", 1), players.get("max", 1)),
        minutes=(minutes["min"], minutes["max"]) if {"min", "max"} <= minutes.keys() else None,
        ages=meta.get("ages"), engine=engine, language=meta.get("language") or "en",
        source_language=meta.get("language") or "en", templates=meta.get("templates") or name,
        categories=categories, watermark=card_meta.get("watermark"),
        card_width=card_meta.get("width", 63.0), card_height=card_meta.get("height", 88.0),
        card_fields=card_fields, factions=factions, ranks=ranks, cards=tuple(cards),
        components=tuple(meta.get("components") or ()),
        exactly_one_of=tuple(tuple(g) for g in card_meta.get("exactly_one_of") or ()),
        deck_rules=meta.get("deck") or {}, sources=sources,
        power_track=meta.get("power_track") or {},
        player_aid=meta.get("player_aid") or {},
        meta_lines=dict(getattr(raw_game, "key_lines", {})), item_lines=lines,
    )
    if strict:
        problems.raise_if_errors()
    return result


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
    players = meta.get("players") or {}
    if players.get("min") == 0:
        problems.error(path, line_of(raw.get("players"), "min"), None, "players.min: a game needs at least 1 player")
    card = meta.get("card") or {}
    fields = card.get("fields") or {}
    for name, f in fields.items():
        if {"min", "max"} <= f.keys() and f["min"] > f["max"]:
            problems.error(path, line_of(fields, name), None, f"card.fields.{name}: min {f['min']} is more than "
                                                             f"max {f['max']}")
        elif f.get("default") is not None and not f.get("min", 0) <= f["default"] <= f.get("max", 99):
            problems.error(path, line_of(fields, name), None,
                           f"card.fields.{name}.default: {f['default']} is outside min..max")
    for group in card.get("exactly_one_of") or []:
        for name in group:
            if name not in fields:
                problems.error(path, line_of(raw.get("card"), "exactly_one_of"), None,
                               f"card.exactly_one_of: {excerpt(name)} is not one of card.fields")
    if card.get("watermark") is not None and card["watermark"] not in fields:
        problems.error(path, line_of(raw.get("card"), "watermark"), None,
                       f"card.watermark: {excerpt(card['watermark'])} is not one of card.fields")
    if "components" in meta and not meta["components"]:
        problems.error(path, line_of(raw, "components"), None,
                       f"components: the kit lists nothing to build; list some of {', '.join(KNOWN_COMPONENTS)}")
    caps = (meta.get("deck") or {}).get("max_copies_by_players") or {}
    for count in caps:
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_PLAYERS:
            problems.error(path, line_of(raw.get("deck"), "max_copies_by_players"), None,
                           f"deck.max_copies_by_players: {excerpt(count)} is not a player count")


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
            problems.error(path, line, None, f"{key}[{i + 1}].id: duplicate id '{clean['id']}' (first at line "
                                             f"{seen[clean['id']]})")
            continue
        seen[clean["id"]] = line
        lines[(key, clean["id"])] = line
        out.append(clean)
    return out


def _load_cards(root, meta, card_fields, factions, ranks, categories, effects, steps, problems):
    """cards.yaml checked against game.yaml: [Card], {card id: (path, line)}."""
    cards, sources = [], {}
    cards_path = root / "cards.yaml"
    before = len(problems.errors)
    raw_cards = load_yaml_or_report(cards_path, problems, within=root)
    if len(problems.errors) > before:
        return cards, sources         # unreadable or malformed: its one message is enough
    top = check(raw_cards, {"cards": Field("list", required=True)}, problems, cards_path)
    schema = _card_schema(factions, ranks, card_fields)
    card_meta = meta.get("card") or {}
    raw_list = raw_cards.get("cards") if isinstance(raw_cards, dict) else None
    dropped = False
    for i, raw in enumerate(top.get("cards") or []):
        line = line_of(raw_list, i)
        cid = raw.get("id") if isinstance(raw, dict) else None
        cid = cid if isinstance(cid, str) else None
        subject = f"card {excerpt(cid)}" if cid else f"card #{i + 1}"
        if cid is not None and cid in sources:
            problems.error(cards_path, line_of(raw, "id"), subject,
                           f"id: duplicate id (first at line {sources[cid][1]})")
        clean = check(raw, schema, problems, cards_path, subject)
        for group in card_meta.get("exactly_one_of") or []:
            given = [k for k in group if clean.get(k) is not None]
            if len(given) != 1:
                what = "both " + " and ".join(given) if given else "neither " + " nor ".join(group)
                problems.error(cards_path, line, subject, f"give exactly one of {', '.join(group)} (found {what})")
        ability = _check_ability(clean.get("ability"), effects, steps, problems, cards_path,
                                 line_of(raw, "ability") or line, subject)
        if not {"id", "name", "copies"} <= clean.keys():
            dropped = True
            continue
        stats = {f.name: clean.get(f.name) for f in card_fields}
        cards.append(Card(clean["id"], clean["name"], clean["copies"], clean.get("faction"),
                          clean.get("rank"), stats, ability, clean.get("flavour") or ""))
        sources.setdefault(clean["id"], (str(cards_path), line))
    if not cards and not dropped and "cards" in top:
        problems.error(cards_path, line_of(raw_cards, "cards"), None, "cards: the list is empty")
    declared = {c.id for c in categories}
    if declared:
        for card in cards:
            kind = effects.get(card.ability.kind) if card.ability else None
            if kind is not None and kind.category is not None and kind.category not in declared:
                path, line = sources.get(card.id, (cards_path, None))
                problems.error(path, line, f"card '{card.id}'",
                               f"ability '{kind.name}' is {kind.category}, which "
                               f"game.yaml's ability_categories does not declare")
    if not dropped:   # a card left out for its own errors would only add follow-on count errors
        _check_deck(cards, meta.get("deck") or {}, factions, problems, cards_path, raw_cards)
    return cards, sources


def _check_deck(cards, deck, factions, problems, path, raw_cards):
    """Deck rules from game.yaml: total cards, cards per faction, copy counts per rank."""
    top_line = getattr(raw_cards, "line", None)
    total = sum(c.copies for c in cards)
    if deck.get("total") is not None and total != deck["total"]:
        problems.error(path, top_line, "deck", f"{total} cards, but game.yaml's deck.total is {deck['total']}")
    if deck.get("per_faction") is not None:
        per = Counter()
        for c in cards:
            per[c.faction] += c.copies
        for f in factions:
            if per[f.id] != deck["per_faction"]:
                problems.error(path, top_line, f"faction '{f.id}'",
                               f"{per[f.id]} cards, but game.yaml's deck.per_faction is {deck['per_faction']}")
    if deck.get("copies_per_rank"):
        groups = defaultdict(list)
        for c in cards:
            groups[(c.faction, c.rank)].append(c.copies)
        for f in factions or [None]:
            for rank_id, expected in deck["copies_per_rank"].items():
                got = sorted(groups.get((f.id if f else None, rank_id), []))
                if got != sorted(expected):
                    who = f"faction '{f.id}'" if f else "deck"
                    problems.error(path, top_line, who,
                                   f"{rank_id} copies are {got or 'none'}, but game.yaml's "
                                   f"deck.copies_per_rank.{rank_id} is {sorted(expected)}")
