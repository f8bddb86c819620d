"""Problems found in user input, reported all at once as ``file:line: subject: message``.

Every loader and checker appends :class:`Problem` objects to a list instead of raising on the first
one; the CLI prints them all and exits with status 2 (see :class:`DataError`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


def display_path(path: str | os.PathLike | None) -> str:
    """A path as the user would type it: relative to the working directory when below it."""
    if path is None:
        return "<input>"
    p = Path(path)
    try:     # realpath, not resolve(): a loop of links or an over-long name is shown, not raised
        return str(Path(os.path.realpath(p)).relative_to(os.path.realpath(os.getcwd())))
    except (ValueError, OSError):
        return str(p)


class Cell(int):
    """A row number (1-based, as a spreadsheet shows it) that also knows its column, printed ``ROW:COLUMN``
    (a problem's line in a ``.csv`` or ``.xlsx`` card list, :mod:`pnp.loading.tables`).

    It is an ``int`` so every place that takes a line number takes it; messages print both.
    """

    column: int

    def __new__(cls, row: int, column: int):
        obj = super().__new__(cls, row)
        obj.column = column
        return obj

    def __str__(self) -> str:
        return f"{int(self)}:{self.column}"

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        return str(self) if not spec else format(int(self), spec)

    def __reduce__(self):
        return (Cell, (int(self), self.column))


#: A message longer than this is cut: values quoted from data never fill the screen. Lines after a
#: message's first are a block pnp wrote itself (words to paste into a file), printed whole.
MAX_MESSAGE = 400


@dataclass(frozen=True)
class Problem:
    """One problem in the input: where it is (file, line, subject), what is wrong, and whether it is only a
    warning; printed as ``file:line: subject: message``."""

    path: str | None
    line: int | None
    subject: str | None
    message: str
    warning: bool = False

    def __str__(self) -> str:
        where = display_path(self.path) if self.path is not None else ""
        if self.line is not None:
            where += f":{self.line}"
        text = f"{where}: " if where else ""
        if self.warning:
            text += "warning: "
        if self.subject:
            text += f"{self.subject}: "
        message, newline, block = self.message.partition("\n")
        message = message if len(message) <= MAX_MESSAGE else message[:MAX_MESSAGE - 1] + "\u2026"
        return text + message + newline + block


class DataError(Exception):
    """Raised with every problem found, after a whole check has run."""

    def __init__(self, problems):
        self.problems = list(dict.fromkeys(problems))
        super().__init__("\n".join(str(p) for p in self.problems))

    def __reduce__(self):           # pickled with its problems (a build worker sends it back)
        return type(self), (self.problems,)


class UserError(Exception):
    """A single-line error the CLI shows as it is (bad option, missing game, ...)."""


def caused_by_ctrl_c(exc: BaseException) -> bool:
    """Whether ``exc`` is a KeyboardInterrupt that Python wrapped in another exception: on Python 3.11 a
    Ctrl-C that lands while a class is being created (a descriptor's ``__set_name__``, as every dataclass
    field has: any import of a module with dataclasses) comes out as ``RuntimeError: Error calling
    __set_name__``, caused by the KeyboardInterrupt. Such a Ctrl-C ends the command as any other does,
    not as an internal error."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__
    return False


class Problems(list):
    """A list of problems with helpers that keep call sites short. A problem found twice (a layout
    shared by two decks, say) is reported once: see :meth:`unique`."""

    def unique(self) -> list:
        return list(dict.fromkeys(self))

    def error(self, path, line, subject, message):
        self.append(Problem(str(path) if path else None, line, subject, message))

    def warn(self, path, line, subject, message):
        self.append(Problem(str(path) if path else None, line, subject, message, warning=True))

    @property
    def errors(self):
        return [p for p in self if not p.warning]

    @property
    def warnings(self):
        return [p for p in dict.fromkeys(self) if p.warning]

    def raise_if_errors(self):
        if self.errors:
            raise DataError(self)
