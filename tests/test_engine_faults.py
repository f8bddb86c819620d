"""A bot's or an outside engine's fault stops the run in bounded time with exit status 2 and one line naming the
engine (or the bot), the seat, the game's seed and the command that replays it: an illegal action, a bot that
raises, an engine that raises, a bot that never answers (the seconds per decision) and a game that never ends
(the decisions per game). The replay command it prints plays the same game to the same fault. The engine is
``tests/engines/faulty/faulty.py``, installed as an outside engine."""

import random
import shutil
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import rules_engine
from pnp.commands.cli import main
from rules_engine.core import faults
from rules_engine.core.seeds import derive_seed

HERE = Path(__file__).resolve().parent
ENGINE = HERE / "engines" / "faulty" / "faulty.py"
GAME = HERE / "engines" / "high_card_game"


@pytest.fixture
def game(tmp_path, monkeypatch):
    """High Card's game folder naming the installed engine 'faulty'."""
    monkeypatch.syspath_prepend(str(ENGINE.parent))
    real = rules_engine.installed_engines()
    monkeypatch.setattr(rules_engine, "installed_engines", lambda: {**real, "faulty": "faulty"})
    folder = tmp_path / "game"
    shutil.copytree(GAME, folder)
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text().replace("engine: high_card",
                                                                                 "engine: faulty"))
    monkeypatch.chdir(tmp_path)
    yield "game"
    sys.modules.pop("faulty", None)


def run(*args):
    started = time.monotonic()
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result, time.monotonic() - started


def line_of(text: str) -> int:
    """The line of ``faulty.py`` that holds ``text``."""
    return next(i for i, line in enumerate(ENGINE.read_text().splitlines(), 1) if text in line)


def first_hands(seed: int, players: int) -> list:
    """Each seat's hand when the first round begins (the deal of the game with this seed)."""
    import faulty
    from pnp.loading.gamedata import load_game

    state = faulty.GameState(faulty.rules_for(load_game("game")), players)
    rng = random.Random(seed)
    while state.is_chance():
        state.sample_chance(rng)
    return state.hands


def fails(args, message: str, seconds: float = 20):
    """``pnp ARGS`` ends with exit status 2 and ``error: MESSAGE`` alone, in bounded time; the replay command
    the message gives ends the same way."""
    result, took = run(*args)
    assert result.exit_code == 2, result.output
    assert result.output.splitlines() == [f"error: {message}"]
    assert took < seconds
    replay = message.split("; replay it: pnp ", 1)[1].split(" ")
    again, _ = run(*replay)
    assert again.exit_code == 2 and again.output == result.output
    return result


def test_an_illegal_action_names_the_bot_seat_seed_and_replay(game):
    seed = derive_seed("faulty", 0, 0)
    hand = sorted(set(first_hands(seed, 2)[0]))
    cheat = next(c for c in range(14) if c not in first_hands(seed, 2)[0])
    fails(["simulate", game, "--games", "5", "--players", "2", "--bots", "cheat,random"],
          f"the bot 'cheat' at seat 1 (rules engine 'faulty') chose {cheat}, which is not a legal action there "
          f"(legal: {', '.join(map(str, hand))}); game seed {seed}; replay it: pnp replay game --seed {seed} "
          f"--players 2 --bots cheat,random")


def test_an_illegal_action_in_a_worker_process_is_the_same_line(game):
    seed = derive_seed("faulty", 0, 0)
    result, _ = run("simulate", game, "--games", "6", "--players", "2", "--bots", "cheat,random", "--jobs", "2")
    assert result.exit_code == 2
    assert result.output.startswith(f"error: the bot 'cheat' at seat 1 (rules engine 'faulty') chose ")
    assert result.output.endswith(f"; game seed {seed}; replay it: pnp replay game --seed {seed} --players 2 "
                                  f"--bots cheat,random\n")


def test_a_bot_that_raises_names_the_bot(game):
    seed = derive_seed("faulty", 7, 0)
    fails(["balance", game, "--games", "4", "--players", "3", "--bots", "random,crash", "--seed", "7", "--out", "out"],
          f"the bot 'crash' at seat 2 (rules engine 'faulty') raised ZeroDivisionError: division by zero (at "
          f"faulty.py:{line_of('/ 0')}); game seed {seed}; replay it: pnp replay game --seed {seed} --players 3 "
          f"--bots random,crash,random")
    assert not Path("out").exists()


def test_an_engine_that_raises_names_the_engine(game):
    seed = derive_seed("faulty", 0, 0)
    fails(["simulate", game, "--games", "3", "--players", "2", "-o", "crash_round=2"],
          f"the rules engine 'faulty' raised KeyError: 'no such round' (at faulty.py:{line_of('no such round')}) "
          f"applying the seats' joint action; game seed {seed}; replay it: pnp replay game --seed {seed} "
          f"--players 2 --bots random,random -o crash_round=2")


def test_a_bot_that_never_answers_is_stopped_after_the_seconds_per_decision(game):
    seed = derive_seed("faulty", 0, 0)
    fails(["simulate", game, "--games", "3", "--players", "2", "--bots", "random,loop", "--decision-seconds", "0.5"],
          f"the bot 'loop' at seat 2 (rules engine 'faulty') took more than 0.5 s for one decision; game seed "
          f"{seed}; replay it: pnp replay game --seed {seed} --players 2 --bots random,loop --decision-seconds 0.5",
          seconds=10)


def test_a_game_that_never_ends_is_stopped_after_the_decisions_per_game(game):
    seed = derive_seed("faulty", 0, 0)
    fails(["simulate", game, "--games", "3", "--players", "2", "-o", "endless=1", "--max-decisions", "40"],
          f"the rules engine 'faulty' (seat 1, bot 'random') did not end the game within 40 decisions; game seed "
          f"{seed}; replay it: pnp replay game --seed {seed} --players 2 --bots random,random -o endless=1 "
          f"--max-decisions 40")


def test_validate_never_plays_an_unbounded_game(game, monkeypatch):
    import faulty

    # the default validate hook's games of an engine whose games never end: stopped at pnp's limit (made
    # smaller here, to keep the test short)
    monkeypatch.setattr(faults, "MAX_DECISIONS", 2000)
    monkeypatch.setattr(faulty.GameState, "step_actions", _endless(faulty.GameState.step_actions))
    result, took = run("validate", game)
    assert result.exit_code == 2 and took < 10
    seed = 0
    assert result.output.splitlines()[-1] == (
        f"error: the rules engine 'faulty' (seat 1, bot 'random') did not end the game within "
        f"{faults.MAX_DECISIONS} decisions; game seed {derive_seed('faulty', seed, 0)}; replay it: pnp replay game "
        f"--seed {derive_seed('faulty', seed, 0)} --players 2 --bots random,random")


def _endless(step):
    def step_actions(self, actions):
        self.endless = 1
        return step(self, actions)
    return step_actions


def test_a_bundled_engines_fault_is_a_bug_in_pnp(monkeypatch):
    from rules_engine.core import bots

    def broken(self, state, seat, rng):
        raise RuntimeError("a bug")
    monkeypatch.setattr(bots.RandomBot, "act", broken)
    result, _ = run("simulate", "shadow_queen", "--games", "1", "--bots", "random")
    assert result.exit_code == 70
    seed = derive_seed("shadow_queen", 0, 0)
    assert result.output.startswith(
        f"pnp: internal error (GameFault: the bot 'random' at seat 1 (rules engine 'shadow_queen') raised "
        f"RuntimeError: a bug (at test_engine_faults.py:")
    assert "This is a bug in pnp" in result.output and str(seed)[:10] in result.output


def test_a_pool_that_never_stops_does_not_hold_the_run_back():
    # CI hung once after a worker's fault: Pool.terminate() killed the workers, then waited for good on
    # the pool's task thread; the run's error now goes on after a bounded wait
    import threading
    import time

    from rules_engine.core.executors import _stop

    class Stuck:
        joined = False

        def __init__(self):
            self.release = threading.Event()

        def terminate(self):
            self.release.wait()          # blocks like the task thread's put on the queue's lock

        def join(self):
            self.joined = True

    stuck = Stuck()
    start = time.monotonic()
    _stop(stuck, seconds=0.2)
    assert time.monotonic() - start < 2 and not stuck.joined
    stuck.release.set()

    class Stops(Stuck):
        def terminate(self):
            pass

    stops = Stops()
    _stop(stops, seconds=5)
    assert stops.joined
