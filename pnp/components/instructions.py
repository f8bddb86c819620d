"""The kit's first page: what each page is, how to print it, and a ruler to check actual size.

Page numbers come from the kit as built (see ``Component.needs_kit``), so they are always right. The
page is one template for every language (``templates/instructions/page.md.j2``): its words are pnp's
printed words (``templates/strings/<lang>.yaml``), which a game's ``i18n/<lang>.yaml`` may give or
override under ``strings:``, so a kit in any language has a complete instructions page.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from pnp import TEMPLATES_DIR
from pnp.cache import buildcache
from pnp.text import templating
from pnp.components import BuildOptions, Component, KitEntry, Output, game_components, sharing
from pnp.components.sharing import share_blocks
from pnp.draw.flowables import Ruler
from pnp.draw.icons import with_game_icons
from pnp.errors import DataError, Problems
from pnp.loading.i18n import strings
from pnp.loading.placeholders import PRINTED_MARK
from pnp.components.manifest import entry_of, rows
from pnp.text.locales import listed, number
from pnp.text.markup import Safe, escape, parse
from pnp.draw.document import flowables, single_frame_pdf

MARGIN = 15.0


@cache
def _environment():
    """pnp's own instructions templates (one environment, so each is compiled once per process)."""
    return templating.environment((TEMPLATES_DIR / "instructions",), keep_trailing_newline=False)


#: The instructions page's template, in templates/instructions/.
TEMPLATE = "page.md.j2"


def warm(game, options: BuildOptions) -> None:
    """Compile the template ahead, while a parallel build waits for its other files (``Component.warm``);
    a template that does not compile is left for :func:`build` to report."""
    try:
        _environment().get_template(TEMPLATE)
    except templating.TEMPLATE_ERRORS:
        pass


def view(game):
    """The game as the instructions page reads it (:func:`pnp.cache.buildcache.counts_only`: the page counts each
    deck's cards and reads nothing else of them)."""
    return buildcache.counts_only(game)


def two_faced(game) -> str:
    """``every`` when every card of the kit has a side B (its back pages are half of every card), ``some``
    when some do (a mixed deck), else ``""``."""
    cards = [c for d in game.decks for c in d.cards]
    double = [c for c in cards if getattr(c, "side_b", None)]
    return "" if not double else "every" if len(double) == len(cards) and not game.aid_count else "some"


#: Component kinds whose pieces are best printed on card stock (the others on paper: the rulebook, sheets
#: and pads to write on, a track, this page).
ON_CARD = frozenset({"cards", "tokens", "board", "dice", "standee", "hexmap", "box"})


def paper_needed(bill, kinds: dict, lang: str, spelling: str | None = None, entries=()) -> list[tuple[str, int, str]]:
    """(``card`` or ``paper``, sheets, the components that take them, listed in the language) of the kit's
    bill of materials (:func:`pnp.components.manifest.rows`): card stock first; a kind of paper no sheet
    takes is left out. Shared sheets (``entries`` that hold other files' pages) take card stock when they
    hold pieces of a kind that does."""
    on_card = {c for c, kind in kinds.items() if kind in ON_CARD}
    on_card |= {e.component for e in entries if any(h[3].split(":")[0] in ON_CARD for h in e.holds)}
    out = []
    for stock in ("card", "paper"):
        rows = [r for r in bill if r["sheets"] and (r["component"] in on_card) == (stock == "card")]
        if rows:
            out.append((stock, sum(r["sheets"] for r in rows),
                        Safe(listed([r["title"] for r in rows], spelling or lang))))
    return out


@with_game_icons
def build(game, options: BuildOptions, entries, spec=None) -> list[Output]:
    return [Output("instructions.pdf", _title(game, options), pdf=_page(game, options, entries)[0])]


def _title(game, options) -> str:
    return strings(game, options.lang or game.language).get("instructions", "Instructions")


def _page(game, options: BuildOptions, entries, enough: float | None = None) -> tuple[bytes, tuple]:
    """(the page's PDF, the share of each of its pages left empty) for the kit's ``entries`` (``enough``:
    see :func:`fitted`)."""
    game = view(game)
    lang = options.lang or game.language
    words = strings(game, lang)
    try:
        template = _environment().get_template(TEMPLATE)
        bill = rows(entries)
        kinds = {c.name: c.kind for c in game_components(game)}
        for row in bill:
            several = sum(1 for f in row["files"] if f["in_kit"]) > 1
            row["title"] = (words.get(f"kind_{kinds.get(row['component'])}") if several else None) or row["title"] \
                or words.get("instructions", "Instructions")
        need = paper_needed(bill, kinds, lang, game.hyphenation, entries)
        markup = templating.render(template, game=game, entries=entries, flip=options.flip, need=need,
                                   booklet_flip=options.booklet_flip, paper=options.paper,
                                   words={k: Safe(v) if isinstance(v, str) else v for k, v in words.items()},
                                   say=words.say, bleed=number(options.bleed, lang) if options.bleed else "",
                                   cutter=options.cutter or "",
                                   files={e.filename for e in entries}, bill=bill, kinds=kinds,
                                   shared={h[0] for e in entries for h in e.holds},
                                   sheets=sum(r["sheets"] for r in bill), faces=two_faced(game),
                                   invented=any(game.placeholders.values()), mark=PRINTED_MARK)
    except templating.TEMPLATE_ERRORS as exc:
        raise DataError([templating.template_problem(exc, TEMPLATES_DIR / "instructions" / TEMPLATE,
                                                     "instructions")]) from None
    problems = Problems()
    templating.markup_problems_in(markup, template.filename, "instructions", problems, game.icons.names)
    problems.raise_if_errors()
    title = f"{game.title}: {words.get('instructions', 'Instructions')}"
    return fitted(markup, words, options.page_size, title, game.author, enough)


#: The largest the page's text is set, as a multiple of the rulebook's sizes (9.4 pt body text, 7 pt
#: tables: 12.7 pt and 9.5 pt at the most); the ruler keeps its size.
MOST_SCALE = 1.35
#: The smallest, when that keeps the page to fewer pages (8.5 pt and 6.3 pt): a page a few lines too long
#: is set a little smaller rather than print a second page of a few lines.
LEAST_SCALE = 0.9
#: The steps the size is tried in.
SCALE_STEP = 0.05


def fitted(markup: str, words, page_size: tuple, title: str, author: str,
           enough: float | None = None) -> tuple[bytes, tuple]:
    """(the page's PDF, the share of each page's frame left empty): the text set as large as fits the
    fewest pages it can take between :data:`LEAST_SCALE` and :data:`MOST_SCALE` times the rulebook's
    sizes, so a short kit's page is not half blank and a long one's does not spill a few lines onto a
    second page. The size is searched in steps, by halves (the pages it takes grow with it). ``enough``
    (the check's question): the rulebook's sizes are kept when they leave no more than that share of the
    last page empty (a larger size would only fill it more)."""
    nodes = parse(markup)

    def made(scale):
        empty: list = []
        pdf = single_frame_pdf(page_size, MARGIN, title, author,
                               lambda width: flowables(nodes, width, {"ruler": lambda arg: [Ruler(words)]},
                                                       scale=scale), empty)
        return pdf, tuple(empty)

    def scale(step):
        return round(1.0 + step * SCALE_STEP, 2)

    best = made(1.0)
    if enough is not None and best[1][-1] <= enough:
        return best
    pages, lo = len(best[1]), 0                 # steps from 1.0: lo fits ``pages``
    if pages > 1:
        least = round((LEAST_SCALE - 1.0) / SCALE_STEP)
        smallest = made(scale(least))
        if len(smallest[1]) < pages:            # fewer pages at a smaller size: the largest that holds them
            pages, lo, best = len(smallest[1]), least, smallest
    elif best[1][-1] <= SCALE_STEP:
        return best
    hi = round((MOST_SCALE - 1.0) / SCALE_STEP) if lo == 0 else -1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        tried = made(scale(mid))
        if len(tried[1]) <= pages:
            lo, best = mid, tried
        else:
            hi = mid - 1
    return best
    lo, hi = 0, round((MOST_SCALE - 1.0) / SCALE_STEP)       # steps: lo fits, hi is still to try
    while lo < hi:
        mid = (lo + hi + 1) // 2
        tried = made(round(1.0 + mid * SCALE_STEP, 2))
        if len(tried[1]) <= pages:
            lo, best = mid, tried
        else:
            hi = mid - 1
    return best


#: A page of the instructions more than this share empty is a warning (as a booklet's page is).
EMPTY_SHARE = 1 / 3


def kit_entries(game, options: BuildOptions) -> list[KitEntry]:
    """The kit's entries as the build will list them, near enough to measure this page by (it takes one
    page): a light component's files laid out on ``options``' paper (none drawn), and so are those of a
    component whose pages may go onto shared sheets (dice, boards, standees: laying them out is quick);
    a heavy one's (a ``weight`` above 1: cards, the map, the rulebook) as its ``listed`` hook gives them,
    else one page under its id, with no pieces. The pages that the build would move onto shared sheets
    move here too (:func:`pnp.components.sharing.plan`, the build's own decision), so the page lists the
    shared sheets and counts the sheets the kit takes. The check runs on every validate, the studio's
    too: laying out every card face again there would double its time."""
    from pnp.draw.merge import page_count

    components = game_components(game)
    built = {}
    for component in components:
        if component.needs_kit:
            continue
        if component.weight <= 1 or component.shares:
            outs = component.build(game, options)
        elif component.listed is not None:
            outs = component.listed(game, options)
        else:
            outs = [Output(f"{component.name.replace('_', '-')}.pdf",
                           escape(component.name.replace("_", " ").capitalize()), [()])]
        for out in outs:
            if out.share and out.pdf is None and out.pages:
                out.blocks = share_blocks(out)
        built[component.name] = outs
    components, built = _shared(game, components, built, options)
    entries, page = [], 1
    for component in components:
        if component.needs_kit:
            entries.append(KitEntry("", component.name, page, page, component.name, 1))
            page += 1
            continue
        outs = built[component.name]
        for out in outs:
            own = len(out.pages) if out.pdf is None else page_count(out.pdf)
            if out.interleave:
                own = sum(len(o.pages) if o.pdf is None else page_count(o.pdf) for o in outs
                          if o.filename in out.interleave)
            n = own if out.in_kit else 0
            entries.append(entry_of(component.name, out, page if n else 0, page + n - 1 if n else 0, n, own))
            page += n
    return entries


def _shared(game, components, built: dict, options: BuildOptions) -> tuple[list, dict]:
    """``components`` and ``built`` with the pages the build puts on shared sheets moved there (as
    :func:`pnp.build.sharing.share_sheets` moves them, nothing drawn): the shared sheets an output of
    blank pages, one per sheet."""
    found = sharing.plan(components, built, options)
    if found is None:
        return components, built
    pages, packed = found
    built = {name: list(outs) for name, outs in built.items()}
    files = sharing.files_of(pages)
    title = strings(game, options.lang).get("shared_sheets", "Shared sheets")
    shared = Output(sharing.free_name(built), title, [()] * packed.sheets, sides="single",
                    holds=sharing.holds(components, built, files))
    for (name, k), moved in files.items():
        out = built[name][k]
        if len(moved) == len(out.pages):
            built[name][k] = replace(out, in_kit=False, sheets=0)
        else:
            sheets_left = None if out.sheets is None else out.sheets - len(moved)
            built[name][k] = replace(out, pages=[p for i, p in enumerate(out.pages) if i not in moved],
                                     blocks=tuple(b for i, b in enumerate(out.blocks) if i not in moved),
                                     sheets=sheets_left)
    last = sharing.position(components, files)
    own = sharing.own_id(components)
    built[own] = [shared]
    return components[:last] + [Component(own, lambda *a, **k: [], kind="shared")] + components[last:], built


@with_game_icons
def check(game, problems, options: BuildOptions | None = None, spec=None) -> None:
    """The page fills its paper: more than :data:`EMPTY_SHARE` of it left empty on Letter or A4 (its text
    already at its largest) is a warning at game.yaml's ``components``. The kit is listed per paper, as
    the build lists it there: which pages go onto shared sheets, and how many sheets those take, can
    differ between Letter and A4."""
    lang = options.lang if options else None
    found = []
    for paper in ("letter", "a4"):
        try:
            entries = kit_entries(game, BuildOptions(paper=paper, lang=lang))
        except (DataError, ValueError):     # a component's own problem (a token too large for its sheet),
            return                          # reported by its own check
        shares = _page(game, BuildOptions(paper=paper, lang=lang), entries, EMPTY_SHARE)[1]
        found += [(paper, k, share) for k, share in enumerate(shares, 1) if share > EMPTY_SHARE]
    if found:
        listed_pages = "; ".join(f"page {k} on {paper} ({share:.0%} empty)" for paper, k, share in found)
        problems.warn(*game.where("components"), "instructions",
                      f"the instructions page leaves more than a third of its paper empty with its text at its "
                      f"largest: {listed_pages}; a kit this small can do without it (take 'instructions' out "
                      f"of components), or give game.yaml an icon_key for it to explain the kit's icons")


COMPONENT = Component("instructions", build, check, needs_kit=True, warm=warm, view=view)
