"""Data files: plain tables and lists a game's templates, layouts and repeated components read, with or
without a rules engine (game.yaml's ``data:``).

``data: [crew.csv, boards.yaml]`` makes ``data.crew`` (a CSV or xlsx table: a list with one mapping per
row, keyed by the header) and ``data.boards`` (a YAML file: its mapping or list as written) visible to
board, dice and standee expressions (``each: data.boards``), card layouts and Jinja templates (the
rulebook, sheets, aids). A file's name without its suffix is its name under ``data``.

Unlike a facts file (:mod:`pnp.loading.facts`, the engine's schema-checked input) nothing checks a data file's
shape: no engine reads it. What is checked is what every data file gets: the path stays inside the game
folder, the file keeps the size limits, a problem is reported at ``file:line`` (``file:ROW:COLUMN`` in a
spreadsheet). And a mistake cannot print a blank: every mapping of a data file is a :class:`DataMap`,
which answers a key it does not have with an error naming the key, the closest key it has and where the
mapping is written (``crew.csv:4``).

Spreadsheet cells are typed as they read: ``3`` is a number, ``2.5`` a decimal, ``true``/``false`` a flag,
anything else text (a comma does not split a cell: text stays text). An empty cell is an empty text, so
every row has every column.
"""

from __future__ import annotations

import re
from pathlib import Path

import jinja2

from pnp.suggest import closest
from pnp.errors import DataError, Problems
from pnp.loading.paths import data_path, excerpt
from pnp.loading.schema import entry
from pnp.loading.tables import Text, is_table, load_table
from pnp.loading.yamlsrc import LineDict, LineList, line_of, load_yaml_or_report

#: File types ``data:`` may list.
SUFFIXES = (".yaml", ".yml", ".csv", ".xlsx")
#: A data file's name (its stem) as expressions write it after ``data.``.
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
#: How many files ``data:`` may list.
MAX_FILES = 64
_INT = re.compile(r"-?(?:0|[1-9][0-9]*)")
_DECIMAL = re.compile(r"-?[0-9]+\.[0-9]+")


class MissingKey(jinja2.UndefinedError):
    """An expression asked a data mapping for a key it does not have (a template error: Jinja lets it
    through its attribute lookup instead of turning it into a blank)."""


class DataMap(dict):
    """A mapping from a data file that knows where it is written. Reading a key it does not have
    (``item.colr``, ``data.crew``) raises :class:`MissingKey` with the closest key it has; ``get``, ``in``
    and iteration work as for any mapping."""

    where: str = "data"          # how an expression reaches it: data, a row of data.crew, ...
    source: str = ""             # file:line of the mapping ("" for ``data`` itself)

    def __missing__(self, key):
        keys = [str(k) for k in self]
        close = closest(key, keys)
        hint = f"; did you mean '{close}'?" if close else ""
        at = f" ({self.source})" if self.source else ""
        listed = ", ".join(keys[:12]) + (", ..." if len(keys) > 12 else "") if keys else "nothing"
        what = "game.yaml's data lists" if self.where == "data" else "it has"
        raise MissingKey(f"{self.where}{at} has no {excerpt(key)}{hint} ({what}: {listed})")

    def copy_with(self, items) -> "DataMap":
        """The same mapping (where it is written included) with other items: a template's escaped copy."""
        out = DataMap(items)
        out.where, out.source = self.where, self.source
        return out

    def __reduce__(self):       # a game goes to build workers by pickle: keep where it is written
        return (_rebuild, (dict(self), self.where, self.source))


def _rebuild(items, where, source) -> DataMap:
    out = DataMap(items)
    out.where, out.source = where, source
    return out


def empty() -> DataMap:
    """``data`` of a game that lists no data files."""
    return DataMap()


def load_data(root: Path, files, problems: Problems, game_path: Path, raw_game) -> DataMap:
    """``data`` from the files game.yaml's ``data`` lists; every problem goes to ``problems``."""
    out = DataMap()
    raw_list = raw_game.get("data") if isinstance(raw_game, dict) else None
    given: dict = {}
    if len(files) > MAX_FILES:
        problems.error(game_path, line_of(raw_game, "data"), None,
                       f"data: {len(files)} files; a game may list at most {MAX_FILES}")
        return out
    for i, name in enumerate(files):
        line = line_of(raw_list, i) or line_of(raw_game, "data")
        where = entry("data", name, i)
        path = data_path(root, name, problems, game_path, line, None, where)
        if path is None:
            continue
        suffix = path.suffix.lower()
        if suffix not in SUFFIXES:
            problems.error(game_path, line, None, f"{where}: {excerpt(name)} is not a .yaml, .csv or .xlsx file")
            continue
        stem = path.stem
        if not NAME.fullmatch(stem) or hasattr(dict, stem):
            why = ("is also the name of a method of every mapping" if NAME.fullmatch(stem) else
                   "is not a name an expression can write after 'data.' (letters, digits and '_', not first a "
                   "digit)")
            problems.error(game_path, line, None, f"{where}: {excerpt(name)}: its name {excerpt(stem)} {why}; "
                                                  f"rename the file")
            continue
        if stem in given:
            problems.error(game_path, line, None, f"{where}: {excerpt(name)} gives the name '{stem}', as "
                                                  f"{excerpt(given[stem])} does; rename one")
            continue
        given[stem] = name
        if not path.is_file():
            problems.error(game_path, line, None, f"{where}: no file {excerpt(name)} in the game folder")
            continue
        value = _read(root, path, problems)
        if value is not None:
            out[stem] = _wrap(value, f"data.{stem}", path, row="a row" if is_table(path) else "an entry")
    return out


def _read(root: Path, path: Path, problems: Problems):
    if is_table(path):
        try:
            rows = load_table(path, within=root)
        except DataError as exc:
            problems.extend(exc.problems)
            return None
        return _typed_rows(rows)
    before = len(problems.errors)
    raw = load_yaml_or_report(path, problems, within=root)
    if len(problems.errors) > before:
        return None
    if not isinstance(raw, (dict, list)):
        problems.error(path, getattr(raw, "line", None) or _first_line(path), None,
                       f"expected a mapping or a list, got {excerpt(raw) if raw is not None else 'an empty file'}")
        return None
    return raw


def _first_line(path: Path) -> int | None:
    """The line a file's only value starts on (the first that is not blank or a comment)."""
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    return next((i for i, text in enumerate(lines, 1) if text.strip() and not text.lstrip().startswith("#")), None)


def _typed_rows(rows: LineList) -> LineList:
    """A table's rows with their cells typed, and every column's key on every row (empty text if blank)."""
    first: dict = {}                     # key -> its column, for the header's order
    for row in rows:
        for key in row:
            column = getattr(row.key_lines.get(key), "column", 0)
            first[key] = min(first.get(key, column), column)
    columns = sorted(first, key=first.get)
    out = LineList()
    out.path, out.line, out.item_lines = rows.path, rows.line, list(rows.item_lines)
    for row in rows:
        typed = LineDict({key: _cell(row[key]) if key in row else "" for key in columns})
        typed.path, typed.line, typed.key_lines = row.path, row.line, dict(row.key_lines)
        out.append(typed)
    return out


def _cell(value):
    if isinstance(value, dict):
        return {k: _cell(v) for k, v in value.items()}
    if not isinstance(value, Text):
        return value
    text = value.strip()
    if _INT.fullmatch(text):
        return int(text)
    if _DECIMAL.fullmatch(text):
        return float(text)
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return str(value)


def _wrap(value, path: str, file: Path, label: str | None = None, row: str = "an entry"):
    """``value`` with every mapping a :class:`DataMap` that knows its file and line. ``path`` is how an
    expression reaches the value (``data.boards``, ``data.boards[].track``), ``label`` how a message names it
    (default: the path)."""
    if isinstance(value, dict):
        out = DataMap({k: _wrap(v, f"{path}.{k}" if NAME.fullmatch(str(k)) else f"{path}[{str(k)!r}]", file)
                       for k, v in value.items()})
        out.where = label or path
        line = getattr(value, "line", None)
        out.source = f"{file.name}:{int(line)}" if line is not None else file.name   # a row, not its cell
        return out
    if isinstance(value, list):
        return [_wrap(v, f"{path}[]", file, f"{row} of {path}") for v in value]
    return value
