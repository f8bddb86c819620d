"""`pnp export cards --preset NAME`: each print service's pixel size, bleed, safe zone, DPI metadata,
colour mode and the files its upload page takes."""

import pytest
from click.testing import CliRunner
from PIL import Image

from pnp.commands.cli import main
from pnp.errors import UserError
from pnp.exports.cards import export_preset
from pnp.exports.presets import PDF_PRESETS, PRESETS, CardProduct, Preset, outside_safe_zone, product_for
from pnp.draw.raster import size_px
from pnp.layout.geometry import Rect, Text

#: The services' published numbers for poker cards at 300 dpi: image px, trim px, bleed px a side,
#: safe zone px from the image edge.
PUBLISHED = {
    "thegamecrafter": ((825, 1125), (750, 1050), 37.5, 75),
    "makeplayingcards": ((822, 1122), (750, 1050), 36, 72),
    "printerstudio": ((822, 1122), (750, 1050), 36, 72),
}


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_presets_carry_the_services_numbers(name):
    image, trim, bleed, safe = PUBLISHED[name]
    product = product_for(PRESETS[name], 63, 88)        # Shadow Throne's poker cards
    assert (product.image_px, product.trim_px, product.dpi) == (image, trim, 300)
    assert [round(v, 3) for v in product.trim_mm] == [63.5, 88.9]
    assert round(product.bleed_mm, 4) == round(bleed / 300 * 25.4, 4)
    assert round(product.safe_inside_trim_mm, 4) == round((safe - bleed) / 300 * 25.4, 4)
    # the trim plus the bleed at 300 dpi is exactly the image the service asks for
    w, h = product.trim_mm
    assert size_px(w + 2 * product.bleed_mm, h + 2 * product.bleed_mm, 300) == image
    assert PRESETS[name].colour == "RGB"


def test_a_card_size_the_service_does_not_print_is_a_clear_error():
    assert product_for(PRESETS["thegamecrafter"], 44, 63).name == "mini"      # The Game Crafter's Mini Deck
    with pytest.raises(UserError, match=r"^--preset thegamecrafter: none of The Game Crafter's card templates pnp "
                                        r"knows fits 44 x 68 mm cards \(within 1\.5 mm; the closest is mini, 44\.5 x "
                                        r"63\.5 mm; docs/printing\.md lists them\)$"):
        product_for(PRESETS["thegamecrafter"], 44, 68)
    with pytest.raises(UserError, match=r"^--preset drivethrucards: none of DriveThruCards' card templates pnp "
                                        r"knows fits 44 x 63 mm cards \(within 1\.5 mm; the closest is poker"):
        product_for(PDF_PRESETS["drivethrucards"], 44, 63)


@pytest.mark.parametrize("name", ["thegamecrafter", "makeplayingcards"])
def test_export_writes_the_fronts_in_deck_order_and_one_back(tmp_path, name):
    image, trim, bleed, safe = PUBLISHED[name]
    result = CliRunner().invoke(main, ["export", "cards", "--preset", name, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    fronts = sorted(p.name for p in (tmp_path / "fronts").iterdir())
    assert len(fronts) == 59 and fronts[0] == "001-dutiful-peasant-1.png" and fronts[-1] == "059-aid-5.png"
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".")) == ["back.png", "fronts"]
    for path in (tmp_path / "fronts" / fronts[0], tmp_path / "fronts" / fronts[-1], tmp_path / "back.png"):
        with Image.open(path) as im:
            assert im.size == image and im.mode == "RGB"
            assert [round(v) for v in im.info["dpi"]] == [300, 300]
            # the frame colour runs into the bleed: the image's edge pixels are the card's frame, not white
            assert im.getpixel((1, 1)) != (255, 255, 255) and im.getpixel((image[0] - 2, image[1] - 2)) != (255,) * 3
    assert "59" not in result.stderr and "warning" not in result.stderr     # every face keeps the safe zone
    assert f"60 images of {image[0]} x {image[1]} px" in result.output


def test_unknown_preset_lists_the_presets():
    result = CliRunner().invoke(main, ["export", "cards", "--preset", "kinkos"])
    assert result.exit_code == 2
    assert "'kinkos' is not one of 'makeplayingcards', 'printerstudio', 'thegamecrafter'" in result.output


def test_a_preset_sets_dpi_and_bleed_itself():
    result = CliRunner().invoke(main, ["export", "cards", "--preset", "printerstudio", "--bleed", "3"])
    assert result.exit_code == 2
    assert "--preset printerstudio sets the pixel size and bleed: leave out --dpi and --bleed" in result.output


def test_safe_zone_check_finds_text_and_icons_too_close_to_the_trim():
    near = Text(Rect(1.0, 40.0, 20.0, 5.0), "x", role="name")
    inside = Text(Rect(5.0, 40.0, 20.0, 5.0), "x", role="flavour")
    assert outside_safe_zone([near, inside], 63.5, 88.9, 3.175) == [("name", 1.0)]


def test_a_face_outside_a_services_safe_zone_gets_a_warning_per_card(tmp_path):
    """A (made-up) service asking for 9 mm inside the trim: the name, stat badges and other elements of
    every card come closer, and each card is named with its file and line."""
    strict = Preset("strict", "Strict Cards", (CardProduct("poker", (825, 1125), (750, 1050), 144),))
    result = export_preset("shadow_throne", tmp_path, strict)
    messages = [str(w) for w in result.warnings]
    peasant = [m for m in messages if "card 'dutiful-peasant'" in m]
    assert peasant and all(m.startswith("data/shadow_throne/cards.yaml:") or "/cards.yaml:" in m for m in peasant)
    assert len(peasant) == 1                      # one warning per card, naming what comes too close
    assert ("pip, rank, name, stat:power" in peasant[0] and "come within 5.1 mm of the trim line; Strict Cards "
            "asks for art and text at least 9.0 mm inside it (--preset strict)" in peasant[0])
    assert sum("warning: card back:" in m for m in messages) == 1
    assert len(messages) == 29                    # the 27 characters, the player aid and the back


def test_a_decks_fronts_folder_is_a_plain_path_inside_the_output(tmp_path):
    """Several decks export as <deck>/fronts/NNN-....png: two plain folder levels are allowed, nothing more,
    and a folder on the way that is a link is refused."""
    import os

    from pnp.build.output import write_atomically
    from pnp.loading.paths import output_path
    assert output_path(tmp_path, "champions/fronts/001-a-1.png") == tmp_path / "champions/fronts/001-a-1.png"
    for bad in ("a/b/c/d.png", "a/../b/c.png", "/a/b.png", "a/.pnp-x/c.png"):
        with pytest.raises(UserError, match="not a plain file name"):
            output_path(tmp_path, bad)
    write_atomically(tmp_path / "out", {"deck/fronts/001-a-1.png": b"x", "deck/back.png": b"y"})
    assert (tmp_path / "out/deck/fronts/001-a-1.png").read_bytes() == b"x"
    (tmp_path / "elsewhere").mkdir()
    os.symlink(tmp_path / "elsewhere", tmp_path / "out/deck/fronts2")
    with pytest.raises(UserError):
        write_atomically(tmp_path / "out", {"deck/fronts2/001-a-1.png": b"x"})
    assert not list((tmp_path / "elsewhere").iterdir())


def _docs_table(heading: str) -> list[list[str]]:
    """The rows of docs/printing.md's table whose header row starts with ``heading``."""
    from pathlib import Path

    lines = (Path(__file__).resolve().parents[1] / "docs" / "printing.md").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {heading} |"))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_every_makeplayingcards_and_printerstudio_size_is_the_documented_one_with_its_source():
    """docs/printing.md's table is pnp's products, each with where its image size comes from (issue 37: the
    mini size and every PrinterStudio size had none); the large card is MakePlayingCards' 3.5 x 5.75 in
    Jumbo (its 1122 x 1797 px image as recorded by inkwell), not the 3.5 x 5 in pnp had."""
    from pnp.exports.presets import MPC_PRODUCTS

    rows = _docs_table("MakePlayingCards and PrinterStudio")
    assert PRESETS["printerstudio"].products == PRESETS["makeplayingcards"].products == MPC_PRODUCTS
    assert len(rows) == len(MPC_PRODUCTS)
    for row, product in zip(rows, MPC_PRODUCTS):
        label, finished, image, _, source = row
        w_in, h_in = (float(v) for v in finished.removesuffix(" in").split(" x "))
        assert product.label.startswith(label) and f"({finished})" in product.label
        assert [round(v / 300, 4) for v in product.trim_px] == [w_in, h_in]
        assert image == f"{product.image_px[0]} x {product.image_px[1]} px"
        # MakePlayingCards' 36 px of bleed round every finished size
        assert [i - t for i, t in zip(product.image_px, product.trim_px)] == [72, 72]
        assert source, label
    jumbo = next(p for p in MPC_PRODUCTS if p.name == "jumbo")
    assert (jumbo.trim_px, jumbo.image_px) == ((1050, 1725), (1122, 1797))
    mini = product_for(PRESETS["printerstudio"], 44, 63)
    assert (mini.name, mini.image_px) == ("mini", (597, 822))
