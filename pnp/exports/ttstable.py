"""The pieces of a Tabletop Simulator saved object besides the decks: boards, tokens and dice, each as an
image drawn by the same layout code as the printed kit, and where everything lies on the table.

- **Boards** (``board``, ``track`` and ``hexmap`` entries of ``components``): one ``Custom_Tile`` per piece,
  its image the whole board (not the tiles it is printed in), a double-sided board's back as the tile's
  bottom image.
- **Tokens** (tokens.yaml): one ``Custom_Tile`` per token entry in its shape (circle, hexagon, rounded,
  square), front and back; an entry with several copies is a ``Bag`` holding them.
- **Dice** (``dice`` entries): one ``Custom_Dice`` per kind of die, its image Tabletop Simulator's d6
  template (below); several dice of a kind are a ``Bag``.

Sizes follow one model (Tabletop Simulator's units are about an inch; docs/printing.md): a custom tile
at scale 1 is 2 x 2 units, so a piece ``w`` x ``h`` mm gets scale ``(w / 25.4 / 2, h / 25.4 / 2)`` and
lies at its printed size; a card at scale 1 takes at most 2.5 x 3.5 units; a die or a bag at most
:data:`DIE_UNITS` and :data:`BAG_UNITS`. :func:`lay_out` puts the footprints in rows (boards, then decks,
then tokens, then dice) 1 unit apart, none overlapping, centred on the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image

from pnp.components import BuildOptions
from pnp.draw.icons import for_game
from pnp.draw.pdf import render
from pnp.draw.raster import Rasterizer, size_px
from pnp.layout.geometry import Group, Page, Rect, extent
from pnp.loading.paths import SAFE_NAME
from pnp.units import MM_PER_INCH

#: Units of a custom tile's side at scale 1.
TILE_UNITS = 2.0
#: A card's footprint at scale 1 (at most), in units.
CARD_UNITS = (2.5, 3.5)
#: A die's and a bag's footprint at scale 1 (at most), in units.
DIE_UNITS = 1.5
BAG_UNITS = 3.0
#: Room between two things on the table, and the widest a row grows before the next starts, in units.
GAP = 1.0
ROW_WIDTH = 60.0
#: Pixels: the longest side of a board image at most, a board's and a token's resolution, a die face's side.
MAX_PX = 4096
BOARD_DPI = 150
TOKEN_DPI = 300
DIE_FACE_PX = 340
#: Paper kept round a track's spaces and title on its board image, in mm.
TRACK_MARGIN = 4.0
#: Tabletop Simulator's custom tile shapes (CustomTile.Type) by tokens.yaml's shape.
TILE_TYPES = {"square": 0, "outline": 0, "hexagon": 1, "circle": 2, "rounded": 3}
#: Tabletop Simulator's custom dice (CustomDice.Type) by number of faces.
DIE_TYPES = {4: 0, 6: 1, 8: 2, 10: 3, 12: 4, 20: 5}
#: Where each face of a d6 goes in Tabletop Simulator's d6 template (Modding/Dice Templates in its
#: folder, shown in its knowledge base's "Custom Dice" page): a square of 3 x 3 cells, the top row
#: unused (the die's edges), faces 2, 4, 5 upright in the middle row, and in the bottom row face 1
#: upside down, face 3 upright, face 6 upside down. (face number: (column, row, turned half a turn))
D6_CELLS = {1: (0, 2, True), 2: (0, 1, False), 3: (1, 2, False), 4: (1, 1, False), 5: (2, 1, False),
            6: (2, 2, True)}


@dataclass
class Piece:
    """One image-backed thing for the table: what it is (``board``, ``token``, ``die``), its name, its
    size in mm, its images' file names in the export and the elements they are drawn from, how many
    copies, its component's id, and kind-specific settings."""

    kind: str
    name: str
    size: tuple
    files: dict                      # "front"/"back"/"die": file name in the export
    drawings: dict = field(default_factory=dict)   # the same keys: elements in the piece's frame
    count: int = 1
    component: str = ""
    shape: str = "square"
    faces: list = field(default_factory=list)       # a die: each face's elements, face 1 to 6


def _safe(name: str, fallback: str) -> str:
    return name if SAFE_NAME.fullmatch(name or "") else fallback


def table_pieces(game, lang: str | None = None) -> list[Piece]:
    """Every board, token and die of the game's components, in kit order, with the files their images
    go to (``boards/``, ``tokens/``, ``dice/``)."""
    from pnp.components import _legacy_specs

    options = BuildOptions(lang=lang)
    out = []
    for spec in getattr(game, "component_specs", ()) or _legacy_specs(game):
        if spec.kind == "board":
            out += _boards(game, spec)
        elif spec.kind == "track":
            out += _track(game, spec, options)
        elif spec.kind == "hexmap":
            out += _map(game, spec, options)
        elif spec.kind == "tokens":
            out += _tokens(game, lang)
        elif spec.kind == "dice":
            out += _dice(game, spec, lang)
    return out


def _boards(game, spec) -> list[Piece]:
    from pnp.components.board import pieces

    found = pieces(game, spec)
    out = []
    for n, piece in enumerate(found, 1):
        stem = f"boards/{spec.id}" + (f"-{n}" if len(found) > 1 else "")
        files, drawings = {"front": f"{stem}.png"}, {"front": piece.front}
        if piece.back is not None:
            files["back"], drawings["back"] = f"{stem}-back.png", piece.back
        out.append(Piece("board", piece.name, tuple(piece.size), files, drawings, component=spec.id))
    return out


def _track(game, spec, options) -> list[Piece]:
    from pnp.components.track import layout, settings, titles

    page = layout(game, options, spec).page
    title, _ = titles(game, settings(game, spec), spec.id, options.lang)
    # the track and its title, without the sheet's empty margins (a track round the edge keeps them all)
    boxes = [r for r in (extent(e) for e in page.elements) if r is not None]
    x0, y0 = max(0.0, min(r.x for r in boxes) - TRACK_MARGIN), max(0.0, min(r.y for r in boxes) - TRACK_MARGIN)
    x1 = min(page.width, max(r.right for r in boxes) + TRACK_MARGIN)
    y1 = min(page.height, max(r.top for r in boxes) + TRACK_MARGIN)
    return [Piece("board", title, (round(x1 - x0, 2), round(y1 - y0, 2)), {"front": f"boards/{spec.id}.png"},
                  {"front": (Group(tuple(page.elements), -x0, -y0),)}, component=spec.id)]


def _map(game, spec, options) -> list[Piece]:
    from pnp.components.hexmap import config_of, cut_pieces, title_of

    out = []
    for cut in cut_pieces(game, options, spec):
        rect = cut.outline.rect
        out.append(Piece("board", title_of(game, config_of(spec), options.lang, spec), (rect.w, rect.h),
                         {"front": f"boards/{spec.id}.png"}, {"front": cut.elements}, component=spec.id))
    return out


def _tokens(game, lang) -> list[Piece]:
    from pnp.components.tokens import faces
    from pnp.loading.tokendata import load_tokens

    token_set = load_tokens(game)
    sides = faces(game, token_set, lang)
    out = []
    for n, t in enumerate(token_set.tokens, 1):
        stem = f"tokens/{_safe(t.id, str(n))}"
        front, back = sides[t.id]
        out.append(Piece("token", t.id.replace("_", " ").replace("-", " "), (t.extent, t.extent),
                         {"front": f"{stem}.png", "back": f"{stem}-back.png"}, {"front": front, "back": back},
                         count=t.count, component="tokens", shape=t.shape))
    return out


def _dice(game, spec, lang) -> list[Piece]:
    from pnp.components.dice import config_of, dice_faces, _own_title
    from pnp.layout.regions import place
    from pnp.loading.i18n import word

    config = config_of(spec)
    dice, layout = dice_faces(game, spec)
    side = (config["sticker"] or config["die_size"] - 2.0) if config["forms"][0] == "stickers" else config["edge"]
    kinds = []                                  # (item, faces, count): the copies of a kind share its faces
    for item, faces in dice:
        if kinds and kinds[-1][1] is faces:
            kinds[-1][2] += 1
        else:
            kinds.append([item, faces, 1])
    out = []
    title = word(game, f"components.{spec.id}.title", _own_title(spec), lang)      # as the kit prints it
    for n, (item, faces, count) in enumerate(kinds, 1):
        label = item.get("name") or item.get("id") if isinstance(item, dict) else None
        name = f"{title}: {label}" if label else title
        out.append(Piece("die", str(name), (side, side), {"die": f"dice/{spec.id}-{n}.png"}, count=count,
                         component=spec.id,
                         faces=[tuple(place(face, layout.size, side, side, None)) for face in faces]))
    return out


# ----------------------------------------------------------------------------- images

def _dpi(size_mm: tuple, dpi: float) -> float:
    """``dpi``, lowered so the longest side stays within :data:`MAX_PX`."""
    return min(dpi, MAX_PX / (max(size_mm) / MM_PER_INCH))


def _pages(drawings: list) -> list[Page]:
    """One page per (size, elements), the elements clipped to the piece."""
    return [Page(w, h, [Group(tuple(elements), 0.0, 0.0, clip=Rect(0.0, 0.0, w, h))])
            for (w, h), elements in drawings]


def piece_images(game, pieces: list[Piece]) -> dict:
    """{file name: PIL image} of every piece's sides (a die: its d6 template image)."""
    jobs = []                                            # (file, size mm, elements, pixels)
    for p in pieces:
        if p.kind == "die":
            for k, face in enumerate(p.faces, 1):
                jobs.append(((p.files["die"], k), p.size, face, (DIE_FACE_PX, DIE_FACE_PX)))
            continue
        dpi = _dpi(p.size, BOARD_DPI if p.kind == "board" else TOKEN_DPI)
        for side, file in p.files.items():
            jobs.append((file, p.size, p.drawings[side], size_px(*p.size, dpi)))
    if not jobs:
        return {}
    with for_game(game):
        pdf = render(_pages([(size, elements) for _, size, elements, _ in jobs]), f"{game.title}: table",
                     game.author)
    images, faces = {}, {}
    with Rasterizer(pdf) as pages:
        for i, (file, _, _, px) in enumerate(jobs):
            image = pages.render(i, px)
            if isinstance(file, tuple):
                faces.setdefault(file[0], {})[file[1]] = image
            else:
                images[file] = image
    for file, by_face in faces.items():
        images[file] = d6_image(by_face)
    return images


def d6_image(faces: dict) -> Image.Image:
    """Tabletop Simulator's d6 template filled with ``faces`` ({1..6: square image}): see :data:`D6_CELLS`.
    The unused top row takes the colour of face 1's corner (the faces' background), for the die's edges."""
    side = DIE_FACE_PX
    sheet = Image.new("RGB", (3 * side, 3 * side), faces[1].getpixel((0, 0)))
    for number, (col, row, turned) in D6_CELLS.items():
        face = faces[number].resize((side, side)) if faces[number].size != (side, side) else faces[number]
        sheet.paste(face.rotate(180) if turned else face, (col * side, row * side))
    return sheet


# ----------------------------------------------------------------------------- the table

@dataclass
class Spot:
    """Where one thing lies: its centre (x, z) in units and its footprint (width along x, depth along z)."""

    x: float
    z: float
    width: float
    depth: float


def tile_scale(size_mm: tuple) -> tuple:
    """(scaleX, scaleZ) of a custom tile that lies at ``size_mm``."""
    return tuple(s / MM_PER_INCH / TILE_UNITS for s in size_mm)


def footprint(kind: str, size_mm: tuple = (0.0, 0.0), count: int = 1, scale: float = 1.0) -> tuple:
    """(width, depth) in units that a thing takes on the table (see the module's docstring)."""
    if kind == "deck":
        return CARD_UNITS[0] * scale, CARD_UNITS[1] * scale
    if kind == "board" or (kind == "token" and count == 1):
        return tuple(s / MM_PER_INCH for s in size_mm)
    if kind == "die" and count == 1:
        return DIE_UNITS, DIE_UNITS
    return BAG_UNITS, BAG_UNITS


def lay_out(rows: list[list[tuple]]) -> list[list[Spot]]:
    """Spots for ``rows`` of (width, depth) footprints: each row left to right, :data:`GAP` apart, a new
    row when one would grow past :data:`ROW_WIDTH`; rows from the far side of the table towards the
    players; everything centred on the table's middle. Empty rows take no room."""
    placed, lines = [], []                   # lines: (spots, row depth)
    z = 0.0
    for row in rows:
        spots, x, depth = [], 0.0, 0.0
        group = []
        for width, d in row:
            if x > 0 and x + width > ROW_WIDTH:
                lines.append((spots, z, depth))
                z -= depth + GAP
                spots, x, depth = [], 0.0, 0.0
            spots.append(Spot(x + width / 2, 0.0, width, d))
            group.append(spots[-1])
            x += width + GAP
            depth = max(depth, d)
        if spots:
            lines.append((spots, z, depth))
            z -= depth + GAP
        placed.append(group)
    for spots, top, depth in lines:
        for s in spots:
            s.z = top - depth / 2
    every = [s for group in placed for s in group]
    if every:
        left, right = min(s.x - s.width / 2 for s in every), max(s.x + s.width / 2 for s in every)
        far, near = max(s.z + s.depth / 2 for s in every), min(s.z - s.depth / 2 for s in every)
        dx, dz = (left + right) / 2, (far + near) / 2
        for s in every:
            s.x, s.z = round(s.x - dx, 4), round(s.z - dz, 4)
    return placed


def die_type(faces: int) -> int:
    """Tabletop Simulator's CustomDice type for a die of ``faces`` faces (pnp's dice have 6)."""
    if faces not in DIE_TYPES:
        raise ValueError(f"Tabletop Simulator has no custom die with {faces} faces")
    return DIE_TYPES[faces]
