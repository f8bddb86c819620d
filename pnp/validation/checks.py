"""Everything ``pnp validate`` checks, beyond what loading the data already checks.

Each check appends problems; checks are independent so one run reports everything.
"""

from __future__ import annotations

import re
from contextlib import nullcontext
from dataclasses import dataclass

from pnp.cache import buildcache
from pnp.draw.icons import for_game
from pnp.draw.text import fits_kept
from pnp.cache.checked import KeptChecks
from pnp.loading import placeholders
from pnp.errors import Problems
from pnp.loading.gamedata import Game, load_game
from pnp.loading.i18n import translate, translation_path
from pnp.text.typography import hyphenation_problem
from pnp.validation.translations import check_language, check_own_words, check_strings, check_translation_keys
from pnp.loading.templatetests import check_template_grammar, check_template_tests
from pnp.text.markup import card_markup_problems
from pnp.loading.paths import LANGUAGE, excerpt
from pnp.loading.yamlsrc import line_of


@dataclass
class ValidationResult:
    """The game as checked (None when it could not be loaded) and the summary ``pnp validate`` prints."""

    game: Game | None
    summary: str
    untranslated: int = 0          # printed strings the language lacks (allowed by --allow-missing)


#: Extra checks: functions (game, problems) -> None, registered by the modules that own them.
CHECKS = []


def register_check(func):
    CHECKS.append(func)
    return func


def validate_languages(game_arg, problems: Problems, options_for, cache=None) -> ValidationResult:
    """``pnp validate`` without ``--lang``: the game in its own language, then in every other language it
    claims (each ``i18n/<lang>.yaml``), as ``--lang`` checks one: its chapters, its printed words and what
    they print (a typo in a French chapter is an error at its line). A string a translation lacks is not an
    error here: one warning per language counts them (``--lang`` lists them). A problem the languages share
    is reported once. ``options_for(lang)`` gives the options of the run in ``lang``."""
    from pnp.loading.i18n import languages

    result = validate_game(game_arg, problems, None, cache=cache)
    game = result.game
    others = [lang for lang in languages(game) if lang != game.source_language] if game is not None else []
    for lang in others:
        found = Problems()
        validate_game(game_arg, found, options_for(lang), cache=cache, every_language=True)
        problems.extend(p for p in found if p not in problems)
    if others and result.summary:
        shown = ", ".join([game.source_language, *others])
        result = ValidationResult(game, result.summary[:-len(": valid")] + f", languages {shown}: valid")
    return result


def validate_game(game_arg, problems: Problems, options=None, component_checks=None, cache=None,
                  skip=(), every_language: bool = False) -> ValidationResult:
    """Load the game and run every check, adding problems to ``problems``. ``component_checks(game,
    problems)``, when given, stands in for running the components' own checks one after the other
    (a parallel build runs them with their builds). With a build ``cache`` (:class:`pnp.cache.buildcache.BuildCache`:
    ``pnp validate``'s), each check's problems are kept there by what it read and read back while that is
    unchanged (:mod:`pnp.cache.checked`); ``skip``: folders of the game folder that are no part of the game
    (the output folder). ``every_language``: a run of :func:`validate_languages` (the strings a
    translation lacks counted in one warning; the engine's games, which no language changes, not played
    again)."""
    lang = options.lang if options else None
    if lang is not None and not LANGUAGE.fullmatch(lang):
        problems.error(None, None, "--lang", f"{excerpt(lang)} is not a language code such as en, es or pt-BR")
        return ValidationResult(None, "")
    with buildcache.using(cache) if cache is not None else nullcontext():
        game = load_game(game_arg, problems, strict=False)
        if game is None:
            return ValidationResult(None, "")
        # only pnp validate keeps its checks (pnp build keeps whole components: pnp.build.kit)
        kept = KeptChecks(cache if cache is not None else buildcache.BuildCache(None), options, skip)
        with for_game(game, lang or game.language), fits_kept():      # each text fitted once by every check
            return _validate(game, problems, options, lang, component_checks, kept, every_language)


def _validate(game, problems: Problems, options, lang, component_checks=None, kept=None,
              every_language: bool = False) -> ValidationResult:
    from pnp.components import game_components

    kept = kept if kept is not None else KeptChecks(buildcache.BuildCache(None), options)
    placeholders.warn_counts(game.placeholders, problems)

    def files(found):
        # every file's own problems, whatever the others hold: one run reports them all
        for component in game_components(game):
            if component.check_files:
                component.check_files(game, found)
        check_translation_keys(game, found)
        check_strings(game, lang or game.language, found)
        check_template_tests(game, found)
        check_template_grammar(game, found)
    kept.run(game, "files", problems, files)
    players = options.players if options else None
    if players is not None and not game.players[0] <= players <= game.players[1]:
        problems.error(*game.where("players"), "players",
                       f"--players {players}: {game.title} is for {game.players[0]} to {game.players[1]} players")
    untranslated = 0
    allow_missing = bool(options and options.allow_missing)
    if not lang or lang == game.source_language:       # pnp's words in the game's own language
        untranslated = check_own_words(game, problems, allow_missing=allow_missing)
    if lang:
        untranslated += check_language(game, lang, problems, allow_missing=allow_missing, counted=every_language)
        if not problems.errors:
            game = translate(game, lang)
    unbroken = hyphenation_problem(lang or game.language)
    if unbroken:                  # a language pyphen has no dictionary for: its texts break no word
        problems.warn(translation_path(game, lang or game.language), None, f"language '{lang or game.language}'",
                      unbroken)
    if not problems.errors:
        kept.run(game, "printable", problems, lambda found: check_printable(game, lang, found))
    if not problems.errors:
        for check in CHECKS:
            check(game, problems)
        if component_checks is not None:
            component_checks(game, problems)
        else:
            for component in game_components(game):
                if component.check:
                    kept.run(game, f"component {component.name}", problems,
                             lambda found, c=component: c.check(game, found, options))
        if not problems.errors and (options is None or options.thorough):
            from pnp.validation.colourvision import piece_problems, side_problems, vision_problems
            from pnp.validation.piececheck import check_pieces

            def pieces(found):
                check_pieces(game, found, options)
                vision_problems(game, found)
                piece_problems(game, found)
                side_problems(game, found)
            kept.run(game, "pieces", problems, pieces)
            if not every_language:      # the same layouts in every language: told once, in the game's own
                from pnp.validation.iconkeys import check_icon_keys

                kept.run(game, "icon keys", problems, lambda found: check_icon_keys(game, found, lang))
        if game.engine and (options is None or options.thorough) and not every_language:
            from pnp.components.tokens import demand_check

            kept.run(game, "engine", problems, lambda found: _engine_check(game, found))
            kept.run(game, "token demand", problems, lambda found: demand_check(game, found))
    decks = f"{len(game.decks)} decks, " if game.several_decks else ""
    factions = f"{len(game.factions)} factions, " if game.factions else ""
    summary = (f"{game.title}: {decks}{len(game.deck_for())} cards ({len(game.cards)} different), "
               f"{factions}components {', '.join(game.components)}"
               f"{f', language {lang}' if lang else ''}"
               f"{f' ({untranslated} printed strings untranslated)' if untranslated else ''}: valid")
    return ValidationResult(game, summary, untranslated)


def _engine_check(game, problems: Problems) -> None:
    """The engine's own ``validate_game`` hook (its seeded games), each problem at the file and line of what
    it names (:func:`_hook_place`)."""
    from pnp.cache import played

    engine = _engine_named(game.engine)
    # the same cards, the same code: the seeded games played once in this process (pnp.cache.played)
    for found in played.hook("validate_game", engine.module, game, lambda: tuple(engine.validate_game(game))):
        path, line, subject, message, warning = _hook_place(game, engine, found)
        (problems.warn if warning else problems.error)(path, line, subject, message)


def _hook_place(game, engine, found) -> tuple:
    """``(path, line, subject, message, warning)`` of a problem the engine's ``validate_game`` gives: a
    :class:`rules_engine.core.contract.Problem` at the card it names (at its ``field``'s line when the file
    gives one), the deck's game.yaml entry, a game.yaml key's line, else game.yaml's ``engine:`` line; a
    ``(subject, message, warning)`` triple at the card when the subject is ``card 'ID'``, a deck for
    ``deck 'ID'``, a game.yaml key it names, else at ``engine:``."""
    if hasattr(found, "card") and hasattr(found, "message"):
        card, key, deck_id = found.card, found.key, found.deck
        subject = f"card '{card}'" if card else f"deck '{deck_id}'" if deck_id else key
        message = f"{found.field}: {found.message}" if found.field else found.message
        warning = found.warning
    else:
        subject, message, warning = found
        card = re.fullmatch(r"card '([^']+)'", subject or "")
        card = card.group(1) if card else None
        deck_id = re.fullmatch(r"deck '([^']+)'", subject or "")
        deck_id = deck_id.group(1) if deck_id else None
        key = subject if subject in game.meta_lines else None
    if card is not None and card in game.sources:
        return (*game.source(game.card(card), getattr(found, "field", None)), subject, message, warning)
    deck = next((d for d in game.decks if d.id == deck_id), None) if deck_id else None
    if deck is not None:
        return (*game.deck_where(deck), subject, message, warning)
    if key is not None and key in game.meta_lines:
        return (*game.where(key), subject, message, warning)
    who = f"engine '{game.engine}'" + (f": {subject}" if subject else "")
    return (*game.where("engine"), who, message, warning)


def printed_texts(game, lang: str | None = None):
    """Every text of the game's data that is printed: (path, line, subject, field, text, fonts).

    ``fonts`` names the font roles it is printed in. With ``lang``, the names come from the translation
    (``game`` is the translated game) and point at its file.
    """
    tr_path = translation_path(game, lang) if lang and lang != game.source_language else None
    tr = _raw_translation(tr_path)
    every = ("serif", "serif-semibold", "serif-italic", "sans", "sans-bold", "sans-black")
    names = ("serif", "serif-semibold", "sans-bold", "sans")

    def where(section, item_id, key, default):
        if tr is not None:
            node = tr
            for part in (section, item_id) if item_id else (section,):
                node = node.get(part) if isinstance(node, dict) else None
            line = line_of(node, key) if isinstance(node, dict) else None
            return tr_path, line or getattr(tr, "line", None)
        return default

    yield (*where("title", None, "title", game.where("title")), None, "title", game.title, every)
    for key in ("author", "publisher", "artist"):
        if getattr(game, key, ""):
            yield (*game.where(key), None, key, getattr(game, key), ("sans",))
    for role, name in getattr(game, "credits", ()):
        yield (*where("credits", None, role, game.where("credits")), None, "credits", f"{role}: {name}", ("sans",))
    for f in game.factions:
        at = where("factions", f.id, "name", game.where("factions", f.id))
        yield (*at, f"faction '{f.id}'", "name", f.name, every)
        yield (*at, f"faction '{f.id}'", "adjective", f.adjective, names)
    for r in game.ranks:
        at = where("ranks", r.id, "name", game.where("ranks", r.id))
        yield (*at, f"rank '{r.id}'", "name", r.name, every)
        yield (*at, f"rank '{r.id}'", "plural", r.plural, names)
    for c in game.categories:
        yield (*where("categories", c.id, "name", game.where("ability_categories", c.id)), f"category '{c.id}'",
               "name", c.name, every)
    for deck in game.decks if game.several_decks else ():
        yield (*where("decks", deck.id, "name", game.deck_where(deck)), f"deck '{deck.id}'", "name", deck.name,
               every)
    for spec in game.component_specs:
        for key in ("title", "start_label", "label"):
            if isinstance(spec.config.get(key), str):
                yield (game.root / "game.yaml", spec.line, f"{spec.kind} '{spec.id}'", key, spec.config[key], every)
    for card in game.cards:
        at = where("cards", card.id, "name", game.source(card))
        yield (*at, f"card '{card.id}'", "name", card.name, names)
        if card.flavour:
            yield (*at, f"card '{card.id}'", "flavour", card.flavour, ("serif-italic",))
        side = card.side_b
        if side is not None:           # its side B's name and flavour, at their lines (or the translation's)
            spec = game.deck_of(card).side_b
            path = game.source(card)[0]
            for key, text, roles in (("name", side.name, names), ("flavour", side.flavour, ("serif-italic",))):
                if text:
                    own = (path, spec.where(card.id, key)) if spec is not None else game.source(card)
                    yield (*(_side_b_line(tr, tr_path, card.id, key) or own), f"card '{card.id}' side B",
                           f"side_b.{key}", text, roles)


def _side_b_line(tr, tr_path, card_id: str, key: str) -> tuple | None:
    """(path, line) where a translation gives ``cards.<card_id>.side_b.<key>``, or None."""
    node = tr
    for part in ("cards", card_id, "side_b"):
        node = node.get(part) if isinstance(node, dict) else None
    return (tr_path, line_of(node, key)) if isinstance(node, dict) and key in node else None


def _raw_translation(path):
    if path is None or not path.is_file():
        return None
    from pnp.loading.yamlsrc import load_yaml
    try:
        raw = load_yaml(path)
    except Exception:   # reported by check_language
        return None
    return raw if isinstance(raw, dict) else None


def check_printable(game, lang: str | None, problems: Problems) -> None:
    """Every printed text of the data uses only characters the bundled fonts can print, and no control
    characters: a missing glyph would silently vanish from the page."""
    from pnp.draw import fonts

    for path, line, subject, field, text, roles in printed_texts(game, lang):
        # card markup (a translation's: the cards file's was checked on loading)
        if field in ("flavour", "side_b.flavour"):
            for message in card_markup_problems(text, game.icons.names):
                problems.error(path, line, subject, f"{field}: {message}")
        shown = fonts.unprintable(text, roles)
        if shown:
            problems.error(path, line, subject, f"{field + ' ' if field else ''}{excerpt(text)} uses characters "
                                                f"the fonts cannot print: {shown}")


def _engine_named(name: str):
    """The installed engine as pnp uses it (its hooks, and the contract's defaults): imported when a game
    with rules needs it."""
    from rules_engine.core.contract import engine_named

    return engine_named(name)
