"""Shadow Kingdoms of Valeria's data: the decks and the facts files, placeholder warnings, and the checks
that catch broken copies (with file and line)."""

import shutil

import pytest
from click.testing import CliRunner

from pnp import DATA_DIR
from pnp.loading.cardtext import ability_text
from pnp.commands.cli import main
from pnp.loading.gamedata import load_game
from rules_engine.model.cards import WHOLE_PLACEHOLDER

GAME = "shadow_kingdoms_of_valeria"


def run(*args):
    return CliRunner().invoke(main, ["validate", *args])


@pytest.fixture(scope="module")
def game():
    return load_game(GAME)


@pytest.fixture
def copy(tmp_path):
    dest = tmp_path / GAME
    shutil.copytree(DATA_DIR / GAME, dest)
    return dest


def edit(path, old, new):
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def line_of(path, needle):
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def test_the_decks_have_the_sources_counts(game):
    sizes = {d.id: len(d.physical()) for d in game.decks}
    assert sizes == {"battle_plans": 48, "champions": 61, "awards": 15}
    champions = game.deck("champions").cards
    assert len(champions) == 47                         # 47 names for 61 cards
    by_type = {t: sum(c.copies for c in champions if c.value("type") == t) for t in ("instant", "ongoing", "endgame")}
    assert by_type == {"instant": 21, "ongoing": 20, "endgame": 20}
    plans = game.deck("battle_plans").cards
    assert {p.value("battle") for p in plans} == {"ambush", "siege", "clash"}
    assert all(sum(p.value("battle") == t for p in plans) == 16 for t in ("ambush", "siege", "clash"))
    assert all(2 <= len(p.value("troops")) <= 4 for p in plans)
    awards = game.deck("awards").cards
    assert all(sum(a.value("diamond") == d for a in awards) == 5 for d in ("left", "middle", "right"))


def test_the_named_facts_of_the_source_are_kept(game):
    triumph = game.card("triumph_at_avery_hollow")
    assert (triumph.value("battle"), sorted(triumph.value("troops"))) == ("clash", ["gargoyle", "goblin", "orc", "orc"])
    assert not triumph.invented()
    three_gems = game.card("three_gems")
    assert three_gems.ability.kind == "have" and three_gems.ability.params["at_least"] == 3
    assert not three_gems.invented("ability") and three_gems.invented("vp_1")
    facts = game.facts
    assert {n: (r["gems"], r["dice_per_type"], r["dice_per_shrine"]) for n, r in facts["players"].items()} == {
        1: (3, 5, 2), 2: (6, 6, 4), 3: (7, 7, 5), 4: (8, 8, 6), 5: (9, 9, 7)}
    assert facts["start"] == {"influence": 10, "gold": 6, "magic": 3, "score": 0}
    chart = {s: row["vp"] for row in facts["vp_chart"] for s in range(row["from"], row["to"] + 1)}
    assert chart[14] == 9
    assert facts["solo"]["plan_vp"] == {2: 9, 3: 12, 4: 15}
    assert len(facts["circles"]) == 10 and facts["champion_limits"] == [3, 6, 10]
    assert len(facts["maps"]) == 5 and all(len(m["sides"]) == 2 for m in facts["maps"])
    assert facts["maps"][0]["sides"][0]["areas"][0][0] == "clash"      # the source's example
    assert facts["maps"][0]["sides"][0]["down"][0][0] == "champion"


def test_placeholders_are_marked_on_the_cards(game):
    assert game.card("ambush_at_oakheart_keep").placeholder == (WHOLE_PLACEHOLDER,)
    assert game.card("peddler").placeholder == ("copies",)
    assert game.card("peddler").invented("copies") and not game.card("peddler").invented("ability")
    assert game.placeholders[game.deck("battle_plans").cards_file] == 47
    assert game.placeholders[game.deck("champions").cards_file] == 47


def test_validate_passes_and_warns_placeholders_by_file():
    result = run(GAME)
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert lines[-1] == ("Shadow Kingdoms of Valeria: 3 decks, 124 cards (110 different), "
                         "components instructions, board, player_boards, campaign_maps, cards, dice, tokens, wardens, "
                         "rulebook, box: valid")
    warnings = {line.split(": warning: ")[0].rsplit("/", 1)[-1]: int(line.split(": warning: ")[1].split()[0])
                for line in lines if ": warning: " in line}
    assert warnings == {"battle_plans.yaml": 47, "champions.yaml": 47, "awards.yaml": 18, "board.yaml": 5,
                        "player_board.yaml": 14, "maps.yaml": 5, "dice.yaml": 5}
    assert all("placeholders: values invented where the source gives none" in line
               for line in lines if ": warning: " in line)


def test_every_card_text_is_generated_from_its_effect(game):
    texts = {c.id: ability_text(game, c) for c in game.cards if c.ability}
    assert len(texts) == 47 + 15
    assert texts["quartermaster"] == "**Take at once:** 2 Magic and 3 Gold."
    assert texts["warlock"] == "**Take at once:** 1 Magic and 1 Gem (from the Gem shrine)."
    assert texts["engineer"] == "**Each time you complete a Siege Battle Plan:** gain 2 Gold and 1 Magic."
    assert texts["hoarder"] == "**At the end:** 1 VP for every 2 Gold you hold (round up)."
    assert texts["skullbasher"] == "**At the end:** 1 VP for every point of Influence you hold above 10."
    assert texts["clan_chief"] == ("**At the end:** 1 VP for every Orc troop icon on your completed plans, "
                                   "up to 10 VP.")
    assert texts["three_gems"] == "**Claim with** at least 3 Gems."
    # the shape itself is drawn on the card (tests/test_print_defects.py)
    assert texts["battle_line"] == ("**Claim with** conquest markers on your map in the shape drawn above, turned, "
                                    "flipped or moved as you like.")


def test_an_effect_worded_for_another_deck_is_an_error(copy):
    path = copy / "champions.yaml"
    edit(path, "{id: shadow, name: Shadow, copies: 3, type: instant", "{id: shadow, name: Shadow, copies: 3, type: ongoing")
    edit(path, "{id: warrior, name: Warrior, copies: 1, type: ongoing", "{id: warrior, name: Warrior, copies: 1, type: endgame")
    result = run(str(copy))
    assert result.exit_code == 2
    assert (f"{path}:{line_of(path, 'id: shadow')}: card 'shadow': its effect 'gain' is Instant (it acts once, "
            f"when the card is taken) but the card is in the Ongoing deck") in result.output
    assert (f"{path}:{line_of(path, 'id: warrior')}: card 'warrior': its effect 'strength' is Ongoing (it acts "
            f"again and again, while the card is held) but the card is in the End-game deck") in result.output


@pytest.mark.parametrize("file, old, new, message, anchor", [
    ("player_board.yaml", "{from: 9, to: 10, vp: 5", "{from: 9, to: 11, vp: 5",
     "vp_chart[4]: the ranges must follow each other from 0 (this one should start at 12)", "from: 11, to: 12"),
    ("maps.yaml", "          - [magic, influence]\n", "          - [magic, glory]\n",
     "maps[1].sides[1].across[1][2]: 'glory' is not a chain bonus (champion, influence, magic, gold, gem, die)",
     "[magic, glory]"),
    ("maps.yaml", "          - [clash, skeleton, gnoll]", "          - [clash, skeleton, troll]",
     "maps[1].sides[1].areas[1][3]: 'troll' is not one of: goblin, orc, skeleton, gargoyle, gnoll, ambush, siege, "
     "clash, strength", "troll"),
    ("setup.yaml", "remove_awards: [three_gems]", "remove_awards: [three_jewels]",
     "solo.remove_awards[1]: no award card 'three_jewels'", "three_jewels"),
    ("board.yaml", "battle_plan_line: {costs: [5, 4, 3, 2, 1], placeholder: [costs]}",
     "battle_plan_line: {costs: [5, 4, 3, 2, 1], placeholder: [prices]}",
     "battle_plan_line: placeholder: 'prices' is not a key of this entry (its keys: costs)", "prices"),
    ("board.yaml", "score_track: 70", "score_trak: 70",
     "'score_trak': unknown key (did you mean 'score_track'?)", "score_trak"),
    ("dice.yaml", "  - {id: orc, name: Orc", "  - {id: ogre, name: Orc",
     "troops: the troop types must be goblin, orc, skeleton, gargoyle, gnoll in that order (got goblin, ogre, "
     "skeleton, gargoyle, gnoll)", "troops:"),
])
def test_broken_facts_are_reported_with_file_and_line(copy, file, old, new, message, anchor):
    path = copy / file
    edit(path, old, new)
    result = run(str(copy))
    assert result.exit_code == 2, result.output
    assert f"{path}:{line_of(path, anchor)}: {message}" in result.output


def test_a_fact_given_twice_and_a_missing_file_are_reported(copy):
    (copy / "extra.yaml").write_text("gems: 12\n")
    edit(copy / "game.yaml", "facts: [setup.yaml,", "facts: [extra.yaml, setup.yaml,")
    result = run(str(copy))
    assert result.exit_code == 2
    assert f"{copy / 'board.yaml'}:{line_of(copy / 'board.yaml', 'gems: 10')}: gems: also given in extra.yaml" \
           in result.output
    edit(copy / "game.yaml", "facts: [extra.yaml, setup.yaml,", "facts: [extra.yaml,")
    (copy / "extra.yaml").write_text("gems: 10\n")
    result = run(str(copy))
    assert result.exit_code == 2
    assert "facts: no file gives players, start, end_plans, solo" in result.output


def test_a_placeholder_mark_in_a_card_must_name_its_keys(copy):
    path = copy / "champions.yaml"
    edit(path, "{id: adept, name: Adept, copies: 1, type: ongoing, placeholder: [copies]",
         "{id: adept, name: Adept, copies: 1, type: ongoing, placeholder: [copies, cost]")
    result = run(str(copy))
    assert result.exit_code == 2
    assert (f"{path}:{line_of(path, 'id: adept')}: card 'adept': placeholder: 'cost' is not a key of this entry "
            f"(its keys: id, name, copies, type, ability)") in result.output


def test_replacing_a_placeholder_is_a_one_line_edit(copy):
    path = copy / "board.yaml"
    edit(path, "  - {type: endgame, cost: 2, slots: 3, placeholder: [cost, slots]}",
         "  - {type: endgame, cost: 4, slots: 3, placeholder: [slots]}")
    game = load_game(copy)
    assert [r["cost"] for r in game.facts["champion_rows"]] == [1, 3, 4]
    assert game.placeholders[path] == 4
