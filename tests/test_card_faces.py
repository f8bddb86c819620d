"""Card faces from layout data: content comes from the card data, everything stays inside the card."""

import pytest

from pnp.loading.cardtext import ability_text, known_kinds
from pnp.components.cards import build, face_content
from pnp.components import BuildOptions
from pnp.draw.text import fit
from pnp.loading.gamedata import load_game
from pnp.layout.cards import stat_slots
from pnp.loading.cardlayout import card_face
from pnp.layout.geometry import Rect, Text, flatten


@pytest.fixture(scope="module")
def game():
    return load_game("shadow_throne")


def test_every_effect_kind_has_words_in_english(game):
    assert set(game.effects) <= known_kinds(game, "en")


def test_ability_text_is_generated_from_the_ability_data(game):
    assert ability_text(game, game.card("benthon-knights")) == (
        "**Kill** [kill] every [pips:1] commoner of any other faction in this wave.")
    assert ability_text(game, game.card("anna-lys")) == (
        "**Kill** [kill] every [pips:2] elite of any other faction in this wave.")
    beatrice = ability_text(game, game.card("princess-beatrice"))
    assert beatrice.endswith("Each one converted this way gets +1 [power].")
    assert "to the Church" in beatrice
    assert ability_text(game, game.card("sythera")) == (
        "Characters of other factions in this wave lose their [step:2] and [step:3] abilities.")
    assert ability_text(game, game.card("outlaw")) == ""


def test_stats_show_cost_with_minus_and_income_with_plus(game):
    assert stat_slots(game, game.card("king-kyros")) == (
        ("power", "power", "10"), ("influence", "influence", "5"), ("cost", "cost", "\u22125"))
    assert stat_slots(game, game.card("outlaw")) == (
        ("power", "power", "1"), ("influence", "influence", "0"), ("income", "income", "+2"))
    # consolation gold shows only when the card gives some
    assert stat_slots(game, game.card("dutiful-peasant"))[-2:] == (
        ("cost", "cost", "0"), ("consolation", "consolation", "3"))


def test_face_shows_step_name_and_rank(game):
    els = card_face(face_content(game, game.card("king-kyros")), 63, 88)
    (step,) = [e for e in els if e.role == "step"]
    assert step.label == "3"
    (name,) = [e for e in els if e.role == "name"]
    assert name.markup == "King Kyros"
    assert len([e for e in els if e.role == "pip"]) == 2 * 3
    assert [e for e in els if e.role == "frame"][0].fill == game.faction("empire").colour


@pytest.mark.parametrize("card_id", ["dutiful-peasant", "king-kyros", "princess-beatrice", "queen-eletheria"])
def test_everything_on_a_face_stays_inside_the_card(game, card_id):
    card_rect = Rect(0, 0, 63, 88)
    for el in flatten(card_face(face_content(game, game.card(card_id)), 63, 88)):
        rect = getattr(el, "rect", None)
        if rect is not None:
            assert card_rect.contains(rect), el
        if hasattr(el, "cx"):
            r = getattr(el, "size", 0) / 2 or getattr(el, "r", 0)
            assert 0 <= el.cx - r and el.cx + r <= 63 and 0 <= el.cy - r and el.cy + r <= 88, el


def test_every_text_on_every_card_fits(game):
    for card in game.cards:
        for el in card_face(face_content(game, card), 63, 88):
            if isinstance(el, Text):
                assert fit(el.markup, el.style, el.rect.w, el.rect.h).ok, (card.id, el.role)


def test_sheets_hold_the_whole_deck_in_data_order_then_the_player_aids(game):
    fronts, backs, duplex = build(game, BuildOptions())
    # the duplex file is made of the fronts' and backs' PDFs, a page of each in turn (tests/test_parallel_build.py)
    assert (duplex.filename, duplex.pages, duplex.interleave) == \
        ("cards-duplex.pdf", [], ("cards-fronts.pdf", "cards-backs.pdf"))
    assert [p.label for p in fronts.pages[:2]] == ["Card fronts 1", "Card fronts 2"]
    assert backs.pages[0].label == "Card backs 1"
    assert len(fronts.pages) == len(backs.pages) == 7
    roles = [e.role for p in fronts.pages for e in p.elements if e.role.startswith("card:")]
    assert len(roles) == 54 + 5
    assert roles[:4] == ["card:dutiful-peasant#1", "card:dutiful-peasant#2", "card:dutiful-peasant#3",
                         "card:loyal-soldier#1"]
    assert roles[54:] == [f"card:aid#{k}" for k in range(1, 6)]
    # the aids share the deck's back: the last sheet has five backs, mirrored like the fronts
    assert len([e for e in backs.pages[-1].elements if e.role.startswith("back:")]) == 5


def test_player_aid_text_comes_from_the_rules_facts(game):
    from pnp.loading.cardtext import aid_text
    from rules_engine.shadow_throne import FACTS

    title, body = aid_text(game, game.deck("cards"))
    assert title == "Quick reference"
    assert f"Deal {FACTS['pool']} each" in body
    assert f"Conflict, {FACTS['waves']} waves." in body
    assert f"At {FACTS['goal']} [influence] the game ends" in body


def test_each_back_is_behind_its_front_on_the_printed_sheets(game):
    for paper in ("letter", "a4"):
        fronts, backs, _ = build(game, BuildOptions(paper=paper))
        for fp, bp in zip(fronts.pages, backs.pages):
            front = {e.role[5:]: (e.dx, e.dy) for e in fp.elements if e.role.startswith("card:")}
            back = {e.role[5:]: (e.dx, e.dy) for e in bp.elements if e.role.startswith("back:")}
            assert front.keys() == back.keys()
            for label, (fx, fy) in front.items():
                bx, by = back[label]
                assert round(bx, 2) == round(fp.width - fx - 63, 2)
                assert round(by, 2) == round(fy, 2)


def test_validation_and_build_lay_out_each_printed_face_once(monkeypatch, tmp_path):
    """The cards check lays out every card's face as its first copy prints (mark included); the build
    places those same faces. A game loaded again is laid out again (pnp watch sees edits)."""
    import pnp.components.cards as cards
    from pnp.build.kit import build_kit

    laid_out = []
    real = cards.card_face
    monkeypatch.setattr(cards, "card_face", lambda content, *a: laid_out.append(content.name) or real(content, *a))
    game = load_game("shadow_kingdoms_of_valeria")            # most of its cards carry the placeholder mark
    printed = {(c.id, cards.printed_mark(game, c, k)) for d in game.decks for c in d.cards
               for k in range(1, game.copies_for(c, game.players[1]) + 1)}
    assert any(mark for _, mark in printed)
    build_kit("shadow_kingdoms_of_valeria", tmp_path, BuildOptions(), jobs=1)
    assert len(laid_out) == len(printed)
    build_kit("shadow_kingdoms_of_valeria", tmp_path, BuildOptions(), jobs=1)
    assert len(laid_out) == 2 * len(printed)


def test_the_cards_check_makes_each_face_s_content_once_and_looks_up_translations_only_for_a_problem(
        tmp_path, monkeypatch):
    """The cards' check made a card's face content twice (to evaluate its regions, then to lay the face
    out) and looked up the translation line of every text it fitted, problem or not: now once, and
    only for a text that has a problem (the same messages, at the same lines)."""
    import shutil

    from click.testing import CliRunner

    from pnp import DATA_DIR
    from pnp.commands.cli import main
    from pnp.components import cards

    copy = tmp_path / "shadow_throne"
    shutil.copytree(DATA_DIR / "shadow_throne", copy)
    made, looked_up = [], []
    real_content, real_words_at = cards.face_content, cards.words_at
    monkeypatch.setattr(cards, "face_content", lambda game, card, *a, **k: made.append(card.id)
                        or real_content(game, card, *a, **k))
    monkeypatch.setattr(cards, "words_at", lambda *a, **k: looked_up.append(a[2]) or real_words_at(*a, **k))
    result = CliRunner().invoke(main, ["validate", str(copy), "--lang", "es"])
    assert result.exit_code == 0, result.output
    game = load_game(copy)
    assert sorted(made) == sorted(c.id for c in game.cards) and looked_up == []
    path = copy / "i18n" / "es.yaml"
    path.write_text(path.read_text().replace("name: Forajido", "name: " + "Forajido " * 12, 1))
    made.clear()
    result = CliRunner().invoke(main, ["validate", str(copy), "--lang", "es"])
    assert result.exit_code == 2
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if "Forajido Forajido" in text)
    assert f"{path}:{line}: card 'outlaw': name text does not fit" in result.output
    assert looked_up and all("Forajido" in markup for markup in looked_up)
