"""Reprints for playtests: which pieces changed since another kit, and ``reprint.pdf`` of only those.

Every build writes ``pieces.json`` beside its PDFs, the record of what every piece looks like
(:mod:`pnp.components.record`: each component records the pieces it prints). ``pnp build --changed-since
OLD`` compares the new kit's record with an earlier one (:func:`compare`): the
``pieces.json`` (or a ``cards.json`` of an older pnp, cards only) of a kit folder, or the record of the game
folder as it was at a git commit (:mod:`pnp.reprint.gitref`), made by the same hooks. A copy whose fingerprint
changed, or that is new, goes into ``reprint.pdf``: a changelog of the pieces added, removed and changed
with the values that changed, kind by kind, then the sheets of only those copies, each component laying
them out as its build does (its ``reprint`` hook), cards first. Every sheet takes two pages (a one-sided
sheet's second is blank), so the whole file prints double-sided.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from pnp.reprint import gitref
from pnp.errors import DataError, UserError, display_path
from pnp.components.record import RECORD_FILE, RECORD_FORMAT, fragment, record
from pnp.layout.geometry import Page

#: The record of pnp versions that compared cards only (format 1): still read, for its cards.
CARDS_RECORD_FILE = "cards.json"
REPRINT_FILE = "reprint.pdf"


#: Largest record (``pieces.json``, ``cards.json``) read from an earlier kit: a record of 20,000 cards is
#: about 10 MB.
MAX_RECORD_BYTES = 32 * 2**20


def read_record(folder: str | Path, given: str | None = None) -> dict:
    """The record of an earlier kit folder: its ``pieces.json``, or the ``cards.json`` of a pnp that
    recorded cards only (read as the record of its cards, with ``only: ["cards"]``). The file is read as
    data from anywhere: bounded in size, every value of the type pnp writes (a UserError naming the first
    that is not)."""
    given = given or str(folder)
    path = Path(folder) / RECORD_FILE
    if not path.is_file() and (Path(folder) / CARDS_RECORD_FILE).is_file():
        return _cards_record(Path(folder) / CARDS_RECORD_FILE, given)
    try:
        doc = _read_json(path)
    except FileNotFoundError:
        raise UserError(f"--changed-since {given}: no {RECORD_FILE} there; it is written by every pnp build "
                        f"from this version on, so build the old kit again (or give a git reference of the "
                        f"game folder's repository, such as a tag)") from None
    except (OSError, ValueError, RecursionError) as exc:
        raise UserError(f"--changed-since {given}: cannot read {RECORD_FILE}: {_reason(exc)}") from None
    if not isinstance(doc, dict) or doc.get("format") != RECORD_FORMAT or not isinstance(doc.get("components"), dict):
        raise UserError(f"--changed-since {given}: {RECORD_FILE} is not a record of pieces pnp wrote")
    problem = _record_problem(doc)
    if problem:
        raise UserError(f"--changed-since {given}: {RECORD_FILE} is not a record of pieces pnp wrote ({problem})")
    return doc


def _read_json(path: Path):
    """A JSON file of an earlier kit: a regular file (a FIFO is refused, not waited for) of at most
    :data:`MAX_RECORD_BYTES`."""
    from pnp.loading.paths import open_regular

    with open_regular(path) as f:
        size = os.fstat(f.fileno()).st_size
        if size > MAX_RECORD_BYTES:
            raise ValueError(f"it holds {size / 2**20:,.0f} MB, more than a record pnp writes "
                             f"(at most {MAX_RECORD_BYTES // 2**20} MB)")
        data = f.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:
        raise ValueError(f"it holds more than {MAX_RECORD_BYTES // 2**20} MB, more than a record pnp writes")
    return json.loads(data.decode("utf-8"))


def _reason(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return "its values are nested too deeply"
    if isinstance(exc, UnicodeDecodeError):
        return "it is not UTF-8 text"
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return str(exc)


def _short(key) -> str:
    text = str(key)
    return text if len(text) <= 40 else text[:39] + "\u2026"


def _wrong(value, where: str, kind: type) -> str | None:
    """``where: expected ...`` when ``value`` is not of ``kind`` (bool is no number, None no text)."""
    if isinstance(value, kind):
        return None
    words = {str: "text", dict: "a mapping", list: "a list"}
    got = "nothing" if value is None else type(value).__name__.replace("str", "text").replace("dict", "a mapping")
    return f"{where}: expected {words[kind]}, got {got}"


def _pieces_problem(pieces, where: str) -> str | None:
    """The first value of a component's pieces (or a deck's cards) that is not as pnp writes it."""
    problem = _wrong(pieces, where, dict)
    if problem:
        return problem
    for key, piece in pieces.items():
        at = f"{where}.{_short(key)}"
        problem = _wrong(piece, at, dict)
        for name, kind in (("name", str), ("values", dict), ("copies", dict)):
            problem = problem or _wrong(piece.get(name), f"{at}.{name}", kind)
        problem = problem or _wrong(piece.get("group", ""), f"{at}.group", str)
        if problem:
            return problem
        for label, prints in piece["copies"].items():
            label_at = f"{at}.copies.{_short(label)}"
            problem = _wrong(prints, label_at, dict)
            for side in ("face", "back"):
                problem = problem or _wrong(prints.get(side), f"{label_at}.{side}", str)
            if problem:
                return problem
    return None


def _record_problem(doc: dict) -> str | None:
    """The first value of a ``pieces.json`` record that is not of the type pnp writes (None: it is a record)."""
    for name in ("game", "version"):
        if doc.get(name) is not None and not isinstance(doc[name], str):
            return _wrong(doc[name], name, str)
    only = doc.get("only")
    if only is not None and not (isinstance(only, list) and all(isinstance(k, str) for k in only)):
        return "only: expected a list of kinds"
    for comp_id, comp in doc["components"].items():
        where = f"components.{_short(comp_id)}"
        problem = _wrong(comp, where, dict)
        for name in ("kind", "title"):
            problem = problem or _wrong(comp.get(name), f"{where}.{name}", str)
        problem = problem or _pieces_problem(comp.get("pieces"), f"{where}.pieces")
        if problem:
            return problem
    return None


def _cards_record(path: Path, given: str) -> dict:
    """A format-1 ``cards.json`` (decks of cards, each card's copies) as a record of one ``cards`` component."""
    try:
        doc = _read_json(path)
    except (OSError, ValueError, RecursionError) as exc:
        raise UserError(f"--changed-since {given}: cannot read {CARDS_RECORD_FILE}: {_reason(exc)}") from None
    if not isinstance(doc, dict) or doc.get("format") != 1 or not isinstance(doc.get("decks"), dict):
        raise UserError(f"--changed-since {given}: {CARDS_RECORD_FILE} is not a card record pnp wrote")
    problem = None
    for deck_id, deck in doc["decks"].items():
        where = f"decks.{_short(deck_id)}"
        problem = problem or _wrong(deck, where, dict) or _pieces_problem(deck.get("cards", {}), f"{where}.cards")
    problem = problem or _record_problem({k: doc.get(k) for k in ("game", "version")} | {"components": {}})
    if problem:
        raise UserError(f"--changed-since {given}: {CARDS_RECORD_FILE} is not a card record pnp wrote ({problem})")
    pieces = {}
    for deck_id, deck in doc["decks"].items():
        for card_id, card in deck.get("cards", {}).items():
            key = card_id if card_id != "aid" else next(iter(card["copies"]), "aid#1").rsplit("#", 1)[0]
            pieces[key] = {"name": card["name"], "group": deck_id, "values": card["values"],
                           "copies": card["copies"]}
    return {"format": RECORD_FORMAT, "game": doc.get("game"), "version": doc.get("version", ""), "only": ["cards"],
            "components": {"cards": {"kind": "cards", "title": "Cards", "pieces": pieces}}}


@dataclass(frozen=True)
class Change:
    """One piece's change between two kits: ``kind`` is ``added``, ``removed`` or ``changed``; ``values``
    the values that changed (none for a changed piece when only its drawing did: a layout, a picture, a
    back; the changelog then prints the kit's printed word ``reprint_drawing``)."""

    kind: str
    component: str
    piece: str
    name: str
    values: tuple = ()
    group: str = ""


def compare(old: dict, new: dict) -> tuple[list[Change], dict]:
    """(the changes piece by piece, component by component in the new kit's order, each component's removed
    pieces after its others, then those of components the new kit lacks; the labels of the copies to
    reprint, by component: new copies, and copies whose face or back changed). Components of a kind an
    older record did not hold (``only``) are not compared."""
    only = old.get("only")
    changes, reprint = [], {}
    before = old["components"]
    for comp_id, comp in new["components"].items():
        if only is not None and comp["kind"] not in only:
            continue
        was_pieces = before.get(comp_id, {}).get("pieces", {})
        wanted = set()
        for key, piece in comp["pieces"].items():
            was = was_pieces.get(key)
            if was is None:
                changes.append(Change("added", comp_id, key, piece["name"], group=piece.get("group", "")))
                wanted.update(piece["copies"])
                continue
            redraw = {label for label, prints in piece["copies"].items() if was["copies"].get(label) != prints}
            wanted.update(redraw)
            names = sorted(set(piece["values"]) | set(was["values"]))
            values = tuple(k for k in names if piece["values"].get(k) != was["values"].get(k))
            if values or redraw:
                changes.append(Change("changed", comp_id, key, piece["name"], values,
                                      piece.get("group", "")))
        for key, piece in was_pieces.items():
            if key not in comp["pieces"]:
                changes.append(Change("removed", comp_id, key, piece["name"], group=piece.get("group", "")))
        if wanted:
            reprint[comp_id] = wanted
    for comp_id, comp in before.items():
        if comp_id not in new["components"]:
            changes += [Change("removed", comp_id, key, piece["name"], group=piece.get("group", ""))
                        for key, piece in comp["pieces"].items()]
    return changes, reprint


def earlier_record(value: str, game, options) -> dict:
    """The record ``--changed-since value`` names: a kit folder's, or (when ``value`` is no folder) that of
    the game folder as it was at the git commit ``value`` names (:mod:`pnp.reprint.gitref`)."""
    path = Path(value)
    if path.is_dir():
        return read_record(path, value)
    if path.exists():
        raise UserError(f"--changed-since {value}: a file, not a kit folder (give the folder a build wrote, or "
                        f"a git reference)")
    return record_at(value, game, options)


def record_at(value: str, game, options) -> dict:
    """The record (:func:`game_record`) of ``game``'s folder as it was at the git commit ``value``
    (:func:`pnp.reprint.gitref.folder_at`); its version, when its game.yaml gives none, is the reference and the
    commit's short id."""
    from pnp.loading.gamedata import load_game

    with gitref.folder_at(value, game.root) as (folder, short):
        try:
            old = load_game(folder)
            if options.lang:
                from pnp.loading.i18n import translate

                old = translate(old, options.lang)
            record = game_record(old, options)
        except DataError as exc:
            shown = [str(p).replace(str(folder), display_path(game.root)) for p in exc.problems][:5]
            more = len(exc.problems) - len(shown)
            raise UserError(f"--changed-since {value}: the game folder as it was at {short} does not build:\n  "
                            + "\n  ".join(shown) + (f"\n  ... and {more} more" if more > 0 else "")) from None
    if not record.get("version"):
        record["version"] = short if value.lower().startswith(short.lower()) else f"{value} ({short})"
    return record


def check_earlier(value: str, game_arg) -> None:
    """Before a build: that ``--changed-since value`` names a kit folder with a record, or a commit of the
    game folder's git repository (a UserError saying which it is not)."""
    path = Path(value)
    if path.is_dir():
        read_record(path, value)
    elif path.exists():
        earlier_record(value, None, None)
    else:
        from pnp.loading.gamedata import resolve_game_dir

        repository, _, _ = gitref.commit_of(value, resolve_game_dir(game_arg))
        repository.close()


def game_record(game, options) -> dict:
    """The record of ``game`` as a build with ``options`` writes it (each component's ``printed`` pieces),
    without drawing a kit: what a git reference is compared by."""
    from pnp.components import game_components
    from pnp.draw.icons import for_game

    fragments = {}
    with for_game(game):
        for c in game_components(game):
            if c.printed is not None:
                fragments[c.name] = [fragment(game, c.kind, *c.printed(game, options))]
    return json.loads(record(game, fragments))


def reprint_pages(game, options, components, record_bytes: bytes, words) -> tuple[list, dict, int]:
    """(the pages of ``reprint.pdf``, files beside it, the copies it prints): the changelog since
    ``options.changed_since``, then each component's sheets of its changed copies (cards first, then the
    kit's order). ``words``: the kit's printed words (:func:`pnp.loading.i18n.strings`)."""
    from pnp.layout.changelog import changelog_pages
    from pnp.text.markup import escape

    old = earlier_record(options.changed_since, game, options)
    new = json.loads(record_bytes)
    changes, wanted = compare(old, new)
    ordered = [c for c in components if c.kind == "cards"] + [c for c in components if c.kind != "cards"]
    ordered = [c for c in ordered if c.reprint is not None]
    count = sum(len(wanted.get(c.name, ())) for c in ordered)
    decks = {deck.id: escape(deck.name) for deck in game.decks if deck.name}
    rows = _changelog_rows(changes, ordered, old, new, words, escape, decks)
    if old.get("only"):
        rows.append(("line", words.get("reprint_only_cards", "The earlier kit was built by a pnp that recorded "
                                                             "cards only: its other pieces are not compared.")))
    was, now = escape(str(old.get("version") or "")), escape(game.version)
    title = words.get("reprint_title", "Reprint")
    if was and now and was != now:
        title = _filled(words.get("reprint_from_to", "{title}: {old} to {new}"), title=title, old=was, new=now)
    elif was:
        title = _filled(words.get("reprint_since", "{title}: changes since {old}"), title=title, old=was)
    summary = words.say("reprint_summary", count=count) if count else words["reprint_nothing"]
    w, h = options.page_size
    pages = changelog_pages(title, summary, rows, w, h)
    beside = {}
    for c in ordered:
        labels = wanted.get(c.name)
        if not labels:
            continue
        part = c.reprint(game, options, labels, len(pages) + 1)
        beside.update(part.beside)
        for front, back in part.sheets:
            pages += [front, back if back is not None else Page(front.width, front.height, label="blank")]
    return pages, beside, count


def _filled(text: str, **values) -> str:
    for name, value in values.items():
        text = text.replace("{" + name + "}", value)
    return text


def _changelog_rows(changes, components, old, new, words, escape, groups=None) -> list[tuple]:
    """("heading", title) for each component with changes, then ("line", markup) for each change; a piece's
    group (a card's deck) is named by ``groups`` (the decks' printed names, in the kit's language), else by
    its id."""
    groups = groups or {}
    by_component: dict = {}
    for change in changes:
        by_component.setdefault(change.component, []).append(change)
    listed = [c.name for c in components if c.name in by_component]
    listed += [name for name in by_component if name not in listed]
    rows = []
    for name in listed:
        comp = new["components"].get(name)
        title = comp["title"] if comp is not None else _as_data(old["components"][name]["title"], escape)
        comp = comp or old["components"][name]
        group_ids = {p.get("group", "") for p in comp["pieces"].values()}
        names = groups if comp.get("kind") == "cards" else {}
        rows.append(("heading", title))
        for change in by_component[name]:
            what = words.get(f"reprint_{change.kind}", change.kind.capitalize())
            group = f" ({names.get(change.group) or escape(change.group)})" if len(group_ids) > 1 and change.group else ""
            # a removed piece is named by the earlier record: printed as data, whoever wrote that file
            shown = _as_data(change.name, escape) if change.kind == "removed" else change.name
            line = f"**{what}**: {shown}{group}"
            if change.values:
                line += " — " + ", ".join(escape(v) for v in change.values)
            elif change.kind == "changed":         # only its drawing changed
                line += " — " + words.get("reprint_drawing", "drawing")
            rows.append(("line", line))
    return rows


def _as_data(markup: str, escape) -> str:
    """A name or title from an earlier kit's record as markup that prints it as data: the record holds it
    as markup pnp made (data escaped), so the escapes are taken out and the text escaped again; a name that
    is such markup prints as before, any other (``**big** [crown]`` in a file someone edited) prints
    exactly as written, stars and brackets included."""
    return escape(re.sub(r"\\(.)", r"\1", str(markup), flags=re.DOTALL))


def reprint_output(game, options, components, record_bytes: bytes):
    """``reprint.pdf`` (not in kit.pdf) as layout pages, with its cut files beside it (:func:`reprint_pages`)."""
    from pnp.components import Output
    from pnp.loading.i18n import strings

    words = strings(game, options.lang)
    pages, beside, _ = reprint_pages(game, options, components, record_bytes, words)
    return Output(REPRINT_FILE, words.get("reprint_title", "Reprint"), pages, in_kit=False, beside=beside)
