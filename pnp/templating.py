"""Rendering templates safely: every template pnp renders goes through :func:`environment`.

A template may come from a game folder someone downloaded, so:

* it runs in Jinja2's immutable sandbox, tightened (:class:`MarkupSandbox`): no attribute starting with
  ``_``, attributes only of data and plain values (so no path can be opened), no changing the data it
  is given, sizes kept sane (``range``, ``**``, ``*``, ``%``, padding) and at most
  :data:`RENDER_SECONDS` of running;
* it is found only inside the folders it was given (:class:`ConfinedLoader`): template names cannot
  climb out with ``..`` or an absolute path, and a symbolic link that leads outside its folder is refused;
* it sees the data as markup that prints as written (:func:`data_value`): every text in the render
  context, in containers and in dataclass fields (a Game, its cards...) is escaped with
  :func:`pnp.markup.escape`, and what a context function returns is escaped too. Only the template's
  own text, and :class:`~pnp.markup.Safe` values (pnp's printed-word strings, markup made by Python
  code), are markup;
* an error inside a template becomes a :class:`~pnp.errors.Problem` naming the template file and line
  (:func:`template_problem`), never a traceback.

Usage::

    env = environment((folder_a, folder_b))          # cached; pnp watch clears it
    text = render(env.get_template("cover.md.j2"), game=game, words=safe_words)
"""

from __future__ import annotations

import dataclasses
import functools
import operator
import os
import re
import signal
import string
import threading
import traceback
import weakref
from functools import lru_cache
from pathlib import Path

import jinja2
from jinja2.runtime import Macro
from jinja2.sandbox import ImmutableSandboxedEnvironment

from pnp.cache import reads_files
from pnp.errors import Problem
from pnp.markup import Safe, escape, icons_used, markup_problems

#: Largest number a template may compute with ``**`` and longest text or list it may build with ``*``.
MAX_POWER_RESULT_DIGITS = 100
MAX_REPEAT = 100_000


class ConfinedLoader(jinja2.FileSystemLoader):
    """A FileSystemLoader that refuses a template whose real path (links followed) leaves its folder.

    FileSystemLoader already refuses ``..`` in template names and keeps absolute names under the
    search path; this adds the check on symbolic links.
    """

    def __init__(self, roots, encoding: str = "utf-8"):
        super().__init__([str(r) for r in roots], encoding=encoding, followlinks=False)

    def get_source(self, environment, template):
        source, filename, uptodate = super().get_source(environment, template)
        real = Path(os.path.realpath(filename))
        # the roots' real paths now, as the search path is read now: a relative root (a game named by a
        # relative path) is the folder of the current working directory, which may have changed since
        real_roots = [Path(os.path.realpath(r)) for r in self.searchpath]
        if not any(real.is_relative_to(root) for root in real_roots):
            raise jinja2.TemplateNotFound(
                template, f"{template}: the file is a link that leads outside the template folder")
        return source, filename, uptodate


def data_value(value, memo: dict | None = None):
    """``value`` as a template may see it: every text in it escaped (:func:`pnp.markup.escape`).

    Text becomes :class:`~pnp.markup.Safe` markup (so converting twice changes nothing); lists, tuples,
    sets and mappings are copied with their items converted; a dataclass instance is copied with its
    fields converted, so its methods and properties work on escaped text; a function returns converted
    results; a path becomes its text. Anything else (numbers, None) passes unchanged.
    """
    memo = {} if memo is None else memo
    key = id(value)
    if key in memo:
        return memo[key][1]
    if isinstance(value, str):
        return value if isinstance(value, Safe) else escape(value)
    if isinstance(value, os.PathLike):
        return escape(os.fspath(value))     # a template may print a path, never open one
    if isinstance(value, (int, float, type(None))) or isinstance(value, type):
        return value
    memo[key] = (value, value)        # a cycle sees the unconverted value rather than looping
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [data_value(v, memo) for v in value]
        result = value if all(a is b for a, b in zip(items, value)) else \
            (list(items) if isinstance(value, list) else type(value)(items) if type(value) in (tuple, set, frozenset)
             else tuple(items))
    elif isinstance(value, dict):
        pairs = [(data_value(k, memo), data_value(v, memo)) for k, v in value.items()]
        same = all(k is k0 and v is v0 for (k, v), (k0, v0) in zip(pairs, value.items()))
        # a mapping that knows where it is written (pnp.datafiles.DataMap) keeps knowing it
        copy_with = getattr(type(value), "copy_with", None)
        result = value if same else copy_with(value, pairs) if copy_with else dict(pairs)
    elif dataclasses.is_dataclass(value):
        changes = {}
        for f in dataclasses.fields(value):
            if f.init:
                old = getattr(value, f.name)
                new = data_value(old, memo)
                if new is not old:
                    changes[f.name] = new
        result = dataclasses.replace(value, **changes) if changes else value
    elif isinstance(value, Macro):
        result = value
    elif callable(value):
        def escaped(*args, __func=value, **kwargs):
            return data_value(__func(*args, **kwargs))
        result = functools.update_wrapper(escaped, value) if hasattr(value, "__name__") else escaped
    else:
        result = value
    memo[key] = (value, result)       # keep value alive so its id is not reused during this conversion
    return result


#: Types whose attributes (and methods) a template may use, besides dataclass instances: text, numbers,
#: containers and Jinja2's own helpers. Anything else, such as a Path with its read_text() and
#: unlink(), is out of reach even when some data holds one.
SAFE_TYPES = (str, int, float, bool, type(None), list, tuple, dict, set, frozenset, range, Macro,
              jinja2.runtime.LoopContext, jinja2.utils.Namespace, jinja2.utils.Cycler, jinja2.utils.Joiner)
#: Text methods and filters that take a width or count, checked against MAX_REPEAT.
_WIDTH_METHODS = {"center", "ljust", "rjust", "zfill", "expandtabs"}
_PERCENT_WIDTH = re.compile(r"%[-+ #0]*(\*|\d+)?(?:\.(\*|\d+))?")


class MarkupSandbox(ImmutableSandboxedEnvironment):
    """Jinja2's immutable sandbox with more limits: attributes only of data (dataclasses) and plain
    values (:data:`SAFE_TYPES`); ``**``, ``*``, ``%``, padding methods and filters kept to sane sizes (a
    template cannot ask for a number with a million digits or a text of a billion characters)."""

    intercepted_binops = frozenset({"**", "*", "%"})

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.globals.pop("lipsum", None)            # lipsum(10**8) would only eat memory
        for name in ("center", "indent", "format", "slice", "batch", "wordwrap", "truncate"):
            self.filters[name] = _bounded_filter(self.filters[name])

    def is_safe_attribute(self, obj, attr, value) -> bool:
        if not super().is_safe_attribute(obj, attr, value):
            return False
        return isinstance(obj, SAFE_TYPES) or (dataclasses.is_dataclass(obj) and not isinstance(obj, type))

    def wrap_str_format(self, value):
        wrapped = super().wrap_str_format(value)
        if wrapped is not None:
            _check_format(value.__self__)
        return wrapped

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 (jinja2's own signature)
        if getattr(__obj, "__name__", "") in _WIDTH_METHODS and isinstance(getattr(__obj, "__self__", None), str):
            _check_size(*args, *kwargs.values())
        return super().call(__context, __obj, *args, **kwargs)

    def call_binop(self, context, operator_name, left, right):
        if operator_name == "**":
            if isinstance(left, (int, float)) and isinstance(right, (int, float)) and abs(right) > 1 \
                    and abs(left) > 1 and abs(right) * len(str(int(abs(left)))) > MAX_POWER_RESULT_DIGITS:
                raise jinja2.exceptions.SecurityError(f"{left!r} ** {right!r} is too large a number")
            return operator.pow(left, right)
        if operator_name == "*":
            for seq, times in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(times, int) \
                        and len(seq) * times > MAX_REPEAT:
                    raise jinja2.exceptions.SecurityError(f"repeating to {len(seq) * times} items is too long")
            return operator.mul(left, right)
        if operator_name == "%" and isinstance(left, str):
            _check_percent(left)
        return super().call_binop(context, operator_name, left, right)


def _check_size(*values) -> None:
    for v in values:
        if isinstance(v, int) and not isinstance(v, bool) and abs(v) > MAX_REPEAT:
            raise jinja2.exceptions.SecurityError(f"a width or count of {v} is too large")
        if isinstance(v, str) and len(v) > MAX_REPEAT:
            raise jinja2.exceptions.SecurityError("a text argument is too long")


def _check_percent(text: str) -> None:
    for width, precision in _PERCENT_WIDTH.findall(text):
        for part in (width, precision):
            if part == "*" or (part and int(part) > 1000):
                raise jinja2.exceptions.SecurityError("a %-format width or precision is too large")


def _check_format(text: str) -> None:
    """Refuse ``str.format`` fields with a width or precision above 1000 or taken from an argument."""
    try:
        fields = [spec for _, _, spec, _ in string.Formatter().parse(text) if spec]
    except ValueError:
        return                                    # format() itself will say what is wrong
    for spec in fields:
        if "{" in spec or any(int(n) > 1000 for n in re.findall(r"\d+", spec)):
            raise jinja2.exceptions.SecurityError("a format width or precision is too large")


def _bounded_filter(func):
    @functools.wraps(func)
    def bounded(*args, **kwargs):
        _check_size(*args[1:], *kwargs.values())
        if func.__name__ == "do_format" and args and isinstance(args[0], str):
            _check_percent(args[0])
        return func(*args, **kwargs)
    return bounded


@reads_files
@lru_cache(maxsize=None)
def environment(roots: tuple, trim: bool = True, keep_trailing_newline: bool = True) -> MarkupSandbox:
    """The sandboxed environment for templates found in ``roots`` (in order: the first folder that has a
    template name wins). ``trim`` sets Jinja2's trim_blocks and lstrip_blocks."""
    return MarkupSandbox(loader=ConfinedLoader(roots), undefined=jinja2.StrictUndefined, autoescape=False,
                         trim_blocks=trim, lstrip_blocks=trim, keep_trailing_newline=keep_trailing_newline)


class TemplateTimeout(jinja2.TemplateRuntimeError):
    """A template ran longer than :data:`RENDER_SECONDS`."""


#: How long one template may run (a loop inside a loop of 100,000 steps each would take hours).
RENDER_SECONDS = 20.0


def render(template: jinja2.Template, **context) -> Safe:
    """``template`` rendered with ``context`` seen through :func:`data_value`: markup.

    On the main thread (every pnp command), a template running longer than :data:`RENDER_SECONDS`
    stops with :class:`TemplateTimeout`.
    """
    return renderer(**context)(template)


def renderer(**context):
    """A function rendering templates with ``context``, converted by :func:`data_value` once (a rulebook
    renders a dozen chapters with the same game; the immutable sandbox keeps templates from changing it).
    A ``game`` in the context is converted once per game object, whatever renders it (the rulebook,
    the instructions, each deck's player aid in its check and on its sheet)."""
    game = context.get("game")
    memo = dict(_converted(game)) if game is not None else {}
    values = {k: data_value(v, memo) for k, v in context.items()}

    def run(template: jinja2.Template) -> Safe:
        with _deadline(RENDER_SECONDS):
            return Safe(template.render(**values))
    return run


_CONVERTED: dict = {"game": None, "memo": {}}


def _converted(game) -> dict:
    """The :func:`data_value` memo of ``game`` converted (kept for the game object last seen: loaded
    data is frozen, and a game loaded again is another object). The memo keeps every converted object
    alive, so no id in it can stand for a newer object."""
    owner = _CONVERTED["game"]
    if owner is None or owner() is not game:
        memo = {}
        data_value(game, memo)
        try:
            _CONVERTED.update(game=weakref.ref(game), memo=memo)
        except TypeError:           # not a loaded game (a test's stand-in): converted for this render only
            return memo
    return _CONVERTED["memo"]


def game_part(game, value):
    """``value``, a part of ``game`` (its ``data``, say), as templates see it: converted by
    :func:`data_value` with the whole game, once per game object."""
    return data_value(value, _converted(game))


class _deadline:
    """Raise TemplateTimeout in the main thread after ``seconds`` (SIGALRM); elsewhere, no limit."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.armed = (threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
                      and signal.getitimer(signal.ITIMER_REAL)[0] == 0)

    def _expired(self, signum, frame):
        raise TemplateTimeout(f"the template ran for more than {self.seconds:g} s (a loop without end?)")

    def __enter__(self):
        if self.armed:
            self.previous = signal.signal(signal.SIGALRM, self._expired)
            signal.setitimer(signal.ITIMER_REAL, self.seconds)
        return self

    def __exit__(self, *exc):
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)
        return False


def call_macro(macro, *args) -> Safe:
    """A template macro called from Python, its arguments escaped as data: its markup."""
    memo = {}
    values = [data_value(a, memo) for a in args]
    with _deadline(RENDER_SECONDS):
        return Safe(macro(*values))


#: Errors a template can raise while it renders (its own mistakes, not pnp's).
TEMPLATE_ERRORS = (jinja2.TemplateError, ArithmeticError, TypeError, ValueError, LookupError, AttributeError,
                   RecursionError)


def template_problem(exc: BaseException, template_file=None, subject: str | None = "template") -> Problem:
    """A template's error as a problem at the template's file and line (the innermost template frame)."""
    path, line = template_file, None
    if isinstance(exc, jinja2.TemplateSyntaxError):
        path, line = exc.filename or template_file, exc.lineno
        message = f"template syntax error: {exc.message}"
    elif isinstance(exc, jinja2.TemplateNotFound):
        message = exc.message if exc.message and exc.message != exc.name else f"no template {exc.name}"
    else:
        for frame in traceback.extract_tb(exc.__traceback__):
            if frame.filename.endswith(".j2"):
                path, line = frame.filename, frame.lineno
        if isinstance(exc, jinja2.UndefinedError):
            message = f"undefined value: {exc.message}"
        elif isinstance(exc, jinja2.exceptions.SecurityError):
            message = f"not allowed in a template: {exc}"
        elif isinstance(exc, jinja2.TemplateError):
            message = exc.message or type(exc).__name__
        elif isinstance(exc, RecursionError):
            message = "the template calls itself without end"
        else:
            message = f"{type(exc).__name__}: {exc}"
    return Problem(str(path) if path else None, line, subject, message[:300])


def markup_problems_in(markup: str, template_file, subject: str | None, problems, icons=None) -> None:
    """Report what drawing ``markup`` (a template's output) would get wrong (unknown icons, bad
    ``[pips:N]``; ``icons``: the names the game has) at the template's file, on the first line that
    writes the offending icon."""
    try:
        source = Path(template_file).read_text(encoding="utf-8").splitlines() if template_file else []
    except (OSError, UnicodeDecodeError):
        source = []
    seen = set()
    for name, arg in icons_used(markup):
        written = f"[{name}{':' + arg if arg is not None else ''}]"
        for message in markup_problems(written, *([icons] if icons is not None else [])):
            if message in seen:
                continue
            seen.add(message)
            needle = written[:-1]
            line = next((i for i, text in enumerate(source, 1) if needle in text), None)
            problems.error(template_file, line, subject, message)
