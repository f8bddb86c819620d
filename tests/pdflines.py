"""Lines of text as a PDF prints them (pypdfium2): each line's baseline, extent, type size and words,
for tests that measure typesetting on the printed kit (one-word last lines, words broken with a hyphen)."""

from __future__ import annotations

import ctypes
import re
from collections import Counter

import pypdfium2 as pdfium
import pypdfium2.raw as raw

#: Two runs of text on one baseline further apart than this (points) are separate lines (table columns,
#: figures side by side, an icon between two words is less).
RUN_GAP = 12.0
#: What pdfium puts where a word was broken with a hyphen at a line's end.
SOFT_BREAK = "\ufffe"


def page_lines(page) -> list[tuple]:
    """[(baseline, x0, x1, size, text)] of a page's lines, top to bottom (points from the bottom-left):
    characters grouped by baseline and split where a gap wider than :data:`RUN_GAP` parts them; a
    line's size is the most common of its characters'."""
    textpage = page.get_textpage()
    rows: dict = {}
    for i in range(textpage.count_chars()):
        ch = chr(raw.FPDFText_GetUnicode(textpage, i))
        if ch in "\r\n\x02" or ch == SOFT_BREAK:
            continue
        x, y = ctypes.c_double(), ctypes.c_double()
        raw.FPDFText_GetCharOrigin(textpage, i, x, y)
        left, _, right, _ = textpage.get_charbox(i)
        if ch.isspace():
            left = right = x.value
        rows.setdefault(round(y.value), []).append((left, right, ch, round(raw.FPDFText_GetFontSize(textpage, i), 1)))
    out = []
    for y, chars in rows.items():
        chars.sort(key=lambda c: c[0])
        runs, run = [], [chars[0]]
        for c in chars[1:]:
            if c[0] - run[-1][1] > RUN_GAP:
                runs.append(run)
                run = [c]
            else:
                run.append(c)
        runs.append(run)
        for run in runs:
            text = ""
            for k, c in enumerate(run):
                if k and c[2] != " " and text[-1:] != " " and c[0] - run[k - 1][1] > 0.2 * c[3]:
                    text += " "
                text += c[2]
            sizes = Counter(c[3] for c in run if not c[2].isspace())
            if sizes:
                out.append((y, run[0][0], run[-1][1], sizes.most_common(1)[0][0], " ".join(text.split())))
    out.sort(key=lambda line: (-line[0], line[1]))
    return out


def one_word_last_lines(path, size: float, leading: float) -> list[tuple]:
    """(page, word) of every line of text at ``size`` that holds one word, stands alone on its baseline
    and ends a paragraph of two or more lines (a line above it one ``leading`` up, none below)."""
    doc = pdfium.PdfDocument(path)
    found = []
    try:
        for number in range(len(doc)):
            every = page_lines(doc[number])
            baselines = Counter(line[0] for line in every)
            lines = [line for line in every if abs(line[3] - size) < 0.05]
            step = size * leading
            for above, line in zip(lines, lines[1:]):
                if (" " in line[4] or baselines[line[0]] > 1 or line[4].rstrip(".").isdigit()
                        or abs(above[0] - line[0] - step) > 1.5 or abs(above[1] - line[1]) > 20):
                    continue
                if not any(0 < line[0] - other[0] < step + 1.5 and abs(other[1] - line[1]) < 2 for other in lines):
                    found.append((number + 1, line[4]))
    finally:
        doc.close()
    return found


def hyphenated_words(path) -> list[tuple]:
    """(page, head, tail) of every word the PDF breaks with a hyphen at a line's end."""
    doc = pdfium.PdfDocument(path)
    try:
        texts = [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    finally:
        doc.close()
    return [(n + 1, m.group(1), m.group(2)) for n, text in enumerate(texts)
            for m in re.finditer(rf"(\w+){SOFT_BREAK}(\w+)", text)]
