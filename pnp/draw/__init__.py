"""Painting: the only package that imports reportlab. It turns layout elements (mm) into PDF pages."""

import re
import sys

from reportlab import rl_config

# streams compressed only, not also spelt in ASCII85 (a quarter bigger, and time to encode): PDFs are
# binary files anyway (https://docs.reportlab.com/reportlab/userguide/ch2_graphics/, rl_settings)
rl_config.useA85 = 0

#: reportlab.platypus.paragraph's pattern for web addresses, as its module compiles it on import (with
#: IGNORECASE). Its character classes span U+00A1-U+FFFF, which Python's ``re`` spends some 60 ms
#: expanding for case folding: a tenth of a whole `pnp build`, for a pattern only hyphenation of
#: address-like words reads (never in pnp's pages).
URI_PATTERN = ('(^(?:[a-z0-9\\.\\-\\+]*)://)(?:\\S+(?::\\S*)?@)?(?:(?:25[0-5]|2[0-4]\\d|[0-1]?\\d?\\d)(?:\\.(?:25'
               '[0-5]|2[0-4]\\d|[0-1]?\\d?\\d)){3}|\\[[0-9a-f:\\.]+\\]|([a-z\xa1-\uffff0-9](?:[a-z\xa1-\uffff0-9-]'
               '{0,61}[a-z\xa1-\uffff0-9])?(?:\\.(?!-)[a-z\xa1-\uffff0-9-]{1,63}(?<!-))*\\.(?!-)(?:[a-z\xa1-\uffff-]'
               '{2,63}|xn--[a-z0-9]{1,59})(?<!-)\\.?|localhost))(?::\\d{2,5})?(?:[/?#][^\\s]*)?\\Z')


class CompiledOnFirstUse:
    """A regular expression compiled the first time it is used rather than when it is made; otherwise
    the compiled pattern itself (every attribute is the compiled pattern's)."""

    __slots__ = ("_args", "_compiled")

    def __init__(self, pattern: str, flags: int = 0):
        self._args, self._compiled = (pattern, flags), None

    def __getattr__(self, name):
        if self._compiled is None:
            from re import _compiler    # the compiler itself: re.compile would answer with this object

            self._compiled = _compiler.compile(*self._args)
        return getattr(self._compiled, name)


def _defer_uri_pattern() -> None:
    """Have reportlab's address pattern (:data:`URI_PATTERN`) compiled on first use: ``re.compile`` answers
    from its cache of compiled patterns, so an entry placed there before reportlab.platypus is imported
    is what the paragraph module gets. Should reportlab's pattern or ``re``'s cache change, nothing
    matches and the pattern is compiled on import as before."""
    cache = getattr(re, "_cache", None)
    if isinstance(cache, dict) and "reportlab.platypus.paragraph" not in sys.modules:
        cache[(str, URI_PATTERN, re.IGNORECASE.value)] = CompiledOnFirstUse(URI_PATTERN, re.IGNORECASE)


_defer_uri_pattern()
