"""pnp's text markup: the rulebook's blocks, the inline markup of every printed text, and escaping.

No reportlab here: this module only turns text into plain nodes.

Blocks are separated by blank lines::

    # Chapter            ## Section            ### Subsection
    A paragraph; lines are joined. Inline: **bold**, *italic*, [power] icons.
    - a bullet item (continuation lines indented)
    1. a numbered item
    | head | head |     a table; a |---| row ends the header rows
    | cell | cell |
    > An example box: each > line is one line of the box.
    !pagebreak  !toc  !notes  !spare  !keep  (directives)

Inline markup is the same as on cards: ``**bold**``, ``*italic*``, ``[icon]`` / ``[icon:arg]``, a
newline for a line break, and ``\\x`` for a literal ``x`` (any character). :func:`inline_atoms` parses it.

Only pnp's own text is markup: templates and printed-word files (``strings``). A value from game data
(a name, a flavour line, a transcript) enters markup through :func:`escape`, which makes every character
print as itself. Template rendering (:mod:`pnp.text.templating`) does that for every data value a template
prints; Python code that puts data into markup calls :func:`escape` itself. :class:`Safe` marks text
that already is markup, so it is never escaped twice.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from functools import lru_cache

from pnp.text.icon_names import ICON_NAMES
from pnp.suggest import closest

_BULLET = re.compile(r"^[-*] +(.*)$")
_NUMBER = re.compile(r"^(\d+)[.)] +(.*)$")
_HEADING = re.compile(r"^(#{1,3}) +(.*)$")


@dataclass(frozen=True)
class Heading:
    """A heading block (``#`` to ``###``: level 1 to 3), with the line it is on."""

    level: int
    text: str
    line: int = 0


@dataclass(frozen=True)
class Paragraph:
    """A paragraph block, its lines joined, with the line it starts on."""

    text: str
    line: int = 0
    style: str = "body"


@dataclass(frozen=True)
class ListBlock:
    """A bulleted or numbered list block: one markup string per item, with the line it starts on."""

    ordered: bool
    items: tuple
    line: int = 0


@dataclass(frozen=True)
class TableBlock:
    """A table block: rows of cell markup, the first ``header_rows`` of them the header."""

    rows: tuple              # tuple of tuples of cell markup
    header_rows: int
    line: int = 0


@dataclass(frozen=True)
class Example:
    """An example box (``>`` lines): one markup string per line of the box."""

    lines: tuple
    line: int = 0


@dataclass(frozen=True)
class Directive:
    """A ``!name arg`` line (``!pagebreak``, ``!toc``, ...), with the line it is on."""

    name: str
    arg: str = ""
    line: int = 0


@dataclass
class MarkupError(Exception):
    """Markup that cannot be read: what is wrong, at which line of the text (0 when not known)."""

    line: int
    message: str
    problems: list = field(default_factory=list)

    def __str__(self):
        return f"line {self.line}: {self.message}"


def _cells(row: str) -> tuple:
    """A table row's cells: split at every ``|`` that is not escaped (``\\|``)."""
    cells, current, i = [], [], 0
    row = row.strip()
    while i < len(row):
        ch = row[i]
        if ch == "\\" and i + 1 < len(row):
            current.append(row[i:i + 2])
            i += 2
            continue
        if ch == "|":
            cells.append("".join(current))
            current = []
        else:
            current.append(ch)
        i += 1
    cells.append("".join(current))
    if row.startswith("|"):
        cells = cells[1:]
    if row.endswith("|") and not escaped_at(row, len(row) - 1):
        cells = cells[:-1]
    return tuple(cell.strip() for cell in cells)


def escaped_at(text: str, index: int) -> bool:
    """Whether the character at ``index`` is escaped (preceded by an odd number of backslashes)."""
    n = 0
    while index - n - 1 >= 0 and text[index - n - 1] == "\\":
        n += 1
    return n % 2 == 1


def parse(text: str) -> list:
    """Markup text -> list of block nodes. Raises MarkupError for a ragged table."""
    return list(_parsed(text))


@lru_cache(maxsize=512)
def _parsed(text: str) -> tuple:
    # a pure function of the text, kept: a booklet's chapters are parsed again on each of its layout
    # passes (24 for Shadow Throne's), and the nodes are frozen
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
    return tuple(nodes)


def _starts_block(line: str) -> bool:
    return (line.startswith(("!", "|", ">")) or bool(_HEADING.match(line)) or bool(_BULLET.match(line))
            or bool(_NUMBER.match(line)))


# ----------------------------------------------------------------------------- inline markup

_INLINE = re.compile(r"(\\.|\*\*|\*|\[[a-z][a-z0-9_-]*(?::[^\]]*)?\]|\n| +)", re.DOTALL)


@dataclass(frozen=True)
class Atom:
    """A piece of a word: text in one style, or an inline icon (``text`` is the icon's name)."""

    kind: str              # text, icon
    text: str = ""
    bold: bool = False
    italic: bool = False
    arg: str | None = None


def inline_atoms(markup: str, upper: bool = False) -> list:
    """Inline markup -> list of words (lists of :class:`Atom`) with ``None`` marking forced line breaks.

    Adjacent text in the same style is one atom, so an escaped character joins the text around it.
    """
    words, current = [], []
    bold = italic = False

    def add_text(text):
        text = text.upper() if upper else text
        last = current[-1] if current else None
        if last is not None and last.kind == "text" and last.bold == bold and last.italic == italic:
            current[-1] = Atom("text", last.text + text, bold, italic)
        else:
            current.append(Atom("text", text, bold, italic))

    for token in _INLINE.split(markup):
        if not token:
            continue
        if token == "**":
            bold = not bold
        elif token == "*":
            italic = not italic
        elif token == "\n":
            if current:
                words.append(current)
            words.append(None)
            current = []
        elif token.startswith("\\") and len(token) == 2:
            add_text(token[1])
        elif token.isspace():
            if current:
                words.append(current)
            current = []
        elif token.startswith("[") and token.endswith("]"):
            name, _, arg = token[1:-1].partition(":")
            current.append(Atom("icon", name, arg=arg or None))
        else:
            add_text(token)
    if current:
        words.append(current)
    return words


def icons_used(markup: str) -> list[tuple[str, str | None]]:
    """Every inline icon of ``markup`` as (name, argument): the icon atoms of :func:`inline_atoms`, found
    without making the text atoms (a rulebook chapter is checked whole)."""
    return [(name, arg or None) for token in _INLINE.split(markup) if token.startswith("[") and token.endswith("]")
            for name, _, arg in (token[1:-1].partition(":"),)]


#: Inline names with a meaning of their own besides the drawn icons: ``[pips:N]``, N rank pips.
INLINE_ONLY = frozenset({"pips"})
MAX_PIPS = 9


def pips_count(arg: str | None) -> int | None:
    """The N of ``[pips:N]`` (1 when left out), or None when it is not a number from 1 to MAX_PIPS."""
    if arg is None:
        return 1
    return int(arg) if arg.isdigit() and 1 <= int(arg) <= MAX_PIPS else None


def markup_problems(markup: str, icons=ICON_NAMES) -> list[str]:
    """What drawing ``markup`` would get wrong: unknown icons, ``[pips:N]`` without a usable N."""
    problems = []
    for name, arg in icons_used(markup):
        problem = _icon_problem(name, arg, icons)
        if problem:
            problems.append(problem)
    return list(dict.fromkeys(problems))


def _icon_problem(name: str, arg: str | None, icons) -> str | None:
    if name == "pips":
        if pips_count(arg) is None:
            return f"[pips:{_short(arg or '', 20)}]: give a number of pips from 1 to {MAX_PIPS}"
        return None
    if name in icons:
        return None
    from pnp.renames import icon_hint        # an old built-in name: say how to keep it

    renamed = icon_hint(name, set(icons) | INLINE_ONLY)
    if renamed:
        return f"unknown icon [{_short(name, 30)}]: {renamed}"
    return f"unknown icon [{_short(name, 30)}]; {closest_icon(name, icons)}"


def closest_icon(name: str, icons, inline: bool = True) -> str:
    """'did you mean [x]?' for the known icon nearest ``name`` (``'x'`` unless ``inline``), else the list
    of known icons."""
    known = sorted((set(icons) | INLINE_ONLY) if inline else set(icons))
    close = closest(name.lower(), known, builtin=ICON_NAMES | INLINE_ONLY)
    if close:
        return f"did you mean [{close}]?" if inline else f"did you mean '{close}'?"
    return f"known icons: {', '.join(known)}"


# ----------------------------------------------------------------------------- card markup in data

#: An inline icon as card markup writes it.
_ICON_TOKEN = re.compile(r"\[([a-z][a-z0-9_-]*)(?::([^\]\n]*))?\]")


def card_markup(value) -> Safe:
    """A data text that is card markup (a deck field of ``type: text``, a flavour line) as markup to
    print: its ``**bold**``, ``*italic*``, ``[icon]``, ``[icon:label]`` and ``\\x`` escapes kept, every
    line break kept as a line break, runs of other whitespace made one space. Nothing else in it has a
    meaning: card markup has no tags, attributes or file names, and it is only ever set as a card's
    inline text (never as a block of a rulebook). :func:`card_markup_problems` checks it."""
    if isinstance(value, Safe):
        return value
    lines = [" ".join(line.split()) for line in str(value).replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    return Safe("\n".join(lines).strip("\n"))


def card_markup_problems(text: str, icons=ICON_NAMES) -> list[str]:
    """What is wrong with ``text`` as card markup, in words a designer can act on: an unknown icon (with
    the closest known name), a ``[`` that starts no icon, a ``*`` or ``**`` that is never closed, a
    ``\\`` that escapes nothing. Each problem once, in the order found."""
    problems = []
    bold = italic = None          # the text where an open ** / * started
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            if i + 1 >= n or text[i + 1] == "\n":
                problems.append("a '\\' at the end of a line escapes nothing; write '\\\\' for a backslash")
            i += 2
            continue
        if ch == "[":
            m = _ICON_TOKEN.match(text, i)
            if m:
                problem = _icon_problem(m.group(1), m.group(2), icons)
                if problem:
                    problems.append(problem)
                i = m.end()
                continue
            end = text.find("]", i)
            written = text[i:end + 1] if end != -1 and end - i <= 40 and "\n" not in text[i:end] else text[i:i + 12]
            inner = written[1:-1].strip().lower() if written.endswith("]") else ""
            name = inner.split(":")[0]
            close = closest(name, set(icons) | INLINE_ONLY, builtin=ICON_NAMES | INLINE_ONLY)
            hint = f" (did you mean [{close}]?)" if close else ""
            problems.append(f"{_short(written, 30)!r} is not an icon: icons are written [name] or [name:label] "
                            f"in lower case{hint}; write '\\[' for a literal '['")
            i += 1
            continue
        i += 1
    problems += [message for message, _ in open_emphasis(text)]
    return list(dict.fromkeys(problems))


def open_emphasis(text: str) -> list[tuple[str, str]]:
    """The ``**`` (bold) and ``*`` (italics) that inline markup ``text`` opens and never closes (the rest of
    the text would print bold or slanted): (message, the few characters from the star) for each."""
    bold = italic = None          # the text where an open ** / * started
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        m = _ICON_TOKEN.match(text, i) if ch == "[" else None
        if m:
            i = m.end()
            continue
        if ch == "*":
            if text.startswith("**", i):
                bold = None if bold is not None else _around(text, i)
                i += 2
            else:
                italic = None if italic is not None else _around(text, i)
                i += 1
            continue
        i += 1
    out = []
    if bold is not None:
        out.append((f"'**' at {bold!r} starts bold that never ends; close it with '**', or write '\\*\\*' "
                    f"for literal stars", bold))
    if italic is not None:
        out.append((f"'*' at {italic!r} starts italics that never end; close them with '*', or write '\\*' "
                    f"for a literal star", italic))
    return out


def inline_texts(nodes) -> list[str]:
    """Every run of inline markup of parsed blocks (:func:`parse`): headings, paragraphs, list items,
    table cells and example-box lines, each set on its own."""
    out = []
    for node in nodes:
        if isinstance(node, (Heading, Paragraph)):
            out.append(node.text)
        elif isinstance(node, ListBlock):
            out.extend(node.items)
        elif isinstance(node, TableBlock):
            out.extend(cell for row in node.rows for cell in row)
        elif isinstance(node, Example):
            out.extend(node.lines)
    return out


def _around(text: str, i: int) -> str:
    """A few characters of ``text`` from index ``i``, to show where a problem is."""
    return _short(text[i:i + 16].split("\n")[0], 16)


def _short(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "\u2026"


def plain_text(markup: str) -> str:
    """The words of inline markup without styles or icons (for outlines, contents entries, glyph checks)."""
    lines, words = [], []
    for word in inline_atoms(markup):
        if word is None:
            lines.append(" ".join(words))
            words = []
            continue
        text = "".join(a.text for a in word if a.kind == "text")
        if text:
            words.append(text)
    lines.append(" ".join(words))
    return "\n".join(line for line in lines if line)


# ----------------------------------------------------------------------------- escaping data

class Safe(str):
    """Text that is already pnp markup (template output, printed-word strings): never escaped again."""

    __slots__ = ()


#: Characters with a meaning anywhere in markup.
_SPECIAL = re.compile(r"([\\*\[\]|{}])")
#: Characters that start a block when they begin a line (headings, bullets, directives, examples), and
#: the number of a numbered list item.
_BLOCK_START = set("#-!>")
_LIST_NUMBER = re.compile(r"^(\d+)([.)])")


def escape(value) -> Safe:
    """``value`` as markup that prints every character as itself (``*`` stays a star, ``[x]`` is no icon).

    Whitespace runs, newlines included, become one space: a data value is one line of words and can
    never start a block of its own. Text already marked :class:`Safe` is returned unchanged.
    """
    if isinstance(value, Safe):
        return value
    text = " ".join(str(value).split())
    if _SPECIAL.search(text):                # most data has none: looking is cheaper than replacing
        text = _SPECIAL.sub(r"\\\1", text)
    if text[:1] in _BLOCK_START:
        text = "\\" + text
    elif text[:1].isdigit():                 # (every decimal digit is a digit)
        text = _LIST_NUMBER.sub(r"\1\\\2", text)
    return Safe(text)


def fill(template: str, **values) -> str:
    """``template`` (a printed-word string such as ``"{min}-{max} players"``) with its placeholders filled.

    Only the named ``values`` are placeholders: no attribute or index access, no conversions or format
    specs, so a translation string cannot reach anything else. Text values are escaped as data. A string
    that uses anything else (checked by :func:`placeholder_problems` at validation) is printed as written.
    """
    if placeholder_problems(template, values):
        return template
    out = []
    for literal, name, _, _ in string.Formatter().parse(template):
        out.append(literal)
        if name is not None:
            value = values[name]
            out.append(escape(value) if isinstance(value, str) else str(value))
    return "".join(out)


def placeholder_problems(template: str, allowed) -> list[str]:
    """What is wrong with the ``{placeholders}`` of ``template`` given the names it may use ([] if nothing)."""
    try:
        fields = [(name, spec, conv) for _, name, spec, conv in string.Formatter().parse(template)
                  if name is not None]
    except ValueError as exc:
        return [f"malformed placeholder ({exc}); write a literal brace as {{{{ or }}}}"]
    problems = []
    names = ", ".join("{" + n + "}" for n in sorted(allowed)) or "none"
    for name, spec, conv in fields:
        if name not in allowed:
            shown = "{" + name[:30] + "}" if name else "{}"
            problems.append(f"unknown placeholder {shown}; this text may use: {names}")
        elif spec or conv:
            problems.append(f"placeholder {{{name}}} must be written plainly, without '!' or ':'")
    return problems
