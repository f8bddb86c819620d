"""PNG and JPEG pictures from a game folder (card art, backs, images embedded in an SVG), checked
before anything draws them.

A picture may come from a stranger: its name may lie about its kind (an animated GIF called
``art.png``), its data may be cut short, or a few kilobytes may unpack to hundreds of millions of
pixels. :func:`check_picture` looks at the real format, refuses animations and pictures of more than
:data:`MAX_PIXELS`, then verifies and fully decodes the picture once (``Image.verify()`` reads the
structure, ``load()`` every pixel), so ``build`` never meets a picture ``validate`` let through.
No reportlab here: drawing is :mod:`pnp.draw.pictures`; which picture files a game's data names, and
whether they are usable (PNG, JPEG or SVG), is :mod:`pnp.loading.picturefiles`.
"""

from __future__ import annotations

import io
import warnings
from functools import lru_cache
from pathlib import Path

from pnp.cache.memo import file_stamp, reads_files
from pnp.loading.paths import NotRegularFile, open_regular

#: Most pixels a picture may have: Pillow's own decompression-bomb threshold (about 89 megapixels, a
#: 10 x 14 inch picture at 800 dpi).
MAX_PIXELS = 89_478_485
#: Largest picture file pnp reads (bytes).
MAX_BYTES = 64 * 1024 * 1024
#: What a suffix promises.
FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG"}


def check_picture_bytes(data: bytes, expected: str | None = None) -> tuple[str | None, tuple | None]:
    """(why the picture cannot be used or None, its (width, height) in pixels) for PNG or JPEG bytes;
    ``expected``: the format its name or MIME type promises (``PNG``, ``JPEG``)."""
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as im:
                kind, size = im.format, im.size
                if kind not in ("PNG", "JPEG"):
                    return f"is {_a(kind)} image, not PNG or JPEG", None
                if expected and kind != expected:
                    return f"is {_a(kind)} image, not {expected} as its name says", None
                if getattr(im, "is_animated", False):
                    return "is an animated picture; pnp prints still PNG or JPEG pictures", None
                if size[0] * size[1] > MAX_PIXELS:
                    return (f"is {size[0]:,} x {size[1]:,} pixels ({size[0] * size[1] / 1e6:.0f} megapixels); "
                            f"pnp reads pictures of at most {MAX_PIXELS / 1e6:.0f} megapixels"), None
                im.verify()
            with Image.open(io.BytesIO(data)) as im:
                im.load()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        return f"has more than {MAX_PIXELS / 1e6:.0f} megapixels; pnp reads pictures of at most that", None
    except UnidentifiedImageError:
        return "is not a readable PNG or JPEG image", None
    except (OSError, SyntaxError, ValueError, EOFError, IndexError, TypeError, MemoryError) as exc:
        why = str(exc).split("\n")[0][:80] or type(exc).__name__
        return f"is not a whole PNG or JPEG image ({why})", None
    return None, size


def _a(kind) -> str:
    kind = kind or "unknown"
    return f"{'an' if kind[:1] in 'AEIOU' else 'a'} {kind}"


@reads_files
@lru_cache(maxsize=256)
def _check(path: str, stamp: tuple) -> tuple[str | None, tuple | None]:
    p = Path(path)
    try:
        with open_regular(p) as f:
            data = f.read(MAX_BYTES + 1)
    except NotRegularFile as exc:
        return str(exc), None
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})", None
    if len(data) > MAX_BYTES:
        return f"is larger than {MAX_BYTES // 2**20} MB", None
    return check_picture_bytes(data, FORMATS.get(p.suffix.lower()))


def check_picture(path: Path) -> tuple[str | None, tuple | None]:
    """:func:`check_picture_bytes` of a picture file (its suffix says the format it must be), done once
    while the file is unchanged."""
    return _check(str(path), file_stamp(path))
