"""Icons with no key: every icon the kit prints on a piece (a board, a player board, a map, the hex map, a
pad, a track, a token, a card) is explained somewhere a player reads it, or ``pnp validate`` warns at the
line of the data that prints it.

A player who meets a symbol on a piece needs its meaning in words. An icon counts as explained (keyed)
when the kit prints it beside words that name it:

* a region of any board's, pad's or card's layout marked ``legend: true`` (a key of icons and their names,
  an icon with its name beside it, a player aid's key): every icon it prints is keyed for the whole kit;
* the hex map's own legend (the ``hexmap`` entry's ``legend``, on by default): each terrain's icon;
* game.yaml's ``icon_key`` (each icon with what it means), which the instructions page prints;
* a faction's emblem on a token that prints the faction's name (``caption: faction``): it means that
  faction wherever it prints; any other token face with a caption (its name) is its own key, and keys no
  other piece's icon;
* the game's own sign (``look: emblem``): the cover and the box print it as the game's mark, not as a
  symbol with a meaning to learn;
* a sheet or a chapter of the rulebook that uses the icon in a line of text with words in it (a
  sentence, a list item, a table row, a heading: ``[gem] Gem: ...``; ``[pips:2]`` keys the rank pips); a
  figure does not count, nor the part of a chapter after ``!spare`` (it prints only when the booklet has
  pages to spare).

An icon is the picture it draws: ``[gold]`` keys ``[coin]`` when game.yaml's ``icons:`` makes one the
other. What is left is one warning per place that first prints an unkeyed icon: a card's line in its deck
file when its own data writes the icon (its text, flavour or ability), else the layout region's line (with
how many pieces and one of them); the map file's terrain line; the token's line of tokens.yaml; a track's
entry. Nothing is drawn: the pieces and card faces are the ones their own checks laid out (memoized), and
the sheets' and the rulebook's markup is rendered only when an icon has no key on the pieces.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pnp.errors import DataError, Problems
from pnp.layout.geometry import Icon, Text, flatten
from pnp.text.markup import (INLINE_ONLY, Example, Heading, ListBlock, MarkupError, Paragraph, TableBlock, icons_used,
                              parse, plain_text)

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
    shown: set = field(default_factory=set)         # the names in ``pieces`` (a list look-up: quadratic)
    icons: dict = field(default_factory=dict)       # drawing -> the name it is printed by (first seen)
    legend_off: tuple | None = None                 # a hex map's terrain: (path, line) of its entry, legend off
    token: bool = False                             # a token's face: a caption naming it is its key

    def show(self, name) -> None:
        """Note a piece that prints here, once (in the order met: the warning names the first)."""
        if name not in self.shown:
            self.shown.add(name)
            self.pieces.append(name)


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


def _laid_out(game, what: str, sides, printed: dict, keyed: set, own=None, memo: dict | None = None) -> None:
    """The icons of laid out pieces: ``sides`` is [(layout, [(piece name, elements)])]; an icon in a
    ``legend: true`` region is keyed, any other printed at its region's line (``what``: the subject's
    start, "board 'x'"). ``own(piece name)``: (path, line, subject, icon names, declared) of the piece's own
    data (a card's row): an icon its data writes is printed at that line instead, and one that
    ``declared(icon)`` finds declared in game.yaml (a field's icon, a faction's emblem) at that line; a
    sixth, (path, line) of the deck, takes the place of a region of pnp's own layouts (not the game's).
    ``memo``: a dict kept over the calls of one check (a deck's cards share their layouts), for what the
    layouts say of their regions."""
    memo = {} if memo is None else memo
    for layout, pieces in sides:
        if layout is None:
            continue
        found = memo.get(("regions", id(layout)))
        if found is None or found[0] is not layout:
            found = memo[("regions", id(layout))] = (layout, _regions(layout))
        names, legend = found[1]
        for name, elements in pieces:
            mine = own(name) if own is not None else None
            for element in flatten(elements):
                icons = _element_icons(element)
                if not icons:
                    continue
                role = (element.role or "").split(":", 1)[0]
                if role in legend:
                    keyed.update(_drawing(game, n) for n in icons)
                    continue
                for n in icons:
                    declared = mine[4](n) if mine is not None and n not in mine[3] else None
                    if mine is not None and n in mine[3]:
                        path, line, subject = mine[:3]
                        place = printed.setdefault((str(path), line, subject), _Place(path, line, subject))
                    elif declared is not None:
                        path, line, subject = declared
                        place = printed.setdefault((str(path), line, subject), _Place(path, line, subject))
                    else:
                        region = names.get(role, role)
                        at = memo.get(("where", id(layout), region))
                        if at is None or at[0] is not layout:
                            path, line = layout.where(region)
                            at = memo[("where", id(layout), region)] = (layout, path, line,
                                                                        _inside(path, game.root))
                        _, path, line, inside = at
                        subject = f"{what}: layout '{layout.name}', region '{region}'"
                        if mine is not None and len(mine) > 5 and not inside:
                            path, line = mine[5]        # pnp's own layout: the deck that uses it
                        place = printed.setdefault((str(path), line, region), _Place(path, line, subject))
                    place.show(name)
                    place.icons.setdefault(_drawing(game, n), n)


def _inside(path, root) -> bool:
    from pathlib import Path

    try:
        Path(path).resolve().relative_to(Path(root).resolve())
        return True
    except (ValueError, OSError, TypeError):
        return False


def _board(game, spec, printed: dict, keyed: set) -> None:
    """A board entry's icons: keyed where its regions say ``legend: true``, else printed at the region."""
    from pnp.components import board

    try:
        pieces = board.pieces(game, spec)
        front, back = board.layouts(game, spec)
    except DataError:                     # the board's own check reports it
        return
    sides = [(front, [(p.name, p.front) for p in pieces])]
    if back is not None:
        sides.append((back, [(f"{p.name} (back)", p.back or ()) for p in pieces]))
    _laid_out(game, f"board '{spec.id}'", sides, printed, keyed)


def _pad(game, spec, printed: dict, keyed: set) -> None:
    """A pad's icons, as a board's: keyed where its regions say ``legend: true``, else printed at the
    region."""
    from pnp.components import pad

    try:
        laid = pad.pad(game, spec)
        front, back = pad.layouts(game, spec)
        name = plain_text(pad.title(game, spec))
    except DataError:                     # the pad's own check reports it
        return
    sides = [(front, [(name, laid.front)])]
    if back is not None and laid.back is not None:
        sides.append((back, [(f"{name} (back)", laid.back)]))
    _laid_out(game, f"pad '{spec.id}'", sides, printed, keyed)


def _track(game, spec, printed: dict, keyed: set) -> None:
    """A track's page: an icon its words print (none of pnp's tracks draws one of its own today) is
    printed at the track's entry of game.yaml."""
    from pnp.components import BuildOptions, track

    try:
        page = track.layout(game, BuildOptions(), spec).page
    except DataError:
        return
    path = game.root / "game.yaml"
    line = spec.line if spec.config or spec.id != "power_track" else game.where("power_track")[1]
    name = spec.id
    for element in flatten(page.elements):
        for n in _element_icons(element):
            place = printed.setdefault((str(path), line, name), _Place(path, line, f"track '{name}'"))
            place.show(name)
            place.icons.setdefault(_drawing(game, n), n)


def _declared(game, deck, name: str) -> tuple | None:
    """(path, line, subject) of what in game.yaml makes a card face print icon ``name`` when no card's own
    data writes it: a field's ``icon``, a faction's ``emblem``; None when a layout draws it itself."""
    game_yaml = game.root / "game.yaml"
    for f in deck.fields:
        if getattr(f, "icon", None) == name:
            return game_yaml, f.line or deck.line, f"deck '{deck.id}': field '{f.name}'"
    for faction in game.factions:
        if faction.emblem == name:
            return (*game.where("factions", faction.id), f"faction '{faction.id}'")
    if name == "pip" and game.ranks:      # rank pips: the ranks' pips
        return (*game.where("ranks", game.ranks[0].id), f"rank '{game.ranks[0].id}'")
    return None


def _card_faces(game, printed: dict, keyed: set, lang: str | None) -> None:
    """Every card face's icons (side B too): keyed where its layout's regions say ``legend: true``; an icon
    the card's own data writes (its text, flavour or ability) printed at the card's line; one a deck field
    or a faction declares at that line of game.yaml; any other (a layout's own icon) at its region's line."""
    from pnp.components.cards import laid_out_face, layout_of, printed_mark, side_b_face
    from pnp.layout.regions import RegionError
    from pnp.loading.cardtext import ability_text

    memo: dict = {}                       # the layouts' regions, and what game.yaml declares, once per deck

    def declared(deck, name):
        found = memo.get(("declared", id(deck), name))
        if found is None or found[0] is not deck:
            found = memo[("declared", id(deck), name)] = (deck, _declared(game, deck, name))
        return found[1]

    for deck in game.decks:
        size = (deck.width, deck.height)
        for card in deck.cards:
            mark = printed_mark(game, card, 1)
            try:
                sides = [(deck, card, laid_out_face(game, deck, card, lang, mark, size, 0.0))]
                back = side_b_face(game, deck, card, lang, mark, size, 0.0)
            except (RegionError, DataError):
                continue                  # the card's own check reports it
            if back is not None:
                sides.append((deck.b, card.side_b, back))
            try:
                ability = ability_text(game, card, lang) or ""
            except DataError:
                ability = ""
            path, line = game.source(card)
            for shown_deck, shown, elements in sides:
                written = " ".join([ability if shown is card else "", shown.flavour or "",
                                    *(str(v) for v in shown.stats.values() if isinstance(v, str))])
                mine = (path, line, f"card '{card.id}'" + (" side B" if shown is not card else ""),
                        {n for n, _ in icons_used(written)} if "[" in written else set(),
                        lambda n, d=shown_deck: declared(d, n), game.deck_where(deck))
                _laid_out(game, f"deck '{deck.id}'", [(layout_of(shown_deck, shown), [(shown.name, elements)])],
                          printed, keyed, own=lambda _name, mine=mine: mine, memo=memo)


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
        # a faction's emblem with the faction's name (caption: faction) keys that emblem wherever it prints:
        # it means the faction on a card as on the token
        faction = next((f for f in game.factions if f.id == token.faction), None)
        if faction is not None and faction.emblem and any(f.icon == faction.emblem and f.caption == "faction"
                                                          for f in faces):
            keyed.add(_drawing(game, faction.emblem))
        for face in faces:
            if _drawing(game, face.icon) in named:
                continue
            place = printed.setdefault((str(tokens.path), token.line, token.id),
                                       _Place(tokens.path, token.line, f"tokens: token '{token.id}'", token=True))
            place.show(token.id)
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
            # rank pips ([pips:2]) draw the built-in pip icon
            found.update("pip" if n == "pips" else n for n, _ in icons_used(unit))
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
    if any(spec.kind == "instructions" for spec in game.component_specs):
        # the designer's key (game.yaml's icon_key) prints on the instructions page
        keyed.update(_drawing(game, name) for name, _, _ in getattr(game, "icon_key", ()))
    for spec in game.component_specs:
        if spec.kind == "board":
            _board(game, spec, printed, keyed)
        elif spec.kind == "hexmap":
            _hexmap(game, spec, printed, keyed)
        elif spec.kind == "tokens":
            _tokens(game, printed, keyed)
        elif spec.kind == "pad":
            _pad(game, spec, printed, keyed)
        elif spec.kind == "track":
            _track(game, spec, printed, keyed)
    _card_faces(game, printed, keyed, lang)
    missing = {d for place in printed.values() for d in place.icons} - keyed
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
        fix = (f"give the face a caption that names it (tokens.yaml), an entry in game.yaml's icon_key (the "
               f"instructions page prints it), or {in_words}")
    elif place.legend_off is not None:
        fix = (f"print the map's legend (legend: true on the hexmap entry, game.yaml:{place.legend_off[1]}), "
               f"or {in_words}")
    else:
        fix = (f"give {'it' if one else 'each'} a key: game.yaml's icon_key (the instructions page prints it), a "
               f"region that prints {'it' if one else 'one'} beside its name, marked legend: true (on a board, pad "
               f"or card), or {in_words}")
    return f"{named} on {on} {'has no key' if one else 'have no key'} anywhere in the kit; {fix}"
