"""Static facts of a Shadow Throne game, compiled once from :class:`~rules_engine.model.cards.Card` objects.

The hot path never touches ``Card`` objects or dicts: every physical card (copies expanded, numbered
0..53 in the order of the card list) gets its faction, rank, power, influence, gold change and ability
in flat tuples indexed by that number.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from rules_engine.model.cards import Card
from rules_engine.shadow_throne.effects import EFFECTS, HANDLERS, RANKS

#: Ability steps, in the order they resolve.
STEPS = (1, 2, 3)
WAVES = 4
POOL_SIZE = 6
START_GOLD = 3
#: A game still running after this many battles stops (a safety net; never reached in practice).
MAX_BATTLES = 100
GOAL = 15
FACTIONS = ("empire", "rebels", "church")


class CompiledAbility(NamedTuple):
    kind: str
    step: int | None
    handler: object
    params: object


class Rules:
    """Compiled static facts: card tables, factions, ranks and the fixed numbers of the game.

    ``cards`` are the distinct characters; ``factions`` are faction ids (in the order given, or
    ``FACTIONS``), or :class:`~rules_engine.model.cards.Faction` objects. Raises ``ValueError`` when a card
    names an unknown faction, rank or effect kind.
    """

    def __init__(self, cards: Sequence[Card], factions: Sequence | None = None, *, waves: int = WAVES,
                 pool_size: int = POOL_SIZE, start_gold: int = START_GOLD, steps: Sequence[int] = STEPS):
        self.cards = tuple(cards)
        ids = [getattr(f, "id", f) for f in (factions or FACTIONS)]
        self.factions = tuple(ids)
        self.faction_index = {f: i for i, f in enumerate(self.factions)}
        self.ranks = RANKS
        self.rank_index = {r: i for i, r in enumerate(RANKS)}
        self.waves, self.pool_size, self.start_gold, self.steps = waves, pool_size, start_gold, tuple(steps)
        self.card_by_id = {c.id: c for c in self.cards}

        kinds, faction, rank, power, influence, delta, consolation, ability = [], [], [], [], [], [], [], []
        self.copies_of = {}
        for kind_index, card in enumerate(self.cards):
            if card.faction not in self.faction_index:
                raise ValueError(f"card {card.id!r}: unknown faction {card.faction!r}")
            if card.rank not in self.rank_index:
                raise ValueError(f"card {card.id!r}: unknown rank {card.rank!r}")
            compiled = None
            if card.ability is not None:
                handler = HANDLERS.get(card.ability.kind)
                if handler is None or card.ability.kind not in EFFECTS:
                    raise ValueError(f"card {card.id!r}: no handler for effect kind {card.ability.kind!r}")
                params = dict(card.ability.params)
                for name, spec in EFFECTS[card.ability.kind].params.items():
                    params.setdefault(name, spec.default)
                compiled = CompiledAbility(card.ability.kind, card.ability.step, handler,
                                           handler.compile(params, self))
            gold = card.stat("income") - card.stat("cost")
            numbers = []
            for _ in range(card.copies):
                numbers.append(len(kinds))
                kinds.append(kind_index)
                faction.append(self.faction_index[card.faction])
                rank.append(self.rank_index[card.rank])
                power.append(card.stat("power"))
                influence.append(card.stat("influence"))
                delta.append(gold)
                consolation.append(card.stat("consolation"))
                ability.append(compiled)
            self.copies_of[card.id] = tuple(numbers)
        self.kind = tuple(kinds)             # physical card -> index in self.cards
        self.faction = tuple(faction)        # printed (original) faction index
        self.rank = tuple(rank)
        self.power = tuple(power)
        self.influence = tuple(influence)
        self.delta = tuple(delta)            # gold change when played: income, or minus the cost
        self.consolation = tuple(consolation)
        self.ability = tuple(ability)
        self.ncards = len(kinds)
        self.has_extra_play = any(a is not None and a.handler.extra_play for a in ability)
        #: cards whose ability resolves at a step, for a quick skip of plain characters
        self.has_step_ability = tuple(a is not None and a.step is not None for a in ability)

    def card_id(self, number: int) -> str:
        """The card id of a physical card number."""
        return self.cards[self.kind[number]].id

    def card_of(self, number: int) -> Card:
        return self.cards[self.kind[number]]

    def max_players(self) -> int:
        """Most players the deck can deal full pools to."""
        return self.ncards // self.pool_size
