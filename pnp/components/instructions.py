"""The kit's first page: what each page is, how to print it, and a ruler to check actual size.

Page numbers come from the kit as built (see ``Component.needs_kit``), so they are always right. The
page is one template for every language (``templates/instructions/page.md.j2``): its words are pnp's
printed words (``templates/strings/<lang>.yaml``), which a game's ``i18n/<lang>.yaml`` may give or
override under ``strings:``, so a kit in any language has a complete instructions page.
"""

from __future__ import annotations

from functools import cache

from pnp import TEMPLATES_DIR
from pnp.cache import buildcache
from pnp.text import templating
from pnp.components import BuildOptions, Component, Output, game_components
from pnp.draw.flowables import Ruler
from pnp.draw.icons import with_game_icons
from pnp.errors import DataError, Problems
from pnp.loading.i18n import strings
from pnp.loading.placeholders import PRINTED_MARK
from pnp.components.manifest import rows
from pnp.text.locales import number
from pnp.text.markup import Safe, parse
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


@with_game_icons
def build(game, options: BuildOptions, entries, spec=None) -> list[Output]:
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
        markup = templating.render(template, game=game, entries=entries, flip=options.flip,
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
    pdf = single_frame_pdf(options.page_size, MARGIN, title, game.author,
                           lambda width: flowables(parse(markup), width, {"ruler": lambda arg: [Ruler(words)]}))
    return [Output("instructions.pdf", words.get("instructions", "Instructions"), pdf=pdf)]


COMPONENT = Component("instructions", build, None, needs_kit=True, warm=warm, view=view)
