"""Issue 38's cuts of the cards' check and the empty-space check: less work for the same problems.

Each cut keeps what pnp reports: the largest empty rectangle is the one the stepwise histogram walk finds
(compared with that walk, kept here as the reference), a card's regions are evaluated once and the face is
laid out from them, a layout expression that is a plain name reads the scope without a render, and the
layouts' printed-word function is made once per deck's check."""

from __future__ import annotations

import math
import random

import pytest

from pnp.layout.geometry import Rect
from pnp.layout import space


def stepwise(rects, size, margin=space.MARGIN, cell=space.CELL) -> space.Empty:
    """The largest empty rectangle as pnp found it before issue 38 (every row's histogram walked)."""
    w, h = size
    cols, rows = max(0, math.floor((w - 2 * margin) / cell)), max(0, math.floor((h - 2 * margin) / cell))
    full = [[False] * cols for _ in range(rows)]
    for r in rects:
        c0, c1 = max(0, math.floor((r.x - margin) / cell)), min(cols, math.ceil((r.right - margin) / cell))
        r0, r1 = max(0, math.floor((r.y - margin) / cell)), min(rows, math.ceil((r.top - margin) / cell))
        for j in range(r0, r1):
            for i in range(c0, c1):
                full[j][i] = True
    best, where = 0, Rect(margin, margin, 0.0, 0.0)
    heights = [0] * cols
    for j in range(rows):
        heights = [0 if full[j][i] else heights[i] + 1 for i in range(cols)]
        stack = []
        for i, height in enumerate(heights + [0]):
            start = i
            while stack and stack[-1][1] >= height:
                start, top = stack.pop()
                if top * (i - start) > best:
                    best = top * (i - start)
                    where = Rect(margin + start * cell, margin + (j - top + 1) * cell, (i - start) * cell,
                                 top * cell)
            stack.append((start, height))
    return space.Empty(where, best * cell * cell / (w * h) if w and h else 0.0)


def counted_compiles(monkeypatch) -> list:
    """The expressions the card layouts compile from now on (cardlayout.compiled counted), in order."""
    from pnp.loading import cardlayout

    rendered, compiled = [], cardlayout.compiled

    def counting(expression, literal=False):
        rendered.append(expression)
        return compiled(expression, literal)

    monkeypatch.setattr(cardlayout, "compiled", counting)
    return rendered


def test_the_largest_empty_rectangle_is_the_one_the_stepwise_walk_finds():
    rng = random.Random(38)
    sizes = [(63, 88), (20, 30), (7, 7), (6, 9), (41, 25), (100, 60), (12.5, 17.3), (6.5, 30)]
    for _ in range(1500):
        w, h = rng.choice(sizes)
        rects = []
        for _ in range(rng.randrange(0, 9)):
            # whole millimetres make equal areas (ties) common: the first found must be the same one
            rw = rng.choice([rng.uniform(0, w), float(rng.randrange(0, 9))])
            rh = rng.choice([rng.uniform(0, h), float(rng.randrange(0, 9))])
            rects.append(Rect(rng.choice([rng.uniform(-5, w), float(rng.randrange(-2, int(w)))]),
                              rng.choice([rng.uniform(-5, h), float(rng.randrange(-2, int(h)))]), rw, rh))
        assert space.largest_empty(rects, (w, h)) == stepwise(rects, (w, h)), (w, h, rects)
        # the whole-row way a board's grid takes, on the same grid
        spans = set()
        cols, rows = max(0, math.floor(w - 6)), max(0, math.floor(h - 6))
        for r in rects:
            c0, c1 = max(0, math.floor(r.x - 3)), min(cols, math.ceil(r.right - 3))
            r0, r1 = max(0, math.floor(r.y - 3)), min(rows, math.ceil(r.top - 3))
            if c0 < c1 and r0 < r1:
                spans.add((c0, c1, r0, r1))
        if cols and rows:
            assert space._by_rows(spans, cols, rows) == space._walked(spans, cols, rows), (w, h, rects)


def test_a_board_sized_face_is_measured_alike():
    rng = random.Random(7)
    rects = [Rect(rng.uniform(0, 480), rng.uniform(0, 330), rng.uniform(5, 90), rng.uniform(5, 60))
             for _ in range(40)]
    assert space.largest_empty(rects, (500, 350)) == stepwise(rects, (500, 350))
    assert space.largest_empty([], (500, 350)) == stepwise([], (500, 350))
    assert space.largest_empty([Rect(0, 0, 500, 350)], (500, 350)) == stepwise([Rect(0, 0, 500, 350)], (500, 350))


def test_faces_covering_the_same_cells_share_one_measurement():
    space._largest_on_grid.cache_clear()
    a = space.largest_empty([Rect(10.2, 40.1, 20.3, 5.2)], (63, 88))
    b = space.largest_empty([Rect(10.4, 40.3, 20.2, 5.1)], (63, 88))      # other numbers, the same cells
    assert a == b and space._largest_on_grid.cache_info().hits == 1


def deck_of(starfall, n: int):
    """tests/games/starfall with ``n`` omen cards and its card sheets alone."""
    game = starfall / "game.yaml"
    text = game.read_text()
    start = text.index("\ncomponents:")
    end = text.index("\n\n", start + 1) if "\n\n" in text[start + 1:] else len(text)
    game.write_text(text[:start] + "\ncomponents: [cards]" + text[end:])
    rows = ["id,name,copies,turns,flavour,effect"] + [
        f"omen-{i},Omen {i},1,{1 + i % 6},Sign number {i}.,\"**Dark:** each player gains {i % 5} [wish].\""
        for i in range(n)]
    (starfall / "omens.csv").write_text("\n".join(rows) + "\n")
    return starfall


def test_the_cards_check_evaluates_each_face_once_and_makes_the_words_once(starfall, monkeypatch):
    from pnp.components import cards
    from pnp.loading import cardlayout
    from pnp.validation.checks import validate_game
    from pnp.errors import Problems

    folder = deck_of(starfall, 12)
    calls = {"evaluate": 0, "words": 0}
    evaluate, words = cardlayout.evaluate, cards.words_function

    def counting(name, func):
        def wrapper(*args, **kwargs):
            calls[name] += 1
            return func(*args, **kwargs)
        return wrapper

    monkeypatch.setattr(cards, "evaluate", counting("evaluate", evaluate))
    monkeypatch.setattr(cardlayout, "evaluate", counting("evaluate", evaluate))
    monkeypatch.setattr(cards, "words_function", counting("words", words))
    problems = Problems()
    result = validate_game(str(folder), problems)
    assert not problems.errors
    faces = len(result.game.cards)      # the 12 omens and starfall's stars, one face each
    assert calls["evaluate"] == faces   # before: twice a face (its check, then its layout)
    assert calls["words"] <= 2          # before: once a face; now once per deck


def test_a_plain_name_reads_the_scope_and_a_missing_one_is_still_an_error(monkeypatch):
    from pnp.loading import cardlayout

    assert cardlayout.plain_name("rules") == "rules"
    assert cardlayout.plain_name("(colour)") == "colour"
    for other in ("none", "true", "palette.paper", "a or b", "tint(colour, 0.7)", "x[1]", "'step'", "rules|upper"):
        assert cardlayout.plain_name(other) is None, other
    rendered = counted_compiles(monkeypatch)
    marked = cardlayout.Safe("**Dark**")
    assert cardlayout._value(None, {"text": "rules"}, "text", {"rules": marked}) is marked
    assert rendered == []
    with pytest.raises(cardlayout._Wrong) as wrong:
        cardlayout._value(None, {"text": "rulez"}, "text", {"rules": marked})
    assert "no value 'rulez' in a layout; did you mean 'rules'?" in wrong.value.text
    assert rendered == ["rulez"]


def test_an_expression_over_the_same_plain_values_is_worked_out_once_and_costs_its_steps(monkeypatch):
    from pnp.loading import cardlayout
    from pnp.text import templating

    cardlayout._HELD.clear()
    rendered = counted_compiles(monkeypatch)
    scope = {**cardlayout.FUNCTIONS, "colour": "#336699", "palette": {"paper": "#ffffff"}, "rules": cardlayout.Safe("x")}
    region = {"fill": "tint(colour, 0.5)"}
    steps = []
    for _ in range(3):
        with templating.limits():
            value = cardlayout._value(None, region, "fill", scope)
            steps.append(templating.budget_used())
    assert value == cardlayout.tint("#336699", 0.5) and rendered == ["tint(colour, 0.5)"]
    assert steps[0][0] > 0 and steps[0][2] > 0 and steps == [steps[0]] * 3    # a kept value costs what it did
    # another value of a name it reads, the same text as plain text rather than markup: worked out again
    cardlayout._value(None, {"when": "rules and colour"}, "when", scope)
    cardlayout._value(None, {"when": "rules and colour"}, "when", {**scope, "rules": "x"})
    cardlayout._value(None, {"when": "rules and colour"}, "when", {**scope, "colour": "#000000"})
    assert rendered[1:] == ["rules and colour"] * 3
    # a card's own function, a filter (random draws lots; articles depend on the kit's language): never kept
    cardlayout._value(None, {"text": "field('a')"}, "text", {**scope, "field": lambda k: "A"})
    cardlayout._value(None, {"text": "field('a')"}, "text", {**scope, "field": lambda k: "B"})
    cardlayout._value(None, {"text": "[colour]|random"}, "text", scope)
    cardlayout._value(None, {"text": "[colour]|random"}, "text", scope)
    assert rendered[4:] == ["field('a')", "field('a')", "[colour]|random", "[colour]|random"]


def test_a_build_without_the_cache_draws_the_booklet_its_check_laid_out(starfall, tmp_path, monkeypatch):
    from pnp.build.kit import build_kit
    from pnp.components import BuildOptions
    from pnp.rulebook import component

    laid = []
    fitted = component.fitted

    def counting(game, cfg, chapters, fills, figures, size, lang, words, paper="letter"):
        laid.append(paper)
        return fitted(game, cfg, chapters, fills, figures, size, lang, words, paper)

    monkeypatch.setattr(component, "fitted", counting)
    build_kit(str(starfall), tmp_path / "kit", BuildOptions(), jobs=1, cache=None)
    assert sorted(laid) == ["a4", "letter"]         # its check on both papers; before, a third for the build
    assert (tmp_path / "kit" / "rulebook.pdf").stat().st_size > 0


# ----------------------------------------------------------------------------- validate at scale, second round

def _validated(folder):
    from pnp.errors import Problems
    from pnp.validation.checks import validate_game

    problems = Problems()
    validate_game(str(folder), problems)
    return problems


def test_a_text_many_faces_print_is_checked_once_and_an_edit_is_checked_again(starfall, monkeypatch):
    from pnp.components import cards

    folder = deck_of(starfall, 40)               # 40 omens, five rules texts among them
    checked = []
    markup_problems = cards.markup_problems

    def counting(markup, names):
        checked.append(markup)
        return markup_problems(markup, names)

    monkeypatch.setattr(cards, "markup_problems", counting)
    assert not _validated(folder).errors
    effects = [m for m in checked if "each player gains" in m]
    assert len(effects) == len(set(effects)) == 5      # before: once a face, 40 times
    # the same text too long for its box on two cards, then one of them edited: each is told at its own line
    omens = folder / "omens.csv"
    long = "A very long omen " * 30
    rows = omens.read_text().splitlines()
    rows[3] = rows[3].replace("Sign number 2.", long)
    rows[9] = rows[9].replace("Sign number 8.", long)
    omens.write_text("\n".join(rows) + "\n")
    told = [(p.line, p.subject) for p in _validated(folder).errors if "does not fit" in p.message]
    assert told == [(4, "card 'omen-2'"), (10, "card 'omen-8'")]
    rows[9] = rows[9].replace(long, "A short omen again.")
    rows[3] = rows[3].replace(long, long + "and more")
    omens.write_text("\n".join(rows) + "\n")
    found = [p for p in _validated(folder).errors if "does not fit" in p.message]
    assert [(p.line, p.subject) for p in found] == [(4, "card 'omen-2'")]
    assert found[0].message.endswith("and more'")      # the edited text, not the one checked before


def test_a_game_is_hashed_once_and_as_its_fields_say(starfall):
    import dataclasses

    from pnp.errors import Problems
    from pnp.loading import gamedata

    game = gamedata.load_game(str(deck_of(starfall, 30)), Problems())
    fields = tuple(getattr(game, f.name) for f in dataclasses.fields(game)
                   if (f.hash is None and f.compare) or f.hash)
    assert hash(game) == hash(fields)
    card_type = type(game.cards[0])
    hashed = []
    real = card_type.__hash__
    try:
        card_type.__hash__ = lambda self: hashed.append(self) or real(self)
        assert hash(game) == hash(game)
        by_game = list(hashed)
        assert hash(fields) == hash(game)
    finally:
        card_type.__hash__ = real
    assert by_game == []         # before: every card hashed at each look-up of a memo keyed by the game
    assert len(hashed) >= len(game.cards)         # (the fields' hash does hash them)
    other = dataclasses.replace(game, title="Another title")       # another game: its own hash, its fields'
    assert hash(other) != hash(game) and other != game
    assert hash(dataclasses.replace(other, title=game.title)) == hash(game)


def test_an_icon_set_makes_its_names_once_and_a_new_icon_is_a_new_set(starfall):
    from pnp.errors import Problems
    from pnp.loading.gamedata import load_game
    from pnp.text.icon_names import ICON_NAMES

    game = load_game(str(starfall), Problems())
    assert game.icons.names is game.icons.names          # before: a new set at each look-up
    assert game.icons.names == ICON_NAMES | game.icons.own_names and "comet" in game.icons.names
    assert "kite" not in game.icons
    (starfall / "icons" / "kite.svg").write_text((starfall / "icons" / "comet.svg").read_text())
    assert "kite" in load_game(str(starfall), Problems()).icons.names


def test_a_deck_declares_an_icon_once_and_a_warning_counts_every_card(starfall, monkeypatch):
    from pnp.validation import iconkeys

    folder = deck_of(starfall, 300)
    declared = []
    real = iconkeys._declared

    def counting(game, deck, name):
        declared.append((deck.id, name))
        return real(game, deck, name)

    monkeypatch.setattr(iconkeys, "_declared", counting)
    warnings = [p for p in _validated(folder).warnings if "icon 'step'" in p.message]
    assert len(declared) == len(set(declared))            # before: once per card (300 for 'step')
    assert len(warnings) == 1 and "icon 'step' on 300 pieces, e.g. 'Omen 0'" in warnings[0].message


def test_converting_data_for_templates_escapes_each_text_as_before():
    import dataclasses
    from pathlib import Path

    from pnp.text import markup, templating

    @dataclasses.dataclass(frozen=True)
    class Thing:
        name: str
        tags: tuple
        where: object

    value = {("omen-1", "name"): 3, "x*y": [1, 2.5, None, True, "1. first", "[gem]", Path("/a/b.png")],
             "t": Thing("**b**", ("a", "#h"), Path("/c/d.svg")), "s": frozenset({"a_b"}), "n": markup.Safe("*ok*")}
    converted = templating.data_value(value)
    assert converted == {(markup.escape("omen-1"), "name"): 3,
                         markup.escape("x*y"): [1, 2.5, None, True, markup.escape("1. first"), markup.escape("[gem]"),
                                                templating.MachinePath("/a/b.png")],
                         "t": Thing(markup.escape("**b**"), ("a", markup.escape("#h")),
                                    templating.MachinePath("/c/d.svg")),
                         "s": frozenset({markup.escape("a_b")}), "n": markup.Safe("*ok*")}
    assert all(isinstance(k, markup.Safe) for key in converted for k in (key if isinstance(key, tuple) else (key,)))
    assert converted["n"] is value["n"] and type(converted[markup.escape("x*y")][1]) is float
    templating._escaped.cache_clear()
    many = {(f"card-{i % 7}", "name"): i for i in range(700)}
    templating.data_value(many)
    assert templating._escaped.cache_info().misses == 8       # each distinct text escaped once


def test_a_when_counts_a_name_it_only_tests_by_its_truth(monkeypatch):
    from pnp.loading import cardlayout
    from pnp.text import templating

    assert cardlayout._truth_names("rules and flavour") == {"rules", "flavour"}
    assert cardlayout._truth_names("rank_name and not labels") == {"rank_name", "labels"}
    assert cardlayout._truth_names("rules and step is none") == {"rules"}       # step: by its value
    for other in ("rules ~ flavour", "rules and rules.x", "a if b else c", "palette.paper"):
        assert cardlayout._truth_names(other) == set(), other
    cardlayout._HELD.clear()
    rendered = counted_compiles(monkeypatch)
    region = {"when": "rules and flavour"}
    truths = []
    for rules, flavour in (("x", "A"), ("x", "B"), ("y", "C"), ("x", ""), ("", "D"), ("x", "E")):
        scope = {"rules": cardlayout.Safe(rules), "flavour": cardlayout.Safe(flavour)}
        with templating.limits():           # one face's render, as evaluate() opens it
            truths.append(bool(cardlayout._value(None, region, "when", scope)))
    assert truths == [True, True, True, False, False, True]
    assert len(rendered) == 3        # before: once per flavour (6); now once per truth of (rules, flavour)
    # the same expression as a text is its own value, each time
    scope = {"rules": cardlayout.Safe("x"), "flavour": cardlayout.Safe("F")}
    with templating.limits():
        assert cardlayout._value(None, {"text": "rules and flavour"}, "text", scope) == "F"
    with templating.limits():
        assert cardlayout._value(None, {"text": "rules and flavour"}, "text",
                                 {**scope, "flavour": cardlayout.Safe("G")}) == "G"


def test_a_card_without_flavour_leaves_out_the_region_its_when_tests(starfall):
    from pnp.components import cards
    from pnp.errors import Problems
    from pnp.layout.geometry import flatten
    from pnp.loading.gamedata import load_game

    folder = deck_of(starfall, 4)
    omens = folder / "omens.csv"
    omens.write_text(omens.read_text().replace("Sign number 2.", ""))
    game = load_game(str(folder), Problems())
    deck = game.deck("omens")
    roles = []
    for card in deck.cards:
        face = cards.laid_out_face(game, deck, card, None, "", (deck.width, deck.height), 0.0)
        roles.append(sorted({e.role for e in flatten(face) if e.role}))
    assert roles[0] == roles[1] == roles[3] != roles[2]
    assert "flavour" in roles[0] and "flavour" not in roles[2]


def test_parsing_yaml_pauses_the_cycle_collector_and_gives_it_back(monkeypatch):
    import gc

    from pnp.errors import DataError
    from pnp.loading import yamlsrc

    seen = []
    compose, direct = yamlsrc.compose, yamlsrc._direct

    def watching(text, limits=yamlsrc.LIMITS):
        seen.append(gc.isenabled())
        return compose(text, limits)

    def watching_direct(text, path, limits=yamlsrc.LIMITS):
        seen.append(gc.isenabled())
        return direct(text, path, limits)

    monkeypatch.setattr(yamlsrc, "compose", watching)
    monkeypatch.setattr(yamlsrc, "_direct", watching_direct)
    assert gc.isenabled()
    assert yamlsrc.parse_yaml("a: [1, 2]\n") == {"a": [1, 2]}
    assert yamlsrc.parse_yaml("a: &x [1, 2]\nb: *x\n") == {"a": [1, 2], "b": [1, 2]}     # an alias: composed
    assert seen == [False] * 3 and gc.isenabled()      # before: the collector ran through the file's nodes
    with pytest.raises(DataError):
        yamlsrc.parse_yaml("a: [1, 2\n")
    assert gc.isenabled()
    gc.disable()
    try:
        yamlsrc.parse_yaml("b: 1\n")
        assert not gc.isenabled()                      # a caller's own pause is left as it was
    finally:
        gc.enable()


def test_a_texts_lines_are_measured_once_per_block_for_both_checks(monkeypatch):
    from pnp.draw import ink, text
    from pnp.layout.geometry import Style, Text

    style = Style(font="serif", size=9, min_size=6)
    a = Text(Rect(2, 2, 30, 12), "Each player gains 2 [coin] and draws a card.", style, role="rules")
    lines = len(text.fit(a.markup, style, a.rect.w, a.rect.h).lines)
    assert lines >= 2
    measured = []
    line_width = text.line_width
    monkeypatch.setattr(text, "line_width", lambda line, st, size: measured.append(line) or line_width(line, st, size))
    with text.fits_kept():
        points = ink.ink(a)                               # the cut-line check's measure
        box = text.ink_rect(a.rect, a.markup, style)      # the empty-space check's
    assert len(measured) == lines                         # before: twice (each check measured the lines)
    measured.clear()
    assert ink.ink(a) == points and text.ink_rect(a.rect, a.markup, style) == box     # outside a block: as before
    assert len(measured) == 2 * lines
    with text.fits_kept():                                # another block (another validation): measured again
        ink.ink(a)
    assert len(measured) == 3 * lines


def test_the_cut_line_check_measures_an_element_many_pieces_print_once(starfall, monkeypatch):
    from pnp.draw import ink
    from pnp.errors import Problems
    from pnp.loading.gamedata import load_game
    from pnp.validation import piececheck

    folder = deck_of(starfall, 30)
    game = load_game(str(folder), Problems())
    measured = []
    real = ink.ink

    def counting(e):
        measured.append(e)
        return real(e)

    monkeypatch.setattr(ink, "ink", counting)
    found = Problems()
    piececheck.check_pieces(game, found)
    assert len(measured) == len(set(measured))        # before: every element of every piece (the frame, icons...)
    # an element moved closer to the cut line than another piece's equal one is measured where it is
    from pnp.layout.geometry import Style, Text
    from pnp.layout.outline import CutPiece, RectOutline

    outline = RectOutline(Rect(0, 0, 40, 60))
    far = Text(Rect(5, 20, 30, 10), "Omen", Style(size=9, min_size=6), role="name")
    near = Text(Rect(0.2, 20, 30, 10), "Omen", Style(size=9, min_size=6, align="left"), role="name")
    told = Problems()
    memo = {}
    for elements in ((far,), (far,), (near,)):
        piececheck.check_piece(CutPiece("cards", "card 'x'", outline, elements, ("omens.csv", 3), True), told, memo)
    assert [p.message[:30] for p in told] == ["name 'Omen' comes within 0.2 m"]


def test_a_style_is_made_once_for_what_it_is_made_of_and_a_layout_edit_makes_another(starfall):
    from pnp.layout import regions

    regions._STYLES.clear()
    a = regions.style_of({"style": {"font": "sans", "size": 9, "min_size": 6}, "colour": "#112233"})
    b = regions.style_of({"style": {"font": "sans", "size": 9, "min_size": 6}, "colour": "#112233"})
    assert a is b and a.colour == "#112233" and a.size == 9          # before: a new Style per text of every face
    c = regions.style_of({"style": {"font": "sans", "size": 9.0, "min_size": 6}})
    assert c is not a and type(c.size) is float and c.colour == regions.Style().colour
    assert regions.style_of({"style": {"font": "sans", "size": 9, "min_size": 6}, "colour": ""}).colour == c.colour
    # the tags' style made smaller in the layout file: the same validation in one process tells the change
    folder = starfall
    before = [p for p in _validated(folder).errors if "tags text" in p.message]
    layout = folder / "templates" / "layouts" / "starfall.yaml"
    layout.write_text(layout.read_text().replace("tags: {font: sans-bold, size: 6, min_size: 6,",
                                                 "tags: {font: sans-bold, size: 30, min_size: 30,"))
    after = [p for p in _validated(folder).errors if "tags text" in p.message]
    assert before == [] and after and "even at 30 pt" in after[0].message


# ----------------------------------------------------------------------------- second round (validate38b)

def test_the_counts_view_shares_its_copies_and_leaves_out_where_cards_are_written(starfall):
    from pnp.cache import buildcache
    from pnp.errors import Problems
    from pnp.loading.gamedata import load_game
    from pnp.text import templating

    game = load_game(str(deck_of(starfall, 300)), Problems())
    view = buildcache.counts_only(game)
    assert game.field_lines and view.field_lines == {} and view.sources == {}
    assert [len(d.physical()) for d in view.decks] == [len(d.physical()) for d in game.decks]
    assert [[(c.copies, c.side_b) for c in d.cards] for d in view.decks] == \
        [[(c.copies, c.side_b is not None) for c in d.cards] for d in game.decks]
    assert len({id(c) for d in view.decks for c in d.cards}) == len({(c.copies, c.side_b) for d in view.decks
                                                                       for c in d.cards}) <= 3   # before: 305
    assert buildcache.counts_only(view) is view
    sizes = []
    for n in (30, 300):             # converted for a template: as much for 300 cards as for 30
        memo = {}
        templating.data_value(buildcache.counts_only(load_game(str(deck_of(starfall, n)), Problems())), memo)
        sizes.append(len(memo))
    assert sizes[0] == sizes[1]     # before: every card's copies and every (card, key) of field_lines


def test_converting_a_short_tuple_of_texts_gives_what_the_memo_gave():
    from pathlib import Path

    from pnp.text import markup, templating

    lines = {(f"omen-{i}", "name"): i for i in range(50)}
    memo = {}
    converted = templating.data_value({"lines": lines, "at": ("a*b", 3, Path("/x/y.png")), "n": (1, 2.5, None),
                                       "s": (markup.Safe("*ok*"), "c_d"), "deep": (("a",), "b")}, memo)
    assert converted["lines"] == {(markup.escape(k), key): v for (k, key), v in lines.items()}
    assert all(type(t) is tuple and all(isinstance(x, markup.Safe) for x in t) for t in converted["lines"])
    assert converted["at"] == (markup.escape("a*b"), 3, templating.MachinePath("/x/y.png"))
    assert converted["s"] == (markup.Safe("*ok*"), markup.escape("c_d"))
    assert converted["deep"] == ((markup.escape("a"),), markup.escape("b"))
    assert converted["n"] is not None and converted["n"] == (1, 2.5, None)
    plain = (1, 2.5, None)
    assert templating.data_value([plain])[0] is plain                    # nothing to escape: the same tuple
    assert not any(isinstance(v[0], tuple) and v[0] in lines for v in memo.values())   # kept out of the memo


def _lines(value):
    """``value`` with where each key and item is written, for comparing two parses."""
    from pnp.loading.yamlsrc import LineDict, LineList

    if isinstance(value, LineDict):
        return ("map", value.path, value.line, dict(value.key_lines), [(k, type(k), _lines(v)) for k, v in value.items()])
    if isinstance(value, LineList):
        return ("list", value.path, value.line, list(value.item_lines), [_lines(v) for v in value])
    return (type(value), value)


@pytest.mark.parametrize("text", [
    "", "a: 1\na: 2\n", "a: 1\nb: 2\na: 3\na: 4\n", "- [1, 2]\n- {a: 1, a: 2}\n", "1: a\ntrue: b\n1: c\n",
    "a: &x [1]\nb: *x\n", "<<: {a: 1}\nb: 2\n", "a: !!str 1\n", "? [a]\n: 1\nb: {a: 1, a: 1}\n", "---\na: 1\n---\nb: 2\n",
    "a: [1, 2\n", "a: 2023-13-45\nb: [1\n", "a: 2023-01-05\nb: 1:30\nc: 0x1F\nd: .inf\ne: ~\nf: ''\ng: yes\nh: 1_000\n",
    "=: 1\n", "- a\n- b: 1\n  c: [x, {y: z}]\n- - 1\n  - 2\n", "a: \"q\"\nb: 'r'\nc: |\n  block\nd: >\n  folded\n",
    "just a scalar\n", "a:\n  b:\n    c: 1\n    c: 2\n  b: 3\n", "a: \x01\n", "[" * 70 + "]" * 70, "a: b: c\n",
    "x: {1: a, 1.0: b}\nnull: 1\n~: 2\n", "cards:\n" + "".join(f"  - id: c-{i}\n    n: {i}\n" for i in range(40)),
])
def test_yaml_built_from_events_at_once_is_what_composing_gave(text, monkeypatch):
    from pnp.errors import DataError
    from pnp.loading import yamlsrc

    def parsed(limits):
        try:
            return _lines(yamlsrc.parse_yaml(text, "f.yaml", limits))
        except DataError as exc:
            return [str(p) for p in exc.problems]

    for limits in (yamlsrc.LIMITS, yamlsrc.Limits(max_values=30), yamlsrc.Limits(max_depth=2)):
        at_once = parsed(limits)
        with monkeypatch.context() as m:
            m.setattr(yamlsrc, "_direct", lambda *args: None)
            assert parsed(limits) == at_once


def test_a_plain_deck_file_is_built_without_nodes(monkeypatch):
    from pnp.loading import yamlsrc

    def composing(text, limits=yamlsrc.LIMITS):
        raise AssertionError("composed")

    monkeypatch.setattr(yamlsrc, "compose", composing)
    data = yamlsrc.parse_yaml("cards:\n  - id: a\n    copies: 2\n  - id: b\n", "d.yaml")
    assert data == {"cards": [{"id": "a", "copies": 2}, {"id": "b"}]}             # before: composed into nodes
    assert data["cards"].item_lines == [2, 4] and data["cards"][0].key_lines == {"id": 2, "copies": 3}
    with pytest.raises(AssertionError, match="composed"):
        yamlsrc.parse_yaml("a: &x 1\nb: *x\n", "d.yaml")                           # an alias: composed as before


def test_a_renders_limits_arm_the_alarm_and_give_the_handler_back():
    import signal

    from pnp.text import templating

    before = signal.getsignal(signal.SIGALRM)
    with templating.limits() as outer:
        armed = signal.getsignal(signal.SIGALRM)
        assert signal.getitimer(signal.ITIMER_REAL)[0] > 0
        with templating.limits() as inner:
            assert inner is outer
    assert armed is not before and callable(armed)
    assert signal.getsignal(signal.SIGALRM) is before and signal.getitimer(signal.ITIMER_REAL)[0] == 0
    with pytest.raises(ZeroDivisionError):
        with templating.limits():
            1 / 0
    assert signal.getsignal(signal.SIGALRM) is before and templating._BUDGET.get() is None


def test_a_fonts_glyphs_are_looked_up_once_per_character(monkeypatch):
    from reportlab.pdfbase import pdfmetrics

    from pnp.draw import fonts

    fonts.register()
    name = fonts.font_name("serif")
    face = pdfmetrics.getFont(name).face
    asked = []

    class Counting(dict):
        def __contains__(self, key):
            asked.append(key)
            return super().__contains__(key)

    monkeypatch.setattr(face, "charToGlyph", Counting(face.charToGlyph))
    monkeypatch.setattr(fonts, "_PRINTED", {})
    texts = [f"Omen {i}: a sign \u2603\x01" for i in range(50)]
    found = [fonts.missing_glyphs(t, name) for t in texts]
    assert found == [{"\u2603", "\x01"}] * 50 and found[0] is not found[1]
    assert len(asked) == len(set(asked)) + 2 * 49       # before: every character of every text, 1,000 look-ups
    assert fonts.missing_glyphs("  \t\n", name) == set() and fonts.unprintable("ok \x01") == "U+0001"


def test_a_spreadsheet_deck_is_read_once_per_validation_and_again_when_edited(starfall, monkeypatch):
    from pnp.cache import memo
    from pnp.errors import Problems
    from pnp.loading import decks
    from pnp.loading.gamedata import load_game

    folder = deck_of(starfall, 30)
    read = []
    load_table = decks.load_table

    def counting(path, within=None):
        read.append(path.name)
        return load_table(path, within)

    monkeypatch.setattr(decks, "load_table", counting)
    memo.clear()
    assert not _validated(folder).errors
    assert read.count("omens.csv") == 1         # before: twice (the loading, the translations' check)
    omens = folder / "omens.csv"
    omens.write_text(omens.read_text().replace("omen-3,Omen 3,1", "omen-3,Omen 3,x"))
    told = [p for p in _validated(folder).errors if "omen-3" in p.subject]
    assert read.count("omens.csv") == 2 and told and told[0].line == 5
    rows = decks.read_cards(load_game(str(folder), Problems(), strict=False).deck("omens"), folder, Problems())[0]
    assert rows[0]["copies"] == 1 and type(rows[0]["turns"]) is int       # typed by the deck's fields


def test_a_faces_palette_is_made_a_key_once_for_all_its_expressions(monkeypatch):
    from pnp.loading import cardlayout

    made = []
    real = cardlayout._palette_items

    def counting(palette):
        made.append(id(palette))
        return real(palette)

    monkeypatch.setattr(cardlayout, "_palette_items", counting)
    monkeypatch.setattr(cardlayout, "_PALETTES", {})
    palette = {"paper": "#f4f1e8", "ink": "#1f1a17"}
    scope = {"palette": palette, "colour": "#aa3322"}
    keys = [cardlayout._held_key(e, True, {"palette"} | ({"colour"} if "colour" in e else set()), scope)
            for e in ("palette.paper", "palette.ink", "tint_to(colour, palette.paper)")]
    assert keys[0] == ("palette.paper", True, (("palette", (("ink", "#1f1a17"), ("paper", "#f4f1e8"))),))
    assert len(made) == 3 and len(cardlayout._PALETTES) == 1       # before: sorted and checked three times
    assert cardlayout._held_key("palette.paper", True, {"palette"}, {"palette": {"paper": 3}}) is None
    assert cardlayout._held_key("palette.paper", True, {"palette"}, {"palette": dict(palette)}) == keys[0]
