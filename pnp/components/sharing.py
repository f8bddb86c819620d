"""Which pages go onto shared sheets, decided once for the build and for the instructions page's estimate.

A file whose component marks it (:attr:`pnp.components.Output.share`) gives, per page, the rectangle it
prints (:func:`blocks_of`); the pages that print on at most half of the sheet's printable area
(:func:`pnp.layout.packing.small_enough`) are gathered in kit order and packed
(:func:`pnp.layout.packing.share_pack`), and the plan stands only when it takes fewer sheets than the
pages did (:func:`plan`). :mod:`pnp.build.sharing` then draws the shared sheets; the instructions page's
check (:func:`pnp.components.instructions.kit_entries`) counts them from the same plan, without drawing
anything, so the page it measures lists the kit the build makes.
"""

from __future__ import annotations

from pnp.layout.geometry import Rect
from pnp.layout.packing import SharedSheets, page_block, share_pack, small_enough

SHARED_FILE = "shared-sheets.pdf"
SHARED_ID = "shared_sheets"


def blocks_of(pages) -> tuple:
    """What each layout page prints, (x, y, w, h) mm, or () for an empty page."""
    out = []
    for page in pages:
        found = page_block(page)
        out.append(() if found is None else (found.x, found.y, found.w, found.h))
    return tuple(out)


def share_blocks(out) -> tuple:
    """Per page of ``out`` (its layout pages), what :func:`candidates` may move: what the page prints,
    or, for a file with a :attr:`~pnp.components.Output.shared_page`, () for every page but the last
    and that page's print for the last."""
    if out.shared_page is not None:
        return ((),) * (len(out.pages) - 1) + blocks_of([out.shared_page])
    return blocks_of(out.pages)


def free_name(built: dict) -> str:
    """:data:`SHARED_FILE`, or ``shared-sheets-2.pdf`` (-3, ...) when a component of the game already
    writes a file of that name (a board whose id is ``shared-sheets``)."""
    taken = {out.filename for outs in built.values() for out in outs}
    name, n = SHARED_FILE, 1
    while name in taken:
        n += 1
        name = f"shared-sheets-{n}.pdf"
    return name


def own_id(components) -> str:
    """The shared sheets' component id: :data:`SHARED_ID`, or with ``_`` added while a component has it."""
    own = SHARED_ID
    while any(c.name == own for c in components):
        own += "_"
    return own


def candidates(components, built, paper_w: float, paper_h: float) -> list[tuple]:
    """(component id, output index, page index, block Rect) of every page that may go onto a shared
    sheet, in kit order."""
    found = []
    for component in components:
        if component.needs_kit:
            continue
        for k, out in enumerate(built.get(component.name, ())):
            if not (out.share and out.in_kit and out.blocks):
                continue
            for i, block in enumerate(out.blocks):
                if block and small_enough(Rect(*block), paper_w, paper_h):
                    found.append((component.name, k, i, Rect(*block)))
    return found


def plan(components, built, options) -> tuple[list, SharedSheets] | None:
    """(the pages that move, as :func:`candidates` gives them; where their blocks go), or None when no
    sheet is shared: with ``--bleed`` or ``--cutter``, fewer than two pages, or no sheet saved."""
    if options.bleed or options.cutter:
        return None
    paper_w, paper_h = options.page_size
    pages = candidates(components, built, paper_w, paper_h)
    if len(pages) < 2:
        return None
    packed = share_pack([p[3] for p in pages], paper_w, paper_h)
    if packed.sheets >= len(pages):
        return None
    return pages, packed


def files_of(pages) -> dict:
    """(component id, output index) -> the page indices that move, in kit order."""
    moved = {}
    for name, k, i, _ in pages:
        moved.setdefault((name, k), set()).add(i)
    return moved


def holds(components, built, files) -> tuple:
    """Per file that gives pages (``files``: (component id, output index), in kit order), (component id,
    its name, file name, "kind:sides"), for the instructions' words on each."""
    out = []
    for name, k in files:
        file = built[name][k]
        kind = next((c.kind for c in components if c.name == name), "")
        tiles = any(p.kind == "tile" for p in file.parts)
        # "Dice", not "Dice: stickers"; tokens by their file's title ("Tokens"), not their first kind
        named = str(file.parts[0].name) if file.parts and file.parts[0].name and kind != "tokens" else str(file.title)
        out.append((name, named, file.filename, f"{kind}:{'tiles' if tiles else file.sides}"))
    return tuple(out)


def position(components, files) -> int:
    """Where the shared sheets go in the kit: the index after the last component that gives them pages."""
    return max(i for i, c in enumerate(components) if c.name in {name for name, _ in files}) + 1
