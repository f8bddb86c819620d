"""The Tabletop Simulator saved object (``pnp export tts`` writes ``<game>.json``): checked against the shape
Tabletop Simulator reads (every deck a DeckCustom of Card objects, each sheet a CustomDeck entry) and loaded
back: every image it names is a file of the export, every card of tts.json is in it with its CardID and
name, unique backs point at the back sheets, and --base-url names hosted images."""

import json
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from click.testing import CliRunner
from PIL import Image

from pnp.cli import main

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


def _check_shape(saved: dict) -> list:
    """The objects of a saved object, after checking every key Tabletop Simulator reads has its type."""
    assert {k: type(v) for k, v in saved.items()} == SAVE_KEYS
    cards = []
    for obj in saved["ObjectStates"]:
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
    (deck,) = saved["ObjectStates"]
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
    stars, omens = saved["ObjectStates"]
    assert (stars["Nickname"], omens["Nickname"]) == ("Stars", "Omens")
    assert [stars["Transform"]["posX"], omens["Transform"]["posX"]] == [0.0, 3.0]
    # mini cards are drawn smaller than poker cards
    assert omens["Transform"]["scaleX"] == pytest.approx(44 / 63.5, abs=1e-4)
    for obj in (stars, omens):
        for sheet in obj["CustomDeck"].values():
            assert _file(sheet["FaceURL"], out, base).is_file() and _file(sheet["BackURL"], out, base).is_file()
    (sheet,) = stars["CustomDeck"].values()
    assert sheet["UniqueBack"] is True and sheet["BackURL"] == base + "stars/backs-1.png"
    (sheet,) = omens["CustomDeck"].values()
    assert sheet["UniqueBack"] is False and sheet["BackURL"] == base + "omens/back.png"


def test_images_on_this_computer(tmp_path):
    base = (tmp_path / "tts").as_uri() + "/"
    out, _ = _export(tmp_path, "behind_the_throne", "--base-url", base)
    saved = json.loads((out / "behind_the_throne.json").read_text(encoding="utf-8"))
    for sheet in saved["ObjectStates"][0]["CustomDeck"].values():
        path = Path(unquote(urlparse(sheet["FaceURL"]).path))
        assert path.parent == out and path.is_file()
