"""The rulebook's chapters: ``rulebook.yaml`` checked, and each chapter's template rendered to pnp markup.

``data/<game>/rulebook.yaml`` lists the chapters (``templates/rulebook/<lang>/<chapter>.md.j2``), the
booklet's page count, and the examples the rules engine plays at build time. Character lists, numbers
and ability texts come from the card data and the card-text templates, so the rulebook cannot
contradict the cards; the examples are engine transcripts, never typed by hand. Chapters are rendered in
the sandbox (:mod:`pnp.text.templating`), every chapter's problems reported at once; :mod:`pnp.draw.document` sets
the markup they make.
"""

from __future__ import annotations

import jinja2

from pnp.text.grammar import speaking, written_in
from pnp import TEMPLATES_DIR
from pnp.text import templating
from pnp.errors import Problems, display_path
from pnp.loading.schema import Field, check, entry
from pnp.loading.yamlsrc import line_of, load_yaml
from pnp.loading.paths import data_path, excerpt

CONFIG_SCHEMA = {
    "pages": Field("int", nullable=True, min=4, max=64,
                   doc="booklet pages, padding pages up to it; default: the smallest multiple of 4 "
                       "that holds the chapters"),
    "notes": Field("bool", default=False,
                   doc="padding pages are ruled Notes pages; without it they are left blank"),
    "chapters": Field("list", required=True, items=Field("id")),
    "fill": Field("list", nullable=True, items=Field("id"),
                  doc="fill templates (found as chapters are): blocks the booklet may set in room it would "
                      "leave empty, each starting at a !fill line; default: pnp's shared 'pieces'"),
    "examples": Field("list", default=[], items=Field("map", schema={
        "id": Field("id", required=True),
        "scenario": Field("str", required=True, doc="scenario file, relative to the game folder"),
    })),
    "battle": Field("map", default={}, schema={
        "seed": Field("int", default=1),
        "players": Field("int", default=4, min=1, max=10),
        "bots": Field("str", nullable=True, doc="a bot name; default: the engine's first default bot"),
        "battle": Field("int", default=1, min=1),
    }),
}


def _check_chapters(raw, cfg, problems: Problems, path) -> None:
    """At least one chapter, each listed once (a chapter twice would print the contents twice, which
    never settle)."""
    raw_chapters = raw.get("chapters") if isinstance(raw, dict) else None
    if "chapters" in cfg and not cfg["chapters"]:
        problems.error(path, line_of(raw, "chapters"), "rulebook", "chapters: the list is empty; a rulebook needs "
                                                                   "at least one chapter")
    seen = {}
    for i, chapter in enumerate(cfg.get("chapters") or []):
        line = line_of(raw_chapters, i)
        if chapter in seen:
            problems.error(path, line, "rulebook", f"{entry('chapters', chapter, i)}: '{chapter}' is listed twice "
                                                   f"(first at line {seen[chapter]})")
        seen.setdefault(chapter, line)


def config_path(game):
    return game.root / "rulebook.yaml"


def load_config(game, problems: Problems | None = None) -> dict:
    """rulebook.yaml, checked. Each example's ``scenario`` becomes ``_file``: a path inside the game folder."""
    path = config_path(game)
    raw = load_yaml(path, within=game.root)
    own = problems is None
    problems = Problems() if own else problems
    cfg = check(raw, CONFIG_SCHEMA, problems, path)
    _check_chapters(raw, cfg, problems, path)
    if not game.engine:       # chapters only: examples and battles are played by an engine
        for key in ("examples", "battle"):
            if cfg.get(key):
                problems.error(path, line_of(raw, key), "rulebook",
                               f"{key}: played by the rules engine, but game.yaml names no engine "
                               f"(a rulebook without an engine has chapters only)")
                cfg[key] = [] if key == "examples" else {}
    raw_examples = raw.get("examples") if isinstance(raw, dict) else None
    for i, ex in enumerate(cfg.get("examples") or []):
        line = line_of(raw_examples, i)
        subject = f"example '{ex.get('id')}'"
        if "scenario" not in ex:
            continue
        target = data_path(game.root, ex["scenario"], problems, path, line, subject, "scenario")
        if target is None:
            continue
        if not target.is_file():
            problems.error(path, line, subject, f"scenario: no file {excerpt(ex['scenario'])} in the game folder")
            continue
        ex["_file"] = target
    if own:
        problems.raise_if_errors()
    cfg["_path"] = str(path)
    cfg["_battle_line"] = line_of(raw, "battle")
    cfg["_pages_line"] = line_of(raw, "pages")
    cfg["_fill_lines"] = dict(enumerate(getattr(raw.get("fill") if isinstance(raw, dict) else None,
                                                "item_lines", [])))
    cfg["_chapter_lines"] = dict(enumerate(getattr(raw.get("chapters") if isinstance(raw, dict) else None,
                                                   "item_lines", [])))
    return cfg


def template_dirs(game, lang: str) -> list:
    """Where a game's chapters are looked up: its own folder's ``templates/rulebook/<lang>/`` first, then
    pnp's shared chapters (cover, contents, card_index: one template for every language, whose words are
    pnp's printed words)."""
    return [game.root / "templates" / "rulebook" / lang, SHARED_CHAPTERS]


#: pnp's shared rulebook chapters.
SHARED_CHAPTERS = TEMPLATES_DIR / "rulebook" / "common"


def chapter_markup(game, cfg, context: dict, lang: str, kind: str = "chapter") -> list[tuple[str, str]]:
    """[(template path, markup)] for every chapter, rendered in the sandbox with the rulebook context
    (its data escaped, see :mod:`pnp.text.templating`). Every chapter's problems are reported at once,
    each naming the ``kind`` of template (a ``chapter``, a ``fill`` template) and its name."""
    # a chapter the language lacks is the data's own language's (validation reports it; --allow-missing)
    dirs = tuple(dict.fromkeys(template_dirs(game, lang) + template_dirs(game, game.source_language)))
    env = templating.environment(dirs)
    out, problems = [], Problems()
    render = templating.renderer(**context)
    for i, chapter in enumerate(cfg["chapters"]):
        name = f"{chapter}.md.j2"
        try:
            template = env.get_template(name)
        except jinja2.TemplateNotFound as exc:
            message = f"no template {name} in {' or '.join(display_path(d) for d in dirs)}"
            if exc.name != name or (exc.message and exc.message != name):
                # the chapter was found, but something it includes was not, or it is a link leading out
                message = templating.template_problem(exc).message
            problems.error(cfg["_path"], cfg.get("_chapter_lines", {}).get(i), f"{kind} '{chapter}'", message)
            continue
        except jinja2.TemplateSyntaxError as exc:
            problems.append(templating.template_problem(exc, subject=f"{kind} '{chapter}'"))
            continue
        try:
            with speaking(written_in(template.filename, game.root / "templates" / "rulebook", lang,
                                     game.source_language)):
                markup = render(template)
        except templating.TEMPLATE_ERRORS as exc:
            problems.append(templating.template_problem(exc, template.filename, f"{kind} '{chapter}'"))
            continue
        templating.markup_problems_in(markup, template.filename, f"{kind} '{chapter}'", problems,
                                      game.icons.names)
        _figure_lines(markup, template.filename, f"{kind} '{chapter}'", problems)
        out.append((template.filename, markup))
    problems.raise_if_errors()
    return out


def _figure_lines(markup: str, template_file, subject: str, problems: Problems) -> None:
    """A figure placeholder inside a line of text would print as words: each figure call stands on a
    line of its own (reported at the template line that writes it)."""
    for line in markup.splitlines():
        at = line.find("!figure ")
        if at > 0 and line[:at].strip():
            try:
                source = open(template_file, encoding="utf-8").read().splitlines()
            except (OSError, TypeError):
                source = []
            before = line[:at].strip()[-20:]
            number = next((i for i, text in enumerate(source, 1) if "figure." in text and before[-8:] in text), None)
            problems.error(template_file, number, subject, "a figure goes on a line of its own, not inside a "
                                                            f"paragraph (after {before!r})")
