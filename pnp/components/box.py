"""The box: a base and a lid as flat nets to cut, fold and glue, sized from box.yaml and the deck."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from pnp.cache import buildcache
from pnp.components import record
from pnp.text.credits import credit_lines
from pnp.components import BuildOptions, Component, Output, Part
from pnp.draw.icons import with_game_icons
from pnp.draw import fonts
from pnp.draw.text import fit
from pnp.errors import DataError, Problems, UserError
from pnp.loading.i18n import strings, translation, words_at
from pnp.layout.box import (LID_GOLD, MIN_TRAY_DEPTH, STYLES, BoxContent, BoxLabels, BoxSpec, NetTooLarge, Sleeve, box_layout,
                            decorate)
from pnp.layout.geometry import Text, Transform, flatten
from pnp.layout.outline import CutPiece, RectOutline
from pnp.text.markup import escape, fill, plain_text
from pnp.loading.paths import excerpt
from pnp.suggest import closest
from pnp.loading.tokendata import load_tokens
from pnp.loading.schema import Field, check as check_schema, parse_length
from pnp.loading.yamlsrc import line_of, load_yaml_or_report

BOX_FILE = "box.yaml"

#: Parameters of each style, declared once: box.yaml's ``style`` mapping is checked against these.
STYLE_SCHEMAS = {
    "telescoping": {
        "kind": Field("str", required=True, choices=tuple(STYLES)),
        "lid_clearance": Field("length", default=1.0, min=0, max=10,
                               doc="added to the base's outside to give the lid's inside"),
        "lid_depth": Field("any", default="full", doc="'full' or a length: how far the lid reaches down"),
    },
    "tuck": {
        "kind": Field("str", required=True, choices=tuple(STYLES)),
        "flap": Field("number", default=0.6, min=0.2, max=1.5, doc="flap height as a fraction of the depth"),
        "notch": Field("length", default=14.0, min=0, max=40, doc="thumb notch diameter"),
    },
}

SCHEMA = {
    "style": Field("any", required=True, doc="a mapping: kind, then that style's parameters (STYLE_SCHEMAS)"),
    "card_thickness": Field("length", required=True, min=0.05, max=3),
    "sleeves": Field("dict", default={}, items=Field("map", schema={
        "thickness": Field("length", required=True, min=0, max=1, doc="added to each card's thickness"),
        "oversize": Field("length", default=0.0, min=0, max=20, doc="added to the card's width and length"),
    })),
    "token_bags": Field("length", default=0.0, min=0, max=100),
    "clearance": Field("length", default=2.0, min=0, max=20),
    "material": Field("length", default=0.3, min=0, max=5),
    "glue_tab": Field("length", default=10.0, min=3, max=40),
    "bleed": Field("length", default=1.0, min=0, max=3),
    "pitch": Field("str", default=""),
    "title_lines": Field("int", default=1, min=1, max=3, doc="lines the title may take on the lid and sides"),
    "contents": Field("list", default=[], items=Field("map", schema={
        "count": Field("any", required=True, doc="a number, 'cards', 'aids', 'tokens', 'dice' or 'deck:<deck id>'"),
        "item": Field("str", required=True),
        "in_box": Field("bool", nullable=True, doc="whether the box holds it (default: yes for cards, aids and "
                                                   "tokens, which the box is sized for; no for dice and a "
                                                   "number)"),
    })),
}

#: Words printed on the box, with English defaults; templates/strings/<lang>.yaml or the game's i18n
#: files may override any of them.


@dataclass(frozen=True)
class BoxData:
    """The game's box.yaml, checked: the style and its parameters, the sizes, sleeves, pitch and contents,
    and the line of each top-level key."""

    path: str
    style: str
    style_params: dict
    spec_params: dict
    sleeves: dict            # name -> Sleeve
    pitch: str
    contents: tuple          # (count, item, line, in the box?)
    lines: dict              # top-level key -> line
    title_lines: int = 1     # a long title may wrap on the lid and the sides


def load_box(game, problems: Problems | None = None) -> BoxData | None:
    """Load and check the game's box.yaml (None when it is missing or has errors, which are reported)."""
    own = problems is None
    problems = Problems() if own else problems
    before = len(problems.errors)
    path = game.root / BOX_FILE
    if not (path.exists() or path.is_symlink()):
        problems.error(*game.where("components"), "components", f"the kit lists 'box' but the game has no {BOX_FILE}")
        if own:
            problems.raise_if_errors()
        return None
    raw = load_yaml_or_report(path, problems, within=game.root)
    if raw is None:
        if len(problems.errors) == before:
            problems.error(path, None, None, "the file is empty; expected a mapping with style, card_thickness, ...")
        if own:
            problems.raise_if_errors()
        return None
    top = check_schema(raw, SCHEMA, problems, path)
    style_raw = top.get("style")
    style, params = None, {}
    if isinstance(style_raw, dict):
        kind = style_raw.get("kind")
        if isinstance(kind, str) and kind in STYLE_SCHEMAS:
            params = check_schema(style_raw, STYLE_SCHEMAS[kind], problems, path, prefix="style")
            style = kind
            depth = params.get("lid_depth", "full")
            if "lid_depth" not in STYLE_SCHEMAS[kind]:
                params.pop("lid_depth", None)
            elif depth == "full":
                params["lid_depth"] = None
            else:
                mm = parse_length(depth)
                if mm is None or mm <= 0:
                    problems.error(path, line_of(style_raw, "lid_depth"), None,
                                   f"style.lid_depth: expected 'full' or a length in mm, got {depth!r}")
                elif mm < MIN_TRAY_DEPTH:       # its walls carry the title, its tabs the join letters
                    problems.error(path, line_of(style_raw, "lid_depth"), None,
                                   f"style.lid_depth: {mm:g} mm leaves the lid's walls no room for the title and "
                                   f"the glue tabs' letters; give at least {MIN_TRAY_DEPTH:g} mm, or 'full'")
                params["lid_depth"] = mm
        else:
            problems.error(path, line_of(style_raw, "kind") or line_of(raw, "style"), None,
                           f"style.kind: {excerpt(kind)} is not one of: {', '.join(STYLES)}")
    elif "style" in top:
        problems.error(path, line_of(raw, "style"), None, "style: expected a mapping with 'kind' and its parameters")
    contents = []
    raw_contents = raw.get("contents") if isinstance(raw, dict) else None
    for i, item in enumerate(top.get("contents") or []):
        count, line = item.get("count"), line_of(raw_contents, i)
        number = isinstance(count, int) and not isinstance(count, bool) and count >= 0
        wrong = None if number else _count_problem(game, count)
        if wrong:
            problems.error(path, line, f"contents #{i + 1}", f"count: {wrong}")
            continue
        if "item" in item:
            in_box = item.get("in_box")
            sized_for = not number and count != "dice"      # the box is sized for cards, aids and tokens
            contents.append((count, item["item"], line, sized_for if in_box is None else in_box))
    if style and contents and not _held_decks(game, tuple(contents)):
        problems.error(path, line_of(raw, "contents"), "contents",
                       "every card travels beside the box (in_box: false), and a box is sized for the cards it "
                       "holds: put a deck in it, or leave the box out of the kit")
    sleeves = {name: Sleeve(name, s["thickness"], s.get("oversize") or 0.0)
               for name, s in (top.get("sleeves") or {}).items() if "thickness" in s}
    result = BoxData(str(path), style, params,
                     {k: top.get(k) for k in ("card_thickness", "token_bags", "clearance", "material", "glue_tab",
                                              "bleed")},
                     sleeves, (top.get("pitch") or "").strip(), tuple(contents),
                     dict(getattr(raw, "key_lines", {})), top.get("title_lines") or 1)
    if own:
        problems.raise_if_errors()
    return result if style and len(problems.errors) == before else None


def token_count(game) -> int | None:
    """Total tokens in tokens.yaml; None when the game has none (or it has errors, reported elsewhere)."""
    try:
        tokens = load_tokens(game)
    except DataError:
        return None
    return tokens.total if tokens else None


COUNT_SOURCES = ("cards", "tokens", "aids", "dice")


def dice_count(game) -> int | None:
    """Every die of the kit's dice components (None: the game has no dice component, or its dice have
    errors, reported elsewhere)."""
    from pnp.components.dice import dice_faces

    specs = [s for s in game.component_specs if s.kind == "dice"]
    if not specs:
        return None
    try:
        return sum(len(dice_faces(game, s)[0]) for s in specs)
    except DataError:
        return None


def _count_problem(game, count) -> str | None:
    """What is wrong with a contents line's ``count`` that is not a number (None: nothing): a word pnp does
    not count, a deck the game does not have, or ``aids`` in a game without player-aid cards (a line that
    would print nothing), each with the closest thing that exists."""
    decks = [d.id for d in game.decks]
    expected = f"expected a number, one of {', '.join(COUNT_SOURCES)} or deck:<deck id>, got {excerpt(count)}"
    if not isinstance(count, str):
        return expected
    if count == "aids":
        if game.aid_count:
            return None
        if "aids" in decks:
            return ("'aids' counts the player-aid cards (a deck's aids:), and the game has none; did you mean "
                    "deck:aids (the deck 'aids')?")
        return "'aids' counts the player-aid cards (a deck's aids:, or player_aid:), and the game has none"
    if count == "dice" and not any(s.kind == "dice" for s in game.component_specs):
        return "'dice' counts the dice of the kit's dice components (kind: dice), and the game has none"
    if count in COUNT_SOURCES:
        return None
    if count.startswith("deck:"):
        if count[5:] in decks:
            return None
        close = closest(count[5:], decks)
        return (f"the game has no deck {excerpt(count[5:])}" +
                (f"; did you mean deck:{close}?" if close else f" (its decks: {', '.join(decks)})"))
    if count in decks:
        return f"{expected}; did you mean deck:{count}?"
    close = closest(count, [*decks, *COUNT_SOURCES], builtin=COUNT_SOURCES)    # the game's decks first
    if close is not None and close not in COUNT_SOURCES:
        return f"{expected}; did you mean deck:{close}?"
    return f"{expected}; did you mean {close}?" if close else expected


def _held_decks(game, contents) -> tuple:
    """The decks whose cards the box holds, by box.yaml's contents lines: every deck, but those a line
    ``deck:<id>`` puts beside the box (``in_box: false``), or all of them when a ``cards`` line travels
    beside (unless a ``deck:<id>`` line puts that deck back in)."""
    inside = {d.id: True for d in game.decks}
    for count, _, _, in_box in contents:
        if count == "cards" and not in_box:
            inside = dict.fromkeys(inside, False)
    for count, _, _, in_box in contents:
        if isinstance(count, str) and count.startswith("deck:") and count[5:] in inside:
            inside[count[5:]] = bool(in_box)
    return tuple(d for d in game.decks if inside[d.id])


def _aid_decks(game, contents, decks) -> tuple:
    """The decks whose player-aid cards the box holds: those of the decks it holds, unless an ``aids`` line
    says where the aids go (``in_box``: every deck's aids, or none)."""
    said = [in_box for count, _, _, in_box in contents if count == "aids"]
    chosen = (game.decks if said[-1] else ()) if said else decks
    return tuple(d for d in chosen if d.aid_copies)


def spec(game, data: BoxData, sleeved: str | None) -> BoxSpec:
    if sleeved is not None and sleeved not in data.sleeves:
        raise UserError(f"--sleeved {sleeved}: {data.path} has no such sleeve kind "
                        f"(known: {', '.join(data.sleeves) or 'none'})")
    p = data.spec_params
    # the box holds the cards of the decks that go in it (every deck unless the contents say otherwise),
    # their player aids included, and fits the largest of their card sizes
    decks = _held_decks(game, data.contents) or game.decks       # none: an error validation reports
    aids = _aid_decks(game, data.contents, decks)
    sized = decks + tuple(d for d in aids if d not in decks)
    return BoxSpec(card_w=max(d.width for d in sized), card_l=max(d.height for d in sized),
                   cards=sum(len(d.physical()) for d in decks) + sum(d.aid_copies for d in aids),
                   card_thickness=p["card_thickness"], token_bags=p["token_bags"], clearance=p["clearance"],
                   material=p["material"], glue_tab=p["glue_tab"], bleed=p["bleed"],
                   sleeve=data.sleeves.get(sleeved) if sleeved else None, style=data.style_params)


def _range(words, key, pair) -> str:
    lo, hi = pair
    return fill(words[key + "_one"], min=lo) if lo == hi else fill(words[key], min=lo, max=hi)


def words_for(game, lang) -> dict:
    return strings(game, lang)


def listed(game, data: BoxData, lang=None) -> list[tuple[int, str, bool]]:
    """box.yaml's contents as (how many, what, whether the box holds it), counts worked out from the
    data (cards: those of the decks on the line's side of the box; a deck, aids, tokens, dice) and names in
    ``lang``; a ``tokens`` line of a game without tokens.yaml is left out."""
    tokens = token_count(game)
    items = (translation(game, lang or game.language).get("box") or {}).get("items") or {}
    held = _held_decks(game, data.contents)
    out = []
    for count, item, _, in_box in data.contents:
        if count == "cards":            # the cards on the line's side of the box (every card, unless decks part)
            count = sum(len(d.physical()) for d in game.decks if (d in held) == bool(in_box))
        elif isinstance(count, str) and count.startswith("deck:"):
            deck = next((d for d in game.decks if d.id == count[5:]), None)
            count = len(deck.physical()) if deck else 0
        elif count == "tokens":
            if tokens is None:
                continue
            count = tokens
        elif count == "aids":
            count = game.aid_count
            if not count:
                continue
        elif count == "dice":
            count = dice_count(game)
            if not count:
                continue
        out.append((count, items.get(item, item), in_box))
    return out


def manifest_entry(game, lang=None) -> dict | None:
    """What the box holds and what travels beside it, for manifest.json (None without a valid box)."""
    try:
        data = load_box(game)
    except DataError:
        return None
    if data is None:
        return None
    both = listed(game, data, lang)
    return {"holds": [{"count": n, "item": item} for n, item, inside in both if inside],
            "beside": [{"count": n, "item": item} for n, item, inside in both if not inside]}


def content(game, data: BoxData, lang=None) -> BoxContent:
    words = words_for(game, lang)
    facts = [_range(words, "box_players", game.players)]
    if game.minutes:
        facts.append(_range(words, "box_minutes", game.minutes))
    if game.ages:
        facts.append(fill(words["box_ages"], ages=game.ages))
    tr = translation(game, lang or game.language).get("box") or {}
    lines, beside = [], []
    for count, item, in_box in listed(game, data, lang):
        (lines if in_box else beside).append(f"{count} {escape(item)}")
    # the title, pitch and items are data (escaped); the printed words are markup
    look = game.look
    emblems = ((look.emblem, look.colour("accent", LID_GOLD)),) if look.emblem else \
        tuple((f.emblem, f.colour) for f in game.factions)
    return BoxContent(title=escape(game.title), title_lines=data.title_lines, emblems=emblems,
                      colours=look.palette, art=str(look.art) if look.art else None,
                      facts=tuple(facts), pitch=escape(tr.get("pitch") or data.pitch),
                      contents_heading=words["box_contents"], contents=tuple(lines), beside=tuple(beside),
                      beside_heading=words["box_beside"], credits=tuple(credit_lines(game, words)))


def labels(game, lang=None) -> BoxLabels:
    w = words_for(game, lang)
    faces = {k: w[f"box_{k}"] for k in ("top", "bottom", "front", "back", "left", "right")}
    faces.update({"lid": w["box_lid"], "flap": w["box_flap"]})
    faces.update({f"dust{k}": w["box_dust"] for k in range(1, 5)})
    return BoxLabels(sheet=w["box_sheet"], parts={"lid": w["box_lid"], "base": w["box_base"], "tuck": w["box"]},
                     faces=faces,
                     glue=w["box_glue"], how=w["box_how"], letters=w["box_letters"], tab_edge=w["box_tab_edge"],
                     edges={s: w[f"box_edge_{s}"] for s in "nsew"}, elsewhere=w["box_elsewhere"])


def layout(game, options: BuildOptions, data: BoxData | None = None):
    data = data or load_box(game)
    w, h = options.page_size
    style, sized, words, label = (STYLES[data.style](), spec(game, data, options.sleeved),
                                  content(game, data, options.lang), labels(game, options.lang))
    result = box_layout(style, sized, words, w, h, label)
    if "title_lines" not in data.lines:      # a title one line cannot hold on the lid wraps by itself
        while words.title_lines < 3 and _title_crammed(result):
            words = replace(words, title_lines=words.title_lines + 1)
            result = box_layout(style, sized, words, w, h, label)
    for page in result.pages:
        page.elements[:] = [e for e in (_roomier(e) for e in page.elements) if e is not None]
    return result


def _title_crammed(result) -> bool:
    """Whether the game's title does not fit the lid's top on its lines, even at its smallest size."""
    return any(isinstance(el, Text) and el.role == "lid-title" and not fit(el.markup, el.style, el.rect.w, el.rect.h).ok
               for page in result.pages for el in flatten(page.elements))


#: Lines a text of pnp's lettering may take when its usual ones cannot hold it even at its smallest size: a
#: sheet's note (a lid split in five pieces names eight lettered edges: 584 characters in Spanish), the lid's
#: facts (players, time and ages in Spanish on a lid for mini cards), the title on a wall of a box for mini
#: cards ('Orchard Silver' in capitals on a 32 mm wall). Each still fits its place.
MORE_LINES = {"note": 3, "lid-fact": 2, "side-title": 2, "spine-title": 2}


def _roomier(el):
    """``el``, a text of :data:`MORE_LINES` allowed that many lines when its usual ones cannot hold it."""
    if isinstance(el, Transform) and el.role == "spine":    # a tuck box's side wall: its title turned a quarter
        inner = tuple(_roomier(e) for e in el.elements)
        title = [e for e in inner if isinstance(e, Text)]
        # the spine's title is an ornament: one that cannot fit a thin wall even on two lines is left off
        if any(not fit(t.markup, t.style, t.rect.w, t.rect.h).ok for t in title):
            return None
        return replace(el, elements=inner)
    lines = MORE_LINES.get(getattr(el, "role", None)) if isinstance(el, Text) else None
    if lines is None or fit(el.markup, el.style, el.rect.w, el.rect.h).ok:
        return el
    return replace(el, style=replace(el.style, max_lines=lines))


def _texts(elements):
    """Every text of ``elements``, those a transform turns (a tuck box's spine title) included."""
    for el in flatten(elements):
        if isinstance(el, Transform):
            yield from _texts(el.elements)
        elif isinstance(el, Text):
            yield el


@with_game_icons
def build(game, options: BuildOptions, spec=None) -> list[Output]:
    game = buildcache.counts_only(game)          # all the box reads of the cards (Component.view)
    words = words_for(game, options.lang)
    out = Output("box.pdf", words["box"], layout(game, options).pages, parts=(Part("box", "box", 1, words["box"]),))
    out.record = record.fragment(game, "box", *printed(game, options))
    return [out]


def printed(game, options: BuildOptions, spec=None) -> tuple[str, list]:
    """(title, the box: its sheets' drawing as one piece, sized for the deck), for :mod:`pnp.reprint.changes`."""
    from pnp.layout.geometry import Group

    title = words_for(game, options.lang)["box"]
    sheets = tuple(Group(tuple(page.elements), role=f"sheet {i + 1}") for i, page in enumerate(layout(game, options).pages))
    return title, [record.Printed("box", "box#1", title, sheets, (), {})]


@with_game_icons
def reprinted(game, options: BuildOptions, labels: set, first: int, spec=None) -> record.Reprinted:
    """The box's sheets again."""
    return record.Reprinted([(page, None) for page in layout(game, options).pages])


@with_game_icons
def check(game, problems, options: BuildOptions | None = None, spec=None) -> None:
    """box.yaml is valid, the sleeve kind exists, every piece fits the sheet, and every text fits its box."""
    game = buildcache.counts_only(game)
    data = load_box(game, problems)
    if data is None:
        return
    sleeved = options.sleeved if options else None
    if sleeved is not None and sleeved not in data.sleeves:
        problems.error(data.path, data.lines.get("sleeves"), "sleeves",
                       f"no sleeve kind '{sleeved}' (--sleeved); known: {', '.join(data.sleeves) or 'none'}")
        return
    lang = options.lang if options else None
    papers = (options.paper,) if options else ("letter", "a4")
    kinds = [sleeved] if options else [None, *data.sleeves]
    reported = set()
    items = (translation(game, lang).get("box") or {}).get("items") if lang else None
    keys = ["box.pitch", "title", *(f"box.items.{item}" for item in (items if isinstance(items, dict) else ()))]

    def where(el):        # the translation's line for its words, else where they are written
        return words_at(game, lang, el.markup, keys) or _where(el.role, game, data)
    for paper in dict.fromkeys(papers):
        for kind in kinds:
            what = f"on {paper}" + (f" with {kind} sleeves" if kind else "")
            try:
                result = layout(game, BuildOptions(paper=paper, sleeved=kind, lang=lang), data)
            except NetTooLarge as exc:
                problems.error(data.path, data.lines.get("style"), "box", f"{exc} ({what})")
                continue
            for page in result.pages:
                for el in _texts(page.elements):
                    fitted = fit(el.markup, el.style, el.rect.w, el.rect.h)
                    key = (el.role, el.markup, fitted.ok)
                    if not fitted.ok and key not in reported:
                        reported.add(key)
                        problems.error(*where(el), "box",
                                       f"{el.role} text does not fit its {el.rect.w:.1f} x {el.rect.h:.1f} mm box "
                                       f"{what} even at {el.style.min_size or el.style.size:g} pt "
                                       f"({fitted.reason}): {_short(el.markup)!r}")
                    missing = fonts.missing_glyphs(plain_text(el.markup), fonts.font_name(el.style.font))
                    if missing and ("glyphs", el.markup) not in reported:
                        reported.add(("glyphs", el.markup))
                        problems.error(*where(el), "box",
                                       f"{el.role} text uses characters the font cannot print: "
                                       f"{' '.join(sorted(missing))}")


#: Texts on the box the game's data writes: role -> game.yaml's keys that write them, the first given.
GAME_TEXTS = {"lid-title": ("title",), "side-title": ("title",), "spine-title": ("title",), "base-title": ("title",),
              "lid-fact": ("players", "minutes", "ages"), "credits": ("author", "artist", "publisher", "credits")}


def _where(role: str, game, data: BoxData) -> tuple:
    """(file, line) of what a text on the box prints: box.yaml's pitch or contents, game.yaml's title, facts or
    credits; pnp's own words (notes, labels, headings) at box.yaml's ``style``, the design that places them."""
    for key in GAME_TEXTS.get(role, ()):
        path, line = game.where(key)
        if line is not None:
            return path, line
    key = {"pitch": "pitch", "contents": "contents", "beside": "contents"}.get(role, "style")
    return data.path, data.lines.get(key)


def _short(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[: n - 1] + "\u2026"


@with_game_icons
def check_files(game, problems, spec=None) -> None:
    """box.yaml is valid (reported with every other file's problems), and its contents name every
    component the kit makes."""
    data = load_box(game, problems)
    if data is not None:
        check_unlisted(game, data, problems)


#: What a component's kind is called in a contents line's words (besides its title and its id).
KIND_WORDS = {"track": ("track",), "board": ("board",), "standee": ("standee",), "hexmap": ("map",),
              "sheet": ("sheet",), "pad": ("pad", "sheet"), "dice": ("dice", "die"),
              "rulebook": ("rulebook", "rules", "booklet")}


def _stem(word: str) -> str:
    word = word.lower()
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def check_unlisted(game, data: BoxData, problems) -> None:
    """A warning at box.yaml's ``contents`` for each component of the kit that no contents line counts
    or names, when the contents list anything (the box's side and the rulebook's back cover print them
    as what is in the box and beside it): Tide Clock's listed neither its Tide Clock track, its boards
    nor its standees; Valeria's, its Warden standees. A line names a component by a word of its title,
    its id or its kind ("2 Harbour boards", "36 standees"); cards, aids, tokens and dice are counted by
    their words (``cards`` or every ``deck:<id>``, ``aids``, ``tokens``, ``dice``)."""
    if not data.contents:
        return
    printed = strings(game, game.language)      # a component's name in the game's own words ("Livret de règles")
    counts = {count for count, _, _, _ in data.contents if isinstance(count, str)}
    said = {_stem(w) for _, item, _, _ in data.contents for w in re.findall(r"\w+", str(item))}
    missing = []
    for spec in game.component_specs:
        if spec.kind in ("instructions", "box"):
            continue
        if spec.kind == "cards":
            decks = [d for d in game.decks if "cards" not in counts and f"deck:{d.id}" not in counts]
            missing += [f"the {d.name} cards (count: deck:{d.id})" for d in decks if d.physical()]
            if game.aid_count and "aids" not in counts:
                missing.append(f"the {game.aid_count} player aids (count: aids)")
            continue
        if spec.kind == "tokens" and "tokens" in counts or spec.kind == "dice" and "dice" in counts:
            continue
        title = spec.config.get("title")
        names = f"{title or ''} {spec.id.replace('_', ' ')} {printed.get(spec.id, '')} {printed.get(spec.kind, '')}"
        words = {_stem(w) for w in re.findall(r"\w+", names) if len(w) > 2} | \
            set(KIND_WORDS.get(spec.kind, (spec.kind,)))
        if not words & said:
            missing.append(f"{title or spec.id.replace('_', ' ')} ({spec.kind} '{spec.id}')")
    if missing:
        problems.warn(data.path, data.lines.get("contents"), "contents",
                      f"no line lists {', '.join(missing)}, which the kit makes: the box and the rulebook's "
                      f"back cover print these lines as what is in the box and beside it; add a line for each "
                      f"(a count and its name, in_box: false for what travels beside the box)")


@with_game_icons
def cut_pieces(game, options: BuildOptions | None = None, spec=None):
    """Each printed panel of the box's nets, inside its folds and cuts."""
    data = load_box(game)
    if data is None:
        return
    options = options or BuildOptions()
    result = layout(game, options, data)
    words = content(game, data, options.lang)
    for pl in result.placements:
        for face in pl.piece.faces:
            elements = decorate(face, face.rect, words)
            if elements:
                yield CutPiece(spec.id if spec else "box", f"{face.part} {face.side}", RectOutline(face.rect,
                               name="panel's folds and cuts"), tuple(elements), (data.path, None))


def words(game, spec=None) -> list:
    """What box.yaml prints that a translation gives: the pitch (``box.pitch``) and each contents line's
    item (``box.items.<item as written>``)."""
    from pnp.loading.i18n.catalogue import Source

    path = game.root / BOX_FILE
    raw = load_yaml_or_report(path, Problems(), within=game.root) if path.is_file() else None
    if not isinstance(raw, dict):
        return []
    out = []
    if isinstance(raw.get("pitch"), str) and raw["pitch"].strip():
        out.append(Source("box.pitch", raw["pitch"], path, line_of(raw, "pitch"), "box", "pitch"))
    contents = raw.get("contents")
    for i, item in enumerate(contents if isinstance(contents, list) else []):
        if isinstance(item, dict) and isinstance(item.get("item"), str):
            out.append(Source(f"box.items.{item['item']}", item["item"], path, line_of(contents, i), "box",
                              "contents item"))
    return out


COMPONENT = Component("box", build, check, check_files=check_files, pieces=cut_pieces, words=words,
                      printed=printed, reprint=reprinted, view=buildcache.counts_only)
