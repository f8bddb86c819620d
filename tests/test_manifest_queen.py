"""Shadow Queen's bill of materials: the hex map and its tiles and the two reference sheets are counted
with the cards, tokens, booklet and box, so every bundled game's manifest.json lists all its pieces."""

import json

from pnp import DATA_DIR
from pnp.components import BuildOptions
from pnp.build.kit import build_kit


def test_manifest_lists_the_map_its_tiles_and_the_reference_sheets(tmp_path):
    build_kit(str(DATA_DIR / "shadow_queen"), tmp_path, BuildOptions())
    bill = json.loads((tmp_path / "manifest.json").read_text())
    by_id = {c["id"]: c for c in bill["components"]}
    hexmap = next(c for c in bill["components"] if c["kind"] == "hexmap")
    assert [p["kind"] for p in hexmap["pieces"]][0] == "map" and hexmap["pieces"][0]["count"] == 1
    tiles = [p["count"] for p in hexmap["pieces"] if p["kind"] == "tile"]
    assert tiles == [hexmap["sheets"] - 1]                   # one tile a sheet, after the assembly map
    sheets = [c for c in bill["components"] if c["kind"] == "sheet"]
    assert len(sheets) == 2 and all(c["pieces"][0]["kind"] == "sheet" for c in sheets)
    assert bill["pieces"]["map"] == 1 and bill["pieces"]["sheet"] == 2 and bill["pieces"]["card"] == 68
    assert bill["sheets"]["total"] == sum(c["sheets"] for c in by_id.values())
