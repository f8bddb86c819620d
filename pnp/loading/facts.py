"""Facts files: the rule facts a game's engine reads as data (tables by player count, board costs,
player boards, maps, dice), from the files game.yaml's ``facts:`` lists.

Each file is a mapping of top-level keys; together the files give the keys the engine declares in its
``FACTS_SCHEMA`` (``rules_engine.protocol.Spec`` trees), each key in one file only. The shapes are
checked here with file and line; the engine's ``check_facts(facts, cards)`` then checks what only it
knows (ids that must match, ranges that must tile) and reports paths such as ``maps[2].areas[1][3]``,
which get the line of that value. Any mapping may carry a placeholder mark (:mod:`pnp.loading.placeholders`).
The checked data reaches the engine and the kit as ``game.facts``: plain dicts and lists.
"""

from __future__ import annotations

from pathlib import Path

from pnp.suggest import closest
from pnp.loading import placeholders
from pnp.errors import Problems
from pnp.loading.paths import data_path, excerpt
from pnp.loading.schema import MISSING, entry
from pnp.loading.specs import SpecChecker, line_at
from pnp.loading.yamlsrc import line_of, load_yaml_or_report


def load_facts(root: Path, files, module, engine: str | None, cards, problems: Problems, game_path: Path,
               raw_game) -> tuple[dict, dict]:
    """``(facts, placeholder counts by file)`` from the files ``files`` (game.yaml's ``facts``).

    ``module`` is the engine's package (None without an engine); every problem goes to ``problems``.
    """
    if engine and module is None:      # the engine named cannot be loaded (reported): nothing reads the facts
        return {}, {}
    schema = getattr(module, "FACTS_SCHEMA", None) or {}
    line = line_of(raw_game, "facts")
    if files and not schema:
        problems.error(game_path, line, None,
                       f"facts: {'the game has no rules engine' if not engine else f'the rules engine {excerpt(engine)}'}"
                       f" to read facts files; list plain data files under 'data' instead (read as data.<name>, "
                       f"docs/data-format.md, Data files)")
        return {}, {}
    facts, raws, owner, counts = {}, {}, {}, {}
    for i, name in enumerate(files or []):
        where = entry("facts", name, i)
        path = data_path(root, name, problems, game_path, line, None, where)
        if path is None:
            continue
        if path.suffix.lower() not in (".yaml", ".yml"):
            problems.error(game_path, line, None, f"{where}: {excerpt(name)} is not a .yaml file")
            continue
        if path in raws:
            problems.error(game_path, line, None, f"{where}: {excerpt(name)} is listed twice")
            continue
        if not path.is_file():
            problems.error(game_path, line, None, f"{where}: no file {excerpt(name)} in the game folder")
            continue
        before = len(problems.errors)
        raw = load_yaml_or_report(path, problems, within=root)
        if len(problems.errors) > before:
            continue
        if not isinstance(raw, dict):
            problems.error(path, getattr(raw, "line", None), None, "expected a mapping of facts (keys such as "
                                                                   f"{', '.join(list(schema)[:3])})")
            continue
        raws[path] = raw
        counts[path] = placeholders.count(raw)
        checker = SpecChecker(problems, path, placeholders=True)
        for key, value in raw.items():
            at = line_of(raw, key)
            if key not in schema:
                close = closest(key, schema)
                hint = f" (did you mean '{close}'?)" if close else ""
                problems.error(path, at, None, f"{excerpt(key)}: unknown key{hint}; the engine reads: "
                                               f"{', '.join(schema)}")
                continue
            if key in owner:
                problems.error(path, at, None, f"{key}: also given in {owner[key].name}; give each fact once")
                continue
            owner[key] = path
            checked = checker.value(value, schema[key], key, at)
            if checked is not MISSING:
                facts[key] = checked
    missing = [k for k, spec in schema.items() if spec.required and k not in owner]
    if missing:
        problems.error(game_path, line or getattr(raw_game, "line", None), None,
                       f"facts: no file gives {', '.join(missing)} (the rules engine {engine} reads "
                       f"{'them' if len(missing) > 1 else 'it'}); list the file that does in 'facts'")
    for key, spec in schema.items():
        if key not in owner and spec.default is not None:
            facts[key] = spec.default
    if problems.errors:
        return facts, counts
    check = getattr(module, "check_facts", None)
    for problem in (check(facts, tuple(cards)) if check else ()):
        where, message = problem[0], problem[1]
        top = where.split(".", 1)[0].split("[", 1)[0]
        path = owner.get(top, game_path)
        problems.error(path, line_at(raws[path], where) if path in raws else line, None,
                       f"{where}: {message}" if where else message)
    return facts, counts

