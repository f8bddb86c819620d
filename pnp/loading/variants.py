"""Rule variants as data: a small YAML overlay on a game's data, checked like the data itself.

A variant file changes what a designer would change between two playtests, and nothing else::

    name: The knight costs one more          # optional: the label reports show (default: the file's name)
    game: my_game                            # optional: the game it is written for
    parameters:                              # the engine's tunable parameters (its OPTIONS)
      goal: 12
    cards:                                   # by card id: 'remove', or the keys to change
      knight: {cost: 6}
      thief: remove
    add:                                     # new cards, written as in the deck's cards file
      - {deck: cards, id: spy, name: Spy, copies: 1, cost: 2, ...}

Every key is checked against the game: card ids and parameter names must exist (the closest name is
suggested), values are checked with the deck's card schema and the engine's declared parameters,
abilities with the engine's effect kinds; every problem of the file is reported at once with its line
(``variants/x.yaml:7: cards.knight.cost: expected an integer, got 'six'``), exit status 2.

:func:`apply` makes the varied game (frozen objects, like the loaded one); the engine never sees the
file. :class:`Variant` is also what ``pnp lab`` makes by itself (one per card for an ablation, one per
parameter value for a tuning run); :meth:`Variant.key` is its canonical content, which names the cache
of its games.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path

from pnp.suggest import closest
from pnp.loading.decks import card_schema, exactly_one_problems, new_card
from pnp.errors import Problems, UserError
from pnp.loading.paths import excerpt
from pnp.loading.schema import Field, check
from pnp.loading.yamlsrc import LineDict, line_of, load_yaml_or_report

#: The top-level keys of a variant file.
SCHEMA = {
    "name": Field("str", blank=False, doc="the label reports show"),
    "game": Field("str", doc="the game the variant is written for (its folder name)"),
    "description": Field("str", doc="what the variant is for"),
    "parameters": Field("dict", doc="engine parameter -> value"),
    "cards": Field("dict", doc="card id -> 'remove' or the keys to change"),
    "add": Field("list", doc="new cards, written as in the deck's cards file"),
}

#: Card keys a variant may not change (the id names the card; art is printing, not rules).
FIXED_KEYS = ("id", "placeholder", "art", "art_fit", "art_focus", "art_bleed")

REMOVE = "remove"


@dataclass(frozen=True)
class Variant:
    """One variant: parameters (engine options), cards removed, changed (card id -> {key: value}) and
    added (``(deck id, clean card mapping)``). The empty variant is the game as its data says."""

    name: str = "base"
    parameters: dict = field(default_factory=dict)
    remove: tuple = ()
    changes: dict = field(default_factory=dict)
    add: tuple = ()
    path: str | None = None
    description: str = ""

    @property
    def is_base(self) -> bool:
        return not (self.parameters or self.remove or self.changes or self.add)

    def content(self) -> dict:
        """What the variant changes, as JSON-ready data in a canonical order (not its name or file)."""
        return {"parameters": dict(sorted(self.parameters.items())), "remove": sorted(self.remove),
                "changes": {c: dict(sorted(v.items())) for c, v in sorted(self.changes.items())},
                "add": [[deck, dict(sorted(card.items()))] for deck, card in self.add]}

    def key(self) -> str:
        """The canonical content as a string: two variants that change the same things have the same key."""
        return json.dumps(self.content(), sort_keys=True, separators=(",", ":"), default=str)

    def describe(self) -> str:
        """The changes in a few words (``goal=12; knight cost=6; thief removed``)."""
        parts = [f"{k}={v}" for k, v in sorted(self.parameters.items())]
        parts += [f"{c} " + ", ".join(f"{k}={v}" for k, v in sorted(ch.items())) for c, ch in sorted(self.changes.items())]
        parts += [f"{c} removed" for c in sorted(self.remove)]
        parts += [f"{card.get('id')} added" for _, card in self.add]
        return "; ".join(parts) or "the game as its data says"

    def with_parameters(self, name: str | None = None, **values) -> "Variant":
        """This variant with more parameters set (``tune`` makes one per value)."""
        return replace(self, name=name or self.name, parameters={**self.parameters, **values}, path=None)


BASE = Variant()


def _closest(word, choices) -> str:
    close = closest(word, choices)
    return f" (did you mean '{close}'?)" if close else ""


def parameter_fields(options: dict) -> dict:
    """The engine's ``OPTIONS`` as schema fields (type, range, choices)."""
    fields = {}
    for name, p in options.items():
        kind = {"int": "int", "bool": "bool", "str": "str"}.get(p.type, "any")
        fields[name] = Field(kind, choices=p.choices, min=p.min, max=p.max, doc=p.doc)
    return fields


def check_parameters(values: dict, options: dict, problems: Problems, path, line_of_key, where="parameters") -> dict:
    """Parameter values checked against the engine's declared parameters (unknown names with the
    closest one and the list of accepted ones)."""
    schema = parameter_fields(options)
    out = {}
    for name, value in values.items():
        line = line_of_key(name)
        if name not in schema:
            accepted = ", ".join(options) or "none (the engine declares no parameters)"
            problems.error(path, line, None, f"{where}.{name}: unknown parameter{_closest(name, options)}; the "
                                             f"engine's parameters: {accepted}")
            continue
        clean = check({name: value}, {name: schema[name]}, _Relined(problems, line), path, None, prefix=where)
        if name in clean and clean[name] is not None:
            out[name] = clean[name]
    return out


class _Relined(Problems):
    """Problems added with no line get ``line`` (a value checked outside its mapping)."""

    def __init__(self, target: Problems, line):
        super().__init__()
        self.target, self.line = target, line

    def error(self, path, line, subject, message):
        self.target.error(path, line if line is not None else self.line, subject, message)

    def warn(self, path, line, subject, message):
        self.target.warn(path, line if line is not None else self.line, subject, message)


def load_variant(path: str | Path, game, engine, players: int | None = None) -> Variant:
    """Read and check a variant file for ``game`` (a loaded game) and its engine module (played at ``players``
    seats when given); raises :class:`~pnp.errors.DataError` with every problem (file:line),
    :class:`UserError` for a missing file."""
    path = Path(path)
    if not path.is_file():
        raise UserError(f"--variant {path}: no such file")
    problems = Problems()
    raw = load_yaml_or_report(path, problems)
    problems.raise_if_errors()
    if raw is None:
        raw = {}
    top = check(raw, SCHEMA, problems, path)
    if not isinstance(raw, dict):
        problems.raise_if_errors()         # a list or a text: nothing more to read in it
    if top.get("game") and top["game"] not in (game.id, game.engine):
        problems.error(path, line_of(raw, "game"), None,
                       f"game: the variant is written for '{top['game']}', not for '{game.id}'")
    options = getattr(engine, "OPTIONS", {})
    params = raw.get("parameters") if isinstance(raw.get("parameters"), dict) else {}
    parameters = check_parameters(params, options, problems, path, lambda k: line_of(params, k))
    remove, changes = [], {}
    cards = raw.get("cards") if isinstance(raw.get("cards"), dict) else {}
    by_id = {c.id: c for c in game.cards}
    effects = getattr(engine, "EFFECTS", {})
    steps = tuple(getattr(engine, "STEPS", (1, 2, 3)))
    for card_id, change in cards.items():
        line = line_of(cards, card_id)
        where = f"cards.{card_id}"
        card = by_id.get(card_id)
        if card is None:
            problems.error(path, line, None, f"{where}: no card has the id {excerpt(card_id)}"
                                             f"{_closest(card_id, by_id)}")
            continue
        if change == REMOVE:
            remove.append(card_id)
            continue
        if not isinstance(change, dict) or not change:
            problems.error(path, line, None, f"{where}: expected 'remove' or a mapping of the keys to change, got "
                                             f"{excerpt(change)}")
            continue
        clean = _check_card_keys(change, game, game.deck_of(card), effects, steps, problems, path, where)
        if clean:
            changes[card_id] = clean
    added = []
    for i, entry_ in enumerate(raw.get("add") or [] if isinstance(raw.get("add"), list) else []):
        added_card = _check_new_card(entry_, i, game, effects, steps, problems, path, line_of(raw["add"], i), by_id,
                                     [c["id"] for _, c in added])
        if added_card is not None:
            added.append(added_card)
    problems.raise_if_errors()
    variant = Variant(name=top.get("name") or path.stem, parameters=parameters, remove=tuple(remove), changes=changes,
                      add=tuple(added), path=str(path), description=top.get("description") or "")
    if remove or changes or added:
        check_applied(variant, game, engine, problems, path, line_of(raw, "cards") or line_of(raw, "add"), players)
    problems.raise_if_errors()
    return variant


def _partial_schema(deck, game) -> dict:
    schema = card_schema(deck, game.factions, game.ranks)
    if deck.side_b is None:                  # a deck of one-faced cards: no side B to change
        schema.pop("side_b", None)
    return {k: replace(f, required=False, default=None) for k, f in schema.items() if k not in FIXED_KEYS}


def _check_card_keys(change: dict, game, deck, effects, steps, problems, path, where) -> dict:
    """The keys a variant changes on one card, checked with its deck's schema (nothing required)."""
    from pnp.loading.gamedata import _check_ability

    schema = _partial_schema(deck, game)
    for key in change:
        if key in FIXED_KEYS:
            problems.error(path, line_of(change, key), None, f"{where}.{key}: a variant cannot change a card's {key}"
                                                              f" (remove the card and add another)")
    given = _without(change, FIXED_KEYS)
    clean = check(given, schema, problems, path, None, prefix=where)
    out = {k: clean[k] for k in given if k in clean and clean[k] is not None or k in clean and given[k] is None}
    if "ability" in given:
        ability = _check_ability(given["ability"], effects, steps, problems, path, line_of(change, "ability"), where)
        if ability is None and given["ability"] is not None:
            out.pop("ability", None)
        else:
            out["ability"] = given["ability"]
    return out


def _check_new_card(raw, index, game, effects, steps, problems, path, line, existing, added_ids):
    from pnp.loading.gamedata import _check_ability

    where = f"add[{index}]"
    if not isinstance(raw, dict):
        problems.error(path, line, None, f"{where}: expected a card mapping, got {excerpt(raw)}")
        return None
    decks = {d.id: d for d in game.decks}
    deck_id = raw.get("deck")
    if deck_id is None:
        if len(decks) > 1:
            problems.error(path, line, None, f"{where}: deck: the game has several decks; name one of "
                                             f"{', '.join(decks)}")
            return None
        deck_id = next(iter(decks))
    if deck_id not in decks:
        problems.error(path, line_of(raw, "deck") or line, None,
                       f"{where}.deck: no deck has the id {excerpt(deck_id)}{_closest(deck_id, decks)}; decks: "
                       f"{', '.join(decks)}")
        return None
    deck = decks[deck_id]
    schema = {k: f for k, f in card_schema(deck, game.factions, game.ranks).items() if k not in FIXED_KEYS[1:]}
    body = _without(raw, ("deck",))
    clean = check(body, schema, problems, path, None, prefix=where)
    card_id = clean.get("id")
    if card_id in existing or card_id in added_ids:
        problems.error(path, line_of(raw, "id") or line, None, f"{where}.id: the game already has a card '{card_id}'")
        return None
    for message in exactly_one_problems(deck, clean):
        problems.error(path, line, None, f"{where}: {message}")
    if raw.get("ability") is not None:
        if _check_ability(raw["ability"], effects, steps, problems, path, line_of(raw, "ability") or line, where) is None:
            return None
    if not {"id", "name", "copies"} <= clean.keys():
        return None
    keep = {k: v for k, v in clean.items() if k in body}
    if raw.get("ability") is not None:
        keep["ability"] = raw["ability"]
    return deck_id, _plain(keep)


def _without(mapping: dict, keys) -> dict:
    """A copy of a YAML mapping without ``keys``, keeping the lines of the others."""
    out = LineDict((k, v) for k, v in mapping.items() if k not in keys)
    out.key_lines = dict(getattr(mapping, "key_lines", {}))
    out.line, out.path = getattr(mapping, "line", None), getattr(mapping, "path", "")
    return out


def _plain(value):
    """YAML nodes (LineDict, LineList) as plain dicts and lists, for a canonical key and pickling."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _ability(raw, engine):
    """An ability mapping (already checked) as the engine's Ability."""
    from pnp.loading.gamedata import _check_ability

    scratch = Problems()
    return _check_ability(raw, getattr(engine, "EFFECTS", {}), tuple(getattr(engine, "STEPS", (1, 2, 3))), scratch,
                          None, None, None)


def apply(game, variant: Variant, engine=None):
    """The game with the variant's cards removed, changed and added (parameters are options, not data)."""
    if not (variant.remove or variant.changes or variant.add):
        return game
    from rules_engine.core.contract import engine_named

    engine = engine or engine_named(game.engine)
    decks = []
    for deck in game.decks:
        cards = []
        for card in deck.cards:
            if card.id in variant.remove:
                continue
            change = variant.changes.get(card.id)
            if change:
                card = _changed(card, deck, change, engine)
            cards.append(card)
        for deck_id, raw in variant.add:
            if deck_id == deck.id:
                clean = dict(raw)
                ability = _ability(clean.pop("ability"), engine) if clean.get("ability") is not None else None
                for f in deck.fields:
                    if f.name not in clean and f.default is not None:
                        clean[f.name] = f.default
                cards.append(new_card(deck, clean, ability))
        decks.append(replace(deck, cards=tuple(cards)))
    return replace(game, decks=tuple(decks), cards=tuple(c for d in decks for c in d.cards))


def _changed(card, deck, change: dict, engine):
    stats = dict(card.stats)
    fields = {f.name for f in deck.fields}
    updates = {}
    for key, value in change.items():
        if key in fields:
            stats[key] = value
        elif key == "ability":
            updates["ability"] = _ability(value, engine) if value is not None else None
        elif key in ("name", "copies", "faction", "rank", "flavour"):
            updates[key] = value
    return replace(card, stats=stats, **updates)


def check_applied(variant: Variant, game, engine, problems: Problems, path, line, players: int | None = None) -> None:
    """What only the whole varied game shows: a card left with both of two exclusive keys, and the
    engine's own check of the game (:func:`refusals`), each an error at the variant file's line."""
    varied = apply(game, variant, engine)
    for card_id in variant.changes:
        card = next(c for c in varied.cards if c.id == card_id)
        clean = {"name": card.name, "copies": card.copies, "faction": card.faction, "rank": card.rank, **card.stats}
        for message in exactly_one_problems(varied.deck_of(card), clean):
            problems.error(path, line, None, f"cards.{card_id}: {message}")
    if problems.errors:
        return
    for reason in refusals(variant, game, engine, players, varied):
        problems.error(path, line, None, reason)


def refusals(variant: Variant, game, engine, players: int | None = None, varied=None) -> list[str]:
    """Why the rules engine cannot play ``variant`` of ``game`` (at ``players`` seats when given): the same
    checks for a variant file and for the variants ``pnp lab`` makes (an ablation's card removed, a
    tuning run's parameter values). Empty when it can: its ``rules_for`` compiles the varied cards, every
    changed or added card's values lie in the ranges its ``CARD_KEYS`` declare, ``rules.max_players()``
    seats ``players``, ``new_state`` takes the table and the variant's parameters, and ``validate_game``
    finds no error."""
    from pnp.loading.gamedata import outside_range

    varied = varied if varied is not None else apply(game, variant, engine)
    name = game.engine
    touched = set(variant.changes) | {card.get("id") for _, card in variant.add}
    found = []
    declared = getattr(engine, "CARD_KEYS", None) or {}
    for card in varied.cards:
        if card.id in touched:
            for key, param in (declared.get(card.deck) or {}).items():
                outside = outside_range(name, key, card.stats.get(key), param)
                if outside:
                    found.append(f"card '{card.id}': {outside}")
    if found:
        return found
    try:
        rules = engine.rules_for(varied)
    except (ValueError, KeyError, TypeError) as exc:
        return [f"the rules engine cannot play the varied game: {exc}"]
    refused = table_refusal(engine, rules, players, variant.parameters, name) if players is not None else None
    if refused:
        return [refused]
    try:
        checked = engine.validate_game(varied)
    except (ValueError, KeyError, TypeError) as exc:
        return [f"the rules engine cannot play the varied game: {exc}"]
    for problem in checked:
        subject, message, warning = _hook_problem(problem)
        if not warning:
            found.append(f"the rules engine refuses the varied game: {subject + ': ' if subject else ''}{message}")
    return found


def table_refusal(engine, rules, players: int, parameters: dict, name: str) -> str | None:
    """Why the engine cannot seat ``players`` with ``rules`` and the ``parameters`` (its ``max_players()``,
    or a ``ValueError`` of its ``new_state``), or None."""
    most = rules.max_players()
    if isinstance(most, int) and most < players:
        return (f"the rules engine '{name}' seats at most {most} with the varied cards (its max_players()), "
                f"not {players}")
    try:
        engine.ENGINE.new_state(rules, players, **parameters)
    except ValueError as exc:
        return f"the rules engine '{name}' refuses the varied game at {players} players: {exc}"
    except Exception as exc:  # noqa: BLE001 - an outside engine's fault names it (exit 2); pnp's own is a bug
        from rules_engine.core.contract import bundled
        from rules_engine.core.faults import EngineFault

        if bundled(getattr(engine, "module", engine)):
            raise
        raise EngineFault(name, "new_state", exc) from None
    return None


def _hook_problem(found) -> tuple:
    """``(subject, message, warning)`` of a problem ``validate_game`` gives: a
    :class:`rules_engine.core.contract.Problem` or such a triple."""
    if hasattr(found, "message") and hasattr(found, "card"):
        subject = f"card '{found.card}'" if found.card else f"deck '{found.deck}'" if found.deck else found.key
        message = f"{found.field}: {found.message}" if found.field else found.message
        return subject, message, found.warning
    return tuple(found)
