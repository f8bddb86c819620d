"""Shared sheets: nearly empty pages of several files printed together on as few sheets as hold them.

A component marks the files whose pages may share a sheet (:attr:`pnp.components.Output.share`: dice
stickers, standees, the tiles and small pieces of a board printed on one side). Once every component is
built, :func:`pnp.components.sharing.plan` decides which pages go where (the instructions page's check
counts the kit's sheets from the same plan); here the pages' blocks (what each prints, its labels and
cut marks included) are drawn onto the shared sheets, each moved, or turned a quarter when the plan
turns it. The pages' own file then leaves the kit (when all its pages went; it is still written beside
the kit, to print alone) or keeps the pages that did not go, and a file ``shared-sheets.pdf`` takes their
place in the kit, after the last component it holds pages of.

No sheets are shared with ``--bleed`` (each file's crop marks are its own) or ``--cutter`` (a cutting
machine's marks and cut files are per file).
"""

from __future__ import annotations

from dataclasses import replace

from pnp.components import Component, Output
from pnp.components.sharing import SHARED_FILE, SHARED_ID, files_of, free_name, holds, own_id, plan, position
from pnp.draw.merge import place, without
from pnp.loading.i18n import strings

__all__ = ["SHARED_FILE", "SHARED_ID", "free_name", "share_sheets"]

PT = 72 / 25.4


def share_sheets(game, components, built: dict, options) -> tuple[list, dict]:
    """``components`` and ``built`` (component id -> its finished outputs) with nearly empty pages moved
    onto shared sheets when that saves a sheet (see the module); unchanged otherwise."""
    found = plan(components, built, options)
    if found is None:
        return components, built
    pages, packed = found
    built = {name: list(outs) for name, outs in built.items()}
    files = files_of(pages)
    index = {key: n for n, key in enumerate(files)}
    # a file with a page of its own for shared sheets (the last token sheet as a fold block) gives that
    sources = [built[name][k].shared_pdf or built[name][k].pdf for name, k in files]
    sheets = [[] for _ in range(packed.sheets)]
    for n, (name, k, page, block) in enumerate(pages):
        i = 0 if built[name][k].shared_pdf else page
        placed = packed.placed[n]
        if placed.turned:
            r = placed.rect
            a, b, c, d, e, f = packed.matrix(n, block)
            sheets[placed.sheet].append((index[(name, k)], i, (r.x * PT, r.y * PT, r.w * PT, r.h * PT),
                                         (a, b, c, d, e * PT, f * PT)))
            continue
        dx, dy = packed.offset(n, block)
        clip = (block.x * PT, block.y * PT, block.w * PT, block.h * PT)
        sheets[placed.sheet].append((index[(name, k)], i, clip, dx * PT, dy * PT))
    words = strings(game, options.lang)
    title = words.get("shared_sheets", "Shared sheets")
    pdf = place(sources, sheets, (packed.page_w * PT, packed.page_h * PT), f"{game.title}: {title}", game.author,
                outline=title)
    shared = Output(free_name(built), title, pdf=pdf, sides="single", holds=holds(components, built, files))
    shared.page_count = packed.sheets
    for (name, k), moved in files.items():
        out = replace(built[name][k], shared_pdf=None)
        if len(moved) == len(out.blocks):
            # every page went: the file stays whole beside the kit, to print alone
            built[name][k] = replace(out, in_kit=False, sheets=0)
        else:
            left = [b for i, b in enumerate(out.blocks) if i not in moved]
            pdf = without(out.pdf, moved, f"{game.title}: {out.title}", game.author, outline=str(out.title))
            sheets_left = None if out.sheets is None else out.sheets - len(moved)
            built[name][k] = replace(out, pdf=pdf, blocks=tuple(left), page_count=len(left), sheets=sheets_left)
    last = position(components, files)
    own = own_id(components)
    pseudo = Component(own, lambda *a, **k: [], kind="shared")
    built[own] = [shared]
    return components[:last] + [pseudo] + components[last:], built
