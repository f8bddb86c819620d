"""Fillable PDFs: pages painted as every page of the kit is (:func:`pnp.draw.paint.paint`), with an AcroForm
field over each place a player writes in (:class:`pnp.layout.writein.FormField`): a text field, or a
check box that takes a cross. Fields are made in the order given, which is the order of the page's
annotations and so the tab order of viewers; each keeps the name given. The fields show nothing of their
own (no border, no background): the printed boxes and lines show where to write. Typed text takes the
viewer's size for the field (auto), in a pen's blue. Same input, same bytes (reportlab's invariant
canvas, as :mod:`pnp.draw.pdf`).
"""

from __future__ import annotations

import io

from reportlab.lib.colors import HexColor, transparent

from pnp.draw.paint import paint
from pnp.draw.pdf import new_canvas
from pnp.units import pt

#: The colour of what a player types or ticks.
PEN = "#1d3f8f"
#: The font of typed text: one every PDF viewer has (the standard Helvetica, not embedded).
FIELD_FONT = "Helvetica"


def fillable_pdf(pages, title: str, author: str = "") -> bytes:
    """``pages``: (layout page, its form fields in tab order) pairs; the PDF's bytes."""
    buf = io.BytesIO()
    c = new_canvas(buf, title, author)
    for page, fields in pages:
        c.setPageSize((pt(page.width), pt(page.height)))
        paint(c, page.elements)
        for f in fields:
            add_field(c, f)
        c.showPage()
    c.save()
    return buf.getvalue()


def add_field(c, f) -> None:
    """One form field on the canvas's page: a text field or a check box over ``f.rect``."""
    r = f.rect
    common = dict(name=f.name, x=pt(r.x), y=pt(r.y), fillColor=transparent, borderWidth=0, borderColor=None,
                  textColor=HexColor(PEN))
    if f.kind == "check":
        side = min(r.w, r.h)
        common.update(x=pt(r.cx - side / 2), y=pt(r.cy - side / 2))
        c.acroForm.checkbox(size=pt(side), buttonStyle="cross", shape="square", fieldFlags="", **common)
    else:
        c.acroForm.textfield(width=pt(r.w), height=pt(r.h), fontName=FIELD_FONT, fontSize=0, maxlen=0, **common)
