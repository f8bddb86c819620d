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


def _reader(vision: str) -> str:
    return {"deutan": "a deuteranope", "protan": "a protanope", "tritan": "a tritanope",
            "grey": "a greyscale print"}[vision]


def simulate_png(png: bytes, vision: str, dpi: float | None = None) -> bytes:
    """A PNG as seen with ``vision`` (same size, RGB)."""
    import io

    import numpy as np
    from PIL import Image

    from pnp.exports.raster import png_bytes

    image = Image.open(io.BytesIO(png)).convert("RGB")
    seen = simulate(np.asarray(image, dtype=float) / 255.0, vision)
    return png_bytes(Image.fromarray(np.round(seen * 255).astype("uint8"), "RGB"), dpi)
