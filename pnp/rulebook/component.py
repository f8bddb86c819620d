"""The rulebook component: ``rulebook.pdf`` (reading order, for screens) and ``rulebook-imposed.pdf``
(saddle-stitch sheets, in the kit). Examples are played by the rules engine at build time."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from pnp.cache import buildcache
from pnp.text import typography
from pnp.cache.memo import reads_files
from pnp.text.credits import credit_lines
from pnp.loading.cardtext import ability_text
from pnp.components import BuildOptions, Component, Output, Part
from pnp.draw.icons import active as icons_active
from pnp.draw.icons import with_game_icons
from pnp.draw.pdf import render
from pnp.draw.merge import impose as merge_impose
from pnp.draw.merge import page_count
from pnp.errors import DataError, Problem, Problems
from pnp.rulebook.figures import Figures
from pnp.loading.i18n import strings, translation, words_function
from pnp.layout.imposition import padded, print_order, side_marks
from pnp.text.markup import Directive, Heading, Safe, escape, fill, parse, plain_text
from pnp.rulebook.chapters import chapter_markup, load_config
from pnp.draw.document import (EMPTY_SHARE, draw_laid_out, empty_pages, lay_out, page_blocks,
                                placed_lines)
from pnp.loading.paths import excerpt
from pnp.loading.events import event_templates, phrases, transcript_lines  # noqa: F401 (phrases: tests)
from pnp.loading.events import said as said_by_templates
from pnp.loading.scenario import load_scenario, play_scenario
from pnp.loading.tokendata import load_tokens
from pnp.units import PAPERS, half_sheet, pt
from rules_engine.core.contract import engine_named

PLAYER_NAMES = ("Ana", "Ben", "Cleo", "Dario", "Eva")
#: Event types the printed examples leave out (waves in which a short example plays nothing).
QUIET_EVENTS = {"wave_empty"}


def _transcript(engine, events, game, names, lang):
    return transcript_lines(game, engine, events, names, lang)


@dataclass(frozen=True)
class EngineExample:
    """An example played by the rules engine, ready to print: its ``title``, the start position drawn
    (``start``: figure lines) and told (``setup``), the numbered ``steps`` and the ``outcome``, each a
    sentence in the kit's language made from the engine's structured events by the game's event
    templates (``templates/events/<lang>.j2``); ``markup`` is all of it as a rulebook prints it. Iterating
    gives the engine's transcript lines (``lines``), as chapters written before prose examples read it."""

    id: str
    title: str
    start: str
    setup: str
    steps: tuple
    outcome: tuple
    lines: tuple
    markup: str
    paragraphs: tuple = ()      # the steps as paragraphs, each ((event type, sentence), ...): a head starts one
    events: tuple = ()          # the engine's events, each {type, its fields, its data}, for figures
    names: tuple = ()           # the players' names by seat

    def __iter__(self):
        return iter(self.lines)

    def told(self, skip=(), start: int = 0, stop: int | None = None) -> Safe:
        """The steps told as paragraphs of sentences (``start``:``stop`` of them), as a whole game is told
        in a rulebook rather than numbered: a paragraph from each head (a wave, a round) on; sentences of
        the event types in ``skip`` left out (a figure shows them)."""
        out = []
        for paragraph in self.paragraphs[start:stop]:
            said = " ".join(text for kind, text in paragraph if kind not in skip)
            if said:
                out.append(said)
        return Safe("\n\n".join(out))


def _sentences(game, module, events, names, template_file, lang) -> tuple[str, list, list, list]:
    """(setup, steps, outcome, problems): every event said by its macro (:func:`pnp.loading.events.said`),
    grouped as the template's ``outcome`` and ``heads`` lists say."""
    setup, steps, outcome, problems, _ = _told(game, module, events, names, template_file, lang)
    return setup, steps, outcome, problems


def _told(game, module, events, names, template_file, lang) -> tuple[str, list, list, list, list]:
    """:func:`_sentences` and the steps as paragraphs (a head starts a new one), each a list of (event
    type, sentence)."""
    outcome_types = set(getattr(module, "outcome", ()) or ())
    heads = set(getattr(module, "heads", ()) or ())
    starts = set(getattr(module, "paragraphs", ()) or ())     # events that start a paragraph of their own
    sentences, problems = said_by_templates(game, module, events, names, template_file, lang)
    pending = ""
    setup, steps, outcome, paragraphs = "", [], [], []
    for kind, text in sentences:
        if kind == "scenario_start":
            setup = text
        elif kind in heads:
            pending = f"{pending} {text}".strip()
        elif kind in outcome_types:
            outcome.append(text)
        else:
            if pending or not paragraphs or kind in starts:
                paragraphs.append([])
            steps.append(Safe(f"{pending} {text}".strip()))
            paragraphs[-1].append((kind, steps[-1]))
            pending = ""
    return setup, steps, outcome, problems, paragraphs


def _start_figures(game, figures, position: dict, names, words, events) -> str:
    """Figure lines showing a scenario's start position: the map round the hexes the example plays on
    with every piece there, then each player's hand, cards in play, stacks and dice."""
    rows = []
    if position.get("pieces") and game.map is not None:
        spots = []
        for e in events:
            for key in ("start", "to", "at", "target_at"):
                value = e.data.get(key)
                if isinstance(value, str) and value not in spots:
                    spots.append(value)
        pieces: dict = {}
        for p in position["pieces"]:
            pieces.setdefault(p["at"], []).append(p["kind"])
        around = spots or list(pieces)[:1]
        near = {h: k for h, k in pieces.items()}
        bridges = list(position.get("bridges") or ())
        said = words.get("example_map", "The position at the start")
        if bridges:                 # drawn as outlined hexes: the caption says what they are
            said += "; " + fill(words.get("example_bridges", "a red outline marks a bridge: {hexes}"),
                                hexes=", ".join(bridges))
        rows.append(figures.map(around=around, radius=0.9, pieces=near, highlight=bridges, scale=0.6,
                                caption=Safe(said)))

    def caption(key, default, seat):
        return Safe(fill(words.get(key, default), player=names[seat] if seat < len(names) else str(seat + 1)))

    row = []
    shown = sum(len(c) for key in ("hands", "tableau") for c in (position.get(key) or {}).values())
    scale, overlap = (0.3, 0.3) if shown <= 6 else (0.24, 0.5)      # few cards: larger, more of each seen
    for key, word, default in (("hands", "example_hand", "{player}’s hand"),
                               ("tableau", "example_tableau", "{player}’s cards in play")):
        for seat, cards in sorted((position.get(key) or {}).items()):
            if cards:
                listed = ", ".join(escape(game.card(c).name) for c in cards)
                row.append(figures.hand(cards, scale=scale, overlap=overlap,
                                        caption=Safe(f"{caption(word, default, seat)}: {listed}")))
    for seat, stacks in sorted((position.get("stacks") or {}).items()):
        if stacks:
            listed = ", ".join(f"{escape(game.card(c).name) if hasattr(game, 'card') else c} ×{n}"
                               for c, n in stacks.items())
            row.append(figures.hand(list(stacks), scale=0.28,
                                    caption=Safe(caption("example_stacks", "{player}’s stacks", seat)
                                                 + f": {listed}")))
    for seat, dice in sorted((position.get("dice") or {}).items()):
        for d in dice:
            kind, _, face = str(d).partition(" ")
            row.append(figures.die(kind, int(face) if face.isdigit() else 1, scale=0.7))
    if row:
        rows.append("\n".join(row))
    return Safe("\n\n".join(r for r in rows if r))


def engine_examples(game, cfg, lang=None, figures=None) -> dict:
    """Each configured scenario, played by the engine: an :class:`EngineExample` (prose from the game's
    event templates when it has them; the engine's transcript lines always)."""
    engine = engine_named(game.engine)
    lang = lang or game.language
    titles = translation(game, lang).get("examples")
    titles = titles if isinstance(titles, dict) else {}
    module, template_file = event_templates(game, lang)
    words = strings(game, lang)
    out, problems = {}, []
    for ex in cfg.get("examples") or []:
        outcome_events, names, scenario_title = _played(game, ("example", str(ex["_file"])),
                                                        lambda: _play_example(game, ex["_file"]),
                                                        _scenario_files(game, ex["_file"]))
        events = [e for e in outcome_events if e.type not in QUIET_EVENTS]
        lines = _transcript(engine, events, game, names, lang)
        title = titles.get(ex["id"]) if isinstance(titles.get(ex["id"]), str) else scenario_title
        head = [Safe(f"**{escape(title)}**")] if title else []
        setup, steps, said, start, paragraphs = "", [], [], "", []
        if module is not None:
            setup, steps, said, found, paragraphs = _told(game, module, outcome_events, names, template_file, lang)
            problems += found
            first = next((e for e in outcome_events if e.type == "scenario_start"), None)
            position = (first.data.get("position") if first else None) or {}
            if figures is not None and position:
                start = _start_figures(game, figures, position, names, words, outcome_events)
        parts = [f"### {escape(title)}"] if title else []
        if setup:
            parts.append(setup)
        if start:
            parts.append(start)
        if steps:
            parts.append("\n".join(f"{k}. {s}" for k, s in enumerate(steps, 1)))
        if said:
            parts.append(" ".join(said))          # the outcome: one paragraph
        markup = Safe("\n\n".join(parts)) if module is not None else Safe(
            "\n".join(f"> {line}" for line in [*head, *(escape(x) for x in lines)]))
        out[ex["id"]] = EngineExample(ex["id"], escape(title or ""), start, setup, tuple(steps), tuple(said),
                                      tuple(head + list(lines)), markup, tuple(tuple(p) for p in paragraphs),
                                      _event_data(events), tuple(names))
    if problems:
        raise DataError(problems)
    return out


#: The engine's plays of the examples and the battle, kept from one build to the next in one process
#: (``pnp watch``, the studio) while the build cache is on; see :func:`_played`.
_PLAYS = buildcache.Generations()


def _play_example(game, path) -> tuple:
    """(events, player names, title) of the scenario file ``path`` played by the engine."""
    _, scenario = load_scenario(path, game=game)
    outcome = play_scenario(game, scenario, path)
    return tuple(outcome.events), [p.name for p in scenario.players], scenario.title


def _play_battle(game, cfg) -> tuple:
    """The events of the battle rulebook.yaml asks for, from a seeded game of the engine's bots."""
    b = cfg.get("battle") or {}
    engine = engine_named(game.engine)
    players = b.get("players", 4)
    bots = b.get("bots") or engine.DEFAULT_BOTS[0]
    try:
        state = engine.play_game(engine.rules_for(game), [bots] * players, b.get("seed", 1), players=players,
                                 record=True)
    except ValueError as exc:     # the engine refuses the player count or the bot
        raise DataError([Problem(cfg["_path"], cfg.get("_battle_line"), "battle",
                                 f"the rules engine cannot play this game: {str(exc)[:200]}")]) from None
    return tuple(e for e in state.events if getattr(e, "battle", None) == b.get("battle", 1))


def _scenario_files(game, path) -> list:
    """What a scenario's check reads besides the game: the file's bytes and, when its ``game:`` names
    another folder (whose rules engine must be this game's), that folder's files."""
    from pnp.errors import UserError
    from pnp.loading.scenario import scenario_folder
    from pnp.loading.yamlsrc import load_yaml

    cache = buildcache.current()
    files = cache.files
    out = [str(path), files(path)]
    try:
        raw = load_yaml(path, within=game.root)
    except DataError:
        return out                  # reported by the check itself, played afresh
    value = raw.get("game") if isinstance(raw, dict) else None
    if isinstance(value, str) and value.strip():
        try:
            folder, _ = scenario_folder(value, path)
        except UserError:
            return [*out, "no such game"]
        if folder.resolve() != game.root.resolve():    # hashed once a build (every example names it)
            known = cache.memo.get(("scenario game folder", str(folder)))
            if known is None:
                known = cache.memo[("scenario game folder", str(folder))] = buildcache.folder_digest(folder, files)
            out += [str(folder), known]
    return out


def _described(game, names) -> tuple:
    """The values of ``game``'s attributes ``names`` that a play read: its cards each by the attributes of
    a card read (every card's, whichever card they were read of), not whole: a name the engine never
    reads is not part of what it played."""
    cards = [buildcache.reads_digest(card, names) for card in game.cards] if "cards" in names else None
    return buildcache.reads_digest(game, [n for n in names if n != "cards"]), cards


def _played(game, what: tuple, play, files=()):
    """``play()``: the engine's work for a printed example or the battle (its events and what it
    prints of the scenario). With the build cache on, it is kept in this process under ``what``, the
    ``files`` it reads, pnp's code and the values the play read of the game and of its cards (recorded:
    :func:`pnp.cache.buildcache.recording`), and given back while they are the same, so a card's name edited
    does not play the examples again (their sentences, which print names, are made anew each time)."""
    from contextlib import ExitStack

    cache = buildcache.current()
    if not cache:
        return play()
    key = buildcache.digest("rulebook play", buildcache.code_digest(), what, files)
    for names, values, result in _PLAYS.get(cache, key) or ():
        if _described(game, names) == values:
            for name in names:          # what the play read counts as read by the component again
                getattr(game, name, None)
            return result
    reads: set = set()
    cards = list(game.cards)
    with ExitStack() as stack:
        stack.enter_context(buildcache.recording(game, reads))
        for card in cards:
            stack.enter_context(buildcache.recording(card, reads))
        result = play()
    names = frozenset(reads)
    values = _described(game, names)
    if None not in values[1:] and values[0] is not None and None not in (values[1] or ()):
        kept = [entry for entry in (_PLAYS.get(cache, key) or ()) if entry[0] != names][-3:]
        _PLAYS.put(cache, key, [*kept, (names, values, result)])
    return result


def engine_battle(game, cfg, lang=None, prose: bool = False):
    """An excerpt of a seeded bot game (events whose ``battle`` is the one asked for), as transcript lines;
    [] when rulebook.yaml asks for none. With ``prose``, an :class:`EngineExample`, which iterates as
    those lines: told in sentences by the game's event templates, or (a game without them) printing the
    lines in a box, as its examples do."""
    b = cfg.get("battle") or {}
    if not b:
        return []
    engine = engine_named(game.engine)
    players = b.get("players", 4)
    bots = b.get("bots") or engine.DEFAULT_BOTS[0]
    events = list(_played(game, ("battle", cfg["_path"], cfg.get("_battle_line"), game.engine, players, bots,
                                 b.get("seed", 1), b.get("battle", 1)),
                          lambda: _play_battle(game, cfg)))
    names = list(PLAYER_NAMES[:players])
    lines = _transcript(engine, events, game, names, lang)
    if not prose:
        return lines
    module, template_file = event_templates(game, lang or game.language)
    if module is None:
        return EngineExample("battle", "", "", "", (), (), tuple(lines),
                             Safe("\n".join(f"> {escape(line)}" for line in lines)))
    setup, steps, said, problems, paragraphs = _told(game, module, events, names, template_file, lang)
    if problems:
        raise DataError(problems)
    parts = [setup] if setup else []
    if steps:
        parts.append("\n".join(f"{k}. {s}" for k, s in enumerate(steps, 1)))
    if said:
        parts.append(" ".join(said))
    return EngineExample("battle", "", "", setup, tuple(steps), tuple(said), tuple(lines),
                         Safe("\n\n".join(parts)), tuple(tuple(p) for p in paragraphs), _event_data(events),
                         tuple(names))


def _event_data(events) -> tuple:
    """The engine's events as templates read them, to draw figures from: each a mapping of its ``type``,
    its fields (``wave``, ``battle``, ...) and its data."""
    return tuple({"type": e.type, **{k: v for k, v in e._asdict().items() if k not in ("type", "data")}, **e.data}
                 if hasattr(e, "_asdict") else {"type": e.type, **e.data} for e in events)


def context(game, cfg, lang, figures=None) -> dict:
    """What chapters see: the game, its cards and tokens, printed words, figures drawn by pnp (``figure``,
    :mod:`pnp.rulebook.figures`) and (with an engine) its rule facts, played examples and battle."""
    figures = figures if figures is not None else Figures(game, lang)
    engine = engine_named(game.engine) if game.engine else None
    tokens = load_tokens(game)
    words = strings(game, lang)
    groups = []
    if tokens:
        for kind in tokens.kinds:
            parts = [t for t in tokens.tokens if t.kind == kind]
            if not parts:
                continue
            values = " + ".join(f"{t.count} x {t.value}" for t in parts if t.value)
            name = Safe(words.get(f"tokens_{kind}", kind) + (f" ({values})" if values else ""))
            groups.append({"name": name, "count": sum(t.count for t in parts)})
    token_list = []
    for t in (tokens.tokens if tokens else ()):
        detail = game.faction(t.faction).name if t.faction else t.value
        label = words.get(f"tokens_{t.kind}", t.kind)
        of_kind = sum(o.count for o in tokens.tokens if o.kind == t.kind)
        token_list.append({"id": t.id, "kind": t.kind, "value": t.value, "faction": t.faction,
                           "name": Safe(label + (f" ({escape(str(detail))})" if detail is not None else "")),
                           "group": Safe(label), "count": t.count, "kind_count": of_kind})
    rank_order = {r.id: i for i, r in enumerate(game.ranks)}
    factions = [{"faction": f, "cards": sorted((c for c in game.cards if c.faction == f.id),
                                               key=lambda c: rank_order.get(c.rank, 0))}
                for f in game.factions]

    def shown(card, *names):
        """The first of the card's fields ``names`` it gives, as printed on the card (sign, format)."""
        deck = game.deck_of(card)
        for name in names:
            f, value = deck.field(name), card.stats.get(name)
            if f is not None and value is not None:
                return escape(f.display(value))
        return ""

    def ability(card):
        text = ability_text(game, card, lang)
        return Safe(f"[step:{card.ability.step}] {text}" if text and card.ability and card.ability.step else text)

    b = cfg.get("battle") or {}
    return {
        "game": game,
        "rules": engine.FACTS if engine else {},
        "facts": game.facts,                 # the game's facts files (tables, boards, maps), as checked
        "data": game.data,                   # the game's data files (pnp.loading.datafiles), engine or not
        "deck_size": len(game.deck_for()),
        "deck_per_faction": game.decks[0].rules.get("per_faction") or len(game.deck_for()) // max(1, len(game.factions)),
        "token_groups": groups,
        "tokens": token_list,
        "factions": factions,
        "ability": ability,
        "shown": shown,
        "rank_name": lambda card: game.rank(card.rank).name if card.rank else "",
        "cards": game.cards,
        "category_name": lambda card: (game.category_of(card).name if game.category_of(card) else ""),
        "copies_for": game.copies_for,
        "examples": engine_examples(game, cfg, lang, figures) if engine else {},
        "battle": engine_battle(game, cfg, lang, prose=True) if engine else [],
        "battle_seed": b.get("seed", 1),
        "words": {k: Safe(v) for k, v in strings(game, lang).items()},   # printed words are markup
        "t": words_function(game, lang),     # t('key', count=n): a counted word in the language's plural form
        "figure": figures.namespace(),
    }


#: A ``!spare`` line: what follows it, to the next ``!spare`` line or the end of its chapter, is a block that
#: prints only where it fits (:func:`fitted`).
_SPARE = re.compile(r"^!spare[ \t]*$", re.M)
#: A ``!fill`` line of a fill template (rulebook.yaml's ``fill``) starts one of the blocks it offers.
_FILL = re.compile(r"^!fill[ \t]*$", re.M)
#: The fill templates of a rulebook.yaml without ``fill``: pnp's shared ``pieces`` (the game's tokens at
#: actual size, a kind at a time).
DEFAULT_FILL = ("pieces",)


def spare_blocks(chapters) -> list[tuple[int, int, int]]:
    """(chapter index, start, end) of each ``!spare`` block in the chapters' markup: from its line (the
    directive's start) to the next ``!spare`` line or the chapter's end."""
    out = []
    for c, (_, markup) in enumerate(chapters):
        starts = [m.start() for m in _SPARE.finditer(markup)]
        out += [(c, start, end) for start, end in zip(starts, starts[1:] + [len(markup)])]
    return out


def with_spare(chapters, taken=frozenset()) -> list:
    """The chapters with the ``!spare`` blocks numbered in ``taken`` (of :func:`spare_blocks`) and without
    the others, every line kept where it was (a directive's line, a block left out, become blank lines):
    a problem in a chapter is at its line however many blocks print."""
    blocks = spare_blocks(chapters)
    out = [list(chapter) for chapter in chapters]
    for i, (c, start, end) in sorted(enumerate(blocks), key=lambda b: -b[1][1]):
        markup = out[c][1]
        block = markup[start:end]
        kept = block.split("\n", 1)[1] if "\n" in block else ""
        kept = "\n" + kept if i in taken else "\n" * block.count("\n")
        out[c][1] = markup[:start] + kept + markup[end:]
    return [tuple(chapter) for chapter in out]


def without_spare(chapters) -> tuple[list, list]:
    """(chapters without their ``!spare`` blocks, chapters with all of them), their lines where they were."""
    return with_spare(chapters), with_spare(chapters, frozenset(range(len(spare_blocks(chapters)))))


class FillBlock(str):
    """A fill block's markup, which knows the fill template it comes from (``template``: its index in
    rulebook.yaml's ``fill``) and its place there (``index``): a template's blocks print in the order it
    writes them (:func:`fitted`)."""

    template: int = 0
    index: int = 0

    def __new__(cls, markup: str, template: int = 0, index: int = 0):
        block = super().__new__(cls, markup)
        block.template, block.index = template, index
        return block


def fill_blocks(markups) -> list[FillBlock]:
    """The blocks a booklet may set in room it would leave empty: each fill template's markup cut at its
    ``!fill`` lines, blank ones left out."""
    out = []
    for t, markup in enumerate(markups):
        blocks = [block.strip("\n") for block in _FILL.split(markup) if block.strip()]
        out += [FillBlock(block, t, k) for k, block in enumerate(blocks)]
    return out


def with_fill(chapters, at: tuple[int, int], block: str) -> tuple[list, tuple[int, int, int]]:
    """(chapters, (chapter, first line, last line) of the block) with the fill ``block`` set after the
    block of chapter ``at[0]`` whose markup starts on line ``at[1]`` (and after a row of figures it
    ends), under a thin rule (``!rule``)."""
    chapter, line = at
    name, markup = chapters[chapter]
    after = next((n.line for n in parse(markup) if n.line > line), None)
    lines = markup.split("\n")
    added = ["", "!rule", *block.split("\n"), ""]
    first = (after - 1 if after is not None else len(lines)) + 3     # the block's first line (from 1)
    if after is None:
        lines += added
    else:
        lines[after - 1:after - 1] = added
    out = list(chapters)
    out[chapter] = (name, "\n".join(lines))
    return out, (chapter, first, first + block.count("\n"))


def printed_chapters(game, lang: str) -> list[tuple[str, str]]:
    """(name, markup) of every chapter as the booklet always prints it (without what follows a ``!spare``
    line): the text a check reads, rendered without laying out or drawing; DataError as the booklet's."""
    cfg = load_config(game)
    figures = Figures(game, lang)
    try:
        chapters = chapter_markup(game, cfg, context(game, cfg, lang, figures), lang)
    except DataError as exc:
        raise DataError(list(figures.problems) + list(exc.problems)) from None
    return without_spare(chapters)[0]


@with_game_icons
@reads_files
@lru_cache(maxsize=8)
def booklet(game, paper: str, lang: str):
    """(reading-order PDF, pages, content pages) for a paper size; cached for validate + build."""
    return laid_booklet(game, paper, lang)[:3]


def laid_booklet(game, paper: str, lang: str):
    """:func:`booklet` and its pages more than a third empty ((page, share empty), ...:
    :func:`pnp.draw.document.empty_pages`)."""
    cfg, figures, chapters, fills, words, size, key, cache = _prepared(game, paper, lang)
    found = _kept(cache, key)
    if found is not None and found[0] is not None:
        return found
    laid, target, empty = _laid(game, cfg, chapters, fills, figures, paper, lang, words, size, key)
    _LAID.pop(key, None)                # drawn now: its layout serves once
    content = len(laid.pages)
    pdf, pages, _ = draw_laid_out(laid, target - content)
    if pages != target:
        raise DataError([_problem(cfg, f"padding with {target - content} pages gave {pages} pages, not {target}")])
    cache.put(key, {"kind": "booklet", "pages": pages, "content": content, "empty": [list(e) for e in empty]},
              [pdf])
    return pdf, pages, content, tuple(empty)


def booklet_fit(game, paper: str, lang: str):
    """(pages, content pages, pages more than a third empty) of the booklet :func:`laid_booklet` makes,
    found by laying it out without drawing it (its problems raised as that raises them): what the
    rulebook's check asks (drawing it was a third of the check's time). The layout is kept for a build
    that draws it next in this process (:data:`_LAID`)."""
    cfg, figures, chapters, fills, words, size, key, cache = _prepared(game, paper, lang)
    found = _kept(cache, key)
    if found is not None:
        return found[1:]
    laid, target, empty = _laid(game, cfg, chapters, fills, figures, paper, lang, words, size, key)
    return target, len(laid.pages), tuple(empty)


def _prepared(game, paper: str, lang: str) -> tuple:
    """What laying the booklet out needs: its configuration, figures, chapters, fill blocks, printed
    words, page size, and its key in the build cache (:func:`_drawn_key`) with the cache."""
    cfg, figures, chapters, fills = _rendered(game, lang)
    small_labels(figures, paper).raise_if_errors()
    words = strings(game, lang)
    size = half_sheet(paper)
    cache = buildcache.current()
    key = _drawn_key(game, cfg, chapters, fills, figures, paper, lang, words, cache)
    return cfg, figures, chapters, fills, words, size, key, cache


def _rendered(game, lang: str) -> tuple:
    """(configuration, figures, chapters, fill blocks) of the booklet in ``lang``: its templates rendered,
    the examples told, the figures made. None of it depends on the paper, so the rulebook's check on
    Letter and A4 and its build share one render of a loaded game (a card edit rendered the chapters
    three times a build). Kept for the game object (by identity: a loaded game does not change) and the
    active icons and language; emptied with pnp's file memos (:func:`pnp.cache.memo.clear`, before every
    rebuild in one process). What the render read of the game is counted as read again by whatever is
    recorded when it is given back (:func:`pnp.cache.buildcache.note_reads`), as
    :func:`pnp.cache.buildcache.replays_reads` does, so the rulebook's entry in the build cache is keyed
    as when each of them rendered the chapters. (The icon keys' check renders its own: a validation
    unit records the cards' reads too, which would have to be handed back as well, and which ones a
    render reads depends on what other memos served it; for the same reason a render asked for while the
    cards' reads are recorded, by a validation unit, is made for it alone.)"""
    cards = object.__getattribute__(game, "cards")
    if cards and buildcache.is_recorded(cards[0]):
        return _rendered_kept.__wrapped__(_Same(game), lang, typography.active(), typography.breaking())[0]
    result, reads = _rendered_kept(_Same(game, icons_active()), lang, typography.active(), typography.breaking())
    buildcache.note_reads(reads)
    return result


class _Same:
    """A key that is the same only for the same objects (by identity: a frozen game object and the icon
    set active while it is built)."""

    __slots__ = ("objects",)

    def __init__(self, *objects):
        self.objects = objects

    def __hash__(self):
        return hash(tuple(id(o) for o in self.objects))

    def __eq__(self, other):
        return isinstance(other, _Same) and len(other.objects) == len(self.objects) and \
            all(a is b for a, b in zip(self.objects, other.objects))


@reads_files
@lru_cache(maxsize=4)
def _rendered_kept(same, lang: str, language: str, breaking: tuple) -> tuple:
    """:func:`_rendered`'s work and the names of what it read of the game."""
    game = same.objects[0]
    reads: set = set()
    with buildcache.recording(game, reads):
        cfg = {**load_config(game), "_colophon": colophon(game, lang)}
        figures = Figures(game, lang)
        try:
            seen = context(game, cfg, lang, figures)
            chapters = chapter_markup(game, cfg, seen, lang)
            fills = fill_markup(game, cfg, seen, lang)
        except DataError as exc:
            raise DataError(list(figures.problems) + list(exc.problems)) from None
        figures.problems.raise_if_errors()
    return (cfg, figures, chapters, fills), frozenset(reads)


def _kept(cache, key):
    """(PDF, pages, content pages, pages more than a third empty) of the booklet the build cache holds
    under ``key``; the PDF None when only its layout is kept in this process (:data:`_LAID`); None:
    neither."""
    found = cache.get(key)
    if found is not None:
        meta, blobs = found
        empty = meta.get("empty")
        if (len(blobs) == 1 and type(meta.get("pages")) is int and type(meta.get("content")) is int
                and isinstance(empty, list) and all(isinstance(e, list) and len(e) == 2 for e in empty)):
            return blobs[0], meta["pages"], meta["content"], tuple(tuple(e) for e in empty)
    laid = _LAID.get(key) if key is not None else None
    if laid is not None:
        return None, laid[1], len(laid[0].pages), tuple(laid[2])
    return None


#: The booklets laid out (:func:`fitted`) by the rulebook's check and not drawn yet, by their key in the
#: build cache: (layout, pages with the padding, pages more than a third empty). A build that follows in
#: the same process draws from it instead of laying the booklet out again.
_LAID: dict = {}


def _laid(game, cfg, chapters, fills, figures, paper, lang, words, size, key) -> tuple:
    """(layout, pages with the padding, pages more than a third empty): the booklet :func:`fitted`, or
    as :data:`_LAID` keeps it."""
    if key is not None and key in _LAID:
        return _LAID[key]
    laid, target, _ = fitted(game, cfg, chapters, fills, figures, size, lang, words, paper)
    result = (laid, target, printed_numbers(empty_pages(laid, size), laid.notes_at, target - len(laid.pages)))
    if key is not None:
        while len(_LAID) >= 4:
            del _LAID[next(iter(_LAID))]
        _LAID[key] = result
    return result


def printed_numbers(pages, notes_at: int | None, padding: int) -> list:
    """(page number, share) of laid out ``pages`` numbered as the booklet prints them: a page after the
    padding point (``notes_at`` pages come before it) is ``padding`` pages further on (Tide Clock's last
    page was reported as page 3 of a booklet that prints it as page 4)."""
    if not padding or notes_at is None:
        return list(pages)
    return [(number + padding if number > notes_at else number, share) for number, share in pages]


def small_labels(figures, paper: str) -> Problems:
    """An error at the template's line for each figure whose own words (a map's or a board's labels, a
    track's numbers; not a card's, a die's or a token's drawn at scale) print smaller than
    :data:`pnp.rulebook.figures.MIN_LABEL_PT` on ``paper``, at the scale the booklet sets it (a figure wider than
    the column is set smaller)."""
    from pnp.draw.text import fit
    from pnp.rulebook.figures import MIN_LABEL_PT, labels
    from pnp.draw.document import MARGIN

    problems = Problems()
    column = half_sheet(paper)[0] - MARGIN["inner"] - MARGIN["outer"]
    for d in figures.drawings:
        scale = min(d.scale, column / d.width) if d.width else d.scale
        fitted = [(fit(t.markup, t.style, t.rect.w, t.rect.h), k, t.markup) for t, k in labels(d)]
        crammed = [words for f, _, words in fitted if not f.ok]
        if crammed:
            problems.error(*d.where, f"figure.{d.kind}",
                           f"its words do not fit their place at a legible size ({excerpt(plain_text(crammed[0]))}): "
                           f"draw it larger")
            continue
        sizes = [(f.size * k * scale, words) for f, k, words in fitted]
        if not sizes:
            continue
        size, words = min(sizes)
        if size >= MIN_LABEL_PT - 0.01:
            continue
        needed = d.scale * MIN_LABEL_PT / size
        advice = (f"draw it at scale={needed:.2f} or more" if d.width * needed <= column
                  else "show less of it (a part at a larger scale)")
        problems.error(*d.where, f"figure.{d.kind}",
                       f"its words print at {size:.1f} pt on {paper} paper ({excerpt(plain_text(words))!s}), "
                       f"smaller than {MIN_LABEL_PT:g} pt: {advice}")
    return problems


def _drawn_key(game, cfg, chapters, fills, figures, paper, lang, words, cache) -> str | None:
    """The build cache's key of the booklet drawn from ``chapters`` (their ``!spare`` blocks in) and the
    ``fills`` (the blocks it may set in room it would leave empty): everything its layout and drawing
    read besides them. The chapters' markup and the figures' drawings (layout elements: every text, colour, position and icon name), the bytes
    of the pictures they place, the game's icons, what the cover and the running heads print (title,
    look, the factions' emblems and colours, players, time, ages, credits), the printed words, the
    length rulebook.yaml asks for, paper, language and what pnp draws with. An edit that changes none
    of it (a card the rulebook does not print) finds the booklet drawn; None: not kept (a drawing is not
    described by its content). With the cache off the key still names the layout the check made for the
    build that follows in this process (:data:`_LAID`): a ``--no-cache`` build laid the booklet out
    again to draw it."""
    drawings = figures.described()
    if " at 0x" in drawings:
        return None
    files = cache.files
    pictures = sorted({path for d in figures.drawings for path in buildcache.picture_paths(d.elements)})
    look = game.look
    return buildcache.digest(
        "booklet", buildcache.code_digest(), paper, lang, typography.active(),
        typography.breaking_key(repr(chapters) + repr(fills) + drawings),
        buildcache.icons_digest(game.icons, files), chapters, fills, drawings,
        [(path, files(path)) for path in pictures], repr(look),
        files(look.art) if look.art is not None else None,
        [(f.emblem, f.colour) for f in game.factions], game.title, game.author, game.players, game.minutes,
        game.ages, credit_lines(game, words, book=True), sorted(words.items()), cfg.get("pages"), bool(cfg.get("notes")),
        cfg.get("_colophon"))


def colophon(game, lang: str) -> tuple[str, ...]:
    """The back cover's foot (``!back``), markup lines: the game's title, its facts (players, minutes,
    ages) and what its box holds and what goes beside it (box.yaml's contents, as the box prints them)."""
    from pnp.components.box import listed, load_box

    words = strings(game, lang)

    def ranged(key, pair):
        lo, hi = pair
        return fill(words[key + "_one"], min=lo) if lo == hi else fill(words[key], min=lo, max=hi)

    facts = [ranged("box_players", game.players)]
    if game.minutes:
        facts.append(ranged("box_minutes", game.minutes))
    if game.ages:
        facts.append(fill(words["box_ages"], ages=game.ages))
    lines = [escape(game.title), " · ".join(facts)]
    try:
        data = load_box(game)
    except DataError:                   # box.yaml's own problem, reported by the box's check
        data = None
    if data is not None:
        both = listed(game, data, lang)
        for inside, key in ((True, "box_contents"), (False, "box_beside")):
            items = [f"{n}\u00a0{escape(item)}" for n, item, held in both if held == inside]
            if items:
                lines.append(f"**{words[key]}:** " + ", ".join(items))
    return tuple(lines)


def fill_markup(game, cfg, seen: dict, lang: str) -> list[FillBlock]:
    """The fill blocks of rulebook.yaml's ``fill`` templates (pnp's :data:`DEFAULT_FILL` without it),
    rendered with the chapters' context ``seen``: :func:`fill_blocks`."""
    names = cfg.get("fill")
    names = list(DEFAULT_FILL if names is None else names)
    if not names:
        return []
    lines = cfg.get("_fill_lines") or {}
    found = chapter_markup(game, {**cfg, "chapters": names, "_chapter_lines": lines}, seen, lang, "fill")
    return fill_blocks(markup for _, markup in found)


#: A page more than this share empty is room a fill block may take (pages more than a third empty,
#: :data:`pnp.draw.document.EMPTY_SHARE`, are reported).
FILL_SHARE = 1 / 4


def _waste(laid, size, limit: int) -> tuple:
    """How much of a laid out booklet is left empty, the worst first: the shares of its pages more than a
    third empty (those ``pnp validate`` reports, the back page too) and each padding page it needs up to
    ``limit`` pages (a whole page); the shares of its pages more than a quarter empty; the shares of all
    its pages. Rounded, so that equal layouts tie."""
    def shares(least, last=True):
        return sum(share for _, share in empty_pages(laid, size, least, last))

    return (round(shares(EMPTY_SHARE) + max(0, limit - len(laid.pages)), 4),
            round(shares(FILL_SHARE), 4), round(shares(0.0), 4))


def _shape(laid) -> tuple:
    """What a layout pass decided, with what placed left out: each page's template and, in order, each
    flowable's kind, source (chapter, line) and place. Two passes of the same shape set every block at the
    same place, the same height (a flowable's place is its foot), split the same way."""
    def event(e):
        if e[0] == "place":
            return ("place", type(e[1]).__name__, getattr(e[1], "source", None), round(e[2], 3), round(e[3], 3),
                    round(e[4], 3))
        return ("after", type(e[1]).__name__, getattr(e[1], "source", None))

    return laid.notes_at, tuple((page.template, tuple(event(e) for e in page.events)) for page in laid.pages)


def _figure_lines(markup: str) -> list:
    return re.findall(r"^!figure (\d+)[ \t]*$", markup, re.M)


@dataclass
class _Fit:
    """A booklet fitted in this process (:func:`fitted`): what it was fitted from besides its chapters, its
    chapters, the shapes (:func:`_shape`) of its first layout and of the one chosen, the chapters chosen,
    its padded length, and the first chapter any trial changed or any choice read the blocks of (the
    search read nothing of the chapters before it but through the first layout)."""

    inputs: tuple
    chapters: list
    base: tuple
    final: tuple
    current: list
    target: int
    touched: int


#: The last fit of each booklet (game folder, paper, language) in this process: the studio fits the same
#: booklet again after each edit.
_FITS: dict = {}


def _fit_inputs(game, cfg, fills, figures, size, lang, words) -> tuple | None:
    drawings = figures.described()
    if " at 0x" in drawings:
        return None
    fills = tuple((block, getattr(block, "template", 0), getattr(block, "index", 0)) for block in fills)
    return (buildcache.code_digest(), repr(sorted(cfg.items(), key=lambda kv: kv[0])), fills, drawings,
            tuple(size), lang, repr(sorted(words.items())), repr(game.look), game.title)


def _refit(game, cfg, chapters, fills, figures, size, lang, words, lay, record: dict):
    """The fit of the booklet made again from the last one in this process (:data:`_FITS`) when only one
    chapter changed, before every chapter a trial changed or a choice read, and its first layout has the
    shape it had (the same blocks at the same places, at the same heights): then every trial would lay
    out as it did, but for that chapter's words, and the search would choose as it did. Two layout passes
    (the first, the one chosen, which must have its shape too) instead of the search's; None when it
    cannot be shown to choose the same (``record["first"]``: the first layout when it was made)."""
    inputs = _fit_inputs(game, cfg, fills, figures, size, lang, words)
    last = _FITS.get((str(game.root), tuple(size), lang))
    if inputs is None or last is None or last.inputs != inputs or len(last.chapters) != len(chapters):
        return None
    changed = [i for i, (a, b) in enumerate(zip(last.chapters, chapters)) if a != b]
    if len(changed) != 1 or changed[0] >= last.touched:
        return None
    k = changed[0]
    if _figure_lines(last.chapters[k][1]) != _figure_lines(chapters[k][1]) or \
            [b[0] for b in spare_blocks(last.chapters)] != [b[0] for b in spare_blocks(chapters)]:
        return None
    plain = with_spare(chapters)
    laid = record["first"] = lay(plain)
    if _shape(laid) != last.base:
        return None
    # a page turns between the changed chapter and the first a trial changed: what a trial adds there
    # cannot move a block of the changed chapter (a block kept with the next one, say)
    pages = [(n, e[1].source[0]) for n, page in enumerate(laid.pages) for e in page.events
             if e[0] == "place" and getattr(e[1], "source", None) is not None]
    ends = max((n for n, chapter in pages if chapter <= k), default=-1)
    if any(chapter >= last.touched and n <= ends for n, chapter in pages):
        return None
    current = list(last.current)
    current[k] = plain[k]
    if current != plain:
        laid = lay(current)
        if _shape(laid) != last.final:
            return None
    _FITS[(str(game.root), tuple(size), lang)] = _Fit(inputs, list(chapters), last.base, last.final, current,
                                                       last.target, last.touched)
    return laid, last.target, current


class _Passes:
    """The layout passes of one fit (:func:`lay_out`), each resumed from the one of the last few that
    shares the most chapters with it: a trial that sets a block at page 12 lays out pages 12 on, the
    pages before it taken from the layout it was tried on (:func:`pnp.draw.document.resume_point`)."""

    KEEP = 4

    def __init__(self, game, cfg, size, lang, words, figures):
        self.args = (game, cfg, size, lang, words, figures)
        self.recent: list = []

    def __call__(self, chapters):
        game, cfg, size, lang, words, figures = self.args
        after = max(self.recent, key=lambda laid: _same_chapters(laid.args[2], chapters), default=None)
        laid = lay_out(game, cfg, chapters, size, lang, words, figures, after=after)
        self.recent = [laid, *self.recent][:self.KEEP]
        return laid


def _same_chapters(a, b) -> int:
    """How many chapters two lists of chapters share before the first that differs."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def fitted(game, cfg, chapters, fills, figures, size, lang, words, paper="letter"):
    """:func:`_fitted`: again from the last fit of the same booklet in this process when that gives the
    same (:func:`_refit`: the studio after a chapter edit), and kept for the next."""
    lay = _Passes(game, cfg, size, lang, words, figures)
    record: dict = {"lay": lay}
    again = _refit(game, cfg, chapters, fills, figures, size, lang, words, lay, record)
    if again is not None:
        return again
    laid, target, current = _fitted(game, cfg, chapters, fills, figures, size, lang, words, paper, record)
    inputs = _fit_inputs(game, cfg, fills, figures, size, lang, words)
    if inputs is not None and getattr(game, "root", None) is not None:
        if len(_FITS) >= 8:
            del _FITS[next(iter(_FITS))]
        _FITS[(str(game.root), tuple(size), lang)] = _Fit(inputs, list(chapters), record["base"], _shape(laid),
                                                           list(current), target, record["touched"])
    return laid, target, current


def _fitted(game, cfg, chapters, fills, figures, size, lang, words, paper="letter", record=None):
    """(laid out booklet, its page count when padded, the chapters it sets): the booklet in the fewest
    pages that hold its chapters (rulebook.yaml's ``pages`` when it gives them), with what it can add in
    the room it would leave empty. First each ``!spare`` block, in the book's order, where it is written;
    then the ``fills`` (rulebook.yaml's ``fill`` templates' blocks), each at most once, under a rule at the
    foot of a page more than a quarter empty, the last one too (or, while the booklet has pages to pad,
    before the padding). A block is kept only when the booklet is no longer for it (past its padded
    length; past its chapters' length with ``notes: true``, whose padding is Notes pages) and leaves
    less room empty (:func:`_waste`); of the fill blocks that fit whole in the room of a page, the one
    that leaves the least room empty is set there (the first of equals), the pages more than a third
    empty served first (a block the back cover needs is not spent on a page a quarter empty before it). A fill block whose every figure
    the booklet already shows is not offered; one that did not fit a page's room is not tried in a
    smaller one (each try is a layout pass); the blocks of one fill template read in the order it writes
    them (:func:`_in_order`)."""
    record = {} if record is None else record
    lay = record.get("lay") or _Passes(game, cfg, size, lang, words, figures)
    touched = [len(chapters)] + [c for c, _, _ in spare_blocks(chapters)]   # every !spare block is tried
    current = with_spare(chapters)
    laid = record.pop("first", None) or lay(current)      # (made already when a refit was tried)
    record["base"] = _shape(laid)
    pages = len(laid.pages)
    target = cfg.get("pages") or padded(pages)
    if pages > target:
        raise DataError([_problem(cfg, f"the rulebook needs {pages} pages on {paper} paper, more than the "
                                       f"{target} rulebook.yaml allows")])
    limit = pages if cfg.get("notes") else target
    waste = _waste(laid, size, limit)
    taken: set = set()
    for i in range(len(spare_blocks(chapters))):
        trial = with_spare(chapters, taken | {i})
        tried = lay(trial)
        if len(tried.pages) <= limit and _waste(tried, size, limit) < waste:
            taken.add(i)
            current, laid, waste = trial, tried, _waste(tried, size, limit)
    unused = [block for block in fills if not _shown(block, current, figures)
              and not _repeats(block, current, figures)]
    too_tall: dict = {}                 # block: the most room (a share of a page) it did not fit in
    while unused:
        gaps = dict(empty_pages(laid, size, FILL_SHARE, last=True))
        # the room each page really has: a block too tall for it is not tried in a smaller one
        room = dict(empty_pages(laid, size, 0.0, last=True))
        if len(laid.pages) < limit and laid.notes_at:
            gaps.setdefault(laid.notes_at, 1.0)     # the last page before the padding
        best = None
        # the pages more than a third empty first (those pnp validate reports), then the others in order
        for number in sorted(gaps, key=lambda n: (gaps[n] <= EMPTY_SHARE, n)):
            # the page's last section end; a page whose room falls inside a section (a long example told
            # over pages) takes the block at the page before's last one, the section moving on past it
            home, at = number, _section_end(laid, number, current, touched)
            if at is None and number > 2:
                home, at = number - 1, _section_end(laid, number - 1, current, touched)
            if at is None:
                continue
            touched.append(at[0])
            for block in unused:                # the one that leaves the least room empty (first of equals)
                if home == number and room.get(number, 0.0) <= too_tall.get(block, -1.0):
                    continue
                trial, (chapter, first, last) = with_fill(current, at, block)
                tried = lay(trial)
                on = placed_lines(tried, chapter)
                pages_on = set().union(*(on.get(line, set()) for line in range(first, last + 1)))
                if pages_on != {home}:          # not whole in that room: nor in any smaller one
                    if home == number:      # its real room (the page before the padding is put first as 1.0)
                        too_tall[block] = max(too_tall.get(block, -1.0), room.get(number, 0.0))
                    continue
                left = _waste(tried, size, limit)
                if len(tried.pages) <= limit and left < waste and (best is None or left < best[0]):
                    best = (left, block, trial, tried)
            if best is not None:
                break
        if best is None:
            break
        waste, block, current, laid = best
        unused = [b for b in unused if b != block and not _repeats(b, current, figures)]
    current, laid = _in_order(fills, current, laid, lay, size, limit)
    record["touched"] = min(touched)      # (_in_order moves or leaves out fill blocks where they were set)
    return laid, target, current


def _where(block: str, chapters) -> tuple[int, int] | None:
    """(chapter index, offset in its markup) where a fill block is set in ``chapters`` (None: not set)."""
    for c, (_, markup) in enumerate(chapters):
        at = markup.find("\n!rule\n" + block + "\n")
        if at >= 0:
            return c, at
    return None


def _whole(block: str, chapters, laid) -> bool:
    """Whether a fill block set in ``chapters`` lies whole on one page of their layout ``laid``."""
    chapter, at = _where(block, chapters)
    first = chapters[chapter][1][:at].count("\n") + 3          # the block's first line (from 1)
    on = placed_lines(laid, chapter)
    pages = set().union(*(on.get(line, set()) for line in range(first, first + block.count("\n") + 1)))
    return len(pages) == 1


def _in_order(fills, chapters, laid, lay, size, limit: int) -> tuple:
    """(chapters, layout) with the blocks of each fill template in the order the template writes them:
    a block that says what a figure shows comes before the block that draws it (Shadow Throne's "At the
    start", which says the faction tokens wait on the power track's start area, before the start area
    drawn with them; on Letter the start area came a page before). The blocks set out of order change
    places (each one where another of its template was); when the booklet then needs more pages, a block
    no longer lies whole on one page or more pages are more than a third empty, the blocks that come
    too early are left out instead, the one whose leaving out leaves least room empty first."""
    by_template: dict = {}
    for block in fills:
        if isinstance(block, FillBlock) and _where(block, chapters) is not None:
            by_template.setdefault(block.template, []).append(block)
    for blocks in by_template.values():
        placed = sorted(blocks, key=lambda b: _where(b, chapters))
        wanted = sorted(blocks, key=lambda b: b.index)
        if placed == wanted:
            continue
        waste = _waste(laid, size, limit)
        trial = _swapped(chapters, dict(zip(placed, wanted)))
        tried = lay(trial)
        if len(tried.pages) <= limit and _waste(tried, size, limit)[0] <= waste[0] \
                and all(_whole(b, trial, tried) for b in blocks):
            chapters, laid = trial, tried
            continue
        while True:                     # leave out what comes before a block of its template written first
            early = [b for k, b in enumerate(placed) if any(o.index < b.index for o in placed[k + 1:])]
            if not early:
                break
            options = []
            for b in early:
                trial = _swapped(chapters, {b: None})
                tried = lay(trial)
                options.append((_waste(tried, size, limit), b, trial, tried))
            _, dropped, chapters, laid = min(options, key=lambda o: o[0])
            placed = [b for b in placed if b != dropped]
    return chapters, laid


def _swapped(chapters, moves: dict) -> list:
    """``chapters`` with each fill block of ``moves`` replaced, where it is set, by the block it maps to
    (None: left out, with the rule over it)."""
    out = []
    for name, markup in chapters:
        marks = {}
        for k, (old, new) in enumerate(moves.items()):
            at = markup.find("\n!rule\n" + old + "\n")
            if at < 0:
                continue
            mark = f"\x00{k}\x00"
            markup = markup[:at] + mark + markup[at + len("\n!rule\n" + old):]
            marks[mark] = "" if new is None else "\n!rule\n" + new
        for mark, text in marks.items():
            markup = markup.replace(mark, text)
        out.append((name, markup))
    return out


def _section_end(laid, number: int, chapters, read: list | None = None) -> tuple[int, int] | None:
    """(chapter index, markup line) of the last block on page ``number`` that ends a section: the last
    block of its chapter, or one followed by a heading (of any level) or a page break. A fill block goes
    only there: never inside a section, where it would part an example from its outcome or a figure from
    the text that explains it. None: the page ends no section. ``read``: each chapter whose blocks it read
    is added to it."""
    for chapter, line in reversed(page_blocks(laid, number)):
        if read is not None:
            read.append(chapter)
        nodes = parse(chapters[chapter][1])
        if any(isinstance(n, Heading) and n.line == line for n in nodes):
            continue                    # a heading ends no section: a block set under it parts it from its text
        after = next((n for n in nodes if n.line > line), None)
        if after is None or isinstance(after, Heading) or (
                isinstance(after, Directive) and after.name in ("pagebreak", "notes", "back")):
            return chapter, line
    return None


def _shown(block: str, chapters, figures) -> bool:
    """Whether every figure of a fill block is one the chapters already draw (the same drawing)."""
    numbers = [int(n) for n in re.findall(r"^!figure (\d+)[ \t]*$", block, re.M)]
    if not numbers:
        return False
    drawn = {int(n) for _, markup in chapters for n in re.findall(r"^!figure (\d+)[ \t]*$", markup, re.M)}
    shown = [figures.drawings[n] for n in drawn if 0 <= n < len(figures.drawings)]
    return all(0 <= n < len(figures.drawings) and figures.drawings[n] in shown for n in numbers)


#: Figures of one piece drawn alone (not a hand, a map or a board, which draw a situation): a booklet that
#: shows a piece this way shows it once in its fill.
_PIECE_KINDS = ("card", "token", "die")


def _piece(drawing):
    """What a figure of one piece shows, whatever its scale and caption (None: not a figure of one
    piece)."""
    if drawing.kind not in _PIECE_KINDS:
        return None
    return drawing.kind, drawing.elements, drawing.width, drawing.height


def _repeats(block: str, chapters, figures) -> bool:
    """Whether a fill block draws a piece the chapters (with the fill blocks set so far) already draw
    alone: the same card, token or die face, at any scale, under any caption. Such a block is not
    offered, so that no fill shows a piece twice (Behind the Throne's End of Game card under its card
    index)."""
    def pieces(markup):
        out = set()
        for n in re.findall(r"^!figure (\d+)[ \t]*$", markup, re.M):
            n = int(n)
            if 0 <= n < len(figures.drawings):
                piece = _piece(figures.drawings[n])
                if piece is not None:
                    out.add(piece)
        return out

    drawn = set().union(*(pieces(markup) for _, markup in chapters)) if chapters else set()
    return bool(pieces(block) & drawn)


def _problem(cfg, message):
    return Problem(cfg["_path"], None, "rulebook", message)


def impose(reading: bytes, page_w: float, page_h: float, flip: str, words: dict | None = None,
           title: str = "", author: str = "") -> bytes:
    """Two booklet pages per landscape sheet side in saddle-stitch order, with fold marks and a label
    naming the sheet and side (in the kit's language), all inside the printable margin. ``title`` (the
    game's) and ``author`` are the file's document information: "<title>: <the word rulebook>"."""
    words = words or {}
    order = print_order(page_count(reading), flip)
    sheet_w, sheet_h = 2 * page_w, page_h
    sides, placements = [], []
    for i, side in enumerate(order):
        key = "booklet_sheet_front" if i % 2 == 0 else "booklet_sheet_back"
        default = "sheet {n} front" if i % 2 == 0 else "sheet {n} back"
        sides.append(side_marks(page_w, page_h, fill(words.get(key, default), n=i // 2 + 1)))
        placed = []
        for number, x in ((side.left, 0.0), (side.right, page_w)):
            if number is None:
                continue
            if side.rotated:  # half a turn about the sheet's centre
                placed.append((number, -1, 0, 0, -1, round(pt(sheet_w - x), 4), round(pt(sheet_h), 4)))
            else:
                placed.append((number, 1, 0, 0, 1, round(pt(x), 4), 0))
        placements.append(placed)
    name = words.get("rulebook", "Rulebook")
    return merge_impose(reading, render(sides, "marks"), placements, f"{title}: {name}" if title else name, author)


@with_game_icons
def build(game, options: BuildOptions, spec=None) -> list[Output]:
    lang = options.lang or game.language
    words = strings(game, lang)
    reading, pages, _ = booklet(game, options.paper, lang)
    w, h = half_sheet(options.paper)
    imposed = buildcache.current().combined(
        "booklet-imposed", [reading, w, h, options.booklet_flip, sorted(words.items()), game.title, game.author],
        lambda: impose(reading, w, h, options.booklet_flip, words, game.title, game.author or ""))
    return [
        Output("rulebook.pdf", words.get("rulebook_reading", "Rulebook"), pdf=reading, in_kit=False),
        # two booklet pages a side, both sides of each sheet
        Output("rulebook-imposed.pdf", words.get("rulebook", "Rulebook"), pdf=imposed, sides="double",
               sheets=(page_count(imposed) + 1) // 2,
               parts=(Part("booklet", "rulebook", 1, words.get("rulebook", "Rulebook")),)),
    ]


def listed(game, options: BuildOptions, spec=None) -> list[Output]:
    """The booklet's file as the instructions page lists it, nothing laid out (``Component.listed``): one
    rulebook, printed on both sides of two sheets (the pages the page's check measures by)."""
    words = strings(game, options.lang or game.language)
    name = words.get("rulebook", "Rulebook")
    return [Output("rulebook-imposed.pdf", name, [()] * 2, sides="double", sheets=2,
                   parts=(Part("booklet", "rulebook", 1, name),))]


@with_game_icons
def check(game, problems: Problems, options: BuildOptions | None = None, spec=None) -> None:
    before = len(problems.errors)
    try:
        load_config(game, problems)
    except DataError as exc:
        problems.extend(exc.problems)
        return
    if len(problems.errors) > before:   # its own file's problems; another component's do not stop it
        return
    lang = (options.lang if options else None) or game.language
    # pnp validate (thorough) lays the booklet out on every paper a kit is built on; a build, on its own
    for paper in (PAPERS if options is None or options.thorough else (options.paper,)):
        try:
            pages, content, empty = booklet_fit(game, paper, lang)
        except DataError as exc:
            problems.extend(exc.problems)
        else:
            _report_empty(load_config(game), paper, lang, empty, problems)
            _report_blank(load_config(game), paper, lang, pages, content, problems)
        _check_cover(game, paper, lang, problems)


def _report_empty(cfg, paper: str, lang: str, empty, problems: Problems) -> None:
    """One warning at rulebook.yaml for the booklet's pages more than a third empty on ``paper`` in
    ``lang``."""
    if not empty:
        return
    listed = ", ".join(f"page {number} ({share:.0%} empty)" for number, share in empty)
    problems.warn(cfg["_path"], None, "rulebook",
                  f"{len(empty)} page{'s' if len(empty) != 1 else ''} of the booklet on {paper} paper in "
                  f"'{lang}' {'are' if len(empty) != 1 else 'is'} more than a third empty: {listed}; fill the "
                  f"room: a figure, or a fill template in rulebook.yaml's fill (a turn summary, a setup figure, "
                  f"the components at actual size) whose blocks fit it")


def _report_blank(cfg, paper: str, lang: str, pages: int, content: int, problems: Problems) -> None:
    """A warning at rulebook.yaml's ``pages`` when the length it asks for leaves more blank pages than a
    saddle-stitched booklet of its chapters needs (Lantern Ferry's ``pages: 8`` printed 3 pages of rules
    and 5 blank ones). Ruled Notes pages (``notes: true``) are the designer's choice, and not reported."""
    least = padded(content)
    if not cfg.get("pages") or cfg.get("notes") or pages <= least:
        return
    problems.warn(cfg["_path"], cfg.get("_pages_line"), "rulebook",
                  f"pages: {pages} leaves {pages - content} pages blank: the chapters take {content} "
                  f"page{'s' if content != 1 else ''} on {paper} paper in '{lang}', and a booklet of {least} "
                  f"holds them; ask for pages: {least} (or leave pages out), write more, or say notes: true "
                  f"for ruled Notes pages")


def _check_cover(game, paper: str, lang: str, problems: Problems) -> None:
    """pnp's cover shows the whole title, and the subtitle under it, above its picture: a title too long
    even set small, several words a line, is an error at the title's line (the translation's, for a
    title the translation gives)."""
    from pnp.loading.i18n import given_at
    from pnp.draw.document import MARGIN, cover_title_fits

    if "cover" not in (load_config(game).get("chapters") or []):
        return
    w, h = half_sheet(paper)
    frame_w, frame_h = pt(w - MARGIN["inner"] - MARGIN["outer"]), pt(h - MARGIN["top"] - MARGIN["bottom"]) - 1
    if not cover_title_fits(game.title, strings(game, lang)["rules_of_play"], frame_w, frame_h,
                            game.look.art is not None):
        problems.error(*(given_at(game, lang, "title") or game.where("title")), "title",
                       f"{excerpt(game.title)} is too long for the rulebook's cover on {paper} paper, even "
                       f"set small: shorten it (or give the rulebook a cover chapter of its own)")


@with_game_icons
def check_files(game, problems: Problems, spec=None) -> None:
    """rulebook.yaml is valid (reported with every other file's problems)."""
    try:
        load_config(game, problems)
    except DataError as exc:
        problems.extend(exc.problems)


def words(game, spec=None) -> list:
    """What the rulebook prints that a translation gives: each example's title (``examples.<id>``), each
    chapter (a template per language), and the engine's transcript words (``phrases_<lang>``) when the
    rulebook prints games the engine plays."""
    from pnp.loading.i18n.catalogue import Source
    from pnp.rulebook.chapters import SHARED_CHAPTERS, template_dirs
    from pnp.loading.yamlsrc import line_of

    try:
        cfg = load_config(game)
    except DataError:                 # reported by its own check
        return []
    out = []
    for i, ex in enumerate(cfg.get("examples") or []):
        scenario = _raw(ex.get("_file"), game.root)
        title = scenario.get("title") if isinstance(scenario, dict) else None
        if isinstance(ex.get("id"), str) and isinstance(title, str):      # printed above its transcript
            out.append(Source(f"examples.{ex['id']}", title, ex["_file"], line_of(scenario, "title"),
                              f"example '{ex['id']}'", "title"))
    patterns = [str(d) for d in template_dirs(game, "{lang}")]
    fills = cfg.get("fill")
    named = [(c, "chapter") for c in cfg.get("chapters") or []] + \
        [(f, "fill") for f in (DEFAULT_FILL if fills is None else fills)]
    for chapter, kind in named:
        original = next((d / f"{chapter}.md.j2" for d in template_dirs(game, game.source_language)
                         if (d / f"{chapter}.md.j2").is_file()), None)
        if original is None or original.parent == SHARED_CHAPTERS:   # missing: reported by the rulebook's
            continue                  # own check; pnp's shared chapters print pnp's words, in any language
        out.append(Source(f"templates/rulebook/{{lang}}/{chapter}.md.j2",
                          tuple(f"{d}/{chapter}.md.j2" for d in patterns), original, None,
                          f"rulebook {kind} '{chapter}'", "the chapter" if kind == "chapter" else "the fill template",
                          kind="template"))
    if game.engine and (cfg.get("examples") or cfg.get("battle")):
        try:
            engine = engine_named(game.engine)
        except Exception:             # an unknown or broken engine: game.yaml's own problem, reported at its line
            return out
        out.append(Source(f"rules_engine/{game.engine}/phrases_{{lang}}.py",
                          (f"module:{getattr(engine, '__name__', game.engine)}.phrases_{{lang}}",),
                          getattr(engine, "__file__", None), None,
                          f"engine '{game.engine}'", "the examples' transcript wording", kind="template"))
    return out


def _raw(path, root):
    from pnp.loading.yamlsrc import load_yaml

    try:
        return load_yaml(path, within=root) if path is not None else None
    except DataError:
        return None


COMPONENT = Component("rulebook", build, check, check_files=check_files, weight=5, words=words, listed=listed)
