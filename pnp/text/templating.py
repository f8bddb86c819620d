"""Rendering templates safely: every template pnp renders goes through :func:`environment`.

A template may come from a game folder someone downloaded, so:

* it runs in Jinja2's immutable sandbox, tightened (:class:`MarkupSandbox`): no attribute starting with
  ``_``, attributes only of data and plain values (so no path can be opened), no changing the data it
  is given;
* every render is bounded (:class:`Budget`, the limits below): the time it runs, the steps it takes
  (loop turns, calls, filters, tests, lookups), what it prints, and the size of every text, list and
  number it makes. Each operation is checked *before* it runs (``'x' * n``, ``replace``, ``join``,
  ``~``, list literals, ``sum``, ``product``...), so no single one can take long or fill the memory, and
  the clock is read between operations: the limits hold on any thread, not only where a signal can
  interrupt. A breach is a :class:`TemplateLimit` at the template's file and line;
* it prints only text, numbers and lists or mappings of them (:func:`text_size`): a path (``game.root``),
  a data object (an ``IconSet``, a ``Game``) or a Python object's ``repr`` never reaches the output;
* it is found only inside the folders it was given (:class:`ConfinedLoader`): template names cannot
  climb out with ``..`` or an absolute path, and a symbolic link that leads outside its folder is refused;
* it sees the data as markup that prints as written (:func:`data_value`): every text in the render
  context, in containers and in dataclass fields (a Game, its cards...) is escaped with
  :func:`pnp.text.markup.escape`, and what a context function returns is escaped too. Only the template's
  own text, and :class:`~pnp.text.markup.Safe` values (pnp's printed-word strings, markup made by Python
  code), are markup;
* an error inside a template becomes a :class:`~pnp.errors.Problem` naming the template file and line
  (:func:`template_problem`), never a traceback.

Usage::

    env = environment((folder_a, folder_b))          # cached; pnp watch clears it
    text = render(env.get_template("cover.md.j2"), game=game, words=safe_words)
"""

from __future__ import annotations

import contextvars
import dataclasses
import functools
import itertools
import operator
import os
import re
import signal
import string
import threading
import time
import traceback
import weakref
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

import jinja2
from jinja2 import nodes
from jinja2.compiler import CodeGenerator
from jinja2.runtime import Macro, Undefined
from jinja2.sandbox import ImmutableSandboxedEnvironment

from pnp.text import grammar
from pnp.cache.memo import reads_files
from pnp.errors import Problem
from pnp.text.markup import MarkupError, Safe, escape, icons_used, inline_texts, markup_problems, open_emphasis, parse

#: Largest number a template may compute with ``**`` (digits) and with ``*`` or ``+`` (bits).
MAX_POWER_RESULT_DIGITS = 100
MAX_INT_BITS = 4096
#: Largest width or count a template may pass to padding methods and filters (``center``, ``indent``...).
MAX_REPEAT = 100_000
#: Longest text one operation of a template may make (characters).
MAX_TEXT = 1_000_000
#: Most items a list, tuple or mapping a template makes may hold, nested items counted each time they
#: appear (``[x] * 1000`` where ``x`` has 1,000 items holds a million).
MAX_ITEMS = 100_000
#: Most a render may print (characters; "1 MB").
MAX_OUTPUT = 1_000_000
#: Most text the operations of one render may make in all, printed or not (characters; "50 MB"): what
#: bounds the memory of a render as RENDER_SECONDS bounds its time (a filter mapped over a long list makes
#: each of its texts within MAX_TEXT, and all of them together within this).
MAX_MADE = 50_000_000
#: Most steps one render may take: loop turns, calls, filters, tests and lookups, plus the items that
#: checks and conversions walk.
MAX_STEPS = 5_000_000
#: Most times one region of a layout may repeat (``for:``).
MAX_REGION_REPEATS = 10_000
#: How long one render may run, in seconds.
RENDER_SECONDS = 20.0


class ConfinedLoader(jinja2.FileSystemLoader):
    """A FileSystemLoader that reads templates only from inside their folder's home: pnp's own
    ``templates/``, or the game folder a ``<game>/templates/...`` folder belongs to.

    FileSystemLoader already refuses ``..`` in template names and keeps absolute names under the
    search path; this adds the check on symbolic links, on the way *to* each search folder as well as
    to each file: a ``templates/`` or ``templates/rulebook/en`` that is itself a link to a folder outside
    the game is refused (its real path, not only the files' real paths relative to it, must stay home).
    Links that stay inside are fine, as for data files.
    """

    def __init__(self, roots, encoding: str = "utf-8"):
        super().__init__([str(r) for r in roots], encoding=encoding, followlinks=False)

    def get_source(self, environment, template):
        # real paths now, as the search path is read now: a relative root (a game named by a relative
        # path) is the folder of the current working directory, which may have changed since
        homes = [(Path(r), Path(os.path.realpath(_home(Path(r))))) for r in self.searchpath]
        for root, home in homes:
            if not Path(os.path.realpath(root)).is_relative_to(home):
                shown = root.relative_to(_home(root)).as_posix() if root.is_relative_to(_home(root)) else root.name
                raise jinja2.TemplateNotFound(
                    template, f"{template}: the template folder {shown} is a link that leads outside the "
                              f"game folder")
        source, filename, uptodate = super().get_source(environment, template)
        real = Path(os.path.realpath(filename))
        if not any(real.is_relative_to(home) for _, home in homes):
            raise jinja2.TemplateNotFound(
                template, f"{template}: the file is a link that leads outside the template folder")
        return source, filename, uptodate


def _home(root: Path) -> Path:
    """The folder a template folder belongs to: pnp's own templates folder, else the game folder (the
    one holding the ``templates`` folder on its way), else the folder itself."""
    from pnp import TEMPLATES_DIR

    if Path(root).is_relative_to(TEMPLATES_DIR):
        return Path(TEMPLATES_DIR)
    parts = Path(root).parts
    if "templates" in parts:
        index = len(parts) - 1 - parts[::-1].index("templates")
        return Path(*parts[:index]) if index else Path(root)
    return Path(root)


class MachinePath:
    """A path in the data as a template sees it: only its ``name`` (escaped text) and whether it is set.

    Printing it is refused (:func:`text_size`): a kit shared online must not carry the builder's folders.
    """

    __slots__ = ("_path",)

    def __init__(self, path: str):
        self._path = path

    @property
    def name(self) -> str:
        return escape(os.path.basename(self._path))

    def __bool__(self) -> bool:
        return bool(self._path)

    def __eq__(self, other) -> bool:
        return isinstance(other, MachinePath) and other._path == self._path

    def __hash__(self) -> int:
        return hash(self._path)

    def __repr__(self) -> str:
        return "<a path>"


#: Values :func:`data_value` passes unchanged, by their exact type.
_UNCHANGED = frozenset((int, float, bool, type(None)))
#: Containers :func:`data_value` copies, by their exact type.
_CONTAINERS = frozenset((list, tuple, dict, set, frozenset))


@lru_cache(maxsize=65536)
def _escaped(text: str) -> Safe:
    """:func:`escape` of a plain text, kept: a game's card ids and field names come back thousands of times
    in what :func:`data_value` converts (a deck's ``field_lines``, ``sources``)."""
    return escape(text)


def _item(value, memo: dict):
    """:func:`data_value` of an item of a list or mapping: a plain text or number (no memo holds one: it
    keeps containers and objects alive, by their ids) without the memo's look-up."""
    kind = type(value)
    if kind is str:
        return _escaped(value)
    if kind in _UNCHANGED:
        return value
    if kind is tuple and len(value) <= _SHORT:
        # a short tuple of texts and numbers (a (card id, key) of the game's field_lines: 100,000 of them
        # at 20,000 cards) is converted as data_value would, without the memo: no cycle can pass through
        # it, and a copy is as good as the copy made once (a template cannot tell them apart but by `is`)
        for v in value:
            if type(v) is not str and type(v) not in _UNCHANGED:
                return data_value(value, memo)
        items = tuple([_escaped(v) if type(v) is str else v for v in value])
        return value if all(map(operator.is_, items, value)) else items
    return data_value(value, memo)


#: The longest tuple :func:`_item` converts without the memo.
_SHORT = 4


#: The names of each dataclass's ``__init__`` fields, by its type (None: not a dataclass), for
#: :func:`data_value` (``dataclasses.fields`` walked every field of every card again).
_INIT_FIELDS: dict = {}


def _init_fields(kind: type) -> tuple | None:
    try:
        return _INIT_FIELDS[kind]
    except KeyError:
        names = tuple(f.name for f in dataclasses.fields(kind) if f.init) if dataclasses.is_dataclass(kind) else None
        _INIT_FIELDS[kind] = names
        return names


def data_value(value, memo: dict | None = None):
    """``value`` as a template may see it: every text in it escaped (:func:`pnp.text.markup.escape`).

    Text becomes :class:`~pnp.text.markup.Safe` markup (so converting twice changes nothing); lists, tuples,
    sets and mappings are copied with their items converted; a dataclass instance is copied with its
    fields converted, so its methods and properties work on escaped text; a function returns converted
    results; a path becomes a :class:`MachinePath` (its name only: where the game lies on the builder's
    computer is not the game's data). Anything else (numbers, None) passes unchanged.
    """
    memo = {} if memo is None else memo
    key = id(value)
    if key in memo:
        return memo[key][1]
    if type(value) not in _CONTAINERS:  # (a plain list, tuple or mapping is none of these: not asked, the
        if isinstance(value, str):      # path's check, an ABC's, was a fifth of converting a large game)
            return value if isinstance(value, Safe) else escape(value)
        if isinstance(value, os.PathLike):
            return MachinePath(os.fspath(value))     # a template may not open a path, nor print one
        if isinstance(value, (int, float, type(None))) or isinstance(value, type):
            return value
    memo[key] = (value, value)        # a cycle sees the unconverted value rather than looping
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [_item(v, memo) for v in value]
        result = value if all(map(operator.is_, items, value)) else \
            (list(items) if isinstance(value, list) else type(value)(items) if type(value) in (tuple, set, frozenset)
             else tuple(items))
    elif isinstance(value, dict):
        keys, values = [], []
        for k, v in value.items():          # each key converted before its value, as they come
            keys.append(_item(k, memo))
            values.append(_item(v, memo))
        same = all(map(operator.is_, keys, value)) and all(map(operator.is_, values, value.values()))
        # a mapping that knows where it is written (pnp.loading.datafiles.DataMap) keeps knowing it
        copy_with = getattr(type(value), "copy_with", None)
        result = value if same else copy_with(value, list(zip(keys, values))) if copy_with else dict(zip(keys, values))
    elif (names := _init_fields(type(value))) is not None:
        changes = {}
        for name in names:
            old = getattr(value, name)
            new = _item(old, memo)
            if new is not old:
                changes[name] = new
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
SAFE_TYPES = (str, int, float, bool, type(None), list, tuple, dict, set, frozenset, range, Macro, MachinePath,
              jinja2.runtime.LoopContext, jinja2.utils.Namespace, jinja2.utils.Cycler, jinja2.utils.Joiner)
#: Text methods and filters that take a width or count, checked against MAX_REPEAT.
_WIDTH_METHODS = {"center", "ljust", "rjust", "zfill", "expandtabs"}
_PERCENT_WIDTH = re.compile(r"%[-+ #0]*(\*|\d+)?(?:\.(\*|\d+))?")
#: Text methods a template may not call (they multiply a text by a table's entries).
_REFUSED_METHODS = {"translate", "maketrans"}


# ----------------------------------------------------------------------------- the limits of one render

class TemplateLimit(jinja2.TemplateRuntimeError):
    """A render went past one of the limits (time, steps, output, a text or list too large)."""


class TemplateTimeout(TemplateLimit):
    """A template ran longer than :data:`RENDER_SECONDS`."""


class Budget:
    """What one render has used: steps, characters printed, and when its time is up."""

    __slots__ = ("deadline", "seconds", "steps", "printed", "made")

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds
        self.steps = 0
        self.printed = 0
        self.made = 0

    def spend(self, steps: int = 1) -> None:
        self.steps += steps
        if self.steps > MAX_STEPS:
            raise TemplateLimit(f"this template took more than {MAX_STEPS:,} steps (a loop without end, or "
                                f"loops inside loops?)")
        if time.monotonic() > self.deadline:
            raise TemplateTimeout(f"the template ran for more than {self.seconds:g} s (a loop without end?)")

    def print(self, characters: int) -> None:
        self.printed += characters
        if self.printed > MAX_OUTPUT:
            raise TemplateLimit(f"this template printed more than {MAX_OUTPUT / 1e6:g} MB")

    def make(self, characters: int) -> None:
        self.made += characters
        if self.made > MAX_MADE:
            raise TemplateLimit(f"this template made more than {MAX_MADE / 1e6:g} MB of text (a filter over a "
                                f"long list, or texts made in a loop?)")


_BUDGET: contextvars.ContextVar = contextvars.ContextVar("pnp_template_budget", default=None)


class limits:
    """``with limits() as budget:`` one render's limits (:class:`Budget`) for the code inside: templates
    rendered and expressions evaluated in it share them. Inside another ``limits()``, the outer budget
    goes on. (A class rather than a generator's context manager: a deck's check opens one per card.)"""

    __slots__ = ("token", "deadline")

    def __enter__(self) -> Budget:
        outer = _BUDGET.get()
        if outer is not None:
            self.token = None
            return outer
        budget = Budget(RENDER_SECONDS)
        self.token = _BUDGET.set(budget)
        try:
            self.deadline = _deadline(RENDER_SECONDS + 5)   # the main thread's backstop, should one step run long
            self.deadline.__enter__()
        except BaseException:
            _BUDGET.reset(self.token)
            raise
        return budget

    def __exit__(self, *exc) -> bool:
        if self.token is not None:
            try:
                self.deadline.__exit__(*exc)
            finally:
                _BUDGET.reset(self.token)
        return False


@contextmanager
def paused():
    """Time spent in the block does not count against the current render's time limit (nor its backstop
    alarm): for loading, once per process, a library a filter needs (``inflect``, whose import takes
    seconds on a loaded machine), which is no work of the template's."""
    budget = _BUDGET.get()
    alarm = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
    remaining = signal.setitimer(signal.ITIMER_REAL, 0)[0] if alarm else 0.0
    start = time.monotonic()
    try:
        yield
    finally:
        if budget is not None:
            budget.deadline += time.monotonic() - start
        if remaining:
            signal.setitimer(signal.ITIMER_REAL, remaining)


def budget_used() -> tuple | None:
    """(steps, characters printed, characters made) of the current render so far; None outside
    :func:`limits`."""
    budget = _BUDGET.get()
    return None if budget is None else (budget.steps, budget.printed, budget.made)


def spend_again(steps: int, made: int) -> bool:
    """Count against the current render what working a value out took before (``steps``, characters
    ``made``), for a value kept from then; False, counting nothing, when both limits would be passed (which
    one the render meets first is for working it out again to say)."""
    budget = _BUDGET.get()
    if budget is None:
        return True
    if budget.steps + steps > MAX_STEPS and budget.made + made > MAX_MADE:
        return False
    if steps:
        budget.spend(steps)
    if made:
        budget.make(made)
    return True


def spend(steps: int = 1) -> None:
    """Count ``steps`` against the current render's budget (none outside :func:`limits`)."""
    budget = _BUDGET.get()
    if budget is not None:
        budget.spend(steps)


def made(value):
    """``value``, a text an operation just made, counted against the current render's :data:`MAX_MADE`."""
    if isinstance(value, str):
        budget = _BUDGET.get()
        if budget is not None:
            budget.make(len(value))
    return value


def _kind(value) -> str:
    if isinstance(value, MachinePath):
        return "a path (where a file lies on this computer)"
    if isinstance(value, Macro):
        return "a macro (call it to print what it makes)"
    if callable(value) and not isinstance(value, type):
        return "a function"
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name} object"


def text_size(value, limit: int = MAX_TEXT) -> int:
    """How many characters ``str(value)`` makes (about: texts inside lists count their quotes), after
    checking that it may be printed: text, numbers, booleans, None, and lists, tuples, sets and mappings of
    them. Anything else (a path, a data object, a function) raises SecurityError; a result longer than
    ``limit`` raises :class:`TemplateLimit` before any text is made."""
    if isinstance(value, str):
        if len(value) > limit:
            raise TemplateLimit(f"a text of more than {limit:,} characters")
        return len(value)
    total, walked, stack = 0, 0, [(value, False)]
    while stack:
        item, inner = stack.pop()
        walked += 1
        if isinstance(item, str):
            total += len(item) + (4 if inner else 0)
        elif isinstance(item, bool) or item is None:
            total += 5
        elif isinstance(item, int):
            if item.bit_length() > MAX_INT_BITS:
                raise TemplateLimit(f"a number of more than {MAX_INT_BITS} bits")
            total += item.bit_length() // 3 + 2
        elif isinstance(item, (float, range)):
            total += 24
        elif isinstance(item, Undefined):
            str(item)                      # a strict undefined says what is missing
        elif isinstance(item, (list, tuple, set, frozenset)):
            total += 2
            stack.extend((v, True) for v in item)
        elif isinstance(item, dict):
            total += 2
            for k, v in item.items():
                stack.append((k, True))
                stack.append((v, True))
        else:
            raise jinja2.exceptions.SecurityError(f"printing {_kind(item)}; a template prints text, numbers "
                                                  f"and lists of them")
        if total > limit:
            raise TemplateLimit(f"a text of more than {limit:,} characters")
        if walked > limit:
            raise TemplateLimit(f"a list of more than {limit:,} items")
    spend(walked)
    return total


def item_count(value, limit: int = MAX_ITEMS) -> int:
    """How many items ``value`` (a list, tuple, set or mapping) holds, nested ones counted each time they
    appear; :class:`TemplateLimit` past ``limit``. Texts and other values count one."""
    total, stack = 0, [value]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple, set, frozenset)):
            total += len(item)
            stack.extend(v for v in item if isinstance(v, (list, tuple, set, frozenset, dict)))
        elif isinstance(item, dict):
            total += 2 * len(item)
            stack.extend(v for v in itertools.chain(item.keys(), item.values())
                         if isinstance(v, (list, tuple, set, frozenset, dict)))
        if total > limit:
            raise TemplateLimit(f"a list of more than {limit:,} items")
    spend(1 + total // 64)
    return total


def _check_int(value) -> None:
    if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
        raise TemplateLimit(f"a number of more than {MAX_INT_BITS} bits")


def product(*lists) -> list:
    """Every combination of the lists' items, as tuples (``product(rows, columns)``), at most
    :data:`MAX_ITEMS` of them."""
    lists = [list(values) for values in lists]
    count = 1
    for values in lists:
        count *= len(values)
        if count > MAX_ITEMS:
            raise TemplateLimit(f"product() of more than {MAX_ITEMS:,} combinations")
    spend(count)
    return list(itertools.product(*lists))


def loop_items(values, limit: int = MAX_REGION_REPEATS) -> list:
    """The items of a layout's ``for:`` (a list), one step each; :class:`TemplateLimit` past ``limit``."""
    out = []
    for value in values or ():
        out.append(value)
        spend()
        if len(out) > limit:
            raise TemplateLimit(f"a region may repeat at most {limit:,} times")
    return out


def _ticking(iterable, budget: Budget):
    for value in iterable:
        budget.spend()
        yield value


# ----------------------------------------------------------------------------- the sandbox

class BoundedCodeGenerator(CodeGenerator):
    """Jinja2's code generator, making every loop turn, ``~``, list, tuple and mapping of a template go
    through the environment's checks (``environment.pnp_*``), and counting the template's own text as it
    is printed."""

    def visit_Template(self, node, frame=None):
        for loop in node.find_all(nodes.For):
            loop.iter = nodes.Call(nodes.EnvironmentAttribute("pnp_loop"), [loop.iter], [], None, None,
                                   lineno=loop.iter.lineno)
        super().visit_Template(node, frame)

    def visit_Output(self, node, frame):
        constant = sum(len(child.data) for child in node.nodes if isinstance(child, nodes.TemplateData))
        if constant and not (frame.require_output_check and self.has_known_extends):
            self.writeline(f"environment.pnp_printed({constant})")
        super().visit_Output(node, frame)

    def visit_Concat(self, node, frame):
        self.write("environment.pnp_concat((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")

    def _made(self, visit, node, frame):
        if getattr(node, "ctx", "load") != "load":
            return visit(node, frame)
        self.write("environment.pnp_made(")
        visit(node, frame)
        self.write(")")

    def visit_List(self, node, frame):
        self._made(super().visit_List, node, frame)

    def visit_Tuple(self, node, frame):
        self._made(super().visit_Tuple, node, frame)

    def visit_Dict(self, node, frame):
        self._made(super().visit_Dict, node, frame)


class _TemplateReads(threading.local):
    def __init__(self):
        self.stack: list = []


_TEMPLATE_READS = _TemplateReads()


class template_reads:
    """``with template_reads() as names:`` the templates asked for by name on this thread in the block,
    each (its environment's folders, its name), are added to the set ``names``: what a piece of work read
    of the templates, to key it by their bytes (:func:`templates_stamp`). A memo of work that reads
    templates notes what it read again when it answers from memory (:func:`note_templates`)."""

    def __enter__(self) -> set:
        self.names: set = set()
        _TEMPLATE_READS.stack.append(self.names)
        return self.names

    def __exit__(self, *exc):
        _TEMPLATE_READS.stack.pop()
        if _TEMPLATE_READS.stack:
            _TEMPLATE_READS.stack[-1].update(self.names)


def note_templates(names) -> None:
    """Note ``names`` ((folders, name) pairs) as read by the innermost :class:`template_reads` block."""
    if _TEMPLATE_READS.stack:
        _TEMPLATE_READS.stack[-1].update(names)


_TEMPLATE_FILES = None


def templates_stamp(names) -> tuple:
    """What says the templates ``names`` ((folders, name) pairs) are unchanged: for each, in every folder
    it would be looked for in, the digest of the file's bytes ("missing" when it has none) and where it
    leads (a template found in a later folder changes when one appears in an earlier one)."""
    global _TEMPLATE_FILES
    from pnp.cache.buildcache import FileDigests

    if _TEMPLATE_FILES is None:
        _TEMPLATE_FILES = FileDigests()
    out = []
    for roots, name in sorted(names):
        for root in roots:
            path = os.path.join(root, *name.split("/"))
            out.append((path, _TEMPLATE_FILES(path), os.path.realpath(path)))
    return tuple(out)


class MarkupSandbox(ImmutableSandboxedEnvironment):
    """Jinja2's immutable sandbox with more limits: attributes only of data (dataclasses) and plain
    values (:data:`SAFE_TYPES`); every operation that makes a text, a list or a number checked against
    the limits before it runs; steps and output counted against the render's :class:`Budget`; only text,
    numbers and lists of them printed (a template cannot ask for a number with a million digits, a text of
    a billion characters, or the place of a file)."""

    intercepted_binops = frozenset({"**", "*", "%", "+"})
    code_generator_class = BoundedCodeGenerator

    def _load_template(self, name, globals):
        """Every template asked for by name (get, select, include, import, extends; found or not) is noted
        by the :class:`template_reads` blocks open on this thread."""
        if _TEMPLATE_READS.stack:
            note_templates([(tuple(getattr(self.loader, "searchpath", ())), name)])
        return super()._load_template(name, globals)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, finalize=_printed, **kwargs)
        self.globals.pop("lipsum", None)            # lipsum(10**8) would only eat memory
        for name in ("center", "indent", "format", "slice", "batch", "wordwrap", "truncate"):
            self.filters[name] = _bounded_filter(self.filters[name])
        self.filters["sum"] = _sum
        self.filters.update(grammar.filters())        # {{ card|a }}, {{ card|al }}: articles from the data
        self.filters = {name: _guarded_filter(name, func) for name, func in self.filters.items()}

    # -- what generated code calls (BoundedCodeGenerator)

    def pnp_loop(self, iterable):
        budget = _BUDGET.get()
        return iterable if budget is None else _ticking(iterable, budget)

    @staticmethod
    def pnp_printed(characters: int) -> None:
        budget = _BUDGET.get()
        if budget is not None:
            budget.print(characters)

    @staticmethod
    def pnp_concat(values):
        total = 0
        for value in values:
            total += text_size(value)
            if total > MAX_TEXT:
                raise TemplateLimit(f"a text of more than {MAX_TEXT:,} characters")
        return made("".join(map(str, values)))

    @staticmethod
    def pnp_made(value):
        item_count(value)
        return value

    # -- the sandbox's own hooks

    def is_safe_attribute(self, obj, attr, value) -> bool:
        if not super().is_safe_attribute(obj, attr, value):
            return False
        return isinstance(obj, SAFE_TYPES) or (dataclasses.is_dataclass(obj) and not isinstance(obj, type))

    def getattr(self, obj, attribute):
        spend()
        return super().getattr(obj, attribute)

    def getitem(self, obj, argument):
        spend()
        return super().getitem(obj, argument)

    def wrap_str_format(self, value):
        wrapped = super().wrap_str_format(value)
        if wrapped is not None:
            _check_format(value.__self__)

            def checked(*args, **kwargs):
                _check_texts(value.__self__, *args, *kwargs.values())
                return wrapped(*args, **kwargs)
            return checked
        return wrapped

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 (jinja2's own signature)
        spend()
        text = getattr(__obj, "__self__", None)
        if isinstance(text, str):
            name = getattr(__obj, "__name__", "")
            if name in _WIDTH_METHODS:
                _check_size(*args, *kwargs.values())
                if name == "expandtabs":
                    _check_made(len(text) + text.count("\t") * _width(args[0] if args else kwargs.get("tabsize", 8)),
                                "expandtabs()")
            elif name in _REFUSED_METHODS:
                raise jinja2.exceptions.SecurityError(f"a template may not call {name}()")
            elif name == "replace":
                _check_replace(text, *args, **kwargs)
            elif name == "join" and args:
                if not isinstance(args[0], (list, tuple, set, frozenset, dict, str)):
                    args = (loop_items(args[0], MAX_ITEMS), *args[1:])      # a generator: its items, counted
                _check_join(text, args[0])
        return made(super().call(__context, __obj, *args, **kwargs))

    def call_test(self, name, value, args=None, kwargs=None, context=None, eval_ctx=None):
        spend(1 + (len(args[0]) if name == "in" and args and hasattr(args[0], "__len__") else 0))
        return super().call_test(name, value, args, kwargs, context, eval_ctx)

    def call_binop(self, context, operator_name, left, right):
        spend()
        if operator_name == "**":
            if isinstance(left, (int, float)) and isinstance(right, (int, float)) and abs(right) > 1 \
                    and abs(left) > 1 and abs(right) * len(str(int(abs(left)))) > MAX_POWER_RESULT_DIGITS:
                raise jinja2.exceptions.SecurityError(f"{left!r} ** {right!r} is too large a number")
            return operator.pow(left, right)
        return made(self._binop(context, operator_name, left, right))

    def _binop(self, context, operator_name, left, right):
        if operator_name == "*":
            for seq, times in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(times, int) and times > 0:
                    size = len(seq) if isinstance(seq, str) else item_count(seq)
                    if size * times > MAX_REPEAT:
                        raise jinja2.exceptions.SecurityError(f"repeating to {size * times} items is too long")
            if isinstance(left, int) and isinstance(right, int) \
                    and left.bit_length() + right.bit_length() > MAX_INT_BITS:
                raise TemplateLimit(f"a number of more than {MAX_INT_BITS} bits")
            return operator.mul(left, right)
        if operator_name == "+":
            if isinstance(left, str) and isinstance(right, str):
                if len(left) + len(right) > MAX_TEXT:
                    raise TemplateLimit(f"a text of more than {MAX_TEXT:,} characters")
            elif isinstance(left, (list, tuple)) and isinstance(right, (list, tuple)):
                if item_count(left) + item_count(right) > MAX_ITEMS:
                    raise TemplateLimit(f"a list of more than {MAX_ITEMS:,} items")
            elif isinstance(left, int) and isinstance(right, int):
                _check_int(left)
                _check_int(right)
            return operator.add(left, right)
        if operator_name == "%" and isinstance(left, str):
            _check_percent(left)
            _check_texts(left, right)
        return super().call_binop(context, operator_name, left, right)


class LiteralMarkupCodeGenerator(BoundedCodeGenerator):
    """:class:`BoundedCodeGenerator` for expressions whose quoted texts are markup: every text constant
    goes through ``environment.pnp_literal`` (:class:`LiteralMarkupSandbox`), and so does every list,
    tuple or mapping that Jinja's optimizer folded into one constant (``[['[sun]']] + [['Spring']]``): the
    texts inside it are quoted texts too."""

    def visit_Const(self, node, frame):
        if isinstance(node.value, (str, list, tuple, dict)):
            self.write("environment.pnp_literal(")
            super().visit_Const(node, frame)
            self.write(")")
        else:
            super().visit_Const(node, frame)


class LiteralMarkupSandbox(MarkupSandbox):
    """:class:`MarkupSandbox` for layout expressions over data as it is (a board's facts and data files):
    a quoted text of the expression is markup (:class:`~pnp.text.markup.Safe`: ``'[coin] **2**'`` draws the
    icon, in bold), a value from the data is not. ``~`` joining markup with anything else escapes the
    rest (:func:`pnp.text.markup.escape`), so ``'[coin] ' ~ item.name`` is markup that prints the name as
    written; any other operation on a text gives plain text, escaped where it is printed."""

    code_generator_class = LiteralMarkupCodeGenerator

    @staticmethod
    def pnp_literal(value):
        """A quoted text as markup; the texts of a folded constant list, tuple or mapping (its values) too."""
        if isinstance(value, str):
            return Safe(value)
        if isinstance(value, list):
            return [LiteralMarkupSandbox.pnp_literal(v) for v in value]
        if isinstance(value, tuple):
            return tuple(LiteralMarkupSandbox.pnp_literal(v) for v in value)
        if isinstance(value, dict):
            return {k: LiteralMarkupSandbox.pnp_literal(v) for k, v in value.items()}
        return value

    @staticmethod
    def pnp_concat(values):
        joined = MarkupSandbox.pnp_concat(values)          # the limits
        if not any(isinstance(v, Safe) for v in values):
            return joined
        return Safe("".join(v if isinstance(v, Safe) else _escaped_part(v) for v in values))


def _escaped_part(value) -> str:
    """A data value joined into a line of markup: escaped, the spaces at its ends kept."""
    text = str(value)
    core = escape(text)
    if not core:
        return " " if text else ""
    return (" " if text[0].isspace() else "") + core + (" " if text[-1].isspace() else "")


def _printed(value):
    """The environment's ``finalize``: what ``{{ ... }}`` prints is checked (:func:`text_size`) and
    counted against the render's output."""
    size = text_size(value)
    budget = _BUDGET.get()
    if budget is not None:
        budget.print(size)
    return value


def _check_texts(*values) -> None:
    """The values a text is made of may be printed and are not too long together."""
    total = 0
    for value in values:
        total += text_size(value)
        if total > MAX_TEXT:
            raise TemplateLimit(f"a text of more than {MAX_TEXT:,} characters")


def _check_replace(text, old="", new="", count=-1, *_, **__) -> None:
    if not isinstance(text, str) or not isinstance(old, str) or not isinstance(new, str):
        return
    places = text.count(old) if old else len(text) + 1
    if isinstance(count, int) and count >= 0:
        places = min(places, count)
    if len(text) + places * (len(new) - len(old)) > MAX_TEXT:
        raise TemplateLimit(f"replace() would make a text of more than {MAX_TEXT:,} characters")


def _check_join(separator, items) -> None:
    count = len(items)
    total = text_size(separator) * max(count - 1, 0)
    if total > MAX_TEXT:
        raise TemplateLimit(f"join() would make a text of more than {MAX_TEXT:,} characters")
    if not isinstance(items, str):
        for item in items:
            total += text_size(item)
            if total > MAX_TEXT:
                raise TemplateLimit(f"join() would make a text of more than {MAX_TEXT:,} characters")


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
        grows = _GROWTH.get(func.__name__)
        if grows is not None:
            grows(*args, **kwargs)
        return func(*args, **kwargs)
    return bounded


def _width(value) -> int:
    """What one width argument adds (a count, or a text's length)."""
    if isinstance(value, str):
        return len(value)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _check_made(size: int, what: str) -> None:
    if size > MAX_TEXT:
        raise TemplateLimit(f"{what} would make a text of more than {MAX_TEXT:,} characters")


def _indent_size(value, width=4, first=False, blank=False, *_, **__):
    text = str(value) if isinstance(value, str) else ""
    _check_made(len(text) + (text.count("\n") + 1) * _width(width), "indent()")


def _wordwrap_size(environment, value, width=79, break_long_words=True, wrapstring=None, *_, **__):
    text = str(value) if isinstance(value, str) else ""
    step = width if isinstance(width, int) and not isinstance(width, bool) and width > 0 else 1
    lines = 2 * len(text) // step + text.count("\n") + 2            # greedy wrapping: two lines hold > width
    wrap = environment.newline_sequence if wrapstring is None else wrapstring
    _check_made(len(text) + lines * _width(wrap), "wordwrap()")


#: Filters whose text can be far longer than their value: what they would make, checked before they run.
_GROWTH = {"do_indent": _indent_size, "do_wordwrap": _wordwrap_size}


#: Filters that turn their value into text: the value must be printable, and not too long.
_TEXT_FILTERS = {"string", "pprint", "e", "escape", "forceescape", "urlencode", "xmlattr", "tojson", "format",
                 "indent", "center", "wordwrap", "truncate", "upper", "lower", "title", "capitalize", "trim",
                 "striptags", "urlize", "wordcount", "safe", "replace"}


def _guarded_filter(name: str, func):
    """A filter counted as a step, its value checked when it makes text (``replace`` and ``join``: the
    text they would make, before they make it)."""
    at = 1 if getattr(func, "jinja_pass_arg", None) is not None else 0

    @functools.wraps(func)
    def guarded(*args, **kwargs):
        spend()
        value, rest = args[at], args[at + 1:]
        if name in _TEXT_FILTERS:
            text_size(value)
        if name == "replace":
            _check_replace(str(value), *rest, **kwargs)
        elif name == "join" and kwargs.get("attribute") is None and len(rest) < 2:
            if not isinstance(value, (list, tuple, set, frozenset, dict, str)):
                value = loop_items(value, MAX_ITEMS)          # a generator: its items, counted
                args = (*args[:at], value, *rest)
            _check_join(rest[0] if rest else kwargs.get("d", ""), value)
        return made(func(*args, **kwargs))
    return guarded


@jinja2.pass_environment
def _sum(environment, iterable, attribute=None, start=0):
    """Jinja2's ``sum``, in linear time when it joins lists (Python's ``sum`` copies the whole result once
    per list), the result's size checked before it is made."""
    if attribute is not None:
        getter = jinja2.filters.make_attrgetter(environment, attribute)
        iterable = map(getter, iterable)
    if not isinstance(start, (list, tuple)):
        return sum(iterable, start)
    parts = [start]
    total = item_count(start)
    for item in iterable:
        spend()
        if not isinstance(item, type(start)):
            raise TypeError(f'can only concatenate {type(start).__name__} (not "{type(item).__name__}") '
                            f'to {type(start).__name__}')
        total += item_count(item)
        if total > MAX_ITEMS:
            raise TemplateLimit(f"sum() would make a list of more than {MAX_ITEMS:,} items")
        parts.append(item)
    joined = list(itertools.chain.from_iterable(parts))
    return joined if isinstance(start, list) else tuple(joined)


class CompiledTemplates(jinja2.BytecodeCache):
    """Templates compiled in this process, kept in memory (never on disk) across the environments
    :func:`environment` makes: ``pnp watch`` and the studio clear those before every rebuild, and a
    template whose file did not change is not compiled again. Jinja2 finds an entry by the template's
    name and file and uses it only when the source it was compiled from is the same (its checksum); one
    cache per set of options that change the compiled code."""

    def __init__(self):
        self._code: dict = {}

    def load_bytecode(self, bucket):
        found = self._code.get(bucket.key)
        if found is not None and found[0] == bucket.checksum:
            bucket.code = found[1]

    def dump_bytecode(self, bucket):
        self._code[bucket.key] = (bucket.checksum, bucket.code)

    def clear(self):
        self._code.clear()


_COMPILED: dict = {}


@reads_files
@lru_cache(maxsize=None)
def environment(roots: tuple, trim: bool = True, keep_trailing_newline: bool = True) -> MarkupSandbox:
    """The sandboxed environment for templates found in ``roots`` (in order: the first folder that has a
    template name wins). ``trim`` sets Jinja2's trim_blocks and lstrip_blocks."""
    compiled = _COMPILED.setdefault((trim, keep_trailing_newline), CompiledTemplates())
    return MarkupSandbox(loader=ConfinedLoader(roots), undefined=jinja2.StrictUndefined, autoescape=False,
                         trim_blocks=trim, lstrip_blocks=trim, keep_trailing_newline=keep_trailing_newline,
                         bytecode_cache=compiled)


def literal_markup_environment(roots: tuple) -> LiteralMarkupSandbox:
    """A sandboxed environment like :func:`environment`'s, for expressions whose quoted texts are markup
    (:class:`LiteralMarkupSandbox`)."""
    return LiteralMarkupSandbox(loader=ConfinedLoader(roots), undefined=jinja2.StrictUndefined, autoescape=False)


def render(template: jinja2.Template, **context) -> Safe:
    """``template`` rendered with ``context`` seen through :func:`data_value`: markup.

    The render is bounded (:func:`limits`): past a limit it stops with :class:`TemplateLimit`.
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
        with limits():
            return Safe("".join(template.generate(**values)))
    return run


_CONVERTED: dict = {"game": None, "memo": {}}


def _converted(game) -> dict:
    """The :func:`data_value` memo of ``game`` converted (kept for the game object last seen: loaded
    data is frozen, and a game loaded again is another object). The memo keeps every converted object
    alive, so no id in it can stand for a newer object."""
    owner = _CONVERTED["game"]
    if owner is None or owner() is not game:
        from pnp.cache.buildcache import recorded_copy, unrecorded

        memo = {}
        with unrecorded():          # the copy notes what templates read of it, when they read it
            converted = data_value(game, memo)
        if converted is not game and type(converted) is type(game):
            # what a template reads of the converted game is recorded as read of the game itself (a build
            # cache key is made of the values a component read: pnp.cache.buildcache.recording)
            recorded_copy(converted)
        try:
            _CONVERTED.update(game=weakref.ref(game), memo=memo)
        except TypeError:           # not a loaded game (a test's stand-in): converted for this render only
            return memo
    return _CONVERTED["memo"]


class _Over(dict):
    """A :func:`data_value` memo over another one it only reads: what ``base`` holds is found in it,
    what is converted anew is kept in this one. (A memo keeps what it converted alive, so an id found in
    ``base`` still stands for the object converted then; loaded data is frozen, so its conversion then
    is its conversion now.)"""

    __slots__ = ("base",)

    def __init__(self, base: dict):
        super().__init__()
        self.base = base

    def __contains__(self, key) -> bool:
        return dict.__contains__(self, key) or key in self.base

    def __missing__(self, key):
        return self.base[key]



def game_part(game, value):
    """``value``, a part of ``game`` (its ``data``, a card), as templates see it: converted by
    :func:`data_value` with the whole game, once per game object. (Converting only the part asked for
    was tried for the studio's card edits and taken out: what a check recorded as read of the game then
    depended on which check converted a card first, so a build cache entry was keyed by fewer reads in
    one build than in another: tests/test_buildcache.py.)"""
    return data_value(value, _converted(game))


class _deadline:
    """Raise TemplateTimeout in the main thread after ``seconds`` (SIGALRM): the backstop should one
    operation run long between two checks of :class:`Budget` (which hold on every thread)."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.armed = (threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
                      and signal.getitimer(signal.ITIMER_REAL)[0] == 0)

    def _expired(self, signum, frame):
        raise TemplateTimeout(f"the template ran for more than {self.seconds:g} s")

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


def call_macro(macro, *args, memo: dict | None = None) -> Safe:
    """A template macro called from Python, its arguments escaped as data: its markup. ``memo``: a
    :func:`data_value` memo kept over several calls, so arguments they share are converted once. Without
    one, a part of the game last converted for templates (:func:`_converted`: the engine's facts, a card,
    a faction) is not converted again: a deck calls a macro per card with its factions and ranks."""
    memo = _Over(_CONVERTED["memo"]) if memo is None else memo
    values = [data_value(a, memo) for a in args]
    with limits():
        return Safe(macro(*values))


#: Errors a template can raise while it renders (its own mistakes, not pnp's; a name whose article needs a
#: gender the data does not give, :class:`pnp.text.grammar.GrammarError`, is a ValueError).
TEMPLATE_ERRORS = (jinja2.TemplateError, ArithmeticError, TypeError, ValueError, LookupError, AttributeError,
                   RecursionError, AssertionError)       # (Jinja2's filters check their arguments with assert)


def template_problem(exc: BaseException, template_file=None, subject: str | None = "template") -> Problem:
    """A template's error as a problem at the template's file and line (the innermost template frame)."""
    path, line = template_file, None
    if isinstance(exc, jinja2.TemplateSyntaxError):
        path, line = exc.filename or template_file, exc.lineno
        message = f"template syntax error: {exc.message}"
    elif isinstance(exc, jinja2.TemplateNotFound):
        message = exc.message if exc.message and exc.message != exc.name else f"no template {exc.name}"
    else:
        for frame, lineno in traceback.walk_tb(exc.__traceback__):
            if frame.f_code.co_filename.endswith(".j2"):
                # a macro called from Python (call_macro) raises through the compiled template, whose
                # lines are not the template's: Jinja's debug info maps them back
                template = frame.f_globals.get("__jinja_template__")
                path = frame.f_code.co_filename
                line = template.get_corresponding_lineno(lineno) if template is not None else lineno
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
    ``[pips:N]``; ``icons``: the names the game has; a ``**`` or ``*`` a block never closes, which would set
    the rest of it bold or slanted) at the template's file, on the first line that writes the offending
    icon or star."""
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
    try:
        blocks = parse(markup)
    except MarkupError:                 # (reported where the chapter is laid out)
        blocks = []
    for text in inline_texts(blocks):
        for message, at in open_emphasis(text):
            line = next((i for i, written in enumerate(source, 1) if at in written), None)
            problems.error(template_file, line, subject, message)
