"""Print-and-cut on a cutting machine (``pnp build --cutter silhouette``): the registration marks where the
machine's software puts them, every card (with its bleed) inside the area it cuts, and cut files (SVG and
DXF, read back) whose outlines are exactly the printed cards' trims (0.01 mm), for every bundled deck on
Letter and A4."""

import io
import re

import ezdxf
import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.components import BuildOptions
from pnp.components.cards import build as build_cards
from pnp.draw.cutfile import QUARTER_BULGE, dxf, svg
from pnp.loading.gamedata import load_game
from pnp.layout.cutter import (CUT_BLEED, MACHINES, CutOutline, cut_area, cut_sheets, cutter_grid,
                               registration_marks)
from pnp.layout.geometry import Group, Rect, Transform, apply, compose
from pnp.units import PAPERS

SILHOUETTE = MACHINES["silhouette"]
GAMES = ["shadow_throne", "behind_the_throne", "shadow_kingdoms_of_valeria", "shadow_queen"]


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_marks_lie_where_silhouette_studio_puts_type_1_marks(paper):
    """The marks of inkscape-silhouette's A4 template (templates/silhouette-cameo-registration-marks-a4.svg:
    lines 0.5 mm wide, 1.88976 px at 96 px/in, each line's centre 10 mm from the sheet's edges, legs 20 mm
    from the corner's centre, the 5 mm square drawn with the same line round it) and of the command its
    driver sends the machine (silhouette/Graphtec.py: TB51,400 and TB53,10, 20 mm legs and 0.5 mm lines in
    the machine's 1/20 mm units)."""
    w, h = PAPERS[paper]
    square, tr_h, tr_v, bl_h, bl_v = (b.rect.rounded() for b in registration_marks(SILHOUETTE, w, h))
    # the square: 5 mm between the centres of its 0.5 mm outline, those centres 10 mm from the left and top
    assert square == (9.75, round(h - 15.25, 2), 5.5, 5.5)
    # top right: lines 0.5 mm wide centred 10 mm from the right and top edges, legs 20 mm from the corner
    assert tr_h == (round(w - 30, 2), round(h - 10.25, 2), 20.25, 0.5)
    assert tr_v == (round(w - 10.25, 2), round(h - 30, 2), 0.5, 20.25)
    # bottom left: the same L turned, its lines centred 10 mm from the left and bottom edges
    assert bl_h == (9.75, 9.75, 20.25, 0.5)
    assert bl_v == (9.75, 9.75, 0.5, 20.25)
    # every line's centre 10 mm in
    assert round(tr_h[1] + tr_h[3] / 2, 2) == round(h - 10, 2) and round(tr_v[0] + tr_v[2] / 2, 2) == round(w - 10, 2)
    assert round(bl_h[1] + bl_h[3] / 2, 2) == 10.0 == round(bl_v[0] + bl_v[2] / 2, 2)
    # pieces keep 3 mm from the marks' lines: beside them, and beyond the bands that hold them
    area = cut_area(SILHOUETTE, w, h)
    assert area.rounded() == (13.0, 33.0, round(w - 26, 2), round(h - 66, 2))


def _matrix(element):
    """The matrix placing a card's frame on the page (a Group, or a Group round a turned Transform)."""
    m = (1.0, 0.0, 0.0, 1.0, element.dx, element.dy)
    if len(element.elements) == 1 and isinstance(element.elements[0], Transform):
        m = compose(m, element.elements[0].matrix)
    return m


def _trim(element, card_w, card_h) -> Rect:
    pts = [apply(_matrix(element), x, y) for x, y in ((0, 0), (card_w, 0), (0, card_h), (card_w, card_h))]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def _cards(page, prefix="card:"):
    return {e.role.split(":", 1)[1]: e for e in page.elements if isinstance(e, Group) and e.role.startswith(prefix)}


def _svg_rects(data: bytes, page_h: float) -> list:
    """Each path's extent (sheet frame, y up) and its arcs' radii, read from the SVG's numbers."""
    found = []
    for d in re.findall(rb'<path d="([^"]+)"', data):
        text = d.decode()
        xs, ys, radii = [], [], set()
        x = y = None
        for cmd, args in re.findall(r"([MHVAZ])([^MHVAZ]*)", text):
            nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", args)]
            if cmd == "M":
                x, y = nums
            elif cmd == "H":
                x = nums[0]
            elif cmd == "V":
                y = nums[0]
            elif cmd == "A":
                radii.add((nums[0], nums[1]))
                x, y = nums[5], nums[6]
            else:
                continue
            xs.append(x)
            ys.append(y)
        found.append((Rect(min(xs), page_h - max(ys), max(xs) - min(xs), max(ys) - min(ys)), radii))
    return found


def _dxf_rects(data: bytes) -> list:
    doc = ezdxf.read(io.StringIO(data.decode()))
    assert doc.units == 4                               # millimetres
    found = []
    for pl in doc.modelspace().query("LWPOLYLINE"):
        assert pl.dxf.layer == "cut" and pl.closed
        pts = list(pl.get_points("xyb"))
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        found.append((Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)), [round(p[2], 6) for p in pts]))
    return found


def _same(a: Rect, b: Rect) -> bool:
    return all(abs(u - v) < 0.01 for u, v in zip((a.x, a.y, a.w, a.h), (b.x, b.y, b.w, b.h)))


def _check_png(data: bytes, frame: Rect, trims: list, radius: float) -> None:
    """A Cricut sheet image: the frame at 300 dpi, opaque inside every trim, transparent between the cards
    and in each rounded corner."""
    from PIL import Image

    image = Image.open(io.BytesIO(data))
    assert image.mode == "RGBA"
    assert image.size == (round(frame.w / 25.4 * 300), round(frame.h / 25.4 * 300))
    scale = image.size[0] / frame.w

    def alpha(x, y):
        return image.getpixel((int((x - frame.x) * scale), int((frame.top - y) * scale)))[3]

    for t in trims:
        assert alpha(t.cx, t.cy) == 255
        assert alpha(t.x + 0.3, t.cy) == alpha(t.right - 0.3, t.cy) == 255
        assert alpha(t.x + 0.3, t.top - 0.3) == 0                    # the rounded corner is cut away
        assert alpha(t.x + radius, t.top - radius) == 255
        if t.x - frame.x > 0.5:
            assert alpha(t.x - 0.5, t.cy) == 0                       # between the cards


def _cases():
    """Every game, paper and machine; Cricut's (which draw every sheet's image) slow but for one game."""
    for game_name in GAMES:
        for paper in sorted(PAPERS):
            for machine_name in sorted(MACHINES):
                slow = machine_name == "cricut" and game_name != "shadow_throne"
                yield pytest.param(game_name, paper, machine_name, marks=[pytest.mark.slow] if slow else [])


@pytest.mark.parametrize("game_name, paper, machine_name", list(_cases()))
def test_every_card_lies_inside_the_cut_area_and_the_cut_files_trace_it(game_name, paper, machine_name):
    machine = MACHINES[machine_name]
    game = load_game(game_name)
    w, h = PAPERS[paper]
    outs = {o.filename: o for o in build_cards(game, BuildOptions(paper=paper, cutter=machine_name))}
    fronts, backs = outs["cards-fronts.pdf"], outs["cards-backs.pdf"]
    area = cut_area(machine, w, h)
    marks = [b.rect for b in registration_marks(machine, w, h)]
    decks = [d for d in game.decks if d.physical(None) or d.aid_copies]
    page_sizes = []
    for deck in decks:
        grid = cutter_grid(machine, deck.width, deck.height, w, h, CUT_BLEED)
        n = len(list(deck.physical(None))) + deck.aid_copies
        page_sizes += [(deck.width, deck.height)] * -(-n // grid.per_sheet)
    assert len(fronts.pages) == len(backs.pages) == len(page_sizes)
    sizes = iter(page_sizes)
    printed = []
    for front, back in zip(fronts.pages, backs.pages):
        card_w, card_h = next(sizes)
        # the marks on every front, exactly (Silhouette; none for the others); none on the backs
        assert [e.rect for e in front.find("registration")] == marks
        assert not back.find("registration")
        trims = [_trim(e, card_w, card_h) for e in _cards(front).values()]
        assert trims
        for t in trims:
            art = t.inset(-CUT_BLEED)
            assert area.contains(art), (t, area)
            assert not any(art.overlaps(m) for m in marks)
        for a in trims:          # neighbours lie apart by twice the bleed at least
            for b in trims:
                if a is not b:
                    assert not a.inset(-CUT_BLEED + 1e-6).overlaps(b.inset(-CUT_BLEED + 1e-6))
        # ScanNCut: a keyline on every cut line, for the scan; none for the others
        keylines = [(e.rect, e.radius) for e in front.find("keyline")]
        assert len(keylines) == (len(trims) if machine.keyline else 0)
        for rect, radius in keylines:
            assert radius == machine.corner and any(_same(rect, t) for t in trims)
        printed.append(trims)
    # the cut files beside the fronts: each run of pages that cuts the same shapes, every outline a trim
    runs, images, sizes_txt = {}, {}, None
    for name, data in fronts.beside.items():
        if name == "cards-fronts-images.txt":
            sizes_txt = data.decode()
            continue
        m = re.fullmatch(r"cards-fronts-p(\d+)\.png", name)
        if m:
            images[int(m[1])] = data
            continue
        m = re.fullmatch(r"cards-fronts-cut-p(\d+)(?:-(\d+))?\.(svg|dxf)", name)
        assert m, name
        runs.setdefault((int(m[1]), int(m[2] or m[1])), {})[m[3]] = data
    assert sorted(images) == (list(range(1, len(printed) + 1)) if machine.image else [])
    assert (sizes_txt is not None) == machine.image
    covered = []
    for (first, last), files in sorted(runs.items()):
        covered += range(first, last + 1)
        frame = Rect(0.0, 0.0, w, h)
        if machine.image:      # Cricut: the files' frame is the image, the cards' bounds
            trims = printed[first - 1]
            x0, y0 = min(t.x for t in trims), min(t.y for t in trims)
            frame = Rect(x0, y0, max(t.right for t in trims) - x0, max(t.top for t in trims) - y0)
            assert f'viewBox="0 0 {frame.w:g} {frame.h:g}"'.encode() in files["svg"]
        from_svg, from_dxf = _svg_rects(files["svg"], frame.h), _dxf_rects(files["dxf"])
        for number in range(first, last + 1):
            trims = [t.moved(-frame.x, -frame.y) for t in printed[number - 1]]
            assert len(from_svg) == len(from_dxf) == len(trims)
            for t in trims:
                assert any(_same(t, r) and radii == {(3.0, 3.0)} for r, radii in from_svg), t
                assert any(_same(t, r) and bulges.count(round(QUARTER_BULGE, 6)) == 4 for r, bulges in from_dxf), t
            if machine.image:
                _check_png(images[number], frame, printed[number - 1], machine.corner)
                assert f"cards-fronts-p{number}.png: {frame.w / 25.4:.3f} x {frame.h / 25.4:.3f} in" in sizes_txt
    assert covered == list(range(1, len(printed) + 1))


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_six_poker_cards_lie_turned_on_a_sheet(paper):
    w, h = PAPERS[paper]
    grid = cutter_grid(SILHOUETTE, 63, 88, w, h, CUT_BLEED)
    assert (grid.cols, grid.rows, grid.item_w, grid.item_h) == (2, 3, 90.0, 65.0)
    # centred on the sheet, so the backs' mirror image lies inside the area too
    assert abs(grid.block.cx - w / 2) < 1e-9 and abs(grid.block.cy - h / 2) < 1e-9


def test_a_rounded_outline_in_both_files():
    sheet = cut_sheets(SILHOUETTE, 210, 297, [[CutOutline(Rect(20, 40, 63, 88), 3.0)]])[0]
    assert sheet.pages == "p1"
    text = svg(sheet, "t").decode()
    # y down in SVG: the card's top edge (y = 128 on the sheet) is 169 mm from the sheet's top
    assert '<path d="M23,169 H80 A3,3 0 0 1 83,172 V254 A3,3 0 0 1 80,257 H23 A3,3 0 0 1 20,254 V172 ' \
           'A3,3 0 0 1 23,169 Z"/>' in text
    assert 'width="210mm" height="297mm" viewBox="0 0 210 297"' in text
    ((rect, bulges),) = _dxf_rects(dxf(sheet))
    assert rect.rounded() == (20.0, 40.0, 63.0, 88.0)
    assert dxf(sheet) == dxf(sheet)            # fixed dates and ids: the same bytes every time


def test_runs_of_pages_share_a_cut_file():
    a = [CutOutline(Rect(20, 40, 63, 88), 3.0, "x#1")]
    b = [CutOutline(Rect(20, 40, 63, 88), 3.0, "y#1")]
    c = [CutOutline(Rect(20, 140, 63, 88), 3.0, "z#1")]
    assert [s.pages for s in cut_sheets(SILHOUETTE, 210, 297, [a, b, c, a])] == ["p1-2", "p3", "p4"]


def test_cutter_and_gutterfold_are_refused_together():
    result = CliRunner().invoke(main, ["build", "--cutter", "silhouette", "--cards", "gutterfold", "--out",
                                       "/nonexistent/never-written"])
    assert result.exit_code == 2
    assert result.output.strip().endswith("--cutter and --cards gutterfold cannot go together: a cutting machine "
                                          "cuts one printed layer; print gutterfold sheets without --cutter")


def test_the_build_writes_the_cut_files_beside_the_fronts(tmp_path):
    result = CliRunner().invoke(main, ["build", "shadow_throne", "--cutter", "silhouette", "--paper", "a4",
                                       "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in tmp_path.glob("cards-*") if p.suffix in (".svg", ".dxf"))
    # 59 cards, 6 to a sheet: 9 full sheets and one of 5
    assert names == ["cards-fronts-cut-p1-9.dxf", "cards-fronts-cut-p1-9.svg", "cards-fronts-cut-p10.dxf",
                     "cards-fronts-cut-p10.svg"]
    assert "cards-fronts-cut-p1-9.svg  (cut lines)" in result.output


def test_a_cricut_build_writes_each_sheets_image_and_their_sizes(tmp_path):
    result = CliRunner().invoke(main, ["build", "shadow_throne", "--cutter", "cricut", "--paper", "letter",
                                       "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    # 59 cards, 4 to a sheet inside Design Space's 6.75 x 9.25 in image: 14 full sheets and one of 3
    images = sorted((p.name for p in tmp_path.glob("cards-fronts-p*.png")), key=lambda n: int(n[14:-4]))
    assert images == [f"cards-fronts-p{n}.png" for n in range(1, 16)]
    assert sorted(p.name for p in tmp_path.glob("cards-*.svg")) == ["cards-fronts-cut-p1-14.svg",
                                                                   "cards-fronts-cut-p15.svg"]
    sizes = (tmp_path / "cards-fronts-images.txt").read_text().splitlines()
    # two poker cards side by side and two high, 2 mm apart: 128 x 178 mm
    assert sizes[1] == "cards-fronts-p1.png: 5.039 x 7.008 in (128.00 x 178.00 mm); cut file cards-fronts-cut-p1-14.svg"
    assert "cards-fronts-p1.png  (image to upload)" in result.output
    assert "cards-fronts-images.txt  (image sizes)" in result.output
    # no registration marks: Design Space prints its own
    assert not any(b"registration" in p.read_bytes() for p in tmp_path.glob("*.svg"))


def test_a_dxf_is_the_same_bytes_whatever_the_process_string_hashing():
    # ezdxf lists the DXF types in use from a set: its order followed PYTHONHASHSEED, and kits' DXF files
    # differed from run to run (one seed in six gave another CLASSES section)
    import subprocess
    import sys

    from pnp import PROJECT_ROOT

    script = ("import sys, hashlib\n"
              "from pnp.draw.cutfile import dxf\n"
              "from pnp.layout.cutter import MACHINES, CutOutline, cut_sheets\n"
              "from pnp.layout.geometry import Rect\n"
              "sheet = cut_sheets(MACHINES['silhouette'], 210, 297, [[CutOutline(Rect(20, 40, 63, 88), 3.0)]])[0]\n"
              "sys.stdout.write(hashlib.sha256(dxf(sheet)).hexdigest())\n")
    digests = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                              cwd=PROJECT_ROOT, env={"PYTHONHASHSEED": str(seed), "PATH": ""}).stdout
               for seed in range(8)}
    assert len(digests) == 1
