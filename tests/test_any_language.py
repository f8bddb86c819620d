"""A kit in any language (issue 35): a game gives every word pnp prints, in a language pnp does not ship.

tests/games/gardiens is a game written in French (``language: fr``): its i18n/fr.yaml gives, under
``strings:``, every one of pnp's printed words in French, and its i18n/de.yaml translates the whole game
(and pnp's words) into German, a language pnp has never seen. Both kits validate clean and build without
--allow-missing, and no English word of pnp's catalogue is left in them. Their typography follows CLDR's
locale data, read through Babel: the tests compare with Babel's, never with values of their own.
"""

import json
import re
import shutil
from pathlib import Path

import pypdfium2
import pytest
import yaml
from babel import Locale
from babel.numbers import format_decimal
from click.testing import CliRunner

from pnp import TEMPLATES_DIR
from pnp.text import locales
from pnp.commands.cli import main
from pnp.errors import display_path
from pnp.loading.i18n import Words

GAME = Path(__file__).parent / "games" / "gardiens"
ENGLISH = yaml.safe_load((TEMPLATES_DIR / "strings" / "en.yaml").read_text("utf-8"))


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def texts(value) -> str:
    return " ".join(value.values()) if isinstance(value, dict) else value


def words_of(text: str) -> set:
    return {w.casefold() for w in re.findall(r"[^\W\d_]{3,}", text)}


def kit_text(folder: Path) -> str:
    """Every word of a kit: its PDFs' as pdfium extracts them, the notes beside them (a Cricut's image
    sizes) and the names manifest.json gives the pieces."""
    out = []
    for pdf in sorted(folder.glob("*.pdf")):
        doc = pypdfium2.PdfDocument(pdf)
        out += [page.get_textpage().get_text_range() for page in doc]
        doc.close()
    out += [note.read_text("utf-8") for note in sorted(folder.glob("*.txt"))]
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
    out += [piece["name"] for row in manifest["components"] for piece in row["pieces"]]
    return "\n".join(out)


def english_left(text: str, language_words: dict) -> set:
    """Words of pnp's English catalogue that ``text`` prints and the language's own words do not have (a
    word both languages write alike, such as 'Total' or 'Instructions', proves nothing)."""
    english = set().union(*(words_of(re.sub(r"\{[a-z_]+\}", "", texts(v))) for v in ENGLISH.values()))
    own = set().union(*(words_of(texts(v)) for v in language_words.values()))
    printed = re.sub(r"[\w-]+\.(pdf|png|svg|dxf|txt|json)\b", "", text)     # file names are no words
    return words_of(printed) & (english - own)


def flat(text: str) -> str:
    """``text`` compared as printed: one space between words, typographic apostrophes, any case."""
    return " ".join(text.replace("\u2019", "'").split()).casefold()


def strings_of(lang: str) -> dict:
    return yaml.safe_load((GAME / "i18n" / f"{lang}.yaml").read_text("utf-8"))["strings"]


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    """The French kit and the German one (for a Cricut: with its notes), built by ``pnp build`` without
    --allow-missing."""
    out = {}
    for lang, options in (("fr", ()), ("de", ("--cutter", "cricut"))):
        folder = tmp_path_factory.mktemp(f"gardiens-{lang}")
        result = run("build", GAME, "--lang", lang, "--out", folder, "--no-cache", *options)
        assert result.exit_code == 0, result.output
        out[lang] = folder
    return out


# ------------------------------------------------------------------------------- the two kits

def test_the_french_game_validates_clean_in_french_and_german():
    result = run("validate", GAME, "--no-cache")
    assert result.exit_code == 0, result.output
    # no warning either (nothing is missing in either language) but the empty art windows of its text-only
    # cards (issue 37's empty-space check)
    lines = [line for line in result.output.splitlines() if "of the face empty" not in line]
    assert lines == ["Les Gardiens du port: 2 decks, 21 cards (9 different), components instructions, "
                     "maree, cards, tokens, port, plateaux, des, figurines, rulebook, box, languages fr, de: valid"]
    for lang in ("fr", "de"):
        result = run("validate", GAME, "--lang", lang, "--no-cache")
        others = [line for line in result.output.splitlines() if "warning" in line and "of the face empty" not in line]
        assert result.exit_code == 0 and others == [], result.output


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_no_english_word_of_pnp_is_left_in_the_kit(kits, lang):
    text = kit_text(kits[lang])
    assert english_left(text, strings_of(lang)) == set()
    # the kit printed the game's words for pnp's: the instructions page, the box, the rulebook's chapters
    own = strings_of(lang)
    for key in ("kit_bill", "box_contents", "contents", "card_index", "rules_of_play", "part_tiles"):
        assert flat(own[key]) in flat(text), key
    cut = own["kit_cards_plain"] if lang == "fr" else own["kit_cards_cricut"].split(":")[0]  # up to its markup
    assert flat(cut) in flat(text)
    if lang == "de":
        assert "Die Hüter des Hafens: die Bilder von cards-fronts.pdf, in Cricut Design Space" in text


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_every_pdf_is_titled_in_the_kits_language(kits, lang):
    """The document title of each PDF (what a viewer's window and a print queue show) is the game's title
    and the file's name in the kit's language: the imposed rulebook was "Rulebook (imposed)"."""
    title = yaml.safe_load((GAME / "i18n" / f"{lang}.yaml").read_text("utf-8")).get("title") or "Les Gardiens du port"
    titles = {}
    for pdf in sorted(kits[lang].glob("*.pdf")):
        doc = pypdfium2.PdfDocument(pdf)
        titles[pdf.name] = doc.get_metadata_dict()["Title"]
        doc.close()
    assert titles["rulebook-imposed.pdf"] == f"{title}: {strings_of(lang)['rulebook']}"
    assert all(t.startswith(title) for t in titles.values()), titles
    assert english_left("\n".join(titles.values()), strings_of(lang)) == set()


def test_the_english_check_finds_english(built_kit):
    """The check that finds no English word in the French and German kits finds them in an English one."""
    left = english_left(kit_text(built_kit()), strings_of("fr"))
    assert {"rulebook", "sheets", "actual", "ruler", "glue"} <= left and len(left) > 50


def test_plural_forms_follow_cldr_in_the_kit(kits):
    text = " ".join(kit_text(kits["de"]).split())
    assert "**" not in text
    assert "Strömungen (11 Karten, 63 x 88 mm); Werkzeuge (10 Karten, 44 x 63 mm)" in text


# ------------------------------------------------------------------------------- validate's messages

def test_pnp_words_a_translation_lacks_are_one_message_with_a_block_to_paste(tmp_path):
    game = tmp_path / "gardiens"
    shutil.copytree(GAME, game)
    path = game / "i18n" / "de.yaml"
    kept = [line for line in path.read_text("utf-8").splitlines()
            if not line.startswith(("  box_lid:", "  kit_deck_cards:", "  edge_short:"))]
    path.write_text("\n".join(kept) + "\n", "utf-8")
    result = run("validate", game, "--lang", "de", "--no-cache")
    assert result.exit_code == 2
    line = next(i for i, text in enumerate(kept, 1) if text == "strings:")
    assert result.output.splitlines()[:7] == [
        f"{display_path(path)}:{line}: language 'de': 3 of pnp's printed words are not translated into 'de': give "
        f"them under strings: in i18n/de.yaml; these are the words in 'fr', ready to paste there and translate:",
        "strings:",
        "  box_lid: couvercle",
        "  edge_short: bord court",
        "  kit_deck_cards:",
        "    one: '{count} carte'",
        "    other: '{count} cartes'"]
    assert result.output.splitlines()[7] == "1 problem found; nothing was written."


def test_pnp_words_the_games_own_language_lacks_are_one_error_with_the_english_to_translate(tmp_path):
    game = tmp_path / "gardiens"
    shutil.copytree(GAME, game)
    path = game / "i18n" / "fr.yaml"
    kept = [line for line in path.read_text("utf-8").splitlines() if not line.startswith("  kit_total:")]
    path.write_text("\n".join(kept) + "\n", "utf-8")
    result = run("validate", game, "--lang", "fr", "--no-cache")
    assert result.exit_code == 2
    line = next(i for i, text in enumerate(kept, 1) if text == "strings:")
    assert result.output.splitlines()[:3] == [
        f"{display_path(path)}:{line}: language 'fr': 1 of pnp's printed words is not in 'fr' (pnp has them in en, "
        f"es): give it under strings: in i18n/fr.yaml; it is the words in 'en', ready to paste there and translate:",
        "strings:",
        "  kit_total: Total"]
    # with --allow-missing the kit prints pnp's English word instead, and says so
    result = run("build", game, "--allow-missing", "--out", tmp_path / "kit", "--no-cache")
    assert result.exit_code == 0, result.output
    assert "warning: language 'fr': 1 of pnp's printed words is not in 'fr'" in result.output


def test_a_plural_where_pnp_prints_no_count_is_an_error(tmp_path):
    game = tmp_path / "gardiens"
    shutil.copytree(GAME, game)
    path = game / "i18n" / "fr.yaml"
    text = path.read_text("utf-8").replace('  kit_total: Total', '  kit_total: {one: Total, other: Totaux}')
    path.write_text(text, "utf-8")
    result = run("validate", game, "--no-cache")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("  kit_total:"))
    assert f"{display_path(path)}:{line}: strings: 'strings.kit_total': pnp prints this word with no count: give " \
           f"one text, not plural forms" in result.output


def test_a_language_pyphen_cannot_hyphenate_is_a_warning(tmp_path):
    game = tmp_path / "gardiens"
    shutil.copytree(GAME, game)
    shutil.copy(game / "i18n" / "de.yaml", game / "i18n" / "ja.yaml")
    shutil.copytree(game / "templates" / "rulebook" / "de", game / "templates" / "rulebook" / "ja")
    result = run("validate", game, "--lang", "ja", "--no-cache")
    assert result.exit_code == 0, result.output
    assert f"{display_path(game / 'i18n' / 'ja.yaml')}: warning: language 'ja': pyphen has no hyphenation " \
           f"dictionary for 'ja': texts in 'ja' print without breaking a word (lines may end shorter)" in result.output


def test_a_language_code_cldr_does_not_know_is_a_warning_naming_what_it_prints_by(tmp_path):
    """A code CLDR has no data for (a typo, a made-up code) still builds, by CLDR's root conventions, and
    validation says so (the ja warning above is pyphen's alone: CLDR knows Japanese)."""
    from pnp.text import locales

    game = tmp_path / "gardiens"
    shutil.copytree(GAME, game)
    shutil.copy(game / "i18n" / "de.yaml", game / "i18n" / "de-XX.yaml")
    shutil.copytree(game / "templates" / "rulebook" / "de", game / "templates" / "rulebook" / "de-XX")
    result = run("validate", game, "--lang", "de-XX", "--no-cache")
    assert result.exit_code == 0, result.output
    assert f"{display_path(game / 'i18n' / 'de-XX.yaml')}: warning: language 'de-XX': CLDR has no locale data for " \
           f"'de-XX': its texts print by CLDR's root conventions (numbers written 1,234.5, quotation marks " \
           f"\u201c \u201d, one plural form 'other') and break no word; give a language code such as 'de' or " \
           f"'pt-BR'" in result.output
    # what the warning says is what the root locale does
    root = Locale.parse("root")
    assert locales.number(1234.5, "de-XX") == format_decimal(1234.5, format="#,##0.###", locale=root) == "1,234.5"
    assert locales.plural_categories("de-XX") == ("other",) and locales.quotation_marks("de-XX")[:2] == ("\u201c", "\u201d")


# ------------------------------------------------------------------------------- preview

def test_preview_in_a_language_the_translation_does_not_finish(tmp_path):
    """pnp preview --lang fr of a game whose French lacks most words: the picture, in the game's words
    where French has none, and one warning saying how many."""
    game = tmp_path / "lantern_night"
    shutil.copytree(Path(__file__).parent / "games" / "lantern_night", game)
    (game / "i18n" / "fr.yaml").write_text("title: Nuit des lanternes\n", "utf-8")
    for target in ("paper-moon", "rulebook", "instructions"):
        result = run("preview", target, game, "--lang", "fr", "--out", tmp_path / f"{target}.png", "--dpi", 30)
        assert result.exit_code == 0, result.output
        assert (tmp_path / f"{target}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        first = result.output.splitlines()[0]
        assert re.fullmatch(r"warning: \d+ printed strings are not translated into 'fr': the preview prints them "
                            r"in 'en' \(pnp validate --lang fr lists them\)", first), first


def test_preview_of_the_german_game_is_clean(tmp_path):
    result = run("preview", "etale", GAME, "--lang", "de", "--out", tmp_path / "etale.png", "--dpi", 30)
    assert result.exit_code == 0 and result.output == f"{tmp_path / 'etale.png'}\n", result.output


# ------------------------------------------------------------------------------- typography from CLDR

@pytest.mark.parametrize("lang", ["en", "es", "fr", "de", "pt", "pl", "ru", "ar", "ja"])
def test_plural_forms_are_babels(lang):
    forms = {c: f"{c} {{count}}" for c in locales.CATEGORIES}
    words = Words({"n": forms}, lang)
    for n in (0, 1, 2, 3, 5, 11, 21, 100, 1000000):
        category = Locale.parse(lang).plural_form(n)
        assert words.say("n", count=n) == f"{category} {format_decimal(n, format='#,##0.###', locale=lang)}"
    assert set(locales.plural_categories(lang)) <= set(Locale.parse(lang).plural_form.tags) | {"other"}


@pytest.mark.parametrize("lang", ["en", "es", "fr", "de", "pt", "de-CH", "hi"])
@pytest.mark.parametrize("value", [3, 63.5, 1234, 1234567.25, 0.125])
def test_numbers_are_written_with_the_languages_separators(lang, value):
    loc = Locale.parse(lang.replace("-", "_"))
    symbols = loc.number_symbols[loc.default_numbering_system]
    written = locales.number(value, lang)
    assert written == format_decimal(value, format="#,##0.###", locale=loc)
    if isinstance(value, float) and not value.is_integer():
        assert symbols["decimal"] in written


def test_ordinal_categories_are_babels():
    for lang in ("en", "fr", "it", "sv"):
        for n in range(1, 25):
            assert locales.ordinal_category(lang, n) == Locale.parse(lang).ordinal_form(n)


def test_the_french_kit_sets_a_narrow_space_before_a_colon(kits):
    """In the instructions' title ("Les Gardiens du port : kit ..."), the colon stands a narrow space
    (an eighth of an em) after the word in French; German sets it against the word. Measured in ems of
    the title's size: each page sets its text as large as fills it, so the two titles differ in size."""
    import pypdfium2.raw as pdfium_raw

    def gap(folder, before):
        doc = pypdfium2.PdfDocument(folder / "instructions.pdf")
        page = doc[0].get_textpage()
        text = page.get_text_range()
        i = text.index(before + ":") + len(before) - 1
        left, _, right, top = page.get_charbox(i)
        colon = page.get_charbox(i + 1)[0]
        size = pdfium_raw.FPDFText_GetFontSize(page.raw, i)
        doc.close()
        return (colon - right) / size
    french = gap(kits["fr"], "port")
    german = gap(kits["de"], "Hafens")
    assert french - german > 1.5 / 17      # an eighth of an em (0.125), less the glyphs' own sidebearings


# ------------------------------------------------------------------------------- the cover

def test_a_four_line_title_keeps_its_subtitle_above_the_cover_art(tmp_path):
    """Issue 35: a French cover's title of four lines hid its subtitle under the cover art. The title
    shrinks until the subtitle shows between it and the picture; a title too long even then is an error
    at its line."""
    from dataclasses import replace

    from pnp.draw.text import fit, wrap
    from pnp.text.markup import escape
    from pnp.layout.geometry import Style
    from pnp.draw.document import cover_picture_top, cover_title, cover_title_fits

    w, h = 308.0, 534.0                  # a Letter booklet page's frame, in points
    title = Style(font="serif-semibold", size=34, leading=1.0, upper=True, tracking=2.5)
    subtitle = wrap("Règles du jeu", Style(font="serif-italic", size=14), 14, w)
    # a word a line, a short word (an article, a preposition) with the word after it: two lines
    lines, _ = cover_title("Les Gardiens des marées", title, subtitle, w, h, art=True)
    assert len(lines) == 2 and all(f.size == 34 for f, _ in lines)
    long_title = "Les Gardiens du vieux port de la baie"       # Les Gardiens / du vieux / port / de la baie
    lines, y = cover_title(long_title, title, subtitle, w, h, art=True)
    assert len(lines) == 4 and all(f.size < 34 for f, _ in lines)
    assert min(h * 0.62, y - 8) - 4 >= cover_picture_top(h, art=True)
    assert cover_title_fits(long_title, "Règles du jeu", w, h, art=True)
    # without art, the same title keeps the size it always had (the emblems sit lower)
    lines, _ = cover_title(long_title, title, subtitle, w, h, art=False)
    assert [f.size for f, _ in lines] == [fit(escape(line), replace(title, min_size=18), w / 2.8346, 20).size
                                          for line in ("Les Gardiens", "du vieux", "port", "de la baie")]
    # more lines than the room holds at 18 pt: several words a line
    lines, y = cover_title("Gardiens vieux port baie îles nord", title, subtitle, w, h, art=True)
    assert len(lines) == 1 and len(lines[0][0].lines) < 6
    assert cover_title_fits("Gardiens vieux port baie îles nord", "Règles du jeu", w, h, art=True)
    assert not cover_title_fits(" ".join(["Anticonstitutionnellement"] * 12), "Règles du jeu", w, h, art=True)

    game = tmp_path / "gardiens"
    shutil.copytree(GAME, game)
    (game / "art").mkdir()
    shutil.copy(Path(__file__).parent / "games" / "starfall" / "art" / "nebula.png", game / "art")
    text = (game / "game.yaml").read_text("utf-8").replace("  emblem: lighthouse\n",
                                                            "  emblem: lighthouse\n  art: art/nebula.png\n")
    (game / "game.yaml").write_text(text.replace("title: Les Gardiens du port", "title: Les Gardiens des marées"))
    result = run("build", game, "--out", tmp_path / "kit", "--no-cache")
    assert result.exit_code == 0, result.output
    doc = pypdfium2.PdfDocument(tmp_path / "kit" / "rulebook.pdf")
    text = doc[0].get_textpage()
    start = text.get_text_range().index("Règles du jeu")
    subtitle_bottom = min(text.get_charbox(i)[1] for i in range(start, start + len("Règles du jeu")))
    art = [obj.get_bounds() for obj in doc[0].get_objects(filter=[pypdfium2.raw.FPDF_PAGEOBJ_IMAGE])]
    assert len(art) == 1 and art[0][3] < subtitle_bottom      # the picture's top is below the subtitle
    doc.close()


# ------------------------------------------------------------------------------- the reprint

def test_the_german_reprint_names_a_changed_drawing_in_german(tmp_path):
    """The changelog of ``--changed-since`` in the kit's language, down to the word it prints for a piece
    whose drawing alone changed (the backs' colour here)."""
    import json as json_module

    from pnp.cache import memo
    from pnp.components import BuildOptions, game_components
    from pnp.draw.icons import using
    from pnp.layout.geometry import Text, flatten
    from pnp.loading.gamedata import load_game
    from pnp.loading.i18n import strings, translate
    from pnp.components.record import RECORD_FILE
    from pnp.reprint.changes import game_record, reprint_pages

    game = tmp_path / "gardiens"
    shutil.copytree(GAME, game)
    old = tmp_path / "old"
    old.mkdir()
    options = BuildOptions(lang="de")
    (old / RECORD_FILE).write_text(json_module.dumps(game_record(translate(load_game(game), "de"), options)))
    memo.clear()
    (game / "game.yaml").write_text((game / "game.yaml").read_text("utf-8").replace('back: "#17324a"',
                                                                                     'back: "#17324b"'), "utf-8")
    loaded = translate(load_game(game), "de")
    options = BuildOptions(lang="de", changed_since=str(old))
    record = json_module.dumps(game_record(loaded, options)).encode("utf-8")
    with using(loaded.icons, "de"):
        pages, _, _ = reprint_pages(loaded, options, game_components(loaded), record, strings(loaded, "de"))
    lines = [e.markup for page in pages for e in flatten(page.elements)
             if isinstance(e, Text) and e.role == "changelog-line"]
    assert "**Geändert**: Stillwasser (Strömungen) — Zeichnung" in lines          # the deck by its name
    assert english_left("\n".join(lines), strings_of("de")) == set()


# ------------------------------------------------------------------------------- Tabletop Simulator

def test_the_german_table_names_the_dice_by_their_german_title():
    """export tts names each die as the kit titles it: the German title (it was the French one)."""
    from pnp.exports.ttstable import table_pieces
    from pnp.loading.gamedata import load_game
    from pnp.loading.i18n import translate

    names = [p.name for p in table_pieces(translate(load_game(GAME), "de"), "de") if p.kind == "die"]
    assert names == ["Sturmwürfel: tempete"]
    assert [p.name for p in table_pieces(load_game(GAME), "fr") if p.kind == "die"] == ["Dé de tempête: tempete"]


def test_a_translated_title_too_long_for_the_cover_is_an_error_at_the_translations_line(tmp_path):
    game = tmp_path / "gardiens"
    shutil.copytree(GAME, game)
    path = game / "i18n" / "de.yaml"
    # (a short word goes on a line with the next: this one's first 13 words, 7 lines, fit on the cover now)
    long = ("Die unverbesserlichen Hüter des allerschönsten Hafens der nordfriesischen Küste und der Inseln im "
            "Wattenmeer bei Sturm und Flut")
    text = path.read_text("utf-8").replace("title: Die Hüter des Hafens\n", f"title: {long}\n")
    path.write_text(text, "utf-8")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("title:"))
    result = run("validate", game, "--lang", "de", "--no-cache")
    assert result.exit_code == 2
    assert f"{display_path(path)}:{line}: title: 'Die unverbesserlichen Hüter des allers…' is too long for the " \
           f"rulebook's cover on letter paper, even set small" in result.output


def test_a_translated_word_too_long_for_its_place_on_a_board_is_an_error_at_the_layouts_line(tmp_path):
    """A board's texts are fitted as a card's are, in every language: a German name longer than the
    French one was clipped at the player board's edge, and validation said nothing."""
    game = tmp_path / "gardiens"
    shutil.copytree(GAME, game)
    path = game / "i18n" / "de.yaml"
    long = " ".join(["Perlentaucherinnenmeisterschaft"] * 6)
    path.write_text(path.read_text("utf-8").replace("gardien_plongeuse: Perlentaucherin",
                                                    f"gardien_plongeuse: {long}"), "utf-8")
    result = run("validate", game, "--lang", "de", "--no-cache")
    assert result.exit_code == 2
    layout = game / "templates" / "layouts" / "warden_board.yaml"
    line = next(i for i, t in enumerate(layout.read_text("utf-8").splitlines(), 1) if "{name: name," in t)
    assert (f"{display_path(layout)}:{line}: layout 'warden_board', region 'name': text: {long!r} does not fit its "
            f"130.0 x 14.0 mm place even at 10 pt (needs 3 lines, at most 1 allowed) (board 'plateaux')"
            ) in result.output.splitlines()
    # and the name printed beside the double-sided board, and the standee's label, front and back
    assert "4 problems found; nothing was written." in result.output


def test_a_translated_standee_label_too_long_for_its_band_is_an_error_at_the_translations_line(tmp_path):
    """A standee's label was clipped at the figure's edges when the translation was longer, silently."""
    game = tmp_path / "gardiens"
    shutil.copytree(GAME, game)
    path = game / "i18n" / "de.yaml"
    text = path.read_text("utf-8").replace("gardien_plongeuse: Perlentaucherin",
                                           "gardien_plongeuse: Perlentaucherinnenmeisterschaftskapitänin")
    path.write_text(text, "utf-8")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("  gardien_plongeuse:"))
    result = run("validate", game, "--lang", "de", "--no-cache")
    assert result.exit_code == 2
    for side in ("front", "back"):
        assert (f"{display_path(path)}:{line}: standee 'figurines': piece 'gardien_plongeuse' {side}: label "
                f"'Perlentaucherinnenmeisterschaftskapitä…' does not fit its 22.0 x 7.3 mm band even at 4.5 pt (a word "
                f"is wider than the box)") in result.output.splitlines()


def test_a_translated_board_title_too_long_for_its_assembly_map_is_an_error_at_the_translations_line(tmp_path):
    """The assembly map's title ran off both sides of the page when the German title was long, silently."""
    game = tmp_path / "gardiens"
    shutil.copytree(GAME, game)
    path = game / "i18n" / "de.yaml"
    long = "Hafenplan der allerschönsten nordfriesischen Hafenstadt an der Küste mit all ihren Vierteln und Kais"
    text = path.read_text("utf-8").replace("port: {title: Hafenplan}", f"port: {{title: {long}}}")
    path.write_text(text, "utf-8")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("  port: {title:"))
    result = run("validate", game, "--lang", "de", "--no-cache")
    assert result.exit_code == 2
    assert (f"{display_path(path)}:{line}: board 'port': 'Hafenplan der allerschönsten nordfries…' does not fit its "
            f"259.4 x 10.0 mm place on the letter sheets even at 9 pt (needs 2 lines, at most 1 allowed)"
            ) in result.output.splitlines()
