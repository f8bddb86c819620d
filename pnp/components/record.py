"""What every piece of a kit looks like: ``pieces.json``, the record each build writes beside its PDFs.

Each component that prints pieces (cards, tokens, standees, dice, boards, tracks, the hex map, the box)
lists them through its module's ``printed`` hook, one :class:`Printed` per physical copy, and its build
records them (:func:`fragment`, ``Output.record``): each copy's drawing as a fingerprint (a SHA-256 of its
laid-out elements, without the bleed of the build: every text, shape, position and colour, and the bytes
of its pictures; the version stamp left out, so a new version alone changes nothing) and the values it is
printed from (a card's name, copies, flavour and fields; a token's colours and captions; a board's item;
...). :func:`kit_record` gathers them into the kit's ``pieces.json``; :mod:`pnp.reprint.changes` compares two
records and prints ``reprint.pdf`` of the pieces that changed.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, fields, is_dataclass, replace
from pathlib import Path

from pnp.layout.geometry import Group, Picture, Transform

RECORD_FILE = "pieces.json"
RECORD_FORMAT = 2


@dataclass(frozen=True)
class Printed:
    """One physical copy of a piece as a component prints it: ``key`` names the piece within its component
    (a card's or token's id, a board's name), ``label`` the copy (``<key>#<n>``), ``name`` is how the
    changelog names it (markup), ``face`` and ``back`` its drawing (elements in its own frame), ``values``
    what it is printed from, ``group`` where it belongs inside the component (a card's deck)."""

    key: str
    label: str
    name: str
    face: tuple
    back: tuple = ()
    values: dict = field(default_factory=dict, compare=False, hash=False)
    group: str = ""


@dataclass
class Reprinted:
    """A component's part of ``reprint.pdf``: its sheets of paper, each (front page, back page or None for a
    sheet printed on one side), and files to write beside the PDF (cut files), named by page number."""

    sheets: list = field(default_factory=list)
    beside: dict = field(default_factory=dict)


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


def _plain(value, root: Path | None = None):
    """A value as JSON holds it (dataclasses as mappings without their source line, tuples as lists, paths
    inside the game folder relative to it)."""
    if is_dataclass(value):
        return {f.name: _plain(getattr(value, f.name), root) for f in fields(value) if f.name != "line"}
    if isinstance(value, dict):
        return {str(k): _plain(v, root) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v, root) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, Path) and root is not None:
        try:
            return value.resolve().relative_to(Path(root).resolve()).as_posix()
        except ValueError:
            return value.name
    return str(value)


def flat(value, prefix: str = "") -> dict:
    """Nested mappings as one mapping of dotted names (``front.background``); other values as they are."""
    if isinstance(value, dict) and (value or not prefix):
        out = {}
        for k, v in value.items():
            out.update(flat(v, f"{prefix}{k}."))
        return out
    return {prefix[:-1]: value}


def card_values(card) -> dict:
    """What a card is printed from, by name (``stats.<field>`` for its deck's fields; ``side_b.name``,
    ``side_b.flavour`` and ``side_b.stats.<field>`` for a double-sided card's side B)."""
    values = {"name": card.name, "copies": card.copies, "faction": card.faction, "rank": card.rank,
              "flavour": card.flavour, "ability": _plain(card.ability)}
    values.update({f"stats.{k}": _plain(v) for k, v in card.stats.items()})
    side = getattr(card, "side_b", None)
    if side is not None:
        values.update({"side_b.name": side.name, "side_b.flavour": side.flavour})
        values.update({f"side_b.stats.{k}": _plain(v) for k, v in side.stats.items()})
    return values


def item_values(item, root: Path | None = None) -> dict:
    """What a piece made from data is printed from (a token, a board's item, a standee's sides), by dotted
    name."""
    plain = _plain(item, root)
    return flat(plain) if isinstance(plain, dict) else {"item": plain}


def fragment(game, kind: str, title: str, printed) -> str:
    """A component's part of ``pieces.json`` (JSON): its kind, its title (markup) and each piece with its
    name, group, values and each copy's fingerprints, in print order."""
    digests, prints, rows = {}, {}, []
    printed = list(printed)                 # held while fingerprinted: ids of shared drawings stay theirs
    for p in printed:
        sides = []
        for elements in (p.face, p.back):
            if id(elements) not in prints:
                prints[id(elements)] = fingerprint(elements, game.root, digests)
            sides.append(prints[id(elements)])
        rows.append((p.key, p.label, p.name, sides[0], sides[1], p.values, p.group))
    return fragment_of(game, kind, title, rows)


def fragment_of(game, kind: str, title: str, rows) -> str:
    """:func:`fragment` from rows of (key, label, name, face fingerprint, back fingerprint, values, group)
    (card sheets drawn in pieces fingerprint each piece's cards where they are drawn)."""
    pieces = {}
    for key, label, name, face, back, values, group in rows:
        entry = pieces.setdefault(key, {"name": str(name), "group": group, "values": _plain(values, game.root),
                                        "copies": {}})
        entry["copies"][label] = {"face": face, "back": back}
    return json.dumps({"kind": kind, "title": str(title), "pieces": pieces}, ensure_ascii=False)


def record(game, fragments: dict) -> bytes:
    """``pieces.json``: ``fragments`` are each component's (by id, in kit order) as :func:`fragment` made
    them; a component whose pieces come in several files has several, merged here."""
    components: dict = {}
    for name, parts in fragments.items():
        for text in parts:
            part = json.loads(text)
            into = components.setdefault(name, {"kind": part["kind"], "title": part["title"], "pieces": {}})
            for key, piece in part["pieces"].items():
                have = into["pieces"].setdefault(key, {**piece, "copies": {}})
                have["copies"].update(piece["copies"])
    doc = {"format": RECORD_FORMAT, "game": game.title, "version": game.version, "components": components}
    return (json.dumps(doc, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def kit_record(game, components, built: dict) -> bytes:
    """``pieces.json`` of a kit: the records of every component's files (``built``: by component id)."""
    return record(game, {c.name: [o.record for o in built.get(c.name, ()) if o.record] for c in components})
