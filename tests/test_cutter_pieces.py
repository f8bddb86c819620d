"""Print-and-cut for pieces other than cards (``pnp build --cutter``): tokens (circles, squares,
hexagons), standees (their strips, slot bases and fold lines) and dice (sticker squares and cube nets),
for every bundled game that has them, on Letter and A4, for every machine. Each cut file is read back
(SVG and DXF) and every outline in it is compared with the printed piece's cut line, computed from the
piece's own data (a token's size and shape, a standee's strip, a cube net's edges), to 0.01 mm."""

import io
import re

import ezdxf
import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.components import BuildOptions, game_components
from pnp.layout.cutter import CUT_BLEED, MACHINES, chains, cut_area, registration_marks
from pnp.layout.dice import cube_net, net_elements
from pnp.layout.geometry import Line, Polygon, Rect, flatten
from pnp.layout.sheet import mirror
from pnp.layout.standee import standee_layout
from pnp.layout.tokens import hexagon_points
from pnp.loading.gamedata import load_game
from pnp.loading.tokendata import load_tokens
from pnp.units import PAPERS

TOL = 0.01
MACHINE_NAMES = sorted(MACHINES)


# ------------------------------------------------------------------------------------ reading cut files

def svg_shapes(data: bytes) -> tuple[tuple, list, list]:
    """(frame width and height, cut shapes, fold lines) of a cut file's SVG, in the frame's mm with y up:
    ("circle", cx, cy, r), ("polygon", points), ("line", points); a rounded rectangle's path is read as
    its extent, ("rect", Rect)."""
    w, h = (float(v) for v in re.search(rb'viewBox="0 0 ([\d.]+) ([\d.]+)"', data).groups())
    text = data.decode()
    cut = text[text.index('<g id="cut"'):text.index("</g>", text.index('<g id="cut"'))]
    shapes = []
    for cx, cy, r in re.findall(r'<circle cx="([-\d.]+)" cy="([-\d.]+)" r="([\d.]+)"', cut):
        shapes.append(("circle", float(cx), h - float(cy), float(r)))
    for d in re.findall(r'<path d="([^"]+)"', cut):
        if "A" in d or "H" in d:
            # M x,y H x V y A r,r 0 0 1 x,y ...: every end point is on the outline's extent
            points = _path_points(d)
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            shapes.append(("rect", Rect(min(xs), h - max(ys), max(xs) - min(xs), max(ys) - min(ys))))
            continue
        pairs = [tuple(float(v) for v in p.split(",")) for p in re.findall(r"-?[\d.]+,-?[\d.]+", d)]
        shapes.append(("polygon" if d.rstrip().endswith("Z") else "line", tuple((x, h - y) for x, y in pairs)))
    folds = []
    if '<g id="fold"' in text:
        fold = text[text.index('<g id="fold"'):]
        for x1, y1, x2, y2 in re.findall(r'<line x1="([-\d.]+)" y1="([-\d.]+)" x2="([-\d.]+)" y2="([-\d.]+)"', fold):
            folds.append((float(x1), h - float(y1), float(x2), h - float(y2)))
    return (w, h), shapes, folds


def _path_points(d: str) -> list:
    points, x, y = [], 0.0, 0.0
    for cmd, args in re.findall(r"([MHVAZ])([^MHVAZ]*)", d):
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", args)]
        if cmd == "M":
            x, y = nums[:2]
        elif cmd == "H":
            x = nums[0]
        elif cmd == "V":
            y = nums[0]
        elif cmd == "A":
            x, y = nums[5], nums[6]
        else:
            continue
        points.append((x, y))
    return points


def dxf_shapes(data: bytes) -> tuple[list, list]:
    doc = ezdxf.read(io.StringIO(data.decode()))
    assert doc.units == 4
    shapes, folds = [], []
    for e in doc.modelspace():
        if e.dxf.layer == "fold":
            assert e.dxftype() == "LINE"
            folds.append((e.dxf.start.x, e.dxf.start.y, e.dxf.end.x, e.dxf.end.y))
            continue
        assert e.dxf.layer == "cut"
        if e.dxftype() == "CIRCLE":
            shapes.append(("circle", e.dxf.center.x, e.dxf.center.y, e.dxf.radius))
        else:
            pts = [(x, y) for x, y, *_ in e.get_points("xyb")]
            bulges = [b for *_, b in e.get_points("xyb")]
            if any(bulges):
                xs, ys = [p[0] for p in pts], [p[1] for p in pts]
                shapes.append(("rect", Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))))
            else:
                shapes.append(("polygon" if e.closed else "line", tuple(pts)))
    return shapes, folds


def _close(a, b) -> bool:
    return abs(a - b) < TOL


def _same_points(a, b) -> bool:
    """The same closed polygon (any starting point, either way round) or the same polyline."""
    if len(a) != len(b):
        return False
    n = len(a)
    for start in range(n):
        for step in (1, -1):
            if all(_close(a[k][0], b[(start + step * k) % n][0]) and _close(a[k][1], b[(start + step * k) % n][1])
                   for k in range(n)):
                return True
    return False


def matches(expected, found) -> bool:
    kind = expected[0]
    if kind != found[0]:
        # a rounded-corner-free rectangle may come as a polygon of its four corners
        if kind == "rect" and found[0] == "polygon":
            r = expected[1]
            return _same_points(((r.x, r.y), (r.right, r.y), (r.right, r.top), (r.x, r.top)), found[1])
        return False
    if kind == "circle":
        return all(_close(u, v) for u, v in zip(expected[1:], found[1:]))
    if kind == "rect":
        return all(_close(u, v) for u, v in zip(expected[1].rounded(6), found[1].rounded(6)))
    return _same_points(expected[1], found[1])


def shifted(shape, dx, dy):
    if shape[0] == "circle":
        return ("circle", shape[1] + dx, shape[2] + dy, shape[3])
    if shape[0] == "rect":
        return ("rect", shape[1].moved(dx, dy))
    return (shape[0], tuple((x + dx, y + dy) for x, y in shape[1]))


def check_file(files: dict, stem_pages: str, expected: list, folds: list, frame: Rect) -> None:
    """The SVG and DXF of one cut file hold exactly the ``expected`` shapes and ``folds`` (sheet frame)."""
    (w, h), from_svg, svg_folds = svg_shapes(files[f"{stem_pages}.svg"])
    assert (round(w, 3), round(h, 3)) == (round(frame.w, 3), round(frame.h, 3))
    from_dxf, dxf_folds = dxf_shapes(files[f"{stem_pages}.dxf"])
    local = [shifted(s, -frame.x, -frame.y) for s in expected]
    for found in (from_svg, from_dxf):
        assert len(found) == len(local), (stem_pages, len(found), len(local))
        for shape in local:
            assert any(matches(shape, f) for f in found), (stem_pages, shape)
    for found in (svg_folds, dxf_folds):
        assert len(found) == len(folds)
        for x1, y1, x2, y2 in folds:
            line = ((x1 - frame.x, y1 - frame.y), (x2 - frame.x, y2 - frame.y))
            assert any(_same_points(line, ((a, b), (c, d))) for a, b, c, d in found), line


def cut_files_of(output, stem: str) -> dict:
    """{(first, last): {"svg": ..., "dxf": ...}} of the cut files beside an output."""
    runs = {}
    for name, data in output.beside.items():
        m = re.fullmatch(rf"{stem}-cut-p(\d+)(?:-(\d+))?\.(svg|dxf)", name)
        if m:
            runs.setdefault((int(m[1]), int(m[2] or m[1])), {})[f"{stem}-cut-p{m[1]}" + (f"-{m[2]}" if m[2] else "")
                                                               + f".{m[3]}"] = data
    return runs


def component_outputs(game, kind: str, options) -> list:
    return [o for c in game_components(game) if c.kind == kind for o in c.build(game, options)]


# ---------------------------------------------------------------------------------------------- tokens

def token_shape(token, dx: float, dy: float):
    """A token's cut line from its data: its size and shape, at (dx, dy) on the sheet."""
    c = token.extent / 2
    if token.shape == "circle":
        return ("circle", dx + c, dy + c, token.size / 2)
    if token.shape == "hexagon":
        return ("polygon", hexagon_points(dx + c, dy + c, token.size))
    assert token.shape == "square", token.shape     # the bundled games' shapes
    return ("rect", Rect(dx, dy, token.size, token.size))


TOKEN_GAMES = ["shadow_throne", "shadow_kingdoms_of_valeria", "shadow_queen"]


@pytest.mark.parametrize("machine_name", MACHINE_NAMES)
@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("game_name", TOKEN_GAMES)
def test_token_fronts_backs_and_cut_files(game_name, paper, machine_name):
    machine = MACHINES[machine_name]
    game = load_game(game_name)
    w, h = PAPERS[paper]
    tokens = {t.id: t for t in load_tokens(game).tokens}
    (out,) = component_outputs(game, "tokens", BuildOptions(paper=paper, cutter=machine_name))
    # Cricut: fronts and backs are images Design Space prints on sheets of their own; the others: duplex
    assert out.filename == "tokens.pdf" and out.sides == ("single" if machine.image else "double")
    assert out.sheets == (None if machine.image else len(out.pages) // 2)
    area = cut_area(machine, w, h)
    marks = [b.rect for b in registration_marks(machine, w, h)]
    copies = sum(t.count for t in tokens.values())
    placed = []
    expected_pages = []
    for fronts, backs in zip(out.pages[::2], out.pages[1::2]):
        assert [e.rect for e in fronts.find("registration")] == marks and not backs.find("registration")
        groups = {g.role.split(":", 1)[1]: g for g in fronts.groups("front:")}
        back_groups = {g.role.split(":", 1)[1]: g for g in backs.groups("back:")}
        assert set(groups) == set(back_groups)
        shapes, back_shapes, squares = [], [], []
        for label, g in groups.items():
            token = tokens[label.split("#")[0]]
            square = Rect(g.dx, g.dy, token.extent, token.extent)
            art = square.inset(-CUT_BLEED)
            assert area.contains(art) and not any(art.overlaps(m) for m in marks), label
            # the back lies exactly behind the front once the sheet is turned over
            turned = mirror(square, w, h, "long")
            assert _close(back_groups[label].dx, turned.x) and _close(back_groups[label].dy, turned.y)
            shapes.append(token_shape(token, g.dx, g.dy))
            back_shapes.append(token_shape(token, turned.x, turned.y))
            squares.append(art)
        for a in squares:               # art never reaches a neighbour's
            assert sum(1 for b in squares if a.overlaps(b.inset(1e-6))) == 1
        # ScanNCut: a keyline on every cut line
        keylines = fronts.find("keyline")
        assert len(keylines) == (len(shapes) if machine.keyline else 0)
        placed += groups
        expected_pages.append((shapes, back_shapes))
    assert len(placed) == copies
    runs = cut_files_of(out, "tokens")
    if machine.image:
        # Design Space prints where it likes: every page (fronts and backs) is an image with its cut file
        assert sorted(runs) == [(n, n) for n in range(1, len(out.pages) + 1)]
        assert sorted(n for n in out.beside if n.endswith(".png")) == sorted(
            f"tokens-p{n}.png" for n in range(1, len(out.pages) + 1))
    else:
        assert sorted(runs) == [(n, n) for n in range(1, len(out.pages) + 1, 2)]
    for index, (shapes, back_shapes) in enumerate(expected_pages):
        number = 2 * index + 1
        for n, wanted in ((number, shapes), (number + 1, back_shapes)):
            if (n, n) not in runs:
                continue
            frame = Rect(0.0, 0.0, w, h)
            if machine.image:
                xs = [v for s in wanted for v in _xs(s)]
                ys = [v for s in wanted for v in _ys(s)]
                frame = Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
            check_file(runs[(n, n)], f"tokens-cut-p{n}", wanted, [], frame)


def _xs(shape):
    if shape[0] == "circle":
        return (shape[1] - shape[3], shape[1] + shape[3])
    if shape[0] == "rect":
        return (shape[1].x, shape[1].right)
    return tuple(p[0] for p in shape[1])


def _ys(shape):
    if shape[0] == "circle":
        return (shape[2] - shape[3], shape[2] + shape[3])
    if shape[0] == "rect":
        return (shape[1].y, shape[1].top)
    return tuple(p[1] for p in shape[1])


# ------------------------------------------------------------------------------------ standees and dice

def _frame(machine, outlines_xy, w, h) -> Rect:
    if not machine.image:
        return Rect(0.0, 0.0, w, h)
    xs = [v for s in outlines_xy for v in _xs(s)]
    ys = [v for s in outlines_xy for v in _ys(s)]
    return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def _check_run_files(out, stem, pages_expected, machine, w, h):
    runs = cut_files_of(out, stem)
    covered = []
    for (first, last), files in sorted(runs.items()):
        covered += range(first, last + 1)
        name = f"{stem}-cut-p{first}" + (f"-{last}" if last != first else "")
        for n in range(first, last + 1):
            shapes, folds = pages_expected[n - 1]
            check_file(files, name, shapes, folds, _frame(machine, [s for s in shapes if s[0] != "line"] or shapes,
                                                          w, h))
    assert covered == list(range(1, len(out.pages) + 1))


STANDEE_GAMES = ["shadow_kingdoms_of_valeria", "shadow_queen"]


@pytest.mark.parametrize("machine_name", MACHINE_NAMES)
@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("game_name", STANDEE_GAMES)
def test_standee_strips_and_folds_in_the_cut_files(game_name, paper, machine_name):
    machine = MACHINES[machine_name]
    game = load_game(game_name)
    w, h = PAPERS[paper]
    area = cut_area(machine, w, h)
    marks = [b.rect for b in registration_marks(machine, w, h)]
    for comp in (c for c in game_components(game) if c.kind == "standee"):
        (out,) = comp.build(game, BuildOptions(paper=paper, cutter=machine_name))
        from pnp.components.standee import config_of, standee_spec

        lay = standee_layout(standee_spec(config_of(comp.build.keywords["spec"])))
        expected = []
        for page in out.pages:
            assert [e.rect for e in page.find("registration")] == marks
            shapes, folds = [], []
            for g in page.groups("strip:"):
                sw, sh = lay.size
                strip = Rect(g.dx, g.dy, sw, sh)
                assert area.contains(strip.inset(-lay.spec.bleed)), (strip, area)
                # the strip's outer edge is one closed outline; a cut inside it (between the feet) an open one
                shapes.append(("polygon", ((strip.x, strip.y), (strip.right, strip.y), (strip.right, strip.top),
                                           (strip.x, strip.top))))
                for x1, y1, x2, y2 in lay.cuts:
                    on_edge = (x1 == x2 and x1 in (0, sw)) or (y1 == y2 and y1 in (0, sh))
                    if not on_edge:
                        shapes.append(("line", ((g.dx + x1, g.dy + y1), (g.dx + x2, g.dy + y2))))
                folds += [(g.dx + x1, g.dy + y1, g.dx + x2, g.dy + y2) for x1, y1, x2, y2 in lay.folds]
            for g in page.groups("base:"):
                shapes.append(("rect", lay.base_piece.moved(g.dx, g.dy)))
                shapes.append(("rect", lay.slit.moved(g.dx, g.dy)))
            assert shapes
            expected.append((shapes, folds))
        stem = out.filename[:-4]
        _check_run_files(out, stem, expected, machine, w, h)


def _net_cuts(net, dx, dy):
    """A cube net's cut line from the layout's own elements: its edges and tabs joined into one outline."""
    segments = []
    for e in flatten(net_elements(net, [[] for _ in range(6)])):
        if getattr(e, "role", "") != "cut":
            continue
        if isinstance(e, Line):
            segments.append(((e.x1 + dx, e.y1 + dy), (e.x2 + dx, e.y2 + dy)))
        elif isinstance(e, Polygon):
            pts = [(x + dx, y + dy) for x, y in e.points]
            segments += list(zip(pts, pts[1:]))
    outlines = chains(segments)
    assert [o.shape for o in outlines] == ["polygon"]        # one closed outline round the whole net
    return [("polygon", outlines[0].points)]


def _net_folds(net, dx, dy):
    return [(e.x1 + dx, e.y1 + dy, e.x2 + dx, e.y2 + dy) for e in flatten(net_elements(net, [[] for _ in range(6)]))
            if getattr(e, "role", "") == "fold"]


@pytest.mark.parametrize("machine_name", MACHINE_NAMES)
@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_dice_stickers_and_nets_in_the_cut_files(paper, machine_name):
    machine = MACHINES[machine_name]
    game = load_game("shadow_kingdoms_of_valeria")
    w, h = PAPERS[paper]
    area = cut_area(machine, w, h)
    (comp,) = [c for c in game_components(game) if c.kind == "dice"]
    from pnp.components.dice import config_of

    config = config_of(comp.build.keywords["spec"])
    outs = {o.filename: o for o in comp.build(game, BuildOptions(paper=paper, cutter=machine_name))}
    stickers, nets = outs["dice-stickers.pdf"], outs["dice-nets.pdf"]
    expected = []
    for page in stickers.pages:
        shapes = []
        for g in page.groups("sticker:"):
            side = config["sticker"] or config["die_size"] - 2.0
            shapes.append(("rect", Rect(g.dx, g.dy, side, side)))
            assert area.contains(Rect(g.dx, g.dy, side, side))
        expected.append((shapes, []))
    _check_run_files(stickers, "dice-stickers", expected, machine, w, h)
    net = cube_net(config["edge"], config["tab"], handed=config["handed"])
    expected = []
    for page in nets.pages:
        shapes, folds = [], []
        for g in page.groups("net:"):
            shapes += _net_cuts(net, g.dx, g.dy)
            folds += _net_folds(net, g.dx, g.dy)
            assert area.contains(Rect(g.dx, g.dy, *net.size))
        expected.append((shapes, folds))
    _check_run_files(nets, "dice-nets", expected, machine, w, h)


# ------------------------------------------------------------------------------------ whole builds

GAMES = ["shadow_throne", "behind_the_throne", "shadow_kingdoms_of_valeria", "shadow_queen"]


def _builds():
    for game_name in GAMES:
        for paper in sorted(PAPERS):
            for machine_name in MACHINE_NAMES:
                fast = (game_name, paper) == ("shadow_kingdoms_of_valeria", "a4") and machine_name == "scanncut"
                yield pytest.param(game_name, paper, machine_name, marks=[] if fast else [pytest.mark.slow])


@pytest.mark.parametrize("game_name, paper, machine_name", list(_builds()))
def test_every_game_builds_for_every_machine(tmp_path, game_name, paper, machine_name):
    result = CliRunner().invoke(main, ["build", game_name, "--cutter", machine_name, "--paper", paper,
                                       "--out", str(tmp_path), "--no-cache", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    names = {p.name for p in tmp_path.iterdir()}
    assert "cards-fronts-cut-p1.svg" in names or any(n.startswith("cards-fronts-cut-p1-") for n in names)
    game = load_game(game_name)
    kinds = {c.kind for c in game_components(game)}
    if "tokens" in kinds:
        assert "tokens-cut-p1.svg" in names
    if "standee" in kinds:
        assert any(re.fullmatch(r".+-cut-p1(-\d+)?\.svg", n) and not n.startswith(("cards", "tokens", "dice"))
                   for n in names)
    if machine_name == "cricut":
        assert "cards-fronts-p1.png" in names


def test_a_standee_too_tall_for_the_cut_area_is_named(tmp_path):
    import shutil

    from pnp.errors import DataError

    folder = tmp_path / "shadow_queen"
    shutil.copytree(load_game("shadow_queen").root, folder)
    yaml_path = folder / "game.yaml"
    # 2 x 100 + 2 x 11 = 222 mm of strip: fits a Letter sheet's margins, not between a Silhouette's marks
    yaml_path.write_text(yaml_path.read_text().replace("    height: 30\n", "    height: 100\n", 1))
    game = load_game(str(folder))
    (comp,) = [c for c in game_components(game) if c.kind == "standee"]
    assert comp.build(game, BuildOptions(paper="letter"))
    with pytest.raises(DataError) as info:
        comp.build(game, BuildOptions(paper="letter", cutter="silhouette"))
    (problem,) = info.value.problems
    line = next(i for i, text in enumerate(yaml_path.read_text().splitlines(), 1) if text.strip().startswith("- kind: standee"))
    assert str(problem).startswith(f"{yaml_path}:{line}: standee 'standees': ")     # the standee's entry
    assert str(problem).endswith(" on letter for --cutter silhouette")


def test_rounded_and_outline_tokens_of_a_designers_game(tmp_path):
    """starfall's rounded squares (corners 18 % of the side) and its SVG-outline comet, cut along the
    outline's convex hull (what pnp.draw.ink.svg_outline gives: a concave outline's hollows stay paper)."""
    import shutil
    from pathlib import Path

    from pnp.draw.ink import svg_outline
    from pnp.layout.tokens import ROUNDED

    folder = tmp_path / "starfall"
    shutil.copytree(Path(__file__).parent / "games" / "starfall", folder)
    game = load_game(str(folder))
    tokens = {t.id: t for t in load_tokens(game).tokens}
    (out,) = component_outputs(game, "tokens", BuildOptions(paper="a4", cutter="silhouette"))
    front = out.pages[0]
    groups = {g.role.split(":", 1)[1]: g for g in front.groups("front:")}
    expected = []
    for label, g in groups.items():
        token = tokens[label.split("#")[0]]
        if token.shape == "outline":
            hull = svg_outline(str(token.outline), Rect(0.0, 0.0, token.extent, token.extent))
            expected.append(("polygon", tuple((x + g.dx, y + g.dy) for x, y in hull)))
        elif token.shape == "rounded":
            expected.append(("rect", Rect(g.dx, g.dy, token.size, token.size)))
        else:
            expected.append(token_shape(token, g.dx, g.dy))
    assert {label.split("#")[0] for label in groups} >= {"comet-token", "light-5"}
    check_file(cut_files_of(out, "tokens")[(1, 1)], "tokens-cut-p1", expected, [], Rect(0.0, 0.0, *PAPERS["a4"]))
    # a rounded token's corners are arcs of 18 % of its side, in both files
    radius = tokens["light-5"].size * ROUNDED
    assert f"A{radius:g},{radius:g} 0 0 1".encode() in cut_files_of(out, "tokens")[(1, 1)]["tokens-cut-p1.svg"]
