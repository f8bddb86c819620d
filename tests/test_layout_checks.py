"""Layouts cannot fail silently: ``pnp validate`` evaluates every region of every card's layout and
reports each problem once per region, at the layout file's line, in pnp's words, with the number of
cards it affects and one of them; nothing a layout names may quietly draw nothing."""

import pytest
from click.testing import CliRunner

from pnp.loading.cardlayout import LayoutError, evaluate
from pnp.commands.cli import main
from pnp.components.cards import face_content, layout_of
from pnp.loading.gamedata import load_game
from pnp.loading.cardlayout import face_scope

from test_card_markup import GAME, OMENS, write_game

#: Twenty cards in the CSV deck 'current'.
CURRENT = "id,name,copies,text\n" + "".join(f"c{i},Current {i},1,Lower the tide by {i % 3 + 1} [wave].\n"
                                            for i in range(1, 21))

TIDE = """\
extends: classic
palette: {sea: "#1f5f8b"}
regions:
  - {name: band, kind: box, rect: [2.8, 67.2, 57.4, 13.2], fill: palette.sea, before: name}
  - {name: wave-mark, kind: icon, at: [31.5, 50], size: 12, icon: "'wave'", colour: palette.sea}
  - {name: tide-note, kind: text, rect: [6, 34, 51, 5], text: "'Tide ' ~ field('text')", style: flavour}
"""


def tide(tmp_path, layout=TIDE):
    root = write_game(tmp_path / "tide", current=CURRENT, omens=OMENS)
    (root / "game.yaml").write_text(GAME.replace("    cards: current.csv\n", "    cards: current.csv\n    layout: tide\n"))
    (root / "templates" / "layouts").mkdir(parents=True)
    path = root / "templates" / "layouts" / "tide.yaml"
    path.write_text(layout)
    return root, path


def line_of(path, needle):
    return next(i for i, text in enumerate(path.read_text().splitlines(), 1) if needle in text)


def validate(root):
    return CliRunner().invoke(main, ["validate", str(root)])


def test_the_tide_layout_is_valid(tmp_path):
    root, _ = tide(tmp_path)
    result = validate(root)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("old, new, message", [
    ("field('text')", "field('txt')", "text: field 'txt' does not exist in deck 'current'; did you mean 'text'?"),
    ("field('text')", "fields.txt", "text: field 'txt' does not exist in deck 'current'; did you mean 'text'?"),
    ("field('text')", "card.stats.txet", "text: field 'txet' does not exist in deck 'current'; did you mean 'text'?"),
    ("field('text')", "nmae", "text: no value 'nmae' in a layout; did you mean 'name'?"),
    ("icon: \"'wave'\"", "icon: \"'wvae'\"", "icon: gives 'wvae', which is not an icon; did you mean 'wave'?"),
    ("'Tide '", "'Tide [wvae] '", "text: unknown icon [wvae]; did you mean [wave]?"),
    ("colour: palette.sea}", "colour: palette.saa}", "colour: no colour 'saa' in the palette; did you mean 'sea'?"),
    ("colour: palette.sea}", "colour: \"'blue'\"}", "colour: gives a text 'blue', which is not a colour ('#rrggbb')"),
    ("icon: \"'wave'\"", "icon: \"''\"", "icon: gives a text '': an icon region needs an icon's name (to leave the "
                                         "region out, give it a when:)"),
    ("\"'Tide ' ~ field('text')\"", "\"[1, 2]\"", "text: gives a list [1, 2]; a text region prints a text or a number"),
    ("\"'Tide ' ~ field('text')\"", "\"'Tide ' + 1\"", "text: \"'Tide ' + 1\" cannot be worked out (+ adds "
                                                        "numbers; join a text and a value with ~, as in 'VP ' ~ "
                                                        "field('vp'))"),
    ("\"'Tide ' ~ field('text')\"", "\"1 + 'Tide'\"", "text: \"1 + 'Tide'\" cannot be worked out (+ adds "
                                                       "numbers; join a text and a value with ~, as in 'VP ' ~ "
                                                       "field('vp'))"),
    ("\"'Tide ' ~ field('text')\"", "\"'Tide ' ~ (1 / 0)\"", "text: \"'Tide ' ~ (1 / 0)\" cannot be worked out "
                                                              "(a division by zero)"),
])
def test_a_layout_mistake_is_reported_once_for_its_region_with_its_line(tmp_path, old, new, message):
    root, path = tide(tmp_path, TIDE.replace(old, new))
    result = validate(root)
    assert result.exit_code == 2, result.output
    region = "tide-note" if "tide-note" in next(t for t in path.read_text().splitlines() if new in t) else "wave-mark"
    line = line_of(path, new)
    expected = f"{path}:{line}: layout 'tide', region '{region}': {message}"
    assert expected in result.output, result.output
    assert "(20 cards, e.g. card 'c1')" in result.output.splitlines()[0]
    assert len(result.output.splitlines()) == 2, result.output       # once, not once per card (x20)
    assert "is undefined" not in result.output and "jinja" not in result.output.lower()


def test_the_build_refuses_the_same_mistake_and_writes_nothing(tmp_path):
    root, path = tide(tmp_path, TIDE.replace("field('text')", "field('txt')"))
    result = CliRunner().invoke(main, ["build", str(root), "--out", str(tmp_path / "kit")])
    assert result.exit_code == 2
    assert f"{path}:6: layout 'tide', region 'tide-note': text: field 'txt' does not exist" in result.output
    assert not (tmp_path / "kit").exists()


def test_a_mistake_in_the_layout_extended_is_reported_where_it_is_written(tmp_path):
    parent = TIDE.replace("extends: classic\n", "extends: classic\n").replace("field('text')", "field('txt')")
    root, path = tide(tmp_path, "extends: base\nregions:\n  - {name: band, fill: \"'#203040'\"}\n")
    (path.parent / "base.yaml").write_text(parent)
    result = validate(root)
    assert result.exit_code == 2
    assert (f"{path.parent / 'base.yaml'}:6: layout 'base', region 'tide-note': text: field 'txt' does not exist in "
            f"deck 'current'; did you mean 'text'? (20 cards, e.g. card 'c1')") in result.output


def test_a_region_drawn_in_a_region_that_does_not_exist(tmp_path):
    root, path = tide(tmp_path, TIDE + "  - {name: sigil, kind: emblem, in: artt}\n")
    result = validate(root)
    assert result.exit_code == 2
    assert f"{path}:7: region 'sigil': in: 'artt' is not a region before it; did you mean 'art'?" in result.output


def test_evaluating_a_region_that_cannot_be_drawn_raises_in_pnps_words(tmp_path):
    root, path = tide(tmp_path, TIDE.replace("field('text')", "field('txt')"))
    game = load_game(root)
    card = game.card("c1")
    layout = layout_of(game.deck_of(card), card)
    with pytest.raises(LayoutError) as caught:
        evaluate(layout, face_scope(face_content(game, card), layout), markup=True)
    assert str(caught.value) == ("layout 'tide', region 'tide-note' (tide.yaml:6): text: field 'txt' does not exist in "
                                 "deck 'current'; did you mean 'text'?")
    found = []
    kept = evaluate(layout, face_scope(face_content(game, card), layout), markup=True,
                    report=lambda *problem: found.append(problem))
    assert found == [("tide-note", "text", "field 'txt' does not exist in deck 'current'; did you mean 'text'?")]
    assert "tide-note" not in [r["name"] for r in kept] and "wave-mark" in [r["name"] for r in kept]


def test_a_repeated_regions_list_must_be_a_list(tmp_path):
    layout = TIDE + "  - {name: drops, kind: icon, for: \"name\", at: [10, 40], offset: [4, 0], size: 3, icon: \"'wave'\"}\n"
    root, path = tide(tmp_path, layout)
    result = validate(root)
    assert result.exit_code == 2
    assert (f"{path}:7: layout 'tide', region 'drops': for: gives a text 'Current 1'; give a list (one copy of the "
            f"region per item) (card 'c1')") in result.output
