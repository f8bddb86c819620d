"""game.yaml's ``data:``: plain YAML and CSV files that boards, dice, standees, card layouts and templates
read as ``data.<name>``, in a game without a rules engine (Starfall); every mistake is an error at its file
and line with the closest name, and exit status 2."""

import pickle
import shutil
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.components.board import pieces
from pnp.components.dice import dice_faces
from pnp.components.standee import piece_list
from pnp.loading.datafiles import DataMap, MissingKey
from pnp.errors import DataError
from pnp.loading.gamedata import load_game
from pnp.layout.geometry import flatten

STARFALL = Path(__file__).parent / "games" / "starfall"

CREW = "name,colour,seats,note,bonus\nTide,#2d5a9b,3,,1.5\nEmber,#c0602a,4,\"first, then last\",true\n"
BOARDS = textwrap.dedent("""\
    - {name: North, colour: "#4f8a3a", sides: 6}
    - {name: South, colour: "#2d5a9b", sides: 4}
    """)
SETUP = "dice: {count: 2, faces: [1, 2, 3, 4, 5, 6]}\n"
BOARD_LAYOUT = textwrap.dedent("""\
    size: [120, 80]
    regions:
      - {name: ground, kind: box, rect: [0, 0, 120, 80], fill: "item.colour"}
      - {name: label, kind: text, rect: [10, 40, 100, 20], text: "item.name ~ ' ' ~ item.seats",
         style: {font: sans-bold, size: 14}}
    """)
FACE_LAYOUT = textwrap.dedent("""\
    size: [20, 20]
    regions:
      - {name: bg, kind: box, rect: [0, 0, 20, 20], fill: "item.colour"}
      - {name: n, kind: text, rect: [2, 5, 16, 10], text: "face", style: {font: sans-bold, size: 12}}
    """)
COMPONENTS = textwrap.dedent("""\
    - {kind: board, id: crew_boards, layout: crewboard, each: data.crew, name: item.name}
    - {kind: dice, id: dice, face: crewface, each: data.boards, count: data.setup.dice.count,
       faces: data.setup.dice.faces}
    - kind: standee
      id: crew
      width: 30
      height: 45
      each: data.crew
      piece: {id: "'crew_' ~ index", background: item.colour, label: item.name}
    """)


def write(root: Path, data: str = "data: [crew.csv, boards.yaml, setup.yaml]\n", components: str = COMPONENTS):
    (root / "crew.csv").write_text(CREW)
    (root / "boards.yaml").write_text(BOARDS)
    (root / "setup.yaml").write_text(SETUP)
    (root / "templates" / "layouts" / "crewboard.yaml").write_text(BOARD_LAYOUT)
    (root / "templates" / "layouts" / "crewface.yaml").write_text(FACE_LAYOUT)
    text = (root / "game.yaml").read_text()
    text = text.replace("components:\n", data + "\ncomponents:\n" + textwrap.indent(components, "  "), 1)
    (root / "game.yaml").write_text(text)
    return root


@pytest.fixture
def folder(tmp_path):
    root = tmp_path / "starfall"
    shutil.copytree(STARFALL, root)
    return root


@pytest.fixture
def game(folder):
    return load_game(write(folder))


def spec(game, name):
    return next(s for s in game.component_specs if s.id == name)


def line_of(path: Path, needle: str) -> int:
    return next(i for i, text in enumerate(path.read_text().splitlines(), 1) if needle in text)


def test_the_game_has_no_engine_and_reads_its_data_files(game):
    assert game.engine is None
    assert list(game.data) == ["crew", "boards", "setup"]
    crew = game.data["crew"]
    # a table: one mapping per row, every column on every row, cells typed as they read (a comma stays text)
    assert crew == [{"name": "Tide", "colour": "#2d5a9b", "seats": 3, "note": "", "bonus": 1.5},
                    {"name": "Ember", "colour": "#c0602a", "seats": 4, "note": "first, then last", "bonus": True}]
    assert game.data["boards"][1] == {"name": "South", "colour": "#2d5a9b", "sides": 4}
    assert game.data["setup"]["dice"]["faces"] == [1, 2, 3, 4, 5, 6]
    assert all(isinstance(row, DataMap) for row in crew) and isinstance(game.data, DataMap)


def test_a_board_repeats_over_a_data_table(game):
    made = pieces(game, spec(game, "crew_boards"))
    assert [p.name for p in made] == ["Tide", "Ember"]
    assert [p.size for p in made] == [(120, 80), (120, 80)]
    labels = [[e.markup for e in flatten(p.front) if e.role == "label"] for p in made]
    assert labels == [["Tide 3"], ["Ember 4"]]
    grounds = [[e.fill for e in flatten(p.front) if e.role == "ground"] for p in made]
    assert grounds == [["#2d5a9b"], ["#c0602a"]]


def test_dice_and_standees_read_data_too(game):
    dice, layout = dice_faces(game, spec(game, "dice"))
    assert len(dice) == 2 * 2                                   # two kinds of die (boards.yaml), two of each
    item, faces = dice[0]                                       # faces: each face's evaluated regions
    assert item == {"name": "North", "colour": "#4f8a3a", "sides": 6}
    assert [[r["text"] for r in face if r["name"] == "n"] for face in faces] == [[1], [2], [3], [4], [5], [6]]
    assert {r["fill"] for face in faces for r in face if r["name"] == "bg"} == {"#4f8a3a"}
    standees = piece_list(game, spec(game, "crew"))
    assert [(p["id"], p["front"]["label"], p["front"]["background"]) for p in standees] == \
        [("crew_0", "Tide", "#2d5a9b"), ("crew_1", "Ember", "#c0602a")]


def test_templates_and_card_layouts_see_data(folder, tmp_path):
    write(folder)
    chapter = folder / "templates" / "rulebook" / "en" / "rules.md.j2"
    chapter.write_text(chapter.read_text() + "\n## Crews\n{% for c in data.crew %}\n- **{{ c.name }}**: "
                       "{{ c.seats }} seats\n{% endfor %}\n")
    layout = folder / "templates" / "layouts" / "starfall.yaml"
    layout.write_text(layout.read_text().replace("regions:\n", "regions:\n  - {name: crewname, kind: text, "
                                                 "rect: [8, 4, 40, 5], text: \"data.crew[0].name\", "
                                                 "style: {font: sans, size: 7}}\n", 1))
    game = load_game(folder)
    from pnp.components.cards import face_content, layout_of
    from pnp.loading.cardlayout import card_face
    card = game.deck("stars").cards[0]
    deck = game.deck("stars")
    face = card_face(face_content(game, card), deck.width, deck.height, 0.0, layout_of(deck, card))
    assert [e.markup for e in flatten(face) if e.role == "crewname"] == ["Tide"]
    result = CliRunner().invoke(main, ["build", str(folder), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    import pypdfium2 as pdfium
    pdf = pdfium.PdfDocument(str(tmp_path / "out" / "rulebook.pdf"))
    text = "".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    assert "Tide: 3 seats" in text and "Ember: 4 seats" in text


def test_a_game_with_data_goes_to_build_workers_intact(game):
    copy = pickle.loads(pickle.dumps(game.data))
    assert copy == game.data and isinstance(copy["crew"][0], DataMap)
    with pytest.raises(MissingKey, match="a row of data.crew \\(crew.csv:2\\) has no 'seatz'"):
        copy["crew"][0]["seatz"]


def run_validate(folder):
    return CliRunner().invoke(main, ["validate", str(folder)])


def test_an_unknown_data_name_is_an_error_with_the_closest(folder):
    write(folder, components=COMPONENTS.replace("each: data.crew, name", "each: data.crow, name"))
    result = run_validate(folder)
    line = line_of(folder / "game.yaml", "crew_boards")
    assert result.exit_code == 2
    assert (f"game.yaml:{line}: board 'crew_boards': data has no 'crow'; did you mean 'crew'? (game.yaml's data "
            "lists: crew, boards, setup)") in result.output


def test_an_unknown_key_of_a_row_names_the_row_and_the_closest_key(folder):
    write(folder)
    layout = folder / "templates" / "layouts" / "crewboard.yaml"
    layout.write_text(layout.read_text().replace("item.seats", "item.seatz"))
    result = run_validate(folder)
    assert result.exit_code == 2
    # at the layout's line, where the mistake is (it was at the board's entry in game.yaml: issue 32)
    assert ("crewboard.yaml:4: layout 'crewboard', region 'label': text: a row of data.crew (crew.csv:2) has no "
            "'seatz'; did you mean 'seats'? (it has: name, colour, seats, note, bonus) (board 'crew_boards')"
            ) in result.output


def test_an_unknown_key_of_a_yaml_entry_names_its_line(folder):
    write(folder, components=COMPONENTS.replace("count: data.setup.dice.count", "count: data.setup.dice.cuont"))
    result = run_validate(folder)
    assert result.exit_code == 2
    assert ("data.setup.dice (setup.yaml:1) has no 'cuont'; did you mean 'count'? (it has: count, faces)"
            in result.output)


def test_a_template_naming_a_missing_key_gets_the_template_line(folder):
    write(folder)
    chapter = folder / "templates" / "rulebook" / "en" / "rules.md.j2"
    chapter.write_text(chapter.read_text() + "\n{% for c in data.boards %}\n{{ c.nmae }}\n{% endfor %}\n")
    result = run_validate(folder)
    line = line_of(chapter, "c.nmae")
    assert result.exit_code == 2
    assert (f"rules.md.j2:{line}: chapter 'rules': undefined value: an entry of data.boards (boards.yaml:1) has "
            "no 'nmae'; did you mean 'name'? (it has: name, colour, sides)") in result.output


@pytest.mark.parametrize("data, files, message", [
    ("data: [../outside.yaml]", {}, "1st data file: '../outside.yaml' leaves the game folder ('..'); give a path inside it"),
    ("data: [/etc/passwd]", {}, "1st data file: '/etc/passwd' is an absolute path; give a path inside the game folder"),
    ("data: [crew.json]", {"crew.json": "{}"}, "1st data file: 'crew.json' is not a .yaml, .csv or .xlsx file"),
    ("data: [missing.yaml]", {}, "1st data file: no file 'missing.yaml' in the game folder"),
    ("data: [crew.csv, tables/crew.yaml]", {"tables/crew.yaml": "[]"},
     "2nd data file: 'tables/crew.yaml' gives the name 'crew', as 'crew.csv' does; rename one"),
    ("data: [player-boards.yaml]", {"player-boards.yaml": "[]"},
     "1st data file: 'player-boards.yaml': its name 'player-boards' is not a name an expression can write after 'data.'"),
    ("data: [items.yaml]", {"items.yaml": "[]"},
     "1st data file: 'items.yaml': its name 'items' is also the name of a method of every mapping; rename the file"),
])
def test_bad_data_entries_are_reported_at_game_yaml(folder, data, files, message):
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    write(folder, data=data + "\n", components="")
    result = run_validate(folder)
    assert result.exit_code == 2
    assert f"game.yaml:{line_of(folder / 'game.yaml', data)}: {message}" in result.output


def test_bad_data_files_are_reported_at_their_own_line(folder):
    write(folder, components="")
    (folder / "boards.yaml").write_text("- {name: North\n")
    (folder / "setup.yaml").write_text("just words\n")
    (folder / "crew.csv").write_text("name,seats\nTide,3,9\n")
    result = run_validate(folder)
    assert result.exit_code == 2
    out = result.output
    assert "boards.yaml:2: malformed YAML, column 1: did not find expected ',' or '}'" in out
    assert "setup.yaml:1: expected a mapping or a list, got 'just words'" in out
    assert "crew.csv:2:3: a cell right of the last named column; give its column a header" in out
    assert "Traceback" not in out


def test_facts_without_an_engine_points_to_data(folder):
    text = (folder / "game.yaml").read_text().replace("components:\n", "facts: [boards.yaml]\n\ncomponents:\n", 1)
    (folder / "game.yaml").write_text(text)
    (folder / "boards.yaml").write_text(BOARDS)
    result = run_validate(folder)
    assert result.exit_code == 2
    assert (f"game.yaml:{line_of(folder / 'game.yaml', 'facts:')}: facts: the game has no rules engine to read "
            "facts files; list plain data files under 'data' instead") in result.output


def test_a_data_file_with_too_many_rows_is_refused(folder):
    write(folder, components="")
    from pnp.loading.tables import MAX_ROWS

    (folder / "crew.csv").write_text("name\n" + "x\n" * (MAX_ROWS + 2))
    with pytest.raises(DataError, match=f"more than {MAX_ROWS} rows"):
        load_game(folder)


def test_a_workbook_is_a_table_too(folder):
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    for row in (["name", "seats", "note"], ["Tide", 3, None], ["Ember", 4.0, "first, then last"]):
        sheet.append(row)
    book.save(folder / "crew.xlsx")
    write(folder, data="data: [crew.xlsx]\n", components="")
    game = load_game(folder)
    assert game.data["crew"] == [{"name": "Tide", "seats": 3, "note": ""},
                                 {"name": "Ember", "seats": 4, "note": "first, then last"}]
    with pytest.raises(MissingKey, match=r"a row of data.crew \(crew.xlsx:3\) has no 'seat'; did you mean 'seats'"):
        game.data["crew"][1]["seat"]
