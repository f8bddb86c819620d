"""Every form of docs/rulebook.md's markup in a game pnp did not write: the ``>`` example box that crashed
every validation and build (issue 32), and the flowables a booklet is made of, which platypus copies."""

import copy
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from rasterize import page_words


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _starter(tmp_path):
    from pnp.loading.gamedata import load_game
    from pnp.rulebook.chapters import load_config

    assert run("new", tmp_path / "g").exit_code == 0
    game = load_game(tmp_path / "g")
    return game, load_config(game)


def _laid_out(game, cfg, markup: str):
    """A layout pass (:func:`pnp.draw.document.lay_out`) of a Letter booklet of the one chapter ``markup``."""
    from pnp.draw.icons import using
    from pnp.loading.i18n import strings
    from pnp.draw.document import lay_out
    from pnp.units import half_sheet

    with using(game.icons, "en"):
        return lay_out(game, cfg, [("rules", markup)], half_sheet("letter"), "en", strings(game, "en"))


def _pages_of(game, cfg, markup: str) -> dict:
    """{markup of each text flowable: the page it is set on} of a booklet of the one chapter ``markup``."""
    from pnp.draw.flowables import KeepWithNext

    out = {}

    def note(flowable, page):
        if isinstance(flowable, KeepWithNext):
            note(flowable.first, page)
            note(flowable.second, page)
        elif getattr(flowable, "markup", None):
            out.setdefault(flowable.markup, page)
        for inner in getattr(flowable, "_content", ()):      # a box kept together
            note(inner, page)

    for page, laid_page in enumerate(_laid_out(game, cfg, markup).pages, 1):
        for event in laid_page.events:
            if event[0] == "place":
                note(event[1], page)
    return out


def _y_of(game, cfg, markup: str, text: str) -> float:
    """Where the text flowable ``text`` is set (points from the page's foot) in a booklet of the one chapter
    ``markup``."""
    (y,) = [e[3] for page in _laid_out(game, cfg, markup).pages for e in page.events
            if e[0] == "place" and getattr(e[1], "markup", None) == text]
    return y


def test_an_example_box_in_a_starter_game_validates_builds_and_exports(tmp_path):
    """The issue's repro: two ``>`` lines appended to ``pnp new``'s chapter. A box of up to 12 lines is a
    platypus KeepTogether, which deep-copies the frame to measure it; the frame held the document (its
    canvas's hash object cannot be copied), so every command that lays out the rulebook ended in exit 70."""
    game = tmp_path / "g"
    assert run("new", game).exit_code == 0
    chapter = game / "templates" / "rulebook" / "en" / "rules.md.j2"
    chapter.write_text(chapter.read_text() + "\n> Ana plays.\n> Ben follows.\n")
    result = run("validate", "--no-cache", game)
    assert result.exit_code == 0, result.output
    assert result.output.endswith(": valid\n")
    result = run("build", "--no-cache", game, "--out", tmp_path / "kit")
    assert result.exit_code == 0, result.output
    words = page_words(tmp_path / "kit" / "rulebook.pdf")
    assert sum("Ana plays. Ben follows." in page for page in words) == 1
    # every export starts by validating, and previews lay out the booklet
    for args in (["export", "tts", game, "--out", tmp_path / "tts"],
                 ["export", "cards", game, "--preset", "thegamecrafter", "--out", tmp_path / "tgc"],
                 ["preview", "rulebook", game, "--out", tmp_path / "rulebook.png"]):
        result = run(*args)
        assert result.exit_code == 0, (args, result.output)
    assert (tmp_path / "tts" / "tts.json").is_file() and (tmp_path / "rulebook.png").stat().st_size > 1000


def test_space_is_that_many_points(tmp_path):
    """``!space N``: N points, as docs/rulebook.md says (it was N millimetres, 2.8 times the space)."""
    game, cfg = _starter(tmp_path)
    plain = _y_of(game, cfg, "First.\n\nSecond.", "Second.")
    assert plain - _y_of(game, cfg, "First.\n\n!space 100\n\nSecond.", "Second.") == pytest.approx(100, abs=0.01)
    assert plain - _y_of(game, cfg, "First.\n\n!space\n\nSecond.", "Second.") == pytest.approx(4, abs=0.01)


def test_an_empty_box_line_is_an_empty_line_of_the_box(tmp_path):
    """``>`` alone, as Markdown writes a break inside a quote, is a line of the box left blank (it was a
    line of no height: the box showed no gap)."""
    from pnp.draw.document import EXAMPLE

    game, cfg = _starter(tmp_path)
    close = _y_of(game, cfg, "> **Example**\n> Ana plays.\n\nAfter.", "After.")
    apart = _y_of(game, cfg, "> **Example**\n>\n> Ana plays.\n\nAfter.", "After.")
    assert close - apart == pytest.approx(EXAMPLE.size * EXAMPLE.leading, abs=0.01)


# ----------------------------------------------------------------------------- the markup matrix
#
# A generated game (``pnp new``, its rulebook the only component) whose chapters hold every block form of
# docs/rulebook.md's markup table after every other (an Eulerian path of the complete directed graph on
# the block kinds: each ordered pair once), each text block holding one inline form in turn (every
# kind meets every form), and the forms that can appear once per booklet or end a chapter (the cover,
# the contents, the padding point, a spare tail) beside others. Every block prints a tag word
# (``q017``) found in the PDF's text in order.

FILLER = ("Each player draws a card, plays it face up and scores its points before the round ends; the "
          "highest total after the last round wins the game.")


def _tag(i: int) -> str:
    return f"q{i:03d}"


#: Inline forms: (name, markup around the tag, what it prints around the tag). Icons and pips print no
#: text; an escape prints the character; straight quotes print as the language's and read back straight.
INLINE = [
    ("plain", "{t}", "{t}"),
    ("bold", "**{t}**", "{t}"),
    ("italic", "*{t}*", "{t}"),
    ("bold holding italic", "**b *{t}* b**", "b {t} b"),
    ("own icon", "{t} [spark]", "{t}"),
    ("renamed built-in icon", "[point] {t}", "{t}"),
    ("built-in icon", "{t} [coin]", "{t}"),
    ("pips", "[pips:3] {t}", "{t}"),
    ("step badge", "{t} [step:2]", "{t} 2"),
    ("escapes", "\\*{t}\\[", "*{t}["),
    ("quotes", "Ana's \"{t}\"", "Ana's \"{t}\""),
]


def _inline(i: int, form: int) -> tuple[str, str]:
    _, markup, printed = INLINE[form % len(INLINE)]
    return markup.format(t=_tag(i)), printed.format(t=_tag(i))


def _jinja_string(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def block(kind: str, i: int, form: int) -> tuple[str, list[str]]:
    """(markup, the words it prints in reading order) of block ``kind``, the ``i``-th block of its
    booklet, holding inline form ``form``."""
    m, p = _inline(i, form)
    t = _tag(i)
    if kind == "h1":
        return f"# Chapter {m}", [f"chapter {p}"]
    if kind == "h1 unlisted":
        return f"# Aside {m} {{-}}", [f"aside {p}"]
    if kind == "h2":
        return f"## Section {m}", [f"section {p}"]
    if kind == "h3":
        return f"### Subsection {m}", [f"subsection {p}"]
    if kind == "paragraph":
        return f"Paragraph {m} starts.\n{FILLER}\n{FILLER}", [f"paragraph {p} starts."]
    if kind == "bullets":
        return (f"- Item {m} first\n  with a continuation line\n- Item {t}b second",
                [f"item {p} first", f"item {t}b second"])
    if kind == "numbered":
        return f"1. Step {m} first\n2. Step {t}b second", [f"1. step {p} first", f"2. step {t}b second"]
    if kind == "table":
        if i % 2:
            return (f"| Head {m} | Value |\n|---|---|\n| cell {t}b | 3 |\n| cell {t}c | 4 |",
                    [f"head {p}", f"cell {t}b", f"cell {t}c"])
        return (f"| Head | Value |\n|---|---|\n| row {m} | 3 |\n| cell {t}c | 4 |",
                [f"row {p}", f"cell {t}c"])
    if kind == "box":
        return f"> Ana {m} plays.\n> Ben {t}b follows.", [f"ana {p} plays.", f"ben {t}b follows."]
    if kind == "titled box":
        return (f"> **Example {t}t**\n>\n> Ana {m} plays.\n> Ben {t}b follows.",       # an empty line too
                [f"example {t}t", f"ana {p} plays.", f"ben {t}b follows."])
    if kind == "kept box taller than a page":     # up to 12 lines: kept together, unless taller than a page
        lines = [f"Line {t}{chr(97 + k)} {m if k == 0 else ''} " + " ".join([FILLER] * 5) for k in range(12)]
        return "\n".join(f"> {line}" for line in lines), [f"line {t}a {p}"] + [f"line {t}{chr(97 + k)}"
                                                                              for k in range(1, 12)]
    if kind == "box longer than a page":          # more than 12 lines: set line by line
        lines = [f"Line {t}x{k:02d} of a long example {m if k == 0 else ''}".rstrip() for k in range(70)]
        return "\n".join(f"> {line}" for line in lines), [f"line {t}x00 of a long example {p}"] + [
            f"line {t}x{k:02d} of a long example" for k in range(1, 70)]
    if kind == "figure":
        caption = f"Figure {m}"
        return (f"{{{{ figure.card('spark', scale=0.3, caption={_jinja_string(caption)}) }}}}",
                [f"figure {p}"])
    if kind == "space":
        return "!space 12", []
    if kind == "pagebreak":
        return "!pagebreak", []
    raise ValueError(kind)


#: Blocks that can stand anywhere, any number of times.
REPEATABLE = ["h1", "h1 unlisted", "h2", "h3", "paragraph", "bullets", "numbered", "table", "box", "titled box",
              "figure", "space"]
#: Repeatable too, but each takes a page or more: every pair in the slow test only.
PAGE_TAKING = ["pagebreak", "box longer than a page", "kept box taller than a page"]


def euler_path(kinds: list) -> list:
    """``kinds`` in an order where every ordered pair (a kind after itself too) follows once (Hierholzer's
    algorithm on the complete directed graph with loops: len(kinds)**2 + 1 blocks)."""
    unused = {k: list(reversed(kinds)) for k in kinds}
    stack, path = [kinds[0]], []
    while stack:
        if unused[stack[-1]]:
            stack.append(unused[stack[-1]].pop())
        else:
            path.append(stack.pop())
    return path[::-1]


class Chapters:
    """Chapters being written: each block numbered across the booklet, its inline form in turn, the
    words it prints kept in order (each once), and the tags of listed chapter headings (twice: the
    contents list them, as plain words)."""

    def __init__(self):
        self.n, self.files, self.expected, self.kinds, self.listed = 0, {}, [], [], []
        self.forms = {}         # kind -> the inline forms its blocks hold, in turn

    def chapter(self, name: str, kinds: list, head: str = "") -> None:
        parts = [head] if head else []
        for kind in kinds:
            if kind in ("notes", "spare", "toc", "cover"):
                parts.append(f"!{kind}")
                self.kinds.append(kind)
                continue
            self.n += 1
            forms = self.forms.setdefault(kind, [])
            forms.append(len(forms) % len(INLINE))
            markup, words = block(kind, self.n, forms[-1])
            parts.append(markup)
            self.kinds.append(kind)
            self.expected += [w.lower() for w in words]
            if kind == "h1":
                self.listed.append(_tag(self.n))
        self.files[name] = "\n\n".join(parts) + "\n"


def matrix_game(tmp_path, name: str, lang: str, chapters: Chapters, pages: int | None = None,
                notes: bool = False, shared=("cover", "contents")) -> Path:
    """A starter game (``pnp new``) in ``lang`` (its own language: English or Spanish typography and
    pnp's words) whose rulebook, its only component, has ``chapters`` after pnp's ``shared`` chapters (the
    cover and the contents)."""
    root = tmp_path / name
    assert run("new", root, "--title", "Matrix").exit_code == 0
    game_yaml = root / "game.yaml"
    text = game_yaml.read_text()
    text = text[:text.index("components:")] + "components: [rulebook]\n"
    game_yaml.write_text(text.replace("players:", f"language: {lang}\nplayers:", 1))
    (root / "i18n" / "en.yaml").unlink()            # the starter's token kinds' English names: no tokens here
    (root / "i18n").rmdir()
    (root / "templates" / "rulebook" / "en" / "rules.md.j2").unlink()
    folder = root / "templates" / "rulebook" / "en"
    if lang != "en":
        folder.rmdir()
        folder = root / "templates" / "rulebook" / lang
        folder.mkdir()
    for chapter, markup in chapters.files.items():
        (folder / f"{chapter}.md.j2").write_text(markup)
    lines = [f"chapters: [{', '.join([*shared, *chapters.files])}]"]
    lines += [f"pages: {pages}"] if pages else []
    lines += ["notes: true"] if notes else []
    (root / "rulebook.yaml").write_text("\n".join(lines) + "\n")
    return root


def printed_problems(pdf, chapters: Chapters, start: str, contents: bool = True) -> list[str]:
    """What the booklet ``pdf`` gets wrong of ``chapters``: a block's words missing, out of order or
    printed twice (a split box repeating a line), a listed heading not in the ``contents``, markup
    printed as words."""
    text = " ".join(page_words(pdf)).lower()
    problems, at = [], text.find(start.lower())
    if at < 0:
        return [f"{start!r} is not printed"]
    for words in chapters.expected:
        found = text.find(words, at)
        if found < 0:
            problems.append(f"{words!r} missing" + (" (printed earlier)" if words in text else ""))
            continue
        at = found + len(words)
        # chapter headings print in the contents too; a table split across pages repeats its header row
        if not words.startswith(("chapter ", "head ")) and text.count(words) != 1:
            problems.append(f"{words!r} printed {text.count(words)} times")
    problems += [f"chapter {tag} is not listed in the contents" for tag in chapters.listed
                 if len(re.findall(rf"\b{tag}\b", text)) != (2 if contents else 1)]
    problems += [f"markup {m!r} printed" for m in ("**", "[spark]", "[point]", "[coin]", "[pips", "[step", "{-}",
                                                   "!space", "!pagebreak", "!spare", "!notes", ">")
                 if m in text]
    problems += ["reportlab's contents placeholder printed"] if "placeholder for table of contents" in text else []
    return problems


#: Bands of a booklet page (mm from its left and bottom edges; ``w`` and ``h``: the page's size) that
#: nothing may reach: between the frame and the running head, below the frame down to the page number,
#: and beside the frame. A box's tint reaches 2 pt past the frame's sides and 1.5 pt below its text.
def _bands(w: float, h: float) -> list[tuple]:
    return [(12.5, w - 12.5, h - 12.5, h - 10.0),      # under the running head's rule (9 mm from the top)
            (12.5, w - 12.5, 10.8, 14.0),              # over the page number (its baseline 8 mm up)
            (8.5, 10.8, 16.0, h - 14.0), (w - 10.8, w - 8.5, 16.0, h - 14.0)]


def overflow_problems(pdf, paper: str, dpi: float = 40) -> list[str]:
    """Pages where something is drawn outside the booklet's frame (text or a box's tint running over
    the margins), by rasterizing every page."""
    import pypdfium2 as pdfium

    from pnp.units import MM_PER_INCH, half_sheet

    w, h = half_sheet(paper)
    scale = dpi / MM_PER_INCH
    problems = []
    doc = pdfium.PdfDocument(pdf)
    try:
        for number in range(len(doc)):
            image = doc[number].render(scale=dpi / 72).to_pil().convert("L")
            for x0, x1, y0, y1 in _bands(w, h):
                box = (round(x0 * scale), round(image.height - y1 * scale), round(x1 * scale),
                       round(image.height - y0 * scale))
                darkest = image.crop(box).getextrema()[0]
                if darkest < 235:
                    problems.append(f"page {number + 1}: drawn in the margin band {box} (grey {darkest})")
    finally:
        doc.close()
    return problems


def content_pages(pdf) -> int:
    """Pages that print anything but the running head and the page number."""
    return sum(1 for k, words in enumerate(page_words(pdf), 1)
               if words.replace("MATRIX · RULES OF PLAY", "").replace("MATRIX · REGLAS DEL JUEGO", "")
               .strip() not in ("", str(k)))


# The default run: one game per language, built on both papers. Its chapters: every ordered pair of the
# repeatable blocks (REPEATABLE, 145 blocks), then the page-taking blocks and the once-only directives
# beside the blocks they are most often written with, and a spare tail holding boxes and a table.
SPECIAL = ["h2", "kept box taller than a page", "box", "pagebreak", "titled box", "h3", "box longer than a page",
           "table", "paragraph", "pagebreak", "h2", "box longer than a page", "box", "notes", "h1", "box"]
TAIL = ["h1", "paragraph", "box", "spare", "box", "table", "titled box", "box longer than a page", "bullets"]
START = "The matrix begins."


def cheap_chapters() -> Chapters:
    chapters = Chapters()
    chapters.chapter("matrix", euler_path(REPEATABLE), head=START)
    chapters.chapter("special", SPECIAL)
    chapters.chapter("tail", TAIL)
    return chapters


def test_the_chapters_hold_every_pair_of_blocks_and_every_inline_form_in_every_text_block():
    kinds = euler_path(REPEATABLE)
    assert len(kinds) == len(REPEATABLE) ** 2 + 1
    assert set(zip(kinds, kinds[1:])) == {(a, b) for a in REPEATABLE for b in REPEATABLE}
    forms = cheap_chapters().forms
    assert all(set(forms[k]) == set(range(len(INLINE))) for k in REPEATABLE if k != "space")



LANGS, PAPERS = ("en", "es"), ("letter", "a4")
#: The booklet's length: room for the spare tail (taken only into pages the booklet would pad) on every
#: paper, and the bound of a sane length.
MATRIX_PAGES = 40


def watch_copies(monkeypatch) -> list:
    """Deep-copy every flowable of each booklet laid out, and its frames, as platypus may (a kept block
    is measured in a copy of the frame; a splitter copies flowables): the list gets what cannot be."""
    import pnp.draw.document as R

    failed, build = [], R.RulebookDoc.build

    def copying_build(doc, story, *args, **kwargs):
        for f in [*story, *(frame for t in doc.pageTemplates for frame in t.frames)]:
            try:
                copy.deepcopy(f)
            except Exception as exc:        # noqa: BLE001 - the test reports what failed and why
                failed.append(f"{type(f).__name__}: {type(exc).__name__}: {exc}")
        return build(doc, story, *args, **kwargs)

    monkeypatch.setattr(R.RulebookDoc, "build", copying_build)
    return failed


@pytest.fixture(scope="module")
def cheap_kits(tmp_path_factory):
    """{lang: (the chapters, validate's result, what did not copy, {paper: (build's result, kit folder)})}:
    one matrix game per language, validated (its booklet kept in the build cache) and built on both
    papers (Letter from the cache)."""
    tmp = tmp_path_factory.mktemp("matrix")
    out = {}
    for lang in LANGS:
        chapters = cheap_chapters()
        root = matrix_game(tmp, f"matrix_{lang}", lang, chapters, pages=MATRIX_PAGES)
        cache = tmp / f"cache_{lang}"
        with pytest.MonkeyPatch.context() as monkeypatch:
            failed = watch_copies(monkeypatch)
            validated = run("validate", root, "--cache", cache)
        kits = {}
        for paper in PAPERS:
            kit = tmp / f"kit_{lang}_{paper}"
            kits[paper] = run("build", root, "--paper", paper, "--out", kit, "--cache", cache), kit
        out[lang] = chapters, validated, failed, kits
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_every_flowable_of_the_matrix_booklet_copies(cheap_kits, lang):
    _, validated, failed, _ = cheap_kits[lang]
    assert validated.exit_code == 0, validated.output
    # (each block alone on its pages: the booklet's emptiest pages are reported, a warning; its length is
    # fixed above what its chapters need, so that its padding pages are drawn: the blank pages, a warning)
    said = [line for line in validated.output.splitlines()
            if "more than a third empty" not in line and "pages blank" not in line]
    assert said == ["Matrix: 9 cards (4 different), components rulebook: valid"]
    assert failed == []


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("lang", LANGS)
def test_every_block_and_inline_form_prints_in_order(cheap_kits, lang, paper):
    chapters, _, _, kits = cheap_kits[lang]
    built, kit = kits[paper]
    assert built.exit_code == 0, built.output
    pdf = kit / "rulebook.pdf"
    assert printed_problems(pdf, chapters, START) == []
    pages = page_words(pdf)
    assert len(pages) == MATRIX_PAGES
    # 145 blocks of the matrix (a dozen with a figure, a dozen chapter headings that want 45 mm), three
    # page breaks, two boxes longer than a page and one kept box taller than one, a spare tail
    assert 14 <= content_pages(pdf) <= 30
    for kind in ("box longer than a page", "kept box taller than a page"):
        for n in (n for n, k in enumerate((k for k in chapters.kinds if k not in ("notes", "spare")), 1)
                  if k == kind):
            lines = [w for w in chapters.expected if w.startswith(f"line {_tag(n)}")]
            on = [k for k, page in enumerate(pages) if any(line in page.lower() for line in lines)]
            assert len(on) >= 2 and on == list(range(on[0], on[-1] + 1)), (kind, on)


def test_the_booklet_kept_by_validate_is_the_one_drawn_afresh(cheap_kits, tmp_path):
    """The Letter kit's booklet came from the build cache (validate laid it out): byte for byte what a
    build without the cache draws, boxes and all."""
    chapters, _, _, kits = cheap_kits["en"]
    root = kits["letter"][1].parent / "matrix_en"
    result = run("build", root, "--no-cache", "--out", tmp_path / "kit")
    assert result.exit_code == 0, result.output
    for name in ("rulebook.pdf", "rulebook-imposed.pdf"):
        assert (tmp_path / "kit" / name).read_bytes() == (kits["letter"][1] / name).read_bytes()


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("lang", LANGS)
def test_nothing_is_drawn_outside_the_frame(cheap_kits, lang, paper):
    """Every page rasterized: a box longer than a page, a kept box taller than one, a table or figure
    after a box, split cleanly across pages, never over the margins."""
    _, _, _, kits = cheap_kits[lang]
    assert overflow_problems(kits[paper][1] / "rulebook.pdf", paper) == []


def test_a_heading_and_the_box_after_it_move_on_together(tmp_path):
    """A heading keeps its box with it: where both do not fit at the foot of a page they start the next
    (platypus's request for a new frame, inside the pair, ended in exit 70), and the box stays whole."""
    game, cfg = _starter(tmp_path)
    box = "\n".join(f"> Box line {k}." for k in range(10))
    moved = 0
    for n in range(3, 9):
        markup = "\n\n".join([f"Paragraph {k}. {FILLER} {FILLER}" for k in range(n)]) + f"\n\n## Heading\n\n{box}"
        pages = _pages_of(game, cfg, markup)
        assert {pages[f"Box line {k}."] for k in range(10)} == {pages["Heading"]}, n
        moved += pages["Heading"] > pages[f"Paragraph {n - 1}. {FILLER} {FILLER}"]
    assert moved            # some paragraph counts leave too little room for both


@pytest.mark.parametrize("headings", [["## Heading"], ["# Chapter", "## Heading"]])
def test_a_kept_box_taller_than_a_page_after_a_heading_splits_below_it(tmp_path, headings):
    """On a fresh page a box of up to 12 lines taller than the page splits where it stands, its first line
    below its headings (moving on would not help)."""
    game, cfg = _starter(tmp_path)
    lines = [f"Line {k} " + " ".join([FILLER] * 5) for k in range(12)]
    pages = _pages_of(game, cfg, "\n\n".join(headings) + "\n\n" + "\n".join(f"> {line}" for line in lines))
    assert pages["Heading"] == pages[lines[0]] == 1 and pages[lines[-1]] == 2


@pytest.mark.parametrize("ending", ["!pagebreak\n\n!pagebreak", "!cover\n\n!pagebreak", "!pagebreak\n\n!notes",
                                    "!cover\n\n!notes", "!pagebreak\n\n!notes\n\n!pagebreak"])
def test_a_booklet_may_end_with_page_breaks(tmp_path, ending):
    """Page breaks with nothing after them (platypus drops a break right after a page ended and then
    looked for the next flowable: exit 70) end the booklet where its content ends."""
    from pnp.rulebook.component import booklet

    game, cfg = _starter(tmp_path)
    chapter = tmp_path / "g" / "templates" / "rulebook" / "en" / "rules.md.j2"
    chapter.write_text(f"# Rules\n\nFirst.\n\n{ending}\n")
    _, pages, content = booklet(game, "letter", "en")
    assert (pages, content) == (4, 2)      # the cover page, then the chapter (a cover fills its page)


def test_contents_without_a_chapter_heading_are_empty(tmp_path):
    """pnp's contents chapter in a rulebook of sections only: the heading and no entry (reportlab's table
    of contents printed "Placeholder for table of contents 0", in every language)."""
    from pnp.rulebook.component import booklet

    game, cfg = _starter(tmp_path)
    (tmp_path / "g" / "rulebook.yaml").write_text("chapters: [cover, contents, rules]\n")
    chapter = tmp_path / "g" / "templates" / "rulebook" / "en" / "rules.md.j2"
    chapter.write_text(chapter.read_text().replace("# How to play", "## How to play"))
    pdf, _, _ = booklet(game, "letter", "en")
    (contents,) = [page for page in page_words(pdf) if "Contents" in page]
    assert "Placeholder" not in contents and "How to play" in contents and "race for points" in contents


def test_the_overflow_check_sees_what_runs_over_the_margin(tmp_path):
    from pnp.draw.icons import using
    from pnp.draw.document import render_booklet
    from pnp.loading.i18n import strings
    from pnp.units import half_sheet

    game, cfg = _starter(tmp_path)
    with using(game.icons, "en"):
        fits, _, _ = render_booklet(game, cfg, [("rules", "A paragraph.")], half_sheet("letter"), "en", 0,
                                    strings(game, "en"))
        wide, _, _ = render_booklet(game, cfg, [("rules", "x" * 200)], half_sheet("letter"), "en", 0,
                                    strings(game, "en"))
    assert overflow_problems(fits, "letter") == []
    assert overflow_problems(wide, "letter")[0].startswith("page 1: drawn in the margin band")


# The slow run: every ordered pair of every block kind, the page-taking ones too (cut into booklets of
# up to 60 blocks, each beginning with the block the one before ends with), and each once-only directive
# between every two kinds: a spare tail after every kind and starting with every kind (one booklet, a
# spare tail per chapter, long enough to take them all), the cover, the contents and the padding point
# (blank and ruled Notes pages) each in a booklet per kind.
ALL_KINDS = REPEATABLE + PAGE_TAKING


def exhaustive_booklets() -> list[tuple[str, Chapters, dict]]:
    """(name, chapters, :func:`matrix_game` options) of every booklet of the slow matrix."""
    out, path, size = [], euler_path(ALL_KINDS), 60
    for k, first in enumerate(range(0, len(path) - 1, size - 1)):
        chapters = Chapters()
        chapters.chapter("pairs", path[first:first + size], head=START)
        out.append((f"pairs{k}", chapters, {}))
    after = {kind: ALL_KINDS[(k + 1) % len(ALL_KINDS)] for k, kind in enumerate(ALL_KINDS)}
    chapters = Chapters()
    for k, kind in enumerate(ALL_KINDS):
        chapters.chapter(f"spare{k}", [kind, "spare", after[kind]], head="" if k else START)
    out.append(("spare", chapters, {"pages": 64}))
    for once, options in (("cover", {"shared": ("contents",)}), ("toc", {"shared": ("cover",)}),
                          ("notes", {}), ("notes", {"notes": True})):
        for kind in ALL_KINDS:
            chapters = Chapters()
            chapters.chapter("pair", [kind, once, after[kind]], head=START)
            out.append((f"{once}{'-ruled' if options.get('notes') else ''}-{kind}", chapters, options))
    return out


def exhaustive_problems(tmp_path, lang: str) -> list[str]:
    """What goes wrong in the slow matrix's booklets in ``lang`` on both papers: an exit status other than
    0, a block's words missing, a page drawn outside its frame, a length other than the smallest booklet
    (or the one asked for)."""
    from pnp.layout.imposition import padded

    problems = []
    for name, chapters, options in exhaustive_booklets():
        root = matrix_game(tmp_path, f"{name}-{lang}".replace(" ", "_"), lang, chapters, **options)
        cache = tmp_path / f"cache-{root.name}"
        result = run("validate", root, "--cache", cache)
        if result.exit_code:
            problems.append(f"{name}: validate: exit {result.exit_code}: {result.output.strip()[-300:]}")
            continue
        for paper in PAPERS:
            kit = tmp_path / f"kit-{root.name}-{paper}"
            result = run("build", root, "--paper", paper, "--out", kit, "--cache", cache)
            if result.exit_code:
                problems.append(f"{name} {paper}: build: exit {result.exit_code}: {result.output.strip()[-300:]}")
                continue
            pdf = kit / "rulebook.pdf"
            contents = "contents" in options.get("shared", ("contents",)) or "toc" in chapters.kinds
            found = printed_problems(pdf, chapters, START, contents) + overflow_problems(pdf, paper)
            # the length asked for, or the smallest booklet (its padding blank, or ruled Notes pages)
            pages, content = len(page_words(pdf)), content_pages(pdf)
            if pages != (options.get("pages") or padded(content)):
                found.append(f"{pages} pages for {content} pages of content")
            problems += [f"{name} {paper}: {p}" for p in found]
    return problems


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_every_pair_of_every_block_prints_on_both_papers(tmp_path, lang):
    problems = exhaustive_problems(tmp_path, lang)
    assert problems == [], "\n".join(problems)


def test_a_star_a_chapter_never_closes_is_an_error_at_its_line(tmp_path):
    """Found by the generated games (issue 32): '**' or '*' left open in a chapter set the rest of its
    paragraph (list item, table cell, box line) bold or slanted, and validation said nothing; card text
    has always been checked for it. Bullets written '* ', escaped stars and icon labels are no emphasis."""
    game = tmp_path / "g"
    assert run("new", game).exit_code == 0
    chapter = game / "templates" / "rulebook" / "en" / "rules.md.j2"
    chapter.write_text("# Rules\n\nAna plays **first and wins.\n\n* a bullet, \\*not\\* italic [coin:*]\n\n"
                       "- Ben *follows\n- Cy **leads**\n\n| a | b |\n|---|---|\n| **x | y |\n\n> Di *waits\n")
    result = run("validate", "--no-cache", game)
    assert result.exit_code == 2
    lines = [line.split(str(chapter) + ":", 1)[1] for line in result.output.splitlines() if str(chapter) in line]
    assert lines == [
        "3: chapter 'rules': '**' at '**first and wins' starts bold that never ends; close it with '**', or write "
        "'\\*\\*' for literal stars",
        "7: chapter 'rules': '*' at '*follows' starts italics that never end; close them with '*', or write '\\*' "
        "for a literal star",
        "12: chapter 'rules': '**' at '**x' starts bold that never ends; close it with '**', or write '\\*\\*' for "
        "literal stars",
        "14: chapter 'rules': '*' at '*waits' starts italics that never end; close them with '*', or write '\\*' for "
        "a literal star"]
    chapter.write_text("# Rules\n\nAna plays **first** and *wins*.\n\n* a bullet, \\*not\\* italic\n")
    assert run("validate", "--no-cache", game).exit_code == 0


@pytest.mark.parametrize("after", ["", "\n\nMore text after it.", "\n\n!pagebreak\n\n!notes"])
@pytest.mark.parametrize("heading", ["# Chapter", "## Section", "### Part"])
def test_a_heading_then_a_box_of_one_line_lays_out(tmp_path, heading, after):
    """Found by the generated games (issue 32): a heading keeps its block with it, and a box of one line is
    a kept block of one flowable; kept blocks always ask to be split (platypus's KeepTogether), and the pair
    took the one flowable it got back for a split that failed: 'cannot be laid out: Flowable <KeepWithNext
    at 0x...> (327.97 x 16777234.8) too large' (boxes of two lines and more laid out)."""
    game, cfg = _starter(tmp_path)
    markup = f"{heading}\n\n> A one-line example box.{after}"
    pages = _pages_of(game, cfg, markup)
    assert pages[heading.lstrip("# ")] == pages["A one-line example box."] == 1
    (tmp_path / "g" / "templates" / "rulebook" / "en" / "rules.md.j2").write_text(markup + "\n")
    result = run("build", "--no-cache", tmp_path / "g", "--out", tmp_path / "kit")
    assert result.exit_code == 0, result.output
