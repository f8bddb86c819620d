"""The inside-the-cut-line check of `pnp validate` (pnp.validation.piececheck): the outlines' geometry, the ink the
check measures against what is really printed, the messages for a game that breaks it, and the bundled
games keeping to it."""

import math
import re

import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.components import BuildOptions, KINDS, component
from pnp.draw.icons import using
from pnp.errors import Problems
from pnp.loading.gamedata import load_game
from pnp.layout.geometry import Box, Group, Icon, Line, Page, Rect, Style, Text
from pnp.layout.outline import (CircleOutline, CutPiece, PolygonOutline, RectOutline, clearances,
                                frames_near_trim)
from pnp.layout.tokens import hexagon_points
from pnp.validation.piececheck import check_pieces

GAMES = ("shadow_throne", "shadow_queen", "shadow_kingdoms_of_valeria", "behind_the_throne")


def test_rectangle_clearance_inside_outside_and_at_a_rounded_corner():
    square = RectOutline(Rect(0, 0, 20, 10))
    assert square.clearance(5, 5) == pytest.approx(5.0)
    assert square.clearance(19, 5) == pytest.approx(1.0)
    assert square.clearance(21, 5) == pytest.approx(-1.0)
    assert square.clearance(23, 14) == pytest.approx(-5.0)              # 3-4-5 from the corner
    rounded = RectOutline(Rect(0, 0, 20, 10), radius=4)
    # on the corner's diagonal: 4 * sqrt(2) - 4 = 1.66 mm outside the arc at the sharp corner
    assert rounded.clearance(0, 0) == pytest.approx(-(4 * math.sqrt(2) - 4), abs=1e-9)
    assert rounded.clearance(4 - 3 / math.sqrt(2), 4 - 3 / math.sqrt(2)) == pytest.approx(1.0, abs=1e-9)
    assert rounded.clearance(10, 1) == pytest.approx(1.0)


def test_circle_and_hexagon_clearance():
    circle = CircleOutline(10, 10, 9.5)
    assert circle.clearance(10, 1.5) == pytest.approx(1.0)
    assert circle.clearance(10 + 9.5 * math.cos(1), 10 + 9.5 * math.sin(1)) == pytest.approx(0.0, abs=1e-9)
    hexagon = PolygonOutline(hexagon_points(0, 0, 20))           # 20 mm across the flats
    assert hexagon.clearance(0, 0) == pytest.approx(10.0)
    assert hexagon.clearance(9, 0) == pytest.approx(1.0)
    assert hexagon.clearance(11, 0) == pytest.approx(-1.0)
    assert hexagon.clearance(0, 20 / math.sqrt(3) - 1) == pytest.approx(math.sin(math.radians(60)) * 1.0)


def test_groups_transforms_and_clips_are_followed():
    """An element in a group is measured where the group puts it; a clip keeps only what shows."""
    from pnp.draw.ink import ink
    from pnp.layout.geometry import Transform

    left = Style(font="sans", size=8, align="left")
    piece = CutPiece("test", "piece", RectOutline(Rect(0, 0, 30, 30)),
                     (Group((Text(Rect(-2, 0, 20, 5), "Words", left),), dx=3, dy=15),
                      Group((Text(Rect(0, 0, 20, 5), "Words", left),), dx=-5, dy=15, clip=Rect(6, -10, 40, 40)),
                      Transform((Text(Rect(0, 0, 20, 5), "Words", left),), (1, 0, 0, 1, 1.5, 20))))
    with using(None):
        found = clearances(piece, ink)
    assert [round(f.distance, 2) for f in found] == [1.0, 1.0, 1.5]     # the left edge of each text's ink


def _raster_clearance(piece, element, pad=3.0, px_per_mm=30):
    """How far the element's dark pixels keep inside the piece's outline, drawn black on white."""
    from dataclasses import replace

    import pypdfium2 as pdfium

    from pnp.draw.pdf import render

    dark = replace(element, style=replace(element.style, colour="#000000")) if isinstance(element, Text) \
        else replace(element, colour="#000000")
    o = piece.outline
    w = (o.rect.right if isinstance(o, RectOutline) else o.cx + o.r) + 2 * pad
    h = (o.rect.top if isinstance(o, RectOutline) else o.cy + o.r) + 2 * pad
    doc = pdfium.PdfDocument(render([Page(w, h, [Group((dark,), pad, pad)])], "ink"))
    image = doc[0].render(scale=px_per_mm * 25.4 / 72).to_pil().convert("L")
    data, width = image.tobytes(), image.width
    worst = math.inf
    for y in range(image.height):
        row = data[y * width:(y + 1) * width]
        for x in range(width):
            if row[x] < 160:
                worst = min(worst, o.clearance((x + 0.5) / px_per_mm - pad, (image.height - y - 0.5) / px_per_mm - pad))
    return worst


@pytest.mark.parametrize("game_id, token", [("shadow_queen", "token 'possession' front"),
                                            ("shadow_queen", "token 'messenger' front"),
                                            ("shadow_kingdoms_of_valeria", "token 'influence-red' front")])
def test_the_measured_ink_is_what_prints_and_errs_on_the_safe_side(game_id, token):
    """The check's ink (text lines as set, icons' drawn hulls) against the printed pixels: never further
    inside than what prints, and at most 0.35 mm nearer the edge."""
    from pnp.components.tokens import cut_pieces
    from pnp.draw.ink import ink

    game = load_game(game_id)
    with using(game.icons):
        (piece,) = [p for p in cut_pieces(game) if p.name == token]
        for found in clearances(piece, ink):
            printed = _raster_clearance(piece, found.element)
            assert found.distance <= printed + 0.05, (found.element.role, found.distance, printed)
            assert printed - found.distance <= 0.35, (found.element.role, found.distance, printed)


def _problems(game):
    problems = Problems()
    check_pieces(game, problems, BuildOptions())
    return problems


@pytest.mark.parametrize("game_id", GAMES)
def test_the_bundled_games_keep_everything_1_mm_inside_every_cut_line(game_id):
    problems = _problems(load_game(game_id))
    assert [str(p) for p in problems.errors + problems.warnings] == []


def test_the_spanish_shadow_throne_keeps_inside_too():
    from pnp.loading.i18n import translate

    game = translate(load_game("shadow_throne"), "es")
    problems = Problems()
    check_pieces(game, problems, BuildOptions(lang="es"))
    assert [str(p) for p in problems.errors + problems.warnings] == []


def test_every_component_kind_that_makes_pieces_lists_them():
    """Kinds printed to be cut out list their pieces (a pad's sheets are trimmed to the pad's size); those
    printed as pages (read or laid on the table as the sheet they are printed on) do not."""
    with_pieces = {kind for kind in KINDS if component(kind).pieces is not None}
    assert with_pieces == {"cards", "tokens", "standee", "dice", "board", "hexmap", "box", "pad"}
    assert set(KINDS) - with_pieces == {"instructions", "rulebook", "sheet", "track"}


def test_the_check_reaches_every_kind_of_piece_of_a_stranger_s_game():
    """Starfall (tests/games): decks with varying backs and aids, hexagon, rounded and SVG-outline tokens,
    a box: each gives pieces, and all keep inside their cut lines."""
    from pnp.components import game_components

    game = load_game("tests/games/starfall")
    with using(game.icons):
        names = [p.name for c in game_components(game) if c.pieces for p in c.pieces(game, BuildOptions())]
    assert "token 'comet-token' front" in names and "card back (stars) bright" in names
    assert "player aid (stars)" in names and "tuck front" in names
    assert not _problems(game).errors and not _problems(game).warnings


def _validate(folder):
    return CliRunner().invoke(main, ["validate", str(folder)])


def test_an_icon_past_the_cut_circle_is_an_error_naming_component_piece_and_region(game_copy):
    path = game_copy / "tokens.yaml"
    text = path.read_text()
    old = '    front: {background: "#ece4f4", icon: influence, label: "1"}'
    assert old in text
    path.write_text(text.replace(old, '    front: {background: "#ece4f4", icon: influence, label: "1", icon_size: 1.4}'))
    line = next(i for i, l in enumerate(path.read_text().splitlines(), 1) if "id: influence-1" in l)
    result = _validate(game_copy)
    assert result.exit_code == 2
    (message,) = [m for m in result.output.splitlines() if "token 'influence-1'" in m]
    assert re.fullmatch(rf".*tokens\.yaml:{line}: tokens: token 'influence-1' front: token-icon 'influence' "
                        r"reaches \d\.\d mm past the cut circle; keep text, icons and figures 1 mm inside it",
                        message), message


def test_ink_inside_but_nearer_than_1_mm_is_a_warning():
    from pnp.validation.piececheck import check_piece

    left = Style(font="sans", size=8, align="left")
    piece = CutPiece("tokens", "token 'x' front", RectOutline(Rect(0, 0, 20, 20)),
                     (Text(Rect(0.55, 8, 15, 4), "Near", left, role="token-caption"),
                      Text(Rect(4, 8, 12, 4), "Far", left, role="token-caption")), ("tokens.yaml", 7))
    problems = Problems()
    check_piece(piece, problems)
    assert not problems.errors
    assert [str(p) for p in problems.warnings] == [
        "tokens.yaml:7: warning: tokens: token 'x' front: token-caption 'Near' comes within 0.5 mm of the cut line; "
        "keep text, icons and figures 1 mm inside it"]


def test_a_frame_near_the_trim_is_a_warning_and_the_designed_back_keeps_6_mm():
    from pnp.layout.cards import FRAME_INSET, card_back

    outline = RectOutline(Rect(0, 0, 63, 88))
    near = CutPiece("cards", "card back", outline, (Box(Rect(3, 3, 57, 82), stroke="#c9a54a", role="frame"),
                                                     Line(2, 50, 2, 80, role="rule")), trimmed=True)
    found = frames_near_trim(near)
    assert [(e.role, round(d, 2)) for e, d in found] == [("frame", 3.0)]          # the rule is too short
    far = CutPiece("cards", "card back", outline, (Box(Rect(6, 6, 51, 76), stroke="#c9a54a"),
                                                    Box(Rect(-3, -3, 69, 94), fill="#2a2130")), trimmed=True)
    assert frames_near_trim(far) == []
    assert frames_near_trim(CutPiece("box", "lid top", outline, near.elements)) == []       # not trimmed
    problems = Problems()
    from pnp.validation.piececheck import check_piece
    check_piece(near, problems)
    assert [str(p) for p in problems.warnings] == [
        "warning: cards: card back: frame runs 3.0 mm inside the trim, where cutting drift (about 1.5 mm either "
        "way) makes it visibly uneven: run it into the bleed or keep it at least 6 mm inside"]
    for size in ((63, 88), (63.5, 88.9), (44, 63)):
        frames = [e for e in card_back("Shadow Throne", ("crown",), *size) if e.role == "back-border"]
        insets = sorted(round(min(b.rect.x, b.rect.y, size[0] - b.rect.right, size[1] - b.rect.top), 2)
                        for b in frames)
        assert insets == [FRAME_INSET, FRAME_INSET + 1.4] == [6.0, 7.4]


def test_the_check_is_quick():
    """Every piece of the largest bundled kit, ink measured, in well under a second (icons drawn once)."""
    import time

    game = load_game("shadow_kingdoms_of_valeria")
    _problems(game)                                   # faces laid out, icons measured
    start = time.perf_counter()
    _problems(game)
    assert time.perf_counter() - start < 1.0


@pytest.mark.parametrize("count", [1, 5, 11, 13, 19])
def test_an_icon_measures_the_same_whatever_icons_are_measured_with_it(count):
    """Found by the generated games (issue 32): the icons are measured on one page in a grid of cells, and
    the last row of cells could end a pixel past the rendered image, which PIL's crop fills with black: every
    icon of that row measured as large as its whole cell, so a token's small icon 'reached 3.2 mm past the
    cut outline' in a game with eleven icons and not in one with five."""
    from pnp.draw.ink import _measure
    from pnp.text.icon_names import ICON_NAMES

    names = sorted(ICON_NAMES)[:count]
    together = _measure(names)
    for name in names:
        (alone,) = _measure([name]).values()
        reach = [max(abs(x) for x, _ in hull) for hull in (together[name], alone)]
        height = [max(abs(y) for _, y in hull) for hull in (together[name], alone)]
        assert reach[0] == pytest.approx(reach[1], abs=0.05) and height[0] == pytest.approx(height[1], abs=0.05), name
        assert max(reach + height) < 0.65, name         # an icon drawn 1 unit tall reaches about half of it
