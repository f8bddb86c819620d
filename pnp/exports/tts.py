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

from pnp.exports.cards import BACK, checked_game, deck_cards, distinct_faces, face_images
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
    files: list
    cell: tuple
    sheets: int
    index: dict


def export_tts(game_arg, out_dir: str | os.PathLike, lang: str | None = None, progress=None,
               game=None) -> TtsExport:
    game = game or checked_game(game_arg, lang)
    cards = deck_cards(game, lang)
    cell = cell_size(game.card_width, game.card_height)
    faces = face_images(game, distinct_faces(cards), cell, 0.0, lang, progress)
    files, entries, sheets = {}, [], []
    for s, start in enumerate(range(0, len(cards), CARDS_PER_SHEET)):
        chunk = cards[start:start + CARDS_PER_SHEET]
        name = f"deck-{s + 1}.png"
        sheet = Image.new("RGB", (cell[0] * COLUMNS, cell[1] * ROWS), "white")
        for i, card in enumerate(chunk):
            row, col = divmod(i, COLUMNS)
            sheet.paste(faces[card.face], (col * cell[0], row * cell[1]))
            entries.append({"sheet": name, "index": i, "row": row, "column": col, "card": card.id,
                            "copy": card.copy, "name": card.name, "kind": card.kind,
                            "tts_card_id": (s + 1) * 100 + i})
        sheet.paste(faces[BACK], ((COLUMNS - 1) * cell[0], (ROWS - 1) * cell[1]))
        files[name] = png_bytes(sheet)
        sheets.append({"file": name, "cards": len(chunk), "width": sheet.width, "height": sheet.height})
    files[f"{BACK}.png"] = png_bytes(faces[BACK])
    index = {
        "game": game.title,
        "grid": {"columns": COLUMNS, "rows": ROWS},
        "card_px": {"width": cell[0], "height": cell[1]},
        "hidden_cell": {"row": ROWS - 1, "column": COLUMNS - 1, "index": COLUMNS * ROWS - 1},
        "back": f"{BACK}.png",
        "sheets": sheets,
        "cards": entries,
    }
    files[INDEX_FILE] = (json.dumps(index, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    return TtsExport(write_atomically(out_dir, files, record=RECORD), cell, len(sheets), index)
