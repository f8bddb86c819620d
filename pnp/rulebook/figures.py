"""Figures in rulebooks: pieces drawn by pnp itself, from the same layout code as the printed pieces.

A chapter template calls ``figure.card('outlaw')``, ``figure.hand([...])``, ``figure.die('orc', 5)``,
``figure.token('gold_1')``, ``figure.map(around='0707', pieces={...})``, ``figure.board('board',
around=['score'], ...)``, ``figure.track(markers={...})`` or ``figure.grid([0, 4, 8])``. Each call
lays the piece out with its component's own code (a card's face is :func:`pnp.components.cards.laid_out_face`,
a map excerpt is :func:`pnp.components.hexmap.map_layout` clipped round a hex), so a figure cannot drift
from what is printed, and returns a placeholder line (``!figure N``) that the rulebook's layout turns
into the drawing, scaled, with its caption. A figure call stands on a line of its own; figures on
consecutive lines make a row, side by side. Templates never touch a file: they get placeholders and
the drawings stay here.

A figure naming something the game does not have is a validation problem at the template's file and
line, with the closest name; its placeholder draws nothing.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field, fields, replace

from pnp.suggest import closest
from pnp.loading.paths import excerpt
from pnp.errors import Problems
from pnp.layout.geometry import Box, Circle, Group, Icon, Line, Polygon, Rect, Text, Transform
from pnp.layout.geometry import Style as _Style
from pnp.text.markup import Safe, escape

#: How a figure's placeholder line starts (the rulebook directive that draws it).
DIRECTIVE = "figure"
#: Default scales: a card at half size fits two or three across a booklet page.
CARD_SCALE = 0.5
MARK_INK = "#1f1a17"
HIGHLIGHT = "#c0392b"
OUTLINE = "#8a8178"
#: The sides ``figure.card`` and ``figure.hand`` draw: a card's face, its side B (a double-sided card), its back.
SIDES = ("a", "b", "front", "back")


@dataclass(frozen=True)
class Drawing:
    """A figure as layout data: ``elements`` in mm in a ``width`` x ``height`` frame (origin lower
    left), drawn at ``scale``, with a markup ``caption`` below it (may be empty)."""

    elements: tuple
    width: float
    height: float
    scale: float = 1.0
    caption: str = ""
    kind: str = ""
    where: tuple = field(default=(None, None), compare=False, repr=False)   # (template, line) of its call


#: The smallest a figure's own words (a map's labels, a board's, a track's numbers) may print, in points.
MIN_LABEL_PT = 6.0
#: Figures of a piece drawn at scale (a card, a hand, a die, a token): their words are the piece's, set
#: small with it, not the figure's own.
PIECE_FIGURES = frozenset({"card", "hand", "die", "token", "placed"})
#: Room (mm, on the card) a hand figure leaves between a card's printed name and the next card.
NAME_GAP = 2.5
#: Parts of a figure that are pieces drawn at scale (a card of a hand, a token or a die laid on a board).
PIECE_ROLES = ("figure-card", "token:", "placed:")


def labels(drawing: Drawing) -> list[tuple[Text, float]]:
    """The figure's own words: each text of a map, board or track figure (inside its clip) with the scale
    it is drawn at in the figure's frame (before the drawing's ``scale``); none in a figure of a piece
    drawn at scale, nor in a piece laid on a figure."""
    if drawing.kind in PIECE_FIGURES:
        return []
    out = []

    def walk(elements, k: float, clip):
        for e in elements:
            if isinstance(e, Transform):
                if e.role.startswith(PIECE_ROLES):
                    continue
                a, b, c, d = e.matrix[:4]
                walk(e.elements, k * abs(a * d - b * c) ** 0.5, e.clip)
            elif isinstance(e, Group):
                walk(e.elements, k, e.clip or (clip.moved(-e.dx, -e.dy) if clip else None))
            elif isinstance(e, Text) and e.markup and (clip is None or clip.overlaps(e.rect)):
                out.append((e, k))

    walk(drawing.elements, 1.0, None)
    return out


def _name_right(face, name: str) -> float:
    """Where (mm from the card's left edge) the ink of a card face's printed name ends; 0 when the face
    prints no text that is its name (a back)."""
    from pnp.draw.text import ink_rect
    from pnp.text.markup import plain_text

    right = 0.0
    for e in face:
        if isinstance(e, Text) and plain_text(e.markup).strip().lower() == name.strip().lower():
            ink = ink_rect(e.rect, e.markup, e.style)
            if ink is not None:
                right = max(right, ink.right)
    return right


def _near(rect: Rect, centres, s: float) -> bool:
    """Whether ``rect``'s centre lies within half a hex (``s`` across) of one of ``centres``."""
    return any(abs(rect.cx - x) < s / 2 and abs(rect.cy - y) < s / 2 for x, y in centres)


def _legible(e, scale: float):
    """A map's word set large enough to print at :data:`MIN_LABEL_PT` or more in a figure drawn at
    ``scale``: its size (and smallest size) raised, its box grown round its centre as much; other
    elements as they are."""
    if not isinstance(e, Text) or scale <= 0:
        return e
    least = MIN_LABEL_PT / scale
    small = min(e.style.size, e.style.min_size if e.style.min_size is not None else e.style.size)
    if small >= least - 1e-9:
        return e
    k = least / small
    r = e.rect
    style = replace(e.style, size=max(e.style.size, least),
                    min_size=max(e.style.min_size, least) if e.style.min_size is not None else None)
    return replace(e, rect=Rect(r.cx - r.w * k / 2, r.cy - r.h * k / 2, r.w * k, r.h * k), style=style)


def _closest(name, names) -> str:
    found = closest(name, names, cutoff=0.0)
    return f" (did you mean '{found}'?)" if found else ""


def _template_line():
    """(file, line) of the innermost template being rendered that made this call, from the stack."""
    frame = sys._getframe(1)
    while frame is not None:
        template = frame.f_globals.get("__jinja_template__")
        if template is not None:
            return template.filename, template.get_corresponding_lineno(frame.f_lineno)
        frame = frame.f_back
    return None, None


def _caption(value) -> str:
    """A caption: a template's own text is markup; a data value arrives escaped already."""
    if value is None:
        return ""
    return value if isinstance(value, Safe) else str(value)


class Figures:
    """The figures one rulebook render asks for: ``namespace()`` is what templates see as ``figure``."""

    def __init__(self, game, lang: str | None = None):
        self.game, self.lang = game, lang or game.language
        self.drawings: list[Drawing] = []
        self.problems = Problems()
        self._by_text: dict[str, int] = {}
        self._token_map: dict | None = None

    def described(self) -> str:
        """``repr`` of the drawings, the booklet's keys' part: made once for as many drawings as there are
        (drawings are only ever added; a booklet's check and build key and fit it four or five times)."""
        kept = getattr(self, "_described", None)
        if kept is None or kept[0] != len(self.drawings):
            kept = self._described = (len(self.drawings), repr(self.drawings))
        return kept[1]

    def namespace(self) -> dict:
        return {"card": self.card, "hand": self.hand, "die": self.die, "token": self.token, "map": self.map,
                "board": self.board, "track": self.track, "grid": self.grid}

    # ------------------------------------------------------------------------------------ plumbing

    def _placeholder(self, drawing: Drawing) -> Safe:
        self.drawings.append(replace(drawing, where=_template_line()))
        n = len(self.drawings) - 1
        text = f"!{DIRECTIVE} {n}"
        self._by_text[text] = n
        return Safe(text)

    def _error(self, subject: str, message: str) -> Safe:
        path, line = _template_line()
        self.problems.error(path, line, subject, message)
        return Safe("")

    def drawing(self, placeholder) -> Drawing | None:
        """The drawing behind a placeholder (a figure placed on a board), or None."""
        n = self._by_text.get(str(placeholder).strip())
        return self.drawings[n] if n is not None else None

    def _card(self, card_id):
        by_id = {c.id: c for c in self.game.cards}
        card = by_id.get(str(card_id))
        if card is None:
            return None, f"no card '{card_id}' in the game{_closest(card_id, by_id)}"
        return card, ""

    # -------------------------------------------------------------------------------------- pieces

    def face(self, card, side: str = "a") -> tuple[tuple, float, float]:
        """A card's face elements as printed (no bleed) with its size, and a hairline round it: its face
        (``side`` ``a`` or ``front``), its side B (``b``) or its back (``back``: side B of a double-sided
        card, else the back its deck prints behind it)."""
        from pnp.components.cards import back_elements, laid_out_face, printed_mark

        deck = self.game.deck_of(card)
        w, h = deck.width, deck.height
        mark = printed_mark(self.game, card, 1)
        # the face of its first copy exactly as printed (its corner mark included), laid out once for both
        if side in ("b", "back"):
            els = back_elements(self.game, deck, 0.0, card, lang=self.lang, mark=mark)
        else:
            els = laid_out_face(self.game, deck, card, self.lang, mark, (w, h), 0.0)
        return tuple(els) + (Box(Rect(0, 0, w, h), stroke=OUTLINE, width=0.3, radius=3.0, role="figure-edge"),), w, h

    def _side(self, card, side) -> str | None:
        """Why ``side`` cannot be drawn of ``card`` (None when it can)."""
        if side not in SIDES:
            return f"side: {excerpt(str(side))} is not one of {', '.join(repr(s) for s in SIDES)}"
        if side == "b" and card.side_b is None:
            return f"card '{card.id}' has one face: side='b' draws a double-sided card's side B (side='back' " \
                   f"draws a card's back)"
        return None

    def card(self, card_id, scale=CARD_SCALE, caption=None, token=None, side="a") -> Safe:
        """A card's face, as printed, at ``scale`` (``side``: ``b`` its side B, ``back`` its back);
        ``token``: a token of tokens.yaml lying on it (a converted character's convert token)."""
        card, problem = self._card(card_id)
        if card is None:
            return self._error("figure.card", problem)
        problem = self._side(card, side)
        if problem:
            return self._error("figure.card", problem)
        els, w, h = self.face(card, side)
        if token is not None:
            on, problem = self._tokens_on({card_id: token})
            if problem:
                return self._error("figure.card", problem)
            els += self._token_on_card(on, str(token), w, h)
        return self._placeholder(Drawing(els, w, h, float(scale), _caption(caption), "card"))

    def _tokens_on(self, tokens) -> tuple:
        """(the game's tokens by id, None) when every token ``tokens`` ({card id: token id}) names is
        one of tokens.yaml's; else (None, the problem)."""
        if not isinstance(tokens, dict):
            return None, "tokens: give a mapping of card ids to token ids, like {'outlaw': 'converted'}"
        by_id = self._tokens()
        for token_id in tokens.values():
            if str(token_id) not in by_id:
                return None, f"no token '{token_id}'{_closest(token_id, by_id)}"
        return by_id, None

    def _token_on_card(self, by_id, token_id: str, w: float, h: float) -> tuple:
        """A token's front lying on a card (its upper right, over the art), as on the table."""
        size = min(w * 0.34, by_id[token_id][1].size)
        return (self.token_marker(by_id, token_id, w * 0.74, h * 0.58, size),)

    def hand(self, card_ids, scale=CARD_SCALE * 0.8, caption=None, overlap=0.25, tokens=None, side="a",
             sides=None) -> Safe:
        """A row of cards "in hand" (or on the table): each face as printed, overlapping by ``overlap``
        of a card's width; ``tokens`` ({card id: token id}) lays a token of tokens.yaml on those cards;
        ``side`` (``a``, ``b`` or ``back``) shows every card's side, ``sides`` ({card id: side}) some cards'."""
        by_id = None
        if sides is not None and not isinstance(sides, dict):
            return self._error("figure.hand", "sides: give a mapping of card ids to sides, like {'oak': 'b'}")
        stray = [c for c in sides or () if c not in (card_ids or ())]
        if stray:
            return self._error("figure.hand", f"sides: '{stray[0]}' is not one of the figure's cards")
        if tokens:
            by_id, problem = self._tokens_on(tokens)
            if problem:
                return self._error("figure.hand", problem)
            stray = [c for c in tokens if c not in (card_ids or ())]
            if stray:
                return self._error("figure.hand", f"tokens: '{stray[0]}' is not one of the figure's cards")
        faces, names = [], []
        for card_id in card_ids or ():
            card, problem = self._card(card_id)
            if card is None:
                return self._error("figure.hand", problem)
            shown = (sides or {}).get(card_id, side)
            problem = self._side(card, shown)
            if problem:
                return self._error("figure.hand", problem)
            els, w, h = self.face(card, shown)
            if by_id is not None and card_id in tokens:
                els += self._token_on_card(by_id, str(tokens[card_id]), w, h)
            faces.append((els, w, h))
            names.append((card.side_b.name if shown == "b" and card.side_b is not None else card.name))
        if not faces:
            return self._error("figure.hand", "no cards: give a list of card ids")
        step = max(w for _, w, _ in faces) * (1 - float(overlap))
        els, x = [], 0.0
        for k, (face, w, h) in enumerate(faces):
            els.append(Transform(face, (1, 0, 0, 1, x, 0), role="figure-card"))
            if k < len(faces) - 1:
                # the next card leaves this one's name in sight (a fan shows each name)
                x += max(step, _name_right(face, names[k]) + NAME_GAP)
        width = x + faces[-1][1]
        return self._placeholder(Drawing(tuple(els), width, max(h for _, _, h in faces), float(scale),
                                         _caption(caption), "hand"))

    def _dice(self):
        from pnp.components.dice import config_of, dice_faces

        out = []
        for spec in getattr(self.game, "component_specs", ()):
            if spec.kind == "dice":
                dice, layout = dice_faces(self.game, spec)
                out.append((spec, config_of(spec), dice, layout))
        return out

    def die_face(self, kind, face):
        """(elements, size) of face ``face`` (1-6, in the order the data gives the faces) of the die
        ``kind``, as its sticker prints it; or (None, problem)."""
        from pnp.layout.regions import place

        kinds = {}
        for spec, config, dice, layout in self._dice():
            for item, faces in dice:
                key = item.get("id") if isinstance(item, dict) else (spec.id if item is None else str(item))
                kinds.setdefault(str(key), (config, faces, layout))
        if not kinds:
            return None, "the game has no dice component"
        found = kinds.get(str(kind))
        if found is None:
            return None, f"no die '{kind}'{_closest(kind, kinds)}"
        config, faces, layout = found
        if not isinstance(face, int) or not 1 <= face <= len(faces):
            return None, f"face {face!r}: a die's faces are numbered 1 to {len(faces)}"
        s = config["die_size"]
        els = tuple(place(faces[face - 1], layout.size, s, s, None))
        return els + (Box(Rect(0, 0, s, s), stroke=OUTLINE, width=0.3, radius=1.5, role="figure-edge"),), s

    def die(self, kind, face=1, scale=1.0, caption=None) -> Safe:
        """One face of a die, as its sticker prints it."""
        els, s = self.die_face(kind, face)
        if els is None:
            return self._error("figure.die", s)
        return self._placeholder(Drawing(els, s, s, float(scale), _caption(caption), "die"))

    def _tokens(self) -> dict:
        """{id: (token set, token)} of the game's tokens.yaml (empty without one), read and checked once
        for all the figures of a render (a rulebook asks for it a dozen times)."""
        from pnp.loading.tokendata import load_tokens

        if self._token_map is None:
            token_set = load_tokens(self.game) if (self.game.root / "tokens.yaml").is_file() else None
            self._token_map = {t.id: (token_set, t) for t in (token_set.tokens if token_set else ())}
        return self._token_map

    def token_face(self, token_set, token, side="front") -> tuple[tuple, float]:
        """(elements, extent) of a token's face as printed, with its cut line."""
        from pnp.components.tokens import faces
        from pnp.layout.tokens import cut_outline

        drawn = faces(self.game, replace(token_set, tokens=(token,), bleed=0.0), self.lang)[token.id]
        extent = token.size * 2 / 3 ** 0.5 if token.shape == "hexagon" else token.size
        cut = cut_outline(token.shape, Rect(0, 0, extent, extent), token.outline)
        if "stroke" in {f.name for f in fields(cut)}:   # a drawn line (an SVG outline is a picture)
            cut = replace(cut, stroke=OUTLINE)
        return tuple(drawn[0 if side == "front" else 1]) + (cut,), extent

    def token_marker(self, tokens, token_id, cx: float, cy: float, size: float):
        """A token's front ``size`` mm across, centred on (cx, cy): a marker on a map or board."""
        els, extent = self.token_face(*tokens[token_id])
        k = size / extent
        return Transform(els, (k, 0, 0, k, cx - size / 2, cy - size / 2), role=f"token:{token_id}")

    def token(self, token_id, side="front", scale=1.0, caption=None) -> Safe:
        """A token's face as printed (inside its cut line), ``side`` front or back."""
        by_id = self._tokens()
        if str(token_id) not in by_id:
            return self._error("figure.token", f"no token '{token_id}'{_closest(token_id, by_id)}")
        if side not in ("front", "back"):
            return self._error("figure.token", f"side '{side}': front or back")
        els, extent = self.token_face(*by_id[str(token_id)], side)
        return self._placeholder(Drawing(els, extent, extent, float(scale), _caption(caption), "token"))

    # ------------------------------------------------------------------------------- map and boards

    def piece_marker(self, kind, cx: float, cy: float, size: float) -> tuple:
        """A piece of kind ``kind`` on a map or board: a disc in its side's colour with its icon."""
        pieces = {p.id: p for p in self.game.pieces}
        piece = pieces.get(kind)
        colour = self.game.faction(piece.faction).colour if piece and piece.faction else MARK_INK
        r = size / 2
        els = [Circle(cx, cy, r, fill=colour, stroke="#ffffff", width=0.35, role=f"piece:{kind}")]
        from pnp.draw.icons import drawable

        if drawable(kind):
            els.append(Icon(kind, cx, cy, size * 0.62, "#ffffff", role=f"piece-icon:{kind}"))
        else:
            name = escape((piece.name if piece else str(kind))[:1].upper())
            els.append(Text(Rect(cx - r, cy - r * 0.6, size, r * 1.2), name,
                            _Style(font="sans-bold", size=max(5.0, size * 1.4), colour="#ffffff"),
                            role=f"piece-icon:{kind}"))
        return tuple(els)

    def map(self, around=None, radius=1.6, pieces=None, highlight=(), arrows=(), scale=1.0, caption=None,
            component=None) -> Safe:
        """An excerpt of the hex map as printed: the hexes within ``radius`` hexes of ``around`` (a hex
        id or a list of them), with ``pieces`` ({hex: kind or [kinds]}) on it, ``highlight``-ed hexes
        and ``arrows`` ([from, to] pairs of hexes)."""
        from pnp.components.hexmap import config_of, map_layout

        if self.game.map is None:
            return self._error("figure.map", "the game has no map")
        spec = next((s for s in getattr(self.game, "component_specs", ()) if s.kind == "hexmap"
                     and (component is None or s.id == component)), None)
        layout = map_layout(self.game, config_of(spec), self.lang)
        where = {str(k).replace("\\", ""): v for k, v in layout.where.items()}
        kinds = {p.id for p in self.game.pieces}
        centres = []
        for h in ([around] if isinstance(around, str) else list(around or ())):
            if str(h) not in where:
                return self._error("figure.map", f"no hex '{h}' on the map{_closest(h, where)}")
            centres.append(where[str(h)])
        if not centres:
            return self._error("figure.map", "around: give a hex id or a list of them")
        s = layout.grid.size
        tokens = self._tokens()
        marks, spots, labels_, covered = [], [], [], set()
        names = {p.id: p.name for p in self.game.pieces}
        for h, what in (pieces or {}).items():
            if str(h) not in where:
                return self._error("figure.map", f"pieces: no hex '{h}' on the map{_closest(h, where)}")
            group = [what] if isinstance(what, str) else list(what)
            hexagon = next((x for x in self.game.map.hexes if x.id == str(h)), None)
            holding = self.game.map.holding_at(hexagon.at) if hexagon is not None else None
            cx, cy = where[str(h)]
            size, y = 0.42 * s, cy - 0.05 * s
            if holding is not None:
                # on a holding the pieces stand in the lower half of its ring, under its name as the
                # figure prints it, smaller
                size = 0.32 * s
                name = next((_legible(e, float(scale)) for e in layout.elements if isinstance(e, Text)
                             and e.role == "holding-name" and _near(e.rect, [(cx, cy)], s)), None)
                y = min(cy - 0.25 * s, name.rect.y - size / 2 - 0.4) if name is not None else cy - 0.25 * s
            for k, kind in enumerate(group):
                if kind not in kinds and kind not in tokens:
                    return self._error("figure.map", f"pieces: no piece kind or token '{kind}'"
                                                     f"{_closest(kind, sorted(kinds) + sorted(tokens))}")
                dx = (k - (len(group) - 1) / 2) * size * 0.81
                if kind in kinds:
                    marks += self.piece_marker(kind, cx + dx, y, size)
                    covered.add(str(h))
                else:                       # a token (a bridge, a marker) lies under the pieces
                    marks.insert(0, self.token_marker(tokens, kind, cx + dx, y, size + 0.08 * s))
                spots.append((cx + dx, y))
            shown_kinds = [k for k in group if k in kinds]
            if holding is None and len(shown_kinds) == 1:     # its name where the map names a start
                from pnp.layout.hexmap import START_STYLE       # a map game's: others never load it

                cx, cy = where[str(h)]
                labels_.append(Text(Rect(cx - 0.45 * s, cy - 0.42 * s, 0.9 * s, 0.16 * s),
                                    escape(names.get(shown_kinds[0], shown_kinds[0])), START_STYLE,
                                    role=f"piece-label:{shown_kinds[0]}"))
        for h in highlight or ():
            if str(h) not in where:
                return self._error("figure.map", f"highlight: no hex '{h}' on the map{_closest(h, where)}")
            hx = next(x for x in self.game.map.hexes if x.id == str(h))
            marks.append(replace(layout.grid.polygon(hx.at, stroke=HIGHLIGHT, width=0.8), role="highlight"))
        for pair in arrows or ():
            if len(pair) != 2 or any(str(h) not in where for h in pair):
                return self._error("figure.map", f"arrows: {list(pair)!r} is not a pair of hexes on the map")
            marks += _arrow(where[str(pair[0])], where[str(pair[1])], s)
        xs, ys = [c[0] for c in centres], [c[1] for c in centres]
        reach = float(radius) * s
        x0, y0, x1, y1 = min(xs) - reach, min(ys) - reach, max(xs) + reach, max(ys) + reach
        # a piece the window reaches is shown whole, with room round it
        for cx, cy in spots:
            if x0 - s * 0.3 < cx < x1 + s * 0.3 and y0 - s * 0.3 < cy < y1 + s * 0.3:
                x0, y0 = min(x0, cx - s * 0.4), min(y0, cy - s * 0.4)
                x1, y1 = max(x1, cx + s * 0.4), max(y1, cy + s * 0.4)
        window = Rect(max(0.0, x0), max(0.0, y0), 0, 0)
        window = Rect(window.x, window.y, min(layout.width, x1) - window.x, min(layout.height, y1) - window.y)
        # a ring or an icon of the map (a holding with its words, a bridge site, a terrain's mark) the
        # window would cut is shown whole, the window grown round it, or left out when most of it lies
        # outside
        window, elements = whole_pieces(tuple(_legible(e, float(scale)) for e in layout.elements), window,
                                        Rect(0, 0, layout.width, layout.height), fit=True,
                                        held=[c for c in spots if window.x <= c[0] <= window.right
                                              and window.y <= c[1] <= window.top])
        # words the window would cut (a hex number, a holding's name at its edge) are left out; a figure
        # of a position names the pieces it shows, not the map's start (a Soldier never above "Peasant"),
        # and a holding with a piece on it shows its name, not its kind, above the piece
        held = {str(x.id) for x in self.game.map.hexes if x.id in covered and self.game.map.holding_at(x.at)}
        held_at = {where[h] for h in held}
        # a site with a counter or a piece on it (a bridge built) is no longer named: the counter hides
        # its name, and the name moved aside would only crowd the figure
        taken = [where[str(h)] for h in (pieces or {})]
        legible = (*elements, *(_legible(e, float(scale)) for e in labels_))
        shown = tuple(e for e in legible
                      if not isinstance(e, Text) or (window.contains(e.rect, 0.3)
                                                     and not (pieces and e.role.startswith("start:"))
                                                     and not (e.role == "holding-kind" and _near(e.rect, held_at, s))
                                                     and not (e.role == "bridge-site-label"
                                                              and _near(e.rect, taken, s))))
        # the words move off the rings, pieces and other words they would touch, within their hex, or
        # are left out (a hex number on a holding's ring, a start name above a number)
        shown = _clear_words(shown, marks, window, list(where.values()), s)
        els = (Transform(shown + tuple(marks), (1, 0, 0, 1, -window.x, -window.y),
                         clip=window, role="figure-map"),
               Box(Rect(0, 0, window.w, window.h), stroke=OUTLINE, width=0.3, role="figure-edge"))
        return self._placeholder(Drawing(els, window.w, window.h, float(scale), _caption(caption), "map"))

    def _board(self, component, item):
        from pnp.components.board import _layouts, config_of, pieces, scope

        specs = {s.id: s for s in getattr(self.game, "component_specs", ()) if s.kind == "board"}
        spec = specs.get(str(component))
        if spec is None:
            return None, f"no board component '{component}'{_closest(component, specs)}"
        made = pieces(self.game, spec)
        config = config_of(spec)
        items = [None]
        if config["each"]:
            from pnp.loading.cardlayout import compiled

            items = list(compiled(config["each"])(**scope(self.game)) or ())
        ids = [it.get("id") if isinstance(it, dict) else it for it in items]
        if item is None:
            index = 0
        elif item in ids:
            index = ids.index(item)
        else:
            return None, f"board '{component}': no item '{item}'{_closest(item, [i for i in ids if i])}"
        piece = made[index * config["copies"]]
        front, _ = _layouts(self.game, spec, config, Problems())
        from pnp.loading.cardlayout import evaluate

        context = {**scope(self.game), "item": items[index], "piece": items[index], "index": index,
                   "side": "front"}
        regions = evaluate(front, context)
        sx, sy = piece.size[0] / front.size[0], piece.size[1] / front.size[1]
        rects = {}
        for region in regions:
            if "rect" in region:
                x, y, w, h = region["rect"]
                rects.setdefault(region["name"], Rect(x * sx, y * sy, w * sx, h * sy))
            elif "at" in region:            # a circle (r) or an icon (size) placed by its centre
                x, y = region["at"]
                r = float(region.get("r") or float(region.get("size") or 0) / 2)
                rects.setdefault(region["name"], Rect((x - r) * sx, (y - r) * sy, 2 * r * sx, 2 * r * sy))
        return (piece, rects), ""

    def board(self, component, around=None, item=None, place=None, margin=3.0, scale=0.5, caption=None) -> Safe:
        """A board piece as printed (``item``: which one of an ``each`` entry), cut to the regions
        ``around`` (names in its layout; all of it by default) with ``margin`` mm round them, and other
        figures ``place``-d on regions ({region: figure.die(...) or a piece kind})."""
        found, problem = self._board(component, item)
        if found is None:
            return self._error("figure.board", problem)
        piece, rects = found
        w, h = piece.size
        names = [around] if isinstance(around, str) else list(around or ())
        for name in names:
            if name not in rects:
                return self._error("figure.board", f"board '{component}': no region '{name}'{_closest(name, rects)}")
        marks = []
        for name, what in (place or {}).items():
            if name not in rects:
                return self._error("figure.board", f"place: no region '{name}'{_closest(name, rects)}")
            area = rects[name]
            drawing = self.drawing(what)
            if drawing is not None:
                k = min(area.w / drawing.width, area.h / drawing.height) * 0.9
                marks.append(Transform(drawing.elements, (k, 0, 0, k, area.cx - drawing.width * k / 2,
                                                          area.cy - drawing.height * k / 2), role=f"placed:{name}"))
                self.drawings[self._by_text[str(what).strip()]] = replace(drawing, kind="placed")
            elif str(what) in {p.id for p in self.game.pieces}:
                marks += self.piece_marker(str(what), area.cx, area.cy, min(area.w, area.h) * 0.8)
            elif str(what) in (tokens := self._tokens()):
                marks.append(self.token_marker(tokens, str(what), area.cx, area.cy, min(area.w, area.h) * 0.8))
            else:
                known = sorted({p.id for p in self.game.pieces} | set(tokens))
                return self._error("figure.board", f"place: '{what}' is neither a figure, a piece kind nor a "
                                                   f"token{_closest(what, known)}")
        if names:
            x0 = max(0.0, min(rects[n].x for n in names) - margin)
            y0 = max(0.0, min(rects[n].y for n in names) - margin)
            x1 = min(w, max(rects[n].right for n in names) + margin)
            y1 = min(h, max(rects[n].top for n in names) + margin)
        else:
            x0, y0, x1, y1 = 0.0, 0.0, w, h
        window = Rect(x0, y0, x1 - x0, y1 - y0)
        # a ring or an icon of the board the window would cut (a chain bonus at a campaign map's corner)
        # is shown whole or left out, as on a map
        window, front = whole_pieces(piece.front, window, Rect(0, 0, w, h))
        x0, y0 = window.x, window.y
        els = (Transform(_within(front, window) + tuple(marks), (1, 0, 0, 1, -x0, -y0), clip=window,
                         role="figure-board"),
               Box(Rect(0, 0, window.w, window.h), stroke=OUTLINE, width=0.3, role="figure-edge"))
        return self._placeholder(Drawing(els, window.w, window.h, float(scale), _caption(caption), "board"))

    def track(self, markers=None, component=None, spaces=None, scale=0.5, caption=None) -> Safe:
        """The track as printed (the game's ``track`` component, or its power track), the spaces from
        ``spaces`` ([first, last]; all by default), with a marker in a faction's colour on a space
        ({faction id or colour: space number}). A faction's marker at ``'start'`` sits on its spot of the
        track's start area (its token from tokens.yaml when the game has one that moves on the track):
        the figure then shows the start area above the spaces (none when ``spaces`` is not given), without
        the start area's own words, which a figure's scale sets too small to read (its caption names it)."""
        from pnp.components import BuildOptions
        from pnp.components.track import layout

        specs = [s for s in getattr(self.game, "component_specs", ()) if s.kind == "track"
                 and (component is None or s.id == component)]
        if not specs:
            return self._error("figure.track", "the game has no track component"
                               + (f" '{component}'" if component else ""))
        track = layout(self.game, BuildOptions(lang=self.lang), specs[0])
        page = track.page if hasattr(track, "page") else track
        spaces_found = _track_spaces(page)
        if not spaces_found:
            return self._error("figure.track", "the track has no numbered spaces")
        factions = {f.id: f for f in self.game.factions}
        at_start = [who for who, n in (markers or {}).items() if n == "start"]
        start_area = next((e for e in page.elements if getattr(e, "role", "") == "start-area"), None)
        if at_start and start_area is None:
            return self._error("figure.track", "markers: 'start': the track has no start area")
        spots = {getattr(e, "role", "")[len("start:"):]: e for e in page.elements
                 if getattr(e, "role", "").startswith("start:")}
        if spaces is None and not at_start:
            lo, hi = min(spaces_found), max(spaces_found)
        elif spaces is None:
            lo, hi = 1, 0                   # the start area alone
        else:
            lo, hi = int(spaces[0]), int(spaces[1])
        chosen = [r for n, r in spaces_found.items() if lo <= n <= hi]
        if not chosen and not at_start:
            return self._error("figure.track", f"spaces {lo}..{hi}: the track numbers "
                                                f"{min(spaces_found)} to {max(spaces_found)}")
        tokens = {t.faction: t.id for _, t in self._tokens().values()
                  if getattr(t, "on_track", False) and getattr(t, "faction", None)}
        marks = []
        for who, n in (markers or {}).items():
            if who not in factions and not str(who).startswith("#"):
                return self._error("figure.track", f"markers: no faction '{who}'{_closest(who, factions)}")
            colour = factions[who].colour if who in factions else str(who)
            if n == "start":
                spot = spots.get(str(who))
                if spot is None:
                    return self._error("figure.track", f"markers: '{who}' has no spot in the start area")
                if who in tokens:
                    marks.append(self.token_marker(self._tokens(), tokens[who], spot.cx, spot.cy, spot.r * 2 - 3.0))
                else:
                    marks.append(Circle(spot.cx, spot.cy, spot.r - 1.5, fill=colour, stroke="#ffffff", width=0.35,
                                        role="marker:start"))
                    if who in factions and factions[who].emblem:
                        marks.append(Icon(factions[who].emblem, spot.cx, spot.cy, spot.r, "#ffffff",
                                          role="marker-icon:start"))
                continue
            if n not in spaces_found:
                return self._error("figure.track", f"markers: no space {n} on the track")
            r = spaces_found[n]
            k = sum(1 for m in marks if getattr(m, "role", "") == f"marker:{n}")
            size = min(r.w, r.h) * 0.42
            marks.append(Circle(r.cx + (k - 0.5) * size * 0.9 if k else r.cx, r.cy - r.h * 0.12, size / 2,
                                fill=colour, stroke="#ffffff", width=0.35, role=f"marker:{n}"))
            if who in factions and factions[who].emblem:
                marks.append(Icon(factions[who].emblem, marks[-1].cx, marks[-1].cy, size * 0.7, "#ffffff",
                                  role=f"marker-icon:{n}"))
        elements = tuple(page.elements)
        if at_start:
            # the start area's words: too small at a figure's scale (the caption says what it shows); its
            # box loses the band its label took, and stays centred on the spots
            label = max((e.rect.top - e.rect.y + 2.0 for e in elements if getattr(e, "role", "") == "start-label"),
                        default=0.0)
            area = start_area.rect
            start_area = replace(start_area, rect=Rect(area.x, area.y, area.w, area.h - label))
            elements = tuple(start_area if getattr(e, "role", "") == "start-area" else e for e in elements
                             if getattr(e, "role", "") not in _START_WORDS)
        shown = list(chosen) + ([start_area.rect] if at_start else [])
        m = 0.5     # the spaces' outline; the neighbouring rows' numbers stay outside
        window = Rect(min(r.x for r in shown) - m, min(r.y for r in shown) - m, 0, 0)
        window = Rect(window.x, window.y, max(r.right for r in shown) + m - window.x,
                      max(r.top for r in shown) + m - window.y)
        elements = _within(elements, window)          # not the title nor the other spaces' numbers
        els = (Transform(elements + tuple(marks), (1, 0, 0, 1, -window.x, -window.y), clip=window,
                         role="figure-track"),)
        return self._placeholder(Drawing(els, window.w, window.h, float(scale), _caption(caption), "track"))

    def grid(self, cells, columns=3, rows=3, size=6.0, colour=None, caption=None) -> Safe:
        """A grid of ``columns`` x ``rows`` squares (numbered from the top left, row by row) with the
        ``cells`` filled: an award's shape of markers on the 3 x 3 campaign map."""
        cells = list(cells or ())
        if any(not isinstance(c, int) or not 0 <= c < columns * rows for c in cells):
            return self._error("figure.grid", f"cells {cells!r}: numbers from 0 to {columns * rows - 1}")
        ink = colour or (self.game.factions[0].colour if self.game.factions else MARK_INK)
        els = []
        for k in range(columns * rows):
            x, y = (k % columns) * size, (rows - 1 - k // columns) * size
            els.append(Box(Rect(x, y, size, size), fill="#f4efe4", stroke=OUTLINE, width=0.3, role="grid-cell"))
            if k in cells:
                els.append(Circle(x + size / 2, y + size / 2, size * 0.32, fill=ink, role=f"grid-mark:{k}"))
        return self._placeholder(Drawing(tuple(els), columns * size, rows * size, 1.0, _caption(caption), "grid"))


#: The share of a shape's box inside a figure's window from which the window grows to show it whole;
#: below it, the shape is left out.
WHOLE_SHARE = 0.5


def _extent(e, window: Rect) -> Rect | None:
    """The box a shape of a map or board covers (its stroke included): a ring, an icon, a hex, a
    rectangle, a line, a picture, a group; None for words (they go with the shape they are set in, or
    are left out when cut) and for a background: a rectangle or a picture holding the whole ``window``
    or larger than it (the map's paper, a board's ground or panel), which the window cuts as it falls."""
    from pnp.layout.geometry import Picture, extent

    if isinstance(e, Text):
        return None
    box = extent(e)
    if box is None:
        return None
    if isinstance(e, (Box, Picture)) and (box.contains(window) or box.w * box.h >= window.w * window.h):
        return None
    return box


def _inside(rect: Rect, window: Rect) -> float:
    """The share of ``rect``'s area inside ``window``."""
    w = min(rect.right, window.right) - max(rect.x, window.x)
    h = min(rect.top, window.top) - max(rect.y, window.y)
    return max(0.0, w) * max(0.0, h) / (rect.w * rect.h) if rect.w > 0 and rect.h > 0 else 0.0


def _union(a: Rect, b: Rect) -> Rect:
    x0, y0 = min(a.x, b.x), min(a.y, b.y)
    return Rect(x0, y0, max(a.right, b.right) - x0, max(a.top, b.top) - y0)


#: After the window grew round the shapes at least half inside it, how far more (mm, on any side) it
#: grows to take in a shape it still cuts by little (a river's stroke along the side of a hex it took).
NUDGE = 1.0


def whole_pieces(elements, window: Rect, bounds: Rect, margin: float = 0.6, fit: bool = False,
                 held=()) -> tuple[Rect, tuple]:
    """(window, elements) such that the window cuts no shape of ``elements`` (a hex, a ring, an icon, a
    rectangle, a line...) and no words set in one. Shapes go in units: a shape with every shape inside
    it (a hex with its terrain's mark and its holding's ring, a board's space with its icon) and the
    words whose centre lies in one of them (a hex's number, a holding's name, a space's number); shapes
    of the same box (a hex's fill and its outline) are one. A unit at least :data:`WHOLE_SHARE` inside
    the window grows it to hold the unit whole with ``margin`` round it (within ``bounds``, the map's or
    the board's paper); the others it cuts are left out. The window grows round them once (on a hex map,
    each hex it takes in would reach half of the next one, in the staggered column beside it), then by
    up to :data:`NUDGE` more round what it still cuts by so little; what it cuts at the end (a unit it
    reached when it grew, one at the paper's edge) is left out. Backgrounds (:func:`_extent`) stay, cut.
    With ``fit``, the window then closes in on the units it shows, ``margin`` round them (a map figure:
    no band of bare paper where a row of hexes was left out). ``held``: points (a piece's place on the
    map) whose units are shown whatever their share, and the window keeps round them. (Words in no shape
    that the window cuts are for the caller to leave out.)"""
    boxes = [_extent(e, window) for e in elements]
    reach = max((max(b.w, b.h) for b in boxes if b is not None and window.overlaps(b)), default=0.0)
    near = window.inset(-(reach + margin + NUDGE))
    shapes = sorted((i for i, box in enumerate(boxes) if box is not None and near.overlaps(box)),
                    key=lambda i: (boxes[i].w * boxes[i].h, i))
    # each shape's unit: the largest shape holding it (itself when none does)
    unit = {i: next(j for j in reversed(shapes) if j == i or boxes[j].contains(boxes[i])) for i in shapes}
    whole = {}
    for i in shapes:
        whole[unit[i]] = _union(whole[unit[i]], boxes[i]) if unit[i] in whole else boxes[i]

    def smallest(x: float, y: float):
        """The smallest shape whose box holds the point (x, y), or None."""
        return next((i for i in shapes if boxes[i].x <= x <= boxes[i].right and boxes[i].y <= y <= boxes[i].top),
                    None)

    for j, e in enumerate(elements):
        if isinstance(e, Text) and e.markup:
            home = smallest(e.rect.cx, e.rect.cy)
            if home is not None:
                unit[j] = unit[home]
                whole[unit[home]] = _union(whole[unit[home]], e.rect)
    must = set()                            # the units holding a point of ``held``
    for x, y in held:
        inner = smallest(x, y)
        if inner is not None:
            must.add(unit[inner])
    first = None                            # the window grown round the units half inside it
    for _ in range(8):
        grown = window
        for u, box in whole.items():
            if window.contains(box) or not window.overlaps(box):
                continue
            if _inside(box, window) < WHOLE_SHARE and u not in must:
                continue
            x0, y0 = max(bounds.x, min(grown.x, box.x - margin)), max(bounds.y, min(grown.y, box.y - margin))
            x1 = min(bounds.right, max(grown.right, box.right + margin))
            y1 = min(bounds.top, max(grown.top, box.top + margin))
            if first is not None and max(first.x - x0, first.y - y0, x1 - first.right, y1 - first.top) > NUDGE:
                continue
            grown = Rect(x0, y0, x1 - x0, y1 - y0)
        if first is None:
            first = grown
        if grown == window:
            break
        window = grown
    out = {u for u, box in whole.items() if window.overlaps(box) and not window.contains(box)}
    kept = tuple(e for j, e in enumerate(elements) if unit.get(j) not in out)
    shown = [box for u, box in whole.items() if u not in out and window.overlaps(box)]
    shown += [Rect(x, y, 0, 0) for x, y in held if window.contains(Rect(x, y, 0, 0))]
    if fit and shown:                       # no band of bare paper where units were left out
        x0 = max(window.x, min(b.x for b in shown) - margin)
        y0 = max(window.y, min(b.y for b in shown) - margin)
        x1 = min(window.right, max(b.right for b in shown) + margin)
        y1 = min(window.top, max(b.top for b in shown) + margin)
        window = Rect(x0, y0, x1 - x0, y1 - y0)
    return window, kept


#: A map's words that stay where the map sets them (inside a holding's ring, in the legend); the others
#: (hex numbers, start and piece names, a site's name) may move within their hex to keep clear.
STAYING_WORDS = ("holding-name", "holding-kind", "legend")
#: How far (a share of the hex size) a word's centre may move from its hex's centre: inside the hex.
WORD_REACH = 0.42
#: The order words are placed in, after the staying ones: a piece's name first (the text refers to it),
#: then the map's start names, the hex numbers, a site's name.
WORD_ORDER = ("piece-label:", "start:", "id:", "bridge-site-label")


def _clear_words(shown: tuple, marks, window: Rect, centres, s: float) -> tuple:
    """``shown`` with its words moved clear of the rings (a holding's, a bridge site's), the pieces,
    counters, arrows and red outlines in ``marks`` and each other (:func:`pnp.layout.labels.arrange`),
    each within its hex (the nearest of ``centres``), and of the hex outlines where its hex has room; a
    word that is clear nowhere as it is set is tried smaller (down to its style's smallest size) and
    wrapped (:func:`_settings`); what is still clear nowhere is left out (a holding's name, which stays,
    is kept as it is)."""
    from pnp.draw.text import ink_rect
    from pnp.layout import labels as placing
    from pnp.layout.geometry import extent

    rings = [placing.Ring(e.cx, e.cy, e.r - e.width / 2, e.r + e.width / 2) for e in shown
             if isinstance(e, Circle) and e.stroke]
    discs = [placing.Disc(e.cx, e.cy, e.r + (e.width / 2 if e.stroke else 0.0)) for e in marks
             if isinstance(e, Circle) and e.role.startswith("piece:")]
    boxes = [extent(e) for e in marks if isinstance(e, Transform) and e.role.startswith("token:")]
    lines = [placing.Segment(e.x1, e.y1, e.x2, e.y2, e.width) for e in marks if isinstance(e, Line)]
    lines += [placing.Segment(*a, *b, e.width if e.stroke else 0.0) for e in marks
              if isinstance(e, Polygon) and e.role in ("arrow-head", "highlight")
              for a, b in zip(e.points, (*e.points[1:], e.points[0]))]
    outlines = _outline_segments(shown, window)

    def rank(e) -> int:
        if e.role.startswith(STAYING_WORDS):
            return 0
        return 1 + next((i for i, p in enumerate(WORD_ORDER) if e.role.startswith(p)), len(WORD_ORDER))

    words = sorted(((i, e) for i, e in enumerate(shown) if isinstance(e, Text) and e.markup),
                   key=lambda x: (rank(x[1]), x[0]))
    inks, wanted, variants = [], [], {}
    for i, e in words:
        ink = ink_rect(e.rect, e.markup, e.style)
        if ink is None:
            continue
        home = min(centres, key=lambda c: (c[0] - ink.cx) ** 2 + (c[1] - ink.cy) ** 2, default=(ink.cx, ink.cy))
        others = () if e.role.startswith("legend") else _settings(e, ink)
        variants[i] = (e, *(v for v, _ in others))
        inks.append(i)
        wanted.append(placing.Label(ink, home, WORD_REACH * s, stays=rank(e) == 0,
                                    settings=tuple(r for _, r in others)))
    found = dict(zip(inks, placing.arrange(wanted, rings, discs, boxes, lines, window.inset(-0.3),
                                           avoid=outlines)))
    out = []
    for i, e in enumerate(shown):
        if i not in found:
            out.append(e)
        elif found[i] is not None:
            k, dx, dy = found[i]
            e = variants[i][k]
            out.append(replace(e, rect=e.rect.moved(dx, dy)) if (k, dx, dy) != (0, 0.0, 0.0) else e)
    return tuple(out)


#: A map's lines along the hexes' edges that its words keep off where their hex has room, beside the
#: outlines: each side's rim along the map's edge and the river's edges.
EDGE_LINES = ("rim:", "river-edge")


def _outline_segments(shown, window: Rect) -> list:
    """The edges of the hexes' outlines (``hex-outline`` polygons), each once, and the map's rims and
    river edges (:data:`EDGE_LINES`), near ``window``: lines a map's words keep clear of where their hex
    has room."""
    from pnp.layout import labels as placing

    seen, out = set(), []
    near = window.inset(-1.0)
    for e in shown:
        if isinstance(e, Line) and e.role.startswith(EDGE_LINES):
            line = placing.Segment(e.x1, e.y1, e.x2, e.y2, e.width)
            if placing.meets(near, line):
                out.append(line)
            continue
        if not (isinstance(e, Polygon) and e.role == "hex-outline" and e.stroke):
            continue
        for a, b in zip(e.points, (*e.points[1:], e.points[0])):
            key = tuple(sorted((tuple(round(v, 3) for v in a), tuple(round(v, 3) for v in b))))
            if key in seen:
                continue
            seen.add(key)
            line = placing.Segment(*a, *b, e.width)
            if placing.meets(near, line):
                out.append(line)
    return out


#: How much smaller (pt) each smaller setting of a map's word is tried at.
SIZE_STEP = 0.5


def _settings(e: Text, ink: Rect) -> list:
    """Other settings of the word ``e`` (whose lines take ``ink``), each a (Text, its ink) centred where it
    is: at each size from its own down to its style's smallest (:data:`SIZE_STEP` apart), on one line
    (smaller sizes only) and, for words of several words, wrapped onto two lines as evenly as they go
    (the narrowest measure that holds them on two)."""
    from pnp.draw.text import fit, ink_rect, natural_widths

    style = e.style
    top = style.size
    least = style.min_size if style.min_size is not None else top
    out = []
    size = top
    while size >= least - 1e-9:
        fixed = replace(style, size=size, min_size=None)
        narrow, whole = (w / 2.8346456693 for w in natural_widths(e.markup, fixed, size))
        tall = size * style.leading / 2.8346456693
        if size < top - 1e-9:
            one = replace(fixed, max_lines=1)
            w, h = whole + 0.2, tall + 0.4
            rect = Rect(ink.cx - w / 2, ink.cy - h / 2, w, h)
            out.append((replace(e, rect=rect, style=one), ink_rect(rect, e.markup, one)))
        if whole > narrow + 1e-6:                   # more than one word: two lines
            two = replace(fixed, max_lines=2)
            h = 2 * tall + 0.4
            lo, hi = narrow + 0.2, whole + 0.2
            if fit(e.markup, two, lo, h).ok:
                hi = lo
            for _ in range(12):
                mid = (lo + hi) / 2
                if fit(e.markup, two, mid, h).ok:
                    hi = mid
                else:
                    lo = mid
            rect = Rect(ink.cx - hi / 2, ink.cy - h / 2, hi, h)
            wrapped = ink_rect(rect, e.markup, two)
            if wrapped is not None and fit(e.markup, two, hi, h).ok and wrapped.w < ink.w - 0.05:
                out.append((replace(e, rect=rect, style=two), wrapped))
        size = round(size - SIZE_STEP, 2)
    return [(v, r) for v, r in out if r is not None]


def _within(elements, window: Rect, dx: float = 0.0, dy: float = 0.0) -> tuple:
    """``elements`` without the words wholly outside ``window`` (in groups too): a figure's window clips
    what it cuts, but the PDF would keep clipped words as hidden text that a reader copies and a search
    finds (the neighbouring shrines' names under a shrine, a track's title and other numbers)."""
    out = []
    for e in elements:
        if isinstance(e, Group):
            out.append(replace(e, elements=_within(e.elements, window, dx + e.dx, dy + e.dy)))
        elif isinstance(e, Text) and not window.overlaps(Rect(e.rect.x + dx, e.rect.y + dy, e.rect.w, e.rect.h)):
            continue
        else:
            out.append(e)
    return tuple(out)


#: The words of a track's start area (its label, its note, the names on its spots).
_START_WORDS = ("start-label", "stack-note", "start-name")


def _track_spaces(page) -> dict:
    """{number: space rectangle} of a track page (its spaces are boxes, each with its number on it)."""
    from pnp.layout.geometry import flatten

    boxes, numbers = [], []
    for e in flatten(page.elements):
        role = getattr(e, "role", "")
        if isinstance(e, Box) and role.endswith("space"):
            boxes.append(e.rect)
        elif isinstance(e, Text) and role.endswith("number"):
            numbers.append(e)
    out = {}
    for t in numbers:
        text = str(t.markup).replace("\\", "")
        if not text.lstrip("-").isdigit():
            continue
        box = next((b for b in boxes if b.contains(t.rect, 0.01) or b.overlaps(t.rect)), None)
        if box is not None:
            out.setdefault(int(text), box)
    return out


def _arrow(a: tuple, b: tuple, s: float) -> list:
    """An arrow from hex centre ``a`` towards ``b``, stopping short of both centres and set a little to
    the right of the line between them, clear of the hex number printed on that line."""
    (x1, y1), (x2, y2) = a, b
    dx, dy = x2 - x1, y2 - y1
    d = (dx * dx + dy * dy) ** 0.5 or 1.0
    ux, uy = dx / d, dy / d
    ox, oy = uy * s * 0.2, -ux * s * 0.2
    sx, sy = x1 + ux * s * 0.28 + ox, y1 + uy * s * 0.28 + oy
    ex, ey = x2 - ux * s * 0.3 + ox, y2 - uy * s * 0.3 + oy
    head = s * 0.16
    left = (ex - ux * head - uy * head * 0.6, ey - uy * head + ux * head * 0.6)
    right = (ex - ux * head + uy * head * 0.6, ey - uy * head - ux * head * 0.6)
    return [Line(sx, sy, ex - ux * head * 0.5, ey - uy * head * 0.5, HIGHLIGHT, 0.7, role="arrow"),
            Polygon(((ex, ey), left, right), fill=HIGHLIGHT, role="arrow-head")]


def scaled(drawing: Drawing, width_mm: float) -> float:
    """The scale a drawing is set at in a column ``width_mm`` wide: its own, or less if it is wider."""
    return min(drawing.scale, width_mm / drawing.width) if drawing.width else drawing.scale

