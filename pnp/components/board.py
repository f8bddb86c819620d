"""Boards from data: a game board, player boards, double-sided maps; any flat piece drawn by a layout.

A ``{kind: board, ...}`` entry of game.yaml's ``components`` names a **layout** (regions in mm, as a
card layout, plus the board kinds ``circle``, ``track`` and ``table`` and the ``for`` repeat; see
docs/data-format.md, "Boards") whose ``size`` is the piece's size. Its expressions see the game's
``facts`` (every facts file's keys), ``data`` (the game's data files, :mod:`pnp.loading.datafiles`), ``title``, ``item`` (also ``piece``, which a ``for`` region's own ``item`` does not hide) and ``index`` (one piece per
item of ``each``), ``side`` (``front`` or ``back``),
``invented(entry, key)`` (a placeholder mark) and ``mark`` (the small sign printed by invented values).

* A piece larger than a sheet is **tiled** (:mod:`pnp.layout.tiling`): an assembly map, then one tile
  per sheet with glue strips, trim edges, alignment marks and labels; seams keep off every track
  space and every region marked ``keep_whole``.
* A piece with a ``back`` layout is **double-sided** (:mod:`pnp.layout.doublesided`): printed duplex
  (the kit's ``--flip`` and ``--back-offset`` apply) or folded; ``print: auto`` folds when both sides
  fit one sheet.
* ``each``: one piece per item (player boards by colour, maps by id), ``copies`` of each.

The component only wires data to those layouts: the drawing is the generic geometry's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import lru_cache

from pnp.text import templating
from pnp.components import record
from pnp.cache.buildcache import replays_reads
from pnp.cache.memo import reads_files
from pnp.loading.cardlayout import (LayoutError, compiled, evaluate, fit_problems, layout_error_problem, load_layout,
                                    text_problems)
from pnp.components import BuildOptions, Component, Output, Part
from pnp.draw.icons import with_game_icons
from pnp.errors import DataError, Problems
from pnp.loading.i18n import strings, word, words_function
from pnp.layout.doublesided import double_sided_pages, duplex, fold
from pnp.layout.geometry import Page, Rect, Style, Text
from pnp.layout.outline import CutPiece, RectOutline
from pnp.layout.packing import pack_pieces, piece_sheet_pages
from pnp.layout.regions import RegionError, place
from pnp.draw.text import text_fits
from pnp.layout.tiling import DEFAULT_OVERLAP, TileLabels, crossings, plan_tiles, tile_pages, tile_words
from pnp.text.markup import Safe, escape, plain_text
from pnp.loading.placeholders import PRINTED_MARK
from pnp.loading.schema import Field
from pnp.units import PAPERS, PRINTER_MARGIN
from rules_engine.model.cards import WHOLE_PLACEHOLDER

#: The small sign printed next to a value the data marks as invented (``placeholder``).
MARK = PRINTED_MARK

#: Settings of a ``{kind: board, ...}`` entry of game.yaml's ``components``.
SCHEMA = {
    "layout": Field("id", required=True, doc="the layout drawing the piece (templates/layouts/<name>.yaml)"),
    "back": Field("id", nullable=True, doc="the layout of its back: a double-sided piece"),
    "each": Field("str", nullable=True, doc="an expression giving a list: one piece per item ('item', 'index')"),
    "name": Field("str", nullable=True, doc="an expression giving each piece's printed name"),
    "title": Field("str", nullable=True, doc="the component's printed title (default: the id)"),
    "part": Field("id", default="board", doc="what the pieces are in the bill of materials"),
    "copies": Field("int", default=1, min=1, max=50, doc="copies of each piece"),
    "print": Field("str", default="auto", choices=("auto", "duplex", "fold"), doc="double-sided pieces"),
    "turn": Field("str", default="side", choices=("side", "top"), doc="how a double-sided piece turns over"),
    "overlap": Field("length", default=DEFAULT_OVERLAP, min=0, max=40, doc="glue strips of tiled pieces"),
    "orientation": Field("str", default="auto", choices=("auto", "portrait", "landscape")),
    "tiles": Field("map", default={}, schema={
        "max": Field("int", min=1, max=400, doc="the most sheets a tiled piece may take (default: as many as "
                                                 "keeping every kept region whole takes)")}),
}

LABEL = Style(font="sans-bold", size=7.0, min_size=5.0, max_lines=1, colour="#3a3a3a")


def invented(entry, key: str | None = None) -> bool:
    """Whether a facts entry (or one of its keys) carries a placeholder mark."""
    mark = entry.get("placeholder") if isinstance(entry, dict) else None
    if not mark:
        return False
    return key is None or WHOLE_PLACEHOLDER in mark or key in mark


@dataclass(frozen=True)
class Piece:
    """One piece as laid out: its name, size, front (and back) elements, and what seams must not cut."""

    name: str
    size: tuple
    front: tuple
    back: tuple | None
    keep: tuple               # Keep per element no seam may cut (texts, icons, track spaces, keep_whole regions)
    item: object = field(default=None, compare=False, repr=False)   # the ``each`` item it is made from


def config_of(spec) -> dict:
    return {k: (f.default if spec.config.get(k) is None else spec.config[k]) for k, f in SCHEMA.items()} \
        if spec.config else {k: f.default for k, f in SCHEMA.items()}


def _layouts(game, spec, config, problems):
    """The entry's front and back layouts (None where broken: the problems are added to ``problems``)."""
    front, back, found = _loaded_layouts(game, spec, spec.config_key())
    problems.extend(found)
    return front, back


def layouts(game, spec) -> tuple:
    """(front, back) layouts of the entry, as its pieces were laid out (either None where it is broken:
    the entry's check reports it)."""
    front, back, _ = _loaded_layouts(game, spec, spec.config_key())
    return front, back


@replays_reads
@reads_files
@lru_cache(maxsize=32)
def _loaded_layouts(game, spec, _config) -> tuple:
    config = config_of(spec)
    problems = Problems()
    where = f"components: board '{spec.id}'"
    path, line = game.root / "game.yaml", spec.line
    front = load_layout(config["layout"], game.root, problems, path, line, f"{where} layout")
    back = load_layout(config["back"], game.root, problems, path, line, f"{where} back") if config["back"] else None
    return front, back, tuple(problems)


def columns(entries, *keys) -> list[list]:
    """Table rows from a list of mappings: one row per entry, one cell per key (``'from..to'`` joins two
    keys' values as a range); an invented value (a placeholder) carries the mark."""
    rows = []
    for entry in entries or ():
        row = []
        for key in keys:
            parts = key.split("..")
            value = "-".join(str(entry.get(k, "")) for k in parts)
            if any(invented(entry, k) for k in parts):
                value += MARK
            row.append(value)
        rows.append(row)
    return rows


def scope(game) -> dict:
    """What every board, dice and standee expression sees. Facts (and ``data``) as they are: colours stay
    colours; a text or label made from them is escaped when evaluated. ``t('key')``: a printed word in the
    kit's language."""
    return {"facts": game.facts, "data": game.data, "title": escape(game.title), "invented": invented,
            "mark": escape(MARK), "columns": columns, "t": words_function(game)}


def pieces(game, spec) -> list[Piece]:
    """Every piece of the entry laid out (raises DataError naming game.yaml's entry when its data or
    layout is wrong). Laid out once per game and entry: validate and build share them."""
    return list(_pieces(game, spec, spec.config_key()))


@replays_reads
@reads_files
@lru_cache(maxsize=32)
def _pieces(game, spec, _config) -> tuple:
    config = config_of(spec)
    problems = Problems()
    front, back = _layouts(game, spec, config, problems)
    problems.raise_if_errors()
    base = scope(game)
    items = [None]
    where = (game.root / "game.yaml", spec.line, f"board '{spec.id}'")
    try:
        with templating.limits():               # every piece of the entry: one render's limits
            return _laid_out(game, spec, config, front, back, base, items)
    except templating.TemplateLimit as exc:
        region = getattr(exc, "region", None)
        if region is None:
            raise DataError([_problem(where, exc)]) from None
        layout = next((lay for lay in (front, back) if lay is not None and region_where(lay, region)[1]), front)
        problems.error(*region_where(layout, region), f"layout '{layout.name}', region '{region}'",
                       f"{exc.detail} (board '{spec.id}')")
        raise DataError(problems.errors) from None
    except LayoutError as exc:              # at the designer's layout file, not at the board's entry
        raise DataError([layout_error_problem(exc, f"board '{spec.id}'")]) from None
    except templating.TEMPLATE_ERRORS as exc:
        raise DataError([_problem(where, exc)]) from None


def _laid_out(game, spec, config, front, back, base, items) -> tuple:
    """The pieces of the entry, laid out (inside one render's limits: see _pieces)."""
    if config["each"]:
        items = templating.loop_items(compiled(config["each"])(**base))
    out = []
    for i, item in enumerate(items):
        context = {**base, "item": item, "piece": item, "index": i}
        name = compiled(config["name"])(**context) if config["name"] else _title(game, spec, config)
        keep: list = []
        w, h = front.size
        els = _placed(front, evaluate(front, {**context, "side": "front"}), w, h, spec, keep=keep)
        back_els = None
        if back is not None:
            if tuple(back.size) != tuple(front.size):
                raise ValueError(f"the back layout is {back.size[0]:g} x {back.size[1]:g} mm, the front "
                                 f"{w:g} x {h:g} mm")
            back_els = tuple(_placed(back, evaluate(back, {**context, "side": "back"}), w, h, spec))
        for _ in range(config["copies"]):
            out.append(Piece(escape(name), (w, h), tuple(els), back_els, tuple(keep), item))
    return tuple(out)


def _placed(layout, regions, w, h, spec, **kept) -> list:
    """The layout's evaluated ``regions`` as elements; a region that cannot be drawn is a problem at its
    line in the layout file."""
    try:
        return place(regions, layout.size, w, h, None, **kept)
    except RegionError as exc:
        problems = Problems()
        problems.error(*region_where(layout, exc.region), f"layout '{layout.name}', region '{exc.region}'",
                       f"{exc} (board '{spec.id}')")
        raise DataError(problems.errors) from None


def region_where(layout, name: str) -> tuple:
    """(path, line) of the region ``name`` (a repeated one's copies, ``name[2]``, are its own): where the
    layout, or a layout it extends, writes it."""
    return layout.where(name)


def _problem(where, exc):
    problems = Problems()
    path, line, subject = where
    problems.error(path, line, subject, str(getattr(exc, "message", None) or exc))
    return problems.errors[0]


def _title(game, spec, config) -> str:
    """The entry's printed title: its ``title`` (or its id), translated (``components.<id>.title``)."""
    return word(game, f"components.{spec.id}.title", _own_title(spec, config))


def _own_title(spec, config) -> str:
    return config["title"] or spec.id.replace("_", " ").capitalize()


def words(game, spec=None) -> list:
    """What a board entry prints that a translation gives: its title, and the printed literals of its
    ``name`` expression and of its layouts (which should say ``t('key')`` instead)."""
    from pnp.loading.i18n.catalogue import Source
    from pnp.loading.i18n.literals import expression_sources, layout_sources

    config = config_of(spec)
    where = (game.root / "game.yaml", spec.line)
    out = [Source(f"components.{spec.id}.title", _own_title(spec, config), *where, f"board '{spec.id}'", "title")]
    out += expression_sources(config["name"], *where, f"board '{spec.id}'", "name")
    front, back, _ = _loaded_layouts(game, spec, spec.config_key())
    for layout in (front, back):
        if layout is not None:
            out += layout_sources(layout, game.root, where)
    return out


def piece_pages(piece: Piece, config: dict, options: BuildOptions, words: dict) -> tuple[list[Page], str, int]:
    """(pages, how they print, tiles) of one piece."""
    w, h = piece.size
    if piece.back is not None:
        mode = config["print"]
        ds = None
        if mode in ("auto", "fold"):
            try:
                ds = fold(w, h, options.paper, config["turn"])
            except ValueError:
                if mode == "fold":
                    raise
        if ds is None:
            ds = duplex(w, h, options.paper, options.flip, config["turn"], options.back_offset)
        pages = double_sided_pages(ds, piece.front, piece.back, label=piece.name)
        label = label_rect(ds)
        for page in pages if label is not None else ():
            page.add(Text(label, piece.name, LABEL, role="piece-label"))
        return pages, "double" if ds.mode == "duplex" else "fold", 0
    plan = tiling(piece, config, options.paper)
    cut = seam_problems(piece, plan, config, options.paper, "")
    if cut:                                     # validation says where (a build validates first)
        raise ValueError(f"{len(cut)} element(s) cut by the tile seams (pnp validate says which)")
    labels = TileLabels(**_tile_words(words)) if plan.sheets > 1 else TileLabels(tile="{title}")
    pages = tile_pages(plan, piece.front, piece.name, labels, text_fits)
    if plan.sheets == 1:
        pages = pages[1:]                       # one sheet: no assembly map
    return pages, "single", plan.sheets if plan.sheets > 1 else 0


def label_rect(ds) -> Rect | None:
    """Where a double-sided piece's name is printed on its sheet: below what is printed of the piece (both
    halves of a fold), else above it, inside the printer's margin; None when neither has room (the
    piece's own art names it)."""
    printed = [ds.front] + ([ds.back] if ds.mode == "fold" else [])
    x0, y0 = min(r.x for r in printed), min(r.y for r in printed)
    x1, top = max(r.right for r in printed), max(r.top for r in printed)
    clear = 3.0                 # past the art's bleed (2 mm on a back)
    if y0 - clear - 5 >= PRINTER_MARGIN:
        return Rect(x0, y0 - clear - 5, x1 - x0, 5)
    if top + clear + 5 <= ds.page_h - PRINTER_MARGIN:
        return Rect(x0, top + clear, x1 - x0, 5)
    return None


def tiling(piece: Piece, config: dict, paper: str):
    """The piece's tiling: seams off every kept element (texts, icons, track spaces, ``keep_whole``
    regions), with more tiles than the fewest where that is what it takes (up to ``tiles: {max: N}``
    sheets). It may still cut some: :func:`seam_problems` says which."""
    w, h = piece.size
    return _plan_tiles(w, h, paper, config["overlap"], config["orientation"], piece.keep, max_tiles(config))


@lru_cache(maxsize=256)
def _plan_tiles(w: float, h: float, paper: str, overlap: float, orientation: str, keep: tuple,
                max_sheets) -> object:
    """:func:`plan_tiles`, kept: a build asks for a piece's tiling twice (is it one sheet? its pages), the
    checks and the instructions page's estimate again; choosing seams off every kept element is the
    slow part of a board's layout. The plan is a frozen value."""
    return plan_tiles(w, h, paper, overlap=overlap, orientation=orientation, avoid=keep, max_sheets=max_sheets)


def max_tiles(config: dict) -> float:
    return (config.get("tiles") or {}).get("max") or math.inf


PAPER_NAMES = {"letter": "Letter", "a4": "A4"}


def seam_problems(piece: Piece, plan, config: dict, paper: str, board: str) -> list[tuple]:
    """(region, message) for every kept element a seam of ``plan`` runs through (and, region None, for a
    piece that needs more sheets than ``tiles: {max: N}`` allows): the geometric check that nothing but
    glue strips and marks crosses a tile seam unless its region allows it (``keep_whole: false``)."""
    named = PAPER_NAMES.get(paper, paper)
    most = max_tiles(config)
    out = []
    if plan.sheets > most:
        out.append((None, f"on {named} the piece takes at least {plan.sheets} sheets; tiles: {{max: {most}}} "
                          f"allows {most}"))
    cut = crossings(plan, piece.keep)
    if not cut:
        return out
    if plan.whole_sheets is None:
        too_big = [k for k in piece.keep if _larger_than_any_tile(k.rect, plan, paper)]
        why = f"no tiling on {named} keeps every text, icon, track space and keep_whole region whole"
        if too_big:
            names = ", ".join(dict.fromkeys(f"'{k.region}'" for k in too_big))
            why += f" (region {names} is larger than a tile can show)" if len(too_big) == 1 else \
                f" (regions {names} are larger than a tile can show)"
    elif plan.whole_sheets > most:
        why = (f"keeping every text, icon, track space and keep_whole region whole takes {plan.whole_sheets} "
               f"sheets on {named}, and tiles: {{max: {most:g}}} allows {most:g}")
    else:
        why = ""
    for c in cut:
        keep, r = c.feature, c.feature.rect
        seam = f"x = {c.at:.1f} mm" if c.axis == "x" else f"y = {c.at:.1f} mm"
        fix = "move it off the seam" + ("" if keep.part else ", or let seams cross it with keep_whole: false")
        out.append((keep.region, f"{keep.part or 'it'} ({r.w:.1f} x {r.h:.1f} mm at [{r.x:.1f}, {r.y:.1f}]) is cut "
                                 f"by the seam between tiles {c.tiles[0]} and {c.tiles[1]} ({seam}) on {named} "
                                 f"(board '{board}', piece '{piece.name}'); {why + '; ' if why else ''}{fix}"))
    return out


def _larger_than_any_tile(r, plan, paper: str) -> bool:
    """Whether ``r`` fits no tile's core in either orientation of the sheet (so no seams can miss it)."""
    pw, ph = sorted(PAPERS[paper])
    room = 2 * (plan.margin + plan.band)
    return all(r.w > w - room or r.h > h - room for w, h in ((pw, ph), (ph, pw)))


def _tile_words(words: dict) -> dict:
    return tile_words(words)


def file_name(spec) -> str:
    return f"{spec.id.replace('_', '-')}.pdf"


@with_game_icons
def build(game, options: BuildOptions, spec=None) -> list[Output]:
    config = config_of(spec)
    words = strings(game, options.lang)
    title = escape(_title(game, spec, config))
    all_pieces = pieces(game, spec)
    pages, sides, tiles, sheets = [], "single", 0, 0
    for ps, how, n in _laid_sheets(game, spec, config, all_pieces, options, words, title):
        pages += ps
        sides = how if how != "packed" else sides
        tiles += n
        sheets += len(ps) if how != "double" else len(ps) // 2
    parts = [Part(config["part"], spec.id, len(all_pieces), title)]
    if tiles:
        parts.append(Part("tile", f"{spec.id}-tiles", tiles, words.get("part_tiles", "tiles")))
    # tiles and small pieces printed on one side may share sheets (a tiled board's thin last strips)
    out = Output(file_name(spec), title, pages, parts=tuple(parts), sides=sides, sheets=sheets,
                 share="one-side" if sides == "single" else "")
    out.record = record.fragment(game, "board", *printed(game, options, spec))
    return [out]


def _laid_sheets(game, spec, config, all_pieces, options, words, title) -> list[tuple[list, str, int]]:
    """The pieces' pages in runs, each (pages, how they print: ``packed`` for small one-sided pieces
    sharing sheets, else as :func:`piece_pages` says, tiles)."""
    runs = []
    try:
        small = [p for p in all_pieces if p.back is None and tiling(p, config, options.paper).sheets == 1]
        packing = pack_pieces([p.size for p in small], *options.page_size) if len(small) > 1 else None
        if packing is not None and max(packing.per_sheet()) > 1:
            runs.append((piece_sheet_pages([(p.name, p.front) for p in small], packing, LABEL, label=title),
                         "packed", 0))
        else:
            small = []
        for piece in all_pieces:
            if any(piece is p for p in small):
                continue
            runs.append(piece_pages(piece, config, options, words))
    except ValueError as exc:
        raise DataError([_problem((game.root / "game.yaml", spec.line, f"board '{spec.id}'"),
                                  f"{exc} on {options.paper}")]) from None
    return runs


def _labelled(game, spec, config) -> list[tuple[str, str, Piece]]:
    """(key, label, piece) of every piece: its key the plain text of its name (a later item of the same
    name numbered: ``Map (2)``), its label ``<key>#<copy>``."""
    all_pieces, copies = pieces(game, spec), config["copies"]
    out, used = [], {}
    for i in range(0, len(all_pieces), copies):
        base = plain_text(all_pieces[i].name) or spec.id
        used[base] = used.get(base, 0) + 1
        key = base if used[base] == 1 else f"{base} ({used[base]})"
        out += [(key, f"{key}#{k + 1}", piece) for k, piece in enumerate(all_pieces[i:i + copies])]
    return out


def printed(game, options: BuildOptions, spec=None) -> tuple[str, list]:
    """(title, every copy of every piece with its front and back as laid out, and the item it is made
    from), for :mod:`pnp.reprint.changes`."""
    config = config_of(spec)
    out = []
    for key, label, piece in _labelled(game, spec, config):
        values = {"name": key, **(record.item_values(piece.item, game.root) if piece.item is not None else {})}
        out.append(record.Printed(key, label, piece.name, piece.front, piece.back or (), values))
    return escape(_title(game, spec, config)), out


@with_game_icons
def reprinted(game, options: BuildOptions, labels: set, first: int, spec=None) -> record.Reprinted:
    """Only the pieces ``labels``, each printed as the build prints it (packed with other small ones, tiled,
    duplex or folded)."""
    config = config_of(spec)
    chosen = [piece for _, label, piece in _labelled(game, spec, config) if label in labels]
    sheets = []
    for ps, how, _ in _laid_sheets(game, spec, config, chosen, options, strings(game, options.lang),
                                   escape(_title(game, spec, config))):
        sheets += list(zip(ps[::2], ps[1::2])) if how == "double" else [(page, None) for page in ps]
    return record.Reprinted(sheets)


@with_game_icons
def check(game, problems, options: BuildOptions | None = None, spec=None) -> None:
    """The layouts load, their expressions work on every piece, and every piece prints on Letter and A4."""
    config = config_of(spec)
    before = len(problems.errors)
    _layouts(game, spec, config, problems)
    if len(problems.errors) > before:
        return
    try:
        all_pieces = pieces(game, spec)
    except DataError as exc:
        problems.extend(exc.problems)
        return
    front, back = _layouts(game, spec, config, problems)
    found = []
    for piece in all_pieces:
        found += text_problems(front, piece.front, game.icons.names, f"board '{spec.id}'")
        found += fit_problems(front, piece.front, f"board '{spec.id}'")
        if back is not None and piece.back is not None:
            found += text_problems(back, piece.back, game.icons.names, f"board '{spec.id}'")
            found += fit_problems(back, piece.back, f"board '{spec.id}'")
    for problem in dict.fromkeys(found):
        problems.error(*problem)
    if not found:                       # advice on a design that draws: after its mistakes are fixed
        from pnp.components.emptiness import EmptySpace

        empty = EmptySpace(f"board '{spec.id}'", "piece")
        entry = (game.root / "game.yaml", spec.line)
        for piece in all_pieces:
            empty.add(front, piece.front, piece.size, piece.name, entry)
            if back is not None and piece.back is not None:
                empty.add(back, piece.back, piece.size, f"{piece.name} (back)", entry)
        empty.report(problems)
    distinct = list({(p.size, p.keep, p.back is None): p for p in all_pieces}.values())
    for paper in ("letter", "a4"):
        for piece in distinct:
            try:
                plan = fits(piece, config, paper)
            except ValueError as exc:
                problems.error(game.root / "game.yaml", spec.line, f"board '{spec.id}'", f"{exc} on {paper}")
                continue
            for region, message in seam_problems(piece, plan, config, paper, spec.id) if plan else ():
                if region is None:
                    problems.error(game.root / "game.yaml", spec.line, f"board '{spec.id}'", message)
                else:
                    problems.error(*region_where(front, region), f"layout '{front.name}', region '{region}'",
                                   message)
            # thin strips go onto the kit's shared sheets (pnp.build.sharing), except with --bleed or
            # --cutter, where every file keeps its own sheets: only then is a strip's sheet wasted
            alone = options is not None and bool(options.bleed or options.cutter)
            if plan and not plan.cut and alone:
                thin = costly_strip(piece, plan, config, paper)
                if thin:
                    why = "--bleed" if options.bleed else "--cutter"
                    problems.warn(game.root / "game.yaml", spec.line, f"board '{spec.id}'",
                                  f"{thin} (with {why} they print alone: pieces share no sheets)")
    _sheet_text_problems(game, spec, config, all_pieces, problems)


def _sheet_text_problems(game, spec, config, all_pieces, problems) -> None:
    """The words pnp prints round each piece on its sheets (its name beside a double-sided piece, the
    assembly map's title, the tiles' headings) fit their places on Letter and A4, in the language checked:
    one too long is an error at the translation's line that gives its words, else at the entry's."""
    from dataclasses import replace

    from pnp.draw.text import fit
    from pnp.layout.geometry import flatten
    from pnp.loading.i18n import translation, words_at
    from pnp.loading.paths import excerpt

    words = strings(game)
    keys = [f"components.{spec.id}.title"] + [f"strings.{k}" for k in (translation(game, game.language) or {})
                                               .get("strings") or {}]
    found = {}
    for paper in ("letter", "a4"):
        for piece in all_pieces:
            bare = replace(piece, front=(), back=() if piece.back is not None else None, keep=())
            try:
                pages, _, _ = piece_pages(bare, config, BuildOptions(paper=paper), words)
            except ValueError:                   # a piece that does not print: reported above
                continue
            for el in (e for page in pages for e in flatten(page.elements) if isinstance(e, Text) and e.markup):
                result = fit(el.markup, el.style, el.rect.w, el.rect.h)
                if not result.ok:
                    at = words_at(game, game.language, el.markup, keys) or (game.root / "game.yaml", spec.line)
                    found.setdefault((at, el.markup), (paper, el, result))
    for (at, markup), (paper, el, result) in found.items():
        problems.error(*at, f"board '{spec.id}'",
                       f"{excerpt(plain_text(markup))} does not fit its {el.rect.w:.1f} x {el.rect.h:.1f} mm place on "
                       f"the {paper} sheets even at {el.style.min_size or el.style.size:g} pt ({result.reason})")


#: A tile narrower (or lower) than this share of the sheet's printable width (height) leaves its sheet
#: nearly empty.
NARROW_TILE = 0.2


def costly_strip(piece: Piece, plan, config: dict, paper: str) -> str | None:
    """A warning's message when the tiling leaves a last column or row of thin strips on nearly
    empty sheets and a board without that strip, every region kept whole, would take fewer sheets (Tide
    Clock's harbour board on Letter: 9 sheets, its tiles A3, B3 and C3 strips 23 mm wide; 477 mm wide
    instead of 500, 6 sheets); None otherwise, or when the designer capped the sheets (``tiles: {max}``).
    Asked only when the kit shares no sheets (``--bleed``, ``--cutter``): else the strips go onto the
    shared sheets (:mod:`pnp.build.sharing`) and waste none."""
    if (config.get("tiles") or {}).get("max") or plan.sheets < 2:
        return None
    w, h = piece.size
    usable_w = plan.page_w - 2 * (plan.margin + plan.band)
    usable_h = plan.page_h - 2 * (plan.margin + plan.band)
    strips = []
    last_w, last_h = plan.xs[-1] - plan.xs[-2], plan.ys[-2] - plan.ys[-1]
    if plan.cols > 1 and last_w < NARROW_TILE * usable_w:
        strips.append(("wide", last_w, (w - last_w, h), [t.label for t in plan.tiles if t.col == plan.cols - 1]))
    if plan.rows > 1 and last_h < NARROW_TILE * usable_h:
        strips.append(("high", last_h, (w, h - last_h), [t.label for t in plan.tiles if t.row == plan.rows - 1]))
    for what, strip, (nw, nh), labels in strips:
        inside = [k for k in piece.keep if k.rect.right <= nw + 0.01 and k.rect.top <= h + 0.01 and
                  (what == "wide" or k.rect.y >= strip - 0.01)]
        if len(inside) < len(piece.keep):       # the strip holds something of the board's own
            continue
        smaller = plan_tiles(nw, nh, paper, overlap=config["overlap"], orientation=config["orientation"],
                             avoid=[replace(k, rect=replace(k.rect, y=k.rect.y - (strip if what == "high" else 0)))
                                    for k in inside], max_sheets=max_tiles(config))
        if smaller.sheets < plan.sheets and not smaller.cut:
            size = nw if what == "wide" else nh
            return (f"on {PAPER_NAMES.get(paper, paper)} its tiles {', '.join(labels)} are strips {strip:.0f} mm "
                    f"{what} on sheets left nearly empty ({plan.sheets} sheets): a board {size:.0f} mm {what} "
                    f"instead of {(w if what == 'wide' else h):g} would take {smaller.sheets}, every region whole")
    return None


def fits(piece: Piece, config: dict, paper: str):
    """The tiling of a one-sided piece (None for a double-sided one); ValueError when the piece cannot be
    printed on ``paper`` as configured (no pages made)."""
    w, h = piece.size
    if piece.back is None:
        return tiling(piece, config, paper)
    if config["print"] == "fold":
        fold(w, h, paper, config["turn"])
    else:
        try:
            fold(w, h, paper, config["turn"])
        except ValueError:
            duplex(w, h, paper, "long", config["turn"])


@with_game_icons
def cut_pieces(game, options: BuildOptions | None = None, spec=None):
    """Each piece's front (and back), inside its outline."""
    where = (game.root / "game.yaml", spec.line)
    for piece in pieces(game, spec):
        outline = RectOutline(Rect(0.0, 0.0, *piece.size))
        yield CutPiece(spec.id, piece.name if piece.back is None else f"{piece.name} front", outline, piece.front,
                       where, trimmed=True)
        if piece.back is not None:
            yield CutPiece(spec.id, f"{piece.name} back", outline, piece.back, where, trimmed=True)


COMPONENT = Component("board", build, check, weight=2, shares=True, pieces=cut_pieces, words=words, printed=printed,
                      reprint=reprinted)
