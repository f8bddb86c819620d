"""Pictures the studio shows, kept by content hash, and the fingerprints that give those hashes.

A picture is named by what it is drawn from, not by where it appears: the fingerprint of a card face
or a page is a hash of its layout (the same elements the PDFs are painted from, which are plain
frozen data), of the bytes of every picture file and game icon it draws, and of the resolution. Two
edits that give the same layout give the same name, so the picture is not drawn again, and the
browser, which may keep ``/img/<hash>.png`` forever, fetches only pictures that really changed.

The store is bounded: the least recently used pictures are dropped first, and a picture asked for
again is drawn again from its recipe (a function the studio registers with every picture it names).
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Callable

from pnp.cache.buildcache import FileDigests, digest, picture_paths

#: What a picture's hash looks like in a URL (anything else is not one of ours).
HASH = re.compile(r"[0-9a-f]{32}")
#: Bytes of PNG data the store keeps before dropping the least recently used pictures.
DEFAULT_LIMIT = 256 * 2**20


def layout_fingerprint(elements, icons: str, files: FileDigests) -> str:
    """The fingerprint of drawing ``elements`` (a face's or a page's) with the game's icons ``icons``."""
    elements = list(elements)
    return digest("layout", repr(elements), icons, *(files(path) for path in picture_paths(elements)))


@dataclass
class Image:
    """A picture the studio shows: PNG bytes and the size in pixels."""

    png: bytes
    width: int           # pixels
    height: int


class ImageStore:
    """PNG pictures by hash, bounded by total size; recipes redraw a picture that was dropped."""

    def __init__(self, limit: int = DEFAULT_LIMIT, added=None):
        self.limit = limit
        self.added = added          # called with (key, image) for each new picture (the preview process's)
        self._images: OrderedDict[str, Image] = OrderedDict()
        self._recipes: dict[str, Callable[[], Image]] = {}
        self._size = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            return len(self._images)

    def __contains__(self, key: str) -> bool:
        with self._lock:
            return key in self._images

    def get(self, key: str) -> Image | None:
        with self._lock:
            image = self._images.get(key)
            if image is not None:
                self._images.move_to_end(key)
            return image

    def put(self, key: str, image: Image) -> Image:
        with self._lock:
            if key in self._images:
                self._images.move_to_end(key)
                return self._images[key]
            self._images[key] = image
            self._size += len(image.png)
            while self._size > self.limit and len(self._images) > 1:
                _, dropped = self._images.popitem(last=False)
                self._size -= len(dropped.png)
        if self.added is not None:
            self.added(key, image)
        return image

    def recipe(self, key: str) -> Callable[[], Image] | None:
        with self._lock:
            return self._recipes.get(key)

    def set_recipes(self, recipes: dict) -> None:
        """The recipes of every picture the current views name (older ones are forgotten)."""
        with self._lock:
            self._recipes = dict(recipes)

    @property
    def size(self) -> int:
        return self._size
