"""Shadow Queen's kit: every component builds on Letter and A4, placeholders (action card copies, dice,
marker counts, the map) are counted by pnp validate, the reference sheets stay one page each, the dice
come from the data, and the rulebook prints the engine's examples."""

import json
import re
import shutil

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from pnp import DATA_DIR
from pnp.commands.cli import main
from pnp.components import BuildOptions, ComponentSpec
from pnp.rulebook import sheets
from pnp.loading.gamedata import load_game
from pnp.loading.tokendata import load_tokens
import rules_engine.shadow_queen as sq

from rasterize import page_texts


def run(*args):
    return CliRunner().invoke(main, list(map(str, args)))


def copy_game(tmp_path):
    dest = tmp_path / "shadow_queen"
    shutil.copytree(DATA_DIR / "shadow_queen", dest)
    return dest


def edit(path, old, new):
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def line_of(path, needle):
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_the_kit_builds_every_component(built_kit, paper):
    out = built_kit("shadow_queen", "en", paper)     # `pnp build` exited 0 (conftest.built_kit; read only)
    pages = {p.name: len(PdfReader(p).pages) for p in out.glob("*.pdf")}
    assert pages["hexmap.pdf"] == 5                     # the assembly map and four tiles
    assert pages["cards-fronts.pdf"] == pages["cards-backs.pdf"] == 8      # 68 cards, 9 a sheet
    assert pages["tokens.pdf"] == 2
    assert pages["shadows-reference.pdf"] == pages["kingdom-reference.pdf"] == 1
    assert pages["rulebook.pdf"] == 12 and pages["rulebook-imposed.pdf"] == 6
    assert pages["box.pdf"] == 2
    assert pages["standees.pdf"] == 2                   # 36 standees, their feet 11 mm (they stand on one hex)
    assert pages["kit.pdf"] == sum(n for name, n in pages.items()
                                   if name not in ("kit.pdf", "cards-duplex.pdf", "rulebook.pdf"))
    # the bill of materials: the map and its tiles, every piece as a counter and as a standee, the sheets
    manifest = json.loads((out / "manifest.json").read_text())
    pieces = {c["id"]: {(p["kind"], p["item"]): p["count"] for p in c["pieces"]} for c in manifest["components"]}
    assert pieces["hexmap"] == {("map", "hexmap"): 1, ("tile", "hexmap-tiles"): 4}
    assert pieces["standees"] == {("standee", "standees"): 36}
    assert pieces["tokens"][("token", "counter")] == 36 and pieces["tokens"][("token", "holding_tile")] == 8
    assert pieces["shadows_reference"] == {("sheet", "shadows_reference"): 1}


def test_validate_counts_every_placeholder_by_file(validated):
    result = validated("validate", "shadow_queen")     # shared with test_sq_engine (conftest.validated)
    assert result.exit_code == 0, result.output
    counts = {line.split(": warning: ")[0].rsplit("/", 1)[-1]: int(line.split(": warning: ")[1].split()[0])
              for line in result.output.splitlines() if "placeholder" in line and ": warning: " in line}
    # every card's copies, both dice numbers, every marker count, the whole map
    assert counts == {"shadow_cards.yaml": 11, "kingdom_cards.yaml": 13, "dice.yaml": 2, "tokens.yaml": 11,
                      "map.yaml": 1}


def test_a_tokens_placeholder_must_name_the_tokens_own_keys(tmp_path):
    root = copy_game(tmp_path)
    path = root / "tokens.yaml"
    edit(path, "{id: taint, kind: marker, count: 4, placeholder: [count]", "{id: taint, kind: marker, count: 4, "
                                                                            "placeholder: [counts]")
    result = run("validate", root)
    assert result.exit_code == 2
    assert (f"{path}:{line_of(path, 'id: taint')}: token 'taint': placeholder: 'counts' is not a key of this "
            f"entry") in result.output


def test_the_counters_match_the_pieces_and_holdings_of_game_yaml():
    game = load_game("shadow_queen")
    tokens = {t.id: t for t in load_tokens(game).tokens}
    for piece in game.pieces:
        assert tokens[piece.id].count == piece.count and tokens[piece.id].faction == piece.faction
        assert tokens[piece.id].front.caption == f"{piece.name} {piece.move}"      # movement printed
    for holding in game.holdings:
        assert tokens[f"{holding.id}-tile"].count == holding.count
    # a Kingdom piece's back is the piece possessed, in the Shadows' colour
    shadows = game.faction("shadows").colour
    assert all(tokens[p.id].back.background == shadows and tokens[p.id].back.caption == "Possessed"
               for p in game.pieces if p.faction == "kingdom")
    kinds = {t.kind for t in tokens.values()}
    assert kinds == {"counter", "holding_tile", "marker"}
    markers = {t.id for t in tokens.values() if t.kind == "marker"}
    assert {"taint", "possession", "patrol-orders", "marching-orders", "special-orders", "bridge", "path", "altar",
            "build", "cave-1-2", "cave-3-4"} == markers


def test_the_die_comes_from_dice_yaml_and_the_option_overrides_it(tmp_path):
    game = load_game("shadow_queen")
    assert game.facts["dice"] == {"count": 6, "sides": 6, "placeholder": ("count", "sides")}
    assert sq.rules_for(game).die_sides == 6
    root = copy_game(tmp_path)
    edit(root / "dice.yaml", "sides: 6", "sides: 8")
    rules = sq.rules_for(load_game(root))
    assert rules.die_sides == 8
    assert sq.play_game(rules, ["random", "random"], 1, turn_limit=2).die == 8
    assert sq.play_game(rules, ["random", "random"], 1, turn_limit=2, die=4).die == 4
    edit(root / "dice.yaml", "sides: 8", "sides: 1")
    result = run("validate", root)
    assert result.exit_code == 2 and "dice.yaml:5: dice.sides: 1 is below the minimum 2" in result.output


def test_a_reference_sheet_longer_than_its_pages_is_an_error(tmp_path):
    root = copy_game(tmp_path)
    template = root / "templates" / "sheets" / "en" / "reference.md.j2"
    template.write_text(template.read_text() + "\n{% for i in range(60) %}\nA long line of notes.\n\n{% endfor %}\n")
    result = run("validate", root)
    assert result.exit_code == 2
    game_yaml = root / "game.yaml"
    line = line_of(game_yaml, "id: shadows_reference")
    assert re.search(rf"{re.escape(str(game_yaml))}:{line}: sheet 'shadows_reference': takes [23] pages on letter, "
                     r"more than pages: 1", result.output)


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("side", ["shadows", "kingdom"])
def test_each_reference_sheet_uses_its_page(side, paper):
    """Issue 37: the Shadows' sheet left the foot of its page empty (24 % on Letter, 29 % on A4) where
    the Kingdom's has its orders; it now draws the markers the Shadows use, and neither sheet leaves more
    than a fifth of its page empty (the share under the lowest thing it prints)."""
    game = load_game("shadow_queen")
    spec = next(s for s in game.component_specs if s.id == f"{side}_reference")
    shares = sheets.empty_shares(game, spec, paper, None)
    assert len(shares) == 1 and shares[0] <= sheets.EMPTY_SHARE, shares
    text, _ = sheets.markup(game, spec, None)
    assert text.count("!figure") >= (13 if side == "shadows" else 6)       # pieces, holdings (and markers)


def test_a_sheet_that_leaves_its_page_empty_is_a_warning_at_its_entry(tmp_path):
    root = copy_game(tmp_path)
    template = root / "templates" / "sheets" / "en" / "reference.md.j2"
    template.write_text("# {{ faction.name }}: reference\n\nYou move first.\n")
    result = run("validate", root)
    assert result.exit_code == 0, result.output
    game_yaml = root / "game.yaml"
    for side, paper in (("shadows", "letter"), ("kingdom", "a4")):
        line = line_of(game_yaml, f"id: {side}_reference")
        assert re.search(rf"{re.escape(str(game_yaml))}:{line}: warning: sheet '{side}_reference': leaves more than "
                         rf"a fifth of a page empty on {paper}: page 1 \(9\d% empty\); give the room", result.output), \
            result.output


def test_a_sheet_names_a_missing_template_or_an_unknown_faction(tmp_path):
    root = copy_game(tmp_path)
    game_yaml = root / "game.yaml"
    edit(game_yaml, "template: reference, faction: shadows", "template: quick, faction: shadows")
    edit(game_yaml, "template: reference, faction: kingdom", "template: reference, faction: elves")
    result = run("validate", root)
    assert result.exit_code == 2
    assert (f"{game_yaml}:{line_of(game_yaml, 'id: shadows_reference')}: sheet 'shadows_reference': template: no "
            "file templates/sheets/en/quick.md.j2 in the game folder") in result.output
    assert (f"{game_yaml}:{line_of(game_yaml, 'id: kingdom_reference')}: sheet 'kingdom_reference': faction: no "
            "faction 'elves' (the game's: shadows, kingdom)") in result.output


def test_each_reference_sheet_lists_its_sides_pieces_and_cards_only():
    game = load_game("shadow_queen")
    for side, other in (("shadows", "kingdom"), ("kingdom", "shadows")):
        text, _ = sheets.markup(game, ComponentSpec("sheet", f"{side}_reference",
                                                   {"template": "reference", "faction": side}), None)
        for piece in game.pieces:
            assert (f"| **{piece.name}** | {piece.count} | {piece.move} |" in text) == (piece.faction == side)
        for card in game.cards:
            assert (f"| **{card.name}** |" in text) == (card.faction == side) or card.name in ("Attack", "Defend",
                                                                                            "Sabotage",
                                                                                            "Build Bridge",
                                                                                            "Build Path",
                                                                                            "Build Altar")
        assert text.count("\n| **") == sum(1 for p in game.pieces if p.faction == side) + \
            sum(1 for c in game.cards if c.faction == side)


def test_the_rulebook_prints_the_engines_examples(tmp_path):
    from pnp.rulebook.component import engine_examples
    from pnp.rulebook.chapters import load_config

    game = load_game("shadow_queen")
    cfg = load_config(game)
    examples = engine_examples(game, cfg)
    assert set(examples) == {"possess", "attack"}
    assert "Shadows: the Shadow at 0706 plays Possess on the Peasant at 0707." in examples["possess"]
    assert "Attack 9 against defence 3: the attack wins." in examples["attack"]


def test_an_action_card_names_and_draws_the_pieces_that_may_play_it():
    from pnp.components.cards import deck_faces
    from pnp.draw.icons import using
    from pnp.layout.geometry import Icon, Text, flatten

    game = load_game("shadow_queen")
    with using(game.icons):
        for deck in game.decks:
            faces, labels, cards = deck_faces(game, deck, BuildOptions())
            for face, card in zip(faces, cards):
                if card is None:
                    continue
                elements = list(flatten(face))
                texts = [e.markup for e in elements if isinstance(e, Text)]
                who = card.value("played_by")
                assert "Played by " + " or ".join(p.capitalize() for p in who) in texts
                icons = sorted(e.name for e in elements if isinstance(e, Icon) and e.name in who)
                assert icons == sorted(who)


def test_the_rulebook_cover_says_two_players(built_kit):
    cover = page_texts(built_kit("shadow_queen") / "rulebook.pdf")[0]     # the shared kit (read only)
    assert "2 PLAYERS" in cover.upper() and "2-2" not in cover
