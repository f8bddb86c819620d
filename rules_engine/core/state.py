"""The state API every engine implements, in the spirit of OpenSpiel's ``State``.

A game is a sequence of *decision nodes* (one or several seats choose at once: simultaneous moves are
a joint action), *chance nodes* (a shuffle, a die: the outcomes and their probabilities are listed)
and a *terminal* node with returns. Engines subclass :class:`State` and fill in the methods marked
"engine"; the play loop, the bots, the search bot, the simulations and the scenario replay use
nothing else.

The state never holds the game's random generator. Whoever drives the game (the play loop, a
scenario, the search bot inside its own simulations) resolves chance nodes with its own generator,
so a bot that clones the state cannot read the order of a deck that is still to be shuffled. What a
seat cannot see *now* (an opponent's hand, the order of a shuffled deck) is in the state, as it is in
a real game on the table; :meth:`information_state` says what one seat knows and
:meth:`determinize` samples the rest again, consistently with that knowledge.

For tests and play by hand a state can be made with ``auto_chance=random.Random(seed)``: it then
resolves its own chance nodes as they come (the generator is private and never copied by
:meth:`clone`).
"""

from __future__ import annotations

import random
from typing import Any, Hashable, Mapping, Sequence


class IllegalAction(ValueError):
    """An action that is not among the legal actions of the seat in the current node."""


class State:
    """One game in progress. Seats are numbered ``0 .. n - 1``.

    Engines implement: :meth:`to_move`, :meth:`legal_actions`, :meth:`apply_actions`,
    :attr:`is_over`, :meth:`returns`, :meth:`clone`, :meth:`information_state`,
    :meth:`determinize`, :meth:`action_to_string`, and for games with chance :meth:`is_chance`,
    :meth:`chance_outcomes` and :meth:`apply_chance`. The ``step_*`` and :meth:`sample_chance`
    methods are fast paths (no legality checks) with generic defaults; engines override them for
    speed, never to change what happens.
    """

    n: int = 0
    _auto_chance: random.Random | None = None
    #: The play loop's record of this game (:mod:`rules_engine.core.experience`): each seat's decisions,
    #: and the progress measure at the end of every unit of length. None outside a play loop; a clone
    #: sets ``trace`` to None so that searches leave no mark in it.
    decisions: list | None = None
    trace: list | None = None

    # ------------------------------------------------------------------ decisions (engine)

    def to_move(self) -> Sequence[int]:
        """Seats that choose now, all at once (empty at a chance node and at the end)."""
        raise NotImplementedError

    def legal_actions(self, player: int) -> list:
        """What ``player`` may choose now (empty when it is not among :meth:`to_move`)."""
        raise NotImplementedError

    def apply_actions(self, actions: Mapping[int, Any]) -> None:
        """Apply the joint action ``{seat: action}`` of every seat in :meth:`to_move`; raise
        :class:`IllegalAction` for a missing or illegal one."""
        raise NotImplementedError

    def action_to_string(self, player: int, action) -> str:
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        raise NotImplementedError

    def returns(self) -> list[float]:
        """Each seat's result at the end: 1 shared among the winners (1/k each for k tied), else 0."""
        raise NotImplementedError

    # ------------------------------------------------------------------ chance (engine)

    def is_chance(self) -> bool:
        """A chance event (a shuffle, a draw) must be resolved before anyone decides."""
        return False

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """The outcomes of the pending chance event with their probabilities (summing to 1)."""
        return []

    def apply_chance(self, outcome) -> None:
        raise IllegalAction("no chance event is pending")

    # ------------------------------------------------------------------ hidden information (engine)

    def clone(self) -> "State":
        """An independent copy that records no events, checks no invariants and resolves no chance
        by itself."""
        raise NotImplementedError

    def information_state(self, player: int) -> Hashable:
        """What ``player`` knows now, as a hashable key: two states with the same key look the same
        to that seat (the search bot shares statistics between them)."""
        raise NotImplementedError

    def information_states(self, players: Sequence[int]) -> list:
        """:meth:`information_state` of several seats at once (the seats of a simultaneous choice);
        engines may override it to work out what the seats see alike only once."""
        return [self.information_state(p) for p in players]

    def determinize(self, player: int, rng: random.Random) -> "State":
        """A clone in which everything ``player`` cannot know (opponents' hidden cards, the order of
        the deck) is sampled again with ``rng``, consistently with what ``player`` knows."""
        raise NotImplementedError

    # ------------------------------------------------------------------ generic helpers and fast paths

    def is_legal(self, player: int, action) -> bool:
        """Whether ``action`` is one of :meth:`legal_actions` of ``player`` now: what the play loop checks
        every bot's action with before it applies it. The default looks it up in the list; an engine may
        answer without listing every legal action (Shadow Queen lists about 40 a decision, to check one),
        never with another answer (``pnp check-engine`` compares the two)."""
        return action in self.legal_actions(player)

    def apply_action(self, action) -> None:
        """Apply the action of the one seat to move (checked)."""
        movers = self.to_move()
        if len(movers) != 1:
            raise IllegalAction(f"{len(movers)} seats choose now: use apply_actions")
        self.apply_actions({movers[0]: action})

    def step_actions(self, actions: Mapping[int, Any]) -> None:
        """Apply a joint action known to be legal (fast path; the default checks anyway)."""
        self.apply_actions(actions)

    def step_action(self, action) -> None:
        """Apply the legal action of the one seat to move (fast path)."""
        self.step_actions({self.to_move()[0]: action})

    def sample_chance(self, rng: random.Random) -> None:
        """Resolve the pending chance event with ``rng`` (engines override this with a fast path that
        draws the same distribution, e.g. a whole shuffle at once)."""
        outcomes = self.chance_outcomes()
        x = rng.random()
        for outcome, probability in outcomes:
            x -= probability
            if x < 0:
                break
        self.apply_chance(outcome)

    def random_action(self, player: int, rng: random.Random):
        """The random bot's choice: uniform over the legal actions unless the engine says otherwise."""
        actions = self.legal_actions(player)
        return actions[int(rng.random() * len(actions))]

    def settle(self) -> None:
        """Resolve pending chance events with the state's own generator, if it was given one."""
        rng = self._auto_chance
        if rng is not None:
            while self.is_chance():
                self.sample_chance(rng)

    def progress(self) -> Sequence[float]:
        """Each seat's progress measure now (the engine's score, influence, pieces taken): what lead
        changes, comebacks and stalls are counted on. Engines without one report none."""
        return ()

    def mark_progress(self) -> None:
        """Note the progress measure at the end of a unit of length (a battle, a turn, a round); the
        engine calls it, and it does nothing outside a play loop or in a clone."""
        if self.trace is not None:
            self.trace.append(tuple(self.progress()))

    def current_player(self) -> int | None:
        """The one seat to move, or None (nobody, several at once, or a chance node)."""
        movers = self.to_move()
        return movers[0] if len(movers) == 1 else None


def weighted_kinds(cards: Sequence[int], kind_of: Sequence[int]) -> list[tuple[int, float]]:
    """Chance outcomes for drawing one card from ``cards`` where copies of a kind are alike: one outcome
    per kind (its lowest card number stands for it), with probability copies / cards."""
    first, count = {}, {}
    for c in cards:
        k = kind_of[c]
        if k not in count:
            count[k] = 0
            first[k] = c
        elif c < first[k]:
            first[k] = c
        count[k] += 1
    total = len(cards)
    return [(first[k], count[k] / total) for k in sorted(count, key=lambda k: first[k])]


def shuffle(cards: list, random) -> None:
    """Fisher-Yates with ``random()`` floats: the shuffle every engine uses (a little faster than
    ``Random.shuffle``; as uniform in practice)."""
    for i in range(len(cards) - 1, 0, -1):
        j = int(random() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]
