"""Card lists from spreadsheets: ``.csv`` files and ``.xlsx`` workbooks, read into the same shapes as YAML.

Designers keep cards in spreadsheets. A sheet has a header row naming the keys (dotted headers make
nested keys: ``ability.kind``, ``ability.step``) and one card per row; an empty cell means the key is
absent. Each row becomes a :class:`~pnp.loading.yamlsrc.LineDict` whose key positions are
:class:`~pnp.errors.Cell` values (the row and the column), so every message the schema checker writes names
``cards.csv:ROW:COLUMN``.

Cells are text in a CSV file; :func:`coerce` turns them into the type a key expects (an integer for
``copies``, a list for a list field) before the usual checks, which then report what does not convert.
"""

from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path

from pnp.errors import Cell, DataError, Problem
from pnp.loading.paths import NotRegularFile, check_inside, excerpt, open_regular
from pnp.loading.yamlsrc import LIMITS, LineDict, LineList, read_text

#: Spreadsheet file types a deck's ``cards`` may name.
TABLE_SUFFIXES = (".csv", ".xlsx")
#: Separator of the items of a list cell (``knight, noble``).
LIST_SEPARATOR = ","
#: Most cards rows and columns a table may have (a 20,000-card deck fits with room to spare).
MAX_ROWS = 50_000
MAX_COLUMNS = 200
#: Largest part of an xlsx archive once unpacked, and how much more than its packed size it may be
#: (spreadsheet XML packs 5 to 30 times; a zip bomb packs thousands of times).
MAX_PART_BYTES = 64 * 1024 * 1024
MAX_PART_RATIO = 200


class Text(str):
    """A cell's text as read: :func:`coerce` may still turn it into a number, a flag or a list."""

    __slots__ = ()


def is_table(path: Path) -> bool:
    return path.suffix.lower() in TABLE_SUFFIXES


def load_table(path: Path, within: Path | None = None) -> LineList:
    """The rows of a CSV file or of an xlsx workbook's first sheet, as mappings (DataError if unreadable)."""
    if within is not None:
        why = check_inside(within, path)
        if why:
            raise DataError([Problem(str(path), None, None, why)])
    if path.suffix.lower() == ".xlsx":
        header, rows = _xlsx_rows(path)
        return _mappings(path, header, rows)
    header, rows, starts = _csv_rows(path)
    return _mappings(path, header, rows, starts)


def _csv_rows(path: Path):
    text = read_text(path)
    if "\0" in text:
        line = text.count("\n", 0, text.index("\0")) + 1
        raise DataError([Problem(str(path), line, None, "contains a NUL character, which a CSV cell cannot "
                                                        "hold; save the file again as plain text")])
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect)
    rows, starts = [], []
    start = 1                   # the line a record starts on: a quoted cell may hold line breaks
    try:
        for row in reader:
            if len(row) > MAX_COLUMNS and any(cell.strip() for cell in row[MAX_COLUMNS:]):
                _too_wide(path, Cell(start, MAX_COLUMNS + 1))
            rows.append([Text(cell) for cell in row[:MAX_COLUMNS]])
            starts.append(start)
            start = reader.line_num + 1
            if len(rows) > MAX_ROWS + 1:
                raise DataError([Problem(str(path), None, None, f"more than {MAX_ROWS} rows; pnp reads at most that")])
    except csv.Error as exc:
        raise DataError([Problem(str(path), reader.line_num, None, f"malformed CSV: {exc}")]) from None
    return (rows[0] if rows else []), rows[1:], starts[1:]


def _too_wide(path: Path, cell: Cell):
    raise DataError([Problem(str(path), cell, None, f"more than {MAX_COLUMNS} columns; pnp reads at most that")])


def _check_archive(path: Path) -> None:
    """Refuse an xlsx archive before openpyxl unpacks it: a part too large or packed too tightly (a zip
    bomb), more than 80 MB in all, or an XML part with a DOCTYPE or entities (XXE, billion laughs),
    whatever its encoding (defusedxml, reading each part only up to its first element)."""
    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import ParseError, iterparse

    def refuse(message):
        raise DataError([Problem(str(path), None, None, message)])

    with zipfile.ZipFile(path) as z:
        parts = z.infolist()
        if sum(i.file_size for i in parts) > 20 * LIMITS.max_bytes:
            refuse("the workbook expands to too much data")
        for info in parts:
            if info.file_size > MAX_PART_BYTES or \
                    (info.file_size > 1024 * 1024 and info.file_size > MAX_PART_RATIO * max(info.compress_size, 1)):
                refuse(f"the workbook's part {excerpt(info.filename)} unpacks to {info.file_size / 1e6:.0f} MB "
                       f"from {info.compress_size / 1e6:.1f} MB; pnp refuses it (a zip bomb?)")
            if not info.filename.endswith((".xml", ".rels", ".vml")):
                continue
            try:
                with z.open(info) as part:
                    for _ in iterparse(part, events=("start",), forbid_dtd=True, forbid_entities=True,
                                       forbid_external=True):
                        break                 # a DOCTYPE comes before the first element
            except DefusedXmlException:
                refuse(f"the workbook's part {excerpt(info.filename)} declares a DOCTYPE or entities; pnp reads "
                       f"plain workbooks only")
            except ParseError as exc:
                refuse(f"the workbook's part {excerpt(info.filename)} is not readable XML ({str(exc)[:60]})")


def _xlsx_rows(path: Path):
    try:
        import openpyxl
    except ImportError:  # pragma: no cover - a declared dependency
        raise DataError([Problem(str(path), None, None, "reading .xlsx needs openpyxl (pip install openpyxl)")]) \
            from None
    try:
        size = path.stat().st_size
        if size > LIMITS.max_bytes:
            raise DataError([Problem(str(path), None, None, f"too large: more than {LIMITS.max_bytes / 1e6:.0f} MB")])
        with open_regular(path):
            pass
        _check_archive(path)           # refuse a zip bomb or entities before openpyxl reads anything
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except DataError:
        raise
    except FileNotFoundError:
        raise DataError([Problem(str(path), None, None, "file not found")]) from None
    except NotRegularFile as exc:
        raise DataError([Problem(str(path), None, None, str(exc))]) from None
    except Exception as exc:  # openpyxl raises many kinds for a file that is no workbook
        raise DataError([Problem(str(path), None, None, f"not a readable .xlsx workbook ({type(exc).__name__})")]) \
            from None
    try:
        sheet = book.worksheets[0]
        rows = []
        width = 0           # a data row's cells up to the last filled one, the widest so far
        for r, row in enumerate(sheet.iter_rows(values_only=True, max_col=MAX_COLUMNS + 1), 1):
            if len(row) > MAX_COLUMNS and not _empty(row[MAX_COLUMNS]):
                _too_wide(path, Cell(r, MAX_COLUMNS + 1))
            row = row[:MAX_COLUMNS]
            if r > 1:
                # a read-only sheet pads every row with empty cells up to the columns asked for: a data
                # row keeps its cells up to its last filled one (an empty cell and a missing one read the
                # same in _mappings); the header keeps them all, to name each column it leaves empty
                tail = row[width:]
                if tail.count(None) != len(tail):
                    end = len(row)
                    while row[end - 1] is None:
                        end -= 1
                    width = end
                row = row[:width]
            rows.append([_xlsx_value(v) for v in row])
            if len(rows) > MAX_ROWS + 1:
                raise DataError([Problem(str(path), None, None, f"more than {MAX_ROWS} rows; pnp reads at most that")])
    except DataError:
        raise
    except Exception as exc:  # a sheet openpyxl cannot read (it reads the rows only now)
        raise DataError([Problem(str(path), None, None, f"not a readable .xlsx workbook ({type(exc).__name__})")]) \
            from None
    finally:
        book.close()
    return (rows[0] if rows else []), rows[1:]


def _xlsx_value(value):
    if value is None:
        return Text("")
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        return Text(value)
    return value


def _mappings(path: Path, header, rows, starts=None) -> LineList:
    """Rows -> LineDicts keyed by the header (dotted keys nested), positions as :class:`pnp.errors.Cell`:
    the line each row starts on (``starts``: a CSV record with line breaks in a quoted cell spans lines),
    else its row number (a workbook's)."""
    problems = []
    names = []
    seen = set()
    for col, name in enumerate(header, 1):
        name = str(name).strip() if name is not None else ""
        if name and name in seen:
            problems.append(Problem(str(path), Cell(1, col), None, f"column {excerpt(name)} appears twice"))
        seen.add(name)
        names.append(name)
    if not any(names):
        problems.append(Problem(str(path), 1, None, "no header row: the first row names the keys (id, name, "
                                                    "copies, ...)"))
    if problems:
        raise DataError(problems)
    out = LineList()
    where = str(path)
    out.path, out.line = where, 2
    keys = [name.split(".") for name in names]      # a dotted name's parts, once per column
    for r, row in zip(starts or range(2, len(rows) + 2), rows):
        if all(_empty(v) for v in row):
            continue                        # blank rows between groups of cards
        item = LineDict()
        item.path, item.line = where, Cell(r, 1)
        for col, (name, value) in enumerate(zip(names, row), 1):
            if not name or _empty(value):
                continue
            value = Text(value.strip()) if isinstance(value, Text) else value
            _put(item, keys[col - 1], value, Cell(r, col), where)
        extra = [c for c, v in enumerate(row[len(names):], len(names) + 1) if not _empty(v)]
        if extra:
            problems.append(Problem(str(path), Cell(r, extra[0]), None,
                                    "a cell right of the last named column; give its column a header"))
        for col, name in enumerate(names[:len(row)], 1):
            if not name and not _empty(row[col - 1]):
                problems.append(Problem(str(path), Cell(r, col), None, "a cell in a column without a header"))
        out.append(item)
        out.item_lines.append(Cell(r, 1))
    if problems:
        raise DataError(problems)
    return out


def _empty(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _put(node: LineDict, parts: list, value, cell: Cell, path: str) -> None:
    for part in parts[:-1]:
        child = node.get(part)
        if not isinstance(child, LineDict):
            child = LineDict()
            child.path, child.line = path, cell
            node[part] = child
            node.key_lines[part] = cell
        node = child
    node[parts[-1]] = value
    node.key_lines[parts[-1]] = cell


# ----------------------------------------------------------------------------- typing cells

_TRUE, _FALSE = {"true", "yes"}, {"false", "no"}


def coerce(value, kind: str, items: str | None = None):
    """``value`` converted to ``kind`` (int, number, length, bool, list, str) when it is cell text that
    reads as one; anything else is returned unchanged, for the checker to report."""
    if not isinstance(value, Text):
        if kind == "list" and not isinstance(value, list) and value is not None:
            return [value]
        return value
    text = value.strip()
    if kind == "int":
        try:
            return int(text)
        except ValueError:
            return str(value)
    if kind in ("number",):
        try:
            return float(text)
        except ValueError:
            return str(value)
    if kind == "bool":
        low = text.lower()
        return True if low in _TRUE else False if low in _FALSE else str(value)
    if kind == "list":
        parts = [Text(p.strip()) for p in text.split(LIST_SEPARATOR) if p.strip()]
        return [coerce(p, items or "str") for p in parts]
    return str(value)


def guess(value):
    """Cell text whose type nothing declares (an ability's parameters before its kind is known): an
    integer, true/false, a list when it has the separator, else text."""
    if not isinstance(value, Text):
        return value
    text = value.strip()
    if LIST_SEPARATOR in text:
        return [guess(Text(p.strip())) for p in text.split(LIST_SEPARATOR) if p.strip()]
    try:
        return int(text)
    except ValueError:
        pass
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    return str(value)
