"""Combining PDFs: the kit is its components' PDFs one after another, with an outline entry each.

pypdf writes no timestamps or random ids, so merged output stays byte-identical for the same input.
"""

from __future__ import annotations

import io
import os
import time

from pypdf import PdfReader, PdfWriter


def merge(parts, title: str, author: str = "") -> bytes:
    """``parts``: [(outline title, pdf bytes)] in order."""
    writer = PdfWriter()
    for name, data in parts:
        reader = PdfReader(io.BytesIO(data))
        first = len(writer.pages)
        for page in reader.pages:
            writer.add_page(page)
        if len(reader.pages):
            writer.add_outline_item(title=name, page_number=first)
    date = pdf_date()
    writer.add_metadata({"/Title": title, "/Author": author, "/Creator": "pnp", "/Producer": "pnp (pypdf)",
                         "/CreationDate": date, "/ModDate": date})
    writer.page_mode = "/UseOutlines"
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


def pdf_date() -> str:
    """The documents' date: SOURCE_DATE_EPOCH when set, else a fixed date (as reportlab's invariant mode)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    t = time.gmtime(int(epoch) if epoch else 946684800)
    return time.strftime("D:%Y%m%d%H%M%S+00'00'", t)
