"""Printed literals of layout expressions: words a layout prints as written in every language.

``text: "'Camp'"`` prints *Camp* whatever language the kit is built in; ``text: "t('camp')"`` prints
the game's printed word ``camp`` in the build's language. A translation is complete only when no
layout region prints a literal with a letter in it: this module finds them in an expression's syntax
tree, following only the parts whose value is printed (the operands of ``~`` and ``+``, both branches of
``x if c else y``, the items of a list, the values of a mapping that is looked up, what a filter
filters). Arguments of calls (``t('camp')``, ``field('cost')``, ``columns(..., 'vp')``), comparisons and
tests are not printed, so their strings are not literals.
"""

from __future__ import annotations

import re
from functools import lru_cache

import jinja2
from jinja2 import nodes
from jinja2.parser import Parser

from pnp.loading.i18n.catalogue import Source, has_letters
from pnp.loading.yamlsrc import line_of

#: Region keys whose value is printed (a text, an icon's label, a table's rows, a grid's cells, labels of lines
#: and check boxes).
PRINTED_KEYS = ("text", "label", "rows", "cells", "labels")

#: An inline icon of markup (``[bloom]``, ``[coin:2]``): a literal of icons alone prints no word to translate
#: (a label on an icon, ``[coin:two]``, does).
ICON = re.compile(r"\[[a-z][a-z0-9_-]*(?::([^\]\n]*))?\]")

#: Keys of a mapping whose value names something rather than prints words (a grid cell's ``icon``).
NAMING_KEYS = ("icon",)

_ENV = jinja2.Environment()


@lru_cache(maxsize=2048)
def printed_literals(expression: str) -> tuple[str, ...]:
    """The string literals with a letter that ``expression``'s value prints, in order (none for an
    expression that does not parse: the layout's own check reports it)."""
    try:
        tree = Parser(_ENV, expression, state="variable").parse_expression()
    except jinja2.TemplateSyntaxError:
        return ()
    found: list = []
    _walk(tree, found)
    return tuple(dict.fromkeys(found))


def _walk(node, found: list) -> None:
    if isinstance(node, nodes.Const):
        if isinstance(node.value, str) and has_letters(ICON.sub(lambda m: m.group(1) or "", node.value)):
            found.append(node.value)
    elif isinstance(node, nodes.Concat):
        for part in node.nodes:
            _walk(part, found)
    elif isinstance(node, (nodes.Add, nodes.Mul)):
        _walk(node.left, found)
        _walk(node.right, found)
    elif isinstance(node, nodes.CondExpr):
        _walk(node.expr1, found)
        if node.expr2 is not None:
            _walk(node.expr2, found)
    elif isinstance(node, (nodes.List, nodes.Tuple)):
        for item in node.items:
            _walk(item, found)
    elif isinstance(node, nodes.Dict):
        for pair in node.items:
            if not (isinstance(pair.key, nodes.Const) and pair.key.value in NAMING_KEYS):
                _walk(pair.value, found)
    elif isinstance(node, nodes.Getitem):
        if isinstance(node.node, (nodes.Dict, nodes.List, nodes.Tuple)):
            _walk(node.node, found)
    elif isinstance(node, nodes.Filter):
        if node.node is not None:
            _walk(node.node, found)


def suggested_key(literal: str) -> str:
    """A printed-word key for a literal: its first words in lower case joined by ``_`` (``'Battle
    Plans deck'`` -> ``battle_plans_deck``)."""
    words = re.findall(r"[^\W\d_]+|\d+", literal.lower())
    return "_".join(words[:4]) or "word"


def layout_sources(layout, root, fallback: tuple) -> list[Source]:
    """Every printed literal of ``layout``'s regions: a :class:`Source` at the line of the layout file
    that wrote it (``fallback``, (path, line), for a layout written inline in game.yaml)."""
    out = []
    for items in layout.regions:
        region = dict(items)
        name = region.get("name")
        for key in PRINTED_KEYS:
            value = region.get(key)
            if not isinstance(value, str) or (len(value) == 7 and value.startswith("#")):
                continue
            literals = printed_literals(value)
            if not literals:
                continue
            path, line = region_origin(layout, root, name, key) or fallback
            for literal in literals:
                out.append(Source(f"literal:{path}:{name}:{key}:{literal}", literal, path, line,
                                  f"layout '{layout.name}', region '{name}'", key, kind="literal"))
    return out


def expression_sources(expression, path, line, subject: str, what: str) -> list[Source]:
    """The printed literals of one expression of game.yaml (a board's ``name``, a standee's ``label``)."""
    if not isinstance(expression, str):
        return []
    return [Source(f"literal:{path}:{line}:{subject}:{what}:{literal}", literal, path, line, subject, what,
                   kind="literal") for literal in printed_literals(expression)]


def region_origin(layout, root, name, key):
    """(file, line) of the layout file in ``layout``'s ``extends`` chain that gives region ``name`` its
    ``key``; None for a layout written inline."""
    from pathlib import Path

    from pnp.loading.cardlayout import layout_path
    from pnp.loading.yamlsrc import load_yaml

    file = Path(layout.source) if layout.source else None
    seen = set()
    while file is not None and file.suffix == ".yaml" and file.name != "game.yaml" and file not in seen:
        seen.add(file)
        try:
            raw = load_yaml(file)
        except Exception:           # reported where the layout is loaded
            return None
        regions = raw.get("regions") if isinstance(raw, dict) else None
        for i, region in enumerate(regions if isinstance(regions, list) else []):
            if isinstance(region, dict) and region.get("name") == name and key in region:
                return file, line_of(region, key) or line_of(regions, i)
        parent = raw.get("extends") if isinstance(raw, dict) else None
        file = layout_path(root, parent) if isinstance(parent, str) else None
    return None
