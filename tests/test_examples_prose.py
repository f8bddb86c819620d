"""Engine-made examples told as prose: a start position drawn and said, numbered steps made from the
engine's structured events by each game's event templates, then the outcome. Every event a reader
needs is in the words (a card drawn or played, a die rolled, a score change and its reason) and
nothing appears from nowhere (a card played from a preset hand is in the start position)."""

import re

import pytest

from pnp.rulebook.component import booklet, engine_battle, engine_examples, event_templates
from pnp.draw.icons import using
from pnp.errors import DataError
from pnp.rulebook.figures import Figures
from pnp.loading.gamedata import load_game
from pnp.loading.i18n import translate
from pnp.text.markup import escape, plain_text
from pnp.rulebook.chapters import load_config
from pnp.loading.scenario import load_scenario, play_scenario
from rasterize import booklet_text, page_words

GAMES = ["shadow_throne", "behind_the_throne", "shadow_queen", "shadow_kingdoms_of_valeria"]


def flat(text: str) -> str:
    text = plain_text(text) if "**" in text else text
    text = text.replace("*", "").replace("\u2019", "'")
    return re.sub(r"(\w)- (\w)", r"\1\2", " ".join(text.split()))


def examples_of(game_id, lang="en"):
    game = load_game(game_id)
    game = translate(game, lang) if lang != game.language else game
    with using(game.icons, lang):
        figures = Figures(game, lang)
        return game, engine_examples(game, load_config(game), lang, figures), figures


def events_of(game, example_id):
    cfg = load_config(game)
    ex = next(e for e in cfg["examples"] if e["id"] == example_id)
    _, scenario = load_scenario(ex["_file"], game=game)
    return play_scenario(game, scenario, ex["_file"]).events


@pytest.mark.parametrize("game_id", GAMES)
def test_every_example_prints_its_start_steps_and_outcome(game_id):
    game, examples, figures = examples_of(game_id)
    with using(game.icons, "en"):
        pdf, _, _ = booklet(game, "letter", "en")
    book = flat(booklet_text(pdf))
    for ex in examples.values():
        assert ex.setup and ex.steps, ex.id
        assert "!figure" in ex.start, ex.id                       # the start position is drawn
        for sentence in (ex.setup, *ex.steps, *ex.outcome):
            assert flat(sentence) in book, sentence
        assert not any(s.startswith("--") or s.startswith("==") for s in ex.steps)   # no log lines


@pytest.mark.parametrize("game_id", GAMES)
def test_every_card_an_event_names_is_in_the_examples_words(game_id):
    game, examples, _ = examples_of(game_id)
    names = {c.id: c.name for c in game.cards}
    for ex in examples.values():
        words = flat(" ".join([ex.setup, *ex.steps, *ex.outcome]))
        for e in events_of(game, ex.id):
            for card in [e.data.get("card"), *(e.data.get("cards") or [])]:
                if card in names and e.type not in ("stacks",):
                    assert flat(names[card]) in words, (ex.id, e.type, card)


def test_shadow_queen_shows_the_preset_hand_before_a_card_is_played_from_it():
    game, examples, figures = examples_of("shadow_queen")
    possess = examples["possess"]
    assert "Possess" in possess.setup and "Morgana" in possess.setup
    # the hand is drawn too: a row of the card faces as printed
    hands = [d for d in figures.drawings if d.kind == "hand"]
    assert any("Possess" in d.caption for d in hands)
    attack = examples["attack"]
    words = " ".join(attack.steps + attack.outcome)
    for e in events_of(game, "attack"):
        if e.type == "roll":                                  # every die roll, with its total
            assert re.search(rf"rolls? {e.data['dice']} di", words) and f"{e.data['total']} in all" in words
    assert "The Kingdom rolls 1 die" in words and "The Kingdom answers: its Soldier" in words   # one side, singular
    assert "Attack 9 against defence 3" in words


def test_valeria_scores_come_from_somewhere():
    """The Adversary's score at the start is said before a step says it grew, with the reason."""
    game, examples, _ = examples_of("shadow_kingdoms_of_valeria")
    solo = examples["adversary_turn"]
    assert "31 VP" in solo.setup
    meets = next(s for s in solo.steps if "Warden" in s and "VP" in s)
    assert "2 VP" in meets and "33 VP now" in meets
    assert solo.steps[0].startswith("**Kira’s turn:**")
    assert any(s.startswith("**The Adversary’s turn:**") for s in solo.steps)
    chain = examples["battle_chain"]
    assert "21 VP" in chain.setup
    battle = next(s for s in chain.steps if "strength of 19" in s)
    assert "held to 14 by the influence of 14" in battle and "9 VP" in battle


def test_valeria_dice_and_plans_come_from_somewhere_and_are_said_once():
    """A die taken from a shrine and a plan reserved from the line are in the start position; a battle
    that takes nothing from the shrines does not list them; a Gem spent for a Wild die is one step."""
    game, examples, _ = examples_of("shadow_kingdoms_of_valeria")
    solo = examples["adversary_turn"]
    assert "Tactics, Goblin 2 and Orc 5" in solo.setup and "Melee at Duskmere" in solo.setup
    assert any("takes the Goblin 2 from the Tactics shrine" in s for s in solo.steps)
    chain = examples["battle_chain"]
    assert "shrines" not in chain.setup and "line" not in chain.setup
    assert sum("Gem" in s and "Wild" in s for s in chain.steps) == 1


def test_behind_the_throne_turns_are_said_with_whose_turn_it_is():
    _, examples, _ = examples_of("behind_the_throne")
    steps = examples["three_turns"].steps
    assert steps[0] == "**Ana’s turn:** Ana reveals Assassin (2)."
    assert any("destroys one of Ben’s Alchemist cards" in s for s in steps)
    assert any("busts and discards Jester and Minstrel" in s for s in steps)


def test_shadow_throne_spanish_examples_are_spanish_prose():
    _, examples, _ = examples_of("shadow_throne", "es")
    ex = examples["convert_and_embolden"]
    assert ex.title == "Ejemplo: una oleada, dos habilidades a la vez"
    assert "El Pastor de los Perdidos de Ben convierte al Forajido de Ana" in " ".join(ex.steps)
    assert ex.steps[0].startswith("**Oleada 1:**")
    assert ex.outcome[0].startswith("**Resultado.**") and "La victoria es para la Iglesia" in ex.outcome[0]
    hush = examples["hush_money"]
    assert any("Oro por Silencio" in s for s in hush.steps)


def test_the_seeded_battle_is_prose_too():
    game = load_game("shadow_throne")
    battle = engine_battle(game, load_config(game), "en", prose=True)
    assert battle.steps[0].startswith("**Intrigue:**")
    assert any(s.startswith("**Wave 4:**") for s in battle.steps)
    assert any(s.startswith("Pick 6:") for s in battle.steps)
    assert list(battle)[0] == "== Battle 1 =="                      # the engine's own transcript still


def _chapter(game_id, name, lang="en"):
    from pnp.rulebook.component import printed_chapters

    game = load_game(game_id)
    game = translate(game, lang) if lang != game.language else game
    with using(game.icons, lang):
        return next(markup for path, markup in printed_chapters(game, lang) if path.endswith(f"/{name}.md.j2"))


#: A ledger line of a battle's outcome: "Ana: +1 influence for ...; now 6 influence and 1 gold".
LEDGER = re.compile(r"\b[A-Z][a-z]+: (\+\d|no reward|sin recompensa)|\+\d+ (influence|consolation|de )|; (now|ahora tiene) \d")


@pytest.mark.parametrize("lang, outcome", [("en", "**Outcome.**"), ("es", "**Resultado.**")])
def test_the_whole_battle_ends_in_sentences_after_a_figure_of_the_table(lang, outcome):
    """Issue 37: Shadow Throne's "A battle from start to finish" ended on a ledger ("Ana: +1 influence for
    Dutiful Peasant on the winning side ...; now 6 influence and 1 gold"). Its outcome is sentences, and
    a figure of the table at the end (each player's characters as played) comes before them."""
    markup = _chapter("shadow_throne", "full_battle", lang)
    blocks = [b.strip() for b in markup.split("\n\n") if b.strip()]
    end = next(k for k, b in enumerate(blocks) if b.startswith(outcome))
    said = " ".join(blocks[end:])
    assert not LEDGER.search(said), LEDGER.search(said).group(0)
    assert said.count(".") >= 8                                   # a sentence per player and more
    for name in ("Ana", "Ben", "Cleo", "Dario"):
        assert re.search(rf"\b{name} (gains|gana|no gana) ", said), name
    last_wave = max(k for k, b in enumerate(blocks) if b.startswith(("**Wave 4:**", "**Oleada 4:**")))
    drawn = [line for b in blocks[last_wave:end] for line in b.splitlines() if line.startswith("!figure")]
    assert len(drawn) == 4                                        # the four players' tables


def test_valeria_examples_are_told_in_prose_between_a_start_and_an_end_figure():
    """Issue 37: Valeria's two examples were numbered steps. Each is told in paragraphs (a new one at a
    turn, a battle's scoring, the Adversary's move), between the start drawn and the end drawn."""
    markup = _chapter("shadow_kingdoms_of_valeria", "examples")
    assert not re.search(r"^\d+\. ", markup, re.M)                 # no numbered steps
    parts = re.split(r"^### ", markup, flags=re.M)[1:]
    assert len(parts) == 2
    for part in parts:
        blocks = [b.strip() for b in part.split("\n\n") if b.strip()]
        told = [k for k, b in enumerate(blocks) if b.startswith("**") and "turn:**" in b]
        assert told, part[:80]
        before = [k for k, b in enumerate(blocks) if b.startswith("!figure") and k < told[0]]
        after = [k for k, b in enumerate(blocks) if b.startswith("!figure") and k > told[-1]]
        assert before and after, part[:80]
    assert "**The Adversary’s turn:**" in markup.split("\n\n**Kira’s turn:**")[-1].split("\n\n")[1]


def test_an_example_is_told_in_paragraphs_and_gives_its_events():
    _, examples, _ = examples_of("shadow_kingdoms_of_valeria")
    ex = examples["adversary_turn"]
    assert [p[0][0] for p in ex.paragraphs] == ["move", "adversary_move"]
    assert str(ex.told()).count("\n\n") == 1 and ex.names == ("Kira",)
    assert any(e["type"] == "adversary_plan" and e["card"] == "blockade_at_thornwick" for e in ex.events)


def test_an_event_without_words_is_a_problem_at_the_event_template(game_copy):
    path = game_copy / "templates" / "events" / "en.j2"
    path.write_text(path.read_text().replace("{%- macro kill(e, n, facts) -%}", "{%- macro kill_x(e, n, facts) -%}"))
    game = load_game(game_copy)
    with pytest.raises(DataError) as err:
        engine_examples(game, load_config(game), "en", Figures(game))
    (problem,) = err.value.problems
    assert problem.path.endswith("templates/events/en.j2")
    assert problem.message == "no macro for the engine's event 'kill' (add one, or list it in quiet)"


def test_a_game_without_event_templates_keeps_the_transcript(game_copy):
    (game_copy / "templates" / "events" / "en.j2").unlink()
    game = load_game(game_copy)
    assert event_templates(game, "en") == (None, None)
    ex = engine_examples(game, load_config(game), "en", Figures(game))["killing"]
    assert ex.markup.startswith("> **Example: Anna Lys strikes first**")
    assert "Cleo reveals Queen's Guard and pays 1 gold (2 left)." in list(ex)


def test_a_game_without_event_templates_validates_and_prints_its_transcripts_in_boxes(game_copy):
    """The documented fallback (issue 32: every ``>`` box crashed the layout, so this game neither
    validated nor built): each example and the seeded battle print the engine's transcript lines in an example box;
    the battle's box runs on from one page to the next."""
    for lang in ("en", "es"):
        (game_copy / "templates" / "events" / f"{lang}.j2").unlink()
    game = load_game(game_copy)
    battle = engine_battle(game, load_config(game), "en", prose=True)
    lines = list(battle)
    assert lines[0] == "== Battle 1 ==" and len(lines) > 12        # a box set line by line, not kept whole
    assert battle.markup.splitlines() == [f"> {escape(line)}" for line in lines]
    with using(game.icons, "en"):
        pdf, pages, _ = booklet(game, "letter", "en")
    assert pages == 16
    words = page_words(pdf)
    text = " ".join(words)
    assert "> " not in text and "Example: Anna Lys strikes first" in text
    assert "Cleo reveals Queen's Guard and pays 1 gold (2 left)." in text
    at = 0
    for line in lines:                                # every line of the battle, in order
        at = text.find(flat(line), at)
        assert at >= 0, line
    first, last = (next(k for k, page in enumerate(words) if flat(line) in page) for line in (lines[0], lines[-1]))
    assert last == first + 1
