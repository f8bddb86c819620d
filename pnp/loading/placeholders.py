"""Placeholder marks: data invented where a game's source gives no value, marked so nobody mistakes it
for the real thing.

Any mapping of a game's data (a card, an entry of a facts file) may say ``placeholder: true`` (the
whole entry is invented) or ``placeholder: [key, ...]`` (those keys' values are invented). Replacing a
placeholder is then an edit of the value (and of the mark): the engine and the kit read the data, so
nothing else changes. ``pnp validate`` counts the marks of each file and reports the counts as
warnings; the kit may print a small mark on what comes from a placeholder (``Card.placeholder``).
"""

from __future__ import annotations

from pnp.loading.paths import excerpt
from pnp.loading.yamlsrc import line_of
from rules_engine.model.cards import WHOLE_PLACEHOLDER

KEY = "placeholder"

#: The small sign the kit prints beside (or on) what comes from a placeholder: a star, the note mark every
#: reader looks up (a raised ring read as a degree sign: "0-6°"; the bundled fonts have no dagger). It is
#: markup's emphasis sign, so it is printed escaped (:func:`pnp.text.markup.escape`), and the instructions
#: page explains it in every kit of a game with placeholders.
PRINTED_MARK = "*"


def check_mark(value, keys, report) -> tuple:
    """The checked mark of one mapping: ``()`` (none), ``(WHOLE_PLACEHOLDER,)`` (``true``) or the names of
    the invented keys. ``keys`` are the mapping's other keys; ``report(message)`` records a problem."""
    if value is None or value is False:
        return ()
    if value is True:
        return (WHOLE_PLACEHOLDER,)
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",") if v.strip()]   # a spreadsheet cell: "copies, cost"
    if not isinstance(value, list) or not value:
        report(f"{KEY}: expected true or a list of the entry's keys whose values are invented, got "
               f"{excerpt(value)}")
        return ()
    names = []
    for name in value:
        if not isinstance(name, str) or name == KEY or name not in keys:
            known = ", ".join(str(k) for k in keys if k != KEY)
            report(f"{KEY}: {excerpt(name)} is not a key of this entry (its keys: {known})")
            continue
        if name not in names:
            names.append(name)
    return tuple(names)


def weight(mark) -> int:
    """How many placeholders one mark stands for: 1 for a whole entry, else one per key."""
    if mark is True:
        return 1
    if isinstance(mark, str):
        return len([v for v in mark.split(",") if v.strip()])
    if isinstance(mark, (list, tuple)):
        return len(mark)
    return 0


def count(raw) -> int:
    """Placeholder marks in a loaded YAML tree (mappings and lists, any depth) or in table rows."""
    total = 0
    stack = [raw]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            total += weight(node.get(KEY))
            stack.extend(v for k, v in node.items() if k != KEY)
        elif isinstance(node, list):
            stack.extend(node)
    return total


def mark_line(raw) -> int | None:
    """The line of a mapping's mark (for messages)."""
    return line_of(raw, KEY) if isinstance(raw, dict) else None


def warn_counts(counts: dict, problems) -> None:
    """One warning per file holding placeholders: ``file: warning: N placeholders ...``."""
    for path, n in counts.items():
        if n:
            problems.warn(path, None, None, f"{n} placeholder{'s' if n != 1 else ''}: values invented where "
                                            f"the source gives none (marked '{KEY}'); replace them with the "
                                            f"real ones when known")
