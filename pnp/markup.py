"""The rulebook's block markup, parsed into plain nodes (no reportlab here).

Blocks are separated by blank lines::

    # Chapter            ## Section            ### Subsection
    A paragraph; lines are joined. Inline: **bold**, *italic*, [power] icons.
    - a bullet item (continuation lines indented)
    1. a numbered item
    | head | head |     a table; a |---| row ends the header rows
    | cell | cell |
    > An example box: each > line is one line of the box.
    !pagebreak  !toc  !notes  !keep  (directives)

Inline markup is the same as on cards (see :mod:`pnp.draw.text`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_BULLET = re.compile(r"^[-*] +(.*)$")
_NUMBER = re.compile(r"^(\d+)[.)] +(.*)$")
_HEADING = re.compile(r"^(#{1,3}) +(.*)$")


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    line: int = 0


@dataclass(frozen=True)
class Paragraph:
    text: str
    line: int = 0
    style: str = "body"


@dataclass(frozen=True)
class ListBlock:
    ordered: bool
    items: tuple
    line: int = 0


@dataclass(frozen=True)
class TableBlock:
    rows: tuple              # tuple of tuples of cell markup
    header_rows: int
    line: int = 0


@dataclass(frozen=True)
class Example:
    lines: tuple
    line: int = 0


@dataclass(frozen=True)
class Directive:
    name: str
    arg: str = ""
    line: int = 0


@dataclass
class MarkupError(Exception):
    line: int
    message: str
    problems: list = field(default_factory=list)

    def __str__(self):
        return f"line {self.line}: {self.message}"


def _cells(row: str) -> tuple:
    return tuple(cell.strip() for cell in row.strip().strip("|").split("|"))


def parse(text: str) -> list:
    """Markup text -> list of block nodes. Raises MarkupError for a ragged table."""
    nodes = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        raw = lines[i]
        line = raw.strip()
        number = i + 1
        if not line:
            i += 1
            continue
        if line.startswith("!"):
            name, _, arg = line[1:].partition(" ")
            nodes.append(Directive(name, arg.strip(), number))
            i += 1
            continue
        m = _HEADING.match(line)
        if m:
            nodes.append(Heading(len(m.group(1)), m.group(2).strip(), number))
            i += 1
            continue
        if line.startswith("|"):
            rows, header = [], 0
            while i < len(lines) and lines[i].strip().startswith("|"):
                cells = _cells(lines[i])
                if all(re.fullmatch(r":?-{2,}:?", c) for c in cells):
                    header = len(rows)
                else:
                    rows.append(cells)
                i += 1
            widths = {len(r) for r in rows}
            if len(widths) > 1:
                raise MarkupError(number, f"table rows have different numbers of cells: {sorted(widths)}")
            nodes.append(TableBlock(tuple(rows), header, number))
            continue
        if line.startswith(">"):
            box = []
            while i < len(lines) and lines[i].strip().startswith(">"):
                box.append(lines[i].strip()[1:].strip())
                i += 1
            nodes.append(Example(tuple(box), number))
            continue
        if _BULLET.match(line) or _NUMBER.match(line):
            ordered = bool(_NUMBER.match(line))
            items = []
            while i < len(lines) and lines[i].strip():
                s = lines[i].strip()
                m = _NUMBER.match(s) if ordered else _BULLET.match(s)
                if m:
                    items.append(m.group(2) if ordered else m.group(1))
                elif lines[i].startswith((" ", "\t")) and items:
                    items[-1] += " " + s
                else:
                    break
                i += 1
            nodes.append(ListBlock(ordered, tuple(items), number))
            continue
        para = []
        while i < len(lines) and lines[i].strip() and not _starts_block(lines[i].strip()):
            para.append(lines[i].strip())
            i += 1
        nodes.append(Paragraph(" ".join(para), number))
    return nodes


def _starts_block(line: str) -> bool:
    return (line.startswith(("!", "|", ">")) or bool(_HEADING.match(line)) or bool(_BULLET.match(line))
            or bool(_NUMBER.match(line)))
