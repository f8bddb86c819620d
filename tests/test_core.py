"""The engine core through both engines: the core loop plays the same games as each engine's fast loop,
chance is explicit, clones are independent, determinizations keep what a seat knows, the generator is
not in the state, bots are named by spec, and Ctrl-C stops a simulation with worker processes cleanly."""

import os
import random
import signal
import subprocess
import sys
import time

import pytest

import rules_engine.behind_the_throne as btt
import rules_engine.shadow_throne as st
import rules_engine.valeria as valeria
from pnp.loading.gamedata import load_game
from rules_engine.core.bots import make_bot
from rules_engine.core.play import play
from rules_engine.core.state import State

GAMES = {"shadow_throne": st, "behind_the_throne": btt, "shadow_kingdoms_of_valeria": valeria}
RULES = {name: engine.rules_for(load_game(name)) for name, engine in GAMES.items()}
BOTS = {"shadow_throne": ["random", "greedy"], "behind_the_throne": ["random", "cautious"],
        "shadow_kingdoms_of_valeria": ["random", "planner", "quick"]}
#: Games with hidden information (Valeria has none: its decks and bag are chance events when drawn)
HIDDEN = ("shadow_throne", "behind_the_throne")


def new(name, players=4, **kw):
    return GAMES[name].ENGINE.new_state(RULES[name], players, **kw)


def cards_of(name, state):
    return sorted(state.all_cards())


@pytest.mark.parametrize("name", GAMES)
def test_the_core_loop_plays_the_same_games_as_the_fast_loop(name):
    engine = GAMES[name]
    for seed in range(6):
        bots = BOTS[name] * 2
        fast = engine.play_game(RULES[name], bots, seed, players=4, record=True, check=True)
        generic = engine.play_game(RULES[name], bots, seed, players=4, record=True, check=True, generic=True)
        assert fast.events == generic.events and fast.violations == generic.violations == []
        assert fast.returns() == generic.returns() and abs(sum(fast.returns()) - 1) < 1e-9 or fast.returns() == [0] * 4


@pytest.mark.parametrize("name", GAMES)
def test_chance_events_have_explicit_outcomes(name):
    """A game whose chance events are resolved one outcome at a time, by probability, plays to its end
    with every invariant kept."""
    state = new(name, check=True)
    rng = random.Random(3)
    assert state.is_chance() and state.to_move() == []
    explicit = 0
    bots = [make_bot(GAMES[name].BOTS, "random")] * 4
    while not state.is_over:
        if state.is_chance():
            outcomes = state.chance_outcomes()
            assert outcomes and abs(sum(p for _, p in outcomes) - 1) < 1e-9
            State.sample_chance(state, rng)      # the generic way: pick one listed outcome
            explicit += 1
            continue
        movers = state.to_move()
        state.apply_actions({p: bots[p].act(state, p, rng) for p in movers})
    assert explicit > 40 and state.violations == []


def test_shadow_throne_deals_pools_one_card_at_a_time():
    state = new("shadow_throne", players=3)
    assert state.phase == "deal"
    rules = RULES["shadow_throne"]
    kinds = state.chance_outcomes()
    assert len(kinds) == 27                                          # copies of a character are alike
    assert all(abs(p - len(rules.copies_of[rules.card_id(card)]) / 54) < 1e-9 for card, p in kinds)
    for _ in range(18):
        state.apply_chance(state.chance_outcomes()[0][0])
    assert state.phase == "draft" and [len(p) for p in state.pools] == [6, 6, 6] and len(state.deck) == 36
    with pytest.raises(st.IllegalAction):
        state.apply_chance(0)


@pytest.mark.parametrize("name", GAMES)
def test_clones_are_independent(name):
    engine = GAMES[name]
    state = engine.play_game(RULES[name], ["random"] * 4, 5, players=4)
    state = new(name)
    rng = random.Random(1)
    bots = [make_bot(engine.BOTS, "random")] * 4
    for _ in range(12):                               # into the game
        if state.is_chance():
            state.sample_chance(rng)
        else:
            state.apply_actions({p: bots[p].act(state, p, rng) for p in state.to_move()})
    before = [state.information_state(p) for p in range(4)], cards_of(name, state)
    copy = state.clone()
    play(copy, bots, random.Random(2))
    assert copy.is_over and not state.is_over
    assert ([state.information_state(p) for p in range(4)], cards_of(name, state)) == before


@pytest.mark.parametrize("name", HIDDEN)
def test_a_determinization_keeps_what_the_seat_knows(name):
    engine = GAMES[name]
    rng = random.Random(9)
    bots = [make_bot(engine.BOTS, "random")] * 4
    state = new(name)
    checked = 0
    while not state.is_over and checked < 30:
        if state.is_chance():
            state.sample_chance(rng)
            continue
        p = state.to_move()[0]
        seen = state.information_state(p)
        others = set()
        for _ in range(5):
            d = state.determinize(p, rng)
            assert d.information_state(p) == seen                   # the seat sees the same game
            assert sorted(d.all_cards()) == sorted(state.all_cards())
            assert d.to_move() == state.to_move() and sorted(map(str, d.legal_actions(p))) == \
                sorted(map(str, state.legal_actions(p)))
            others.add(str(d.deck[-3:]))
        assert len(others) > 1                                       # ... but hidden cards are sampled again
        checked += 1
        state.apply_actions({q: bots[q].act(state, q, rng) for q in state.to_move()})
    assert checked == 30


@pytest.mark.parametrize("name", GAMES)
def test_the_state_holds_no_random_generator(name):
    state = new(name)
    assert not any(isinstance(v, random.Random) for v in vars(state).values())
    seeded = GAMES[name].GameState(RULES[name], 4, seed=3)           # a hand-played state deals itself
    assert not any(isinstance(v, random.Random) for v in vars(seeded.clone()).values())
    assert not hasattr(state, "rng")


@pytest.mark.parametrize("name", GAMES)
def test_the_search_bot_plays_legal_moves_reproducibly(name):
    engine = GAMES[name]
    bots = ["search:6", "random", "random"]
    a = engine.play_game(RULES[name], bots, 4, players=3, record=True, check=True)
    b = engine.play_game(RULES[name], bots, 4, players=3, record=True, check=True)
    assert a.is_over and a.violations == [] and a.events == b.events


@pytest.mark.parametrize("spec, message", [
    ("clever", "unknown bot 'clever'; known bots: random, greedy, search"),
    ("search:0", "search:0: the budget must be between 1 and 1000000 simulations"),
    ("search:many", "search:many: the budget is a whole number of simulations"),
    ("random:3", "bot 'random' takes no argument"),
])
def test_bot_specs(spec, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        make_bot(st.BOTS, spec)
    assert make_bot(st.BOTS, "search:25").simulations == 25
    assert make_bot(st.BOTS, "search:25").name == "search:25"


@pytest.mark.slow
def test_ctrl_c_stops_a_simulation_with_workers_cleanly():
    """Ctrl-C reaches the whole process group, as from a terminal: one line, exit 130, no traceback."""
    proc = subprocess.Popen([sys.executable, "-m", "pnp", "simulate", "--games", "2000000", "--jobs", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    children = f"/proc/{proc.pid}/task/{proc.pid}/children"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(open(children).read().split()) < 2:   # the pool's workers
        time.sleep(0.1)
    time.sleep(0.5)
    os.killpg(proc.pid, signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("pnp simulate hung after Ctrl-C")
    assert proc.returncode == 130, err
    assert err.strip().splitlines() == ["pnp simulate: interrupted; no report"]
    assert out == ""


def test_valeria_has_nothing_to_determinize():
    """Nothing on Valeria's table is hidden (the decks' order and the bag's draws are chance events when
    they happen), so a determinization is the same game, seen the same way."""
    name = "shadow_kingdoms_of_valeria"
    bots = [make_bot(valeria.BOTS, "random")] * 4
    rng = random.Random(4)
    state = new(name)
    checked = 0
    while not state.is_over and checked < 30:
        if state.is_chance():
            state.sample_chance(rng)
            continue
        p = state.to_move()[0]
        d = state.determinize(p, rng)
        assert d is not state and d.information_state(p) == state.information_state(p)
        assert d.legal_actions(p) == state.legal_actions(p) and sorted(d.all_cards()) == sorted(state.all_cards())
        checked += 1
        state.apply_actions({q: bots[q].act(state, q, rng) for q in state.to_move()})
    assert checked == 30


#: Games with hidden cards and their player counts, for the search bot's blindness test.
SEARCH_HIDDEN = {"shadow_throne": 4, "behind_the_throne": 4, "shadow_queen": 2}


@pytest.mark.parametrize("name", SEARCH_HIDDEN)
def test_the_search_bot_does_not_see_hidden_cards(name):
    """The same decision, with the same generator, in two games that look the same to the seat to move
    but whose hidden cards (other hands, the deck's order) lie otherwise: the search bot decides from
    what its seat knows, not from where the real game's hidden cards are."""
    from rules_engine import engine_module

    engine = engine_module(load_game(name).engine)
    rules = RULES.get(name) or engine.rules_for(load_game(name))
    players = SEARCH_HIDDEN[name]
    state = engine.ENGINE.new_state(rules, players)
    search = make_bot(engine.BOTS, "search:16")
    bots = [make_bot(engine.BOTS, "random")] * players
    rng = random.Random(11)
    compared = moved = 0
    differed = False
    while not state.is_over and compared < 6:
        if state.is_chance():
            state.sample_chance(rng)
            continue
        p = state.to_move()[0]
        if len(state.legal_actions(p)) > 1 and moved % 3 == 0:
            other = state.determinize(p, random.Random(moved))
            assert other.information_state(p) == state.information_state(p)
            differed = differed or other.all_cards() != state.all_cards()
            assert search.act(other, p, random.Random(compared)) == search.act(state, p, random.Random(compared))
            compared += 1
        moved += 1
        state.apply_actions({q: bots[q].act(state, q, rng) for q in state.to_move()})
    assert compared == 6 and differed


@pytest.mark.parametrize("battle_end", [True, False])
def test_the_greedy_rollout_loop_plays_the_generic_loops_moves(battle_end):
    """Shadow Throne's rollout policy plays its rollouts in a loop of its own (``play_out``): the same
    returns as the search bot's generic loop with the policy's ``act`` and ``stop``, for every horizon,
    with the generator left in the same state, whether the rollout ends at the battle's end (the
    default) or at the horizon only. The moves are the same up to the last wave before the horizon
    (after it, kept cards and draft picks change nothing the estimate reads: only their draws are
    made)."""
    from rules_engine.core.search import SearchBot
    from rules_engine.shadow_throne.bots import GreedyRollout

    assert st.BOTS["search"]().rollout.battle_end       # the engine's search bot stops at the battle's end
    rollout = GreedyRollout(battle_end=battle_end)
    generic = SearchBot(horizon=20)
    # the same policy without play_out
    generic.rollout = type("Act", (), {"act": rollout.act, "stop": rollout.stop})()
    rng = random.Random(5)
    state = new("shadow_throne")
    bots = [make_bot(st.BOTS, "random")] * 4
    checked = same = skipped = 0
    while not state.is_over:
        if state.is_chance():
            state.sample_chance(rng)
            continue
        for horizon in (0, 3, 6, 9, 14, 20, 1000):
            generic.horizon = horizon
            a, b = state.clone(), state.clone()
            seed = checked * 7 + horizon
            rng_a, rng_b = random.Random(seed), random.Random(seed)
            assert rollout.play_out(a, rng_a, horizon) == generic._rollout(b, rng_b)
            assert rng_a.getstate() == rng_b.getstate()
            if a.phase == b.phase and a.phase not in ("draft", "keep"):
                assert a.information_state(0) == b.information_state(0) and a.all_cards() == b.all_cards()
                same += 1
            else:
                skipped += 1
            checked += 1
        state.apply_actions({q: bots[q].act(state, q, rng) for q in state.to_move()})
    assert checked > 70 and same > 20 and skipped > 10


@pytest.mark.parametrize("package", ["shadow_throne", "behind_the_throne", "valeria", "shadow_queen"])
def test_an_engine_state_imports_no_bots(package):
    """The state modules are below the bots: an engine passes its heuristic to the search bot
    (``registry(own, rollout=...)``) instead of its state importing the bots, at the top or in a function."""
    import ast
    import importlib.util

    path = importlib.util.find_spec(f"rules_engine.{package}.state").origin
    names = []
    for node in ast.walk(ast.parse(open(path, encoding="utf-8").read())):
        if isinstance(node, ast.ImportFrom):
            names.append(node.module or "")
        elif isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
    assert names and not [n for n in names if n.split(".")[-1] == "bots"]


def test_simulation_batches_are_sized_from_games_and_jobs():
    """A run is cut into about four batches per worker (at most 250 games each), so 50 games on two
    processes are shared out; the games and their results do not depend on the cut."""
    from rules_engine.core.executors import LocalExecutor
    from rules_engine.core.runs import batch_size, run_games

    assert [batch_size(50, 2), batch_size(10_000, 2), batch_size(50, 1), batch_size(3, 8), batch_size(90, 3, 8)] \
        == [7, 250, 250, 1, 8]

    class Recording(LocalExecutor):
        def run(self, engine_name, rules, batches, job, progress=None):
            self.batches = list(batches)
            return LocalExecutor(1).run(engine_name, rules, batches, job, progress)

    shared = Recording(2)
    results = run_games(st.ENGINE, RULES["shadow_throne"], games=50, seed=3, executor=shared)
    assert [len(b) for b in shared.batches] == [7] * 7 + [1]
    assert [i for b in shared.batches for i in b] == list(range(50))
    alone = run_games(st.ENGINE, RULES["shadow_throne"], games=50, seed=3, jobs=1)
    assert [r.winners for r in results] == [r.winners for r in alone] and len(alone) == 50
