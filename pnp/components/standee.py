"""Fold-over standees from data: figures printed front and back on one strip, folded and glued, standing
on fold-out feet or in a slotted base (:mod:`pnp.layout.standee`).

A ``{kind: standee, ...}`` entry gives the figure's size and base, and its pieces: a literal list
(``pieces:``, each with ``id``, ``count``, ``label``, ``icon``, ``colour``, ``background``, ``art`` and
an optional ``back:`` of the same keys), or one piece per item of an expression (``each:``) with
``piece:`` mapping those keys to expressions over ``item`` and the game's ``facts``. A side shows its
art file (PNG, JPEG, SVG in the game folder), else its background, icon and label; the back is the
front unless it says otherwise.
"""

from __future__ import annotations

from pnp.text import templating
from pnp.components import record
from pnp.loading.cardlayout import compiled
from pnp.components import BuildOptions, Component, Output, Part
from pnp.components.board import scope
from pnp.draw.icons import drawable, with_game_icons
from pnp.errors import DataError, Problems
from pnp.layout.cutter import MACHINES, virtual_page
from pnp.layout.geometry import Box, Icon, Picture, Rect, Style, Text
from pnp.layout.outline import CutPiece, RectOutline
from pnp.layout.standee import StandeeSpec, standee_layout, standee_pages, standee_sheets
from pnp.loading.i18n import strings, word
from pnp.text.markup import closest_icon, escape, plain_text
from pnp.loading.paths import data_path, excerpt
from pnp.loading.schema import Field

SIDE_KEYS = ("label", "icon", "colour", "background", "art")
_SIDE = {"label": Field("str", nullable=True), "icon": Field("str", nullable=True),
         "colour": Field("str", nullable=True), "background": Field("str", nullable=True),
         "art": Field("str", nullable=True)}
PIECE_SCHEMA = {"id": Field("id", required=True), "count": Field("int", default=1, min=1, max=100), **_SIDE,
                "back": Field("map", nullable=True, schema=_SIDE)}

#: Settings of a ``{kind: standee, ...}`` entry of game.yaml's ``components``.
SCHEMA = {
    "width": Field("length", required=True, min=10, max=250, doc="the figure's width"),
    "height": Field("length", required=True, min=10, max=250, doc="the figure's height"),
    "base_depth": Field("length", default=15.0, min=3, max=60),
    "fold": Field("str", default="top", choices=("top", "side")),
    "base": Field("str", default="tabs", choices=("tabs", "slot")),
    "slot_depth": Field("length", default=8.0, min=2, max=40),
    "slot_width": Field("length", default=1.0, min=0.2, max=5),
    "pieces": Field("list", nullable=True, items=Field("map", schema=PIECE_SCHEMA), doc="the pieces, as data"),
    "each": Field("str", nullable=True, doc="an expression giving a list: one piece per item"),
    "piece": Field("map", nullable=True, schema={"id": Field("str"), "count": Field("str"), **_SIDE,
                                                  "back": Field("map", nullable=True, schema=_SIDE)},
                   doc="with each: the piece's keys as expressions over 'item'"),
    "title": Field("str", nullable=True),
    "part": Field("id", default="standee"),
}

LABEL = Style(font="sans-black", size=9.0, min_size=4.5, max_lines=2, leading=1.0, colour="#ffffff")
DEFAULT_BACKGROUND = "#5a5148"


def config_of(spec) -> dict:
    return {k: (f.default if spec.config.get(k) is None else spec.config[k]) for k, f in SCHEMA.items()}


def standee_spec(config) -> StandeeSpec:
    return StandeeSpec(config["width"], config["height"], config["base_depth"], config["fold"], config["base"],
                       config["slot_depth"], config["slot_width"])


def piece_list(game, spec) -> list[dict]:
    """Every piece as a plain mapping: id, count, and its front and back sides (keys of SIDE_KEYS)."""
    config = config_of(spec)
    where = (game.root / "game.yaml", spec.line, f"standee '{spec.id}'")
    if config["each"]:
        base = scope(game)
        template = config["piece"] or {}
        out = []
        try:
            for i, item in enumerate(list(compiled(config["each"])(**base) or ())):
                context = {**base, "item": item, "index": i}

                def ev(expr):
                    return None if expr is None else compiled(expr)(**context)
                front = {k: ev(template.get(k)) for k in SIDE_KEYS}
                back = {k: ev((template.get("back") or {}).get(k)) for k in SIDE_KEYS}
                out.append({"id": str(ev(template.get("id")) if template.get("id") else f"{spec.id}_{i + 1}"),
                            "count": int(ev(template.get("count")) if template.get("count") else 1),
                            "front": front, "back": {k: back[k] if back[k] is not None else front[k] for k in SIDE_KEYS}})
        except templating.TEMPLATE_ERRORS as exc:
            problems = Problems()
            problems.error(where[0], where[1], where[2], str(getattr(exc, "message", None) or exc))
            raise DataError(problems) from None
        return out
    out = []
    for p in config["pieces"] or ():
        front = {k: p.get(k) for k in SIDE_KEYS}
        back_given = dict(p.get("back") or {})
        key = f"components.{spec.id}.pieces.{p['id']}"
        front["label"] = word(game, f"{key}.label", front["label"])          # the kit's language
        back_given["label"] = word(game, f"{key}.back.label", back_given.get("label"))
        back = {k: back_given.get(k) if back_given.get(k) is not None else front[k] for k in SIDE_KEYS}
        out.append({"id": p["id"], "count": p.get("count") or 1, "front": front, "back": back})
    return out


def printed_title(game, spec) -> str:
    """The entry's printed title (``title``, else from its id), translated (``components.<id>.title``)."""
    return word(game, f"components.{spec.id}.title", _own_title(spec))


def _own_title(spec) -> str:
    return config_of(spec)["title"] or spec.id.replace("_", " ").capitalize()


def words(game, spec=None) -> list:
    """What a standee entry prints that a translation gives: its title and each piece's labels
    (``components.<id>.pieces.<piece>.label``, ``.back.label``), or, for pieces made by ``each``, the
    printed literals of the ``label`` expressions (which should say ``t('key')`` instead)."""
    from pnp.loading.i18n.catalogue import Source
    from pnp.loading.i18n.literals import expression_sources

    config = config_of(spec)
    where = (game.root / "game.yaml", spec.line, f"standee '{spec.id}'")
    out = [Source(f"components.{spec.id}.title", _own_title(spec), *where, "title")]
    if config["each"]:
        template = config["piece"] or {}
        out += expression_sources(template.get("label"), *where, "piece label")
        out += expression_sources((template.get("back") or {}).get("label"), *where, "piece back label")
        return out
    for p in config["pieces"] or ():
        key = f"components.{spec.id}.pieces.{p['id']}"
        if p.get("label"):
            out.append(Source(f"{key}.label", p["label"], *where, f"piece '{p['id']}' label"))
        if (p.get("back") or {}).get("label"):
            out.append(Source(f"{key}.back.label", p["back"]["label"], *where, f"piece '{p['id']}' back label"))
    return out


def side_elements(game, side: dict, w: float, h: float, bleed: float = 2.0) -> list:
    """One side of a figure in its art frame (0..w, 0..h): art, else background, icon and label."""
    els = [Box(Rect(-bleed, 0, w + 2 * bleed, h + bleed), fill=side.get("background") or DEFAULT_BACKGROUND,
               role="background")]
    if side.get("art"):
        els.append(Picture(str(game.root / side["art"]), Rect(0, 0, w, h), "cover", role="art"))
    label = side.get("label")
    band = min(12.0, h * 0.22) if label else 0.0
    if side.get("icon"):
        size = min(w * 0.8, (h - band) * 0.8)
        els.append(Icon(str(side["icon"]), w / 2, band + (h - band) / 2, size, side.get("colour"), role="icon"))
    if label:
        els.append(Text(Rect(1.5, 1.0, w - 3, band - 1.5), escape(label), LABEL, role="label"))
    return els


def _check_pieces(game, spec, items, problems) -> None:
    path, line, subject = game.root / "game.yaml", spec.line, f"standee '{spec.id}'"
    for p in items:
        for name in ("front", "back"):
            side = p[name]
            if side.get("icon") and not drawable(str(side["icon"])):
                problems.error(path, line, subject, f"piece '{p['id']}' {name}: unknown icon '{side['icon']}'; "
                                                    f"{closest_icon(str(side['icon']), game.icons.names, False)}")
            if side.get("art"):
                file = data_path(game.root, side["art"], problems, path, line, subject, f"piece '{p['id']}' {name}")
                if file is not None and not file.is_file():
                    problems.error(path, line, subject, f"piece '{p['id']}' {name}: no file '{side['art']}' "
                                                        "in the game folder")
                elif file is not None:
                    from pnp.loading.picturefiles import picture_problems

                    for where, at, message in picture_problems(file):
                        problems.error(where if at is not None else path, at if at is not None else line, subject,
                                       f"piece '{p['id']}' {name}: {message}")
    if not items:
        problems.error(path, line, subject, "give 'pieces' (a list) or 'each' with 'piece'")


def _check_labels(game, spec, items, config, problems) -> None:
    """Every label fits its band at its smallest size, in the language checked: an error at the line of the
    translation that gives its words (:func:`pnp.loading.i18n.words_at`), else at the entry's."""
    from pnp.draw.text import fit
    from pnp.loading.i18n import translation, words_at

    given = translation(game, game.language) or {}
    keys = [f"strings.{key}" for key in (given.get("strings") or {})] + \
        [f"components.{spec.id}.pieces.{p['id']}.{side}label" for p in items for side in ("", "back.")]
    for p in items:
        for name in ("front", "back"):
            for el in side_elements(game, p[name], config["width"], config["height"]):
                if not isinstance(el, Text):
                    continue
                result = fit(el.markup, el.style, el.rect.w, el.rect.h)
                if not result.ok:
                    at = words_at(game, game.language, el.markup, keys) or (game.root / "game.yaml", spec.line)
                    problems.error(*at, f"standee '{spec.id}'",
                                   f"piece '{p['id']}' {name}: label {excerpt(plain_text(el.markup))} does not fit "
                                   f"its {el.rect.w:.1f} x {el.rect.h:.1f} mm band even at {el.style.min_size:g} pt "
                                   f"({result.reason})")


@with_game_icons
def build(game, options: BuildOptions, spec=None) -> list[Output]:
    config = config_of(spec)
    items = piece_list(game, spec)
    problems = Problems()
    _check_pieces(game, spec, items, problems)
    problems.raise_if_errors()
    lay = standee_layout(standee_spec(config))
    standees, arts = [], {}
    for p in items:
        for k in range(p["count"]):
            key = f"{p['id']}" if p["count"] == 1 else f"{p['id']}-{k + 1}"
            standees.append((key, lay))
            arts[key] = (side_elements(game, p["front"], config["width"], config["height"]),
                         side_elements(game, p["back"], config["width"], config["height"]))
    w, h = options.page_size
    title = escape(printed_title(game, spec))
    machine = MACHINES[options.cutter] if options.cutter else None
    laid = virtual_page(machine, w, h)[:2] if machine else (w, h)    # --cutter: inside the area it cuts
    try:
        pages = standee_pages(standees, arts, *laid, label=title)
    except ValueError as exc:
        problems.error(game.root / "game.yaml", spec.line, f"standee '{spec.id}'", f"{exc} on {options.paper}"
                       + (f" for --cutter {machine.name}" if machine else ""))
        raise DataError(problems) from None
    part = Part(config["part"], spec.id, len(standees), title)
    stem = spec.id.replace('_', '-')
    # each standee folds by itself on a sheet printed on one side: its sheets may be shared
    out = Output(f"{stem}.pdf", title, pages, parts=(part,), sides="fold", share="one-side")
    if machine:
        from pnp.draw.cutfile import moved_sheets

        out.pages, out.beside = moved_sheets(game.title, machine, pages, w, h, stem, strings(game, options.lang))
    out.record = record.fragment(game, "standee", *printed(game, options, spec))
    return [out]


def printed(game, options: BuildOptions, spec=None) -> tuple[str, list]:
    """(title, every copy of every figure with its front and back art, and the values its sides are drawn
    from), for :mod:`pnp.reprint.changes`."""
    config = config_of(spec)
    w, h = config["width"], config["height"]
    out = []
    for p in piece_list(game, spec):
        front, back = tuple(side_elements(game, p["front"], w, h)), tuple(side_elements(game, p["back"], w, h))
        name = escape(p["front"].get("label") or p["id"])
        values = record.item_values({"count": p["count"], "front": p["front"], "back": p["back"]})
        out += [record.Printed(p["id"], f"{p['id']}#{k + 1}", name, front, back, values) for k in range(p["count"])]
    return escape(printed_title(game, spec)), out


@with_game_icons
def reprinted(game, options: BuildOptions, labels: set, first: int, spec=None) -> record.Reprinted:
    """The sheets of only the figures ``labels``, packed as the build packs them (without a cutting
    machine's layout)."""
    config = config_of(spec)
    lay = standee_layout(standee_spec(config))
    standees, arts = [], {}
    for p in piece_list(game, spec):
        for k in range(p["count"]):
            if f"{p['id']}#{k + 1}" not in labels:
                continue
            key = f"{p['id']}" if p["count"] == 1 else f"{p['id']}-{k + 1}"
            standees.append((key, lay))
            arts[key] = (side_elements(game, p["front"], config["width"], config["height"]),
                         side_elements(game, p["back"], config["width"], config["height"]))
    pages = standee_pages(standees, arts, *options.page_size, label=escape(printed_title(game, spec)))
    return record.Reprinted([(page, None) for page in pages])


@with_game_icons
def check(game, problems, options: BuildOptions | None = None, spec=None) -> None:
    config = config_of(spec)
    try:
        items = piece_list(game, spec)
    except DataError as exc:
        problems.extend(exc.problems)
        return
    _check_pieces(game, spec, items, problems)
    _check_labels(game, spec, items, config, problems)
    try:
        standee_spec(config)
    except ValueError as exc:
        problems.error(game.root / "game.yaml", spec.line, f"standee '{spec.id}'", str(exc))
        return
    lay = standee_layout(standee_spec(config))
    for paper in ("letter", "a4"):
        w, h = BuildOptions(paper=paper).page_size
        try:
            standee_sheets([(p["id"], lay) for p in items[:1]], w, h)
        except ValueError as exc:
            problems.error(game.root / "game.yaml", spec.line, f"standee '{spec.id}'", f"{exc} on {paper}")
            return


@with_game_icons
def cut_pieces(game, options: BuildOptions | None = None, spec=None):
    """Each figure's front and back art, inside the figure's outline."""
    config = config_of(spec)
    w, h = config["width"], config["height"]
    where = (game.root / "game.yaml", spec.line)
    for p in piece_list(game, spec):
        for name in ("front", "back"):
            yield CutPiece(spec.id, f"piece '{p['id']}' {name}",
                           RectOutline(Rect(0.0, 0.0, w, h), name="figure's edge"),
                           tuple(side_elements(game, p[name], w, h)), where)


COMPONENT = Component("standee", build, check, shares=True, pieces=cut_pieces, words=words, printed=printed, reprint=reprinted)
