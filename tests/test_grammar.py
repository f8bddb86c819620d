"""Grammar as data (issue 37, item 1): articles before names come from the name's language and the grammar
the data gives it (pnp.text.grammar), never from a template's "a {{ card.name }}".

English "a"/"an" by pronunciation (inflect); Spanish articles and contractions (a + el = al, de + el = del)
from the gender a translation gives each name; engine prose (event templates and the engine's own phrase
table) says "al Forajido", "a la Guardia"; a template that writes an article before a data value is a
warning at its line naming the filter to use. Counted words come from the catalogue in the language's
plural form (t('key', count=n)), and a plural made by adding letters is a warning at its line."""

import re
import shutil

import pytest
from click.testing import CliRunner

from pnp import DATA_DIR
from pnp.commands.cli import main
from pnp.draw.icons import using
from pnp.errors import Problems
from pnp.text.grammar import GrammarError, Noun, article, article_problems, capfirst, plural_problems
from pnp.loading.gamedata import load_game
from pnp.loading.i18n import translate
from pnp.loading.templatetests import check_template_grammar
from rasterize import booklet_text, page_words
from rules_engine.model.cards import Grammar
from rules_engine.shadow_throne.events import Event
from rules_engine.shadow_throne.phrases_es import SPANISH
from rules_engine.shadow_throne.transcript import Namer, format_event


@pytest.mark.parametrize("name, said", [("Alchemist", "an Alchemist"), ("Minstrel", "a Minstrel"),
                                        ("hour", "an hour"), ("unicorn", "a unicorn"), ("Usurper", "a Usurper"),
                                        ("Honest Merchant", "an Honest Merchant"), ("**Oracle**", "an **Oracle**")])
def test_english_indefinite_article_by_pronunciation(name, said):
    assert article(name, "indefinite", "en") == said
    assert article(name, "indefinite", "en_GB") == said


SPANISH_FORMS = [
    (Grammar("masculine"), "el Forajido", "al Forajido", "del Forajido", "un Forajido"),
    (Grammar("feminine"), "la Forajido", "a la Forajido", "de la Forajido", "una Forajido"),
    (Grammar("masculine", plural=True), "los Forajido", "a los Forajido", "de los Forajido", "unos Forajido"),
    (Grammar("feminine", plural=True), "las Forajido", "a las Forajido", "de las Forajido", "unas Forajido"),
    (Grammar("feminine", article=False), "Forajido", "a Forajido", "de Forajido", "Forajido"),
]


@pytest.mark.parametrize("grammar, the, al, del_, a", SPANISH_FORMS)
def test_spanish_articles_and_contractions_follow_the_names_grammar(grammar, the, al, del_, a):
    name = Noun("Forajido", grammar, "cards.outlaw")
    assert article(name, "definite", "es") == the
    assert article(name, "definite", "es", "a") == al
    assert article(name, "definite", "es", "de") == del_
    assert article(name, "indefinite", "es") == a


def test_a_spanish_name_without_a_gender_is_an_error_naming_the_key_to_give():
    with pytest.raises(GrammarError, match=r"give cards\.outlaw\.gender .* in i18n/es\.yaml"):
        article(Noun("Forajido", Grammar(), "cards.outlaw"), "definite", "es", "a")
    with pytest.raises(GrammarError, match="pnp puts no articles in 'fr'"):
        article("Hors-la-loi", "definite", "fr")
    assert capfirst("el Imperio") == "El Imperio"


def test_behind_the_throne_prints_an_alchemist_on_its_cards_and_in_its_rulebook(built_kit):
    kit = built_kit("behind_the_throne")
    fronts = " ".join(page_words(kit / "cards-fronts.pdf"))
    assert fronts.count("must take an Alchemist.") == 9          # the 9 Alchemist cards
    assert fronts.count("must take a Minstrel.") == 9
    assert "a Alchemist" not in fronts
    book = booklet_text(kit / "rulebook.pdf")
    assert "a Alchemist" not in book
    assert book.count("must take an Alchemist") >= 2             # the card index and the aid figure


def test_spanish_engine_prose_says_articles_from_the_names_gender(built_kit):
    book = booklet_text(built_kit("shadow_throne", "es") / "rulebook.pdf")
    assert "convierte al Forajido de Ana" in book
    assert "mata al Pastor de los Perdidos de Ben y a la Guardia de la Reina de Cleo" in book
    assert "da +1 de poder al Forajido de Ana" in book
    assert "El Imperio, los Rebeldes y la Iglesia quieren el trono" in book
    for wrong in ("convierte a Forajido", "mata a Pastor", r"\ba Guardia de la Reina", "poder a Forajido"):
        assert not re.search(wrong, book), wrong


def test_the_engines_spanish_phrase_table_contracts_by_gender():
    game = translate(load_game("shadow_throne"), "es")
    namer = Namer(game.cards, game.factions, ["Ana", "Ben", "Cleo"])
    kill = Event("kill", 1, 1, {"source": {"card": "anna-lys", "player": 0},
                                "targets": [{"card": "shepherd-of-the-lost", "player": 1},
                                            {"card": "queens-guard", "player": 2},
                                            {"card": "benthon-knights", "player": 1}]})
    assert format_event(kill, namer, SPANISH) == ("Anna Lys, Hacedora de Viudas (Ana) mata al Pastor de los "
                                                  "Perdidos (Ben), a la Guardia de la Reina (Cleo) y a los "
                                                  "Caballeros de Bentheon (Ben).")
    convert = Event("convert", 1, 1, {"source": {"card": "shepherd-of-the-lost", "player": 1},
                                      "targets": [{"card": "outlaw", "player": 0}], "faction": "church"})
    assert format_event(convert, namer, SPANISH) == \
        "El Pastor de los Perdidos (Ben) convierte al Forajido (Ana) a la Iglesia."


def _btt_copy(tmp_path):
    dest = tmp_path / "behind_the_throne"
    shutil.copytree(DATA_DIR / "behind_the_throne", dest)
    return dest


def test_a_template_writing_an_article_before_a_data_value_is_a_warning_at_its_line(tmp_path):
    game_dir = _btt_copy(tmp_path)
    template = game_dir / "templates" / "abilities" / "en.j2"
    template.write_text(template.read_text().replace("{{ card.name|a }}", "a {{ card.name }}"))
    problems = Problems()
    with using(None, "en"):
        check_template_grammar(load_game(str(game_dir)), problems)
    found = [(p.line, p.message) for p in problems.warnings if str(template) in str(p.path)]
    assert [line for line, _ in found] == [25, 27]
    assert "write '{{ card.name|a }}'" in found[0][1]
    result = CliRunner().invoke(main, ["validate", str(game_dir), "--no-cache"])
    assert result.exit_code == 0
    assert "abilities/en.j2:25: warning: 'a {{ card.name }}' writes the article itself" in result.output


def test_spanish_article_before_a_name_suggests_the_objects_filter():
    found = article_problems("Un reino. El {{ factions[0].faction.name }} y a {{ n.player(e.player) }} "
                             "mata a {{ ch(e.source, n) }} y {{ x|al }}.", "es")
    assert found == [(1, "'El {{ factions[0].faction.name }}' writes the article itself, the same for every "
                         "name: write '{{ factions[0].faction|the|capfirst }}', which says it by the name's "
                         "gender and number, from the data ('al Forajido', 'a la Guardia')")]


def test_bundled_games_write_no_article_before_a_data_value_and_no_plural_by_letters():
    for game_id in ("shadow_throne", "behind_the_throne", "shadow_kingdoms_of_valeria", "shadow_queen"):
        problems = Problems()
        check_template_grammar(load_game(game_id), problems)
        assert not problems.warnings, game_id
    from pnp import TEMPLATES_DIR                    # pnp's own templates (instructions, common chapters, starters)

    for path in sorted(TEMPLATES_DIR.rglob("*.j2")):
        text = path.read_text(encoding="utf-8")
        lang = "es" if "es" in path.relative_to(TEMPLATES_DIR).parts else "en"
        assert article_problems(text, lang) + plural_problems(text) == [], path


def test_a_translations_gender_is_checked_at_its_line(tmp_path):
    game_dir = tmp_path / "shadow_throne"
    shutil.copytree(DATA_DIR / "shadow_throne", game_dir)
    es = game_dir / "i18n" / "es.yaml"
    text = es.read_text()
    es.write_text(text.replace("outlaw: {name: Forajido, gender: masculine,", "outlaw: {name: Forajido, gender: masculin,"))
    line = next(i for i, t in enumerate(es.read_text().splitlines(), 1) if "gender: masculin," in t)
    result = CliRunner().invoke(main, ["validate", str(game_dir), "--no-cache"])
    assert result.exit_code == 2
    shown = next(t for t in result.output.splitlines() if f"i18n/es.yaml:{line}: card 'outlaw': gender: " in t)
    assert shown.endswith("or neuter (then ' plural' for a plural name); did you mean 'masculine'?")


def test_a_plural_made_by_adding_letters_is_named_with_the_catalogue_way():
    text = 'Ana has {{ c.gems }} Gem{{ "s" if c.gems != 1 }}.\n{% set x = k ~ ("es" if k > 1 else "") %}\n' \
           '{{ n.t("gems", count=c.gems) }} {{ "die" if n == 1 else "dice" }}'
    assert plural_problems(text) == [
        (1, "'\"s\" if c.gems != 1' makes a plural by adding letters: give the counted word's plural forms under "
            "strings: in i18n/<lang>.yaml ({one: \"{count} Gem\", other: \"{count} Gems\"}) and write "
            "t('key', count=n) (n.t in an event template), which picks the form by the language's plural rules"),
        (2, "'\"es\" if k > 1' makes a plural by adding letters: give the counted word's plural forms under "
            "strings: in i18n/<lang>.yaml ({one: \"{count} Gem\", other: \"{count} Gems\"}) and write "
            "t('key', count=n) (n.t in an event template), which picks the form by the language's plural rules")]


def test_a_template_s_plural_by_letters_is_a_warning_at_its_line(tmp_path):
    game_dir = _btt_copy(tmp_path)
    template = game_dir / "templates" / "events" / "en.j2"
    text = template.read_text()
    assert "({{ n.t('cards', count=e.count) }})" in text
    template.write_text(text.replace("({{ n.t('cards', count=e.count) }})", '({{ e.count }} card{{ "s" if e.count != 1 }})'))
    line = next(i for i, t in enumerate(template.read_text().splitlines(), 1) if 'card{{ "s" if' in t)
    result = CliRunner().invoke(main, ["validate", str(game_dir), "--no-cache"])
    assert result.exit_code == 0
    assert (f"events/en.j2:{line}: warning: '\"s\" if e.count != 1' makes a plural by adding letters: give the "
            f"counted word's plural forms under strings: in i18n/<lang>.yaml") in result.output


def test_event_templates_count_through_the_catalogue_in_the_kit_s_language():
    from pnp.loading.events import namer

    es = translate(load_game("shadow_throne"), "es")
    t = namer(es, ["Ana", "Ben"], lang="es")["t"]
    assert [t("gold_left", count=n) for n in (0, 1, 2)] == ["se queda sin oro", "le queda 1", "le quedan 2"]
    assert [t("gold_left_then", count=n) for n in (1, 3)] == ["le quedó 1 de oro", "le quedaron 3 de oro"]
    valeria = load_game("shadow_kingdoms_of_valeria")
    t = namer(valeria, ["Ana"])["t"]
    assert [t("gems", count=n) for n in (0, 1, 2)] == ["0 Gems", "1 Gem", "2 Gems"]
    btt = load_game("behind_the_throne")
    assert namer(btt, ["Ana"])["t"]("named_cards", count=2, card=Noun("Jester")) == "2 Jester cards"


def test_the_examples_say_counted_words_in_their_plural_form():
    from pnp.rulebook.chapters import load_config
    from pnp.rulebook.component import engine_examples

    def told(game_id, lang="en"):
        game = translate(load_game(game_id), lang)
        return " ".join(" ".join(str(s).split()) for ex in engine_examples(game, load_config(game), lang).values()
                        for s in (ex.setup, *ex.steps, *ex.outcome))

    queen = told("shadow_queen")
    assert "moves 1 hex from" in queen and "rolls 1 die for the defence" in queen
    valeria = told("shadow_kingdoms_of_valeria")
    assert "1 Gem and" in valeria and "0 Gems and" in valeria
    spanish = told("shadow_throne", "es")
    assert "le queda 1." in spanish and "le quedan 2." in spanish


def test_a_spanish_name_without_its_gender_is_an_error_at_the_template_line_that_puts_the_article(tmp_path):
    game_dir = tmp_path / "shadow_throne"
    shutil.copytree(DATA_DIR / "shadow_throne", game_dir)
    es = game_dir / "i18n" / "es.yaml"
    es.write_text(es.read_text().replace("outlaw: {name: Forajido, gender: masculine,", "outlaw: {name: Forajido,"))
    events = game_dir / "templates" / "events" / "es.j2"
    line = next(i for i, t in enumerate(events.read_text().splitlines(), 1) if t.startswith("{%- macro a_chs("))
    result = CliRunner().invoke(main, ["validate", str(game_dir), "--lang", "es", "--no-cache"])
    assert result.exit_code == 2
    assert (f"events/es.j2:{line}: event 'convert': GrammarError: 'Forajido' needs its gender for an article in "
            f"'es': give cards.outlaw.gender (one of masculine, masculine plural, feminine, feminine plural, "
            f"neuter, neuter plural) in i18n/es.yaml, or in the data for the game's own language") in result.output


def test_a_plural_the_data_does_not_give_is_inflect_s_in_english_and_asked_for_in_another_language(tmp_path):
    queen_dir = tmp_path / "shadow_queen"
    shutil.copytree(DATA_DIR / "shadow_queen", queen_dir)
    queen_yaml = queen_dir / "game.yaml"
    queen_yaml.write_text(re.sub(r" plural: [A-Za-z ]+,", "", queen_yaml.read_text()))
    queen = load_game(str(queen_dir))
    assert [h.plural for h in queen.holdings] == ["Strongholds", "Slave Pens", "Churches", "Villages"]
    assert [p.plural for p in queen.pieces][:3] == ["Shadows", "Familiars", "Thralls"]
    game_dir = tmp_path / "shadow_throne"
    shutil.copytree(DATA_DIR / "shadow_throne", game_dir)
    path = game_dir / "game.yaml"
    text = path.read_text()
    assert "  - {id: elite, name: Elite, plural: elites, pips: 2}\n" in text
    path.write_text(text.replace("  - {id: elite, name: Elite, plural: elites, pips: 2}\n",
                                 "  - {id: elite, name: Wolf, pips: 2}\n"))
    assert load_game(str(game_dir)).rank("elite").plural == "wolves"
    path.write_text(path.read_text().replace("language: en", "language: es"))
    line = next(i for i, t in enumerate(path.read_text().splitlines(), 1) if "id: elite" in t)
    problems = Problems()
    game = load_game(str(game_dir), problems)
    assert game.rank("elite").plural == "wolf"
    assert [(p.line, p.subject, p.message) for p in problems.warnings if p.subject == "rank 'elite'"] == [
        (line, "rank 'elite'", "plural: not given, and pnp makes the plurals of English names only (the game's "
                               "language is 'es'): give it; the kit prints 'wolf' where it needs the plural")]


def test_a_name_the_translation_leaves_untranslated_is_said_as_a_foreign_name_and_only_warned_about(tmp_path):
    from pnp.rulebook.chapters import load_config
    from pnp.rulebook.component import engine_examples

    game_dir = tmp_path / "shadow_throne"
    shutil.copytree(DATA_DIR / "shadow_throne", game_dir)
    es = game_dir / "i18n" / "es.yaml"
    line = "  outlaw: {name: Forajido, gender: masculine, flavour: El camino paga mejor de lo que pagó nunca el rey.}\n"
    assert line in es.read_text()
    es.write_text(es.read_text().replace(line, ""))
    result = CliRunner().invoke(main, ["validate", str(game_dir), "--no-cache"])
    assert result.exit_code == 0, result.output
    assert ("language 'es': 2 printed strings are not translated (pnp validate --lang es lists them; a build in "
            "'es' needs --allow-missing)") in result.output
    game = translate(load_game(str(game_dir)), "es")
    example = engine_examples(game, load_config(game), "es")["convert_and_embolden"]
    told = " ".join(example.steps)
    assert "El Pastor de los Perdidos de Ben convierte a Outlaw de Ana" in told
    assert "da +1 de poder a Outlaw de Ana" in told


def test_a_chapter_the_translation_lacks_says_its_articles_in_the_language_it_is_written_in(tmp_path):
    from pnp.rulebook.chapters import chapter_markup, load_config
    from pnp.rulebook.component import context
    from pnp.text.grammar import written_in

    game_dir = tmp_path / "shadow_throne"
    shutil.copytree(DATA_DIR / "shadow_throne", game_dir)
    (game_dir / "templates" / "rulebook" / "es" / "overview.md.j2").unlink()      # the English one prints
    english = game_dir / "templates" / "rulebook" / "en" / "overview.md.j2"
    english.write_text(english.read_text() + '\n{% for card in game.cards if card.id == "outlaw" %}'
                                             'Whoever is robbed takes {{ card|a }}.{% endfor %}\n')
    game = translate(load_game(str(game_dir)), "es")
    cfg = load_config(game)
    chapters = dict(chapter_markup(game, cfg, context(game, cfg, "es"), "es"))
    overview = next(markup for path, markup in chapters.items() if str(path).endswith("en/overview.md.j2"))
    assert "Whoever is robbed takes un Forajido." not in overview
    assert "Whoever is robbed takes a Forajido." in overview        # English's article, the Spanish name
    folder = game_dir / "templates" / "rulebook"
    assert written_in(folder / "es" / "rules.md.j2", folder, "es", "en") == "es"
    assert written_in(folder / "en" / "rules.md.j2", folder, "es", "en") == "en"
    assert written_in(DATA_DIR.parent / "templates" / "rulebook" / "common" / "contents.md.j2", folder, "es", "en") == "es"
