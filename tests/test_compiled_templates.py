"""Templates compiled once per process (pnp.text.templating.CompiledTemplates): a rebuild after ``pnp watch``
clears the environments does not compile a template whose source did not change, and compiles an
edited one again."""

import jinja2

from pnp.cache import memo as cache
from pnp.text import templating


def _compiles(monkeypatch) -> list:
    seen = []
    real = templating.MarkupSandbox.compile

    def counted(self, source, name=None, filename=None, *args, **kwargs):
        seen.append(name)
        return real(self, source, name, filename, *args, **kwargs)

    monkeypatch.setattr(templating.MarkupSandbox, "compile", counted)
    return seen


def test_a_template_unchanged_is_compiled_once(tmp_path, monkeypatch):
    (tmp_path / "a.md.j2").write_text("{% for i in items %}{{ i }} {% endfor %}.\n")
    seen = _compiles(monkeypatch)
    render = templating.renderer(items=[1, 2])
    for _ in range(3):
        cache.clear()               # what pnp watch does before each rebuild
        env = templating.environment((tmp_path,))
        assert str(render(env.get_template("a.md.j2"))) == "1 2 .\n"
    assert seen == ["a.md.j2"]


def test_an_edited_template_is_compiled_again(tmp_path, monkeypatch):
    path = tmp_path / "b.md.j2"
    path.write_text("one {{ x }}\n")
    seen = _compiles(monkeypatch)
    env = templating.environment((tmp_path,))
    assert str(templating.render(env.get_template("b.md.j2"), x=1)) == "one 1\n"
    path.write_text("two {{ x }}\n")
    cache.clear()
    env = templating.environment((tmp_path,))
    assert str(templating.render(env.get_template("b.md.j2"), x=1)) == "two 1\n"
    assert seen == ["b.md.j2", "b.md.j2"]


def test_options_that_change_the_code_keep_their_own_compiled_templates(tmp_path):
    """trim_blocks changes what a template prints: the same file under both settings prints each its way."""
    (tmp_path / "c.md.j2").write_text("{% if true %}\nyes\n{% endif %}\n")
    trimmed = templating.environment((tmp_path,), trim=True).get_template("c.md.j2")
    kept = templating.environment((tmp_path,), trim=False).get_template("c.md.j2")
    assert str(templating.render(trimmed)) == "yes\n"
    assert str(templating.render(kept)) == "\nyes\n\n"
    assert isinstance(templating.environment((tmp_path,)).bytecode_cache, jinja2.BytecodeCache)


def test_a_macro_given_parts_of_the_converted_game_does_not_convert_them_again(tmp_path, monkeypatch):
    """call_macro finds what the game's conversion already holds (a worked example calls a macro per
    event with the game's facts): the same markup as a conversion of its own, text still escaped."""
    from pnp.loading.gamedata import load_game

    game = load_game("shadow_kingdoms_of_valeria")
    (tmp_path / "m.j2").write_text("{% macro say(facts, text) %}{{ facts.players }} {{ text }}{% endmacro %}")
    say = templating.environment((tmp_path,)).get_template("m.j2").module.say
    monkeypatch.setattr(templating, "_CONVERTED", {"game": None, "memo": {}})
    alone = templating.call_macro(say, game.facts, "**x** [coin]")
    # a part of the game converted, as a card face converts what it shows (the whole game is converted
    # when a render needs it: then call_macro finds the parts there)
    templating.game_part(game, game.facts)
    calls = []
    real = templating.data_value

    def counted(value, memo=None):
        calls.append(value)
        return real(value, memo)
    monkeypatch.setattr(templating, "data_value", counted)
    again = templating.call_macro(say, game.facts, "**x** [coin]")
    assert again == alone and r"\*\*x\*\* \[coin\]" in again
    assert len(calls) == 2                              # the facts found at once; only the text converted
    fresh = {"players": "<2-5>"}                        # not the game's: converted as ever
    items = []                                          # (a plain text or number of a container is converted
    real_item = templating._item                        # by _item, without a data_value call of its own)
    monkeypatch.setattr(templating, "_item", lambda value, memo: items.append(value) or real_item(value, memo))
    assert templating.call_macro(say, fresh, "") == "<2-5> "
    assert len(calls) == 4 and items == ["players", "<2-5>"]
