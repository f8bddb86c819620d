"""Reprints for playtests: what every card looks like in a kit, and which cards changed since another kit.

Every build writes ``cards.json`` beside its PDFs (:func:`record`): for each deck, each physical card's
drawing as a fingerprint (a SHA-256 of its laid-out face and back at the deck's size without bleed: every
text, shape, position and colour, and the bytes of its pictures; the version stamp left out, so a new
version alone changes nothing) and the values it is printed from (name, copies, faction, rank, flavour,
ability, fields). ``pnp build --changed-since OLD_KIT_DIR`` compares the new kit's with the old one's
(:func:`compare`): a card copy whose fingerprint changed, or that is new, goes into ``reprint.pdf``, and a
changelog page lists the cards added, removed and changed, with the values that changed.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, fields, is_dataclass, replace
from pathlib import Path

from pnp.errors import UserError
from pnp.layout.geometry import Group, Picture, Transform

RECORD_FILE = "cards.json"
RECORD_FORMAT = 1


def _canonical(elements, root: Path, digests: dict) -> list:
    """The elements as plain data for a fingerprint: the version stamp left out, each picture's path
    replaced by its path in the game folder and the SHA-256 of its bytes."""
    out = []
    for e in elements:
        if getattr(e, "role", "") == "version":
            continue
        if isinstance(e, (Group, Transform)):
            inner = _canonical(e.elements, root, digests)
            out.append((type(e).__name__, repr(replace(e, elements=())), inner))
        elif isinstance(e, Picture):
            out.append(repr(replace(e, path=_digest(e.path, root, digests))))
        else:
            out.append(repr(e))
    return out


def _digest(path: str, root: Path, digests: dict) -> str:
    if path not in digests:
        p = Path(path)
        try:
            name = p.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            name = p.name
        try:
            digests[path] = f"{name}:{hashlib.sha256(p.read_bytes()).hexdigest()}"
        except OSError:
            digests[path] = f"{name}:missing"
    return digests[path]


def fingerprint(elements, root: Path, digests: dict | None = None) -> str:
    data = json.dumps(_canonical(tuple(elements), root, {} if digests is None else digests))
    return hashlib.sha256(data.encode("utf-8")).hexdigest()


def _plain(value):
    """A value as JSON holds it (dataclasses as mappings, tuples as lists)."""
    if is_dataclass(value):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def card_values(card) -> dict:
    """What a card is printed from, by name (``stats.<field>`` for its deck's fields)."""
    values = {"name": card.name, "copies": card.copies, "faction": card.faction, "rank": card.rank,
              "flavour": card.flavour, "ability": _plain(card.ability)}
    values.update({f"stats.{k}": _plain(v) for k, v in card.stats.items()})
    return values


def record(game, entries: list) -> bytes:
    """``cards.json``: ``entries`` are (deck, card or None for a player aid, label, face elements, back
    elements) for every physical card of every deck in print order."""
    digests: dict = {}
    return record_of(game, [(deck, card, label, fingerprint(face, game.root, digests), fingerprint(back, game.root, digests))
                            for deck, card, label, face, back in entries])


def record_of(game, prints: list) -> bytes:
    """:func:`record` from (deck, card or None, label, face fingerprint, back fingerprint) of every
    physical card in print order (card sheets drawn in pieces fingerprint each piece's cards)."""
    decks: dict = {}
    for deck, card, label, face, back in prints:
        d = decks.setdefault(deck.id, {"name": deck.name, "cards": {}})
        key = card.id if card is not None else "aid"
        c = d["cards"].setdefault(key, {"name": card.name if card is not None else "player aid",
                                        "values": card_values(card) if card is not None else {}, "copies": {}})
        c["copies"][label] = {"face": face, "back": back}
    doc = {"format": RECORD_FORMAT, "game": game.title, "version": game.version, "decks": decks}
    return (json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


def read_record(folder: str | Path) -> dict:
    """The ``cards.json`` of an earlier kit folder."""
    path = Path(folder) / RECORD_FILE
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"--changed-since {folder}: no {RECORD_FILE} there; it is written by every pnp build "
                        f"from this version on, so build the old kit again (or give the folder of one)") from None
    except (OSError, ValueError) as exc:
        raise UserError(f"--changed-since {folder}: cannot read {RECORD_FILE}: {exc}") from None
    if not isinstance(doc, dict) or doc.get("format") != RECORD_FORMAT or not isinstance(doc.get("decks"), dict):
        raise UserError(f"--changed-since {folder}: {RECORD_FILE} is not a card record pnp wrote")
    return doc


@dataclass(frozen=True)
class Change:
    """One card's change between two kits: ``kind`` is ``added``, ``removed`` or ``changed``; ``values``
    the values that changed (``drawing`` when only its drawing did: a layout, a picture, a back)."""

    kind: str
    deck: str
    card: str
    name: str
    values: tuple = ()


def compare(old: dict, new: dict) -> tuple[list[Change], set]:
    """(the changes card by card in the new kit's order, then the removed ones; the labels of the card
    copies to reprint: new copies, and copies whose face or back changed)."""
    changes, reprint = [], set()
    for deck_id, deck in new["decks"].items():
        before = old["decks"].get(deck_id, {}).get("cards", {})
        for card_id, card in deck["cards"].items():
            was = before.get(card_id)
            if was is None:
                changes.append(Change("added", deck_id, card_id, card["name"]))
                reprint.update(card["copies"])
                continue
            redraw = {label for label, prints in card["copies"].items() if was["copies"].get(label) != prints}
            reprint.update(redraw)
            keys = sorted(set(card["values"]) | set(was["values"]))
            values = tuple(k for k in keys if card["values"].get(k) != was["values"].get(k))
            if values or redraw:
                changes.append(Change("changed", deck_id, card_id, card["name"], values or ("drawing",)))
    for deck_id, deck in old["decks"].items():
        now = new["decks"].get(deck_id, {}).get("cards", {})
        for card_id, card in deck["cards"].items():
            if card_id not in now:
                changes.append(Change("removed", deck_id, card_id, card["name"]))
    return changes, reprint
