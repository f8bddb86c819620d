"""pnp.text.markup.escape looks for markup characters before it replaces them (most data has none); its
result is the one of replacing unconditionally, for any text."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.text.markup import Safe, escape


def replacing(value) -> str:
    """escape as it was: every replacement made whether or not the text needs it."""
    text = " ".join(str(value).split())
    text = re.sub(r"([\\*\[\]|{}])", r"\\\1", text)
    if text[:1] in set("#-!>"):
        text = "\\" + text
    return re.sub(r"^(\d+)([.)])", r"\1\\\2", text)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab 7\u0663\u00b2.)#-!>*[]|{}\\\n\t:")) | st.characters(), max_size=24))
def test_escape_is_the_unconditional_replacement(text):
    assert escape(text) == replacing(text)


def test_escaped_data_prints_as_written():
    assert escape("12. Dawn") == "12\\. Dawn"                        # not a numbered item
    assert escape("- not a bullet") == "\\- not a bullet"
    assert escape("a *star* and  [coin]\n") == "a \\*star\\* and \\[coin\\]"
    plain = escape("plain words")
    assert plain == "plain words" and isinstance(plain, Safe) and escape(plain) is plain
