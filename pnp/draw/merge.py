"""Combining PDFs with pikepdf (qpdf): the kit is its components' PDFs in order, one outline entry each,
and the rulebook's booklet sheets are its pages placed as form XObjects.

Saved with ``deterministic_id`` and dates fixed (or from SOURCE_DATE_EPOCH), so output stays
byte-identical for the same input. pikepdf is imported by the functions that use it, so a command that
merges nothing (``pnp validate``) does not load it.
"""

from __future__ import annotations

import io
import os
import re
import time
import zlib
from typing import TYPE_CHECKING

from pnp.draw.fonts import subset_tag
from pnp.text.markup import plain_text

if TYPE_CHECKING:
    from pikepdf import Pdf


def _save(pdf: Pdf) -> bytes:
    import pikepdf

    buf = io.BytesIO()
    # the streams are compressed already (reportlab's pages, fonts and forms; what impose makes, by
    # _deflate_new_streams): written as they are.
    # compress_streams=True would make qpdf inflate and deflate every one of them again, font
    # programs included, for the same bytes (a third of a kit's merge time)
    pdf.save(buf, deterministic_id=True, compress_streams=False,
             object_stream_mode=pikepdf.ObjectStreamMode.preserve)
    return buf.getvalue()


def _info(pdf: Pdf, title: str, author: str = "") -> None:
    date = pdf_date()
    pdf.docinfo["/Title"] = title
    pdf.docinfo["/Author"] = author
    pdf.docinfo["/Creator"] = "pnp"
    pdf.docinfo["/Producer"] = "pnp (pikepdf)"
    pdf.docinfo["/CreationDate"] = date
    pdf.docinfo["/ModDate"] = date


def page_count(data: bytes) -> int:
    from pikepdf import Pdf

    with Pdf.open(io.BytesIO(data)) as pdf:
        return len(pdf.pages)


_SUBSET = re.compile(r"^/([A-Z]{6})\+(.+)$")
#: A subset name from reportlab's counter (AAAAAA+, AAAAAB+, ...: its digits 0-9 as A-K without H), as
#: the dictionaries of a file without object streams spell it.
_COUNTED = re.compile(rb"/FontName\s*/AAAA[A-GIJK]{2}\+")


def tag_font_subsets(data: bytes) -> bytes:
    """``data`` with every embedded font subset named ``TAG+Name``, the tag made from the subset's own
    font program (:func:`subset_tag`). reportlab names a font's first subset ``AAAAAA+`` in every file,
    so a merged kit would hold different programs under one name; pnp's fonts come out of reportlab
    named from their programs already (:class:`pnp.draw.fonts.TaggedTTFont`), and a PDF where no
    name is reportlab's counter is returned as it is, at once (without being opened)."""
    if b"/ObjStm" not in data and not _COUNTED.search(data):
        return data
    import pikepdf
    from pikepdf import Name, Pdf

    with Pdf.open(io.BytesIO(data)) as pdf:
        changed = False
        for obj in pdf.objects:
            if not isinstance(obj, pikepdf.Dictionary) or obj.get("/Type") != "/Font":
                continue
            fonts = [obj] + list(obj.get("/DescendantFonts") or [])
            for font in fonts:
                descriptor = font.get("/FontDescriptor")
                if descriptor is None:
                    continue
                program = next((descriptor[k] for k in ("/FontFile2", "/FontFile", "/FontFile3") if k in descriptor),
                               None)
                match = _SUBSET.match(str(descriptor.get("/FontName", "")))
                if program is None or match is None:
                    continue
                name = Name(f"/{subset_tag(program.read_bytes())}+{match.group(2)}")
                if descriptor.FontName == name:
                    continue
                descriptor.FontName = name
                for f in fonts:
                    if _SUBSET.match(str(f.get("/BaseFont", ""))):
                        f.BaseFont = name
                changed = True
        return _save(pdf) if changed else data


def bookmark(title: str) -> str:
    """An outline entry's words: the title's markup as plain text, a plain ``str`` (pikepdf reads a ``str``
    subclass such as :class:`pnp.text.markup.Safe` as a sequence of letters)."""
    return str(plain_text(str(title)))


#: Past this many pages in all, PDFs are combined by qpdf's own page handling in one go (:func:`_joined`):
#: pikepdf's page list copies each page in a time that grows with the pages already there (a 16,000-page
#: merge took minutes). Below it the page list is used, as it always was (the same bytes as before).
BULK_PAGES = 1000


def merge(parts, title: str, author: str = "") -> bytes:
    """``parts``: [(outline title, pdf bytes)] in order."""
    from pikepdf import Name, OutlineItem, Pdf

    sources = []
    try:
        for _, data in parts:
            sources.append(Pdf.open(io.BytesIO(data)))  # kept open until saved: pages are copied lazily
        counts = [len(src.pages) for src in sources]
        if sum(counts) > BULK_PAGES:
            out = Pdf.open(io.BytesIO(_joined([data for _, data in parts])))
            sources.append(out)
        else:
            out = Pdf.new()
            for src in sources:
                out.pages.extend(src.pages)
        with out.open_outline() as outline:
            first = 0
            for (name, _), n in zip(parts, counts):
                if n:
                    outline.root.append(OutlineItem(bookmark(name), first))
                first += n
        out.Root.PageMode = Name.UseOutlines
        _info(out, title, author)
        return _save(out)
    finally:
        for src in sources:
            src.close()


def _joined(pdfs: list, collate: bool = False) -> bytes:
    """The pages of ``pdfs`` in order (``collate``: a page of each in turn), by qpdf's page handling
    (``qpdf --empty --pages ...``), which appends them all in one go. Document-level entries of the
    parts (their outlines, their info) are left out, as :meth:`pikepdf.Pdf.pages.extend` leaves them."""
    import tempfile

    import pikepdf

    with tempfile.TemporaryDirectory(prefix="pnp-merge-") as tmp:
        names = []
        for i, data in enumerate(pdfs):
            names.append(os.path.join(tmp, f"{i}.pdf"))
            with open(names[-1], "wb") as f:
                f.write(data)
        target = os.path.join(tmp, "out.pdf")
        args = ["qpdf", "--empty", "--deterministic-id", "--stream-data=preserve"] + (["--collate"] if collate else [])
        pikepdf.Job(args + ["--pages", *names, "--", target]).run()
        with open(target, "rb") as f:
            return f.read()


def concatenate(pdfs: list, title: str, author: str = "", outline: str | None = None) -> bytes:
    """The pages of ``pdfs`` one after the other, as one file with one outline entry (a file drawn in
    pieces: card sheets of a large deck, each piece painted by itself)."""
    from pikepdf import Pdf

    if sum(page_count(p) for p in pdfs) > BULK_PAGES:
        out = Pdf.open(io.BytesIO(_joined(list(pdfs))))
        opened = []
    else:
        out, opened = Pdf.new(), [Pdf.open(io.BytesIO(p)) for p in pdfs]
        for part in opened:
            out.pages.extend(part.pages)
    try:
        return _finished(out, title, author, outline)
    finally:
        for part in opened:
            part.close()


def _finished(out, title: str, author: str, outline: str | None) -> bytes:
    """``out`` with one bookmark ``outline`` on its first page (when given), its info set, as bytes."""
    from pikepdf import Name, OutlineItem

    if outline and len(out.pages):
        with out.open_outline() as tree:
            tree.root.append(OutlineItem(bookmark(outline), 0))
        out.Root.PageMode = Name.UseOutlines
    _info(out, title, author)
    return _save(out)


def interleave(first: bytes, second: bytes, title: str, author: str = "", outline: str | None = None) -> bytes:
    """A page of ``first``, then a page of ``second``, in turn (the two have as many pages): card fronts
    and backs for a duplex printer, made from their PDFs rather than painted again."""
    from pikepdf import Pdf

    a, b = Pdf.open(io.BytesIO(first)), Pdf.open(io.BytesIO(second))
    try:
        if len(a.pages) != len(b.pages):
            raise ValueError(f"cannot interleave {len(a.pages)} pages with {len(b.pages)}")
        if len(a.pages) + len(b.pages) > BULK_PAGES:
            out = Pdf.open(io.BytesIO(_joined([first, second], collate=True)))
        else:
            out = Pdf.new()
            for front, back in zip(a.pages, b.pages):
                out.pages.append(front)
                out.pages.append(back)
        return _finished(out, title, author, outline)
    finally:
        a.close()
        b.close()


def impose(reading: bytes, marks: bytes, placements, title: str, author: str = "") -> bytes:
    """Place booklet pages on sheets. ``marks``: one PDF page per sheet side (fold marks, labels);
    ``placements``: per side, a list of (page number, a, b, c, d, e, f) with the placement matrix in points;
    ``title`` and ``author`` the file's document information."""
    import pikepdf
    from pikepdf import Name, Page, Pdf

    src = Pdf.open(io.BytesIO(reading))
    base = Pdf.open(io.BytesIO(marks))
    out = Pdf.new()
    forms = [out.copy_foreign(Page(p).as_form_xobject()) for p in src.pages]
    for i, side in enumerate(placements):
        out.pages.append(base.pages[i])
        page = Page(out.pages[-1])
        for number, *matrix in side:
            name = page.add_resource(forms[number - 1], Name.XObject, name=Name(f"/BookletPage{number}"))
            ops = " ".join(f"{v:g}" for v in matrix)
            page.contents_add(pikepdf.Stream(out, f"q {ops} cm {name} Do Q".encode()), prepend=False)
    _deflate_new_streams(out)
    _info(out, title, author)
    try:
        return _save(out)
    finally:
        src.close()
        base.close()


def _deflate_new_streams(pdf: Pdf) -> None:
    """Compress the streams made here (pages turned into forms, placements), which pikepdf leaves as
    they are: :func:`_save` writes streams as it finds them."""
    import pikepdf
    from pikepdf import Name

    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Stream) and "/Filter" not in obj:
            obj.write(zlib.compress(obj.read_raw_bytes()), filter=Name.FlateDecode)


def pdf_date() -> str:
    """The documents' date: SOURCE_DATE_EPOCH when set, else a fixed date (as reportlab's invariant mode)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    t = time.gmtime(int(epoch) if epoch else 946684800)
    return time.strftime("D:%Y%m%d%H%M%S+00'00'", t)


def place(sources: list, sheets, size: tuple, title: str, author: str = "", outline: str | None = None) -> bytes:
    """Sheets made of parts of other PDFs' pages (shared sheets). ``sources``: PDF bytes; ``sheets``: per
    sheet, a list of (source index, page index, clip (x, y, w, h), dx, dy), all in points: the page's
    content inside the clip drawn moved by (dx, dy); or (source index, page index, clip, matrix) with
    ``clip`` on the sheet and ``matrix`` (a, b, c, d, e, f) taking the page there (a block turned a
    quarter); ``size``: the sheets' (width, height) in points."""
    import pikepdf
    from pikepdf import Name, Page, Pdf

    opened = [Pdf.open(io.BytesIO(data)) for data in sources]
    out = Pdf.new()
    forms = {}
    try:
        for placements in sheets:
            out.add_blank_page(page_size=size)
            page = Page(out.pages[-1])
            for src, index, (x, y, w, h), *move in placements:
                if (src, index) not in forms:
                    forms[(src, index)] = out.copy_foreign(Page(opened[src].pages[index]).as_form_xobject())
                name = page.add_resource(forms[(src, index)], Name.XObject, name=Name(f"/Shared{src}p{index}"))
                if len(move) == 2:
                    dx, dy = move
                    ops = (f"q {x + dx:.3f} {y + dy:.3f} {w:.3f} {h:.3f} re W n "
                           f"1 0 0 1 {dx:.3f} {dy:.3f} cm {name} Do Q")
                else:
                    matrix = " ".join(f"{v:.3f}" if v % 1 else f"{v:.0f}" for v in move[0])
                    ops = f"q {x:.3f} {y:.3f} {w:.3f} {h:.3f} re W n {matrix} cm {name} Do Q"
                page.contents_add(pikepdf.Stream(out, ops.encode()), prepend=False)
        _deflate_new_streams(out)
        return _finished(out, title, author, outline)
    finally:
        for src in opened:
            src.close()


def without(data: bytes, drop, title: str, author: str = "", outline: str | None = None) -> bytes:
    """``data`` without the pages of index in ``drop`` (pages that went onto shared sheets)."""
    from pikepdf import Pdf

    src = Pdf.open(io.BytesIO(data))
    out = Pdf.new()
    try:
        for i, page in enumerate(src.pages):
            if i not in drop:
                out.pages.append(page)
        return _finished(out, title, author, outline)
    finally:
        src.close()
