"""Names the data format used to have, and what to write now: one table (``pnp/renames.yaml``) that the
checks consult before calling a name unknown, so an old game folder is answered with its fix
(``unknown icon 'influence': the built-in icon was renamed 'seal'; add icons: {influence: seal}``).

A schema that has a history is a :class:`Schema` (a dict of fields, as every schema, that also knows its
name in the table); :class:`pnp.loading.schema.Checker` asks :func:`key_hint` about each unknown key, and
:meth:`pnp.loading.icons.IconSet.problem` and the card-markup check ask :func:`icon_hint` about each unknown
icon. CHANGELOG.md records the same changes for people.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml

TABLE = Path(__file__).with_name("renames.yaml")


@cache
def _table() -> dict:
    with open(TABLE, encoding="utf-8") as f:
        return yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) or {}


class Schema(dict):
    """A schema (key -> :class:`pnp.loading.schema.Field`) with a name in the renames table, so an unknown key
    that the format once had is answered with what to write now."""

    def __init__(self, name: str, fields: dict):
        super().__init__(fields)
        self.name = name


def renamed_icon(name) -> str | None:
    """The built-in icon an old built-in icon name is now, or None."""
    return _table().get("icons", {}).get(name) if isinstance(name, str) else None


def icon_hint(name, known) -> str | None:
    """How to fix an unknown icon that was a built-in one (None when it never was, or when the game's
    own icons do not have the new name either: then the closest-name hint is the better one)."""
    new = renamed_icon(name)
    if new is None or new not in known:
        return None
    return f"the built-in icon was renamed '{new}'; add icons: {{{name}: {new}}}"


def key_hint(schema, key) -> str | None:
    """What to do instead of an unknown ``key`` of ``schema`` when the format once had it, or None."""
    name = getattr(schema, "name", None)
    if name is None or not isinstance(key, str):
        return None
    entry = _table().get("keys", {}).get(name, {}).get(key)
    if entry is None:
        return None
    if isinstance(entry, dict) and "renamed" in entry:
        return f"renamed '{entry['renamed']}': write {entry['renamed']}: instead"
    return str(entry)
