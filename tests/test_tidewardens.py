"""tests/games/tidewardens: issue 22's integration game, written from README.md and docs/ only. A
cooperative game without an engine: a CSV deck and a YAML deck whose card text has bold and the game's
own SVG icons (shown by the bundled classic layout), a designed back per value of a card's choice (PDF,
Tabletop Simulator, preview, The Game Crafter), player boards and standees repeated over a data file,
a tiled harbour board whose seams keep its plates and lighthouse whole on Letter and A4, a storm die, a
rulebook of chapters, and a Spanish translation of every printed word."""

import csv
import json
import os
import shutil
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image

from pnp.commands.cli import main
from pnp.components import BuildOptions, game_components
from pnp.components.board import config_of, pieces, tiling
from pnp.loading.gamedata import load_game
from pnp.loading.i18n import translate
from pnp.layout.geometry import Icon, Transform, flatten
from pnp.layout.tiling import crossings

GAME = Path(__file__).parent / "games" / "tidewardens"
WAVE = (0x2A, 0x6F, 0x97)          # icons/wave.svg's blue
#: every file of the kit and its pages (the harbour: an assembly map and 6 tiles on either paper)
PAGES = {"instructions.pdf": 1, "cards-fronts.pdf": 3, "cards-backs.pdf": 3, "cards-duplex.pdf": 6,
         "harbour.pdf": 7, "warden-boards.pdf": 2, "dice-stickers.pdf": 1, "dice-nets.pdf": 1, "wardens.pdf": 1,
         "rulebook.pdf": 4, "rulebook-imposed.pdf": 2, "kit.pdf": 20}
#: The harbour board's tiles A1-A3 (half a sheet each), the die's stickers and the standees share sheets
#: (tests/test_shared_sheets.py): the board keeps 4 tiles on Letter and 3 on A4, the shared sheets 2 and 3;
#: the kit was 20 pages (16 sheets), it is 17 (13).
SHARED = {"letter": {"harbour.pdf": 4, "shared-sheets.pdf": 2, "kit.pdf": 17},
          "a4": {"harbour.pdf": 3, "shared-sheets.pdf": 3, "kit.pdf": 17}}


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_tidewardens_validates_in_english_and_spanish():
    result = run("validate", GAME)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == (
        "Tidewardens: 2 decks, 21 cards (9 different), components instructions, cards, harbour, warden_boards, "
        "dice, wardens, rulebook, languages en, es: valid")
    assert other_warnings(result.output) == []
    result = run("validate", GAME, "--lang", "es")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1].startswith("Guardianes de la Marea: 2 decks") and \
        result.output.splitlines()[-1].endswith("language es: valid")
    assert other_warnings(result.output) == []


def other_warnings(output: str) -> list:
    """The warnings printed but the empty-space ones: its text-only cards leave their art window empty
    (issue 37's check, which a designer's game may well trigger)."""
    return [line for line in output.splitlines() if "warning" in line and "of the face empty" not in line]


def text_of(pdf: Path) -> str:
    doc = pdfium.PdfDocument(str(pdf))
    try:
        return "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()


@pytest.mark.parametrize("paper,lang", [("letter", None), ("a4", "es")])
def test_tidewardens_builds_every_page(tmp_path, paper, lang):
    out = tmp_path / paper
    result = run("build", GAME, "--paper", paper, "--out", out, *(("--lang", lang) if lang else ()))
    assert result.exit_code == 0, result.output
    for name, count in {**PAGES, **SHARED[paper]}.items():
        doc = pdfium.PdfDocument(str(out / name))
        assert len(doc) == count, name
        for i in range(len(doc)):           # no blank page: every page carries drawing in several colours
            image = doc[i].render(scale=0.3).to_pil().convert("RGB")
            assert len(image.getcolors(maxcolors=1 << 16) or []) > 8, (name, i + 1)
        doc.close()
    kit = " ".join(text_of(out / "kit.pdf").split())
    with pikepdf.open(out / "kit.pdf") as pdf, pdf.open_outline() as outline:    # game.yaml's components, in order
        titles = [item.title for item in outline.root]
    # the die's stickers and the standees are on the shared sheets, after the last component they hold
    assert titles == (["Instrucciones", "Frentes de las cartas", "Dorsos de las cartas", "Tablero del puerto",
                       "Tableros de guardián", "Hojas compartidas", "Reglamento"] if lang else
                      ["Instructions", "Card fronts", "Card backs", "Harbour board", "Warden boards",
                       "Shared sheets", "Rulebook"])
    nets = text_of(out / "dice-nets.pdf").split()                  # beside the kit: its glue tabs' word
    assert ("pegar" if lang else "glue") in nets and ("glue" in nets) != bool(lang)
    if lang == "es":
        for spanish in ("Guardianes de la Marea", "Marea viva", "Saco de arena", "Farera", "Herramientas en mano",
                        "Tablero del puerto: plano de montaje", "pegar bajo", "Cómo se juega", "Agua que sube"):
            assert spanish.lower() in kit.lower(), spanish
        for english in ("Spring Tide", "Sandbag", "Lamp Keeper", "Tools in hand", "assembly map", "glue under",
                        "How to play", "Rising water", "Harbour board"):
            assert english.lower() not in kit.lower(), english
        assert "para 1 a 4 jugadores" in kit and "Recorta por las líneas grises. Las cartas forman 2 mazos" in kit
    else:
        for english in ("Spring Tide", "Sandbag", "Lamp Keeper", "Tools in hand", "assembly map", "How to play"):
            assert english.lower() in kit.lower(), english
        # the chapter's game.players.min and .max; the instructions' sentences apart
        assert "a cooperative game for 1 to 4 players" in kit
        assert "Cut along the grey lines. The cards come in 2 decks" in kit


def wave_pixels(png: Path, rect_mm, card_mm) -> int:
    """Pixels of the wave icon's blue inside ``rect_mm`` (x, y, w, h from the bottom left of a card of
    ``card_mm``) of a card face previewed as ``png``."""
    image = Image.open(png).convert("RGB")
    sx, sy = image.width / card_mm[0], image.height / card_mm[1]
    x, y, w, h = rect_mm
    box = (round(x * sx), round(image.height - (y + h) * sy), round((x + w) * sx), round(image.height - y * sy))
    colours = image.crop(box).getcolors(maxcolors=1 << 24)
    return sum(n for n, p in colours if sum(abs(a - b) for a, b in zip(p, WAVE)) < 40)


def test_card_text_prints_bold_and_the_games_own_icons_in_the_classic_rules_box(tmp_path):
    game = load_game(GAME)
    assert game.players == (1, 4) and (game.players.min, game.players.max) == (1, 4)
    assert (game.minutes.min, game.minutes.max) == (25, 40)
    currents, tools = game.decks
    assert currents.cards_file.suffix == ".csv" and tools.cards_file.suffix == ".yaml"
    assert game.icons.resolve("wave").kind == "svg" and game.icons.resolve("shell").kind == "svg"
    assert all(d.layout.default.name == "classic" and d.layout.by is None for d in game.decks)
    cards = next(c for c in game_components(game) if c.name == "cards").build(game, BuildOptions())[0]
    els = [e for p in cards.pages for e in flatten(p.elements)]
    rules = {e.markup for e in els if e.role == "ability"}
    assert "**Surge:** raise the tide by 2 [wave]." in rules                          # the CSV deck
    assert "Roll the storm die: raise the tide by the [wave] it shows.\n**Then** each warden discards a tool." \
        in rules                                                                        # a line break in a cell
    assert "**Drain:** lower the tide by 1 [wave]." in rules                          # the YAML deck
    assert {e.name for e in els if isinstance(e, Icon) and e.role.startswith("stat:")} == {"wave", "shell"}
    # the icons are drawn in the line of text: the rules box of a card whose text names [wave] holds the
    # icon's blue, that of a card without one none
    poker, mini = (63, 88), (44, 63)
    box = (4.6, 13.0, 53.8, 18.6)
    small = (box[0] * 44 / 63, box[1] * 63 / 88, box[2] * 44 / 63, box[3] * 63 / 88)
    for card, size, rect, icon in (("ebbing-pull", poker, box, True), ("slack-water", poker, box, False),
                                   ("hand-pump", mini, small, True), ("harbour-lamp", mini, small, False)):
        png = tmp_path / f"{card}.png"
        result = run("preview", card, GAME, "--dpi", 200, "--out", png)
        assert result.exit_code == 0, result.output
        assert (wave_pixels(png, rect, size) > 40) == icon, card


def test_the_back_chosen_by_a_cards_kind_goes_through_tts_preview_and_the_game_crafter(tmp_path):
    kinds = {row["id"]: row["kind"] for row in csv.DictReader((GAME / "currents.csv").open(encoding="utf-8"))}
    # Tabletop Simulator: the currents in the unique-backs form, each card's back by its kind
    result = run("export", "tts", GAME, "--out", tmp_path / "tts")
    assert result.exit_code == 0, result.output
    tts = json.loads((tmp_path / "tts" / "tts.json").read_text())
    decks = {d["id"]: d for d in tts["decks"]}
    currents, tools = decks["currents"], decks["tools"]
    assert currents["unique_backs"] is True and "unique_backs" not in tools
    assert currents["backs"] == {"ebb": "currents/back-ebb.png", "flood": "currents/back-flood.png"}
    cards = [c for c in tts["cards"] if c["deck"] == "currents"]
    assert len(cards) == 11 and [(c["back_value"], c["back"]) for c in cards] == \
        [(kinds[c["card"]], f"currents/back-{kinds[c['card']]}.png") for c in cards]
    assert not [c for c in tts["cards"] if c["deck"] == "tools" and "back" in c]
    assert [s.get("backs") for s in tts["sheets"]] == ["currents/backs-1.png", None]
    ebb, flood = (tmp_path / "tts" / "currents" / f"back-{k}.png" for k in ("ebb", "flood"))
    assert ebb.read_bytes() != flood.read_bytes()
    # pnp preview: a deck's back for a value, and every deck's back
    result = run("preview", "currents:back-flood", GAME, "--out", tmp_path / "flood.png")
    assert result.exit_code == 0 and Image.open(tmp_path / "flood.png").size == (248, 346), result.output
    # without --out, pnp's preview folder of the game in the user's cache folder (tests/conftest.py)
    folder = Path(os.environ["XDG_CACHE_HOME"]) / "pnp" / "preview" / "tidewardens"
    result = run("preview", "back", GAME)
    assert result.exit_code == 0, result.output
    assert result.output.split() == [f"{folder}/currents-back.png", f"{folder}/tools-back.png"]
    assert (folder / "tools-back.png").is_file()
    # The Game Crafter: each deck to its product's template, each card's own back numbered as its front
    result = run("export", "cards", GAME, "--preset", "thegamecrafter", "--out", tmp_path / "tgc")
    assert result.exit_code == 0, result.output
    tgc = tmp_path / "tgc"
    assert Image.open(tgc / "currents" / "back-flood.png").size == (825, 1125)          # Poker Deck
    assert Image.open(tgc / "tools" / "back.png").size == (600, 825)                    # Mini Deck
    fronts = sorted(p.name for p in (tgc / "currents" / "fronts").iterdir())
    backs = sorted(p.name for p in (tgc / "currents" / "backs").iterdir())
    assert fronts == backs and len(fronts) == 11
    for name in backs:
        card = name.split("-", 1)[1].rsplit("-", 1)[0]
        expected = (tgc / "currents" / f"back-{kinds[card]}.png").read_bytes()
        assert (tgc / "currents" / "backs" / name).read_bytes() == expected, name
    assert not (tgc / "tools" / "backs").exists()


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_the_harbour_seams_keep_its_plates_lighthouse_and_spaces_whole(paper):
    game = load_game(GAME)
    spec = next(s for s in game.component_specs if s.id == "harbour")
    [board] = pieces(game, spec)
    assert board.size == (420, 300)
    plan = tiling(board, config_of(spec), paper)
    assert plan.cut == () and crossings(plan, board.keep) == []
    assert plan.sheets == 6 and (plan.cols, plan.rows) == (3, 2)
    regions = {k.region.split("[")[0] for k in board.keep}
    assert {"quarters", "quarter-names", "lighthouse", "tide", "title"} <= regions
    assert len([k for k in board.keep if k.region.startswith("quarters[")]) == 5
    # the seams run on the lines between tide spaces: 24 round a 410 x 290 mm ring, 8 along the top
    lines_x = {round(5 + 410 / 8 * i, 2) for i in range(1, 8)}
    lines_y = {round(5 + 290 / 6 * i, 2) for i in range(1, 6)}
    assert {round(x, 2) for x in plan.xs[1:-1]} <= lines_x and {round(y, 2) for y in plan.ys[1:-1]} <= lines_y


def test_a_data_file_feeds_the_warden_boards_standees_and_the_storm_die():
    game = load_game(GAME)
    parts = {c.name: c for c in game_components(game)}
    boards = parts["warden_boards"].build(game, BuildOptions())[0]
    assert len(boards.pages) == 2 and [p.count for p in boards.parts] == [4]          # two to a sheet
    assert [e.markup for page in boards.pages for e in page.elements if e.role == "piece-label"] == \
        ["Lamp Keeper", "Pearl Diver", "Sea Mason", "Boatwright"]
    spanish = parts["warden_boards"].build(translate(game, "es"), BuildOptions(lang="es"))[0]
    assert [e.markup for page in spanish.pages for e in page.elements if e.role == "piece-label"] == \
        ["Farera", "Buceador de perlas", "Cantera del mar", "Carpintero de ribera"]
    skills = [e.markup for page in boards.pages for e in flatten(page.elements) if e.role == "skill"]
    assert "**Mortar:** your sandbags stop 2 [wave] instead of 1." in skills
    standees = parts["wardens"].build(game, BuildOptions())[0]
    sides = {e.role: e for page in standees.pages for e in flatten(page.elements) if isinstance(e, Transform)}
    assert [[x.markup for x in flatten(sides[f"standee:warden_{w}:{side}"].elements) if x.role == "label"]
            for w in ("keeper", "diver", "mason", "boatwright") for side in ("front", "back")] == \
        [[name] for name in ("Lamp Keeper", "Pearl Diver", "Sea Mason", "Boatwright") for _ in "fb"]
    dice = parts["dice"].build(game, BuildOptions())[0]
    faces = [e for page in dice.pages for e in flatten(page.elements) if isinstance(e, Icon)]
    assert sorted((e.role, e.name) for e in faces) == [("calm", "shell")] + [("wave", "wave")] * 5
    assert sorted(e.markup for page in dice.pages for e in flatten(page.elements) if e.role == "count") == \
        ["1", "1", "2", "2", "3"]


def test_a_designed_back_whose_words_do_not_fit_names_the_deck_the_size_and_the_translation(tmp_path):
    game = tmp_path / "tidewardens"
    shutil.copytree(GAME, game)
    es = game / "i18n" / "es.yaml"
    es.write_text(es.read_text(encoding="utf-8").replace("back: {label: Útiles del guardián}",
                                                         "back: {label: Útiles del guardián de guardia}"),
                  encoding="utf-8")
    line = next(i for i, t in enumerate(es.read_text(encoding="utf-8").splitlines(), 1)
                if "Útiles del guardián de guardia" in t)        # the translation's words, not the deck's entry
    # pnp validate checks every translation the game ships; --lang es that one
    for lang in ((), ("--lang", "es")):
        result = run("validate", game, *lang)
        assert result.exit_code == 2
        assert (f"{es}:{line}: deck 'tools': back: 'ÚTILES DEL GUARDIÁN DE GUARDIA' does not fit the 44 x 63 mm "
                f"designed back even at 6 pt (26.0 mm across inside its frame): shorten it") in result.output
