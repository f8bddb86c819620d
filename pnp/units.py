"""Units and paper sizes. Everything in data and layout is in millimetres; points only in drawing."""

MM_PER_INCH = 25.4
PT_PER_MM = 72 / MM_PER_INCH

#: Paper sizes in mm (width, height), portrait.
PAPERS = {
    "letter": (215.9, 279.4),
    "a4": (210.0, 297.0),
}

#: Home printers cannot print closer than about 5 mm to the edge; keep content inside this.
PRINTER_MARGIN = 6.0

#: The smallest printed text (points): below it, text blurs on home printers and readers squint.
MIN_TEXT_PT = 6.0


def pt(mm: float) -> float:
    """Millimetres to PDF points."""
    return mm * PT_PER_MM


def half_sheet(paper: str) -> tuple[float, float]:
    """The page size of a booklet page folded from ``paper`` (half-Letter, A5)."""
    w, h = PAPERS[paper]
    return (h / 2, w)
