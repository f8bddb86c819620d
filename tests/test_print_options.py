"""Print-shop and home-printer options: bleed with crop marks, back offset, ink saver, calibration."""

import io

import pypdf
import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.components import BuildOptions
from pnp.components.cards import build as build_cards
from pnp.components.tokens import build as build_tokens
from pnp.draw.pdf import render
from pnp.loading.gamedata import load_game
from pnp.layout.calibration import calibration_pages
from pnp.layout.geometry import Box, Rect, Text, extent, flatten
from pnp.layout.inksaver import save_ink
from pnp.layout.sheet import mirror
from pnp.units import PAPERS, PRINTER_MARGIN


@pytest.fixture(scope="module")
def game():
    return load_game("shadow_throne")


def _card_area(group) -> Rect:
    """The page area a placed card (upright group or turned transform) paints: trim plus bleed."""
    return extent(group)


@pytest.mark.parametrize("paper,count", [("letter", 6), ("a4", 8)])
def test_bleed_extends_the_art_and_puts_crop_marks_in_the_printable_margin(game, paper, count):
    fronts, backs, *_ = build_cards(game, BuildOptions(paper=paper, bleed=3))
    page = fronts.pages[0]
    w, h = PAPERS[paper]
    cards = page.groups("card:")
    (turned,) = cards[0].elements
    frames = [el for el in turned.elements if el.role == "frame"]
    assert frames[0].rect.rounded() == (-3.0, -3.0, 69.0, 94.0)
    assert turned.clip.rounded() == (-3.0, -3.0, 69.0, 94.0)
    # 69 x 94 mm per card, crop marks 4 mm beyond the bleed: 4 upright cards fit, but 6 (Letter, 2 x 3)
    # or 8 (A4, 2 x 4) turned a quarter
    assert len(cards) == count
    areas = [_card_area(c) for c in cards]
    assert all(round(a.w, 2) == 94.0 and round(a.h, 2) == 69.0 for a in areas)
    marks = page.find("crop")
    assert marks and not page.find("cut")
    printable = Rect(PRINTER_MARGIN, PRINTER_MARGIN, w - 2 * PRINTER_MARGIN, h - 2 * PRINTER_MARGIN)
    for m in marks:
        assert printable.contains(Rect(min(m.x1, m.x2), min(m.y1, m.y2), abs(m.x2 - m.x1), abs(m.y2 - m.y1)))
        assert m.width * 72 / 25.4 >= 0.25    # hairlines vanish in print
        for art in areas:                     # outside every card's bleed area
            assert not art.overlaps(Rect(min(m.x1, m.x2), min(m.y1, m.y2), abs(m.x2 - m.x1) or 0.01,
                                         abs(m.y2 - m.y1) or 0.01))
    trim_xs = {round(a.x + 3, 2) for a in areas} | {round(a.right - 3, 2) for a in areas}
    trim_ys = {round(a.y + 3, 2) for a in areas} | {round(a.top - 3, 2) for a in areas}
    assert {round(m.x1, 2) for m in marks if m.x1 == m.x2} == trim_xs
    assert {round(m.y1, 2) for m in marks if m.y1 == m.y2} == trim_ys
    # a sheet of several cards claims no TrimBox/BleedBox (those describe one finished piece)
    assert page.trim is None and page.bleed is None and backs.pages[0].trim is None


def test_one_card_per_page_carries_each_cards_trim_and_bleed_boxes(game):
    *_, single = build_cards(game, BuildOptions(bleed=3))
    assert single.filename == "cards-one-per-page.pdf" and not single.in_kit
    assert len(single.pages) == 2 * 59
    assert [p.label for p in single.pages[:4]] == ["card dutiful-peasant#1", "back dutiful-peasant#1",
                                                  "card dutiful-peasant#2", "back dutiful-peasant#2"]
    pdf = pypdf.PdfReader(io.BytesIO(render(single.pages[:2], "t")))
    for page in pdf.pages:
        mm = lambda box: [round(float(v) * 25.4 / 72, 2) for v in box]  # noqa: E731
        assert mm(page.mediabox) == [0, 0, 69.0, 94.0]
        assert mm(page.bleedbox) == [0, 0, 69.0, 94.0]
        assert mm(page.trimbox) == [3.0, 3.0, 66.0, 91.0]


def test_back_offset_moves_every_back_by_the_offset(game):
    plain = build_cards(game, BuildOptions())[1].pages[0]
    shifted = build_cards(game, BuildOptions(back_offset=(1.5, -0.5)))[1].pages[0]
    before = {e.role: (e.dx, e.dy) for e in plain.groups("back:dutiful-peasant#1")}
    after = {e.role: (e.dx, e.dy) for e in shifted.groups("back:dutiful-peasant#1")}
    (bx, by), (ax, ay) = before["back:dutiful-peasant#1"], after["back:dutiful-peasant#1"]
    assert (round(ax - bx, 2), round(ay - by, 2)) == (1.5, -0.5)
    # fronts are untouched
    assert build_cards(game, BuildOptions())[0].pages[0].elements == build_cards(
        game, BuildOptions(back_offset=(1.5, -0.5)))[0].pages[0].elements


@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize("drift", [(2.0, 0.0), (0.0, -1.5), (1.0, 1.0)])
def test_calibration_reading_is_the_offset_that_cancels_the_drift(flip, drift):
    """Simulate a printer moving the back by ``drift``; the front label under the pointer must read
    the back offset that moves it back (-drift)."""
    w, h = PAPERS["letter"]
    front, back = calibration_pages(w, h, flip, {})
    labels = {(round(t.rect.cx, 2), round(t.rect.cy, 2)): t.markup for t in front.find("label")}
    dx, dy = drift
    for pointer in back.find("pointer-x"):
        # where the drifted pointer lands, seen from the front
        seen = mirror(Rect(pointer.x1 + dx, pointer.y1 + dy, 0, pointer.y2 - pointer.y1), w, h, flip)
        ys = [y for (x, y) in labels if seen.y - 6 < y < seen.top + 6]
        row = min(ys, key=lambda y: abs(y - seen.cy))
        zero = next(x for (x, y), m in labels.items() if y == row and m == "0")
        reading = seen.x - zero
        sign = 1 if flip == "long" else -1
        assert round(sign * reading, 2) == -dx
    for pointer in back.find("pointer-y"):
        seen = mirror(Rect(pointer.x1 + dx, pointer.y1 + dy, pointer.x2 - pointer.x1, 0), w, h, flip)
        xs = [x for (x, y) in labels if seen.x - 6 < x < seen.right + 6]
        col = min(xs, key=lambda x: abs(x - seen.cx))
        zero = next(y for (x, y), m in labels.items() if x == col and m == "0")
        reading = seen.y - zero
        sign = -1 if flip == "long" else 1
        assert round(sign * reading, 2) == -dy


def test_calibration_command_writes_one_sheet(tmp_path):
    result = CliRunner().invoke(main, ["build", "--calibration", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert [p.name for p in tmp_path.iterdir()] == ["calibration.pdf"]
    assert len(pypdf.PdfReader(str(tmp_path / "calibration.pdf")).pages) == 2


def test_bad_back_offset_is_a_clear_error():
    result = CliRunner().invoke(main, ["build", "--back-offset", "left", "--out", "/tmp/none"])
    assert result.exit_code == 2
    assert "--back-offset 'left': expected two numbers in mm" in result.output


def test_ink_saver_lightens_large_fills_only(game):
    fronts, backs, _ = build_cards(game, BuildOptions())
    saved = save_ink(backs.pages[0].elements)
    big = [e for e in flatten(saved) if isinstance(e, Box) and e.role == "back"]
    assert big and all(e.fill != "#2a2130" and e.stroke == "#2a2130" for e in big)
    titles = [e for e in flatten(saved) if isinstance(e, Text) and e.role == "back-title"]
    assert all(t.style.colour == "#1f1a17" for t in titles)  # gold on a light tint would be unreadable
    face = save_ink(fronts.pages[0].elements)
    small = [e for e in flatten(face) if getattr(e, "role", "") == "stat:power"]
    assert small and all(e.colour is None for e in small)    # badges keep their own colours
    emblem = [e for e in flatten(face) if getattr(e, "role", "") == "emblem"]
    original = [e for e in flatten(fronts.pages[0].elements) if getattr(e, "role", "") == "emblem"]
    assert emblem == original


def test_tokens_make_room_for_a_larger_bleed(game):
    (plain,) = build_tokens(game, BuildOptions())
    (bled,) = build_tokens(game, BuildOptions(bleed=3))
    assert len(bled.pages) >= len(plain.pages)
    cuts = [e for e in bled.pages[0].elements if getattr(e, "role", "") == "cut"]
    assert cuts
    arts = [el for g in bled.pages[0].elements if getattr(g, "role", "").startswith("front:")
            for el in g.elements if el.role == "token-art"]
    assert all(getattr(a, "r", None) is None or round(a.r - 8, 2) in (3.0, 5.0, 7.5) for a in arts)
