"""Shadow Queen's fast paths play the same games: digests recorded from the engine before them (main at
91b6b48, before the derived facts were kept between decisions), the fast play loop against the core's, and
every kept fact against the same fact worked out afresh at every decision of whole games."""

import hashlib
import json

import pytest

import rules_engine.shadow_queen as sq
from pnp.loading.gamedata import load_game
from rules_engine.core.play import play_batch
from rules_engine.shadow_queen.bots import GreedyBot, heading
from rules_engine.shadow_queen.state import PIECE

GAME = load_game("shadow_queen")
RULES = sq.rules_for(GAME)
#: The variant the study ships (data/shadow_queen/variants), as options.
STUDY = {"enthral_to_win": 7, "banish_to_win": 1, "draws_per_holding": 2, "turn_limit": 400}


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


#: (bots, seed, options) -> digest of the transcript's text, recorded with the engine before the fast paths.
TRANSCRIPTS = [
    ("greedy", 0, {}, "cc2d39025fad91f7"),
    ("greedy", 1, {}, "a34776be2b59caa0"),
    ("greedy,random", 3, {"turn_limit": 60}, "b9f9839646ea11c3"),
    ("random", 4, {"turn_limit": 40}, "3308e8b426d250f3"),
    ("greedy", 6, {"banish_to_win": 3, "enthral_to_win": 9, "kingdom_goal": "all"}, "3ae662432bf516af"),
    ("greedy", 8, STUDY, "8a4a086e8ac6ced2"),
]


@pytest.mark.parametrize("bots, seed, options, expected", TRANSCRIPTS)
def test_seeded_transcripts_are_those_of_the_engine_before_its_fast_paths(bots, seed, options, expected):
    seats, state = sq.recorded_game(RULES, seed=seed, players=2, bots=bots.split(","), **options)
    assert digest("\n".join(sq.transcript_lines(state.events, GAME.cards, GAME.factions, seats))) == expected


def test_a_game_won_by_holdings_plays_as_before_and_reads_as_a_transcript():
    seats, state = sq.recorded_game(RULES, seed=5, players=2, bots=["greedy"], holdings_to_win=6,
                                    draws_per_holding=2)
    assert state.over_reason == "held"
    # (the events: the engine before could not write this ending in words)
    assert digest("\n".join(map(repr, state.events))) == "9b1d7f772a45aa78"
    lines = sq.transcript_lines(state.events, GAME.cards, GAME.factions, seats)
    assert lines[-1] == "Shadows win: they control the holdings they needed as their turn ends."


def test_seeded_reports_and_experience_records_are_those_of_the_engine_before_its_fast_paths():
    report = sq.simulate(RULES, games=30, seed=11, bots=("greedy",))
    assert digest(json.dumps(report, sort_keys=True)) == "1cfedc7ddcd7f053"
    report = sq.simulate(RULES, games=30, seed=11, bots=("greedy",), holdings_to_win=6, turn_limit=120,
                         hand_per_holding=2)
    assert digest(json.dumps(report, sort_keys=True)) == "1ad0f90f0560d9e8"
    batch = play_batch(sq.ENGINE, RULES, range(12), 3, 2, ["greedy"], False, {"turn_limit": 200}, experience=True)
    assert digest(repr(batch)) == "cc0ded3590febb70"


@pytest.mark.parametrize("seed, options", [(2, {}), (7, STUDY)])
def test_the_fast_loop_plays_the_core_loops_game(seed, options):
    fast = sq.play_game(RULES, ["greedy", "greedy"], seed, record=True, **options)
    core = sq.play_game(RULES, ["greedy", "greedy"], seed, record=True, generic=True, **options)
    assert fast.events == core.events and fast.decisions == core.decisions and fast.trace == core.trace


class CheckingBot(GreedyBot):
    """The greedy bot, checking before each decision that every fact kept between decisions (who may
    move, what each piece may play, where each kind heads for) is what working it out afresh gives."""

    checked = 0

    def act(self, state, player, rng):
        fresh = state.clone()                      # a clone keeps nothing: everything is worked out again
        if state.phase == PIECE:
            assert state.movable() == fresh.movable() == fresh._movable()
            for p in state.movable():
                assert state.playable_cards(p) == fresh.playable_cards(p)
                rows, _ = self._heading(state, p, player)
                goals = self._goals(fresh, p, player) or [fresh.pos[p]]
                assert rows == heading(fresh, frozenset(goals))[0]
                CheckingBot.checked += 1
        return super().act(state, player, rng)


@pytest.mark.parametrize("seed, options", [(0, {}), (3, STUDY), (4, {"holdings_to_win": 6, "draws_per_holding": 2})])
def test_facts_kept_between_decisions_are_those_worked_out_afresh(seed, options):
    CheckingBot.checked = 0
    state = sq.play_game(RULES, [CheckingBot(), CheckingBot()], seed, check=True, **options)
    assert state.is_over and state.violations == [] and CheckingBot.checked > 500
