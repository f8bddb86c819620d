"""A search bot for every engine: determinized Monte Carlo search at the decision, through the core state
API only, playing the engine's own heuristic around it.

The budget (``search:N``, default 400) is ``N`` *simulations* per decision with a real choice. One
simulation takes one candidate action and plays on from it in one *determinization* of the game: a
copy in which everything the bot's seat cannot know is sampled again (``State.determinize``: opponents'
hands, the deck's order), so the search never reads hidden cards. From there every seat, the bot's own
included, plays the engine's *rollout policy* (its heuristic bot, below) for at most ``horizon``
decisions (default 20) or until the policy's ``stop(state)`` says so, and the position is scored by
``State.evaluate()`` (the engine's estimate of the returns), or played to the end when the engine has
no estimate. The simulation's value is the seat's return.

Which actions are tried, and how often (sequential halving, Karnin et al. 2013, as in Gumbel MuZero):

* The *candidates* are the engine heuristic's own choice (the *incumbent*) and other legal actions
  drawn at random, at most ``width`` in all (default: the square root of the budget, at least 2; every
  legal action when there are fewer).
* The budget is cut into rounds (log2 of the candidates); in each round every candidate still in is
  played on the same new determinizations with the same generator seeds (common random numbers: two
  candidates are compared on the same deals, rolls and replies, so a difference is the action's), and
  the better half by mean value goes on. The incumbent always goes on, so the last round compares the
  best challenger with the heuristic's choice on the same simulations.
* The bot plays the candidate with the best mean at the end; a tie keeps the incumbent.

So ``search:N`` is one step of policy improvement over the engine's heuristic (Tesauro and Galperin's
rollouts): against that heuristic, which is also the model of the other seats, it plays the action whose
continuations score best, and keeps the heuristic's move when nothing is shown to be better.

The policies: an engine passes its heuristic bot and, if it has a cheaper or faster form of it, a rollout
policy to its registry (``registry(own, heuristic=..., rollout=...)``); by default the heuristic is the
first of the engine's own bots that is not ``random``, and the rollout policy is the heuristic. Without
either the rollouts play ``State.random_action`` and no candidate is preferred. A policy may play whole
rollouts in a loop of its own (``play_out(state, rng, horizon)``), which must play exactly the moves of
the loop here (``tests/test_core.py`` compares them).

Randomness: the bot seeds its own generator with one number drawn from the game's generator, so a game
with a search bot is still reproducible from its seed, and the decision depends only on what the seat
knows (the determinizations are sampled from the seat's view).
"""

from __future__ import annotations

import math
import random
from functools import partial

from rules_engine.core.bot import Bot

DEFAULT_SIMULATIONS = 400
DEFAULT_HORIZON = 20


class SearchBot(Bot):
    """Determinized Monte Carlo search with sequential halving over a budget of ``simulations`` per
    decision (see the module docstring)."""

    name = "search"
    fast = False

    def __init__(self, simulations: int = DEFAULT_SIMULATIONS, horizon: int = DEFAULT_HORIZON,
                 rollout: Bot | None = None, heuristic: Bot | None = None, width: int | None = None):
        if simulations < 1:
            raise ValueError("a search bot needs a budget of at least 1 simulation (search:400)")
        self.simulations = simulations
        self.horizon = horizon
        self.heuristic = heuristic
        self.rollout = rollout if rollout is not None else heuristic
        self.width = width if width is not None else max(2, math.isqrt(simulations))

    @classmethod
    def from_spec(cls, arg: str | None = None, rollout: Bot | None = None,
                  heuristic: Bot | None = None) -> "SearchBot":
        """``search`` or ``search:N`` (N simulations per decision), with the engine's policies."""
        if arg is None:
            return cls(rollout=rollout, heuristic=heuristic)
        try:
            simulations = int(arg)
        except ValueError:
            raise ValueError(f"search:{arg}: the budget is a whole number of simulations, e.g. search:400") from None
        if not 1 <= simulations <= 1_000_000:
            raise ValueError(f"search:{arg}: the budget must be between 1 and 1000000 simulations")
        return cls(simulations, rollout=rollout, heuristic=heuristic)

    # ------------------------------------------------------------------ deciding

    def act(self, state, player, rng):
        legal = state.legal_actions(player)
        if len(legal) == 1:
            return legal[0]
        search_rng = random.Random(rng.random())
        incumbent = None
        if self.heuristic is not None:
            incumbent = self.heuristic.act(state.clone(), player, random.Random(search_rng.random()))
            if incumbent not in legal:
                incumbent = None
        candidates = self._candidates(legal, incumbent, search_rng)
        return self._halve(state, player, candidates, incumbent, search_rng)

    def _candidates(self, legal: list, incumbent, rng) -> list:
        """The incumbent first, then other legal actions in random order, ``width`` at most."""
        others = [a for a in legal if a != incumbent]
        rng.shuffle(others)
        first = [] if incumbent is None else [incumbent]
        return (first + others)[:max(self.width, 1 + len(first))]

    def _halve(self, state, player, candidates: list, incumbent, rng):
        """Sequential halving over ``candidates`` on common determinizations (the module docstring). A
        candidate that is not legal in a determinization (an engine whose actions name hidden cards) is
        left out of that simulation."""
        totals = {a: 0.0 for a in candidates}
        counts = {a: 0 for a in candidates}
        alive = list(candidates)
        rank = {a: i for i, a in enumerate(candidates)}      # ties: the incumbent, then the earlier drawn
        rounds = max(1, math.ceil(math.log2(len(alive))))
        left = self.simulations

        def order(a):
            n = counts[a]
            return (-totals[a] / n if n else math.inf, rank[a])

        for r in range(rounds):
            per = max(1, left // ((rounds - r) * len(alive)))
            for _ in range(per):
                world = state.determinize(player, rng)
                seed = rng.random()
                legal = set(world.legal_actions(player))
                for a in alive:
                    if a in legal:
                        totals[a] += self._value(world.clone(), player, a, random.Random(seed))
                        counts[a] += 1
            left -= per * len(alive)
            alive.sort(key=order)
            if r < rounds - 1:
                kept = alive[:(len(alive) + 1) // 2]
                if incumbent is not None and incumbent not in kept:
                    kept.append(incumbent)
                alive = kept
        return alive[0]

    def _value(self, state, player, action, rng) -> float:
        """The seat's return after ``action`` (the others of a simultaneous choice play the policy), then
        a rollout."""
        movers = state.to_move()
        if len(movers) == 1:
            state.step_action(action)
        else:
            act = self._policy(state)
            state.step_actions({p: action if p == player else act(p, rng) for p in movers})
        return self._rollout(state, rng)[player]

    def _policy(self, state):
        rollout = self.rollout
        return state.random_action if rollout is None else partial(rollout.act, state)

    def _rollout(self, state, rng):
        rollout = self.rollout
        if rollout is not None:
            play_out = getattr(rollout, "play_out", None)
            if play_out is not None:
                return play_out(state, rng, self.horizon)
        policy = self._policy(state)
        evaluate = getattr(state, "evaluate", None)
        # with no estimate the rollout plays to the end
        horizon = self.horizon if evaluate is not None else math.inf
        stop = getattr(rollout, "stop", None) if evaluate is not None else None
        is_chance, sample_chance, to_move = state.is_chance, state.sample_chance, state.to_move
        step_action, step_actions = state.step_action, state.step_actions
        steps = 0
        while not state.is_over:
            if is_chance():
                sample_chance(rng)
                continue
            if steps >= horizon or (stop is not None and stop(state)):
                return evaluate()
            movers = to_move()
            if len(movers) == 1:
                step_action(policy(movers[0], rng))
            else:
                step_actions({p: policy(p, rng) for p in movers})
            steps += 1
        return state.returns()


def softmax_returns(values, temperature: float) -> list[float]:
    """Estimated returns from per-seat scores: a softmax, so a clear leader counts nearly as a win."""
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    total = sum(weights)
    return [w / total for w in weights]
