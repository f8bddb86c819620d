"""Tabletop Simulator deck sheets: 10 x 7 cells per image, at most 4096 px wide, the last cell holding
the hidden-card face (the back), plus the back image and a JSON index of every cell (its fields are
described in docs/printing.md, "Exports").

A deck whose back varies by a card key (``back: {by: KEY, ...}``), or whose cards are double-sided, is
exported in Tabletop Simulator's "unique backs" form: beside each face sheet ``deck-N.png`` a back sheet
``backs-N.png`` holds each card's own back (a double-sided card's side B) in the same cell, and the index
says which back every card shows.

The export is planned first (:func:`plan`: which face and which back goes in which cell of which sheet,
plain data), then drawn (:func:`export_tts`), so other Tabletop Simulator files can be made from the same
plan.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass, field
from fractions import Fraction
from urllib.parse import quote

from PIL import Image

from pnp.exports.cards import (BACK, DeckCard, back_file, back_key, back_value, card_back, checked_game, deck_cards,
                               distinct_faces, face_images, is_side_b, select_decks, side_b_keys, variant_keys)
from pnp.draw.raster import png_bytes
from pnp.build.output import write_atomically
from pnp.loading.paths import SAFE_NAME

#: The record of the files an export wrote, so the next one removes those it no longer makes.
RECORD = ".pnp-export-tts.json"
COLUMNS, ROWS = 10, 7
MAX_WIDTH = 4096
CARDS_PER_SHEET = COLUMNS * ROWS - 1      # the last cell shows the hidden-card face
INDEX_FILE = "tts.json"


def cell_size(card_w_mm: float, card_h_mm: float, max_px: int = MAX_WIDTH) -> tuple[int, int]:
    """Pixel size of one cell: the widest that keeps the sheet within ``max_px`` on each side, at the card's
    proportions (rounded half up): 409 x 571 px for 63 x 88 mm. Cards taller than 10:7 are fitted to
    the height instead (70 x 120 mm tarot cards: 341 x 585 px)."""
    ratio = Fraction(str(card_h_mm)) / Fraction(str(card_w_mm))
    width = max_px // COLUMNS
    height = math.floor(width * ratio + Fraction(1, 2))
    if height * ROWS > max_px:
        height = max_px // ROWS
        width = math.floor(height / ratio + Fraction(1, 2))
    return width, height


@dataclass
class TtsSheet:
    """One face sheet of a deck (and, with unique backs, its back sheet): the cards in its cells in
    reading order; the last cell shows ``hidden`` (the deck's back)."""

    file: str                      # deck-N.png (in the deck's folder)
    number: int                    # N of CustomDeck N: sheets are numbered across every deck from 1
    cards: list                    # DeckCard per cell, reading order
    backs: list                    # face key of each card's back, same order
    hidden: str                    # face key of the hidden-card cell
    back_file: str | None = None   # backs-N.png with unique backs, else None


@dataclass
class TtsDeck:
    """One deck's sheets: cell size, its back (face key and file) and whether every card has its own back."""

    id: str
    name: str
    folder: str                    # "" or "<deck id>/"
    cell: tuple                    # (width, height) px
    back: str                      # face key of the deck's back
    variants: list                 # face keys of its backs by value (unique backs when any)
    sheets: list = field(default_factory=list)
    width_mm: float = 0.0          # the card's width
    sides: list = field(default_factory=list)    # face keys of its cards' side Bs (unique backs when any)

    @property
    def unique_backs(self) -> bool:
        return bool(self.variants or self.sides)


def plan(game, lang: str | None = None, decks=None) -> list[TtsDeck]:
    """Which face and back every cell of every sheet of the decks ``decks`` names (default: all) shows."""
    out, number = [], 0
    for deck in select_decks(game, decks):
        folder = f"{deck.id}/" if game.several_decks else ""
        cards = deck_cards(game, lang, deck)
        tts = TtsDeck(deck.id, deck.name, folder, cell_size(deck.width, deck.height), back_key(game, deck),
                      variant_keys(game, deck), width_mm=deck.width, sides=side_b_keys(game, deck, cards))
        for s, start in enumerate(range(0, len(cards), CARDS_PER_SHEET)):
            number += 1
            chunk = cards[start:start + CARDS_PER_SHEET]
            tts.sheets.append(TtsSheet(f"{folder}deck-{s + 1}.png", number, chunk,
                                       [card_back(game, deck, c) for c in chunk], tts.back,
                                       f"{folder}backs-{s + 1}.png" if tts.unique_backs else None))
        out.append(tts)
    return out


@dataclass
class TtsExport:
    """What the Tabletop Simulator export wrote: the files, the first deck's cell size (px), the number of
    sheets, the tts.json index and the plan it drew."""

    files: list
    cell: tuple
    sheets: int
    index: dict
    decks: list = None             # TtsDeck
    warnings: list = ()            # Problems: a record of an earlier export left alone (pnp.build.output.read_record)


def _sheet(cell, cells: list, images: dict) -> Image.Image:
    """A 10 x 7 sheet with ``images[key]`` in each cell of ``cells`` (face keys in reading order, None for an
    empty cell)."""
    sheet = Image.new("RGB", (cell[0] * COLUMNS, cell[1] * ROWS), "white")
    for i, key in enumerate(cells):
        if key is not None:
            row, col = divmod(i, COLUMNS)
            sheet.paste(images[key], (col * cell[0], row * cell[1]))
    return sheet


def export_tts(game_arg, out_dir: str | os.PathLike, lang: str | None = None, progress=None,
               game=None, decks=None, base_url: str | None = None) -> TtsExport:
    """Sheets, backs and index; with several decks, one set of sheets and its own back per deck, in a
    folder named by the deck's id (tts.json lists the decks). ``decks``: the ids of the decks to export
    (default: all). Also the saved object ``<game>.json`` (:func:`saved_object`), its images named by
    ``base_url`` + their file name (without one: their file names, relative to the export folder)."""
    game = game or checked_game(game_arg, lang)
    files, entries, sheets, decks_index = {}, [], [], []
    planned = plan(game, lang, decks)
    for deck in planned:
        cards = [c for sheet in deck.sheets for c in sheet.cards]
        faces = face_images(game, distinct_faces(cards, deck.back) + deck.variants + deck.sides, deck.cell, 0.0, lang,
                            progress)
        deck_sheets = []
        for sheet in deck.sheets:
            hidden = [None] * (COLUMNS * ROWS - 1) + [sheet.hidden]
            cells = [c.face for c in sheet.cards] + hidden[len(sheet.cards):]
            files[sheet.file] = png_bytes(_sheet(deck.cell, cells, faces))
            info = {"file": sheet.file, "cards": len(sheet.cards), "width": deck.cell[0] * COLUMNS,
                    "height": deck.cell[1] * ROWS}
            if sheet.back_file:
                files[sheet.back_file] = png_bytes(_sheet(deck.cell, sheet.backs + hidden[len(sheet.cards):], faces))
                info["backs"] = sheet.back_file
            sheets.append(info)
            deck_sheets.append(sheet.file)
            for i, (card, back) in enumerate(zip(sheet.cards, sheet.backs)):
                entries.append(_entry(game, deck, sheet, i, card, back))
        for key in [deck.back] + deck.variants:
            files[f"{deck.folder}{back_file(key)}"] = png_bytes(faces[key])
        info = {"id": deck.id, "name": deck.name, "back": f"{deck.folder}{BACK}.png", "sheets": deck_sheets,
                "card_px": {"width": deck.cell[0], "height": deck.cell[1]}}
        if deck.unique_backs:
            info.update(_unique_backs(deck))
        decks_index.append(info)
    first = planned[0]
    index = {
        "game": game.title,
        "grid": {"columns": COLUMNS, "rows": ROWS},
        "card_px": {"width": first.cell[0], "height": first.cell[1]},
        "hidden_cell": {"row": ROWS - 1, "column": COLUMNS - 1, "index": COLUMNS * ROWS - 1},
        "back": decks_index[0]["back"],
        "sheets": sheets,
        "cards": entries,
    }
    if game.several_decks:
        index["decks"] = decks_index
    elif first.unique_backs:
        index.update(_unique_backs(first))
    files[INDEX_FILE] = (json.dumps(index, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    where = "" if not base_url else base_url if base_url.endswith("/") else base_url + "/"
    pieces = []
    if not decks:                       # the whole game (no --deck): its boards, tokens and dice too
        from pnp.exports.ttstable import piece_images, table_pieces

        pieces = table_pieces(game, lang)
        files.update({name: png_bytes(image) for name, image in piece_images(game, pieces).items()})
    saved = saved_object(game, planned, where, pieces)
    files[saved_object_file(game)] = (json.dumps(saved, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    written = []
    return TtsExport(write_atomically(out_dir, files, record=RECORD, warnings=written), first.cell, len(sheets),
                     index, planned, written)


def saved_object_file(game) -> str:
    """``<game folder's name>.json`` (``tabletop-simulator.json`` when that name is no safe file name)."""
    return f"{game.id}.json" if SAFE_NAME.fullmatch(game.id or "") else "tabletop-simulator.json"


#: A poker card's width (mm): a deck of other cards is scaled by its width over this.
TTS_CARD_WIDTH = 63.5
#: How thick a board and a token are, in units (about 2.5 mm).
THICKNESS = 0.1


def _guid(*parts) -> str:
    """A fixed six-hex-digit GUID for an object (Tabletop Simulator makes its own when two clash)."""
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()[:6]


def _transform(x: float, scale, z: float = 0.0, face_down: bool = True) -> dict:
    """At (``x``, ``z``) on the table, turned to face the players (long side away from them), face down
    (turned 180 degrees about z) unless ``face_down`` is false; ``scale``: one factor or (x, z)."""
    sx, sz = scale if isinstance(scale, tuple) else (scale, scale)
    return {"posX": round(x, 4), "posY": 1.0, "posZ": round(z, 4), "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0 if face_down else 0.0, "scaleX": round(sx, 4), "scaleY": 1.0, "scaleZ": round(sz, 4)}


def _object(name: str, guid: str, transform: dict, nickname: str, **more) -> dict:
    return {"Name": name, "GUID": guid, "Transform": transform, "Nickname": nickname, "Description": "",
            "Locked": False, **more}


def _tile_image(base: str, piece, tile_type: int, stackable: bool) -> dict:
    back = piece.files.get("back")
    return {"ImageURL": base + quote(piece.files["front"]), "ImageSecondaryURL": base + quote(back) if back else "",
            "ImageScalar": 1.0, "WidthScale": 0.0,
            "CustomTile": {"Type": tile_type, "Thickness": THICKNESS, "Stackable": stackable, "Stretch": True}}


def _in_bag(game, piece, spot, copy_of) -> dict:
    """``piece`` alone at ``spot``, or its copies in a bag there."""
    from pnp.exports.ttstable import Spot

    if piece.count == 1:
        return copy_of(1, spot)
    inside = [copy_of(k, Spot(0.0, 0.0, 0.0, 0.0)) for k in range(1, piece.count + 1)]
    return _object("Bag", _guid(game.id, piece.component, piece.files.get("front") or piece.files.get("die"), "bag"),
                   _transform(spot.x, 1.0, spot.z, face_down=False), f"{piece.name} x{piece.count}",
                   ContainedObjects=inside)


def _table_object(game, piece, spot, base: str) -> dict:
    """A board, a token (or a bag of them) or a die (or a bag of them) at ``spot``."""
    from pnp.exports.ttstable import TILE_TYPES, die_type, tile_scale

    if piece.kind == "board":
        return _object("Custom_Tile", _guid(game.id, piece.component, piece.files["front"]),
                       _transform(spot.x, tile_scale(piece.size), spot.z, face_down=False), piece.name,
                       CustomImage=_tile_image(base, piece, 0, False))
    if piece.kind == "token":
        def token(k, at):
            return _object("Custom_Tile", _guid(game.id, "token", piece.files["front"], k),
                           _transform(at.x, tile_scale(piece.size), at.z, face_down=False), piece.name,
                           CustomImage=_tile_image(base, piece, TILE_TYPES[piece.shape], True))
        return _in_bag(game, piece, spot, token)

    def die(k, at):
        return _object("Custom_Dice", _guid(game.id, piece.component, piece.files["die"], k),
                       _transform(at.x, 1.0, at.z, face_down=False), piece.name,
                       CustomImage={"ImageURL": base + quote(piece.files["die"]), "ImageSecondaryURL": "",
                                    "ImageScalar": 1.0, "WidthScale": 0.0,
                                    "CustomDice": {"Type": die_type(len(piece.faces))}})
    return _in_bag(game, piece, spot, die)


def saved_object(game, planned: list, base: str, pieces: list = ()) -> dict:
    """A Tabletop Simulator saved object (for its Saved Objects folder): every deck as a ``DeckCustom`` of
    its cards in print order, face down, each sheet a ``CustomDeck`` entry (its number the sheet's,
    ``FaceURL`` the sheet, ``BackURL`` the back or, with unique backs, the back sheet), every card a
    ``Card`` with its ``CardID`` (sheet * 100 + cell) and name; then the ``pieces`` of
    :func:`pnp.exports.ttstable.table_pieces` (boards, tokens, dice). Everything lies on the table in
    rows, none on another (:func:`pnp.exports.ttstable.lay_out`): the boards, the decks, the tokens, the
    dice. Image addresses are ``base`` + the file's name in the export folder."""
    from pnp.exports.ttstable import footprint, lay_out

    scales = [deck.width_mm / TTS_CARD_WIDTH if deck.width_mm else 1.0 for deck in planned]
    kinds = ("board", "token", "die")
    rows = [[footprint("board", p.size) for p in pieces if p.kind == "board"],
            [footprint("deck", scale=s) for s in scales],
            [footprint("token", p.size, p.count) for p in pieces if p.kind == "token"],
            [footprint("die", p.size, p.count) for p in pieces if p.kind == "die"]]
    board_spots, deck_spots, token_spots, die_spots = lay_out(rows)
    objects = [_table_object(game, p, spot, base)
               for p, spot in zip([p for p in pieces if p.kind == "board"], board_spots)]
    for deck, scale, spot in zip(planned, scales, deck_spots):
        custom = {}
        for sheet in deck.sheets:
            custom[str(sheet.number)] = {
                "FaceURL": base + quote(sheet.file),
                "BackURL": base + quote(sheet.back_file or f"{deck.folder}{BACK}.png"),
                "NumWidth": COLUMNS, "NumHeight": ROWS, "BackIsHidden": False, "UniqueBack": bool(sheet.back_file),
                "Type": 0}
        where = _transform(spot.x, scale, spot.z)
        cards, ids = [], []
        for sheet in deck.sheets:
            for k, card in enumerate(sheet.cards):
                card_id = sheet.number * 100 + k
                ids.append(card_id)
                nickname = f"{card.name} / {card.name_b}" if card.name_b else card.name     # both sides' names
                cards.append({"Name": "Card", "GUID": _guid(game.id, deck.id, card.id, card.copy),
                              "Transform": where, "Nickname": nickname, "Description": "", "CardID": card_id,
                              "CustomDeck": {str(sheet.number): custom[str(sheet.number)]}})
        if len(cards) == 1:             # Tabletop Simulator's decks hold two cards or more
            objects.append(cards[0])
            continue
        objects.append({"Name": "DeckCustom", "GUID": _guid(game.id, deck.id), "Transform": where,
                        "Nickname": deck.name or game.title, "Description": "", "DeckIDs": ids,
                        "CustomDeck": custom, "ContainedObjects": cards})
    for kind, spots in zip(kinds[1:], (token_spots, die_spots)):
        objects += [_table_object(game, p, spot, base) for p, spot in zip([p for p in pieces if p.kind == kind], spots)]
    return {"SaveName": game.title, "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "", "Rules": "",
            "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects, "TabStates": {},
            "VersionNumber": ""}


def _entry(game, deck: TtsDeck, sheet: TtsSheet, i: int, card: DeckCard, back: str) -> dict:
    row, col = divmod(i, COLUMNS)
    entry = {"sheet": sheet.file, "index": i, "row": row, "column": col, "card": card.id, "copy": card.copy,
             "name": card.name, "kind": card.kind, "tts_card_id": sheet.number * 100 + i}
    if game.several_decks:
        entry["deck"] = deck.id
    if card.name_b:                     # a double-sided card: its side B is its back, in the back sheet's cell
        entry["side_b"] = card.name_b
    if deck.unique_backs:
        entry["back"] = sheet.back_file if is_side_b(back) else f"{deck.folder}{back_file(back)}"
        entry["back_value"] = None if is_side_b(back) else back_value(back)
    return entry


def _unique_backs(deck: TtsDeck) -> dict:
    """The index's words for a deck whose cards have their own backs."""
    words = {"unique_backs": True,
             "backs": {back_value(key): f"{deck.folder}{back_file(key)}" for key in deck.variants}}
    if deck.sides:
        words["double_sided"] = True
    return words
