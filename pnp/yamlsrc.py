"""YAML loading that remembers where every key and list item came from.

PyYAML's safe loader is extended so mappings become :class:`LineDict` and sequences :class:`LineList`,
both carrying the file path and the 1-based line of the node and of each key / item. Duplicate keys,
which plain PyYAML silently overwrites, are reported. Syntax errors become a :class:`DataError` with the
line and column, never a traceback.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from pnp.errors import DataError, Problem


class LineDict(dict):
    path: str = ""
    line: int | None = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.key_lines: dict = {}

    def line_of(self, key) -> int | None:
        return self.key_lines.get(key, self.line)


class LineList(list):
    path: str = ""
    line: int | None = None

    def __init__(self, *args):
        super().__init__(*args)
        self.item_lines: list[int] = []

    def line_of(self, index: int) -> int | None:
        if 0 <= index < len(self.item_lines):
            return self.item_lines[index]
        return self.line


def line_of(container, key) -> int | None:
    """Line of ``key`` in a LineDict / LineList, or of the container itself."""
    if isinstance(container, (LineDict, LineList)):
        return container.line_of(key)
    return None


class _Loader(yaml.SafeLoader):
    source_path = ""
    duplicate_keys: list


def _construct_mapping(loader: _Loader, node: yaml.MappingNode):
    loader.flatten_mapping(node)
    result = LineDict()
    result.path = loader.source_path
    result.line = node.start_mark.line + 1
    yield result
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in result.key_lines:
            loader.duplicate_keys.append(
                Problem(loader.source_path, key_node.start_mark.line + 1, None,
                        f"duplicate key '{key}' (first at line {result.key_lines[key]})"))
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[key] = key_node.start_mark.line + 1


def _construct_sequence(loader: _Loader, node: yaml.SequenceNode):
    result = LineList()
    result.path = loader.source_path
    result.line = node.start_mark.line + 1
    yield result
    for child in node.value:
        result.append(loader.construct_object(child, deep=True))
        result.item_lines.append(child.start_mark.line + 1)


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


def parse_yaml(text: str, path: str | Path = "<input>"):
    """Parse YAML text; raise DataError (line and column) on malformed input or duplicate keys."""
    loader = _Loader(text)
    loader.source_path = str(path)
    loader.duplicate_keys = []
    try:
        data = loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        column = f", column {mark.column + 1}" if mark else ""
        what = exc.problem or exc.context or "invalid YAML"
        raise DataError([Problem(str(path), line, None, f"malformed YAML{column}: {what}")]) from None
    except yaml.YAMLError as exc:
        raise DataError([Problem(str(path), None, None, f"malformed YAML: {exc}")]) from None
    finally:
        loader.dispose()
    if loader.duplicate_keys:
        raise DataError(loader.duplicate_keys)
    return data


def load_yaml(path: str | Path):
    """Read and parse one YAML file (see :func:`parse_yaml`)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError([Problem(str(path), None, None, "file not found")]) from None
    except UnicodeDecodeError as exc:
        raise DataError([Problem(str(path), None, None, f"not UTF-8 text ({exc.reason})")]) from None
    return parse_yaml(text, path)


def load_yaml_or_report(path: str | Path, problems) -> object | None:
    """Like :func:`load_yaml`, but a file that cannot be read adds its problems and gives None,
    so the caller can go on checking other files."""
    try:
        return load_yaml(path)
    except DataError as exc:
        problems.extend(exc.problems)
        return None
