"""SVG files from a game folder (icons, token outlines, art), checked before anything draws them.

An SVG is XML that may name other files (``<image href="/etc/...">``, ``<use href="other.svg#x">``),
declare entities, or be enormous. pnp reads only SVGs that refer to nothing outside themselves: the
file is read with a size limit, parsed without entities or network access, and refused (with the
line) when an element points at anything but a fragment of the same file or an embedded PNG/JPEG.
No reportlab here: drawing is :mod:`pnp.draw.pictures`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pnp.cache import reads_files

MAX_BYTES = 2 * 1024 * 1024
_SAFE_HREF = re.compile(r"^(#[^\s]*|data:image/(png|jpe?g);base64,.*)$", re.DOTALL)
_NUMBER = re.compile(r"^\s*([0-9.]+)\s*(px|pt|mm|cm|in)?\s*$")
_UNIT_PT = {None: 0.75, "px": 0.75, "pt": 1.0, "mm": 72 / 25.4, "cm": 720 / 25.4, "in": 72.0}


@dataclass(frozen=True)
class SvgInfo:
    """What pnp knows of a checked SVG: its problems ([] when usable) and its width / height ratio."""

    problems: tuple          # (line, message)
    aspect: float = 1.0      # width / height


def parse(data: bytes):
    """The root element of SVG bytes, parsed without entities, network or huge-tree support."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, remove_comments=True,
                             load_dtd=False, dtd_validation=False)
    return etree.fromstring(data, parser=parser)


@reads_files
@lru_cache(maxsize=256)
def _check(path: str, stamp: tuple) -> SvgInfo:
    from lxml import etree

    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        return SvgInfo(((None, f"cannot be read ({exc.strerror or exc})"),))
    if len(data) > MAX_BYTES:
        return SvgInfo(((None, f"too large: more than {MAX_BYTES // (1024 * 1024)} MB"),))
    if b"<!ENTITY" in data or b"<!DOCTYPE" in data:
        return SvgInfo(((None, "declares a DOCTYPE or entities; pnp reads plain SVG only"),))
    try:
        root = parse(data)
    except etree.XMLSyntaxError as exc:
        return SvgInfo(((exc.lineno, f"not readable SVG: {exc.msg}"),))
    if not isinstance(root.tag, str) or etree.QName(root).localname != "svg":
        return SvgInfo(((getattr(root, "sourceline", None), "not an SVG file (its root is not <svg>)"),))
    problems = []
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        for name, value in el.attrib.items():
            if etree.QName(name).localname == "href" and not _SAFE_HREF.match(value.strip()):
                problems.append((el.sourceline, f"<{etree.QName(el).localname}> refers to "
                                                f"{value.strip()[:40]!r}; an SVG may refer only to its own "
                                                f"parts (#id) or embed PNG/JPEG data"))
        if etree.QName(el).localname == "style" and el.text and "url(" in el.text and "url(#" not in el.text:
            problems.append((el.sourceline, "a style refers to another file (url(...)); pnp refuses it"))
    return SvgInfo(tuple(problems), _aspect(root))


def _length(value) -> float | None:
    m = _NUMBER.match(value or "")
    return float(m.group(1)) * _UNIT_PT[m.group(2)] if m else None


def _aspect(root) -> float:
    box = (root.get("viewBox") or "").replace(",", " ").split()
    if len(box) == 4:
        try:
            w, h = float(box[2]), float(box[3])
            if w > 0 and h > 0:
                return w / h
        except ValueError:
            pass
    w, h = _length(root.get("width")), _length(root.get("height"))
    return w / h if w and h else 1.0


def check_svg(path: Path) -> SvgInfo:
    """The SVG's problems (``(line, message)``) and aspect, read once while the file is unchanged."""
    try:
        st = path.stat()
        stamp = (st.st_mtime_ns, st.st_size)
    except OSError:
        stamp = None
    return _check(str(path), stamp)
