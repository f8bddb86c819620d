"""Behind the Throne's data: 82 cards, distinct values, ability categories as the rules print them, card
text generated from the abilities, and the game valid for ``pnp validate``."""

import re

from pnp.loading.cardtext import ability_text
from pnp.loading.gamedata import load_game
from pnp.text.icon_names import ICON_NAMES
from rules_engine.behind_the_throne import EFFECTS

GAME = load_game("behind_the_throne")

CATEGORIES = {
    "manipulative": {"prophet", "general", "assassin", "jester", "judge"},
    "protective": {"minstrel", "alchemist"},
    "prohibitive": {"queen", "king"},
}


def test_deck_contents():
    assert len(GAME.deck_for()) == 82
    characters = [c for c in GAME.cards if c.id != "end-of-game"]
    assert len(characters) == 9 and all(c.copies == 9 for c in characters)
    assert GAME.card("end-of-game").copies == 1 and GAME.card("end-of-game").stat("value", None) is None
    assert sorted(c.stat("value") for c in characters) == list(range(1, 10))
    assert not GAME.factions and not GAME.ranks and GAME.engine == "behind_the_throne"


def test_smaller_tables_use_fewer_copies():
    assert len(GAME.deck_for(2)) == 46 and len(GAME.deck_for(3)) == 64 and len(GAME.deck_for(4)) == 82


def test_ability_categories_follow_the_rules():
    for category, ids in CATEGORIES.items():
        for card_id in ids:
            assert EFFECTS[GAME.card(card_id).ability.kind].category == category, card_id
    assert EFFECTS[GAME.card("end-of-game").ability.kind].category is None
    assert all(kind.needs_step is False for kind in EFFECTS.values())


def test_every_card_text_comes_from_its_ability():
    for card in GAME.cards:
        text = ability_text(GAME, card)
        assert text and "**" in text, card.id
        assert set(re.findall(r"\[(\w+)\]", text)) <= ICON_NAMES, card.id
    assert ability_text(GAME, GAME.card("general")) == "**Lower** the value of the last card of your row by 3."
    assert "more cards than your Queen stack" in ability_text(GAME, GAME.card("queen"))
    assert "at least as many cards as your King stack" in ability_text(GAME, GAME.card("king"))


def test_pnp_validate_passes(validated):
    result = validated("validate", "behind_the_throne")     # shared with test_btt_kit (conftest.validated)
    assert result.exit_code == 0, result.output
    assert "Behind the Throne" in result.output and "valid" in result.output
