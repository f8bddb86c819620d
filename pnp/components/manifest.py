"""The kit's bill of materials: every physical piece by component and kind, and the paper it takes.

``pnp build`` writes it as ``manifest.json`` beside the PDFs, and the instructions page prints the
same figures as a table. Each component says what its files make (:class:`pnp.components.Part`) and
how they print (:attr:`pnp.components.Output.sides`, :attr:`~pnp.components.Output.sheets`); this
module only adds them up, so the manifest and the printed table cannot disagree.

Sheets are sheets of paper: a file printed on one side takes one sheet a page; card backs printed on
the reverse of the fronts take none of their own; a duplex booklet takes one sheet per two pages.
Files kept beside the kit for screen or a duplex printer (``in_kit`` false) are listed but not counted;
the files a file has written next to it (a pad's pictures, a cutter's cut files) are listed with it
(``beside``).
"""

from __future__ import annotations

import json

from pnp.components import KitEntry

MANIFEST_FILE = "manifest.json"
FORMAT = 1


def sheets_of(out, pages: int) -> int:
    """Sheets of paper an output takes (see :class:`pnp.components.Output`)."""
    if not out.in_kit:
        return 0
    return pages if out.sheets is None else out.sheets


def entry_of(component, out, first: int, last: int, pages: int, own_pages: int | None = None) -> KitEntry:
    """A kit entry carrying what the manifest needs of one output: ``pages`` in the kit (0 beside it) and
    ``own_pages``, the file's own (the same for a file in the kit)."""
    return KitEntry(out.filename, out.title, first, last, component, sheets_of(out, pages), out.sides,
                    tuple(out.parts), pages if own_pages is None else own_pages, tuple(out.beside),
                    tuple(getattr(out, "holds", ())))


def rows(entries) -> list[dict]:
    """One row per component, in kit order: its id, files, pieces (kinds summed), sheets and how they print."""
    out, index = [], {}
    for e in entries:
        if e.component not in index:
            index[e.component] = len(out)
            out.append({"component": e.component, "title": "", "files": [], "pieces": [], "sheets": 0,
                        "sides": []})
        row = out[index[e.component]]
        if not row["title"] and e.first and e.filename:      # the first file of the kit names the row
            row["title"] = e.title
        if e.filename and not row.get("named_by"):           # else its first file (its pages on shared sheets)
            row["named_by"] = e.title
        row["files"].append({"file": e.filename, "pages": e.pages or (e.last - e.first + 1 if e.first else 0),
                             "sheets": e.sheets, "sides": e.sides, "in_kit": bool(e.first),
                             **({"beside": list(e.beside)} if e.beside else {})})
        row["sheets"] += e.sheets
        if e.sheets and e.sides not in row["sides"]:
            row["sides"].append(e.sides)
        for part in e.parts:
            same = next((p for p in row["pieces"] if (p["kind"], p["item"], p.get("faces", 1)) ==
                         (part.kind, part.item, part.faces)), None)
            if same is None:
                row["pieces"].append({"kind": part.kind, "item": part.item, "count": part.count,
                                      "name": part.name or part.item})
                if part.faces != 1:         # double-sided cards: both faces are played
                    row["pieces"][-1]["faces"] = part.faces
            else:
                same["count"] += part.count
    for row in out:
        named_by = row.pop("named_by", "")
        row["title"] = row["title"] or named_by
    return out


def manifest(title: str, paper: str, entries, kinds: dict) -> dict:
    """The manifest of a built kit: ``entries`` (every file, instructions included, in kit order) and
    ``kinds`` (component id -> its kind)."""
    components = rows(entries)
    for row in components:
        row["kind"] = kinds.get(row["component"], "")
    totals: dict[str, int] = {}
    for row in components:
        for p in row["pieces"]:
            totals[p["kind"]] = totals.get(p["kind"], 0) + p["count"]
    by_sides = {"single": 0, "double": 0, "fold": 0}
    for e in entries:
        by_sides[e.sides] = by_sides.get(e.sides, 0) + e.sheets
    return {
        "format": FORMAT,
        "game": title,
        "paper": paper,
        "components": [{"id": r["component"], "kind": r["kind"], "pieces": r["pieces"], "sheets": r["sheets"],
                        "sides": r["sides"], "files": r["files"]} for r in components],
        "pieces": dict(sorted(totals.items())),
        "sheets": {"total": sum(by_sides.values()), **by_sides},
    }


def to_json(data: dict) -> bytes:
    return (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
