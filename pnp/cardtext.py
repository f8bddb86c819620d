"""Card ability text, generated from the same structured ability data the rules engine executes.

Each engine has a Jinja2 template per language (``templates/abilities/<engine>/<lang>.j2``) holding
one macro per effect kind; a card's text is that macro called with the ability's parameters. Templates
run in pnp's sandbox (:mod:`pnp.templating`: data escaped, files confined to templates/) with
StrictUndefined, so a parameter the template expects but the data lacks is an error, not a blank on the
card.
"""

from __future__ import annotations

from functools import lru_cache

import jinja2

from pnp import TEMPLATES_DIR, templating
from pnp.cache import reads_files
from pnp.markup import Safe


def environment() -> jinja2.Environment:
    return templating.environment((TEMPLATES_DIR,), trim=False, keep_trailing_newline=False)


def game_environment(game) -> jinja2.Environment:
    """Templates of the game's own ``templates/`` folder first, then pnp's bundled ones."""
    return templating.environment((game.root / "templates", TEMPLATES_DIR), trim=False, keep_trailing_newline=False)


def template_path(engine: str, lang: str) -> str:
    return f"abilities/{engine}/{lang}.j2"


@reads_files
@lru_cache(maxsize=None)
def _module(engine: str, lang: str):
    return environment().get_template(template_path(engine, lang)).module


def known_kinds(engine: str, lang: str) -> set[str]:
    """Effect kinds the language's template has words for."""
    module = _module(engine, lang)
    return {name for name in dir(module) if not name.startswith("_")
            and isinstance(getattr(module, name), jinja2.runtime.Macro)}


def ability_text(game, card, lang: str | None = None) -> str:
    """The markup text of ``card``'s ability, or '' for a card without one."""
    if card.ability is None or not game.engine:
        return ""
    lang = lang or game.language
    macro = getattr(_module(game.engine, lang), card.ability.kind)
    params = {"kind": card.ability.kind, "step": card.ability.step, **card.ability.params}
    fac = game.faction(card.faction) if card.faction else None
    text = templating.call_macro(macro, params, card, fac, {r.id: r for r in game.ranks},
                                 {f.id: f for f in game.factions})
    return Safe(" ".join(text.split()))


def aid_text(game, deck, lang: str | None = None) -> tuple[str, str]:
    """(title, markup) of a deck's player-aid card, from its template and the engine's rule facts."""
    from rules_engine import engine_module

    lang = lang or game.language
    stem = deck.aids.get("template", "quick_reference")
    names = [f"aids/{lang}/{stem}.md.j2", f"aids/{game.templates}/{lang}/{stem}.md.j2"]
    template = game_environment(game).select_template(names)
    facts = getattr(engine_module(game.engine), "FACTS", {}) if game.engine else {}
    text = templating.render(template, rules=facts, game=game, deck=deck)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    title = lines[0][2:].strip() if lines and lines[0].startswith("# ") else ""
    body = "\n\n".join(lines[1:] if title else lines)
    return Safe(title), Safe(body)
