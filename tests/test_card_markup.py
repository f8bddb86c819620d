"""Card markup in data texts: deck fields of ``type: text`` and flavour lines are pnp's small card
language (``**bold**``, ``*italic*``, ``[icon]``, ``[icon:label]``, line breaks, ``\\[`` and ``\\*``
escapes). Mistakes in it are validation errors at the CSV cell or the YAML line that wrote them."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.components.cards import face_content
from pnp.draw.icons import using
from pnp.draw.text import parse as atoms_of
from pnp.loading.gamedata import load_game
from pnp.text.markup import card_markup, card_markup_problems, plain_text

WAVE = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24">'
        '<path d="M2 14 C6 8 10 8 12 14 C14 20 18 20 22 14" fill="none" stroke="#1f5f8b" stroke-width="2.5"/></svg>')

GAME = """\
title: Low Tide
players: {min: 1, max: 4}
decks:
  - id: current
    name: Currents
    cards: current.csv
    fields:
      text: {type: text}
  - id: omens
    name: Omens
    cards: omens.yaml
    fields:
      effect: {type: text, required: true}
components: [cards]
"""

CURRENT = """\
id,name,copies,text,flavour
ebb,Ebb,2,Lower the tide by 1 [wave].,The sea **breathes** out.
flood,Flood,1,"**Flood:** raise the tide by 2 [wave].
Then draw a card.",
"""

OMENS = """\
cards:
  - id: gull
    name: Gull
    copies: 1
    effect: "*Look* at the top card [wave:2]."
  - id: moon
    name: Moon
    copies: 1
    effect: 'Costs \\[2] \\* nothing.'
"""


def write_game(root, current=CURRENT, omens=OMENS):
    (root / "icons").mkdir(parents=True)
    (root / "icons" / "wave.svg").write_text(WAVE)
    (root / "game.yaml").write_text(GAME)
    (root / "current.csv").write_text(current)
    (root / "omens.yaml").write_text(omens)
    return root


def validate(root):
    return CliRunner().invoke(main, ["validate", str(root)])


def words(markup):
    """(text, bold, italic) of every text atom and ('[name]', arg) of every icon atom, in order."""
    return [(a.text, a.bold, a.italic) if a.kind == "text" else (f"[{a.text}]", a.arg)
            for word in atoms_of(markup) if word for a in word]


def test_text_fields_and_flavour_are_card_markup(tmp_path):
    game = load_game(write_game(tmp_path / "tide"))
    with using(game.icons):
        ebb = face_content(game, game.card("ebb"))
        assert words(ebb.values["fields"]["text"])[-4:] == [("1", False, False), (" ", False, False), ("[wave]", None),
                                                            (".", False, False)]
        assert ("breathes", True, False) in words(ebb.flavour)
        flood = face_content(game, game.card("flood")).values["fields"]["text"]
        assert words(flood)[0] == ("Flood:", True, False)
        assert None in atoms_of(flood)                                   # the cell's line break
        gull = face_content(game, game.card("gull")).values["fields"]["effect"]
        assert words(gull)[0] == ("Look", False, True) and ("[wave]", "2") in words(gull)
        moon = face_content(game, game.card("moon")).values["fields"]["effect"]
        assert plain_text(moon) == "Costs [2] * nothing."                # escaped: printed as written
    assert validate(tmp_path / "tide").exit_code == 0


def test_icon_typo_in_a_csv_text_cell_names_row_and_column(tmp_path):
    root = write_game(tmp_path / "tide", current=CURRENT.replace("by 1 [wave]", "by 1 [wvae]"))
    result = validate(root)
    assert result.exit_code == 2
    assert (f"{root / 'current.csv'}:2:4: card 'ebb': text: unknown icon [wvae]; did you mean [wave]?"
            in result.output)


def test_icon_typo_in_a_csv_flavour_cell(tmp_path):
    root = write_game(tmp_path / "tide", current=CURRENT.replace("**breathes** out.", "**breathes** [wav]."))
    result = validate(root)
    assert result.exit_code == 2
    assert f"{root / 'current.csv'}:2:5: card 'ebb': flavour: unknown icon [wav]; did you mean [wave]?" in result.output


def test_icon_typo_in_a_yaml_text_field_names_the_line(tmp_path):
    root = write_game(tmp_path / "tide", omens=OMENS.replace("[wave:2]", "[wvae:2]"))
    result = validate(root)
    assert result.exit_code == 2
    assert (f"{root / 'omens.yaml'}:5: card 'gull': effect: unknown icon [wvae]; did you mean [wave]?"
            in result.output)


def test_every_mistake_of_every_file_at_once(tmp_path):
    root = write_game(tmp_path / "tide", current=CURRENT.replace("[wave].,", "[wvae].,"),
                      omens=OMENS.replace("*Look*", "*Look"))
    out = validate(root).output
    assert "current.csv:2:4: card 'ebb': text: unknown icon [wvae]" in out
    assert "omens.yaml:5: card 'gull': effect: '*' at '*Look at the top' starts italics that never end" in out


@pytest.mark.parametrize("text, problem", [
    ("[wave] and [wave:3] and \\[x] \\*", None),
    ("a [Wave]", "'[Wave]' is not an icon: icons are written [name] or [name:label] in lower case (did you mean "
                 "[wave]?); write '\\[' for a literal '['"),
    ("[3 more", "'[3 more' is not an icon"),
    ("**open", "'**' at '**open' starts bold that never ends; close it with '**', or write '\\*\\*' for literal stars"),
    ("ends in \\", "a '\\' at the end of a line escapes nothing; write '\\\\' for a backslash"),
    ("[pips:12]", "[pips:12]: give a number of pips from 1 to 9"),
    ("[zzzz]", "unknown icon [zzzz]; known icons: "),
])
def test_card_markup_problems(text, problem):
    found = card_markup_problems(text, {"wave", "coin"})
    if problem is None:
        assert found == []
    else:
        assert len(found) == 1 and found[0].startswith(problem), found


def test_card_markup_keeps_line_breaks_and_folds_other_whitespace():
    assert card_markup("  a\t b \r\n c  \n") == "a b\nc"
    assert card_markup("one\n\ntwo") == "one\n\ntwo"


def test_a_data_file_text_in_a_card_layout_prints_as_written(tmp_path):
    import shutil

    from pnp.components.cards import layout_of
    from pnp.loading.cardlayout import card_face
    from pnp.layout.geometry import flatten

    root = tmp_path / "starfall"
    shutil.copytree(Path(__file__).parent / "games" / "starfall", root)
    (root / "notes.csv").write_text("tip\n**Bold** [coin] *x*\n")
    game_yaml = root / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("components:\n", "data: [notes.csv]\n\ncomponents:\n", 1))
    layout = root / "templates" / "layouts" / "starfall.yaml"
    layout.write_text(layout.read_text().replace("regions:\n", "regions:\n  - {name: tip, kind: text, rect: [8, 4, "
                                                 "40, 5], text: \"'Tip: ' ~ data.notes[0].tip\", style: {font: sans, "
                                                 "size: 7}}\n", 1))
    game = load_game(root)
    deck = game.deck("stars")
    card = deck.cards[0]
    face = card_face(face_content(game, card), deck.width, deck.height, 0.0, layout_of(deck, card))
    (tip,) = [e.markup for e in flatten(face) if e.role == "tip"]
    assert plain_text(tip) == "Tip: **Bold** [coin] *x*"                 # data, not card markup
    assert words(tip)[0] == ("Tip:", False, False) and all(len(w) == 3 and not w[1] and not w[2] for w in words(tip))
