"""Token sheets: counts from tokens.yaml, packing, and backs mirrored across the fold (to 0.01 mm)."""

import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.components import BuildOptions
from pnp.components.tokens import build
from pnp.loading.gamedata import load_game
from pnp.layout.geometry import Rect
from pnp.layout.tokens import front_area, pack, plan
from pnp.loading.tokendata import load_tokens
from pnp.units import PAPERS, PRINTER_MARGIN


@pytest.fixture(scope="module")
def game():
    return load_game("shadow_throne")


@pytest.fixture(scope="module")
def tokens(game):
    return load_tokens(game)


def test_the_kit_has_132_tokens_in_the_source_counts(tokens):
    assert tokens.total == 132
    assert tokens.count_of("faction") == 3
    others = sorted(t.count for t in tokens.tokens if t.kind != "faction")
    assert others == sorted([21, 15, 10, 13, 13, 42, 15])
    assert {t.kind for t in tokens.tokens} == {"faction", "gold", "influence", "dead", "converted", "plus_one"}


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_every_back_mirrors_its_front_across_the_fold(tokens, paper):
    w, h = PAPERS[paper]
    p = plan(tokens.tokens, w, h, tokens.gap, tokens.fold_gutter)
    assert p.fold_y == h / 2
    placed = [pl for sheet in p.sheets for pl in sheet]
    assert len(placed) == 132
    for pl in placed:
        assert round(pl.back.x, 2) == round(pl.front.x, 2)
        assert round(pl.back.w, 2) == round(pl.front.w, 2)
        # the fold line is halfway between the front's top edge and the back's bottom edge... mirrored
        assert round(pl.back.y + pl.back.h / 2 - p.fold_y, 2) == round(p.fold_y - (pl.front.y + pl.front.h / 2), 2)
        assert pl.front.y >= p.fold_y + tokens.fold_gutter - 1e-9
        assert pl.back.top <= p.fold_y - tokens.fold_gutter + 1e-9


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_tokens_stay_on_the_printable_half_and_never_overlap(tokens, paper):
    w, h = PAPERS[paper]
    p = plan(tokens.tokens, w, h, tokens.gap, tokens.fold_gutter)
    printable = Rect(PRINTER_MARGIN, PRINTER_MARGIN, w - 2 * PRINTER_MARGIN, h - 2 * PRINTER_MARGIN)
    for sheet in p.sheets:
        rects = [pl.front for pl in sheet] + [pl.back for pl in sheet]
        for r in rects:
            assert printable.contains(r)
        for i, a in enumerate(rects):
            for b in rects[i + 1:]:
                assert not a.inset(-tokens.gap / 2 + 0.001).overlaps(b.inset(-tokens.gap / 2 + 0.001))


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_packing_uses_few_sheets(tokens, paper):
    # the source kit needs three Letter sheets; first-fit-decreasing shelves fit everything on two
    w, h = PAPERS[paper]
    assert [len(s) for s in plan(tokens.tokens, w, h, tokens.gap, tokens.fold_gutter).sheets] == [57, 75]


def test_small_tokens_fill_the_space_left_in_shelves_of_larger_ones():
    area = Rect(0, 0, 50, 20)
    # a 20 mm shelf has 30 mm left: a 16 mm token goes there rather than onto a new shelf or sheet
    sheets = pack([("a", 16), ("b", 20)], area, 2)
    assert len(sheets) == 1
    (b, rb), (a, ra) = sheets[0]
    assert (b, a) == ("b", "a") and rb.y == 0 and round(ra.y, 2) == 2.0


def test_shelves_fill_a_sheet_before_starting_another():
    area = Rect(0, 0, 100, 45)
    sheets = pack([(i, 20) for i in range(9)], area, 2.5)
    # 4 per shelf (4*20 + 3*2.5 = 87.5), 2 shelves per sheet (20 + 2.5 + 20 = 42.5)
    assert [len(s) for s in sheets] == [8, 1]


def test_a_token_larger_than_the_half_sheet_is_refused():
    with pytest.raises(ValueError, match="does not fit"):
        pack([("big", 150)], front_area(215.9, 279.4, 4), 2)


def test_sheet_pages_have_a_fold_line_and_pink_cut_lines(game):
    (out,) = build(game, BuildOptions())
    assert out.filename == "tokens.pdf" and len(out.pages) == 2
    page = out.pages[0]
    (fold,) = page.find("fold")
    assert (fold.y1, fold.y2, fold.x1, fold.x2) == (279.4 / 2, 279.4 / 2, 0, 215.9)
    cuts = page.find("cut")
    fronts = [e for e in page.elements if e.role.startswith("front:")]
    assert len(cuts) == 2 * len(fronts)
    assert all((getattr(c, "stroke", None) or "").lower() == "#e4007c" for c in cuts)


def test_oversized_token_is_a_validation_error(game_copy):
    path = game_copy / "tokens.yaml"
    text = path.read_text().replace("  - id: dead\n    kind: dead\n    count: 13\n    shape: square\n    size: 16",
                                    "  - id: dead\n    kind: dead\n    count: 13\n    shape: square\n    size: 140")
    path.write_text(text)
    result = CliRunner().invoke(main, ["validate", str(game_copy)])
    assert result.exit_code == 2
    line = next(i for i, l in enumerate(text.splitlines(), 1) if l == "  - id: dead")
    assert (f"{path}:{line}: token 'dead': size: 140 mm is larger than the half sheet it prints on "
            "(203.9 x 129.7 mm on letter)") in result.output.splitlines()


def test_unknown_token_keys_and_icons_are_reported(game_copy):
    path = game_copy / "tokens.yaml"
    path.write_text(path.read_text().replace("front: {background: \"#3a3433\", icon: skull}",
                                             "front: {background: \"#3a3433\", icon: skul, glow: true}"))
    out = CliRunner().invoke(main, ["validate", str(game_copy)]).output
    assert "token 'dead': front.glow: unknown key" in out
    assert "token 'dead': front.icon: unknown icon 'skul'; did you mean 'skull'?" in out


def test_a_token_kind_without_a_printed_word_is_a_warning_at_its_first_token(starfall):
    """A kind the game names no printed word for prints its id ("12 light" in the list of pieces): a
    warning at its first token, naming the word to add and where; none for a kind that has one."""
    (starfall / "i18n" / "en.yaml").write_text("strings:\n  tokens_side: Side tokens\n")
    path = starfall / "tokens.yaml"
    result = CliRunner().invoke(main, ["validate", str(starfall)])
    assert result.exit_code == 0, result.output
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if "id: light-1," in text)
    count = load_tokens(load_game(str(starfall))).count_of("light")
    assert (f"{path}:{line}: warning: token kind 'light': has no printed word, so the kit prints its id "
            f"(\"{count} light\" in the list of pieces); give the name players read as tokens_light: under "
            f"strings: in i18n/en.yaml") in result.output.splitlines()
    assert "token kind 'side'" not in result.output
    (starfall / "i18n" / "en.yaml").write_text("strings:\n  tokens_side: Side tokens\n  tokens_light: Light\n")
    assert "token kind" not in CliRunner().invoke(main, ["validate", str(starfall)]).output


# ------------------------------------------------------------------ hexagons packed by their width

def _tide_clock_tokens():
    from test_outside_games import CORPUS, GAMES, SKIP

    if "tide_clock" not in GAMES:
        pytest.skip(SKIP)
    return load_tokens(load_game(CORPUS / "tide_clock"))


@pytest.mark.parametrize("paper, per_shelf", [("letter", 7), ("a4", 6)])
def test_hexagons_pack_by_their_width_when_that_saves_a_sheet(paper, per_shelf):
    """Tide Clock's 33 tokens (14 pointy-top hexagons) took two Letter sheets packed by their squares, the
    second holding two 1-coins; packed by their width across the flats (26 mm, not the 30.02 mm square)
    seven floods share a shelf and all 33 fit one sheet. A4, taller, held them on one sheet already: its
    squares stay (six floods to a shelf)."""
    tokens = _tide_clock_tokens()
    w, h = PAPERS[paper]
    p = plan(tokens.tokens, w, h, tokens.gap, tokens.fold_gutter)
    assert [len(s) for s in p.sheets] == [33]
    sheet = p.sheets[0]
    floods = sorted((pl for pl in sheet if pl.token == "flood"), key=lambda pl: (-pl.front.y, pl.front.x))
    top = [pl for pl in floods if round(pl.front.y, 2) == round(floods[0].front.y, 2)]
    assert len(top) == per_shelf
    if paper == "a4":
        step = 30.02 + tokens.gap            # squares side by side
        assert [round(b.front.x - a.front.x, 2) for a, b in zip(top, top[1:])] == [round(step, 2)] * 5
        return
    # 7 x 26 + 6 x 2.5 = 197 mm across the flats, centred on the 203.9 mm half sheet: flats 2.5 mm apart
    assert [round(pl.front.cx, 2) for pl in top] == [round(w / 2 - 3 * 28.5 + 28.5 * k, 2) for k in range(7)]
    assert all(round(pl.front.w, 2) == round(pl.front.h, 2) == 30.02 for pl in top)  # the square, as drawn
    area = front_area(w, h, tokens.fold_gutter)
    sizes = {t.id: (t.size if t.shape == "hexagon" else t.extent) for t in tokens.tokens}
    for pl in sheet:
        # what prints (a hexagon's flats, a circle's square) stays on the half sheet; the back mirrors it
        half = sizes[pl.token] / 2
        assert pl.front.cx - half >= area.x - 1e-9 and pl.front.cx + half <= area.right + 1e-9
        assert pl.front.y >= area.y - 1e-9 and pl.front.top <= area.top + 1e-9
        assert round(pl.back.x, 2) == round(pl.front.x, 2)
        assert round(pl.back.cy - p.fold_y, 2) == round(p.fold_y - pl.front.cy, 2)
    for i, a in enumerate(sheet):
        for b in sheet[i + 1:]:
            apart_x = abs(a.front.cx - b.front.cx) - (sizes[a.token] + sizes[b.token]) / 2
            apart_y = max(a.front.y - b.front.top, b.front.y - a.front.top)
            assert max(apart_x, apart_y) >= tokens.gap - 1e-6, (a, b)


def test_square_packing_stays_when_the_tighter_one_saves_no_sheet(tokens):
    # Shadow Throne's hexagons: packed by their width they take two sheets too, so nothing moves
    w, h = PAPERS["letter"]
    p = plan(tokens.tokens, w, h, tokens.gap, tokens.fold_gutter)
    squares = pack([((t.id, k + 1), t.extent) for t in tokens.tokens for k in range(t.count)],
                   front_area(w, h, tokens.fold_gutter), tokens.gap)
    assert [[(pl.token, pl.copy, pl.front) for pl in s] for s in p.sheets] == \
        [[(tid, copy, rect) for (tid, copy), rect in s] for s in squares]


# ------------------------------------------------------------------ the last sheet as a fold block

def test_the_last_sheet_folds_as_a_block_on_the_sheets_own_fold_line():
    """A fold block (the last token sheet's tokens, to go onto a shared sheet): its shelves start at the
    fold instead of the top, every back still the mirror image of its front across the same line, and its
    grey edge as far below the fold as above it, so the block cut out folds on its own line exactly."""
    from pnp.layout.tokens import BLOCK_MARGIN, fold_block, fold_block_page

    tokens = _tide_clock_tokens()
    tokens = type(tokens)(**{**tokens.__dict__, "tokens": tuple(
        t if t.id != "coin1" else type(t)(**{**t.__dict__, "count": 24}) for t in tokens.tokens)})
    w, h = PAPERS["letter"]
    p = plan(tokens.tokens, w, h, tokens.gap, tokens.fold_gutter)
    assert [len(s) for s in p.sheets] == [31, 14]
    placed, edge = fold_block(p, tokens.gap, tokens.fold_gutter)
    assert sorted((pl.token, pl.copy) for pl in placed) == sorted((pl.token, pl.copy) for pl in p.sheets[-1])
    # two shelves of 18 mm coins: the lower one's bottom 4 mm (the fold gutter) above the fold at 139.7 mm
    assert sorted({round(pl.front.y, 2) for pl in placed}) == [143.7, 164.2]
    for pl in placed:
        assert round(pl.back.x, 2) == round(pl.front.x, 2)
        assert round((pl.front.cy + pl.back.cy) / 2, 2) == 139.7
    assert round(edge.top - 139.7, 2) == round(139.7 - edge.y, 2) == round(164.2 + 18 + BLOCK_MARGIN - 139.7, 2)
    assert edge.rounded() == (3.7, 94.2, 208.5, 91.0)
    page = fold_block_page(p, {t.id: ((), ()) for t in tokens.tokens}, tokens.gap, tokens.fold_gutter)
    (fold,) = page.find("fold")
    assert (fold.x1, fold.x2, fold.y1, fold.y2) == (edge.x, edge.right, 139.7, 139.7)   # across the block only
    (box,) = page.find("block-edge")
    assert box.rect == edge
