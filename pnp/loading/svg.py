"""SVG files from a game folder (icons, token outlines, art), checked before anything draws them.

An SVG is XML that may name other files (``<image href="/etc/...">``, ``<use href="other.svg#x">``,
``fill="url(other.svg#g)"``), declare entities, carry processing instructions, nest without end, make
one element stand for a billion through ``<use>``, or embed a picture that unpacks to gigabytes. pnp
reads only SVGs that refer to nothing outside themselves and stay small once expanded: the file (a
regular file) is read with a size limit and parsed without entities or network access; it is refused,
with the line, when it has a DOCTYPE or a processing instruction (in any encoding), when an element
or a style points at anything but a part of the same file or embedded PNG/JPEG data, when elements
nest more than :data:`MAX_DEPTH` deep or expand to more than :data:`MAX_ELEMENTS` (or their path data
to more than :data:`MAX_PATH_NUMBERS` numbers) through ``<use>``, and when an embedded picture is not a
whole PNG or JPEG within :data:`pnp.loading.rasters.MAX_PIXELS`. Those limits bound the time svglib
and reportlab take to read and draw it (each element and each number costs them, once per PDF).
Its size (``width``, ``height``, ``viewBox``) must be positive and finite, and every number it draws
with (coordinates, path data, transforms, stroke widths...) finite and within :data:`MAX_NUMBER`
either way: NaN, infinities and negative sizes are errors at its line, not a picture drawn wrong or a
PDF that cannot be written. No reportlab here: drawing is :mod:`pnp.draw.pictures`.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pnp.cache.memo import file_stamp, reads_files
from pnp.loading.rasters import check_picture_bytes
from pnp.loading.paths import NotRegularFile, open_regular

MAX_BYTES = 2 * 1024 * 1024
#: Deepest nesting of elements, ``<use>`` references followed (svglib draws by recursion).
MAX_DEPTH = 48
#: Most elements an SVG may draw once every ``<use>`` is expanded ...
MAX_ELEMENTS = 10_000
#: ... and most numbers in their path data (``d``, ``points``), each counted every time it is drawn.
MAX_PATH_NUMBERS = 250_000
#: Largest number (either way) an SVG may draw with; its width, height and viewBox's size must lie
#: between these two (reportlab cannot write numbers past 1e20 into a PDF at all).
MAX_NUMBER = 1e9
SIZES = (0.001, 1_000_000)
#: Attributes (and style properties) that hold the numbers an SVG is drawn with.
NUMERIC = frozenset({
    "x", "y", "width", "height", "cx", "cy", "r", "rx", "ry", "x1", "y1", "x2", "y2", "dx", "dy", "fx", "fy", "fr",
    "d", "points", "transform", "gradientTransform", "patternTransform", "viewBox", "stroke-width",
    "stroke-dasharray", "stroke-dashoffset", "stroke-miterlimit", "font-size", "letter-spacing", "word-spacing",
    "offset", "opacity", "fill-opacity", "stroke-opacity", "stop-opacity", "rotate", "textLength", "startOffset",
    "pathLength", "refX", "refY", "markerWidth", "markerHeight"})
PATH_DATA = ("d", "points")
_NUMBER_TOKEN = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_NOT_A_NUMBER = re.compile(r"(?i)(?<![a-z])(nan|inf(inity)?)(?![a-z])")
_DECLARATION = re.compile(r"([A-Za-z-]+)\s*:\s*([^;{}]*)")
_SIZE = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(px|pt|pc|mm|cm|in|em|ex|%)?\s*$")
SVG_NAMESPACE = "http://www.w3.org/2000/svg"
_SAFE_HREF = re.compile(r"^(#[^\s]*|data:image/(png|jpe?g);base64,.*)$", re.DOTALL)
_EMBEDDED = re.compile(r"^data:image/(png|jpe?g);base64,(.*)$", re.DOTALL)
_URL = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.DOTALL | re.IGNORECASE)
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
                             remove_pis=False, load_dtd=False, dtd_validation=False)
    return etree.fromstring(data, parser=parser)


class _Refused(Exception):
    def __init__(self, line, message):
        super().__init__(message)
        self.line, self.message = line, message


@reads_files
@lru_cache(maxsize=256)
def _check(path: str, stamp: tuple) -> SvgInfo:
    try:
        with open_regular(path) as f:
            data = f.read(MAX_BYTES + 1)
    except NotRegularFile as exc:
        return SvgInfo(((None, str(exc)),))
    except OSError as exc:
        return SvgInfo(((None, f"cannot be read ({exc.strerror or exc})"),))
    return check_svg_bytes(data)


def check_svg_bytes(data: bytes) -> SvgInfo:
    """The problems and aspect of an SVG file's bytes (see the module's description)."""
    from lxml import etree

    if len(data) > MAX_BYTES:
        return SvgInfo(((None, f"too large: more than {MAX_BYTES // (1024 * 1024)} MB"),))
    if b"<!ENTITY" in data or b"<!DOCTYPE" in data:
        return SvgInfo(((None, "declares a DOCTYPE or entities; pnp reads plain SVG only"),))
    try:
        root = parse(data)
    except etree.XMLSyntaxError as exc:
        return SvgInfo(((exc.lineno, f"not readable SVG: {exc.msg}"),))
    except ValueError as exc:             # lxml's own refusals (an encoding it does not know...)
        return SvgInfo(((None, f"not readable SVG: {exc}"),))
    tree = root.getroottree()
    if tree.docinfo.doctype or tree.docinfo.internalDTD is not None:
        return SvgInfo(((1, "declares a DOCTYPE or entities; pnp reads plain SVG only"),))
    for node in (*root.itersiblings(preceding=True), *root.itersiblings()):
        if isinstance(node, etree._ProcessingInstruction):
            return SvgInfo(((node.sourceline, "has a processing instruction (<?...?>); pnp reads plain SVG only"),))
    if not isinstance(root.tag, str) or etree.QName(root).localname != "svg":
        return SvgInfo(((getattr(root, "sourceline", None), "not an SVG file (its root is not <svg>)"),))
    problems = []
    numbers: dict = {}
    try:
        _check_size(root)
        ids = _walk(root, problems, numbers)
        _expanded(root, ids, numbers)
    except _Refused as exc:
        problems.append((exc.line, exc.message))
    return SvgInfo(tuple(problems), _aspect(root))


def _walk(root, problems, numbers: dict) -> dict:
    """Check every node (without recursion); the elements by id. ``numbers`` receives each element's
    count of path-data numbers (those that have any)."""
    from lxml import etree

    ids = {}
    stack = [(root, 1)]
    elements = 0
    while stack:
        el, depth = stack.pop()
        if isinstance(el, etree._ProcessingInstruction):
            raise _Refused(el.sourceline, "has a processing instruction (<?...?>); pnp reads plain SVG only")
        if isinstance(el, etree._Entity):
            raise _Refused(el.sourceline, "uses an entity; pnp reads plain SVG only")
        if not isinstance(el.tag, str):
            continue
        if depth > MAX_DEPTH:
            raise _Refused(el.sourceline, f"nests elements more than {MAX_DEPTH} deep")
        elements += 1
        if elements > MAX_ELEMENTS:
            raise _Refused(el.sourceline, f"draws more than {MAX_ELEMENTS:,} elements")
        name = etree.QName(el).localname
        for attr, value in el.attrib.items():
            local = etree.QName(attr).localname
            if local in NUMERIC and etree.QName(attr).namespace in (None, SVG_NAMESPACE):
                _check_numbers(value, el.sourceline, f"<{name}> {local}")
                if local in PATH_DATA:
                    numbers[el] = numbers.get(el, 0) + len(_NUMBER_TOKEN.findall(value))
                    if numbers[el] > MAX_PATH_NUMBERS:
                        raise _Refused(el.sourceline, f"<{name}> has more than {MAX_PATH_NUMBERS:,} numbers in its "
                                                      f"path data")
            elif local == "style":
                _check_style(value, el.sourceline, f"<{name}> style")
            if local == "id":
                ids.setdefault(value, el)
            if local == "href":
                if not _SAFE_HREF.match(value.strip()):
                    problems.append((el.sourceline, f"<{name}> refers to {value.strip()[:40]!r}; an SVG may refer "
                                                    f"only to its own parts (#id) or embed PNG/JPEG data"))
                else:
                    why = _embedded_problem(value.strip())
                    if why:
                        problems.append((el.sourceline, f"<{name}> embeds a picture that {why}"))
            _check_urls(value, el.sourceline, f"<{name}> {local}", problems)
        if name == "style" and el.text:
            if "@import" in el.text:
                problems.append((el.sourceline, "a style imports another file (@import); pnp refuses it"))
            _check_urls(el.text, el.sourceline, "a style", problems)
            _check_style(el.text, el.sourceline, "a style")
        stack.extend((child, depth + 1) for child in reversed(el))    # in the file's order
    return ids


def _check_numbers(text: str, line, where: str) -> None:
    """Refuse (:class:`_Refused`) a value holding NaN, an infinity or a number past :data:`MAX_NUMBER`."""
    odd = _NOT_A_NUMBER.search(text)
    if odd:
        raise _Refused(line, f"{where}: {odd.group(0)!r} is not a number; pnp draws with finite numbers only")
    for token in _NUMBER_TOKEN.findall(text):
        if not abs(float(token)) <= MAX_NUMBER:
            raise _Refused(line, f"{where}: {token[:40]!r} is too large a number to draw (at most "
                                 f"{MAX_NUMBER:,.0f} either way)")


def _check_style(text: str, line, where: str) -> None:
    """:func:`_check_numbers` for the numeric properties of a style (``stroke-width: 1e30``)."""
    for prop, value in _DECLARATION.findall(text):
        if prop in NUMERIC:
            _check_numbers(value, line, f"{where} {prop}")


def _check_size(root) -> None:
    """The drawing's own size: ``width`` and ``height`` (when given) positive lengths, ``viewBox`` (when
    given) four numbers with a positive width and height, all within :data:`SIZES` (a negative, zero,
    NaN or endless size drew nothing, or something else, without a word)."""
    low, high = SIZES
    for attr in ("width", "height"):
        value = root.get(attr)
        if value is None or value.strip() == "auto":
            continue
        m = _SIZE.match(value)
        if not m or not low <= float(m.group(1)) <= high:
            raise _Refused(root.sourceline, f"<svg> {attr}: {value.strip()[:40]!r} is not a size pnp can draw: give "
                                            f"a number from {low:g} to {high:,.0f}, with or without a unit (px, pt, "
                                            f"pc, mm, cm, in, em, ex, %)")
    box = root.get("viewBox")
    if box is None:
        return
    parts = box.replace(",", " ").split()
    try:
        values = [float(p) for p in parts] if len(parts) == 4 and not _NOT_A_NUMBER.search(box) else None
    except ValueError:
        values = None
    if values is None or not all(abs(v) <= MAX_NUMBER for v in values) \
            or not (low <= values[2] <= high and low <= values[3] <= high):
        raise _Refused(root.sourceline, f"<svg> viewBox: {box.strip()[:40]!r} is not a box pnp can draw: give four "
                                        f"numbers, x y width height, the width and height from {low:g} to "
                                        f"{high:,.0f}")


def _check_urls(text: str, line, where: str, problems) -> None:
    if "url(" not in text.lower():
        return
    for _, target in _URL.findall(text):
        if not re.fullmatch(r"#[^\s]+", target.strip()):
            problems.append((line, f"{where} refers to {target.strip()[:40]!r} through url(...); an SVG may refer "
                                   f"only to its own parts (url(#id))"))


def _embedded_problem(href: str) -> str | None:
    match = _EMBEDDED.match(href)
    if not match:
        return None
    try:
        data = base64.b64decode("".join(match.group(2).split()), validate=True)
    except (binascii.Error, ValueError):
        return "is not base64 data"
    why, _ = check_picture_bytes(data, "PNG" if match.group(1) == "png" else "JPEG")
    return why


def _expanded(root, ids, numbers: dict) -> None:
    """Refuse ``<use>`` references that loop, nest too deep or make too many elements or path numbers
    (``numbers``: each element's own)."""
    from lxml import etree

    sizes: dict = {}        # element -> (elements drawn, height, path numbers drawn)
    active: set = set()

    def target(el):
        if not isinstance(el.tag, str) or etree.QName(el).localname != "use":
            return None
        for attr, value in el.attrib.items():
            if etree.QName(attr).localname == "href" and value.strip().startswith("#"):
                return ids.get(value.strip()[1:])
        return None

    def size(el, depth):
        if depth > MAX_DEPTH:
            raise _Refused(el.sourceline, f"nests elements more than {MAX_DEPTH} deep once its <use> references "
                                          f"are followed")
        known = sizes.get(el)
        if known is not None:
            if depth + known[1] > MAX_DEPTH:
                raise _Refused(el.sourceline, f"nests elements more than {MAX_DEPTH} deep once its <use> "
                                              f"references are followed")
            return known[0]
        if el in active:
            raise _Refused(el.sourceline, "a <use> refers to itself or to an element that contains it")
        active.add(el)
        total, height, path = 1, 0, numbers.get(el, 0)
        parts = [c for c in el if isinstance(c.tag, str)]
        ref = target(el)
        if ref is not None:
            parts.append(ref)
        for part in parts:
            total += size(part, depth + 1)
            height = max(height, sizes[part][1] + 1)
            path += sizes[part][2]
            if total > MAX_ELEMENTS:
                raise _Refused(el.sourceline, f"draws more than {MAX_ELEMENTS:,} elements once its <use> "
                                              f"references are expanded")
            if path > MAX_PATH_NUMBERS:
                raise _Refused(el.sourceline, f"draws more than {MAX_PATH_NUMBERS:,} numbers of path data once "
                                              f"its <use> references are expanded")
        active.discard(el)
        sizes[el] = (total, height, path)
        return total

    size(root, 1)


def _length(value) -> float | None:
    m = _NUMBER.match(value or "")
    return float(m.group(1)) * _UNIT_PT[m.group(2)] if m else None


def _aspect(root) -> float:
    box = (root.get("viewBox") or "").replace(",", " ").split()
    if len(box) == 4:
        try:
            w, h = float(box[2]), float(box[3])
            if 0 < w < 1e9 and 0 < h < 1e9:
                return w / h
        except ValueError:
            pass
    w, h = _length(root.get("width")), _length(root.get("height"))
    return w / h if w and h and w < 1e9 and h < 1e9 else 1.0


def check_svg(path: Path) -> SvgInfo:
    """The SVG's problems (``(line, message)``) and aspect, read once while the file is unchanged."""
    return _check(str(path), file_stamp(path))
