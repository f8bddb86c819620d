"""Token sheets (fold or glue) from tokens.yaml."""

from __future__ import annotations

from dataclasses import replace

from pnp.components import record
from pnp.loading import placeholders
from pnp.components import BuildOptions, Component, Output, Part
from pnp.draw import fonts
from pnp.draw.icons import with_game_icons
from pnp.draw.text import fit
from pnp.errors import DataError, Problems
from pnp.loading.i18n import given_at, strings, word, words_at
from pnp.layout.geometry import Rect, Text
from pnp.layout.packing import page_block, small_enough
from pnp.layout.outline import CircleOutline, CutPiece, PolygonOutline, RectOutline
from pnp.layout.tokens import ROUNDED, fold_block_page, front_area, hexagon_points, plan, sheet_pages, token_face
from pnp.text.markup import escape, plain_text
from pnp.loading.paths import excerpt
from pnp.loading.tokendata import load_tokens

#: Simulated games behind the token-demand warning (fast enough for every validate).
DEMAND_GAMES = 200


def faces(game, token_set, lang=None) -> dict:
    """Each token's two faces laid out, their captions and labels in the kit's language
    (``tokens.<id>.front.caption``, ...; ``caption: faction`` is the faction's name)."""
    result = {}
    for t in token_set.tokens:
        faction = game.faction(t.faction) if t.faction else None
        sides = []
        for side, face in (("front", t.front), ("back", t.back)):
            caption = face.caption
            if caption == "faction" and faction:
                caption = faction.name
            else:
                caption = word(game, f"tokens.{t.id}.{side}.caption", caption, lang)
            caption = escape(caption) if caption else caption
            face = replace(face, label=word(game, f"tokens.{t.id}.{side}.label", face.label, lang))
            sides.append(token_face(face, t.shape, t.size, token_set.bleed, faction.colour if faction else None,
                                    caption, t.outline))
        result[t.id] = tuple(sides)
    return result


def words(game, spec=None) -> list:
    """What tokens.yaml prints that a translation gives: each face's caption and label (words, not
    numbers), as ``tokens.<id>.<front|back>.<caption|label>``, and the name of each kind the game has no
    printed word ``tokens_<kind>`` for (its id prints)."""
    from pnp.loading.i18n.catalogue import Source

    try:
        token_set = load_tokens(game)
    except DataError:                # reported by the component's own checks
        return []
    out = []
    # a kind without a printed word tokens_<kind> prints its id (the bill of materials, the rulebook's list)
    named = set(strings(game, game.source_language))
    first = {}
    for t in token_set.tokens:
        first.setdefault(t.kind, t)
    for kind in token_set.kinds:
        if f"tokens_{kind}" not in named and kind in first:
            out.append(Source(f"strings.tokens_{kind}", kind, token_set.path, first[kind].line,
                              f"token kind '{kind}'", f"printed word 'tokens_{kind}'"))
    for t in token_set.tokens:
        for side, face in (("front", t.front), ("back", t.back)):
            if face.caption and face.caption != "faction":
                out.append(Source(f"tokens.{t.id}.{side}.caption", face.caption, token_set.path, t.line,
                                  f"token '{t.id}'", f"{side} caption"))
            if face.label:
                out.append(Source(f"tokens.{t.id}.{side}.label", face.label, token_set.path, t.line,
                                  f"token '{t.id}'", f"{side} label"))
    return out


@with_game_icons
def build(game, options: BuildOptions, spec=None) -> list[Output]:
    token_set = load_tokens(game)
    if options.bleed:  # print-shop bleed: more art past the cut lines, and room between tokens for it
        token_set = replace(token_set, bleed=max(token_set.bleed, options.bleed),
                            gap=max(token_set.gap, 2 * options.bleed))
    words = strings(game, options.lang)
    w, h = options.page_size
    parts = tuple(Part("token", kind, token_set.count_of(kind), words.get(f"tokens_{kind}", escape(kind)))
                  for kind in token_set.kinds if token_set.count_of(kind))
    if options.cutter:
        out = _cutter_output(game, token_set, options, words, parts)
    else:
        out = Output("tokens.pdf", words.get("tokens", "Tokens"), _pages(game, token_set, token_set.tokens, options),
                     parts=parts, sides="fold")
        if len(out.pages) > 1 and not options.bleed:
            # the last sheet as a fold block: onto shared sheets when it is small and that saves a sheet
            token_plan = plan(token_set.tokens, w, h, token_set.gap, token_set.fold_gutter)
            block = fold_block_page(token_plan, faces(game, token_set, options.lang), token_set.gap,
                                    token_set.fold_gutter, {t.id: t.outline for t in token_set.tokens if t.outline})
            if small_enough(page_block(block), w, h):
                out.share, out.shared_page = "one-side", block
    out.record = record.fragment(game, "tokens", *printed(game, options))
    return [out]


def _print_set(game, options: BuildOptions):
    """tokens.yaml as the build prints it: with a print-shop bleed, more art past the cut lines and room
    between tokens for it."""
    token_set = load_tokens(game)
    if options.bleed:
        token_set = replace(token_set, bleed=max(token_set.bleed, options.bleed),
                            gap=max(token_set.gap, 2 * options.bleed))
    return token_set


def _pages(game, token_set, tokens, options: BuildOptions) -> list:
    """The fold-and-glue sheets of ``tokens`` (each with its count of copies)."""
    w, h = options.page_size
    token_plan = plan(tokens, w, h, token_set.gap, token_set.fold_gutter)
    return sheet_pages(token_plan, faces(game, token_set, options.lang), token_set.bleed,
                       strings(game, options.lang).get("token_fold_note", ""),
                       {t.id: t.outline for t in token_set.tokens if t.outline})


def printed(game, options: BuildOptions, spec=None) -> tuple[str, list]:
    """(title, every copy of every token with its two faces as drawn without a print-shop bleed, and the
    values of its tokens.yaml entry), for :mod:`pnp.reprint.changes`."""
    token_set = load_tokens(game)
    sides = faces(game, token_set, options.lang)
    out = [record.Printed(t.id, f"{t.id}#{k + 1}", escape(t.id), *sides[t.id], record.item_values(t, game.root))
           for t in token_set.tokens for k in range(t.count)]
    return strings(game, options.lang).get("tokens", "Tokens"), out


@with_game_icons
def reprinted(game, options: BuildOptions, labels: set, first: int, spec=None) -> record.Reprinted:
    """Fold-and-glue sheets of only the token copies ``labels``, laid out as the build lays out tokens
    (without a cutting machine's layout)."""
    token_set = _print_set(game, options)
    wanted = {}
    for label in labels:
        key = label.rsplit("#", 1)[0]
        wanted[key] = wanted.get(key, 0) + 1
    tokens = [replace(t, count=wanted[t.id]) for t in token_set.tokens if t.id in wanted]
    return record.Reprinted([(page, None) for page in _pages(game, token_set, tokens, options)])


def _cutter_output(game, token_set, options: BuildOptions, words, parts) -> Output:
    """``--cutter``: each sheet of token fronts (with the machine's marks, inside the area it cuts) followed
    by the sheet of their backs, each behind its front when printed double-sided; cut files of the fronts
    beside (for Cricut, each page's image and cut file, fronts and backs, to cut apart and glue)."""
    from pnp.draw.cutfile import cut_files
    from pnp.layout.cutter import CUT_BLEED, MACHINES, keylines, piece_sheets, placed_outline, registration_marks
    from pnp.layout.geometry import Group, Page
    from pnp.layout.sheet import mirror

    machine = MACHINES[options.cutter]
    w, h = options.page_size
    bleed = max(token_set.bleed, CUT_BLEED)
    token_set = replace(token_set, bleed=bleed)
    sides = faces(game, token_set, options.lang)
    tokens = {t.id: t for t in token_set.tokens}
    items = [((t.id, k + 1), t.extent, t.extent) for t in token_set.tokens for k in range(t.count)]
    try:
        sheets = piece_sheets(machine, items, w, h, bleed)
    except ValueError as exc:
        problems = Problems()
        problems.error(token_set.path, None, "tokens", f"{exc} for --cutter {machine.name} on {options.paper}")
        raise DataError(problems) from None
    title = words.get("tokens", "Tokens")
    pages, cuts = [], []
    for i, sheet in enumerate(sheets):
        front = Page(w, h, label=f"{title} {i + 1}")
        back = Page(w, h, label=f"{title} {i + 1}")
        front_cuts, back_cuts = [], []
        for p in sheet:
            (tid, copy), rect = p.key, p.rect
            turned = mirror(rect, w, h, options.flip)
            front.add(Group(tuple(sides[tid][0]), rect.x, rect.y, role=f"front:{tid}#{copy}"))
            back.add(Group(tuple(sides[tid][1]), turned.x, turned.y, role=f"back:{tid}#{copy}"))
            front_cuts.append(placed_outline(outline_of(tokens[tid]), rect.x, rect.y, f"{tid}#{copy}"))
            back_cuts.append(placed_outline(outline_of(tokens[tid]), turned.x, turned.y, f"{tid}#{copy} back"))
        front.add(*registration_marks(machine, w, h), *keylines(machine, front_cuts))
        pages += [front, back]
        cuts += [front_cuts, back_cuts]
    # Cricut: Design Space prints fronts and backs each on its own sheet; the others: double-sided
    out = Output("tokens.pdf", title, pages, parts=parts, sides="single" if machine.image else "double",
                 sheets=None if machine.image else len(sheets))
    if machine.image:      # Design Space prints where it likes: fronts and backs are cut apart and glued
        out.beside = cut_files(game.title, machine, w, h, cuts, "tokens", drawn=pages, words=words)
    else:                  # the machine cuts the printed fronts; the backs are on their reverse
        numbers = list(range(1, len(pages) + 1, 2))
        out.beside = cut_files(game.title, machine, w, h, cuts[::2], "tokens", numbers, drawn=pages[::2],
                               words=words)
    return out


def demand_check(game, problems) -> None:
    """:func:`check_demand` for the kit's tokens (when it lists them and tokens.yaml is sound): a check of
    pnp validate's (and pnp build's) own, kept by what the simulated games read (a card's name edited
    does not play them again), after the components' checks."""
    if not any(spec.kind == "tokens" for spec in game.component_specs):
        return
    try:
        token_set = load_tokens(game)
    except DataError:                # reported by the component's own check
        return
    if token_set is not None:
        check_demand(game, token_set, problems)


def check_demand(game, token_set, problems, games: int = DEMAND_GAMES) -> None:
    """Warn when the kit has fewer tokens than simulated games use at once (99th percentile, most players)."""
    engine = _engine_named(game.engine) if game.engine else None
    demand_of = getattr(engine, "token_demand", None)
    if demand_of is None:
        return
    from pnp.cache import played

    players = game.players[1]
    # the same cards, the same code: the games played once in this process (pnp.cache.played)
    demand = dict(played.call("token_demand", engine.module, game,
                              lambda: repr((game.cards, game.factions, games, 0, players)),
                              lambda: dict(demand_of(game.cards, games=games, seed=0, players=players,
                                                     factions=game.factions))))
    for kind, need in sorted(demand.items()):
        parts = [t for t in token_set.tokens if t.kind == kind]
        if not parts:
            continue
        by_value = any(t.value for t in parts)
        have = token_set.value_of(kind) if by_value else token_set.count_of(kind)
        if have < need:
            what = f"{kind} worth {have} in all" if by_value else f"{have} {kind} tokens"
            problems.warn(token_set.path, parts[0].line, f"token '{parts[0].id}'",
                          f"the kit has {what}, but {players}-player games can need {need} at once "
                          f"(99th percentile of {games} simulated games)")


@with_game_icons
def check(game, problems, options: BuildOptions | None = None, spec=None) -> None:
    before = len(problems.errors)
    token_set = load_tokens(game, problems)
    if token_set is not None and len(problems.errors) > before:
        return                # the file's own problems first: the checks below would stumble on them
    if token_set is None:
        if not (game.root / "tokens.yaml").exists():
            problems.error(*game.where("components"), "components",
                           "the kit lists 'tokens' but the game has no tokens.yaml")
        return
    for paper in ("letter", "a4"):
        w, h = BuildOptions(paper=paper).page_size
        area = front_area(w, h, token_set.fold_gutter)
        for t in token_set.tokens:
            if t.extent > min(area.w, area.h):
                problems.error(token_set.path, t.line, f"token '{t.id}'",
                               f"size: {t.size:g} mm is larger than the half sheet it prints on "
                               f"({area.w:.1f} x {area.h:.1f} mm on {paper})")
    lang = options.lang if options else None
    check_kind_words(game, token_set, lang, problems)
    for t in token_set.tokens:
        for side, face in (("front", t.front), ("back", t.back)):
            # the words the kit prints: the translation's in a translated kit, and its line when it gives them
            keys = {key: f"tokens.{t.id}.{side}.{key}" for key in ("caption", "label")}
            if face.caption != "faction":
                face = replace(face, caption=word(game, keys["caption"], face.caption, lang))
            face = replace(face, label=word(game, keys["label"], face.label, lang))
            for key, text, roles in (("caption", face.caption, ("sans-black",)), ("label", face.label, ("sans-black",))):
                shown = fonts.unprintable(str(text), roles) if text and text != "faction" else None
                if shown:      # a faction's name is checked with game.yaml
                    problems.error(*(given_at(game, lang, keys[key]) or (token_set.path, t.line)), f"token '{t.id}'",
                                   f"{side}.{key} {excerpt(str(text))} uses characters the fonts cannot print: {shown}")
            caption = game.faction(t.faction).name if face.caption == "faction" and t.faction else face.caption
            for el in token_face(face, t.shape, t.size, 0, "#000000", escape(caption) if caption else caption):
                if isinstance(el, Text) and not fit(el.markup, el.style, el.rect.w, el.rect.h).ok:
                    at = words_at(game, lang, el.markup, keys.values()) or (token_set.path, t.line)
                    problems.error(*at, f"token '{t.id}'",
                                   f"{side}.caption {excerpt(plain_text(el.markup))} does not fit a {t.size:g} mm "
                                   f"token")


def check_kind_words(game, token_set, lang: str | None, problems) -> None:
    """A warning at the first token of each kind the game gives no printed word ``tokens_<kind>`` for: its
    id prints instead ("1 first" in the instructions page's list of pieces and the rulebook's). In the
    game's own language only: a translation that lacks the word is reported with its other strings."""
    if lang and lang != game.source_language:
        return
    source = game.source_language
    named = strings(game, source)
    first = {}
    for t in token_set.tokens:
        first.setdefault(t.kind, t)
    for kind in token_set.kinds:
        if f"tokens_{kind}" in named or kind not in first or not token_set.count_of(kind):
            continue
        count = token_set.count_of(kind)
        problems.warn(token_set.path, first[kind].line, f"token kind '{kind}'",
                      f"has no printed word, so the kit prints its id (\"{count} {kind}\" in the list of pieces); "
                      f"give the name players read as tokens_{kind}: under strings: in i18n/{source}.yaml")


@with_game_icons
def check_files(game, problems, spec=None) -> None:
    """tokens.yaml exists and is valid (reported with every other file's problems); its placeholder
    marks are counted like the cards'."""
    token_set = load_tokens(game, problems)
    if token_set is None and not (game.root / "tokens.yaml").is_file():
        problems.error(*game.where("components"), "components",
                       "the kit lists 'tokens' but the game has no tokens.yaml")
    if token_set is not None:
        placeholders.warn_counts({token_set.path: token_set.placeholders}, problems)


def outline_of(token):
    """The cut line of a token in its frame (0..extent, 0..extent)."""
    extent = token.extent
    c = extent / 2
    if token.shape == "circle":
        return CircleOutline(c, c, token.size / 2, "cut circle")
    if token.shape == "hexagon":
        return PolygonOutline(hexagon_points(c, c, token.size), "cut hexagon")
    if token.shape == "outline" and token.outline is not None:
        from pnp.draw.ink import svg_outline

        return PolygonOutline(svg_outline(str(token.outline), Rect(0.0, 0.0, extent, extent)), "cut outline")
    radius = token.size * ROUNDED if token.shape == "rounded" else 0.0
    return RectOutline(Rect(0.0, 0.0, extent, extent), radius)


@with_game_icons
def cut_pieces(game, options: BuildOptions | None = None, spec=None):
    """Each token's front and back, as cut out."""
    token_set = load_tokens(game)
    name = spec.id if spec else "tokens"
    sides = faces(game, token_set, options.lang if options else None)
    for t in token_set.tokens:
        outline = outline_of(t)
        for side, elements in zip(("front", "back"), sides[t.id]):
            yield CutPiece(name, f"token '{t.id}' {side}", outline, tuple(elements), (token_set.path, t.line),
                           trimmed=t.shape in ("square", "rounded"))


COMPONENT = Component("tokens", build, check, check_files=check_files, pieces=cut_pieces, words=words,
                      printed=printed, reprint=reprinted)


def _engine_named(name: str):
    """The installed engine as pnp uses it (its hooks, and the contract's defaults): imported when a game
    with rules needs it."""
    from rules_engine.core.contract import engine_named

    return engine_named(name)
