"""Typesetting by the rules of the trade, measured on layout data: list indents and bullets, headings
kept with what follows, quotes per language, hyphenation, no one-word last lines on cards, booklet
marks outside every page's frame, padding pages only as rulebook.yaml asks."""

import json

import pytest

from pnp.text import locales, typography
from pnp.rulebook.component import context
from pnp.draw import fonts
from pnp.draw.icons import for_game, using
from pnp.draw.text import fit, line_width, wrap
from pnp.loading.gamedata import load_game
from pnp.loading.i18n import strings, translate
from pnp.layout.geometry import Rect, Style, extent
from pnp.layout.imposition import side_marks
from pnp.layout.typeset import BULLET_GAP, bullet_list, numbered_list
from pnp.text.markup import parse
from pnp.rulebook.chapters import chapter_markup, load_config
from pnp.draw.document import BODY, COVER_FRAME, MARGIN, flowables, render_booklet
from pnp.units import half_sheet, pt
from rasterize import page_texts

GAMES = ["shadow_throne", "behind_the_throne", "shadow_queen", "shadow_kingdoms_of_valeria"]


def placements(game_id: str, paper: str = "letter", lang: str = "en"):
    """(page count, [(page, kind, lines, markup)]) of the game's booklet as laid out."""
    from pnp.rulebook.figures import Figures

    game = translate(load_game(game_id), lang) if lang != "en" else load_game(game_id)
    cfg = load_config(game)
    with for_game(game, lang):
        figures = Figures(game, lang)
        chapters = chapter_markup(game, cfg, context(game, cfg, lang, figures), lang)
        placed = []
        _, pages, _ = render_booklet(game, cfg, chapters, half_sheet(paper), lang, 0, strings(game, lang),
                                     placed=placed, figures=figures)
    return pages, placed


# ------------------------------------------------------------------------------------------- lists

def test_a_bullet_is_the_height_of_a_small_letter_and_stands_half_an_em_from_its_text():
    g = bullet_list(BODY.size)
    assert g.bullet_size == pytest.approx(0.42 * BODY.size)
    assert g.gap == pytest.approx(BULLET_GAP * BODY.size)
    assert g.bullet_cx - g.bullet_size / 2 >= 0          # inside the column
    assert round(g.indent, 2) == round(g.bullet_cx + g.bullet_size / 2 + 0.5 * BODY.size, 2)


def test_list_items_hang_from_their_marker_on_every_line():
    flows = flowables(parse("- " + "word " * 80 + "\n- short"), pt(100), {})
    first = flows[0].first                               # the two items are kept together
    assert first.marker is not None and first.indent == first.marker.indent
    first.wrap(pt(100), 1000)
    assert len(first._lines) > 3
    for line in first._lines:                            # every line fits beside the hanging indent
        assert line_width(line, BODY, BODY.size) <= pt(100) - first.indent + 0.01
    head, tail = first.split(pt(100), first.lead * 2.5)
    assert tail.indent == first.indent                   # the part on the next page hangs the same


def test_numbers_of_a_long_list_keep_a_gap_to_their_text():
    flows = flowables(parse("\n".join(f"{k}. item {k}" for k in range(1, 13))), pt(100), {})
    widest = max(line_width(line, BODY, BODY.size) for line in wrap("**12.**", BODY, BODY.size, 1e6))
    first = flows[0].first                               # (kept with the second item)
    assert first.indent == pytest.approx(numbered_list(BODY.size, widest).indent)
    assert first.indent - widest == pytest.approx(BULLET_GAP * BODY.size)


# ------------------------------------------------------------------------------- keep with next

@pytest.mark.parametrize("game_id", GAMES)
def test_no_heading_or_lead_in_ends_a_page(game_id):
    """Every heading, and every paragraph that ends with a colon, has at least two lines of what
    follows it on its own page (or all of it when it is shorter)."""
    _, placed = placements(game_id)
    content = [p for p in placed if p[1] in ("heading", "body", "item", "text", "figure", "Table", "group")]
    for k, (page, kind, lines, markup) in enumerate(content[:-1]):
        if kind != "heading" and not (kind == "body" and markup.rstrip().endswith(":")):
            continue
        nxt = content[k + 1]
        assert nxt[0] == page, f"{markup!r} ends page {page}"
        if nxt[1] in ("body", "item", "text") and nxt[2]:
            following = [p for p in content[k + 1:] if p[3] == nxt[3]]    # the same paragraph, split
            assert nxt[2] >= min(2, sum(p[2] for p in following)), f"{markup!r}: one line after it"


def test_spanish_lead_in_stays_with_its_list():
    _, placed = placements("shadow_throne", "letter", "es")
    k = next(i for i, p in enumerate(placed) if p[3].endswith("En cada oleada:"))
    assert placed[k + 1][0] == placed[k][0] and placed[k + 1][1] == "item"


# ------------------------------------------------------------------- lead-ins, colons and figures

def laid(game_id: str, lang: str, paper: str):
    """The booklet as built (:func:`pnp.rulebook.component.fitted`: with its spare and fill blocks), laid
    out: its pages' placements."""
    from pnp.rulebook.component import _laid, _prepared

    game = translate(load_game(game_id), lang) if lang != "en" else load_game(game_id)
    with for_game(game, lang):
        cfg, figures, chapters, fills, words, size, key, _ = _prepared(game, paper, lang)
        return _laid(game, cfg, chapters, fills, figures, paper, lang, words, size, key)[0]


def parts(flowable):
    """``flowable`` and what it holds (a heading or a lead-in kept with what follows, a block kept
    together), in reading order."""
    yield flowable
    for inner in (getattr(flowable, "first", None), getattr(flowable, "second", None),
                  *(getattr(flowable, "_content", None) or ())):
        if inner is not None:
            yield from parts(inner)


def line_text(line) -> str:
    """A wrapped line's words as plain text (icons left out)."""
    return " ".join("".join(a.text for a in word if a.kind == "text") for word in line)


_DIE = ("Every die shows a strength.\nIts type is in the corner:\nGoblin, Orc, Skeleton.\n"
        "A die you take brings its discount.\nThe icon stands for any type.")


def test_a_line_ending_in_a_colon_never_ends_a_page():
    """A line that ends in a colon introduces the next one: a paragraph split after it (Valeria's A4 p2
    ended on "... in the lower right corner:", the troop types on p3) moves on whole or splits a line
    earlier."""
    from pnp.draw.flowables import RichText

    flow = RichText(_DIE, BODY, 0, 5, kind="body")
    flow.wrap(pt(300), 1000)
    assert [line_text(line) for line in flow._lines][1] == "Its type is in the corner:"
    assert flow.split(pt(300), flow.lead * 2 + 1) == []        # two lines, the second a lead-in: it moves on
    head, tail = flow.split(pt(300), flow.lead * 3 + 1)
    assert line_text(head._lines[-1]) == "Goblin, Orc, Skeleton." and len(tail._lines) == 2


def _lead_in(text: str):
    from pnp.draw.document import CAPTION
    from pnp.draw.flowables import FigureRow, KeepWithNext, RichText
    from pnp.rulebook.figures import Drawing

    para = RichText(text, BODY, 0, 5, kind="body")
    return para, KeepWithNext(para, FigureRow([Drawing((), 40.0, 60.0, 1.0, "", "map")], CAPTION))


def test_a_paragraph_leading_in_to_a_figure_keeps_its_last_sentence_with_it():
    """The pair too tall for the room left: the paragraph's first lines stay, the sentence that
    introduces the figure goes on with it, whole (it kept only the paragraph's last two lines)."""
    width = pt(100)
    text = " ".join(["Ana plays a card and Ben answers it."] * 6) + (
        " The figure below shows the table after the second wave, once every player has revealed a card,"
        " paid for it and moved the faction tokens.")
    para, pair = _lead_in(text)
    lines = [line_text(line) for line in para._wrap_lines(width)]
    start = next(k for k, line in enumerate(lines) if "The figure" in line)
    assert len(lines) - start > 2                   # the last sentence takes more than two lines
    head, rest = pair.split(width, para.lead * (len(lines) - 1) + 1)
    assert len(head._lines) == start
    assert "The figure" in line_text(rest.first._lines[0]) and len(rest.first._lines) == len(lines) - start


@pytest.mark.parametrize("lang, last", [
    ("en", "The figure below shows the table after the second wave, e.g. once every player has revealed a"
           " card (i.e. paid for it), moved token No. 3 by 2.5 spaces, etc. and handed it to J. R. Smith."),
    ("es", "La figura muestra la mesa tras la segunda oleada, p. ej. cuando cada jugador ha revelado una"
           " carta, ha pagado 2,5 monedas, etc. y ha movido la ficha núm. 3 hasta la casilla de la Sra. Lys."),
])
def test_a_lead_in_keeps_a_last_sentence_with_abbreviations_whole(lang, last):
    """The last sentence is found by the language's sentence ends: "e.g.", "i.e.", "etc.", "No. 3",
    "p. ej.", "núm. 3", "Sra." and initials do not end one (they cut off the sentence's tail, which went on
    with the figure alone)."""
    width = pt(100)
    first = {"en": "Ana plays a card and Ben answers it.", "es": "Ana juega una carta y Ben le responde."}[lang]
    with typography.language(lang):
        para, pair = _lead_in(" ".join([first] * 6) + " " + last)
        lines = [line_text(line) for line in para._wrap_lines(width)]
        start = next(k for k, line in enumerate(lines) if "The figure" in line or "La figura" in line)
        assert len(lines) - start > 2                   # the last sentence takes more than two lines
        head, rest = pair.split(width, para.lead * (len(lines) - 1) + 1)
    assert len(head._lines) == start
    assert len(rest.first._lines) == len(lines) - start
    assert "The figure" in line_text(rest.first._lines[0]) or "La figura" in line_text(rest.first._lines[0])


@pytest.mark.parametrize("lang, text, expected", [
    ("en", "Take a card, e.g. the Alchemist. Then pay, i.e. give 2.5 gold to No. 3, etc. The figure shows"
           " J. R. Smith and Mr. Lys. No. That is all!",
     ["Take a card, e.g. the Alchemist.", "Then pay, i.e. give 2.5 gold to No. 3, etc.",
      "The figure shows J. R. Smith and Mr. Lys.", "No.", "That is all!"]),
    ("es", "Roba una carta, p. ej. el Alquimista. Paga 2,5 monedas a la casilla núm. 3, etc. La figura"
           " muestra a la Sra. Lys y a EE. UU. Gómez. ¿Y luego? ¡Nada!",
     ["Roba una carta, p. ej. el Alquimista.", "Paga 2,5 monedas a la casilla núm. 3, etc.",
      "La figura muestra a la Sra. Lys y a EE. UU. Gómez.", "¿Y luego?", "¡Nada!"]),
    ("en", "Wait... and then. \"Go!\" she said (twice.) Next", ["Wait... and then.", "\"Go!\"",
                                                               "she said (twice.)", "Next"]),
])
def test_sentences_end_where_the_language_ends_them(lang, text, expected):
    from pnp.text.sentences import sentences

    assert sentences(text, lang) == expected


def test_every_abbreviation_is_a_word():
    """The abbreviation lists read as words (a bare ``no`` in YAML is false, and "No. 3" ended a sentence)."""
    from pnp.text.sentences import _data, abbreviations

    assert {"en", "es"} <= set(_data())
    for lang, lists in _data().items():
        assert all(isinstance(w, str) for words in lists.values() for w in words), lang
    assert "no" in abbreviations("en")[1] and "ej" in abbreviations("es-MX")[0]


def test_a_short_paragraph_leading_in_to_a_figure_moves_on_whole_with_it():
    """A lead-in of four lines is not split 2 + 2 at a page's foot: it goes on with its figure."""
    width = pt(100)
    para, pair = _lead_in(" ".join(["Ana plays a card and Ben answers."] * 8))
    assert len(para._wrap_lines(width)) == 4
    assert pair.split(width, para.lead * 3 + 1) == []


def test_a_lead_in_too_long_for_any_page_still_splits_at_the_top_of_one():
    """One long sentence and its figure, taller than a page: where it stands at a page's top, moving on
    gains nothing, and it splits as before (its last two lines with the figure) rather than fail."""
    class Top:
        _atTop = True

    width = pt(100)
    text = "Ana plays " + " and ".join(["a card that Ben answers with another card"] * 20) + "."
    para, pair = _lead_in(text)
    n = len(para._wrap_lines(width))
    assert n > 8
    assert pair.split(width, para.lead * (n - 1) + 1) == []         # not at the top: it moves on whole
    pair._frame = Top()
    head, rest = pair.split(width, para.lead * (n - 1) + 1)
    assert len(rest.first._lines) == 2 and len(head._lines) == n - 2


def test_valerias_dice_paragraph_stays_with_its_troop_types_and_its_figure():
    """Valeria's A4 booklet broke its dice paragraph after "... in the lower right corner:", the troop types
    it introduces and the dice figure on the next page: they are on one page now."""
    from pnp.rulebook.component import laid_booklet

    game = load_game("shadow_kingdoms_of_valeria")
    with for_game(game, "en"):
        pdf = laid_booklet(game, "a4", "en")[0]
    pages = [" ".join(page.split()) for page in page_texts(pdf)]
    (page,) = [p for p in pages if "lower right corner:" in p]
    assert "lower right corner: Goblin, Orc" in page and "An Orc die at 5" in page


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("game_id,lang", [(game, "en") for game in GAMES] + [("shadow_throne", "es")])
def test_no_page_of_a_booklet_ends_on_a_line_ending_in_a_colon(game_id, lang, paper):
    """The last text each page of a booklet sets (its lowest paragraph, item or line, when nothing is set
    under it) does not end in a colon."""
    from pnp.draw.flowables import RichText

    for number, page in enumerate(laid(game_id, lang, paper).pages, 1):
        placed = [f for event in page.events if event[0] == "place" for f in parts(event[1])]
        leaves = [f for f in placed if not hasattr(f, "first") and not getattr(f, "_content", None)]
        last = leaves[-1] if leaves else None
        if isinstance(last, RichText) and last._lines:
            assert not line_text(last._lines[-1]).rstrip().endswith(":"), (number, line_text(last._lines[-1]))


# ------------------------------------------------------------------------------------ quotes

@pytest.mark.parametrize("lang,text,expected", [
    ("en", "Kyros' turn: the \"sheet\" and 'word'", "Kyros\u2019 turn: the {0}sheet{1} and {2}word{3}"),
    ("en", "**\"bold\"** [gold:\"x\"] \\\"raw", "**{0}bold{1}** [gold:\"x\"] \\\"raw"),
    ("es", "la \"carta\" de Kyros' turno", "la {0}carta{1} de Kyros\u2019 turno"),
    ("es", "(\"entre\")", "({0}entre{1})"),
    ("de", "Er sagt \"ja\" und 'gut' \u2013 geht's?", "Er sagt {0}ja{1} und {2}gut{3} \u2013 geht\u2019s?"),
    ("pt-PT", "o \"jogo\"", "o {0}jogo{1}"),
    ("xx", "a \"b\"", "a {0}b{1}"),
])
def test_quotes_follow_the_language_and_leave_markup_alone(lang, text, expected):
    """The quotation marks are CLDR's for the language (its delimiters, alternate ones for ' quotes); a
    language CLDR does not know gets the root locale's."""
    marks = CLDR_QUOTES.get(lang.replace("-", "_"), CLDR_QUOTES["und"])
    assert typography.quotes(text, lang) == expected.format(*marks)


#: CLDR's quotation marks, as CLDR's own JSON gives them (the file pnp reads, made by
#: scripts/update_cldr_delimiters.py), checked against the values CLDR publishes for a few languages.
CLDR_QUOTES = json.loads(locales.DELIMITERS_FILE.read_text("utf-8"))["delimiters"]


def test_the_quotation_marks_are_cldrs():
    assert CLDR_QUOTES["en"] == "\u201c\u201d\u2018\u2019" and CLDR_QUOTES["de"] == "\u201e\u201c\u201a\u2018"
    assert CLDR_QUOTES["fr"][:2] == "\u00ab\u00bb" and CLDR_QUOTES["pt_PT"][:2] == "\u00ab\u00bb"
    assert len(CLDR_QUOTES) > 700
    from pnp.text import locales
    for lang in ("en", "es", "fr", "de", "pt", "pt-PT", "fr-CH", "es-MX", "ja"):
        code = locales.locale_id(lang)
        assert "".join(locales.quotation_marks(lang)) == CLDR_QUOTES.get(code, CLDR_QUOTES[code.split("_")[0]])


@pytest.mark.parametrize("lang,text,expected", [
    ("fr", "Attention : le \"jeton\" ! Vraiment?! 12:30 http://x [gold:2] **Note:** fin; « dit-il »",
     "Attention\u202f: le \u00ab\u202fjeton\u202f\u00bb\u202f! Vraiment\u202f?! 12:30 http://x [gold:2] "
     "**Note\u202f:** fin\u202f; \u00ab\u202fdit-il\u202f\u00bb"),
    ("fr-CA", "Oui!", "Oui\u202f!"),
    ("en", "Stop: now! (a; b)", "Stop: now! (a; b)"),
    ("de", "Achtung: los!", "Achtung: los!"),
])
def test_french_puts_a_narrow_no_break_space_before_high_punctuation(lang, text, expected):
    assert typography.quotes(text, lang) == expected


def test_printed_english_rulebook_has_no_typewriter_apostrophes():
    from pnp.rulebook.component import booklet

    game = load_game("shadow_kingdoms_of_valeria")
    with using(game.icons, "en"):
        pdf, _, _ = booklet(game, "letter", "en")
    text = " ".join(page_texts(pdf))
    assert "\u2019" in text and "'" not in text and '"' not in text


# ------------------------------------------------------------------------------- hyphenation

@pytest.mark.parametrize("lang,word,points", [
    ("en", "characters", (4, 6)), ("es", "conversación", (3, 6, 8)), ("es", "Rebeldes", (2, 5)),
    ("en", "NOBLE", ()), ("en", "gold", ()),
])
def test_hyphenation_points_come_from_the_dictionary(lang, word, points):
    assert typography.hyphen_points(word, lang) == points


@pytest.mark.parametrize("lang", ["en", "es", "fr", "de"])
def test_the_patterns_read_lazily_are_pyphens(lang):
    """typography.Patterns reads a pattern only when a word needs it: every pattern and every word of
    the bundled games, templates and docs get what pyphen's own reading gives, and so do the words the
    patterns spell (all of them for English, Spanish and French; an even spread of 5,000 of German's
    66,000, which would take 11 s)."""
    import re

    import pyphen

    from pnp import DATA_DIR, TEMPLATES_DIR
    from pnp.text import locales

    path = pyphen.LANGUAGES[locales.hyphenation_dictionary(lang)]
    lazy = typography.Patterns(path)
    whole = pyphen.Pyphen(filename=path, left=typography.HYPHEN_LEFT, right=typography.HYPHEN_RIGHT, cache=False)
    assert len(whole.hd.patterns) > 2000
    for letters, (start, values) in whole.hd.patterns.items():
        assert lazy._pattern(letters) == (start, tuple(values)), letters
    spelt = sorted({letters.strip(".") for letters in whole.hd.patterns})
    words = set(spelt[::max(1, len(spelt) // 5000)])
    for folder in (DATA_DIR, TEMPLATES_DIR, DATA_DIR.parent / "docs"):
        for file in folder.rglob("*"):
            if file.suffix in (".yaml", ".j2", ".md", ".csv"):
                words.update(re.findall(r"[^\W\d_]+", file.read_text(encoding="utf-8")))
    assert len(words) > 5000
    for word in words:
        assert lazy.positions(word) == whole.positions(word), word


@pytest.mark.parametrize("lang,dictionary", [("en", "en_US"), ("en-GB", "en_GB"), ("es", "es"), ("fr", "fr"),
                                             ("de", "de_DE"), ("pt", "pt_BR"), ("pt-PT", "pt_PT"), ("xx", None)])
def test_the_hyphenation_dictionary_is_pyphens_for_the_language(lang, dictionary):
    """pyphen's dictionary for the language, in CLDR's likely region when the code names none (en: en_US,
    pt: pt_BR); none for a language pyphen lacks, which is a warning, and its words never break."""
    import pyphen

    from pnp.text import locales

    assert locales.hyphenation_dictionary(lang) == dictionary
    assert dictionary is None or dictionary in pyphen.LANGUAGES
    assert (typography.hyphenation_problem(lang) is None) == (dictionary is not None)
    if dictionary is None:
        assert typography.hyphen_points("extraordinary", lang) == ()


def test_a_long_word_at_a_short_line_is_hyphenated_within_the_column():
    style = Style(font="serif", size=9.4, align="left", hyphenate=True)
    width = fonts.width("aa bb cc dd char-", fonts.font_name("serif"), 9.4) + 1
    text = "aa bb cc dd characters influence possessed"
    lines = wrap(text, style, 9.4, width)
    words = [a.text for line in lines for w in line for a in w]
    assert any(w.endswith("-") for w in words)
    for line in lines:
        assert line_width(line, style, 9.4) <= width + 0.01
    # the parts put together are the words as written
    joined = " ".join(" ".join("".join(a.text for a in w) for w in line) for line in lines).replace("- ", "")
    assert joined == text


def test_spanish_text_breaks_at_spanish_points():
    style = Style(font="serif", size=9.4, align="left", hyphenate=True)
    with typography.language("es"):
        lines = wrap("uno dos conversación", style, 9.4, fonts.width("uno dos conver-", fonts.font_name("serif"), 9.4) + 1)
    assert "".join(a.text for a in lines[0][-1]) == "conver-"


# ------------------------------------------------------------------------------- card texts

def test_a_card_text_does_not_end_with_one_word_when_a_break_avoids_it():
    style = Style(font="serif", size=9.0, min_size=8.0, align="center")
    text = "Every other Rebel character in this wave gets one power for each gold you hold"
    # a width at which the text set plainly leaves one word alone on its last line
    width = next(w for w in range(60, 20, -1) if len(wrap(text, style, 9.0, pt(w))[-1]) == 1)
    loose = wrap(text, style, 9.0, pt(width))
    fitted = fit(text, style, width, 40)
    assert fitted.ok and len(fitted.lines[-1]) >= 2
    assert len(fitted.lines) == len(loose)               # no extra line for it
    assert fitted.size >= 8.5


# -------------------------------------------------------------------------- booklet marks

@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_sheet_labels_and_fold_marks_are_outside_every_pages_frame(paper):
    w, h = half_sheet(paper)
    marks = side_marks(w, h, "sheet 12 front")
    # the right-hand page's cover frame and its text frame (the left page mirrors them)
    cover = Rect(w + COVER_FRAME - 0.5, COVER_FRAME - 0.5, w - 2 * COVER_FRAME + 1, h - 2 * COVER_FRAME + 1)
    body = Rect(w + MARGIN["inner"], MARGIN["bottom"] - 8, w - MARGIN["inner"] - MARGIN["outer"], h)
    for label in marks.find("sheet-label"):
        box = extent(label)
        assert not box.overlaps(cover) and not box.overlaps(body)
        assert box.x > w and box.right < w + COVER_FRAME - 1.0     # in the strip beside the fold
        assert box.y >= 6.0
    for fold in marks.find("fold"):
        assert fold.x1 == fold.x2 == w


# ------------------------------------------------------------------------------ padding pages

def test_padding_pages_are_blank_unless_rulebook_yaml_asks_for_notes(game_copy):
    from pnp.rulebook.component import booklet

    def pages_text():
        cached = booklet
        while not hasattr(cached, "cache_clear"):
            cached = cached.__wrapped__
        cached.cache_clear()
        game = load_game(game_copy)
        with using(game.icons, "en"):
            pdf, pages, content = booklet(game, "letter", "en")
        return page_texts(pdf), content

    cfg = game_copy / "rulebook.yaml"
    cfg.write_text(cfg.read_text().replace("chapters:", "pages: 16\nchapters:", 1))
    texts, content = pages_text()
    assert len(texts) == 16
    blank = [i for i, t in enumerate(texts) if not t.strip()]
    assert len(blank) == 16 - content and "Notes" not in " ".join(texts)
    cfg.write_text(cfg.read_text().replace("pages: 16", "pages: 16\nnotes: true", 1))
    texts, content = pages_text()
    assert sum("Notes" in t for t in texts) == 16 - content
    assert not any(not t.strip() for t in texts)
