"""SVG files cost bounded time and draw with sane numbers (issue 33): an icon of 2 MB with many
elements or one endless path is refused at its file and line in a moment (it took 25 s to validate and
over 40 s to build); a size that is NaN, negative, zero or endless, and numbers that are not finite or
too large to write into a PDF, are errors at the icon's file, never a silent picture or exit 70."""

import time

import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.loading.svg import MAX_ELEMENTS, MAX_PATH_NUMBERS, check_svg_bytes

OPEN = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24">\n'


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def many_elements(count: int) -> str:
    return OPEN + "".join(f'<path d="M{5 + i % 10} {5 + i % 9} L{5 + i * 7 % 10} {5 + i * 3 % 10} Z" fill="#f7d070"/>\n'
                          for i in range(count)) + "</svg>\n"


def long_path(numbers: int) -> str:
    points = " ".join(f"L{5 + k * 7 % 10}.{k % 10} {5 + k * 3 % 10}.{k % 7}" for k in range(numbers // 2))
    return OPEN + f'<path d="M5 5 {points} Z"/>\n</svg>\n'


def problems(text: str) -> tuple:
    started = time.process_time()          # CPU time: a loaded machine's waits do not count
    found = check_svg_bytes(text.encode()).problems
    assert time.process_time() - started < 5
    return found


def test_an_svg_drawing_too_many_elements_is_refused_at_the_first_one_past_the_limit():
    assert problems(many_elements(MAX_ELEMENTS - 1)) == ()           # the <svg> itself is one element
    assert problems(many_elements(MAX_ELEMENTS)) == ((MAX_ELEMENTS + 1, f"draws more than {MAX_ELEMENTS:,} elements"),)
    assert problems(many_elements(49_000)) == ((MAX_ELEMENTS + 1, f"draws more than {MAX_ELEMENTS:,} elements"),)


def test_path_data_is_limited_in_numbers_also_through_use():
    assert problems(long_path(MAX_PATH_NUMBERS - 2)) == ()
    assert problems(long_path(MAX_PATH_NUMBERS + 2)) == (
        (2, f"<path> has more than {MAX_PATH_NUMBERS:,} numbers in its path data"),)
    # 30,000 numbers drawn 10 times: each drawing counts
    used = (OPEN + '<defs>' + long_path(30_000).split("\n")[1].replace("<path ", '<path id="p" ') + '</defs>\n' +
            '<g>' + '<use href="#p"/>' * 10 + '</g>\n</svg>')
    assert problems(used) == ((3, f"draws more than {MAX_PATH_NUMBERS:,} numbers of path data once its <use> "
                                  f"references are expanded"),)


SIZE = ("is not a size pnp can draw: give a number from 0.001 to 1,000,000, with or without a unit (px, pt, pc, "
        "mm, cm, in, em, ex, %)")
BOX = "is not a box pnp can draw: give four numbers, x y width height, the width and height from 0.001 to 1,000,000"


@pytest.mark.parametrize("attributes, message", [
    ('width="nan" height="24"', f"<svg> width: 'nan' {SIZE}"),
    ('width="24" height="-24"', f"<svg> height: '-24' {SIZE}"),
    ('width="0" height="24"', f"<svg> width: '0' {SIZE}"),
    ('width="1e400" height="24"', f"<svg> width: '1e400' {SIZE}"),
    ('width="inf" height="24"', f"<svg> width: 'inf' {SIZE}"),
    ('width="24 px wide" height="24"', f"<svg> width: '24 px wide' {SIZE}"),
    ('viewBox="0 0 NaN NaN"', f"<svg> viewBox: '0 0 NaN NaN' {BOX}"),
    ('viewBox="0 0 -24 24"', f"<svg> viewBox: '0 0 -24 24' {BOX}"),
    ('viewBox="0 0 0 0"', f"<svg> viewBox: '0 0 0 0' {BOX}"),
    ('viewBox="0 0 24"', f"<svg> viewBox: '0 0 24' {BOX}"),
    ('viewBox="1e99 0 24 24"', f"<svg> viewBox: '1e99 0 24 24' {BOX}"),
])
def test_an_svg_of_no_size_or_a_nonsense_size_is_refused(attributes, message):
    text = f'<svg xmlns="http://www.w3.org/2000/svg" {attributes}>\n<circle cx="5" cy="5" r="3"/></svg>'
    assert problems(text) == ((1, message),)


@pytest.mark.parametrize("element, message", [
    ('<circle cx="5" cy="5" r="NaN"/>', "<circle> r: 'NaN' is not a number; pnp draws with finite numbers only"),
    ('<circle cx="5" cy="5" r="1e30"/>', "<circle> r: '1e30' is too large a number to draw (at most 1,000,000,000 "
                                         "either way)"),
    ('<path d="M0 0 L1e400 0 Z"/>', "<path> d: '1e400' is too large a number to draw (at most 1,000,000,000 either "
                                    "way)"),
    ('<g transform="scale(-inf)"><circle r="3"/></g>', "<g> transform: 'inf' is not a number; pnp draws with finite "
                                                       "numbers only"),
    ('<circle r="3" style="fill: red; stroke-width: Infinity"/>',
     "<circle> style stroke-width: 'Infinity' is not a number; pnp draws with finite numbers only"),
    ('<style>circle { stroke-width: 1e30 }</style><circle r="3"/>',
     "a style stroke-width: '1e30' is too large a number to draw (at most 1,000,000,000 either way)"),
])
def test_numbers_an_svg_draws_with_are_finite_and_writable(element, message):
    assert problems(f"{OPEN}{element}\n</svg>") == ((2, message),)


def test_sizes_and_numbers_real_files_use_are_fine():
    for attributes in ('width="100%" height="100%" viewBox="0 0 24 24"', 'width="20mm" height="2.5cm"',
                       'width="auto" height="24" viewBox="0,0,24,24"', 'viewBox="-12 -12 24 24"'):
        assert problems(f'<svg xmlns="http://www.w3.org/2000/svg" {attributes}><circle r="3"/></svg>') == ()
    # what drawing programs write: tiny rounding noise, exponents, names that hold digits and "inf"
    assert problems(OPEN + '<g transform="matrix(6.123234e-17,1,-1,6.123234e-17,0,0)" id="layer1e400" '
                           'class="info"><path d="m1.5e1 2E0 .5.5-3-1z" style="stroke-width:1.2e-3;fill:#f00" '
                           'xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" inkscape:label="1e999"/>'
                           '</g></svg>') == ()


def at_icon(result, icon) -> list[str]:
    """The output's lines at the icon's file (the test game's own warnings, at its other files, come too)."""
    return [line for line in result.output.splitlines() if line.startswith(f"{icon}:")]


@pytest.fixture
def icon_game(starfall):
    return starfall, starfall / "icons" / "comet.svg"


def test_a_2_mb_icon_of_many_elements_is_refused_at_its_file_in_moments(icon_game, tmp_path):
    game, icon = icon_game
    icon.write_text(many_elements(49_000))
    assert icon.stat().st_size > 1_900_000
    for command in (["validate", game, "--no-cache"], ["build", game, "--out", tmp_path / "out", "--no-cache"]):
        started = time.perf_counter()
        result = run(*command)
        assert time.perf_counter() - started < 15, command
        assert result.exit_code == 2, result.output
        assert at_icon(result, icon)[0] == (f"{icon}:{MAX_ELEMENTS + 1}: icon 'comet': draws more than "
                                            f"{MAX_ELEMENTS:,} elements")
    assert not (tmp_path / "out").exists()


def test_an_icon_with_a_nan_size_is_an_error_at_its_file(icon_game):
    game, icon = icon_game
    icon.write_text(icon.read_text().replace('width="24"', 'width="NaN"'))
    result = run("validate", game, "--no-cache")
    assert result.exit_code == 2
    assert at_icon(result, icon)[0] == f"{icon}:1: icon 'comet': <svg> width: 'NaN' {SIZE}"


def test_an_arc_svglib_draws_past_what_a_pdf_holds_is_exit_2_naming_the_file(icon_game, tmp_path):
    # every number is within bounds, but the arc's radii (1e9 and 1e-9) make svglib's curve reach 1e26
    game, icon = icon_game
    icon.write_text(OPEN + '<path d="M1e9 1e9 A1e9 1e-9 0 0 1 -1e9 -1e9" fill="#f7d070"/>\n</svg>\n')
    result = run("build", game, "--out", tmp_path / "out", "--no-cache", "--jobs", "1")
    assert result.exit_code == 2, result.output
    first = result.output.splitlines()[0]
    assert first.startswith(f"{icon}: cannot be drawn: its shapes make a number too large to write into a PDF (")
    assert first.endswith("); keep its coordinates, radii and sizes within a sensible range")
    assert "internal error" not in result.output and not (tmp_path / "out").exists()
