"""Sample pieces for the geometry tests, and a script writing them as PDFs to look at:

    .venv/bin/python tests/geometry_samples.py /tmp/samples && pdftoppm -r 60 -png /tmp/samples/board.pdf /tmp/p
"""

from __future__ import annotations

import colorsys
import sys
from pathlib import Path

from pnp.layout.geometry import Box, Circle, Line, Polygon, Rect, Style, Text

CELL = 20.0
LABEL = Style(font="sans-bold", size=9, min_size=5, max_lines=1, colour="#ffffff")


def cell_colour(i: int, j: int) -> str:
    """A distinct colour per cell, so a tile put in the wrong place shows."""
    h = ((i * 7 + j * 3) % 23) / 23
    r, g, b = colorsys.hsv_to_rgb(h, 0.55 + 0.4 * ((i + j) % 2), 0.55 + 0.35 * ((i * j) % 3) / 2)
    return "#%02x%02x%02x" % (int(r * 255), int(g * 255), int(b * 255))


def sample_board(w: float, h: float, features=()) -> list:
    """A board of coloured cells with their coordinates, diagonals, rings and the features outlined."""
    els = []
    cols, rows = int(w // CELL) + 1, int(h // CELL) + 1
    for i in range(cols):
        for j in range(rows):
            r = Rect(i * CELL, j * CELL, min(CELL, w - i * CELL), min(CELL, h - j * CELL))
            if r.w > 0 and r.h > 0:
                els.append(Box(r, fill=cell_colour(i, j)))
    for i in range(cols):
        for j in range(rows):
            if (i + 1) * CELL <= w and (j + 1) * CELL <= h:
                els.append(Text(Rect(i * CELL + 1, j * CELL + 6, CELL - 2, 8), f"{i},{j}", LABEL))
    els.append(Line(0, 0, w, h, "#000000", 0.8))
    els.append(Line(0, h, w, 0, "#ffffff", 0.8))
    for k in range(1, 6):
        els.append(Circle(w / 2, h / 2, k * min(w, h) / 12, stroke="#111111", width=0.6))
    els.append(Polygon(((w * 0.1, h * 0.1), (w * 0.3, h * 0.1), (w * 0.2, h * 0.3)), fill="#ffffff", stroke="#000000"))
    for f in features:
        els.append(Box(f, fill="#fff4c2", stroke="#c0392b", width=0.6))
    els.append(Box(Rect(0, 0, w, h), stroke="#000000", width=1.0))
    return els


TERRAIN = {"plain": "#d9cf9c", "forest": "#4f7a3a", "cave": "#5b5560", "river": "#5b8fc7"}


def sample_hex_map(orientation="flat", size=32.0, cols=14, rows=9):
    """A hex map (grid fitted to its bounds, the hexes, the elements): terrain by position, ids printed
    small, a river of edges across the middle with two bridges."""
    from pnp.layout.hexgrid import HexGrid, axial_to_offset, rectangle
    hexes = rectangle(cols, rows, orientation)
    grid = HexGrid(orientation, size).fitted(hexes, margin=0)
    els = []
    for h in hexes:
        col, row = axial_to_offset(h, orientation)
        kind = "forest" if (col * 3 + row * 5) % 7 == 0 else "cave" if (col + 2 * row) % 11 == 0 else "plain"
        els.append(grid.polygon(h, fill=TERRAIN[kind], stroke="#3a3a3a", width=0.3))
        cx, cy = grid.centre(h)
        els.append(Text(Rect(cx - 8, cy - size * 0.42, 16, 4), f"{h.q},{h.r}",
                        Style(font="sans", size=5.5, min_size=4, max_lines=1, colour="#1f1a17")))
    mid = rows // 2
    river = []
    for h in hexes:
        col, row = axial_to_offset(h, orientation)
        if row == mid:
            for n in grid.neighbours(h):
                if n in hexes and axial_to_offset(n, orientation)[1] == mid + 1:
                    river.append((h, n))
    for k, (a, b) in enumerate(river):
        (x1, y1), (x2, y2) = grid.edge_segment(a, b)
        colour = "#8a5a2b" if k in (3, len(river) - 4) else TERRAIN["river"]
        els.append(Line(x1, y1, x2, y2, colour, 2.2))
    b = grid.bounds(hexes)
    return grid, hexes, els, b


def figure_art(w: float, h: float, name: str, colour: str, side: str) -> list:
    """A simple figure for a standee side: background, head, body, the side's name at the top."""
    return [Box(Rect(-2, -2, w + 4, h + 4), fill="#f2ead8" if side == "FRONT" else "#d9e3ef"),
            Circle(w / 2, h * 0.72, w * 0.18, fill=colour),
            Polygon(((w * 0.2, h * 0.08), (w * 0.8, h * 0.08), (w * 0.62, h * 0.55), (w * 0.38, h * 0.55)),
                    fill=colour),
            Polygon(((w * 0.5, h * 0.55), (w * 0.95, h * 0.3), (w * 0.9, h * 0.25)), fill="#444444"),
            Text(Rect(1, h - 8, w - 2, 6), f"{name} {side}", Style(font="sans-bold", size=7, min_size=4,
                                                                  max_lines=1))]


def strength_face(value: int, size: float, colour: str, kind: str) -> list:
    """A die face showing a strength, a smaller second number and a type name (a generic face)."""
    return [Box(Rect(-1, -1, size + 2, size + 2), fill=colour),
            Text(Rect(0, size * 0.3, size, size * 0.55), str(value),
                 Style(font="sans-black", size=size * 1.5, min_size=4, max_lines=1, colour="#ffffff")),
            Text(Rect(size * 0.55, size * 0.72, size * 0.4, size * 0.25), str(6 - value),
                 Style(font="sans-bold", size=size * 0.5, min_size=3, max_lines=1, colour="#ffe08a")),
            Text(Rect(0.5, size * 0.06, size - 1, size * 0.22), kind,
                 Style(font="sans-bold", size=size * 0.32, min_size=2.5, max_lines=1, colour="#ffffff", upper=True))]


def map_side(w: float, h: float, name: str, tint: str) -> list:
    """A 3 x 3 map side: areas named by row and column, the side's name across the top."""
    els = [Box(Rect(-3, -3, w + 6, h + 6), fill=tint)]
    cw, ch = w / 3, (h - 12) / 3
    for r in range(3):
        for c in range(3):
            cell = Rect(c * cw + 2, r * ch + 2, cw - 4, ch - 4)
            els.append(Box(cell, fill="#fbf7ee", stroke="#3a3a3a", width=0.4, radius=2))
            els.append(Text(cell.inset(2), f"{name} {chr(65 + 2 - r)}{c + 1}",
                            Style(font="serif-semibold", size=11, min_size=5, max_lines=2)))
    els.append(Text(Rect(2, h - 11, w - 4, 9), f"Side {name}", Style(font="sans-black", size=12, min_size=6,
                                                                     max_lines=1, colour="#ffffff", upper=True)))
    return els


def write_all(out: Path) -> None:
    from pnp.draw.pdf import render
    from pnp.units import PAPERS
    from pnp.layout.tiling import plan_tiles, tile_pages
    out.mkdir(parents=True, exist_ok=True)
    features = (Rect(180, 120, 30, 30), Rect(95, 300, 25, 25))
    plan = plan_tiles(480, 420, "letter", avoid=features)
    (out / "board.pdf").write_bytes(render(tile_pages(plan, sample_board(480, 420, features), "Sample board"),
                                           "board"))
    from pnp.layout.standee import StandeeSpec, standee_layout, standee_pages
    specs = {"warden": StandeeSpec(30, 50), "tall": StandeeSpec(40, 110, fold="side"),
             "slotted": StandeeSpec(28, 45, 14, base="slot"), "priest": StandeeSpec(22, 35, 12)}
    standees = [(k, standee_layout(s)) for k, s in specs.items()]
    arts = {k: (figure_art(s.width, s.height, k, "#7a2e2e", "FRONT"), figure_art(s.width, s.height, k, "#2e4d7a", "BACK"))
            for k, s in specs.items()}
    (out / "standees.pdf").write_bytes(render(standee_pages(standees, arts, *PAPERS["letter"]), "standees"))
    from pnp.layout.dice import cube_net, net_pages, pip_face, sticker_pages, sticker_plan
    kinds = [("Goblin", "#3f7d3a"), ("Orc", "#7a2e2e"), ("Skeleton", "#7d7a6e"), ("Gargoyle", "#4a4a6a"),
             ("Gnoll", "#a0662b")]
    for paper in ("letter", "a4"):
        plan = sticker_plan(*PAPERS[paper])
        dice = [[strength_face(v, plan.sticker, c, k) for v in range(1, 7)] for k, c in kinds for _ in range(9)]
        (out / f"dice-stickers-{paper}.pdf").write_bytes(render(sticker_pages(dice, plan), "stickers"))
        net = cube_net(16)
        nets = [[strength_face(v, 16, c, k) for v in range(1, 7)] for k, c in kinds] + [
            [pip_face(v, 16, background="#f4efe4") for v in range(1, 7)]]
        (out / f"dice-nets-{paper}.pdf").write_bytes(render(net_pages(nets, net, *PAPERS[paper]), "nets"))
    from pnp.layout.doublesided import double_sided_pages, duplex, fold
    pages = []
    for ds in (duplex(180, 160, "letter", "long"), duplex(180, 160, "letter", "short"), fold(95, 120, "letter"),
               fold(150, 110, "a4", turn="top")):
        w, h = ds.piece_w, ds.piece_h
        pages += double_sided_pages(ds, map_side(w, h, "A", "#6b3e26"), map_side(w, h, "B", "#264a6b"),
                                    f"Map ({ds.mode})")
    (out / "double-sided.pdf").write_bytes(render(pages, "double-sided"))
    from pnp.layout.tiling import plan_hex_tiles
    for orientation, paper in (("flat", "a4"), ("pointy", "letter")):
        grid, hexes, els, b = sample_hex_map(orientation)
        plan = plan_hex_tiles(b.w, b.h, grid, hexes, paper)
        (out / f"hexmap-{orientation}.pdf").write_bytes(render(tile_pages(plan, els, "Hex map"), "hex map"))


if __name__ == "__main__":
    write_all(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/pnp-samples"))
