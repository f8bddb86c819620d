"""Shadow Queen's fast paths: seeded games recorded from the engine and the greedy bot of this round (the
bot draws a tie-break only where destinations tie, so these games differ from those of 6b6e047), the fast
play loop against the core's, and at every decision of whole games every fact kept between decisions
against the same fact worked out afresh, every shortcut of the engine and of the bot against the full
work it skips."""

import hashlib
import json

import pytest

import rules_engine.shadow_queen as sq
from pnp.loading.gamedata import load_game
from rules_engine.core.play import play_batch
from rules_engine.shadow_queen.bots import CARD_VALUE, GreedyBot, fill_scores, route_row
from rules_engine.shadow_queen.state import DISCARD, FINISH, MOVE, OVER, PASS_ACTION, PIECE, Action

GAME = load_game("shadow_queen")
RULES = sq.rules_for(GAME)
#: The variant the study ships (data/shadow_queen/variants), as options.
STUDY = {"enthral_to_win": 7, "banish_to_win": 1, "draws_per_holding": 2, "turn_limit": 400}


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


#: (bots, seed, options) -> digest of the transcript's text, recorded with this round's engine and bot (the
#: random bots' game is also 91b6b48's: the engine plays the same game for the same decisions).
TRANSCRIPTS = [
    ("greedy", 0, {}, "e272541dba1cf667"),
    ("greedy", 1, {}, "be96b5f58ce3f4d5"),
    ("greedy,random", 3, {"turn_limit": 60}, "b9486e8f89d5e091"),
    ("random", 4, {"turn_limit": 40}, "3308e8b426d250f3"),
    ("greedy", 6, {"banish_to_win": 3, "enthral_to_win": 9, "kingdom_goal": "all"}, "0e5a0774161a8ac3"),
    ("greedy", 8, STUDY, "85479d25d56d3b77"),
]


@pytest.mark.parametrize("bots, seed, options, expected", TRANSCRIPTS)
def test_seeded_transcripts_are_those_recorded(bots, seed, options, expected):
    seats, state = sq.recorded_game(RULES, seed=seed, players=2, bots=bots.split(","), **options)
    assert digest("\n".join(sq.transcript_lines(state.events, GAME.cards, GAME.factions, seats))) == expected


def test_a_game_won_by_holdings_plays_as_recorded_and_reads_as_a_transcript():
    seats, state = sq.recorded_game(RULES, seed=5, players=2, bots=["greedy"], holdings_to_win=6,
                                    draws_per_holding=2)
    assert state.over_reason == "held"
    # (the events: the engine of 91b6b48 could not write this ending in words)
    assert digest("\n".join(map(repr, state.events))) == "b3253091d7540791"
    lines = sq.transcript_lines(state.events, GAME.cards, GAME.factions, seats)
    assert lines[-1] == "Shadows win: they control the holdings they needed as their turn ends."


def test_seeded_reports_and_experience_records_are_those_recorded():
    report = sq.simulate(RULES, games=30, seed=11, bots=("greedy",))
    assert digest(json.dumps(report, sort_keys=True)) == "cc8868a67ad08f1d"
    report = sq.simulate(RULES, games=30, seed=11, bots=("greedy",), holdings_to_win=6, turn_limit=120,
                         hand_per_holding=2)
    assert digest(json.dumps(report, sort_keys=True)) == "f795a29d322f5cf8"
    batch = play_batch(sq.ENGINE, RULES, range(12), 3, 2, ["greedy"], False, {"turn_limit": 200}, experience=True)
    assert digest(repr(batch)) == "b8433a0fe5d94067"


@pytest.mark.parametrize("seed, options", [(2, {}), (7, STUDY)])
def test_the_fast_loop_plays_the_core_loops_game(seed, options):
    fast = sq.play_game(RULES, ["greedy", "greedy"], seed, record=True, **options)
    core = sq.play_game(RULES, ["greedy", "greedy"], seed, record=True, generic=True, **options)
    assert fast.events == core.events and fast.decisions == core.decisions and fast.trace == core.trace


def plain_reach(state, start: int, steps: int) -> list[int]:
    """Where a piece with no half to keep to and no goal may move: the rulings' search written plainly (the
    engine's general search before its fast paths), for :meth:`GameState.destinations` to match."""
    r = state.rules
    if r.forest[start] and not state.path[start]:
        steps = min(steps, 1)
    out, seen, frontier = [start], {start}, [start]
    for step in range(steps):
        nxt = []
        for s in frontier:
            for j, need in r.links[s]:
                if j in seen or (need >= 0 and not state.bridge[need]):
                    continue
                slow = r.forest[j] and not state.path[j]
                if slow and step > 0:
                    continue
                seen.add(j)
                other = state.occ[j]
                if other >= 0 and r.holding_at[j] < 0:
                    if state.ctrl(other) != state.active or slow:
                        continue
                    nxt.append(j)
                    continue
                out.append(j)
                if not slow:
                    nxt.append(j)
        frontier = nxt
    return out


def plain_build_places(state, p: int, item: str, which: str) -> list[int]:
    """Where piece ``p`` may begin to build ``item``, written plainly (the engine before its fast path)."""
    r = state.rules
    here = state.pos[p]
    begun = {(b[2], b[3]) for b in state.builds}
    if item == "bridge":
        return [b for b, near in enumerate(r.site_near) if not state.bridge[b] and here in near
                and ("bridge", b) not in begun]
    if item == "path":
        return [here] if r.forest[here] and not state.path[here] and ("path", here) not in begun else []
    h = r.holding_at[here]
    if h >= 0 and not state.altar[h] and state._holding_ok(h, which) and ("altar", h) not in begun:
        return [h]
    return []


def plain_acts(state, p: int) -> list:
    """Every card and action of piece ``p`` where it stands, each card's targets searched in full."""
    r = state.rules
    out = [PASS_ACTION]
    s = state.pos[p]
    if s < 0 or r.cave[s]:
        return out
    for b in state.builds:
        if b[0] == p and b[4] < state.turn and state._build_ok(p, b[2], b[3], b[1]):
            out.append(Action(FINISH, p))
            break
    near = {}
    for c in state.playable_cards(p):
        out.extend(state.card_actions(p, c, near))
    return out


class CheckingBot(GreedyBot):
    """The greedy bot, checking before each decision that every fact kept between decisions (who may
    move, what each piece may play, where each kind heads for, each side's progress) is what working it
    out afresh gives, that the bot discards the card it values least, that
    the engine's shortcuts (where a piece may move, a quick no for cards with no target near, the card
    gate that skips listing a go's cards where none could aim at anything, the win
    checked only after what it reads changed, where a builder may build) give what the full work gives,
    and that the bot's move is one of the best by its full evaluation (every destination scored by the
    route rows of its goals; stays found without a search included)."""

    checked = 0
    chosen = 0
    discards = 0
    gated = 0

    def act(self, state, player, rng):
        fresh = state.clone()                      # a clone keeps nothing: everything is worked out again
        fresh._progress = None                     # (but the progress kept with the count of its changes)
        fresh._ctl_kept = [None, None]             # (and each side's pieces kept with the count of theirs)
        assert state.progress() == fresh.progress()
        if state.phase == DISCARD:                 # the bot's discard order against its rule: least valued first
            r = state.rules
            value = {c: (CARD_VALUE.get(r.card_kind[r.card_of[c]], 1), c) for c in state.hand[player]}
            assert super().act(state, player, rng).card == min(value, key=value.get)
            CheckingBot.discards += 1
        if state.phase == PIECE:
            assert state.movable() == fresh.movable() == fresh._movable()
            over = state.clone()
            over._check_win()
            assert over.phase != OVER
            r = state.rules
            for p in state.movable():
                assert state.playable_cards(p) == fresh.playable_cards(p)
                goals = self._goals(fresh, p, player) or [fresh.pos[p]]
                assert sorted(self._heading(state, p, player)[0]) == sorted(set(goals))
                here = state.pos[p]
                if not (r.needs_orders[p] and not state.possessed[p]) and r.piece_side[p] ^ state.possessed[p] == player:
                    assert state.destinations(p) == plain_reach(state, here, state.allowance(p))
                acts = fresh.clone()
                acts.current = p
                assert acts.act_actions() == plain_acts(acts, p)
                if r.piece_side[p] ^ state.possessed[p] == player and not state.builds:
                    # the card gate (kept for the version) never hides a card: wherever the piece may end
                    # its go with a card or action to play, the gate sends the go to the full listing
                    gate = state._card_gate(p)
                    for d in state.destinations(p):
                        there = fresh.clone()
                        there.pos[p], there.current = d, p
                        if len(plain_acts(there, p)) > 1:
                            assert gate is True or any(d in g for g in gate), (p, d)
                            CheckingBot.gated += 1
                for item, which in (("bridge", "controlled"), ("path", "controlled"), ("altar", "controlled"),
                                    ("altar", "other")):
                    assert state._build_places(p, item, which) == plain_build_places(state, p, item, which)
                CheckingBot.checked += 1
        action = super().act(state, player, rng)
        if state.phase == PIECE and action.verb == MOVE and not any(b[0] == action.piece for b in state.builds):
            p = action.piece
            dests = state.destinations(p)
            goals = self._goals(state, p, player) or [state.pos[p]]
            rows = [route_row(state.rules, tuple(state.bridge), g) for g in set(goals)]
            full = [min(row[s] for row in rows) + (3 if state.rules.cave[s] else 0) for s in dests]
            scores = [None] * len(dests)
            fill_scores(state.rules, self._heading(state, p, player), dests, scores)
            assert scores == full
            full[0] += 0.5
            assert action.dest in [s for s, v in zip(dests, full) if v == min(full)]
            CheckingBot.chosen += 1
        return action


@pytest.mark.parametrize("seed, options", [(0, {"turn_limit": 80}), (3, STUDY),
                                           (4, {"holdings_to_win": 6, "draws_per_holding": 2})])
def test_facts_kept_between_decisions_and_shortcuts_are_those_worked_out_afresh(seed, options):
    CheckingBot.checked = CheckingBot.chosen = CheckingBot.discards = CheckingBot.gated = 0
    state = sq.play_game(RULES, [CheckingBot(), CheckingBot()], seed, check=True, **options)
    assert state.is_over and state.violations == [] and CheckingBot.checked > 500 and CheckingBot.chosen > 200
    assert CheckingBot.discards > 20 and CheckingBot.gated > 20


def test_is_legal_gives_the_legal_lists_answer_at_every_decision():
    """The engine's own legality check (what the core loop checks every bot's action with, without listing
    about 40 moves a go) says yes to every legal action and no to moves of other pieces, to other spaces,
    and to actions of other phases and seats, at every decision of whole games."""
    import random

    from rules_engine.shadow_queen.simulate import new_state

    checked = 0
    for seed, options in ((1, {"turn_limit": 40}), (3, STUDY)):
        state = new_state(RULES, 2, **options)
        rng, probe = random.Random(seed), random.Random(seed + 1)
        bots = [GreedyBot(), GreedyBot()]
        others = [Action(MOVE, 0, dest=0), Action(MOVE, 20, dest=5), Action("end"), Action("pass"),
                  Action(MOVE, 3, 1, -1, 7), ("move", 2), "end", Action(DISCARD, card=0)]
        while not state.is_over:
            if state.is_chance():
                state.sample_chance(rng)
                continue
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            for a in legal:
                assert state.is_legal(seat, a) and not state.is_legal(1 - seat, a)
            probes = others + [Action(MOVE, probe.randrange(36), dest=probe.randrange(len(RULES.at)))
                               for _ in range(12)]
            for a in probes:
                assert state.is_legal(seat, a) == (a in legal), a
            checked += 1
            state.step(bots[seat].act(state, seat, rng))
    assert checked > 1000
