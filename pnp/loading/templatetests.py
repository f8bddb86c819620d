"""Tests in a game's templates that can never be true: ``card.stats.strenght is defined``.

A template reads the game with StrictUndefined, so ``{{ card.stats.strenght }}`` is an error at its line.
A name *tested* (``is defined``, ``is undefined``, ``'strenght' in card.stats``) is not: a misspelt one
makes the test always false, and the chapter prints an empty table without a word. This module reads
every template of the game folder (chapters, player aids, sheets, card text, in every language) and
follows what it can tell about a name: ``game``; ``cards`` and ``game.cards``, ``game.decks``,
``game.factions``, ``game.ranks``, ``deck.cards`` and the loop variables and ``set`` names taken from
them; a card's ``stats``. A test of an attribute that no card, deck, faction, rank or game of the game
has, or of a field no deck declares, is a warning at the template's line with the closest name that
exists. A name it cannot follow (an engine's event, a macro's argument) is left alone.
"""

from __future__ import annotations

import dataclasses

import jinja2
from jinja2 import nodes

from pnp.text import templating
from pnp.errors import Problems
from pnp.loading.paths import excerpt
from pnp.suggest import closest

#: What iterating over a list of each kind gives.
_ITEM = {"cards": "card", "decks": "deck", "factions": "faction", "ranks": "rank"}
#: Attributes that lead from an object of a kind to another kind.
_LEADS = {("game", "cards"): "cards", ("game", "decks"): "decks", ("game", "factions"): "factions",
          ("game", "ranks"): "ranks", ("deck", "cards"): "cards", ("card", "stats"): "stats"}
#: Filters that keep a list a list of the same things.
_SAME = {"sort", "selectattr", "rejectattr", "list", "reverse", "unique", "first", "last"}
_SINGLE = {"first", "last"}


def check_template_tests(game, problems: Problems) -> None:
    """A warning for every test in the game's own templates of a name that nothing it can read has."""
    folder = game.root / "templates"
    if not folder.is_dir():
        return
    names = _names(game)
    env = templating.environment((folder,))
    for path in sorted(folder.rglob("*.j2")):
        if not path.is_file():
            continue
        try:
            found = _tests_in(env, path.read_text(encoding="utf-8"), path)
        except (OSError, UnicodeDecodeError):
            continue                     # reported where the template is used
        for line, written, kind, name in found:
            known = names[kind]
            if name in known:
                continue
            what = "field" if kind == "stats" else "attribute"
            owner = {"stats": "no deck of the game has a field", "card": "no card has an attribute",
                     "deck": "no deck has an attribute", "game": "the game has no attribute",
                     "faction": "no faction has an attribute", "rank": "no rank has an attribute"}[kind]
            close = closest(name, known)
            hint = f"; did you mean '{close}'?" if close else f" (its {what}s: {', '.join(sorted(known)[:12])})"
            problems.warn(path, line, None, f"{written}: {owner} {excerpt(name)}, so the test is always false{hint}")


#: What :func:`_tests` finds in a template, by its text: the same template in every language's
#: validation, in a copy of the game, or again after an edit elsewhere is not parsed again.
_FOUND: dict = {}


def _tests_in(env, text: str, path) -> tuple:
    """:func:`_tests` of the template ``text`` (the file ``path``); none when it does not parse (its
    syntax error is reported where the template is used). ``env`` parses it: every environment
    :func:`pnp.text.templating.environment` makes parses alike (its options are fixed)."""
    found = _FOUND.get(text)
    if found is None:
        try:
            found = tuple(_tests(env.parse(text, path.name, str(path))))
        except jinja2.TemplateSyntaxError:
            found = ()
        if len(_FOUND) >= 512:
            _FOUND.clear()
        _FOUND[text] = found
    return found


def _names(game) -> dict:
    """The names each kind of object of ``game`` has (its class's fields and public attributes; a card's
    ``stats``: every deck's fields)."""
    from pnp.loading.decks import Deck
    from pnp.loading.gamedata import Game
    from rules_engine.model.cards import Card, Faction, Rank

    out = {kind: {f.name for f in dataclasses.fields(cls)} | {n for n in dir(cls) if not n.startswith("_")}
           for kind, cls in (("game", Game), ("deck", Deck), ("card", Card), ("faction", Faction), ("rank", Rank))}
    out["stats"] = {f.name for d in game.decks for f in d.fields} | {k for c in game.cards for k in c.stats}
    return out


def _tests(tree) -> list[tuple]:
    """(line, the test as written, the kind of object tested, the name tested) for every test of a name
    of an object whose kind the template shows."""
    kinds = {"game": "game", "cards": "cards"}

    def kind_of(node):
        if isinstance(node, nodes.Name):
            return kinds.get(node.name)
        if isinstance(node, nodes.Getattr):
            return _LEADS.get((kind_of(node.node), node.attr))
        if isinstance(node, nodes.Filter) and node.name in _SAME and node.node is not None:
            inner = kind_of(node.node)
            return _ITEM.get(inner) if node.name in _SINGLE else inner
        return None

    for node in tree.find_all((nodes.For, nodes.Assign)):
        if isinstance(node, nodes.For) and isinstance(node.target, nodes.Name):
            item = _ITEM.get(kind_of(node.iter))
            if item:
                kinds[node.target.name] = item
        elif isinstance(node, nodes.Assign) and isinstance(node.target, nodes.Name):
            found = kind_of(node.node)
            if found:
                kinds[node.target.name] = found
    out = []
    for test in tree.find_all(nodes.Test):
        if test.name not in ("defined", "undefined"):
            continue
        read = _read(test.node)
        if read is not None:
            kind = kind_of(read[0])
            if kind in ("game", "card", "deck", "faction", "rank", "stats"):
                out.append((test.lineno, f"{_shown(test.node)} is {test.name}", kind, read[1]))
    for compare in tree.find_all(nodes.Compare):
        for operand in compare.ops:
            if operand.op in ("in", "notin") and isinstance(compare.expr, nodes.Const) \
                    and isinstance(compare.expr.value, str) and kind_of(operand.expr) == "stats":
                written = f"'{compare.expr.value}' {'not in' if operand.op == 'notin' else 'in'} {_shown(operand.expr)}"
                out.append((compare.lineno, written, "stats", compare.expr.value))
    return sorted(out, key=lambda found: found[0])


def _read(node):
    """(the object, the name) a test's operand reads: ``x.name`` or ``x['name']``; None otherwise."""
    if isinstance(node, nodes.Getattr):
        return node.node, node.attr
    if isinstance(node, nodes.Getitem) and isinstance(node.arg, nodes.Const) and isinstance(node.arg.value, str):
        return node.node, node.arg.value
    return None


def _shown(node) -> str:
    """A name chain as a template writes it (``card.stats.strenght``)."""
    if isinstance(node, nodes.Name):
        return node.name
    if isinstance(node, nodes.Getattr):
        return f"{_shown(node.node)}.{node.attr}"
    if isinstance(node, nodes.Getitem) and isinstance(node.arg, nodes.Const):
        return f"{_shown(node.node)}[{node.arg.value!r}]"
    return "..."


def check_template_grammar(game, problems: Problems) -> None:
    """A warning for every place a template of the game writes an article itself before a value of the data
    that names something (``a {{ card.name }}``: "a Alchemist"; Spanish ``el {{ ... }}``, ``a {{ ... }}``),
    at its line, with the filter that says the article by the name (:func:`pnp.text.grammar.article_problems`);
    and for every plural made by adding letters (``Gem{{ "s" if n != 1 }}``, :func:`pnp.text.grammar.plural_problems`).
    A template's language is the language folder or file it is in (``rulebook/es/``, ``events/es.j2``)."""
    from pnp.text.grammar import article_problems, plural_problems
    from pnp.loading.i18n import languages

    folder = game.root / "templates"
    if not folder.is_dir():
        return
    claimed = set(languages(game))
    for path in sorted(folder.rglob("*.j2")):
        if not path.is_file():
            continue
        parts = [*path.relative_to(folder).parts[:-1], path.name.split(".")[0]]
        lang = next((p for p in reversed(parts) if p in claimed), game.source_language)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue                     # reported where the template is used
        for line, message in sorted(article_problems(text, lang) + plural_problems(text)):
            problems.warn(path, line, None, message)
