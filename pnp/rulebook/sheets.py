"""Sheets: a page (or a few) of text from one of the game's templates: player aids, reference sheets,
scoring pads, setup diagrams in words.

A ``{kind: sheet, id: ..., template: ...}`` entry of game.yaml's ``components`` renders
``templates/sheets/<lang>/<template>.md.j2`` of the game folder (the rulebook's markup: headings, lists,
tables, icons) with the rulebook's context (the game, its cards, ``ability(card)``, the engine's
``rules`` facts) plus ``faction`` (the entry's faction, for one sheet per side from one template). A
sheet longer than its ``pages`` is a validation error, so a reference sheet stays one sheet.
"""

from __future__ import annotations

from functools import lru_cache

import jinja2

from pnp.text import templating
from pnp.cache.buildcache import replays_reads
from pnp.cache.memo import reads_files
from pnp.components import BuildOptions, Component, Output, Part
from pnp.draw.icons import with_game_icons
from pnp.draw.merge import page_count
from pnp.errors import DataError, Problems
from pnp.text.grammar import speaking, written_in
from pnp.loading.i18n import word
from pnp.text.markup import MarkupError, escape, parse
from pnp.draw.document import flowables, single_frame_pdf
from pnp.loading.schema import Field
from pnp.units import PAPERS

MARGIN = 12.0
#: A sheet page that leaves more than this share of its frame empty under what it holds is a warning: a
#: reference sheet is kept at hand, and its foot is room for the pieces drawn or a turn summary.
EMPTY_SHARE = 0.2

#: Settings of a ``{kind: sheet, ...}`` entry of game.yaml's ``components``.
SCHEMA = {
    "template": Field("id", required=True, doc="templates/sheets/<lang>/<template>.md.j2 in the game folder"),
    "title": Field("str", nullable=True, doc="its title in the kit (default: from the id)"),
    "faction": Field("id", nullable=True, doc="a faction the template receives as 'faction'"),
    "pages": Field("int", default=1, min=1, max=8, doc="the most pages it may take (more is an error)"),
}


def config_of(spec) -> dict:
    return {k: (f.default if spec.config.get(k) is None else spec.config[k]) for k, f in SCHEMA.items()}


def _where(game, spec):
    return game.root / "game.yaml", spec.line, f"sheet '{spec.id}'"


def markup(game, spec, lang) -> tuple[str, object]:
    """(markup, template file) of the sheet, rendered in the sandbox; DataError naming the template.
    Rendered once per game, entry and language (the check sets it on two papers)."""
    return _markup(game, spec, spec.config_key(), lang)[:2]


@replays_reads
@reads_files
@lru_cache(maxsize=16)
def _markup(game, spec, _config, lang) -> tuple[str, object, object]:
    """(markup, template file, :class:`pnp.rulebook.figures.Figures` its ``figure.*`` calls drew)."""
    from pnp.rulebook.component import context
    from pnp.rulebook.figures import Figures

    config = config_of(spec)
    lang = lang or game.language
    folder = game.root / "templates" / "sheets" / lang
    # a language without the sheet prints the data's own (validation reports it, as a warning only
    # with --allow-missing)
    env = templating.environment(tuple(dict.fromkeys((folder, game.root / "templates" / "sheets" /
                                                      game.source_language))))
    name = f"{config['template']}.md.j2"
    path, line, subject = _where(game, spec)
    problems = Problems()
    faction = None
    if config["faction"]:
        faction = next((f for f in game.factions if f.id == config["faction"]), None)
        if faction is None:
            problems.error(path, line, subject, f"faction: no faction '{config['faction']}' (the game's: "
                                                f"{', '.join(f.id for f in game.factions)})")
            raise DataError(problems)
    try:
        template = env.get_template(name)
    except jinja2.TemplateNotFound:
        problems.error(path, line, subject, f"template: no file templates/sheets/{lang}/{name} in the game folder")
        raise DataError(problems) from None
    except jinja2.TemplateSyntaxError as exc:
        problems.append(templating.template_problem(exc, subject=subject))
        raise DataError(problems) from None
    # a sheet draws the rulebook's figures too (a reference sheet's pieces as printed)
    figures = Figures(game, lang)
    try:
        with speaking(written_in(template.filename, game.root / "templates" / "sheets", lang, game.source_language)):
            text = templating.render(template, **context(game, {"examples": []}, lang, figures), faction=faction)
    except templating.TEMPLATE_ERRORS as exc:
        problems.append(templating.template_problem(exc, template.filename, subject))
        raise DataError(problems) from None
    problems.extend(figures.problems)
    templating.markup_problems_in(text, template.filename, subject, problems, game.icons.names)
    problems.raise_if_errors()
    return text, template.filename, figures


def render(game, spec, options: BuildOptions) -> bytes:
    """The sheet's PDF on the options' paper, in their language (nothing else of them counts): set once
    per game, entry, paper and language, so the build finds the one its check set on the same paper."""
    return _rendered(game, spec, spec.config_key(), options.paper, options.lang)[0]


def empty_shares(game, spec, paper: str, lang: str | None) -> tuple:
    """The share of each page of the sheet (on ``paper``, in ``lang``) left empty under what it holds."""
    return _rendered(game, spec, spec.config_key(), paper, lang)[1]


@replays_reads
@reads_files
@lru_cache(maxsize=16)
def _rendered(game, spec, _config, paper, lang) -> tuple[bytes, tuple]:
    """(the sheet's PDF, the share of each of its pages left empty)."""
    text, filename, figures = _markup(game, spec, spec.config_key(), lang)

    def story(width):
        try:
            return flowables(parse(text), width, {}, figures=figures)
        except MarkupError as exc:
            problems = Problems()
            problems.error(filename, exc.line, f"sheet '{spec.id}'", exc.message)
            raise DataError(problems) from None

    empty: list = []
    pdf = single_frame_pdf(PAPERS[paper], MARGIN, f"{game.title}: {title_of(spec, game)}", game.author or "", story,
                           empty)
    return pdf, tuple(empty)


def title_of(spec, game=None) -> str:
    """The sheet's printed title (``title``, else from its id), translated (``components.<id>.title``)."""
    own = _own_title(spec)
    return escape(word(game, f"components.{spec.id}.title", own) if game is not None else own)


def _own_title(spec) -> str:
    config = config_of(spec)
    return config["title"] or spec.id.replace("_", " ").capitalize()


def words(game, spec=None) -> list:
    """What a sheet entry prints that a translation gives: its title, and its template in the language."""
    from pnp.loading.i18n.catalogue import Source

    path, line, subject = _where(game, spec)
    out = [Source(f"components.{spec.id}.title", _own_title(spec), path, line, subject, "title")]
    name = f"{config_of(spec)['template']}.md.j2"
    original = game.root / "templates" / "sheets" / game.source_language / name
    if original.is_file():
        out.append(Source(f"templates/sheets/{{lang}}/{name}",
                          (str(game.root / "templates" / "sheets" / "{lang}" / name),), original, None, subject,
                          "the template", kind="template"))
    return out


@with_game_icons
def build(game, options: BuildOptions, spec=None) -> list[Output]:
    pdf = render(game, spec, options)
    title = title_of(spec, game)
    return [Output(f"{spec.id.replace('_', '-')}.pdf", title, pdf=pdf, parts=(Part("sheet", spec.id, 1, title),))]


@with_game_icons
def check(game, problems, options: BuildOptions | None = None, spec=None) -> None:
    """The template renders, and the sheet fits its pages on Letter and A4."""
    config = config_of(spec)
    path, line, subject = _where(game, spec)
    for paper in ("letter", "a4"):
        try:
            pdf = render(game, spec, BuildOptions(paper=paper, lang=options.lang if options else None))
        except DataError as exc:
            problems.extend(exc.problems)
            return
        n = page_count(pdf)
        if n > config["pages"]:
            problems.error(path, line, subject, f"takes {n} pages on {paper}, more than pages: {config['pages']}")
            continue
        shares = empty_shares(game, spec, paper, options.lang if options else None)
        empty = [(k, share) for k, share in enumerate(shares, 1) if share > EMPTY_SHARE]
        if empty:
            pages = ", ".join(f"page {k} ({share:.0%} empty)" for k, share in empty)
            problems.warn(path, line, subject,
                          f"leaves more than a fifth of {'a page' if len(empty) == 1 else 'its pages'} empty on "
                          f"{paper}: {pages}; give the room something a player uses: the pieces drawn "
                          f"(figure.token, figure.card), a turn summary, a setup or an example figure")


COMPONENT = Component("sheet", build, check, words=words)
