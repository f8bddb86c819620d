"""Pads (``kind: pad``): sheets players write on, from tests/games/dice_garden (a roll-and-write game).

The geometry of the writing regions (boxes, lines, check boxes, a track's spaces, a table's empty cells)
and of the sheets of pads (the grid, the cut lines, every back behind its front) is checked to 0.01 mm;
the fillable PDF has one field per box and per line, each over the box it fills, in tab order row by
row, named by the stable scheme; the kit holds it and the pictures and says so (manifest.json, the
instructions page); same input, same bytes; and every mistake in a pad's data is one message at its
line, with the closest name where there is one."""

import json
import shutil
from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner
from PIL import Image

from pnp.commands.cli import main
from pnp.components import BuildOptions, game_components
from pnp.components.pad import pad as laid_pad
from pnp.draw.raster import pixels
from pnp.layout.doublesided import behind
from pnp.layout.geometry import Box, Icon, Line, Rect, Style, Text, apply, flatten
from pnp.layout.pads import back_matrix, back_rect, pad_pages, pad_sheet
from pnp.layout.regions import place
from pnp.layout.writein import (MIN_BOX, boxes_elements, check_boxes, checks_elements, grid_cells, lines_elements,
                                problems)
from pnp.loading.cardlayout import compiled
from pnp.loading.gamedata import load_game
from pnp.text.markup import Safe
from pnp.units import PAPERS, PT_PER_MM

GAME = Path(__file__).parent / "games" / "dice_garden"
MM = 1 / PT_PER_MM          # mm per point


def close(a, b, tol=0.01):
    return abs(a - b) <= tol


def same_rect(r: Rect, x, y, w, h, tol=0.01) -> bool:
    return all(close(a, b, tol) for a, b in zip((r.x, r.y, r.w, r.h), (x, y, w, h)))


# ------------------------------------------------------------------------------------- writing regions

def test_a_grid_of_boxes_fills_its_rect_row_by_row_with_a_field_in_each_box_but_the_prefilled():
    fields = []
    region = {"name": "plots", "kind": "boxes", "grid": [6, 6],
              "cells": [[None, None, {"icon": "sun"}], [None, {"shade": True}], [None, None, {"value": Safe("6")}]]}
    els = boxes_elements(region, Rect(7, 37, 66, 66), "plots", Style(), fields)
    boxes = [e for e in els if isinstance(e, Box)]
    assert len(boxes) == 36
    # 66 mm / 6 = 11 mm boxes, the top row first, each row left to right
    assert same_rect(boxes[0].rect, 7, 92, 11, 11) and same_rect(boxes[5].rect, 62, 92, 11, 11)
    assert same_rect(boxes[6].rect, 7, 81, 11, 11) and same_rect(boxes[35].rect, 62, 37, 11, 11)
    assert boxes[7].fill is not None and boxes[6].fill is None                  # row 2, column 2: shaded
    icon = next(e for e in els if isinstance(e, Icon))
    assert icon.name == "sun" and icon.cx < 29 + 5.5 and icon.cy > 92 + 5.5     # in box r1c3's top-left corner
    value = next(e for e in els if isinstance(e, Text) and e.role == "plots:value")
    assert value.markup == "6" and same_rect(value.rect, 29.5, 81 - 11 + 0.5, 10, 10)   # r3c3, inside its outline
    names = [f.name for f in fields]
    assert len(fields) == 35 and "plots:r3c3" not in names                       # the pre-filled box has none
    assert names[:7] == ["plots:r1c1", "plots:r1c2", "plots:r1c3", "plots:r1c4", "plots:r1c5", "plots:r1c6",
                         "plots:r2c1"]
    assert same_rect(fields[0].rect, 7.5, 92.5, 10, 10) and fields[0].kind == "text"


def test_boxes_with_a_gap_and_check_fields():
    fields = []
    els = boxes_elements({"name": "g", "kind": "boxes", "grid": [3, 2], "gap": 2, "field": "check"},
                         Rect(10, 10, 34, 22), "g", Style(), fields)
    # (34 - 2 x 2) / 3 = 10 mm wide, (22 - 2) / 2 = 10 mm tall
    assert same_rect(els[0].rect, 10, 22, 10, 10) and same_rect(els[4].rect, 22, 10, 10, 10)
    assert [f.kind for f in fields] == ["check"] * 6
    assert same_rect(fields[4].rect, 22.5, 10.5, 9, 9)


def test_write_in_lines_take_equal_bands_with_their_labels_and_a_field_above_each_line():
    fields = []
    els = lines_elements({"name": "totals", "kind": "lines", "labels": ["Row points", "Total"], "label_width": 24},
                         Rect(7, 7, 81, 14), "totals", Style(), fields)
    lines = [e for e in els if isinstance(e, Line)]
    assert [(round(ln.x1, 2), round(ln.y1, 2), round(ln.x2, 2)) for ln in lines] == [(31, 15, 88), (31, 8, 88)]
    labels = [e for e in els if isinstance(e, Text)]
    assert [t.markup for t in labels] == ["Row points", "Total"] and labels[0].rect.right <= 31
    assert [f.name for f in fields] == ["totals:1", "totals:2"]
    assert same_rect(fields[0].rect, 31, 15.3, 57, 5.4)


def test_check_boxes_sit_at_the_left_of_their_cells_with_labels_and_in_the_middle_without():
    labelled = check_boxes({"grid": [3, 1], "labels": ["Pond", "Hedge", "Ladder"]}, Rect(7, 16, 81, 10))
    # cells 27 x 10 mm: a box of 7.5 mm capped at 5 mm, at the cell's left, its label 1.2 mm after it
    assert same_rect(labelled[1][0], 34, 18.5, 5, 5) and close(labelled[1][1].x, 40.2)
    bare = check_boxes({"grid": [1, 3]}, Rect(75, 72, 14, 24))
    assert same_rect(bare[0][0], 79.5, 89.5, 5, 5)            # cell 14 x 8 mm from y = 88: box 5 mm, centred
    fields = []
    checks_elements({"name": "bonus", "kind": "checks", "grid": [3, 1], "labels": ["Pond", "Hedge", "Ladder"]},
                    Rect(7, 16, 81, 10), "bonus", Style(), fields)
    assert [(f.name, f.kind) for f in fields] == [("bonus:r1c1", "check"), ("bonus:r1c2", "check"),
                                                   ("bonus:r1c3", "check")]


def test_a_track_and_a_table_get_fields_when_asked():
    fields = []
    place([{"name": "score", "kind": "track", "rect": [7, 21, 80, 8], "numbers": range(0, 16)},
           {"name": "t", "kind": "table", "rect": [0, 0, 40, 20], "rows": [["a", ""], ["", "b"]], "field": "text"},
           {"name": "quiet", "kind": "table", "rect": [0, 30, 40, 20], "rows": [["", ""]]}],
          (100, 100), 100, 100, None, fields=fields)
    track = [f for f in fields if f.region == "score"]
    assert [f.name for f in track[:3]] == ["score:1", "score:2", "score:3"] and len(track) == 16
    # 80 mm / 16 = 5 x 8 mm spaces; a check box is square, in the middle of the space's inside (4 x 7 mm)
    assert track[0].kind == "check" and same_rect(track[0].rect, 7.5, 23, 4, 4)
    assert [(f.name, f.rect.rounded()) for f in fields if f.region == "t"] == \
        [("t:r1c2", (20.5, 10.5, 19, 9)), ("t:r2c1", (0.5, 0.5, 19, 9))]    # empty cells only; none on 'quiet'


def test_a_table_of_constant_rows_prints_its_markup():
    """Jinja folds ``[[...]] + [[...]]`` into one constant: its texts are still the layout's quoted markup
    (they printed as raw ``[bloom]`` and ``**Score**``)."""
    rows = compiled("[['[coin]', '**Score**']] + [['Spring', '']]", True)()
    assert all(isinstance(cell, Safe) for row in rows for cell in row)


@pytest.mark.parametrize("region, rect, message", [
    ({"name": "g", "kind": "boxes", "grid": [6, 6]}, Rect(7, 37, 96, 66),
     "its rect (96 x 66 mm at [7, 37]) reaches 8.0 mm past the right edge of the 95 x 130 mm pad: give it a rect "
     "inside [0, 0, 95, 130]"),
    ({"name": "g", "kind": "boxes", "grid": [16, 16]}, Rect(7, 37, 66, 66),
     "its 16 x 16 boxes are 4.1 x 4.1 mm, too small to write in (at least 5 x 5 mm): a grid of 16 x 16 needs a "
     "rect of at least 80 x 80 mm; give it a larger rect or fewer boxes"),
    ({"name": "g", "kind": "boxes", "grid": [6, 5], "cells": [[]] * 6}, Rect(7, 37, 66, 66),
     "cells: gives 6 rows for a grid of 5 rows (grid: [6, 5])"),
    ({"name": "g", "kind": "boxes", "grid": [2, 1], "cells": [["a", "b", "c"]]}, Rect(7, 37, 66, 66),
     "cells: row 1 gives 3 cells for a grid of 2 columns (grid: [2, 1])"),
    ({"name": "l", "kind": "lines", "labels": ["a", "b"]}, Rect(7, 7, 81, 8),
     "its 2 lines are 4.0 mm apart, too close to write on (at least 5 mm): 2 lines need a rect at least 10.0 mm tall"),
    ({"name": "l", "kind": "lines", "count": 1, "labels": ["a", "b"]}, Rect(7, 7, 81, 18),
     "labels: gives 2 labels for 1 lines (count: 1)"),
    ({"name": "c", "kind": "checks", "grid": [3, 1], "size": 2.5}, Rect(7, 7, 81, 8),
     "its check boxes are 2.5 mm, too small to tick (at least 3 mm)"),
    ({"name": "c", "kind": "checks", "grid": [1, 3], "size": 9}, Rect(75, 72, 14, 24),
     "size: 9 mm check boxes do not fit its 14.0 x 8.0 mm cells"),
])
def test_what_cannot_be_written_in(region, rect, message):
    assert problems(region, rect, None, (95, 130)) == [message]


def test_a_track_with_too_many_spaces_for_its_length():
    from pnp.layout.regions import track_cells

    area = Rect(7, 21, 81, 8)
    cells = track_cells("row", area, 31)
    assert problems({"name": "score", "kind": "track"}, area, cells, (95, 130)) == [
        "31 spaces are too many for its 81.0 mm: each is 2.6 mm, and a space to mark takes at least 4 mm (at most "
        "20 spaces along 81.0 mm); give it fewer numbers or a longer rect"]
    assert problems({"name": "score", "kind": "track"}, area, track_cells("row", area, 20), (95, 130)) == []


# ---------------------------------------------------------------------------------------- pad sheets

def test_four_pads_a_sheet_with_cut_lines_along_every_edge():
    sheet = pad_sheet(95, 130, *PAPERS["letter"])
    g = sheet.grid
    assert (g.cols, g.rows, sheet.landscape) == (2, 2, False)
    left, bottom = (215.9 - 190) / 2, (279.4 - 260) / 2
    assert same_rect(g.slot(0), left, bottom + 130, 95, 130) and same_rect(g.slot(3), left + 95, bottom, 95, 130)
    pages = pad_pages(sheet, [Box(Rect(0, 0, 95, 130), stroke="#000000")], 6, label="Garden")
    assert len(pages) == 2 and len(pages[0].groups("pad:")) == 4 and len(pages[1].groups("pad:")) == 2
    cuts = pages[0].find("cut")
    xs = sorted(round(c.x1, 2) for c in cuts if c.x1 == c.x2)
    ys = sorted(round(c.y1, 2) for c in cuts if c.y1 == c.y2)
    assert xs == [round(left, 2), round(left + 95, 2), round(left + 190, 2)]
    assert ys == [round(bottom, 2), round(bottom + 130, 2), round(bottom + 260, 2)]
    assert all(c.y1 == 0 and close(c.y2, 279.4) for c in cuts if c.x1 == c.x2)       # to the sheet's edges
    # the last sheet's two pads: its cut lines are theirs (one row)
    assert sorted({round(c.y1, 2) for c in pages[1].find("cut") if c.y1 == c.y2}) == \
        [round(bottom + 130, 2), round(bottom + 260, 2)]


def test_a_sheet_turns_landscape_when_that_holds_more_and_keeps_to_per_sheet():
    sheet = pad_sheet(120, 90, *PAPERS["a4"])            # portrait: 1 x 3; landscape: 2 x 2
    assert sheet.landscape and (sheet.grid.cols, sheet.grid.rows) == (2, 2)
    assert pad_sheet(90, 62, *PAPERS["letter"], gap=4).per_sheet == 8
    few = pad_sheet(90, 62, *PAPERS["letter"], gap=4, most=6)
    assert (few.grid.cols, few.grid.rows) == (2, 3)
    with pytest.raises(ValueError, match="a 90 x 300 mm pad does not fit a 215.9 x 279.4 mm sheet"):
        pad_sheet(90, 300, *PAPERS["letter"])


@pytest.mark.parametrize("size, paper", [((95, 130), "letter"), ((120, 90), "a4")])     # portrait, landscape
@pytest.mark.parametrize("flip, turn", [("long", "side"), ("short", "top"), ("long", "top"), ("short", "side")])
def test_every_back_lies_behind_its_front(flip, turn, size, paper):
    """Turning the sheet over on ``flip``'s edge (a portrait sheet's long edge mirrors it left to right, a
    landscape sheet's top to bottom) puts each back behind its own front, the pad turned over on ``turn``."""
    from pnp.layout.doublesided import DoubleSided, turn_matrix

    w, h = size
    sheet = pad_sheet(w, h, *PAPERS[paper])
    g = sheet.grid
    assert sheet.landscape == (paper == "a4") and sheet.per_sheet == 4
    across = (flip == "long") == (not sheet.landscape)           # the sheet is mirrored left to right
    reflection = (-1.0, 0.0, 0.0, 1.0, g.page_w, 0.0) if across else (1.0, 0.0, 0.0, -1.0, 0.0, g.page_h)
    for i in range(4):
        slot = g.slot(i)
        m = back_matrix(sheet, slot, flip, turn)
        ds = DoubleSided("duplex", g.page_w, g.page_h, w, h, turn, slot, back_rect(sheet, slot, flip, turn),
                         (1, 0, 0, 1, slot.x, slot.y), m, reflection)
        for u, v in ((0, 0), (w, 0), (10, h - 10), (w / 2, h / 2)):
            fu, fv = apply(turn_matrix(turn, w, h), u, v)             # the front point this back point is behind
            x, y = behind(ds, *apply(m, u, v))
            assert close(x, slot.x + fu) and close(y, slot.y + fv), (i, u, v)
        back = back_rect(sheet, slot, flip, turn)                      # the back lies on the page, upright
        assert back.w == pytest.approx(w) and 0 < back.x and back.right < g.page_w and 0 < back.y < g.page_h


# ------------------------------------------------------------------------------------- the test game

@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    out = tmp_path_factory.mktemp("dice-garden") / "kit"
    result = CliRunner().invoke(main, ["build", str(GAME), "--out", str(out), "--no-cache"],
                                env={"SOURCE_DATE_EPOCH": "1700000000"})
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAME))


def spec_of(game, name):
    return next(c for c in game_components(game) if c.name == name).build.keywords["spec"]


def test_dice_garden_validates():
    result = CliRunner().invoke(main, ["validate", str(GAME), "--no-cache"])
    # its goal cards are text only: classic's art window stays empty (issue 37's empty-space warning)
    assert result.exit_code == 0 and not_empty_space(result.output) == [
        "Dice Garden: 6 cards (4 different), components instructions, garden_sheet, score_pad, cards, languages en, "
        "es: valid"]


def not_empty_space(output: str) -> list:
    """The lines printed but the warnings of a card face left empty."""
    return [line for line in output.splitlines() if "of the face empty" not in line]


def fields_of(path):
    reader = pypdf.PdfReader(path)
    return [[a.get_object() for a in page.get("/Annots") or ()] for page in reader.pages], reader


def test_the_fillable_pdf_has_a_field_on_every_box_and_line(kit, game):
    pages, reader = fields_of(kit / "garden-sheet-fillable.pdf")
    assert len(pages) == 2                                            # the front, then the back
    front = [str(a["/T"]) for a in pages[0]]
    regions = {}
    for name in front:
        side, region, place_ = name.split(":")
        assert side == "front"
        regions.setdefault(region, []).append(place_)
    # 36 plots but the well (written in already), the gardener's line and two totals, 3 rerolls, 16 spaces
    assert {r: len(p) for r, p in regions.items()} == {"gardener": 1, "plots": 35, "rerolls": 3, "score": 16,
                                                       "totals": 2}
    back = [str(a["/T"]) for a in pages[1]]
    assert len([n for n in back if n.startswith("back:seasons:")]) == 6 * 3      # the tally's empty cells
    assert [n for n in back if not n.startswith("back:seasons:")] == \
        ["back:bonus:r1c1", "back:bonus:r1c2", "back:bonus:r1c3", "back:final:1"]
    kinds = {str(a["/T"]): str(a["/FT"]) for p in pages for a in p}
    assert kinds["front:plots:r1c1"] == "/Tx" and kinds["front:rerolls:r1c1"] == "/Btn" and \
        kinds["front:score:1"] == "/Btn" and kinds["front:totals:2"] == "/Tx"
    # the form lists each field once, and every name is unique
    assert len(reader.trailer["/Root"]["/AcroForm"]["/Fields"]) == len(kinds) == len(front) + len(back)


def test_tab_order_goes_region_by_region_row_by_row(kit, game):
    pages, _ = fields_of(kit / "garden-sheet-fillable.pdf")
    names = [str(a["/T"]) for a in pages[0]]
    regions = list(dict.fromkeys(n.split(":")[1] for n in names))
    assert regions == ["gardener", "plots", "rerolls", "score", "totals"]        # the layout's order
    plots = [a for a in pages[0] if str(a["/T"]).startswith("front:plots:")]
    places = [str(a["/T"]).split(":")[2] for a in plots]
    assert places == sorted(places, key=lambda p: (int(p[1:].split("c")[0]), int(p.split("c")[1])))
    tops = [float(a["/Rect"][3]) for a in plots]
    lefts = [float(a["/Rect"][0]) for a in plots]
    for k in range(1, len(plots)):              # each field below the last one's row, or right of it on the row
        assert tops[k] < tops[k - 1] - 1 or (close(tops[k], tops[k - 1]) and lefts[k] > lefts[k - 1])
    score = [int(str(a["/T"]).split(":")[2]) for a in pages[0] if ":score:" in str(a["/T"])]
    assert score == list(range(1, 17))


def test_each_field_lies_on_the_box_it_fills(kit, game):
    pages, _ = fields_of(kit / "garden-sheet-fillable.pdf")
    the_pad = laid_pad(game, spec_of(game, "garden_sheet"))
    boxes = [e for e in flatten(the_pad.front) if isinstance(e, Box) and e.role == "plots:box"]
    assert len(boxes) == 36
    by_name = {str(a["/T"]): [float(v) * MM for v in a["/Rect"]] for a in pages[0]}
    for k, box in enumerate(boxes):
        name = f"front:plots:r{k // 6 + 1}c{k % 6 + 1}"
        if name == "front:plots:r3c3":
            assert name not in by_name                      # the well
            continue
        x0, y0, x1, y1 = by_name[name]
        inner = box.rect.inset(0.5)
        assert same_rect(Rect(x0, y0, x1 - x0, y1 - y0), inner.x, inner.y, inner.w, inner.h), name
    # 7 mm from the pad's left edge, 11 mm boxes: the first row's boxes start 92 mm up the 130 mm pad
    assert same_rect(boxes[0].rect, 7, 92, 11, 11)
    lines = [e for e in flatten(the_pad.front) if isinstance(e, Line) and e.role == "totals:line"]
    for n, line in enumerate(lines, 1):
        x0, y0, x1, y1 = by_name[f"front:totals:{n}"]
        assert close(x0, line.x1) and close(x1, line.x2) and y0 > line.y1 and close(y0, line.y1 + 0.3)


def test_the_pads_print_four_to_a_sheet_with_backs_behind(game):
    from pnp.components.pad import build

    spec = spec_of(game, "garden_sheet")
    out = build(game, BuildOptions(paper="a4"), spec=spec)
    pages = out[0].pages
    assert len(pages) == 4 and out[0].sides == "double" and out[0].sheets == 2    # sheets: 2, fronts then backs
    assert [len(p.groups("pad:")) for p in pages[::2]] == [4, 4]
    fronts = [g for g in pages[0].groups("pad:")]
    backs = [e for e in pages[1].elements if getattr(e, "role", "").startswith("pad-back:")]
    assert len(backs) == 4
    for front, back in zip(fronts, backs):       # long-edge flip: a pad's back mirrored across the sheet's middle,
        # its left edge behind the front's right edge (turned over like a book page), upright
        assert close(apply(back.matrix, 0, 0)[0], 210 - front.dx - 95)
        assert close(apply(back.matrix, 95, 130)[0], 210 - front.dx) and close(apply(back.matrix, 95, 130)[1],
                                                                                front.dy + 130)
    assert [p.label for p in pages] == ["Garden sheet 1", "Garden sheet 1 back", "Garden sheet 2",
                                        "Garden sheet 2 back"]


def test_the_kit_holds_the_fillable_pdf_and_the_pictures_and_says_so(kit):
    manifest = json.loads((kit / "manifest.json").read_text())
    garden = next(c for c in manifest["components"] if c["id"] == "garden_sheet")
    assert garden["kind"] == "pad" and garden["pieces"] == [
        {"kind": "pad", "item": "garden_sheet", "count": 8, "name": "Garden sheet"}]
    assert garden["files"] == [
        {"file": "garden-sheet.pdf", "pages": 4, "sheets": 2, "sides": "double", "in_kit": True,
         "beside": ["garden-sheet.png", "garden-sheet-back.png"]},
        {"file": "garden-sheet-fillable.pdf", "pages": 2, "sheets": 0, "sides": "single", "in_kit": False}]
    for name, size in (("garden-sheet.png", (95, 130)), ("score-pad.png", (90, 62))):
        with Image.open(kit / name) as image:
            assert image.size == (pixels(size[0], 150), pixels(size[1], 150))
            assert round(image.info["dpi"][0]) == 150
    words = " ".join(pypdf.PdfReader(kit / "instructions.pdf").pages[0].extract_text().split())
    assert "open garden-sheet-fillable.pdf (beside the kit)" in words
    assert "garden-sheet.png and garden-sheet-back.png show the pad’s two sides as pictures" in words
    assert "score-pad.png shows the pad as a picture" in words
    kit_pages = len(pypdf.PdfReader(kit / "kit.pdf").pages)
    assert kit_pages == 1 + 4 + 1 + 2                           # the fillable PDF is beside the kit, not in it


def test_the_same_input_gives_the_same_bytes(kit, tmp_path):
    again = tmp_path / "again"
    result = CliRunner().invoke(main, ["build", str(GAME), "--out", str(again), "--no-cache", "--jobs", "2"],
                                env={"SOURCE_DATE_EPOCH": "1700000000"})
    assert result.exit_code == 0, result.output
    for name in ("garden-sheet.pdf", "garden-sheet-fillable.pdf", "garden-sheet.png", "garden-sheet-back.png",
                 "score-pad-fillable.pdf", "manifest.json", "kit.pdf"):
        assert (again / name).read_bytes() == (kit / name).read_bytes(), name


def test_a_pad_in_spanish_prints_the_translation_and_keeps_its_field_names(kit, tmp_path):
    """Every word a pad prints is a printed word (its title, its layouts' t('key') words, pnp's words on the
    instructions page), so the Spanish kit builds without --allow-missing; the fields keep their names."""
    out = tmp_path / "es"
    result = CliRunner().invoke(main, ["build", str(GAME), "--out", str(out), "--no-cache", "--lang", "es"])
    assert result.exit_code == 0, result.output
    reader = pypdf.PdfReader(out / "garden-sheet-fillable.pdf")
    words = [" ".join(page.extract_text().split()) for page in reader.pages]
    assert "Jardín de Dados" in words[0] and "Jardinero" in words[0] and "Puntos de filas" in words[0]
    assert "Cuenta de estaciones" in words[1] and "Primavera" in words[1] and "Puntuación final" in words[1]
    assert list(reader.get_fields()) == list(pypdf.PdfReader(kit / "garden-sheet-fillable.pdf").get_fields())
    instructions = " ".join(pypdf.PdfReader(out / "instructions.pdf").pages[0].extract_text().split())
    assert "Hoja del jardín: Para jugar en una tableta o un ordenador, abre garden-sheet-fillable.pdf" in instructions


# ---------------------------------------------------------------------------------------------- mistakes

@pytest.fixture
def garden(tmp_path):
    root = tmp_path / "dice_garden"
    shutil.copytree(GAME, root)
    return root


LAYOUT = "templates/layouts/garden.yaml"
TALLY = "templates/layouts/garden_tally.yaml"


@pytest.mark.parametrize("file, old, new, message", [
    ("garden.yaml", "{icon: drop}]", "{icon: dorp}]",
     "{layout}:16: layout 'garden', region 'plots': cells: row 1, cell 6 (garden.yaml:3): icon 'dorp' is not an "
     "icon; did you mean 'drop'? (pad 'garden_sheet')"),
    ("garden.yaml", "{shade: true}, null", "{shaed: true}, null",
     "{layout}:16: layout 'garden', region 'plots': cells: row 2, cell 3 (garden.yaml:4): no key 'shaed' in a "
     "cell; did you mean 'shade'? (pad 'garden_sheet')"),
    (LAYOUT, "rect: [7, 37, 66, 66]", "rect: [7, 37, 96, 66]",
     "{layout}:12: layout 'garden', region 'plots': its rect (96 x 66 mm at [7, 37]) reaches 8.0 mm past the right "
     "edge of the 95 x 130 mm pad: give it a rect inside [0, 0, 95, 130] (pad 'garden_sheet')"),
    (LAYOUT, "grid: [6, 6]", "grid: [16, 16]",
     "{layout}:12: layout 'garden', region 'plots': its 16 x 16 boxes are 4.1 x 4.1 mm, too small to write in (at "
     "least 5 x 5 mm): a grid of 16 x 16 needs a rect of at least 80 x 80 mm; give it a larger rect or fewer boxes "
     "(pad 'garden_sheet')"),
    (LAYOUT, "range(0, 16)", "range(0, 31)",
     "{layout}:23: layout 'garden', region 'score': 31 spaces are too many for its 81.0 mm: each is 2.6 mm, and a "
     "space to mark takes at least 4 mm (at most 20 spaces along 81.0 mm); give it fewer numbers or a longer rect "
     "(pad 'garden_sheet')"),
    (LAYOUT, "'[bloom] **×2**", "'[blom] **×2**",
     "{layout}:21: layout 'garden', region 'legend': text: unknown icon [blom]; did you mean [bloom]? "
     "(pad 'garden_sheet')"),
    (LAYOUT, "cells: data.garden", "cells: data.gardn",
     "{layout}:16: layout 'garden', region 'plots': cells: data has no 'gardn'; did you mean 'garden'? (game.yaml's "
     "data lists: garden) (pad 'garden_sheet')"),
    (LAYOUT, "rect: [7, 7, 81, 13]", "rect: [7, 7, 81, 8]",
     "{layout}:29: layout 'garden', region 'totals': its 2 lines are 4.0 mm apart, too close to write on (at least "
     "5 mm): 2 lines need a rect at least 10.0 mm tall (pad 'garden_sheet')"),
    ("i18n/en.yaml", "rerolls: Rerolls", "rerolls: Rerolls, at most three a game",
     "{layout}:19: layout 'garden', region 'rerolls-title': text: 'Rerolls, at most three a game' does not fit its "
     "14.0 x 6.0 mm place even at 6 pt"),
    (TALLY, "'[drop]'", "'[dorp]'",
     "{tally}:14: layout 'garden_tally', region 'seasons': rows: unknown icon [dorp]; did you mean [drop]? "
     "(pad 'garden_sheet')"),
    (TALLY, "t('ladder')]", "t('ladder'), t('pond')]",
     "{tally}:16: layout 'garden_tally', region 'bonus': labels: gives 4 labels for 3 check boxes (grid: [3, 1]) "
     "(pad 'garden_sheet')"),
    (TALLY, "field: text", "field: txt",
     "{tally}:12: region 'seasons': field: 'txt' is not one of: text, check, none; did you mean 'text'?"),
    (TALLY, "size: [95, 130]", "size: [95, 120]",
     "game.yaml:29: pad 'garden_sheet': the back layout 'garden_tally' is 95 x 120 mm, the front 'garden' 95 x 130 "
     "mm: a pad's two sides are the same size"),
    ("templates/layouts/score.yaml", "size: [90, 62]", "size: [90, 300]",
     "game.yaml:30: pad 'score_pad': a 90 x 300 mm pad does not fit a 215.9 x 279.4 mm sheet inside 6 mm margins "
     "either way round on letter"),
    ("game.yaml", "layout: score,", "layout: scroe,",
     "game.yaml:30: components: pad 'score_pad' layout: no layout 'scroe' (templates/layouts/scroe.yaml in the game "
     "folder or pnp's); did you mean 'score'?"),
    ("game.yaml", "gap: 4,", "gap: 4, sheet: 2,",
     "game.yaml:30: component 'score_pad': sheet: unknown key (did you mean 'sheets'?)"),
])
def test_every_mistake_is_one_message_at_its_line(garden, file, old, new, message):
    path = garden / file
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    result = CliRunner().invoke(main, ["validate", str(garden), "--no-cache"])
    assert result.exit_code == 2, result.output
    expected = str(garden / message.format(layout=LAYOUT, tally=TALLY))
    lines = [ln for ln in not_empty_space(result.output) if not ln.endswith("nothing was written.")]
    assert any(ln.startswith(expected) for ln in lines), result.output
    assert len(lines) == 1 or "on letter" in message, result.output        # letter, then a4


# ------------------------------------------------------------------------------------------- pnp new

def test_pnp_new_roll_and_write_writes_a_pad_that_validates(tmp_path):
    folder = tmp_path / "garden_game"
    result = CliRunner().invoke(main, ["new", str(folder), "--roll-and-write"])
    assert result.exit_code == 0, result.output
    assert (folder / "templates" / "layouts" / "score_pad.yaml").is_file()
    assert "{kind: pad, id: score_pad, layout: score_pad" in (folder / "game.yaml").read_text()
    result = CliRunner().invoke(main, ["validate", str(folder), "--no-cache"])
    assert result.exit_code == 0 and "score_pad" in result.output, result.output
    from pnp.components.pad import build

    game = load_game(str(folder))
    outs = build(game, BuildOptions(), spec=spec_of(game, "score_pad"))
    fillable = pypdf.PdfReader(__import__("io").BytesIO(outs[1].pdf))
    names = list(fillable.get_fields())
    # 6 x 4 plots but one written in, 4 bonuses, 13 track spaces, the player's line and two totals
    assert len(names) == 23 + 4 + 13 + 3
    plain = CliRunner().invoke(main, ["new", str(tmp_path / "plain")])
    assert plain.exit_code == 0 and not (tmp_path / "plain" / "templates" / "layouts" / "score_pad.yaml").exists()
