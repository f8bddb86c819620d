"""Engine events in words: the game's event templates (``templates/events/<lang>.j2``, one macro per event
type) and the transcripts made from them.

A rulebook example is told by these macros (:mod:`pnp.rulebook.component`), and so is the transcript of
an engine that words no events itself (``transcript_lines`` left out of the engine contract): one line per
event, in the game's language, from the same templates. An engine with its own ``transcript_lines`` keeps
them (with its ``phrases_<lang>`` table for another language).
"""

from __future__ import annotations

import importlib

import jinja2

from pnp.text import templating
from pnp.text.grammar import Noun, speaking
from pnp.text.markup import Safe, escape, plain_text
from pnp.errors import Problem


def phrases(engine, lang):
    """The engine's transcript wording for ``lang``: module ``phrases_<lang>`` of the engine package
    (its ``PHRASES``), else None (the engine's own words)."""
    if lang:
        try:
            return importlib.import_module(f"{engine.__name__}.phrases_{lang}").PHRASES
        except ModuleNotFoundError:
            pass
    return None


def event_templates(game, lang: str):
    """(module, file) of the game's event wording for ``lang`` (``templates/events/<lang>.j2``: one macro
    per event type), or (None, None) when the game has none."""
    from pnp.loading.cardtext import template_roots

    env = templating.environment(template_roots(game.root), trim=False, keep_trailing_newline=False)
    try:
        template = env.get_template(f"events/{lang}.j2")
    except jinja2.TemplateNotFound:
        return None, None
    return template.module, template.filename


def namer(game, names, position_names=None, lang: str | None = None) -> dict:
    """What event templates call to name things: cards, players, factions, piece kinds and holdings by
    id, escaped; lists joined in the kit's words (``n.list(items, 'and')``); and ``n.t(key, count=n)``, a
    printed word of the game's ``strings:`` in ``lang`` (a counted word in the plural form the language's
    CLDR rules pick: "1 Gem", "2 Gems"), as in layouts."""
    from pnp.loading.i18n import words_function

    cards = {c.id: c for c in game.cards}
    factions = {f.id: f for f in game.factions}
    pieces = {k.id: k.name for k in game.pieces}
    holdings = dict((position_names or {}).get("holdings") or {})
    holdings.update({h.id: h.name for h in getattr(game.map, "holdings", ()) or ()})

    def join(items, word="and"):
        items = [str(i) for i in items]
        if len(items) < 2:
            return Safe(items[0] if items else "")
        sep = "; " if any("," in i for i in items) else ", "
        return Safe(sep.join(items[:-1]) + f" {word} " + items[-1])

    return {
        "card": lambda cid: Noun(cards[cid].name, cards[cid].grammar, f"cards.{cid}") if cid in cards else escape(cid),
        "player": lambda seat: escape(names[seat] if 0 <= seat < len(names) else f"{seat + 1}"),
        "faction": lambda fid: Noun(factions[fid].name, factions[fid].grammar, f"factions.{fid}") if fid in factions
        else escape(fid),
        "adjective": lambda fid: escape(factions[fid].adjective if fid in factions else fid),
        "side": lambda seat: escape(game.factions[seat].name if 0 <= seat < len(game.factions) else str(seat)),
        "piece": lambda kind: escape(pieces.get(kind, kind)),
        "holding": lambda hid: escape(holdings.get(hid, hid)),
        "list": join,
        "cards": lambda ids, word="and": join([escape(cards[c].name if c in cards else c) for c in ids], word),
        "factions": lambda ids, word="and": join([escape(factions[f].name if f in factions else f) for f in ids], word),
        "players": lambda seats, word="and": join([escape(names[p] if 0 <= p < len(names) else str(p + 1))
                                                   for p in seats], word),
        "t": words_function(game, lang),
    }


def _fields(e) -> dict:
    """An event's fields other than ``type`` and ``data`` (``battle``, ``wave``, ``round``)."""
    fields = e._asdict() if hasattr(e, "_asdict") else {}
    return {k: v for k, v in fields.items() if k not in ("type", "data")}


def event_dict(e) -> dict:
    """An event as JSON (``--json``): its ``as_dict()``, else its type, fields and data in one mapping."""
    if hasattr(e, "as_dict"):
        return e.as_dict()
    return {"type": e.type, **_fields(e), **dict(e.data)}


def said(game, module, events, names, template_file, lang: str | None = None) -> tuple[list, list]:
    """``([(event type, sentence)], problems)``: each event said by its macro, in order, after the events of
    a type the template lists in ``merge`` are merged (:func:`merged`); events the template lists in
    ``quiet`` and macros that say nothing are left out; an event type without a macro (and not quiet),
    and a macro that fails, are problems at the template file. Names take their articles in ``lang``
    (default: the game's language), the template's language."""
    quiet = set(getattr(module, "quiet", ()) or ())
    events = merged(events, set(getattr(module, "merge", ()) or ()))
    start = next((e for e in events if e.type == "scenario_start"), None)
    names_of = namer(game, names, start.data.get("names") if start else None, lang)
    out, missing, errors = [], [], []
    converted: dict = {}        # the namer and the facts, escaped once for every event's macro
    for e in events:
        if e.type in quiet:
            continue
        macro = getattr(module, e.type, None)
        if not isinstance(macro, jinja2.runtime.Macro):
            if e.type not in missing:
                missing.append(e.type)
            continue
        data = {"type": e.type, **_fields(e), **e.data}
        if e.type == "scenario_start":      # what the example goes on to do: say only what it uses
            data["later"] = sorted({x.type for x in events if x is not e})
        try:
            with speaking(lang or game.language):
                text = " ".join(templating.call_macro(macro, data, names_of, game.facts, memo=converted).split())
        except templating.TEMPLATE_ERRORS as exc:
            problem = templating.template_problem(exc, template_file, f"event '{e.type}'")
            if problem not in errors:
                errors.append(problem)
            continue
        if text:
            out.append((e.type, Safe(text)))
    problems = [Problem(str(template_file), None, "events", f"no macro for the engine's event '{t}' (add one, "
                                                                f"or list it in quiet)") for t in missing]
    return out, errors + problems


def template_lines(game, module, events, names, template_file, lang: str | None = None) -> tuple[list[str], list]:
    """``(lines, problems)``: the events as transcript lines in plain text, said by the game's macros; an
    event of a type the template lists in ``heads`` starts the next line."""
    heads = set(getattr(module, "heads", ()) or ())
    sentences, problems = said(game, module, events, names, template_file, lang)
    lines, pending = [], ""
    for kind, text in sentences:
        if kind in heads:
            pending = f"{pending} {text}".strip()
            continue
        lines.append(plain_text(f"{pending} {text}".strip()))
        pending = ""
    if pending:
        lines.append(plain_text(pending))
    return lines, problems


def transcript_lines(game, engine, events, names, lang: str | None = None) -> list[str]:
    """A game's events as transcript lines in ``lang`` (default: the game's language): the engine's own
    ``transcript_lines`` when it has them (with its ``phrases_<lang>`` table), else the game's event
    templates, else the contract's default (each event's type and data). A template's problems raise
    DataError (``pnp validate`` reports them at the template)."""
    from pnp.errors import DataError
    from rules_engine.core.contract import engine_api

    engine = engine_api(engine)
    if engine.own("transcript_lines"):
        table = phrases(engine, lang)
        if table is None:
            return engine.transcript_lines(events, game.cards, game.factions, names)
        return engine.transcript_lines(events, game.cards, game.factions, names, table)
    module, template_file = event_templates(game, lang or game.language)
    if module is None:
        return engine.transcript_lines(events, game.cards, game.factions, names)
    lines, problems = template_lines(game, module, events, names, template_file, lang)
    if problems:
        raise DataError(problems)
    return lines


def merged(events, types: set) -> list:
    """``events`` with each run of events of a type in ``types`` that differ only in their ``card`` made
    one event with ``cards`` (the list): four cards drawn are one step, not four."""
    out = []
    for e in events:
        last = out[-1] if out else None
        if (e.type in types and last is not None and last.type == e.type and "card" in e.data
                and {k: v for k, v in e.data.items() if k not in ("card", "cards")}
                == {k: v for k, v in last.data.items() if k not in ("card", "cards")}):
            cards = last.data.get("cards") or [last.data["card"]]
            out[-1] = last._replace(data={**last.data, "cards": [*cards, e.data["card"]]})
        else:
            out.append(e._replace(data={**e.data, "cards": [e.data["card"]]}) if e.type in types and "card" in e.data
                       else e)
    return out
