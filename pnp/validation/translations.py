"""The checks of a game's languages: every printed string a language lacks, reported at the original.

``pnp validate --lang es`` (and ``pnp build --lang es``) calls :func:`check_language`: each string of
:func:`sources` the Spanish translation does not give is a problem at the file and
line where the original words are written, saying which key to add to which file. They are errors, or
warnings with ``--allow-missing`` (a playtest kit then prints them in the data's own language). Every
validate also runs :func:`check_translation_keys` (keys of each translation file that match nothing) and
:func:`check_strings` (the printed words of the build's language: markup and placeholders).
"""

from __future__ import annotations

from pnp.errors import DataError, Problems
from pnp.components import game_components
from pnp.loading.i18n import (PLACEHOLDERS, REFERENCE, game_words, is_plural, languages, no_translation, pnp_words,
                              strings_path, translation_path)
from pnp.loading.i18n.catalogue import Source, data_sources, has_letters, word_sources
from pnp.loading.i18n.literals import suggested_key
from pnp.text.markup import markup_problems, placeholder_problems
from pnp.loading.paths import excerpt
from pnp.suggest import closest
from pnp.loading.yamlsrc import LineDict, line_of, load_yaml_or_report


def sources(game) -> list[Source]:
    """Every printed string of ``game`` (loaded in its own language) a translation must give, in the
    order of the files: game.yaml and the cards, each component's own words, the game's and pnp's words."""
    out = list(data_sources(game))
    for component in game_components(game):
        if component.words is not None:
            out += component.words(game)
    out += word_sources(game)
    seen, unique = set(), []
    for s in out:
        if s.key not in seen and (s.kind != "key" or has_letters(s.text)):
            seen.add(s.key)
            unique.append(s)
    return unique


def check_language(game, lang: str, problems: Problems, allow_missing: bool = False, counted: bool = False) -> int:
    """Every printed string of ``game`` (loaded in its own language) that ``lang`` lacks, reported where
    the original is written: errors, or warnings when ``allow_missing``; with ``counted``, one warning
    saying how many (``pnp validate`` without ``--lang``, which checks every translation the game ships).
    Returns how many are missing.

    Also: pnp's own words file for ``lang`` has no key pnp does not use, and the translation file's
    values are of the right type (those are errors either way)."""
    if lang == game.source_language:
        return 0
    report = problems.warn if allow_missing else problems.error
    _check_pnp_file(game, lang, problems)
    tpath = translation_path(game, lang)
    raw = {}
    if lang not in languages(game):
        p = no_translation(game, lang)
        report(p.path, p.line, p.subject, p.message + "; what a translation must give:")
    else:
        before = len(problems)
        raw = load_yaml_or_report(tpath, problems, within=game.root)
        if len(problems) > before:
            return 0
        if not isinstance(raw, LineDict) or not raw:
            what = "is empty" if raw is None or raw == {} else f"is {_what(raw)}"
            problems.error(tpath, getattr(raw, "line", None), f"language '{lang}'",
                           f"the translation {what}; expected a mapping of translated words (title, cards, ...)")
            return 0
    found = dict(leaves(raw))
    theirs = pnp_words(lang)
    every = sources(game)
    # words under a misspelt key are reported as one unused key (check_translation_keys), not also as missing
    misspelt = meant_keys(game, raw, {s.key for s in every if s.kind == "key"} | grammar_keys(game)) if raw else ()
    missing, pnp_missing = 0, []
    for source in every:
        if source.kind == "key" and (source.key in misspelt or source.key.startswith(
                tuple(m for m in misspelt if m.endswith(".")))):
            continue
        if source.kind == "key":
            if source.pnp_key is not None and source.pnp_key in theirs:
                continue
            if source.key in found:
                value, line = found[source.key]
                for wrong in _wrong_value(source, value) or _printing_problems(game, source, value):
                    problems.error(tpath, line, f"language '{lang}'", f"{source.key}: {wrong}")
                continue
        elif source.kind == "template" and _template_for(source, lang) is not None:
            continue
        missing += 1
        if source.pnp_key is not None:
            pnp_missing.append(source)
        elif not counted:
            report(source.path, source.line, source.subject, missing_message(game, source, lang))
    if pnp_missing and not counted:
        section = raw.get("strings") if isinstance(raw, dict) else None
        report(tpath, line_of(raw, "strings") if section is not None else None, f"language '{lang}'",
               pnp_words_message(game, pnp_missing, lang))
    if missing and counted:
        problems.warn(tpath, None, f"language '{lang}'",
                      f"{missing} printed string{'s are' if missing != 1 else ' is'} not translated (pnp validate "
                      f"--lang {lang} lists {'them' if missing != 1 else 'it'}; a build in '{lang}' needs "
                      f"--allow-missing)")
    elif missing and allow_missing:
        problems.warn(tpath, None, f"language '{lang}'",
                      f"{missing} printed string{'s are' if missing != 1 else ' is'} not translated; the kit "
                      f"prints {'them' if missing != 1 else 'it'} in '{game.source_language}' (--allow-missing)")
    return missing


def missing_message(game, source: Source, lang: str) -> str:
    """What is untranslated and how to translate it."""
    file = f"i18n/{lang}.yaml"
    if source.kind == "literal":
        key = suggested_key(source.text)
        return (f"{source.what}: the literal {excerpt(source.text)} cannot be translated: write t('{key}') with "
                f"strings: {{{key}: ...}} in i18n/{game.source_language}.yaml and {file}")
    if source.kind == "template":
        return f"{source.what} has no '{lang}' version: write {source.key.replace('{lang}', lang)}"
    shown = f"{source.what} ({excerpt(source.text)})" if source.key.startswith("strings.") else \
        f"{source.what} {excerpt(source.text)}"
    also = f" (or {source.pnp_key} in pnp's templates/strings/{lang}.yaml)" if source.pnp_key else ""
    return f"{shown} is not translated into '{lang}': give {source.key} in {file}{also}"


def pnp_words_message(game, missing: list, lang: str, shown_in: str | None = None) -> str:
    """One message for all of pnp's own printed words ``lang`` lacks (the instructions page, box labels,
    captions, ...): how many, where to give them, and a block of them (in the game's own language, or
    ``shown_in``) ready to paste under ``strings:`` and translate."""
    import yaml

    block = yaml.safe_dump({"strings": {s.pnp_key: dict(s.text) if isinstance(s.text, dict) else str(s.text)
                                        for s in missing}}, allow_unicode=True, sort_keys=False,
                           width=10_000, default_flow_style=False).rstrip("\n")
    n = len(missing)
    what = f"not translated into '{lang}'" if shown_in is None else f"not in '{lang}' (pnp has them in " \
        f"{', '.join(shipped_languages())})"
    return (f"{n} of pnp's printed words {'are' if n != 1 else 'is'} {what}: give {'them' if n != 1 else 'it'} "
            f"under strings: in i18n/{lang}.yaml; {'these are' if n != 1 else 'it is'} the words in "
            f"'{shown_in or game.source_language}', ready to paste there and translate:\n{block}")


def shipped_languages() -> list[str]:
    """The languages pnp ships its own printed words in (``templates/strings/<lang>.yaml``)."""
    return sorted(p.stem for p in strings_path(REFERENCE).parent.glob("*.yaml"))


def check_own_words(game, problems: Problems, allow_missing: bool = False) -> int:
    """pnp's printed words the game's own language lacks: the keys of pnp's reference words that neither
    pnp's words for the language nor the game's ``strings:`` give (a game written in a language pnp does
    not ship gives them all), in one message at the game's ``i18n/<lang>.yaml`` with pnp's English words
    to paste and translate. An error, or a warning with ``allow_missing`` (the kit prints them in English).
    Returns how many are missing."""
    lang = game.source_language
    have = set(pnp_words(lang)) | set(game_words(game, lang))
    missing = [Source(f"strings.{key}", text, strings_path(REFERENCE), None, None, "", pnp_key=key)
               for key, text in pnp_words(REFERENCE).items() if key not in have]
    if missing:
        path = translation_path(game, lang)
        raw = _raw_translation(path, game)
        line = line_of(raw, "strings") if isinstance(raw, dict) and "strings" in raw else None
        (problems.warn if allow_missing else problems.error)(
            path, line, f"language '{lang}'", pnp_words_message(game, missing, lang, shown_in=REFERENCE))
    return len(missing)


def _raw_translation(path, game):
    from pnp.loading.yamlsrc import load_yaml

    try:
        return load_yaml(path, within=game.root) if path.is_file() else None
    except DataError:          # reported by the checks that read it
        return None


def _wrong_value(source: Source, value) -> list[str]:
    if source.pnp_key is not None or source.key.startswith("strings."):    # a printed word: text or plural forms
        if isinstance(value, dict):
            return [] if is_plural(value) else [_plural_problem(value)]
        return [] if isinstance(value, str) and value.strip() else ["must be non-empty text (or plural forms)"]
    if isinstance(source.text, list):
        if not isinstance(value, list) or len(value) != len(source.text) or \
                not all(isinstance(v, str) and v.strip() for v in value):
            return [f"expected a list of {len(source.text)} non-empty texts, like the original"]
        return []
    if not isinstance(value, str) or not value.strip():
        return ["must be non-empty text"]
    return []


def _printing_problems(game, source: Source, value) -> list[str]:
    """A translated text that cannot print as meant: card markup with problems (a text field's, as the
    original's are checked where they are written), characters the bundled fonts lack."""
    from pnp.draw import fonts
    from pnp.text.markup import card_markup_problems

    out = list(card_markup_problems(value, game.icons.names)) if source.markup else []
    for text in value if isinstance(value, list) else value.values() if isinstance(value, dict) else [value]:
        shown = fonts.unprintable(text)
        if shown:
            out.append(f"{excerpt(text)} uses characters the fonts cannot print: {shown}")
    return out


def _template_for(source: Source, lang: str):
    """The file that gives a template source in ``lang``, or None."""
    from pathlib import Path

    for pattern in source.text:
        if pattern.startswith("module:"):
            import importlib.util
            try:
                if importlib.util.find_spec(pattern[7:].replace("{lang}", lang)) is not None:
                    return pattern
            except (ImportError, ValueError):
                pass
        elif Path(pattern.replace("{lang}", lang)).is_file():
            return pattern
    return None


def _check_pnp_file(game, lang: str, problems: Problems) -> None:
    """pnp's words file for ``lang`` (when pnp has one) holds no key pnp's own language does not."""
    path = strings_path(lang)
    if not path.is_file() or lang == game.source_language:
        return
    base = pnp_words(game.source_language)
    theirs = load_yaml_or_report(path, problems)
    for key in theirs if isinstance(theirs, dict) else {}:
        if key not in base:
            problems.error(path, line_of(theirs, key), f"language '{lang}'", f"unused key '{key}'")


def check_translation_keys(game, problems: Problems) -> None:
    """Every translation file of the game (i18n/<lang>.yaml): readable, a mapping, and no key that
    matches nothing in the data (a misspelt card id would otherwise silently keep the original words).
    Missing keys are reported when building or validating that language (``--lang``).

    A card, a deck, a token or anything else left out (or partly read) for its own problems is not a
    reason to call its translated words unused: that would be one follow-on message per word. A key
    under an id the game does not have (a misspelt card id) is one problem for the id, with the closest
    id the game has; any other unused key names the closest key a translation may give."""
    folder = game.root / "i18n"
    if not folder.is_dir():
        return
    expected = {s.key for s in sources(game) if s.kind == "key"} | grammar_keys(game)
    for tpath in sorted(folder.glob("*.yaml")):
        lang = tpath.stem
        before = len(problems)
        raw = load_yaml_or_report(tpath, problems, within=game.root)
        if len(problems) > before or raw is None:
            continue
        if not isinstance(raw, LineDict):
            problems.error(tpath, getattr(raw, "line", None), f"language '{lang}'",
                           f"the translation is {_what(raw)}; expected a mapping of translated words")
            continue
        for line, message, _ in unused_keys(game, raw, expected):
            problems.error(tpath, line, f"language '{lang}'", message)
        check_grammar(raw, tpath, lang, problems)
        misspelt_words(game, tpath, raw, lang, problems)


def grammar_keys(game) -> set:
    """The keys a translation may give to say how a name is said (``cards.<id>.gender``, ``.article``;
    the same for factions): :data:`pnp.loading.i18n.GRAMMAR_KEYS`."""
    from pnp.loading.i18n import GRAMMAR_KEYS

    return {f"{section}.{ident}.{key}" for section, ids in (("cards", [c.id for c in game.cards]),
                                                            ("factions", [f.id for f in game.factions]))
            for ident in ids for key in GRAMMAR_KEYS}


def check_grammar(raw, tpath, lang: str, problems: Problems) -> None:
    """Each ``gender`` a translation gives is one of :data:`pnp.text.grammar.GENDER_VALUES`, each ``article``
    true or false, at its line."""
    from pnp.text.grammar import GENDER_VALUES, parse_gender

    for section in ("cards", "factions"):
        entries = raw.get(section)
        if not isinstance(entries, dict):
            continue
        for ident, entry in entries.items():
            if not isinstance(entry, dict):
                continue
            subject = f"{section[:-1]} '{ident}'"
            if "gender" in entry:
                try:
                    parse_gender(entry["gender"])
                except ValueError:
                    close = closest(str(entry["gender"]), GENDER_VALUES)
                    hint = f"; did you mean '{close}'?" if close else ""
                    problems.error(tpath, line_of(entry, "gender"), subject,
                                   f"gender: {excerpt(str(entry['gender']))} is not masculine, feminine or "
                                   f"neuter (then ' plural' for a plural name){hint}")
            if "article" in entry and not isinstance(entry["article"], bool):
                problems.error(tpath, line_of(entry, "article"), subject,
                               f"article: expected true or false (false: a personal name, said without an "
                               f"article), got {excerpt(str(entry['article']))}")


#: How alike a key of ``strings:`` must be to a printed word it may have meant (difflib's ratio): a letter
#: or two of a word's name (stricter than a "did you mean"'s: the key may be the game's own).
MEANT = 0.8


def misspelt_words(game, tpath, raw, lang: str, problems: Problems) -> None:
    """A key of a language file's ``strings:`` that is none of pnp's printed words nor a token kind's
    ``tokens_<kind>``, that no file of the game writes (a game's own word, which a layout or template asks
    for with ``t('key')``), and that is a letter or two from one of those words the file does not give: a
    warning at its line naming that word (the word it meant prints pnp's own words, or the kind's id,
    silently)."""
    section = raw.get("strings")
    if not isinstance(section, dict):
        return
    words = set(pnp_words("en")) | set(pnp_words(lang))
    known = words | {f"tokens_{kind}" for kind in _token_kinds(game)}
    for key in section:
        if not isinstance(key, str) or key in known:
            continue
        meant = closest(key, known, builtin=words, cutoff=MEANT)
        if meant is None or meant in section or _written(game, key):
            continue
        what = "pnp's printed word" if meant in words else f"the printed word of token kind '{meant[7:]}'"
        problems.warn(tpath, line_of(section, key), f"language '{lang}'",
                      f"strings: {excerpt(key)} is no printed word of pnp's nor a token kind's, and nothing of the "
                      f"game asks for it with t('{key}'); did you mean {excerpt(meant)} ({what})?")


def _token_kinds(game) -> list:
    from pnp.loading.tokendata import load_tokens

    try:
        token_set = load_tokens(game)
    except DataError:                   # (reported with tokens.yaml's own problems)
        return []
    return list(token_set.kinds) if token_set is not None else []


def _written(game, key: str) -> bool:
    """Whether a file of the game other than its translations (game.yaml, a layout, a template, a data
    file) writes ``key``: its own printed word, asked for by name."""
    from pnp.loading.picturefiles import files_in

    root = game.root.resolve()
    for name in files_in(root, (".yaml", ".yml", ".j2", ".csv")):
        if name.startswith("i18n/"):
            continue
        try:
            if key in (root / name).read_text(encoding="utf-8", errors="replace"):
                return True
        except OSError:
            continue
    return False


def unused_keys(game, raw, expected) -> list:
    """(line, message, meant) of each key of a translation (``raw``) that matches none of ``expected`` (the
    keys the game's words have), and is not under something left out for its own problems (see
    :func:`check_translation_keys`): one per unknown id, else one per key, each naming what it likely
    meant (``meant``: that key, or ``section.id.`` for a misspelt id; None when nothing is close)."""
    unsure = _unsure_prefixes(game) + tuple(getattr(game, "unsure", ()))
    ids = _ids(game)
    out, told = [], set()
    for key, (_, line) in leaves(raw):
        if key in expected or key.startswith(unsure):
            continue
        section, _, rest = key.partition(".")
        ident = rest.split(".", 1)[0]
        if section in ids and ident not in ids[section]:      # one problem per unknown id
            if (section, ident) not in told:
                told.add((section, ident))
                close = closest(ident, ids[section])
                hint = f"; did you mean '{close}'?" if close else ""
                out.append((line_of(raw.get(section), ident) or line,
                            f"unused key {excerpt(f'{section}.{ident}')}: the game has no "
                            f"{_ID_SECTIONS[section]} {excerpt(ident)}{hint}", close and f"{section}.{close}."))
            continue
        near = [k for k in expected if k.startswith(f"{section}.{ident}.")] or \
            [k for k in expected if k.startswith(f"{section}.")]
        close = closest(key, near)
        hint = f"; did you mean '{close}'?" if close else ""
        out.append((line, f"unused key {excerpt(key)}{hint}", close))
    return out


def meant_keys(game, raw, expected) -> tuple:
    """The keys (and, ending in '.', the key prefixes of whole ids) a translation's unused keys likely meant
    (their "did you mean"). The words it gives under a misspelt key count as given, wrongly: the
    misspelling is the one problem, not also every word it meant."""
    return tuple(meant for *_, meant in unused_keys(game, raw, expected) if meant)


#: Sections of a translation keyed by the ids of the game's things (``cards.<card id>.name``), and what
#: each id names in a message.
_ID_SECTIONS = {"cards": "card", "factions": "faction", "ranks": "rank", "categories": "category",
                "decks": "deck", "tokens": "token", "components": "component", "pieces": "piece",
                "holdings": "holding"}


def _ids(game) -> dict:
    """The ids the game has in each of :data:`_ID_SECTIONS` (tokens: when tokens.yaml loads)."""
    from pnp.loading.tokendata import load_tokens

    out = {"cards": {c.id for c in game.cards}, "factions": {f.id for f in game.factions},
           "ranks": {r.id for r in game.ranks}, "categories": {c.id for c in game.categories},
           "decks": {d.id for d in game.decks}, "components": set(game.components),
           "pieces": {p.id for p in game.pieces}, "holdings": {h.id for h in game.holdings}}
    try:
        tokens = load_tokens(game)
    except DataError:            # its own problems: its keys are unsure (_unsure_prefixes)
        tokens = None
    out["tokens"] = {t.id for t in tokens.tokens} if tokens is not None else set()
    return out


def _unsure_prefixes(game) -> tuple:
    """Key prefixes a translation may use although the loaded game lacks them: the raw ids of every
    deck's card entries left out for their own problems, all of ``cards.`` when a cards file cannot
    be read at all, ``tokens.`` when tokens.yaml has problems of its own and ``examples.`` when
    rulebook.yaml has (the game's :attr:`~pnp.loading.gamedata.Game.unsure` says what of game.yaml)."""
    from pnp.loading.decks import read_cards
    from pnp.loading.tokendata import load_tokens
    from pnp.rulebook.chapters import config_path, load_config

    prefixes = []
    for prefix, load, path in (("tokens.", load_tokens, game.root / "tokens.yaml"),
                               ("examples.", load_config, config_path(game))):
        if path.is_file():
            try:
                load(game)
            except DataError:
                prefixes.append(prefix)
    loaded = {c.id for c in game.cards}
    for deck in game.decks:
        raw_list, top = read_cards(deck, game.root, Problems())      # parsed once per run: cached
        if top is None and deck.cards_file is not None:
            return ("cards.",)
        prefixes += [f"cards.{item['id']}." for item in raw_list
                     if isinstance(item, dict) and isinstance(item.get("id"), str) and item["id"] not in loaded]
        # a card's side B left out for its own problems takes its translated words with it
        sides = {c.id for c in deck.cards if c.side_b is not None}
        prefixes += [f"cards.{item['id']}.side_b." for item in raw_list
                     if isinstance(item, dict) and isinstance(item.get("id"), str) and item["id"] in loaded
                     and item.get("side_b") is not None and item["id"] not in sides]
    return tuple(prefixes)


def _what(value) -> str:
    return "a list" if isinstance(value, list) else f"{excerpt(value)}, not a mapping"


def check_strings(game, lang: str, problems: Problems) -> None:
    """The printed words a build in ``lang`` uses: text, valid markup, only the placeholders each may use.

    Problems name the file and line the words come from (pnp's templates/strings or the game's i18n).
    """
    sources_ = [(strings_path(lang), None, None), (translation_path(game, lang), game.root, "strings")]
    reference = pnp_words(REFERENCE)
    for path, within, section in sources_:
        if not path.is_file():
            continue
        raw = load_yaml_or_report(path, problems, within=within)
        if raw is None:
            continue
        words = raw.get(section) if section and isinstance(raw, dict) else raw
        if words is None and section:
            continue
        if not isinstance(words, dict):
            problems.error(path, line_of(raw, section) if section else getattr(raw, "line", None), "strings",
                           f"{section or 'the file'}: expected a mapping of words, got {_what(words)}")
            continue
        for key, text in words.items():
            where = f"{section}.{key}" if section else str(key)
            line = line_of(words, key)
            if isinstance(text, dict) and not is_plural(text):
                problems.error(path, line, "strings", f"{excerpt(where)}: {_plural_problem(text)}")
                continue
            if isinstance(text, dict) and key in reference and "count" not in PLACEHOLDERS.get(key, ()):
                problems.error(path, line, "strings", f"{excerpt(where)}: pnp prints this word with no count: "
                                                      f"give one text, not plural forms")
                continue
            if not isinstance(text, (str, dict)):
                problems.error(path, line, "strings", f"{excerpt(where)}: expected text, got {_what(text)}")
                continue
            for form, each in text.items() if isinstance(text, dict) else ((None, text),):
                at = line_of(text, form) if form else line
                shown = f"{where}.{form}" if form else where
                for message in placeholder_problems(each, PLACEHOLDERS.get(key, set())) if key in PLACEHOLDERS \
                        else []:
                    problems.error(path, at, "strings", f"{shown}: {message}")
                for message in markup_problems(each, game.icons.names):
                    problems.error(path, at, "strings", f"{shown}: {message}")


def _plural_problem(value: dict) -> str:
    """What is wrong with a mapping given as a printed word's plural forms."""
    from pnp.text.locales import CATEGORIES

    wrong = [k for k in value if not (isinstance(k, str) and (k in CATEGORIES or k[:1] == "=" and k[1:].isdigit()))]
    if wrong:
        return (f"plural forms: unknown form {excerpt(str(wrong[0]))}; the forms are {', '.join(CATEGORIES)} "
                f"(CLDR's plural categories) or an exact count such as '=0'")
    if "other" not in value:
        return "plural forms: 'other' is required (the form for any count the others do not cover)"
    bad = next(k for k, v in value.items() if not isinstance(v, str))
    return f"plural forms: {bad}: expected text, got {_what(value[bad])}"


#: Sections of a translation whose keys are words (box items as box.yaml writes them, printed words'
#: keys), not structure: a mapping there is a value, never more keys.
_FREE = ("box.items.", "strings.")


def leaves(node, prefix=""):
    """(dotted key, (value, line)) of every translated text of a translation file."""
    if not isinstance(node, dict):
        return
    for k, v in node.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict) and prefix not in _FREE:
            yield from leaves(v, key + ".")
        else:
            yield key, (v, line_of(node, k))
