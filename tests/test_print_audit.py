"""The defects a print audit measured in the kit's PDFs (issue 13), each measured again here."""

import pytest

from pnp.components import BuildOptions
from pnp.components.cards import build as build_cards
from pnp.loading.gamedata import load_game
from pnp.layout.geometry import Rect, extent
from pnp.units import PAPERS
from rasterize import page_texts, px


@pytest.fixture(scope="module")
def game():
    return load_game("shadow_throne")


@pytest.fixture(scope="module")
def kits(built_kit):
    """The Shadow Throne kit built in English on Letter and in Spanish on A4: {lang: output folder}
    (shared with the other modules that read them: conftest.built_kit)."""
    return {"en": built_kit("shadow_throne", "en", "letter"), "es": built_kit("shadow_throne", "es", "a4")}


def text_runs(pdf_path):
    """(page number, font size in pt, text) of every run of printed characters of one size."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw
    doc = pdfium.PdfDocument(str(pdf_path))
    runs = []
    try:
        for i in range(len(doc)):
            page = doc[i].get_textpage()
            current, size = [], None
            for k in range(page.count_chars()):
                ch, s = page.get_text_range(k, 1), round(raw.FPDFText_GetFontSize(page, k), 2)
                if size is not None and s != size and current:
                    runs.append((i + 1, size, "".join(current)))
                    current = []
                if ch.strip():
                    current.append(ch)
                    size = s
            if current:
                runs.append((i + 1, size, "".join(current)))
    finally:
        doc.close()
    return runs


def _line_rect(line) -> Rect:
    """The area a straight, butt-capped line paints."""
    gx = line.width / 2 if line.x1 == line.x2 else 0.0
    gy = line.width / 2 if line.y1 == line.y2 else 0.0
    return Rect(min(line.x1, line.x2) - gx, min(line.y1, line.y2) - gy, abs(line.x2 - line.x1) + 2 * gx,
                abs(line.y2 - line.y1) + 2 * gy)


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("flip", ["long", "short"])
def test_no_cut_line_crosses_a_card_back_or_its_spill(paper, flip, game):
    """A light cut line over the dark backs shows as a hairline inside every back when the duplex print
    drifts; the back pages keep their cut lines in the margins, clear of the backs' colour."""
    _, backs, _ = build_cards(game, BuildOptions(paper=paper, flip=flip))
    for page in backs.pages:
        colour = [b.rect for b in page.find("back-bleed")]
        cuts = page.find("cut")
        assert colour and cuts
        for line in cuts:
            for area in colour:
                assert not area.overlaps(_line_rect(line)), (page.label, line)
        # the lines still mark every card edge, in the margins at both ends
        xs = {round(r.x, 2) for r in colour} | {round(r.right, 2) for r in colour}
        edges = {round(x + d, 2) for x in xs for d in (2.0, -2.0)} & {round(line.x1, 2) for line in cuts}
        assert len(edges) == 4       # 3 columns: 4 vertical card edges


def _white_margin(image, dpi: float, margin_mm: float) -> bool:
    """No ink within ``margin_mm`` of any edge of a rasterized sheet."""
    m = px(margin_mm, dpi)
    w, h = image.size
    for box in ((0, 0, w, m), (0, h - m, w, h), (0, 0, m, h), (w - m, 0, w, h)):
        lo, _ = image.crop(box).convert("L").getextrema()
        if lo < 250:
            return False
    return True


@pytest.mark.parametrize("lang,label", [("en", "sheet 2 back"), ("es", "hoja 2, reverso")])
def test_booklet_sheet_marks_stay_printable_and_are_translated(game, lang, label):
    """Every fold mark and sheet label lies at least 6 mm inside the sheet (home printers clip closer), the
    label is at least 6 pt, and it speaks the kit's language."""
    import pypdfium2 as pdfium

    from pnp.rulebook.component import build as build_rulebook
    from pnp.layout.imposition import side_marks
    from pnp.units import PRINTER_MARGIN, half_sheet

    w, h = half_sheet("letter")
    marks = side_marks(w, h, label)
    printable = Rect(PRINTER_MARGIN, PRINTER_MARGIN, 2 * w - 2 * PRINTER_MARGIN, h - 2 * PRINTER_MARGIN)
    assert len(marks.find("fold")) == 2
    for el in marks.find("fold"):
        assert printable.contains(_line_rect(el))
    for el in marks.find("sheet-label"):
        assert printable.contains(extent(el))
    assert marks.find("sheet-label")[0].elements[0].style.size >= 6.0
    from pnp.loading.i18n import translate

    _, imposed = build_rulebook(translate(game, lang), BuildOptions(lang=lang))   # as a build translates it
    text = page_texts(imposed.pdf)[3]
    assert label in text
    doc = pdfium.PdfDocument(imposed.pdf)
    try:
        for i in range(len(doc)):
            image = doc[i].render(scale=100 / 72).to_pil().convert("RGB")
            assert _white_margin(image, 100, PRINTER_MARGIN - 0.3), f"sheet side {i + 1}"
    finally:
        doc.close()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_no_printed_text_is_smaller_than_6_pt(kits, lang):
    """Every character of the kit (rank labels, numbers in inline step badges, notes, labels) is 6 pt or
    more, measured in kit.pdf itself."""
    runs = text_runs(kits[lang] / "kit.pdf")
    assert len(runs) > 1000
    small = [r for r in runs if r[1] < 6.0 - 0.005]
    assert not small, small[:10]


def test_small_text_on_cards_has_enough_contrast(game):
    """Small text (under 9 pt) on a card face reaches 4.5:1 against the parchment it sits on, including
    the rank word in each faction's colour (Church gold was 4.2:1)."""
    from pnp.components.cards import face_content, layout_of
    from pnp.loading.cardlayout import card_face
    from pnp.layout.colour import contrast
    from pnp.layout.geometry import Text

    seen = set()
    for card in game.cards:
        layout = layout_of(game.deck_of(card), card)
        paper = layout.palette_dict()["paper"]
        for el in card_face(face_content(game, card, mark="3+"), 63, 88, 0.0, layout):
            if isinstance(el, Text) and el.style.size < 9:
                seen.add(el.role)
                assert contrast(el.style.colour, paper) >= 4.5, (card.id, el.role, el.style.colour)
                assert el.style.size >= 6.0 and el.style.min_size >= 6.0, (card.id, el.role)
    assert {"rank", "players-mark", "flavour"} <= seen


def test_no_bundled_layout_sets_text_under_6_pt():
    """Every text style of every bundled layout (and every inline style of a text region) starts and
    stops shrinking at 6 pt or more: the loader refuses less (tests/test_layouts.py shows the message)."""
    from pnp import TEMPLATES_DIR
    from pnp.loading.cardlayout import bundled

    names = sorted(p.stem for p in (TEMPLATES_DIR / "layouts").glob("*.yaml"))
    assert "classic" in names
    for name in names:
        layout = bundled(name)
        for sname, _ in layout.styles:
            style = layout.style(sname)
            assert min(style.get("size", 99), style.get("min_size") or 99) >= 6.0, (name, sname)
    assert bundled("classic").style("rank")["size"] == 6.0      # was 5.6 pt


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_font_subset_has_its_own_tag(kits, lang):
    """kit.pdf held 33 font programs under 8 names (every subset tagged AAAAAA+): now a name is one
    program, and a program one name, in every PDF of the kit, the tag made from the program so it is the
    same on every build. reportlab writes them so named (nothing renames them afterwards)."""
    import hashlib
    from collections import defaultdict

    import pikepdf

    from pnp.draw.merge import subset_tag
    programs_by_name, names_by_program = defaultdict(set), defaultdict(set)
    files = sorted(kits[lang].glob("*.pdf"))
    assert len(files) >= 8
    for file in files:
        with pikepdf.open(file) as pdf:
            fonts = 0
            for obj in pdf.objects:
                if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/FontDescriptor":
                    program = obj.FontFile2.read_bytes()
                    name = str(obj.FontName)
                    programs_by_name[name].add(hashlib.sha256(program).hexdigest())
                    names_by_program[hashlib.sha256(program).hexdigest()].add(name)
                    assert name[1:7] == subset_tag(program) and name[7] == "+", (file.name, name)
                    fonts += 1
                elif isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font":
                    assert str(obj.BaseFont)[1:7] == str(obj.FontDescriptor.FontName)[1:7], (file.name, obj.BaseFont)
            assert fonts, file.name
    assert len(programs_by_name) > 8
    assert all(len(v) == 1 for v in programs_by_name.values())
    assert all(len(v) == 1 for v in names_by_program.values())


def test_rendered_pdfs_come_out_with_their_subsets_tagged():
    """reportlab's subsets are named from their programs as they are written: the kit's PDFs need no
    pass that opens and writes them again to rename them."""
    from pnp.draw.merge import tag_font_subsets
    from pnp.draw.pdf import render
    from pnp.layout.geometry import Page, Rect, Style, Text

    page = Page(100, 100)
    page.add(Text(Rect(10, 10, 80, 20), "Tagged <b>subsets</b>", Style(font="serif")),
             Text(Rect(10, 40, 80, 20), "Lato", Style(font="sans")))
    data = render([page], "fonts")
    assert b"/AAAAAA+" not in data
    assert tag_font_subsets(data) is data


def test_the_booklet_shrinks_to_the_smallest_multiple_of_4_unless_the_data_fixes_it(game_copy):
    """Shadow Throne's rulebook fills a 16-page booklet; without its card index and whole battle it takes
    the smallest multiple of 4 that holds it, the spare pages left blank. `pages:` in rulebook.yaml
    still fixes the length, and `notes: true` makes the spare pages Notes pages."""
    from pnp.rulebook.component import booklet
    reading, pages, content = booklet(load_game("shadow_throne"), "letter", "en")
    assert pages == content == 16
    cfg = game_copy / "rulebook.yaml"
    cfg.write_text(cfg.read_text().replace("full_battle, card_index, ", ""))
    reading, pages, content = booklet(load_game(game_copy), "letter", "en")
    texts = page_texts(reading)
    assert pages == len(texts) == -(-content // 4) * 4 and pages < 16
    assert sum(not t.strip() for t in texts) == pages - content        # padding pages are blank
    cfg.write_text(cfg.read_text() + "pages: 16\nnotes: true\n")
    cached = booklet
    while not hasattr(cached, "cache_clear"):        # the booklet of this game folder is cached
        cached = cached.__wrapped__
    cached.cache_clear()
    fixed, pages, content = booklet(load_game(game_copy), "letter", "en")
    assert pages == 16 and content < 16
    texts = page_texts(fixed)
    assert sum("Notes" in t.splitlines()[:3] for t in texts) == 16 - content


@pytest.mark.parametrize("offset,paper,warned", [
    ((0, 4), "letter", "0,4 moves card backs to 3.7 mm from the top edge of the letter sheet"),
    ((0, -3), "letter", "0,-3 moves card backs to 4.7 mm from the bottom edge of the letter sheet"),
    ((0, 1), "letter", None),
    ((6, 0), "a4", "6,0 moves card backs to 4.5 mm from the right edge of the a4 sheet"),
    ((-6, 0), "a4", "-6,0 moves card backs to 4.5 mm from the left edge of the a4 sheet"),
])
def test_a_back_offset_that_leaves_the_printable_area_is_warned_about(game, offset, paper, warned):
    """Letter sheets have 7.7 mm above and below the 3 x 3 cards and A4 10.5 mm beside them: an offset that
    brings the backs within 5 mm of an edge gets a warning naming the distance and the edge."""
    from pnp.components.cards import check_back_offset
    from pnp.errors import Problems
    problems = Problems()
    check_back_offset(game, problems, BuildOptions(paper=paper, back_offset=offset))
    assert not problems.errors
    expected = [] if warned is None else [f"--back-offset: warning: {warned}; most home printers leave 5 mm white, "
                                          f"so the backs' edge will not print there (check the offset with "
                                          f"--calibration)"]
    assert [f"{p.subject}: warning: {p.message}" for p in problems.warnings] == expected


def test_pnp_build_prints_the_back_offset_warning_and_builds(tmp_path):
    from click.testing import CliRunner

    from pnp.commands.cli import main
    result = CliRunner().invoke(main, ["build", "--back-offset", "0,4", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert ("warning: --back-offset: 0,4 moves card backs to 3.7 mm from the top edge of the letter sheet"
            in result.stderr.splitlines()[0])
    assert (tmp_path / "kit.pdf").is_file()


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("sleeved", [None, "thick"])
def test_assembly_letters_print_only_on_glue_tabs_and_the_note_names_each_edge(game, paper, sleeved):
    """The letters A-D sat 0.3-0.6 mm inside cut edges on the lid's outside faces: now a letter prints only
    on its glue tab, and the sheet's note says which edge of which face that tab goes behind."""
    from pnp.components import box as box_component
    from pnp.layout.geometry import Text, flatten
    result = box_component.layout(game, BuildOptions(paper=paper, sleeved=sleeved))
    for pl, page in ((pl, result.pages[pl.sheet]) for pl in result.placements):
        faces = [f.rect.moved(pl.dx, pl.dy) for f in pl.piece.faces]
        letters = [t for t in flatten(page.elements) if isinstance(t, Text) and len(t.markup) == 1]
        tabs = [b.rect for b in page.find("glue-fill")]
        for t in letters:
            assert not any(f.overlaps(t.rect) for f in faces), t
            assert any(tab.contains(t.rect) for tab in tabs), t
    sides = {"n": "top edge", "s": "bottom edge", "e": "right edge", "w": "left edge"}
    notes = " ".join(page.find("note")[0].markup for page in result.pages)
    for pl in result.placements:
        for t in pl.piece.tabs:
            if t.letter:
                face = next(p.piece.face(t.joins) for p in result.placements if p.piece.has(t.joins))
                words = {"top": "top", "front": "front", "back": "back", "left": "left side",
                         "right": "right side", "bottom": "bottom"}
                assert f"{t.letter}: {sides[t.joins_side]} of {face.part} {words[face.side]}" in notes


def test_lid_facts_are_evenly_spaced_in_spanish(game):
    """'3-5 JUGADORES / 30-45 MINUTOS / EDAD 14+' sat in equal columns, so the gaps between them differed
    with the words' lengths: now one line with the same separator between each."""
    from pnp.components import box as box_component
    result = box_component.layout(load_game("shadow_throne"), BuildOptions(lang="es"))
    facts = [t.markup for page in result.pages for t in page.find("lid-fact")]
    assert facts == ["3\u20135 jugadores \u00b7 30\u201345 minutos \u00b7 +14 a\u00f1os"]


def test_the_spanish_kit_names_the_power_track_in_spanish(kits):
    """'POWER TRACK' / 'Power Track' was left in English in the title, instructions, bookmarks, box and 34
    times in the rulebook."""
    import pypdf
    for name in ("kit.pdf", "rulebook.pdf", "power-track.pdf"):
        text = " ".join(page_texts(kits["es"] / name))
        assert "power track" not in text.lower(), name
        assert "Marcador de Poder".lower() in text.lower()
    outline = [item.title for item in pypdf.PdfReader(str(kits["es"] / "kit.pdf")).outline]
    assert "Marcador de Poder" in outline


def test_the_spanish_rulebook_speaks_to_one_player_throughout(kits):
    """The rulebook spoke to 'tú' and switched to 'vosotros' on its last page: no second-person plural
    verb forms remain (Elegid, Revelad, formáis, ...)."""
    import re

    text = " ".join(page_texts(kits["es"] / "rulebook.pdf"))
    plural = re.findall(r"\b\w+(?:áis|éis|ís)\b|\b(?:Elegid|Revelad|Pagad|cobrad|Resolved|Moved|acordad)\b", text)
    assert plural == []


@pytest.mark.parametrize("width_mm", [x / 2 for x in range(40, 121)])
def test_a_number_and_its_icon_never_part_at_a_line_break(width_mm):
    """'cobras 1 / (coin)' and 'por paso 1 2 / 3' broke between a number and its icon: whatever the
    width, an inline icon starts no line that follows a word on the same paragraph."""
    from pnp.draw.text import wrap
    from pnp.layout.geometry import Style
    markup = ("Si no puedes pagar, la carta queda boca abajo y cobras 1 [coin]. Resuelve las habilidades "
              "por paso [step:1] [step:2] [step:3] y recoges influencia [seal] al ganar.")
    lines = wrap(markup, Style(font="sans", size=7.0), 7.0, width_mm * 72 / 25.4)
    assert lines
    for line in lines[1:]:
        assert line[0][0].kind != "icon", [[a.text for a in w] for w in line]
    joined = [[a.text for a in w] for line in lines for w in line]
    assert ["1", " ", "coin", "."] in joined
    assert ["paso", " ", "step", " ", "step", " ", "step"] in joined


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_tied_tokens_on_the_power_track_are_told_to_stack(game, paper):
    """A 38 mm space holds one 25 mm faction token with room around it, not two side by side (42.7 mm
    needed) and not the three of a three-way tie: the track says that tied tokens stack."""
    from pnp.components import track as track_component
    from pnp.layout.track import side_by_side
    result = track_component.layout(game, BuildOptions(paper=paper))
    assert round(result.space_size, 2) == {"letter": 38.0, "a4": 37.2}[paper]
    assert track_component.token_diameter(game) == 25
    assert side_by_side(result.space_size, 25) == 1 < len(game.factions)
    assert side_by_side(2 * 25 + 4, 25) == 2
    assert [t.markup for t in result.page.find("stack-note")] == ["Tokens with the same total stack on one space."]


@pytest.mark.parametrize("lang, words", [("en", "share a space: stack them"), ("es", "comparten casilla: apílalas")])
def test_the_rules_say_that_tied_tokens_stack(kits, lang, words):
    """The rulebook says it too, in each language (the shared kits: English on Letter, Spanish on A4; the
    paper changes no word of the rules)."""
    assert words in " ".join(" ".join(t.split()) for t in page_texts(kits[lang] / "rulebook.pdf"))


def _corners(group, card_w=63.0, card_h=88.0):
    """Page points of a placed card's top-centre and bottom-centre (upright or turned)."""
    from pnp.layout.geometry import Group, Transform, apply
    (inner,) = group.elements if len(group.elements) == 1 and isinstance(group.elements[0], Transform) else (None,)
    if isinstance(inner, Transform):
        return [tuple(round(v, 4) for v in apply(inner.matrix, card_w / 2, y)) for y in (card_h, 0.0)]
    assert isinstance(group, Group)
    return [(round(group.dx + card_w / 2, 4), round(group.dy + y, 4)) for y in (card_h, 0.0)]


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_turned_cards_register_exactly_behind_their_fronts(game, paper, flip, bleed):
    """With 3 mm bleed the cards lie turned a quarter (6 a Letter sheet, 8 an A4 sheet instead of 4); after
    the duplex flip every back covers its front exactly and is turned as an upright card's back would be
    (long edge: back's top behind the front's top; short edge: behind its bottom, as for upright cards)."""
    from pnp.layout.geometry import extent
    from pnp.layout.sheet import mirror
    w, h = PAPERS[paper]
    fronts, backs, *_ = build_cards(game, BuildOptions(paper=paper, flip=flip, bleed=bleed))
    per_sheet = len(fronts.pages[0].groups("card:"))
    assert per_sheet == (9 if not bleed else {"letter": 6, "a4": 8}[paper])
    for front_page, back_page in zip(fronts.pages, backs.pages):
        front = {g.role.split(":", 1)[1]: g for g in front_page.groups("card:")}
        back = {g.role.split(":", 1)[1]: g for g in back_page.groups("back:")}
        assert front.keys() == back.keys()
        for label, card in front.items():
            f_area, b_area = extent(card), extent(back[label])
            assert mirror(f_area, w, h, flip).rounded() == b_area.rounded()
            f_top, f_bottom = _corners(card)
            b_top, b_bottom = _corners(back[label])
            seen = mirror(Rect(*f_top, 0, 0), w, h, flip)
            expected = b_top if flip == "long" else b_bottom
            assert (round(seen.x, 3), round(seen.y, 3)) == (round(expected[0], 3), round(expected[1], 3))


def test_a_bleed_build_says_cut_along_the_crop_marks_and_writes_one_card_per_page(tmp_path):
    import pypdf
    from click.testing import CliRunner

    from pnp.commands.cli import main
    result = CliRunner().invoke(main, ["build", "--bleed", "3", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    text = " ".join(pypdf.PdfReader(str(tmp_path / "instructions.pdf")).pages[0].extract_text().split())
    assert "Cut along the crop marks" in text and "(the colour runs 3 mm past them)" in text
    assert "grey lines" not in text
    single = pypdf.PdfReader(str(tmp_path / "cards-one-per-page.pdf"))
    assert len(single.pages) == 118
    for page in single.pages[::17]:
        trim, bleed = (([round(float(v) * 25.4 / 72, 2) for v in box]) for box in (page.trimbox, page.bleedbox))
        assert trim == [3.0, 3.0, 66.0, 91.0] and bleed == [0.0, 0.0, 69.0, 94.0]
    # sheets of several cards or tokens claim no page boxes
    for name in ("cards-fronts.pdf", "tokens.pdf"):
        for page in pypdf.PdfReader(str(tmp_path / name)).pages:
            assert "/TrimBox" not in page and "/BleedBox" not in page


def test_subsets_reportlab_names_by_its_counter_are_renamed_from_their_programs():
    """tag_font_subsets still renames what reportlab's own TTFont writes (AAAAAA+, AAAAAB+...)."""
    import io

    import pikepdf
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    from pnp.draw.merge import subset_tag, tag_font_subsets

    # a face pnp does not register (reportlab maps a second font of a registered face onto the first)
    pdfmetrics.registerFont(TTFont("PlainVera", "Vera.ttf"))
    buf = io.BytesIO()
    c = Canvas(buf, invariant=1)
    c.setFont("PlainVera", 12)
    c.drawString(72, 72, "counted")
    c.save()
    assert b"/AAAAAA+" in buf.getvalue()
    tagged = tag_font_subsets(buf.getvalue())
    with pikepdf.open(io.BytesIO(tagged)) as pdf:
        names = [(str(o.FontName), o.FontFile2.read_bytes()) for o in pdf.objects
                 if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/FontDescriptor"]
    assert names and all(name[1:7] == subset_tag(program) for name, program in names)
