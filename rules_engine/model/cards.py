"""Language-neutral game facts as frozen dataclasses, shared by the rules engine and the kit builder.

``pnp`` reads and validates the YAML and builds these objects; the engine only ever sees them, so it
needs no YAML or drawing code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: ``Card.placeholder`` of an entry invented as a whole (``placeholder: true`` in the data).
WHOLE_PLACEHOLDER = "*"


@dataclass(frozen=True)
class Param:
    """One parameter an effect kind accepts (checked by ``pnp validate``), a card key the rules read, or a
    game option an engine declares in ``OPTIONS`` (its tunable parameters: ``rule`` names the rule the
    option changes, for ``pnp lab`` and docs/engine.md)."""

    type: str                      # int, str, bool, list (of ints), steps (a list of the engine's STEPS)
    required: bool = False
    default: Any = None
    choices: tuple | None = None
    min: int | None = None
    max: int | None = None
    doc: str = ""
    rule: str = ""                 # options: the rule of the game the parameter changes


@dataclass(frozen=True)
class EffectKind:
    """What an effect kind is called, which parameters it takes, and whether it resolves at a step."""

    name: str
    params: dict
    doc: str
    needs_step: bool = True
    category: str | None = None    # printed ability type, e.g. manipulative / protective / prohibitive


@dataclass(frozen=True, eq=True)
class Ability:
    """A card's ability: its effect kind, the step it resolves at (None: no step) and the kind's parameters."""

    kind: str
    step: int | None
    params: dict = field(default_factory=dict, hash=False, compare=True)

    def get(self, key, default=None):
        return self.params.get(key, default)


@dataclass(frozen=True)
class Grammar:
    """How a printed name is said in a sentence of its language, as the data gives it: its grammatical
    ``gender`` (``masculine``, ``feminine``, ``neuter``; None when the data gives none), whether it is
    ``plural`` (the Rebels), and whether it takes an ``article`` (a personal name does not: "Anna Lys").
    pnp's template filters put articles by it (``{{ card|al }}``: "al Forajido", "a la Guardia")."""

    gender: str | None = None
    plural: bool = False
    article: bool = True


@dataclass(frozen=True)
class Faction:
    """A faction: its id, printed name, the adjective card text uses, its colour and its emblem icon, and
    how its name is said (``grammar``)."""

    id: str
    name: str
    adjective: str
    colour: str
    emblem: str
    grammar: Grammar = Grammar()


@dataclass(frozen=True)
class Rank:
    """A rank: its id, printed name and plural, and the pips printed for it."""

    id: str
    name: str
    plural: str
    pips: int


@dataclass(frozen=True)
class Card:
    """One distinct card. ``stats`` holds the value of every field its deck declares (an int, a text, a
    choice, a list or a flag; None when the card leaves an optional one out); ``deck`` is its deck's id.
    ``placeholder`` says what of it was invented where the source is silent: ``()`` nothing,
    ``(WHOLE_PLACEHOLDER,)`` the whole card, else the names of the invented keys (``("copies",)``).
    ``side_b``: a double-sided card's second face (a card of the same id, copies, faction and rank, with
    its own name, stats and flavour and no ability), or None for a card with one face. ``grammar``: how its
    name is said in a sentence (:class:`Grammar`)."""

    id: str
    name: str
    copies: int
    faction: str | None
    rank: str | None
    stats: dict = field(default_factory=dict, hash=False)
    ability: Ability | None = None
    flavour: str = ""
    deck: str = "cards"
    placeholder: tuple = ()
    side_b: "Card | None" = None
    grammar: Grammar = Grammar()

    def invented(self, key: str | None = None) -> bool:
        """Whether the card (``key=None``: any of it) or its value of ``key`` is a placeholder."""
        if not self.placeholder:
            return False
        return key is None or WHOLE_PLACEHOLDER in self.placeholder or key in self.placeholder

    def stat(self, name: str, default: int = 0) -> int:
        value = self.stats.get(name)
        return default if value is None else value

    def value(self, name: str, default=None):
        """The card's value of field ``name`` (any type), or ``default``."""
        value = self.stats.get(name)
        return default if value is None else value
