"""Languages: the Spanish edition is complete, validated key by key, and used everywhere in the kit."""


import pypdf
import pytest
from click.testing import CliRunner

from pnp.commands.cli import main
from pnp.loading.gamedata import load_game
from pnp.loading.i18n import translate
from pnp.validation.translations import check_language, sources
from pnp.errors import Problems
from rasterize import page_texts


@pytest.fixture(scope="module")
def game():
    return load_game("shadow_throne")


def test_spanish_has_every_key_and_fits(game):
    """No missing or unused key in es, and every translated text fits its box."""
    result = CliRunner().invoke(main, ["validate", "--lang", "es"])
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith("language es: valid")
    problems = Problems()
    check_language(game, "es", problems)
    assert list(problems) == []


def test_expected_keys_cover_every_printed_name(game):
    keys = {s.key for s in sources(game)}
    assert {f"cards.{c.id}.name" for c in game.cards} <= keys
    assert {f"factions.{f.id}.adjective" for f in game.factions} <= keys
    assert "box.pitch" in keys and "examples.hush_money" in keys


def test_translated_game_uses_the_spanish_edition_terms(game):
    es = translate(game, "es")
    assert [f.name for f in es.factions] == ["Imperio", "Rebeldes", "Iglesia"]
    assert [r.name for r in es.ranks] == ["Plebeyo", "Élite", "Noble"]
    assert es.card("outlaw").name == "Forajido"
    assert es.card("shepherd-of-the-lost").name == "Pastor de los Perdidos"
    assert es.card("outlaw").stats == game.card("outlaw").stats   # facts do not change
    assert es.language == "es" and es.source_language == "en"


def line_of(text, needle):
    return next(i for i, l in enumerate(text.splitlines(), 1) if needle in l)


def test_missing_and_unused_keys_name_file_and_line(game_copy):
    path = game_copy / "i18n" / "es.yaml"
    text = path.read_text()
    text = text.replace("  outlaw: {name: Forajido, gender: masculine, flavour: El camino paga mejor de lo que pagó nunca el rey.}\n", "")
    text = text.replace("  langman: {name:", "  langmann: {name:")
    path.write_text(text)
    result = CliRunner().invoke(main, ["validate", str(game_copy), "--lang", "es"])
    assert result.exit_code == 2
    out = result.output
    cards = game_copy / "cards.yaml"
    outlaw, langman = (line_of(cards.read_text(), f"id: {i}") for i in ("outlaw", "langman"))
    assert (f"{cards}:{outlaw}: card 'outlaw': name 'Outlaw' is not translated into 'es': give cards.outlaw.name "
            f"in i18n/es.yaml") in out
    # the misspelt id is one problem: the card it meant is not also listed as untranslated
    assert f"{cards}:{langman}: card 'langman'" not in out and "give cards.langman." not in out
    assert (f"{path}:{line_of(text, 'langmann')}: language 'es': unused key 'cards.langmann': the game has no card "
            f"'langmann'; did you mean 'langman'?") in out


def test_missing_strings_key_is_reported(game, tmp_path, monkeypatch):
    import pnp.loading.i18n as i18n
    es = (i18n.strings_path("es")).read_text().replace("token_fold_note:", "token_fold_notes:")
    fake = tmp_path / "es.yaml"
    fake.write_text(es)
    real = i18n.strings_path
    import pnp.validation.translations
    monkeypatch.setattr(i18n, "strings_path", lambda lang: fake if lang == "es" else real(lang))
    monkeypatch.setattr(pnp.validation.translations, "strings_path", i18n.strings_path)
    problems = Problems()
    check_language(game, "es", problems)
    messages = [str(p) for p in problems]
    # one message at the game's translation, whose strings: may give it, with the English words to paste
    missing = [p for p in problems if "token_fold_note:" in p.message]
    assert [(p.path, p.subject) for p in missing] == [(str(game.root / "i18n" / "es.yaml"), "language 'es'")]
    assert missing[0].message == (
        "1 of pnp's printed words is not translated into 'es': give it under strings: in i18n/es.yaml; it is the "
        "words in 'en', ready to paste there and translate:\nstrings:\n  token_fold_note: Fold along the grey line "
        "with the printed sides out and glue, then cut along the pink lines.")
    assert any("unused key 'token_fold_notes'" in m and f"{fake}:" in m for m in messages)


def test_unknown_language_is_refused():
    result = CliRunner().invoke(main, ["build", "--lang", "fr", "--out", "/tmp/never-written"])
    assert result.exit_code == 2
    assert "Shadow Throne has no translation into 'fr' (available: en, es)" in result.output


@pytest.fixture(scope="module")
def spanish_kit(built_kit):
    return built_kit("shadow_throne", "es", "a4")       # shared with test_print_audit (read only)


def text_of(path):
    return " ".join(" ".join(t.split()) for t in page_texts(path))


def test_spanish_kit_prints_spanish_everywhere(spanish_kit):
    cards = text_of(spanish_kit / "cards-fronts.pdf")
    assert "Forajido" in cards and "PLEBEYO" in cards and "Referencia rápida" in cards
    assert "Outlaw" not in cards
    assert "Mata a cada" in cards
    rulebook = text_of(spanish_kit / "rulebook.pdf")
    for term in ("Oro por Silencio", "oleada", "Jugadores pobres", "Índice", "Referencia rápida"):
        assert term in rulebook
    assert "Fichas de oro" in rulebook
    kit = pypdf.PdfReader(str(spanish_kit / "kit.pdf"))
    assert [o.title for o in kit.outline][:4] == ["Instrucciones", "Marcador de Poder", "Frentes de las cartas",
                                                  "Dorsos de las cartas"]
    assert "kit para imprimir y jugar" in text_of(spanish_kit / "kit.pdf")
    assert "MARCADOR DE PODER" in text_of(spanish_kit / "power-track.pdf").upper()
    box = text_of(spanish_kit / "box.pdf")
    assert "cartas de personaje" in box and "En esta caja".upper() in box.upper()


def test_spanish_examples_are_engine_prose_in_spanish(game, spanish_kit):
    from pnp.rulebook.component import engine_examples, phrases
    from pnp.rulebook.chapters import load_config
    from rules_engine import engine_module

    es = translate(game, "es")
    example = engine_examples(es, load_config(es), "es")["convert_and_embolden"]
    assert example.title == "Ejemplo: una oleada, dos habilidades a la vez"
    assert "El Pastor de los Perdidos (Ben) convierte al Forajido (Ana) a la Iglesia." in example  # the log
    assert phrases(engine_module("shadow_throne"), "es")["wave_start"] == "-- Oleada {wave} --"
    from rasterize import booklet_text
    rulebook = booklet_text(spanish_kit / "rulebook.pdf")
    for sentence in (example.setup, *example.steps, *example.outcome):
        assert " ".join(sentence.replace("*", "").replace("\u2019", "'").split()) in rulebook, sentence


@pytest.mark.parametrize("name, missing", [
    ("behind_the_throne", "box: contents item 'rulebook' is not translated into 'es': give box.items.rulebook in "
                          "i18n/es.yaml"),
    ("shadow_kingdoms_of_valeria", "layout 'player_board', region 'camp-head': text: the literal 'Camp' cannot be "
                                   "translated: write t('camp') with strings: {camp: ...} in i18n/en.yaml and "
                                   "i18n/es.yaml"),
    ("shadow_queen", "map holding 'stronghold': name 'The Stronghold' is not translated into 'es': give "
                     "map.holdings.stronghold in i18n/es.yaml"),
])
def test_games_that_do_not_claim_spanish_say_what_is_missing(name, missing):
    """Only Shadow Throne has a Spanish edition; the others claim English alone, and --lang es lists
    everything a Spanish translation would have to give instead of passing half English."""
    result = CliRunner().invoke(main, ["validate", name, "--lang", "es"])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if "placeholder" not in line]
    assert lines[0].endswith(f"language 'es': {load_game(name).title} has no translation into 'es' (available: en); "
                             f"what a translation must give:")
    assert any(line.endswith(missing) for line in lines), result.output
    assert not any("warning" in line for line in lines)


def test_map_holdings_print_in_the_kit_language(tmp_path):
    """The names a hex map file gives its holdings are printed words too (``map.holdings.<id>``)."""
    import shutil

    from pnp.components.hexmap import config_of, map_layout
    from pnp.loading.gamedata import DATA_DIR
    from pnp.layout.geometry import Text, flatten

    game_dir = tmp_path / "shadow_queen"
    shutil.copytree(DATA_DIR / "shadow_queen", game_dir)
    (game_dir / "i18n" / "es.yaml").write_text("map:\n  holdings: {stronghold: La Fortaleza}\n")
    game = load_game(game_dir)
    names = {el.markup for el in flatten(map_layout(translate(game, "es"), config_of(None), "es").elements)
             if isinstance(el, Text) and el.role == "holding-name"}
    assert "La Fortaleza" in names and "The Stronghold" not in names and "West Pen" in names
    problems = Problems()
    check_language(game, "es", problems, allow_missing=True)
    assert not any("map.holdings.stronghold" in p.message for p in problems)
    assert any(p.message.startswith("name 'West Pen' is not translated into 'es'") for p in problems)


def test_a_misspelt_printed_word_is_a_warning_at_its_line(tmp_path):
    """Found by the generated games (issue 32): a misspelt key under strings: (tokens_socre for the token
    kind 'score', a misspelt override of one of pnp's words) printed the kind's id (pnp's own word)
    silently. A key that is a letter or two from such a word the file does not give, and that nothing of the
    game asks for, is a warning naming the word; a game's own word its layouts ask for is left alone."""
    root = tmp_path / "g"
    assert CliRunner().invoke(main, ["new", str(root)]).exit_code == 0
    (root / "i18n").mkdir(exist_ok=True)                     # the starter names its kinds there: replaced
    (root / "i18n" / "en.yaml").write_text("strings:\n  tokens_scor: Score markers\n  instructoins: How to build\n"
                                           "  spark_tokens: Sparks\n")
    layout = root / "templates" / "layouts" / "starter.yaml"      # a word of the game's own, asked for by name
    layout.write_text(layout.read_text() + "  - {name: note, kind: text, rect: [6, 4, 30, 4], "
                                           "text: \"t('spark_tokens')\"}\n")
    result = CliRunner().invoke(main, ["validate", str(root), "--no-cache"])
    assert result.exit_code == 0, result.output
    path = root / "i18n" / "en.yaml"
    assert [line for line in result.output.splitlines() if ": warning: language 'en': strings:" in line] == [
        f"{path}:2: warning: language 'en': strings: 'tokens_scor' is no printed word of pnp's nor a token kind's, "
        f"and nothing of the game asks for it with t('tokens_scor'); did you mean 'tokens_score' (the printed word "
        f"of token kind 'score')?",
        f"{path}:3: warning: language 'en': strings: 'instructoins' is no printed word of pnp's nor a token kind's, "
        f"and nothing of the game asks for it with t('instructoins'); did you mean 'instructions' (pnp's printed "
        f"word)?"]
    # and the kinds the misspelt key leaves without a word are told at their tokens
    assert sum(": warning: token kind 'score': has no printed word" in line for line in result.output.splitlines()) == 1
