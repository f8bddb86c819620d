"""Every physical card as an image: the faces (each copy of each card, then the player aids) and the
shared back, drawn by the same layout code as the printed sheets (:mod:`pnp.layout.cards`).

Faces are laid out once per distinct card, placed on pages of the card's size plus the bleed on every
side, rendered to one PDF by :mod:`pnp.draw.pdf` and rasterized page by page (:mod:`pnp.exports.raster`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from pnp.cardtext import aid_text
from pnp.components import BuildOptions
from pnp.components.cards import back_elements, face_content, players_mark
from pnp.draw.pdf import render
from pnp.errors import DataError, Problems, UserError
from pnp.exports.raster import Rasterizer, png_bytes, size_px
from pnp.output import write_atomically
from pnp.layout.cards import aid_face, card_face
from pnp.layout.geometry import Group, Page, Rect
from pnp.validation import validate_game

#: The record of the files an export wrote, so the next one removes those it no longer makes.
RECORD = ".pnp-export-cards.json"
AID = "aid"      # face key and file name stem of the player-aid cards
BACK = "back"    # face key and file name stem of the shared back


@dataclass(frozen=True)
class DeckCard:
    """One physical card: which face it shows, and which copy of that face it is (1-based)."""

    id: str          # card id, or "aid" for a player-aid card
    copy: int
    name: str
    kind: str        # "card" or "aid"
    mark: str = ""   # player-count mark printed on this copy ("3+"), as on the printed sheets

    @property
    def face(self) -> str:
        """Key of the image this card shows: copies with the same mark share one."""
        return f"{self.id}|{self.mark}" if self.mark else self.id

    @property
    def stem(self) -> str:
        return f"{self.id}-{self.copy}"


def checked_game(game_arg, lang: str | None = None):
    """The game, after the checks ``pnp build`` runs (DataError with every problem otherwise)."""
    problems = Problems()
    result = validate_game(game_arg, problems, BuildOptions(lang=lang, thorough=False))
    if problems.errors:
        raise DataError(problems.errors)
    return result.game


def deck_cards(game, lang: str | None = None) -> list[DeckCard]:
    """Every physical card in print order: the deck (data order, copies together), then the aids."""
    out, seen = [], {}
    for card in game.deck:
        seen[card.id] = seen.get(card.id, 0) + 1
        out.append(DeckCard(card.id, seen[card.id], card.name, "card", players_mark(game, card, seen[card.id])))
    copies = game.player_aid.get("copies", 0)
    if copies:
        if AID in seen:
            raise UserError(f"a card has the id {AID!r}, which the player-aid images use; rename it to export")
        title = aid_text(game, lang)[0] or "Player aid"
        out.extend(DeckCard(AID, k + 1, title, "aid") for k in range(copies))
    return out


def face_elements(game, key: str, bleed: float = 0.0, lang: str | None = None) -> list:
    """The elements of one face (a card id, ``aid`` or ``back``) in the card's frame."""
    w, h = game.card_width, game.card_height
    if key == BACK:
        return back_elements(game, bleed)
    if key == AID:
        title, body = aid_text(game, lang)
        return aid_face(title, body, w, h, bleed=bleed)
    card_id, _, mark = key.partition("|")
    return card_face(face_content(game, game.card(card_id), lang, mark), w, h, bleed=bleed)


def faces_pdf(game, keys: list[str], bleed: float = 0.0, lang: str | None = None) -> bytes:
    """One page per face key, each the card's size plus ``bleed`` mm on every side."""
    w, h = game.card_width + 2 * bleed, game.card_height + 2 * bleed
    pages = []
    for key in keys:
        card = Group(tuple(face_elements(game, key, bleed, lang)), dx=bleed, dy=bleed,
                     clip=Rect(-bleed, -bleed, w, h))
        pages.append(Page(w, h, [card], label=key, trim=Rect(bleed, bleed, game.card_width, game.card_height),
                          bleed=Rect(0, 0, w, h)))
    return render(pages, f"{game.title}: cards", game.author)


def face_images(game, keys: list[str], size: tuple[int, int], bleed: float = 0.0, lang: str | None = None,
                progress=None) -> dict:
    """{face key: PIL image of exactly ``size`` pixels}; ``progress(key)`` after each one."""
    images = {}
    with Rasterizer(faces_pdf(game, keys, bleed, lang)) as pages:
        for i, key in enumerate(keys):
            images[key] = pages.render(i, size)
            if progress:
                progress(key)
    return images


def distinct_faces(cards: list[DeckCard]) -> list[str]:
    """Face keys in first-use order, then the back."""
    return list(dict.fromkeys(c.face for c in cards)) + [BACK]


@dataclass
class CardExport:
    game: object
    files: list          # Paths written, in deck order, back.png last
    size: tuple          # (width, height) px of every image
    dpi: int
    bleed: float


def card_export_size(game, dpi: int, bleed: float = 0.0) -> tuple[int, int]:
    """Pixel size of every exported image: card + 2 x bleed, in mm, at ``dpi``, rounded half up."""
    return size_px(game.card_width + 2 * bleed, game.card_height + 2 * bleed, dpi)


def export_cards(game_arg, out_dir: str | os.PathLike, dpi: int = 300, bleed: float = 0.0,
                 lang: str | None = None, progress=None, game=None) -> CardExport:
    """Write ``<card id>-<copy>.png`` for every physical card, ``aid-<n>.png``, and ``back.png``.

    Copies of a card are the same image (same bytes): each distinct face is rasterized once.
    ``progress(face key)`` is called after each distinct face; there are ``len(distinct_faces(...))``.
    """
    game = game or checked_game(game_arg, lang)
    cards = deck_cards(game, lang)
    size = card_export_size(game, dpi, bleed)
    images = face_images(game, distinct_faces(cards), size, bleed, lang, progress)
    encoded = {key: png_bytes(image, dpi) for key, image in images.items()}
    files = {f"{c.stem}.png": encoded[c.face] for c in cards}
    files[f"{BACK}.png"] = encoded[BACK]
    return CardExport(game, write_atomically(out_dir, files, record=RECORD), size, dpi, bleed)

