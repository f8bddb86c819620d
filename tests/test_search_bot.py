"""The search bot (rules_engine/core/search.py): sequential halving over the heuristic's move and other
candidates, with the engine's heuristic as rollout policy. A toy game with one decision checks the
mechanism (the better action is found, the heuristic's move kept on a tie, the budget spent); the
registry's choice of heuristic and rollout; and, marked slow, a small seeded ladder run twice to show it
resumes and that ``search:100`` beats Behind the Throne's heuristic bot."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

from rules_engine.core.bots import Bot, make_bot, registry
from rules_engine.core.search import SearchBot
from rules_engine.core.state import IllegalAction, State

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Toy(State):
    """One seat picks an action; a chance event then decides the win with the action's odds."""

    n = 1

    def __init__(self, odds):
        self.odds, self.choice, self.result = odds, None, None

    def to_move(self):
        return [0] if self.choice is None else []

    def legal_actions(self, seat):
        return list(range(len(self.odds))) if self.choice is None else []

    def apply_actions(self, actions):
        if self.choice is not None or actions.get(0) not in range(len(self.odds)):
            raise IllegalAction(str(actions))
        self.choice = actions[0]

    def is_chance(self):
        return self.choice is not None and self.result is None

    def chance_outcomes(self):
        p = self.odds[self.choice]
        return [(1, p), (0, 1 - p)]

    def apply_chance(self, outcome):
        self.result = outcome

    @property
    def is_over(self):
        return self.result is not None

    def returns(self):
        return [float(self.result)]

    def clone(self):
        new = Toy(self.odds)
        new.choice, new.result = self.choice, self.result
        return new

    def information_state(self, seat):
        return (self.choice, self.result)

    def determinize(self, seat, rng):
        return self.clone()


class Always(Bot):
    def __init__(self, action):
        self.action = action

    def act(self, state, seat, rng):
        return self.action


class Counting(SearchBot):
    """Counts the simulations it plays."""

    played = 0

    def _value(self, state, player, action, rng):
        self.played += 1
        return super()._value(state, player, action, rng)


def test_the_search_finds_the_better_action_over_the_heuristics():
    bot = Counting(100, heuristic=Always(0))
    assert bot.act(Toy([0.5, 0.2, 0.9, 0.5]), 0, random.Random(1)) == 2
    assert bot.played == 100


def test_the_heuristics_move_is_kept_when_nothing_is_better():
    for seed in range(5):
        assert SearchBot(40, heuristic=Always(3)).act(Toy([0.5] * 6), 0, random.Random(seed)) == 3
    # without a heuristic, no move is preferred: the earliest drawn candidate of the tie
    picks = {SearchBot(40).act(Toy([0.5] * 6), 0, random.Random(seed)) for seed in range(8)}
    assert len(picks) > 1


def test_width_and_budget():
    """At most ``width`` candidates, the heuristic's among them; the budget bounds the simulations, except
    that every candidate gets at least one."""
    bot = Counting(100, heuristic=Always(7))
    assert bot.width == 10
    candidates = bot._candidates(list(range(30)), 7, random.Random(2))
    assert len(candidates) == 10 and candidates[0] == 7 and len(set(candidates)) == 10
    small = Counting(3, heuristic=Always(7))
    small.act(Toy([0.5] * 30), 0, random.Random(2))
    assert small.width == 2 and small.played == 2
    one = Counting(1)
    assert one.act(Toy([0.1, 0.9]), 0, random.Random(2)) in (0, 1) and one.played == 2
    assert Counting(100).act(Toy([0.3]), 0, random.Random(2)) == 0       # one legal action: no search


def test_the_registry_gives_the_search_bot_the_engines_heuristic():
    class Greedy(Bot):
        pass

    class Careful(Bot):
        pass

    fast = Bot()
    bots = registry({"greedy": Greedy, "careful": Careful})
    search = make_bot(bots, "search:25")
    assert isinstance(search.heuristic, Greedy) and search.rollout is search.heuristic
    # each search bot gets its own heuristic bot
    assert make_bot(bots, "search:25").heuristic is not search.heuristic
    search = make_bot(registry({"greedy": Greedy, "careful": Careful}, rollout=fast, heuristic="careful"), "search")
    assert isinstance(search.heuristic, Careful) and search.rollout is fast and search.simulations == 400
    assert make_bot(registry({}), "search:5").heuristic is None
    with pytest.raises(ValueError, match="the search bot's heuristic 'carefull' is not one of the engine's bots"):
        registry({"greedy": Greedy}, heuristic="carefull")


def test_every_bundled_engine_hands_its_heuristic_to_the_search_bot():
    from rules_engine.behind_the_throne.bots import BOTS as btt, CautiousBot
    from rules_engine.shadow_queen.bots import BOTS as sq, GreedyBot as SqGreedy
    from rules_engine.shadow_throne.bots import BOTS as st, GreedyBot, GreedyRollout
    from rules_engine.valeria.bots import BOTS as valeria, PlannerBot, PlanRollout

    for bots, heuristic, rollout in ((st, GreedyBot, GreedyRollout), (btt, CautiousBot, CautiousBot),
                                     (valeria, PlannerBot, PlanRollout), (sq, SqGreedy, SqGreedy)):
        search = make_bot(bots, "search:10")
        assert type(search.heuristic) is heuristic and type(search.rollout) is rollout


@pytest.mark.slow
def test_a_small_ladder_resumes_and_the_search_bot_beats_the_heuristic(tmp_path):
    """benchmarks/ladder_search.py: 24 games, then the same command with --games 40 plays only the 16 new
    games; the search bot's return is above the heuristic's with its 95 % interval (Behind the Throne,
    two players, ``search:100`` against ``cautious``: about 85 % on 116 games, benchmarks/README.md)."""
    out = tmp_path / "ladder.jsonl"
    command = [sys.executable, os.path.join(ROOT, "benchmarks", "ladder_search.py"), "behind_the_throne",
               "--against", "cautious", "--players", "2", "--out", str(out)]
    subprocess.run(command + ["--games", "24"], check=True, capture_output=True, text=True)
    first = out.read_text().splitlines()
    assert len(first) == 24
    run = subprocess.run(command + ["--games", "40"], check=True, capture_output=True, text=True)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert out.read_text().splitlines()[:24] == first and len(rows) == 40
    assert "24 games already in" in run.stdout
    assert [r["key"] for r in rows] == [f"cautious:{k}" for k in range(40)]
    assert [r["seat"] for r in rows] == [k % 2 for k in range(40)]
    diff = [r["search_return"] - r["heuristic_return"] for r in rows]
    mean = sum(diff) / len(diff)
    sd = (sum((d - mean) ** 2 for d in diff) / (len(diff) - 1)) ** 0.5
    assert mean - 1.96 * sd / len(diff) ** 0.5 > 0
    assert "difference, paired by game: +" in run.stdout
