"""Card layouts from data: named regions in millimetres, each bound to what a card shows.

A layout (``templates/layouts/<name>.yaml`` in the game folder, else pnp's bundled ones, or a mapping
written inline in game.yaml) has a design ``size``, a ``palette`` of named colours, text ``styles`` and
``regions``. Each region has a ``kind`` (box, text, line, icon, art, emblem, pips, badges), its place
in the design frame (other card sizes scale proportionally), and values that are expressions over the
card: ``colour``, ``name``, ``ability``, ``tint(colour, 0.8)``, ``palette.paper``, ``field('cost')``
... evaluated in pnp's template sandbox. ``when:`` keeps a region only when its expression is true.
``extends:`` starts from another layout: a region with a name the parent has replaces that region's
keys (``remove: true`` drops it), new regions are drawn last.

A deck names its layout (``layout:``), or one per value of a card key
(``layout: {by: type, layouts: {monster: tall}, default: classic}``).

This module loads and checks layouts (problems with file and line) and evaluates a region's values for
a card; :mod:`pnp.layout.regions` turns the evaluated regions into elements (pure geometry).
"""

from __future__ import annotations

import dataclasses
import os
import re
import threading
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

import jinja2

from pnp import TEMPLATES_DIR
from pnp.text import templating
from pnp.cache.buildcache import FileDigests
from pnp.cache.memo import reads_files
from pnp.errors import Problem, Problems
from pnp.layout.cards import FaceContent, face_context
from pnp.layout.colour import readable, shade, tint, tint_to
from pnp.layout.regions import place
from pnp.layout.writein import CELL_KEYS, FIELD_KINDS
from pnp.text.markup import Safe, closest_icon, escape, markup_problems, plain_text
from pnp.loading.paths import SAFE_NAME, excerpt
from pnp.suggest import closest
from pnp.loading.schema import Field, check, entry, subkey
from pnp.units import MIN_TEXT_PT
from pnp.loading.yamlsrc import line_of, load_yaml_or_report

KINDS = ("box", "text", "line", "icon", "art", "emblem", "pips", "badges", "circle", "track", "table", "boxes",
         "lines", "checks")
DEFAULT_LAYOUT = "classic"
FONTS = ("serif", "serif-italic", "serif-bold", "serif-semibold", "sans", "sans-bold", "sans-black")

STYLE_SCHEMA = {
    "font": Field("str", choices=FONTS), "size": Field("number", min=2, max=200),
    "min_size": Field("number", nullable=True, min=2, max=200), "max_lines": Field("int", nullable=True, min=1),
    "leading": Field("number", min=0.5, max=3), "align": Field("str", choices=("left", "center", "right", "justify")),
    "valign": Field("str", choices=("top", "middle", "bottom")), "colour": Field("str"),
    "tracking": Field("number", min=-2, max=20), "upper": Field("bool"),
}

_POINT = Field("list", items=Field("number"))
REGION_SCHEMA = {
    "name": Field("id", required=True), "kind": Field("str", choices=KINDS), "remove": Field("bool"),
    "when": Field("str", doc="an expression: the region is drawn only when it is true"),
    "role": Field("str", doc="the elements' role (default: the name)"),
    "rect": Field("list", items=Field("number"), doc="[x, y, width, height] in the design frame"),
    "in": Field("id", doc="the rect of another region (emblem, badges)"),
    "bleed": Field("bool", doc="box: run past the trim line by the bleed"),
    "fill": Field("str"), "stroke": Field("str"), "width": Field("number", min=0, max=10),
    "radius": Field("number", min=0, max=50),
    "text": Field("str", doc="text: an expression giving the markup"),
    "style": Field("any", doc="a style name of the layout, or a style mapping"),
    "colour": Field("str"), "icon": Field("str", doc="icon: an expression giving the icon's name"),
    "label": Field("str", doc="icon: an expression giving the text on it"),
    "at": _POINT, "from": _POINT, "to": _POINT, "size": Field("number", min=0, max=300),
    "step": Field("number"), "mirror": Field("bool"), "dx": Field("number"), "dy": Field("number"),
    "scale": Field("number", min=0, max=2), "x": Field("number"), "top": Field("number"),
    "before": Field("id", doc="a new region: drawn just before this one (default: after every region)"),
    "for": Field("str", doc="an expression giving a list: the region is drawn once per item ('item', 'index')"),
    "offset": _POINT, "columns": Field("int", min=1, max=200),
    "positions": Field("list", items=_POINT, doc="with for: the shift of each item's copy, [dx, dy] each"),
    "r": Field("number", min=0, max=500), "numbers": Field("str", doc="track: an expression giving the numbers"),
    "path": Field("str", choices=("around", "row", "column")), "highlight": Field("str"),
    "highlight_every": Field("int", min=0, max=100), "rows": Field("str", doc="table: an expression giving rows"),
    "header": Field("bool"),
    "grid": Field("list", items=Field("int", min=1, max=100), doc="boxes, checks: [columns, rows]"),
    "gap": Field("number", min=0, max=100, doc="boxes, checks: mm between neighbouring boxes"),
    "cells": Field("str", doc="boxes: an expression giving rows of cells (a hint, or {text, icon, value, shade})"),
    "labels": Field("str", doc="lines, checks: an expression giving a label per line or check box"),
    "count": Field("int", min=1, max=200, doc="lines: how many (default: one per label)"),
    "label_width": Field("number", min=0, max=1000, doc="lines, checks: mm a label takes before its line"),
    "field": Field("str", choices=FIELD_KINDS, doc="pads: the fillable PDF's field on each place (text, check "
                                                   "or none)"),
    "keep_whole": Field("bool", doc="boards: true, no tile seam may cut any of it; false, seams may cross its texts "
                                    "and icons too"),
    "legend": Field("bool", doc="the region explains the icons it prints (a key, an icon with its name beside "
                                "it): a board's icons need no other key in the kit"),
}

LAYOUT_SCHEMA = {
    "extends": Field("id", doc="the layout this one starts from"),
    "size": Field("list", items=Field("number", min=10, max=1000), doc="[width, height] of the design frame"),
    "palette": Field("dict", default={}, items=Field("colour")),
    "styles": Field("dict", default={}, items=Field("map", schema=STYLE_SCHEMA)),
    "regions": Field("list", default=[], items=Field("map", schema=REGION_SCHEMA)),
}

CHOICE_SCHEMA = {
    "by": Field("str", required=True, doc="the card key whose value picks the layout"),
    "layouts": Field("dict", required=True, items=Field("any")),
    "default": Field("any", default=DEFAULT_LAYOUT),
}

#: Keys of a region whose values are expressions (or ``#rrggbb`` colours).
EXPRESSIONS = ("when", "fill", "stroke", "text", "colour", "icon", "label", "numbers", "rows", "highlight", "cells",
               "labels")


@dataclass(frozen=True)
class Layout:
    """A card layout, its ``extends`` chain merged: design ``size`` (mm), named colours, text styles and
    regions in drawing order, and the file it came from."""

    name: str
    size: tuple = (63.0, 88.0)
    palette: tuple = ()          # (name, colour)
    styles: tuple = ()           # (name, style mapping as tuple of items)
    regions: tuple = ()          # each a tuple of (key, value) items, in drawing order
    source: str = ""
    lines: tuple = field(default=(), compare=False)   # ((region, key or None), (file, line, layout)): who wrote it where

    def palette_dict(self) -> dict:
        return dict(self.palette)

    def where(self, region: str, key: str | None = None) -> tuple:
        """(file, line) where ``region`` (a repeated region's copy ``name[2]`` is its region) writes ``key``,
        else where the region is written (a layout it extends may have written it)."""
        return self.written(region, key)[:2]

    def written(self, region: str, key: str | None = None) -> tuple:
        """(file, line, layout name) of :meth:`where`: the layout in the ``extends`` chain that wrote it."""
        base = region.split("[", 1)[0]
        lines = dict(self.lines)
        return lines.get((base, key)) or lines.get((base, None)) or (self.source, None, self.name)

    def style(self, name) -> dict:
        return dict(self._styles.get(name, ()))

    @cached_property
    def _styles(self) -> dict:
        """:attr:`styles` by name, made once per layout (each text region of each face asked for it)."""
        return dict(self.styles)


@dataclass(frozen=True)
class LayoutChoice:
    """A deck's layouts: ``default``, and one per value of the card key ``by``."""

    default: Layout
    by: str | None = None
    layouts: tuple = ()          # (value, Layout)
    lines: tuple = field(default=(), hash=False, compare=False)   # ("by" or a value, its line in game.yaml)

    def line(self, key: str) -> int | None:
        """The line of ``by:`` (``"by"``) or of a value's layout in ``layouts``."""
        return dict(self.lines).get(key)

    def for_card(self, card) -> Layout:
        if self.by is None or card is None:
            return self.default
        value = card.stats.get(self.by) if self.by in card.stats else getattr(card, self.by, None)
        return dict(self.layouts).get(str(value), self.default)

    def all(self) -> list[Layout]:
        return [self.default] + [layout for _, layout in self.layouts]


def layout_path(root: Path | None, name: str) -> Path:
    """The game's ``templates/layouts/<name>.yaml``, else pnp's bundled one."""
    if root is not None:
        own = root / "templates" / "layouts" / f"{name}.yaml"
        if own.is_file():
            return own
    return TEMPLATES_DIR / "layouts" / f"{name}.yaml"


def layout_names(root: Path | None) -> frozenset:
    """The names of the game's layouts (``templates/layouts/*.yaml``), or of pnp's bundled ones (None)."""
    folder = (root / "templates" / "layouts") if root is not None else TEMPLATES_DIR / "layouts"
    return frozenset(p.stem for p in folder.glob("*.yaml") if SAFE_NAME.fullmatch(p.stem)) if folder.is_dir() \
        else frozenset()


def load_layout(spec, root: Path | None, problems: Problems, path, line, where: str, _seen=()) -> Layout | None:
    """A layout from a name or an inline mapping, its ``extends`` chain merged; problems reported."""
    if spec is None:
        spec = DEFAULT_LAYOUT
    if isinstance(spec, str):
        if not SAFE_NAME.fullmatch(spec):
            problems.error(path, line, None, f"{where}: {excerpt(spec)} is not a layout name")
            return None
        if spec in _seen:
            problems.error(path, line, None, f"{where}: layout '{spec}' extends itself")
            return None
        file = layout_path(root, spec)
        if _READING.stack:      # a named layout being built reads this one: which file it is, its bytes
            _READING.stack[-1].update(_stamp(f) for f in {file, _own_layout(root, spec)} if f)
        if not file.is_file():
            own, bundled_ = layout_names(root), layout_names(None)
            close = closest(spec, own | bundled_, builtin=bundled_ - own)
            hint = f"; did you mean '{close}'?" if close else ""
            problems.error(path, line, None, f"{where}: no layout '{spec}' (templates/layouts/{spec}.yaml in the "
                                             f"game folder or pnp's){hint}")
            return None
        return _named_layout(spec, file, root, problems, _seen)
    if isinstance(spec, dict):
        return _build("inline", spec, root, problems, path, _seen, where)
    problems.error(path, line, None, f"{where}: expected a layout name or a layout mapping, got {excerpt(spec)}")
    return None


#: Named layouts built, by (name, file, game folder, the chain above it): [(the files read, by path and
#: the digest of their bytes, the layout, the problems it added)]. A layout file's layout and problems
#: are a function of those files alone (its problems are placed in its files, whichever deck names it):
#: three decks of one layout build it once, and the studio does not build it again after an edit that
#: left its files alone.
_NAMED: dict = {}
_NAMED_FILES = FileDigests()


class _Reading(threading.local):
    def __init__(self):
        self.stack: list = []   # the files read by each named layout being built, innermost last


_READING = _Reading()


def _stamp(path) -> tuple:
    """(path, the digest of its bytes, where it leads): a file a layout read, as it is now."""
    return str(path), _NAMED_FILES(path), os.path.realpath(path)


def _own_layout(root, name: str) -> Path | None:
    """Where the game's own layout ``name`` would be (it takes the place of pnp's of that name)."""
    return root / "templates" / "layouts" / f"{name}.yaml" if root is not None else None


def _named_layout(spec: str, file: Path, root, problems: Problems, seen: tuple) -> Layout | None:
    """The layout ``spec`` of ``file`` (:func:`_build`), from :data:`_NAMED` when every file it read (and
    each game file that would have taken the place of one, present or not) is unchanged. A layout that
    has problems is built each time (a message's "did you mean" reads the folder's names)."""
    key = (spec, str(file), str(root), seen)
    stack = _READING.stack
    found = _NAMED.get(key)
    if found is not None and all(_stamp(stamp[0]) == stamp for stamp in found[0]):
        if stack:
            stack[-1].update(found[0])
        return found[1]
    reading = {_stamp(f) for f in {file, _own_layout(root, spec)} if f}
    stack.append(reading)
    start = len(problems)
    try:
        raw = load_yaml_or_report(file, problems, within=root if root and file.is_relative_to(root) else None)
        layout = None if raw is None else _build(spec, raw, root, problems, file, seen + (spec,))
    finally:
        stack.pop()
    if stack:
        stack[-1].update(reading)
    if layout is not None and len(problems) == start:
        if len(_NAMED) > 256:
            _NAMED.clear()
        _NAMED[key] = (tuple(sorted(reading)), layout)
    return layout


def _build(name, raw, root, problems, path, seen, where="") -> Layout | None:
    before = len(problems.errors)
    clean = check(raw, LAYOUT_SCHEMA, problems, path, prefix=where)
    parent = None
    if clean.get("extends"):
        parent = load_layout(clean["extends"], root, problems, path, line_of(raw, "extends"),
                             subkey(where, "extends"), seen)
        if parent is None:
            return None
    regions = [dict(r) for r in parent.regions] if parent else []
    lines = dict(parent.lines) if parent else {}
    raw_regions = raw.get("regions") if isinstance(raw, dict) else None
    for i, region in enumerate(clean.get("regions") or []):
        rline = line_of(raw_regions, i)
        at = entry(subkey(where, "regions"), region, i)
        names = [r["name"] for r in regions]
        if "name" not in region:
            continue
        written = raw_regions[i] if isinstance(raw_regions, list) and i < len(raw_regions) else None
        if not region.get("remove"):
            lines[(region["name"], None)] = (str(path), rline, name)
            for key, v in region.items():
                if v is not None:
                    lines[(region["name"], key)] = (str(path), line_of(written, key) or rline, name)
        if region["name"] in names:
            k = names.index(region["name"])
            if region.get("remove"):
                regions.pop(k)
                lines[(region["name"], "remove")] = (str(path), rline, name)
            else:
                regions[k] = {**regions[k], **{key: v for key, v in region.items() if v is not None}}
            continue
        if region.get("remove"):
            problems.error(path, rline, None, f"{at}: no region '{region['name']}' to remove")
            continue
        if region.get("kind") is None:
            written = raw_regions[i] if isinstance(raw_regions, list) and i < len(raw_regions) else None
            if not (isinstance(written, dict) and "kind" in written):    # else its wrong kind is reported
                problems.error(path, rline, None, f"{subkey(at, 'kind')}: required for a new region")
            continue
        new = {k: v for k, v in region.items() if v is not None}
        if region.get("before"):
            if region["before"] not in names:
                problems.error(path, rline, None, f"{subkey(at, 'before')}: no region '{region['before']}'")
                continue
            regions.insert(names.index(region["before"]), new)
        else:
            regions.append(new)
    own = {region.get("name") for region in clean.get("regions") or []}
    for region in regions:
        if region.get("name") in own:   # the parent's own regions were checked with the parent's lines
            _check_region(region, problems, path, raw_regions, where)
    palette = {**(parent.palette_dict() if parent else {}), **(clean.get("palette") or {})}
    styles = {**{k: dict(v) for k, v in (parent.styles if parent else ())}}
    raw_styles = raw.get("styles") if isinstance(raw, dict) else None
    for sname, style in (clean.get("styles") or {}).items():
        styles[sname] = {**styles.get(sname, {}), **{k: v for k, v in style.items() if v is not None}}
        _check_text_size(styles[sname], problems, path, line_of(raw_styles, sname),
                         f"{where + '.' if where else ''}styles.{sname}")
    for region in regions:          # a style by name is one the layout has (else the text is set plain)
        style = region.get("style")
        if region.get("name") in own and isinstance(style, str) and style not in styles:
            close = closest(style, styles)
            hint = f"; did you mean '{close}'?" if close else f" (its styles: {', '.join(styles) or 'none'})"
            problems.error(path, _region_line(raw_regions, region.get("name")), f"region '{region.get('name')}'",
                           f"style: no style '{style}' in layout '{name}'{hint}")
    size = tuple(clean.get("size") or (parent.size if parent else (63.0, 88.0)))
    if len(size) != 2:
        problems.error(path, line_of(raw, "size"), None, f"{where}size: give [width, height]")
        size = (63.0, 88.0)
    if len(problems.errors) > before:
        return None
    _check_areas(regions, problems, lines)
    if len(problems.errors) > before:
        return None
    return Layout(name, size, tuple(palette.items()), tuple((k, tuple(v.items())) for k, v in styles.items()),
                  tuple(tuple(r.items()) for r in regions), str(path), tuple(lines.items()))


def _check_areas(regions, problems, lines) -> None:
    """A region drawn ``in`` another (an emblem, the badges) names a region with a ``rect`` before it:
    otherwise it would have nowhere to go and draw nothing. When a layout removed that region from the
    one it extends, the mistake is that removal: one problem at its line, naming every region left
    without its area (not one problem per region, in the file of the layout extended)."""
    before, orphans = {}, {}
    for region in regions:
        area = region.get("in")
        if area is not None and "rect" not in before.get(area, {}):
            if area not in before and (area, "remove") in lines:
                orphans.setdefault(area, []).append(region)
            else:
                path, line, _ = lines.get((region.get("name"), "in")) or lines.get((region.get("name"), None)) \
                    or (None, None, None)
                known = [n for n, r in before.items() if "rect" in r]
                close = closest(area, known)
                hint = f"; did you mean '{close}'?" if close else \
                    f" (regions with a rect before it: {', '.join(known) or 'none'})"
                why = "has no rect" if area in before else "is not a region before it"
                problems.error(path, line, f"region '{region.get('name')}'", f"in: '{area}' {why}{hint}")
        before[region.get("name")] = region
    for area, left in orphans.items():
        path, line, _ = lines[(area, "remove")]
        names = [f"'{r.get('name')}'" for r in left]
        written = sorted({lines.get((r.get("name"), "in"), (None, None, "?"))[2] for r in left})
        them = "them" if len(left) > 1 else "it"
        problems.error(path, line, f"region '{area}'",
                       f"remove: region{'s' if len(left) > 1 else ''} {_and(names)} of layout "
                       f"{_and([repr(w) for w in written])} {'are' if len(left) > 1 else 'is'} drawn in it (in: {area}): "
                       f"remove {them} too, or give {them} in: another region with a rect")


def _and(words: list) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _check_region(region, problems, path, raw_regions, where) -> None:
    """Expressions compile, and the region has what its kind needs."""
    name = region.get("name")
    line = _region_line(raw_regions, name)
    for key in EXPRESSIONS + ("for",):
        value = region.get(key)
        if isinstance(value, str) and not _is_colour(value):
            try:
                compiled(value)
            except jinja2.TemplateSyntaxError as exc:
                problems.error(path, line, f"region '{name}'", f"{key}: {excerpt(value)} is not an expression "
                                                               f"({exc.message})")
    if isinstance(region.get("style"), dict):
        _check_text_size(region["style"], problems, path, line, f"region '{name}': style")
    kind = region.get("kind")
    need = {"box": ("rect",), "text": ("rect", "text"), "line": ("from", "to"), "icon": ("at", "icon"),
            "art": ("rect",), "emblem": ("in",), "pips": ("at",), "badges": ("in",), "circle": ("at", "r"),
            "track": ("rect", "numbers"), "table": ("rect", "rows"), "boxes": ("rect", "grid"),
            "lines": ("rect",), "checks": ("rect", "grid")}.get(kind, ())
    for key in need:
        if key not in region:
            problems.error(path, line, f"region '{name}'", f"a {kind} region needs '{key}'")
    for key in ("rect",):
        if key in region and len(region[key]) != 4:
            problems.error(path, line, f"region '{name}'", "rect: give [x, y, width, height]")
    for key in ("at", "from", "to"):
        if key in region and len(region[key]) != 2:
            problems.error(path, line, f"region '{name}'", f"{key}: give [x, y]")
    if "offset" in region and len(region["offset"]) != 2:
        problems.error(path, line, f"region '{name}'", "offset: give [dx, dy]")
    if "grid" in region and len(region["grid"]) != 2:
        problems.error(path, line, f"region '{name}'", "grid: give [columns, rows]")


def _region_line(raw_regions, name) -> int | None:
    """The line of the (last) region called ``name`` in a layout file's ``regions`` list."""
    line = None
    for i, r in enumerate(raw_regions if isinstance(raw_regions, list) else []):
        if isinstance(r, dict) and r.get("name") == name:
            line = line_of(raw_regions, i)
    return line


def _check_text_size(style: dict, problems, path, line, where: str) -> None:
    """No layout text may be set under :data:`pnp.units.MIN_TEXT_PT` (6 pt: smaller type breaks up on
    card stock and print services refuse it): a style's ``size`` and ``min_size`` are checked."""
    for key in ("size", "min_size"):
        value = style.get(key)
        if isinstance(value, (int, float)) and value < MIN_TEXT_PT - 1e-9:
            problems.error(path, line, None, f"{where}.{key}: {value:g} pt is under {MIN_TEXT_PT:g} pt, the smallest "
                                             f"text pnp prints")


def load_choice(spec, root, problems, path, line, where) -> LayoutChoice | None:
    """A deck's ``layout``: a name, an inline layout, or ``{by, layouts, default}``."""
    if isinstance(spec, dict) and "by" in spec:
        clean = check(spec, CHOICE_SCHEMA, problems, path, prefix=where)
        default = load_layout(clean.get("default"), root, problems, path, line, f"{where}.default")
        layouts = []
        for value, sub in (clean.get("layouts") or {}).items():
            layout = load_layout(sub, root, problems, path, line_of(spec.get("layouts"), value) or line,
                                 f"{where}.layouts.{value}")
            if layout is not None:
                layouts.append((str(value), layout))
        if default is None:
            return None
        lines = [("by", line_of(spec, "by") or line)] + \
            [(str(v), line_of(spec.get("layouts"), v) or line) for v in (clean.get("layouts") or {})]
        return LayoutChoice(default, clean.get("by"), tuple(layouts), tuple(lines))
    layout = load_layout(spec, root, problems, path, line, where)
    return LayoutChoice(layout) if layout is not None else None


# ----------------------------------------------------------------------------- evaluating

def _is_colour(value: str) -> bool:
    return len(value) == 7 and value.startswith("#")


class UnknownName(jinja2.UndefinedError):
    """An expression read a name, attribute or key that does not exist (:class:`LayoutUndefined` raises
    it with what was read from, so the message can name the closest one that exists)."""

    def __init__(self, owner, name, message=""):
        super().__init__(message)
        self.owner, self.name = owner, name


class LayoutUndefined(jinja2.StrictUndefined):
    """Jinja's strict undefined value, raising :class:`UnknownName` (with the object and the name it was
    read as) instead of a message in Jinja's words."""

    __slots__ = ()

    def __init__(self, hint=None, obj=jinja2.utils.missing, name=None, exc=jinja2.UndefinedError):
        super().__init__(hint, obj, name, lambda message: UnknownName(obj, name, message))


class UnknownField(jinja2.UndefinedError):
    """``field('x')``, ``fields.x`` or ``card.stats.x`` of a field the deck does not declare."""


class FieldValues(dict):
    """A card's fields by name (as printed, or as data in ``card.stats``): reading a field its deck does
    not declare is an error naming the deck and the closest field, never a blank."""

    deck: str = ""

    def __missing__(self, key):
        close = closest(key, self)
        hint = f"; did you mean '{close}'?" if close else \
            f" (its fields: {', '.join(map(str, self)) or 'none'})"
        raise UnknownField(f"field {excerpt(key)} does not exist in deck '{self.deck}'{hint}")

    @classmethod
    def of(cls, deck: str, values) -> "FieldValues":
        out = cls(values)
        out.deck = deck
        return out

    def __reduce__(self):
        return (FieldValues.of, (self.deck, dict(self)))


class LayoutError(jinja2.TemplateRuntimeError):
    """A region that cannot be drawn for a piece, in pnp's words: which layout, which region and key, and
    where the layout writes it."""

    def __init__(self, layout: "Layout", region: str, key: str | None, text: str):
        self.layout, self.region, self.key, self.text = layout, region, key, text
        path, line, name = layout.written(region, key)
        at = f" ({Path(path).name}{f':{line}' if line else ''})" if path else ""
        super().__init__(f"layout '{name}', region '{region.split('[', 1)[0]}'{at}: {key + ': ' if key else ''}"
                         f"{text}")


def layout_error_problem(exc: LayoutError, piece: str) -> Problem:
    """:class:`LayoutError` as a problem at the line of the layout file that writes the region (the designer's
    file, whichever layouts extend it), naming the piece it was met on (``board 'map'``)."""
    path, line, name = exc.layout.written(exc.region, exc.key)
    return Problem(str(path) if path else None, line, f"layout '{name}', region '{exc.region.split('[', 1)[0]}'",
                   f"{exc.key + ': ' if exc.key else ''}{exc.text} ({piece})")


@lru_cache(maxsize=1)
def _environment():
    """pnp's template sandbox, undefined names raising :class:`UnknownName`."""
    return templating.environment((TEMPLATES_DIR / "layouts",)).overlay(undefined=LayoutUndefined)


@lru_cache(maxsize=1)
def _literal_environment():
    """The sandbox for expressions over data as it is (boards, dice): their quoted texts are markup."""
    return templating.literal_markup_environment((TEMPLATES_DIR / "layouts",)).overlay(undefined=LayoutUndefined)


@lru_cache(maxsize=1024)
def compiled(expression: str, literal_markup: bool = False):
    """``expression`` compiled in pnp's sandbox: a function of the scope's names giving its value (a name
    that does not exist raises). With ``literal_markup`` its quoted texts are markup
    (:class:`pnp.text.templating.LiteralMarkupSandbox`)."""
    env = _literal_environment() if literal_markup else _environment()
    expr = env.compile_expression(expression, undefined_to_none=False)

    def run(**scope):
        with templating.limits():
            result = expr(**scope)
        if isinstance(result, jinja2.Undefined):
            result._fail_with_undefined_error()      # a name the card does not have: an error, not a blank
        return result
    return run


#: Region keys whose expressions show something (``when`` only decides whether a region is drawn).
SHOWING = tuple(k for k in EXPRESSIONS if k != "when") + ("for",)


@lru_cache(maxsize=1024)
def fields_named(expression: str) -> frozenset | None:
    """The card fields ``expression`` names: ``field('x')``, ``fields.x``, ``fields['x']``,
    ``card.stats.x``, ``card.stats['x']``. None when it reaches fields by a computed name or as a whole
    (``field(item)``, ``card.stats | list``): then it may show any of them."""
    from jinja2 import nodes

    tree = templating.environment((TEMPLATES_DIR / "layouts",)).parse("{{ (" + expression + ") }}")
    names = set()

    def is_stats(node):
        return (isinstance(node, nodes.Getattr) and node.attr == "stats" and isinstance(node.node, nodes.Name)
                and node.node.name == "card")

    used = set()                       # the nodes holding all fields that were read by a constant name
    for node in tree.find_all((nodes.Call, nodes.Getattr, nodes.Getitem)):
        if isinstance(node, nodes.Call) and isinstance(node.node, nodes.Name) and node.node.name == "field":
            if len(node.args) == 1 and isinstance(node.args[0], nodes.Const) and isinstance(node.args[0].value, str):
                names.add(node.args[0].value)
                used.add(id(node.node))
            else:
                return None
        elif isinstance(node, (nodes.Getattr, nodes.Getitem)):
            holder = node.node
            if (isinstance(holder, nodes.Name) and holder.name == "fields") or is_stats(holder):
                key = node.attr if isinstance(node, nodes.Getattr) else \
                    node.arg.value if isinstance(node.arg, nodes.Const) else None
                if not isinstance(key, str):
                    return None
                names.add(key)
                used.add(id(holder))
    for node in tree.find_all(nodes.Name):
        if node.name in ("fields", "field") and id(node) not in used:
            return None
    for node in tree.find_all(nodes.Getattr):
        if is_stats(node) and id(node) not in used:
            return None
    return frozenset(names)


@lru_cache(maxsize=1024)
def plain_name(expression: str) -> str | None:
    """The name ``expression`` is when it is nothing but a name of its scope (``colour``, ``rules``):
    its value is the scope's value for that name as it is (no attribute or item is looked up, so the
    sandbox counts no step), which :func:`_value` takes without a render. None for anything else (a
    literal such as ``none``, an attribute, a call, an expression that does not parse)."""
    from jinja2 import nodes

    try:
        tree = templating.environment((TEMPLATES_DIR / "layouts",)).parse("{{ (" + expression + ") }}")
    except jinja2.TemplateSyntaxError:
        return None
    body = tree.body
    if len(body) == 1 and isinstance(body[0], nodes.Output) and len(body[0].nodes) == 1:
        node = body[0].nodes[0]
        if isinstance(node, nodes.Name) and node.ctx == "load":
            return node.name
    return None


@lru_cache(maxsize=1024)
def names_in(expression: str) -> frozenset:
    """The names ``expression`` reads from its scope (``rules``, ``card``, ``field``...)."""
    from jinja2 import nodes

    tree = templating.environment((TEMPLATES_DIR / "layouts",)).parse("{{ (" + expression + ") }}")
    return frozenset(n.name for n in tree.find_all(nodes.Name) if n.ctx == "load")


def showing(layout: Layout) -> tuple[frozenset, set]:
    """(the region kinds of ``layout``, the scope names its regions show: see :data:`SHOWING`)."""
    kinds, names = set(), set()
    for items in layout.regions:
        region = dict(items)
        kinds.add(region.get("kind"))
        for key in SHOWING:
            value = region.get(key)
            if isinstance(value, str) and not _is_colour(value):
                try:
                    names |= names_in(value)
                except jinja2.TemplateSyntaxError:
                    pass                        # reported when the layout was loaded
    return frozenset(kinds), names


#: :func:`shown_fields` by layout: (the layout, kept so that its id stands for it, and its fields).
_SHOWN: dict = {}


def shown_fields(layout: Layout) -> frozenset | None:
    """The fields the regions of ``layout`` show by name (see :func:`fields_named`), or None when one may
    show any field. The classic layout's rules box and type line show the other ones. Worked out once per
    layout object (a layout is frozen; every face of a deck asks)."""
    found = _SHOWN.get(id(layout))
    if found is not None and found[0] is layout:
        return found[1]
    if len(_SHOWN) >= 256:
        _SHOWN.clear()
    shown = _shown_fields(layout)
    _SHOWN[id(layout)] = (layout, shown)
    return shown


def _shown_fields(layout: Layout) -> frozenset | None:
    names = set()
    for items in layout.regions:
        region = dict(items)
        for key in SHOWING:
            value = region.get(key)
            if isinstance(value, str) and not _is_colour(value):
                try:
                    named = fields_named(value)
                except jinja2.TemplateSyntaxError:
                    continue                        # reported when the layout was loaded
                if named is None:
                    return None
                names |= named
    return frozenset(names)


@reads_files
@lru_cache(maxsize=64)
def bundled(name: str) -> Layout:
    """A bundled layout by name (raises DataError when it is broken: it is pnp's own file)."""
    problems = Problems()
    layout = load_layout(name, None, problems, None, None, "layout")
    problems.raise_if_errors()
    return layout


FUNCTIONS = {"tint": tint, "shade": shade, "readable": readable, "tint_to": tint_to, "product": templating.product}


def evaluate(layout: Layout, context: dict, markup: bool = False, icons=None, report=None) -> list[dict]:
    """The regions of ``layout`` kept for a card (their ``when`` true), every expression evaluated in
    the sandbox over ``context``. A region with ``for`` comes out once per item of its list, ``item``
    and ``index`` in scope, moved by ``offset`` per step (wrapping every ``columns`` items: then
    ``offset`` is one column's and one row's step).

    With ``markup`` every text of ``context`` is markup already (a card's content: data escaped, card
    markup checked), so what a ``text`` or ``label`` expression gives is markup, the layout's literals
    included (``'**VP** ' ~ field('vp')``). Otherwise (a board's facts, as they are) a text from the data
    is printed as written, while the expression's quoted texts are markup, also joined with ``~`` to
    data (:class:`pnp.text.templating.LiteralMarkupSandbox`). A table's cells are texts as a text region's.

    One face (or board piece) is one render for the sandbox's limits (:func:`pnp.text.templating.limits`);
    a region past one is named in the error (with ``report``, reported, and the rest of the piece left).

    Nothing is left out silently: an expression that fails, reads a name that does not exist or gives a
    value of the wrong kind (a colour that is none, an icon region without an icon, a list where a text
    goes) raises :class:`LayoutError`; with ``report(region, key, message)`` it is reported instead and
    the region left out. With ``icons`` (the names the game has) an icon an expression names, in an icon
    region or in a text's markup, must be one of them."""
    with templating.limits():
        return _evaluate(layout, context, markup, icons, report)


def _evaluate(layout: Layout, context: dict, markup: bool, icons, report) -> list[dict]:
    scope = {**FUNCTIONS, **context, "palette": layout.palette_dict()}
    out = []
    for items in layout.regions:
        region = dict(items)
        try:
            out += _evaluate_region(layout, region, scope, markup, icons)
        except _Wrong as exc:
            if report is None:
                raise LayoutError(layout, region["name"], exc.key, exc.text) from None
            report(region["name"], exc.key, exc.text)
        except templating.TemplateLimit as exc:
            if getattr(exc, "region", None) is not None:
                raise
            if report is not None:          # the piece's budget is spent: its other regions are not tried
                report(region["name"], getattr(exc, "key", None), exc.message)
                break
            named = templating.TemplateLimit(f"region '{region.get('name')}': {exc.message}")
            named.region, named.detail = region.get("name"), exc.message
            raise named from None
    return out


#: The kind of a region left out by its ``when:`` that only keeps its place (its ``rect``) for regions
#: drawn ``in:`` it; it draws nothing.
AREA = "area"


def _evaluate_region(layout: Layout, region: dict, scope: dict, markup: bool, icons) -> list[dict]:
    if region.get("for"):
        values = _value(layout, region, "for", scope, markup)
        if not isinstance(values, (list, tuple, range)):
            raise _Wrong("for", f"gives {_kind(values)}; give a list (one copy of the region per item)")
        out = []
        for i, item in enumerate(templating.loop_items(values)):
            one = _one(layout, region, {**scope, "item": item, "index": i}, markup, icons)
            if one is not None:
                out.append(_shifted(one, i))
        return out
    one = _one(layout, region, scope, markup, icons)
    if one is None and "rect" in region:
        # left out by its when:, it still has its place: a region drawn in: it (the badges in the art
        # window) is drawn there, not silently dropped
        return [{"name": region["name"], "kind": AREA, "rect": region["rect"]}]
    return [one] if one is not None else []


def text_problems(layout: Layout, elements, icons, piece: str) -> list[tuple]:
    """(path, line, subject, message) for every text of ``elements`` (a piece drawn by ``layout`` over
    data as it is: a board, a die's face) whose markup names an icon the game does not have, or
    ``[pips:N]`` without a usable N, and every icon region whose icon the game does not have (with the
    closest), at the line of the region that wrote it. Each message once."""
    from pnp.layout.geometry import Icon, Text, flatten

    by_role = {}
    for items in layout.regions:
        region = dict(items)
        by_role.setdefault(region.get("role") or region["name"], region["name"])
    out = {}
    for el in flatten(elements):
        if isinstance(el, Icon) and el.name not in icons:
            name = by_role.get(el.role.split(":", 1)[0], el.role.split(":", 1)[0])
            path, line, written = layout.written(name, "icon")
            out.setdefault((str(path), line, f"layout '{written}', region '{name}'",
                            f"icon: gives {excerpt(el.name)}, which is not an icon; "
                            f"{closest_icon(el.name, icons, False)} ({piece})"), None)
        if not isinstance(el, Text):
            continue
        name = by_role.get(el.role.split(":", 1)[0], el.role.split(":", 1)[0])
        key = text_key(el.role)
        for message in markup_problems(el.markup, icons):
            path, line, written = layout.written(name, key)
            out.setdefault((str(path), line, f"layout '{written}', region '{name}'", f"{key}: {message} ({piece})"),
                           None)
    return list(out)


def fit_problems(layout: Layout, elements, piece: str, skip=()) -> list[tuple]:
    """(path, line, subject, message) for every region and key of ``layout`` that writes a text of
    ``elements`` (a piece it drew: a board, a die's face, a pad's side) not fitting its place at its style's
    smallest size: the first such text, and how many more, at the line that writes it. The regions ``skip``
    names (reported already) are left out. A translation's words are checked so: a word longer in German
    than in French is an error at the layout's line, where its place is given."""
    from pnp.draw.text import fit
    from pnp.layout.geometry import Text, flatten

    by_role = {}
    for items in layout.regions:
        region = dict(items)
        by_role.setdefault(region.get("role") or region["name"], region["name"])
    found: dict = {}
    for el in flatten(elements):
        if not isinstance(el, Text) or not el.markup:
            continue
        base = el.role.split(":", 1)[0]
        name, key = by_role.get(base, base), text_key(el.role)
        if name in skip:
            continue
        result = fit(el.markup, el.style, el.rect.w, el.rect.h)
        if not result.ok:
            found.setdefault((name, key), []).append((el, result))
    out = []
    for (name, key), misfits in found.items():
        el, result = misfits[0]
        more = f"; so do {len(misfits) - 1} more of its texts" if len(misfits) > 1 else ""
        path, line, written = layout.written(name, key)
        out.append((path, line, f"layout '{written}', region '{name}'",
                    f"{key}: {plain_text(el.markup)!r} does not fit its {el.rect.w:.1f} x {el.rect.h:.1f} mm place "
                    f"even at {el.style.min_size or el.style.size:g} pt ({result.reason}){more} ({piece})"))
    return out


#: The region key that writes a text, by the end of its element's role (a text region's own: ``text``).
TEXT_KEYS = {"cell": "rows", "hint": "cells", "value": "cells", "label": "labels", "text": "text"}


def text_key(role: str) -> str:
    """The key of its region that a text element of ``role`` prints (``grid:hint`` -> ``cells``)."""
    return TEXT_KEYS.get(role.rsplit(":", 1)[1], "text") if ":" in role else "text"


class RegionProblems:
    """The problems of layout regions met while every card is checked, each reported once per region
    (with the layout file's line), with how many cards have it and one of them: a mistake in a layout is
    one message, not one per card."""

    def __init__(self, what: str = "card"):
        self.what = what
        self.found: dict = {}           # (layout source, layout name, region, key, text) -> [count, first, layout]

    def for_piece(self, layout: Layout, piece: str):
        """A ``report(region, key, text)`` for :func:`evaluate`, counting ``piece`` once per problem. A
        problem is where it is written: a region a parent layout writes is the parent's, whichever layouts
        extending it the cards use."""
        seen = set()

        def report(region, key, text):
            base = region.split("[", 1)[0]
            k = (*layout.written(base, key), base, key, text)
            if k not in seen:
                seen.add(k)
                self.found.setdefault(k, [0, piece])[0] += 1
        return report

    def report(self, problems) -> None:
        for (path, line, name, region, key, text), (n, first) in self.found.items():
            pieces = f"{self.what} '{first}'" if n == 1 else f"{n} {self.what}s, e.g. {self.what} '{first}'"
            problems.error(path, line, f"layout '{name}', region '{region}'", f"{key + ': ' if key else ''}{text} "
                                                                               f"({pieces})")


class _Wrong(Exception):
    """What is wrong with one key of a region (raised while evaluating it)."""

    def __init__(self, key, text):
        super().__init__(text)
        self.key, self.text = key, text


def _value(layout: Layout, region: dict, key: str, scope: dict, markup: bool = True):
    """The value of ``region``'s expression ``key`` (a ``#rrggbb`` colour as written), its failure a
    :class:`_Wrong` in pnp's words. Without ``markup`` (a scope of data as it is) the expression's quoted
    texts are markup (see :func:`evaluate`)."""
    value = region.get(key)
    if not isinstance(value, str) or _is_colour(value):
        return value
    name = plain_name(value)
    if name is not None and name in scope and not isinstance(scope[name], jinja2.Undefined):
        return scope[name]                      # (a name the scope lacks: the error below)
    try:
        read = names_in(value)
    except jinja2.TemplateSyntaxError:
        read = None                             # compiled() raises it, as the layout's check reported it
    held = _held_key(value, markup, read, scope, key == "when") if read is not None else None
    try:
        if held is not None:
            found = _HELD.get(held)
            # worked out for a face with the same values: it costs this render what working it out did
            if found is not None and templating.spend_again(found[1], found[2]):
                return found[0]
            before = templating.budget_used()
        # the expression sees only the names it reads (no filter of pnp's reads the render's context), so
        # the render copies those, not the face's whole scope
        result = compiled(value, not markup)(**(scope if read is None else
                                                {name: scope[name] for name in read if name in scope}))
        if held is not None and type(result) in _PLAIN and before is not None:
            after = templating.budget_used()
            if after is not None and after[1] == before[1]:         # nothing printed (an expression prints nothing)
                if len(_HELD) >= 4096:
                    _HELD.clear()
                _HELD[held] = (result, after[0] - before[0], after[2] - before[2])
        return result
    except UnknownName as exc:
        raise _Wrong(key, _unknown(exc, scope)) from None
    except (UnknownField, LayoutError) as exc:
        raise _Wrong(key, exc.message) from None
    except templating.TemplateLimit as exc:
        exc.key = key
        raise                                   # the piece's budget: see _evaluate
    except templating.TEMPLATE_ERRORS as exc:
        text = getattr(exc, "message", None) or str(exc) or type(exc).__name__
        if isinstance(exc, (TypeError, ValueError, ArithmeticError, AttributeError, RecursionError)):
            text = f"{excerpt(value)} cannot be worked out ({_plainly(exc, text)})"
        raise _Wrong(key, text) from None


#: Values of layout expressions kept by :func:`_held_key`: (value, the render's steps it took, the characters
#: of text it made).
_HELD: dict = {}
#: The types of values an expression's value is kept for, and of the values of the names it reads: plain
#: values, compared by type and value (a text and the same text as markup are two keys).
_PLAIN = (str, Safe, int, bool, type(None))


def _held_key(expression: str, markup: bool, read, scope: dict, when: bool = False):
    """The key an expression's value is kept under (:data:`_HELD`): the expression, how its texts are taken
    and the type and value of every name it reads, when each is a plain value (:data:`_PLAIN`; a float by
    its repr), the layout's palette (texts) or one of :data:`FUNCTIONS` (pure); else None (a card's
    ``field``, the printed words ``t``, data, a name the scope lacks: worked out each time). Jinja's
    expressions have no side effects, so the same expression over the same values gives the same value;
    one with a filter or another call is never kept (:func:`_keepable`).

    ``when``: the expression is a region's ``when``, whose value only counts as true or false. A name it
    reads only as an operand of ``and``, ``or`` and ``not`` (:func:`_truth_names`) then counts by whether
    its value is true, when that value is a plain one or a list (``rules and flavour``: every card's own
    flavour text, the same truth): the same truths take the same way through the expression, which makes
    no text and takes no step either way, so its value is as true as the one kept (the key says
    ``when``: an expression kept so is never the value of another key)."""
    parts = []
    truth = _truth_names(expression) if when else frozenset()
    for name in sorted(read):
        if name not in scope:
            return None
        value = scope[name]
        kind = type(value)
        if name in truth and (kind in _PLAIN or kind in (list, tuple)):
            parts.append((name, "true" if value else "false"))
        elif kind in _PLAIN:
            parts.append((name, kind, value))
        elif kind is float:
            parts.append((name, kind, repr(value)))
        elif name == "palette" and kind is dict and (colours := _palette_items(value)) is not None:
            parts.append((name, colours))
        elif FUNCTIONS.get(name) is value:
            parts.append((name, "function"))
        else:
            return None
    if not _keepable(expression):
        return None
    return (expression, markup, tuple(parts), "when") if when else (expression, markup, tuple(parts))


#: :func:`_palette_items` of the palettes last seen, by the dict's id (with the dict, so the id stands for it).
_PALETTES: dict = {}


def _palette_items(palette: dict) -> tuple | None:
    """A face's palette (the scope's ``palette``, made for the face by :func:`_evaluate` and only read) as
    a key: its (name, colour) pairs sorted, or None when one is not a text. Worked out once per face,
    not once per expression that reads the palette (eight of the classic layout's)."""
    found = _PALETTES.get(id(palette))
    if found is not None and found[0] is palette:
        return found[1]
    items = tuple(sorted(palette.items())) if all(type(k) is str and type(v) is str
                                                  for k, v in palette.items()) else None
    if len(_PALETTES) >= 64:
        _PALETTES.clear()
    _PALETTES[id(palette)] = (palette, items)
    return items


@lru_cache(maxsize=1024)
def _truth_names(expression: str) -> frozenset:
    """The names ``expression`` reads only for whether they are true: the whole expression, or operands of
    ``and``, ``or`` and ``not`` (down from the top through those alone); a name read anywhere else too
    (``step is none``, ``rules ~ 'x'``, ``card.name``) is not one."""
    from jinja2 import nodes

    tree = templating.environment((TEMPLATES_DIR / "layouts",)).parse("{{ (" + expression + ") }}")
    body = tree.body
    if len(body) != 1 or not isinstance(body[0], nodes.Output) or len(body[0].nodes) != 1:
        return frozenset()
    truth, pending = [], [body[0].nodes[0]]
    while pending:
        node = pending.pop()
        if isinstance(node, (nodes.And, nodes.Or)):
            pending += [node.left, node.right]
        elif isinstance(node, nodes.Not):
            pending.append(node.node)
        elif isinstance(node, nodes.Name) and node.ctx == "load":
            truth.append(node)
    found = {n.name for n in truth}
    elsewhere = {n.name for n in tree.find_all(nodes.Name) if n.ctx == "load" and all(n is not t for t in truth)}
    return frozenset(found - elsewhere)


@lru_cache(maxsize=1024)
def _keepable(expression: str) -> bool:
    """Whether ``expression``'s value depends on the values it reads alone: it uses no filter (some say a
    word in the kit's language, ``random`` draws lots) and calls nothing but :data:`FUNCTIONS`."""
    from jinja2 import nodes

    tree = templating.environment((TEMPLATES_DIR / "layouts",)).parse("{{ (" + expression + ") }}")
    if any(True for _ in tree.find_all(nodes.Filter)):
        return False
    return all(isinstance(call.node, nodes.Name) and call.node.name in FUNCTIONS for call in tree.find_all(nodes.Call))


def _plainly(exc: BaseException, text: str) -> str:
    """Python's words for an operation that failed, in pnp's where a layout's writer is likely to meet
    them: a text joined with ``+`` (Jinja joins texts with ``~``), a division by zero."""
    if isinstance(exc, TypeError) and ("can only concatenate" in text or "operand type(s) for +" in text):
        return "+ adds numbers; join a text and a value with ~, as in 'VP ' ~ field('vp')"
    if isinstance(exc, ZeroDivisionError):
        return "a division by zero"
    return text


def _unknown(exc: UnknownName, scope: dict) -> str:
    """What an :class:`UnknownName` read, in pnp's words, with the closest name that exists."""
    owner, name = exc.owner, str(exc.name)

    def nearest(names, what):
        names = [str(n) for n in names if not str(n).startswith("_")]
        close = closest(name, names)
        return f"; did you mean '{close}'?" if close else f" ({what}: {', '.join(sorted(names)[:16]) or 'none'})"

    if owner is jinja2.utils.missing:
        fields = scope.get("fields")
        if isinstance(fields, FieldValues):         # the deck's own fields first: a bare name is often one
            if name in fields:
                return (f"no value '{name}' in a layout; deck '{fields.deck}' has a field '{name}': write "
                        f"field('{name}')")
            close = closest(name, [*map(str, fields), *scope], builtin=scope)
            if close is not None and close in fields and close not in scope:
                return f"no value '{name}' in a layout; did you mean field('{close}')?"
        return f"no value '{name}' in a layout{nearest(scope, 'a layout sees')}"
    if owner is scope.get("palette"):
        return f"no colour '{name}' in the palette{nearest(owner, 'it has')}"
    if isinstance(owner, dict):
        return f"no key {excerpt(name)} in {excerpt(owner)}{nearest(owner, 'it has')}"
    if dataclasses.is_dataclass(owner):
        kind = type(owner).__name__.lower()
        return f"a {kind} has no '{name}'{nearest([f.name for f in dataclasses.fields(owner)], 'it has')}"
    return f"{_kind(owner)} has no '{name}'"


def _kind(value) -> str:
    if value is None:
        return "nothing (none)"
    kind = {str: "a text", int: "a number", float: "a number", bool: "true/false", list: "a list",
            tuple: "a list", dict: "a mapping"}.get(type(value)) or \
        next((k for t, k in ((str, "a text"), (dict, "a mapping"), (list, "a list")) if isinstance(value, t)),
             type(value).__name__)
    return f"{kind} {excerpt(value)}" if kind in ("a text", "a number", "a list", "a mapping") else kind


#: Keys whose value is a colour.
COLOUR_KEYS = ("fill", "stroke", "colour", "highlight")


def _one(layout: Layout, region: dict, scope: dict, markup: bool = False, icons=None) -> dict | None:
    region = dict(region)
    when = region.get("when")
    if when and not _value(layout, region, "when", scope, markup):
        return None
    for key in EXPRESSIONS[1:]:
        if key not in region:
            continue
        result = _value(layout, region, key, scope, markup)
        if key in ("text", "label"):
            result = _as_markup(result, markup)
        elif key == "rows" and isinstance(result, (list, tuple)):
            # every cell is a text as a text region's: markup where the text region's would be
            result = [[_as_markup(cell, markup) for cell in row] if isinstance(row, (list, tuple)) else row
                      for row in result]
        elif key == "cells" and isinstance(result, (list, tuple)):
            result = [[_cell_markup(cell, markup) for cell in row] if isinstance(row, (list, tuple)) else row
                      for row in result]
        elif key == "labels" and isinstance(result, (list, tuple)):
            result = [_as_markup(label, markup) for label in result]
        region[key] = _checked(region, key, result, icons)
    if isinstance(region.get("style"), str):
        region["style"] = layout.style(region["style"])
    return region


def _as_markup(value, markup: bool):
    """A text an expression gave, as markup: with ``markup`` (a card's content, data escaped already) the
    text is markup as it is; otherwise only what is marked :class:`Safe` is (the layout's quoted texts,
    printed words), anything else is data and escaped. Numbers and other values are left to
    :func:`_checked`."""
    if isinstance(value, str) and not isinstance(value, Safe):
        return Safe(value) if markup else escape(value)
    return value


def _cell_markup(cell, markup: bool):
    """A cell of a ``boxes`` region with its texts as markup (see :func:`_as_markup`): a text, or a mapping's
    ``text`` and ``value``."""
    if isinstance(cell, dict):
        items = {k: _as_markup(v, markup) if k in ("text", "value") else v for k, v in cell.items()}
        return cell.copy_with(items) if hasattr(cell, "copy_with") else items   # a data file's: where it is
    return _as_markup(cell, markup)


def _checked_cells(value, icons):
    """The ``cells`` of a ``boxes`` region: rows of cells, each nothing, a text or a number (a hint), or a
    mapping of :data:`pnp.layout.writein.CELL_KEYS` (an icon named by its ``icon``)."""
    if not (isinstance(value, (list, tuple)) and all(isinstance(r, (list, tuple)) for r in value)):
        raise _Wrong("cells", f"gives {_kind(value)}; give a list of rows, each a list of cells")
    for r, row in enumerate(value):
        for c, cell in enumerate(row):
            at = f"row {r + 1}, cell {c + 1}" + (f" ({cell.source})" if getattr(cell, "source", "") else "")
            if isinstance(cell, dict):
                for k, v in cell.items():
                    if k not in CELL_KEYS:
                        close = closest(str(k), CELL_KEYS)
                        hint = f"; did you mean '{close}'?" if close else f" (a cell gives {', '.join(CELL_KEYS)})"
                        raise _Wrong("cells", f"{at}: no key {excerpt(k)} in a cell{hint}")
                    if k == "icon" and v:
                        name = plain_text(v) if isinstance(v, Safe) else v
                        if not isinstance(name, str):
                            raise _Wrong("cells", f"{at}: icon gives {_kind(name)}, not an icon's name")
                        if icons is not None and name not in icons:
                            raise _Wrong("cells", f"{at}: icon {excerpt(name)} is not an icon; "
                                                  f"{closest_icon(name, icons, False)}")
                        cell[k] = name
                    elif k in ("text", "value") and isinstance(v, str) and icons is not None:
                        wrong = markup_problems(v, icons)
                        if wrong:
                            raise _Wrong("cells", f"{at}: {wrong[0]}")
            elif isinstance(cell, (bool, list, tuple, set)):
                raise _Wrong("cells", f"{at} gives {_kind(cell)}; a cell is a text, or a mapping of "
                                      f"{', '.join(CELL_KEYS)}")
            elif isinstance(cell, str) and icons is not None:
                wrong = markup_problems(cell, icons)
                if wrong:
                    raise _Wrong("cells", f"{at}: {wrong[0]}")
    return value


def _checked(region: dict, key: str, value, icons):
    """``value`` of ``region``'s ``key`` as drawing takes it, or a :class:`_Wrong` saying why it cannot be."""
    if key in COLOUR_KEYS:
        if isinstance(value, Safe):                 # a colour from escaped data: the text as written
            value = plain_text(value)
        if value is not None and not (isinstance(value, str) and _HEX.fullmatch(value)):
            raise _Wrong(key, f"gives {_kind(value)}, which is not a colour ('#rrggbb')")
        return value
    if key == "icon":
        value = plain_text(value) if isinstance(value, Safe) else value
        if value is None or value == "":
            raise _Wrong(key, f"gives {_kind(value)}: an icon region needs an icon's name (to leave the region "
                              f"out, give it a when:)")
        if not isinstance(value, str):
            raise _Wrong(key, f"gives {_kind(value)}, not an icon's name")
        if icons is not None and value not in icons:
            raise _Wrong(key, f"gives {excerpt(value)}, which is not an icon; {closest_icon(value, icons, False)}")
        return value
    if key in ("text", "label"):
        if isinstance(value, (bool, list, tuple, dict, set)):
            raise _Wrong(key, f"gives {_kind(value)}; a {'text region' if key == 'text' else 'label'} prints a text or "
                              f"a number")
        if key == "text" and icons is not None and isinstance(value, str):
            wrong = markup_problems(value, icons)
            if wrong:
                raise _Wrong(key, wrong[0])
        return value
    if key == "cells":
        return _checked_cells(value, icons)
    if key == "labels":
        if not isinstance(value, (list, tuple)) or any(isinstance(v, (bool, list, tuple, dict, set)) for v in value):
            raise _Wrong(key, f"gives {_kind(value)}; give a list of labels, each a text")
        for label in value:
            wrong = markup_problems(label, icons) if icons is not None and isinstance(label, str) else ()
            if wrong:
                raise _Wrong(key, wrong[0])
        return value
    if key == "numbers" and not isinstance(value, (list, tuple, range)):
        raise _Wrong(key, f"gives {_kind(value)}; give a list of numbers")
    if key == "rows":
        if not (isinstance(value, (list, tuple)) and all(isinstance(r, (list, tuple)) for r in value)):
            raise _Wrong(key, f"gives {_kind(value)}; give a list of rows, each a list of cells")
        if icons is not None:
            for row in value:
                for cell in row:
                    wrong = markup_problems(cell, icons) if isinstance(cell, str) else ()
                    if wrong:
                        raise _Wrong(key, wrong[0])
    return value


_HEX = re.compile(r"#[0-9a-fA-F]{6}")


def _shifted(region: dict, index: int) -> dict:
    """A repeated region moved by its ``offset`` for the ``index``-th item."""
    dx, dy = region.get("offset") or (0.0, 0.0)
    columns = region.get("columns")
    positions = region.get("positions")
    if positions:
        mx, my = positions[index] if index < len(positions) else positions[-1]
    elif columns:
        mx, my = dx * (index % columns), dy * (index // columns)
    else:
        mx, my = dx * index, dy * index
    region = dict(region, name=f"{region['name']}[{index}]", role=region.get("role") or region["name"])
    if "rect" in region:
        x, y, w, h = region["rect"]
        region["rect"] = [x + mx, y + my, w, h]
    for key in ("at", "from", "to"):
        if key in region:
            x, y = region[key]
            region[key] = [x + mx, y + my]
    return region


# ----------------------------------------------------------------------------- a card's face

#: Between the labels of a card's type line.
LABEL_SEPARATOR = " \u00b7 "


def generic_values(content: FaceContent, layout) -> dict:
    """What a layout's generic regions show (the classic layout's rules box and type line): the fields
    that no other region of ``layout`` shows by name (:func:`shown_fields`).

    ``rules``: the ability text, then each such text field, one per line (markup). ``labels``: such
    choice, list, flag and plain number values as printed. ``type_line``: the rank's (or category's)
    name, then the labels, joined by a middle dot."""
    shown = shown_fields(layout)
    texts = [markup for name, markup in content.texts if shown is not None and name not in shown]
    labels = [label for name, label in content.labels if shown is not None and name not in shown]
    rules = "\n".join(([content.ability] if content.ability else []) + texts)
    type_line = LABEL_SEPARATOR.join(([content.rank_name] if content.rank_name else []) + labels)
    return {"rules": Safe(rules), "labels": labels, "type_line": Safe(type_line)}


def card_face(content: FaceContent, w: float, h: float, bleed: float = 0.0, layout=None, regions=None) -> list:
    """Elements of one face in the card's frame (origin at the trim corner), as the ``layout`` (a
    :class:`Layout`; default: the bundled ``classic``) places them; the frame colour
    runs ``bleed`` mm past the trim line. ``regions``: the layout's regions evaluated (:func:`evaluate`) over
    ``content`` already (the card's check), else they are evaluated here."""
    layout = layout or bundled("classic")
    if regions is None:
        regions = evaluate(layout, face_scope(content, layout), markup=True)
    return place(regions, layout.size, w, h, content, bleed)


def face_scope(content: FaceContent, layout) -> dict:
    """Everything ``layout``'s expressions see of a face: :func:`pnp.layout.cards.face_context` and
    :func:`generic_values`."""
    return {**face_context(content), **generic_values(content, layout)}
