"""The hex-map data format and the map validator, on the small two-bank game of tests/maps/.

Each map in tests/maps/broken/ breaks the rules in one way (its first line says how); the validator
must report exactly the problems listed here, with their lines, all in one run.
"""

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.errors import Problems
from pnp.loading.gamedata import load_game
from pnp.layout.hexgrid import HexGrid, offset_to_axial
from pnp.loading.mapcheck import regions

MAPS = Path(__file__).parent / "maps"


@pytest.fixture
def banks(tmp_path):
    """A copy of the two-bank game; ``banks(name)`` puts that map in place and returns the folder."""
    dest = tmp_path / "banks"
    shutil.copytree(MAPS, dest, ignore=shutil.ignore_patterns("broken"))

    def with_map(name=None):
        if name is not None:
            source = MAPS / "broken" / f"{name}.yaml" if (MAPS / "broken" / f"{name}.yaml").is_file() else MAPS / name
            shutil.copy(source, dest / "map.yaml")
        return dest
    return with_map


def problems_of(folder) -> list[str]:
    problems = Problems()
    load_game(folder, problems, strict=False)
    return [f"{Path(p.path).name}:{p.line}: {p.subject + ': ' if p.subject else ''}{p.message}" for p in problems]


def test_the_two_bank_map_is_valid_and_read_in_axial_coordinates(banks):
    game = load_game(banks())
    m = game.map
    assert (m.orientation, m.size, m.shape, m.columns, m.rows, m.coordinates) == ("flat", 20.0, "rectangle", 5, 5,
                                                                                  "offset")
    assert len(m.hexes) == 25 and m.sides == ("north", "south")
    # "0305" is column 3, row 5 counted from 1: offset [2, 4], axial (2, 3)
    town = next(h for h in m.holdings if h.id == "town")
    assert town.at == tuple(offset_to_axial(2, 4)) == (2, 3) and m.hex(town.at).id == "0305"
    assert (town.kind, town.side, town.name) == ("town", "south", "Town")
    assert m.bridge_sites == (tuple(offset_to_axial(2, 2)),)
    assert m.terrain(m.hex(m.bridge_sites[0]).terrain).barrier
    assert m.start_of("farmer") == (tuple(offset_to_axial(1, 4)), tuple(offset_to_axial(3, 4)))
    assert [(p.id, p.faction, p.count, p.move, p.plural) for p in game.pieces] == [
        ("guard", "north", 2, 2, "Guards"), ("farmer", "south", 2, 1, "Farmers")]
    assert [(h.id, h.faction, h.count) for h in game.holdings] == [("keep", "north", 1), ("town", "south", 1)]


def test_a_river_along_hex_edges_with_a_bridge_site_on_one_edge(banks):
    m = load_game(banks("edges.yaml")).map
    assert len(m.river_edges) == 7 and m.bridge_sites == (((1, 0), (1, 1)),)
    assert all(h.side in ("north", "south") for h in m.hexes)


BROKEN = {
    "duplicate_hex": ["map.yaml:19: 11th hex: at: the hex [3, 1] is already listed at line 17"],
    "off_grid": ["map.yaml:19: 11th hex: at: [5, 1] is off the grid: column 5, row 1 of a grid of 5 columns and 5 "
                 "rows (counted from 0)"],
    "duplicate_id": ["map.yaml:10: 2nd hex: id: 'K' is already the id of the hex at line 9"],
    "unknown_terrain": [
        "map.yaml:17: hex '0402': terrain: unknown terrain 'swamp'; terrains: plain, cave, river",
        "map.yaml:25: hex '0204': side: missing; every hex off the river belongs to a side (north, south)"],
    "holding_wrong_side": [
        "map.yaml:37: holding 'keep': stands on hex '0204', on the south side; a Keep belongs on the north side",
        "map.yaml:36: holdings: the map places 0 Keeps; the north side starts with 1"],
    "holding_on_river": [
        "map.yaml:38: holding 'town': stands on hex '0403' (river), where no holding may stand",
        "map.yaml:36: holdings: the map places 0 Towns; the south side starts with 1"],
    "holding_in_cave": [
        "map.yaml:37: holding 'keep': stands on hex '0501' (cave), where no holding may stand",
        "map.yaml:36: holdings: the map places 0 Keeps; the north side starts with 1"],
    "missing_holding": [
        "map.yaml:38: holding 'keep-2': stands on hex '0301', where the holding at line 37 already stands",
        "map.yaml:36: holdings: the map places 0 Towns; the south side starts with 1"],
    "sides_touch": [
        "map.yaml:19: hex '0103': borders hex '0104' (south) with no river between them: the north and south sides "
        "may meet only across the river, at bridge sites"],
    "side_split": [
        "map.yaml:11: the north side's half falls into 2 parts without bridges; this part is cut off from hex "
        "'0101': '0301', '0401', '0501', '0302', '0402', '0502'"],
    "island": [
        "map.yaml:8: hexes: the map falls into 2 parts even with a bridge on every site; a piece can reach only the "
        "part it starts in",
        "map.yaml:13: hex '0501': cut off from the rest of the map even with every bridge built (unreachable: '0501')",
        "map.yaml:13: the north side's half falls into 2 parts without bridges; this part is cut off from hex "
        "'0101': '0501'"],
    "bad_crossings": [
        "map.yaml:35: 1st river edge: hexes '0101' and '0104' are not neighbours, so no edge lies between them",
        "map.yaml:38: 2nd bridge site: hex '0202' is plain, not river; a bridge site crosses the river",
        "map.yaml:39: 3rd bridge site: the edge between '0201' and '0202' is not a river edge; a bridge site "
        "crosses the river"],
    "bridge_to_nowhere": [
        "map.yaml:36: 2nd bridge site: the site '0101' crosses nothing: the land beside it is on the north side only"],
    "bad_start": [
        "map.yaml:40: start.guard: 1 starting hex for 2 Guards",
        "map.yaml:41: start.farmer: 3rd hex: hex '0203' (river): a piece cannot start there",
        "map.yaml:41: start.farmer: 4th hex: hex '0101' is on the north side; Farmers start on the south side",
        "map.yaml:41: start.farmer: 5th hex: hex '0405' already holds a piece (start.farmer: 2nd hex); only a holding takes "
        "several",
        "map.yaml:41: start.farmer: 5 starting hexes for 2 Farmers"],
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_each_broken_map_is_caught_with_its_lines(banks, name):
    assert problems_of(banks(name)) == BROKEN[name]


def test_every_broken_map_has_a_case():
    assert sorted(p.stem for p in (MAPS / "broken").glob("*.yaml")) == sorted([*BROKEN, "everything"])


def test_a_map_with_many_problems_gets_them_all_at_once_from_the_command(banks):
    folder = banks("everything")
    result = CliRunner().invoke(main, ["validate", str(folder)])
    assert result.exit_code == 2 and result.exception is None or isinstance(result.exception, SystemExit)
    lines = [line.replace(str(folder) + "/", "") for line in result.output.splitlines()]
    assert lines == [
        "map.yaml:19: 11th hex: at: the hex [3, 1] is already listed at line 17",
        "map.yaml:20: 12th hex: at: [7, 7] is off the grid: column 7, row 7 of a grid of 5 columns and 5 rows "
        "(counted from 0)",
        "map.yaml:39: holding 'keep': stands on hex '0501' (cave), where no holding may stand",
        "map.yaml:41: start.guard: 2nd hex: hex '0303' (river): a piece cannot start there",
        "map.yaml:21: hex '0103': borders hex '0104' (south) with no river between them: the north and south sides "
        "may meet only across the river, at bridge sites",
        "map.yaml:38: holdings: the map places 0 Keeps; the north side starts with 1",
        "map.yaml:38: holdings: the map places 0 Towns; the south side starts with 1",
        "7 problems found; nothing was written."]


def test_each_side_needs_room_for_its_pieces(banks):
    folder = banks()
    text = (folder / "game.yaml").read_text()
    (folder / "game.yaml").write_text(text.replace("count: 2, move: 2}", "count: 10, move: 2}"))
    assert problems_of(folder) == [
        "map.yaml:41: start.guard: 2 starting hexes for 10 Guards",
        "map.yaml:9: hexes: the north side's half has room for 9 pieces outside its holdings; the north side "
        "deploys 10"]


@pytest.mark.parametrize("old, new, expected", [
    ("map: map.yaml", "map: ../elsewhere/map.yaml",
     "game.yaml:9: map: '../elsewhere/map.yaml' leaves the game folder ('..'); give a path inside it"),
    ("map: map.yaml", "map: board.yaml", "game.yaml:9: map: no file 'board.yaml' in the game folder"),
    ("map: map.yaml", "map: map.txt", "game.yaml:9: map: 'map.txt' is not a .yaml file"),
    ("faction: south, count: 2", "faction: sout, count: 2",
     "game.yaml:12: piece 'farmer': faction: unknown faction 'sout' (did you mean 'south'?); factions: north, south"),
    ("{id: farmer,", "{id: guard,", "game.yaml:12: 2nd piece: id: duplicate id 'guard' (first at line 11)"),
    ("name: Town, faction: south, count: 1", "name: Town, faction: south, count: 0",
     "game.yaml:15: holding 'town': count: 0 is below the minimum 1"),
])
def test_pieces_holdings_and_the_map_file_are_checked_in_game_yaml(banks, old, new, expected):
    folder = banks()
    text = (folder / "game.yaml").read_text()
    assert old in text
    (folder / "game.yaml").write_text(text.replace(old, new, 1))
    assert expected in problems_of(folder)


def test_regions_follow_the_links_given():
    links = {1: [2], 2: [1], 3: [], 4: [5], 5: [4]}
    assert regions([1, 2, 3, 4, 5], links) == [[1, 2], [3], [4, 5]]


def test_the_validator_uses_the_printed_grid_neighbours(banks):
    # every pair of map hexes the validator links is a pair the printing geometry draws side by side
    m = load_game(banks()).map
    grid = HexGrid(m.orientation, m.size)
    for h in m.hexes:
        for n in m.neighbours(h.at):
            x1, y1 = grid.centre(h.at)
            x2, y2 = grid.centre(n)
            assert abs(((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5 - m.size) < 0.01
