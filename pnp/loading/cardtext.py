"""Card ability text, generated from the same structured ability data the rules engine executes.

A game's folder holds a Jinja2 template per language (``templates/abilities/<lang>.j2``) with one
macro per effect kind; a card's text is that macro called with the ability's parameters. Templates are
looked up in the game's ``templates/`` folder first, then in pnp's (never by the game folder's name, so
a copied folder builds the same kit). They run in pnp's sandbox (:mod:`pnp.text.templating`: data escaped,
files confined to the template folders) with StrictUndefined, so a parameter the template expects but
the data lacks is an error, not a blank on the card.
"""

from __future__ import annotations

from functools import lru_cache

from pathlib import Path

import jinja2

from pnp.text.grammar import speaking
from pnp import TEMPLATES_DIR
from pnp.text import templating
from pnp.cache.memo import reads_files
from pnp.text.markup import Safe


def template_roots(root) -> tuple:
    """Template folders of a game: its own ``templates/``, then pnp's bundled ones."""
    return (root / "templates", TEMPLATES_DIR)


def game_environment(game) -> jinja2.Environment:
    """Templates of the game's own ``templates/`` folder first, then pnp's bundled ones."""
    return templating.environment(template_roots(game.root), trim=False, keep_trailing_newline=False)


def template_names(engine: str | None, lang: str) -> list[str]:
    """Where a language's ability words are looked up: the game's, then (for an engine that ships its
    own words with pnp) ``abilities/<engine>/<lang>.j2``."""
    return [f"abilities/{lang}.j2"] + ([f"abilities/{engine}/{lang}.j2"] if engine else [])


def ability_module(root, engine: str | None, lang: str, fallback: str | None = None):
    """The ability template of ``lang``, else of ``fallback`` (the data's own language: a translation
    without it is reported by validation, and builds only with --allow-missing). Answered from memory,
    it notes again the templates it read (:func:`pnp.text.templating.note_templates`)."""
    module, names = _module(root, engine, lang, fallback)
    templating.note_templates(names)
    return module


@reads_files
@lru_cache(maxsize=None)
def _module(root, engine: str | None, lang: str, fallback: str | None = None):
    """(:func:`ability_module`, the templates it read)."""
    env = templating.environment(template_roots(root), trim=False, keep_trailing_newline=False)
    names = template_names(engine, lang) + (template_names(engine, fallback) if fallback not in (None, lang) else [])
    with templating.template_reads() as read:
        module = env.select_template(names).module
    return module, frozenset(read)


def known_kinds(game, lang: str) -> set[str]:
    """Effect kinds the language's ability template has words for."""
    module = ability_module(game.root, game.engine, lang, game.source_language)
    return {name for name in dir(module) if not name.startswith("_")
            and isinstance(getattr(module, name), jinja2.runtime.Macro)}


def ability_text(game, card, lang: str | None = None) -> str:
    """The markup text of ``card``'s ability, or '' for a card without one."""
    if card.ability is None or not game.engine:
        return ""
    lang = lang or game.language
    macro = getattr(ability_module(game.root, game.engine, lang, game.source_language), card.ability.kind, None)
    if not isinstance(macro, jinja2.runtime.Macro):
        raise jinja2.TemplateRuntimeError(f"the card-text template has no macro '{card.ability.kind}' for this "
                                          f"effect kind")
    params = {"kind": card.ability.kind, "step": card.ability.step, **card.ability.params}
    fac = game.faction(card.faction) if card.faction else None
    module = ability_module(game.root, game.engine, lang, game.source_language)
    written_in = lang if Path(module.__name__ or "").stem == lang else game.source_language
    with speaking(written_in):         # a missing translation's words are the original's, said in its language
        text = templating.call_macro(macro, params, card, fac, {r.id: r for r in game.ranks},
                                     {f.id: f for f in game.factions})
    return Safe(" ".join(text.split()))


def aid_template(game, deck, lang: str | None = None):
    """The template of a deck's player-aid card in ``lang`` (else in the game's own language): jinja2's
    TemplateNotFound when there is none."""
    lang = lang or game.language
    stem = deck.aids.get("template", "quick_reference")
    return game_environment(game).select_template(list(dict.fromkeys(
        (f"aids/{lang}/{stem}.md.j2", f"aids/{game.source_language}/{stem}.md.j2"))))


def aid_text(game, deck, lang: str | None = None) -> tuple[str, str]:
    """(title, markup) of a deck's player-aid card, from the game's ``templates/aids/<lang>/<template>.md.j2``
    and the engine's rule facts (``rules``; empty without an engine)."""
    from rules_engine.core.contract import engine_named

    lang = lang or game.language
    template = aid_template(game, deck, lang)
    facts = getattr(engine_named(game.engine), "FACTS", {}) if game.engine else {}
    with speaking(lang if template.name.startswith(f"aids/{lang}/") else game.source_language):
        text = templating.render(template, rules=facts, game=game, deck=deck, data=game.data)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    title = lines[0][2:].strip() if lines and lines[0].startswith("# ") else ""
    body = "\n\n".join(lines[1:] if title else lines)
    return Safe(title), Safe(body)
