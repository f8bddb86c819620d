"""YAML loading that remembers where every key and list item came from, safely and once per file.

Mappings become :class:`LineDict` and sequences :class:`LineList`, both carrying the file path and the
1-based line of the node and of each key / item. Duplicate keys, which plain PyYAML silently
overwrites, and keys that are lists or mappings are reported. Syntax errors become a
:class:`~pnp.errors.DataError` with the line and column, never a traceback.

A data file may come from a stranger, so loading is bounded (:data:`LIMITS`): the file's size, how
deeply it nests and how many values it holds once every alias (``*name``) is expanded, so a "billion
laughs" alias bomb is refused in milliseconds instead of filling the memory. Events come from libyaml
(PyYAML's C parser, much faster, with the same line marks) when it is installed, else from PyYAML's
Python parser; pnp composes them into nodes itself, without recursion, so no nesting can overflow a
stack.

:func:`load_yaml` reads each file once per process while it is unchanged (same size and time stamp):
the loaded data is shared, so callers treat it as read-only. ``pnp watch`` clears the cache before
every rebuild (:mod:`pnp.cache.memo`).
"""

from __future__ import annotations

import gc
import hashlib
import os
import pickle
import threading
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml
from yaml.events import (AliasEvent, MappingEndEvent, MappingStartEvent, ScalarEvent, SequenceEndEvent,
                         SequenceStartEvent)
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from pnp.cache.memo import reads_files
from pnp.errors import DataError, Problem
from pnp.loading.paths import NotRegularFile, check_inside, excerpt, open_regular

try:
    from yaml._yaml import CParser as _CParser
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    _CParser = None


@dataclass(frozen=True)
class Limits:
    """Bounds on one YAML file (bundled files use a small fraction of each)."""

    max_bytes: int = 4 * 1024 * 1024      # file size
    max_depth: int = 64                   # nesting of lists and mappings, aliases expanded
    max_values: int = 1_000_000           # scalars, lists and mappings, each counted once, aliases expanded


LIMITS = Limits()


class LineDict(dict):
    path: str = ""
    line: int | None = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.key_lines: dict = {}

    def line_of(self, key) -> int | None:
        try:
            return self.key_lines.get(key, self.line)
        except TypeError:                     # an unhashable key cannot be in the mapping
            return self.line


class LineList(list):
    path: str = ""
    line: int | None = None

    def __init__(self, *args):
        super().__init__(*args)
        self.item_lines: list[int] = []

    def line_of(self, index: int) -> int | None:
        if isinstance(index, int) and 0 <= index < len(self.item_lines):
            return self.item_lines[index]
        return self.line


def line_of(container, key) -> int | None:
    """Line of ``key`` in a LineDict / LineList, or of the container itself."""
    if isinstance(container, (LineDict, LineList)):
        return container.line_of(key)
    return None


# ----------------------------------------------------------------------------- events -> nodes

class _PyEvents(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser):
    """PyYAML's pure Python event source, used when libyaml is missing."""

    def __init__(self, text):
        yaml.reader.Reader.__init__(self, text)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)

    def dispose(self):
        pass


class _TooBig(Exception):
    def __init__(self, mark, message):
        super().__init__(message)
        self.mark, self.message = mark, message


def _too_many_values(mark, limits) -> "_TooBig":
    """The problem of a document past ``limits.max_values`` at ``mark`` (both ways of building one say it)."""
    return _TooBig(mark, f"holds more than {limits.max_values:,} values once its aliases are expanded")


def _events(text: str):
    return _CParser(text) if _CParser is not None else _PyEvents(text)


def compose(text: str, limits: Limits = LIMITS):
    """The document's root node (None for an empty document), composed without recursion.

    Raises yaml.MarkedYAMLError for malformed YAML and :class:`_TooBig` past ``limits``.
    """
    resolver = yaml.resolver.Resolver()
    source = _events(text)
    anchors: dict = {}
    sizes: dict = {}           # id(node) -> (values, height) with aliases expanded
    stack: list = []           # open collections: [node, start event, pending key or _NO_KEY]
    root = None
    total = 0
    try:
        while True:
            event = source.get_event()
            if event is None:
                break
            if isinstance(event, AliasEvent):
                node = anchors.get(event.anchor)
                if node is None:
                    raise yaml.composer.ComposerError(None, None, f"found undefined alias {excerpt(event.anchor)}",
                                                      event.start_mark)
                if id(node) not in sizes:
                    raise _TooBig(event.start_mark, f"the alias *{event.anchor[:30]} refers to a list or mapping "
                                                    f"that contains it (a value cannot contain itself)")
                done = node
            elif isinstance(event, ScalarEvent):
                tag = event.tag
                if tag is None or tag == "!":
                    tag = resolver.resolve(ScalarNode, event.value, event.implicit)
                done = ScalarNode(tag, event.value, event.start_mark, event.end_mark, style=event.style)
                sizes[id(done)] = (1, 0)
                _anchor(anchors, event, done)
            elif isinstance(event, (SequenceStartEvent, MappingStartEvent)):
                is_seq = isinstance(event, SequenceStartEvent)
                tag = event.tag
                if tag is None or tag == "!":
                    tag = resolver.resolve(SequenceNode if is_seq else MappingNode, None, event.implicit)
                node = (SequenceNode if is_seq else MappingNode)(tag, [], event.start_mark, None,
                                                                 flow_style=event.flow_style)
                _anchor(anchors, event, node)
                stack.append([node, 1, 0, _NO_KEY])
                if len(stack) > limits.max_depth:
                    raise _TooBig(event.start_mark, f"nests lists and mappings more than {limits.max_depth} deep")
                continue
            elif isinstance(event, (SequenceEndEvent, MappingEndEvent)):
                node, values, height, _ = stack.pop()
                node.end_mark = event.end_mark
                sizes[id(node)] = (values, height)
                done = node
            else:                   # stream and document events
                continue
            values, height = sizes[id(done)]
            # each value counts once: a list or mapping just closed adds itself (its items were counted
            # as they came); an alias adds everything it stands for
            total += values if isinstance(event, AliasEvent) else 1
            if total > limits.max_values:
                raise _too_many_values(event.start_mark, limits)
            if not stack:
                root = done
                continue
            frame = stack[-1]
            if len(stack) + height > limits.max_depth:
                raise _TooBig(event.start_mark, f"nests lists and mappings more than {limits.max_depth} deep "
                                                f"once its aliases are expanded")
            frame[1] += values
            frame[2] = max(frame[2], height + 1)
            parent = frame[0]
            if isinstance(parent, SequenceNode):
                parent.value.append(done)
            elif frame[3] is _NO_KEY:
                frame[3] = done
            else:
                parent.value.append((frame[3], done))
                frame[3] = _NO_KEY
    finally:
        source.dispose()
    return root


_NO_KEY = object()


def _anchor(anchors, event, node):
    if event.anchor is not None:
        if event.anchor in anchors:
            raise yaml.composer.ComposerError(None, None, f"found duplicate anchor &{event.anchor[:30]}",
                                              event.start_mark)
        anchors[event.anchor] = node


# ----------------------------------------------------------------------------- nodes -> values

class _Constructor(yaml.constructor.SafeConstructor):
    def __init__(self, path: str):
        super().__init__()
        self.source_path = path
        self.problems: list = []


def _construct_mapping(loader: _Constructor, node: MappingNode):
    loader.flatten_mapping(node)
    result = LineDict()
    result.path = loader.source_path
    result.line = node.start_mark.line + 1
    yield result
    for key_node, value_node in node.value:
        line = key_node.start_mark.line + 1
        if not isinstance(key_node, ScalarNode):
            kind = "a list" if isinstance(key_node, SequenceNode) else "a mapping"
            loader.problems.append(Problem(loader.source_path, line, None,
                                           f"a key is {kind}; keys must be text or numbers"))
            continue
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError:
            loader.problems.append(Problem(loader.source_path, line, None,
                                           f"the key {excerpt(key)} cannot be used; keys must be text or numbers"))
            continue
        if key in result.key_lines:
            loader.problems.append(
                Problem(loader.source_path, line, None,
                        f"duplicate key {excerpt(str(key))} (first at line {result.key_lines[key]})"))
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[key] = line


def _construct_sequence(loader: _Constructor, node: SequenceNode):
    result = LineList()
    result.path = loader.source_path
    result.line = node.start_mark.line + 1
    yield result
    for child in node.value:
        result.append(loader.construct_object(child, deep=True))
        result.item_lines.append(child.start_mark.line + 1)


_Constructor.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Constructor.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


# ----------------------------------------------------------------------------- events -> values, at once

_STR_TAG = yaml.resolver.BaseResolver.DEFAULT_SCALAR_TAG
#: Tags a plain scalar resolves to that only a mapping's flattening gives a meaning (``<<``, ``=``).
_MAPPING_TAGS = frozenset(("tag:yaml.org,2002:merge", "tag:yaml.org,2002:value"))


class _Unusual(Exception):
    """The document has what :func:`_direct` leaves to :func:`compose` and the constructor."""


def _direct(text: str, path: str, limits: Limits = LIMITS):
    """``(data, problems)`` of a document made of plain lists, mappings and scalars, built from libyaml's
    events at once, as :func:`compose` then :class:`_Constructor` build it (the same values, lines, limits
    and problems in the same order; for a 20,000-card file a third of the time: no node is made for a
    text); None for anything else (an anchor, an alias, a tag, a merge key, a key that is a list or
    mapping, a scalar whose construction fails, more than one document, no libyaml), which the caller
    parses as before. Malformed YAML and what is past ``limits`` raise as :func:`compose` raises them."""
    if _CParser is None:
        return None
    resolve = yaml.resolver.Resolver().resolve
    constructor = _Constructor(path)
    constructors = constructor.yaml_constructors
    tags: dict = {}             # a plain scalar's tag depends on its text alone
    problems: list = []
    source = _CParser(text)
    stack: list = []            # open collections: [LineDict or LineList, pending key or _NO_KEY, its line]
    root = None
    total = 0
    documents = 0
    try:
        while True:
            event = source.get_event()
            if event is None:
                break
            kind = type(event)
            if kind is ScalarEvent:
                if event.anchor is not None or event.tag is not None:
                    return None
                value = event.value
                if event.implicit[0]:
                    tag = tags.get(value)
                    if tag is None:
                        tag = tags[value] = resolve(ScalarNode, value, event.implicit)
                else:
                    tag = _STR_TAG
                if tag is not _STR_TAG and tag != _STR_TAG:
                    make = constructors.get(tag)
                    if make is None or tag in _MAPPING_TAGS:
                        return None
                    try:
                        value = make(constructor, ScalarNode(tag, value, event.start_mark, event.end_mark,
                                                             style=event.style))
                    except Exception:           # noqa: BLE001 - told where compose and the constructor tell it
                        return None
                done = value
            elif kind is MappingStartEvent or kind is SequenceStartEvent:
                if event.anchor is not None or event.tag is not None:
                    return None
                if stack and stack[-1][1] is _NO_KEY and type(stack[-1][0]) is LineDict:
                    return None                 # a key that is a list or a mapping
                made = LineDict() if kind is MappingStartEvent else LineList()
                made.path = path
                made.line = event.start_mark.line + 1
                stack.append([made, _NO_KEY, None])
                if len(stack) > limits.max_depth:
                    raise _TooBig(event.start_mark, f"nests lists and mappings more than {limits.max_depth} deep")
                continue
            elif kind is MappingEndEvent or kind is SequenceEndEvent:
                done = stack.pop()[0]
            elif kind is AliasEvent:
                return None
            else:                   # stream and document events
                if kind is yaml.events.DocumentStartEvent:
                    documents += 1
                    if documents > 1:
                        return None
                continue
            total += 1
            if total > limits.max_values:
                raise _too_many_values(event.start_mark, limits)
            if not stack:
                root = done
                continue
            frame = stack[-1]
            parent = frame[0]
            if type(parent) is LineList:
                parent.append(done)
                parent.item_lines.append(event.start_mark.line + 1 if kind is ScalarEvent else done.line)
            elif frame[1] is _NO_KEY:
                line = event.start_mark.line + 1
                if done in parent.key_lines:
                    problems.append(Problem(path, line, None, f"duplicate key {excerpt(str(done))} (first at line "
                                                              f"{parent.key_lines[done]})"))
                frame[1], frame[2] = done, line
            else:
                parent[frame[1]] = done
                parent.key_lines[frame[1]] = frame[2]
                frame[1] = _NO_KEY
    finally:
        source.dispose()
    return root, problems


# ----------------------------------------------------------------------------- loading

def _line_at(text: str, position: int) -> int:
    return text.count("\n", 0, max(0, position)) + 1


@contextmanager
def _collector_paused():
    """Python's collector of reference cycles off while a file's nodes and values are made: they make no
    cycles (an alias of a list or mapping that contains it is refused), yet every pass of the collector
    walked all of them again as they grew (a 20,000-card deck: 2 of every 5 seconds of composing it)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def parse_yaml(text: str, path: str | Path = "<input>", limits: Limits = LIMITS):
    """Parse YAML text; raise DataError (line and column) on malformed input, duplicate or unusable keys,
    or input past ``limits``."""
    path = str(path)
    if len(text) > limits.max_bytes:
        raise DataError([Problem(path, None, None, f"too large: {len(text) / 1e6:.1f} MB; a data file may "
                                                   f"hold at most {limits.max_bytes / 1e6:.0f} MB")])
    try:
        with _collector_paused():
            made = _direct(text, path, limits)
            if made is not None:
                data, problems = made
                if problems:
                    raise DataError(problems)
                return data
            node = compose(text, limits)
            if node is None:
                return None
            constructor = _Constructor(path)
            data = constructor.construct_document(node)
    except _TooBig as exc:
        line = exc.mark.line + 1 if exc.mark else None
        raise DataError([Problem(path, line, None, f"{exc.message}; pnp refuses it")]) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        column = f", column {mark.column + 1}" if mark else ""
        what = exc.problem or exc.context or "invalid YAML"
        if "maximum nesting depth" in what:     # libyaml's own limit (PyYAML 6.0.3+), met before pnp's
            raise DataError([Problem(path, line, None, f"nests lists and mappings more than "
                                                       f"{limits.max_depth} deep; pnp refuses it")]) from None
        raise DataError([Problem(path, line, None, f"malformed YAML{column}: {what}")]) from None
    except yaml.reader.ReaderError as exc:
        char = f"U+{exc.character:04X}" if isinstance(exc.character, int) else excerpt(exc.character)
        what = "a NUL character" if exc.character in (0, "\0") else f"the control character {char}"
        raise DataError([Problem(path, _line_at(text, exc.position), None,
                                 f"contains {what}, which YAML does not allow")]) from None
    except yaml.YAMLError as exc:
        raise DataError([Problem(path, None, None, f"malformed YAML: {str(exc)[:200]}")]) from None
    if constructor.problems:
        raise DataError(constructor.problems)
    return data


def read_text(path: Path, limits: Limits = LIMITS) -> str:
    """A data file's text (UTF-8, a byte order mark allowed); DataError for what cannot be read."""
    try:
        with open_regular(path) as f:
            data = f.read(limits.max_bytes + 1)
    except NotRegularFile as exc:
        raise DataError([Problem(str(path), None, None, str(exc))]) from None
    except FileNotFoundError:
        raise DataError([Problem(str(path), None, None, "file not found")]) from None
    except IsADirectoryError:
        raise DataError([Problem(str(path), None, None, "is a folder, not a file")]) from None
    except PermissionError:
        raise DataError([Problem(str(path), None, None, "cannot be read (permission denied)")]) from None
    except OSError as exc:
        raise DataError([Problem(str(path), None, None, f"cannot be read ({exc.strerror or exc})")]) from None
    if len(data) > limits.max_bytes:
        raise DataError([Problem(str(path), None, None, f"too large: more than {limits.max_bytes / 1e6:.0f} MB; "
                                                        f"a data file may hold at most that")])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise DataError([Problem(str(path), line, None, f"not UTF-8 text ({exc.reason})")]) from None


def load_yaml(path: str | Path, within: str | Path | None = None):
    """Read and parse one YAML file (see :func:`parse_yaml`), once while it is unchanged.

    ``within``: the game folder the file belongs to; a file that is a link leading outside it is refused.
    """
    path = Path(path)
    if within is not None:
        why = check_inside(within, path)
        if why:
            raise DataError([Problem(str(path), None, None, why)])
    try:
        st = path.stat()
        stamp = (os.path.realpath(path), st.st_mtime_ns, st.st_size, st.st_ino)
    except (OSError, ValueError):
        stamp = None                 # read_text says what is wrong
    if stamp is None:
        return parse_yaml(read_text(path), path)
    ok, value = _load_cached(str(path), stamp)
    if not ok:
        raise DataError(value)
    return value


@reads_files
@lru_cache(maxsize=256)
def _load_cached(path: str, stamp: tuple):
    try:
        text = read_text(Path(path))
    except DataError as exc:
        return False, exc.problems
    return _parsed(path, text)


#: Parsed files by their path and text, pickled (each load gets its own copy: a caller may change what
#: it loaded), kept for the life of a process that asked for it (:func:`keep_parsed`: the studio's
#: preview process), unlike :func:`_load_cached`'s stamps, which the studio empties after every edit:
#: the files an edit left alone are not parsed again (a card edit parsed a dozen YAML files; unpickling
#: one costs about a twentieth of parsing it). A file of more than :data:`_PARSED_MOST` pickled bytes is
#: parsed each time.
_PARSED: OrderedDict = OrderedDict()
_PARSED_BYTES = [0]
_PARSED_LIMIT = 64 << 20
_PARSED_MOST = 8 << 20
_PARSED_LOCK = threading.Lock()
_KEEP_PARSED = [False]


def keep_parsed(on: bool = True) -> None:
    """Keep parsed files by their text for the life of this process (see :data:`_PARSED`); off: dropped."""
    _KEEP_PARSED[0] = on
    if not on:
        with _PARSED_LOCK:
            _PARSED.clear()
            _PARSED_BYTES[0] = 0


def _parsed(path: str, text: str) -> tuple:
    """(True, the data) or (False, its problems) of ``text``, the file ``path``'s (see :data:`_PARSED`)."""
    if not _KEEP_PARSED[0]:
        try:
            return True, parse_yaml(text, path)
        except DataError as exc:
            return False, exc.problems
    key = (path, hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=20).digest(), repr(LIMITS))
    with _PARSED_LOCK:
        blob = _PARSED.get(key)
        if blob is not None:
            _PARSED.move_to_end(key)
    if blob is not None:
        return pickle.loads(blob)
    try:
        result = True, parse_yaml(text, path)
    except DataError as exc:
        result = False, exc.problems
    try:
        blob = pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:            # noqa: BLE001 - a value pickle cannot copy: parsed again next time
        return result
    if len(blob) > _PARSED_MOST:
        return result
    with _PARSED_LOCK:
        if key not in _PARSED:
            _PARSED[key] = blob
            _PARSED_BYTES[0] += len(blob)
        while _PARSED_BYTES[0] > _PARSED_LIMIT and _PARSED:
            _PARSED_BYTES[0] -= len(_PARSED.popitem(last=False)[1])
    return pickle.loads(blob)


def load_yaml_or_report(path: str | Path, problems, within: str | Path | None = None) -> object | None:
    """Like :func:`load_yaml`, but a file that cannot be read adds its problems and gives None,
    so the caller can go on checking other files."""
    try:
        return load_yaml(path, within)
    except DataError as exc:
        problems.extend(exc.problems)
        return None
