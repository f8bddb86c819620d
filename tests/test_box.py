"""The box: sizes from the deck and box.yaml, nets whose panels, folds and tabs agree with those sizes,
splitting along folds with matching lettered tabs, margins, page counts, and box.yaml checks."""

import re
import subprocess
import sys
from collections import Counter
from dataclasses import replace

import pytest

from pnp.components import BuildOptions
from pnp.components import box as box_component
from pnp.draw.text import fit
from pnp.errors import Problems
from pnp.loading.gamedata import load_game
from pnp.layout.box import (STYLES, BoxContent, BoxSpec, NetTooLarge, box_layout, edge_length, shared_side, split,
                            tab_geometry)
from pnp.layout.geometry import Box, Circle, Icon, Line, Rect, Text, flatten
from pnp.units import PAPERS

# Shadow Throne: 59 cards of 63 x 88 mm (54 characters and 5 quick-reference cards), 0.3 mm each;
# tokens 10 mm; clearance 2 mm; card stock 0.3 mm; lid clearance 1 mm; sleeves thin 0.08 / thick 0.18 mm
# a card, 3 mm oversize. Worked out by hand:
BARE_INNER = (65.0, 90.0, 29.7)           # 63+2, 88+2, 59*0.3 + 10 + 2
BARE_BASE_OUTER = (65.6, 90.6, 30.0)      # + 2 x 0.3 across, + 0.3 (the bottom) in depth
BARE_LID_INNER = (66.6, 91.6, 30.0)       # base outside + 1 mm; full depth
BARE_LID_OUTER = (67.2, 92.2, 30.3)
THIN_INNER = (68.0, 93.0, 34.42)          # 66+2, 91+2, 59*0.38 + 12
THICK_INNER = (68.0, 93.0, 40.32)         # 59*0.48 + 12
THICK_LID_INNER = (69.6, 94.6, 40.62)

PAPER_NAMES = ("letter", "a4")
SLEEVES = (None, "thin", "thick")
MARGIN = 6.0
TOL = 0.01


@pytest.fixture(scope="module")
def game():
    return load_game("shadow_throne")


def layout(game, paper="letter", sleeved=None):
    return box_component.layout(game, BuildOptions(paper=paper, sleeved=sleeved))


def panels(page) -> dict:
    return {e.role.split(":", 1)[1]: e.rect for e in flatten(page.elements) if e.role.startswith("panel:")}


def all_panels(result) -> dict:
    out = {}
    for page in result.pages:
        out.update(panels(page))
    return out


def close(a, b, tol=TOL):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


# ---------------------------------------------------------------------------------------------- sizes

def test_unsleeved_dimensions(game):
    d = layout(game).dimensions
    assert d.inner.rounded() == BARE_INNER
    assert d.base_outer.rounded() == BARE_BASE_OUTER
    assert d.lid_inner.rounded() == BARE_LID_INNER
    assert d.lid_outer.rounded() == BARE_LID_OUTER
    assert round(d.deck, 2) == 17.7


@pytest.mark.parametrize("sleeved", SLEEVES)
def test_the_box_holds_every_printed_card_with_the_full_headroom(game, sleeved):
    """Count the cards the card sheets print (the deck and the quick-reference cards): the box's inside
    depth is their stack, the token bags and the 2 mm clearance, not a stack of the deck alone."""
    from pnp.components import cards as cards_component
    fronts = next(o for o in cards_component.build(game, BuildOptions()) if o.filename == "cards-fronts.pdf")
    printed = sum(len(page.groups("card:")) for page in fronts.pages)
    assert printed == 59
    per_card = 0.3 + {None: 0.0, "thin": 0.08, "thick": 0.18}[sleeved]
    inner = layout(game, sleeved=sleeved).dimensions.inner
    assert round(inner.d - printed * per_card - 10.0, 6) == 2.0


def test_sleeved_dimensions(game):
    assert layout(game, sleeved="thin").dimensions.inner.rounded() == THIN_INNER
    thick = layout(game, sleeved="thick").dimensions
    assert thick.inner.rounded() == THICK_INNER
    assert thick.lid_inner.rounded() == THICK_LID_INNER


@pytest.mark.parametrize("sleeved", SLEEVES)
def test_lid_inside_is_base_outside_plus_clearance(game, sleeved):
    d = layout(game, sleeved=sleeved).dimensions
    assert round(d.lid_inner.w - d.base_outer.w, 6) == 1.0
    assert round(d.lid_inner.l - d.base_outer.l, 6) == 1.0
    assert round(d.lid_inner.d, 6) == round(d.base_outer.d, 6)        # full-depth lid
    assert d.lid_outer.w > d.lid_inner.w > d.base_outer.w > d.inner.w


def test_sleeved_boxes_are_deeper_and_wider(game):
    bare, thin, thick = (layout(game, sleeved=s).dimensions for s in SLEEVES)
    assert bare.inner.d < thin.inner.d < thick.inner.d
    assert bare.base_outer.d < thin.base_outer.d < thick.base_outer.d
    assert thin.inner.w > bare.inner.w and thin.inner.l > bare.inner.l
    # and the walls printed on the sheet are taller to match
    assert (all_panels(layout(game))["base-front"].h < all_panels(layout(game, sleeved="thin"))["base-front"].h
            < all_panels(layout(game, sleeved="thick"))["base-front"].h)


def test_unknown_sleeve_kind_is_a_validation_error(game):
    problems = Problems()
    box_component.check(game, problems, BuildOptions(sleeved="paper-thin"))
    assert any("no sleeve kind 'paper-thin'" in p.message and p.path.endswith("box.yaml") for p in problems.errors)


# ---------------------------------------------------------------------------------------------- panels

@pytest.mark.parametrize("paper", PAPER_NAMES)
@pytest.mark.parametrize("sleeved", SLEEVES)
def test_every_panel_matches_the_dimensions(game, paper, sleeved):
    result = layout(game, paper, sleeved)
    d, t = result.dimensions, 0.3
    p = all_panels(result)
    assert set(p) == {f"{part}-{side}" for part, sides in (("lid", ("top", "front", "back", "left", "right")),
                                                          ("base", ("bottom", "front", "back", "left", "right")))
                      for side in sides}
    for part, inner in (("base", d.inner), ("lid", d.lid_inner)):
        main = p["base-bottom" if part == "base" else "lid-top"]
        wall = inner.d + t / 2                       # fold (mid-material) to rim
        assert close((main.w, main.h), (inner.l + t, inner.w + t)), part
        for side in ("front", "back"):
            assert close((p[f"{part}-{side}"].w, p[f"{part}-{side}"].h), (inner.l + t, wall)), (part, side)
        for side in ("left", "right"):
            r = p[f"{part}-{side}"]
            assert close(sorted((r.w, r.h)), sorted((inner.w + t, wall))), (part, side)
    # folded up, the panels give the outside sizes
    assert close((p["base-bottom"].w + t, p["base-bottom"].h + t), (d.base_outer.l, d.base_outer.w))
    assert close((p["lid-top"].w + t, p["lid-top"].h + t), (d.lid_outer.l, d.lid_outer.w))


def test_unsleeved_panel_sizes_in_numbers(game):
    p = all_panels(layout(game))
    assert p["base-bottom"].rounded()[2:] == (90.3, 65.3)
    assert p["base-front"].rounded()[2:] == (90.3, 29.85)
    assert p["base-left"].rounded()[2:] == (29.85, 65.3)
    assert p["lid-top"].rounded()[2:] == (91.9, 66.9)
    assert p["lid-front"].rounded()[2:] == (91.9, 30.15)
    assert p["lid-left"].rounded()[2:] == (66.9, 30.15)


# ---------------------------------------------------------------------------------------------- lines

def _segment_on_side(line: Line, rect: Rect, side: str) -> bool:
    """The line lies exactly along the whole of side ``side`` of rect."""
    xs, ys = sorted((line.x1, line.x2)), sorted((line.y1, line.y2))
    if side in ("n", "s"):
        y = rect.top if side == "n" else rect.y
        return close((ys[0], ys[1], xs[0], xs[1]), (y, y, rect.x, rect.right))
    x = rect.right if side == "e" else rect.x
    return close((xs[0], xs[1], ys[0], ys[1]), (x, x, rect.y, rect.top))


@pytest.mark.parametrize("paper", PAPER_NAMES)
@pytest.mark.parametrize("sleeved", SLEEVES)
def test_fold_lines_lie_exactly_between_adjacent_panels(game, paper, sleeved):
    result = layout(game, paper, sleeved)
    between_panels = between_panel_and_tab = 0
    for page in result.pages:
        rects = list(panels(page).values())
        tabs = [e.rect for e in page.find("glue-tab")]
        for fold in page.find("fold"):
            assert fold.dash, "fold lines are dashed"
            candidates = [(a, b) for i, a in enumerate(rects) for b in rects[i + 1:] + tabs]
            pairs = [(a, b) for a, b in candidates if shared_side(a, b)
                     and _segment_on_side(fold, a, shared_side(a, b))
                     and _segment_on_side(fold, b, shared_side(b, a))]
            assert len(pairs) == 1, f"fold {fold} is not the shared edge of exactly one panel pair"
            if pairs[0][1] in tabs:
                between_panel_and_tab += 1
            else:
                between_panels += 1
    # lid: top|front, left|front (piece 1), right|back (piece 2); base: bottom to each of its 4 walls
    assert between_panels == 7
    # lid: 3 top tabs + 2 corner tabs (split joint and ring closure); base: 4 corner tabs
    assert between_panel_and_tab == 9
    for page in result.pages:
        assert all(c.dash is None for c in page.find("cut")), "cut lines are solid"


@pytest.mark.parametrize("sleeved", SLEEVES)
def test_panel_edges_are_folds_or_cuts_never_both_or_neither(game, sleeved):
    for page in layout(game, sleeved=sleeved).pages:
        lines = page.find("fold") + page.find("cut")
        for name, r in panels(page).items():
            for side in ("n", "e", "s", "w"):
                on = [ln for ln in lines if _segment_on_side(ln, r, side)]
                assert len(on) == 1, (name, side, on)


# ---------------------------------------------------------------------------------------------- split

def _tab_info(page, text: Text):
    """(letter, length of the edge the tab is attached along) for a tab's letter."""
    tab = next(b.rect for b in page.find("glue-tab") if b.rect.contains(text.rect))
    for r in panels(page).values():
        side = shared_side(tab, r)
        if side:
            return text.markup, edge_length(tab, side)
    raise AssertionError("a tab attached to no panel")


@pytest.mark.parametrize("paper", PAPER_NAMES)
@pytest.mark.parametrize("sleeved", SLEEVES)
def test_split_joints_have_matching_letters_and_lengths(game, paper, sleeved):
    result = layout(game, paper, sleeved)
    tabs = sorted(_tab_info(page, t) for page in result.pages for t in page.find("glue-letter"))
    assert [letter for letter, _ in tabs] == ["A", "B", "C", "D"]
    # and in the model: every lettered tab joins a face in another piece, along an edge of its own length
    for pl in result.placements:
        for t in pl.piece.tabs:
            joined = next(p.piece for p in result.placements if p.piece.has(t.joins))
            assert bool(t.letter) == (joined is not pl.piece)
            assert abs(edge_length(pl.piece.face(t.owner).rect, t.side)
                       - edge_length(joined.face(t.joins).rect, t.joins_side)) <= TOL


def test_the_lid_is_split_along_a_fold_between_front_and_right(game):
    result = layout(game)
    lid_pieces = [pl.piece for pl in result.placements if pl.piece.faces[0].part == "lid"]
    assert [p.names for p in lid_pieces] == [("lid-top", "lid-front", "lid-left"), ("lid-right", "lid-back")]
    whole = result.nets[0]
    assert ("lid-front", "lid-right") in whole.folds                  # a fold in the complete net...
    assert ("lid-front", "lid-right") not in lid_pieces[0].folds + lid_pieces[1].folds   # ...cut to split it
    joint = next(t for t in lid_pieces[1].tabs if t.joins == "lid-front")
    assert (joint.owner, joint.side, joint.joins_side) == ("lid-right", "w", "e")


def _big_spec(**kw):
    """Tarot cards, a thick deck: a base net too large for Letter."""
    values = dict(card_w=70, card_l=120, cards=160, card_thickness=0.35, token_bags=20, clearance=2, material=0.3,
                  glue_tab=10, bleed=0)
    values.update(kw)
    return BoxSpec(**values)


def _content():
    return BoxContent("Test", (("crown", "#8c1c24"),), ("3\u20135 players",), "A pitch.", "Contents", ("1 thing",))


def test_a_net_too_large_for_the_sheet_is_split_along_folds_with_matching_tabs():
    w, h = PAPERS["letter"]
    result = box_layout(STYLES["telescoping"](), _big_spec(), _content(), w, h)
    base_pieces = [pl.piece for pl in result.placements if pl.piece.faces[0].part == "base"]
    assert len(base_pieces) > 1, "the base should have been split"
    whole_base = result.nets[1]
    faces = {f.name: f.rect for f in whole_base.faces}
    for piece in base_pieces:
        for t in piece.tabs:
            if not t.letter:
                continue
            # a split joint: the two faces were joined by a fold in the complete net
            if (t.joins, t.owner) in whole_base.folds or (t.owner, t.joins) in whole_base.folds:
                assert shared_side(faces[t.owner], faces[t.joins]) == t.side
                assert edge_length(faces[t.owner], t.side) == pytest.approx(edge_length(faces[t.joins], t.joins_side))
    letters = Counter(t.markup for page in result.pages for t in page.find("glue-letter"))
    notes = " ".join(page.find("note")[0].markup for page in result.pages)
    assert letters and all(n == 1 for n in letters.values())
    assert all(f"{letter}: " in notes for letter in letters)
    _assert_inside_margins(result.pages, w, h)


def test_split_keeps_each_face_once_and_moves_tabs_with_their_face():
    spec = _big_spec()
    net = STYLES["telescoping"]().nets(spec)[1]
    a, b = split(net, ("base-bottom", "base-left"), "base-left", 10)
    assert set(a.names) | set(b.names) == set(net.names) and not set(a.names) & set(b.names)
    assert "base-left" in b.names and all(t.owner in b.names for t in b.tabs)
    new = [t for t in b.tabs if t.joins == "base-bottom"]
    assert len(new) == 1 and (new[0].side, new[0].joins_side) == ("e", "w")
    box_rect, _ = tab_geometry(b.face("base-left").rect, new[0])
    assert box_rect.x == pytest.approx(b.face("base-left").rect.right)


def test_a_box_too_large_for_any_split_is_reported():
    w, h = PAPERS["letter"]
    with pytest.raises(NetTooLarge):
        box_layout(STYLES["telescoping"](), _big_spec(card_w=250, card_l=300), _content(), w, h)


# ---------------------------------------------------------------------------------------------- sheets

def _extent(e):
    if isinstance(e, (Box, Text)):
        return e.rect.x, e.rect.y, e.rect.right, e.rect.top
    if isinstance(e, Line):
        return min(e.x1, e.x2), min(e.y1, e.y2), max(e.x1, e.x2), max(e.y1, e.y2)
    if isinstance(e, Circle):
        return e.cx - e.r, e.cy - e.r, e.cx + e.r, e.cy + e.r
    if isinstance(e, Icon):
        return e.cx - e.size / 2, e.cy - e.size / 2, e.cx + e.size / 2, e.cy + e.size / 2
    raise TypeError(e)


def _assert_inside_margins(pages, w, h):
    for page in pages:
        assert (page.width, page.height) == (w, h)
        for e in flatten(page.elements):
            x0, y0, x1, y1 = _extent(e)
            assert x0 >= MARGIN - 1e-6 and y0 >= MARGIN - 1e-6, (e.role, x0, y0)
            assert x1 <= w - MARGIN + 1e-6 and y1 <= h - MARGIN + 1e-6, (e.role, x1, y1)


@pytest.mark.parametrize("paper", PAPER_NAMES)
@pytest.mark.parametrize("sleeved", SLEEVES)
def test_everything_stays_inside_the_printer_margin(game, paper, sleeved):
    w, h = PAPERS[paper]
    _assert_inside_margins(layout(game, paper, sleeved).pages, w, h)


@pytest.mark.parametrize("paper", PAPER_NAMES)
@pytest.mark.parametrize("sleeved", SLEEVES)
def test_pieces_do_not_overlap(game, paper, sleeved):
    result = layout(game, paper, sleeved)
    for s in range(len(result.pages)):
        bounds = [pl.piece.bounds().moved(pl.dx, pl.dy) for pl in result.placements if pl.sheet == s]
        for i, a in enumerate(bounds):
            for b in bounds[i + 1:]:
                assert not a.overlaps(b)


@pytest.mark.parametrize("paper", PAPER_NAMES)
@pytest.mark.parametrize("sleeved", SLEEVES)
def test_sheets_hold_the_lid_then_the_base_each_with_a_note(game, paper, sleeved):
    result = layout(game, paper, sleeved)
    lid = {"lid-top", "lid-front", "lid-left", "lid-right", "lid-back"}
    base = {"base-bottom", "base-front", "base-back", "base-left", "base-right"}
    notes = [page.find("note") for page in result.pages]
    assert all(len(n) == 1 for n in notes)
    assert "lid: top, front, left side | lid: right side, back" in notes[0][0].markup
    # two sheets, like the source kit (a box for 59 cards is 1.5 mm too deep for one A4 sheet)
    assert len(result.pages) == 2
    assert set(panels(result.pages[0])) == lid and set(panels(result.pages[1])) == base
    assert notes[0][0].markup.startswith("Box, sheet 1 of 2")
    assert "base: bottom, front, back, left side, right side" in notes[1][0].markup


#: Sheets of box.pdf as documented in docs/printing.md: (paper, sleeved) -> pages.
DOCUMENTED_PAGES = {("letter", None): 2, ("letter", "thin"): 2, ("letter", "thick"): 2,
                    ("a4", None): 2, ("a4", "thin"): 2, ("a4", "thick"): 2}


@pytest.mark.parametrize("paper,sleeved", sorted(DOCUMENTED_PAGES, key=str))
def test_component_build_writes_box_pdf_with_the_documented_pages(game, paper, sleeved):
    import io

    import pypdf

    from pnp.draw.pdf import render
    outputs = box_component.build(game, BuildOptions(paper=paper, sleeved=sleeved))
    n = DOCUMENTED_PAGES[(paper, sleeved)]
    assert [(o.filename, len(o.pages)) for o in outputs] == [("box.pdf", n)]
    pdf = pypdf.PdfReader(io.BytesIO(render(outputs[0].pages, "box")))
    assert len(pdf.pages) == n
    w, h = PAPERS[paper]
    assert round(float(pdf.pages[0].mediabox.width) / 72 * 25.4, 1) == round(w, 1)
    assert round(float(pdf.pages[0].mediabox.height) / 72 * 25.4, 1) == round(h, 1)


def test_box_is_last_in_the_kit_where_game_yaml_lists_it_last(game):
    from pnp.components import game_components
    assert game.components[-1] == "box" and game_components(game)[-1].name == "box"


# ---------------------------------------------------------------------------------------------- decoration

def test_lid_and_base_carry_the_game_facts(game):
    result = layout(game)
    lid, base = result.pages
    assert [t.markup for t in lid.find("lid-title")] == ["Shadow Throne"]
    assert [t.markup for t in lid.find("lid-fact")] == ["3\u20135 players \u00b7 30\u201345 minutes \u00b7 Ages 14+"]
    assert len(lid.find("side-title")) == 4
    assert {e.name for e in lid.find("emblem")} == {"crown", "star", "sun"}
    assert {e.colour for e in lid.find("emblem")} == {f.colour for f in game.factions}
    top = panels(lid)["lid-top"]
    assert all(top.contains(Rect(e.cx - e.size / 2, e.cy - e.size / 2, e.size, e.size)) for e in lid.find("emblem"))
    for t in lid.find("side-title"):
        assert any(r.contains(t.rect) for name, r in panels(lid).items() if name != "lid-top")
    contents = base.find("contents")[0].markup.split("\n")
    assert contents == ["54 character cards", "5 quick-reference cards", "132 tokens"]
    # what the box is not sized for travels beside it, and the box says so
    assert base.find("beside")[0].markup.split("\n") == ["1 power track", "1 rulebook"]
    assert [t.markup for t in base.find("beside-heading")] == ["Beside the box"]
    assert panels(base)["base-bottom"].contains(base.find("pitch")[0].rect)


def test_contents_leave_tokens_out_without_tokens_yaml(game_copy):
    (game_copy / "tokens.yaml").unlink()
    text = game_copy / "game.yaml"
    text.write_text(text.read_text().replace("tokens, ", "").replace("rulebook, ", ""))
    g = load_game(game_copy)
    base = layout(g).pages[1]
    assert base.find("contents")[0].markup.split("\n") == ["54 character cards", "5 quick-reference cards"]
    assert base.find("beside")[0].markup.split("\n") == ["1 power track", "1 rulebook"]


def test_every_box_text_fits_and_validation_is_clean(game):
    problems = Problems()
    box_component.check(game, problems, None)          # letter and A4, bare and every sleeve kind
    assert problems == []


def test_a_pitch_too_long_is_reported_at_its_line(game_copy):
    path = game_copy / "box.yaml"
    lines = path.read_text().splitlines()
    n = next(i for i, line in enumerate(lines) if line.startswith("pitch:"))
    lines[n + 1] = "  " + "A very long pitch that goes on and on. " * 40
    path.write_text("\n".join(lines) + "\n")
    problems = Problems()
    box_component.check(load_game(game_copy), problems, None)
    assert any(p.line == n + 1 and "pitch text does not fit" in p.message for p in problems.errors), problems


def test_box_yaml_unknown_keys_and_bad_style_are_reported(game_copy):
    path = game_copy / "box.yaml"
    text = path.read_text().replace("glue_tab: 10", "glue_tabs: 10").replace("kind: telescoping", "kind: crate")
    path.write_text(text)
    problems = Problems()
    box_component.check(load_game(game_copy), problems, None)
    messages = [str(p) for p in problems.errors]
    assert any("glue_tabs: unknown key (did you mean 'glue_tab'?)" in m for m in messages), messages
    assert any("style.kind: 'crate' is not one of: telescoping, tuck" in m for m in messages), messages


def test_box_layout_imports_without_reportlab():
    code = ("import sys; import pnp.layout.box; "
            "bad = [m for m in sys.modules if m.startswith('reportlab')]; print(bad); assert not bad")
    subprocess.run([sys.executable, "-c", code], check=True)



def test_tuck_box_is_one_piece_with_flaps_about_six_tenths_of_the_depth():
    from pnp.layout.box import STYLES, BoxSpec

    spec = BoxSpec(card_w=63, card_l=88, cards=82, card_thickness=0.3, token_bags=0, clearance=1.5,
                   material=0.3, glue_tab=8, bleed=0, style={"flap": 0.6, "notch": 14})
    style = STYLES["tuck"]()
    dims = style.dimensions(spec)
    assert dims.inner.rounded() == (64.5, 89.5, 26.1)       # 82 cards x 0.3 mm + 1.5 mm clearance
    assert dims.base_outer.rounded() == (65.1, 90.1, 26.7) and dims.lid_inner is None
    (net,) = style.nets(spec)
    W, H, D = 64.8, 89.8, 26.4                                # between fold lines
    sizes = {f.name: (round(f.rect.w, 2), round(f.rect.h, 2)) for f in net.faces}
    assert sizes["tuck-front"] == sizes["tuck-back"] == (W, H)
    assert sizes["tuck-left"] == sizes["tuck-right"] == (D, H)
    assert sizes["tuck-lid"] == sizes["tuck-bottom"] == (W, D)
    assert sizes["tuck-flap"] == (W, round(0.6 * D, 2))
    # the four walls form a ring closed by one glue tab; the bottom is glued inside the back
    assert {(t.owner, t.side, t.joins, t.joins_side) for t in net.tabs} == {
        ("tuck-left", "e", "tuck-back", "w"), ("tuck-bottom", "s", "tuck-back", "s")}
    for a, b in net.folds:
        assert net.fold_side(a, b)                            # every fold joins two adjacent faces
    front = next(f for f in net.faces if f.name == "tuck-front")
    assert front.notch == 14 and net.edge_kind("tuck-front", "n") == "cut"


# ----------------------------------------------------------------------------- small games (found by the
# generated games, issue 32): pnp's own lettering on a box for a few cards


def _starter_box(tmp_path, box_yaml: str, author: bool = True):
    """``pnp new``'s game (9 cards, tokens) with ``box_yaml`` as its box.yaml."""
    from click.testing import CliRunner

    from pnp.commands.cli import main

    root = tmp_path / "g"
    assert CliRunner().invoke(main, ["new", str(root)]).exit_code == 0
    (root / "box.yaml").write_text(box_yaml)
    if author:
        text = (root / "game.yaml").read_text()
        (root / "game.yaml").write_text(text.replace('title: "G"', 'title: "G"\nauthor: Ana Lopez\nartist: Ben'))
    return root


def _credits_on(result, face_name: str):
    """Whether the box's credits print inside the face ``face_name`` of its nets."""
    (credits,) = [e for page in result.pages for e in flatten(page.elements)
                  if isinstance(e, Text) and e.role == "credits"]
    (placed,) = [p for p in result.placements if p.piece.has(face_name)]
    face = placed.piece.face(face_name).rect.moved(placed.dx, placed.dy)
    r = credits.rect
    return face.x <= r.x and r.right <= face.right and face.y <= r.y and r.top <= face.top


def test_a_telescoping_box_for_a_few_cards_is_deep_enough_for_its_lettering(tmp_path):
    """The starter's 9 cards in a telescoping box were 5 mm deep: the side titles got boxes -2.9 mm tall, the
    credits -0.4 mm, the join letters 1.7 mm, and validation failed with messages naming no line. The trays
    are now at least 15 mm deep inside; the credits the lid's shallow back wall cannot hold under the title
    print alone on it."""
    from pnp.layout.box import MIN_TRAY_DEPTH

    root = _starter_box(tmp_path, "style: {kind: telescoping}\ncard_thickness: 0.3\nclearance: 2\n")
    game = load_game(root)
    problems = Problems()
    box_component.check(game, problems, None)
    assert [str(p) for p in problems] == []
    result = box_component.layout(game, BuildOptions())
    assert result.dimensions.inner.d == pytest.approx(MIN_TRAY_DEPTH, abs=TOL)
    texts = [e for page in result.pages for e in flatten(page.elements) if isinstance(e, Text)]
    assert all(e.rect.h > 0 for e in texts)
    assert _credits_on(result, "lid-back")
    assert [e.markup for e in texts if e.role == "credits"] == ["Design: Ana Lopez\nArt: Ben"]
    # four lines of credits: too many for that wall, they print on the base's bottom
    text = (root / "game.yaml").read_text().replace("artist: Ben", "artist: Ben\npublisher: Cy\n"
                                                    "credits: [{role: Story, name: Di}]")
    (root / "game.yaml").write_text(text)
    game = load_game(root)
    problems = Problems()
    box_component.check(game, problems, None)
    assert [str(p) for p in problems] == []
    assert _credits_on(box_component.layout(game, BuildOptions()), "base-bottom")


def test_a_lid_too_shallow_for_its_lettering_is_an_error_at_its_line(tmp_path):
    root = _starter_box(tmp_path, "style: {kind: telescoping,\n        lid_depth: 8}\ncard_thickness: 0.3\n")
    problems = Problems()
    box_component.check(load_game(root), problems, None)
    assert [(p.line, p.message) for p in problems] == [
        (2, "style.lid_depth: 8 mm leaves the lid's walls no room for the title and the glue tabs' letters; give "
            "at least 15 mm, or 'full'")]


def test_a_text_on_the_box_that_does_not_fit_names_the_line_that_writes_it(tmp_path):
    """A title too long for the lid is reported at game.yaml's title (it named box.yaml, with no line)."""
    root = _starter_box(tmp_path, "style: {kind: tuck}\ncard_thickness: 0.3\n", author=False)
    text = (root / "game.yaml").read_text().replace('title: "G"', 'title: "' + "Grand " * 12 + 'Game"')
    (root / "game.yaml").write_text(text)
    problems = Problems()
    box_component.check(load_game(root), problems, None)
    line = next(i for i, x in enumerate(text.splitlines(), 1) if x.startswith("title:"))
    assert problems.errors and all(p.path.endswith("game.yaml") and p.line == line for p in problems.errors), \
        [str(p) for p in problems]


def test_the_sheet_note_of_a_lid_split_in_five_holds_its_spanish_words(game_copy):
    """Shadow Throne on tarot cards: its lid splits into five pieces on A4, and the sheet's note names eight
    lettered edges: 584 characters in Spanish, which two lines could not hold even at 5 pt."""
    from pnp.loading.i18n import translate

    text = (game_copy / "game.yaml").read_text().replace("  width: 63\n", "  width: 70\n")
    (game_copy / "game.yaml").write_text(text.replace("  height: 88\n", "  height: 120\n"))
    game = translate(load_game(game_copy), "es")
    problems = Problems()
    box_component.check(game, problems, BuildOptions(lang="es", paper="a4"))
    assert problems == []
    notes = [e for page in box_component.layout(game, BuildOptions(lang="es", paper="a4")).pages
             for e in flatten(page.elements) if isinstance(e, Text) and e.role == "note"]
    assert max(len(n.markup) for n in notes) > 550


def test_the_lid_facts_take_a_second_line_when_one_cannot_hold_them(tmp_path):
    """Found by the generated games (issue 32): players, time and ages on the lid of a box for mini cards, in
    Spanish ('10–12 jugadores · 120–180 minutos · Edad 10+', now '+10 años'), did not fit one line even at 5 pt: an error
    the designer could do nothing about. They take a second line when one cannot hold them."""
    import shutil
    from pathlib import Path

    from pnp.loading.i18n import translate

    root = tmp_path / "tw"
    shutil.copytree(Path(__file__).parent / "games" / "tidewardens", root)
    text = (root / "game.yaml").read_text().replace("size: poker", "size: mini-euro").replace(
        "players: {min: 1, max: 4}", "players: {min: 10, max: 12}").replace(
        "minutes: {min: 25, max: 40}", "minutes: {min: 120, max: 180}")
    (root / "game.yaml").write_text(text.replace("  - rulebook\n", "  - rulebook\n  - box\n"))
    (root / "box.yaml").write_text("style: {kind: telescoping}\ncard_thickness: 0.3\ntitle_lines: 2\n")
    game = translate(load_game(root), "es")
    problems = Problems()
    box_component.check(game, problems, BuildOptions(lang="es", paper="letter"))
    assert [str(p) for p in problems] == []
    (facts,) = [e for page in box_component.layout(game, BuildOptions(lang="es")).pages
                for e in flatten(page.elements) if isinstance(e, Text) and e.role == "lid-fact"]
    assert facts.markup == "10–12 jugadores · 120–180 minutos · +10 años" and facts.style.max_lines == 2


def test_the_title_on_a_narrow_wall_takes_a_second_line_when_one_cannot_hold_it(tmp_path):
    """Found by the generated games (issue 32): 'Orchard Silver' in capitals on the 32 mm walls of a box for
    mini cards did not fit one line even at 8 pt, an error about pnp's own lettering in a game that sets no
    ``title_lines``. The walls' title takes a second line when one cannot hold it; the lid's top keeps one."""
    import shutil
    from pathlib import Path

    root = tmp_path / "tw"
    shutil.copytree(Path(__file__).parent / "games" / "tidewardens", root)
    text = (root / "game.yaml").read_text().replace("size: poker", "size: mini-euro")
    text = re.sub(r"(?m)^title: .*$", "title: Orchard Silver", text)
    (root / "game.yaml").write_text(text.replace("  - rulebook\n", "  - rulebook\n  - box\n"))
    (root / "box.yaml").write_text("style: {kind: telescoping}\ncard_thickness: 0.3\n")
    game = load_game(root)
    problems = Problems()
    box_component.check(game, problems, BuildOptions(paper="letter"))
    assert [str(p) for p in problems] == []
    sides = [e for page in box_component.layout(game, BuildOptions()).pages
             for e in flatten(page.elements) if isinstance(e, Text) and e.role == "side-title"]
    narrow = [e for e in sides if not fit(e.markup, replace(e.style, max_lines=1), e.rect.w, e.rect.h).ok]
    assert narrow and all(e.style.max_lines == 2 and fit(e.markup, e.style, e.rect.w, e.rect.h).ok for e in narrow)
    assert all(e.style.max_lines == 1 for e in sides if e not in narrow)


@pytest.mark.parametrize("given", [None, 1])
def test_a_title_one_line_cannot_hold_on_the_lid_wraps_unless_the_designer_says_one_line(tmp_path, given):
    """Found by the generated games (issue 32): 'Orchard Silverwood' on the lid of a box for mini cards needs
    two lines at 11 pt; a game that sets no ``title_lines`` failed validation on it. The title now takes the
    lines it needs (up to 3); ``title_lines: 1`` written in box.yaml is kept, and the error names its line."""
    import shutil
    from pathlib import Path

    root = tmp_path / "tw"
    shutil.copytree(Path(__file__).parent / "games" / "tidewardens", root)
    text = (root / "game.yaml").read_text().replace("size: poker", "size: mini-euro")
    text = re.sub(r"(?m)^title: .*$", "title: Orchard Silverwood", text)
    (root / "game.yaml").write_text(text.replace("  - rulebook\n", "  - rulebook\n  - box\n"))
    (root / "box.yaml").write_text("style: {kind: telescoping}\ncard_thickness: 0.3\n"
                                   + (f"title_lines: {given}\n" if given else ""))
    game = load_game(root)
    problems = Problems()
    box_component.check(game, problems, BuildOptions(paper="letter"))
    (lid,) = [e for page in box_component.layout(game, BuildOptions()).pages
              for e in flatten(page.elements) if isinstance(e, Text) and e.role == "lid-title"]
    if given:
        assert [p.message for p in problems.errors if "lid-title" in p.message] and lid.style.max_lines == 1
    else:
        assert [str(p) for p in problems] == []
        assert lid.style.max_lines == 2 and fit(lid.markup, lid.style, lid.rect.w, lid.rect.h).ok


def test_a_box_without_a_pitch_prints_no_empty_pitch_on_its_bottom():
    """Found by the generated games (issue 32): a box.yaml with no pitch still laid out an empty pitch text,
    which on a small base's bottom crowded by its contents lists was -1.6 mm tall and failed validation
    ("pitch text does not fit ... ''"). No pitch, no pitch text; a given pitch keeps its place."""
    from dataclasses import replace as changed

    from pnp.layout.box import _base_bottom

    crowded = changed(_content(), pitch="", contents=tuple(f"{n} things" for n in range(1, 12)))
    small = Rect(0, 0, 60, 40)
    assert [e for e in _base_bottom(small, crowded) if getattr(e, "role", "") == "pitch"] == []
    (pitch,) = [e for e in _base_bottom(Rect(0, 0, 90, 120), _content()) if getattr(e, "role", "") == "pitch"]
    assert pitch.markup == "A pitch." and pitch.rect.h > 10
