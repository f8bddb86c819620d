"""A small declarative schema for YAML data: types, required keys, choices, ranges, unknown keys.

Schemas are plain dicts of :class:`Field`. :func:`check` walks one mapping, records every problem with
its file and line (from :mod:`pnp.loading.yamlsrc`), and returns a cleaned dict with defaults filled in, so the
caller can keep checking the rest of the file instead of stopping at the first mistake.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from pnp.suggest import closest
from pnp.errors import Problems
from pnp.loading.paths import LANGUAGE, PACKAGE, SAFE_NAME, SAFE_NAME_TEXT, excerpt
from pnp.loading.yamlsrc import LineDict, LineList, line_of

_UNIT_MM = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72}
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(mm|cm|in|pt)?\s*$")
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")

MISSING = object()

_PATTERNS = {"id": SAFE_NAME, "language": LANGUAGE, "package": PACKAGE}


@dataclass(frozen=True)
class Field:
    """One key of a mapping.

    type: ``int``, ``number``, ``str``, ``bool``, ``colour`` (``#rrggbb``), ``length`` (mm; also accepts
    ``"2.5mm"``, ``"0.25in"``, ``"3pt"``), ``id`` (a name that may become part of a file name:
    :data:`pnp.loading.paths.SAFE_NAME`), ``language`` (a language code), ``package`` (a Python package name),
    ``list`` (of ``items``), ``map`` (checked by ``schema``), ``dict`` (free-form mapping whose values are
    ``items``), or ``any``. Numbers are finite; text is non-empty unless ``blank`` allows it.
    """

    type: str
    required: bool = False
    default: Any = None
    choices: tuple | None = None
    min: float | None = None
    max: float | None = None
    items: "Field | None" = None
    schema: dict | None = None
    doc: str = ""
    nullable: bool = False
    blank: bool = True
    extra: dict = field(default_factory=dict)


def parse_length(value) -> float | None:
    """A length in mm from a number (mm) or a string with a unit; None when it is not one."""
    if isinstance(value, (int, float)):
        return _finite(value)
    if isinstance(value, str) and len(value) < 40:
        m = _LENGTH.match(value)
        if m:
            return _finite(float(m.group(1)) * _UNIT_MM[m.group(2) or "mm"])
    return None


def _finite(value) -> float | None:
    """A finite number as a float, or None (booleans, NaN, infinities and huge integers are not numbers)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        value = float(value)
    except OverflowError:
        return None
    return value if math.isfinite(value) else None


_TYPE_NAMES = {
    "int": "an integer", "number": "a number", "str": "text", "bool": "true or false",
    "id": f"an id ({SAFE_NAME_TEXT})", "language": "a language code such as en or pt-BR",
    "package": "a Python package name (lower case letters, digits and '_')",
    "colour": "a colour like '#8a1c1c'", "length": "a length in mm (e.g. 63 or '2.5mm')",
    "list": "a list", "map": "a mapping", "dict": "a mapping",
}


def _describe(value) -> str:
    if isinstance(value, (dict, LineDict)):
        return "a mapping"
    if isinstance(value, (list, LineList)):
        return "a list"
    if value is None:
        return "nothing"
    return excerpt(value)


# ----------------------------------------------------------------------------- naming list entries

#: What one entry of a list is called, where dropping the plural's "s" does not say it.
ENTRY_NOUNS = {
    "ability_categories": "ability category", "hexes": "hex", "river_edges": "river edge",
    "bridge_sites": "bridge site", "facts": "facts file", "data": "data file", "contents": "contents line",
    "exactly_one_of": "group", "rect": "value", "size": "value", "art_focus": "value", "at": "value",
}
#: The key that names an entry, where it is not ``id`` (a layout's regions have names).
ENTRY_KEYS = {"regions": "name"}
#: The end of a key path that names a list entry (``deck 'current'``, ``3rd faction``).
_ENTRY_END = re.compile(r"(?:^|: )(?:[a-z][a-z ]* '[^']*'|\d+(?:st|nd|rd|th) [a-z][a-z ]*)$")


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``21st``..."""
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def entry_noun(key: str) -> str:
    """One entry of the list ``key``: ``decks`` -> ``deck``, ``ability_categories`` -> ``ability category``."""
    if key in ENTRY_NOUNS:
        return ENTRY_NOUNS[key]
    if not key or _ENTRY_END.search(key) or not key.replace("_", "").isalpha():
        return "entry"
    if key.endswith("ies"):
        key = key[:-3] + "y"
    elif key.endswith(("xes", "ches", "shes")):
        key = key[:-2]
    elif key.endswith("s") and not key.endswith("ss"):
        key = key[:-1]
    return key.replace("_", " ")


def entry(where: str, item, index: int, named: bool = True) -> str:
    """How a message names entry ``index`` (from 0) of the list at key path ``where``: by its id when it
    has a usable one (``deck 'current'``), else by its place (``3rd faction``), never by a bracketed
    index. ``named=False`` always says the place (the second of two entries with one id)."""
    head, sep, last = where.rpartition(": ")
    base, dot, key = last.rpartition(".")
    if _ENTRY_END.search(where):           # an entry of a list inside a list: "1st group: 2nd entry"
        head, sep, base, key = where, ": ", "", ""
    noun = entry_noun(key)
    ident = item.get(ENTRY_KEYS.get(key, "id")) if isinstance(item, dict) and named else None
    if isinstance(ident, (str, int)) and not isinstance(ident, bool) and SAFE_NAME.fullmatch(str(ident)):
        label = f"{noun} '{ident}'"
    else:
        label = f"{ordinal(index + 1)} {noun}"
    front = head + sep + base if base or not sep else head
    return f"{front}: {label}" if front else label


def subkey(where: str, key) -> str:
    """The key path of ``key`` inside the mapping at ``where``: ``card.fields`` + ``glow`` ->
    ``card.fields.glow``; after an entry's name, ``deck 'current'`` + ``size`` -> ``deck 'current': size``."""
    if not where:
        return str(key)
    return f"{where}: {key}" if _ENTRY_END.search(where) else f"{where}.{key}"


class Checker:
    """Checks values against fields, appending problems that name ``subject`` and the key path."""

    def __init__(self, problems: Problems, path, subject: str | None):
        self.problems = problems
        self.path = path
        self.subject = subject

    def error(self, line, where: str, message: str):
        text = f"{where}: {message}" if where else message
        self.problems.error(self.path, line, self.subject, text)

    def value(self, value, spec: Field, where: str, line):
        """Return the checked value, or MISSING after reporting a problem."""
        if value is None and spec.nullable:
            return None
        t = spec.type
        if t == "any":
            return value
        if t == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                return self._wrong(value, spec, where, line)
        elif t == "number":
            number = _finite(value)
            if number is None:
                return self._wrong(value, spec, where, line)
            value = number
        elif t == "str":
            if not isinstance(value, str):
                if isinstance(value, int) and not isinstance(value, bool) and spec.choices is None:
                    value = str(value)
                else:
                    return self._wrong(value, spec, where, line)
            if not spec.blank and not value.strip():
                self.error(line, where, "must not be empty")
                return MISSING
        elif t in _PATTERNS:
            if not isinstance(value, str) or not _PATTERNS[t].fullmatch(value):
                return self._wrong(value, spec, where, line)
        elif t == "bool":
            if not isinstance(value, bool):
                return self._wrong(value, spec, where, line)
        elif t == "colour":
            if not isinstance(value, str) or not _COLOUR.match(value):
                return self._wrong(value, spec, where, line)
        elif t == "length":
            mm = parse_length(value)
            if mm is None or not math.isfinite(mm):
                return self._wrong(value, spec, where, line)
            value = mm
        elif t == "list":
            if not isinstance(value, list):
                return self._wrong(value, spec, where, line)
            out = []
            for i, item in enumerate(value):
                item_line = line_of(value, i) or line
                checked = self.value(item, spec.items, entry(where, item, i), item_line) if spec.items else item
                if checked is not MISSING:
                    out.append(checked)
            value = out
        elif t == "map":
            if not isinstance(value, dict):
                return self._wrong(value, spec, where, line)
            return self.mapping(value, spec.schema or {}, where)
        elif t == "dict":
            if not isinstance(value, dict):
                return self._wrong(value, spec, where, line)
            out = {}
            for k, v in value.items():
                if not isinstance(k, (str, int)) or isinstance(k, bool):
                    self.error(line_of(value, k) or line, where, f"key {_describe(k)}: expected text or a number")
                    continue
                checked = self.value(v, spec.items, subkey(where, k), line_of(value, k) or line) if spec.items else v
                if checked is not MISSING:
                    out[k] = checked
            value = out
        else:  # pragma: no cover - a programming error in a schema
            raise ValueError(f"unknown field type {t}")
        if spec.choices is not None and value not in spec.choices:
            close = closest(value, [str(c) for c in spec.choices]) if isinstance(value, str) else None
            hint = f"; did you mean '{close}'?" if close else ""
            self.error(line, where, f"{_describe(value)} is not one of: {', '.join(map(str, spec.choices))}{hint}")
            return MISSING
        if spec.min is not None and isinstance(value, (int, float)) and value < spec.min:
            self.error(line, where, f"{value} is below the minimum {spec.min:g}")
            return MISSING
        if spec.max is not None and isinstance(value, (int, float)) and value > spec.max:
            self.error(line, where, f"{value} is above the maximum {spec.max:g}")
            return MISSING
        return value

    def _wrong(self, value, spec, where, line):
        self.error(line, where, f"expected {_TYPE_NAMES.get(spec.type, spec.type)}, got {_describe(value)}")
        return MISSING

    def mapping(self, data, schema: dict, prefix: str = "") -> dict:
        """Check a mapping against a schema; unknown keys and missing required keys are problems. A
        required key that an unknown key was meant to be (its "did you mean") is not reported missing
        as well: one mistake, one message."""
        out = {}
        base_line = getattr(data, "line", None)
        meant = set()
        for key in data:
            shown = key if isinstance(key, str) and len(key) <= 40 else excerpt(key)
            where = subkey(prefix, shown)
            if key not in schema:
                from pnp.renames import key_hint       # the format's history: a key it once had

                old = key_hint(schema, key)
                if old:
                    self.error(line_of(data, key), where, old)
                    continue
                accepted = ", ".join(schema)
                close = closest(key, schema)
                hint = f" (did you mean '{close}'?)" if close else ""
                if close is not None and close not in data:
                    meant.add(close)
                self.error(line_of(data, key), where, f"unknown key{hint}; accepted keys: {accepted}")
        for key, spec in schema.items():
            where = subkey(prefix, key)
            if key in data:
                checked = self.value(data[key], spec, where, line_of(data, key))
                if checked is not MISSING:
                    out[key] = checked
                elif not spec.required:
                    out[key] = spec.default      # reported; the default keeps the rest of the checks going
            elif spec.required:
                if key not in meant:
                    self.error(base_line, where, "required key is missing")
            else:
                out[key] = spec.default
        return out


def check(data, schema: dict, problems: Problems, path, subject: str | None = None, prefix: str = ""):
    """Check ``data`` (a mapping) against ``schema``; see :class:`Checker`."""
    checker = Checker(problems, path, subject)
    if not isinstance(data, dict):
        checker.error(getattr(data, "line", None), prefix, f"expected a mapping, got {_describe(data)}")
        return {}
    return checker.mapping(data, schema, prefix)
