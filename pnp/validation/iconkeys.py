"""Icons with no key: every icon a board, a player board, a map, the hex map or a token prints is explained
somewhere a player reads it, or ``pnp validate`` warns at the line that prints it.

A player who meets a symbol on a board needs its meaning in words. An icon counts as explained (keyed)
when the kit prints it beside words that name it:

* a region of any board's or card's layout marked ``legend: true`` (a key of icons and their names, an
  icon with its name beside it, a player aid's key): every icon it prints, on any of its pieces, is keyed
  for the whole kit;
* the hex map's own legend (the ``hexmap`` entry's ``legend``, on by default): each terrain's icon;
* the game's own sign (``look: emblem``): the cover and the box print it as the game's mark, not as a
  symbol with a meaning to learn;
* a sheet or a chapter of the rulebook that uses the icon in a line of text with words in it (a
  sentence, a list item, a table row, a heading: ``[gem] Gem: ...``); a figure does not count, nor the
  part of a chapter after ``!spare`` (it prints only when the booklet has pages to spare).

An icon is the picture it draws: ``[gold]`` keys ``[coin]`` when game.yaml's ``icons:`` makes one the
other. What is left is one warning per place that first prints an unkeyed icon: the layout region's line
(with how many pieces and one of them), the map file's terrain line, or the token's line of tokens.yaml (a token's face that prints its icon with a
caption, its name, needs no other key; it keys no other piece's icon). Nothing is drawn: the pieces are
the ones the boards' own check laid out (memoized), the faces of the cards only for a deck whose layout has a
``legend`` region, and the texts the sheets' and the rulebook's markup, rendered only when a board's
icon has no key on the boards or cards.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pnp.errors import DataError, Problems
from pnp.layout.geometry import Icon, Text, flatten
from pnp.text.markup import (INLINE_ONLY, Example, Heading, ListBlock, MarkupError, Paragraph, TableBlock, icons_used,
                              parse)

#: An inline icon of markup (``[name]`` or ``[name:label]``).
_ICON = re.compile(r"\[[a-z][a-z0-9_-]*(?::[^\]\n]*)?\]")
#: A word: two letters or more (a number or a lone letter on an icon's side is not a name).
_WORD = re.compile(r"[^\W\d_]{2,}")


@dataclass
class _Place:
    """Where an icon is printed: (path, line), the subject of its warning, and the pieces that show it."""

    path: object
    line: int | None
    subject: str
    pieces: list = field(default_factory=list)
    icons: dict = field(default_factory=dict)       # drawing -> the name it is printed by (first seen)
    legend_off: tuple | None = None                 # a hex map's terrain: (path, line) of its entry, legend off
    token: bool = False                             # a token's face: a caption naming it is its key


def _drawing(game, name: str) -> tuple:
    """What an icon name draws (a built-in icon or an SVG file): two names of one picture are one icon."""
    ref = game.icons.resolve(name)
    return (ref.kind, ref.target) if ref is not None else ("name", name)


def _element_icons(element) -> list[str]:
    if isinstance(element, Icon):
        return [element.name]
    if isinstance(element, Text) and "[" in element.markup:
        return [n for n, _ in icons_used(element.markup) if n not in INLINE_ONLY]
    return []


def _regions(layout) -> tuple[dict, set]:
    """(role -> region name, the roles of ``legend: true`` regions) of a layout."""
    names, legend = {}, set()
    for items in layout.regions:
        region = dict(items)
        role = region.get("role") or region["name"]
        names.setdefault(role, region["name"])
        if region.get("legend"):
            legend.add(role)
    return names, legend


def _board(game, spec, printed: dict, keyed: set) -> None:
    """A board entry's icons: keyed where its regions say ``legend: true``, else printed at the region."""
    from pnp.components import board

    try:
        pieces = board.pieces(game, spec)
        front, back = board.layouts(game, spec)
    except DataError:                     # the board's own check reports it
        return
    sides = [(front, "front", lambda p: p.front)]
    if back is not None:
        sides.append((back, "back", lambda p: p.back or ()))
    for layout, side, elements_of in sides:
        if layout is None:
            continue
        names, legend = _regions(layout)
        for piece in pieces:
            name = piece.name if side == "front" or back is None else f"{piece.name} (back)"
            for element in flatten(elements_of(piece)):
                icons = _element_icons(element)
                if not icons:
                    continue
                role = (element.role or "").split(":", 1)[0]
                if role in legend:
                    keyed.update(_drawing(game, n) for n in icons)
                    continue
                region = names.get(role, role)
                path, line = layout.where(region)
                key = (str(path), line, region)
                place = printed.setdefault(key, _Place(path, line, f"board '{spec.id}': layout '{layout.name}', "
                                                                    f"region '{region}'"))
                if name not in place.pieces:
                    place.pieces.append(name)
                for n in icons:
                    place.icons.setdefault(_drawing(game, n), n)


def _cards(game, keyed: set, lang: str | None) -> None:
    """The icons that the ``legend: true`` regions of the cards' layouts print (a player aid's key, a card
    that names its icons): laid out only for the decks whose layouts have such a region."""
    from pnp.components.cards import laid_out_face, layout_of

    for deck in game.decks:
        if not any(_regions(layout)[1] for layout in (deck.layout.all() if deck.layout is not None else ())):
            continue
        for card in deck.cards:
            legend = _regions(layout_of(deck, card))[1]
            if not legend:
                continue
            try:
                face = laid_out_face(game, deck, card, lang, "", (deck.width, deck.height), 0.0)
            except DataError:             # the deck's own check reports it
                continue
            for element in flatten(face):
                if (element.role or "").split(":", 1)[0] in legend:
                    keyed.update(_drawing(game, n) for n in _element_icons(element))


def _hexmap(game, spec, printed: dict, keyed: set) -> None:
    """The hex map's terrain icons: keyed by its legend, else printed at the terrain's line."""
    from pnp.components import hexmap

    if game.map is None:
        return
    config = hexmap.config_of(spec)
    holdings = {h.at for h in game.map.holdings}
    for terrain in game.map.terrains:
        icon = getattr(terrain, "icon", None)
        if not icon or game.icons.resolve(icon) is None:
            continue
        if config["legend"]:
            keyed.add(_drawing(game, icon))
            continue
        if not any(h.terrain == terrain.id and h.at not in holdings for h in game.map.hexes):
            continue                      # every hex of it holds a holding: the icon is not printed
        line = hexmap.terrain_line(game, terrain.id)
        place = printed.setdefault((str(game.map.source), line, terrain.id),
                                   _Place(game.map.source, line, f"hexmap '{spec.id}': terrain '{terrain.id}'"))
        place.pieces.append("the map's hexes")
        place.icons.setdefault(_drawing(game, icon), icon)
        place.legend_off = (game.root / "game.yaml", spec.line)


def _tokens(game, printed: dict, keyed: set) -> None:
    """The icons of tokens.yaml's faces: a face that prints its icon with a caption (its name, "Taint",
    "Empire") is a key to it; any other is printed at the token's line."""
    from pnp.loading.tokendata import load_tokens

    try:
        tokens = load_tokens(game)
    except DataError:                     # the tokens' own check reports it
        return
    if tokens is None:
        return
    for token in tokens.tokens:
        faces = [face for face in (token.front, token.back)
                 if face is not None and face.icon and game.icons.resolve(face.icon) is not None]
        # a face that names what it shows (its caption) is the key of that icon on this token, both sides
        named = {_drawing(game, face.icon) for face in faces if face.caption and _WORD.search(str(face.caption))}
        for face in faces:
            if _drawing(game, face.icon) in named:
                continue
            place = printed.setdefault((str(tokens.path), token.line, token.id),
                                       _Place(tokens.path, token.line, f"tokens: token '{token.id}'", token=True))
            if token.id not in place.pieces:
                place.pieces.append(token.id)
            place.icons.setdefault(_drawing(game, face.icon), face.icon)


def explained_in(markup: str) -> set[str]:
    """The icons ``markup`` (a chapter, a sheet) prints in a line of text with words in it: a paragraph, a
    list item, a table row, a heading or a line of an example box; not a directive (a figure)."""
    try:
        blocks = parse(markup)
    except MarkupError:
        blocks = None
    units = []
    for block in blocks if blocks is not None else ():
        if isinstance(block, TableBlock):
            units += [" ".join(row) for row in block.rows]
        elif isinstance(block, ListBlock):
            units += list(block.items)
        elif isinstance(block, Example):
            units += list(block.lines)
        elif isinstance(block, (Paragraph, Heading)):
            units.append(block.text)
    if blocks is None:                    # the chapter's own check reports the markup's mistake
        units = [line for line in markup.splitlines() if not line.lstrip().startswith("!")]
    found = set()
    for unit in units:
        if "[" in unit and _WORD.search(_ICON.sub(" ", unit)):
            found.update(n for n, _ in icons_used(unit) if n not in INLINE_ONLY)
    return found


def _texts(game, lang: str | None):
    """The markup of every sheet, then of the rulebook's chapters (what always prints of them), one at a
    time: a text that does not render is left to its own check."""
    from pnp.rulebook import sheets

    for spec in game.component_specs:
        if spec.kind == "sheet":
            try:
                yield sheets.markup(game, spec, lang)[0]
            except DataError:
                pass
    if any(spec.kind == "rulebook" for spec in game.component_specs):
        from pnp.rulebook.component import printed_chapters

        try:
            chapters = printed_chapters(game, lang or game.language)
        except DataError:
            return
        for _, markup in chapters:
            yield markup


def check_icon_keys(game, problems: Problems, lang: str | None = None) -> None:
    """A warning for every icon the boards and the hex map print that no key of the kit explains (see the
    module)."""
    printed, keyed = {}, set()
    emblem = getattr(getattr(game, "look", None), "emblem", None)
    if emblem:                          # the game's own sign: the cover prints it as the game's mark, by its title
        keyed.add(_drawing(game, emblem))
    for spec in game.component_specs:
        if spec.kind == "board":
            _board(game, spec, printed, keyed)
        elif spec.kind == "hexmap":
            _hexmap(game, spec, printed, keyed)
        elif spec.kind == "tokens":
            _tokens(game, printed, keyed)
    missing = {d for place in printed.values() for d in place.icons} - keyed
    if missing:
        _cards(game, keyed, lang)
        missing -= keyed
    if missing:
        for markup in _texts(game, lang):
            keyed.update(_drawing(game, n) for n in explained_in(markup))
            if not missing - keyed:
                break
    told = set()
    for place in printed.values():
        icons = [name for drawing, name in place.icons.items() if drawing not in keyed and drawing not in told]
        if not icons:
            continue
        told.update(_drawing(game, n) for n in icons)
        problems.warn(place.path, place.line, place.subject, _message(place, icons))


def _message(place: _Place, icons: list[str]) -> str:
    """What the warning says: the icons, where they print, and what would make a key for them."""
    one = len(icons) == 1
    named = f"icon '{icons[0]}'" if one else \
        "icons " + ", ".join(f"'{n}'" for n in icons[:-1]) + f" and '{icons[-1]}'"
    shown = place.pieces
    on = shown[0] if shown == ["the map's hexes"] else \
        f"piece '{shown[0]}'" if len(shown) == 1 else f"{len(shown)} pieces, e.g. '{shown[0]}'"
    in_words = (f"a sentence, list item or table row of a rulebook chapter or sheet that uses [{icons[0]}] "
                f"beside words")
    if place.token:
        fix = f"give the face a caption that names it (tokens.yaml), or {in_words}"
    elif place.legend_off is not None:
        fix = (f"print the map's legend (legend: true on the hexmap entry, game.yaml:{place.legend_off[1]}), "
               f"or {in_words}")
    else:
        fix = (f"give {'it' if one else 'each'} a key: a region that prints {'it' if one else 'one'} beside its "
               f"name, marked legend: true (on a board or a card), or {in_words}")
    return f"{named} on {on} {'has no key' if one else 'have no key'} anywhere in the kit; {fix}"
