"""A quicker ``__init__`` for the frozen dataclasses pnp makes by the hundred thousand (a deck's faces:
rectangles, texts, icons, the atoms of their markup).

A frozen dataclass's own ``__init__`` sets each field through ``object.__setattr__`` (its
``__setattr__`` refuses): about 1.5 us for a four-field rectangle, most of a 20,000-card validation's
time in making them. :func:`quick_init` gives such a class an ``__init__`` with the same parameters,
defaults and ``__post_init__`` call that writes the fields into the instance's ``__dict__`` at once
(0.7 us): the same instance, as equal, hashed and printed as before, still frozen to everyone else.
A class it cannot do so exactly for (slots, a field left out of ``__init__`` or keyword-only, an
``InitVar``) keeps its own.
"""

from __future__ import annotations

import dataclasses

_MISSING = dataclasses.MISSING


class _Factory:
    """The default of a parameter whose field has a ``default_factory`` (called when it is left out)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def quick_init(cls):
    """``cls`` (a frozen dataclass) with the quicker ``__init__`` described above; a class decorator, put
    above ``@dataclass(frozen=True)``."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" in cls.__dict__:
        return cls
    every = getattr(cls, "__dataclass_fields__", {})
    fields = dataclasses.fields(cls)
    if len(fields) != len(every) or any(not f.init or f.kw_only for f in fields):
        return cls                    # an InitVar or a ClassVar, a field out of __init__, keyword-only ones
    names = [f.name for f in fields]
    if any(not n.isidentifier() or n.startswith("__") for n in names):
        return cls
    defaults, factories = {}, {}
    args = []
    for f in fields:
        if f.default is not _MISSING:
            defaults[f"_d_{f.name}"] = f.default
            args.append(f"{f.name}=_d_{f.name}")
        elif f.default_factory is not _MISSING:
            factories[f"_f_{f.name}"] = f.default_factory
            args.append(f"{f.name}=_FACTORY")
        else:
            args.append(f.name)
    body = [f"    if {f.name} is _FACTORY: {f.name} = _f_{f.name}()" for f in fields
            if f.default is _MISSING and f.default_factory is not _MISSING]
    body.append("    _d = self.__dict__")
    body += [f"    _d[{n!r}] = {n}" for n in names]
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    source = f"def __init__(self, {', '.join(args)}):\n" + "\n".join(body) + "\n"
    scope = {"_FACTORY": _FACTORY, **defaults, **factories}
    exec(source, scope)               # noqa: S102 - made of the class's own field names, checked above
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init
    return cls
