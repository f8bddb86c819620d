"""Hostile files in a game folder (issue 23): SVGs, workbooks, CSV files, pictures, FIFOs and long paths
that crashed, hung or passed silently are refused quickly, with their file and line, exit status 2;
and decks of 20,000 cards, in YAML, CSV and xlsx, are not refused for their size."""

import base64
import io
import os
import shutil
import struct
import time
import zipfile
import zlib

import pytest
from click.testing import CliRunner
from PIL import Image

from pnp.commands.cli import main
from pnp.errors import DataError
from pnp.loading.svg import MAX_DEPTH, MAX_ELEMENTS, check_svg_bytes
from pnp.loading.tables import load_table
from pnp.loading.yamlsrc import Limits, parse_yaml

HEAD = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" '
        'height="10" viewBox="0 0 10 10">')


def run(*args):
    return CliRunner().invoke(main, list(args))



def png_bytes(width=4, height=4, mode="RGB") -> bytes:
    buf = io.BytesIO()
    Image.new(mode, (width, height), "red").save(buf, "PNG")
    return buf.getvalue()


def huge_png(width=20000, height=20000) -> bytes:
    """A small PNG file whose header claims ``width`` x ``height`` pixels (a decompression bomb's
    shape, without making the memory it would take)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = zlib.compress(b"\0" * (width + 1) * 16)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", raw) + chunk(b"IEND", b""))


def embedded(data: bytes, kind="png") -> str:
    return f'{HEAD}<image width="5" height="5" href="data:image/{kind};base64,{base64.b64encode(data).decode()}"/></svg>'


# ----------------------------------------------------------------------------- SVG

SVGS = [
    ("utf-16 DOCTYPE", ('<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE svg [<!ENTITY a "b">]>' + HEAD +
                        '<text>&a;</text></svg>').encode("utf-16"),
     1, "declares a DOCTYPE or entities; pnp reads plain SVG only"),
    ("billion laughs", ('<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">' +
                        "".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(8)) +
                        ']>' + HEAD + '<text>&i;</text></svg>').encode(),
     None, "declares a DOCTYPE or entities; pnp reads plain SVG only"),
    ("processing instruction", ('<?xml-stylesheet href="http://example.invalid/a.css"?>\n' + HEAD +
                                '<rect width="1" height="1"/></svg>').encode(),
     1, "has a processing instruction (<?...?>); pnp reads plain SVG only"),
    ("use fan-out", (HEAD + '<defs><g id="a0"><rect width="1" height="1"/></g>' +
                     "".join(f'<g id="a{i}">' + f'<use href="#a{i - 1}"/>' * 10 + "</g>" for i in range(1, 10)) +
                     '</defs>\n<use href="#a9"/></svg>').encode(),
     1, f"draws more than {MAX_ELEMENTS:,} elements once its <use> references are expanded"),
    ("200 nested groups", (HEAD + "\n" + "<g>" * 200 + '<rect width="1" height="1"/>' + "</g>" * 200 + "</svg>").encode(),
     2, f"nests elements more than {MAX_DEPTH} deep"),
    ("a use chain", (HEAD + '<g id="g0"><rect width="1" height="1"/></g>\n' +
                     "".join(f'<g id="g{i}"><use href="#g{i - 1}"/></g>' for i in range(1, 80)) + "</svg>").encode(),
     2, f"nests elements more than {MAX_DEPTH} deep once its <use> references are followed"),
    ("a use loop", (HEAD + '\n<g id="a"><use href="#a"/></g></svg>').encode(),
     2, "a <use> refers to itself or to an element that contains it"),
    ("url() in an attribute", (HEAD + '\n<rect fill="url(http://example.invalid/x#g)" width="1" height="1"/></svg>').encode(),
     2, "<rect> fill refers to 'http://example.invalid/x#g' through url(...); an SVG may refer only to its own "
        "parts (url(#id))"),
    ("url() in a style attribute", (HEAD + '\n<rect style="fill:url(\'file:///etc/passwd\')" width="1" height="1"/></svg>').encode(),
     2, "<rect> style refers to 'file:///etc/passwd' through url(...)"),
    ("url() in a style", (HEAD + '\n<style>rect { fill: url(other.svg#g) }</style></svg>').encode(),
     2, "a style refers to 'other.svg#g' through url(...)"),
    ("@import", (HEAD + '\n<style>@import "other.css";</style></svg>').encode(),
     2, "a style imports another file (@import); pnp refuses it"),
    ("an embedded 400-megapixel PNG", embedded(huge_png()).encode(),
     1, "<image> embeds a picture that has more than 89 megapixels; pnp reads pictures of at most that"),
    ("an embedded truncated PNG", embedded(png_bytes(64, 64)[:-40]).encode(),
     1, "<image> embeds a picture that is not a whole PNG or JPEG image"),
    ("an embedded GIF called PNG", embedded(base64.b64decode(
        "R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==")).encode(),
     1, "<image> embeds a picture that is a GIF image, not PNG or JPEG"),
]


@pytest.mark.parametrize("name, data, line, message", SVGS, ids=[c[0] for c in SVGS])
def test_hostile_svgs_are_refused_quickly(name, data, line, message):
    started = time.perf_counter()
    info = check_svg_bytes(data)
    assert time.perf_counter() - started < 2
    assert info.problems, name
    got_line, got = info.problems[0]
    assert message in got
    if line is not None:
        assert got_line == line


def test_svgs_that_stay_inside_themselves_are_fine():
    gradient = (HEAD + '<defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs>'
                '<rect style="fill:url(#g)" width="1" height="1"/><rect fill="url( \'#g\' )" width="1" height="1"/>'
                '<use href="#g"/></svg>')
    assert check_svg_bytes(gradient.encode()).problems == ()
    assert check_svg_bytes(embedded(png_bytes()).encode()).problems == ()
    assert check_svg_bytes((HEAD + "<g>" * (MAX_DEPTH - 2) + "</g>" * (MAX_DEPTH - 2) + "</svg>").encode()).problems == ()


@pytest.mark.parametrize("case", ["utf-16 DOCTYPE", "use fan-out", "200 nested groups", "url() in a style attribute",
                                  "an embedded 400-megapixel PNG", "an embedded truncated PNG"])
def test_a_hostile_svg_as_card_art_fails_validate_at_its_line(starfall, case):
    name, data, line, message = next(c for c in SVGS if c[0] == case)
    art = starfall / "art" / "moon.svg"
    art.write_bytes(data)
    started = time.perf_counter()
    result = run("validate", str(starfall))
    assert time.perf_counter() - started < 30
    assert result.exit_code == 2, result.output
    assert f"{art}:{line}: card 'pale-moon': art: {message}" in result.output
    assert "Traceback" not in result.output


def test_an_svg_with_an_embedded_png_builds(starfall, tmp_path):
    (starfall / "art" / "moon.svg").write_text(embedded(png_bytes(32, 32)))
    (starfall / "icons" / "comet.svg").write_text(embedded(png_bytes(32, 32)))
    result = run("build", str(starfall), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output


# ----------------------------------------------------------------------------- pictures

def animated_gif() -> bytes:
    buf = io.BytesIO()
    frames = [Image.new("P", (8, 8), i) for i in range(2)]
    frames[0].save(buf, "GIF", save_all=True, append_images=frames[1:])
    return buf.getvalue()


@pytest.mark.parametrize("data, message", [
    (png_bytes(64, 64)[:-60], "is not a whole PNG or JPEG image"),
    (huge_png(), "has more than 89 megapixels; pnp reads pictures of at most that"),
    (huge_png(9000, 10500), "has more than 89 megapixels; pnp reads pictures of at most that"),
    (animated_gif(), "is a GIF image, not PNG or JPEG"),
    (b"not a picture at all", "is not a readable PNG or JPEG image"),
], ids=["truncated", "400 megapixels", "94 megapixels", "animated GIF named .png", "text named .png"])
def test_bad_card_art_is_refused_by_validate(starfall, data, message):
    (starfall / "art" / "nebula.png").write_bytes(data)
    started = time.perf_counter()
    result = run("validate", str(starfall))
    assert time.perf_counter() - started < 30
    assert result.exit_code == 2, result.output
    stars = starfall / "stars.yaml"
    assert f"{stars}:3: card 'lantern': art: 'art/nebula.png' {message}" in result.output


def test_a_back_picture_is_checked_too(starfall):
    (starfall / "art" / "back-bright.png").write_bytes(animated_gif())
    result = run("validate", str(starfall))
    assert result.exit_code == 2, result.output
    game = starfall / "game.yaml"
    line = next(i for i, text in enumerate(game.read_text().splitlines(), 1) if "back-bright.png" in text)
    assert f"{game}:{line}: deck 'stars': back: 'art/back-bright.png' is a GIF image, not PNG or JPEG" \
        in result.output


def test_an_apng_is_refused_as_animated(starfall):
    buf = io.BytesIO()
    frames = [Image.new("RGB", (8, 8), c) for c in ("red", "blue")]
    frames[0].save(buf, "PNG", save_all=True, append_images=frames[1:])
    (starfall / "art" / "nebula.png").write_bytes(buf.getvalue())
    result = run("validate", str(starfall))
    assert result.exit_code == 2
    assert "art: 'art/nebula.png' is an animated picture; pnp prints still PNG or JPEG pictures" in result.output


# ----------------------------------------------------------------------------- FIFOs and long paths

@pytest.mark.parametrize("name, message", [
    ("omens.csv", "omens.csv: is a FIFO, not a regular file; pnp reads only regular files"),
    ("stars.yaml", "stars.yaml: is a FIFO, not a regular file; pnp reads only regular files"),
    ("box.yaml", "box.yaml: is a FIFO, not a regular file; pnp reads only regular files"),
    ("icons/ember.svg", "icons/ember.svg: icon 'ember': is a FIFO, not a regular file; pnp reads only regular files"),
    ("art/nebula.png", "card 'lantern': art: no file 'art/nebula.png' in the game folder"),
])
def test_a_fifo_named_like_a_data_file_does_not_hang_validate(starfall, name, message):
    target = starfall / name
    target.unlink()
    os.mkfifo(target)
    started = time.perf_counter()
    result = run("validate", str(starfall))
    assert time.perf_counter() - started < 30
    assert result.exit_code == 2, result.output
    assert message in result.output


def test_a_5000_character_art_path_is_a_validation_error(starfall):
    stars = starfall / "stars.yaml"
    stars.write_text(stars.read_text().replace("art: art/moon.svg", "art: " + "a/" * 2500 + "x.png", 1))
    result = run("validate", str(starfall))
    assert result.exit_code == 2, result.output
    assert "card 'pale-moon': art: 'a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/\u2026' is longer than 1024 characters" \
        in result.output


def test_a_file_name_longer_than_the_file_system_allows_is_a_validation_error(starfall):
    stars = starfall / "stars.yaml"
    stars.write_text(stars.read_text().replace("art: art/moon.svg", "art: art/" + "m" * 300 + ".svg", 1))
    result = run("validate", str(starfall))
    assert result.exit_code == 2, result.output
    assert "has a folder or file name longer than 255 bytes" in result.output


@pytest.mark.parametrize("value, messages", [
    ("{two: 5}", ["deck.max_copies_by_players: 'two' is not a player count"]),
    ("{2: {a: 1}}", ["deck.max_copies_by_players.2: expected an integer, got a mapping"]),
    ("{two: 5, 3: [1]}", ["deck.max_copies_by_players.3: expected an integer, got a list",
                          "deck.max_copies_by_players: 'two' is not a player count"]),
])
def test_a_mapping_where_a_count_is_expected_is_reported_at_its_line(tmp_path, value, messages):
    """A mapping or list where max_copies_by_players wants a player count and a count: the problems at
    game.yaml's line, exit 2 (the summary line counted the cards with it and crashed, exit 70)."""
    from pnp import DATA_DIR

    game = tmp_path / "behind_the_throne"
    shutil.copytree(DATA_DIR / "behind_the_throne", game)
    text = (game / "game.yaml").read_text()
    assert "  max_copies_by_players: {2: 5, 3: 7}\n" in text
    (game / "game.yaml").write_text(text.replace("{2: 5, 3: 7}", value, 1))
    line = text[:text.index("max_copies_by_players: {")].count("\n") + 1
    for command in ("validate", "build"):
        result = run(command, str(game), *(["--out", str(tmp_path / "kit")] if command == "build" else []))
        assert result.exit_code == 2, result.output
        assert [f"{game / 'game.yaml'}:{line}: {m}" for m in messages] == \
            [x for x in result.output.splitlines() if ":" in x and "max_copies" in x]
    assert not (tmp_path / "kit").exists()


# ----------------------------------------------------------------------------- CSV

def test_a_nul_in_a_csv_cell_is_refused(starfall):
    omens = starfall / "omens.csv"
    omens.write_text(omens.read_text().replace("Eclipse", "Ecl\0ipse"))
    result = run("validate", str(starfall))
    assert result.exit_code == 2
    assert f"{omens}:2: contains a NUL character, which a CSV cell cannot hold" in result.output


def test_a_cell_in_column_201_is_refused_not_dropped(starfall):
    omens = starfall / "omens.csv"
    omens.write_text("id,name,copies,turns\neclipse,Eclipse,2,3\ncomet-tail,Comet Tail,1,1" + "," * (201 - 4)
                     + "surprise\n")
    result = run("validate", str(starfall))
    assert result.exit_code == 2
    assert f"{omens}:3:201: more than 200 columns; pnp reads at most that" in result.output


def test_a_header_of_400k_columns_is_refused_in_a_moment(tmp_path):
    path = tmp_path / "wide.csv"
    path.write_text(",".join(f"c{i}" for i in range(400_000)) + "\n")
    started = time.perf_counter()
    with pytest.raises(DataError) as info:
        load_table(path)
    assert time.perf_counter() - started < 5
    assert str(info.value.problems[0]) == f"{path}:1:201: more than 200 columns; pnp reads at most that"


def test_duplicate_headers_are_found_in_linear_time(tmp_path):
    path = tmp_path / "dup.csv"
    path.write_text(",".join(f"c{i}" for i in range(199)) + ",c7\n" + ",".join("1" * 200) + "\n")
    with pytest.raises(DataError) as info:
        load_table(path)
    assert str(info.value.problems[0]) == f"{path}:1:200: column 'c7' appears twice"


# ----------------------------------------------------------------------------- xlsx

def workbook(rows, tamper=None) -> bytes:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    for row in rows:
        sheet.append(row)
    buf = io.BytesIO()
    book.save(buf)
    if tamper is None:
        return buf.getvalue()
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        names = src.namelist()
        for name in names:
            dst.writestr(name, tamper(name, src.read(name)))
        if "xl/sharedStrings.xml" not in names and tamper("xl/sharedStrings.xml", None) is not None:
            dst.writestr("xl/sharedStrings.xml", tamper("xl/sharedStrings.xml", None))
    return out.getvalue()


XXE = (b'<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
       b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>&x;</t></si></sst>')
LAUGHS = (b'<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY a "aaaaaaaaaa">' +
          b"".join(b'<!ENTITY ' + bytes([98 + i]) + b' "' + (b"&" + bytes([97 + i]) + b";") * 10 + b'">' for i in range(8)) +
          b']><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>&i;</t></si></sst>')


@pytest.mark.parametrize("part, data", [("xl/sharedStrings.xml", XXE), ("xl/sharedStrings.xml", LAUGHS),
                                        ("xl/worksheets/sheet1.xml", XXE.replace(b"sst", b"worksheet"))],
                         ids=["XXE sharedStrings", "billion laughs sharedStrings", "entity in a sheet"])
def test_xlsx_with_entities_is_refused(tmp_path, part, data):
    path = tmp_path / "cards.xlsx"
    path.write_bytes(workbook([["id", "name"], ["a", "A"]], lambda name, old: data if name == part else old))
    started = time.perf_counter()
    with pytest.raises(DataError) as info:
        load_table(path)
    assert time.perf_counter() - started < 5
    assert str(info.value.problems[0]) == (f"{path}: the workbook's part '{part}' declares a DOCTYPE or entities; "
                                           f"pnp reads plain workbooks only")


def test_an_xlsx_part_packed_like_a_zip_bomb_is_refused(tmp_path):
    path = tmp_path / "cards.xlsx"
    path.write_bytes(workbook([["id", "name"], ["a", "A"]],
                              lambda name, old: (old or b"") + b" " * 30_000_000 if name == "xl/styles.xml" else old))
    with pytest.raises(DataError) as info:
        load_table(path)
    assert "the workbook's part 'xl/styles.xml' unpacks to 30 MB from 0.0 MB; pnp refuses it (a zip bomb?)" \
        in str(info.value.problems[0])


def test_an_xlsx_cell_in_column_201_is_refused_not_dropped(tmp_path):
    path = tmp_path / "cards.xlsx"
    path.write_bytes(workbook([["id", "name"], ["a", "A"] + [None] * 198 + ["dropped?"]]))
    with pytest.raises(DataError) as info:
        load_table(path)
    assert str(info.value.problems[0]) == f"{path}:2:201: more than 200 columns; pnp reads at most that"


def test_an_xlsx_deck_with_entities_fails_validate_with_exit_2(starfall):
    omens = starfall / "omens.csv"
    rows = [line.split(",") for line in omens.read_text().splitlines()]
    (starfall / "omens.xlsx").write_bytes(workbook(rows, lambda name, old: LAUGHS if name == "xl/sharedStrings.xml" else old))
    game = starfall / "game.yaml"
    game.write_text(game.read_text().replace("cards: omens.csv", "cards: omens.xlsx"))
    result = run("validate", str(starfall))
    assert result.exit_code == 2, result.output
    assert (f"{starfall / 'omens.xlsx'}: the workbook's part 'xl/sharedStrings.xml' declares a DOCTYPE or entities"
            in result.output)


# ----------------------------------------------------------------------------- scale

def test_the_yaml_value_limit_counts_each_value_once():
    text = "[[1, 2], [3, 4]]\n"              # 7 values: the outer list, two lists, four numbers
    assert parse_yaml(text, "x.yaml", Limits(max_values=7)) == [[1, 2], [3, 4]]
    with pytest.raises(DataError, match="holds more than 6 values"):
        parse_yaml(text, "x.yaml", Limits(max_values=6))
    aliased = "a: &a [1, 2, 3]\nb: [*a, *a]\n"  # mapping, 2 keys, a (4), b (1 + 2 x 4)
    assert parse_yaml(aliased, "x.yaml", Limits(max_values=1 + 2 + 4 + 9))["b"] == [[1, 2, 3], [1, 2, 3]]
    with pytest.raises(DataError):
        parse_yaml(aliased, "x.yaml", Limits(max_values=1 + 2 + 4 + 8))


CARDS = 20_000


def yaml_deck(n: int) -> str:
    return "cards:\n" + "".join(f"  - id: omen-{i}\n    name: Omen {i}\n    copies: 1\n    turns: {i % 6 + 1}\n"
                                f"    flavour: A sign number {i}.\n" for i in range(n))


def csv_deck(n: int) -> str:
    return "id,name,copies,turns,flavour\n" + "".join(f"omen-{i},Omen {i},1,{i % 6 + 1},A sign number {i}.\n"
                                                      for i in range(n))


def test_20000_cards_load_from_yaml_csv_and_xlsx(tmp_path):
    data = parse_yaml(yaml_deck(CARDS), "omens.yaml")
    assert len(data["cards"]) == CARDS and data["cards"][-1]["id"] == f"omen-{CARDS - 1}"
    (tmp_path / "omens.csv").write_text(csv_deck(CARDS))
    assert len(load_table(tmp_path / "omens.csv")) == CARDS
    rows = [line.split(",") for line in csv_deck(CARDS).splitlines()]
    (tmp_path / "omens.xlsx").write_bytes(workbook(rows))
    table = load_table(tmp_path / "omens.xlsx")
    assert len(table) == CARDS and table[-1]["id"] == f"omen-{CARDS - 1}"


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["yaml", "csv", "xlsx"])
def test_a_20000_card_deck_validates(starfall, kind):
    game = starfall / "game.yaml"
    text = game.read_text().replace("\n  - box\n", "\n")       # 20,000 cards fit no tuck box
    if kind == "yaml":
        (starfall / "omens.yaml").write_text(yaml_deck(CARDS))
    elif kind == "csv":
        (starfall / "omens.csv").write_text(csv_deck(CARDS))
    else:
        rows = [line.split(",") for line in csv_deck(CARDS).splitlines()]
        (starfall / "omens.xlsx").write_bytes(workbook(rows))
    game.write_text(text.replace("cards: omens.csv", f"cards: omens.{kind}"))
    result = run("validate", str(starfall))
    assert result.exit_code == 0, result.output[-2000:]
    assert f"{CARDS + 7} cards" in result.output


def test_a_data_file_that_is_a_link_loop_is_a_validation_error(starfall):
    """It was an internal error (exit 70): resolving the path to print it raised on the loop."""
    stars = starfall / "stars.yaml"
    stars.unlink()
    stars.symlink_to(stars.name)
    result = run("validate", str(starfall))
    assert result.exit_code == 2, result.output
    assert f"{stars}: cannot be read (Too many levels of symbolic links)" in result.output
