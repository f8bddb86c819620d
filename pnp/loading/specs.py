"""Checking plain data against an engine's :class:`~rules_engine.protocol.Spec` trees (scenario files,
facts files), with :mod:`pnp.loading.schema`'s messages, and finding the line of a problem's path.

Engines describe their files as ``Spec`` data (they import nothing from pnp); this module checks raw
YAML against them and turns the paths engines report (``waves[2].Ana.extra``, ``maps[1].areas[2][3]``)
into line numbers.
"""

from __future__ import annotations

import re

from pnp.loading import placeholders
from pnp.errors import Problems
from pnp.loading.schema import MISSING, Checker, Field
from pnp.loading.yamlsrc import line_of
from rules_engine.protocol import Spec

_PATH_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


class SpecChecker:
    """Checks raw YAML against an engine's :class:`Spec` tree with :class:`pnp.loading.schema.Checker`'s
    messages. Unlike a plain ``Field`` list, a list item of the wrong shape stays in place as None, so
    the engine's own messages keep the numbering of the file."""

    def __init__(self, problems: Problems, path, placeholders: bool = False):
        self.checker = Checker(problems, path, None)
        self.placeholders = placeholders   # every mapping may carry a placeholder mark (facts files)

    def value(self, value, spec: Spec, where: str, line):
        if spec.shorthand and value is not None and not isinstance(value, dict):
            if not isinstance(value, str):
                self.checker.error(line, where, f"expected {spec.doc or 'a mapping'}")
                return MISSING
            value = {spec.shorthand: value}
        if value is None and spec.nullable:
            return None
        t = spec.type
        if t == "list":
            if not isinstance(value, list):
                return self.checker.value(value, Field("list"), where, line)
            if spec.items is None:
                return list(value)
            out = []
            for i, item in enumerate(value):
                checked = self.value(item, spec.items, f"{where}[{i + 1}]", line_of(value, i) or line)
                out.append(None if checked is MISSING else checked)
            return out
        if t in ("map", "dict"):
            if not isinstance(value, dict):
                return self.checker.value(value, Field(t), where, line)
            if t == "dict":
                out = {}
                for key, item in value.items():
                    checked = (self.value(item, spec.items, f"{where}.{key}", line_of(value, key) or line)
                               if spec.items else item)
                    if checked is not MISSING:
                        out[key] = checked
                return out
            return self.mapping(value, spec.schema or {}, where, line)
        # a required text (a player's name, a card) must say something
        field = Field(t, choices=spec.choices, min=spec.min, max=spec.max, nullable=spec.nullable,
                      blank=not spec.required)
        return self.checker.value(value, field, where, line)

    def mapping(self, value: dict, schema: dict, where: str, line=None) -> dict:
        # unknown keys, missing required keys and defaults, with pnp.loading.schema's own messages
        fields = {k: Field("any", required=s.required, default=s.default) for k, s in schema.items()}
        marked = self.placeholders and placeholders.KEY in value and placeholders.KEY not in schema
        if marked:
            fields[placeholders.KEY] = Field("any", nullable=True)
        shallow = self.checker.mapping(value, fields, where)
        out = {}
        if marked:
            mark = placeholders.check_mark(
                value[placeholders.KEY], list(value),
                lambda message: self.checker.error(line_of(value, placeholders.KEY) or line,
                                                   where, message))
            if mark:
                out[placeholders.KEY] = mark
        for key, spec in schema.items():
            if key in value:
                checked = self.value(value[key], spec, f"{where}.{key}" if where else key,
                                     line_of(value, key) or line)
                if checked is not MISSING:
                    out[key] = checked
            elif key in shallow:
                out[key] = shallow[key]
        return out


def line_at(raw, path: str) -> int | None:
    """The line of the deepest part of ``path`` (``waves[2].Ana.extra``, ``turns[1][3]``) found in ``raw``."""
    node, line = raw, getattr(raw, "line", None)
    for key, index in _PATH_PART.findall(path):
        if index:
            i = int(index) - 1
            if not isinstance(node, list) or not 0 <= i < len(node):
                break
            line = line_of(node, i) or line
            node = node[i]
        else:
            if not isinstance(node, dict):
                break
            found = key if key in node else next((k for k in node if str(k) == key), None)
            if found is None:
                break
            line = line_of(node, found) or line
            node = node[found]
    return line
