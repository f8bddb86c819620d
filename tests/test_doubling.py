"""No input path grows faster than the work: each test doubles an input and bounds the time ratio.

Linear work takes about twice as long for twice the input; quadratic work four times. Each size is timed
as the best of a few runs in CPU time (the steadier figure on a shared machine), and the ratio must stay
under :data:`BOUND`, well between the two.
"""

from __future__ import annotations

import contextlib
import csv
import gc
import io
import time
from dataclasses import replace

import pikepdf
import pytest

from pnp.draw import merge as merging
from pnp.errors import DataError
from pnp.loading.tables import MAX_COLUMNS, _mappings, load_table
from pnp.loading.yamlsrc import LIMITS, parse_yaml

#: The largest time ratio accepted for twice the input (linear: about 2; quadratic: about 4).
BOUND = 3.0


def best_time(func, runs: int = 3) -> float:
    """The best CPU time of ``runs`` calls, the cycle collector paused (its full passes cost more the more
    objects live, whatever the code under test does)."""
    best = float("inf")
    for _ in range(runs):
        gc.collect()
        gc.disable()
        try:
            start = time.process_time()
            func()
            best = min(best, time.process_time() - start)
        finally:
            gc.enable()
    return best


@contextlib.contextmanager
def frozen_heap():
    """The objects alive now moved out of the collector's reach (``gc.freeze``) while a ratio is timed, and
    given back after: each ``gc.collect()`` of :func:`best_time` then walks only what the timed work made.
    In a pytest-xdist worker late in a run, millions of objects live (loaded games, fonts, caches), and a
    full collection walked them all, seven times a ratio: test_doubling cost 45 s of CPU there against 7 s
    in a fresh process, the timed work itself being the same (issue 38). Garbage frozen with them is
    collected after the unfreeze, as before."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def ratio(make_input, work, n: int) -> float:
    """Time of ``work`` on ``make_input(2n)`` over its time on ``make_input(n)``; measured a second time
    when the first is not under :data:`BOUND` (quadratic work gives about 4 both times; a linear check
    measured 3.08 once in a full run at load 10, its set of 200,000 names out of the cache the other
    processes share)."""
    with frozen_heap():
        small, large = make_input(n), make_input(2 * n)
        work(small)                       # warm: imports, caches
        for _ in range(2):
            measured = best_time(lambda: work(large)) / max(best_time(lambda: work(small)), 1e-6)
            if measured < BOUND:
                break
        return measured


# ---------------------------------------------------------------------- spreadsheets

def test_a_csv_header_twice_as_wide_takes_about_twice_as_long(tmp_path):
    """A header of N columns is refused past MAX_COLUMNS after reading it once (it took minutes for 400k)."""
    def make(n):
        path = tmp_path / f"wide-{n}.csv"
        path.write_text(",".join(f"c{i}" for i in range(n)) + "\n" + ",".join("1" for _ in range(n)) + "\n")
        return path

    def work(path):
        with pytest.raises(DataError, match=f"more than {MAX_COLUMNS} columns"):
            load_table(path)

    assert ratio(make, work, 100_000) < BOUND


def test_the_duplicate_column_check_is_linear():
    """Every header name is checked against the names before it with a set, not a list."""
    def make(n):
        return [f"field{i}" for i in range(n)] + ["field0"]

    def work(header):
        with pytest.raises(DataError, match="column 'field0' appears twice"):
            _mappings("cards.csv", header, [])

    assert ratio(make, work, 100_000) < BOUND


def test_a_csv_deck_twice_as_long_takes_about_twice_as_long(tmp_path):
    def make(n):
        path = tmp_path / f"deck-{n}.csv"
        with open(path, "w", newline="") as f:
            out = csv.writer(f)
            out.writerow(["id", "name", "copies", "power", "text"])
            out.writerows([f"card-{i}", f"Card {i}", 1, i % 7, "Draw a card."] for i in range(n))
        return path

    assert ratio(make, load_table, 2_000) < BOUND


def test_an_xlsx_deck_twice_as_long_and_a_sheet_too_wide(tmp_path):
    openpyxl = pytest.importorskip("openpyxl")

    def make(n, columns=5):
        path = tmp_path / f"deck-{n}-{columns}.xlsx"
        book = openpyxl.Workbook(write_only=True)
        sheet = book.create_sheet("cards")
        sheet.append(["id", "name", "copies", "power", "text"][:columns] + [f"x{i}" for i in range(columns - 5)])
        for i in range(n):
            sheet.append([f"card-{i}", f"Card {i}", 1, i % 7, "Draw a card."] + [1] * (columns - 5))
        book.save(path)
        return path

    assert ratio(make, load_table, 400) < BOUND

    def wide(n):
        return make(1, columns=n)

    def refused(path):
        with pytest.raises(DataError, match=f"more than {MAX_COLUMNS} columns"):
            load_table(path)

    assert ratio(wide, refused, 2_000) < BOUND


# ---------------------------------------------------------------------- YAML

def yaml_deck(n: int) -> str:
    lines = ["cards:"]
    for i in range(n):
        lines += [f"  - id: card-{i}", f"    name: Card {i}", "    copies: 2", f"    power: {i % 9}",
                  "    tags: [a, b]", "    ability: {kind: draw, count: 1}"]
    return "\n".join(lines) + "\n"


def test_a_yaml_deck_twice_as_long_takes_about_twice_as_long():
    assert ratio(yaml_deck, lambda text: parse_yaml(text, "cards.yaml"), 500) < BOUND


def test_the_value_limit_counts_each_value_once():
    """Each value counts once: a list of exactly the limit's values (the list itself one of them) is read,
    one more is refused."""
    limits = replace(LIMITS, max_values=10_000)

    def flat(n):
        return "[" + ",".join("1" * n) + "]\n"

    def nested(m):                  # 5 m + 1 values: m mappings (key, list, two items, itself) in a list
        return "[" + ",".join(["{a: [1, 2]}"] * m) + "]\n"

    assert len(parse_yaml(flat(9_999), "many.yaml", limits)) == 9_999
    assert len(parse_yaml(nested(1_999), "many.yaml", limits)) == 1_999
    for text in (flat(10_000), nested(2_000)):
        with pytest.raises(DataError, match="more than 10,000 values"):
            parse_yaml(text, "many.yaml", limits)


@pytest.mark.slow
def test_a_twenty_thousand_card_deck_is_inside_the_value_limit():
    """About 12 values a card: it was refused at card 12,713 when nested values counted twice."""
    assert parse_yaml(yaml_deck(20_000), "cards.yaml")["cards"][-1]["id"] == "card-19999"


# ---------------------------------------------------------------------- PDF pages

def blank_pdf(n: int) -> bytes:
    pdf = pikepdf.Pdf.new()
    for i in range(n):
        pdf.add_blank_page(page_size=(200, 200 + i % 5))
    buf = io.BytesIO()
    pdf.save(buf)
    return buf.getvalue()


def test_merging_twice_the_pages_takes_about_twice_as_long(monkeypatch):
    """The kit's pages are appended in one go past BULK_PAGES (pikepdf's page list took 63 µs a page at
    1,000 pages and 521 µs at 16,000); timed here from a few hundred pages, the threshold lowered."""
    monkeypatch.setattr(merging, "BULK_PAGES", 100)
    assert ratio(lambda n: [("a", blank_pdf(n)), ("b", blank_pdf(3))],
                 lambda parts: merging.merge(parts, "kit"), 800) < BOUND
    assert ratio(blank_pdf, lambda pdf: merging.interleave(pdf, pdf, "duplex"), 400) < BOUND


@pytest.mark.parametrize("bulk", [0, 10_000])
def test_both_ways_of_merging_give_the_same_pages_and_outline(monkeypatch, bulk):
    monkeypatch.setattr(merging, "BULK_PAGES", bulk)
    parts = [("First", blank_pdf(3)), ("Empty", blank_pdf(0)), ("Second", blank_pdf(4))]
    kit = merging.merge(parts, "kit", "me")
    duplex = merging.interleave(blank_pdf(3), blank_pdf(3)[:], "duplex", "me", "Cards")
    with pikepdf.open(io.BytesIO(kit)) as doc:
        assert [float(p.MediaBox[3]) for p in doc.pages] == [200, 201, 202, 200, 201, 202, 203]
        with doc.open_outline() as outline:
            assert [(o.title, doc.pages.index(pikepdf.Page(o.destination[0]))) for o in outline.root] == \
                [("First", 0), ("Second", 3)]
        assert str(doc.docinfo["/Title"]) == "kit" and doc.Root.PageMode == "/UseOutlines"
    with pikepdf.open(io.BytesIO(duplex)) as doc:
        assert [float(p.MediaBox[3]) for p in doc.pages] == [200, 200, 201, 201, 202, 202]
