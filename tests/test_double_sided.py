"""Double-sided cards (a deck's ``side_b``): tests/games/dusk_orchard, whose orchard cards have a Dawn side
and a Dusk side with fields of its own, and whose weather deck is mixed (two cards turn over, the others
print the deck's back).

Loading and every check on side B, each mistake told at the line (or spreadsheet cell) of side B's value;
then every output: duplex sheets (both flips) and gutterfold with side A and side B of each card back to
back to 0.01 mm, a cutting machine's sheets, exports, previews, figures, translations, pieces.json, the
manifest and the instructions page."""

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.components import BuildOptions
from pnp.components.cards import build as build_cards
from pnp.draw.icons import using
from pnp.layout.doublesided import turn_matrix
from pnp.layout.geometry import Group, Text, Transform, apply, compose, flatten
from pnp.loading.gamedata import load_game
from pnp.loading.i18n import translate
from pnp.text.markup import plain_text

GAME = Path(__file__).parent / "games" / "dusk_orchard"
IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@pytest.fixture(scope="module")
def game():
    return load_game(GAME)


@pytest.fixture
def copy(tmp_path) -> Path:
    """A writable copy of Dusk Orchard, to make mistakes in."""
    dest = tmp_path / "dusk_orchard"
    shutil.copytree(GAME, dest)
    return dest


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def validate(folder, *more):
    return run("validate", folder, "--no-cache", *more)


def words(elements) -> list[str]:
    """The words every text of ``elements`` prints (inside groups and transforms too)."""
    out = []
    for e in flatten(elements):
        if isinstance(e, Text):
            out.append(plain_text(e.markup))
        elif isinstance(e, (Group, Transform)):
            out += words(e.elements)
    return out


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    """Dusk Orchard's kits as pnp build makes them, by language (built once, read only)."""
    built = {}

    def make(lang="en"):
        if lang not in built:
            out = tmp_path_factory.mktemp(f"dusk-orchard-{lang}")
            result = run("build", GAME, "--lang", lang, "--out", out, "--no-cache")
            assert result.exit_code == 0, result.output
            built[lang] = out
        return built[lang]
    return make


# ----------------------------------------------------------------------------- the data

def test_a_double_sided_deck_gives_every_card_a_side_b_with_fields_of_its_own(game):
    orchard, weather = game.deck("orchard"), game.deck("weather")
    assert orchard.double_sided and orchard.side_b.required and orchard.side_b.own_fields
    assert [f.name for f in orchard.fields] == ["tend", "blossoms", "text"]
    assert [f.name for f in orchard.b.fields] == ["score", "sells", "season", "text"]
    plum = game.card("plum")
    # from the spreadsheet's side_b.* columns: its own name, values and texts, the card's id and copies
    assert (plum.side_b.id, plum.side_b.name, plum.side_b.copies) == ("plum", "Plum Harvest", 2)
    assert plum.side_b.stats == {"score": 3, "sells": 1, "season": "early", "text": "**Sell:** gain 1 [coin] more."}
    assert plum.side_b.flavour == "Sweet by noon." and plum.side_b.ability is None
    assert plum.stats == {"tend": 1, "blossoms": 2, "text": "Gain 1 [bloom]."}
    assert [c.id for c in orchard.b.cards] == [c.id for c in orchard.cards]
    # the mixed deck: its side B has the deck's fields; two of its cards have one
    assert not weather.side_b.required and not weather.side_b.own_fields
    assert [c.id for c in weather.cards if c.side_b] == ["squall", "first-frost"]
    assert game.card("squall").side_b.stats == {"effect": "Take back a [bloom] you lost."}
    assert game.card("drizzle").side_b is None


@pytest.mark.parametrize("where,old,new,message", [
    ("orchard.csv", "Plum Harvest,3,", "Plum Harvest,lots,",
     "orchard.csv:2:9: card 'plum': side_b.score: expected an integer, got 'lots'"),
    ("orchard.csv", "Score 1 more for each [fruit]", "Score 1 more for each [frut]",
     "orchard.csv:3:12: card 'pear': side_b.text: unknown icon [frut]; did you mean [fruit]?"),
    ("orchard.csv", "Cider Press,5,2,late", "Cider Press,5,2,noon",
     "orchard.csv:4:11: card 'apple': side_b.season: 'noon' is not one of: early, late"),
    ("weather.yaml", 'effect: "Take back a [bloom] you lost."', 'effect: "Take back a [blom] you lost."',
     "weather.yaml:10: card 'squall': side_b.effect: unknown icon [blom]; did you mean [bloom]?"),
    ("weather.yaml", "side_b: {name: Thaw,", "side_b: {name: Thaw, copies: 2,",
     "weather.yaml:16: card 'first-frost': side_b.copies: unknown key; accepted keys: name, flavour, art, "
     "art_fit, art_focus, art_bleed, effect"),
    ("weather.yaml", "side_b: {name: Thaw,", "side_b: {name: Thaw, art: art/thaw.png,",
     "weather.yaml:16: card 'first-frost': side_b.art: no file 'art/thaw.png' in the game folder"),
    ("game.yaml", "    side_b: {layout: dusk, required: false}", "    side_b: {layout: dusk}",
     "weather.yaml:2: card 'drizzle': side_b: the cards of deck 'weather' are double-sided (side_b in game.yaml); "
     "give this card's side B"),
    ("game.yaml", "    side_b: {layout: dusk, required: false}", "",
     "weather.yaml:8: card 'squall': side_b: the cards of deck 'weather' have one face; give the deck side_b: in "
     "game.yaml"),
    ("game.yaml", "      layout: dusk\n", "      layout: dusky\n",
     "game.yaml:32: deck 'orchard' side_b.layout: no layout 'dusky'"),
    ("game.yaml", "score: {type: int, required: true, min: 0, max: 9, icon: star}",
     "score: {type: int, required: true, min: 0, max: 9, icon: stra}",
     "game.yaml:28: deck 'orchard': side_b.fields.score.icon: unknown icon 'stra'"),
])
def test_each_mistake_on_side_b_is_told_at_its_line(copy, where, old, new, message):
    edit(copy / where, old, new)
    result = validate(copy)
    assert result.exit_code == 2, result.output
    assert f"{copy}/{message}" in result.output, result.output


def test_side_bs_text_that_does_not_fit_is_told_at_its_cell(copy):
    edit(copy / "orchard.csv", "Score 1 more for each [fruit] you hold.",
         " ".join(["Score 1 more for each [fruit] you hold."] * 10))
    result = validate(copy)
    assert result.exit_code == 2
    assert (f"{copy}/orchard.csv:3:12: card 'pear' side B: ability text does not fit its 50.2 x 16.6 mm box even "
            f"at 6.5 pt") in result.output, result.output


def test_side_bs_translation_is_checked_and_told_at_the_translations_line(copy):
    edit(copy / "i18n/es.yaml", "side_b: {name: Dulce de membrillo,",
         "side_b: {name: Dulce de membrillo muy muy muy largo de verdad que no cabe en ninguna parte de la carta,")
    result = validate(copy, "--lang", "es")
    assert result.exit_code == 2
    assert f"{copy}/i18n/es.yaml:29: card 'quince' side B: name text does not fit" in result.output, result.output
    # a word of side B the translation lacks is listed at the original's cell, with the key to add
    edit(copy / "i18n/es.yaml", "side_b: {name: Cosecha de peras, ", "side_b: {")
    result = validate(copy, "--lang", "es")
    assert (f"{copy}/orchard.csv:3:8: card 'pear': side_b.name 'Pear Harvest' is not translated into 'es': give "
            f"cards.pear.side_b.name in i18n/es.yaml") in result.output, result.output
    # a translated side B of a card that has none is an unused key
    edit(copy / "i18n/es.yaml", "drizzle: {name: Llovizna,", "drizzle: {side_b: {name: Niebla}, name: Llovizna,")
    result = validate(copy)
    assert f"{copy}/i18n/es.yaml" in result.output and "unused key 'cards.drizzle.side_b.name'" in result.output


def test_side_bs_art_is_checked_for_its_dpi_at_its_line(copy):
    from PIL import Image

    (copy / "art").mkdir(exist_ok=True)
    Image.new("RGB", (60, 80), "#775533").save(copy / "art" / "thaw.png")
    edit(copy / "weather.yaml", "side_b: {name: Thaw,", "side_b: {name: Thaw, art: art/thaw.png,")
    result = validate(copy)
    assert result.exit_code == 0, result.output
    assert (f"{copy}/weather.yaml:16: warning: card 'first-frost' side B: side_b.art thaw.png prints at 29 dpi "
            f"(60 x 80 px on 53.0 x 30.4 mm); print shops ask for 300") in result.output, result.output


def test_side_bs_text_past_its_cut_line_is_told_at_the_cell_of_the_words(copy):
    edit(copy / "templates/layouts/dusk.yaml", "  - {name: name, rect: [5.5, 69.4, 52, 9.6]}",
         "  - {name: name, rect: [-3, 69.4, 40, 9.6], style: name_left}")
    edit(copy / "templates/layouts/dusk.yaml", "  name: {colour: \"#f4ecdc\"}",
         "  name: {colour: \"#f4ecdc\"}\n  name_left: {font: serif-semibold, size: 12.5, min_size: 8.0, "
         "max_lines: 2, align: left, colour: \"#f4ecdc\"}")
    result = validate(copy)
    assert result.exit_code == 2, result.output
    assert (f"{copy}/orchard.csv:2:8: cards: card 'plum' side B: name 'Plum Harvest' reaches") in result.output, \
        result.output
    assert f"{copy}/weather.yaml:9: cards: card 'squall' side B: name 'Clearing' reaches" in result.output


def test_side_b_that_only_its_colours_tell_from_side_a_is_a_warning(copy):
    """Colour vision on both faces: a side B in side A's layout but for a colour that a greyscale print
    brings within ΔE 10 of side A's leaves nothing to show which side is up."""
    edit(copy / "game.yaml", "    side_b: {layout: dusk, required: false}",
         '    side_b: {layout: {extends: dawn, palette: {neutral: "#9a7a4a"}}, required: false}')
    result = validate(copy)
    assert result.exit_code == 0, result.output
    assert (f"{copy}/game.yaml:41: warning: deck 'weather' side B: side B (layout 'inline') looks like side A "
            f"(layout 'dawn') but for its colour #9a7a4a against #7a9a4a, and the two come within ΔE 5.3 of each "
            f"other for a greyscale print") in result.output, result.output
    # the orchard's Dusk side has a band and words of its own: no warning for it
    assert "deck 'orchard' side B" not in result.output


def test_the_classic_layout_prints_each_sides_fields_on_that_side_only(game):
    from pnp.components.cards import laid_out_face, side_b_face

    orchard = game.deck("orchard")
    with using(game.icons, game.language):
        for card in orchard.cards:
            a = " ".join(words(laid_out_face(game, orchard, card, None, "", orchard.size, 0.0)))
            b = " ".join(words(side_b_face(game, orchard, card)))
            assert card.name in a and card.side_b.name not in a and card.name not in b
            assert card.side_b.name in b
            for text in (card.side_b.stats["text"], card.side_b.flavour):
                if text:
                    assert plain_text(text.replace("[", "").split("]")[0])[:12] not in a
            if card.stats.get("text"):
                assert card.stats["text"][:10].replace("*", "") not in b.replace("*", "")
            # side A never shows side B's season label, and side B does
            assert card.side_b.stats["season"].upper() not in a.upper()
            if card.side_b.stats["season"]:
                assert card.side_b.stats["season"].upper() in b.upper()


# ----------------------------------------------------------------------------- sheets

def placed(page, prefix: str) -> dict:
    """label -> (matrix of the card frame on the page, its elements) of the cards (``card:``) or backs
    (``back:``) placed on ``page``."""
    out = {}
    for e in page.elements:
        if not e.role.startswith(prefix):
            continue
        if isinstance(e, Group):
            inner = e.elements[0] if len(e.elements) == 1 and isinstance(e.elements[0], Transform) else None
            matrix = compose((1.0, 0.0, 0.0, 1.0, e.dx, e.dy), inner.matrix if inner else IDENTITY)
            out[e.role.split(":", 1)[1]] = (matrix, inner.elements if inner else e.elements)
        elif isinstance(e, Transform):
            out[e.role.split(":", 1)[1]] = (e.matrix, e.elements)
    return out


def assert_back_to_back(game, front_page, back_page, sheet_flip: tuple, turn: str, w: float, h: float):
    """Every card of ``front_page`` has on ``back_page`` (turned over by ``sheet_flip``, a matrix from the back
    page to the front page) its side B (or its deck's back), exactly behind it: the back's point (u, v) on the
    front's point that turning the card over (``turn``) puts there, to 0.01 mm."""
    fronts, backs = placed(front_page, "card:"), placed(back_page, "back:")
    assert fronts and fronts.keys() == backs.keys()
    for label, (front, face) in fronts.items():
        back, shown = backs[label]
        on_front = compose(sheet_flip, back)
        for u, v in ((0, 0), (w, 0), (0, h), (w, h), (w / 3, h / 5)):
            fx, fy = apply(compose(front, turn_matrix(turn, w, h)), u, v)
            bx, by = apply(on_front, u, v)
            assert abs(fx - bx) < 0.01 and abs(fy - by) < 0.01, (label, (u, v), (fx, fy), (bx, by))
        card = game.card(label.split("#")[0])
        assert card.name in words(face)
        if card.side_b is not None:         # the same card's two sides, back to back
            assert card.side_b.name in words(shown) and card.name not in words(shown)
        else:
            assert "WEATHER" in words(shown)            # the mixed deck's back


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("flip", ["long", "short"])
def test_duplex_sheets_put_side_b_behind_side_a_for_either_flip(game, paper, flip):
    fronts, backs, duplex = build_cards(game, BuildOptions(paper=paper, flip=flip))
    assert duplex.interleave == ("cards-fronts.pdf", "cards-backs.pdf")
    assert len(fronts.pages) == len(backs.pages) == 3
    for front, back in zip(fronts.pages, backs.pages):
        pw, ph = front.width, front.height
        sheet = (-1.0, 0.0, 0.0, 1.0, pw, 0.0) if flip == "long" else (1.0, 0.0, 0.0, -1.0, 0.0, ph)
        assert_back_to_back(game, front, back, sheet, "side" if flip == "long" else "top", 63.0, 88.0)


def test_gutterfold_folds_side_b_onto_side_a(game):
    (out,) = build_cards(game, BuildOptions(cards="gutterfold"))
    assert sum(p.count for p in out.parts) == 24
    for page in out.pages:
        (line,) = page.find("fold")
        fold = (-1.0, 0.0, 0.0, 1.0, 2 * line.x1, 0.0) if line.x1 == line.x2 else (1.0, 0.0, 0.0, -1.0, 0.0,
                                                                                     2 * line.y1)
        assert_back_to_back(game, page, page, fold, "side", 63.0, 88.0)


@pytest.mark.parametrize("cutter", ["silhouette", "scanncut"])
def test_a_cutting_machines_sheets_keep_side_b_behind_side_a(game, cutter):
    fronts, backs, _ = build_cards(game, BuildOptions(cutter=cutter))
    assert fronts.beside                       # the cut files of the fronts
    for front, back in zip(fronts.pages, backs.pages):
        assert_back_to_back(game, front, back, (-1.0, 0.0, 0.0, 1.0, front.width, 0.0), "side", 63.0, 88.0)


def test_each_copy_of_a_double_sided_card_prints_its_corner_mark_on_both_sides(copy):
    edit(copy / "game.yaml", "players: {min: 2, max: 2}", "players: {min: 2, max: 3}")
    edit(copy / "game.yaml", "    layout: dawn\n    side_b:", "    copies: {max_copies_by_players: {2: 1}}\n"
                                                          "    layout: dawn\n    side_b:")
    game = load_game(copy)
    fronts, backs, _ = build_cards(game, BuildOptions())
    marks = {}
    for page, prefix in ((fronts.pages[0], "card:"), (backs.pages[0], "back:")):
        for label, (_, elements) in placed(page, prefix).items():
            marks.setdefault(label, []).append([e.markup for e in flatten(elements) if e.role == "players-mark"])
    assert marks["plum#1"] == [[], []] and marks["plum#2"] == [["3+"], ["3+"]]


# ----------------------------------------------------------------------------- files and exports

def test_the_kit_records_both_sides_and_tells_players_to_print_them(kit):
    kit = kit()
    manifest = json.loads((kit / "manifest.json").read_text())
    (cards,) = [c for c in manifest["components"] if c["id"] == "cards"]
    assert cards["pieces"] == [
        {"kind": "card", "item": "orchard", "count": 18, "name": "Orchard (double-sided)", "faces": 2},
        {"kind": "card", "item": "weather", "count": 4, "name": "Weather"},
        {"kind": "card", "item": "weather", "count": 2, "name": "Weather (double-sided)", "faces": 2}]
    # pieces.json: each copy's back is its side B's drawing (the same for its copies), values of both sides
    pieces = json.loads((kit / "pieces.json").read_text())["components"]["cards"]["pieces"]
    plum = pieces["plum"]
    assert plum["values"]["side_b.name"] == "Plum Harvest" and plum["values"]["side_b.stats.score"] == 3
    assert plum["copies"]["plum#1"]["back"] == plum["copies"]["plum#2"]["back"] != plum["copies"]["plum#1"]["face"]
    assert pieces["pear"]["copies"]["pear#1"]["back"] != plum["copies"]["plum#1"]["back"]
    assert pieces["drizzle"]["copies"]["drizzle#1"]["back"] == pieces["sunny-spell"]["copies"]["sunny-spell#1"]["back"]
    import pypdfium2

    text = pypdfium2.PdfDocument(str(kit / "instructions.pdf"))[0].get_textpage().get_text_range()
    text = " ".join(text.split())
    assert "Card backs both sides Print both sides: some cards have two faces. Print these pages on the back" in text
    assert "Optional: print on the back" not in text
    assert "The back pages are not optional: some cards have a second face to play with" in text


def test_export_cards_writes_each_cards_side_b_beside_its_face(game, tmp_path):
    from pnp.exports.cards import export_cards

    result = export_cards(GAME, tmp_path, dpi=40, game=game)
    names = {p.relative_to(tmp_path).as_posix() for p in result.files}
    assert {"orchard/plum-1.png", "orchard/backs/plum-1.png", "orchard/backs/plum-2.png",
            "weather/backs/squall-1.png", "weather/backs/drizzle-2.png", "weather/back.png"} <= names
    assert (tmp_path / "orchard/backs/plum-1.png").read_bytes() == (tmp_path / "orchard/backs/plum-2.png").read_bytes()
    assert (tmp_path / "orchard/backs/plum-1.png").read_bytes() != (tmp_path / "orchard/plum-1.png").read_bytes()
    assert (tmp_path / "weather/backs/drizzle-1.png").read_bytes() == (tmp_path / "weather/back.png").read_bytes()
    assert (tmp_path / "weather/backs/squall-1.png").read_bytes() != (tmp_path / "weather/back.png").read_bytes()


@pytest.mark.parametrize("preset", ["thegamecrafter", pytest.param("makeplayingcards", marks=pytest.mark.slow),
                                    pytest.param("printerstudio", marks=pytest.mark.slow)])
def test_each_print_services_export_gives_every_card_its_side_b_in_backs(game, tmp_path, preset):
    from pnp.exports.cards import export_preset
    from pnp.exports.presets import PRESETS

    result = export_preset(GAME, tmp_path, PRESETS[preset], game=game, decks=["weather"])
    names = sorted(p.relative_to(tmp_path).as_posix() for p in result.files)
    assert "weather/fronts/005-squall-1.png" in names and "weather/backs/005-squall-1.png" in names
    backs = [n for n in names if n.startswith("weather/backs/")]
    assert len(backs) == len([n for n in names if n.startswith("weather/fronts/")]) == 6
    folder = tmp_path / "weather"
    assert (folder / "backs/001-drizzle-1.png").read_bytes() == (folder / "back.png").read_bytes()
    assert (folder / "backs/005-squall-1.png").read_bytes() != (folder / "back.png").read_bytes()


def test_side_b_outside_a_print_services_safe_zone_is_told_at_its_cell(copy):
    from pnp.exports.cards import checked_game, safe_zone_warnings
    from pnp.exports.presets import PRESETS

    edit(copy / "templates/layouts/dusk.yaml", "  - {name: name, rect: [5.5, 69.4, 52, 9.6]}",
         "  - {name: name, rect: [2.0, 69.4, 59, 9.6]}")
    game = checked_game(copy)
    found = safe_zone_warnings(game, PRESETS["thegamecrafter"], decks=["orchard"])
    told = {(Path(p.path).name, str(p.line), p.subject) for p in found.warnings}
    assert ("orchard.csv", "2:8", "card 'plum' side B") in told
    assert not any(subject == "card 'plum'" for _, _, subject in told)


def test_drivethrucards_pairs_each_cards_faces_on_its_pages(tmp_path):
    pytest.importorskip("pikepdf")
    from pnp.draw.pdfx import cmyk_profile

    try:
        cmyk_profile()
    except Exception as exc:                 # no Ghostscript profile on this machine
        pytest.skip(str(exc))
    result = run("build", GAME, "--preset", "drivethrucards", "--out", tmp_path, "--no-cache")
    assert result.exit_code == 0, result.output
    import pypdfium2

    pdf = pypdfium2.PdfDocument(str(tmp_path / "drivethrucards-weather.pdf"))
    pages = [" ".join(pdf[i].get_textpage().get_text_range().split()) for i in range(len(pdf))]
    assert len(pages) == 12
    # DriveThruCards' card specification: each card's back (its side B) on the page before its face
    assert "Clearing" in pages[8] and "Squall" in pages[9] and "Squall" not in pages[8]
    assert "WEATHER" in pages[0] and "Drizzle" in pages[1]


def test_export_tts_has_unique_backs_and_both_sides_names(game, tmp_path):
    from pnp.exports.tts import export_tts

    result = export_tts(GAME, tmp_path, game=game)
    index = result.index
    orchard = next(d for d in index["decks"] if d["id"] == "orchard")
    assert orchard["unique_backs"] and orchard["double_sided"]
    plum = next(c for c in index["cards"] if c["card"] == "plum")
    assert (plum["name"], plum["side_b"], plum["back"]) == ("Plum Sapling", "Plum Harvest", "orchard/backs-1.png")
    drizzle = next(c for c in index["cards"] if c["card"] == "drizzle")
    assert "side_b" not in drizzle and drizzle["back"] == "weather/back.png"
    saved = json.loads((tmp_path / "dusk_orchard.json").read_text())
    names = [c["Nickname"] for o in saved["ObjectStates"] if o["Name"] == "DeckCustom" for c in o["ContainedObjects"]]
    assert "Plum Sapling / Plum Harvest" in names and "Drizzle" in names
    # the back sheet holds each card's side B in the cell of its face
    from PIL import Image

    with Image.open(tmp_path / "orchard/backs-1.png") as sheet, Image.open(tmp_path / "orchard/deck-1.png") as faces:
        w, h = result.cell
        assert sheet.crop((0, 0, w, h)).tobytes() != faces.crop((0, 0, w, h)).tobytes()
        assert sheet.crop((0, 0, w, h)).tobytes() == sheet.crop((w, 0, 2 * w, h)).tobytes()   # plum's copies


def test_preview_side_b(tmp_path):
    out = tmp_path / "plum-b.png"
    result = run("preview", "plum", GAME, "--side", "b", "--dpi", "40", "--out", out)
    assert result.exit_code == 0, result.output
    face = tmp_path / "plum.png"
    run("preview", "plum", GAME, "--dpi", "40", "--out", face)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.read_bytes() != face.read_bytes()
    result = run("preview", "drizzle", GAME, "--side", "b", "--out", tmp_path / "x.png")
    assert result.exit_code == 2
    assert "--side b: card 'drizzle' has one face (its back: pnp preview weather:back)" in result.output


# ----------------------------------------------------------------------------- rulebook figures, translation

def test_a_figure_draws_side_b_and_a_translation_reaches_it(game):
    from pnp.rulebook.figures import Figures

    for lang, name in (("en", "Plum Harvest"), ("es", "Cosecha de ciruelas")):
        shown = translate(game, lang)
        figures = Figures(shown, lang)
        with using(shown.icons, lang):
            figures.card("plum", side="b")
            figures.hand(["pear", "plum"], sides={"plum": "b"})
        card, hand = figures.drawings
        assert name in words(card.elements)
        assert name in words(hand.elements) and shown.card("pear").name in words(hand.elements)
    figures = Figures(game)
    with using(game.icons):
        figures.card("drizzle", side="b")
        figures.card("drizzle", side="back")
    assert [p.message for p in figures.problems] == [
        "card 'drizzle' has one face: side='b' draws a double-sided card's side B (side='back' draws a card's back)"]
    assert "WEATHER" in words(figures.drawings[0].elements)


def test_the_spanish_kit_prints_side_b_in_spanish(kit):
    import pypdfium2

    kit = kit("es")
    pdf = pypdfium2.PdfDocument(str(kit / "cards-backs.pdf"))
    text = " ".join(pdf[0].get_textpage().get_text_range().split())
    assert "Cosecha de ciruelas" in text and "Lado de ocaso".upper() in text.upper()
    assert "Plum Harvest" not in text and "Dusk side".upper() not in text.upper()
    rulebook = pypdfium2.PdfDocument(str(kit / "rulebook.pdf"))
    text = " ".join(" ".join(rulebook[i].get_textpage().get_text_range().split()) for i in range(len(rulebook)))
    assert "Cosecha de ciruelas" in text and "Cestas de cerezas" in text


# ----------------------------------------------------------------------------- the studio

def test_the_studio_serves_each_double_sided_cards_side_b(copy, tmp_path):
    from serve_helpers import running

    with running(copy, tmp_path / "out", draw=False) as (server, client):
        data = client.wait_for(lambda d: d["checked"] and d["cards"])
        cards = {c["id"]: c for c in data["cards"]}
        side = cards["plum"]["side_b"]
        assert side["name"] == "Plum Harvest" and ["score", "3"] in side["fields"] and side["image"]
        assert side["image"] != cards["plum"]["image"]
        assert side["source"]["line"] == "2:8" or side["source"]["line"] in (2, "2")
        assert cards["drizzle"]["side_b"] is None
        assert "plum harvest" in cards["plum"]["search"]          # the filter finds a card by its side B
        status, headers, body = client.get("/api/cards/plum@b.png?dpi=40")
        assert status == 200 and body[:8] == b"\x89PNG\r\n\x1a\n"
        status, _, plain = client.get("/api/cards/plum.png?dpi=40")
        assert status == 200 and plain != body
        assert client.get("/api/cards/drizzle@b.png")[0] == 404


def test_a_changed_side_b_reprints_its_card_and_the_changelog_says_what_changed(copy, kit, tmp_path):
    import pypdfium2

    edit(copy / "orchard.csv", "Plum Harvest,3,", "Plum Harvest Fair,3,")
    out = tmp_path / "new"
    result = run("build", copy, "--out", out, "--changed-since", kit(), "--no-cache")
    assert result.exit_code == 0, result.output
    pdf = pypdfium2.PdfDocument(str(out / "reprint.pdf"))
    changelog = " ".join(pdf[0].get_textpage().get_text_range().split())
    assert "2 pieces to print again" in changelog
    assert "Changed: Plum Sapling (Orchard) — side_b.name" in changelog
    sheets = " ".join(" ".join(pdf[i].get_textpage().get_text_range().split()) for i in range(2, len(pdf)))
    assert "Plum Harvest Fair" in sheets and "Pear" not in sheets


def test_sheets_drawn_in_pieces_and_in_parallel_keep_each_side_b_behind_its_card(tmp_path, monkeypatch):
    """A large deck's sheets are drawn in pieces (one task of --jobs each) and its cards checked by the
    parts of a parallel build, side B too: the same kit as drawn whole."""
    from pnp.components import cards
    from pnp.build.kit import build_kit

    whole, parts = tmp_path / "whole", tmp_path / "parts"
    build_kit(str(GAME), whole, BuildOptions(), jobs=1)
    monkeypatch.setattr(cards, "PIECE_SHEETS", 1)
    assert len(cards.sheet_pieces(load_game(GAME), BuildOptions())) == 3
    build_kit(str(GAME), parts, BuildOptions(), jobs=2)
    for name in ("cards-backs.pdf", "pieces.json", "manifest.json"):
        assert (parts / name).exists()
    import pypdfium2

    for name in ("cards-fronts.pdf", "cards-backs.pdf"):
        texts = [[pypdfium2.PdfDocument(str(kit / name))[i].get_textpage().get_text_range() for i in range(3)]
                 for kit in (whole, parts)]
        assert texts[0] == texts[1]
    assert json.loads((whole / "pieces.json").read_text()) == json.loads((parts / "pieces.json").read_text())
