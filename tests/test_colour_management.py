"""Colour that prints as it looks (`pnp build --preset drivethrucards`): every colour of the PDF/X file is
measured with LittleCMS against the file's own output intent, as a print service's preflight would.

The file's colours are paired with the colours pnp drew by walking the drawn (RGB) PDF and the CMYK file
side by side: each painting operator (text shown, a path filled or stroked) has one colour in each. The
screen colour's CIELAB (sRGB, D50) and the inks' CIELAB (the embedded profile, relative colorimetric)
then give ΔE76; whether the press can print a colour at all within 240 % ink is found here by a search of
its own (a grid of inks, then steps of 1/255), not by pnp's code."""

import io
import itertools
import math
import re
from pathlib import Path

import numpy as np
import pikepdf
import pytest
from click.testing import CliRunner
from PIL import Image, ImageCms

from pnp.commands.cli import main
from pnp.draw.cmyk import Separation, hex_of, percent

DOCS = Path(__file__).resolve().parents[1] / "docs" / "printing.md"
PAINTS = {"f": "fill", "F": "fill", "f*": "fill", "S": "line", "s": "line", "B": "both", "B*": "both",
          "b": "both", "b*": "both", "Tj": "text", "TJ": "text", "'": "text", '"': "text"}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """(the drawn RGB PDF, the PDF/X-1a file) of Shadow Throne's deck."""
    import pnp.draw.pdfx as pdfx

    drawn = []
    convert = pdfx.to_pdfx1a

    def keeping(data, title, separation=None):
        drawn.append(data)
        return convert(data, title, separation)

    out = tmp_path_factory.mktemp("dtc")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pdfx, "to_pdfx1a", keeping)
        result = CliRunner().invoke(main, ["build", "--preset", "drivethrucards", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return drawn[0], (out / "drivethrucards.pdf").read_bytes()


def _paints(owner, resources, cmyk: bool):
    """(what paints, fill colour, stroke colour) for every painting operator of a stream and the forms it
    draws (each form once, at its first use)."""
    state, stack, out = {"fill": None, "stroke": None}, [], []
    for operands, operator in pikepdf.parse_content_stream(owner):
        op = str(operator)
        values = tuple(float(v) for v in operands) if op in ("rg", "RG", "g", "G", "k", "K") else None
        if op == "q":
            stack.append(dict(state))
        elif op == "Q":
            state = stack.pop()
        elif op in (("k", "K") if cmyk else ("rg", "RG", "g", "G")):
            colour = tuple(round(v * 255) for v in (values * 3 if len(values) == 1 else values))
            state["fill" if op.islower() else "stroke"] = colour
        elif op in PAINTS:
            out.append((PAINTS[op], state["fill"], state["stroke"]))
        elif op == "Do":
            form = resources.XObject[str(operands[0])]
            out.append(("form", str(operands[0]), None))
            out += _paints(form, form.get("/Resources"), cmyk)
    return out


def _pairs(drawn: bytes, printed: bytes) -> dict:
    """{(sRGB colour, what it paints): set of inks} over every page of the two files."""
    pairs = {}
    with pikepdf.open(io.BytesIO(drawn)) as a, pikepdf.open(io.BytesIO(printed)) as b:
        assert len(a.pages) == len(b.pages)
        for pa, pb in zip(a.pages, b.pages):
            ra, rb = _paints(pa, pa.Resources, False), _paints(pb, pb.Resources, True)
            assert [p[0] for p in ra] == [p[0] for p in rb]      # the same painting operators, in order
            for (what, fill, stroke), (_, ink_fill, ink_stroke) in zip(ra, rb):
                if what in ("fill", "text", "both"):
                    pairs.setdefault((fill, "fill" if what == "both" else what), set()).add(ink_fill)
                if what in ("line", "both"):
                    pairs.setdefault((stroke, "line"), set()).add(ink_stroke)
    return pairs


class Measure:
    """LittleCMS against one CMYK profile (the one embedded in the file), and a search of its own for
    the inks within 240 % that print a colour nearest."""

    def __init__(self, profile: bytes):
        cmyk = ImageCms.ImageCmsProfile(io.BytesIO(profile))
        lab = ImageCms.createProfile("LAB", 5000)
        relative = ImageCms.Intent.RELATIVE_COLORIMETRIC
        self.to_lab = ImageCms.buildTransform(cmyk, lab, "CMYK", "LAB", relative)
        self.screen = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), lab, "RGB", "LAB", relative)
        steps = np.array([0, 17, 34, 51, 68, 85, 102, 119, 136, 153, 170, 187, 204, 221, 238, 255])
        grid = np.array(list(itertools.product(steps, repeat=4)))
        self.grid = grid[grid.sum(axis=1) <= 612]
        self.grid_labs = self.labs(self.grid)

    @staticmethod
    def _lab(data: bytes) -> np.ndarray:
        signed = np.frombuffer(data, dtype=np.int8).reshape(-1, 3).astype(float)
        signed[:, 0] = np.frombuffer(data, dtype=np.uint8).reshape(-1, 3)[:, 0].astype(float) * 100 / 255
        return signed

    def labs(self, inks) -> np.ndarray:
        inks = np.asarray(inks, dtype=np.uint8)
        image = Image.frombytes("CMYK", (len(inks), 1), inks.tobytes())
        return self._lab(ImageCms.applyTransform(image, self.to_lab).tobytes())

    def screen_lab(self, rgb) -> np.ndarray:
        return self._lab(ImageCms.applyTransform(Image.new("RGB", (1, 1), tuple(rgb)), self.screen).tobytes())[0]

    def delta_e(self, rgb, inks) -> float:
        return float(np.linalg.norm(self.labs([inks])[0] - self.screen_lab(rgb)))

    def nearest(self, rgb) -> float:
        """The smallest ΔE76 any inks within 240 % print ``rgb`` with."""
        target = self.screen_lab(rgb)
        d = np.linalg.norm(self.grid_labs - target, axis=1)
        best, best_d = self.grid[d.argmin()].astype(int), float(d.min())
        for step in (8, 4, 2, 1):
            while True:
                around = np.clip(best + step * np.array(list(itertools.product((-1, 0, 1), repeat=4))), 0, 255)
                around = around[around.sum(axis=1) <= 612]
                d = np.linalg.norm(self.labs(around) - target, axis=1)
                if d.min() >= best_d - 1e-9:
                    break
                best, best_d = around[d.argmin()], float(d.min())
        return best_d


@pytest.fixture(scope="module")
def measured(files):
    drawn, printed = files
    with pikepdf.open(io.BytesIO(printed)) as pdf:
        profile = pdf.Root.OutputIntents[0].DestOutputProfile.read_bytes()
    return _pairs(drawn, printed), Measure(profile)


def _neutral_dark(measure, rgb) -> bool:
    lab = measure.screen_lab(rgb)
    return math.hypot(lab[1], lab[2]) <= 6 and lab[0] < 30


def test_each_colour_prints_within_delta_e_3_in_gamut_and_8_out_of_it(measured):
    pairs, measure = measured
    assert len(pairs) >= 15
    figures = {}
    for (rgb, use), inks in pairs.items():
        assert len(inks) <= 2, (hex_of(rgb), use, inks)            # small and large fills may differ
        for ink in inks:
            assert sum(ink) <= 612, (hex_of(rgb), ink)              # 240 %
            if ink == (0, 0, 0, 255) and _neutral_dark(measure, rgb):
                continue                                            # solid black text: the next test
            reachable = measure.nearest(rgb)
            limit = 3.0 if reachable <= 1.0 else 8.0
            figures[hex_of(rgb), use] = (measure.delta_e(rgb, ink), reachable)
            assert measure.delta_e(rgb, ink) <= limit, (hex_of(rgb), use, ink, reachable)
    # the review's figures (formula conversion): Rebel green 19.6, card back 17.5, Empire red 14.4
    assert figures["#2e6a3f", "fill"][0] <= 3.0
    assert figures["#2a2130", "fill"][0] <= 3.0
    assert figures["#8c1c24", "fill"][0] <= 8.0 and figures["#8c1c24", "fill"][1] > 1.0   # out of gamut


def test_body_text_and_hairlines_are_solid_black(measured):
    """Neutral dark text (the cards' ink #1f1a17, 0/0/0/89.5 before) is 100 % K alone; the large dark
    fill of the same colour, if any, is a rich black within 240 %."""
    pairs, measure = measured
    ink = "#1f1a17"
    text = [inks for (rgb, use), inks in pairs.items() if hex_of(rgb) == ink and use == "text"]
    assert text == [{(0, 0, 0, 255)}]
    for (rgb, use), inks in pairs.items():
        if _neutral_dark(measure, rgb) and use in ("text", "line"):
            assert inks == {(0, 0, 0, 255)}, (hex_of(rgb), use, inks)


def test_large_dark_fills_are_a_capped_rich_black():
    separation = Separation(_profile())
    big = separation.convert((0x1f, 0x1a, 0x17), "large")
    small = separation.convert((0x1f, 0x1a, 0x17), "small")
    assert small.cmyk == (0, 0, 0, 255)
    c, m, y, k = big.cmyk
    assert k == 255 and min(c, m, y) > 0 and sum(big.cmyk) <= 612
    black = separation.convert((0, 0, 0), "large")
    assert black.cmyk[3] == 255 and 500 <= sum(black.cmyk) <= 612
    assert black.printed[0] < separation.convert((0, 0, 0), "text").printed[0] - 5   # darker than K alone


def test_greys_and_white_print_as_black_tints():
    separation = Separation(_profile())
    grey = separation.convert((0x80, 0x80, 0x80), "text")
    assert grey.cmyk[:3] == (0, 0, 0) and 100 < grey.cmyk[3] < 200 and grey.delta_e <= 3
    assert separation.convert((255, 255, 255), "text").cmyk == (0, 0, 0, 0)
    # a tinted near-neutral the black plate alone cannot match is colour-managed
    tinted = separation.convert((0xe2, 0xea, 0xe4), "text")
    assert not tinted.black_only and tinted.delta_e <= 3


def test_an_unprintable_colour_is_a_warning_naming_it(tmp_path):
    from pnp.draw.cmyk import gamut_warnings

    separation = Separation(_profile())
    separation.convert((0x3d, 0x2a, 0x05), "text")        # a deep brown: ΔE 9 at best within 240 %
    separation.convert((0x2e, 0x6a, 0x3f), "large")
    (warning,) = gamut_warnings(separation, "drivethrucards")
    assert warning.startswith("--preset drivethrucards: colour #3d2a05 (text) prints as C/M/Y/K ")
    assert "ΔE 9.0 from the colour on screen: the press cannot print it within 240 % ink" in warning


def _profile() -> bytes:
    from pnp.draw.pdfx import cmyk_profile

    return cmyk_profile().read_bytes()


def _table(pairs, measure) -> dict:
    """{(colour, inks): (what it paints, ΔE, in or out of gamut)} for the printing guide's table."""
    rows = {}
    for (rgb, use), inks in pairs.items():
        for ink in inks:
            rows.setdefault((hex_of(rgb), percent(ink)), [rgb, ink, set()])[2].add(use)
    table = {}
    for key, (rgb, ink, uses) in sorted(rows.items()):
        names = sorted(uses, key=["text", "line", "fill"].index)
        gamut = "in" if measure.nearest(rgb) <= 1 else "out"
        if ink == (0, 0, 0, 255) and _neutral_dark(measure, rgb):
            gamut = "K only"
        table[key] = (", ".join(names), round(measure.delta_e(rgb, ink), 1), gamut, sum(ink) / 2.55)
    return table


def test_the_printing_guide_gives_each_printed_colour_its_measured_figure(measured):
    """docs/printing.md's table lists every colour of Shadow Throne's DriveThruCards file with its inks
    and ΔE as measured here (to 0.3 ΔE)."""
    pairs, measure = measured
    table = _table(pairs, measure)
    expected = "\n".join(f"| `{h}` | {uses} | {inks} | {ink:.0f} % | {de:.1f} | {gamut} |"
                          for (h, inks), (uses, de, gamut, ink) in table.items())
    rows = {}
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| `(#[0-9a-f]{6})` \| ([a-z, ]+) \| ([\d/]+) \| \d+ % \| ([\d.]+) \| ([a-zK ]+) \|$", line)
        if m:
            rows[m[1], m[3]] = (m[2], float(m[4]), m[5])
    assert set(rows) == set(table), expected
    for key, (uses, de, gamut, _) in table.items():
        assert rows[key][0] == uses and rows[key][2] == gamut, (key, expected)
        assert abs(rows[key][1] - de) <= 0.3, (key, expected)


def _drawn_pdf(draw) -> bytes:
    from reportlab.pdfgen.canvas import Canvas

    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(200, 200), invariant=1)
    draw(c)
    c.showPage()
    c.save()
    with pikepdf.open(io.BytesIO(buf.getvalue())) as pdf:
        pdf.pages[0].TrimBox = pdf.pages[0].BleedBox = pdf.pages[0].MediaBox
        out = io.BytesIO()
        pdf.save(out)
    return out.getvalue()


def _ops(data: bytes, owner=None):
    with pikepdf.open(io.BytesIO(data)) as pdf:
        page = pdf.pages[0]
        target = page if owner is None else page.Resources.XObject[owner]
        return [(str(op), [round(float(v), 4) for v in operands] if str(op) in ("k", "K") else None)
                for operands, op in pikepdf.parse_content_stream(target)]


def test_inks_are_set_by_what_the_colour_paints():
    """One colour (#1f1a17) used for text, a hairline, a 5 mm square and a 60 mm panel: 100 % K for the
    first three, a rich black for the panel; a form painting in the colour it is drawn with gets the
    caller's inks set before it is drawn; no RGB operator is left."""
    from pnp.draw.pdfx import to_pdfx1a

    def draw(c):
        c.setFillColorRGB(0x1f / 255, 0x1a / 255, 0x17 / 255)
        c.setStrokeColorRGB(0x1f / 255, 0x1a / 255, 0x17 / 255)
        c.drawString(10, 10, "Ink")
        c.line(10, 20, 100, 20)
        c.rect(10, 30, 14, 14, stroke=0, fill=1)          # 5 mm
        c.rect(10, 30, 170, 170, stroke=0, fill=1)        # 60 mm
        c.beginForm("inherit")
        c.rect(0, 0, 5, 5, stroke=0, fill=1)
        c.endForm()
        c.setFillColorRGB(0x2e / 255, 0x6a / 255, 0x3f / 255)
        c.doForm("inherit")

    data = to_pdfx1a(_drawn_pdf(draw), "test")
    ops = _ops(data)
    assert not {"rg", "RG", "g", "G"} & {op for op, _ in ops}
    inks = [values for op, values in ops if op == "k"]
    assert inks[0] == [0, 0, 0, 1]                                  # the text (and the small square)
    assert [values for op, values in ops if op == "K"] == [[0, 0, 0, 1]]
    rich = inks[1]
    assert rich[3] == 1 and min(rich[:3]) > 0 and sum(rich) <= 2.4 + 1e-9
    green = Separation(_profile()).convert((0x2e, 0x6a, 0x3f), "small").operands
    assert inks[2] == green and ops[ops.index(("k", green)) + 1][0] in ("Do", "q", "cm")
    assert ("k", None) not in _ops(data, "/FormXob.inherit") and \
        not [op for op, _ in _ops(data, "/FormXob.inherit") if op in ("k", "rg")]
