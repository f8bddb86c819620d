"""Hypothesis fuzz of what an attacker writes (issue 23): SVG files, xlsx workbooks and layout
expressions built from the pieces that hung or crashed pnp (``<use>`` chains, nesting, ``url()``,
embedded pictures, entities; tampered workbook parts; ``*``, ``~``, ``join``, ``replace``, ``sum``,
``product``, ``select``...). Every example ends, within its time bound, as a result or as pnp's own
problem report (what the command line turns into exit status 0 or 2), never as another exception; an
accepted SVG draws; and no result names the folder the game lies in.

The default run tries a few dozen examples of each; the slow suite (``pytest -m slow``) tries 1,000 of
each (``PNP_HOSTILE_FUZZ_N`` sets another count).
"""

import base64
import io
import os
import shutil
import time
import zipfile
from pathlib import Path

import jinja2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from pnp.text import templating
from pnp.errors import DataError
from pnp.loading.svg import check_svg_bytes
from pnp.loading.tables import load_table

LONG = int(os.environ.get("PNP_HOSTILE_FUZZ_N", 1000))
QUICK = dict(max_examples=25, derandomize=True, deadline=None,
             suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture])
SLOW = dict(QUICK, max_examples=LONG, derandomize=False)
#: Longest an example may take (seconds): a check is meant to take milliseconds, a render at most its limit.
BOUND = 10.0


def png(width=4, height=4, kind="PNG") -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (width, height), "red").save(buf, kind)
    return buf.getvalue()


# ----------------------------------------------------------------------------- SVG

PICTURES = [png(), png(8, 8, "JPEG"), png()[:-30], b"GIF89a" + b"\0" * 20, b"", b"\x89PNG\r\n\x1a\n"]
ATTRS = st.sampled_from([
    'fill="red"', 'fill="url(#g)"', 'fill="url(http://example.invalid/x)"', 'style="fill:url(#g)"',
    "style=\"fill:url('file:///etc/passwd')\"", 'stroke="blue" stroke-width="0.5"', 'transform="scale(2)"',
    'opacity="0.5"', 'font-size="1e400"', 'width="-1"', 'x="nan"', 'href="#a0"', 'href="other.svg#x"',
])


@st.composite
def svg_documents(draw) -> bytes:
    ids = [f"a{i}" for i in range(draw(st.integers(1, 6)))]

    def element(depth):
        kind = draw(st.sampled_from(["rect", "circle", "g", "use", "image", "text", "style", "path"]
                                    if depth < draw(st.integers(1, 80)) else ["rect", "use"]))
        attrs = " ".join(draw(st.lists(ATTRS, max_size=3)))
        ident = f' id="{draw(st.sampled_from(ids))}"' if draw(st.booleans()) else ""
        if kind == "g":
            children = "".join(element(depth + 1) for _ in range(draw(st.integers(0, 3))))
            return f"<g{ident} {attrs}>{children}</g>"
        if kind == "use":
            return f'<use{ident} href="#{draw(st.sampled_from(ids))}" {attrs}/>'
        if kind == "image":
            data = base64.b64encode(draw(st.sampled_from(PICTURES))).decode()
            mime = draw(st.sampled_from(["png", "jpeg", "gif", "svg+xml"]))
            return f'<image{ident} width="5" height="5" href="data:image/{mime};base64,{data}"/>'
        if kind == "style":
            return draw(st.sampled_from(["<style>rect{fill:url(#g)}</style>", "<style>@import 'x.css';</style>",
                                         "<style>rect{fill:url(x.svg#g)}</style>"]))
        if kind == "text":
            return f"<text{ident} {attrs}>{draw(st.text(max_size=10)).replace('<', '').replace('&', '')}</text>"
        if kind == "path":
            return f'<path{ident} d="M0 0 L{draw(st.integers(-9, 9))} 5 Z" {attrs}/>'
        return f'<{kind}{ident} width="{draw(st.integers(0, 9))}" height="3" r="2" {attrs}/>'

    body = "".join(element(1) for _ in range(draw(st.integers(1, 6))))
    prolog = draw(st.sampled_from(["", '<?xml version="1.0"?>', '<?xml-stylesheet href="a.css"?>',
                                   '<!DOCTYPE svg [<!ENTITY a "b">]>', "<!-- a comment -->"]))
    text = (f'{prolog}<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="10" height="10">'
            f'<defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs>{body}</svg>')
    encoding = draw(st.sampled_from(["utf-8", "utf-16"]))
    return text.encode(encoding)


def svg_case(tmp_path, data: bytes) -> None:
    from reportlab.pdfgen import canvas

    from pnp.cache import memo
    from pnp.draw import fonts
    from pnp.draw.pictures import draw_picture

    fonts.register()

    started = time.perf_counter()
    info = check_svg_bytes(data)
    if not info.problems:
        path = tmp_path / f"fuzz-{time.perf_counter_ns()}.svg"
        path.write_bytes(data)
        c = canvas.Canvas(io.BytesIO(), invariant=1)
        draw_picture(c, str(path), (10, 10, 100, 100), "contain", colour="#123456")
        draw_picture(c, str(path), (10, 10, 100, 100), "cover")
        c.showPage()
        c.save()
        memo.clear()
    assert time.perf_counter() - started < BOUND


@settings(**QUICK)
@given(data=svg_documents())
def test_fuzzed_svgs_are_refused_or_drawn(tmp_path, data):
    svg_case(tmp_path, data)


@pytest.mark.slow
@settings(**SLOW)
@given(data=svg_documents())
def test_fuzzed_svgs_long(tmp_path, data):
    svg_case(tmp_path, data)


# ----------------------------------------------------------------------------- xlsx

CELLS = st.one_of(st.none(), st.integers(-10**6, 10**6), st.text(max_size=20).map(
    lambda t: "".join(ch for ch in t if ch.isprintable())), st.floats(allow_nan=False, allow_infinity=False))
TAMPERING = st.sampled_from([
    None,
    (b"<?xml", b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><?xml'),
    (b"<sst", b'<!DOCTYPE sst [<!ENTITY x SYSTEM "file:///etc/passwd">]><sst'),
    (b"</worksheet>", b"&undefined;</worksheet>"),
    (b"<row", b"<row><c><v>&#0;</v></c></row><row"),
    (b"<", b""),
    (b"xml", b"XML"),
])


@st.composite
def workbooks(draw) -> bytes:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    width = draw(st.integers(1, 6))
    sheet.append([draw(st.sampled_from(["id", "name", "copies", "a.b", "", "id"])) for _ in range(width)])
    for _ in range(draw(st.integers(0, 6))):
        sheet.append([draw(CELLS) for _ in range(draw(st.integers(0, width + 2)))])
    if draw(st.booleans()):
        sheet.cell(row=2, column=draw(st.sampled_from([200, 201, 300])), value="far")
    buf = io.BytesIO()
    book.save(buf)
    tamper = draw(TAMPERING)
    if tamper is None:
        return buf.getvalue()
    part = draw(st.sampled_from(["xl/worksheets/sheet1.xml", "xl/workbook.xml", "[Content_Types].xml",
                                 "xl/styles.xml"]))
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for name in src.namelist():
            data = src.read(name)
            dst.writestr(name, data.replace(tamper[0], tamper[1], 1) if name == part else data)
    return out.getvalue()


def xlsx_case(tmp_path, data: bytes) -> None:
    path = tmp_path / f"fuzz-{time.perf_counter_ns()}.xlsx"
    path.write_bytes(data)
    started = time.perf_counter()
    try:
        rows = load_table(path)
        assert len(rows) <= 7
    except DataError as exc:
        assert exc.problems and all(str(p.path) == str(path) for p in exc.problems)
    assert time.perf_counter() - started < BOUND


@settings(**QUICK)
@given(data=workbooks())
def test_fuzzed_workbooks_load_or_are_refused(tmp_path, data):
    xlsx_case(tmp_path, data)


@pytest.mark.slow
@settings(**SLOW)
@given(data=workbooks())
def test_fuzzed_workbooks_long(tmp_path, data):
    xlsx_case(tmp_path, data)


# ----------------------------------------------------------------------------- layout expressions

ATOMS = ["0", "1", "7", "100000", "99999", "10**5", "'x'", "''", "'ab'", "[1, 2]", "[]", "[[0] * 1000]", "item",
         "range(100000)", "range(1000)", "card", "card.name", "facts", "game_root", "palette", "(1, 'a')",
         "{'a': [1]}", "none", "true", "cycler(1, 2)", "namespace(a=1)", "-3", "2.5"]
BINARY = [" * ", " + ", " ~ ", " ** ", " % ", " // ", " in ", " == "]
FILTERS = ["|join('y' * 1000)", "|join", "|replace('', 'zz')", "|replace('x', 'x' * 999)", "|sum(start=[])",
           "|sum", "|list", "|string", "|length", "|map('string')|list", "|select('in', range(99999)|list)|list",
           "|batch(1000)|list", "|unique|list", "|sort", "|reverse|list", "|first", "|pprint", "|tojson",
           "|format(1)", "|center(99)", "|indent(3)", "|wordwrap(5)", "|title", "|groupby('x')|list", "|int",
           "|abs", "|round", "|max", "|min", "|dictsort"]


@st.composite
def expressions(draw, depth=0) -> str:
    if depth > 3 or draw(st.integers(0, 3)) == 0:
        expr = draw(st.sampled_from(ATOMS))
    else:
        kind = draw(st.sampled_from(["binary", "filter", "product", "call", "paren", "list", "cond"]))
        a = draw(expressions(depth=depth + 1))
        if kind == "binary":
            expr = f"{a}{draw(st.sampled_from(BINARY))}{draw(expressions(depth=depth + 1))}"
        elif kind == "filter":
            expr = f"({a}){draw(st.sampled_from(FILTERS))}"
        elif kind == "product":
            expr = f"product({a}, {draw(expressions(depth=depth + 1))})"
        elif kind == "call":
            expr = draw(st.sampled_from([f"({a}).replace('a', 'bb')", f"'-'.join({a})", f"'{{}}'.format({a})",
                                         f"({a}).upper()", f"tint({a}, 0.5)", f"({a})[0]", f"({a}).items()"]))
        elif kind == "list":
            expr = f"[{a}, {a}, {a}]"
        elif kind == "cond":
            expr = f"({a} if {draw(expressions(depth=depth + 1))} else 'no')"
        else:
            expr = f"({a})"
    return expr


@pytest.fixture(scope="module")
def hidden_root(tmp_path_factory):
    """A folder with a distinctive name standing for where the game lies: no result may name it."""
    root = tmp_path_factory.mktemp("game-folder-3b9e")
    return root


def expression_case(root: Path, source: str) -> None:
    from pnp.loading.cardlayout import FUNCTIONS, compiled
    from pnp.text.markup import escape

    scope = {**FUNCTIONS, "card": templating.data_value({"name": escape("Knight"), "might": 3}),
             "facts": templating.data_value({"spaces": list(range(40)), "root": root}),
             "game_root": templating.data_value(root), "item": escape("x"), "palette": {"ink": "#000000"}}
    started = time.perf_counter()
    try:
        with templating.limits():
            result = compiled(source)(**scope)
            shown = str(templating.text_size(result) and result)
        assert str(root) not in shown and root.name not in shown
    except jinja2.TemplateSyntaxError:
        pass
    except templating.TEMPLATE_ERRORS:
        pass                                   # a problem report at the layout (exit 2)
    assert time.perf_counter() - started < BOUND, source


@settings(**QUICK)
@given(source=expressions())
def test_fuzzed_layout_expressions_end_in_bounded_time(hidden_root, source, monkeypatch):
    monkeypatch.setattr(templating, "RENDER_SECONDS", 3.0)
    expression_case(hidden_root, source)


@pytest.mark.slow
@settings(**SLOW)
@given(source=expressions())
def test_fuzzed_layout_expressions_long(hidden_root, source, monkeypatch):
    monkeypatch.setattr(templating, "RENDER_SECONDS", 3.0)
    expression_case(hidden_root, source)


def test_the_fuzzers_reach_the_cases_of_the_audit(tmp_path, hidden_root):
    """The generators' pieces make each audited case (so a passing fuzz means something): each runs
    through the same checks and ends as a problem report."""
    for source in ("'x' * 10**5 * 10**5", "range(100000)|join('y' * 1000)", "[[0] * 1000] * 100000",
                   "product(range(100000), range(1000))", "range(99999)|select('in', range(99999)|list)|list",
                   "game_root", "cycler(1, 2)"):
        expression_case(hidden_root, source)
    svg_case(tmp_path, ('<svg xmlns="http://www.w3.org/2000/svg">' + "<g>" * 200 + "</g>" * 200 + "</svg>").encode())
    shutil.rmtree(tmp_path, ignore_errors=True)
