"""Gutterfold card sheets (``pnp build --cards gutterfold``): fold each page on its own fold line and every
back lies exactly behind its front (0.01 mm), the right way round; marks and art keep to the printable
part of the sheet; every deck size fits Letter and A4."""

import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.components import BuildOptions
from pnp.components.cards import GUTTERFOLD_FILE, build as build_cards
from pnp.loading.gamedata import load_game
from pnp.layout.doublesided import turn_matrix
from pnp.layout.geometry import Box, Line, Rect, Transform, apply, compose, extent, flatten
from pnp.layout.gutterfold import BACK_SPILL, GUTTER, gutterfold_sheets, plan
from pnp.layout.sheet import CROP_LENGTH, CROP_OFFSET
from pnp.units import PAPERS, PRINTER_MARGIN

SIZES = {"poker": (63, 88), "poker-in": (63.5, 88.9), "bridge": (57, 89), "mini": (44, 63), "mini-euro": (44, 68),
         "euro": (59, 92), "square": (70, 70), "tarot": (70, 120)}
GAMES = ["shadow_throne", "behind_the_throne", "shadow_kingdoms_of_valeria", "shadow_queen"]


def _fold_of(page):
    """The fold as the page draws it: the dashed line's reflection."""
    (line,) = page.find("fold")
    if line.x1 == line.x2:
        return (-1.0, 0.0, 0.0, 1.0, 2 * line.x1, 0.0), line
    assert line.y1 == line.y2
    return (1.0, 0.0, 0.0, -1.0, 0.0, 2 * line.y1), line


def _placed(page, prefix):
    return {e.role.split(":", 1)[1]: e for e in page.elements if isinstance(e, Transform) and e.role.startswith(prefix)}


def _corners(w, h):
    return ((0, 0), (w, 0), (0, h), (w, h), (w / 3, h / 5))


def assert_folds_exactly(page, card_w, card_h):
    """Folding the page on its fold line puts every back's point (u, v) on the front's point (w - u, v): the
    card turned over like a book page."""
    reflection, _ = _fold_of(page)
    fronts, backs = _placed(page, "card:"), _placed(page, "back:")
    assert fronts and fronts.keys() == backs.keys()
    turn = turn_matrix("side", card_w, card_h)
    for label, front in fronts.items():
        back = backs[label]
        on_front = compose(reflection, back.matrix)
        for u, v in _corners(card_w, card_h):
            fx, fy = apply(compose(front.matrix, turn), u, v)
            bx, by = apply(on_front, u, v)
            assert abs(fx - bx) < 0.01 and abs(fy - by) < 0.01, (label, (u, v), (fx, fy), (bx, by))
        # a back is never drawn mirrored (its matrix keeps orientation), and never on its front's half
        a, b, c, d = back.matrix[:4]
        assert round(a * d - b * c, 9) == 1
        assert not extent(front).overlaps(extent(back))


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_every_deck_size_folds_exactly_and_keeps_to_the_printable_sheet(paper, size, bleed):
    w, h = SIZES[size]
    p = plan(w, h, PAPERS[paper], bleed)
    assert sorted((p.page_w, p.page_h)) == sorted(PAPERS[paper])
    faces = [(Box(Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed), fill="#884422", role="frame"),
              Line(0, h, w, h, role="top-edge"))] * (p.per_sheet + 1)
    back = (Box(Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed), fill="#222244"),)
    pages = gutterfold_sheets(faces, back, p, labels=[f"c#{i}" for i in range(len(faces))], hint="Fold here")
    assert len(pages) == 2 and len(_placed(pages[1], "card:")) == 1
    page = pages[0]
    assert_folds_exactly(page, w, h)
    # the fold through the middle of the sheet, the cards clear of it by half the gutter
    _, line = _fold_of(page)
    middle = p.page_w / 2 if line.x1 == line.x2 else p.page_h / 2
    assert round(line.x1 if line.x1 == line.x2 else line.y1, 6) == round(middle, 6)
    for s in p.slots:
        for r in (s.front, s.back):
            gap = abs(r.cx - middle) - r.w / 2 if p.axis == "x" else abs(r.cy - middle) - r.h / 2
            assert gap >= GUTTER / 2 - 1e-6
    printable = Rect(PRINTER_MARGIN, PRINTER_MARGIN, p.page_w - 2 * PRINTER_MARGIN, p.page_h - 2 * PRINTER_MARGIN)
    for e in page.elements:     # (a line by its ends: a mark may end on the margin)
        area = Rect(min(e.x1, e.x2), min(e.y1, e.y2), abs(e.x2 - e.x1), abs(e.y2 - e.y1)) if isinstance(e, Line) \
            else extent(e)
        assert printable.contains(area, tol=1e-6), e.role
    # crop marks continue every trim line outside everything the cards paint
    marks = page.find("crop")
    painted = [extent(e) for e in page.elements if e.role.startswith(("card:", "back:", "back-bleed"))]
    trims = [r for s in p.slots for r in (s.front, s.back)]
    assert {round(m.x1, 2) for m in marks if m.x1 == m.x2} == {round(v, 2) for r in trims for v in (r.x, r.right)}
    assert {round(m.y1, 2) for m in marks if m.y1 == m.y2} == {round(v, 2) for r in trims for v in (r.y, r.top)}
    for m in marks:
        box = Rect(min(m.x1, m.x2), min(m.y1, m.y2), abs(m.x2 - m.x1) or 0.01, abs(m.y2 - m.y1) or 0.01)
        assert round(max(box.w, box.h), 6) == CROP_LENGTH
        assert not any(a.overlaps(box) for a in painted)
    # without bleed, the backs' colour runs past them; the hint is on the page, clear of the marks
    assert len([e for e in page.elements if e.role == "back-bleed"]) == (0 if bleed else p.per_sheet)
    hints = [e for e in page.elements if e.role == "fold-hint"]
    # (A4 with 3 mm of bleed holds 4 poker cards with no room to spare: the instructions page says it)
    assert len(hints) == (0 if (paper, size, bleed) == ("a4", "poker", 3.0) else 1)
    for hint in hints:
        assert not any(extent(hint).overlaps(a) for a in painted)
        assert not extent(hint).overlaps(extent(line))


@pytest.mark.parametrize("paper,size,count", [("letter", "poker", 4), ("a4", "poker", 4), ("letter", "mini", 8),
                                              ("a4", "mini", 8), ("letter", "tarot", 2), ("letter", "bridge", 4),
                                              ("letter", "square", 3)])
def test_cards_per_sheet(paper, size, count):
    p = plan(*SIZES[size], PAPERS[paper])
    assert p.per_sheet == count
    # portrait sheets: the fold down the middle, poker cards lying turned, fronts on the left
    assert p.page_w < p.page_h
    if size == "poker":
        assert p.axis == "x" and p.turned
        assert all(s.front.right <= p.fold - GUTTER / 2 + 1e-9 for s in p.slots)


def test_a_card_that_cannot_fit_twice_on_a_sheet_says_so():
    with pytest.raises(ValueError, match="do not fit on one side of a 215.9 x 279.4 mm sheet"):
        plan(150, 200, PAPERS["letter"])


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_bundled_decks_fold_exactly(game_name, paper):
    """Every deck of every bundled game, per-value backs included (Valeria's decks, Shadow Queen's two)."""
    game = load_game(game_name)
    (out,) = build_cards(game, BuildOptions(paper=paper, cards="gutterfold"))
    assert out.filename == GUTTERFOLD_FILE and out.sides == "fold" and out.in_kit
    cards = sum(p.count for p in out.parts)
    labels = [label for page in out.pages for label in _placed(page, "card:")]
    assert len(labels) == len(set(labels)) == cards
    for page in out.pages:
        w, h = _deck_size(game, page)
        assert_folds_exactly(page, w, h)
    # each card shows the back the duplex sheets give it (a back that varies by a card key included)
    _, backs, *_ = build_cards(game, BuildOptions(paper=paper))
    duplex = {g.role.split(":", 1)[1]: g.elements for page in backs.pages for g in page.groups("back:")}
    folded = {label: t.elements for page in out.pages for label, t in _placed(page, "back:").items()}
    assert folded == duplex
    if game_name == "shadow_kingdoms_of_valeria":
        assert len({repr(e) for e in folded.values()}) > 3


def _deck_size(game, page):
    sizes = {(d.width, d.height) for d in game.decks}
    if len(sizes) == 1:
        return sizes.pop()
    raise AssertionError("decks of several sizes")


def test_cli_writes_only_the_gutterfold_sheets(tmp_path):
    out = tmp_path / "kit"
    result = CliRunner().invoke(main, ["build", "shadow_throne", "--cards", "gutterfold", "--out", str(out)])
    assert result.exit_code == 0, result.output
    names = {p.name for p in out.iterdir()}
    assert GUTTERFOLD_FILE in names
    assert not names & {"cards-fronts.pdf", "cards-backs.pdf", "cards-duplex.pdf"}
    assert f"{GUTTERFOLD_FILE}  (15 pages)" in result.output     # 59 cards, 4 to a sheet
