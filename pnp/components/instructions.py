"""The kit's first page: what each page is, how to print it, and a ruler to check actual size.

Page numbers come from the kit as built (see ``Component.needs_kit``), so they are always right. The
page is one template for every language (``templates/instructions/page.md.j2``): its words are pnp's
printed words (``templates/strings/<lang>.yaml``), which a game's ``i18n/<lang>.yaml`` may give or
override under ``strings:``, so a kit in any language has a complete instructions page.
"""

from __future__ import annotations

import io
from functools import cache

from reportlab.lib.colors import HexColor
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate

from pnp import TEMPLATES_DIR, buildcache, templating
from pnp.components import BuildOptions, Component, Output, game_components
from pnp.draw.icons import with_game_icons
from pnp.draw import fonts
from pnp.errors import DataError, Problems
from pnp.loading.i18n import strings
from pnp.manifest import rows
from pnp.locales import number
from pnp.markup import Safe, parse
from pnp.rulebook import flowables
from pnp.units import MM_PER_INCH, pt

MARGIN = 15.0


class Ruler(Flowable):
    """A 50 mm scale and a 2 inch scale, to check that the printer did not resize the page."""

    def __init__(self, words):
        super().__init__()
        self.words = words

    def wrap(self, avail_width, avail_height):
        self.width = avail_width
        return avail_width, pt(24)

    @staticmethod
    def _scale(c, y, length_mm, ticks, major_every, label_every, label):
        """A scale ``length_mm`` long cut into ``ticks``; numbers count ticks / ``major_every`` units."""
        c.setLineWidth(0.5)
        c.line(0, y, pt(length_mm), y)
        for k in range(ticks + 1):
            x = pt(length_mm * k / ticks)
            c.line(x, y, x, y + pt(3.2 if k % major_every == 0 else 1.8))
            if k % label_every == 0:
                c.setFont(fonts.font_name("sans"), 6)
                c.drawCentredString(x, y + pt(4.2), f"{k // major_every}")
        c.setFont(fonts.font_name("sans-bold"), 6.5)
        c.drawString(pt(length_mm) + pt(3), y + pt(0.5), label)

    def draw(self):
        c = self.canv
        c.setStrokeColor(HexColor("#1f1a17"))
        c.setFillColor(HexColor("#1f1a17"))
        # 50 mm in millimetres, numbered every centimetre; 2 inches in eighths, numbered every inch
        self._scale(c, pt(14), 50, 50, 10, 10, self.words.get("ruler_mm", "cm (50 mm)"))
        self._scale(c, pt(2), 2 * MM_PER_INCH, 16, 8, 8, self.words.get("ruler_in", "in"))


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
    """The game as the instructions page reads it (:func:`pnp.buildcache.counts_only`: the page counts each
    deck's cards and reads nothing else of them)."""
    return buildcache.counts_only(game)


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
                                   sheets=sum(r["sheets"] for r in bill))
    except templating.TEMPLATE_ERRORS as exc:
        raise DataError([templating.template_problem(exc, TEMPLATES_DIR / "instructions" / TEMPLATE,
                                                     "instructions")]) from None
    problems = Problems()
    templating.markup_problems_in(markup, template.filename, "instructions", problems)
    problems.raise_if_errors()
    w, h = options.page_size
    buf = io.BytesIO()
    fonts.register()
    doc = BaseDocTemplate(buf, pagesize=(pt(w), pt(h)), invariant=1, initialFontName="EBGaramond-Regular",
                          title=f"{game.title}: {words.get('instructions', 'Instructions')}", author=game.author,
                          leftMargin=pt(MARGIN), rightMargin=pt(MARGIN), topMargin=pt(MARGIN),
                          bottomMargin=pt(MARGIN))
    frame = Frame(doc.leftMargin, doc.bottomMargin, doc.width, doc.height, leftPadding=0, rightPadding=0,
                  topPadding=0, bottomPadding=0)
    doc.addPageTemplates([PageTemplate("page", [frame])])
    story = flowables(parse(markup), doc.width, {"ruler": lambda arg: [Ruler(words)]})
    doc.build(story)
    return [Output("instructions.pdf", words.get("instructions", "Instructions"), pdf=buf.getvalue())]


COMPONENT = Component("instructions", build, None, needs_kit=True, warm=warm, view=view)
