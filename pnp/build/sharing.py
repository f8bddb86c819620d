"""Shared sheets: nearly empty pages of several files printed together on as few sheets as hold them.

A component marks the files whose pages may share a sheet (:attr:`pnp.components.Output.share`: dice
stickers, standees, the tiles and small pieces of a board printed on one side). Once every component is
built, the pages of those files that print on at most half of the sheet's printable area
(:func:`pnp.layout.packing.small_enough`: a die's stickers, two standees, the thin strip of a tiled
board's last column) are gathered in kit order, and their blocks (what each page prints, its labels and
cut marks included) are packed onto shared sheets (:func:`pnp.layout.packing.share_pack`). Only when
that takes fewer sheets than the pages did: the pages' own file then leaves the kit (when all its pages
went; it is still written beside the kit, to print alone) or keeps the pages that did not go, and a file
``shared-sheets.pdf`` takes their place in the kit, after the last component it holds pages of.

No sheets are shared with ``--bleed`` (each file's crop marks are its own) or ``--cutter`` (a cutting
machine's marks and cut files are per file).
"""

from __future__ import annotations

from dataclasses import replace

from pnp.components import Component, Output
from pnp.draw.merge import place, without
from pnp.layout.geometry import Rect
from pnp.layout.packing import share_pack, small_enough
from pnp.loading.i18n import strings

SHARED_FILE = "shared-sheets.pdf"
SHARED_ID = "shared_sheets"
PT = 72 / 25.4


def free_name(built: dict) -> str:
    """:data:`SHARED_FILE`, or ``shared-sheets-2.pdf`` (-3, ...) when a component of the game already
    writes a file of that name (a board whose id is ``shared-sheets``)."""
    taken = {out.filename for outs in built.values() for out in outs}
    name, n = SHARED_FILE, 1
    while name in taken:
        n += 1
        name = f"shared-sheets-{n}.pdf"
    return name


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


def share_sheets(game, components, built: dict, options) -> tuple[list, dict]:
    """``components`` and ``built`` (component id -> its finished outputs) with nearly empty pages moved
    onto shared sheets when that saves a sheet (see the module); unchanged otherwise."""
    if options.bleed or options.cutter:
        return components, built
    paper_w, paper_h = options.page_size
    pages = candidates(components, built, paper_w, paper_h)
    if len(pages) < 2:
        return components, built
    plan = share_pack([p[3] for p in pages], paper_w, paper_h)
    if plan.sheets >= len(pages):
        return components, built
    built = {name: list(outs) for name, outs in built.items()}
    sources, index = [], {}
    for name, k, _, _ in pages:
        if (name, k) not in index:
            index[(name, k)] = len(sources)
            sources.append(built[name][k].pdf)
    sheets = [[] for _ in range(plan.sheets)]
    for n, (name, k, i, block) in enumerate(pages):
        dx, dy = plan.offset(n, block)
        clip = (block.x * PT, block.y * PT, block.w * PT, block.h * PT)
        sheets[plan.placed[n].sheet].append((index[(name, k)], i, clip, dx * PT, dy * PT))
    words = strings(game, options.lang)
    title = words.get("shared_sheets", "Shared sheets")
    holds = []
    for name, k in index:
        out = built[name][k]
        kind = next((c.kind for c in components if c.name == name), "")
        tiles = any(p.kind == "tile" for p in out.parts)
        named = str(out.parts[0].name) if out.parts and out.parts[0].name else str(out.title)    # "Dice", not "Dice: stickers"
        holds.append((name, named, out.filename, f"{kind}:{'tiles' if tiles else out.sides}"))
    pdf = place(sources, sheets, (plan.page_w * PT, plan.page_h * PT), f"{game.title}: {title}", game.author,
                outline=title)
    shared = Output(free_name(built), title, pdf=pdf, sides="single", holds=tuple(holds))
    shared.page_count = plan.sheets
    for (name, k), _ in index.items():
        out = built[name][k]
        moved = {i for n, kk, i, _ in pages if (n, kk) == (name, k)}
        if len(moved) == len(out.blocks):
            # every page went: the file stays whole beside the kit, to print alone
            built[name][k] = replace(out, in_kit=False, sheets=0)
        else:
            left = [b for i, b in enumerate(out.blocks) if i not in moved]
            pdf = without(out.pdf, moved, f"{game.title}: {out.title}", game.author, outline=str(out.title))
            sheets_left = None if out.sheets is None else out.sheets - len(moved)
            built[name][k] = replace(out, pdf=pdf, blocks=tuple(left), page_count=len(left), sheets=sheets_left)
    last = max(i for i, c in enumerate(components) if c.name in {name for name, _ in index})
    own = SHARED_ID
    while any(c.name == own for c in components):
        own += "_"
    pseudo = Component(own, lambda *a, **k: [], kind="shared")
    built[own] = [shared]
    return components[:last + 1] + [pseudo] + components[last + 1:], built
