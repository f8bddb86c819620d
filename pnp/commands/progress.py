"""Progress bars for long commands: on a terminal only, so piped output stays clean."""

from __future__ import annotations

import contextlib
import sys

import click


@contextlib.contextmanager
def progress_bar(length: int, label: str):
    """A click progress bar on stderr when it is a terminal, nothing otherwise (results go to stdout, so
    piped output stays clean). Yields ``step(item=None)``: one unit done, ``item`` shown beside the bar."""
    if length and sys.stderr.isatty():
        with click.progressbar(length=length, label=label, file=sys.stderr,
                               item_show_func=lambda item: str(item) if item is not None else None) as bar:
            yield lambda item=None: bar.update(1, item)
    else:
        yield lambda item=None: None
