"""Static facts of a Behind the Throne game, compiled once from :class:`~rules_engine.model.cards.Card` objects.

Every distinct card is a *kind* (its index in the card list); every physical card of the full deck is a
*number* (copies expanded in card-list order). A smaller table plays with fewer copies of each
character: the deck for ``players`` takes the first copies of each kind (see :meth:`Rules.deck`).
"""

from __future__ import annotations

from typing import Mapping, Sequence

from rules_engine.behind_the_throne.effects import EFFECTS, MANIPULATIVE, PROTECTIVE, SWAP, VALUE_KINDS
from rules_engine.model.cards import Card

#: Cards a player may reveal in one turn.
ROW_LIMIT = 5
#: Stacks a player may keep, and cards in one stack.
MAX_STACKS = 5
STACK_LIMIT = 5
#: A stack scores its character's value from this many cards.
SCORING_SIZE = 2
#: Safety net: a game stops after this many turns (never reached in practice).
TURN_LIMIT = 1000
MAX_PLAYERS = 9


class Rules:
    """Compiled card tables. Raises ``ValueError`` when the cards cannot make a game.

    ``deck_by_players`` maps a player count to ``{card id: copies}`` for tables that play with fewer
    copies (``rules_for(game)`` fills it from game.yaml's ``deck.max_copies_by_players``); other counts
    play with every copy.
    """

    def __init__(self, cards: Sequence[Card], factions: Sequence | None = None, *,
                 deck_by_players: Mapping[int, Mapping[str, int]] | None = None):
        self.cards = tuple(cards)
        self.factions = tuple(getattr(f, "id", f) for f in (factions or ()))
        self.card_by_id = {c.id: c for c in self.cards}
        self.index = {c.id: k for k, c in enumerate(self.cards)}
        nk = len(self.cards)
        self.value = [0] * nk            # printed value (0 for the End of Game card)
        self.category = [None] * nk      # manipulative / protective / prohibitive / None
        self.ability_kind = [None] * nk
        self.lower = [0] * nk            # lower_value amount
        self.shift = [0] * nk            # shift_value amount
        self.peek = [False] * nk
        self.reuse = [False] * nk
        self.shield_swap, self.shield_destroy = [], []     # kinds
        self.hinder_swap, self.hinder_destroy = [], []     # (kind, margin)
        self.manipulative = []           # kinds with a manipulative ability
        ends = []
        for k, card in enumerate(self.cards):
            ability = card.ability
            if ability is not None:
                spec = EFFECTS.get(ability.kind)
                if spec is None:
                    raise ValueError(f"card {card.id!r}: no handler for effect kind {ability.kind!r}")
                params = {name: p.default for name, p in spec.params.items()}
                params.update(ability.params)
                self.ability_kind[k] = ability.kind
                self.category[k] = spec.category
                kind = ability.kind
                if kind == "end_game":
                    ends.append(k)
                elif kind == "lower_value":
                    self.lower[k] = params["amount"]
                elif kind == "shift_value":
                    self.shift[k] = params["amount"]
                elif kind == "peek":
                    self.peek[k] = True
                elif kind == "reuse_ability":
                    self.reuse[k] = True
                elif kind == "shield":
                    (self.shield_swap if params["against"] == SWAP else self.shield_destroy).append(k)
                elif kind == "hindrance":
                    entry = (k, params["margin"])
                    (self.hinder_swap if params["blocks"] == SWAP else self.hinder_destroy).append(entry)
                if spec.category == MANIPULATIVE:
                    self.manipulative.append(k)
            value = card.stats.get("value") if card.stats else None
            if k not in ends:
                if value is None:
                    raise ValueError(f"card {card.id!r}: a character needs a value")
                self.value[k] = value
        if len(ends) != 1 or self.cards[ends[0]].copies != 1:
            raise ValueError("the deck needs exactly one End of Game card (ability kind end_game, 1 copy)")
        self.end_kind = ends[0]
        self.protective = [k for k in range(nk) if self.category[k] == PROTECTIVE]
        self.value_kinds = [k for k in range(nk) if self.ability_kind[k] in VALUE_KINDS]
        self.reuse_kinds = [k for k in self.manipulative if self.reuse[k]]
        self.peek_kinds = [k for k in self.manipulative if self.peek[k]]
        self.characters = [k for k in range(nk) if k != self.end_kind]

        kind_of, numbers = [], {}
        for k, card in enumerate(self.cards):
            numbers[card.id] = tuple(range(len(kind_of), len(kind_of) + card.copies))
            kind_of.extend([k] * card.copies)
        self.copies_of = numbers                       # card id -> physical numbers (full deck)
        self.kind_of = tuple(kind_of)                  # physical number -> kind
        self.value_of = tuple(self.value[k] for k in kind_of)
        self.ncards = len(kind_of)
        self.end_card = numbers[self.cards[self.end_kind].id][0]
        self.deck_by_players = {int(n): dict(copies) for n, copies in (deck_by_players or {}).items()}
        self._decks = {}

    # ------------------------------------------------------------------ decks

    def copies(self, players: int | None = None) -> dict[str, int]:
        """Copies of each card id in the deck for ``players`` (the full deck when None or not capped)."""
        caps = self.deck_by_players.get(players) if players is not None else None
        return {c.id: min(c.copies, caps.get(c.id, c.copies)) if caps else c.copies for c in self.cards}

    def deck(self, players: int | None = None) -> tuple[int, ...]:
        """The physical card numbers in play for ``players``: the first copies of each card."""
        key = players if players in self.deck_by_players else None
        if key not in self._decks:
            copies = self.copies(key)
            self._decks[key] = tuple(n for c in self.cards for n in self.copies_of[c.id][:copies[c.id]])
        return self._decks[key]

    # ------------------------------------------------------------------ names

    def card_id(self, number: int) -> str:
        return self.cards[self.kind_of[number]].id

    def kind_id(self, kind: int) -> str:
        return self.cards[kind].id

    def max_players(self) -> int:
        return MAX_PLAYERS


def rules_for(game) -> Rules:
    """Compile a loaded game (``.cards``, ``.factions``, ``.players``, ``.copies_for``) for the engine."""
    caps = {}
    copies_for = getattr(game, "copies_for", None)
    lo, hi = getattr(game, "players", (1, MAX_PLAYERS))
    if copies_for is not None:
        for n in range(max(lo, 1), max(hi, 1) + 1):
            copies = {c.id: copies_for(c, n) for c in game.cards}
            if any(copies[c.id] != c.copies for c in game.cards):
                caps[n] = copies
    return Rules(game.cards, getattr(game, "factions", ()), deck_by_players=caps)
