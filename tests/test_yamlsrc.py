import pytest

from pnp.errors import DataError
from pnp.loading.yamlsrc import parse_yaml


def test_lines_of_keys_and_items():
    data = parse_yaml("title: x\ncards:\n  - id: a\n    power: 1\n  - id: b\n", "f.yaml")
    assert data.line_of("title") == 1
    assert data.line_of("cards") == 2
    assert data["cards"].line_of(0) == 3
    assert data["cards"].line_of(1) == 5
    assert data["cards"][0].line_of("power") == 4


def test_malformed_yaml_gives_line_and_column():
    with pytest.raises(DataError) as err:
        parse_yaml("a: 1\nb: [1, 2\nc: 3\n", "bad.yaml")
    (problem,) = err.value.problems
    assert str(problem).startswith("bad.yaml:3: malformed YAML, column 2:")


def test_duplicate_keys_are_reported():
    with pytest.raises(DataError) as err:
        parse_yaml("a: 1\nb: 2\na: 3\n", "dup.yaml")
    assert str(err.value.problems[0]) == "dup.yaml:3: duplicate key 'a' (first at line 1)"
