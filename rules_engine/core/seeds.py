"""Each game's seed and each seat's bot in a seeded run: pure functions of the run's seed and the game's
index, so a game is the same whatever batch, process or machine plays it."""

from __future__ import annotations

import hashlib
from typing import Sequence


def derive_seed(namespace: str, seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded with ``seed``: independent of how games are batched."""
    digest = hashlib.blake2b(f"{namespace}:{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def seat_bots(bot_names: Sequence[str], players: int, index: int) -> list[str]:
    """Bots of each seat in game ``index``: the list repeats around the table and rotates one seat a game,
    so every bot sits in every seat equally often."""
    k = len(bot_names)
    return [bot_names[(seat + index) % k] for seat in range(players)]
