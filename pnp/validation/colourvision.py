"""Colour for everyone: how a game's colours look to players with a colour-vision deficiency or in a
greyscale print, and which colours that tell things apart come too close to do it.

The three common deficiencies are simulated at full strength (deuteranomaly, protanomaly and tritanomaly
at severity 100: deuteranopia, protanopia and tritanopia) with colorspacious's model of Machado, Oliveira
and Fernandes (2009); greyscale keeps a colour's lightness (CAM02-UCS J') and drops its hue. Distances
are ΔE in CAM02-UCS, where 1 is about the smallest difference one can see: two colours that mark different
things (two factions' frames) and come closer than :data:`TOO_CLOSE` under a simulation are hard to tell
apart at a glance for such a player. :func:`vision_problems` warns about such pairs unless something else
tells them apart on the card (a faction's own emblem).
"""

from __future__ import annotations

import re
from dataclasses import asdict, is_dataclass
from functools import lru_cache
from itertools import combinations

#: The simulations ``pnp preview --vision`` and ``pnp validate`` use, by their short names.
VISIONS = {"deutan": "deuteranomaly", "protan": "protanomaly", "tritan": "tritanomaly", "grey": "greyscale"}
#: ΔE (CAM02-UCS) under which two colours that mark different things count as too close (pnp's threshold:
#: the Empire's red and the Rebels' green of Shadow Throne, 45.6 apart in full colour, are 8.2 apart
#: for a deuteranope).
TOO_CLOSE = 10.0


def _cs():
    import colorspacious        # a dependency of pnp; imported when a check or a preview needs it
    return colorspacious


def _rgb(colour: str) -> tuple:
    return tuple(int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))


def simulate(rgb, vision: str):
    """sRGB values in 0..1 (one colour, or an array of them: ``(..., 3)``) as seen with ``vision`` (a key of
    :data:`VISIONS`), clipped to 0..1."""
    import numpy as np

    cs = _cs()
    rgb = np.asarray(rgb, dtype=float)
    if vision == "grey":
        jab = cs.cspace_convert(rgb, "sRGB1", "CAM02-UCS")
        jab[..., 1:] = 0.0
        out = cs.cspace_convert(jab, "CAM02-UCS", "sRGB1")
    else:
        space = {"name": "sRGB1+CVD", "cvd_type": VISIONS[vision], "severity": 100}
        out = cs.cspace_convert(rgb, space, "sRGB1")
    return np.clip(out, 0.0, 1.0)


@lru_cache(maxsize=4096)
def distance(a: str, b: str, vision: str | None = None) -> float:
    """ΔE (CAM02-UCS) between two ``#rrggbb`` colours, as seen with ``vision`` (None: full colour vision)."""
    x, y = _rgb(a), _rgb(b)
    if vision:
        x, y = simulate(x, vision), simulate(y, vision)
    return float(_cs().deltaE(x, y, input_space="sRGB1", uniform_space="CAM02-UCS"))


def close_pairs(colours: dict, threshold: float = TOO_CLOSE) -> list[tuple]:
    """(name a, name b, vision, ΔE) for every pair of ``colours`` ({name: #rrggbb}) that full colour vision
    tells apart (at least ``threshold``) but a simulation brings under it: the worst simulation of each."""
    found = []
    for (na, a), (nb, b) in combinations(colours.items(), 2):
        if a.lower() == b.lower() or distance(a, b) < threshold:
            continue
        worst = min(((distance(a, b, v), v) for v in VISIONS), key=lambda t: t[0])
        if worst[0] < threshold:
            found.append((na, nb, worst[1], round(worst[0], 1)))
    return found


def vision_problems(game, problems) -> None:
    """Warnings for the factions whose colours a colour-vision deficiency or a greyscale print brings too
    close, when nothing else tells them apart on the cards (their emblems are the same)."""
    if len(game.factions) < 2 or not any(c.faction for c in game.cards):
        return
    by_id = {f.id: f for f in game.factions}
    for a, b, vision, delta in close_pairs({f.id: f.colour for f in game.factions}):
        if by_id[a].emblem != by_id[b].emblem:
            continue        # a second cue: each faction's own emblem on its cards
        problems.warn(*game.where("factions", b), f"faction '{b}'",
                         f"colour {by_id[b].colour} and faction '{a}''s {by_id[a].colour} come within ΔE {delta:g} "
                         f"of each other for {_reader(vision)} (under {TOO_CLOSE:g}), and both show the emblem "
                         f"'{by_id[a].emblem}': give one a colour further apart, or an emblem of its own")


_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


def _looks(value, colours: list):
    """``value`` (mappings, lists, dataclasses, text) with every ``#rrggbb`` colour taken out into
    ``colours`` (in order) and replaced by ``#``: what a piece shows apart from its colours."""
    if is_dataclass(value) and not isinstance(value, type):
        value = asdict(value)
    if isinstance(value, dict):
        return tuple((str(k), _looks(v, colours)) for k, v in sorted(value.items(), key=lambda kv: str(kv[0])))
    if isinstance(value, (list, tuple)):
        return tuple(_looks(v, colours) for v in value)
    if isinstance(value, str) and _COLOUR.fullmatch(value):
        colours.append(value.lower())
        return "#"
    return value if isinstance(value, (str, int, float, bool, type(None))) else repr(value)


def colour_only_pairs(pieces, threshold: float = TOO_CLOSE) -> list[tuple]:
    """Pieces that show the same thing but for their colours, and whose colours a simulated vision brings
    under ``threshold`` everywhere they differ: ``pieces`` is [(name, what it shows: mappings, lists,
    dataclasses)]; gives (name a, name b, colour a, colour b, vision, ΔE) with the pair of colours that
    stays farthest apart under that vision (the best cue left), for the worst vision of each pair."""
    groups: dict = {}
    for name, shown in pieces:
        colours: list = []
        looks = _looks(shown, colours)
        group = groups.setdefault(looks, {})
        group.setdefault(tuple(colours), name)        # copies of one piece count once
    found = []
    for group in groups.values():
        for (ca, na), (cb, nb) in combinations(group.items(), 2):
            pairs = sorted({(a, b) for a, b in zip(ca, cb) if a != b})
            if not pairs or max(distance(a, b) for a, b in pairs) < threshold:
                continue            # alike in full colour too: not told apart by colour anyway
            worst = None
            for vision in VISIONS:
                best = max(((distance(a, b, vision), a, b) for a, b in pairs), key=lambda t: t[0])
                if worst is None or best[0] < worst[0]:
                    worst = (best[0], best[1], best[2], vision)
            if worst[0] < threshold:
                found.append((na, nb, worst[1], worst[2], worst[3], round(worst[0], 1)))
    return found


def piece_problems(game, problems) -> None:
    """Warnings for pieces (tokens, standees, dice) that differ only in colour, when a colour-vision
    deficiency or a greyscale print brings those colours too close: nothing else tells them apart."""
    from pnp.components import game_components

    factions = {f.id: f.colour for f in game.factions}
    for component in game_components(game):
        kind, spec = component.kind, component.build.keywords.get("spec")
        if kind == "tokens":
            _token_problems(game, problems, factions)
        elif kind == "standee" and spec is not None:
            from pnp.components.standee import piece_list
            pieces = [(p["id"], (p["front"], p["back"])) for p in piece_list(game, spec)]
            _warn(problems, game.where("components", None)[0], spec.line, "piece", colour_only_pairs(pieces),
                  f"standee '{spec.id}'")
        elif kind == "dice" and spec is not None:
            from pnp.components.dice import dice_faces
            dice, _ = dice_faces(game, spec)
            names = {}
            pieces = []
            for item, faces in dice:
                name = _item_name(item, len(names) + 1)
                if name not in names:
                    names[name] = True
                    pieces.append((name, faces))
            _warn(problems, game.where("components", None)[0], spec.line, "die", colour_only_pairs(pieces),
                  f"dice '{spec.id}'")


def side_problems(game, problems) -> None:
    """Warnings for double-sided decks whose side B looks like their side A but for its colours (the same
    layout in other colours, say), when a colour-vision deficiency or a greyscale print brings those colours
    too close: nothing then shows which side of a card is up. Each pair of layouts the deck's cards use on
    their two sides is compared once, on the first card that uses it, its words and numbers left aside
    (every card's are its own): one face's content is laid out with both sides' layouts."""
    from dataclasses import replace

    from pnp.components.cards import face_content, layout_of, printed_mark
    from pnp.loading.cardlayout import card_face
    from pnp.loading.cardlayout import LayoutChoice

    for deck in game.decks:
        if deck.b is None:
            continue
        seen = set()
        for card in deck.cards:
            if card.side_b is None:
                continue
            layouts = (layout_of(deck, card), layout_of(deck.b, card.side_b))
            pair = tuple(layout.name for layout in layouts)
            if pair in seen:
                continue
            seen.add(pair)
            mark = printed_mark(game, card, 1)
            drawn = None
            for face, shown in ((deck, card), (deck.b, card.side_b)):
                try:        # a layout that shows fields the other side lacks tells the sides apart anyway
                    drawn = [_bare(card_face(face_content(game, shown, None, mark,
                                                          replace(face, layout=LayoutChoice(layout))),
                                             deck.width, deck.height, 0.0, layout)) for layout in layouts]
                    break
                except Exception:
                    continue
            if drawn is None:
                continue
            for _, _, ca, cb, vision, delta in colour_only_pairs([("A", drawn[0]), ("B", drawn[1])]):
                problems.warn(game.root / "game.yaml", deck.side_b.line or deck.line, f"deck '{deck.id}' side B",
                              f"side B (layout '{pair[1]}') looks like side A (layout '{pair[0]}') but for its "
                              f"colour {cb} against {ca}, and the two come within ΔE {delta:g} of each other for "
                              f"{_reader(vision)} (under {TOO_CLOSE:g}): nothing else shows which side of a card is "
                              f"up; give side B a mark of its own (a word, an icon, a band) or colours further apart")


def _bare(elements) -> tuple:
    """A face's elements without their words and the numbers on icons: what its layout draws."""
    from dataclasses import replace

    from pnp.layout.geometry import Icon, Text, flatten

    return tuple(replace(e, markup="") if isinstance(e, Text) else replace(e, label=None) if isinstance(e, Icon)
                 else e for e in flatten(elements))


def _item_name(item, number: int) -> str:
    if isinstance(item, dict):
        for key in ("id", "name"):
            if isinstance(item.get(key), str):
                return item[key]
    return f"#{number}"


def _token_problems(game, problems, factions) -> None:
    from pnp.loading.tokendata import load_tokens, tokens_path

    tokens = load_tokens(game)
    if tokens is None:
        return
    lines = {t.id: t.line for t in tokens.tokens}

    def face(f, faction):
        shown = asdict(f)
        if shown["background"] == "faction":
            shown["background"] = factions.get(faction)
        return shown
    pieces = [(t.id, (t.shape, t.size, face(t.front, t.faction), face(t.back, t.faction))) for t in tokens.tokens]
    _warn(problems, tokens_path(game), lines.get, "token", colour_only_pairs(pieces))


def _warn(problems, path, line, noun, pairs, subject=None) -> None:
    """One warning per pair of colours: every pair of pieces they alone tell apart, named."""
    by_colours: dict = {}
    for a, b, ca, cb, vision, delta in pairs:
        by_colours.setdefault((cb, ca, vision, delta), []).append((b, a))
    for (cb, ca, vision, delta), named in by_colours.items():
        these = ", ".join(f"'{b}'" for b, _ in named)
        those = ", ".join(f"'{a}'" for _, a in named)
        plural = len(named) > 1
        where = line(named[0][0]) if callable(line) else line
        problems.warn(path, where, subject,
                      f"{noun}{'s' if plural else ''} {these} look{'' if plural else 's'} like {those} but for "
                      f"{'their' if plural else 'its'} colour {cb} against {ca}, and the two come within ΔE "
                      f"{delta:g} of each other for {_reader(vision)} (under {TOO_CLOSE:g}): give "
                      f"{'them' if plural else 'it'} an icon, a label or a pattern of "
                      f"{'their' if plural else 'its'} own, or colours further apart")


def _reader(vision: str) -> str:
    return {"deutan": "a deuteranope", "protan": "a protanope", "tritan": "a tritanope",
            "grey": "a greyscale print"}[vision]


def simulate_png(png: bytes, vision: str, dpi: float | None = None) -> bytes:
    """A PNG as seen with ``vision`` (same size, RGB)."""
    import io

    import numpy as np
    from PIL import Image

    from pnp.draw.raster import png_bytes

    image = Image.open(io.BytesIO(png)).convert("RGB")
    seen = simulate(np.asarray(image, dtype=float) / 255.0, vision)
    return png_bytes(Image.fromarray(np.round(seen * 255).astype("uint8"), "RGB"), dpi)
