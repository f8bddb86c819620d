"""Tabletop Simulator deck sheets: 10 x 7 cells per image, at most 4096 px wide, the last cell holding
the hidden-card face (the back), plus the back image and a JSON index of every cell (its fields are
described in docs/printing.md, "Exports")."""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from fractions import Fraction

from PIL import Image

from pnp.exports.cards import BACK, back_key, checked_game, deck_cards, distinct_faces, face_images
from pnp.exports.raster import png_bytes
from pnp.output import write_atomically

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
class TtsExport:
    """What the Tabletop Simulator export wrote: the files, the first deck's cell size (px), the number of
    sheets and the tts.json index."""

    files: list
    cell: tuple
    sheets: int
    index: dict


def export_tts(game_arg, out_dir: str | os.PathLike, lang: str | None = None, progress=None,
               game=None) -> TtsExport:
    """Sheets, back and index; with several decks, one set of sheets and its own back per deck, in a
    folder named by the deck's id (tts.json lists the decks)."""
    game = game or checked_game(game_arg, lang)
    files, entries, sheets, decks = {}, [], [], []
    first_cell = None
    for deck in game.decks:
        cards = deck_cards(game, lang, deck)
        cell = cell_size(deck.width, deck.height)
        first_cell = first_cell or cell
        back = back_key(game, deck)
        faces = face_images(game, distinct_faces(cards, back), cell, 0.0, lang, progress)
        folder = f"{deck.id}/" if game.several_decks else ""
        deck_sheets = []
        for s, start in enumerate(range(0, len(cards), CARDS_PER_SHEET)):
            chunk = cards[start:start + CARDS_PER_SHEET]
            name = f"{folder}deck-{s + 1}.png"
            sheet = Image.new("RGB", (cell[0] * COLUMNS, cell[1] * ROWS), "white")
            number = len(sheets) + 1
            for i, card in enumerate(chunk):
                row, col = divmod(i, COLUMNS)
                sheet.paste(faces[card.face], (col * cell[0], row * cell[1]))
                entry = {"sheet": name, "index": i, "row": row, "column": col, "card": card.id,
                         "copy": card.copy, "name": card.name, "kind": card.kind, "tts_card_id": number * 100 + i}
                if game.several_decks:
                    entry["deck"] = deck.id
                entries.append(entry)
            sheet.paste(faces[back], ((COLUMNS - 1) * cell[0], (ROWS - 1) * cell[1]))
            files[name] = png_bytes(sheet)
            info = {"file": name, "cards": len(chunk), "width": sheet.width, "height": sheet.height}
            sheets.append(info)
            deck_sheets.append(name)
        files[f"{folder}{BACK}.png"] = png_bytes(faces[back])
        decks.append({"id": deck.id, "name": deck.name, "back": f"{folder}{BACK}.png", "sheets": deck_sheets,
                      "card_px": {"width": cell[0], "height": cell[1]}})
    index = {
        "game": game.title,
        "grid": {"columns": COLUMNS, "rows": ROWS},
        "card_px": {"width": first_cell[0], "height": first_cell[1]},
        "hidden_cell": {"row": ROWS - 1, "column": COLUMNS - 1, "index": COLUMNS * ROWS - 1},
        "back": decks[0]["back"],
        "sheets": sheets,
        "cards": entries,
    }
    if game.several_decks:
        index["decks"] = decks
    files[INDEX_FILE] = (json.dumps(index, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    return TtsExport(write_atomically(out_dir, files, record=RECORD), first_cell, len(sheets), index)
