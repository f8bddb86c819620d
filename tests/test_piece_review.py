"""The piece defects of the kit review of issue 37 (2: empty space on pieces, 5: marks nobody can read,
8: box and contents, 10: player-facing sheets that name the tool's internals), each measured on the built
kits (their text, their pixels) or on the laid-out pieces (geometry)."""

import pytest

GAMES = ("shadow_throne", "behind_the_throne", "shadow_kingdoms_of_valeria", "shadow_queen")


def pdf_text(path) -> str:
    """A PDF's text with its whitespace folded to single spaces."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(path))
    return " ".join(" ".join(doc[i].get_textpage().get_text_range() for i in range(len(doc))).split())


# 10 -----------------------------------------------------------------------------------------------------
INTERNALS = ("manifest.json", "pnp build", "--players", "docs/", "printing guide", "written beside")


@pytest.mark.parametrize("game", GAMES)
def test_10_the_instructions_page_names_none_of_the_tools_internals(built_kit, game):
    text = pdf_text(built_kit(game) / "instructions.pdf")
    assert [word for word in INTERNALS if word in text] == []


@pytest.mark.parametrize("cutter", ["silhouette", "cricut", "scanncut"])
def test_10_a_cutter_kit_carries_the_machine_settings_not_a_pointer_to_the_guide(built_kit, cutter):
    text = pdf_text(built_kit("behind_the_throne", "en", "letter", "--cutter", cutter) / "instructions.pdf")
    assert [word for word in INTERNALS if word in text] == []
    wanted = {"silhouette": ["type 1, length 20 mm, thickness 0.5 mm, inset 10 mm", "Silhouette Studio"],
              "cricut": ["Add bleed", "Make It"],
              "scanncut": ["CanvasWorkspace", "Direct Cut"]}[cutter]
    assert [w for w in wanted if w not in text] == []


def test_10_the_spanish_instructions_name_none_of_the_tools_internals(built_kit):
    text = pdf_text(built_kit("shadow_throne", "es") / "instructions.pdf")
    assert [word for word in INTERNALS if word in text] == []


# 8 ------------------------------------------------------------------------------------------------------
VALERIA = "shadow_kingdoms_of_valeria"


def test_8_valerias_troop_dice_are_in_the_box_contents_and_the_manifest(built_kit):
    import json

    kit = built_kit(VALERIA)
    manifest = json.loads((kit / "manifest.json").read_text())
    dice = manifest["pieces"]["die"]
    assert dice == 45
    listed = [line for line in manifest["box"]["holds"] + manifest["box"]["beside"] if "dice" in line["item"]]
    assert listed == [{"count": 45, "item": "troop dice in their bag"}]
    assert listed[0] in manifest["box"]["beside"]          # the box is sized for the cards and tokens only
    assert "45 troop dice in their bag" in pdf_text(kit / "box.pdf")


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_8_valerias_box_base_prints_whole_on_one_sheet(paper):
    from pnp.components import BuildOptions
    from pnp.components import box as box_component
    from pnp.loading.gamedata import load_game

    result = box_component.layout(load_game(VALERIA), BuildOptions(paper=paper))
    base = [pl for pl in result.placements if pl.piece.faces[0].part == "base"]
    assert len(base) == 1 and len(base[0].piece.faces) == 5          # not cut in two
    assert len(result.pages) == 2                                     # the lid's sheet, the base's
    assert not [t for t in base[0].piece.tabs if t.letter]            # no joint to glue across sheets
    bottom = base[0].rect("base-bottom")
    assert bottom.w < bottom.h                                        # turned a quarter to fit


def test_8_a_box_line_counting_dice_in_a_game_without_dice_is_an_error_at_its_line(game_copy):
    from click.testing import CliRunner

    from pnp.commands.cli import main

    box = game_copy / "box.yaml"
    text = box.read_text()
    head, rest = text.split("\ncontents:", 1)
    first, rest = rest.split("\n", 1)
    box.write_text(f"{head}\ncontents:{first}\n  - {{count: dice, item: dice}}\n{rest}")
    line = box.read_text().splitlines().index("  - {count: dice, item: dice}") + 1
    result = CliRunner().invoke(main, ["validate", str(game_copy)])
    assert result.exit_code == 2
    assert (f"box.yaml:{line}: contents #1: count: 'dice' counts the dice of the kit's dice components "
            "(kind: dice), and the game has none") in result.output


# 5 ------------------------------------------------------------------------------------------------------
QUEEN = "shadow_queen"


def page_texts(path) -> list[str]:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(path))
    return [" ".join(doc[i].get_textpage().get_text_range().split()) for i in range(len(doc))]


def test_5_the_invented_value_mark_is_a_star_not_a_degree_sign():
    from pnp.loading.placeholders import PRINTED_MARK

    assert PRINTED_MARK == "*"


@pytest.mark.parametrize("game", [VALERIA, QUEEN])
@pytest.mark.parametrize("pdf", ["kit.pdf", "rulebook.pdf", "instructions.pdf"])
def test_5_every_kit_printing_the_mark_explains_it_where_it_first_appears(built_kit, game, pdf):
    pages = page_texts(built_kit(game) / pdf)
    assert not [i + 1 for i, text in enumerate(pages) if "\u00b0" in text]        # no degree sign left
    marked = [i for i, text in enumerate(pages) if "*" in text]
    assert marked, f"{game} {pdf} prints no mark"
    assert "A star (*)" in pages[marked[0]], (game, pdf, marked[0] + 1)


def test_5_a_kit_without_invented_values_says_nothing_of_the_mark(built_kit):
    text = pdf_text(built_kit("shadow_throne") / "instructions.pdf")
    assert "*" not in text and "A star" not in text


def test_5_every_chain_bonus_icon_on_a_campaign_map_has_a_key_on_the_same_face():
    from pnp.components.board import pieces
    from pnp.layout.geometry import Icon, Text, flatten
    from pnp.loading.gamedata import load_game

    game = load_game(VALERIA)
    spec = next(s for s in game.component_specs if s.id == "campaign_maps")
    faces = [face for piece in pieces(game, spec) for face in (piece.front, piece.back)]
    assert len(faces) == 10
    kinds = set(game.facts["chain_bonuses"])
    assert len(kinds) == 6
    for face in faces:
        els = list(flatten(face))
        chains = {e.name for e in els if isinstance(e, Icon) and e.role in ("across-icon", "down-icon")}
        keys = [e for e in els if isinstance(e, Icon) and e.role == "key-icon"]
        names = [e for e in els if isinstance(e, Text) and e.role == "key-name"]
        assert chains and chains <= {k.name for k in keys}
        assert len({k.name for k in keys}) == len(keys) == len(names) == 6
        for icon, name in zip(keys, names):          # each icon's name just right of it, on its line
            assert 0 < name.rect.x - icon.cx < 4 and name.rect.y < icon.cy < name.rect.top
            assert name.markup.strip()


def test_5_standee_cut_lines_show_on_dark_art(built_kit):
    """Pixel check: where a cut line runs over dark art (dark on both sides of it, art and bleed), a light
    line shows along it; on the old kits a dark line on dark purple left no light pixel there."""
    import pypdfium2 as pdfium

    from pnp.components import BuildOptions
    from pnp.components.standee import build
    from pnp.layout.geometry import Line
    from pnp.loading.gamedata import load_game

    game = load_game(QUEEN)
    spec = next(s for s in game.component_specs if s.kind == "standee")
    page = build(game, BuildOptions(paper="letter"), spec)[0].pages[0]
    dpi = 300
    image = pdfium.PdfDocument(str(built_kit(QUEEN) / "standees.pdf"))[0].render(scale=dpi / 72).to_pil().convert("L")

    def lum(x_mm, y_mm):
        return image.getpixel((round(x_mm / 25.4 * dpi), round((page.height - y_mm) / 25.4 * dpi)))

    on_dark = 0
    for line in page.find("cut"):
        if not isinstance(line, Line) or line.x1 != line.x2 or abs(line.y2 - line.y1) < 20:
            continue
        for along in (0.3, 0.4, 0.6, 0.7):
            x, y = line.x1, line.y1 + (line.y2 - line.y1) * along
            if max(lum(x - 0.7, y), lum(x + 0.7, y)) > 110:
                continue                              # light on one side: the feet, the paper, a fold
            on_dark += 1
            window = [lum(x + dx / 20, y) for dx in range(-9, 10)]     # 0.45 mm either side
            assert max(window) > 180, (x, y, window)
    assert on_dark >= 40


# 2 ------------------------------------------------------------------------------------------------------
def test_2_the_largest_empty_rectangle_of_a_face_is_measured_to_the_cell():
    from pnp.layout.geometry import Rect
    from pnp.layout.space import largest_empty

    # a 63 x 88 face, a 20 mm band drawn across its top: the rest inside the 3 mm margin is empty
    empty = largest_empty([Rect(0, 68, 63, 20)], (63, 88))
    assert (empty.rect.x, empty.rect.y, empty.rect.w, empty.rect.h) == (3.0, 3.0, 57.0, 65.0)
    assert empty.share == pytest.approx(57 * 65 / (63 * 88))
    # a column down the middle halves it: the larger half wins
    empty = largest_empty([Rect(0, 68, 63, 20), Rect(25, 0, 4, 88)], (63, 88))
    assert (empty.rect.x, empty.rect.w, empty.rect.h) == (29.0, 31.0, 65.0)


@pytest.mark.parametrize("game", GAMES)
def test_2_no_card_of_our_games_leaves_a_quarter_of_its_face_empty(game):
    from pnp.components import BuildOptions
    from pnp.components.cards import deck_faces
    from pnp.draw.icons import using
    from pnp.draw.text import ink_rect
    from pnp.layout.space import MAX_EMPTY_SHARE, empty_space
    from pnp.loading.gamedata import load_game

    loaded = load_game(game)
    worst = {}
    with using(loaded.icons):
        for deck in loaded.decks:
            faces, labels, cards = deck_faces(loaded, deck, BuildOptions())
            for face, card in zip(faces, cards):
                empty = empty_space(face, (deck.width, deck.height), lambda t: ink_rect(t.rect, t.markup, t.style))
                key = card.id if card is not None else f"{deck.id} aid"
                worst[key] = round(empty.share, 3)
    assert MAX_EMPTY_SHARE == 0.25
    assert {k: v for k, v in worst.items() if v > MAX_EMPTY_SHARE} == {}


@pytest.mark.parametrize("game", GAMES)
def test_2_validate_warns_of_no_empty_face_on_our_games(game, validated):
    result = validated("validate", game, "--no-cache")     # shared with test_page_fill (conftest.validated)
    assert result.exit_code == 0 and "of the face empty" not in result.output, result.output


def test_2_a_card_leaving_its_face_empty_is_a_warning_at_the_layouts_line(starfall):
    from click.testing import CliRunner

    from pnp.commands.cli import main

    result = CliRunner().invoke(main, ["validate", str(starfall), "--no-cache"])
    assert result.exit_code == 0, result.output
    lines = (starfall / "game.yaml").read_text().splitlines()
    line = next(i + 1 for i, text in enumerate(lines) if text.strip() == "- id: omens")
    assert (f"game.yaml:{line}: warning: deck 'omens': layout 'classic': 3 cards, e.g. card 'eclipse', leaves 42% "
            "of the face empty in one area (38 x 31 mm in the middle; more than 25%): give the piece content there "
            "(a region showing its data, a picture) or let a region fill it") in result.output


def test_2_the_region_that_leaves_the_space_empty_is_named_at_its_line(starfall):
    """A layout whose art window holds a short text: the warning is at that region's line."""
    from click.testing import CliRunner

    from pnp.commands.cli import main

    layouts = starfall / "templates" / "layouts"
    layouts.mkdir(parents=True, exist_ok=True)
    (layouts / "sparse.yaml").write_text(
        "extends: classic\n"
        "styles:\n"
        "  tiny: {font: sans, size: 6, min_size: 6, max_lines: 1, valign: top}\n"
        "regions:\n"
        "  - {name: motto, kind: text, rect: [5, 20, 53, 46], style: tiny, text: \"'Omen'\"}\n")
    game_yaml = starfall / "game.yaml"
    text = game_yaml.read_text()
    game_yaml.write_text(text.replace("  - id: omens\n", "  - id: omens\n    layout: sparse\n", 1))
    result = CliRunner().invoke(main, ["validate", str(starfall), "--no-cache"])
    assert result.exit_code == 0, result.output
    assert "layouts/sparse.yaml:5: warning: deck 'omens': layout 'sparse', region 'motto': 3 cards" in result.output


@pytest.mark.parametrize("game", [g for g in GAMES if g != "behind_the_throne"])     # a tuck box has no lid
def test_2_every_box_lid_shows_the_cover_art_or_the_emblems(game):
    from pnp.components import BuildOptions
    from pnp.components import box as box_component
    from pnp.layout.geometry import Icon, Picture
    from pnp.loading.gamedata import load_game

    result = box_component.layout(load_game(game), BuildOptions())
    top = next(pl.rect("lid-top") for pl in result.placements if pl.piece.has("lid-top"))
    shown = [e for page in result.pages[:1] for e in page.find("emblem") + page.find("lid-art")
             if isinstance(e, (Icon, Picture))]
    inside = [e for e in shown if top.x < (e.cx if isinstance(e, Icon) else e.rect.cx) < top.right
              and top.y < (e.cy if isinstance(e, Icon) else e.rect.cy) < top.top]
    assert inside, f"{game}: the lid's top is an empty panel"
    assert all(e.size >= 10 for e in inside if isinstance(e, Icon))          # not a token sign


@pytest.mark.parametrize("lang, smallest", [("en", 8.0), ("es", 7.0)])
def test_2_shadow_thrones_quick_reference_is_legible_and_fills_its_card(lang, smallest):
    """English at 8 pt or more (the space allows it), Spanish's longer words as large as they fit; the
    text reaches the foot of the card (it stopped a third short at 6.5-7 pt)."""
    from pnp.components.cards import aid_elements
    from pnp.draw.icons import using
    from pnp.draw.text import fit
    from pnp.loading.gamedata import load_game

    game = load_game("shadow_throne")
    with using(game.icons):
        bodies = [e for d in game.decks for e in aid_elements(game, d, lang) if e.role == "aid-body"]
        assert bodies
        for body in bodies:
            fitted = fit(body.markup, body.style, body.rect.w, body.rect.h)
            assert fitted.ok and fitted.size >= smallest
            assert fitted.height_pt / 2.8346 >= 0.85 * body.rect.h


def test_2_a_board_leaving_its_face_empty_is_a_warning_at_its_entry(starfall):
    from click.testing import CliRunner

    from pnp.commands.cli import main

    result = CliRunner().invoke(main, ["validate", str(starfall), "--no-cache"])
    lines = (starfall / "game.yaml").read_text().splitlines()
    line = next(i for i, text in enumerate(lines) if "id: charts" in text)      # its entry's "- kind: board"
    assert (f"game.yaml:{line}: warning: board 'charts': layout 'chart': 4 pieces, e.g. piece 'Dawn star chart', "
            "leaves 35% of the face empty in one area (94 x 26 mm in the middle; more than 25%)") in result.output
