"""Decks: what a game's cards are made of, from ``decks:`` in game.yaml (or the one-deck ``card:`` form).

A game has one or more decks. Each deck has an id, a printed name, a card size, typed fields (the
values its cards carry: integers, text, choices, lists, flags, each with how it prints), the rules its
card list must satisfy (totals, copies), player aids printed with it, and the file its cards come
from (``*.yaml``, ``*.csv`` or ``*.xlsx``). The older single-deck form (``card:``, ``deck:``,
``player_aid:`` and ``cards.yaml``) reads as one deck with the id ``cards``.

Everything here is data: checked values in frozen dataclasses, problems with file and line.
"""

from __future__ import annotations

import os
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from pnp.cache.memo import reads_files
from pnp.errors import Problems
from pnp.text.grammar import GENDER_VALUES, grammar_of
from pnp.text.markup import placeholder_problems
from pnp.loading.paths import SAFE_NAME_TEXT, case_twins, data_path, excerpt, name_problem, portability_problem
from pnp.loading.schema import Field, check, entry, subkey
from pnp.loading.tables import coerce, guess, is_table, load_table
from pnp.loading.yamlsrc import LineDict, LineList, line_of, load_yaml_or_report
from pnp.suggest import closest
from rules_engine.model.cards import Ability, Card

#: Card sizes by name (trim size, width x height in mm).
NAMED_SIZES = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "mini": (44.0, 63.0),
    "mini-euro": (44.0, 68.0),
    "euro": (59.0, 92.0),
    "square": (70.0, 70.0),
    "tarot": (70.0, 120.0),
}

#: The id of the deck the one-deck form (``card:`` + ``cards.yaml``) makes.
DEFAULT_DECK = "cards"
FIELD_TYPES = ("int", "text", "choice", "list", "bool")
#: Keys every card may have besides its deck's fields (``faction``/``rank`` when the game has them).
BUILTIN_KEYS = ("id", "name", "copies", "flavour", "ability", "faction", "rank", "placeholder", "art", "art_fit",
                "art_focus", "art_bleed", "gender", "article")
#: How a card's art fills its art area.
ART_FITS = ("cover", "contain", "fill")
ART_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")
#: Printed signs of an integer field: ``minus`` prints 2 as −2 (a cost), ``plus`` prints it as +2 (income).
SIGNS = {"minus": "\u2212", "plus": "+"}

FIELD_SCHEMA = {
    "type": Field("str", default="int", choices=FIELD_TYPES, doc="int, text, choice, list or bool"),
    "required": Field("bool", default=False, doc="every card must give this value"),
    "default": Field("any", nullable=True, doc="value when a card leaves it out"),
    "min": Field("int", default=0, doc="int: smallest value"),
    "max": Field("int", default=99, doc="int: largest value"),
    "choices": Field("list", items=Field("str", blank=False), doc="choice / list: the values allowed"),
    "icon": Field("str", nullable=True, doc="int: the badge icon the value is printed on"),
    "sign": Field("str", nullable=True, choices=tuple(SIGNS), doc="int: print a minus or plus sign"),
    "format": Field("str", nullable=True, doc="how the value prints, with {value}: '{value} gold'"),
}

RULES_SCHEMA = {
    "total": Field("int", min=1),
    "per_faction": Field("int", min=1),
    "copies_per_rank": Field("dict", items=Field("list", items=Field("int", min=1))),
    "max_copies_by_players": Field("dict", items=Field("int", min=1),
                                   doc="player count -> at most this many copies of each card"),
}

AIDS_SCHEMA = {
    "copies": Field("int", default=0, min=0, max=20, doc="aid cards printed after the deck"),
    "template": Field("id", default="quick_reference", doc="templates/aids/<lang>/<template>.md.j2"),
}

#: ``bleed:`` (a deck's, a card's ``art_bleed``, a back's): how a picture made to the card's trim gets its bleed.
BLEED_MODES = ("extend", "mirror")
_DECK_BLEED = Field("str", nullable=True, choices=BLEED_MODES,
                    doc="its pictures (card art, back) are made to the trim: make their bleed from their edge pixels")

DECK_SCHEMA = {
    "id": Field("id", required=True),
    "name": Field("str", blank=False, doc="printed name; default: the id"),
    "cards": Field("str", required=True, doc="the cards file: .yaml, .csv or .xlsx, in the game folder"),
    "size": Field("any", default="poker", doc="a named size or {width, height}"),
    "fields": Field("dict", default={}, items=Field("map", schema=FIELD_SCHEMA)),
    "exactly_one_of": Field("list", default=[], items=Field("list", items=Field("str"))),
    "watermark": Field("str", nullable=True, doc="a field printed large, pale, in the art area"),
    "copies": Field("map", default={}, schema=RULES_SCHEMA),
    "aids": Field("map", default={}, schema=AIDS_SCHEMA),
    "layout": Field("any", nullable=True, doc="a layout name or an inline layout"),
    "back": Field("any", nullable=True, doc="the deck's back"),
    "bleed": _DECK_BLEED,
    "factions": Field("bool", default=True, doc="its cards name a faction (when the game has factions)"),
    "ranks": Field("bool", default=True, doc="its cards name a rank (when the game has ranks)"),
}

#: A deck's ``side_b``: its cards have two playable faces (a card without one, in a deck whose side B is not
#: ``required``, prints the deck's ``back``).
SIDE_B_SCHEMA = {
    "fields": Field("dict", nullable=True, items=Field("map", schema=FIELD_SCHEMA),
                    doc="side B's own fields (default: the deck's, each card giving side B its own values)"),
    "exactly_one_of": Field("list", nullable=True, items=Field("list", items=Field("str"))),
    "watermark": Field("str", nullable=True, doc="a field of side B printed large, pale, in its art area"),
    "layout": Field("any", nullable=True, doc="side B's layout: a name, an inline layout or {by, layouts}"),
    "required": Field("bool", default=True,
                      doc="every card has a side B (false: a card without one prints the deck's back)"),
}
DECK_SCHEMA["side_b"] = Field("map", nullable=True, schema=SIDE_B_SCHEMA,
                              doc="the cards are double-sided: side B's fields and layout")

#: The one-deck form: ``card:`` in game.yaml.
CARD_SCHEMA = {
    "width": Field("length", required=True, min=20, max=200),
    "height": Field("length", required=True, min=20, max=300),
    "fields": Field("dict", default={}, items=Field("map", schema=FIELD_SCHEMA)),
    "exactly_one_of": Field("list", default=[], items=Field("list", items=Field("str"))),
    "watermark": Field("str", nullable=True, doc="a field printed large, pale, in the art area"),
    "layout": Field("any", nullable=True, doc="a layout name or an inline layout"),
    "back": Field("any", nullable=True, doc="the deck's back"),
    "bleed": _DECK_BLEED,
    "side_b": DECK_SCHEMA["side_b"],
}


@dataclass(frozen=True)
class CardField:
    """One value a deck's cards carry, and how it prints."""

    name: str
    required: bool = False
    default: Any = None
    min: int = 0
    max: int = 99
    icon: str | None = None
    type: str = "int"
    choices: tuple = ()
    sign: str | None = None
    format: str | None = None
    line: int | None = field(default=None, compare=False)   # of its icon (else its entry) in game.yaml
    labels: tuple = ()          # (choice, printed word) in a translated kit; a choice prints as itself otherwise
    title: str | None = None    # the field's printed name in a translated kit (a flag that is set prints it)

    @property
    def badge(self) -> bool:
        """Printed as a badge (an icon with the value on it) down the card's edge."""
        return self.type == "int" and self.icon is not None

    def display(self, value) -> str:
        """The value as printed: signed and formatted as the data says (plain text, not markup)."""
        if value is None:
            return ""
        if isinstance(value, bool):
            text = "\u2713" if value else ""
        elif isinstance(value, (list, tuple)):
            text = ", ".join(self.label(v) for v in value)
        elif isinstance(value, int) and self.sign and value != 0:
            text = f"{SIGNS[self.sign]}{abs(value)}" if self.sign == "minus" or value > 0 else f"\u2212{abs(value)}"
        else:
            text = self.label(value)
        if self.format and text:
            text = self.format.replace("{value}", text)
        return text

    @property
    def printed_name(self) -> str:
        """The field's name as printed (a flag that is set prints it): ``hidden_cost`` -> ``hidden cost``,
        or its translation."""
        return self.title or self.name.replace("_", " ").replace("-", " ")

    def label(self, value) -> str:
        """A choice (or any value) as printed: its translation in a translated kit, else itself."""
        return dict(self.labels).get(value, str(value)) if self.labels else str(value)

    def schema_field(self) -> Field:
        nullable = not self.required
        if self.type == "int":
            return Field("int", required=self.required, default=self.default, min=self.min, max=self.max,
                         nullable=nullable)
        if self.type == "bool":
            return Field("bool", required=self.required, default=self.default, nullable=nullable)
        if self.type == "choice":
            return Field("str", required=self.required, default=self.default, choices=self.choices or None,
                         nullable=nullable)
        if self.type == "list":
            return Field("list", required=self.required, default=list(self.default or []), nullable=nullable,
                         items=Field("str", blank=False, choices=self.choices or None))
        if self.type == UNSURE:
            return Field("any", required=self.required, default=self.default, nullable=True)
        return Field("str", required=self.required, default=self.default, nullable=nullable)

    @property
    def cell_type(self) -> str:
        return {"int": "int", "bool": "bool", "list": "list"}.get(self.type, "str")


@dataclass(frozen=True)
class Art:
    """A card's picture: a PNG, JPEG or SVG file of the game folder, how it fills the art area, and the
    point (0..1 from the left and from the top) a ``cover`` crop keeps in view."""

    path: Path
    fit: str = "cover"
    focus: tuple = (0.5, 0.5)
    line: int | None = None
    bleed: str | None = None    # extend | mirror: made to the trim; where its area reaches the trim, the bleed
                                # is made from its edge pixels (the card's art_bleed, else its deck's bleed)


@dataclass(frozen=True)
class Back:
    """A deck's back. ``image``: one picture for every card; ``by``: the card key whose value picks the
    picture (``images``) or the designed back's ``labels`` and ``emblems``; otherwise the designed back
    (the game's title round the emblems) with an optional fixed ``label`` and ``emblem``."""

    image: Path | None = None
    fit: str = "cover"
    by: str | None = None
    images: tuple = ()        # (value, Path)
    labels: tuple = ()        # (value, text)
    emblems: tuple = ()       # (value, icon name)
    label: str | None = None
    emblem: str | None = None
    line: int | None = None
    bleed: str | None = None  # extend | mirror: the pictures are made to the trim; the bleed comes from their edges
    # ((what, value), line) where the mapping writes each keyed value (what: images, labels, emblems) and the
    # image (("image", None))
    lines: tuple = field(default=(), compare=False, repr=False)

    def where(self, what: str, value=None) -> int | None:
        """The line of ``what`` (``image``; ``images``, ``labels`` or ``emblems`` with a ``value``)."""
        return dict(self.lines).get((what, value)) or self.line

    def for_value(self, value) -> tuple:
        """(image path or None, label or None, emblem or None) of the back of a card whose key is ``value``."""
        key = str(value) if value is not None else None
        image = dict(self.images).get(key, self.image)
        return image, dict(self.labels).get(key, self.label), dict(self.emblems).get(key, self.emblem)

    def variants(self) -> list:
        """Every distinct value with a back of its own, in declared order (for exports)."""
        return list(dict.fromkeys([v for v, _ in self.images] + [v for v, _ in self.labels] +
                                  [v for v, _ in self.emblems]))


BACK_SCHEMA = {
    "image": Field("str", nullable=True, doc="a picture for every card's back (PNG, JPEG or SVG)"),
    "fit": Field("str", default="cover", choices=ART_FITS),
    "by": Field("str", nullable=True, doc="a card key whose value picks the back"),
    "images": Field("dict", default={}, items=Field("str"), doc="value -> picture"),
    "labels": Field("dict", default={}, items=Field("str", blank=False), doc="value -> label on the designed back"),
    "emblems": Field("dict", default={}, items=Field("str"), doc="value -> emblem icon on the designed back"),
    "label": Field("str", nullable=True, blank=False, doc="a label on the designed back"),
    "emblem": Field("str", nullable=True, doc="the designed back's emblem (default: the factions')"),
    "bleed": Field("str", nullable=True, choices=BLEED_MODES,
                   doc="the pictures are made to the trim: make their bleed from their edge pixels"),
}


def parse_back(raw, root: Path, fields, problems: Problems, path, line, where: str) -> Back | None:
    """A deck's ``back`` (None: the designed back), its pictures checked inside the game folder."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        problems.error(path, line, None, f"{where}: expected a mapping: {{image: PATH}}, {{by: KEY, images: ...}} "
                                         f"or {{label, emblem}}")
        return None
    clean = check(raw, BACK_SCHEMA, problems, path, prefix=where)

    def picture(value, at):
        target = data_path(root, value, problems, path, at, None, f"{where} image")
        if target is None:
            return None
        if target.suffix.lower() not in ART_SUFFIXES or not target.is_file():
            problems.error(path, at, None, f"{where}: no PNG, JPEG or SVG file {excerpt(value)} in the game folder")
            return None
        from pnp.loading.picturefiles import picture_problems

        found = picture_problems(target)
        for file, line_in, message in found:
            if line_in is None:
                problems.error(path, at, None, f"{where}: {excerpt(value)} {message}")
            else:
                problems.error(file, line_in, None, f"{where}: {message}")
        return None if found else target

    image = picture(clean["image"], line_of(raw, "image")) if clean.get("image") else None
    if clean.get("bleed") and any(str(v).lower().endswith(".svg") for v in
                                  [clean.get("image") or ""] + list((clean.get("images") or {}).values())):
        problems.error(path, line_of(raw, "bleed"), None,
                       f"{subkey(where, 'bleed')}: {clean['bleed']} makes a bleed from a PNG or JPEG picture's edge "
                       f"pixels; an SVG back can be drawn past the trim itself (leave bleed out)")
    images = []
    for value, file in (clean.get("images") or {}).items():
        target = picture(file, line_of(raw.get("images"), value))
        if target is not None:
            images.append((str(value), target))
    by = clean.get("by")
    keyed = clean.get("images") or clean.get("labels") or clean.get("emblems")
    if keyed and by is None:
        problems.error(path, line, None, f"{where}: images, labels or emblems by value need 'by: <card key>'")
    if by is not None and by not in BUILTIN_KEYS and by not in {f.name for f in fields}:
        problems.error(path, line_of(raw, "by"), None,
                       f"{subkey(where, 'by')}: {excerpt(by)} is not a card key of the deck")
    for value in [v for v, _ in images] + list(clean.get("labels") or {}) + list(clean.get("emblems") or {}):
        if name_problem(str(value)):
            problems.error(path, line, None, f"{where}: the value {excerpt(value)} names an exported back image; "
                                             f"use {SAFE_NAME_TEXT}")
    values = list(dict.fromkeys(str(v) for v in [v for v, _ in images] + list(clean.get("labels") or {})
                                + list(clean.get("emblems") or {})))
    for value, twin in case_twins(values).items():
        problems.error(path, line, None, f"{where}: the values {excerpt(twin)} and {excerpt(value)} differ only in "
                                         f"case; their exported back images would be one file on Windows and macOS")
    lines = [((what, None), line_of(raw, what)) for what in ("image", "images", "labels", "emblems")] + \
        [((what, str(value)), line_of(raw.get(what), value) or line_of(raw, what))
         for what in ("images", "labels", "emblems") for value in (clean.get(what) or {})]
    return Back(image, clean.get("fit") or "cover", by, tuple(images),
                tuple((str(k), v) for k, v in (clean.get("labels") or {}).items()),
                tuple((str(k), v) for k, v in (clean.get("emblems") or {}).items()),
                clean.get("label"), clean.get("emblem"), line, clean.get("bleed"),
                tuple((key, at) for key, at in lines if at))


@dataclass(frozen=True)
class SideB:
    """A double-sided deck's second face (``side_b:``): its fields (the deck's own unless it declares
    others), its layout, and whether every card has one (``required``; otherwise a card without a side B
    prints the deck's back). ``art``: card id -> its side B's :class:`Art`."""

    fields: tuple = ()
    exactly_one_of: tuple = ()
    watermark: str | None = None
    layout: Any = field(default=None, hash=False, compare=False)
    required: bool = True
    own_fields: bool = False           # side B declares fields of its own (else it has the deck's)
    line: int | None = None            # where game.yaml writes side_b
    art: dict = field(default_factory=dict, hash=False, compare=False)
    # card id -> {key: line} of what its cards file writes under side_b (``side_b``: the mapping itself), so a
    # problem of a card's side B is told at the line (or spreadsheet cell) of the value it concerns
    lines: dict = field(default_factory=dict, hash=False, compare=False)

    def field(self, name: str) -> CardField | None:
        return next((f for f in self.fields if f.name == name), None)

    def where(self, card_id: str, key: str = "side_b") -> int | None:
        """The line of ``key`` of card ``card_id``'s side B in its cards file (else of its ``side_b``)."""
        found = self.lines.get(card_id) or {}
        return found.get(key) or found.get("side_b")


#: The faces of a card: ``a`` (its face, or side A of a double-sided card) and ``b`` (side B).
SIDES = ("a", "b")


@dataclass(frozen=True)
class Deck:
    """One deck: its cards' size, fields, rules, aids, file, layout and back (the last two as written).

    A double-sided deck has a :class:`SideB`; :attr:`b` is the deck as its side B's faces see it (side B's
    fields, layout and art, each card's side B as its cards), so whatever lays out or checks a face takes
    a deck and a card of either side alike."""

    id: str
    name: str
    width: float
    height: float
    fields: tuple = ()                 # CardField, in printing order
    exactly_one_of: tuple = ()         # groups of field names of which a card gives exactly one
    watermark: str | None = None       # field printed large in the art area
    rules: dict = field(default_factory=dict, hash=False, compare=False)   # total, per_faction, ...
    aids: dict = field(default_factory=dict, hash=False, compare=False)    # copies, template
    cards_file: Path | None = None
    layout: Any = field(default=None, hash=False, compare=False)
    back: Back | None = field(default=None, hash=False, compare=False)    # None: the designed back
    line: int | None = None            # where game.yaml declares it
    cards: tuple = ()                  # its distinct cards, in data order
    uses_factions: bool = True         # its cards name one of the game's factions (when it has some)
    uses_ranks: bool = True
    art: dict = field(default_factory=dict, hash=False, compare=False)    # card id -> Art
    bleed: str | None = None           # extend | mirror: its card art and back pictures are made to the trim
    side_b: SideB | None = None        # the cards' second face (a double-sided deck), or None
    side: str = "a"                    # which face of the cards this deck shows (:attr:`b` shows side B)

    @property
    def size(self) -> tuple[float, float]:
        return self.width, self.height

    @cached_property
    def b(self) -> Deck | None:
        """The deck as its cards' side B sees it (None for a deck of one-faced cards): side B's fields,
        layout and art, and each card's side B (the cards that have one) as its cards."""
        s = self.side_b
        if s is None or self.side != "a":
            return None
        return replace(self, fields=s.fields, exactly_one_of=s.exactly_one_of, watermark=s.watermark,
                       layout=s.layout, art=s.art, back=None, side_b=None, side="b", aids={},
                       cards=tuple(c.side_b for c in self.cards if c.side_b is not None))

    def on_side(self, side: str) -> Deck | None:
        """The deck as side ``side`` (``a`` or ``b``) of its cards sees it (None: it has no side B)."""
        return self.b if side == "b" else self

    @property
    def double_sided(self) -> bool:
        return self.side_b is not None

    def field(self, name: str) -> CardField | None:
        return next((f for f in self.fields if f.name == name), None)

    @property
    def aid_copies(self) -> int:
        return self.aids.get("copies", 0) or 0

    def copies_for(self, card: Card, players: int | None = None) -> int:
        """Copies of ``card`` for ``players`` (the deck's ``max_copies_by_players`` caps them)."""
        caps = self.rules.get("max_copies_by_players")
        cap = caps.get(players) if isinstance(caps, dict) and players is not None else None
        # a key that is no player count, a cap that is no count: validation reports them at their line
        if isinstance(cap, int) and not isinstance(cap, bool):
            return min(card.copies, cap)
        return card.copies

    def physical(self, players: int | None = None) -> list[Card]:
        """Every physical card of the deck in data order, copies expanded (for a player count)."""
        return [c for c in self.cards for _ in range(self.copies_for(c, players))]


# ----------------------------------------------------------------------------- game.yaml

def parse_size(value, problems: Problems, path, line, where: str) -> tuple[float, float] | None:
    """A deck's ``size``: a name from :data:`NAMED_SIZES` or ``{width, height}`` (lengths)."""
    if isinstance(value, str):
        if value in NAMED_SIZES:
            return NAMED_SIZES[value]
        problems.error(path, line, None, f"{where}: unknown size {excerpt(value)}; give one of "
                                         f"{', '.join(NAMED_SIZES)} or {{width, height}} in mm")
        return None
    if isinstance(value, dict):
        clean = check(value, {"width": Field("length", required=True, min=20, max=300),
                              "height": Field("length", required=True, min=20, max=300)},
                      problems, path, prefix=where)
        if {"width", "height"} <= clean.keys():
            return clean["width"], clean["height"]
        return None
    problems.error(path, line, None, f"{where}: expected a size name ({', '.join(NAMED_SIZES)}) or "
                                     f"{{width, height}}, got {excerpt(value)}")
    return None


#: The type of a field whose ``type:`` is wrong (reported at its line): its cards' values are not
#: checked against a type it may not have (one message for the mistake, not one per card).
UNSURE = "unsure"


def _type_unsure(raw) -> bool:
    """Whether a field's definition leaves its type unknown: a ``type`` that is none of
    :data:`FIELD_TYPES`, or none given but a misspelt key meant to be it (``typ: bool``)."""
    if not isinstance(raw, dict):
        return False
    if "type" in raw:
        return raw["type"] not in FIELD_TYPES
    return any(closest(key, FIELD_SCHEMA) == "type" for key in raw if key not in FIELD_SCHEMA)


def _fields(raw_fields, clean_fields: dict, problems: Problems, path, where: str) -> tuple:
    out = []
    for name, f in clean_fields.items():
        line = line_of(raw_fields, name)
        at = subkey(where, name)
        if not isinstance(name, str) or name in BUILTIN_KEYS or name == "type_":
            if name in BUILTIN_KEYS:
                problems.error(path, line, None, f"{at}: '{name}' is a key every card has; name the field otherwise")
            continue
        kind = UNSURE if _type_unsure(raw_fields.get(name) if isinstance(raw_fields, dict) else None) \
            else f.get("type", "int")
        if kind == "int" and {"min", "max"} <= f.keys() and f["min"] > f["max"]:
            problems.error(path, line, None, f"{at}: min {f['min']} is more than max {f['max']}")
            continue
        if kind in ("choice",) and not f.get("choices"):
            problems.error(path, line, None, f"{at}: a choice field needs 'choices'")
            continue
        for key in ("icon", "sign") if kind != "int" else ():
            if f.get(key) is not None:
                problems.error(path, line_of(raw_fields.get(name), key) or line, None,
                               f"{at}.{key}: only an int field prints as a badge with an icon or sign")
        if f.get("format"):
            for message in placeholder_problems(f["format"], {"value"}):
                problems.error(path, line_of(raw_fields.get(name), "format") or line, None,
                               f"{subkey(at, 'format')}: {message}")
        default = f.get("default")
        if default is not None:
            probe = Problems()
            spec = CardField(name, type=kind, min=f.get("min", 0), max=f.get("max", 99),
                             choices=tuple(f.get("choices") or ())).schema_field()
            from pnp.loading.schema import Checker
            Checker(probe, path, None).value(default, spec, subkey(at, 'default'), line)
            if probe:
                problems.extend(probe)
                continue
        out.append(CardField(name, f.get("required", False), default, f.get("min", 0), f.get("max", 99),
                             f.get("icon"), kind, tuple(f.get("choices") or ()), f.get("sign"), f.get("format"),
                             line_of(raw_fields.get(name), "icon") or line))
    return tuple(out)


def _groups(raw, groups, fields, problems, path, where):
    names = {f.name for f in fields}
    out = []
    for group in groups or []:
        bad = [n for n in group if n not in names]
        for name in bad:
            problems.error(path, line_of(raw, "exactly_one_of"), None,
                           f"{subkey(where, 'exactly_one_of')}: {excerpt(name)} is not one of its fields")
        if not bad:
            out.append(tuple(group))
    return tuple(out)


def _side_b(raw_deck, clean: dict, fields: tuple, groups: tuple, watermark, problems: Problems, path,
            where: str) -> SideB | None:
    """A deck's ``side_b`` (None: its cards have one face): side B's own fields when it declares them,
    else the deck's (with its ``exactly_one_of`` and ``watermark``), its layout as written, ``required``."""
    spec = clean.get("side_b")
    raw = raw_deck.get("side_b") if isinstance(raw_deck, dict) else None
    if spec is None or not isinstance(raw, dict):
        return None
    at = subkey(where, "side_b")
    line = line_of(raw_deck, "side_b")
    if spec.get("fields") is None:
        for key in ("exactly_one_of", "watermark"):
            if spec.get(key) is not None:
                problems.error(path, line_of(raw, key) or line, None,
                               f"{subkey(at, key)}: side B has the deck's fields (and their {key}) unless it "
                               f"declares fields of its own")
        return SideB(fields, groups, watermark, spec.get("layout"), spec.get("required", True), False, line)
    own = _fields(raw.get("fields"), spec.get("fields") or {}, problems, path, subkey(at, "fields"))
    own_groups = _groups(raw, spec.get("exactly_one_of"), own, problems, path, at)
    own_watermark = spec.get("watermark")
    if own_watermark is not None and own_watermark not in {f.name for f in own}:
        problems.error(path, line_of(raw, "watermark"), None,
                       f"{subkey(at, 'watermark')}: {excerpt(own_watermark)} is not one of side B's fields")
        own_watermark = None
    return SideB(own, own_groups, own_watermark, spec.get("layout"), spec.get("required", True), True, line)


def parse_decks(meta: dict, raw: LineDict, root: Path, problems: Problems, path: Path) -> tuple:
    """The game's decks from checked game.yaml ``meta`` (cards not loaded yet)."""
    has_decks, has_card = "decks" in raw, "card" in raw
    if has_decks and has_card:
        problems.error(path, line_of(raw, "card"), None,
                       "card: give either 'decks' (several decks) or 'card' (one deck), not both")
    if has_decks:
        for key in ("deck", "player_aid"):
            if key in raw:
                problems.error(path, line_of(raw, key), None,
                               f"{key}: with 'decks', each deck gives its own "
                               f"{'copies' if key == 'deck' else 'aids'}")
        return _new_form(meta, raw, root, problems, path)
    if not has_card:
        problems.error(path, getattr(raw, "line", None), None,
                       "decks: required key is missing (or 'card' for a game with one deck)")
        return ()
    card = meta.get("card") or {}
    raw_card = raw.get("card") if isinstance(raw.get("card"), dict) else LineDict()
    fields = _fields(raw_card.get("fields"), card.get("fields") or {}, problems, path, "card.fields")
    groups = _groups(raw_card, card.get("exactly_one_of"), fields, problems, path, "card")
    watermark = card.get("watermark")
    if watermark is not None and watermark not in {f.name for f in fields}:
        problems.error(path, line_of(raw_card, "watermark"), None,
                       f"card.watermark: {excerpt(watermark)} is not one of card.fields")
        watermark = None
    back = parse_back(raw_card.get("back"), root, fields, problems, path, line_of(raw_card, "back"), "card.back")
    side_b = _side_b(raw_card, card, fields, groups, watermark, problems, path, "card")
    return (Deck(DEFAULT_DECK, "", card.get("width", 63.0), card.get("height", 88.0), fields, groups, watermark,
                 meta.get("deck") or {}, meta.get("player_aid") or {}, root / "cards.yaml", card.get("layout"),
                 back, line_of(raw, "card"), bleed=card.get("bleed"), side_b=side_b),)


def _new_form(meta, raw, root, problems, path) -> tuple:
    decks, seen = [], {}
    raw_list = raw.get("decks") if isinstance(raw.get("decks"), list) else LineList()
    checked = iter(meta.get("decks") or [])
    files = {}
    for i, item in enumerate(raw_list):
        line = line_of(raw_list, i)
        if not isinstance(item, dict):
            continue
        d = next(checked, None)
        if d is None or "id" not in d:
            continue
        where = entry("decks", d, i)
        if d["id"] in seen:
            problems.error(path, line, None, f"{entry('decks', d, i, named=False)}: id: duplicate deck id '{d['id']}' "
                                             f"(first at line {seen[d['id']]})")
            continue
        twin = case_twins([*seen, d["id"]]).get(d["id"])
        if twin is not None:         # a deck's id names its folder of exported images
            problems.error(path, line_of(item, "id") or line, None,
                           f"{where}: id: differs from deck '{twin}' (line {seen[twin]}) only in case; their folders "
                           f"of exported images would be one on Windows and macOS")
        why = portability_problem(d["id"])
        if why:
            problems.error(path, line_of(item, "id") or line, None, f"{where}: id: {why}; it names the deck's folder "
                                                                    f"of exported images")
        seen[d["id"]] = line
        size = parse_size(d.get("size", "poker"), problems, path, line_of(item, "size") or line, subkey(where, 'size'))
        fields = _fields(item.get("fields"), d.get("fields") or {}, problems, path, subkey(where, 'fields'))
        groups = _groups(item, d.get("exactly_one_of"), fields, problems, path, where)
        watermark = d.get("watermark")
        if watermark is not None and watermark not in {f.name for f in fields}:
            problems.error(path, line_of(item, "watermark"), None,
                           f"{subkey(where, 'watermark')}: {excerpt(watermark)} is not one of its fields")
            watermark = None
        cards_file = None
        if "cards" in d:
            cards_file = data_path(root, d["cards"], problems, path, line_of(item, "cards"), f"deck '{d['id']}'",
                                   "cards")
            if cards_file is not None:
                if cards_file.suffix.lower() not in (".yaml", ".yml", ".csv", ".xlsx"):
                    problems.error(path, line_of(item, "cards"), f"deck '{d['id']}'",
                                   f"cards: {excerpt(d['cards'])} is not a .yaml, .csv or .xlsx file")
                    cards_file = None
                elif cards_file in files:
                    problems.error(path, line_of(item, "cards"), f"deck '{d['id']}'",
                                   f"cards: {excerpt(d['cards'])} is also deck '{files[cards_file]}''s file")
                    cards_file = None
                elif not (cards_file.exists() or cards_file.is_symlink()):
                    problems.error(path, line_of(item, "cards"), f"deck '{d['id']}'",
                                   f"cards: no file {excerpt(d['cards'])} in the game folder{_closest_table(root, d)}")
                    cards_file = None
                else:
                    files[cards_file] = d["id"]
        back = parse_back(item.get("back"), root, fields, problems, path, line_of(item, "back") or line,
                          subkey(where, 'back'))
        side_b = _side_b(item, d, fields, groups, watermark, problems, path, where)
        if size is None:
            continue
        decks.append(Deck(d["id"], d.get("name") or d["id"], size[0], size[1], fields, groups, watermark,
                          d.get("copies") or {}, d.get("aids") or {}, cards_file, d.get("layout"), back,
                          line, uses_factions=d.get("factions", True), uses_ranks=d.get("ranks", True),
                          bleed=d.get("bleed"), side_b=side_b))
    if "decks" in meta and not meta["decks"]:
        problems.error(path, line_of(raw, "decks"), None, "decks: the list is empty")
    return tuple(decks)


# ----------------------------------------------------------------------------- the cards files

#: How a name is said in a sentence (pnp.text.grammar): its gender (and number), and whether it takes an article.
GRAMMAR_SCHEMA = {
    "gender": Field("str", nullable=True, choices=GENDER_VALUES,
                    doc="the name's grammatical gender, for the articles templates put before it"),
    "article": Field("bool", default=True, doc="false: a personal name, said without an article"),
}


def card_schema(deck: Deck, factions, ranks) -> dict:
    schema = {
        "id": Field("id", required=True),
        "name": Field("str", required=True, blank=False),
        "copies": Field("int", required=True, min=1, max=99),
        "flavour": Field("str", default=""),
        "ability": Field("any", nullable=True),
        "placeholder": Field("any", nullable=True, doc="true, or the keys whose values are invented"),
        "art": Field("str", nullable=True, doc="a PNG, JPEG or SVG file in the game folder"),
        "art_fit": Field("str", default="cover", choices=ART_FITS),
        "art_focus": Field("list", nullable=True, items=Field("number", min=0, max=1),
                           doc="[x, y], 0..1 from the left and from the top"),
        "art_bleed": Field("str", nullable=True, choices=BLEED_MODES,
                           doc="the art is made to the trim: make its bleed from its edge pixels"),
        **GRAMMAR_SCHEMA,
    }
    schema["side_b"] = Field("any", nullable=True, doc="a double-sided card's second face: side B's name, "
                                                       "flavour, art and fields")
    if factions and deck.uses_factions:
        schema["faction"] = Field("str", required=True, choices=tuple(f.id for f in factions))
    if ranks and deck.uses_ranks:
        schema["rank"] = Field("str", required=True, choices=tuple(r.id for r in ranks))
    for f in deck.fields:
        schema[f.name] = f.schema_field()
    return schema


#: What a card's ``side_b`` may give besides side B's fields: its own name, flavour and art.
SIDE_B_KEYS = ("name", "flavour", "art", "art_fit", "art_focus", "art_bleed")


def side_b_schema(deck: Deck) -> dict:
    """What a card of a double-sided ``deck`` gives under ``side_b``: side B's name (required), flavour,
    art, and the value of each of side B's fields. Its id, copies, faction and rank are the card's."""
    schema = {
        "name": Field("str", required=True, blank=False),
        "flavour": Field("str", default=""),
        "art": Field("str", nullable=True, doc="a PNG, JPEG or SVG file in the game folder"),
        "art_fit": Field("str", default="cover", choices=ART_FITS),
        "art_focus": Field("list", nullable=True, items=Field("number", min=0, max=1),
                           doc="[x, y], 0..1 from the left and from the top"),
        "art_bleed": Field("str", nullable=True, choices=BLEED_MODES,
                           doc="the art is made to the trim: make its bleed from its edge pixels"),
    }
    for f in deck.side_b.fields if deck.side_b is not None else ():
        schema[f.name] = f.schema_field()
    return schema


_CELL_TYPES = {"id": "str", "name": "str", "copies": "int", "flavour": "str", "faction": "str", "rank": "str",
               "art": "str", "art_fit": "str", "art_focus": ("list", "number"), "art_bleed": "str", "gender": "str",
               "article": "bool"}


def _typed_rows(path: Path, root: Path, deck: Deck):
    """The rows of a deck's spreadsheet (:func:`~pnp.loading.tables.load_table`) with their cells typed
    (:func:`_coerce_row`), read once per process while the file and the deck's fields are unchanged, as
    a YAML file is (:func:`~pnp.loading.yamlsrc.load_yaml`): the loading and the translations' check
    (:func:`pnp.validation.translations._unsure_prefixes`) read them, and treat them as read-only. A
    DataError for a file that cannot be read, again at each call."""
    from pnp.errors import DataError

    try:
        st = path.stat()
        stamp = (os.path.realpath(path), st.st_mtime_ns, st.st_size, st.st_ino)
        types = _cell_types(deck)
        hash(types)
    except (OSError, ValueError, TypeError):
        stamp = None                    # load_table says what is wrong; a type that cannot be a key
    if stamp is None:
        rows = load_table(path, within=root)
        for row in rows:
            _coerce_row(row, deck)
        return rows
    ok, value = _typed_cached(str(path), str(root), stamp, types)
    if not ok:
        raise DataError(value)
    return value


def _cell_types(deck: Deck) -> tuple:
    """What :func:`_coerce_row` types a row's cells by: the deck's fields', its side B's."""
    return (tuple((f.name, f.cell_type) for f in deck.fields),
            tuple((f.name, f.cell_type) for f in deck.side_b.fields) if deck.side_b is not None else None)


@reads_files
@lru_cache(maxsize=64)
def _typed_cached(path: str, root: str, stamp: tuple, types: tuple) -> tuple:
    from pnp.errors import DataError

    try:
        rows = load_table(Path(path), within=Path(root))
    except DataError as exc:
        return False, exc.problems
    fields, side_fields = types
    for row in rows:
        _coerce_typed(row, fields, side_fields)
    return True, rows


def _coerce_row(row: LineDict, deck: Deck) -> LineDict:
    """A spreadsheet row with its cells typed by the keys' declared types (in place)."""
    return _coerce_typed(row, *_cell_types(deck))


def _coerce_typed(row: LineDict, fields: tuple, side_fields: tuple | None) -> LineDict:
    types = dict(_CELL_TYPES)
    types.update(dict(fields))
    for key in list(row):
        value = row[key]
        if key == "ability" and isinstance(value, dict):
            for k in list(value):
                value[k] = guess(value[k])
        elif key == "side_b" and isinstance(value, dict):
            side = dict(_CELL_TYPES)
            side.update(dict(side_fields) if side_fields is not None else {})
            for k in list(value):
                kind = side.get(k)
                value[k] = guess(value[k]) if kind is None or isinstance(value[k], dict) else \
                    coerce(value[k], *kind) if isinstance(kind, tuple) else coerce(value[k], kind)
        elif key in types:
            kind = types[key]
            row[key] = coerce(value, *kind) if isinstance(kind, tuple) else coerce(value, kind)
        else:
            row[key] = guess(value)
    return row


def _closest_table(root: Path, deck: dict) -> str:
    """"; did you mean 'x.csv'?" for a deck's cards file that is not there: the closest card file of the
    folder (not another deck's), else the list of them."""
    from pnp.loading.picturefiles import files_in

    known = files_in(Path(root).resolve(), (".yaml", ".yml", ".csv", ".xlsx"))
    close = closest(str(deck["cards"]), known)
    return f"; did you mean '{close}'?" if close else ""


def read_cards(deck: Deck, root: Path, problems: Problems):
    """The raw card mappings of a deck's file ([] after reporting what is wrong), and its top node."""
    path = deck.cards_file
    if path is None:
        return [], None
    if deck.id == DEFAULT_DECK and not path.exists():
        _one_deck_without_cards_yaml(deck, root, problems)
        return [], None
    before = len(problems.errors)
    if is_table(path):
        from pnp.errors import DataError
        try:
            rows = _typed_rows(path, root, deck)
        except DataError as exc:
            problems.extend(exc.problems)
            return [], None
        if not rows:
            problems.error(path, 2, None, "no cards: the file has a header row and no card rows")
        return rows, rows
    raw = load_yaml_or_report(path, problems, within=root)
    if len(problems.errors) > before:
        return [], None
    top = check(raw, {"cards": Field("list", required=True)}, problems, path)
    raw_list = raw.get("cards") if isinstance(raw, dict) else None
    if "cards" in top and not top["cards"]:
        problems.error(path, line_of(raw, "cards"), None, "cards: the list is empty")
    return (raw_list if isinstance(raw_list, list) else []), raw


def _one_deck_without_cards_yaml(deck: Deck, root: Path, problems: Problems) -> None:
    """The one-deck form (``card:``) reads ``cards.yaml``; when it is missing, say so at ``card:`` and,
    when the folder has a spreadsheet of cards instead, how to declare it."""
    sheets = sorted(p.name for p in root.iterdir() if p.is_file() and p.suffix.lower() in (".csv", ".xlsx"))
    sheet = next((n for n in sheets if Path(n).stem.lower() == "cards"), sheets[0] if len(sheets) == 1 else None)
    message = "the one-deck form reads its cards from cards.yaml, which is not in the game folder"
    if sheet:
        size = next((n for n, wh in NAMED_SIZES.items() if wh == deck.size), None) or \
            f"{{width: {deck.width:g}, height: {deck.height:g}}}"
        message += (f"; to use the cards in {sheet}, declare the deck in a decks: list instead of card: "
                    f"(decks: [{{id: cards, cards: {sheet}, size: {size}, fields: ...}}], with card:'s fields; "
                    f"docs/data-format.md, \"Decks\")")
    problems.error(root / "game.yaml", deck.line, None, f"card: {message}")


def check_deck_rules(deck: Deck, cards, factions, problems: Problems, path, top_line) -> None:
    """A deck's ``copies`` rules: total cards, cards per faction, copy counts per rank."""
    rules = deck.rules
    total = sum(c.copies for c in cards)
    what = "deck" if deck.id == DEFAULT_DECK else f"deck '{deck.id}'"
    key = "deck" if deck.id == DEFAULT_DECK else "copies"
    if rules.get("total") is not None and total != rules["total"]:
        problems.error(path, top_line, what, f"{total} cards, but game.yaml's {key}.total is {rules['total']}")
    if rules.get("per_faction") is not None:
        per = Counter()
        for c in cards:
            per[c.faction] += c.copies
        for f in factions:
            if per[f.id] != rules["per_faction"]:
                problems.error(path, top_line, f"faction '{f.id}'",
                               f"{per[f.id]} cards, but game.yaml's {key}.per_faction is {rules['per_faction']}")
    if rules.get("copies_per_rank"):
        groups = defaultdict(list)
        for c in cards:
            groups[(c.faction, c.rank)].append(c.copies)
        for f in factions or [None]:
            for rank_id, expected in rules["copies_per_rank"].items():
                got = sorted(groups.get((f.id if f else None, rank_id), []))
                if got != sorted(expected):
                    who = f"faction '{f.id}'" if f else what
                    problems.error(path, top_line, who,
                                   f"{rank_id} copies are {got or 'none'}, but game.yaml's "
                                   f"{key}.copies_per_rank.{rank_id} is {sorted(expected)}")


def exactly_one_problems(deck: Deck, clean: dict) -> list[str]:
    out = []
    for group in deck.exactly_one_of:
        given = [k for k in group if clean.get(k) is not None]
        if len(given) != 1:
            what = "both " + " and ".join(given) if given else "neither " + " nor ".join(group)
            out.append(f"give exactly one of {', '.join(group)} (found {what})")
    return out


def card_art(root: Path, clean: dict, raw, problems: Problems, path, subject: str, deck_bleed: str | None = None,
             prefix: str = "") -> Art | None:
    """The card's ``art`` (checked: inside the game folder, an existing PNG, JPEG or SVG), or None.
    ``deck_bleed``: its deck's ``bleed``, for a PNG or JPEG the card's ``art_bleed`` does not settle.
    ``prefix`` names where the keys are in messages (``side_b.``: a double-sided card's side B)."""
    value = clean.get("art")
    focus = clean.get("art_focus")
    line = line_of(raw, "art")
    if focus is not None and len(focus) != 2:
        problems.error(path, line_of(raw, "art_focus"), subject, f"{prefix}art_focus: give [x, y], each from 0 to 1")
        focus = None
    if value is None:
        for key in ("art_focus", "art_bleed"):
            if clean.get(key) is not None:
                problems.error(path, line_of(raw, key), subject, f"{prefix}{key}: the card has no art")
        return None
    from pnp.loading.picturefiles import picture_file

    target = picture_file(root, value, problems, path, line, subject, f"{prefix}art")
    if target is None:
        return None
    fit, bleed = clean.get("art_fit") or "cover", clean.get("art_bleed")
    if bleed is not None:
        at = line_of(raw, "art_bleed") or line
        if target.suffix.lower() == ".svg":
            problems.error(path, at, subject, f"{prefix}art_bleed: {bleed} makes a bleed from a PNG or JPEG picture's edge "
                                              f"pixels; an SVG can be drawn past the trim itself (leave art_bleed out)")
            return None
        if fit == "contain":
            problems.error(path, at, subject, f"{prefix}art_bleed: {bleed} makes a bleed from the edges of art that fills its "
                                              f"area; art_fit: contain shows the whole picture inside it (use cover "
                                              f"or fill)")
            return None
    elif target.suffix.lower() != ".svg" and fit != "contain":
        bleed = deck_bleed
    return Art(target, fit, tuple(focus) if focus else (0.5, 0.5), line, bleed)


def image_pixels(path: Path) -> tuple[int, int] | None:
    """(width, height) in pixels of a PNG or JPEG file, or None when it is not a usable one
    (:func:`pnp.loading.rasters.check_picture`: checked and decoded once while the file is unchanged)."""
    from pnp.loading.rasters import check_picture

    why, size = check_picture(path)
    return None if why else size


def card_values(deck: Deck, clean: dict) -> dict:
    """The card's value of every field of its deck (None when absent and without default)."""
    return {f.name: clean.get(f.name) for f in deck.fields}


def new_card(deck: Deck, clean: dict, ability: Ability | None, placeholder: tuple = (),
             side_b: Card | None = None) -> Card:
    return Card(clean["id"], clean["name"], clean["copies"], clean.get("faction"), clean.get("rank"),
                card_values(deck, clean), ability, clean.get("flavour") or "", deck=deck.id,
                placeholder=placeholder, side_b=side_b,
                grammar=grammar_of(clean.get("gender"), clean.get("article")))


def side_b_card(deck: Deck, clean: dict, side: dict) -> Card:
    """The side B of the card ``clean`` (checked values) from its checked ``side_b`` values: the card's
    id, copies, faction and rank, side B's own name, flavour and field values, no ability."""
    values = {f.name: side.get(f.name) for f in deck.side_b.fields}
    return Card(clean["id"], side["name"], clean["copies"], clean.get("faction"), clean.get("rank"), values,
                None, side.get("flavour") or "", deck=deck.id)
