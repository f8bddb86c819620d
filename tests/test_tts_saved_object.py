"""The Tabletop Simulator saved object (``pnp export tts`` writes ``<game>.json``): checked against the shape
Tabletop Simulator reads (every deck a DeckCustom of Card objects, each sheet a CustomDeck entry; boards and
tokens Custom_Tile, dice Custom_Dice, several copies in a Bag) and loaded back: every image it names is a
file of the export at the piece's proportions, every card of tts.json is in it with its CardID and name,
unique backs point at the back sheets, the pieces' counts are the kit's manifest's, nothing lies on
anything else, and --base-url names hosted images."""

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from click.testing import CliRunner
from PIL import Image

from pnp.commands.cli import main

STARFALL = str(Path(__file__).parent / "games" / "starfall")
TRANSFORM = {"posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ"}
SAVE_KEYS = {"SaveName": str, "GameMode": str, "Date": str, "Table": str, "Sky": str, "Note": str, "Rules": str,
             "XmlUI": str, "LuaScript": str, "LuaScriptState": str, "ObjectStates": list, "TabStates": dict,
             "VersionNumber": str}
CUSTOM_DECK = {"FaceURL": str, "BackURL": str, "NumWidth": int, "NumHeight": int, "BackIsHidden": bool,
               "UniqueBack": bool, "Type": int}


def _export(tmp_path, *args):
    out = tmp_path / "tts"
    result = CliRunner().invoke(main, ["export", "tts", *args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out, result.output


CUSTOM_IMAGE = {"ImageURL": str, "ImageSecondaryURL": str, "ImageScalar": float, "WidthScale": float}
CUSTOM_TILE = {"Type": int, "Thickness": float, "Stackable": bool, "Stretch": bool}


def _check_piece(obj: dict) -> None:
    """A board or token (Custom_Tile) or a die (Custom_Dice), or a bag of copies of one."""
    assert len(obj["GUID"]) == 6 and isinstance(obj["Nickname"], str) and obj["Locked"] is False
    assert set(obj["Transform"]) == TRANSFORM and all(isinstance(v, float) for v in obj["Transform"].values())
    assert obj["Transform"]["rotZ"] == 0.0                        # face up
    if obj["Name"] == "Bag":
        inside = obj["ContainedObjects"]
        assert len(inside) >= 2 and len({o["Name"] for o in inside}) == 1
        assert len({json.dumps(o["CustomImage"], sort_keys=True) for o in inside}) == 1
        assert len({o["GUID"] for o in inside}) == len(inside)
        for o in inside:
            _check_piece(o)
        return
    image = obj["CustomImage"]
    if obj["Name"] == "Custom_Tile":
        assert {k: type(v) for k, v in image.items()} == {**CUSTOM_IMAGE, "CustomTile": dict}
        assert {k: type(v) for k, v in image["CustomTile"].items()} == CUSTOM_TILE
        assert image["CustomTile"]["Type"] in (0, 1, 2, 3) and image["CustomTile"]["Stretch"] is True
    else:
        assert obj["Name"] == "Custom_Dice"
        assert {k: type(v) for k, v in image.items()} == {**CUSTOM_IMAGE, "CustomDice": dict}
        assert image["CustomDice"] == {"Type": 1}                # a d6: pnp's dice have six faces
        assert image["ImageSecondaryURL"] == ""


def _check_shape(saved: dict) -> list:
    """The cards of a saved object, after checking every key Tabletop Simulator reads has its type."""
    assert {k: type(v) for k, v in saved.items()} == SAVE_KEYS
    cards = []
    for obj in saved["ObjectStates"]:
        if obj["Name"] in ("Custom_Tile", "Custom_Dice", "Bag"):
            _check_piece(obj)
            continue
        assert obj["Name"] in ("DeckCustom", "Card") and len(obj["GUID"]) == 6
        assert set(obj["Transform"]) == TRANSFORM and all(isinstance(v, float) for v in obj["Transform"].values())
        assert obj["Transform"]["rotZ"] == 180.0                      # face down
        contained = obj["ContainedObjects"] if obj["Name"] == "DeckCustom" else [obj]
        if obj["Name"] == "DeckCustom":
            assert obj["DeckIDs"] == [c["CardID"] for c in contained] and len(contained) >= 2
        for card in contained:
            assert card["Name"] == "Card" and isinstance(card["CardID"], int) and isinstance(card["Nickname"], str)
            sheet, cell = divmod(card["CardID"], 100)
            assert 0 <= cell < 69                                     # the 70th cell is the hidden face
            (number, deck), = card["CustomDeck"].items()
            assert number == str(sheet)
            assert {k: type(v) for k, v in deck.items()} == CUSTOM_DECK
            assert (deck["NumWidth"], deck["NumHeight"], deck["BackIsHidden"]) == (10, 7, False)
            if obj["Name"] == "DeckCustom":
                assert obj["CustomDeck"][number] == deck
            cards.append(card)
    return cards


def _file(url: str, out: Path, base: str = "") -> Path:
    """The export's file an image address names: ``base`` and its path in the export folder."""
    assert url.startswith(base)
    rest = url[len(base):]
    assert not urlparse(rest).scheme and not rest.startswith("/")
    return out / unquote(rest)


def test_shadow_throne_loads_back_with_every_card(tmp_path):
    out, output = _export(tmp_path, "shadow_throne")
    assert "the saved object shadow_throne.json" in output
    saved = json.loads((out / "shadow_throne.json").read_text(encoding="utf-8"))
    cards = _check_shape(saved)
    index = json.loads((out / "tts.json").read_text(encoding="utf-8"))
    assert [(c["CardID"], c["Nickname"]) for c in cards] == [(e["tts_card_id"], e["name"]) for e in index["cards"]]
    (deck,) = [o for o in saved["ObjectStates"] if o["Name"] == "DeckCustom"]
    assert deck["Nickname"] == "Shadow Throne" and len(deck["DeckIDs"]) == 59
    for number, sheet in deck["CustomDeck"].items():
        face, back = _file(sheet["FaceURL"], out), _file(sheet["BackURL"], out)
        assert face.parent == out and face.is_file() and back == out / "back.png"
        with Image.open(face) as image:
            assert image.size == (4090, 3997)                      # 10 x 7 cells of 409 x 571 px
        assert sheet["UniqueBack"] is False


def test_several_decks_side_by_side_with_unique_backs_and_hosted_images(tmp_path):
    base = "https://example.org/games/starfall/"
    out, _ = _export(tmp_path, STARFALL, "--base-url", base)
    saved = json.loads((out / "starfall.json").read_text(encoding="utf-8"))
    cards = _check_shape(saved)
    index = json.loads((out / "tts.json").read_text(encoding="utf-8"))
    assert sorted(c["CardID"] for c in cards) == sorted(e["tts_card_id"] for e in index["cards"])
    stars, omens = [o for o in saved["ObjectStates"] if o["Name"] == "DeckCustom"]
    assert (stars["Nickname"], omens["Nickname"]) == ("Stars", "Omens")
    # side by side in one row, 1 unit apart: a card 2.5 units wide at 63.5 mm
    assert omens["Transform"]["posZ"] == stars["Transform"]["posZ"]
    assert omens["Transform"]["posX"] - stars["Transform"]["posX"] == pytest.approx(
        2.5 * 63 / 63.5 / 2 + 1 + 2.5 * 44 / 63.5 / 2, abs=1e-3)
    # mini cards are drawn smaller than poker cards
    assert omens["Transform"]["scaleX"] == pytest.approx(44 / 63.5, abs=1e-4)
    for obj in (stars, omens):
        for sheet in obj["CustomDeck"].values():
            assert _file(sheet["FaceURL"], out, base).is_file() and _file(sheet["BackURL"], out, base).is_file()
    (sheet,) = stars["CustomDeck"].values()
    assert sheet["UniqueBack"] is True and sheet["BackURL"] == base + "stars/backs-1.png"
    (sheet,) = omens["CustomDeck"].values()
    assert sheet["UniqueBack"] is False and sheet["BackURL"] == base + "omens/back.png"
    # its boards (two tracks, the observatory, four charts) and tokens (two of them in bags) load back
    _check_table(saved)
    assert _load_back(out, saved, base) == {
        "boards/score.png": 1, "boards/tide.png": 1, "boards/observatory.png": 1, "boards/charts-1.png": 1,
        "boards/charts-2.png": 1, "boards/charts-3.png": 1, "boards/charts-4.png": 1, "tokens/dawn-token.png": 2,
        "tokens/dusk-token.png": 2, "tokens/light-1.png": 12, "tokens/light-5.png": 6, "tokens/comet-token.png": 2}
    shapes = {o["Nickname"]: o["CustomImage"]["CustomTile"]["Type"] for o, _ in _pieces(saved)
              if o["Name"] == "Custom_Tile"}
    assert [shapes[n] for n in ("dawn token", "light 1", "light 5", "comet token")] == [1, 2, 3, 0]


def test_images_on_this_computer(tmp_path):
    base = (tmp_path / "tts").as_uri() + "/"
    out, _ = _export(tmp_path, "behind_the_throne", "--base-url", base)
    saved = json.loads((out / "behind_the_throne.json").read_text(encoding="utf-8"))
    for sheet in saved["ObjectStates"][0]["CustomDeck"].values():
        path = Path(unquote(urlparse(sheet["FaceURL"]).path))
        assert path.parent == out and path.is_file()


# ----------------------------------------------------------------------------- boards, tokens and dice

TIDEWARDENS = str(Path(__file__).parent / "games" / "tidewardens")
#: Footprints on the table, in units (about an inch): a custom tile is 2 x 2 at scale 1, a card at most
#: 2.5 x 3.5, a die at most 1.5, a bag at most 3 (docs/printing.md, "The saved object").
MM = 25.4


def _footprint(obj: dict) -> tuple:
    t = obj["Transform"]
    if obj["Name"] == "Custom_Tile":
        return 2 * t["scaleX"], 2 * t["scaleZ"]
    if obj["Name"] in ("DeckCustom", "Card"):
        return 2.5 * t["scaleX"], 3.5 * t["scaleZ"]
    return (1.5, 1.5) if obj["Name"] == "Custom_Dice" else (3.0, 3.0)


def _check_table(saved: dict) -> None:
    """No two things on the table overlap (1 unit apart at least), and all of it fits a 90-unit table."""
    boxes = []
    for obj in saved["ObjectStates"]:
        (w, d), t = _footprint(obj), obj["Transform"]
        boxes.append((obj["Nickname"], t["posX"] - w / 2, t["posZ"] - d / 2, t["posX"] + w / 2, t["posZ"] + d / 2))
    for i, a in enumerate(boxes):
        assert -45 <= a[1] and a[3] <= 45 and -45 <= a[2] and a[4] <= 45, a
        for b in boxes[i + 1:]:
            apart = max(b[1] - a[3], a[1] - b[3], b[2] - a[4], a[2] - b[4])
            assert apart >= 1.0 - 1e-3, (a, b)          # positions and scales have 4 decimals


def _pieces(saved: dict) -> list:
    """(object, copies) of every board, token and die."""
    out = []
    for obj in saved["ObjectStates"]:
        if obj["Name"] == "Bag":
            out.append((obj["ContainedObjects"][0], len(obj["ContainedObjects"])))
        elif obj["Name"] in ("Custom_Tile", "Custom_Dice"):
            out.append((obj, 1))
    return out


def _load_back(out: Path, saved: dict, base: str = "") -> dict:
    """Every piece's images opened (they are files of the export) and checked against its size on the
    table; the copies of each file, by its path in the export."""
    copies = {}
    for obj, n in _pieces(saved):
        image = obj["CustomImage"]
        front = _file(image["ImageURL"], out, base)
        with Image.open(front) as picture:
            size = picture.size
        if obj["Name"] == "Custom_Dice":
            assert size == (1020, 1020)                            # the d6 template: 3 x 3 cells of 340 px
        else:
            t = obj["Transform"]
            # the tile lies at the piece's printed size; its image has the same proportions (to a pixel)
            assert size[0] / size[1] == pytest.approx(t["scaleX"] / t["scaleZ"], rel=0.01, abs=1.0 / size[1])
            if image["ImageSecondaryURL"]:
                with Image.open(_file(image["ImageSecondaryURL"], out, base)) as back:
                    assert back.size == size
        key = front.relative_to(out).as_posix()
        copies[key] = copies.get(key, 0) + n
    return copies


def _build_manifest(game: str, tmp_path) -> dict:
    out = tmp_path / "kit"
    result = CliRunner().invoke(main, ["build", game, "--out", str(out)])
    assert result.exit_code == 0, result.output
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))


def _check_counts(copies: dict, manifest: dict) -> None:
    """The saved object has as many boards, tokens and dice as the kit's manifest lists, component by
    component (print tiles of a board excepted: the table has the whole board)."""
    made = {}
    for file, n in copies.items():
        folder, name = file.split("/")
        # boards/<component>[-N].png, dice/<component>-N.png, tokens/<token>.png; -back.png: the other side
        component = "tokens" if folder == "tokens" else re.fullmatch(r"(.+?)(-\d+)?(-back)?\.png", name)[1]
        if not file.endswith("-back.png"):
            made[component] = made.get(component, 0) + n
    listed = {}
    for c in manifest["components"]:
        if c["kind"] in ("board", "track", "hexmap", "tokens", "dice"):
            listed[c["id"]] = sum(p["count"] for p in c["pieces"] if p["kind"] != "tile")
    assert made == listed


def test_tidewardens_on_the_table_with_its_boards_and_die(tmp_path):
    out, _ = _export(tmp_path, TIDEWARDENS)
    saved = json.loads((out / "tidewardens.json").read_text(encoding="utf-8"))
    _check_shape(saved)
    _check_table(saved)
    copies = _load_back(out, saved)
    assert copies == {"boards/harbour.png": 1, "boards/warden_boards-1.png": 1, "boards/warden_boards-2.png": 1,
                      "boards/warden_boards-3.png": 1, "boards/warden_boards-4.png": 1, "dice/dice-1.png": 1}
    _check_counts(copies, _build_manifest(TIDEWARDENS, tmp_path))
    harbour = next(o for o in saved["ObjectStates"] if o["Nickname"] == "Harbour board")
    # the whole 420 x 300 mm board (printed in 6 tiles) as one tile at its size: 16.5 x 11.8 units
    assert (harbour["Transform"]["scaleX"], harbour["Transform"]["scaleZ"]) == (round(420 / MM / 2, 4),
                                                                              round(300 / MM / 2, 4))
    with Image.open(out / "boards" / "harbour.png") as image:
        assert image.size == (2480, 1772)                          # 150 dpi
    # the boards lie in a row above the decks, the die below them
    rows = [(o["Name"], o["Transform"]["posZ"]) for o in saved["ObjectStates"]]
    z = {name: {zz for n, zz in rows if n == name} for name in ("Custom_Tile", "DeckCustom", "Custom_Dice")}
    assert min(z["Custom_Tile"]) > max(z["DeckCustom"]) > max(z["Custom_Dice"])


def test_a_dies_faces_go_where_tabletop_simulators_d6_template_has_them(tmp_path):
    from pnp.exports.ttstable import D6_CELLS, d6_image

    faces = {k: Image.new("RGB", (340, 340), (40 * k, 255 - 30 * k, 7 * k)) for k in range(1, 7)}
    for face in faces.values():
        face.putpixel((0, 0), (1, 2, 3))                      # a mark in the top-left corner
    sheet = d6_image(faces)
    assert sheet.size == (1020, 1020)
    # the top row is the die's edges: the faces' background colour (face 1's corner)
    assert sheet.getpixel((500, 100)) == (1, 2, 3)
    expected = {2: (0, 1), 4: (1, 1), 5: (2, 1), 1: (0, 2), 3: (1, 2), 6: (2, 2)}
    for number, (col, row) in expected.items():
        colour = faces[number].getpixel((100, 100))
        assert sheet.getpixel((col * 340 + 170, row * 340 + 170)) == colour
        corner = (col * 340 + 339, row * 340 + 339) if number in (1, 6) else (col * 340, row * 340)
        assert sheet.getpixel(corner) == (1, 2, 3), number       # 1 and 6 upside down, as in the template
    assert {n: (c, r) for n, (c, r, _) in D6_CELLS.items()} == expected


def test_the_tables_rows_keep_apart_and_wrap():
    from pnp.exports.ttstable import GAP, ROW_WIDTH, lay_out

    rows = [[(20.0, 10.0), (30.0, 12.0), (15.0, 5.0)], [], [(2.5, 3.5)] * 3]
    boards, nothing, decks = lay_out(rows)
    assert nothing == []
    # 20 + 1 + 30 fit in 60 units; the 15-unit board starts a second row 12 + 1 units nearer the players
    assert boards[1].z == boards[0].z and boards[2].z == pytest.approx(boards[0].z - 12 / 2 - GAP - 5 / 2)
    assert boards[1].x - boards[0].x == pytest.approx(20 / 2 + GAP + 30 / 2)
    assert 20 + GAP + 30 <= ROW_WIDTH < 20 + GAP + 30 + GAP + 15
    assert decks[0].z == pytest.approx(boards[2].z - 5 / 2 - GAP - 3.5 / 2)
    every = boards + decks
    left, right = min(s.x - s.width / 2 for s in every), max(s.x + s.width / 2 for s in every)
    far, near = max(s.z + s.depth / 2 for s in every), min(s.z - s.depth / 2 for s in every)
    assert (left + right, far + near) == (pytest.approx(0.0), pytest.approx(0.0))   # centred on the table


@pytest.mark.slow
@pytest.mark.parametrize("game", ["shadow_throne", "behind_the_throne", "shadow_queen", "shadow_kingdoms_of_valeria"])
def test_every_bundled_game_on_the_table(tmp_path, game):
    out, _ = _export(tmp_path, game)
    saved = json.loads((out / f"{game}.json").read_text(encoding="utf-8"))
    _check_shape(saved)
    _check_table(saved)
    _check_counts(_load_back(out, saved), _build_manifest(game, tmp_path))


def test_the_pieces_images_are_the_same_bytes_every_time():
    from pnp.draw.raster import png_bytes
    from pnp.exports.ttstable import piece_images, table_pieces
    from pnp.loading.gamedata import load_game

    game = load_game(Path(STARFALL))
    pieces = [p for p in table_pieces(game) if p.component in ("charts", "tokens")]
    first, second = (piece_images(game, pieces), piece_images(game, table_pieces(game)[-len(pieces):]))
    assert list(first) == list(second) and len(first) == 14
    assert all(png_bytes(first[k]) == png_bytes(second[k]) for k in first)
