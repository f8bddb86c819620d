"""Shared sheets (issue 37): small pieces of different components, and the thin strips of a tiled board,
print together on as few sheets as hold them instead of each alone on a nearly empty sheet.

Tide Clock (../shared/games, built on a copy) printed its six dice's stickers alone on a Letter sheet,
its two standees alone on another, and its harbour board's last column (tiles A3, B3, C3, 23 mm strips)
on three more: 26 sheets on Letter, 22 on A4. The geometry is checked to 0.01 mm on blocks measured
from that kit; the kit itself by its sheet counts and what each file holds.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.layout.geometry import Box, Line, Page, Rect
from pnp.layout.packing import SHARE_GAP, SHARE_MARGIN, page_block, share_pack, small_enough

from rasterize import page_texts
from test_outside_games import CORPUS, GAMES, SKIP

LETTER = (215.9, 279.4)
A4 = (210.0, 297.0)

#: What Tide Clock's pages print on Letter (x, y, w, h mm on their own pages): its harbour board's
#: strips A3, B3 and C3 (landscape pages), its dice stickers and its standees. (B3 and C3 were 60 mm
#: wide, from x = 114.7, while their glue notes ran past the strip.)
A3_STRIP = Rect(116.6, 41.85, 46.2, 132.2)
B3_STRIP = Rect(116.6, 27.52, 46.2, 160.87)
C3_STRIP = Rect(116.6, 34.68, 46.2, 146.53)
STICKERS = Rect(15.95, 230.7, 184.0, 43.0)
STANDEES = Rect(7.0, 141.02, 66.0, 130.75)


def _overlap(a: Rect, b: Rect) -> bool:
    return a.x < b.right - 1e-9 and b.x < a.right - 1e-9 and a.y < b.top - 1e-9 and b.y < a.top - 1e-9


def test_blocks_go_tallest_first_into_shelves_exactly():
    plan = share_pack([A3_STRIP, STANDEES, STICKERS], *LETTER)
    assert (plan.page_w, plan.page_h, plan.sheets) == (215.9, 279.4, 1)
    # the strip opens a shelf at the top-left corner, inside the 6 mm margin; the standees sit beside it
    # 4 mm on, on the same bottom line; the stickers start a shelf 4 mm under it
    assert [p.rect.rounded() for p in plan.placed] == [(6.0, 141.2, 46.2, 132.2), (56.2, 141.2, 66.0, 130.75),
                                                       (6.0, 94.2, 184.0, 43.0)]
    assert [p.key for p in plan.placed] == [0, 1, 2]
    assert tuple(round(v, 2) for v in plan.offset(0, A3_STRIP)) == (-110.6, 99.35)
    assert tuple(round(v, 2) for v in plan.offset(2, STICKERS)) == (-9.95, -136.5)


def test_tide_clocks_small_pages_take_one_landscape_sheet_instead_of_five():
    """Shelves took two sheets (the standees alone on the second, a fifth of it used); free rectangles
    put the stickers under the shorter blocks, beside the tallest strip: one landscape sheet."""
    blocks = [A3_STRIP, B3_STRIP, C3_STRIP, STICKERS, STANDEES]
    for paper, under in ((LETTER, 2), (A4, 0)):
        top = min(paper) - SHARE_MARGIN
        plan = share_pack(blocks, *paper)
        assert (plan.page_w, plan.page_h, plan.sheets) == (max(paper), min(paper), 1)
        placed = sorted(plan.placed, key=lambda p: p.key)
        assert [p.key for p in placed] == [0, 1, 2, 3, 4]          # every block once, none turned
        assert not any(p.turned for p in placed)
        # B3 (the tallest) at the top-left corner; C3, A3 and the standees along the top, 4 mm apart
        b3, stickers = placed[1], placed[3]
        assert b3.rect.rounded() == (6.0, round(top - 160.87, 2), 46.2, 160.87)
        assert [(round(p.rect.x, 2), round(p.rect.top, 2)) for p in (placed[2], placed[0], placed[4])] == \
            [(56.2, round(top, 2)), (106.4, round(top, 2)), (156.6, round(top, 2))]
        # the stickers 4 mm under the block they start beneath: C3 on Letter, A3 on A4 (taller, less wide)
        assert (round(stickers.rect.x, 2), round(stickers.rect.top, 2)) == \
            (round(placed[under].rect.x, 2), round(placed[under].rect.y - SHARE_GAP, 2))
        for p, block in zip(placed, blocks):
            assert (round(p.rect.w, 2), round(p.rect.h, 2)) == (round(block.w, 2), round(block.h, 2))
            inside = Rect(SHARE_MARGIN, SHARE_MARGIN, plan.page_w - 2 * SHARE_MARGIN, plan.page_h - 2 * SHARE_MARGIN)
            assert inside.contains(p.rect, tol=0.005), p
        for a in placed:
            for b in placed:
                if a.key < b.key and a.sheet == b.sheet:
                    assert not _overlap(a.rect.inset(-SHARE_GAP / 2 + 0.001), b.rect.inset(-SHARE_GAP / 2 + 0.001))


def test_shelves_stay_when_free_rectangles_save_no_sheet():
    # the shelves' own placement (above) is kept byte for byte when nothing is gained
    plan = share_pack([A3_STRIP, STANDEES, STICKERS], *LETTER)
    assert [p.turned for p in plan.placed] == [False] * 3 and plan.page_h == 279.4


def test_a_block_turns_a_quarter_only_when_that_saves_a_sheet():
    """Two 200 x 100 mm blocks, one on its side: upright they take two Letter sheets either way up
    (100 + 4 + 200 mm is taller than the 267.4 mm printable, 204 mm wider than landscape's 203.9 mm
    tall); with the second turned they stack on one portrait sheet."""
    wide, tall = Rect(5.0, 150.0, 200.0, 100.0), Rect(50.0, 20.0, 100.0, 200.0)
    assert share_pack([wide, tall], *LETTER, turn=False).sheets == 2
    plan = share_pack([wide, tall], *LETTER)
    assert (plan.page_w, plan.page_h, plan.sheets) == (215.9, 279.4, 1)
    first, second = plan.placed
    assert not first.turned and first.rect.rounded() == (6.0, 173.4, 200.0, 100.0)
    assert second.turned and second.rect.rounded() == (6.0, 69.4, 200.0, 100.0)   # 4 mm under the first
    # the turn takes the block's corners exactly onto its place: its top-left to the place's top-right...
    a, b, c, d, e, f = plan.matrix(1, tall)
    assert (a, b, c, d) == (0.0, 1.0, -1.0, 0.0)

    def moved(x, y):
        return round(a * x + c * y + e, 2), round(b * x + d * y + f, 2)

    assert moved(tall.x, tall.top) == (6.0, 69.4)                 # top-left -> bottom-left (anticlockwise)
    assert moved(tall.x, tall.y) == (206.0, 69.4)                 # bottom-left -> bottom-right
    assert moved(tall.right, tall.y) == (206.0, 169.4)            # bottom-right -> top-right
    assert moved(tall.right, tall.top) == (6.0, 169.4)
    # an unturned block's transform is its move
    assert plan.matrix(0, wide)[:4] == (1.0, 0.0, 0.0, 1.0)
    assert tuple(round(v, 2) for v in plan.matrix(0, wide)[4:]) == tuple(round(v, 2) for v in plan.offset(0, wide)) \
        == (1.0, 23.4)


def test_a_turned_block_prints_turned_on_the_shared_sheet():
    """merge.place draws a turned block's page through its matrix, clipped to its place: a red square at
    a block's top-left corner lands at its place's bottom-left."""
    from pnp.draw.merge import place
    from pnp.draw.pdf import render
    from rasterize import pixel

    pypdfium2 = pytest.importorskip("pypdfium2")
    page = Page(215.9, 279.4).add(Box(Rect(50.0, 20.0, 100.0, 200.0), fill="#dddddd"),
                                  Box(Rect(50.0, 200.0, 20.0, 20.0), fill="#ff0000"))
    wide, tall = Rect(5.0, 150.0, 200.0, 100.0), Rect(50.0, 20.0, 100.0, 200.0)
    plan = share_pack([wide, tall], *LETTER)
    pt = 72 / 25.4
    r = plan.placed[1].rect
    a, b, c, d, e, f = plan.matrix(1, tall)
    pdf = place([render([page], "t")], [[(0, 0, (r.x * pt, r.y * pt, r.w * pt, r.h * pt), (a, b, c, d, e * pt, f * pt))]],
                (215.9 * pt, 279.4 * pt), "t")
    doc = pypdfium2.PdfDocument(pdf)
    image = doc[0].render(scale=100 / 72).to_pil().convert("RGB")
    doc.close()
    assert pixel(image, r.x + 10, r.y + 10, 100) == (255, 0, 0)          # the red corner, turned
    assert pixel(image, r.right - 10, r.y + 10, 100) == (221, 221, 221)
    assert pixel(image, r.x + 10, r.top - 10, 100) == (221, 221, 221)
    assert pixel(image, r.x + 10, r.top + 10, 100) == (255, 255, 255)   # nothing outside the place


def test_a_page_is_nearly_empty_when_it_prints_on_half_its_sheet_or_less():
    # Letter's printable area: 203.9 x 267.4 mm inside 6 mm margins, 54,522.86 mm2
    assert small_enough(Rect(0, 0, 150, 180), *LETTER)        # 27,000 mm2: 49.5 %
    assert not small_enough(Rect(0, 0, 150, 190), *LETTER)    # 28,500 mm2: 52.3 %
    assert small_enough(Rect(0, 0, 210, 60), *LETTER)         # wider than the sheet, fits it turned
    assert not small_enough(Rect(0, 0, 270, 20), *LETTER)     # longer than the sheet either way
    assert small_enough(STANDEES, *LETTER) and small_enough(B3_STRIP, *LETTER)


def test_a_pages_block_holds_its_cut_lines_and_labels_but_not_its_ruler_guides():
    page = Page(279.4, 215.9).add(
        Box(Rect(100, 40, 30, 120), fill="#cfe6f3", stroke="#2b2b2b", width=0.5, role="cut"),
        Line(131, 40, 131, 20, role="crop"),
        Line(10, 39.9, 100, 39.9, role="guide"), Line(130, 39.9, 269.4, 39.9, role="guide"))
    # the box's stroke reaches 0.25 mm past it, the crop mark's 0.1 mm past its ends
    assert page_block(page).rounded() == (99.75, 19.9, 31.35, 140.35)
    assert page_block(Page(10, 10)) is None


# ------------------------------------------------------------------------------------------- the kit

needs_tide_clock = pytest.mark.skipif("tide_clock" not in GAMES, reason=SKIP)


@pytest.fixture(scope="module")
def tide_clock(tmp_path_factory) -> Path:
    dest = tmp_path_factory.mktemp("shared") / "tide_clock"
    shutil.copytree(CORPUS / "tide_clock", dest)
    return dest


def _build(folder, out, *args) -> tuple[dict, str]:
    result = CliRunner().invoke(main, ["build", str(folder), "--out", str(out), "--no-cache", *args])
    assert result.exit_code == 0, result.output
    return json.loads((out / "manifest.json").read_text()), result.output


def _files(manifest) -> dict:
    return {f["file"]: f for c in manifest["components"] for f in c["files"]}


@needs_tide_clock
@pytest.mark.parametrize("paper, before, after", [("letter", 26, 21), ("a4", 22, 21)])
def test_tide_clocks_small_pieces_share_sheets(tide_clock, tmp_path, paper, before, after):
    manifest, output = _build(tide_clock, tmp_path / "kit", "--paper", paper)
    files = _files(manifest)
    assert manifest["sheets"]["total"] == after < before
    shared = files["shared-sheets.pdf"]
    assert shared["in_kit"] and shared["sides"] == "single"
    # the dice stickers and the standees left the kit whole (still written beside it, to print alone)
    assert not files["dice-stickers.pdf"]["in_kit"] and files["dice-stickers.pdf"]["pages"] == 1
    assert not files["standees.pdf"]["in_kit"] and files["standees.pdf"]["pages"] == 1
    # the pieces are still counted once, by their own components
    pieces = {(p["kind"], p["item"]): p["count"] for c in manifest["components"] for p in c["pieces"]}
    assert pieces[("die", "dice")] == 6 and pieces[("standee", "standees")] == 2
    assert pieces[("tile", "harbour_board-tiles")] == (9 if paper == "letter" else 6)
    texts = page_texts(tmp_path / "kit" / "shared-sheets.pdf")
    assert len(texts) == shared["pages"] == shared["sheets"]
    everything = " ".join(" ".join(texts).split())      # a strip's heading wraps over three lines
    assert everything.count("Harbour Keeper") == 1 and everything.count("Boat") >= 1
    board = page_texts(tmp_path / "kit" / "harbour-board.pdf")
    if paper == "letter":
        # the three 23 mm strips (A3, B3, C3) left the board's file for the shared sheets
        assert len(board) == files["harbour-board.pdf"]["sheets"] == 7
        for tile, n in (("A3", 3), ("B3", 6), ("C3", 9)):
            assert everything.count(f"Harbour board · tile {tile} · {n} of 9") == 1
            assert not any(f"tile {tile} ·" in t for t in board)
        assert sum("tile A2 ·" in t for t in board) == 1
    assert "strips" not in output                     # nothing wasted: no warning
    kit = page_texts(tmp_path / "kit" / "kit.pdf")
    assert len(kit) == sum(f["pages"] for f in files.values() if f["in_kit"])
    assert "Shared sheets" in kit[0] and "on the shared sheets" in kit[0]


@needs_tide_clock
def test_with_bleed_every_file_keeps_its_sheets_and_the_strips_are_a_warning(tide_clock, tmp_path):
    manifest, output = _build(tide_clock, tmp_path / "kit", "--bleed", "3")
    files = _files(manifest)
    assert "shared-sheets.pdf" not in files
    assert files["dice-stickers.pdf"]["in_kit"] and files["harbour-board.pdf"]["sheets"] == 10
    line = next(i for i, t in enumerate((tide_clock / "game.yaml").read_text().splitlines(), 1)
                if "id: harbour_board" in t)
    assert (f"{tide_clock / 'game.yaml'}:{line}: warning: board 'harbour_board': on Letter its tiles A3, B3, C3 are "
            f"strips 23 mm wide on sheets left nearly empty (9 sheets): a board 477 mm wide instead of 500 would "
            f"take 6, every region whole (with --bleed they print alone: pieces share no sheets)") in output


@needs_tide_clock
def test_shared_sheets_are_the_same_bytes_on_every_build(tide_clock, tmp_path):
    _build(tide_clock, tmp_path / "one")
    _build(tide_clock, tmp_path / "two")
    for name in ("shared-sheets.pdf", "harbour-board.pdf", "kit.pdf", "manifest.json"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes(), name


@needs_tide_clock
def test_every_tile_heading_fits_its_band_even_on_a_thin_strip(tide_clock):
    """A 23 mm strip's heading ("Harbour board · tile A3 · 3 of 9") was set on one line in a 13 mm band
    and clipped to "r board · tile B3"; now it takes up to three lines of 6 pt."""
    from pnp.components import BuildOptions, game_components
    from pnp.draw.icons import for_game
    from pnp.draw.text import fit
    from pnp.loading.gamedata import load_game

    game = load_game(tide_clock)
    with for_game(game):
        board = next(c for c in game_components(game) if c.name == "harbour_board")
        pages = board.build(game, BuildOptions(paper="letter"))[0].pages
    labels = [e for p in pages for e in p.elements if getattr(e, "role", "") == "tile-label"]
    assert len(labels) == 9
    for label in labels:
        assert fit(label.markup, label.style, label.rect.w, label.rect.h).ok, (label.markup, label.rect)
    thin = [e for e in labels if e.rect.w < 40]
    assert [e.markup.split(" · ")[1] for e in thin] == ["tile A3", "tile B3", "tile C3"]
    assert all(e.style.max_lines == 3 and e.style.size == 6.0 for e in thin)


@needs_tide_clock
def test_a_component_named_shared_sheets_keeps_its_file(tide_clock, tmp_path):
    """A component whose file would be shared-sheets.pdf (its id shared_sheets) keeps it: the shared
    sheets take the next free name, so neither file overwrites the other."""
    game = tmp_path / "tide_clock"
    shutil.copytree(tide_clock, game)
    data = game / "game.yaml"
    data.write_text(data.read_text().replace("    id: standees\n", "    id: shared_sheets\n", 1))
    manifest, _ = _build(game, tmp_path / "kit")
    files = _files(manifest)
    assert not files["shared-sheets.pdf"]["in_kit"] and files["shared-sheets.pdf"]["pages"] == 1
    assert files["shared-sheets-2.pdf"]["in_kit"] and files["shared-sheets-2.pdf"]["sides"] == "single"
    standees = " ".join(page_texts(tmp_path / "kit" / "shared-sheets.pdf"))
    assert "Harbour Keeper" in standees and "tile" not in standees
    shared = " ".join(" ".join(page_texts(tmp_path / "kit" / "shared-sheets-2.pdf")).split())
    assert "Harbour Keeper" in shared and "Harbour board · tile" in shared


@needs_tide_clock
def test_a_thin_strips_glue_note_lies_on_its_strip(tide_clock):
    """Tiles B3 and C3 (23 mm of board and a 10 mm side strip) printed their top strip's note in a 60 mm
    box, 18.5 mm past the tile's right edge and over the side strip's corner; the packer took the strips
    as 60 mm blocks. The note is now 19 mm wide, on the strip, its words on one line."""
    from pnp.components import BuildOptions, game_components
    from pnp.draw.icons import for_game
    from pnp.draw.text import fit
    from pnp.layout.geometry import extent
    from pnp.layout.packing import page_block
    from pnp.loading.gamedata import load_game

    game = load_game(tide_clock)
    with for_game(game):
        board = next(c for c in game_components(game) if c.name == "harbour_board")
        pages = {p.label.split()[-1]: p for p in board.build(game, BuildOptions(paper="letter"))[0].pages}
    for tile, block in (("B3", B3_STRIP), ("C3", C3_STRIP)):
        page = pages[tile]
        strips = [e.rect for e in page.elements if getattr(e, "role", "").startswith("glue:")]
        notes = [e for e in page.elements if getattr(e, "role", "").startswith("glue-note")]
        assert len(strips) == 2 and len(notes) == 4            # a box and its words on each strip
        for e in notes:
            assert any(s.contains(extent(e), 0.01) for s in strips), (tile, e.role, extent(e))
        (top,) = [e for e in notes if e.role == "glue-note" and e.rect.w > e.rect.h]
        assert (round(top.rect.w, 2), round(top.rect.h, 2)) == (19.0, 9.0)
        assert len(fit(top.markup, top.style, top.rect.w, top.rect.h).lines) == 1
        assert (page_block(page).x, page_block(page).w) == pytest.approx((block.x, block.w), abs=0.01)


@needs_tide_clock
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_the_instructions_estimate_counts_the_shared_sheets_as_the_build_does(tide_clock, tmp_path, paper):
    """pnp validate measures the instructions page on a kit it lists without building it. It listed the
    dice stickers, the standees and the board's three strips on sheets of their own, and no shared
    sheets: a longer table than the page the build prints. Now its files, their pages and their sheets
    are the build's, the cards' and the rulebook's aside (listed by their own stand-ins, not laid out)."""
    from pnp.components import BuildOptions
    from pnp.components.instructions import kit_entries
    from pnp.draw.icons import for_game
    from pnp.loading.gamedata import load_game

    manifest, _ = _build(tide_clock, tmp_path / "kit", "--paper", paper)
    built = {f["file"]: (f["in_kit"], f["pages"] if f["in_kit"] else 0, f["sheets"])
             for f in _files(manifest).values() if not f["file"].startswith("rulebook")}
    game = load_game(tide_clock)
    with for_game(game):
        entries = kit_entries(game, BuildOptions(paper=paper))
    listed = {e.filename: (bool(e.first), e.last - e.first + 1 if e.first else 0, e.sheets)
              for e in entries if e.filename and not e.filename.startswith("rulebook")}
    assert listed == {name: v for name, v in built.items() if name in listed}
    # the page itself is listed without a name; the cards' stand-in lists no screen-only duplex file
    assert set(built) - set(listed) <= {"instructions.pdf", "cards-duplex.pdf"}
    assert {"tokens.pdf", "harbour-board.pdf", "dice-stickers.pdf", "standees.pdf"} <= set(listed)
    shared = next(e for e in entries if e.filename == "shared-sheets.pdf")
    assert (shared.sheets, shared.sides) == (1, "single")
    assert [h[0] for h in shared.holds] == (["harbour_board", "dice", "standees"] if paper == "letter"
                                            else ["dice", "standees"])


@needs_tide_clock
def test_a_strip_turns_to_share_one_sheet_with_taller_standees(tide_clock, tmp_path):
    """With 30 x 70 mm standees (a designer's edit of Tide Clock), the board's strips, the standees and the
    stickers took two Letter shared sheets in rows, upright; turning strip A3 a quarter puts all five
    on one portrait sheet, its heading, crosses and cut lines turned with it."""
    game = tmp_path / "tide_clock"
    shutil.copytree(tide_clock, game)
    data = game / "game.yaml"
    data.write_text(data.read_text().replace("    width: 30\n    height: 50\n", "    width: 30\n    height: 70\n", 1))
    manifest, _ = _build(game, tmp_path / "kit")
    files = _files(manifest)
    assert manifest["sheets"]["total"] == 21
    assert files["shared-sheets.pdf"]["pages"] == files["shared-sheets.pdf"]["sheets"] == 1
    texts = page_texts(tmp_path / "kit" / "shared-sheets.pdf")
    assert len(texts) == 1
    flat = "".join(texts[0].split())
    for tile in ("A3·3of9", "B3·6of9", "C3·9of9"):
        assert tile in flat, tile
    from pnp.components import BuildOptions, game_components
    from pnp.components.sharing import blocks_of, plan
    from pnp.draw.icons import for_game
    from pnp.loading.gamedata import load_game

    loaded = load_game(game)
    options = BuildOptions(paper="letter")
    with for_game(loaded):
        components = game_components(loaded)
        built = {}
        for c in components:
            if c.shares:
                built[c.name] = c.build(loaded, options)
                for out in built[c.name]:
                    out.blocks = blocks_of(out.pages) if out.share else ()
        pages, packed = plan(components, built, options)
    assert (packed.page_w, packed.page_h, packed.sheets) == (215.9, 279.4, 1)
    turned = [(pages[p.key][0], pages[p.key][2]) for p in packed.placed if p.turned]
    assert turned == [("harbour_board", 3)]
    (label,) = [e for e in built["harbour_board"][0].pages[3].elements if getattr(e, "role", "") == "tile-label"]
    assert "tile A3" in label.markup                  # the board's fourth page: strip A3


@needs_tide_clock
def test_a_nearly_empty_last_token_sheet_goes_onto_a_shared_sheet_as_a_fold_block(tide_clock, tmp_path):
    """With 24 1-coins instead of 12 (a designer's edit), Tide Clock's tokens take two Letter sheets, the
    second holding 14 coins in two shelves at its top and, mirrored, its bottom: a sheet folded for a
    third of its room. Its tokens now go onto a shared sheet as a fold block (their shelves against the
    fold, a fold line and a grey edge of their own), beside the dice stickers: 23 sheets -> 22."""
    game = tmp_path / "tide_clock"
    shutil.copytree(tide_clock, game)
    data = game / "tokens.yaml"
    data.write_text(data.read_text().replace("{id: coin1, kind: coin, value: 1, count: 12,",
                                             "{id: coin1, kind: coin, value: 1, count: 24,", 1))
    manifest, _ = _build(game, tmp_path / "kit")
    files = _files(manifest)
    assert manifest["sheets"]["total"] == 22
    assert files["tokens.pdf"]["in_kit"] and files["tokens.pdf"]["pages"] == files["tokens.pdf"]["sheets"] == 1
    pieces = {(p["kind"], p["item"]): p["count"] for c in manifest["components"] for p in c["pieces"]}
    assert pieces[("token", "coin")] == 30                         # still counted once, by the tokens
    texts = page_texts(tmp_path / "kit" / "shared-sheets.pdf")
    assert len(texts) == files["shared-sheets.pdf"]["sheets"] == 2
    # the 14 coins, fronts and backs, on the shared sheets: 28 faces labelled "1"
    assert sum(t.split().count("1") for t in texts) >= 28
    kit = " ".join(page_texts(tmp_path / "kit" / "kit.pdf")[0].split())
    assert "Tokens: Cut the block of tokens out along its grey edge, fold it on its grey line" in kit
