"""The component defects of the print review (issue 24), each measured on the laid-out pieces: geometry
(what overlaps what, what fits in what), contrast and text. Defect 5 (seams) and 12 (Shadow Throne card
art and badges) are tested with their own work."""

import json
import re

import pytest
import yaml
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.components import BuildOptions
from pnp.draw.icons import using
from pnp.loading.gamedata import load_game
from pnp.layout.colour import contrast
from pnp.layout.geometry import Box, Circle, Icon, Rect, Text, extent, flatten

VALERIA, QUEEN, THRONE = "shadow_kingdoms_of_valeria", "shadow_queen", "shadow_throne"
POKER = (63.0, 88.0)


@pytest.fixture(scope="module")
def valeria():
    return load_game(VALERIA)


@pytest.fixture(scope="module")
def queen():
    return load_game(QUEEN)


@pytest.fixture(scope="module")
def spanish_kit(built_kit):
    """Shadow Throne's kit built in Spanish (the default game), on Letter: the run's shared kit, read only
    (conftest.built_kit; other modules read the same one)."""
    return built_kit(THRONE, "es")


def pdf_text(path) -> str:
    """A PDF's text with its whitespace (line ends, hyphen-free breaks) folded to single spaces."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(path))
    return " ".join(" ".join(doc[i].get_textpage().get_text_range() for i in range(len(doc))).split())


def board_piece(game, spec_id, index=0):
    from pnp.components.board import pieces

    spec = next(s for s in game.component_specs if s.id == spec_id)
    return pieces(game, spec)[index]


def icon_box(e: Icon) -> Rect:
    return Rect(e.cx - e.size / 2, e.cy - e.size / 2, e.size, e.size)


# 1 ------------------------------------------------------------------------------------------------------
def test_1_battle_plan_prices_stand_below_their_spaces_never_in_a_card_space(valeria):
    els = list(flatten(board_piece(valeria, "board").front))
    card_spaces = [e.rect for e in els if isinstance(e, Box) and e.role in
                   ("plan", "plans-deck", "award", "row-space", "row-deck")]
    plans = [e.rect for e in els if isinstance(e, Box) and e.role == "plan"]
    costs = [e for e in els if isinstance(e, Icon) and e.role == "plan-cost"]
    assert len(plans) == len(costs) == len(valeria.facts["battle_plan_line"]["costs"]) == 5
    assert all((r.w, r.h) == POKER for r in plans)
    for plan, cost in zip(plans, costs):
        coin = icon_box(cost)
        assert not any(coin.overlaps(space) for space in card_spaces), (cost.label, coin)
        assert plan.x < cost.cx < plan.right and coin.top <= plan.y           # right under its own space
    assert [c.label.rstrip("\\*") for c in costs] == [str(c) for c in valeria.facts["battle_plan_line"]["costs"]]


# 2 and 9 ------------------------------------------------------------------------------------------------
def test_2_9_pattern_awards_draw_their_shape_on_a_3x3_map_and_every_award_names_its_deck(valeria):
    from pnp.components.cards import laid_out_face

    deck = valeria.deck("awards")
    patterns = 0
    with using(valeria.icons):
        for card in deck.cards:
            face = list(flatten(laid_out_face(valeria, deck, card, None, "", POKER, 0.0)))
            rank = next(e for e in face if e.role == "rank")
            assert rank.markup == f"Award \u00b7 {card.stats['diamond']} diamond"                  # defect 9
            cells = [e.rect for e in face if isinstance(e, Box) and e.role == "award-map"]
            markers = [e for e in face if isinstance(e, Circle) and e.role == "award-marker"]
            ability = next(e for e in face if e.role in ("ability", "ability-plain"))
            assert " o o" not in ability.markup and "X" not in ability.markup
            if card.ability.kind != "pattern":
                assert not cells and not markers
                continue
            patterns += 1
            assert "shape drawn above" in ability.markup
            xs, ys = sorted({round(r.x, 2) for r in cells}), sorted({round(r.y, 2) for r in cells}, reverse=True)
            assert len(cells) == 9 and len(xs) == len(ys) == 3
            assert all(round(b - a, 2) == 4.2 for a, b in zip(xs, xs[1:]))
            # a marker in the middle of each cell of the pattern (cells 0 1 2 / 3 4 5 / 6 7 8), nowhere else
            centres = {(round(m.cx, 2), round(m.cy, 2)) for m in markers}
            wanted = {(round(xs[c % 3] + 2.1, 2), round(ys[c // 3] + 2.1, 2)) for c in card.ability.params["cells"]}
            assert centres == wanted
    assert patterns == 5


# 3 ------------------------------------------------------------------------------------------------------
def test_3_score_tracker_backs_show_their_owner_and_a_readable_plus_70(valeria):
    from pnp.components.tokens import faces
    from pnp.loading.tokendata import load_tokens

    tokens = {t.id: t for t in load_tokens(valeria).tokens}
    trackers = [t for t in tokens.values() if t.kind == "score_tracker"]
    assert len(trackers) == 5
    assert len({t.back.background for t in trackers}) == 5                     # five owners, five colours
    with using(valeria.icons):
        laid = faces(valeria, load_tokens(valeria))
    for t in trackers:
        assert t.back.background == t.front.background
        caption = next(e for e in laid[t.id][1] if isinstance(e, Text))
        assert caption.markup == "+70"
        assert contrast(caption.style.colour, t.back.background) >= 4.5, (t.id, caption.style.colour)


# 4 ------------------------------------------------------------------------------------------------------
def test_4_the_player_board_battle_area_holds_a_whole_battle_plan(valeria):
    els = list(flatten(board_piece(valeria, "player_boards").front))
    area = next(e.rect for e in els if isinstance(e, Box) and e.role == "plan-area")
    slot = next(e.rect for e in els if isinstance(e, Box) and e.role == "plan-slot")
    assert (slot.w, slot.h) == POKER and area.inset(1.0).contains(slot)
    own = ("ground", "plan-area", "plan-area-head", "plan-slot", "plan-area-text")
    inside = [e.role for e in els if e.role not in own and extent(e).overlaps(area)]
    assert inside == []                                   # nothing else on the board reaches into the area


# 6 ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("token, size", [("possession", 19), ("messenger", 23)])
def test_6_captions_keep_1_mm_inside_the_cut_circle(queen, token, size):
    from pnp.components.tokens import cut_pieces
    from pnp.draw.ink import ink
    from pnp.layout.outline import clearances

    with using(queen.icons):
        for piece in (p for p in cut_pieces(queen) if p.name.startswith(f"token '{token}' ")):
            assert piece.outline.r == size / 2
            caption = [c for c in clearances(piece, ink) if isinstance(c.element, Text)]
            assert caption and all(c.distance >= 1.0 for c in caption), \
                [(c.element.markup, c.distance) for c in caption]


# 7 ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id, holds, beside", [
    (THRONE, ["54 character cards", "5 quick-reference cards", "132 tokens"], ["1 power track", "1 rulebook"]),
    (VALERIA, ["48 Battle Plan cards", "61 Champion cards", "15 Award cards", "81 tokens", "5 Warden standees"],
     ["1 game board in 9 tiles", "5 player boards", "5 campaign maps", "1 rulebook", "45 troop dice in their bag"]),
    (QUEEN, ["68 action cards (two decks)", "90 counters, markers and holding tiles"],
     ["1 map in tiles", "36 standees", "2 reference sheets", "1 rulebook"]),
    ("behind_the_throne", ["82 cards"], ["1 rulebook"]),
])
def test_7_the_box_lists_what_it_holds_and_says_what_travels_beside_it(game_id, holds, beside):
    from pnp.components.box import layout, manifest_entry

    game = load_game(game_id)
    pages = layout(game, BuildOptions()).pages
    found = {role: [t.markup.split("\n") for p in pages for t in p.find(role)] for role in ("contents", "beside")}
    assert found == {"contents": [holds], "beside": [beside]}
    entry = manifest_entry(game)
    assert [f"{i['count']} {i['item']}" for i in entry["holds"]] == holds
    assert [f"{i['count']} {i['item']}" for i in entry["beside"]] == beside


def test_7_in_box_says_where_a_counted_item_goes(game_copy):
    """A counted item travels beside the box unless box.yaml says in_box: true (dice in the token bag)."""
    from pnp.components.box import manifest_entry

    path = game_copy / "box.yaml"
    path.write_text(path.read_text().replace("  - {count: 1, item: power track}",
                                             "  - {count: 1, item: power track, in_box: true}"))
    entry = manifest_entry(load_game(game_copy))
    assert {"count": 1, "item": "power track"} in entry["holds"]
    assert [i["item"] for i in entry["beside"]] == ["rulebook"]


# 8 ------------------------------------------------------------------------------------------------------
def test_8_the_two_decks_backs_differ_in_colour_and_emblem(queen):
    from pnp.components.cards import back_elements

    backs = {d.id: list(flatten(back_elements(queen, d))) for d in queen.decks}
    ground = {k: next(e.fill for e in els if e.role == "back") for k, els in backs.items()}
    emblems = {k: {e.name for e in els if e.role == "back-emblem"} for k, els in backs.items()}
    assert emblems == {"shadows": {"skull"}, "kingdom": {"crown"}}
    assert contrast(ground["shadows"], ground["kingdom"]) >= 1.5


def test_8_standee_feet_fit_the_hex_they_stand_on(queen):
    from pnp.components.standee import config_of

    spec = next(s for s in queen.component_specs if s.kind == "standee")
    config = config_of(spec)
    hex_size = queen.map.size                              # across the flats
    assert 2 * config["base_depth"] <= hex_size - 2 and config["width"] <= hex_size - 2


def test_8_cave_counters_count_to_the_bear(queen):
    from pnp.loading.tokendata import load_tokens
    from rules_engine.shadow_queen.rules import CAVE_TURNS

    captions = [face.caption for t in load_tokens(queen).tokens if t.id.startswith("cave-")
                for face in (t.front, t.back)]
    assert captions == [f"Cave {n}" for n in range(1, CAVE_TURNS + 1)]


def test_8_rulings_the_draft_does_not_give_print_in_italics():
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "data" / QUEEN / "templates" / "rulebook" / "en"
    text = "\n".join(p.read_text() for p in sorted(folder.glob("*.md.j2")))
    for ruling in ("A move is slowed when it begins in a forest or enters one.",
                   "at the end of the fifth, the bear takes it.",
                   "Lower attack: the draft does not say; the kit removes the attacking piece."):
        at = text.index(ruling)
        line = text[text.rfind("\n", 0, at) + 1:text.find("\n", at)]
        assert line[:line.index(ruling)].count("*") % 2 == 1, ruling              # inside *...*
    assert "**Lower attack:** the attacking piece is removed" not in text


def test_8_instructions_say_how_to_print_every_file(built_kit):
    import pypdfium2 as pdfium
    doc = pdfium.PdfDocument(str(built_kit(QUEEN) / "instructions.pdf"))     # the shared kit (read only)
    text = "".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    for sheet in ("Shadows reference", "Kingdom reference"):
        row = next(line for line in text.splitlines() if sheet in line and "sheets of paper" not in line)
        assert "Print once, on one side, and keep it at hand" in row, row
    # the cut instruction and the decks' sentence are two sentences, with a space between them
    flat = " ".join(text.split())
    assert "Cut along the grey lines. The cards come in 2 decks, each on its own sheets" in flat


def test_instructions_keep_a_space_before_the_decks_sentence_in_every_language():
    from jinja2 import Environment

    from pnp.components.instructions import TEMPLATES_DIR
    from pnp.loading.i18n import Words, pnp_words

    source = (TEMPLATES_DIR / "instructions" / "page.md.j2").read_text()
    # from the card sheets' paragraph (gutterfold sheets or not) to the decks' sentence
    start, end = source.index('{% if "cards-gutterfold.pdf" in files %}'), source.index('{{ say("kit_decks"')
    snippet = source[start:end] + '{{ say("kit_decks", count=2) }}{% endif %}'
    for lang, cut, decks in (("en", "Cut along the grey lines.", "The cards come in"),
                             ("es", "Recorta por las líneas grises.", "Las cartas forman")):
        words = Words(pnp_words(lang), lang)
        env = Environment(trim_blocks=True, lstrip_blocks=True)
        entries = [{"filename": "cards-fronts.pdf", "first": 3, "last": 9},
                   {"filename": "cards-backs.pdf", "first": 10, "last": 16}]
        out = env.from_string(snippet).render(bleed="", cutter="", files=set(), entries=entries, flip="long",
                                              game={"decks": [1, 2]}, words=words, say=words.say)
        assert f"{cut} {decks}" in " ".join(out.split()), (lang, out)


def test_8_bridge_sites_leave_the_hex_ids_clear_and_the_map_has_a_legend(queen):
    from pnp.components.hexmap import config_of, map_layout
    from pnp.draw.ink import text_ink

    with using(queen.icons):
        layout = map_layout(queen, config_of(None))
        els = list(flatten(layout.elements))
        ids = [e for e in els if e.role.startswith("id:")]
        for site in (e for e in els if e.role == "bridge-site"):
            box = extent(site)
            for t in ids:
                pts = text_ink(t)
                xs, ys = [p[0] for p in pts], [p[1] for p in pts]
                ink = Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
                assert not box.overlaps(ink), (t.markup, box, ink)
    names = [e.markup for e in els if e.role == "legend-label"]
    assert names == [t.name for t in queen.map.terrains] + ["Bridge site", "Edge bridge site", "River edge",
                                                           "Shadow half", "Kingdom half"]
    hexes_top = max(y for h in layout.hexes for _, y in layout.grid.corners(h))
    assert all(extent(e).y >= hexes_top for e in els if e.role.startswith("legend"))


def test_8_every_legend_name_fits_its_column_in_every_language(queen):
    from pnp.components.hexmap import config_of, map_layout
    from pnp.draw.ink import text_ink
    from pnp.layout.hexmap import LEGEND_PITCH

    for lang in ("en", "es"):
        with using(queen.icons):
            layout = map_layout(queen, config_of(None), lang)
        labels = [e for e in flatten(layout.elements) if e.role == "legend-label"]
        assert len(labels) == 9
        for label in labels:
            xs = [x for x, _ in text_ink(label)]
            assert xs, (lang, label.markup, "prints nothing: too long for its column")
            assert label.rect.x <= min(xs) and max(xs) <= label.rect.right <= label.rect.x + LEGEND_PITCH, \
                (lang, label.markup)
        if lang == "es":
            assert "Lugar de puente (borde)" in [t.markup for t in labels]


def test_8_the_map_legend_names_every_mark_the_map_draws_in_its_colours_and_no_seam_cuts_it(queen):
    """Each kind of line or ring the map draws (river edges, the bridge sites on a hex and on an edge, each
    side's rim) has a legend entry drawn with the same colour and stroke, its name inside the legend's
    block, and the block lies on one tile on Letter and A4."""
    from pnp.components.hexmap import config_of, map_layout, plan
    from pnp.draw.ink import text_ink
    from pnp.layout.geometry import Line
    from pnp.units import PAPERS

    with using(queen.icons):
        layout = map_layout(queen, config_of(None))
    els = list(flatten(layout.elements))
    labels = [e for e in els if e.role == "legend-label"]
    swatches = [e for e in els if e.role == "legend-swatch"]
    block = next(r for r in layout.keep if r.y > max(y for h in layout.hexes for _, y in layout.grid.corners(h)))

    def swatch_of(label):          # the swatch parts on the label's row, just left of it
        return [s for s in swatches if abs(extent(s).y + extent(s).h / 2 - (label.rect.y + label.rect.h / 2)) < 0.01
                and 0 < label.rect.x - extent(s).right < 5.0]

    drawn = {"River edge": [e for e in els if e.role == "river-edge"],
             "Shadow half": [e for e in els if e.role == "rim:shadows"],
             "Kingdom half": [e for e in els if e.role == "rim:kingdom"]}
    for name, marks in drawn.items():
        label = next(t for t in labels if t.markup == name)
        line = next(s for s in swatch_of(label) if isinstance(s, Line))
        assert marks and {(m.colour, m.width) for m in marks} == {(line.colour, line.width)}, name
    edge = swatch_of(next(t for t in labels if t.markup == "Edge bridge site"))
    site_marks = [e for e in els if e.role == "bridge-site" and isinstance(e, Line)]
    assert {(m.colour, m.width, m.dash) for m in site_marks} <= {(s.colour, s.width, s.dash) for s in edge
                                                                  if isinstance(s, Line)}
    for label in labels:            # every name's ink inside the block and its own column
        xs, ys = zip(*text_ink(label))
        assert block.x <= min(xs) and max(xs) <= label.rect.right and max(xs) <= block.right, label.markup
        assert block.y <= min(ys) and max(ys) <= block.top, label.markup
    for paper in ("letter", "a4"):
        assert plan(layout, PAPERS[paper], config_of(None)).cut == ()


# 9 ------------------------------------------------------------------------------------------------------
def test_9_a4_campaign_maps_print_their_name_outside_the_piece(tmp_path):
    from pnp.components.board import config_of, label_rect, piece_pages
    from pnp.loading.i18n import strings

    game = load_game(VALERIA)
    spec = next(s for s in game.component_specs if s.id == "campaign_maps")
    piece = board_piece(game, "campaign_maps")
    for paper in ("letter", "a4"):
        pages, _, _ = piece_pages(piece, config_of(spec), BuildOptions(paper=paper), strings(game, None))
        for page in pages:
            printed = [extent(e) for e in page.elements if e.role in ("front", "back")]
            for label in page.find("piece-label"):
                assert not any(label.rect.overlaps(r) for r in printed), (paper, label.rect)
                assert label.rect.y >= 6.0 and label.rect.top <= page.height - 6.0


# 10 -----------------------------------------------------------------------------------------------------
def test_10_credits_print_on_the_rulebook_cover_and_the_box(built_kit, spanish_kit):
    from pnp.components.box import layout

    game = load_game(THRONE)
    lines = ["Design: Teale Fristoe", "Published by Nothing Sacred Games",
             "Art of the original edition: Jesse Parrotti"]
    box = [t.markup for p in layout(game, BuildOptions()).pages for t in p.find("credits")]
    assert box == ["\n".join(lines)]
    lines.append("Examples of play and playtesting bots: pnp")     # box: false, on the rulebook's cover only
    kit = built_kit()                  # the default game's kit, built once a run (conftest.built_kit; read only)
    import pypdfium2 as pdfium
    cover = pdfium.PdfDocument(str(kit / "rulebook.pdf"))[0].get_textpage().get_text_range()
    assert all(line in cover for line in lines)
    cover = pdfium.PdfDocument(str(spanish_kit / "rulebook.pdf"))[0].get_textpage().get_text_range()
    assert "Diseño: Teale Fristoe" in cover and "Arte de la edición original: Jesse Parrotti" in cover
    # manifest.json: a file beside the kit has its own pages, not 0
    manifest = json.loads((kit / "manifest.json").read_text())
    files = {f["file"]: f for c in manifest["components"] for f in c["files"]}
    assert files["rulebook.pdf"]["pages"] == 16 and not files["rulebook.pdf"]["in_kit"]
    assert files["cards-duplex.pdf"]["pages"] == 14
    assert all(f["pages"] > 0 for f in files.values())


def test_10_the_rulers_caption_says_where_the_ruler_is():
    from pathlib import Path

    templates = Path(__file__).resolve().parents[1] / "templates"
    page = (templates / "instructions" / "page.md.j2").read_text()
    assert page.rstrip().endswith("!ruler")       # the ruler is the last thing: "at the end"
    for lang in ("en", "es"):
        words = yaml.safe_load((templates / "strings" / f"{lang}.yaml").read_text())
        assert "foot" not in words["kit_intro"] and "al pie" not in words["kit_intro"]
    assert "ruler at the end of these instructions" in yaml.safe_load(
        (templates / "strings" / "en.yaml").read_text())["kit_intro"]


def test_10_a_credit_without_a_name_is_an_error_at_its_line(game_copy):
    path = game_copy / "game.yaml"
    path.write_text(path.read_text().replace("credits:\n", "credits:\n  - {role: Story}\n", 1))
    line = next(i for i, l in enumerate(path.read_text().splitlines(), 1) if "{role: Story}" in l)
    result = CliRunner().invoke(main, ["validate", str(game_copy)])
    assert result.exit_code == 2
    assert f"game.yaml:{line}: 1st credit: name: required key is missing" in result.output


# 11 -----------------------------------------------------------------------------------------------------
def test_11_spanish_engine_sentences_have_articles_and_agreement():
    from pnp.rulebook.component import engine_examples
    from pnp.loading.i18n import translate
    from pnp.rulebook.chapters import load_config

    es = translate(load_game(THRONE), "es")
    examples = engine_examples(es, load_config(es), "es")
    text = "\n".join(line for lines in examples.values() for line in lines)
    assert "La victoria es para la Iglesia." in text and "La victoria es para los Rebeldes." in text
    assert "La victoria es para el Imperio." in text
    assert not re.search(r"La victoria es para (Iglesia|Imperio|Rebeldes)", text)
    assert "le quedan 1)" not in text and "le quedan" not in text
    assert "a la facción" not in text and "El Pastor de los Perdidos (Ben) convierte al Forajido (Ana) a la Iglesia." in text


def test_11_spanish_examples_agree_and_name_every_person():
    """The rulebook's examples as printed in Spanish (the event templates' prose): the gold left agrees
    with its number (never 'le quedan 1'), every person of a list takes its 'a' contracted with the name's
    article ('al Forajido', 'a la Guardia'), a name with an epithet closes it with a comma, 'X de Ana' uses the short name, and nothing is 'cobrado' at 0."""
    from pnp.rulebook.component import engine_battle, engine_examples
    from pnp.loading.i18n import translate
    from pnp.rulebook.chapters import load_config

    es = translate(load_game(THRONE), "es")
    cfg = load_config(es)
    told = [sentence for ex in (*engine_examples(es, cfg, "es").values(), engine_battle(es, cfg, "es", prose=True))
            for sentence in (ex.setup, *ex.steps, *ex.outcome)]
    text = " ".join(" ".join(told).replace("**", "").split())
    assert "le quedan 1." not in text and "le quedan 1)" not in text and "le quedaron 1 " not in text
    assert "Cleo juega Reina Eletheria y paga 5 de oro; le queda 1." in text
    assert "Oleada 4: Ana juega Rey Kyros y paga 5 de oro; le queda 1." in text
    assert "Ana juega Anna Lys, Hacedora de Viudas, y paga 3 de oro; le quedan 2." in text
    assert ("Paso 1: Anna Lys de Ana mata al Pastor de los Perdidos de Ben y a la Guardia de la Reina de Cleo."
            in text)
    assert ("El Pastor de los Perdidos de Ben convierte al Forajido de Ana y al Campesino Obediente de Cleo: desde "
            "ahora cuentan para la Iglesia.") in text
    assert ("Ana juega Esclavo Desafiante y paga 1 de oro, que es el Oro por Silencio por repetir la facción de "
            "la oleada anterior; le quedan 4.") in text
    assert "el Oro por Silencio le quita 1 del ingreso, así que no cobra nada (sigue con 5 de oro)." in text
    assert "cobra 0 de oro" not in text and "1 de ellos de Oro por Silencio" not in text
    assert "Ana gana 2 de influencia por Anna Lys, Hacedora de Viudas, y termina la batalla" in text
    assert "Ana renuncia a añadir otra carta con el Rey Kyros." in text and "no añade ninguna carta" not in text
    assert not re.search(r"(mata|convierte|poder) al? [^.;:]* y (?!al? )[A-Z]", text)     # a second person without 'a'


def test_11_spanish_card_texts_and_printed_words():
    from pnp.loading.cardtext import ability_text
    from pnp.loading.i18n import strings, translate

    es = translate(load_game(THRONE), "es")
    texts = {c.id: ability_text(es, c, "es") for c in es.cards}
    assert "la facción" not in " ".join(texts.values())
    assert texts["langman"].startswith("Si el bando rebelde pierde esta batalla")
    assert texts["shepherd-of-the-lost"] == ("**Convierte** [convert] a cada [pips:1] plebeyo de otra facción de "
                                             "esta oleada en personaje de la Iglesia.")
    assert texts["phabos-scouts"] == "Cada personaje rebelde de esta oleada, salvo este, obtiene +1 [power]."
    assert texts["thamna"] == "+3 [power] si, tras pagar este personaje, tienes 1 [gold] o menos."
    words = strings(es, "es")
    assert words["box_top"] == "parte superior" and words["box_back"] == "parte trasera"
    assert es.card("loyal-soldier").flavour != "El estandarte cambia. La paga no debe."
    from pathlib import Path
    instructions = (Path(__file__).resolve().parents[1] / "templates" / "strings" / "es.yaml").read_text()
    assert "da lo mismo" not in instructions


def test_11_spanish_kit_reads_without_calques(spanish_kit):
    """The Spanish kit's own words, as printed: factions win (not 'el mayor poder'), ties among them (not
    'los empates ganan todos'), the instructions in plain Spanish."""
    rulebook = pdf_text(spanish_kit / "rulebook.pdf")
    assert "Gana la facción con más poder; si hay empate, ganan todas las empatadas." in rulebook
    assert "Los personajes de las facciones ganadoras dan influencia" in rulebook
    assert "gana quien tenga más influencia y, si hay empate, más oro." in rulebook
    assert "los empates ganan todos" not in rulebook and "Gana el mayor poder" not in rulebook
    cards = pdf_text(spanish_kit / "cards-fronts.pdf")
    assert cards.count("Gana la facción con más ; si hay empate, ganan todas las empatadas.") == 5   # the aids
    assert "empatados" not in cards and "Gana quien tenga más ;" not in cards
    instructions = pdf_text(spanish_kit / "instructions.pdf")
    assert "con una cizalla de papel, las cartas se cortan mucho más deprisa" in instructions
    assert "También puedes usar fundas." in instructions
    assert "acelera mucho las cartas" not in instructions and "sirven fundas" not in instructions


def test_8_a_map_word_too_long_for_its_place_is_an_error_at_its_line(tmp_path):
    """A holding's name that cannot fit its disc printed nothing, silently: pnp validate says so at the
    holding's line in the map file."""
    import shutil

    from pnp import DATA_DIR

    root = tmp_path / QUEEN
    shutil.copytree(DATA_DIR / QUEEN, root)
    path = root / "map.yaml"
    long = "The Most Ancient and Venerable Stronghold of the Shadow Queen Beyond the River"
    path.write_text(path.read_text().replace("name: The Stronghold}", f"name: {long}}}"))
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if long in text)
    result = CliRunner().invoke(main, ["validate", str(root)])
    assert result.exit_code == 2, result.output
    assert f"map.yaml:{line}: hexmap 'hexmap': holding-name {long!r} does not fit its" in result.output


def test_english_examples_close_an_epithet_before_the_sentence_goes_on():
    """A card name with an epithet ("Anna Lys, Widow Maker") is an apposition: in the English examples the
    sentence that goes on after it closes it with a comma, as the Spanish ones do."""
    from pnp.rulebook.component import engine_battle, engine_examples
    from pnp.rulebook.chapters import load_config

    game = load_game(THRONE)
    cfg = load_config(game)
    told = [sentence for ex in (*engine_examples(game, cfg, "en").values(), engine_battle(game, cfg, "en", prose=True))
            for sentence in (ex.setup, *ex.steps, *ex.outcome)]
    text = " ".join(" ".join(told).replace("**", "").split())
    assert "Ana plays Anna Lys, Widow Maker, and pays 3 gold" in text
    assert not re.search(r"Widow Maker (and|but|for|in|to) ", text)


@pytest.mark.parametrize("lang, tiled, whole", [
    ("en", "Start from the assembly map", "Print on one side, on card stock if you can."),
    ("es", "Parte del plano de montaje", "Imprime a una cara, mejor en cartulina.")])
def test_instructions_speak_of_tiles_only_for_a_board_printed_in_tiles(lang, tiled, whole):
    from jinja2 import Environment

    from pnp.components import Part
    from pnp.components.instructions import TEMPLATES_DIR

    from pnp.loading.i18n import Words, pnp_words

    source = (TEMPLATES_DIR / "instructions" / "page.md.j2").read_text()
    # the table of files: from the top of the template to the end of its loop
    snippet = source[:source.index("{% endfor %}", source.index("{% for e in entries")) + len("{% endfor %}")]
    env = Environment(trim_blocks=True, lstrip_blocks=True)
    words = Words(pnp_words(lang), lang)
    board = {"filename": "board.pdf", "title": "Board", "first": 2, "last": 11, "component": "board",
             "sides": "single", "parts": (Part("board", "board", 1, "Board"), Part("tile", "board-tiles", 9, "tiles"))}
    boards = {"filename": "player-boards.pdf", "title": "Player boards", "first": 12, "last": 16,
              "component": "player_boards", "sides": "single", "parts": (Part("board", "player_boards", 5, "boards"),)}
    out = env.from_string(snippet).render(entries=[board, boards], kinds={"board": "board", "player_boards": "board"},
                                          game={"title": "G"}, words=words, say=words.say, cutter="", need=[])
    rows = {line.split("|")[3].strip(): line.split("|")[5].strip() for line in out.splitlines()
            if line.startswith("| [tick_box] | 2") or line.startswith("| [tick_box] | 12")}
    assert tiled in rows["**Board**"]
    assert rows["**Player boards**"] == whole
