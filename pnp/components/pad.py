"""Pads: sheets players write on (roll-and-write sheets, score pads), several to a printed page, and the
same sheet for a screen: a fillable PDF and a picture.

A ``{kind: pad, ...}`` entry of game.yaml's ``components`` names a **layout** (a board's layout: text,
icons, boxes, tracks, tables, ``for`` repeats, ``t('key')`` words) whose ``size`` is one pad, with the
region kinds made for writing (:mod:`pnp.layout.writein`): ``boxes`` (a grid of boxes, with hints,
icons, shaded and pre-filled cells), ``lines`` (write-in lines with labels) and ``checks`` (check
boxes). A ``back`` layout prints on the other side of every pad.

* ``<id>.pdf`` (in the kit): the pads as many to a sheet as fit (:mod:`pnp.layout.pads`), with cut lines;
  a page of backs after each page of fronts for a duplex printer (``--flip``, ``--back-offset``).
* ``<id>-fillable.pdf`` (beside the kit): one pad, a page per side, with an AcroForm field on every box
  and line and a check box on every check box and track space (:mod:`pnp.draw.forms`), tab order region by
  region, row by row; field names ``front:<region>:r<row>c<column>`` or ``front:<region>:<n>``
  (``back:`` on the back).
* ``<id>.png`` and ``<id>-back.png`` (beside the kit): the pad's sides as pictures for a virtual table.

``pnp validate`` checks every region at its line in the layout file: its expressions, icons (also a
cell's), that each writing region lies inside the pad and is large enough to write in (boxes and lines
5 mm, check boxes 3 mm, a track's spaces 4 mm), and that every text fits its place.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from pnp.text import templating
from pnp.cache.buildcache import replays_reads
from pnp.cache.memo import reads_files
from pnp.components import BuildOptions, Component, Output, Part, record
from pnp.components.board import scope
from pnp.draw.icons import with_game_icons
from pnp.errors import DataError, Problems
from pnp.layout.geometry import Page, Rect
from pnp.layout.outline import CutPiece, RectOutline
from pnp.layout.pads import pad_pages, pad_sheet
from pnp.layout.regions import RegionError, place, track_cells
from pnp.layout.writein import WRITING_KINDS, FormField, problems as writing_problems
from pnp.loading.cardlayout import LayoutError, RegionProblems, evaluate, fit_problems, load_layout, text_problems
from pnp.loading.i18n import word
from pnp.loading.schema import Field
from pnp.text.markup import escape, plain_text
from pnp.units import PAPERS

#: Settings of a ``{kind: pad, ...}`` entry of game.yaml's ``components``.
SCHEMA = {
    "layout": Field("id", required=True, doc="the layout drawing one pad (templates/layouts/<name>.yaml)"),
    "back": Field("id", nullable=True, doc="the layout of every pad's back (printed duplex)"),
    "title": Field("str", nullable=True, doc="the component's printed title (default: from the id)"),
    "sheets": Field("int", default=1, min=1, max=50, doc="sheets of pads to print"),
    "per_sheet": Field("int", nullable=True, min=1, max=100, doc="the most pads a sheet holds (default: as many "
                                                                  "as fit)"),
    "gap": Field("length", default=0.0, min=0, max=30, doc="space between neighbouring pads (0: one cut between)"),
    "turn": Field("str", default="side", choices=("side", "top"), doc="how a pad with a back is turned over"),
    "fillable": Field("bool", default=True, doc="write <id>-fillable.pdf: the pad with a field in every box"),
    "images": Field("bool", default=True, doc="write <id>.png (and <id>-back.png): the pad as a picture"),
    "dpi": Field("int", default=150, min=72, max=600, doc="the pictures' resolution"),
    "part": Field("id", default="pad", doc="what the pads are in the bill of materials"),
}

#: The sides of a pad as its fillable PDF's field names begin.
SIDES = ("front", "back")


@dataclass(frozen=True)
class Pad:
    """One pad as laid out: its size (mm), and each side's elements and form fields (tab order), the back's
    None for a pad printed on one side."""

    size: tuple
    front: tuple
    front_fields: tuple
    back: tuple | None = None
    back_fields: tuple = ()

    def sides(self) -> list[tuple[str, tuple, tuple]]:
        """(side, elements, fields) of each printed side."""
        return [("front", self.front, self.front_fields)] + \
            ([("back", self.back, self.back_fields)] if self.back is not None else [])


def config_of(spec) -> dict:
    return {k: (f.default if spec.config.get(k) is None else spec.config[k]) for k, f in SCHEMA.items()}


def _where(game, spec) -> tuple:
    return game.root / "game.yaml", spec.line, f"pad '{spec.id}'"


@replays_reads
@reads_files
@lru_cache(maxsize=32)
def _loaded_layouts(game, spec, _config) -> tuple:
    """(front layout, back layout, problems): a broken layout is None, its problems at their lines."""
    config = config_of(spec)
    problems = Problems()
    path, line, _ = _where(game, spec)
    front = load_layout(config["layout"], game.root, problems, path, line, f"components: pad '{spec.id}' layout")
    back = load_layout(config["back"], game.root, problems, path, line, f"components: pad '{spec.id}' back") \
        if config["back"] else None
    return front, back, tuple(problems)


def layouts(game, spec) -> tuple:
    """(front, back) layouts of the entry; DataError when either is broken."""
    front, back, found = _loaded_layouts(game, spec, spec.config_key())
    if found:
        raise DataError(list(found))
    return front, back


def title(game, spec) -> str:
    """The entry's printed title (markup): its ``title`` (or its id), translated (``components.<id>.title``)."""
    return escape(word(game, f"components.{spec.id}.title", own_title(spec)))


def own_title(spec) -> str:
    return config_of(spec)["title"] or spec.id.replace("_", " ").capitalize()


def pad(game, spec) -> Pad:
    """The entry's pad laid out (DataError at the line of the first region that cannot be drawn). Laid out
    once per game and entry: validate and build share it."""
    return _pad(game, spec, spec.config_key())


@replays_reads
@reads_files
@lru_cache(maxsize=32)
def _pad(game, spec, _config) -> Pad:
    front, back = layouts(game, spec)
    sides = []
    for side, layout in zip(SIDES, (front, back)):
        if layout is None:
            continue
        if tuple(layout.size) != tuple(front.size):
            path, line, subject = _where(game, spec)
            raise DataError([_error(path, line, subject, f"the back layout is {layout.size[0]:g} x {layout.size[1]:g} mm, "
                                                         f"the front {front.size[0]:g} x {front.size[1]:g} mm")])
        try:
            with templating.limits():
                regions = evaluate(layout, {**scope(game), "side": side})
            fields: list = []
            elements = place(regions, layout.size, *layout.size, None, fields=fields)
        except LayoutError as exc:
            raise DataError([_error(*layout.where(exc.region, exc.key), f"layout '{layout.name}', region "
                                                                        f"'{exc.region}'", f"{exc.key + ': ' if exc.key else ''}"
                                                                                           f"{exc.text} (pad '{spec.id}')")]) from None
        except RegionError as exc:
            raise DataError([_error(*layout.where(exc.region), f"layout '{layout.name}', region '{exc.region}'",
                                    f"{exc} (pad '{spec.id}')")]) from None
        except templating.TEMPLATE_ERRORS as exc:
            path, line, subject = _where(game, spec)
            raise DataError([_error(path, line, subject, str(getattr(exc, "message", None) or exc))]) from None
        sides.append((tuple(elements), tuple(FormField(f"{side}:{f.name}", f.kind, f.rect, f.region) for f in fields)))
    (f_els, f_fields), back_side = sides[0], (sides[1] if len(sides) > 1 else (None, ()))
    return Pad(tuple(front.size), f_els, f_fields, back_side[0], back_side[1])


def _error(path, line, subject, message):
    problems = Problems()
    problems.error(path, line, subject, message)
    return problems.errors[0]


def sheet_of(game, spec, paper):
    """The sheet the entry's pads print on: :func:`pnp.layout.pads.pad_sheet` for ``paper`` (a name or sizes)."""
    config = config_of(spec)
    w, h = pad(game, spec).size
    paper_w, paper_h = PAPERS[paper] if isinstance(paper, str) else paper
    return pad_sheet(w, h, paper_w, paper_h, gap=config["gap"], most=config["per_sheet"])


def file_stem(spec) -> str:
    return spec.id.replace("_", "-")


@with_game_icons
def build(game, options: BuildOptions, spec=None) -> list[Output]:
    config = config_of(spec)
    the_pad = pad(game, spec)
    name = title(game, spec)
    sheet = _sheet(game, spec, options.page_size)
    count = sheet.per_sheet * config["sheets"]
    pages = pad_pages(sheet, the_pad.front, count, the_pad.back, options.flip, config["turn"], options.back_offset,
                      label=plain_text(name))
    stem = file_stem(spec)
    out = Output(f"{stem}.pdf", name, pages, parts=(Part(config["part"], spec.id, count, name),),
                 sides="double" if the_pad.back is not None else "single", sheets=sheet.sheets(count))
    out.record = record.fragment(game, "pad", *printed(game, options, spec))
    outs = [out]
    if config["fillable"]:
        from pnp.draw.forms import fillable_pdf

        screen = [(Page(*the_pad.size, list(elements), label=side), fields) for side, elements, fields in the_pad.sides()]
        pdf = fillable_pdf(screen, f"{game.title}: {plain_text(name)}", game.author)
        outs.append(Output(f"{stem}-fillable.pdf", name, pdf=pdf, in_kit=False, sheets=0))
    if config["images"]:
        out.beside = images(game, the_pad, stem, config["dpi"])
    return outs


def _sheet(game, spec, paper):
    try:
        return sheet_of(game, spec, paper)
    except ValueError as exc:
        path, line, subject = _where(game, spec)
        raise DataError([_error(path, line, subject, str(exc))]) from None


def images(game, the_pad: Pad, stem: str, dpi: int) -> dict:
    """``<stem>.png`` (and ``<stem>-back.png``): each side of the pad as a picture at ``dpi``."""
    from pnp.draw.pdf import render
    from pnp.draw.raster import Rasterizer, png_bytes

    out = {}
    for side, elements, _ in the_pad.sides():
        pdf = render([Page(*the_pad.size, list(elements))], f"{game.title}: {stem}", game.author)
        with Rasterizer(pdf) as raster:
            out[f"{stem}.png" if side == "front" else f"{stem}-{side}.png"] = png_bytes(raster.render_at(0, dpi), dpi)
    return out


def printed(game, options: BuildOptions, spec=None) -> tuple[str, list]:
    """(title, every pad printed with its front and back), for :mod:`pnp.reprint.changes`."""
    config = config_of(spec)
    the_pad = pad(game, spec)
    name = title(game, spec)
    count = _sheet(game, spec, options.page_size).per_sheet * config["sheets"]
    values = {"layout": config["layout"], "back": config["back"] or ""}
    return name, [record.Printed(spec.id, f"{spec.id}#{k + 1}", name, the_pad.front, the_pad.back or (), values)
                  for k in range(count)]


@with_game_icons
def reprinted(game, options: BuildOptions, labels: set, first: int, spec=None) -> record.Reprinted:
    """Sheets of as many pads as ``labels`` names, laid out as the build lays them out."""
    config = config_of(spec)
    the_pad = pad(game, spec)
    pages = pad_pages(_sheet(game, spec, options.page_size), the_pad.front, len(labels), the_pad.back, options.flip,
                      config["turn"], options.back_offset, label=plain_text(title(game, spec)))
    pairs = list(zip(pages[::2], pages[1::2])) if the_pad.back is not None else [(p, None) for p in pages]
    return record.Reprinted(pairs)


def words(game, spec=None) -> list:
    """What a pad entry prints that a translation gives: its title, and its layouts' printed literals (which
    should say ``t('key')`` instead)."""
    from pnp.loading.i18n.catalogue import Source
    from pnp.loading.i18n.literals import layout_sources

    path, line, subject = _where(game, spec)
    out = [Source(f"components.{spec.id}.title", own_title(spec), path, line, subject, "title")]
    front, back, _ = _loaded_layouts(game, spec, spec.config_key())
    for layout in (front, back):
        if layout is not None:
            out += layout_sources(layout, game.root, (path, line))
    return out


@with_game_icons
def check(game, problems, options: BuildOptions | None = None, spec=None) -> None:
    """The layouts load; every region of both sides evaluates (icons known) and can be drawn; every writing
    region lies inside the pad and is large enough to write in; every text fits; the pad prints on Letter
    and A4."""
    front, back, found = _loaded_layouts(game, spec, spec.config_key())
    problems.extend(found)
    if found or front is None:
        return
    path, line, subject = _where(game, spec)
    if back is not None and tuple(back.size) != tuple(front.size):
        problems.error(path, line, subject, f"the back layout '{back.name}' is {back.size[0]:g} x {back.size[1]:g} mm, "
                                            f"the front '{front.name}' {front.size[0]:g} x {front.size[1]:g} mm: a pad's "
                                            f"two sides are the same size")
        return
    before = len(problems.errors)
    for side, layout in zip(SIDES, (front, back)):
        if layout is not None:
            _check_side(game, spec, layout, side, problems)
    if len(problems.errors) > before:
        return
    for paper in ("letter", "a4"):
        try:
            sheet_of(game, spec, paper)
        except ValueError as exc:
            problems.error(path, line, subject, f"{exc} on {paper}")


def _check_side(game, spec, layout, side: str, problems) -> None:
    """One side's regions: evaluated (each problem once, at its line), drawn, checked for writing and fit."""
    piece = f"pad '{spec.id}'"
    found = RegionProblems("pad")
    with templating.limits():
        regions = evaluate(layout, {**scope(game), "side": side}, icons=game.icons.names,
                           report=found.for_piece(layout, spec.id))
    before = len(problems.errors)
    found.report(problems)
    if len(problems.errors) > before:
        return

    def error(region, message):
        problems.error(*layout.where(region), f"layout '{layout.name}', region '{region.split('[', 1)[0]}'",
                       f"{message} ({piece})")

    try:
        elements = place(regions, layout.size, *layout.size, None, fields=[])
    except RegionError as exc:
        error(exc.region, str(exc))
        return
    cramped = set()
    for region in regions:
        kind = region.get("kind")
        if kind not in WRITING_KINDS + ("track",) or "rect" not in region:
            continue
        area = Rect(*region["rect"])
        cells = track_cells(region.get("path", "row"), area, len(list(region.get("numbers") or ())),
                            region.get("columns")) if kind == "track" else None
        for message in writing_problems(region, area, cells, layout.size):
            error(region["name"], message)
            cramped.add(region["name"].split("[", 1)[0])
    for problem in text_problems(layout, elements, game.icons.names, piece):
        problems.error(*problem)
    _fit_problems(layout, elements, piece, problems, skip=cramped)


def _fit_problems(layout, elements, piece: str, problems, skip=()) -> None:
    """Every text of the side fits its place at its style's smallest size
    (:func:`pnp.loading.cardlayout.fit_problems`); the regions ``skip`` names (reported already: too small
    to write in) are left out."""
    for problem in fit_problems(layout, elements, piece, skip):
        problems.error(*problem)


@with_game_icons
def cut_pieces(game, options: BuildOptions | None = None, spec=None):
    """Each side of the pad, inside its cut line."""
    the_pad = pad(game, spec)
    path, line, _ = _where(game, spec)
    outline = RectOutline(Rect(0.0, 0.0, *the_pad.size))
    for side, elements, _ in the_pad.sides():
        yield CutPiece(spec.id, f"pad {side}", outline, elements, (path, line), trimmed=True)


COMPONENT = Component("pad", build, check, pieces=cut_pieces, words=words, printed=printed, reprint=reprinted)
