"""Marks with meaning (issue 37): every icon a board, a player board, a map, the hex map or a token prints has a key
somewhere a player reads it (a ``legend: true`` region of a board, the hex map's legend, a rulebook chapter
or sheet that uses it beside words), else ``pnp validate`` warns at the line that prints it, for any game."""

import re
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st

from pnp.commands.cli import main
from pnp.draw.icons import for_game
from pnp.errors import Problems, display_path
from pnp.loading.gamedata import load_game
from pnp.validation.iconkeys import check_icon_keys, explained_in

GAMES = Path(__file__).parent / "games"
DATA = Path(__file__).parent.parent / "data"
NO_KEY = "no key anywhere in the kit"


def _validate(*args) -> list[str]:
    result = CliRunner().invoke(main, ["validate", *map(str, args), "--no-cache"])
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def _line(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def _key_warnings(lines) -> list[str]:
    return [line for line in lines if NO_KEY in line]


@pytest.mark.parametrize("game", ["shadow_throne", "behind_the_throne", "shadow_kingdoms_of_valeria", "shadow_queen"])
def test_no_bundled_game_prints_an_icon_without_a_key(game):
    with_problems = Problems()
    loaded = load_game(game)
    with for_game(loaded):
        check_icon_keys(loaded, with_problems)
    assert [str(p) for p in with_problems] == []


def test_an_icon_on_a_board_with_no_key_is_a_warning_at_its_region(tmp_path):
    """lantern_night's market board prints a coin; its rulebook's sentence about the coin space is its
    key. Without that sentence, validate names the icon at the region's line and says what makes a key."""
    assert _key_warnings(_validate(GAMES / "lantern_night")) == []
    game = tmp_path / "lantern_night"
    shutil.copytree(GAMES / "lantern_night", game)
    chapter = game / "templates" / "rulebook" / "en" / "rules.md.j2"
    chapter.write_text(chapter.read_text().replace(" The lamp starts each night on the market board's [coin] space, "
                                                   "marked Go.", ""))
    layout = game / "templates" / "layouts" / "market.yaml"
    line = _line(layout, "name: lamp")
    assert _key_warnings(_validate(game)) == [
        f"{display_path(layout)}:{line}: warning: board 'market': layout 'market', region 'lamp': icon 'coin' on "
        f"piece 'Market board' has no key anywhere in the kit; give it a key: game.yaml's icon_key (the "
        f"instructions page prints it), a region that prints it beside its name, marked legend: true (on a board, "
        f"pad or card), or a sentence, list item or table row of a rulebook chapter or sheet that uses [coin] "
        f"beside words"]
    # the icon alone in a line, with no words, explains nothing; a legend region on the board does
    chapter.write_text(chapter.read_text().replace("## The sides", "[coin] [coin]\n\n## The sides"))
    assert len(_key_warnings(_validate(game))) == 1
    # a legend region of a card's layout (a player aid's key, a card naming its icons) keys it for the kit
    cards = game / "templates" / "layouts" / "lantern.yaml"
    original = cards.read_text()
    cards.write_text(original + "  - {name: coin-key, kind: icon, legend: true, at: [50, 80], size: 4,\n"
                                "     icon: \"'coin'\"}\n")
    assert _key_warnings(_validate(game)) == []
    cards.write_text(original)
    layout.write_text(layout.read_text().replace("{name: lamp, kind: icon,", "{name: lamp, kind: icon, legend: true,"))
    assert _key_warnings(_validate(game)) == []


def test_the_campaign_maps_chain_bonus_key_is_what_explains_their_icons(tmp_path):
    """Valeria's chain-bonus key (issue 37, defect 5) keys influence (crown) and the die, which nothing else
    of the kit names: without its legend mark, validate asks for a key at the key's own region."""
    game = tmp_path / "valeria"
    shutil.copytree(DATA / "shadow_kingdoms_of_valeria", game)
    layout = game / "templates" / "layouts" / "campaign_map.yaml"
    layout.write_text(layout.read_text().replace("{name: key-icon, kind: icon, legend: true,",
                                                 "{name: key-icon, kind: icon,"))
    found = Problems()
    loaded = load_game(game)
    with for_game(loaded):
        check_icon_keys(loaded, found)
    assert [(p.path, p.line, p.subject) for p in found] == [
        (str(layout), _line(layout, "name: key-icon"),
         "board 'campaign_maps': layout 'campaign_map', region 'key-icon'")]
    assert "icons 'crown' and 'die' on 10 pieces, e.g. 'Map 1' have no key" in found[0].message


def test_a_hex_maps_terrain_icons_are_keyed_by_its_legend(tmp_path):
    game = tmp_path / "shadow_queen"
    shutil.copytree(DATA / "shadow_queen", game)
    entry = game / "game.yaml"
    entry.write_text(entry.read_text().replace("  - hexmap\n", "  - {kind: hexmap, legend: false}\n", 1))
    found = Problems()
    loaded = load_game(game)
    with for_game(loaded):
        check_icon_keys(loaded, found)
    terrains = {p.subject: p for p in found}
    assert set(terrains) == {"hexmap 'hexmap': terrain 'forest'", "hexmap 'hexmap': terrain 'cave'"}
    forest = terrains["hexmap 'hexmap': terrain 'forest'"]
    assert forest.path == str(game / "map.yaml") and forest.line == _line(game / "map.yaml", "id: forest")
    assert forest.message.startswith("icon 'forest' on the map's hexes has no key anywhere in the kit; print the "
                                     f"map's legend (legend: true on the hexmap entry, game.yaml:"
                                     f"{_line(entry, 'kind: hexmap, legend: false')})")


def test_a_tokens_icon_needs_a_caption_or_words(tmp_path):
    """Issue 37: icons printed on tokens have a key too. Valeria's conquest markers print a flag with no
    caption: its rulebook names it beside words ("conquest markers [marker]"). Without that, validate
    warns at the token's line of tokens.yaml; a caption on the face is a key of its own."""
    game = tmp_path / "valeria"
    shutil.copytree(DATA / "shadow_kingdoms_of_valeria", game)
    chapter = game / "templates" / "rulebook" / "en" / "boards.md.j2"
    chapter.write_text(chapter.read_text().replace("conquest markers [marker]", "conquest markers"))
    tokens = game / "tokens.yaml"
    line = _line(tokens, "id: conquest-red")
    assert _key_warnings(_validate(game)) == [
        f"{display_path(tokens)}:{line}: warning: tokens: token 'conquest-red': icon 'marker' on piece "
        f"'conquest-red' has no key anywhere in the kit; give the face a caption that names it (tokens.yaml), an "
        f"entry in game.yaml's icon_key (the instructions page prints it), or a sentence, list item or table row of a rulebook chapter or sheet that uses [marker] beside words"]
    text = tokens.read_text().replace("kind: conquest_marker, count: 10, shape: circle, size: 13",
                                      "kind: conquest_marker, count: 10, shape: circle, size: 25")
    tokens.write_text(re.sub(r"(icon: marker[^}]*?)}", r"\1, caption: Land}", text))
    assert _key_warnings(_validate(game)) == []


def _without_icon_key(game: Path) -> None:
    """Take game.yaml's icon_key (and its translations) out of a copied game."""
    for path in [game / "game.yaml", *sorted((game / "i18n").glob("*.yaml"))]:
        text = path.read_text()
        if "icon_key:" in text:
            text = re.sub(r"(?m)^icon_key:\n(  .*\n)+", "", text)
            path.write_text(text)


def test_a_cards_icons_need_a_key_at_the_line_that_prints_them(tmp_path):
    """Issue 37: icons on cards have a key too. Dusk Orchard's cards print a coin, a blossom and a star
    by their fields and a blossom and a fruit in cards' own texts; its game.yaml icon_key explains them.
    Without it, each is a warning at the line of the data that first prints it: the field's line of
    game.yaml, the card's row of its CSV (its text, side B's text)."""
    assert _key_warnings(_validate(GAMES / "dusk_orchard")) == []
    game = tmp_path / "dusk_orchard"
    shutil.copytree(GAMES / "dusk_orchard", game)
    _without_icon_key(game)
    warnings = _key_warnings(_validate(game))
    game_yaml, csv = game / "game.yaml", game / "orchard.csv"
    found = {(w.split(": warning: ")[0], re.search(r"icons? '(\w+)'", w).group(1)) for w in warnings}
    assert found == {(f"{display_path(game_yaml)}:{_line(game_yaml, 'tend:')}", "coin"),
                     (f"{display_path(csv)}:{_line(csv, 'plum,')}:1", "bloom"),       # "Gain 1 [bloom]."
                     (f"{display_path(game_yaml)}:{_line(game_yaml, 'score:')}", "star"),
                     (f"{display_path(csv)}:{_line(csv, 'pear,')}:1", "fruit")}, warnings
    assert any("deck 'orchard': field 'tend': icon 'coin' on " in w for w in warnings)
    assert any("card 'pear' side B: icon 'fruit' on piece 'Pear Harvest'" in w for w in warnings)


@pytest.mark.parametrize("lang, words", [("en", "the blossoms a tree yields at dawn"),
                                          ("es", "las flores que da un árbol al alba")])
def test_the_instructions_page_prints_the_games_icon_key(tmp_path, lang, words):
    from pypdf import PdfReader

    result = CliRunner().invoke(main, ["build", str(GAMES / "dusk_orchard"), "--lang", lang, "--out",
                                       str(tmp_path), "--no-cache"])
    assert result.exit_code == 0, result.output
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(tmp_path / "instructions.pdf").pages)
    assert ("ICONS" if lang == "en" else "ICONOS") in text.upper() and words in text


def test_an_icon_key_names_an_icon_of_the_game(tmp_path):
    game = tmp_path / "dusk_orchard"
    shutil.copytree(GAMES / "dusk_orchard", game)
    game_yaml = game / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("  bloom: the blossoms", "  blosom: the blossoms"))
    result = CliRunner().invoke(main, ["validate", str(game), "--no-cache"])
    assert result.exit_code == 2
    assert f"{display_path(game_yaml)}:{_line(game_yaml, 'blosom:')}: icon_key: 'blosom': " in result.output, \
        result.output


def test_a_pads_icons_are_keyed_by_its_legend_region(tmp_path):
    """Dice Garden's garden sheet prints a sun and a drop in its plots, and names them in a corner marked
    legend: true. Without the mark, the plots' icons are a warning at that region's line."""
    assert _key_warnings(_validate(GAMES / "dice_garden")) == []
    game = tmp_path / "dice_garden"
    shutil.copytree(GAMES / "dice_garden", game)
    layout = game / "templates" / "layouts" / "garden.yaml"
    layout.write_text(layout.read_text().replace("kind: text, legend: true,", "kind: text,"))
    warnings = _key_warnings(_validate(game))
    assert len(warnings) == 1 and warnings[0].startswith(
        f"{display_path(layout)}:{_line(layout, 'name: plots')}: warning: pad 'garden_sheet': layout 'garden', "
        f"region 'plots': icons 'bloom' and 'drop' on piece 'Garden sheet' have no key"), warnings


def test_a_key_in_words_is_a_line_with_words_beside_the_icon():
    assert explained_in("Pay 2 [coin] to hire.") == {"coin"}
    assert explained_in("[coin] [gem:3] 4\n\n!figure board") == set()
    assert explained_in("| [gem] | Gem |\n|---|---|\n| [coin] | 3 |") == {"gem"}
    assert explained_in("- [skull] the Shadows\n- [crown]\n\n# [sun] Day") == {"skull", "sun"}
    assert explained_in("> [heart] Heal one wound") == {"heart"}


# --------------------------------------------------------------------------- generated cases

ICONS = ["coin", "gem", "skull", "crown", "sun", "heart", "point", "spark"]   # 'point': the starter's name for star
#: What the starter's chapter already explains: its supply of [spark] tokens, the [point] badge a card shows.
STARTER_KEYS = {"spark", "star"}


def _drawn(icon: str) -> str:
    return "star" if icon == "point" else icon


@st.composite
def _boards(draw):
    """Regions of a board (an icon region or a text with the icon inline, with or without legend: true),
    and the rulebook's lines (each icon with words or without)."""
    regions = draw(st.lists(st.tuples(st.sampled_from(ICONS), st.sampled_from(["icon", "text"]), st.booleans()),
                            min_size=1, max_size=5))
    lines = draw(st.lists(st.tuples(st.sampled_from(ICONS), st.booleans()), max_size=3))
    return regions, lines


@pytest.fixture(scope="module")
def starter(tmp_path_factory):
    folder = tmp_path_factory.mktemp("iconkeys") / "starter"
    result = CliRunner().invoke(main, ["new", str(folder)])
    assert result.exit_code == 0, result.output
    return folder


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=_boards())
def test_generated_boards_warn_of_exactly_the_icons_nothing_keys(starter, tmp_path_factory, case):
    regions, lines = case
    game = tmp_path_factory.mktemp("case") / "game"
    shutil.copytree(starter, game)
    layout = {"size": [120, 80], "regions": []}
    for i, (icon, kind, legend) in enumerate(regions):
        region = {"name": f"r{i}", "kind": kind}
        if kind == "icon":
            region.update(at=[10 + 20 * i, 40], size=8, icon=f"'{icon}'")
        else:
            region.update(rect=[5, 5 + 12 * i, 110, 10], text=f"'[{icon}] 3'")
        if legend:
            region["legend"] = True
        layout["regions"].append(region)
    (game / "templates" / "layouts" / "plate.yaml").write_text(yaml.safe_dump(layout, sort_keys=False))
    entry = game / "game.yaml"
    entry.write_text(entry.read_text().replace("  - tokens\n",
                                               "  - tokens\n  - {kind: board, id: plate, layout: plate}\n"))
    chapter = game / "templates" / "rulebook" / "en" / "rules.md.j2"
    chapter.write_text(chapter.read_text() + "".join(f"\n\n[{icon}] {'stands for this' if words else '2'}"
                                                     for icon, words in lines))
    keyed = STARTER_KEYS | {_drawn(i) for i, _, legend in regions if legend} \
        | {_drawn(i) for i, words in lines if words}
    expected = {}                                      # region -> icons it is the first to print, unkeyed
    for i, (icon, _, legend) in enumerate(regions):
        if not legend and _drawn(icon) not in keyed and all(_drawn(icon) not in v for v in expected.values()):
            expected.setdefault(f"r{i}", []).append(_drawn(icon))
    found = Problems()
    loaded = load_game(game)
    with for_game(loaded):
        check_icon_keys(loaded, found)
    got = {}
    for p in found:
        assert p.warning and p.path == str(game / "templates" / "layouts" / "plate.yaml")
        region = re.search(r"region '(r\d+)'", p.subject).group(1)
        assert p.line == _line(game / "templates" / "layouts" / "plate.yaml", f"name: {region}")
        got[region] = [_drawn(n) for n in re.findall(r"'([a-z]+)'", p.message.split(" on piece")[0])]
    assert got == expected
