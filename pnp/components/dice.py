"""Dice from data: sticker sheets for blank dice and fold-up cube nets (:mod:`pnp.layout.dice`).

A ``{kind: dice, ...}`` entry names a **face layout** (a layout whose ``size`` is the face's design
frame; it scales to the sticker or the net's square) and which dice there are: ``each`` (an
expression giving the kinds of die, ``item`` in the face layout), ``count`` (copies of each kind, an
expression over ``item``) and ``faces`` (an expression giving the six values a die shows, ``face`` in
the face layout, in face order: face 1 ... face 6). ``forms`` says which printable forms the kit has:
the first goes in the kit, the others are written beside it (alternatives, not more dice).
"""

from __future__ import annotations

from functools import lru_cache

from pnp.text import templating
from pnp.components import record
from pnp.cache.buildcache import replays_reads
from pnp.cache.memo import reads_files
from pnp.loading.cardlayout import (LayoutError, compiled, evaluate, fit_problems, layout_error_problem, load_layout,
                                    text_problems)
from pnp.components import BuildOptions, Component, Output, Part
from pnp.components.board import scope
from pnp.draw.icons import with_game_icons
from pnp.errors import DataError, Problems
from pnp.loading.i18n import strings, word
from pnp.layout.cutter import MACHINES, virtual_page
from pnp.layout.dice import cube_net, net_grid, net_pages, sticker_pages, sticker_plan
from pnp.layout.geometry import Rect
from pnp.layout.outline import CutPiece, RectOutline
from pnp.layout.regions import place
from pnp.text.markup import escape
from pnp.loading.schema import Field

FORMS = ("stickers", "nets")

#: Settings of a ``{kind: dice, ...}`` entry of game.yaml's ``components``.
SCHEMA = {
    "face": Field("id", required=True, doc="the layout drawing one face (templates/layouts/<name>.yaml)"),
    "each": Field("str", nullable=True, doc="an expression giving the kinds of die ('item')"),
    "count": Field("str", default="1", doc="an expression: dice of each kind"),
    "faces": Field("str", default="[1, 2, 3, 4, 5, 6]", doc="an expression: the six values, face 1 to 6"),
    "forms": Field("list", default=["stickers", "nets"], items=Field("str", choices=FORMS)),
    "die_size": Field("length", default=16.0, min=6, max=40, doc="stickers: the blank die's edge"),
    "sticker": Field("length", nullable=True, min=4, max=40, doc="stickers: a sticker's side (die_size - 2)"),
    "edge": Field("length", default=16.0, min=8, max=60, doc="nets: the folded cube's edge"),
    "tab": Field("length", default=5.0, min=2, max=15, doc="nets: the glue tabs' width"),
    "handed": Field("str", default="right", choices=("right", "left")),
    "title": Field("str", nullable=True),
}


def config_of(spec) -> dict:
    return {k: (f.default if spec.config.get(k) is None else spec.config[k]) for k, f in SCHEMA.items()}


def dice_faces(game, spec) -> tuple[list, object]:
    """(every die as (kind item, [six evaluated region lists]) in kind order, the face layout); made
    once per game and entry (validate and build share it)."""
    dice, layout = _dice_faces(game, spec, spec.config_key())
    return list(dice), layout


@replays_reads
@reads_files
@lru_cache(maxsize=16)
def _dice_faces(game, spec, _config) -> tuple:
    config = config_of(spec)
    problems = Problems()
    layout = load_layout(config["face"], game.root, problems, game.root / "game.yaml", spec.line,
                         f"components: dice '{spec.id}' face")
    problems.raise_if_errors()
    base = scope(game)
    try:
        kinds = list(compiled(config["each"])(**base) or ()) if config["each"] else [None]
        dice = []
        for i, item in enumerate(kinds):
            context = {**base, "item": item, "index": i}
            values = list(compiled(config["faces"])(**context))
            if len(values) != 6:
                raise ValueError(f"faces: a die has 6 faces, the expression gives {len(values)}")
            faces = [evaluate(layout, {**context, "face": v, "face_index": k}) for k, v in enumerate(values)]
            count = int(compiled(config["count"])(**context))
            dice += [(item, faces)] * count
        return tuple(dice), layout
    except LayoutError as exc:              # at the designer's face layout, not at the entry
        raise DataError([layout_error_problem(exc, f"dice '{spec.id}'")]) from None
    except templating.TEMPLATE_ERRORS as exc:
        problems.error(game.root / "game.yaml", spec.line, f"dice '{spec.id}'", str(getattr(exc, "message", None)
                                                                                    or exc))
        raise DataError(problems) from None


def _form_pages(form, dice, layout, config, w, h, title, glue="glue"):
    if form == "stickers":
        plan = sticker_plan(w, h, config["die_size"], config["sticker"])
        s = plan.sticker
        arts = [[place(face, layout.size, s, s, None) for face in faces] for _, faces in dice]
        return sticker_pages(arts, plan, label=title)
    net = cube_net(config["edge"], config["tab"], handed=config["handed"])
    e = config["edge"]
    arts = [[place(face, layout.size, e, e, None) for face in faces] for _, faces in dice]
    return net_pages(arts, net, w, h, glue=glue, label=title)


@with_game_icons
def build(game, options: BuildOptions, spec=None) -> list[Output]:
    config = config_of(spec)
    words = strings(game, options.lang)
    dice, layout = dice_faces(game, spec)
    w, h = options.page_size
    base = spec.id.replace("_", "-")
    title = escape(word(game, f"components.{spec.id}.title", _own_title(spec)))
    machine = MACHINES[options.cutter] if options.cutter else None
    laid = virtual_page(machine, w, h)[:2] if machine else (w, h)    # --cutter: inside the area it cuts
    outs = []
    for k, form in enumerate(dict.fromkeys(config["forms"])):
        name = words.get(f"dice_{form}", form)
        try:
            pages = _form_pages(form, dice, layout, config, *laid, f"{title}: {name}", words.get("dice_glue", "glue"))
        except ValueError as exc:
            problems = Problems()
            problems.error(game.root / "game.yaml", spec.line, f"dice '{spec.id}'", f"{exc} on {options.paper}"
                           + (f" for --cutter {machine.name}" if machine else ""))
            raise DataError(problems) from None
        parts = (Part("die", spec.id, len(dice), title),) if k == 0 else ()
        # stickers and nets print on one side: their sheets may be shared with other small pieces
        out = Output(f"{base}-{form}.pdf", f"{title}: {name}", pages, parts=parts, in_kit=k == 0, share="one-side")
        if machine:
            from pnp.draw.cutfile import moved_sheets

            out.pages, out.beside = moved_sheets(game.title, machine, pages, w, h, f"{base}-{form}", words)
        outs.append(out)
    outs[0].record = record.fragment(game, "dice", *printed(game, options, spec))
    return outs


def _labelled(dice) -> list:
    """(key, label, item, faces) of every die: its kind's key (the item's ``id``, else the kind's number)
    and the copy's label ``<key>#<n>``."""
    kinds, seen, out = {}, {}, []
    for item, faces in dice:
        number = kinds.setdefault(id(faces), len(kinds) + 1)
        key = str(item["id"]) if isinstance(item, dict) and item.get("id") else str(number)
        seen[key] = seen.get(key, 0) + 1
        out.append((key, f"{key}#{seen[key]}", item, faces))
    return out


def _side(config) -> float:
    """The side of a face in the kit's form (its first): a sticker's, or a net's square."""
    if config["forms"][0] == "stickers":
        return config["sticker"] or config["die_size"] - 2.0
    return config["edge"]


def printed(game, options: BuildOptions, spec=None) -> tuple[str, list]:
    """(title, every die with its six faces as the kit's form prints them, and the item it is made from),
    for :mod:`pnp.reprint.changes`."""
    from pnp.layout.geometry import Group

    config = config_of(spec)
    dice, layout = dice_faces(game, spec)
    side = _side(config)
    drawn, out = {}, []
    for key, label, item, faces in _labelled(dice):
        if id(faces) not in drawn:
            drawn[id(faces)] = tuple(Group(tuple(place(face, layout.size, side, side, None)), role=f"face {k + 1}")
                                     for k, face in enumerate(faces))
        name = item.get("name") if isinstance(item, dict) and item.get("name") else key
        values = record.item_values(item, game.root) if item is not None else {}
        out.append(record.Printed(key, label, escape(str(name)), drawn[id(faces)], (), values))
    return escape(word(game, f"components.{spec.id}.title", _own_title(spec))), out


@with_game_icons
def reprinted(game, options: BuildOptions, labels: set, first: int, spec=None) -> record.Reprinted:
    """Only the dice ``labels``, in the kit's form (its first), laid out as the build lays it out (without a
    cutting machine's layout)."""
    config = config_of(spec)
    words = strings(game, options.lang)
    dice, layout = dice_faces(game, spec)
    chosen = [(item, faces) for key, label, item, faces in _labelled(dice) if label in labels]
    form = config["forms"][0]
    title = escape(word(game, f"components.{spec.id}.title", _own_title(spec)))
    pages = _form_pages(form, chosen, layout, config, *options.page_size,
                        f"{title}: {words.get(f'dice_{form}', form)}", words.get("dice_glue", "glue"))
    return record.Reprinted([(page, None) for page in pages])


@with_game_icons
def check(game, problems, options: BuildOptions | None = None, spec=None) -> None:
    """The face layout and expressions work for every die, and each form fits Letter and A4."""
    config = config_of(spec)
    try:
        dice, layout = dice_faces(game, spec)
    except DataError as exc:
        problems.extend(p for p in exc.problems if p not in problems)
        return
    found = []
    for _, faces in dice:
        for face in faces:
            drawn = place(face, layout.size, *layout.size, None)
            found += text_problems(layout, drawn, game.icons.names, f"dice '{spec.id}'")
            found += fit_problems(layout, drawn, f"dice '{spec.id}'")
    for problem in dict.fromkeys(found):
        problems.error(*problem)
    for paper in ("letter", "a4"):
        w, h = BuildOptions(paper=paper).page_size
        try:
            if "stickers" in config["forms"]:
                sticker_plan(w, h, config["die_size"], config["sticker"])
            if "nets" in config["forms"]:
                net_grid(cube_net(config["edge"], config["tab"], handed=config["handed"]), w, h)
        except ValueError as exc:
            problems.error(game.root / "game.yaml", spec.line, f"dice '{spec.id}'", f"{exc} on {paper}")


@with_game_icons
def cut_pieces(game, options: BuildOptions | None = None, spec=None):
    """Each face of each kind of die, at the size of the kit's form (a sticker, or a net's square)."""
    config = config_of(spec)
    dice, layout = dice_faces(game, spec)
    form = config["forms"][0]
    side = (config["sticker"] or config["die_size"] - 2.0) if form == "stickers" else config["edge"]
    outline = RectOutline(Rect(0.0, 0.0, side, side), name="sticker's edge" if form == "stickers" else "face's edge")
    seen = set()
    for index, (item, faces) in enumerate(dice):
        key = id(faces)
        if key in seen:
            continue
        seen.add(key)
        label = item.get("id") if isinstance(item, dict) and item.get("id") else index + 1
        for k, face in enumerate(faces):
            yield CutPiece(spec.id, f"die '{label}' face {k + 1}", outline,
                           tuple(place(face, layout.size, side, side, None)), (game.root / "game.yaml", spec.line))


def _own_title(spec) -> str:
    return config_of(spec)["title"] or spec.id.replace("_", " ").capitalize()


def words(game, spec=None) -> list:
    """What a dice entry prints that a translation gives: its title, and the printed literals of its face
    layout (which should say ``t('key')`` instead)."""
    from pnp.loading.i18n.catalogue import Source
    from pnp.loading.i18n.literals import layout_sources

    where = (game.root / "game.yaml", spec.line)
    out = [Source(f"components.{spec.id}.title", _own_title(spec), *where, f"dice '{spec.id}'", "title")]
    layout = load_layout(config_of(spec)["face"], game.root, Problems(), *where, "face")
    return out + (layout_sources(layout, game.root, where) if layout is not None else [])


COMPONENT = Component("dice", build, check, weight=2, shares=True, pieces=cut_pieces, words=words, printed=printed,
                      reprint=reprinted)
