"""Shadow Kingdoms of Valeria's kit from its data: the game board tiled with its seams off every space,
five player boards, five double-sided campaign maps in register, the troop dice (the discount rule on
every face), tokens and Warden standees in the source's counts, and the bill of materials."""

import json

import pytest

from pnp import DATA_DIR
from pnp.components import BuildOptions, game_components
from pnp.components.board import config_of, piece_pages, pieces, tiling
from pnp.components.dice import dice_faces
from pnp.loading.gamedata import load_game
from pnp.layout.geometry import Icon, Text, apply, extent

GAME = DATA_DIR / "shadow_kingdoms_of_valeria"


@pytest.fixture(scope="module")
def game():
    return load_game(GAME)


def entry(game, name):
    return next(s for s in game.component_specs if s.id == name)


def deep(elements):
    for e in elements:
        yield e
        if hasattr(e, "elements"):
            yield from deep(e.elements)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_game_board_tiles_on_nine_sheets_cutting_no_space(game, paper):
    """Print review defect 5: the seams cut score spaces 25, 30, 60 and 65 and split the footnote. Now
    they run on the lines between spaces, and off every text, icon and kept region, on both papers."""
    [board] = pieces(game, entry(game, "board"))
    assert board.size == (690, 500)
    plan = tiling(board, config_of(entry(game, "board")), paper)
    assert plan.sheets == 9 and plan.cut == () and plan.whole_sheets == 9
    assert [round(x, 2) for x in plan.xs] == [0, 250.91, 470.45, 690]
    assert [round(y, 2) for y in plan.ys] == [500, 333.33, 166.67, 0]
    spaces = [e.rect for e in board.front if e.role == "score:space"]
    assert len(spaces) == 70
    edges_x = {round(r.x, 2) for r in spaces} | {round(r.right, 2) for r in spaces}
    edges_y = {round(r.y, 2) for r in spaces} | {round(r.top, 2) for r in spaces}
    assert {round(x, 2) for x in plan.xs} <= edges_x and {round(y, 2) for y in plan.ys} <= edges_y
    for r in spaces:                              # each space lies on one tile's core
        assert sum(1 for t in plan.tiles if t.core.inset(-0.01).contains(r)) >= 1
    for number in (25, 30, 60, 65):
        r = spaces[number]
        assert not any(r.y + 0.01 < y < r.top - 0.01 for y in plan.ys[1:-1])
    # every text and icon keeps 2 mm or more off every seam it runs beside (the clearance the tiler aims at)
    for e in board.front:
        if isinstance(e, (Text, Icon)) and not e.role.startswith("score"):
            r = extent(e)
            assert all(x <= r.x - 2 or x >= r.right + 2 for x in plan.xs[1:-1]), e.role
            assert all(y <= r.y - 2 or y >= r.top + 2 for y in plan.ys[1:-1]), e.role
    note = next(e for e in board.front if e.role == "note")
    assert sum(1 for t in plan.tiles if t.core.contains(note.rect)) == 1
    labels = [e.markup for e in board.front if e.role == "score:number"]
    assert labels == [str(n) for n in range(70)]
    shrines = [e.markup for e in board.front if e.role == "shrine-name"]
    assert shrines == ["gem shrine", "magic shrine", "champions shrine", "gold shrine", "tactics shrine"]
    # the Battle Plans line: five costs from board.yaml, invented ones marked
    costs = [e.label for e in board.front if e.role == "plan-cost"]
    assert costs == ["5*", "4*", "3*", "2*", "1*"]
    rows = [e.label for e in board.front if e.role == "row-cost"]
    assert rows == ["1+", "3+", "2+*"]
    cells = [e.markup for e in board.front if e.role == "gems-table:cell"]
    assert cells == ["Players", "2", "3", "4", "5", "Gems", "6", "7", "8", "9"]


def test_player_boards_one_per_colour_with_their_wild_type(game):
    boards = pieces(game, entry(game, "player_boards"))
    assert [b.name for b in boards] == [f"{c} player board" for c in ("Red", "Blue", "Green", "Purple", "Yellow")]
    for b, facts in zip(boards, game.facts["boards"]):
        roles = [e.role for e in b.front]
        assert roles.count("ring-champions") + roles.count("ring-gems") + roles.count("ring-wild") + \
            roles.count("ring-strength") + roles.count("ring-track") + roles.count("ring-troops") + \
            roles.count("ring-reserve") == 10                       # the ten conquest-marker circles
        assert [e.name for e in b.front if e.role == "wild-icon"] == [facts["wild"]]
        assert [e.markup for e in b.front if e.role == "track:number"] == [str(n) for n in range(21)]
        pages, sides, tiles = piece_pages(b, config_of(entry(game, "player_boards")), BuildOptions(paper="a4"), {})
        assert len(pages) == 1 and tiles == 0
    chart = [e.markup for e in boards[0].front if e.role == "vp-chart:cell"]
    assert chart[:2] == ["Strength", "VP"] and "13-14\\*" in chart and chart[chart.index("13-14\\*") + 1] == "9"


def test_campaign_maps_are_double_sided_in_register(game):
    spec = entry(game, "campaign_maps")
    maps = pieces(game, spec)
    assert len(maps) == 5
    first = game.facts["maps"][0]["sides"]
    areas = [e.name for e in maps[0].front if e.role == "area-icon"]
    back_areas = [e.name for e in maps[0].back if e.role == "area-icon"]
    assert areas == sum(first[0]["areas"], []) and back_areas == sum(first[1]["areas"], [])
    assert len([e for e in maps[0].front if e.role in ("across", "down")]) == 12
    for paper in ("letter", "a4"):
        pages, sides, _ = piece_pages(maps[0], config_of(spec), BuildOptions(paper=paper), {})
        assert sides == "fold" and len(pages) == 1
        front = next(e for e in pages[0].elements if e.role == "front")
        back = next(e for e in pages[0].elements if e.role == "back")
        fold = next(e for e in pages[0].elements if e.role == "fold")
        w, h = maps[0].size
        for u, v in ((0, 0), (25, 108), (w, h)):
            fx, fy = apply(front.matrix, u, v)
            bx, by = apply(back.matrix, w - u, v)       # turned like a book page
            if fold.x1 == fold.x2:
                assert abs(fy - by) < 0.01 and abs((fx + bx) / 2 - fold.x1) < 0.01
            else:
                assert abs(fx - bx) < 0.01 and abs((fy + by) / 2 - fold.y1) < 0.01


def test_dice_faces_show_strength_discount_and_troop(game):
    dice, _ = dice_faces(game, entry(game, "dice"))
    assert len(dice) == 45
    kinds = [item["id"] for item, _ in dice]
    assert {k: kinds.count(k) for k in kinds} == {t: 9 for t in ("goblin", "orc", "skeleton", "gargoyle", "gnoll")}
    for item, faces in dice:
        for strength, face in zip(range(1, 7), faces):
            by_name = {r["name"]: r for r in face}
            assert str(by_name["strength"]["text"]) == str(strength)
            assert by_name["troop"]["icon"] == item["id"]
            if strength == 6:
                assert "discount" not in by_name                  # a 6 gives no discount
            else:
                assert str(by_name["discount"]["text"]) == str(6 - strength)


def test_champion_and_award_decks_are_told_apart_by_their_backs(game):
    assert game.deck("champions").back.by == "type" and game.deck("awards").back.by == "diamond"
    assert dict(game.deck("champions").back.labels) == {"instant": "Instant champions",
                                                       "ongoing": "Ongoing champions",
                                                       "endgame": "End-game champions"}


def test_manifest_matches_the_source_component_list(tmp_path):
    from pnp.build.kit import build_kit
    build_kit(str(GAME), tmp_path, BuildOptions())
    bill = json.loads((tmp_path / "manifest.json").read_text())
    pieces_ = bill["pieces"]
    assert pieces_["card"] == 48 + 61 + 15
    assert pieces_["board"] == 1 and pieces_["player_board"] == 5 and pieces_["campaign_map"] == 5
    assert pieces_["die"] == 45 and pieces_["standee"] == 5
    tokens = {p["item"]: p["count"] for c in bill["components"] if c["id"] == "tokens" for p in c["pieces"]}
    assert tokens == {"gem": 10, "start_player": 1, "conquest_marker": 50, "score_tracker": 5, "gold_marker": 5,
                      "magic_marker": 5, "influence_marker": 5}
    board = next(c for c in bill["components"] if c["id"] == "board")
    assert [(p["kind"], p["count"]) for p in board["pieces"]] == [("board", 1), ("tile", 9)]
    assert board["sheets"] == 10
    assert bill["sheets"]["total"] == sum(c["sheets"] for c in bill["components"])
    # every font any page or form uses is embedded (SVG icons once named an unembedded Helvetica)
    import subprocess
    for pdf in sorted(tmp_path.glob("*.pdf")):
        listing = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
        rows = [line.split() for line in listing.splitlines()[2:]]
        assert rows and all(row[-5] == "yes" for row in rows), (pdf.name, listing)


def test_card_faces_show_what_each_deck_needs(game):
    """A Battle Plan shows its battle type and its troop icons in order; an Award its three circles'
    points; a card with a placeholder carries the small star in its corner."""
    from pnp.components.cards import deck_faces
    from pnp.draw.icons import using
    with using(game.icons):
        plans = game.deck("battle_plans")
        faces, labels, cards = deck_faces(game, plans, BuildOptions())
        for face, card in list(zip(faces, cards))[:12]:
            els = list(deep(face))
            troops = [e.name for e in els if e.role.startswith("troops-")]
            assert troops == list(card.stats["troops"]) and 2 <= len(troops) <= 4
            assert [e.name for e in els if e.role == "battle-icon"] == [card.stats["battle"]]
            assert [e.markup for e in els if e.role == "players-mark"] == ["\\*"]          # invented plans
        awards = game.deck("awards")
        faces, _, cards = deck_faces(game, awards, BuildOptions())
        for face, card in zip(faces, cards):
            points = [e.markup for e in deep(face) if e.role == "award-circle:text"]
            assert points == [str(card.stats[k]) for k in ("vp_1", "vp_2", "vp_3")]
