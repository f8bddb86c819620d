"""Vector icons, drawn from shapes (never a symbol font) so they print crisply at any size.

Every icon is a function ``(canvas, cx, cy, size, colour, label)`` in points, centred on (cx, cy),
``size`` across. :data:`ICONS` maps pnp's generic names (``heater``, ``coin``, ...) to them; a game's
own SVG icons and its names for icons (:mod:`pnp.loading.icons`) are resolved by :func:`draw` through the
active icon set (:func:`using`). Icons that carry a number (stat badges) draw ``label`` on themselves.
A built-in icon is drawn once per PDF for each size and colour, as a form XObject placed wherever it
appears (see :func:`_builtin_form`).
"""

from __future__ import annotations

import math

import functools
from contextlib import contextmanager
from contextvars import ContextVar

from reportlab.lib.colors import HexColor, white

from pnp.text import typography
from pnp.draw import fonts
from pnp.draw.labels import OUTLINE, LabelInk, label_ink
from pnp.draw.pictures import draw_picture
from pnp.loading.icons import BUILTIN, IconSet
from pnp.units import MIN_TEXT_PT

INK = "#1f1a17"
GOLD = "#d9a520"
GOLD_DARK = "#8c6410"
SEAL = "#5a3d8a"
SHIELD = "#34495e"
PURSE = "#7a5530"
BONE = "#f4efe4"
#: The digits on a coin: a dark brown a press prints within 240 % ink (#3d2a05 was ΔE 9 off in CMYK).
COIN_DIGITS = "#4a3510"


def _colour(value, default):
    return HexColor(value or default)


def _label(c, cx, cy, size, label, colour="#ffffff", scale=0.56, font="sans-black", default=None, on=None):
    """``label`` centred on (cx, cy), in ``colour`` unless what it is printed ``on`` (the icon: its
    ``(key, draw, cx, cy, size)``) makes that unreadable (:func:`pnp.draw.labels.label_ink`)."""
    labels = _FORM_LABELS.get()
    if labels is not None:      # drawing an icon's form: its label is painted where the icon is placed
        labels.append((cx, cy, size, colour, scale, font, default))
        return
    if label is None or label == "":
        label = default
    if label is None or label == "":
        return
    name = fonts.font_name(font)
    # never below the smallest printed text, even on a small inline badge (the digits then fill it)
    fs = max(MIN_TEXT_PT, size * scale * (0.86 if len(str(label)) > 2 else 1.0))
    text = str(label)
    ink = LabelInk(fs, colour)
    if on is not None:
        key, draw_icon, icx, icy, isize = on
        ink = label_ink(key, draw_icon, text, fonts.FILES[name], cx - icx, cy - icy, fs, isize, colour, MIN_TEXT_PT)
        fs = ink.fs
    # optically centre digits: cap height of Lato is about 0.72 em
    x, y = cx - fonts.width(text, name, fs) / 2, cy - fs * 0.36
    if ink.outline:
        c.saveState()
        c.setStrokeColor(HexColor(ink.outline))
        c.setLineWidth(2 * OUTLINE * fs)
        c.setLineJoin(1)
        t = c.beginText(x, y)
        t.setFont(name, fs)
        t.setCharSpace(0)
        t.setTextRenderMode(1)      # the glyphs' outline only, under the fill drawn next
        t.textOut(text)
        c.drawText(t)
        c.restoreState()
    c.setFillColor(HexColor(ink.fill))
    t = c.beginText(x, y)
    t.setFont(name, fs)
    t.setCharSpace(0)  # Tc outlives text objects in PDF; never inherit another text's tracking
    t.textOut(text)
    c.drawText(t)


def coin(c, cx, cy, size, colour=None, label=None):
    r = size / 2
    c.setFillColor(_colour(colour, GOLD))
    c.setStrokeColor(HexColor(GOLD_DARK))
    c.setLineWidth(size * 0.06)
    c.circle(cx, cy, r * 0.94, stroke=1, fill=1)
    c.setLineWidth(size * 0.025)
    c.circle(cx, cy, r * 0.72, stroke=1, fill=0)
    _label(c, cx, cy, size, label, colour=COIN_DIGITS)


def seal(c, cx, cy, size, colour=None, label=None):
    """A wax seal: a scalloped disc."""
    r = size / 2
    bumps = 12
    p = c.beginPath()
    for i in range(bumps * 2 + 1):
        a = math.pi * 2 * i / (bumps * 2)
        rr = r * (0.98 if i % 2 == 0 else 0.84)
        x, y = cx + rr * math.cos(a), cy + rr * math.sin(a)
        p.moveTo(x, y) if i == 0 else p.lineTo(x, y)
    p.close()
    c.setFillColor(_colour(colour, SEAL))
    c.drawPath(p, stroke=0, fill=1)
    c.setStrokeColor(white)
    c.setLineWidth(size * 0.025)
    c.circle(cx, cy, r * 0.66, stroke=1, fill=0)
    _label(c, cx, cy, size, label)


def heater(c, cx, cy, size, colour=None, label=None):
    """A heater shield."""
    w, h = size * 0.86, size
    top = cy + h / 2
    p = c.beginPath()
    p.moveTo(cx - w / 2, top)
    p.lineTo(cx + w / 2, top)
    p.lineTo(cx + w / 2, cy + h * 0.05)
    p.curveTo(cx + w / 2, cy - h * 0.28, cx + w * 0.18, cy - h * 0.42, cx, cy - h / 2)
    p.curveTo(cx - w * 0.18, cy - h * 0.42, cx - w / 2, cy - h * 0.28, cx - w / 2, cy + h * 0.05)
    p.close()
    c.setFillColor(_colour(colour, SHIELD))
    c.setStrokeColor(HexColor("#1c2833"))
    c.setLineWidth(size * 0.04)
    c.drawPath(p, stroke=1, fill=1)
    _label(c, cx, cy + size * 0.06, size, label)


def purse(c, cx, cy, size, colour=None, label=None):
    """A tied coin pouch: consolation gold."""
    r = size / 2
    p = c.beginPath()
    neck_y = cy + r * 0.55
    p.moveTo(cx - r * 0.28, neck_y)
    p.curveTo(cx - r * 1.0, cy + r * 0.2, cx - r * 1.0, cy - r * 0.95, cx, cy - r * 0.95)
    p.curveTo(cx + r * 1.0, cy - r * 0.95, cx + r * 1.0, cy + r * 0.2, cx + r * 0.28, neck_y)
    p.close()
    c.setFillColor(_colour(colour, PURSE))
    c.setStrokeColor(HexColor("#3e2a15"))
    c.setLineWidth(size * 0.04)
    c.drawPath(p, stroke=1, fill=1)
    # the gathered top
    q = c.beginPath()
    q.moveTo(cx - r * 0.28, neck_y)
    q.lineTo(cx - r * 0.55, cy + r * 0.95)
    q.lineTo(cx + r * 0.55, cy + r * 0.95)
    q.lineTo(cx + r * 0.28, neck_y)
    q.close()
    c.drawPath(q, stroke=1, fill=1)
    c.setStrokeColor(HexColor(GOLD))
    c.setLineWidth(size * 0.07)
    c.line(cx - r * 0.36, neck_y, cx + r * 0.36, neck_y)
    _label(c, cx, cy - r * 0.18, size * 0.92, label)


def gem(c, cx, cy, size, colour=None, label=None):
    """A faceted gem: a card's value."""
    r = size / 2
    pts = [(cx - r * 0.62, cy + r * 0.62), (cx + r * 0.62, cy + r * 0.62), (cx + r * 0.95, cy + r * 0.12),
           (cx, cy - r * 0.95), (cx - r * 0.95, cy + r * 0.12)]
    p = c.beginPath()
    p.moveTo(*pts[0])
    for pt in pts[1:]:
        p.lineTo(*pt)
    p.close()
    c.setFillColor(_colour(colour, "#8a2432"))
    c.setStrokeColor(HexColor("#4a1119"))
    c.setLineWidth(size * 0.04)
    c.drawPath(p, stroke=1, fill=1)
    _label(c, cx, cy + r * 0.05, size * 0.95, label)


def skull(c, cx, cy, size, colour=None, label=None):
    r = size / 2
    c.setFillColor(_colour(colour, BONE))
    c.setStrokeColor(HexColor(INK))
    c.setLineWidth(size * 0.04)
    c.circle(cx, cy + r * 0.15, r * 0.72, stroke=1, fill=1)
    c.roundRect(cx - r * 0.42, cy - r * 0.85, r * 0.84, r * 0.6, r * 0.12, stroke=1, fill=1)
    c.setFillColor(HexColor(INK))
    c.circle(cx - r * 0.3, cy + r * 0.12, r * 0.19, stroke=0, fill=1)
    c.circle(cx + r * 0.3, cy + r * 0.12, r * 0.19, stroke=0, fill=1)
    p = c.beginPath()
    p.moveTo(cx, cy - r * 0.12)
    p.lineTo(cx - r * 0.1, cy - r * 0.3)
    p.lineTo(cx + r * 0.1, cy - r * 0.3)
    p.close()
    c.drawPath(p, stroke=0, fill=1)
    c.setLineWidth(size * 0.035)
    for dx in (-0.2, 0.0, 0.2):
        c.line(cx + r * dx, cy - r * 0.55, cx + r * dx, cy - r * 0.85)
    _label(c, cx, cy + r * 0.6, size * 0.55, label, colour=INK)      # on the brow, above the eyes


def cycle(c, cx, cy, size, colour=None, label=None):
    """Two arrows chasing each other round a circle."""
    r = size * 0.36
    col = _colour(colour, "#b5842a")
    c.setStrokeColor(col)
    c.setFillColor(col)
    c.setLineWidth(size * 0.11)
    for start in (20, 200):
        p = c.beginPath()
        p.arc(cx - r, cy - r, cx + r, cy + r, start, 130)
        c.drawPath(p, stroke=1, fill=0)
        end = math.radians(start + 130)
        ex, ey = cx + r * math.cos(end), cy + r * math.sin(end)
        tx, ty = -math.sin(end), math.cos(end)          # direction of travel
        nx, ny = math.cos(end), math.sin(end)
        a = size * 0.2
        h = c.beginPath()
        h.moveTo(ex + tx * a, ey + ty * a)
        h.lineTo(ex + nx * a * 0.8, ey + ny * a * 0.8)
        h.lineTo(ex - nx * a * 0.8, ey - ny * a * 0.8)
        h.close()
        c.drawPath(h, stroke=0, fill=1)
    _label(c, cx, cy, size * 0.8, label, colour=INK)


def plus(c, cx, cy, size, colour=None, label=None):
    c.setFillColor(_colour(colour, "#3b7d4f"))
    c.setStrokeColor(white)
    c.setLineWidth(size * 0.05)
    c.circle(cx, cy, size * 0.47, stroke=1, fill=1)
    _label(c, cx, cy, size, label, scale=0.5, default="+1")


def pip(c, cx, cy, size, colour=None, label=None):
    """A rank pip: a small diamond."""
    r = size * 0.42
    p = c.beginPath()
    p.moveTo(cx, cy + r)
    p.lineTo(cx + r * 0.8, cy)
    p.lineTo(cx, cy - r)
    p.lineTo(cx - r * 0.8, cy)
    p.close()
    c.setFillColor(_colour(colour, INK))
    c.drawPath(p, stroke=0, fill=1)


def step(c, cx, cy, size, colour=None, label=None):
    """A resolution-step badge: a dark disc with the step number."""
    c.setFillColor(_colour(colour, INK))
    c.circle(cx, cy, size * 0.48, stroke=0, fill=1)
    _label(c, cx, cy, size, label, scale=0.66, font="sans-black")


def crown(c, cx, cy, size, colour=None, label=None):
    w, h = size, size * 0.72
    base = cy - h / 2
    p = c.beginPath()
    p.moveTo(cx - w / 2, base)
    p.lineTo(cx + w / 2, base)
    p.lineTo(cx + w / 2, base + h * 0.72)
    p.lineTo(cx + w * 0.25, base + h * 0.38)
    p.lineTo(cx, base + h)
    p.lineTo(cx - w * 0.25, base + h * 0.38)
    p.lineTo(cx - w / 2, base + h * 0.72)
    p.close()
    c.setFillColor(_colour(colour, INK))
    c.drawPath(p, stroke=0, fill=1)
    for x, y in ((cx - w / 2, base + h * 0.72), (cx, base + h), (cx + w / 2, base + h * 0.72)):
        c.circle(x, y + size * 0.05, size * 0.07, stroke=0, fill=1)
    _label(c, cx, base + h * 0.3, size * 0.8, label)


def star(c, cx, cy, size, colour=None, label=None):
    r_out, r_in = size / 2, size * 0.2
    p = c.beginPath()
    for i in range(11):
        a = math.pi / 2 + i * math.pi / 5
        r = r_out if i % 2 == 0 else r_in
        x, y = cx + r * math.cos(a), cy + r * math.sin(a)
        p.moveTo(x, y) if i == 0 else p.lineTo(x, y)
    p.close()
    c.setFillColor(_colour(colour, INK))
    c.drawPath(p, stroke=0, fill=1)
    _label(c, cx, cy - size * 0.04, size * 0.7, label)


def sun(c, cx, cy, size, colour=None, label=None):
    col = _colour(colour, INK)
    c.setFillColor(col)
    rays = 12
    p = c.beginPath()
    for i in range(rays * 2 + 1):
        a = math.pi * 2 * i / (rays * 2)
        r = size / 2 if i % 2 == 0 else size * 0.3
        x, y = cx + r * math.cos(a), cy + r * math.sin(a)
        p.moveTo(x, y) if i == 0 else p.lineTo(x, y)
    p.close()
    c.drawPath(p, stroke=0, fill=1)
    c.circle(cx, cy, size * 0.24, stroke=0, fill=1)
    _label(c, cx, cy, size * 0.8, label)


def circle(c, cx, cy, size, colour=None, label=None):
    c.setFillColor(_colour(colour, INK))
    c.circle(cx, cy, size * 0.45, stroke=0, fill=1)
    _label(c, cx, cy, size, label)


def square(c, cx, cy, size, colour=None, label=None):
    c.setFillColor(_colour(colour, INK))
    c.rect(cx - size * 0.42, cy - size * 0.42, size * 0.84, size * 0.84, stroke=0, fill=1)
    _label(c, cx, cy, size, label)


def _polygon(c, points, colour):
    p = c.beginPath()
    p.moveTo(*points[0])
    for point in points[1:]:
        p.lineTo(*point)
    p.close()
    c.setFillColor(_colour(colour, INK))
    c.drawPath(p, stroke=0, fill=1)


def diamond(c, cx, cy, size, colour=None, label=None):
    r = size / 2
    _polygon(c, [(cx, cy + r), (cx + r * 0.75, cy), (cx, cy - r), (cx - r * 0.75, cy)], colour)
    _label(c, cx, cy, size, label)


def triangle(c, cx, cy, size, colour=None, label=None):
    r = size / 2
    _polygon(c, [(cx, cy + r * 0.95), (cx + r * 0.95, cy - r * 0.75), (cx - r * 0.95, cy - r * 0.75)], colour)
    _label(c, cx, cy - r * 0.15, size * 0.8, label)


def hexagon(c, cx, cy, size, colour=None, label=None):
    r = size / 2
    _polygon(c, [(cx + r * math.cos(math.radians(90 + 60 * k)), cy + r * math.sin(math.radians(90 + 60 * k)))
                 for k in range(6)], colour)
    _label(c, cx, cy, size, label)


def heart(c, cx, cy, size, colour=None, label=None):
    r = size / 2
    p = c.beginPath()
    p.moveTo(cx, cy - r * 0.9)
    p.curveTo(cx - r * 0.35, cy - r * 0.45, cx - r * 1.0, cy - r * 0.1, cx - r * 0.95, cy + r * 0.35)
    p.curveTo(cx - r * 0.9, cy + r * 0.95, cx - r * 0.15, cy + r * 0.95, cx, cy + r * 0.45)
    p.curveTo(cx + r * 0.15, cy + r * 0.95, cx + r * 0.9, cy + r * 0.95, cx + r * 0.95, cy + r * 0.35)
    p.curveTo(cx + r * 1.0, cy - r * 0.1, cx + r * 0.35, cy - r * 0.45, cx, cy - r * 0.9)
    p.close()
    c.setFillColor(_colour(colour, INK))
    c.drawPath(p, stroke=0, fill=1)
    _label(c, cx, cy, size, label)


def tick_box(c, cx, cy, size, colour=None, label=None):
    """An empty square to tick (a checklist's box): an outline, so a pen's mark shows in it."""
    c.setStrokeColor(_colour(colour, INK))
    c.setLineWidth(max(0.4, size * 0.07))
    side = size * 0.72
    c.rect(cx - side / 2, cy - side / 2, side, side, stroke=1, fill=0)
    _label(c, cx, cy, size, label, colour=INK)       # an empty box: its number in ink, as its outline


#: pnp's built-in icons by name (a game names its own meanings for them in game.yaml's ``icons:``,
#: e.g. ``power: heater``). :data:`pnp.text.icon_names.ICON_NAMES` lists the same names.
ICONS = {
    "coin": coin, "seal": seal, "heater": heater, "purse": purse, "skull": skull, "gem": gem,
    "cycle": cycle, "plus": plus, "pip": pip, "step": step, "crown": crown, "star": star, "sun": sun,
    "circle": circle, "square": square, "diamond": diamond, "triangle": triangle, "hexagon": hexagon,
    "heart": heart, "tick_box": tick_box,
}

#: Icons that are wider than tall when drawn inline (width as a multiple of size).
INLINE_WIDTH = {"crown": 1.0}

_ACTIVE: ContextVar = ContextVar("pnp_icons", default=BUILTIN)
#: While an icon's form is drawn: where its labels are collected (see :func:`_builtin_form`).
_FORM_LABELS: ContextVar = ContextVar("pnp_icon_form_labels", default=None)


@contextmanager
def using(icon_set: IconSet | None, lang: str | None = None, spelling: str | None = None, names=()):
    """Draw with ``icon_set`` (a game's icons) inside the block; the built-in icons otherwise. With
    ``lang``, texts are set in that language's typography too (quotes, hyphenation in ``spelling``, the
    words of ``names`` never broken: :func:`pnp.text.typography.language`)."""
    token = _ACTIVE.set(icon_set or BUILTIN)
    try:
        if lang:
            with typography.language(lang, spelling, names):
                yield
        else:
            yield
    finally:
        _ACTIVE.reset(token)


def for_game(game, lang: str | None = None):
    """:func:`using` ``game``'s icons and its typography: its language (or ``lang``), its spelling's
    hyphenation and its names, never hyphenated."""
    lang = lang or getattr(game, "language", None)
    spelling = getattr(game, "hyphenation", None) if lang == getattr(game, "language", None) else None
    return using(getattr(game, "icons", None), lang, spelling, getattr(game, "printed_names", ()))


def with_game_icons(func):
    """Decorate ``func(game, ...)`` to run with ``game``'s icons and language active (component builds
    and checks, so a direct call lays out and measures text as a build does)."""
    @functools.wraps(func)
    def wrapper(game, *args, **kwargs):
        with for_game(game):
            return func(game, *args, **kwargs)
    return wrapper


def active() -> IconSet:
    """The icon set names resolve in: the game's being built (see :func:`using`)."""
    return _ACTIVE.get()


def inline_width(name: str) -> float:
    """An icon's width in text, as a multiple of its height."""
    ref = active().resolve(name)
    if ref is None:
        return 1.0
    return ref.aspect if ref.kind == "svg" else INLINE_WIDTH.get(ref.target, 1.0)


def drawable(name: str) -> bool:
    return active().resolve(name) is not None


def draw(c, name: str, cx: float, cy: float, size: float, colour=None, label=None):
    """Draw the icon ``name`` (the active set's: the game's own, its names for built-ins, the built-ins)
    centred on (cx, cy), ``size`` points tall; ``colour`` (or the colour the data gives the name)
    recolours it, ``label`` is printed on it. An unknown name draws nothing (validation reports it)."""
    ref = active().resolve(name)
    if ref is None:
        return
    colour = colour or ref.colour
    if ref.kind == "builtin":
        form, labels = _builtin_form(c, ref.target, size, colour)
        c.saveState()
        c.translate(cx, cy)
        c.doForm(form)
        c.restoreState()
        if (label is not None and label != "") or any(default for *_, default in labels):
            on = (("builtin", ref.target, colour), _shape(ref.target, colour), cx, cy, size)
            for dx, dy, label_size, *args in labels:
                _label(c, cx + dx, cy + dy, label_size, label, *args, on=on)
        return
    w = size * ref.aspect
    draw_picture(c, ref.target, (cx - w / 2, cy - size / 2, w, size), "contain", colour=colour)
    if label is not None and label != "":
        _label(c, cx, cy, size, label, on=(("svg", ref.target, colour), _picture(ref.target, ref.aspect, colour),
                                           cx, cy, size))


def _shape(target: str, colour):
    """A built-in icon drawn without its label: ``(canvas, cx, cy, size)``, for measuring (see
    :mod:`pnp.draw.labels`)."""
    def draw_shape(c, cx, cy, size):
        token = _FORM_LABELS.set([])           # its label's place is not wanted here
        try:
            ICONS[target](c, cx, cy, size, colour, None)
        finally:
            _FORM_LABELS.reset(token)
    return draw_shape


def _picture(path: str, aspect: float, colour):
    def draw_svg(c, cx, cy, size):
        w = size * aspect
        draw_picture(c, path, (cx - w / 2, cy - size / 2, w, size), "contain", colour=colour)
    return draw_svg


def _builtin_form(c, target: str, size: float, colour) -> tuple[str, list]:
    """(name, labels) of a form XObject holding the built-in icon ``target`` centred on its origin, and
    where its label goes (the offset from the centre, then :func:`_label`'s other arguments).

    Each size and colour of an icon is drawn into the PDF once per canvas and placed wherever it
    appears (a kit paints the same coins and seals hundreds of times, and every circle is four bezier
    curves to write). Labels stay out of the form: they differ from one placement to the next, and text
    placed on the page as it always was lands on the same pixels in a viewer. Names count the canvas's
    forms: the same pages give the same file."""
    forms = c.__dict__.setdefault("_pnp_icon_forms", {})
    key = (target, size, colour)
    if key not in forms:
        name = f"pnpicon{len(forms)}"
        reach = 2 * size + 4 * MIN_TEXT_PT      # the form's box clips: leave room for wide strokes
        labels = []
        token = _FORM_LABELS.set(labels)
        try:
            c.beginForm(name, -reach, -reach, reach, reach)
            ICONS[target](c, 0.0, 0.0, size, colour, None)
            c.endForm()
        finally:
            _FORM_LABELS.reset(token)
        forms[key] = name, labels
    return forms[key]
