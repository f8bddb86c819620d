"""Behind the Throne's kit from the same code paths as Shadow Throne's: faces, reduced decks, tuck box,
rulebook with an engine-made example."""

import json
import re

import pypdf
import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.components import BuildOptions
from pnp.components.cards import build as build_cards
from pnp.components.cards import face_content, players_mark
from pnp.loading.gamedata import load_game
from rasterize import page_texts


@pytest.fixture(scope="module")
def game():
    return load_game("behind_the_throne")


@pytest.fixture(scope="module")
def kit(built_kit):
    return built_kit("behind_the_throne")       # shared with test_printer_tools (read only)


def text(path):
    return " ".join(" ".join(t.split()) for t in page_texts(path))


def test_validates(game, validated):
    result = validated("validate", "behind_the_throne")     # shared with test_btt_data (conftest.validated)
    assert result.exit_code == 0, result.output
    assert len(game.deck_for()) == 82 and len(game.cards) == 10


def test_kit_files(kit):
    assert sorted(p.name for p in kit.iterdir() if p.is_file()) == sorted([
        "instructions.pdf", "cards-fronts.pdf", "cards-backs.pdf", "cards-duplex.pdf", "rulebook.pdf",
        "rulebook-imposed.pdf", "box.pdf", "kit.pdf", "manifest.json", "pieces.json"])
    assert len(pypdf.PdfReader(str(kit / "cards-fronts.pdf")).pages) == 10        # 82 cards, 9 a sheet
    assert len(pypdf.PdfReader(str(kit / "rulebook.pdf")).pages) == 8
    assert len(pypdf.PdfReader(str(kit / "rulebook-imposed.pdf")).pages) == 4


@pytest.mark.parametrize("players,cards", [(2, 9 * 5 + 1), (3, 9 * 7 + 1), (4, 82), (5, 82)])
def test_players_option_builds_the_reduced_deck(game, players, cards):
    fronts, _, _ = build_cards(game, BuildOptions(players=players))
    placed = [e for p in fronts.pages for e in p.elements if e.role.startswith("card:")]
    assert len(placed) == cards
    assert len(game.deck_for(players)) == cards


def test_players_outside_the_game_range_is_refused():
    result = CliRunner().invoke(main, ["build", "behind_the_throne", "--players", "6", "--out", "/tmp/never"])
    assert result.exit_code == 2
    assert "--players 6: Behind the Throne is for 2 to 5 players" in result.output


def test_copies_carry_the_smallest_table_they_are_used_at(game):
    king = game.card("king")
    assert [players_mark(game, king, k) for k in range(1, 10)] == [""] * 5 + ["3+"] * 2 + ["4+"] * 2
    assert players_mark(game, game.card("end-of-game"), 1) == ""


def test_faces_show_value_category_and_colour(game):
    content = face_content(game, game.card("assassin"))
    assert content.rank_name == "Manipulative" and content.colour == "#2f5d8a"
    assert content.watermark == "2"
    assert ("value", "gem", "2") in content.stats
    assert face_content(game, game.card("queen")).rank_name == "Prohibitive"
    assert face_content(game, game.card("end-of-game")).watermark == ""


def test_instructions_say_which_cards_to_leave_out(kit):
    page = text(kit / "instructions.pdf")
    assert "with 2 players leave out the cards marked 3+ or higher (5 copies of each character remain)" in page
    assert "with 3 players leave out the cards marked 4+ or higher (7 copies" in page
    assert "Tokens" not in page        # no token sheets in this kit, so no token instructions


def test_rulebook_prints_the_engine_example_and_the_character_table(game, kit):
    from pnp.rulebook.component import engine_examples
    from pnp.rulebook.chapters import load_config
    from rasterize import booklet_text
    book = booklet_text(kit / "rulebook.pdf")
    example = engine_examples(game, load_config(game))["three_turns"]
    for sentence in (example.setup, *example.steps, *example.outcome):
        assert " ".join(sentence.replace("*", "").replace("\u2019", "'").split()) in book, sentence
    for card in game.cards:
        if card.ability and card.stat("value"):
            assert re.search(rf"{card.name} {card.stat('value')} (Manipulative|Protective|Prohibitive)", book)


def test_one_piece_tuck_box(kit):
    reader = pypdf.PdfReader(str(kit / "box.pdf"))
    assert len(reader.pages) == 1
    words = text(kit / "box.pdf")
    assert "BEHIND THE THRONE" in words.upper() and "82 cards" in words


def test_same_code_paths_simulate_and_scenario_for_both_games():
    sim = CliRunner().invoke(main, ["simulate", "behind_the_throne", "--players", "2..3", "--games", "20",
                                    "--seed", "3", "--json"])
    assert sim.exit_code == 0, sim.output
    import json
    reports = json.loads(sim.output)
    assert [r["players"] for r in reports] == [2, 3]


def test_manifest_matches_the_source_component_list(kit):
    """The source: 82 cards (9 copies of 9 characters and the End of Game card)."""
    bill = json.loads((kit / "manifest.json").read_text())
    cards = next(c for c in bill["components"] if c["id"] == "cards")
    assert [(p["kind"], p["count"]) for p in cards["pieces"]] == [("card", 82)]
    assert bill["pieces"] == {"booklet": 1, "box": 1, "card": 82}
    # 10 card sheets printed on both sides, the instructions, a 2-sheet booklet, the one-piece box
    assert cards["sheets"] == 10 and cards["sides"] == ["double"]
    assert bill["sheets"]["total"] == sum(c["sheets"] for c in bill["components"])
