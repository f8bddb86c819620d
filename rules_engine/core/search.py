"""A search bot for every engine: information-set Monte Carlo tree search (ISMCTS) through the core
state API only.

Each of the bot's ``simulations`` (its budget, ``search:400``) starts from a *determinization*: a copy
of the game in which everything the bot's seat cannot know is sampled again
(``State.determinize``), so the search never sees an opponent's hand or the order of the deck. The
simulation walks down a tree whose nodes are *information states* (``State.information_state``: what
the seat to move knows), as OpenSpiel's ISMCTS does, so statistics gathered in different
determinizations that look the same to a seat are shared. Opponents are searched the same way, each
from its own information states. Simultaneous choices (Shadow Throne's waves) are chosen seat by seat
from each seat's own node against the same state, then applied together (decoupled UCT).

In a node the action is chosen by UCB1 among the actions legal in this determinization, each
action's exploration term counting the visits in which it was available. One new node is added per
simulation; from there the game is played on with the engine's rollout policy (a bot the engine
passes in, ``registry(own, rollout=...)``: its cheap heuristic; without one ``State.random_action``)
for at most ``horizon`` decisions, or until the policy's ``stop(state)`` (if it has one) says so, then
scored with ``State.evaluate()`` when the engine has one (an estimate of the returns), or to the end
otherwise. A policy may play the rollout in a loop of its own
(``play_out(state, rng, horizon)``), which must play exactly the moves of the loop here
(``tests/test_core.py`` compares them). The bot plays the action visited most.

Randomness: the bot seeds its own generator with one number drawn from the game's generator, so a
game with a search bot is still reproducible from its seed.
"""

from __future__ import annotations

import math
import random
from functools import partial

from rules_engine.core.bot import Bot

DEFAULT_SIMULATIONS = 400
DEFAULT_HORIZON = 20
EXPLORATION = 0.7


class _Node:
    __slots__ = ("visits", "stats")

    def __init__(self):
        self.visits = 0
        self.stats = {}          # action -> [visits, total return, times available]


class SearchBot(Bot):
    """ISMCTS with a budget of ``simulations`` per decision (see the module docstring)."""

    name = "search"
    fast = False

    def __init__(self, simulations: int = DEFAULT_SIMULATIONS, horizon: int = DEFAULT_HORIZON,
                 exploration: float = EXPLORATION, rollout: Bot | None = None):
        if simulations < 1:
            raise ValueError("a search bot needs a budget of at least 1 simulation (search:400)")
        self.simulations = simulations
        self.horizon = horizon
        self.exploration = exploration
        self.rollout = rollout

    @classmethod
    def from_spec(cls, arg: str | None = None, rollout: Bot | None = None) -> "SearchBot":
        """``search`` or ``search:N`` (N simulations per decision), with the engine's ``rollout`` policy."""
        if arg is None:
            return cls(rollout=rollout)
        try:
            simulations = int(arg)
        except ValueError:
            raise ValueError(f"search:{arg}: the budget is a whole number of simulations, e.g. search:400") from None
        if not 1 <= simulations <= 1_000_000:
            raise ValueError(f"search:{arg}: the budget must be between 1 and 1000000 simulations")
        return cls(simulations, rollout=rollout)

    # ------------------------------------------------------------------ deciding

    def act(self, state, player, rng):
        legal = state.legal_actions(player)
        if len(legal) == 1:
            return legal[0]
        search_rng = random.Random(rng.random())
        nodes = {}
        # a determinization keeps what the seat knows, so its key at the root is worked out once
        root_key = state.information_state(player)
        for _ in range(self.simulations):
            self._simulate(state.determinize(player, search_rng), nodes, search_rng, player, root_key)
        root = nodes.get(root_key)
        if root is None:
            return legal[0]
        stats = root.stats
        order = {a: i for i, a in enumerate(legal)}
        return max(legal, key=lambda a: (stats[a][0] if a in stats else -1,
                                         stats[a][1] if a in stats else 0.0, -order[a]))

    def _simulate(self, state, nodes, rng, player=None, root_key=None):
        path = []
        expanded = False
        at_root = True
        while not state.is_over:
            if state.is_chance():
                state.sample_chance(rng)
                continue
            if expanded:
                break
            movers = state.to_move()
            joint = {}
            if len(movers) == 1:
                keys = [root_key if at_root and movers[0] == player else state.information_state(movers[0])]
            elif at_root:
                others = iter(state.information_states([p for p in movers if p != player]))
                keys = [root_key if p == player else next(others) for p in movers]
            else:
                keys = state.information_states(movers)
            for p, key in zip(movers, keys):
                legal = state.legal_actions(p)
                node = nodes.get(key)
                if node is None:
                    node = nodes[key] = _Node()
                    expanded = True
                action = self._select(node, legal, rng)
                joint[p] = action
                path.append((node, p, action))
            at_root = False
            if len(movers) == 1:
                state.step_action(joint[movers[0]])
            else:
                state.step_actions(joint)
        returns = self._rollout(state, rng)
        for node, p, action in path:
            node.visits += 1
            entry = node.stats[action]
            entry[0] += 1
            entry[1] += returns[p]

    def _select(self, node, legal, rng):
        stats = node.stats
        untried = []
        for a in legal:
            entry = stats.get(a)
            if entry is None:
                stats[a] = [0, 0.0, 1]
                untried.append(a)
            else:
                entry[2] += 1
                if entry[0] == 0:
                    untried.append(a)
        if untried:
            return untried[int(rng.random() * len(untried))]
        c = self.exploration
        best, best_score = None, -math.inf
        for a in legal:
            visits, total, available = stats[a]
            score = total / visits + c * math.sqrt(math.log(available) / visits)
            if score > best_score:
                best, best_score = a, score
        return best

    def _rollout(self, state, rng):
        rollout = self.rollout
        if rollout is None:
            policy = state.random_action
        else:
            play_out = getattr(rollout, "play_out", None)
            if play_out is not None:
                return play_out(state, rng, self.horizon)
            policy = partial(rollout.act, state)
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
